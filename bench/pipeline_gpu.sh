#!/bin/sh
# pipeline_gpu.sh — the overlap figures for bench/RESULTS.md on the GPU
# machine: bench_pipeline (serial against pipelined copy-compute-copy) on
# CUDA and NVIDIA's OpenCL, page-locked and pageable host memory, plus the
# multidevice sample over every device there (CUDA, NVIDIA OpenCL, PoCL).
#
# Here:   scripts/pack_gpu.sh build-XX     (fills .devbuild/)
# There:  sh bench/pipeline_gpu.sh         (from the repository root)
#
# env: OUT (default /tmp/pipeline_gpu): pipeline.log, the tables.
# Exit status 0 when every run was correct.
set -u
root=$(pwd)
out=${OUT:-/tmp/pipeline_gpu}
mkdir -p "$out"
bin=$root/.devbuild/bin
export LD_LIBRARY_PATH=$root/.devbuild/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export SGRT_CACHE_DIR=${SGRT_CACHE_DIR:-/tmp/sgrt-cache}
# NVIDIA's OpenCL next to the registered platforms, when it is not registered.
for lib in /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1; do
    [ -f "$lib" ] && { export OCL_ICD_FILENAMES=$lib; break; }
done
log=$out/pipeline.log
: >"$log"
status=0
run() {
    echo "## $*" >>"$log"
    "$@" >>"$log" 2>&1 || status=1
}
# 64 Mi words (256 MiB each way): copies of tens of milliseconds on PCIe;
# iters chosen so the kernel is about as long as one direction's copies.
for dev in cuda:0 opencl:nvidia; do
    for iters in 64 512; do
        for chunks in 4 16; do
            run "$bin/bench_pipeline" -d "$dev" -n 67108864 -c "$chunks" -i "$iters" -r 5
        done
    done
    run "$bin/bench_pipeline" -d "$dev" -n 67108864 -c 16 -i 512 -r 5 --pageable
done
run "$bin/multidevice" -n 67108864
cat "$log"
exit $status
