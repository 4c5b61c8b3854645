#!/usr/bin/env bash
# quickstart.sh — the main job for a newcomer on a fresh Debian 12 machine:
# install the dependencies, build sgcc and sgrt, translate the vector-add
# sample with sgcc and run it on the default device (first GPU, else first
# CPU OpenCL device; override with SGRT_DEVICE, see docs/RUNTIME.md).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${SGCC_SKIP_DEPS:-0}" = 1 ] || scripts/install-deps.sh
eval "$(scripts/intel-ocl-env.sh)"
build=${SGCC_BUILD_DIR:-build}
[ -f "$build/build.ninja" ] || meson setup "$build"
meson compile -C "$build" >/dev/null

echo "== sgcc: samples/vector_add/vector_add.sgc -> OpenCL C and CUDA C"
out=$(mktemp -d)
"$build/compiler/sgcc" -o "$out/vector_add" samples/vector_add/vector_add.sgc
sed -n '/__kernel/,$p' "$out/vector_add.cl"
rm -rf "$out"
echo "== run on the default device through sgrt"
"$build/samples/vector_add"
