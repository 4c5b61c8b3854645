#!/usr/bin/env bash
# test.sh — builds sgcc and sgrt and runs the test suites: unit, golden,
# error, command-line, install, runtime and execution tests on the CPU OpenCL
# devices this machine has (Intel CPU runtime, PoCL), with the group
# matrices sampled (docs/RELIABILITY.md "What runs where"): about 10 minutes
# on 2 cores from an empty build directory.
#
#   scripts/test.sh [--full | --exhaustive] [MESON-TEST-ARGUMENTS...]
#   --full        then also the suite 'exhaustive' (the full group matrices;
#                 about 30 minutes more on 2 cores)
#   --exhaustive  only the suite 'exhaustive' (what .ci/run adds)
# Other arguments go to `meson test` (e.g. --suite golden).  The build
# directory is $SGCC_BUILD_DIR, default build/.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=quick
case ${1:-} in
    --full) mode=full; shift ;;
    --exhaustive) mode=exhaustive; shift ;;
esac
# A fresh machine gets its dependencies first (a no-op once they are there;
# SGCC_SKIP_DEPS=1 skips even the check).
[ "${SGCC_SKIP_DEPS:-0}" = 1 ] || scripts/install-deps.sh --if-missing
# The Intel tests find the Intel CPU runtime themselves; exported here too,
# the runtime and sample tests that take the default device see it.
eval "$(scripts/intel-ocl-env.sh)"
build=${SGCC_BUILD_DIR:-build}
start=$SECONDS
[ -f "$build/build.ninja" ] || meson setup "$build"
# One meson test per golden and error case, listed when meson configured: a
# case added or removed since then needs a reconfigure.
if ! python3 tests/run_case.py --list . | cmp -s - "$build/tests/test-cases.txt"; then
    meson setup --reconfigure "$build"
fi
meson compile -C "$build"
if [ "$mode" != exhaustive ]; then
    # The valgrind run of the runtime tests takes ~20 minutes: opt in with
    # SGCC_TEST_VALGRIND=1.
    skip=()
    [ "${SGCC_TEST_VALGRIND:-0}" = 1 ] || skip=(--no-suite runtime-valgrind)
    meson test -C "$build" --print-errorlogs "${skip[@]}" "$@"
    echo "test.sh: quick suites done in $((SECONDS - start)) s"
fi
if [ "$mode" != quick ]; then
    meson test -C "$build" --print-errorlogs --suite exhaustive "$@"
    echo "test.sh: done in $((SECONDS - start)) s"
fi
