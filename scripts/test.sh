#!/usr/bin/env bash
# test.sh — builds sgcc and sgrt and runs every test suite (unit, golden,
# error, command-line, runtime and execution tests on the CPU OpenCL
# devices this machine has).
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(scripts/intel-ocl-env.sh)"
build=${SGCC_BUILD_DIR:-build}
[ -f "$build/build.ninja" ] || meson setup "$build"
meson compile -C "$build"
# The valgrind run of the runtime tests takes ~20 minutes: opt in with
# SGCC_TEST_VALGRIND=1.
skip=()
[ "${SGCC_TEST_VALGRIND:-0}" = 1 ] || skip=(--no-suite runtime-valgrind)
meson test -C "$build" --print-errorlogs "${skip[@]}" "$@"
