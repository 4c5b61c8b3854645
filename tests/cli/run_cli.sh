#!/bin/bash
# run_cli.sh SGCC SOURCE_ROOT [MAN_PAGE] — tests of the sgcc command line (docs/CLI.md,
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
for opt in -t --target -o --header --emit-json -I -D -U -std= -E -fsyntax-only -M -MM -MD -MMD \
           -MF -MT -MQ -MP --verify --stats -Werror -W -w -fmax-errors= --color -fdiagnostics-color= \
           --diagnostics-format -fdiagnostics-format= -v --verbose --version -h --help; do
    check "--help lists $opt" grep -q -- "^  \(-[a-z], \)\?${opt}[][ =,a-zA-Z|]" "$tmp/help"
done
run 0 -h
check "-h is --help" cmp -s "$tmp/out" "$tmp/help"
# Every warning --help names has its row in docs/CLI.md (the table is
# DIAG_WARNINGS of compiler/base/diag.h).
sed -n '/^warnings (-Wname):/,/^exit status/p' "$tmp/help" | sed '1s/^warnings (-Wname)://; $d' |
    tr ' ' '\n' | grep . >"$tmp/warnings"
check "--help names the warnings" test "$(wc -l <"$tmp/warnings")" -ge 12
while read -r w; do
    check "docs/CLI.md lists -W$w" grep -q "^| \`$w\` |" "$root/docs/CLI.md"
done <"$tmp/warnings"
# The man page (built from docs/sgcc.1.scd by scdoc) must list exactly the
# options --help lists: in its OPTIONS section each option is the line before
# an indented block (".RS 4").
grep -o -- '^  -[-A-Za-z]*\(, --[-a-z]*\)\?' "$tmp/help" | tr ',' '\n' | tr -d ' ' | grep . | sort -u \
    >"$tmp/help_opts"
if [ -n "$man" ] && [ -f "$man" ]; then
    awk '/^\.SH /{sec=$0} sec==".SH OPTIONS" {if ($0==".RS 4") print prev; prev=$0}' "$man" |
        sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\&//g' |
        grep -o -- '^-[-A-Za-z]*\(, --[-a-z]*\)\?' | tr ',' '\n' | tr -d ' ' | grep . | sort -u \
        >"$tmp/man_opts"
    check "--help lists options" test "$(wc -l <"$tmp/help_opts")" -ge 32
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
check "-M rule names every output" grep -q "^ok.cl ok.cu: ok.sgc" "$tmp/out"
check "-M lists the #include'd header, space escaped" grep -q 'inc\\ dir/cli_inc.h' "$tmp/out"
run 0 -M -MT custom -I "inc dir" ok.sgc
check "-MT sets the target" grep -q "^custom: ok.sgc" "$tmp/out"
run 0 -M -MF deps.txt -I "inc dir" ok.sgc
check "-M -MF writes the file, not stdout" test -s deps.txt -a ! -s "$tmp/out"
mkdir -p out
run 0 -MD -I "inc dir" -o out/k ok.sgc
check "-MD writes outputs and base.d" test -s out/k.cl -a -s out/k.cu -a -s out/k.d
check "-MD targets are the outputs" grep -q "^out/k.cl out/k.cu: ok.sgc" out/k.d
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

# Outputs that are not regular files (issue 34): devices and FIFOs are
# written in place, never replaced; a symbolic link is written through, the
# link stays; every way of naming one file twice is refused before writing.
fresh
cp "$cli/ok.sgc" "$cli/cli_inc.h" .
"$sgcc" -t opencl -o ref.cl --header ref.h -MD ok.sgc 2>/dev/null
sed 's/^ref\.cl:/OUT:/' ref.d >ref.rule
mkfifo fifo
timeout 20 cat fifo >from_fifo &
reader=$!
run 0 -t opencl -o fifo ok.sgc
wait $reader
check "-o FIFO: still a FIFO" test -p fifo
check "-o FIFO: the reader got the output" cmp -s from_fifo ref.cl
timeout 20 cat fifo >from_fifo_deps &
reader=$!
run 0 -t opencl -o dep_code.cl -MF fifo ok.sgc
wait $reader
check "-MF FIFO: still a FIFO, the reader got the rule" \
    bash -c 'test -p fifo && grep -q "^dep_code.cl: ok.sgc" from_fifo_deps'
if [ -c /dev/null ]; then
    run 0 -t opencl -o /dev/null -MF /dev/null --header /dev/null --emit-json /dev/null ok.sgc
    check "-o /dev/null (and -MF, --header, --emit-json): /dev/null stays a device" test -c /dev/null
    run 0 -E -o /dev/null ok.sgc
    check "-E -o /dev/null: /dev/null stays a device" test -c /dev/null
fi
if [ -c /dev/full ]; then
    printf 'old h\n' >full.h
    run 3 -t opencl -o /dev/full --header full.h ok.sgc
    check "-o /dev/full: 'No space left on device'" grep -q "cannot write '/dev/full': No space left on device" "$tmp/err"
    check "-o /dev/full: the other output untouched, no temporary" \
        bash -c 'test "$(cat full.h)" = "old h" && ! ls -A | grep -q sgcc-'
