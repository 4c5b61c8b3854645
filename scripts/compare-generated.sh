#!/bin/bash
# compare-generated.sh OLD_SGCC NEW_SGCC BUILD — the generated inputs of a
# refactoring check (scripts/compare-outputs.sh covers the .sgc files of the
# repository): the units the test suites generate into BUILD (tests/exec_*),
# 300 programs of the differential generator (tests/diff/sgcgen.py, seeds
# 1-150, both flavours) and a 100k-line input of bench/gen_large.py.  Each is
# translated by both binaries with -t opencl, -t cuda and --emit-json, and
# the outputs compared byte for byte.  Exit 0 when none differs.
set -u
old=${1:?usage: compare-generated.sh OLD_SGCC NEW_SGCC BUILD}
new=${2:?usage: compare-generated.sh OLD_SGCC NEW_SGCC BUILD}
build=${3:?usage: compare-generated.sh OLD_SGCC NEW_SGCC BUILD}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/in" "$tmp/gen"
find "$build/tests" -name '*.sgc' -exec cp {} "$tmp/in/" \;
for seed in $(seq 1 150); do
    for flavour in wg sg; do
        python3 "$root/tests/diff/sgcgen.py" --seed "$seed" --flavour "$flavour" \
            --out "$tmp/gen/${flavour}_$seed" >/dev/null 2>&1 &&
            cp "$tmp/gen/${flavour}_$seed.sgc" "$tmp/in/gen_${flavour}_$seed.sgc" &&
            cp "$tmp/gen/${flavour}_$seed.sgccopts" "$tmp/in/gen_${flavour}_$seed.opts"
    done
done
python3 "$root/bench/gen_large.py" 100000 "$tmp/in/large_100k.sgc"
inputs=0 differ=0
ok=0
for src in "$tmp"/in/*.sgc; do
    inputs=$((inputs + 1))
    # the generator's own defines (sgcgen.py writes them beside each program)
    opts=()
    [ -f "${src%.sgc}.opts" ] && read -r -a opts <"${src%.sgc}.opts"
    for mode in opencl cuda json; do
        case $mode in
        json) args=(--emit-json - -o "$tmp/x") ;;
        *) args=(-t "$mode" -o -) ;;
        esac
        (cd "$tmp/in" && "$old" --color=never "${opts[@]}" "${args[@]}" "$(basename "$src")" >"$tmp/old" 2>&1; echo "rc=$?" >>"$tmp/old")
        (cd "$tmp/in" && "$new" --color=never "${opts[@]}" "${args[@]}" "$(basename "$src")" >"$tmp/new" 2>&1; echo "rc=$?" >>"$tmp/new")
        [ "$(tail -n 1 "$tmp/new")" = rc=0 ] && ok=$((ok + 1))
        if ! cmp -s "$tmp/old" "$tmp/new"; then
            echo "DIFFERS: $(basename "$src") ($mode)"
            differ=$((differ + 1))
        fi
    done
done
echo "compare-generated: $inputs inputs x 3 modes ($ok translations succeeded), $differ differ"
[ "$differ" -eq 0 ]
