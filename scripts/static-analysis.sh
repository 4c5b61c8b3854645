#!/usr/bin/env bash
# static-analysis.sh [BUILD] — cppcheck and clang's static analyzer
# (clang-tidy-19's clang-analyzer-* checks) on compiler/ and runtime/.
# Exit status 1 when either reports anything.  BUILD (default: build) is a
# configured meson build directory: its compile_commands.json gives
# clang-tidy each file's flags, and its generated headers (the parser's,
# the device-library tables) are on cppcheck's include path; it is set up
# and built when missing.  .ci/run runs this after scripts/test.sh;
# docs/RELIABILITY.md "What runs where".
#
# A false positive is fixed in the code where the invariant can be made
# visible, else suppressed where it is reported with a NOLINT comment that
# says why (grep NOLINT compiler runtime).  clang-analyzer's
# DeprecatedOrUnsafeBufferHandling is off: it asks for the C11 Annex K
# functions (memcpy_s...) that glibc does not have.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
start=$SECONDS
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null || exit 2
meson compile -C "$build" >/dev/null || exit 2
jobs=$(nproc 2>/dev/null || echo 2)
status=0

echo "static-analysis: cppcheck"
cppcheck --quiet --error-exitcode=1 -j "$jobs" --enable=warning,portability --std=c11 \
    -I compiler -I compiler/driver -I runtime -I "$build/compiler" \
    --suppress=missingIncludeSystem -D__GNUC__ --file-filter='*.c' compiler runtime || status=1

echo "static-analysis: clang-tidy-19 (clang-analyzer-*)"
checks='-*,clang-analyzer-*,-clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling'
out=$(mktemp) && trap 'rm -f "$out"' EXIT
# clang-tidy exits non-zero where it cannot analyse a file (a compile
# error); a finding shows in its output.
tidy=0
git ls-files 'compiler/*.c' 'runtime/*.c' |
    xargs -P "$jobs" -n 4 clang-tidy-19 -p "$build" --quiet --checks="$checks" >"$out" 2>&1 ||
    tidy=1
if grep -E '(warning|error):' "$out" | sort -u | grep .; then
    status=1
elif [ $tidy -ne 0 ]; then
    cat "$out"
    status=1
fi

echo "static-analysis: $([ $status -eq 0 ] && echo clean || echo FINDINGS) in $((SECONDS - start)) s"
exit $status
