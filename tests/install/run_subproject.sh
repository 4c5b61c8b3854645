#!/usr/bin/env bash
# run_subproject.sh SOURCE_ROOT — TAP.  The meson subproject route of
# docs/BUILD.md from scratch, with nothing of sgcc installed: a copy of
# samples/meson-consumer (find_program('sgcc') first, then
# dependency('sgrt')) gets sgcc as subprojects/sgcc (a link to this source
# tree) plus the sgcc.wrap of docs/BUILD.md, whose [provide] section lets
# both lookups fall back to the subproject.  Checks that the consumer
# configures, that sgcc's tests, samples and benchmarks are not part of it,
# that sgcc's targets are not built with -Werror, and that the program
# builds and runs correctly on the default device.
set -uo pipefail
root=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
check() {
    local what=$1
    shift
    n=$((n + 1))
    if "$@" >"$tmp/check.log" 2>&1; then
        echo "ok $n - $what"
    else
        echo "not ok $n - $what"
        sed 's/^/# /' "$tmp/check.log" | tail -40
        failed=$((failed + 1))
    fi
}

# Nothing installed: no sgcc on PATH, no sgrt.pc on PKG_CONFIG_PATH.
export PATH=/usr/local/bin:/usr/bin:/bin
unset PKG_CONFIG_PATH
src=$tmp/app
mkdir -p "$src/subprojects"
cp -r "$root/samples/consumer" "$tmp/"
cp -r "$root/samples/meson-consumer/." "$src/"
ln -s "$root" "$src/subprojects/sgcc"
# The wrap of docs/BUILD.md, minus its download lines (the directory exists).
sed -n '/^\[provide\]/,$p' "$root/docs/sgcc.wrap" >"$tmp/provide"
{ printf '[wrap-file]\ndirectory = sgcc\n\n'; cat "$tmp/provide"; } >"$src/subprojects/sgcc.wrap"
# The consumer's sources are ../consumer, as in samples/.

b=$tmp/build
check "no sgcc installed" bash -c '! command -v sgcc'
check "consumer configures with sgcc as a subproject" meson setup "$b" "$src"
log=$b/meson-logs/meson-log.txt
check "find_program('sgcc') fell back to the subproject" grep -q "Program sgcc found: YES (overridden)" "$log"
check "dependency('sgrt') is the subproject's" grep -Eq "Dependency sgrt found: YES .*(overridden|subproject)|sgrt found: YES \(overridden\)" "$log"
check "sgcc's tests, samples and benchmarks are not built" bash -c \
    '! meson introspect --targets "$1" | grep -Eq "\"name\": \"(test_lex|vector_add|bench_cpu_suite|groups_opencl)\""' _ "$b"
check "no test of sgcc's is listed" bash -c '! meson test -C "$1" --list 2>/dev/null | grep -q "^sgcc:"' _ "$b"
check "sgcc's targets are not built with -Werror" bash -c \
    '! grep -q -- "-Werror" "$1/compile_commands.json"' _ "$b"
check "consumer builds" meson compile -C "$b"
check "consumer runs correctly on the default device" bash -c \
    '"$1/consumer" | tee /dev/stderr | grep -qx "all results correct"' _ "$b"

echo "1..$n"
[ $failed -eq 0 ]
