#!/usr/bin/env bash
# pack_gpu.sh [BUILD] — collects what the GPU batch needs into .devbuild/
# (git-ignored): the sgrt library and test/sample binaries built here, and
# every .sgc the batch uses translated in advance, because the GPU machine
# has no libclang to run sgcc.  scripts/gpu_batch.sh runs it there.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
dest=.devbuild
rm -rf "$dest"
mkdir -p "$dest/lib" "$dest/bin" "$dest/gen"
cp -L "$build/runtime/libsgrt.so.0" "$dest/lib/"
cp -L /lib/x86_64-linux-gnu/libsubunit.so.0 "$dest/lib/" 2>/dev/null || true
for exe in samples/vector_add samples/stencil2d samples/matmul samples/groups samples/reduce \
           tests/clprobe tests/reduce/test_reduce tests/runtime/test_runtime \
           tests/runtime/test_kernel_unsupported \
           bench/bench_build_cache bench/bench_tiles bench/bench_launch_overhead \
           bench/bench_cpu_suite tests/exec_barrier/exec_barrier \
           tests/runtime/test_interop tests/runtime/test_interop_cuda tests/runtime/test_compile \
           tests/runtime/test_async tests/runtime/test_abi \
           bench/bench_runtime_compile bench/bench_pipeline samples/multidevice; do
    [ -x "$build/$exe" ] && cp "$build/$exe" "$dest/bin/"
done
# Pre-translated sources: sgcc -t all for every unit a gpu_run.sh needs.
for src in tests/exec_tangle/tangle_exec.sgc samples/barriers/*.sgc tests/exec_barrier/*.sgc \
           tests/exec_groups/*.sgc samples/groups/*.sgc tests/refusal/*.sgc; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .sgc)
    "$build/compiler/sgcc" -t all -o "$dest/gen/$name" --header "$dest/gen/$name.h" "$src"
done
# Generated units and hosts of the execution tests, as meson built them.
mkdir -p "$dest/barrier_gen" "$dest/groups_gen"
cp "$build"/tests/exec_barrier/*.cu "$build"/tests/exec_barrier/*.h "$dest/barrier_gen/"
cp "$build/tests/exec_barrier/exec_barrier" "$dest/barrier_gen/"
if [ -d "$build/tests/exec_groups" ]; then
    find "$build/tests/exec_groups" -maxdepth 1 -type f \( -name '*.cu' -o -name '*.cl' -o -name '*.h' \
        -o -name '*.sgc' \) -exec cp {} "$dest/groups_gen/" \;
    cp "$build/tests/exec_groups/exec_groups" "$dest/groups_gen/"
fi
# A stand-in for sgcc on the GPU machine: serves the pre-translated output.
cat >"$dest/bin/sgcc" <<'SHIM'
#!/bin/sh
# usage as sgcc: [-t T] -o OUT [--header H] IN.sgc  (pre-translated copies)
gen=$(dirname "$0")/../gen
target=all out= header=
while [ $# -gt 1 ]; do
    case $1 in
    -t) target=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    --header) header=$2; shift 2 ;;
    *) shift ;;
    esac
done
name=$(basename "$1" .sgc)
case $target in
cuda) case $out in *.cu) cp "$gen/$name.cu" "$out" ;; *) cp "$gen/$name.cu" "$out.cu" ;; esac ;;
opencl) case $out in *.cl) cp "$gen/$name.cl" "$out" ;; *) cp "$gen/$name.cl" "$out.cl" ;; esac ;;
*) cp "$gen/$name.cu" "$out.cu"; cp "$gen/$name.cl" "$out.cl" ;;
esac
[ -z "$header" ] || cp "$gen/$name.h" "$header"
SHIM
chmod +x "$dest/bin/sgcc"
du -sh "$dest"
