#!/usr/bin/env bash
# gpu_run.sh — the Python tests on the GPU machine (CUDA through CuPy, and
# NVIDIA's OpenCL through PyOpenCL: the nvptx tier).  From the repository
# root; that machine cannot build sgcc, so name one built here:
#   SGCC_EXE=build/compiler/sgcc tests/python/gpu_run.sh [pytest args]
# (carry the build's compiler/sgcc).  CuPy, NumPy and pytest are on that
# machine's image; PyOpenCL is installed from wheels carried in .gpu/wheels
# (pip download --no-deps --only-binary=:all: --python-version 3.12
# --platform manylinux_2_28_x86_64 pyopencl pytools platformdirs siphash24)
# when present, else the PyOpenCL tests skip.  Output goes to stdout and,
# with $OUT set, to $OUT/python_gpu.log.
set -uo pipefail
cd "$(dirname "$0")/../.."
exe=${SGCC_EXE:-${SGCC_BUILD_DIR:-build}/compiler/sgcc}
[ -x "$exe" ] || { echo "gpu_run.sh: no sgcc at $exe (set SGCC_EXE)"; exit 1; }
export SGCC_EXE=$(realpath "$exe")
work=$(mktemp -d)
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}" SGCC_CACHE_DIR="$work/cache"
if ! python3 -c 'import pyopencl' 2>/dev/null && ls .gpu/wheels/pyopencl-*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --target "$work/pylib" .gpu/wheels/*.whl \
        && export PYTHONPATH="$PYTHONPATH:$work/pylib"
fi
# PyOpenCL's bundled ICD loader reads OCL_ICD_VENDORS, not OCL_ICD_FILENAMES.
mkdir -p "$work/vendors"
cp /etc/OpenCL/vendors/*.icd "$work/vendors/" 2>/dev/null || true
for lib in /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
           $(ldconfig -p 2>/dev/null | awk '/libnvidia-opencl.so.1/ {print $NF}'); do
    [ -f "$lib" ] && { echo "$lib" >"$work/vendors/nvidia-gpu-run.icd"; break; }
done
export OCL_ICD_VENDORS="$work/vendors"
run() {
    nvidia-smi -L
    python3 -c 'import cupy, sys; print("python", sys.version.split()[0], "cupy", cupy.__version__)'
    python3 -c 'import pyopencl as cl; print([(p.name, [d.name for d in p.get_devices()]) for p in cl.get_platforms()])' ||
        echo "PyOpenCL not available: its tests skip"
    python3 -m pytest -p no:cacheprovider -rs -v tests/python "$@"
    local rc=$?
    echo "== docs/PYTHON.md CuPy example"
    python3 - <<'PY' || rc=1
import re, pathlib
text = pathlib.Path("docs/PYTHON.md").read_text()
part = text.split("## CuPy\n", 1)[1].split("\n## ", 1)[0]
(code,) = re.findall(r"```python\n(.*?)```", part, re.S)
exec(compile(code, "docs/PYTHON.md (CuPy example)", "exec"))
PY
    return $rc
}
if [ -n "${OUT:-}" ]; then
    run "$@" 2>&1 | tee "$OUT/python_gpu.log"
    rc=${PIPESTATUS[0]}
else
    run "$@"
    rc=$?
fi
rm -rf "$work"
exit "$rc"
