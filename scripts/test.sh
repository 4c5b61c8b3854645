#!/usr/bin/env bash
# test.sh — builds sgcc and sgrt and runs every test suite (unit, golden,
# error, command-line, runtime and execution tests on the CPU OpenCL
# devices this machine has).
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(scripts/intel-ocl-env.sh)"
build=${SGCC_BUILD_DIR:-build}
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
meson compile -C "$build"
meson test -C "$build" --print-errorlogs "$@"
