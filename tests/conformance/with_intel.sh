#!/bin/sh
# with_intel.sh COMMAND [ARGS...] — runs COMMAND with the OpenCL ICD loader
# pointed at the Intel CPU OpenCL runtime, found when the test runs by
# scripts/intel-ocl-env.sh; exits 77 (SKIP) when it is not installed.
here=$(dirname "$0")
env=$(bash "$here/../../scripts/intel-ocl-env.sh" 2>/dev/null)
if [ -z "$env" ]; then
    echo "SKIP: the Intel CPU OpenCL runtime is not installed (scripts/intel-ocl-env.sh found none)"
    exit 77
fi
eval "$env"
exec "$@"
