#!/usr/bin/env bash
# gpu_campaign.sh [JOBS] — runs the modules gpu_pack.sh put beside this
# script on the GPU: CUDA (nvcc -cubin of sgcc's CUDA output, cudarun) and
# NVIDIA OpenCL (sgcc's OpenCL output with -DSGC_NV_PTX=1, the nvptx tier;
# diffrun), each compared with the host oracle (ref_main.c + MOD_ref.c,
# built here with cc).  nvcc runs JOBS at a time (default: the CPU count).
# Prints one line per module and backend and a summary; exit 1 on any
# mismatch.  Results: $OUT/diff_gpu_summary.txt when $OUT is set.
set -u
here=$(cd "$(dirname "$0")" && pwd)
jobs=${1:-$(nproc)}
arch=${NVCC_ARCH:-sm_90}
sm=${arch#sm_}
work=$(mktemp -d)
cd "$here"
nv_ocl=/usr/local/nvidia/lib64/libnvidia-opencl.so.1
[ -f "$nv_ocl" ] && export OCL_ICD_FILENAMES=$nv_ocl
nvcc -O1 -o "$work/cudarun" cudarun.c -lcuda || exit 2
have_ocl=1
cc -O1 -o "$work/diffrun" diffrun.c -lOpenCL 2>/dev/null || have_ocl=0
[ "$have_ocl" = 1 ] && ! "$work/diffrun" --has NVIDIA && have_ocl=0
start=$SECONDS
# compile every oracle and cubin in parallel
build_one() {
    base=$1 work=$2 arch=$3
    name=$(basename "$base")
    cc -O1 -w -I. "${base}_ref.c" ref_main.c -o "$work/${name}_ref" -lm 2>"$work/$name.refbuild" || true
    # shellcheck disable=SC2046
    nvcc -cubin -w -arch="$arch" $(sed -n 's/^options //p' "$base.manifest") -o "$work/$name.cubin" \
        "$base.cu" 2>"$work/$name.nvcc" || true
}
export -f build_one
ls mod/*.manifest | sed 's/\.manifest$//' | xargs -P "$jobs" -I{} bash -c 'base={}; build_one "$base" "$0" "$1"' "$work" "$arch"
modules=0 kernels=0 cuda_ok=0 cuda_bad=0 ocl_ok=0 ocl_bad=0 build_bad=0
[ -n "${OUT:-}" ] && exec > >(tee "$OUT/diff_gpu.log") 2>&1
for man in mod/*.manifest; do
    base=${man%.manifest} name=$(basename "$base")
    modules=$((modules + 1))
    nk=$(grep -c '^kernel' "$man")
    kernels=$((kernels + nk))
    if [ ! -x "$work/${name}_ref" ] || [ ! -f "$work/$name.cubin" ]; then
        echo "$name: build failed"; cat "$work/$name.refbuild" "$work/$name.nvcc" 2>/dev/null | tail -5
        build_bad=$((build_bad + 1)); continue
    fi
    mkdir -p "$work/$name.cuda" "$work/$name.ocl"
    if timeout 120 "$work/cudarun" "$man" "$work/$name.cubin" "$work/$name.cuda" >"$work/$name.cuda.log" 2>&1 &&
       "$work/${name}_ref" "$work/$name.cuda" >>"$work/$name.cuda.log" 2>&1; then
        cuda_ok=$((cuda_ok + nk)); echo "$name cuda: ok"
    else
        cuda_bad=$((cuda_bad + 1)); echo "$name cuda: MISMATCH"; tail -6 "$work/$name.cuda.log"
    fi
    [ "$have_ocl" = 1 ] || continue
    if timeout 300 "$work/diffrun" -p NVIDIA -o "-DSGC_NV_PTX=1 -DSGC_NV_SM=$sm" "$man" "$base.cl" \
           "$work/$name.ocl" >"$work/$name.ocl.log" 2>&1 &&
       "$work/${name}_ref" "$work/$name.ocl" >>"$work/$name.ocl.log" 2>&1; then
        ocl_ok=$((ocl_ok + nk)); echo "$name nvidia-opencl: ok"
    else
        ocl_bad=$((ocl_bad + 1)); echo "$name nvidia-opencl: MISMATCH"; tail -6 "$work/$name.ocl.log"
    fi
done
summary="modules=$modules kernels=$kernels cuda_kernels_ok=$cuda_ok cuda_bad_modules=$cuda_bad \
nvidia_opencl_kernels_ok=$ocl_ok nvidia_opencl_bad_modules=$ocl_bad build_failures=$build_bad \
nvidia_opencl_present=$have_ocl seconds=$((SECONDS - start))"
echo "$summary"
[ -n "${OUT:-}" ] && echo "$summary" >"$OUT/diff_gpu_summary.txt"
rm -rf "$work"
[ $((cuda_bad + ocl_bad + build_bad)) = 0 ]
