#!/bin/sh
# gpu_run.sh — the refusals of run_refusal.sh on the GPU machine's OpenCL
# platforms: NVIDIA's (nvptx tier: reqd_sub_group_size(16) and
# fixed_size_group<64> refused) and PoCL 5 (khr tier without the
# non-uniform extensions: ballot and tangle kernels refused in the device
# build instead of hanging, issue 25 item 16).  From the repository root:
#   sh tests/refusal/gpu_run.sh SGCC_OR_DIR
# (DIR: the cases translated in advance, .devbuild/gen from scripts/pack_gpu.sh.)
# Builds tests/tools/clbuild.c with cc; every build is under timeout, so a
# device compiler that hangs fails the step instead of the batch.
set -u
root=$(pwd)
sgcc=${1:?usage: gpu_run.sh SGCC_OR_DIR}
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
cc -O1 -o "$tmp/clbuild" "$root/tests/tools/clbuild.c" -lOpenCL || exit 1
status=0
for run in "NVIDIA nvptx" "Portable khr-no-non-uniform"; do
    set -- $run
    echo "== $1 ($2)"
    timeout 600 sh "$root/tests/refusal/run_refusal.sh" "$sgcc" "$tmp/clbuild" \
        "$root/tests/refusal" "$1" "$2"
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
done
exit $status
