#!/usr/bin/env bash
# intel-ocl-env.sh — prints the exports that make the ICD loader use the
# Intel CPU OpenCL runtime installed from PyPI (intel-opencl-rt), e.g.
#   eval "$(scripts/intel-ocl-env.sh)"
# Prints nothing when the runtime is not installed.
lib=$(python3 - <<'PY'
import importlib.metadata as md, os
try:
    dist = md.distribution("intel-opencl-rt")
except md.PackageNotFoundError:
    raise SystemExit
for f in dist.files or []:
    if str(f).endswith("libintelocl.so"):
        print(os.path.realpath(dist.locate_file(f)))
        break
PY
)
[ -n "$lib" ] || exit 0
dir=$(dirname "$lib")
echo "export OCL_ICD_FILENAMES='$lib'"
echo "export LD_LIBRARY_PATH='$dir'\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
