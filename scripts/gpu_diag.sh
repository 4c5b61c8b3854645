#!/usr/bin/env bash
# gpu_diag.sh — diagnostics for open questions on the lent GPU machine, kept
# apart from gpu_batch.sh (which runs the suites).  Run from the repo root
# after scripts/pack_gpu.sh and bench/gpu_pack.sh filled .devbuild/ and .gpu/.
#   1. the GPU benchmark suite (bench/gpu_bench.sh), alone on the machine;
#   2. synccheck on exec_barrier, with the first reports in full (issue 8);
#   3. PoCL 5: one sub-group kernel launch with PoCL's own timing log and a
#      long limit, to tell a slow kernel compile from a hang (issue 4);
#   4. PoCL 5: the Reduce matrix (tests/reduce) once more.
# Logs go to $OUT (or /tmp/gpu_diag).
set -u
root=$(pwd)
out=${OUT:-/tmp/gpu_diag}
mkdir -p "$out"
dev=$root/.devbuild
export LD_LIBRARY_PATH=$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
nv_ocl=/usr/local/nvidia/lib64/libnvidia-opencl.so.1
[ -f "$nv_ocl" ] && export OCL_ICD_FILENAMES=$nv_ocl
export SGRT_CACHE=0
nvidia-smi -L

t0=$SECONDS
sh bench/gpu_bench.sh >"$out/bench.log" 2>&1
echo "bench rc=$? $((SECONDS - t0))s"

( t=$SECONDS
  SGRT_DEVICE=cuda timeout 300 "$san" --tool synccheck --print-limit 40 "$dev/bin/exec_barrier" \
      >"$out/synccheck.log" 2>&1
  echo "synccheck rc=$? $((SECONDS - t))s" >"$out/synccheck.status" ) &

( t=$SECONDS
  POCL_DEBUG=llvm,timing,general timeout 420 "$dev/groups_gen/exec_groups" -p Portable -N 4 --quick \
      --local 64 -v -k arith_sg_plus_int "$dev/groups_gen" >"$out/pocl_sg.log" 2>&1
  echo "pocl_sg rc=$? $((SECONDS - t))s" >"$out/pocl_sg.status" ) &

( t=$SECONDS
  timeout 400 "$dev/bin/test_reduce" -d opencl:1 -w 0 >"$out/reduce_pocl.log" 2>&1
  echo "reduce_pocl rc=$? $((SECONDS - t))s: $(tail -n 1 "$out/reduce_pocl.log")" >"$out/reduce_pocl.status" ) &
wait
cat "$out"/*.status
echo "== synccheck: distinct messages"
grep -E '^========= [A-Z]' "$out/synccheck.log" | sort | uniq -c | sort -rn | head -20
grep -E 'PASS|FAIL|passed' "$out/synccheck.log" | tail -20
echo "== pocl_sg (last lines)"
tail -n 25 "$out/pocl_sg.log" | cut -c1-200
echo "== bench"
cat "$out/bench.log" | tail -n 60
