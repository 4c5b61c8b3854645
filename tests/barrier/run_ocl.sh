#!/bin/sh
# run_ocl.sh — the split-barrier execution tests on this machine's CPU OpenCL
# devices: PoCL (the default ICD) and, when present, the Intel CPU runtime.
#   sh tests/barrier/run_ocl.sh BARRIER_OCL_BINARY   (from the repository root)
set -u
bin=$1
root=$(pwd)
status=0
timeout 300 "$bin" "$root/compiler/prelude/barrier.cl" "$root/tests/barrier" || status=1
intel=/root/.pyenv/versions/3.11.7/lib
if [ -f "$intel/libintelocl.so" ]; then
    LD_LIBRARY_PATH=$intel${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} OCL_ICD_FILENAMES=$intel/libintelocl.so \
        timeout 300 "$bin" "$root/compiler/prelude/barrier.cl" "$root/tests/barrier" || status=1
fi
exit $status