fi
if [ "$(id -u)" = 0 ] && mknod chardev c 1 3 2>/dev/null; then
    run 0 -t opencl -o chardev -MF chardev ok.sgc
    check "-o CHAR-DEVICE made with mknod: still the device" test -c chardev
else
    count=$((count + 1))
    echo "ok $count - # SKIP mknod needs root"
fi
mkdir target
printf 'old\n' >target/real.cl
ln -s target/real.cl link.cl
run 0 -t opencl -o link.cl ok.sgc
check "-o SYMLINK: the link stays a link to the same file" test -L link.cl -a "$(readlink link.cl)" = target/real.cl
check "-o SYMLINK: the target file got the output" cmp -s target/real.cl ref.cl
check "-o SYMLINK: no temporary left beside link or target" \
    bash -c '! ls -A . target | grep -q sgcc-'
ln -s target/new.h dangling.h
run 0 -t opencl -o dl.cl --header dangling.h ok.sgc
check "--header DANGLING-SYMLINK: the link's target is created" bash -c 'test -L dangling.h && cmp -s target/new.h ref.h'
ln -s link.cl chain.d
run 0 -t opencl -o chain_code.cl -MF chain.d ok.sgc
check "-MF through two links: written to the final file" \
    bash -c 'test -L chain.d -a -L link.cl && grep -q "^chain_code.cl: ok.sgc" target/real.cl'

# Two outputs on one file, two inputs on one output: exit 2, nothing written.
fresh
mkdir d1 d2
cp "$cli/ok.sgc" "$cli/cli_inc.h" d1/
sed 's/scale/other/' d1/ok.sgc >d2/ok.sgc
cp "$cli/cli_inc.h" d2/
printf 'old\n' >X.cl
for second in "--header X.cl" "--header ./X.cl" "-MF X.cl" "--emit-json X.cl" "--emit-json ../w/X.cl"; do
    # shellcheck disable=SC2086 # $second is two words on purpose
    run 2 -t opencl -o X.cl $second d1/ok.sgc
    check "-o X.cl $second: 'two outputs on one file'" grep -q "two outputs on one file: 'X.cl' (-o)" "$tmp/err"
done
check "two outputs on one file: X.cl untouched" test "$(cat X.cl)" = old
ln X.cl hard.cl
ln -s X.cl sym.h
run 2 -t opencl -o X.cl --header hard.cl d1/ok.sgc
check "a hard link to the same file is the same file" grep -q "two outputs on one file" "$tmp/err"
run 2 -t opencl -o X.cl --header sym.h d1/ok.sgc
check "a symbolic link to the same file is the same file" grep -q "two outputs on one file" "$tmp/err"
run 2 -o new/sub/k --header new/sub/../sub/k.cl d1/ok.sgc
check "two spellings of a file not made yet" grep -q "two outputs on one file" "$tmp/err"
check "...and its directory not made either" test ! -e new
run 2 -o out/ d1/ok.sgc d2/ok.sgc
check "two inputs, one output name in -o DIR/: exit 2 naming both" \
    grep -q "inputs 'd1/ok.sgc' and 'd2/ok.sgc' would both write 'out/ok.cl'" "$tmp/err"
check "two inputs, one output name: nothing written" test ! -e out
run 0 -o out/ --header hdr/ d1/ok.sgc
check "-o DIR/ --header DIR2/: no conflict" test -s out/ok.cl -a -s hdr/ok.h
check "nothing stray in the directory" test "$(ls -A | sort | tr '\n' ' ')" = "X.cl d1 d2 hard.cl hdr out sym.h "

# A signal or a file-size limit while writing leaves no temporary, and the
# old output untouched (issue 35).
fresh
cp "$cli/ok.sgc" "$cli/cli_inc.h" .
python3 -c '
print("kernel void k(global int *p)\n{")
for i in range(20000):
    print("    p[%d] = p[%d] * %d + 1;" % (i, i + 1, i))
print("}")' >big.sgc
printf 'old\n' >big.cl
(ulimit -f 256 && "$sgcc" -t opencl -o big.cl big.sgc >"$tmp/out" 2>"$tmp/err")
rc=$?
check "ulimit -f: exit 3 (a clean I/O error, not SIGXFSZ)" test $rc -eq 3
check "ulimit -f: 'File too large'" grep -q "^sgcc: error: cannot write 'big.cl': File too large" "$tmp/err"
check "ulimit -f: the old output untouched, no temporary" \
    bash -c 'test "$(cat big.cl)" = old && ! ls -A | grep -q sgcc-'
