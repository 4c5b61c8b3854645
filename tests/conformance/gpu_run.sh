#!/bin/sh
# gpu_run.sh — the CUDA side of the c_semantics conformance case (issue 25
# items 8, 11, 12) on an NVIDIA GPU: translates cases/c_semantics.sgc with
# sgcc, builds the host C reference (cases.c) with the C compiler, builds
# c_semantics_cuda.cu around the CUDA output with nvcc, runs it and compares
# every value with C17's.  The OpenCL side runs in `meson test --suite
# conformance` (Intel, PoCL).
# usage: tests/conformance/gpu_run.sh [SGCC]     (default: build/compiler/sgcc)
# env:   NVCC_ARCH (default sm_90), CC (default cc)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
sgcc=${1:-$root/build/compiler/sgcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$sgcc" -t cuda -o "$tmp/c_semantics.cu" "$here/cases/c_semantics.sgc"
"${CC:-cc}" -std=c17 -O1 -I"$here" -o "$tmp/expect" "$here/c_semantics_expect.c" "$here/cases.c"
nvcc -arch="${NVCC_ARCH:-sm_90}" -std=c++17 -O2 -I"$tmp" -DCASE_CU='"c_semantics.cu"' \
    -o "$tmp/run" "$here/c_semantics_cuda.cu"
"$tmp/expect" "$tmp/in.bin" "$tmp/want.bin"
"$tmp/run" "$tmp/in.bin" "$tmp/want.bin"
