#!/usr/bin/env bash
# gpu_sanitize.sh — runs the CUDA C that sgcc emitted under NVIDIA's
# compute-sanitizer (memcheck, racecheck, synccheck, initcheck) on a GPU
# machine and requires zero reported errors.  docs/RELIABILITY.md.
#
# Here (the build machine, which has sgcc):   scripts/pack_gpu.sh
# There (repository root, with .devbuild/):   OUT=/tmp/gpu_sanitize scripts/gpu_sanitize.sh
#
# What runs (all pre-translated by pack_gpu.sh; nothing needs sgcc there):
#   vector_add, stencil2d, matmul   sample hosts through sgrt (SGRT_DEVICE=cuda,
#                                   NVRTC builds the emitted CUDA C)
#   exec_barrier                    every split-barrier case (mbarrier, cp.async)
#   exec_groups                     every group kernel of tests/exec_groups,
#                                   nvcc -cubin, one work-group size (--quick)
#   exec_tangle                     the tangle-mask test for full and partial warps
# Each program runs once per tool; a run passes when the program passes its
# own checks and the tool's ERROR SUMMARY says 0 errors.  Sizes are small:
# racecheck and initcheck slow kernels down by 100x or more.
# Env: NVCC_ARCH (sm_90), SANITIZER (compute-sanitizer on PATH or under
# /usr/local/cuda/bin), TOOLS (default "memcheck racecheck synccheck initcheck").
set -u
root=$(pwd)
out=${OUT:-/tmp/gpu_sanitize}
mkdir -p "$out"
dev=${DEVBUILD:-$root/.devbuild}
[ -d "$dev/bin" ] || { echo "no .devbuild/: run scripts/pack_gpu.sh on the build machine"; exit 2; }
export LD_LIBRARY_PATH=$dev/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export SGRT_DEVICE=cuda SGRT_CACHE=0
san=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
[ -x "$san" ] || { echo "compute-sanitizer not found (set SANITIZER)"; exit 2; }
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
arch=${NVCC_ARCH:-sm_90}
tools=${TOOLS:-memcheck racecheck synccheck initcheck}
cuda_inc=$(dirname "$nvcc")/../include
nvidia-smi -L 2>/dev/null

