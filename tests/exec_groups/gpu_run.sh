#!/bin/sh
# gpu_run.sh — groups end to end on an NVIDIA GPU: the kernels of
# gen_exec.py as sgcc emitted them, checked against exec_host.c's host
# references.  From the repository root:
#   sh tests/exec_groups/gpu_run.sh [GEN_DIR] [OUT_DIR]
# GEN_DIR holds sgcc's output (<unit>.cl, <unit>.cu) and cases.h, by default
# the meson build's build-grp/tests/exec_groups; when it has none they are
# generated into OUT_DIR with $SGCC (default build-grp/compiler/sgcc).
# 1. CUDA: nvcc -arch=$NVCC_ARCH (sm_90) -cubin of every unit, run by
#    exec_host.c built with -DEXEC_CUDA through the driver API;
# 2. OpenCL on NVIDIA's platform (nvptx tier: -DSGC_NV_PTX=1 -DSGC_NV_SM=90);
# 3. OpenCL on PoCL (wg tier: work_group kernels run, sub-group units must
#    be refused with sgcc's #error; khr tier on PoCL 5, which has sub-groups).
# Opportunistic groups are skipped on the GPU (--no-divergent): which lanes
# run together is the hardware's choice there.  Every run is under timeout.
set -u
root=$(pwd)
gen=${1:-$root/build-grp/tests/exec_groups}
out=${2:-/tmp/sgc_exec_groups_gpu}
arch=${NVCC_ARCH:-sm_90}
sm=$(echo "$arch" | tr -dc 0-9)
sgcc=${SGCC:-$root/build-grp/compiler/sgcc}
fixed_n=${FIXED_N:-4}
mkdir -p "$out"
status=0

if ! ls "$gen"/*.cu >/dev/null 2>&1 || [ ! -f "$gen/cases.h" ]; then
    gen=$out
    python3 "$root/tests/exec_groups/gen_exec.py" "$gen" || exit 1
    for src in "$gen"/*.sgc; do
        "$sgcc" -t all -o "${src%.sgc}" "$src" || status=1
    done
fi

nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null 2>&1 || nvcc=/usr/local/cuda/bin/nvcc
cuda_inc=$(dirname "$(command -v "$nvcc")")/../include
for cu in "$gen"/*.cu; do
    name=$(basename "$cu" .cu)
    "$nvcc" -arch="$arch" -cubin -x cu -DSGC_SPEC_0="${fixed_n}u" -o "$out/$name.cubin" "$cu" ||
        { echo "FAIL: nvcc $name.cu"; status=1; }
done
if cc -std=c17 -O1 -DEXEC_CUDA -I "$gen" -I "$cuda_inc" "$root/tests/exec_groups/exec_host.c" \
        -o "$out/exec_groups_cuda" -L "$cuda_inc/../lib64" -L "$cuda_inc/../lib64/stubs" -lcuda -lm; then
    echo "== CUDA ($arch)"
    timeout 1200 "$out/exec_groups_cuda" -N "$fixed_n" --no-divergent "$out" || status=1
else
    echo "FAIL: CUDA host build"; status=1
fi

host=$gen/exec_groups
if [ ! -x "$host" ]; then
    host=$out/exec_groups
    cc -std=c17 -O1 -I "$gen" "$root/tests/exec_groups/exec_host.c" -o "$host" -lOpenCL -lm ||
        { echo "FAIL: OpenCL host build"; exit 1; }
fi
echo "== NVIDIA OpenCL (nvptx tier)"
timeout 1200 "$host" -p NVIDIA -o "-DSGC_NV_PTX=1 -DSGC_NV_SM=$sm" -N "$fixed_n" --no-divergent "$gen"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
# PoCL: the wg tier where it has no sub-groups, the khr tier (ballot +
# shuffle only) where it has them (PoCL 5).  SKIP_POCL=1 leaves it to
# pocl_parallel.sh, which spreads PoCL's slow compiles over the cores.
if [ "${SKIP_POCL:-0}" != 1 ]; then
    echo "== PoCL"
    timeout 1200 "$host" -p Portable -N "$fixed_n" --per-kind --local 64 "$gen"
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
fi
[ $status -eq 0 ] && echo "gpu_run: all passed" || echo "gpu_run: FAILURES"
exit $status
