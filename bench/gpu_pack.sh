#!/bin/sh
# gpu_pack.sh [BUILD] — translates the SGC sources of the GPU benchmark suite
# (bench/gpu_bench.sh) with this machine's sgcc into .gpu/bench/ (git-ignored),
# because the GPU machine has no flex/bison/libclang to build sgcc.  Carry
# .gpu/ to the GPU machine with the working tree, then run bench/gpu_bench.sh
# there.  BUILD: the meson build directory holding compiler/sgcc (build).
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
sgcc=$build/compiler/sgcc
[ -x "$sgcc" ] || { echo "gpu_pack: $sgcc not built (meson compile -C $build)" >&2; exit 2; }
dest=.gpu/bench
rm -rf "$dest"
mkdir -p "$dest"
for src in bench/gpu_kernels.sgc bench/tiles.sgc samples/matmul/matmul.sgc; do
    name=$(basename "$src" .sgc)
    "$sgcc" -t all -o "$dest/$name" "$src"
done
{
    echo "sgcc: $("$sgcc" --version | head -n 1)"
    echo "commit: $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (dirty)')"
    echo "packed: $(date -u +%Y-%m-%dT%H:%MZ)"
} >"$dest/STAMP"
cat "$dest/STAMP"
ls "$dest"
