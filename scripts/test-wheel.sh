#!/usr/bin/env bash
# test-wheel.sh — the Python package as a user gets it (docs/PYTHON.md):
# clone the repository's committed HEAD, build a wheel with pip (meson-python
# and meson come into pip's isolated build environment), install it into a
# fresh virtual environment with PyOpenCL and NumPy, and there, outside any
# checkout and without SGCC_EXE, run docs/PYTHON.md's PyOpenCL example and
# the sgcc command the wheel puts on PATH; then `pip install` the clone
# itself into a second fresh venv.  Needs PyPI.  Slow (two builds of sgcc):
# not part of scripts/test.sh.  SGCC_WHEEL_SOURCE=DIR tests a copy of DIR
# instead of a clone.  Prints TAP.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
n=0 failed=0
check() { # check DESCRIPTION COMMAND...
    local what=$1
    shift
    n=$((n + 1))
    if "$@" >"$work/step.log" 2>&1; then
        echo "ok $n - $what"
    else
        failed=$((failed + 1))
        echo "not ok $n - $what"
        sed 's/^/# /' "$work/step.log" | tail -n 30
    fi
}
get_source() {
    if [ -n "${SGCC_WHEEL_SOURCE:-}" ]; then
        mkdir -p "$work/clone" && cp -a "$SGCC_WHEEL_SOURCE/." "$work/clone/"
    else
        git clone -q "$root" "$work/clone"
    fi
}
example() { # the PyOpenCL example of docs/PYTHON.md, as a file
    python3 - "$work/clone/docs/PYTHON.md" "$work/example.py" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
part = text.split("## PyOpenCL\n", 1)[1].split("\n## ", 1)[0]
(code,) = re.findall(r"```python\n(.*?)```", part, re.S)
open(sys.argv[2], "w").write(code)
PY
}
wheel_has_sgcc() { # the package's copy, the command for bin/, nothing of the C install
    local list
    list=$(python3 -m zipfile -l "$work"/dist/sgcc-*-py3-none-linux_*.whl) &&
        grep -q 'sgcc/_bin/sgcc ' <<<"$list" && grep -q '\.data/scripts/sgcc ' <<<"$list" &&
        ! grep -E '\.data/(headers|data)/|libsgrt' <<<"$list"
}
in_venv() { # in_venv VENV COMMAND... : run in the venv, away from the checkout
    local venv=$1
    shift
    (cd "$work" && env -u SGCC_EXE -u PYTHONPATH -u SGCC_BUILD_DIR PATH="$venv/bin:$PATH" \
        VIRTUAL_ENV="$venv" SGCC_CACHE_DIR="$work/cache" "$@")
}
compile_one() {
    in_venv "$1" python -c 'import sgcc, os
m = sgcc.compile(source="kernel void k(global int *o) { o[0] = 1; }")
assert m.kernels[0].name == "k", m
assert os.path.dirname(sgcc.find_executable()).endswith(os.path.join("sgcc", "_bin"))
print(sgcc.find_executable())'
}

echo "TAP version 13"
check "source of the package" get_source
check "pip wheel builds the wheel" python3 -m pip wheel -q --no-deps -w "$work/dist" "$work/clone"
check "py3-none-linux wheel with sgcc/_bin/sgcc and bin/sgcc, no C install" wheel_has_sgcc
check "fresh venv" python3 -m venv "$work/venv"
check "pip installs the wheel, pyopencl and numpy" \
    "$work/venv/bin/python" -m pip install -q "$work"/dist/sgcc-*.whl pyopencl numpy
check "sgcc.compile uses the wheel's sgcc" compile_one "$work/venv"
check "the sgcc command is on the venv's PATH" in_venv "$work/venv" sgcc --version
check "docs/PYTHON.md PyOpenCL example" example
check "the example runs in the venv" in_venv "$work/venv" python "$work/example.py"
check "second fresh venv" python3 -m venv "$work/venv2"
check "pip install of the clone" "$work/venv2/bin/python" -m pip install -q "$work/clone"
check "sgcc.compile after pip install ." compile_one "$work/venv2"
echo "1..$n"
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
