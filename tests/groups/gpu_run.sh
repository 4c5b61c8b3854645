#!/bin/sh
# gpu_run.sh — runs the group-library test matrix on every backend this
# machine has: CUDA (nvcc build of host_cuda.cu) and every OpenCL device the
# ICD loader lists (NVIDIA's OpenCL in the nvptx tier, PoCL, Intel ...).
# Prints one "BACKEND: N passed, M failed" line each and a summary.
#
# usage: tests/groups/gpu_run.sh [BUILD_DIR]       (default: build-groups)
# env:   NVCC_ARCH (default sm_90), NV_OPENCL (path of libnvidia-opencl.so
#        when the ICD loader does not list NVIDIA), OPENCL_ONLY=NAME to run
#        only the OpenCL kernels whose name contains NAME, SKIP_BUILD=1 to reuse
#        binaries already in BUILD_DIR, SKIP_DEVICES=REGEX to leave OpenCL
#        devices out.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
B=${1:-$root/build-groups}
mkdir -p "$B"
B=$(cd "$B" && pwd)
emit=$root/compiler/emit
status=0

python3 "$here/gen_matrix.py" "$B"
# The libraries' operator rows (group_ops_*.inc), for embed.py and for
# host_cuda.cu's direct #include (-I"$B").
cc -std=c17 -I"$root/compiler" -o "$B/gen_group_ops" "$emit/gen_group_ops.c" &&
    "$B/gen_group_ops" "$B" || exit 1
python3 "$emit/embed.py" "$B/prelude.c" "$B/prelude.h" --inc "$B" \
    opencl_base="$emit/opencl/opencl_base.cl" opencl_subgroup="$emit/opencl/opencl_subgroup.cl" \
    opencl_workgroup="$emit/opencl/opencl_workgroup.cl" cuda_base="$emit/cuda/cuda_base.cuh" \
    cuda_subgroup="$emit/cuda/cuda_subgroup.cuh" cuda_workgroup="$emit/cuda/cuda_workgroup.cuh"

if [ "${SKIP_BUILD:-0}" != 1 ]; then
    if command -v nvcc >/dev/null; then
        nvcc -arch="${NVCC_ARCH:-sm_90}" -std=c++17 -O2 -I"$here" -I"$B" -I"$emit/cuda" \
            -o "$B/groups_cuda" "$here/host_cuda.cu" || status=1
    fi
    cc -std=c17 -O1 -D_GNU_SOURCE -I"$here" -I"$B" -o "$B/groups_opencl" \
        "$here/host_opencl.c" "$here/host_common.c" "$B/prelude.c" -lOpenCL -lm || status=1
fi
# A carried ICD loader, only when the machine has none (the system's may be
# NVIDIA's, which is the one that lists NVIDIA's platform).
if [ -e "$B/libOpenCL.so.1" ] && ! ldconfig -p 2>/dev/null | grep -q "libOpenCL.so.1 "; then
    export LD_LIBRARY_PATH="$B:${LD_LIBRARY_PATH:-}"
fi

summary=""
record() { summary="$summary
$1"; }

if [ -x "$B/groups_cuda" ]; then
    line=$("$B/groups_cuda" 2>"$B/cuda.err" | tail -1); rc=$?
    echo "$line"; record "$line"
    case "$line" in *" 0 failed"*) ;; *) status=1; head -20 "$B/cuda.err" ;; esac
fi

run_opencl() { # LABEL DEVICE-SUBSTRING OPTIONS
    line=$("$B/groups_opencl" -l "$1" -p "$2" -o "$3" ${OPENCL_ONLY:+-k "$OPENCL_ONLY"} \
        "$here/test_kernels.cl" "$B/kernels.cl" \
        2>"$B/$1.err" | tail -1)
    echo "$line"; record "$line"
    case "$line" in *" 0 failed"*|*skipped) ;; *) status=1; head -20 "$B/$1.err" ;; esac
}

# NVIDIA's OpenCL: the nvptx tier (inline PTX), told the architecture.
sm=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
nvflags="-DSGC_NV_PTX=1 -DSGC_NV_SM=${sm:-70}"
if "$B/groups_opencl" --list 2>/dev/null | grep -q "^NVIDIA"; then
    run_opencl nvidia-opencl-nvptx "NVIDIA" "$nvflags"
elif [ -n "${NV_OPENCL:-}" ]; then
    OCL_ICD_FILENAMES=$NV_OPENCL run_opencl nvidia-opencl-nvptx NVIDIA "$nvflags"
fi
# Every device the loader lists (PoCL, Intel, ...), native tier, then the
# khr tier with every optional extension forced off.
"$B/groups_opencl" --list 2>/dev/null | grep -v NVIDIA | grep -v -E "${SKIP_DEVICES:-^$}" >"$B/devices.txt"
while IFS= read -r dev; do
    name=$(echo "$dev" | tr -c 'A-Za-z0-9\n' '_' | cut -c1-40)
    run_opencl "opencl-$name" "$dev" ""
    run_opencl "opencl-$name-generic" "$dev" "-DSGC_FORCE_GENERIC"
done <"$B/devices.txt"

echo "== summary ==$summary"
exit $status
