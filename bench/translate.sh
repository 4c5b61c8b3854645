#!/usr/bin/env bash
# translate.sh [SGCC] — translation speed of sgcc on generated inputs of
# 1k, 10k, 100k and 1M lines, with a peer measured in the same run: clang
# -fsyntax-only on the OpenCL C that sgcc emitted for the same input (what a
# device compiler's front end alone costs on that text).
#
# Each command runs RUNS times (default 3); the table keeps the best wall
# time and the best CPU time (user + system) of each: the machine may be
# shared, and the best run is the least disturbed.  lines/s are on the CPU
# time (wall is shown too).  Ratio = clang CPU / sgcc CPU (above 1: sgcc is
# faster than parsing its own output).  Peak RSS is sgcc's.
# Prints a Markdown table (paste into bench/RESULTS.md).
#   SIZES="1000 10000" RUNS=5 CLANG=clang-19 bench/translate.sh build/compiler/sgcc
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sgcc=${1:-$here/../build/compiler/sgcc}
clang=${CLANG:-clang}
runs=${RUNS:-3}
sizes=${SIZES:-1000 10000 100000 1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# best CMD... : prints "best_wall_s best_cpu_s peak_rss_kib" over $runs runs.
best() { python3 "$here/run_best.py" "$runs" "$@"; }

echo "| input lines | sgcc wall s | sgcc CPU s | lines/s (CPU) | lines/s (wall) | peak RSS MiB | .cl lines | clang -fsyntax-only wall s | clang CPU s | clang / sgcc (CPU) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in $sizes; do
    python3 "$here/gen_large.py" "$n" "$tmp/in.sgc"
    lines=$(wc -l <"$tmp/in.sgc")
    read -r sw sc rss < <(best "$sgcc" -o "$tmp/out" "$tmp/in.sgc")
    cl_lines=$(wc -l <"$tmp/out.cl")
    read -r cw cc _ < <(best "$clang" -x cl -cl-std=CL1.2 -Xclang -finclude-default-header \
        -Xclang -fdeclare-opencl-builtins -fsyntax-only "$tmp/out.cl")
    awk -v l="$lines" -v sw="$sw" -v sc="$sc" -v rss="$rss" -v cl="$cl_lines" -v cw="$cw" -v cc="$cc" 'BEGIN {
        rate_cpu = sc > 0 ? sprintf("%.0f", l / sc) : "inf";
        rate_wall = sw > 0 ? sprintf("%.0f", l / sw) : "inf";
        ratio = sc > 0 ? sprintf("%.1fx", cc / sc) : "-";
        printf "| %d | %.3f | %.3f | %s | %s | %.1f | %d | %.3f | %.3f | %s |\n", l, sw, sc, rate_cpu, rate_wall, rss / 1024, cl, cw, cc, ratio
    }'
done
