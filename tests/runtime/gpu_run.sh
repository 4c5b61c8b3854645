#!/bin/sh
# gpu_run.sh — sgrt's native-handle interop and run-time compiles on an
# NVIDIA GPU machine: tests/runtime/test_interop_cuda (raw CUDA driver calls
# mixed with sgrt), test_compile and test_async on CUDA (NVRTC) and NVIDIA's
# OpenCL, test_interop on NVIDIA's OpenCL, test_abi, and
# bench_runtime_compile on both.
# Here, first:   scripts/pack_gpu.sh build      (fills .devbuild/)
# There, from the repository root:   sh tests/runtime/gpu_run.sh [.devbuild]
# Exit status 0 when every step passed; a skip (77) counts as a failure
# for the CUDA steps, since a GPU machine must run them.
set -u
dev=${1:-.devbuild}
export LD_LIBRARY_PATH=$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for icd in /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1; do
    if [ -f "$icd" ]; then
        export OCL_ICD_FILENAMES=$icd
        break
    fi
done
SGRT_CACHE_DIR=$(mktemp -d)
export SGRT_CACHE_DIR CK_DEFAULT_TIMEOUT=300
status=0
step() { # step NAME CMD...: runs with a time limit, prints the tail and rc
    name=$1
    shift
    echo "== $name"
    timeout 300 "$@" >"$SGRT_CACHE_DIR/$name.log" 2>&1
    rc=$?
    tail -n 25 "$SGRT_CACHE_DIR/$name.log"
    echo "== $name rc=$rc"
    [ "$rc" -eq 0 ] || status=1
}
step interop_cuda "$dev/bin/test_interop_cuda"
step compile_cuda env SGRT_DEVICE=cuda "$dev/bin/test_compile"
step async_cuda env SGRT_DEVICE=cuda "$dev/bin/test_async"
step async_nvidia_opencl env SGRT_DEVICE=opencl:nvidia "$dev/bin/test_async"
step abi_cuda env SGRT_DEVICE=cuda "$dev/bin/test_abi"
step compile_nvidia_opencl env SGRT_DEVICE=opencl:nvidia "$dev/bin/test_compile"
step interop_nvidia_opencl env SGRT_DEVICE=opencl:nvidia "$dev/bin/test_interop"
# (no sgcc column there: the GPU machine has only pack_gpu.sh's stand-in)
units="samples/matmul/matmul.sgc samples/reduce/reduce.sgc"
if [ -x "$dev/bin/bench_runtime_compile" ]; then
    step bench_compile_cuda "$dev/bin/bench_runtime_compile" cuda 5 - $units
    step bench_compile_nvidia_opencl "$dev/bin/bench_runtime_compile" opencl:nvidia 5 - $units
fi
rm -rf "$SGRT_CACHE_DIR"
exit $status
