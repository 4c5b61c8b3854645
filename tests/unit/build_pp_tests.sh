#!/bin/sh
# build_pp_tests.sh — builds and runs the scanner and preprocessor unit tests
# standalone (gcc + flex + libcheck), without meson, into $BUILD (default
# build-pp/unit).  Usage: tests/unit/build_pp_tests.sh [valgrind]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build-pp/unit}
mkdir -p "$build"
cflags="-std=c17 -Wall -Wextra -Werror -D_GNU_SOURCE -g -O1 -I$root/compiler"

flex --outfile="$build/scan.c" --header-file="$build/scan.h" "$root/compiler/lex/scan.l"
# Generated code gets the same relaxations as in meson (grammar_lib).
gcc $cflags -Wno-unused-function -Wno-sign-compare -Wno-unused-parameter \
    -c "$build/scan.c" -o "$build/scan.o"
for f in base/arena base/diag pp/preprocess; do
    gcc $cflags -c "$root/compiler/$f.c" -o "$build/${f#*/}.o"
done
check_flags=$(pkg-config --cflags --libs check)
for t in test_lex test_preprocess; do
    gcc $cflags "$root/tests/unit/$t.c" "$build/scan.o" "$build/arena.o" "$build/diag.o" \
        "$build/preprocess.o" $check_flags -o "$build/$t"
done

status=0
for t in test_lex test_preprocess; do
    if [ "${1:-}" = valgrind ]; then
        CK_FORK=no valgrind -q --error-exitcode=9 --leak-check=full "$build/$t" || status=1
    else
        "$build/$t" || status=1
    fi
done
exit $status
