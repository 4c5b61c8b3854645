#!/bin/sh
# gpu_run.sh — the split-barrier execution tests on an NVIDIA GPU (sm_80+).
# Run from the repository root on the machine with the GPU:
#   sh tests/barrier/gpu_run.sh [OUTDIR]
# 1. CUDA: barrier.cuh (mbarrier + cp.async) with the shared kernels.
# 2. NVIDIA OpenCL, if its ICD is installed, in the three OpenCL variants of
#    barrier.cl: the nvptx tier (-DSGC_NV_PTX=1), the default emulation
#    (wait = work-group barrier) and the spin emulation.
# Every run is under timeout: a broken barrier deadlocks instead of failing.
set -u
root=$(pwd)
out=${1:-/tmp/sgc_barrier_gpu}
mkdir -p "$out"
status=0

nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null 2>&1 || nvcc=/usr/local/cuda/bin/nvcc
arch=${SGC_CUDA_ARCH:-native}
if "$nvcc" -arch="$arch" -O2 -I "$root/compiler/emit/cuda" -I "$root/tests/barrier" \
        "$root/tests/barrier/cuda_host.cu" -o "$out/barrier_cuda"; then
    timeout 120 "$out/barrier_cuda" || status=1
else
    echo "FAIL: CUDA build"; status=1
fi

nv_icd=$(ldconfig -p | awk '/libnvidia-opencl.so.1/ {print $NF; exit}')
if [ -n "$nv_icd" ]; then
    cuda_inc=$(dirname "$(command -v "$nvcc")")/../include
    if gcc -std=c17 -O1 -D_GNU_SOURCE -I "$cuda_inc" "$root/tests/barrier/ocl_host.c" \
            -o "$out/barrier_ocl" -L /usr/local/cuda/lib64 -lOpenCL; then
        for opts in "-DSGC_NV_PTX=1" "" "-DSGC_ASYNC_BARRIER_SPIN=1"; do
            OCL_ICD_FILENAMES=$nv_icd timeout 120 "$out/barrier_ocl" \
                "$root/compiler/emit/opencl/barrier.cl" "$root/tests/barrier" $opts || status=1
        done
    else
        echo "FAIL: OpenCL host build"; status=1
    fi
else
    echo "SKIP: no NVIDIA OpenCL ICD (libnvidia-opencl.so.1)"
fi
exit $status
