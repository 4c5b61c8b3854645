#!/bin/sh
# pocl_parallel.sh HOST GEN_DIR LOG_DIR [PLATFORM] — the sgcc group matrix
# (exec_host.c --per-kind --local 64: every predicate pattern, one program
# per group kind, which PoCL 5's kernel compiler needs to finish; work-group
# size 64 only, because PoCL 5 makes the whole work-group one sub-group and
# sgcc's lane masks hold 64) on one OpenCL platform, one process per kernel
# of the matrix (cases.h), JOBS (16) at a time: PoCL compiles each kernel
# for minutes, and the GPU machine has the cores.
#
# LIMIT (540 s) bounds the whole run, so it fits one device-tool call;
# kernels not finished by then are listed.  ONLY (an extended regex) keeps
# only the kernels it matches, SKIP drops those it matches: a second call
# can take the kernels a first one did not reach.  Prints the totals and
# the unfinished kernels; exits 1 if any check failed, 2 if any kernel did
# not finish.
host=${1:?usage: pocl_parallel.sh HOST GEN_DIR LOG_DIR [PLATFORM]}
gen=${2:?}
logs=${3:?}
platform=${4:-Portable}
mkdir -p "$logs"
# The kernel names, the sub-group ones first: they take longest.
names=$(sed -n 's/.*X(.*"\([a-z0-9_]*\)").*/\1/p' "$gen/cases.h" |
    grep -E "${ONLY:-.}" | { if [ -n "${SKIP:-}" ]; then grep -vE "$SKIP"; else cat; fi; } |
    awk '{ print (/_sg/ ? 0 : 1), $0 }' | sort -s -k1,1n | cut -d' ' -f2)
[ -n "$names" ] || { echo "pocl_parallel: no kernel selected"; exit 2; }
echo "$names" | timeout "${LIMIT:-540}" xargs -P "${JOBS:-16}" -I{} sh -c \
    '"$1" -p "$2" -N 4 --per-kind --local 64 -k "$3" "$4" >"$5/$3.log" 2>&1; echo "$3 rc=$?" >>"$5/rc.txt"' \
    _ "$host" "$platform" {} "$gen" "$logs"
passed=0 failed=0 done_count=0 status=0 unfinished=
for name in $names; do
    line=$(grep -h ' checks passed, ' "$logs/$name.log" 2>/dev/null | tail -n 1)
    if [ -z "$line" ]; then
        unfinished="$unfinished $name"
        status=2
        continue
    fi
    set -- $line
    passed=$((passed + $1))
    failed=$((failed + $4))
    done_count=$((done_count + 1))
    [ "$4" = 0 ] || { echo "== $name"; grep -v '^[0-9]* checks passed' "$logs/$name.log" | tail -n 20; }
done
echo "pocl_parallel: $done_count kernels finished: $passed checks passed, $failed failed"
[ -z "$unfinished" ] || echo "pocl_parallel: not finished in ${LIMIT:-540} s:$unfinished"
[ "$failed" = 0 ] || status=1
exit $status
