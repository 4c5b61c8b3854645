#!/bin/sh
# gpu_bench.sh — the GPU benchmark suite in one command: sgcc's CUDA and
# OpenCL (nvptx tier) output against hand-written CUDA baselines (warp
# shuffles, CUB, cooperative groups, cuda::barrier), every result checked
# against a host reference, tables printed at the end.  docs/GPU_BENCHMARKS.md
# describes what is measured.
#
# Here (has sgcc):   bench/gpu_pack.sh            -> .gpu/bench/ (sgcc output)
# There (the GPU):   sh bench/gpu_bench.sh        (from the repository root)
#
# options: --small   small sizes (a smoke test; not for RESULTS.md)
# env:     OUT             results directory (default /tmp/gpu_bench): the
#                          log, the raw records gpu_bench.tsv, tables gpu_bench.md
#          NVCC_ARCH       (sm_90)        GPU_BENCH_GEN (.gpu/bench)
#          GPU_BENCH_PLATFORM  OpenCL platform name substring (NVIDIA)
# Exit status: 0 all results correct, 1 a wrong result or a failed step.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
small=
[ "${1:-}" = "--small" ] && small=--small
gen=${GPU_BENCH_GEN:-$root/.gpu/bench}
out=${OUT:-/tmp/gpu_bench}
arch=${NVCC_ARCH:-sm_90}
platform=${GPU_BENCH_PLATFORM:-NVIDIA}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$out/gpu_bench.log
tsv=$out/gpu_bench.tsv
: >"$tsv"
: >"$log"
say() { echo "$*" | tee -a "$log"; }

if [ ! -f "$gen/gpu_kernels.cu" ] || [ ! -f "$gen/tiles.cl" ] || [ ! -f "$gen/matmul.cu" ]; then
    echo "gpu_bench: no sgcc output in $gen: run bench/gpu_pack.sh on the machine with sgcc" >&2
    exit 2
fi
say "== gpu_bench $(date -u +%Y-%m-%dT%H:%MZ), sgcc output: $(tr '\n' ' ' <"$gen/STAMP" 2>/dev/null)"
command -v nvidia-smi >/dev/null 2>&1 &&
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee -a "$log"
nv_ocl=/usr/local/nvidia/lib64/libnvidia-opencl.so.1
[ "$platform" = NVIDIA ] && [ -f "$nv_ocl" ] && export OCL_ICD_FILENAMES=$nv_ocl

nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null 2>&1 || nvcc=/usr/local/cuda/bin/nvcc
status=0
start=$(date +%s)

# Build: the nvcc steps run in parallel (CUB makes gpu_cuda.cu the slow one).
# sgcc's .cu files are compiled with the flags of the baselines.
nvflags="-arch=$arch -O3 -std=c++17"
build() { # build NAME CMD... (in the background; status in $work/NAME.rc)
    name=$1
    shift
    ( "$@" >"$work/$name.build" 2>&1; echo $? >"$work/$name.rc" ) &
}
have_nvcc=0
if command -v "$nvcc" >/dev/null 2>&1; then
    have_nvcc=1
    build gpu_kernels "$nvcc" $nvflags -c -x cu "$gen/gpu_kernels.cu" -o "$work/gpu_kernels.o"
    build tiles "$nvcc" $nvflags -c -x cu "$gen/tiles.cu" -o "$work/tiles.o"
    build matmul "$nvcc" $nvflags -DSGC_SPEC_0=32u -c -x cu "$gen/matmul.cu" -o "$work/matmul.o"
    build gpu_cuda "$nvcc" $nvflags -I "$root/bench" -c "$root/bench/gpu_cuda.cu" -o "$work/gpu_cuda.o"
else
    say "gpu_bench: no nvcc: CUDA part skipped"
fi
build gpu_ocl cc -std=c17 -O2 -I "$root/bench" "$root/bench/gpu_ocl.c" -o "$work/gpu_ocl" -lOpenCL -lm
wait
for step in gpu_kernels tiles matmul gpu_cuda gpu_ocl; do
    [ -f "$work/$step.rc" ] || continue
    if [ "$(cat "$work/$step.rc")" != 0 ]; then
        say "gpu_bench: build of $step failed:"
        tee -a "$log" <"$work/$step.build"
        status=1
    else
        grep -v '^$' "$work/$step.build" >>"$log" || true
    fi
done
say "== built in $(($(date +%s) - start)) s"

if [ $have_nvcc = 1 ] && [ "$(cat "$work/gpu_cuda.rc" 2>/dev/null)" = 0 ] &&
    "$nvcc" $nvflags "$work/gpu_cuda.o" "$work/gpu_kernels.o" "$work/tiles.o" "$work/matmul.o" \
        -o "$work/gpu_cuda" >>"$log" 2>&1; then
    say "== CUDA: sgcc output (nvcc) and hand-written baselines"
    { timeout 300 "$work/gpu_cuda" $small "$tsv"; echo $? >"$work/cuda.status"; } 2>&1 | tee -a "$log"
    rc=$(cat "$work/cuda.status")
    [ $rc = 0 ] || [ $rc = 77 ] || { say "gpu_bench: gpu_cuda exit $rc"; status=1; }
elif [ $have_nvcc = 1 ]; then
    say "gpu_bench: CUDA program not built"; status=1
fi
if [ "$(cat "$work/gpu_ocl.rc" 2>/dev/null)" = 0 ]; then
    say "== OpenCL ($platform): sgcc output"
    { timeout 240 "$work/gpu_ocl" $small -p "$platform" -g "$gen" "$tsv"; echo $? >"$work/ocl.status"; } 2>&1 |
        tee -a "$log"
    rc=$(cat "$work/ocl.status")
    [ $rc = 0 ] || [ $rc = 77 ] || { say "gpu_bench: gpu_ocl exit $rc"; status=1; }
fi

awk -f "$root/bench/gpu_tables.awk" "$tsv" >"$out/gpu_bench.md"
cat "$out/gpu_bench.md" | tee -a "$log"
say ""
say "== gpu_bench: $([ $status = 0 ] && echo 'all results correct' || echo FAILURES), $(($(date +%s) - start)) s; results in $out"
exit $status
