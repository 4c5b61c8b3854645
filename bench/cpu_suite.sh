#!/usr/bin/env bash
# cpu_suite.sh [BUILD] — the GPU benchmark set on the CPU OpenCL runtimes of
# this machine (Intel's CPU runtime: khr tier; PoCL: wg tier), all from one
# build: the group kernels (bench_cpu_suite, with a one-core host loop as
# the peer), split-barrier tiles vs plain barriers (bench_tiles) and the
# spec-constant matmul vs its plain-argument twin (samples/matmul).  Every
# result is checked against the host.  Prints Markdown (bench/RESULTS.md).
#   N=4194304 R=11 bench/cpu_suite.sh build
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
n=${N:-4194304}
r=${R:-11}
eval "$("$here/../scripts/intel-ocl-env.sh")"

echo "### Group kernels (bench_cpu_suite, n = $n ints)"
echo
"$build/bench/bench_cpu_suite" all "$n" "$r"
echo
echo "### Split-barrier tiles (bench_tiles, 256 groups x 16 tiles)"
echo
echo "| device | size | double-buffered (split barriers) | plain barriers | ratio | check |"
echo "|---|---|---:|---:|---:|---|"
for dev in intel portable; do
    SGRT_DEVICE=$dev "$build/bench/bench_tiles" 256 16 "$r" | grep '^|'
done
echo
echo "### Spec-constant matmul (samples/matmul, n = 256)"
echo
for dev in intel portable; do
    echo "$dev:"
    echo
    SGRT_DEVICE=$dev "$build/samples/matmul" 256 "$r" | sed 's/^/    /'
    echo
done
