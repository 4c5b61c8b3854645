#!/bin/sh
# run_ocl.sh — the split-barrier execution tests on this machine's CPU OpenCL
# devices: PoCL (the default ICD) and, when present, the Intel CPU runtime.
#   sh tests/barrier/run_ocl.sh BARRIER_OCL_BINARY   (from the repository root)
set -u
bin=$1
root=$(pwd)
status=0
timeout 300 "$bin" "$root/compiler/emit/opencl/barrier.cl" "$root/tests/barrier" || status=1
# The Intel CPU runtime, when installed (tests/tools/with_intel_ocl.sh finds
# it; exit 77 there means not installed).
sh "$root/tests/tools/with_intel_ocl.sh" \
    timeout 300 "$bin" "$root/compiler/emit/opencl/barrier.cl" "$root/tests/barrier"
case $? in
    0) ;;
    77) echo "barrier-opencl: Intel CPU runtime not installed, its half skipped" ;;
    *) status=1 ;;
esac
exit $status
