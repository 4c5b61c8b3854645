#!/bin/sh
# run_golden.sh SGCC SOURCE_ROOT — golden-output tests (STYLE §9).
#
# For each tests/golden/x.sgc, runs `sgcc -t all -o TMP/x x.sgc` from inside
# tests/golden (so the file names in banners and #line directives do not
# depend on where the checkout lives) and diffs TMP/x.cl and TMP/x.cu against
# the x.cl and x.cu stored beside the source.  If x.h exists, --header is
# passed too and the header is compared.  Optional x.flags holds extra
# command-line words.  Each case also runs twice: the output must be
# byte-identical (SPEC §2: deterministic).
#
# SGCC_UPDATE_GOLDEN=1 rewrites the expected files instead of comparing them;
# review the result with `git diff`.
set -u
sgcc=${1:?usage: run_golden.sh SGCC SOURCE_ROOT}
root=${2:?usage: run_golden.sh SGCC SOURCE_ROOT}
case $sgcc in /*) ;; *) sgcc=$(pwd)/$sgcc ;; esac
dir=$root/tests/golden
update=${SGCC_UPDATE_GOLDEN:-0}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

pass=0 fail=0
for src in "$dir"/*.sgc; do
    [ -e "$src" ] || { echo "no golden tests in $dir"; exit 77; }
    name=$(basename "$src" .sgc)
    flags=
    [ -f "$dir/$name.flags" ] && flags=$(cat "$dir/$name.flags")
    exts="cl cu"
    header=
    if [ -f "$dir/$name.h" ]; then
        exts="cl cu h"
        header="--header $tmp/$name.h"
    fi
    # shellcheck disable=SC2086  # flags are words on purpose
    if ! (cd "$dir" && "$sgcc" --color=never -t all -o "$tmp/$name" $header $flags "$name.sgc") \
            2>"$tmp/$name.stderr"; then
        echo "FAIL $name: sgcc failed"
        cat "$tmp/$name.stderr"
        fail=$((fail + 1))
        continue
    fi
    mkdir -p "$tmp/again"
    # shellcheck disable=SC2086
    (cd "$dir" && "$sgcc" --color=never -t all -o "$tmp/again/$name" $flags "$name.sgc") 2>/dev/null
    ok=1
    for ext in cl cu; do
        if ! cmp -s "$tmp/$name.$ext" "$tmp/again/$name.$ext"; then
            echo "FAIL $name.$ext: output differs between two runs"
            ok=0
        fi
    done
    for ext in $exts; do
        if [ "$update" = 1 ]; then
            cp "$tmp/$name.$ext" "$dir/$name.$ext"
        elif ! diff -u "$dir/$name.$ext" "$tmp/$name.$ext"; then
            echo "FAIL $name.$ext differs from the golden file"
            ok=0
        fi
    done
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
[ "$update" = 1 ] && echo "updated golden files of $pass tests"
echo "golden: $pass passed, $fail failed"
[ $fail -eq 0 ]
