#!/bin/sh
# group_ops_gpu.sh pack [BUILD] [DEST] — here: gathers bench_group_ops,
#   libsgrt (which holds libsgcc: the benchmark compiles group_ops.sgc at
#   run time) and group_ops.sgc into DEST (default .gpu/group_ops).
# group_ops_gpu.sh run [DEST] — on the GPU machine: the benchmark on CUDA
#   (sgrt: NVRTC and the driver) and on NVIDIA's OpenCL (nvptx tier).
#   Environment: N (work-items, default 2^21), ROUNDS (32), R (repeats, 11),
#   TYPES (default all six).
set -eu
mode=${1:-}
case $mode in
pack)
    cd "$(dirname "$0")/.."
    build=${2:-build} dest=${3:-.gpu/group_ops}
    [ -x "$build/bench/bench_group_ops" ] || { echo "group_ops_gpu: build $build first" >&2; exit 2; }
    rm -rf "$dest"
    mkdir -p "$dest/bin" "$dest/lib"
    cp "$build/bench/bench_group_ops" "$dest/bin/"
    cp -L "$build/runtime/libsgrt.so.0" "$dest/lib/"
    cp bench/group_ops.sgc bench/group_ops_gpu.sh "$dest/"
    echo "commit: $(git rev-parse HEAD)$(git diff --quiet -- bench || echo ' (dirty)')" >"$dest/STAMP"
    cat "$dest/STAMP"
    ;;
run)
    pack=$(cd "${2:-.gpu/group_ops}" && pwd)
    export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export SGRT_CACHE=0
    nv_ocl=/usr/local/nvidia/lib64/libnvidia-opencl.so.1
    [ -f "$nv_ocl" ] && export OCL_ICD_FILENAMES=$nv_ocl
    echo "== group_ops $(date -u +%Y-%m-%dT%H:%MZ); $(cat "$pack/STAMP")"
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
    status=0
    # opencl:nvidia is NVIDIA's OpenCL (plain "nvidia" would pick the CUDA device)
    for dev in cuda opencl:nvidia; do
        echo "== SGRT_DEVICE=$dev"
        # shellcheck disable=SC2086
        SGRT_DEVICE=$dev "$pack/bin/bench_group_ops" -s "$pack/group_ops.sgc" -n "${N:-2097152}" \
            -r "${ROUNDS:-32}" -R "${R:-11}" ${TYPES:-} || status=1
    done
    exit $status
    ;;
*)
    echo "usage: group_ops_gpu.sh pack [BUILD] [DEST] | run [DEST]" >&2
    exit 2
    ;;
esac
