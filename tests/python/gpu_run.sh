#!/usr/bin/env bash
# gpu_run.sh — the Python tests on the GPU machine (CuPy and a CUDA device;
# PyOpenCL on NVIDIA's OpenCL when present).  From the repository root,
# after a build into build/:
#   tests/python/gpu_run.sh [pytest args]
# Installs pytest/numpy/pyopencl with pip when they are missing (CuPy must
# already be there), then runs the CuPy tests and the PyOpenCL example.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${SGCC_BUILD_DIR:-build}
[ -x "$build/compiler/sgcc" ] || { meson setup "$build" >/dev/null && meson compile -C "$build" >/dev/null; }
python3 -c 'import cupy' || { echo "gpu_run.sh: CuPy is not installed"; exit 1; }
python3 -c 'import pytest, numpy' 2>/dev/null ||
    python3 -m pip install -q pytest numpy 2>/dev/null ||
    python3 -m pip install -q --break-system-packages pytest numpy
export SGCC_EXE="$PWD/$build/compiler/sgcc" PYTHONPATH="$PWD/python"
python3 -m pytest -v tests/python/test_cupy.py tests/python/test_unit.py "$@"
# The CuPy example of docs/PYTHON.md, as written.
python3 - <<'PY'
import re, pathlib
text = pathlib.Path("docs/PYTHON.md").read_text()
part = text.split("## CuPy\n", 1)[1].split("\n## ", 1)[0]
(code,) = re.findall(r"```python\n(.*?)```", part, re.S)
exec(compile(code, "docs/PYTHON.md (CuPy example)", "exec"))
PY
