#!/bin/sh
# gpu_run.sh — split barriers end to end on an NVIDIA GPU (sm_80+): the SGC
# samples and test units, as sgcc emitted them, run against the host
# references of tests/barrier/cases.h.  From the repository root:
#   sh tests/exec_barrier/gpu_run.sh [GEN_DIR] [OUT_DIR]
# GEN_DIR holds sgcc's output (NAME.cu, NAME.cl, NAME.h), by default the
# meson build's build-bar/tests/exec_barrier; when it has none and $SGCC
# (default build-bar/compiler/sgcc) runs, they are generated into OUT_DIR.
# 1. nvcc -arch=sm_90 -cubin of every emitted .cu, run by cuda_host.c
#    through the driver API;
# 2. if GEN_DIR/exec_barrier (the meson-built sgrt host) runs: through sgrt
#    on CUDA (NVRTC) and, when listed, NVIDIA OpenCL (nvptx tier, where the
#    subset-wait units run too).
# Every run is under timeout: a broken barrier deadlocks instead of failing.
set -u
root=$(pwd)
gen=${1:-$root/build-bar/tests/exec_barrier}
out=${2:-/tmp/sgc_exec_barrier_gpu}
arch=${NVCC_ARCH:-sm_90}
sgcc=${SGCC:-$root/build-bar/compiler/sgcc}
units="$root/samples/barriers/ring_exchange.sgc $root/samples/barriers/copy_overlap.sgc
$root/samples/barriers/drop_progressive.sgc $root/samples/barriers/tiled_double_buffer.sgc
$root/tests/exec_barrier/phase_rules.sgc $root/tests/exec_barrier/subset_waits.sgc"
mkdir -p "$out"
status=0

if ! ls "$gen"/*.cu >/dev/null 2>&1; then
    gen=$out
    for src in $units; do
        name=$(basename "$src" .sgc)
        "$sgcc" -t all -o "$gen/$name" --header "$gen/$name.h" "$src" || status=1
    done
fi

nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null 2>&1 || nvcc=/usr/local/cuda/bin/nvcc
cuda_inc=$(dirname "$(command -v "$nvcc")")/../include
cubins=
for src in $units; do
    name=$(basename "$src" .sgc)
    if "$nvcc" -arch="$arch" -cubin -x cu -o "$out/$name.cubin" "$gen/$name.cu"; then
        cubins="$cubins $out/$name.cubin"
    else
        echo "FAIL: nvcc $name.cu"; status=1
    fi
done
if cc -std=c17 -O1 -D_GNU_SOURCE -I "$cuda_inc" -I "$root/tests/barrier" \
        "$root/tests/exec_barrier/cuda_host.c" -o "$out/cuda_exec_barrier" \
        -L "$cuda_inc/../lib64" -L "$cuda_inc/../lib64/stubs" -lcuda; then
    # shellcheck disable=SC2086  # one word per CUBIN
    timeout 300 "$out/cuda_exec_barrier" $cubins || status=1
else
    echo "FAIL: CUDA host build"; status=1
fi

if [ -x "$gen/exec_barrier" ]; then
    SGRT_CACHE=0 SGRT_DEVICE=cuda timeout 300 "$gen/exec_barrier" || status=1
    if ldconfig -p | grep -q libnvidia-opencl.so.1; then
        SGRT_CACHE=0 SGRT_DEVICE=opencl:nvidia timeout 300 "$gen/exec_barrier" || status=1
    else
        echo "SKIP: no NVIDIA OpenCL ICD (libnvidia-opencl.so.1)"
    fi
else
    echo "SKIP: no $gen/exec_barrier (build it with meson for the sgrt runs)"
fi
exit $status
