#!/usr/bin/env bash
# gpu_batch.sh — everything this project runs on a lent GPU machine, in one
# go (device time is scarce).  Run from the repo root after
# scripts/pack_gpu.sh filled .devbuild/ here.  Logs go to /tmp/gpu_batch;
# with $OUT set (the device tool) they come back as $OUT/logs.tgz plus
# $OUT/summary.txt (the tool returns at most 8 files).
set -u
root=$(pwd)
out=/tmp/gpu_batch
rm -rf "$out"
mkdir -p "$out"
export LD_LIBRARY_PATH=$root/.devbuild/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nv_ocl=/usr/local/nvidia/lib64/libnvidia-opencl.so.1
[ -f "$nv_ocl" ] && export OCL_ICD_FILENAMES=$nv_ocl
export SGRT_CACHE_DIR=/tmp/sgrt-cache CK_DEFAULT_TIMEOUT=300
bin=$root/.devbuild/bin
nvidia-smi -L

step() { # step NAME TIMEOUT CMD... : runs one step, logs, prints a status line
    local name=$1 limit=$2
    shift 2
    local start=$SECONDS
    timeout "$limit" "$@" >"$out/$name.log" 2>&1
    local rc=$?
    printf '%-28s rc=%-3d %4ds\n' "$name" "$rc" $((SECONDS - start)) | tee -a "$out/summary.txt"
    tail -n 12 "$out/$name.log"
}

# Independent nvcc-heavy steps run in the background while the sgrt runs go.
( step tangle 200 env SGCC="$bin/sgcc" tests/exec_tangle/gpu_run.sh "$bin/sgcc" ) >"$out/bg_tangle.txt" 2>&1 &
( step barrier 200 tests/exec_barrier/gpu_run.sh "$root/.devbuild/barrier_gen" "$out/barrier" ) >"$out/bg_barrier.txt" 2>&1 &
( step groups 300 env SKIP_POCL=1 tests/exec_groups/gpu_run.sh "$root/.devbuild/groups_gen" "$out/groups" ) >"$out/bg_groups.txt" 2>&1 &

step clprobe_pocl 60 "$bin/clprobe" Portable

for dev in cuda opencl:nvidia opencl:portable; do
    tag=${dev//:/_}
    step "groups_sample_$tag" 120 env SGRT_DEVICE=$dev "$bin/groups" 65536 4
    step "groups_sample8_$tag" 120 env SGRT_DEVICE=$dev "$bin/groups" 65536 8
done
step runtime_pocl 120 env SGRT_DEVICE=opencl:portable "$bin/test_runtime"

for dev in cuda opencl:nvidia; do
    tag=${dev//:/_}
    step "runtime_$tag" 120 env SGRT_DEVICE=$dev "$bin/test_runtime"
    step "kernel_unsupported_$tag" 120 env SGRT_DEVICE=$dev CK_FORK=no "$bin/test_kernel_unsupported"
    step "vector_add_$tag" 60 env SGRT_DEVICE=$dev "$bin/vector_add" 16777216
    step "stencil2d_$tag" 60 env SGRT_DEVICE=$dev "$bin/stencil2d" 4096 4096
    step "matmul_$tag" 90 env SGRT_DEVICE=$dev "$bin/matmul" 2048 11
    step "build_cache_$tag" 90 env SGRT_DEVICE=$dev "$bin/bench_build_cache" 11
    step "launch_overhead_$tag" 120 "$bin/bench_launch_overhead" "$dev" 100000 15
done
# cuda_base.cuh includes its operator rows, written by compiler/emit/gen_group_ops.c.
step shfl_masks 120 sh -c "cc -std=c17 -I compiler -o /tmp/gen_group_ops compiler/emit/gen_group_ops.c && /tmp/gen_group_ops /tmp && nvcc -O3 -arch=sm_90 -I compiler/emit/cuda -I /tmp -o /tmp/gpu_shfl_masks bench/gpu_shfl_masks.cu && /tmp/gpu_shfl_masks"
# Issue 25 items 4, 7, 16: sgcc's #error refusals on NVIDIA OpenCL and PoCL 5.
step refusal 240 sh tests/refusal/gpu_run.sh "$root/.devbuild/gen"
step vector_add_pocl 90 env SGRT_DEVICE=opencl:portable "$bin/vector_add" 1048576
# Not here: the PoCL 5 group matrix (khr tier, ballot + shuffle only).  Run
# it as its own device call, it needs several minutes of all cores:
#   tests/exec_groups/pocl_parallel.sh .devbuild/groups_gen/exec_groups \
#       .devbuild/groups_gen /tmp/pocl_matrix
# (one process per kernel, one program per group kind: PoCL 5 compiles
# each kernel for minutes; ONLY='_sg' ran every sub-group kernel in 370 s,
# ONLY='_wg|wg$' every work-group one in 380 s).  Keeping it out keeps this
# batch near 250 s, well inside the device tool's 600 s per call.
step reduce 240 env OUT="$out/reduce" samples/reduce/gpu_run.sh "$root/.devbuild"
wait
cat "$out"/bg_*.txt
echo "== summary"; cat "$out/summary.txt"
if [ -n "${OUT:-}" ]; then
    cp "$out/summary.txt" "$OUT/"
    tar -C "$out" -czf "$OUT/logs.tgz" .
fi
