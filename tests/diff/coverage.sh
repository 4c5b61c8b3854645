#!/bin/sh
# coverage.sh — line coverage of sgcc's lowering code by generated programs
# (tests/diff/CAMPAIGNS.md, docs/RELIABILITY.md "Differential testing").
#
#   meson setup -Db_coverage=true BUILD && meson compile -C BUILD
#   tests/diff/coverage.sh BUILD [FIRST LAST]
#
# Zeroes the counters, runs `sgcc -t all` on the modules sgcgen.py writes for
# seeds FIRST..LAST (default 1-150) in both flavours, with each module's
# .sgccopts, then prints gcov's line coverage of the lowering files, per file
# and in total.  Only the translation is measured, no device runs.
set -eu
build=$(cd "$1" && pwd)
first=${2:-1}
last=${3:-150}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
objdir="$build/compiler/libsgcc_front.a.p"
find "$build" -name '*.gcda' -delete
seed=$first
fails=0
while [ "$seed" -le "$last" ]; do
    for fl in wg sg; do
        base="$work/m${seed}_$fl"
        python3 "$here/sgcgen.py" --seed "$seed" --flavour "$fl" --out "$base"
        # shellcheck disable=SC2046
        "$build/compiler/sgcc" -t all $(cat "$base.sgccopts") -o "$base" "$base.sgc" >/dev/null 2>&1 ||
            fails=$((fails + 1))
    done
    seed=$((seed + 1))
done
echo "modules: $(( (last - first + 1) * 2 )), sgcc failures: $fails"
files="emit/emit.c emit/emit_groups.c emit/emit_tangle.c emit/emit_barrier.c emit/emit_names.c
emit/emit_jumps.c emit/opencl/emit_opencl.c emit/opencl/groups_opencl.c emit/cuda/emit_cuda.c
emit/cuda/groups_cuda.c"
cd "$work"
tot=0
cov=0
for f in $files; do
    obj="$objdir/$(echo "$f" | tr / _).gcda"
    line=$(gcov -n -o "$obj" "$root/compiler/$f" 2>/dev/null |
           awk -v want="compiler/$f'" '/^File /{ok = index($0, want) > 0} ok && /^Lines executed/{print; exit}')
    pct=$(echo "$line" | sed -n 's/Lines executed:\([0-9.]*\)% of \([0-9]*\)/\1/p')
    n=$(echo "$line" | sed -n 's/Lines executed:\([0-9.]*\)% of \([0-9]*\)/\2/p')
    [ -n "$n" ] || { pct=0; n=$(gcov -n -o "$objdir/$(echo "$f" | tr / _).gcno" "$root/compiler/$f" 2>/dev/null |
           awk '/^Lines executed/{sub(/.* of /, ""); print; exit}'); }
    c=$(awk -v p="$pct" -v n="$n" 'BEGIN{printf "%d", p * n / 100 + 0.5}')
    tot=$((tot + n))
    cov=$((cov + c))
    printf '%-28s %6s lines %6.1f%%\n' "$f" "$n" "$pct"
done
awk -v c="$cov" -v t="$tot" 'BEGIN{printf "%-28s %6d lines %6.1f%% (%d covered)\n", "total", t, 100 * c / t, c}'