# Build what needs nvcc: the group cubins + their CUDA host, the tangle host.
gen=$dev/groups_gen
mkdir -p "$out/groups" "$out/tangle"
ok_groups=1
for cu in "$gen"/*.cu; do
    name=$(basename "$cu" .cu)
    "$nvcc" -arch="$arch" -cubin -x cu -lineinfo -DSGC_SPEC_0=4u -o "$out/groups/$name.cubin" "$cu" ||
        ok_groups=0
done
cc -std=c17 -O1 -DEXEC_CUDA -I "$gen" -I "$cuda_inc" tests/exec_groups/exec_host.c \
    -o "$out/groups/exec_groups_cuda" -L "$cuda_inc/../lib64" -L "$cuda_inc/../lib64/stubs" \
    -lcuda -lm || ok_groups=0
ok_tangle=1
cp "$dev/gen/tangle_exec.cu" "$out/tangle/" 2>/dev/null &&
    "$nvcc" -arch="$arch" -std=c++17 -O2 -lineinfo -I tests/exec_tangle -I "$out/tangle" \
        -DTANGLE_CU='"tangle_exec.cu"' -o "$out/tangle/host_cuda" tests/exec_tangle/host_cuda.cu ||
    ok_tangle=0

"$nvcc" -arch="$arch" -std=c++17 -lineinfo -o "$out/synccheck_probe" \
    tests/exec_barrier/synccheck_probe.cu || echo "synccheck_probe: build failed"

summary=$out/summary.txt
printf '%-14s %-10s %-6s %7s %5s  %s\n' program tool status errors secs "program says" | tee "$summary"
failed=0
check() { # check NAME TOOL CMD...
    local name=$1 tool=$2
    shift 2
    local log=$out/$name.$tool.log start=$SECONDS
    local extra=()
    [ "$tool" = racecheck ] && extra=(--racecheck-report all)
    timeout 1800 "$san" --tool "$tool" "${extra[@]}" --print-limit 20 --error-exitcode 99 \
        "$@" >"$log" 2>&1
    local rc=$?
    local errors
    errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | tail -1)
    local hazards
    hazards=$(sed -n 's/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' "$log" | tail -1)
    [ -n "$hazards" ] && errors=$((${errors:-0} + hazards))
    local status=ok
    { [ $rc -eq 0 ] && [ "${errors:-x}" = 0 ]; } || { status=FAIL; failed=1; }
    local said
    said=$(grep -E 'correct|passed|failed|FAIL' "$log" | grep -v '^=========' | tail -1 | cut -c1-60)
    printf '%-14s %-10s %-6s %7s %5d  %s (rc %d)\n' "$name" "$tool" $status "${errors:-?}" \
        $((SECONDS - start)) "$said" $rc | tee -a "$summary"
}

# A run whose reports are expected (the tool's limitation, shown by a probe
# written without sgcc): prints its count, does not fail the script.
check_expect_reports() { # NAME TOOL CMD...
    local name=$1 tool=$2
    shift 2
    local log=$out/$name.$tool.log
    timeout 600 "$san" --tool "$tool" --print-limit 2 "$@" >"$log" 2>&1
    local errors
    errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | tail -1)
    printf '%-14s %-10s %-6s %7s %5s  %s\n' "$name" "$tool" known "${errors:-?}" - \
        "expected: the tool's limitation (see synccheck_probe.cu)" | tee -a "$summary"
}

for tool in $tools; do
    check vector_add "$tool" "$dev/bin/vector_add" 100003
    check stencil2d "$tool" "$dev/bin/stencil2d" 257 129
    check matmul "$tool" "$dev/bin/matmul" 128 1
    if [ "$tool" = synccheck ]; then
        # synccheck reports every cp.async.mbarrier.arrive (arrive_copy_async)
        # as "Missing wait", NVIDIA's own __pipeline_arrive_on included
        # (synccheck_probe below), then kills the context: run the other
        # cases here, and the probe to show the report is the tool's.
        check exec_barrier "$tool" env BARRIER_TEST_SKIP=copy_overlap/inc,copy_bytes,tiled_double_buffer \
            "$dev/bin/exec_barrier"
        check probe_noinc "$tool" "$out/synccheck_probe" noinc
        check_expect_reports probe_inc "$tool" "$out/synccheck_probe" inc
    elif [ "$tool" = racecheck ]; then
        # drop_two_phase has lanes of one warp spin in mbarrier.try_wait on a
        # phase that lane 0 of the same warp completes after its own wait:
        # it needs independent thread scheduling's forward progress, which
        # racecheck's serialised scheduling did not give in 3 runs of
        # 2026-11-24 (no progress in 320-500 s; the same code finished once
        # on 2026-11-23; without the tool it runs in milliseconds).  The
        # other 17 cases take 4 s under racecheck.
        check exec_barrier "$tool" env BARRIER_TEST_SKIP=drop_two_phase "$dev/bin/exec_barrier"
    else
        check exec_barrier "$tool" "$dev/bin/exec_barrier"
    fi
    if [ $ok_groups = 1 ]; then
        check exec_groups "$tool" "$out/groups/exec_groups_cuda" -N 4 --no-divergent --quick \
            "$out/groups"
    else
        echo "exec_groups: build failed" | tee -a "$summary"; failed=1
    fi
    if [ $ok_tangle = 1 ]; then
        check tangle_64 "$tool" "$out/tangle/host_cuda" 64
        check tangle_60 "$tool" "$out/tangle/host_cuda" 60
    else
        echo "exec_tangle: build failed" | tee -a "$summary"; failed=1
    fi
done
echo "logs: $out/"
exit $failed
