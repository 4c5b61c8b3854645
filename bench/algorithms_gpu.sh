#!/bin/sh
# algorithms_gpu.sh [PACK] — samples/algorithms on the GPU machine, in one
# call: builds bench/algorithms_gpu.cu with nvcc against CUB, cuSPARSE and
# the packed libsgrt, runs it (sgcc's CUDA output against the libraries, in
# one process), then the sample program on NVIDIA's OpenCL (nvptx tier) and
# on CUDA through sgrt with the same sizes.  Prints Markdown tables.
#
# Here:   bench/algorithms_pack.sh build DIR     (DIR: default .gpu/algorithms)
# There:  sh DIR/src/algorithms_gpu.sh DIR
# env: N (2^28 elements), GRID (2048), R (20 runs), NVCC_ARCH (sm_90), OUT (/tmp/algorithms_gpu)
set -u
pack=$(cd "${1:-.gpu/algorithms}" && pwd)
out=${OUT:-/tmp/algorithms_gpu}
mkdir -p "$out"
n=${N:-268435456} grid=${GRID:-2048} r=${R:-20}
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export SGRT_CACHE=0
status=0
echo "== algorithms_gpu $(date -u +%Y-%m-%dT%H:%MZ); $(tr '\n' ' ' <"$pack/STAMP")"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader
"$nvcc" --version | tail -n 1
"$nvcc" -O3 -std=c++17 -arch="${NVCC_ARCH:-sm_90}" -I "$pack/src" -I "$pack/gen" \
    "$pack/src/algorithms_gpu.cu" -L "$pack/lib" -lsgrt -lcusparse -lcuda \
    -o "$out/algorithms_gpu" >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
echo "== sgcc CUDA (sgrt, NVRTC) against CUB / cuSPARSE, one process"
"$out/algorithms_gpu" -n "$n" -g "$grid" -r "$r" -t "$out/algorithms_gpu.tsv" || status=1
nv_ocl=/usr/local/nvidia/lib64/libnvidia-opencl.so.1
[ -f "$nv_ocl" ] && export OCL_ICD_FILENAMES=$nv_ocl
for dev in opencl:nvidia cuda; do  # opencl:nvidia: NVIDIA's OpenCL (nvptx tier); plain "nvidia" would pick the CUDA device
    echo "== the sample on SGRT_DEVICE=$dev (same sizes, median of $r)"
    SGRT_DEVICE=$dev "$pack/bin/algorithms" -n "$n" -g "$grid" -r "$r" || status=1
done
exit $status
