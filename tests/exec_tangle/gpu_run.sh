#!/bin/sh
# gpu_run.sh — the tangle-mask execution test on an NVIDIA GPU: translates
# tangle_exec.sgc with sgcc, builds host_cuda.cu around the CUDA output with
# nvcc, and runs it for full and partial warps (reference: reference.h).
# usage: tests/exec_tangle/gpu_run.sh [SGCC]     (default: build/compiler/sgcc)
# env:   NVCC_ARCH (default sm_90)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
sgcc=${1:-$root/build/compiler/sgcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$sgcc" -t cuda -o "$tmp/tangle_exec.cu" "$here/tangle_exec.sgc"
nvcc -arch="${NVCC_ARCH:-sm_90}" -std=c++17 -O2 -I"$here" -I"$tmp" \
    -DTANGLE_CU='"tangle_exec.cu"' -o "$tmp/host_cuda" "$here/host_cuda.cu"
status=0
for local in 64 60 96 33; do
    "$tmp/host_cuda" "$local" || status=1
done
[ $status = 0 ] && echo "exec_tangle CUDA: all passed" || echo "exec_tangle CUDA: FAILED"
exit $status