# Deterministic SIGTERM: the code goes to a FIFO nobody reads, so sgcc waits
# in open() at commit time while the header's temporary exists.
mkfifo stuck
printf 'old h\n' >h.h
"$sgcc" -t opencl -o stuck --header h.h ok.sgc 2>"$tmp/err" &
pid=$!
for _ in $(seq 100); do ls -A | grep -q '^\.h\.h\.sgcc-' && break; sleep 0.1; done
check "SIGTERM test: the temporary is there while sgcc waits" bash -c 'ls -A | grep -q "^\.h\.h\.sgcc-"'
kill -TERM $pid
wait $pid
rc=$?
check "SIGTERM: sgcc dies of the signal (status 143)" test $rc -eq 143
check "SIGTERM: the temporary is removed, the old header untouched" \
    bash -c 'test "$(cat h.h)" = "old h" && ! ls -A | grep -q sgcc-'

# ---- gcc-style command line (docs/CLI.md "Inputs") -------------------------
# Standard input: '-' reads it, its diagnostics name it <stdin>, and its
# outputs need -o (nothing goes next to a non-regular input).
fresh
cp "$cli/ok.sgc" "$cli/cli_inc.h" "$cli/bad.sgc" "$cli/warn.sgc" .
"$sgcc" -t opencl -o - ok.sgc >from_file.cl 2>/dev/null
run 0 -t opencl -o - - <ok.sgc
sed 's/<stdin>/ok.sgc/g' "$tmp/out" >from_stdin.cl
check "'-' reads standard input (same code as from the file)" cmp -s from_file.cl from_stdin.cl
check "standard input is <stdin> in #line" grep -q '#line [0-9]* "<stdin>"' "$tmp/out"
run 1 --color=never -o x - <bad.sgc
check "stdin diagnostics name <stdin>" grep -q "^<stdin>:4:12: error: " "$tmp/err"
check "an error from stdin writes nothing" test ! -e x.cl -a ! -e x.cu
run 0 -o viastdin - <ok.sgc
check "stdin with -o BASE writes BASE.cl and BASE.cu" test -s viastdin.cl -a -s viastdin.cu
run 2 - <ok.sgc
check "stdin without -o: a usage error that asks for -o" grep -q "standard input.*-o" "$tmp/err"
run 2 -I . /dev/stdin <ok.sgc
check "/dev/stdin from a file, without -o: 'not a regular file'" grep -q "'/dev/stdin' is not a regular file" "$tmp/err"
cat ok.sgc | "$sgcc" -I . /dev/stdin >"$tmp/out" 2>"$tmp/err"
check "/dev/stdin from a pipe, without -o: exit 2" test $? -eq 2
check "/dev/stdin from a pipe: 'not a regular file'" grep -q "'/dev/stdin' is not a regular file" "$tmp/err"
check "nothing written next to /dev/stdin" test ! -e /dev/stdin.cl -a ! -e /dev/stdin.cu
run 0 -I . -t cuda -o piped.cu /dev/stdin <ok.sgc
check "/dev/stdin with -o works" test -s piped.cu
run 2 -o y - - <ok.sgc
run 0 -fsyntax-only - <ok.sgc
run 0 --header stdin.h -o s - <ok.sgc
check "stdin: the header's module is named after -o" grep -q "SGRT_MODULE_s\b\|sgrt_module_s\b\|s_module\b" stdin.h
check "no stray outputs in the directory" \
    test "$(ls -A | sort | tr '\n' ' ')" = "bad.sgc cli_inc.h from_file.cl from_stdin.cl ok.sgc piped.cu s.cl s.cu stdin.h viastdin.cl viastdin.cu warn.sgc "

