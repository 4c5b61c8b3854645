#!/bin/bash
# run_cli.sh SGCC SOURCE_ROOT [MAN_PAGE] — tests of the sgcc command line (SPEC §3,
# docs/CLI.md): every option, exit statuses, -o forms, depfiles, JSON
# diagnostics, --help against the man page, and the atomic-write promise.
# Output is TAP; the script exits non-zero if any check fails.
set -u
sgcc=${1:?usage: run_cli.sh SGCC SOURCE_ROOT}
root=${2:?usage: run_cli.sh SGCC SOURCE_ROOT [MAN_PAGE]}
man=${3:-} # the built sgcc.1; empty when the build has no man page
case $sgcc in /*) ;; *) sgcc=$(pwd)/$sgcc ;; esac
case $root in /*) ;; *) root=$(pwd)/$root ;; esac
case $man in /* | "") ;; *) man=$(pwd)/$man ;; esac
cli=$root/tests/cli
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
unset NO_COLOR GCC_COLORS # colour tests below set what they need

count=0 failed=0
pass() { count=$((count + 1)); echo "ok $count - $1"; }
fail() {
    count=$((count + 1)) failed=$((failed + 1))
    echo "not ok $count - $1"
    [ -s "$tmp/err" ] && sed 's/^/#   /' "$tmp/err" | head -20
}
check() { # check NAME COMMAND... : passes when COMMAND succeeds
    local name=$1
    shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}
# run WANT_STATUS ARGS...: runs sgcc (stdout -> $tmp/out, stderr -> $tmp/err)
# and passes when the exit status is WANT_STATUS.
run() {
    local want=$1
    shift
    "$sgcc" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ $rc -eq "$want" ]; then pass "sgcc $* -> $want"; else fail "sgcc $* -> $rc (want $want)"; fi
}
fresh() { rm -rf "$tmp/w" && mkdir -p "$tmp/w" && cd "$tmp/w" || exit 99; }
has() { grep -q -- "$1" "$2"; }
is_empty_dir() { [ -z "$(ls -A "$1")" ]; }

# ---- --version, --help, man page ------------------------------------------
fresh
run 0 --version
check "--version prints 'sgcc 0.1.0'" test "$(cat "$tmp/out")" = "sgcc 0.1.0"
run 0 --help
cp "$tmp/out" "$tmp/help"
for opt in -t --target -o --header -I -D -U -M -MD -MF -MT --verify --stats -Werror -w --color \
           --diagnostics-format --version --help; do
    check "--help lists $opt" grep -q -- "^  \(-t, \)\?${opt}[ =,]" "$tmp/help"
done
# The man page (built from docs/sgcc.1.scd by scdoc) must list exactly the
# options --help lists: in its OPTIONS section each option is the line before
# an indented block (".RS 4").
grep -o -- '^  -[^ ,=]*\(, --[^ =]*\)\?' "$tmp/help" | tr ',' '\n' | tr -d ' ' | grep . | sort -u \
    >"$tmp/help_opts"
if [ -n "$man" ] && [ -f "$man" ]; then
    awk '/^\.SH /{sec=$0} sec==".SH OPTIONS" {if ($0==".RS 4") print prev; prev=$0}' "$man" |
        sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\&//g' |
        grep -o -- '^-[-A-Za-z]*\(, --[-a-z]*\)\?' | tr ',' '\n' | tr -d ' ' | grep . | sort -u \
        >"$tmp/man_opts"
    check "--help lists options" test "$(wc -l <"$tmp/help_opts")" -ge 18
    while read -r opt; do
        check "man page documents $opt" grep -qx -- "$opt" "$tmp/man_opts"
    done <"$tmp/help_opts"
    while read -r opt; do
        check "--help lists $opt of the man page" grep -qx -- "$opt" "$tmp/help_opts"
    done <"$tmp/man_opts"
    check "man page options == --help options" diff -u "$tmp/help_opts" "$tmp/man_opts"
    check "man page names the version" grep -q "\"$("$sgcc" --version)\"" "$man"
else
    count=$((count + 1))
    echo "ok $count - # SKIP man page not built (configured with -Dman=disabled)"
fi

# ---- usage errors: exit 2, 'sgcc: error:' and a hint ------------------------
usage() {
    run 2 "$@"
    check "usage error message for: $*" grep -q "^sgcc: error: " "$tmp/err"
    check "usage error hints --help for: $*" grep -q -- "--help" "$tmp/err"
}
usage --bogus "$cli/ok.sgc"
usage -Wbogus-warning "$cli/ok.sgc"
usage "$cli/ok.sgc" -o
usage -t "$cli/ok.sgc"
usage -t metal "$cli/ok.sgc"
usage --target=metal "$cli/ok.sgc"
usage --color=sometimes "$cli/ok.sgc"
usage --diagnostics-format=xml "$cli/ok.sgc"
usage --verify=yes "$cli/ok.sgc"
usage "$cli/ok.sgc" "$cli/bad.sgc"
usage
usage -o - "$cli/ok.sgc"
usage -t opencl -o "$cli/ok.sgc" "$cli/ok.sgc"
check "no output after usage errors" is_empty_dir "$tmp/w"

# ---- I/O errors: exit 3 ----------------------------------------------------
run 3 missing.sgc
check "missing input message" test "$(cat "$tmp/err")" = \
    "sgcc: error: cannot open 'missing.sgc': No such file or directory"
run 3 "$tmp/w"
run 3 -- -dash.sgc
check "'--' ends options" grep -q "cannot open '-dash.sgc'" "$tmp/err"
run 3 -o "$tmp/nodir/x" "$cli/ok.sgc"
check "unwritable output: cannot create" grep -q "^sgcc: error: cannot create '$tmp/nodir/x.cl'" "$tmp/err"

# ---- outputs and -o forms --------------------------------------------------
fresh
cp "$cli/ok.sgc" "$cli/cli_inc.h" .
mkdir sub && cp ok.sgc cli_inc.h sub/
run 0 sub/ok.sgc
check "default outputs go next to the input" test -s sub/ok.cl -a -s sub/ok.cu
check "nothing written in the current directory" test ! -e ok.cl -a ! -e ok.cu
check "no temporaries left" test "$(ls -A sub | sort | tr '\n' ' ')" = "cli_inc.h ok.cl ok.cu ok.sgc "
run 0 -t all -o base ok.sgc
check "-t all -o base writes base.cl and base.cu" test -s base.cl -a -s base.cu
run 0 -t opencl -o one.cl ok.sgc
check "-t opencl writes one file" test -s one.cl -a ! -e one.cu
run 0 --target=cuda -o kernel_file ok.sgc
check "one target: -o is the exact file name" test -s kernel_file -a ! -e kernel_file.cu
check "-t cuda output is the CUDA one" cmp -s kernel_file base.cu
run 0 --target cuda -o two.cu ok.sgc
check "--target VALUE form" cmp -s two.cu base.cu
run 0 -tcuda -o three.cu ok.sgc
check "-tVALUE form" cmp -s three.cu base.cu
run 0 -o base2.cu ok.sgc
check "-o base.cu with all targets strips the suffix" test -s base2.cl -a -s base2.cu -a ! -e base2.cu.cl
check "all-target output equals single-target output" cmp -s base.cl one.cl
run 0 -t opencl -o - ok.sgc
check "-o - writes the target to stdout" cmp -s "$tmp/out" one.cl
run 0 -t cuda -o- ok.sgc
check "-o- glued form" cmp -s "$tmp/out" two.cu
run 0 -o again ok.sgc
check "deterministic output" cmp -s again.cl base.cl
run 0 --header host.h -t opencl -o h.cl ok.sgc
check "--header writes the host header" test -s host.h -a -s h.cl -a ! -e h.cu

# ---- -I -D -U --------------------------------------------------------------
fresh
run 1 -o x "$cli/incl.sgc"
run 0 -I "$cli/inc" -o x "$cli/incl.sgc"
run 0 "-I$cli/inc" -o x "$cli/incl.sgc"
run 1 -o x "$cli/defs.sgc"
run 0 -DCLI_FACTOR=3 -o x "$cli/defs.sgc"
run 0 -D CLI_FACTOR=3 -o x "$cli/defs.sgc"
run 0 -DCLI_FACTOR -o x "$cli/defs.sgc"
run 1 -DCLI_FACTOR -DCLI_GONE -o x "$cli/defs.sgc"
run 0 -DCLI_FACTOR -DCLI_GONE -UCLI_GONE -o x "$cli/defs.sgc"
run 0 -DCLI_FACTOR -DCLI_GONE -U CLI_GONE -o x "$cli/defs.sgc"
run 1 -DCLI_FACTOR -UCLI_GONE -DCLI_GONE -o x "$cli/defs.sgc"

# ---- depfiles ----------------------------------------------------------------
fresh
mkdir "inc dir"
cp "$cli/ok.sgc" .
cp "$cli/cli_inc.h" "inc dir/"
run 0 -M -I "inc dir" ok.sgc
check "-M writes no output" test ! -e ok.cl -a ! -e ok.cu -a ! -e ok.d
check "-M rule names the first output" grep -q "^ok.cl: ok.sgc" "$tmp/out"
check "-M lists the #include'd header, space escaped" grep -q 'inc\\ dir/cli_inc.h' "$tmp/out"
run 0 -M -MT custom -I "inc dir" ok.sgc
check "-MT sets the target" grep -q "^custom: ok.sgc" "$tmp/out"
run 0 -M -MF deps.txt -I "inc dir" ok.sgc
check "-M -MF writes the file, not stdout" test -s deps.txt -a ! -s "$tmp/out"
mkdir -p out
run 0 -MD -I "inc dir" -o out/k ok.sgc
check "-MD writes outputs and base.d" test -s out/k.cl -a -s out/k.cu -a -s out/k.d
check "-MD target is the first output" grep -q "^out/k.cl: ok.sgc" out/k.d
check "-MD lists the header" grep -q 'inc\\ dir/cli_inc.h' out/k.d
run 0 -MD -MF out/named.d -MT out/k.cu -I "inc dir" -o out/k ok.sgc
check "-MF names the depfile" grep -q "^out/k.cu: ok.sgc" out/named.d
run 0 -t opencl -MD -I "inc dir" -o out/single.cl ok.sgc
check "-MD one target: base.d" test -s out/single.d
# ninja must accept the depfile and record the header.
if command -v ninja >/dev/null; then
    cat >build.ninja <<EOF
rule sgcc
  command = "$sgcc" -t opencl -MD -MF \$out.d -I "inc dir" -o \$out \$in
  depfile = \$out.d
  deps = gcc
build gen.cl: sgcc ok.sgc
EOF
    check "ninja builds with the depfile" bash -c 'ninja >"$1" 2>&1' _ "$tmp/err"
    ninja -t deps >"$tmp/out" 2>&1
    check "ninja recorded the included header" grep -q "inc dir/cli_inc.h" "$tmp/out"
    touch "inc dir/cli_inc.h"
    check "touching the header makes ninja rebuild" \
        bash -c "ninja -n | grep -q 'gen.cl'"
fi

# ---- diagnostics: text, JSON, colour, -w, -Werror -------------------------------
fresh
run 1 --color=never -o x "$cli/bad.sgc"
check "error as file:line:col: error:" grep -q "bad.sgc:4:[0-9]*: error: " "$tmp/err"
check "source line and caret" grep -q "^ *\^" "$tmp/err"
check "no output after an input error" is_empty_dir .
run 1 --diagnostics-format=json -o x "$cli/bad.sgc"
check "JSON diagnostics parse" bash -c 'python3 -m json.tool "$1" >/dev/null' _ "$tmp/err"
check "JSON has file/line/column/severity/message" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d, list) and d
for e in d:
    assert {"file", "line", "column", "severity", "message"} <= set(e), e
assert d[0]["line"] == 4 and d[0]["severity"] == "error"' "$tmp/err"
run 0 --diagnostics-format json -o x "$cli/ok.sgc"
check "JSON with no diagnostics is []" python3 -c '
import json, sys; assert json.load(open(sys.argv[1])) == []' "$tmp/err"
run 3 --diagnostics-format=json missing.sgc
check "JSON for an I/O error" bash -c 'python3 -m json.tool "$1" >/dev/null' _ "$tmp/err"
esc=$(printf '\033')
run 1 --color=always -o x "$cli/bad.sgc"
check "--color=always colours" grep -q "$esc" "$tmp/err"
run 1 --color=never -o x "$cli/bad.sgc"
check "--color=never does not" bash -c "! grep -q '$esc' '$tmp/err'"
run 1 --color=auto -o x "$cli/bad.sgc"
check "--color=auto on a file does not" bash -c "! grep -q '$esc' '$tmp/err'"
if command -v script >/dev/null; then
    script -qec "TERM=xterm '$sgcc' --color=auto -o x '$cli/bad.sgc'" /dev/null >"$tmp/tty" 2>&1
    check "--color=auto on a terminal colours" grep -q "$esc" "$tmp/tty"
    script -qec "NO_COLOR=1 TERM=xterm '$sgcc' -o x '$cli/bad.sgc'" /dev/null >"$tmp/tty" 2>&1
    check "NO_COLOR turns auto colour off" bash -c "! grep -q '$esc' '$tmp/tty'"
fi
# GCC's conventions, byte for byte (what gcc -fdiagnostics-color=always
# writes): bold locus, bold red "error: ", plain message with bold 'quoted'
# names, the token under the caret and the caret in the level's colour, each
# colour closed with ESC[m ESC[K.
on() { printf '\033[%sm\033[K' "$1"; }
off=$(printf '\033[m\033[K')
run 1 --color=always -o x "$cli/bad.sgc"
{
    printf '%s%s:4:12:%s %serror: %suse of undeclared identifier '"'"'%sERROR_undeclared_name%s'"'"'\n' \
        "$(on 01)" "$cli/bad.sgc" "$off" "$(on '01;31')" "$off" "$(on 01)" "$off"
    printf '    p[0] = %sERROR_undeclared_name%s;\n' "$(on '01;31')" "$off"
    printf '           %s^%s\n' "$(on '01;31')" "$off"
} >"$tmp/want"
check "--color=always: an error coloured as GCC does" cmp "$tmp/want" "$tmp/err"
sed "s/$esc\[[0-9;]*m$esc\[K//g" "$tmp/err" >"$tmp/stripped"
"$sgcc" --color=never -o x "$cli/bad.sgc" 2>"$tmp/plain"
check "--color=always: without the colour codes the text is --color=never's" \
    cmp "$tmp/plain" "$tmp/stripped"
run 0 --color=always -o x "$cli/warn.sgc"
check "--color=always: warning: in bold magenta" grep -qF "$(on '01;35')warning: $off" "$tmp/err"
check "--color=always: the warning's caret in bold magenta" grep -qxF " $(on '01;35')^$off" "$tmp/err"
GCC_COLORS='error=01;32:locus=04:range1=32' "$sgcc" --color=always -o x "$cli/bad.sgc" 2>"$tmp/err"
check "GCC_COLORS sets the colours" bash -c 'head -1 "$1" | grep -qF "$2"' _ "$tmp/err" "$(on 04)$cli/bad.sgc:4:12:$off $(on '01;32')error: "
GCC_COLORS='error=red;1:locus=' "$sgcc" --color=always -o x "$cli/bad.sgc" 2>"$tmp/err"
check "GCC_COLORS: invalid values ignored, empty ones turn a part off" \
    bash -c 'head -1 "$1" | grep -qF "$2"' _ "$tmp/err" "$cli/bad.sgc:4:12: $(on '01;31')error: "
GCC_COLORS= "$sgcc" --color=always -o x "$cli/bad.sgc" 2>"$tmp/err"
check "GCC_COLORS empty: --color=always still colours" grep -q "$esc" "$tmp/err"
if command -v script >/dev/null; then
    script -qec "GCC_COLORS= TERM=xterm '$sgcc' -o x '$cli/bad.sgc'" /dev/null >"$tmp/tty" 2>&1
    check "GCC_COLORS empty turns auto colour off" bash -c "! grep -q '$esc' '$tmp/tty'"
fi
"$sgcc" --color=always --diagnostics-format=json -o x "$cli/bad.sgc" 2>"$tmp/err"
check "JSON is never coloured" bash -c "! grep -q '$esc' '$tmp/err'"
fresh
run 0 --color=never -o x "$cli/warn.sgc"
check "warning reported" grep -q "warn.sgc:2:[0-9]*: warning: " "$tmp/err"
run 0 -w -o y "$cli/warn.sgc"
check "-w silences warnings" test ! -s "$tmp/err"
rm -f x.cl x.cu
run 1 -Werror --color=never -o x "$cli/warn.sgc"
check "-Werror turns the warning into an error" grep -q "warn.sgc:2:[0-9]*: error: " "$tmp/err"
check "-Werror: no output" test ! -e x.cl -a ! -e x.cu

# ---- atomic writes -------------------------------------------------------------
fresh
printf 'old cl\n' >x.cl
printf 'old cu\n' >x.cu
printf 'old h\n' >x.h
run 1 --header x.h -MD -o x "$cli/bad.sgc"
check "existing outputs untouched after an error" \
    test "$(cat x.cl x.cu x.h)" = "$(printf 'old cl\nold cu\nold h')"
check "no depfile or temporaries after an error" test "$(ls -A | sort | tr '\n' ' ')" = "x.cl x.cu x.h "
run 3 --header nodir/x.h -o x "$cli/ok.sgc"
check "one output failing leaves the others untouched" \
    test "$(cat x.cl x.cu)" = "$(printf 'old cl\nold cu')"
check "and leaves no temporaries" test "$(ls -A | sort | tr '\n' ' ')" = "x.cl x.cu x.h "
run 0 -o x "$cli/ok.sgc"
check "success replaces the outputs" bash -c "! grep -q old x.cl x.cu"
chmod 640 x.cl
umask 022
run 0 -o x "$cli/ok.sgc"
check "new outputs get 0666 & ~umask" test "$(stat -c %a x.cl)" = 644

# ---- --verify ----------------------------------------------------------------
fresh
run 0 --verify -o x "$cli/ok.sgc"
check "--verify accepts good output" test -s x.cl -a -s x.cu
SGCC_NVRTC=/nonexistent/libnvrtc.so run 0 --verify -o y "$cli/ok.sgc"
check "no NVRTC: a warning" grep -q "warning: cannot verify CUDA output: NVRTC not found" "$tmp/err"
SGCC_NVRTC=/nonexistent/libnvrtc.so run 0 -t opencl --verify -o z "$cli/ok.sgc"
check "no NVRTC, OpenCL only: no warning" test ! -s "$tmp/err"

# ---- --stats ------------------------------------------------------------------
# One uniform if (on a kernel argument) and one divergent if (on the global
# id) in a kernel with a tangle group: one ballot saved, one split emitted.
fresh
cat >t.sgc <<'SGC'
kernel void k(global int *out, int mode)
{
    sub_group sg = get_sub_group();
    fixed_size_group<4> f = get_fixed_size_group<4>(sg);
    int v = 0;
    if (mode > 0) {
        if (get_global_id(0) % 3 == 0) {
            tangle_group t = get_tangle_group(sg);
            v = reduce_over_group(t, 1, plus);
            v += reduce_over_group(f, v, plus);
        }
    }
    out[get_global_id(0)] = v + reduce_over_group(f, v, plus);
}
SGC
run 0 --stats -o t t.sgc
check "--stats: one line per target" test "$(wc -l <"$tmp/err")" -eq 2
check "--stats: cuda counts" grep -qx "t.sgc: cuda: tangle-mask functions 1, ballots emitted 1, uniform branches without a ballot 1, fixed-size group algorithms with creation facts 1 of 2" "$tmp/err"
check "--stats: opencl counts" grep -qx "t.sgc: opencl: tangle-mask functions 1, ballots emitted 1, uniform branches without a ballot 1, fixed-size group algorithms with creation facts 1 of 2" "$tmp/err"
check "--stats: the call every maker reaches goes through with_creators" test "$(grep -c "with_creators(f)" t.cu)" -eq 1
check "--stats: the CUDA output has that one tangle ballot" test "$(grep -c "__ballot_sync(sgc_tangle" t.cu)" -eq 1
run 0 -o u t.sgc
check "without --stats: silent" test ! -s "$tmp/err"

# The right side of && runs only where the left side holds: k is assigned
# on some work-items only, so `if (k > 0)` is not uniform and needs a ballot.
cat >s.sgc <<'SGC'
kernel void k(global int *out, int mode)
{
    sub_group sg = get_sub_group();
    int k = 0;
    bool hit = get_global_id(0) % 3 == 0 && (k = mode) > 0;
    if (k > 0) {
        tangle_group t = get_tangle_group(sg);
        out[get_global_id(0)] = reduce_over_group(t, 1, plus) + (int)hit;
    }
}
SGC
run 0 --stats -t cuda -o s.cu s.sgc
check "--stats: a variable assigned under && is not uniform" grep -qx "s.sgc: cuda: tangle-mask functions 1, ballots emitted 1, uniform branches without a ballot 0, fixed-size group algorithms with creation facts 0 of 0" "$tmp/err"

echo "1..$count"
echo "# cli: $((count - failed)) passed, $failed failed"
[ $failed -eq 0 ]
