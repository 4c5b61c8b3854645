#!/usr/bin/env bash
# translate.sh [SGCC] — translation speed of sgcc on generated inputs of
# 1k, 10k, 100k and 1M lines: wall time (best of 3), lines per second and
# peak memory.  Prints a Markdown table (paste into bench/RESULTS.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sgcc=${1:-$here/../build/compiler/sgcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| input lines | sgcc wall s (best of 3) | lines/s | peak RSS MiB |"
echo "|---:|---:|---:|---:|"
for n in 1000 10000 100000 1000000; do
    python3 "$here/gen_large.py" "$n" "$tmp/in.sgc"
    lines=$(wc -l <"$tmp/in.sgc")
    best=""
    for _ in 1 2 3; do
        /usr/bin/time -f "%e %M" -o "$tmp/time" "$sgcc" -o "$tmp/out" "$tmp/in.sgc"
        read -r secs kib <"$tmp/time"
        if [ -z "$best" ] || awk "BEGIN{exit !($secs < $best)}"; then best=$secs; rss=$kib; fi
    done
    rate=$(awk "BEGIN{ if ($best > 0) printf \"%.0f\", $lines / $best; else print \"inf\" }")
    printf "| %d | %.2f | %s | %.1f |\n" "$lines" "$best" "$rate" "$(awk "BEGIN{print $rss/1024}")"
done
