#!/bin/sh
# run_errors.sh SGCC SOURCE_ROOT — diagnostic tests (STYLE §9, SPEC §3).
#
# For each tests/errors/x.sgc, runs sgcc from inside tests/errors with
# --color=never (optional x.flags adds words) and checks that
#   - the exit status is 1 (errors in the input),
#   - stderr equals x.err exactly (file:line:col, message, line, caret)
#     and holds at least one located error,
#   - no output file and no temporary was created,
#   - pre-existing outputs are left byte-identical.
# SGCC_UPDATE_GOLDEN=1 rewrites the .err files instead (the status and
# no-output checks still run); review the result with `git diff`.
set -u
sgcc=${1:?usage: run_errors.sh SGCC SOURCE_ROOT}
root=${2:?usage: run_errors.sh SGCC SOURCE_ROOT}
case $sgcc in /*) ;; *) sgcc=$(pwd)/$sgcc ;; esac
dir=$root/tests/errors
update=${SGCC_UPDATE_GOLDEN:-0}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

pass=0 fail=0
for src in "$dir"/*.sgc; do
    [ -e "$src" ] || { echo "no error tests in $dir"; exit 77; }
    name=$(basename "$src" .sgc)
    flags=
    [ -f "$dir/$name.flags" ] && flags=$(cat "$dir/$name.flags")
    ok=1
    fresh=$tmp/fresh/$name old=$tmp/old/$name
    mkdir -p "$fresh" "$old"

    # 1. into an empty directory: status, exact stderr, nothing created.
    # shellcheck disable=SC2086  # flags are words on purpose
    (cd "$dir" && "$sgcc" --color=never $flags -o "$fresh/out" --header "$fresh/out.h" \
        -MD "$name.sgc") >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    if [ $rc -ne 1 ]; then
        echo "FAIL $name: exit status $rc, expected 1"
        ok=0
    fi
    if [ "$update" = 1 ]; then
        cp "$tmp/stderr" "$dir/$name.err"
    elif ! diff -u "$dir/$name.err" "$tmp/stderr"; then
        echo "FAIL $name: diagnostics differ from $name.err"
        ok=0
    fi
    if ! grep -Eq '^[^ ]+:[0-9]+:[0-9]+: error: ' "$tmp/stderr"; then
        echo "FAIL $name: no located error (file:line:col: error:) on stderr"
        ok=0
    fi
    if [ -n "$(ls -A "$fresh")" ]; then
        echo "FAIL $name: files were created: $(ls -A "$fresh")"
        ok=0
    fi

    # 2. over existing outputs: they must stay byte-identical.
    for ext in cl cu h d; do
        printf 'previous %s output of %s\n' "$ext" "$name" >"$old/out.$ext"
    done
    # shellcheck disable=SC2086
    (cd "$dir" && "$sgcc" --color=never $flags -o "$old/out" --header "$old/out.h" \
        -MD "$name.sgc") >/dev/null 2>&1
    for ext in cl cu h d; do
        if [ "$(cat "$old/out.$ext")" != "previous $ext output of $name" ]; then
            echo "FAIL $name: existing out.$ext was modified"
            ok=0
        fi
    done
    if [ "$(ls -A "$old" | wc -l)" -ne 4 ]; then
        echo "FAIL $name: stray files left: $(ls -A "$old")"
        ok=0
    fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
[ "$update" = 1 ] && echo "updated .err files of $pass tests"
echo "errors: $pass passed, $fail failed"
[ $fail -eq 0 ]
