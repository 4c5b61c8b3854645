#!/bin/sh
# run_determinism.sh SGCC SOURCE_ROOT — sgcc's outputs are byte-identical
# for the same input and options, whatever the environment (docs/REFERENCE.md "Base language":
# "deterministic"; docs/RELIABILITY.md).
#
# Every valid .sgc of the repository (goldens, samples, execution tests,
# the benchmark kernel, the CLI's include test) is compiled twice with
# --header and -MD, each time from a copy of the source tree in a
# different directory, with different environments:
#   run A: cwd under $tmp/a, TMPDIR=$tmp/ta, LC_ALL=C, TZ=UTC, ASLR on,
#          MALLOC_PERTURB_=0
#   run B: cwd under $tmp/bb/deeper/path, TMPDIR=$tmp/tb, LC_ALL=C.UTF-8,
#          TZ=Asia/Kolkata, ASLR off (setarch -R) where available,
#          MALLOC_PERTURB_=165 (fresh heap memory filled with junk), a
#          large environment (shifts the stack), SOURCE_DATE_EPOCH set
# and every output (.cl, .cu, .h, .d) must be byte-identical.  Outputs
# must not mention either work directory (no absolute paths leak when
# the input was given by a relative name).
set -u
sgcc=${1:?usage: run_determinism.sh SGCC SOURCE_ROOT}
root=${2:?usage: run_determinism.sh SGCC SOURCE_ROOT}
case $sgcc in /*) ;; *) sgcc=$(pwd)/$sgcc ;; esac
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
a=$tmp/a b=$tmp/bb/deeper/path
mkdir -p "$a" "$b" "$tmp/ta" "$tmp/tb"
inputs="tests/golden/*.sgc samples/*/*.sgc tests/exec_barrier/*.sgc tests/exec_tangle/*.sgc
        bench/*.sgc tests/cli/incl.sgc tests/cli/ok.sgc"
for d in "$a" "$b"; do
    (cd "$root" && tar cf - tests/golden samples tests/exec_barrier tests/exec_tangle bench \
        tests/cli) | (cd "$d" && tar xf -)
done
norandom=
if command -v setarch >/dev/null 2>&1 && setarch "$(uname -m)" -R true 2>/dev/null; then
    norandom="setarch $(uname -m) -R"
fi
big=$(head -c 60000 /dev/zero | tr '\0' x)

compile() { # DIR FILE OUTBASE ENV...
    dir=$1 file=$2 out=$3
    shift 3
    (cd "$dir/$(dirname "$file")" &&
        env "$@" "$sgcc" -I inc -o "out/$out" --header "out/$out.h" -MD "$(basename "$file")")
}

pass=0 fail=0
for pattern in $inputs; do
    for src in $(cd "$a" && ls $pattern 2>/dev/null); do
        name=$(basename "$src" .sgc)
        mkdir -p "$a/$(dirname "$src")/out" "$b/$(dirname "$src")/out"
        compile "$a" "$src" "$name" LC_ALL=C TZ=UTC TMPDIR="$tmp/ta" MALLOC_PERTURB_=0 \
            >/dev/null 2>"$tmp/errA" || { echo "FAIL $src: run A failed"; cat "$tmp/errA"; fail=$((fail + 1)); continue; }
        # shellcheck disable=SC2086  # $norandom is a command prefix or empty
        compile "$b" "$src" "$name" LC_ALL=C.UTF-8 LANG=C.UTF-8 TZ=Asia/Kolkata \
            TMPDIR="$tmp/tb" MALLOC_PERTURB_=165 SOURCE_DATE_EPOCH=1 SGCC_PAD="$big" $norandom \
            >/dev/null 2>"$tmp/errB" || { echo "FAIL $src: run B failed"; cat "$tmp/errB"; fail=$((fail + 1)); continue; }
        ok=1
        for ext in cl cu h d; do
            fa=$a/$(dirname "$src")/out/$name.$ext fb=$b/$(dirname "$src")/out/$name.$ext
            if [ ! -s "$fa" ]; then
                echo "FAIL $src: no .$ext output"
                ok=0
            elif ! cmp -s "$fa" "$fb"; then
                echo "FAIL $src: .$ext differs between runs"
                diff "$fa" "$fb" | head -5
                ok=0
            elif grep -q -e "$tmp" "$fa" "$fb"; then
                echo "FAIL $src: .$ext mentions the work directory"
                ok=0
            fi
        done
        if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
    done
done
echo "determinism: $pass inputs identical, $fail failed"
[ $pass -gt 0 ] && [ $fail -eq 0 ]
