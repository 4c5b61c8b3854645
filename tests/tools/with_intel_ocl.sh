#!/bin/sh
# with_intel_ocl.sh COMMAND [ARGS...] — runs COMMAND with the OpenCL ICD
# loader also pointed at the Intel CPU OpenCL runtime (listed first), which
# comes from PyPI (intel-opencl-rt) and is not registered with the loader.
# The runtime is looked up when the test runs (scripts/intel-ocl-env.sh);
# when it is not installed this prints why and exits 77, which meson reports
# as SKIP.  Every Intel execution test goes through here.
here=$(dirname "$0")
env=$("$here/../../scripts/intel-ocl-env.sh")
if [ -z "$env" ]; then
    echo "SKIP: the Intel CPU OpenCL runtime is not installed" \
         "(scripts/install-deps.sh installs the PyPI package intel-opencl-rt)"
    exit 77
fi
eval "$env"
exec "$@"