# Several inputs: each gets its own outputs; -o DIR/ collects them; an error
# in one input leaves its outputs unwritten and the others are written.
fresh
mkdir a b
cp "$cli/ok.sgc" "$cli/cli_inc.h" a/
cp "$cli/defs.sgc" b/
sed 's/scale/twice/' a/ok.sgc >a/two.sgc
run 0 a/ok.sgc a/two.sgc
check "two inputs: outputs next to each" test -s a/ok.cl -a -s a/ok.cu -a -s a/two.cl -a -s a/two.cu
check "each input its own code" bash -c '! cmp -s a/ok.cl a/two.cl && grep -q twice a/two.cl'
mkdir out hdr
run 0 -o out/ a/ok.sgc a/two.sgc
check "-o DIR/ puts every output in DIR" test -s out/ok.cl -a -s out/two.cu
check "-o DIR/ output equals the output next to the input" cmp -s out/ok.cl a/ok.cl
mkdir existing
run 0 -t cuda -o existing a/ok.sgc a/two.sgc
check "-o an existing directory works like DIR/" test -s existing/ok.cu -a -s existing/two.cu -a ! -e existing/ok.cl
run 0 -t opencl -o existing a/ok.sgc
check "one input, -o DIR: DIR/stem.cl" test -s existing/ok.cl
run 0 -o new/sub/ a/ok.sgc a/two.sgc
check "-o DIR/ that does not exist yet: made" test -s new/sub/ok.cl -a -s new/sub/two.cu
run 1 -o never/ b/defs.sgc
check "-o DIR/ and an input error: no directory made" test ! -e never
run 2 -o file.cl a/ok.sgc a/two.sgc
check "-o FILE with two inputs is a usage error" grep -q "name a directory" "$tmp/err"
run 2 -MF d.d -MD a/ok.sgc a/two.sgc
run 2 --header one.h a/ok.sgc a/two.sgc
run 0 --header hdr/ a/ok.sgc a/two.sgc
check "--header DIR/ with two inputs: one header each" test -s hdr/ok.h -a -s hdr/two.h
rm -f a/*.cl a/*.cu
run 1 --color=never b/defs.sgc a/ok.sgc
check "an error in one input: it is reported" grep -q "^b/defs.sgc:" "$tmp/err"
check "an error in one input: its outputs are not written" test ! -e b/defs.cl -a ! -e b/defs.cu
check "an error in one input: the others are written" test -s a/ok.cl -a -s a/ok.cu
rm -f a/*.cl a/*.cu
run 3 missing.sgc a/ok.sgc
check "an unreadable input: exit 3, the others still written" test -s a/ok.cl
run 1 --diagnostics-format=json b/defs.sgc b/defs.sgc
check "JSON: one array for all inputs" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len({e["file"] for e in d}) == 1 and len(d) >= 2, d' "$tmp/err"

# -fsyntax-only and -E
fresh
cp "$cli/ok.sgc" "$cli/cli_inc.h" "$cli/bad.sgc" "$cli/warn.sgc" .
run 0 -fsyntax-only ok.sgc
check "-fsyntax-only writes nothing" test ! -e ok.cl -a ! -e ok.cu
run 1 -fsyntax-only --color=never bad.sgc
check "-fsyntax-only reports errors" grep -q "bad.sgc:4:12: error" "$tmp/err"
run 0 -fsyntax-only --color=never warn.sgc
check "-fsyntax-only reports warnings" grep -q "warning: " "$tmp/err"
printf '[[reqd_sub_group_size(16)]] kernel void k(global int *p) { p[0] = 1; }\n' >target.sgc
run 1 -fsyntax-only -t cuda target.sgc
check "-fsyntax-only runs the emitters' checks (CUDA refuses sub-group size 16)" grep -q "error: " "$tmp/err"
check "-fsyntax-only: still nothing written" test ! -e ok.cl -a ! -e target.cu
mkdir inc
printf '#define CLI_SCALE 2.0f\ntypedef int from_header;\n' >inc/cli_inc.h
printf '#include <cli_inc.h>\n#define TWICE(x) ((x) * 2)\nkernel void k(global int *p)\n{\n    p[0] = TWICE(N);\n}\n' >pp.sgc
run 0 -E -I inc -DN=21 pp.sgc
cp "$tmp/out" pp.expected
check "-E: a linemarker for the main file first" test "$(head -1 pp.expected)" = '# 1 "pp.sgc"'
check "-E: entering an include: flag 1" grep -qx '# 1 "inc/cli_inc.h" 1' pp.expected
check "-E: back in the main file: flag 2" grep -qx '# 2 "pp.sgc" 2' pp.expected
check "-E: macros expanded" grep -qx '    p\[0\] = ((21) \* 2);' pp.expected
check "-E: directives gone" bash -c '! grep -q "define" "$1"' _ pp.expected
check "-E: no translation" bash -c '! grep -q "__kernel\|__global__" "$1"' _ pp.expected
check "-E: writes no output file" test ! -e pp.cl -a ! -e pp.cu
if command -v cpp >/dev/null; then
    cpp -P -I inc -DN=21 pp.sgc 2>/dev/null | tr -d ' \n' >"$tmp/cpp"
    grep -v '^#' pp.expected | tr -d ' \n' >"$tmp/ours"
    check "-E: the same tokens as the system cpp" cmp -s "$tmp/cpp" "$tmp/ours"
fi
# Directive lines inside a macro's arguments act as anywhere else (as in GCC).
printf '#define F(x, y) ((x) + (y))\nint a = F(1,\n#ifdef N\n N\n#else\n 0\n#endif\n);\nint b = F(\n#define Q 5\nQ, 2);\n' >args.sgc
run 0 -E -DN=21 args.sgc
check "-E: #ifdef and #define inside macro arguments" \
    bash -c 'grep -v "^#" "$1" | tr -d " \n" | grep -qF "inta=((1)+(21));intb=((5)+(2));"' _ "$tmp/out"
if command -v cpp >/dev/null; then
    cpp -P -DN=21 args.sgc 2>/dev/null | tr -d ' \n' >"$tmp/cpp"
    grep -v '^#' "$tmp/out" | tr -d ' \n' >"$tmp/ours"
    check "-E: directives in macro arguments, the same tokens as the system cpp" cmp -s "$tmp/cpp" "$tmp/ours"
fi
# A header that only defines macros still gets its markers (as cpp prints them).
mkdir -p minc
printf '#define FROM_MACROS 7\n#define MORE 8\n' >minc/m.sgh
printf '#include "minc/m.sgh"\nint x = FROM_MACROS;\n\n#include "minc/m.sgh"\nint y = MORE;\n' >macros.sgc
run 0 -E macros.sgc
printf '# 1 "macros.sgc"\n# 1 "minc/m.sgh" 1\n# 2 "macros.sgc" 2\nint x = 7;\n# 1 "minc/m.sgh" 1\n# 5 "macros.sgc" 2\nint y = 8;\n' >"$tmp/want"
check "-E: markers for a header of macros only, entering and returning" cmp -s "$tmp/want" "$tmp/out"
if command -v cpp >/dev/null; then
    cpp macros.sgc 2>/dev/null | grep '^# [0-9]* "minc/m.sgh"\|^# [0-9]* "macros.sgc" 2' >"$tmp/cpp"
    grep '^# [0-9]* "minc/m.sgh"\|^# [0-9]* "macros.sgc" 2' "$tmp/out" >"$tmp/ours"
    check "-E: the same include markers as the system cpp" cmp -s "$tmp/cpp" "$tmp/ours"
fi
printf '#ifndef GUARD\n#define GUARD\n#define G 1\n#endif\n' >minc/g.sgh
printf '#include "minc/g.sgh"\n#include "minc/g.sgh"\nint g = G;\n' >guarded.sgc
run 0 -E guarded.sgc
check "-E: a guarded header entered once, marked once" \
    test "$(grep -c '"minc/g.sgh" 1' "$tmp/out"),$(grep -c '"guarded.sgc" 2' "$tmp/out")" = "1,1"
printf 'int a;\n#line 100 "renamed.sgc"\nint b = __LINE__;\n' >line.sgc
run 0 -E line.sgc
check "-E: #line gives a linemarker with the presumed line and name" \
    bash -c 'grep -A1 -x "# 100 \"renamed.sgc\"" "$1" | grep -qx "int b = 100;"' _ "$tmp/out"
run 0 -E -I inc -DN=21 -o pp.i pp.sgc
check "-E -o FILE writes the file, nothing on stdout" bash -c 'cmp -s pp.i pp.expected && test ! -s "$1"' _ "$tmp/out"
printf '#include "nowhere.h"\n' >bad_include.sgc
run 1 -E -o never.i bad_include.sgc
check "-E with an error: no file" test ! -e never.i
run 2 -E -o one.i ok.sgc warn.sgc

# A UTF-8 byte-order mark at the start of the main file or a header is
# skipped (gcc and clang do): the output is that of the same files without it.
fresh
mkdir plain bom
printf '#define BOM_SCALE 3\nint bom_helper(int v) { return v * BOM_SCALE; }\n' >plain/h.sgh
printf '#include "h.sgh"\nkernel void k(global int *p) { p[0] = bom_helper(2); }\n' >plain/k.sgc
for f in h.sgh k.sgc; do { printf '\357\273\277'; cat "plain/$f"; } >"bom/$f"; done
(cd plain && "$sgcc" -o k k.sgc 2>"$tmp/err")
cd bom
run 0 -o k k.sgc
check "a byte-order mark is skipped: no diagnostic" test ! -s "$tmp/err"
check "a byte-order mark is skipped: the same OpenCL C" cmp -s k.cl ../plain/k.cl
check "a byte-order mark is skipped: the same CUDA C" cmp -s k.cu ../plain/k.cu
printf '\357\273\277int x = @;\n' >col.sgc
run 1 --color=never -fsyntax-only col.sgc
check "after a byte-order mark, columns count from after it" grep -q "^col.sgc:1:9: error: stray '@'" "$tmp/err"
cd ..
printf '#include "nowhere.h"\n' >miss.sgc
run 1 --color=never -fsyntax-only miss.sgc
check "a missing header is reported at its name" grep -q "^miss.sgc:1:10: error: 'nowhere.h' file not found" "$tmp/err"

# Depfiles the gcc way: -MMD, -MM, -MP, -MQ, several -MT
fresh
mkdir "inc dir"
cp "$cli/ok.sgc" .
cp "$cli/cli_inc.h" "inc dir/"
run 0 -MD -I "inc dir" -o md ok.sgc
run 0 -MMD -I "inc dir" -o mmd ok.sgc
check "-MMD: the rule of -MD (no system headers in sgcc)" \
    bash -c 'diff <(sed s/mmd/X/g mmd.d) <(sed s/md/X/g md.d)'
run 0 -MM -I "inc dir" ok.sgc
check "-MM prints like -M" grep -q "^ok.cl ok.cu: ok.sgc" "$tmp/out"
run 0 -MD -MP -I "inc dir" -o mp ok.sgc
check "-MP: a phony target for the header" grep -qx 'inc\\ dir/cli_inc.h:' mp.d
check "-MP: none for the main file" bash -c '! grep -qx "ok.sgc:" mp.d'
run 0 -M -MQ '$(OBJ)/k x.cl' -I "inc dir" ok.sgc
check "-MQ quotes for make" grep -q '^\$\$(OBJ)/k\\ x.cl: ok.sgc' "$tmp/out"
run 0 -M -MT '$(OBJ)/k.cl' -MT second -I "inc dir" ok.sgc
check "-MT is written as given; several accumulate" grep -q '^\$(OBJ)/k.cl second: ok.sgc' "$tmp/out"
run 0 -MT only.cl -I "inc dir" -o alone ok.sgc
check "-MT alone implies -MD" grep -q "^only.cl: ok.sgc" alone.d
run 0 --header k.h --emit-json k.json -MD -I "inc dir" -o all ok.sgc
check "the rule names code, header and JSON" grep -q "^all.cl all.cu k.h k.json: ok.sgc" all.d
run 0 -M -MT t -I "inc dir" - <ok.sgc
check "standard input is no dependency" grep -qx "t: inc\\\\ dir/cli_inc.h" "$tmp/out"
if command -v ninja >/dev/null; then
    printf 'rule sgcc\n  command = "%s" -MD -MF gen.d -I "inc dir" --header gen.h -o gen $in\n  depfile = gen.d\n  deps = gcc\nbuild gen.cl gen.cu gen.h: sgcc ok.sgc\n' "$sgcc" >build.ninja
    check "ninja accepts a depfile naming all three outputs" bash -c 'ninja >"$1" 2>&1' _ "$tmp/err"
    ninja -t deps >"$tmp/out" 2>&1
    check "ninja recorded the header for the edge" grep -q "inc dir/cli_inc.h" "$tmp/out"
    check "ninja: nothing to do after the build" bash -c "ninja -n | grep -q 'no work to do'"
    touch "inc dir/cli_inc.h"
    check "ninja: touching the header rebuilds" bash -c "ninja -n | grep -q 'sgcc'"
fi

# -v, -std=, -fdiagnostics-color=, suggestions
fresh
run 0 -v
check "-v alone prints the version" grep -qx "sgcc version 0.1.0" "$tmp/err"
run 0 -v -I "$cli/inc" -o x "$cli/incl.sgc"
check "-v: version" grep -qx "sgcc version 0.1.0" "$tmp/err"
check "-v: the search list" grep -qx " $cli/inc" "$tmp/err"
check "-v: each file written" grep -qx "sgcc: wrote 'x.cl'" "$tmp/err"
run 0 --verbose -t cuda -o y "$cli/ok.sgc"
check "--verbose is -v" grep -qx "sgcc: wrote 'y'" "$tmp/err"
run 0 -std=sgc -o x "$cli/ok.sgc"
run 0 -std=c17 -o x "$cli/ok.sgc"
usage -std=c99 "$cli/ok.sgc"
check "-std: the accepted values" grep -q "sgc|c17|c18|gnu17" "$tmp/err"
run 0 -std=gnu17 -o x "$cli/ok.sgc"
run 1 -fdiagnostics-format=json -o x "$cli/bad.sgc"
check "-fdiagnostics-format=json is --diagnostics-format=json" \
    bash -c 'python3 -m json.tool "$1" >/dev/null' _ "$tmp/err"
usage -std "$cli/ok.sgc"
run 1 -fdiagnostics-color=always -o x "$cli/bad.sgc"
check "-fdiagnostics-color=always colours" grep -q "$esc" "$tmp/err"
run 1 -fdiagnostics-color=never -o x "$cli/bad.sgc"
check "-fdiagnostics-color=never does not" bash -c "! grep -q '$esc' '$tmp/err'"
run 1 -fdiagnostics-color -o x "$cli/bad.sgc"
check "-fdiagnostics-color alone colours" grep -q "$esc" "$tmp/err"
usage -fdiagnostics-color=sometimes "$cli/ok.sgc"
usage --targt cuda "$cli/ok.sgc"
check "misspelt option: did you mean" grep -q "unknown option '--targt'; did you mean '--target'?" "$tmp/err"
usage --emit-jsn x "$cli/ok.sgc"
check "misspelt --emit-json: did you mean" grep -q "did you mean '--emit-json'?" "$tmp/err"
usage -fsyntax-onyl "$cli/ok.sgc"
check "misspelt -fsyntax-only: did you mean" grep -q "did you mean '-fsyntax-only'?" "$tmp/err"
usage -Wmultichr "$cli/ok.sgc"
check "misspelt warning: did you mean" grep -q "did you mean '-Wmultichar'?" "$tmp/err"
usage -W "$cli/ok.sgc"

# Warning names
fresh
run 0 --color=never -o x "$cli/warn.sgc"
check "a warning ends with its name" grep -q "warning: #warning \"cli warning test\" \[-Wcpp\]$" "$tmp/err"
run 0 -Wno-cpp -o x "$cli/warn.sgc"
check "-Wno-cpp silences it" test ! -s "$tmp/err"
run 0 -Wno-cpp -Wcpp --color=never -o x "$cli/warn.sgc"
check "-Wcpp after -Wno-cpp turns it back on" grep -q "\[-Wcpp\]" "$tmp/err"
rm -f x.cl x.cu
run 1 -Werror=cpp --color=never -o x "$cli/warn.sgc"
check "-Werror=cpp: an error named [-Werror=cpp]" grep -q "error: #warning \"cli warning test\" \[-Werror=cpp\]$" "$tmp/err"
check "-Werror=cpp: no output" test ! -e x.cl
run 0 -Werror -Wno-error=cpp --color=never -o x "$cli/warn.sgc"
check "-Wno-error=cpp keeps it a warning under -Werror" grep -q "warning: .*\[-Wcpp\]" "$tmp/err"
run 0 -Wall -Wextra -Wno-some-future-warning -o x "$cli/ok.sgc"
check "-Wall -Wextra -Wno-unknown accepted quietly" test ! -s "$tmp/err"
run 0 --color=always -o x "$cli/warn.sgc"
check "--color=always: the option name in the warning's colour" grep -qF "[$(on '01;35')-Wcpp$off]" "$tmp/err"
printf '#define A 1\n#define A 2\n[[frobnicate]] kernel void k(global int *p) { p[0] = %s; }\n' "'ab'" >multi.sgc
run 0 --color=never -o m multi.sgc
check "three different warnings" test "$(grep -c "warning:" "$tmp/err")" -eq 3
for w in macro-redefined unknown-attributes multichar; do
    "$sgcc" --color=never -o m multi.sgc 2>"$tmp/all"
    check "-W$w named" grep -q "\[-W$w\]$" "$tmp/all"
    run 0 --color=never -Wno-$w -o m multi.sgc
    check "-Wno-$w turns off that one only" \
        bash -c '! grep -q "\[-W$1\]" "$2" && test "$(grep -c "warning:" "$2")" -eq 2' _ "$w" "$tmp/err"
done

# --emit-json and outputs on standard output
fresh
cp "$cli/ok.sgc" "$cli/cli_inc.h" .
run 0 --emit-json k.json -o k ok.sgc
check "--emit-json writes a module description" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "sgcc-module" and d["kernels"][0]["name"] == "scale", d' k.json
run 0 --emit-json - -o k2 ok.sgc
check "--emit-json - writes it to stdout" cmp -s "$tmp/out" k.json
run 0 --header - -o k3 ok.sgc
check "--header - writes the header to stdout" grep -q "scale" "$tmp/out"
run 2 -t opencl -o - --emit-json - ok.sgc
check "two outputs on stdout: a usage error" grep -q "only one output" "$tmp/err"
# With -o - no file is written: the rule names the file the output would
# have been without -o (never '-', never the input itself).
run 0 -t opencl -o - -MD ok.sgc
check "-o - with -MD: the depfile is named after the input" test -s ok.d
check "-o - with -MD: the target is ok.cl, not the input" grep -q "^ok.cl: ok.sgc" ok.d
run 0 -M -o - ok.sgc
check "-M -o -: the targets are ok.cl ok.cu" grep -q "^ok.cl ok.cu: ok.sgc" "$tmp/out"
cp ok.sgc named.cl
run 2 -t opencl -o - -MD named.cl
check "a rule whose target would be the input: a usage error asking for -MT" \
    grep -q "would name the input 'named.cl' as its target: name the target with -MT" "$tmp/err"
run 2 -t opencl -o - -MD -MF s.d - <ok.sgc
check "stdin to stdout with -MF: the target must be named (-MT)" grep -q "with -MT" "$tmp/err"
run 0 -t opencl -o - -MD -MF s.d -MT kernels - <ok.sgc
check "stdin to stdout with -MF -MT: the rule" grep -q "^kernels: cli_inc.h" s.d
run 2 -t opencl -o - -MD - <ok.sgc
check "-MD on standard input with -o given: the message asks for -MF" \
    grep -q "^sgcc: error: reading standard input: name the depfile with -MF$" "$tmp/err"
run 2 -t opencl -o - -MD -I . /dev/stdin <ok.sgc
check "-MD on /dev/stdin with -o given: the message asks for -MF" \
    grep -q "^sgcc: error: '/dev/stdin' is not a regular file: name the depfile with -MF$" "$tmp/err"

# ---- -fmax-errors (issue 35) ----------------------------------------------------
# 1 MB of random bytes: with the default limit, 20 errors and one fatal
# "too many errors", quickly, in one write(2) per diagnostic; JSON stays an
# array; -fmax-errors=0 reports everything.
fresh
python3 -c 'import random, sys; r = random.Random(35); sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(1 << 20)))' >rand.sgc
start=$(date +%s)
run 1 --color=never -fsyntax-only rand.sgc
check "random bytes: at most 10 s" test $(($(date +%s) - start)) -le 10
check "random bytes: 20 errors, then the stop" test "$(grep -c '^rand.sgc:[0-9]*:[0-9]*: error: ' "$tmp/err")" -eq 20
check "random bytes: one fatal 'too many errors' last" \
    bash -c 'grep "^rand.sgc:" "$1" | tail -1 | grep -q "fatal error: too many errors emitted, stopping now \[-fmax-errors=\]$"' _ "$tmp/err"
check "random bytes: under 64 KiB of diagnostics" test "$(wc -c <"$tmp/err")" -lt 65536
run 1 --diagnostics-format=json -fsyntax-only rand.sgc
check "-fmax-errors with JSON: valid, 21 records, the last fatal" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d) == 21 and d[-1]["severity"] == "fatal error", d[-1]
assert d[-1]["message"] == "too many errors emitted, stopping now [-fmax-errors=]"' "$tmp/err"
run 1 --color=never -fmax-errors=2 -fsyntax-only rand.sgc
check "-fmax-errors=2: two errors and the stop" \
    test "$(grep -c ': error: ' "$tmp/err"),$(grep -c ': fatal error: ' "$tmp/err")" = "2,1"
printf 'kernel void k(global int *p)\n{\n' >many.sgc
for i in $(seq 1 40); do printf '    p[%d] = nope_%d;\n' "$i" "$i" >>many.sgc; done
printf '}\n' >>many.sgc
run 1 --color=never -fmax-errors=0 many.sgc
check "-fmax-errors=0: every error (40), no stop" \
    test "$(grep -c ': error: ' "$tmp/err"),$(grep -c 'fatal error' "$tmp/err")" = "40,0"
run 1 --color=never -fmax-errors=40 many.sgc
check "-fmax-errors=40 with 40 errors: no stop" bash -c '! grep -q "fatal error" "$1"' _ "$tmp/err"
usage -fmax-errors=many many.sgc
usage -fmax-errors=-1 many.sgc
usage -fmax-errors= many.sgc
# (Not under the sanitizers, whose run-time library makes writes of its own.)
if [ -z "${ASAN_OPTIONS:-}" ] && command -v strace >/dev/null &&
    strace -f -o /dev/null true 2>/dev/null; then
    strace -f -e trace=write -o "$tmp/trace" "$sgcc" -fmax-errors=0 -fsyntax-only many.sgc 2>/dev/null
    check "stderr is buffered: one write(2) per diagnostic (40)" \
        test "$(grep -c '^[0-9]* *write(2,' "$tmp/trace")" -eq 40
fi

# ---- --verify ----------------------------------------------------------------
fresh
run 0 --verify -o x "$cli/ok.sgc"
check "--verify accepts good output" test -s x.cl -a -s x.cu
SGCC_NVRTC=/nonexistent/libnvrtc.so run 0 --verify -o y "$cli/ok.sgc"
check "no NVRTC: a warning" grep -q "warning: cannot verify CUDA output: NVRTC not found" "$tmp/err"
SGCC_NVRTC=/nonexistent/libnvrtc.so run 0 -t opencl --verify -o z "$cli/ok.sgc"
check "no NVRTC, OpenCL only: no warning" test ! -s "$tmp/err"
# Issue 25: user min/max/half and a goto past an initialiser are valid C;
# sgcc renames and splits them, so the device compilers accept the outputs.
cat >names.sgc <<'SGC'
int min(int a, int b) { return a < b ? a : b; }
kernel void k(global int *out, int v)
{
    int half = 2;
    if (v)
        goto done;
    int x = 5;
    out[1] = x;
done:
    out[0] = min(v, half);
}
SGC
run 0 --verify -o names names.sgc
check "--verify: renamed names and split declarations compile" test ! -s "$tmp/err"
# A jump into a loop past its for-init declaration is left as written
# (docs/LOWERING.md); nvcc rejects it and --verify must say so, as nvcc does.
cat >into_for.sgc <<'SGC'
kernel void k(global int *out, int v)
{
    if (v)
        goto inside;
    for (int i = 0; i < 4; i++) {
    inside:
        out[0] = v;
    }
}
SGC
if run 0 -t cuda --verify -o nv names.sgc && ! has "NVRTC not found" "$tmp/err"; then
    run 1 -t cuda --verify -o into_for into_for.sgc
    check "--verify: a jump past an initialisation is an error, as in nvcc" \
        has "into_for.sgc:4:1: error: CUDA C: transfer of control bypasses initialization" "$tmp/err"
fi

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

# Adjacent string literals: an escape at the end of one piece must not take
# the next piece's first character ("\x63" "d" is 'c' 'd'); the host C
# compiler's own concatenation of the same literals is the reference.
fresh
literals='"ab" "\x63" "d" "\1" "2" "\12" "3" "\123" "4" "\x4" "\\" "x" "\0" "7"'
printf 'kernel void k(global char *out)\n{\n    char s[] = %s;\n    for (int i = 0; i < (int)sizeof(s); i++)\n        out[i] = s[i];\n}\n' \
    "$literals" >cat.sgc
run 0 -t cuda -o cat.cu cat.sgc
joined=$(sed -n 's/^ *char s\[[0-9]*\] = \(".*"\);$/\1/p' cat.cu)
printf '#include <stdio.h>\nstatic const char want[] = %s, got[] = %s;\nint main(void)\n{\n    for (size_t i = 0; i < sizeof want; i++)\n        if (sizeof got != sizeof want || want[i] != got[i])\n            return 1;\n    return 0;\n}\n' \
    "$literals" "${joined:-x}" >cat.c
check "adjacent literals ending in escapes keep their bytes (against the host C compiler)" \
    sh -c 'cc -std=c17 -o cat cat.c && ./cat'

echo "1..$count"
echo "# cli: $((count - failed)) passed, $failed failed"
[ $failed -eq 0 ]
