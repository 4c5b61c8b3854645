#!/bin/sh
# algorithms_pack.sh [BUILD] [DEST] — gathers what bench/algorithms_gpu.sh
# needs on the GPU machine (which has no flex/bison/libclang to build sgcc)
# into DEST (default .gpu/algorithms, git-ignored): the module headers sgcc
# generated for samples/algorithms, libsgrt, the sample program built here
# (it runs NVIDIA's OpenCL, the nvptx tier, through sgrt), and the sources
# the benchmark host is compiled from there with nvcc.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
dest=${2:-.gpu/algorithms}
[ -x "$build/samples/algorithms" ] || { echo "algorithms_pack: build $build first" >&2; exit 2; }
rm -rf "$dest"
mkdir -p "$dest/gen" "$dest/lib" "$dest/bin" "$dest/src"
for stem in scan compact histogram spmv; do
    cp "$build/samples/$stem.h" "$build/samples/$stem.cu" "$build/samples/$stem.cl" "$dest/gen/"
done
cp -L "$build/runtime/libsgrt.so.0" "$dest/lib/"
ln -sf libsgrt.so.0 "$dest/lib/libsgrt.so"
cp "$build/samples/algorithms" "$dest/bin/"
cp samples/algorithms/*.h samples/algorithms/*.sgc samples/algorithms/*.sgh samples/common/sample_util.h \
   runtime/sgrt.h bench/algorithms_gpu.cu bench/algorithms_gpu.sh "$dest/src/"
{
    echo "sgcc: $("$build/compiler/sgcc" --version | head -n 1)"
    echo "commit: $(git rev-parse HEAD)$(git diff --quiet -- samples/algorithms bench || echo ' (dirty)')"
    echo "packed: $(date -u +%Y-%m-%dT%H:%MZ)"
} >"$dest/STAMP"
cat "$dest/STAMP"
