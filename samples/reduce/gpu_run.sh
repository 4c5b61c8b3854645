#!/bin/sh
# gpu_run.sh — the Reduce sample on every backend of a GPU machine: CUDA,
# NVIDIA's OpenCL and PoCL, each with every work-group strategy (the
# device's own choice first, then tree, builtin, subgroup forced) for 2^26
# ints, sum; then the strategy x op x type x size matrix (test_reduce) on
# each.  Prints a table: device, strategy, GB/s (median of 5 timed runs),
# or why the strategy was refused.
#
# The binaries are built on the CPU machine (no flex/bison/libclang here):
#   there:  scripts/pack_gpu.sh          (fills .devbuild/, git-ignored)
#   here:   samples/reduce/gpu_run.sh [.devbuild]  (from the repo root)
# env: DEVICES (default: cuda and every OpenCL device), N (2^26),
#      OP (sum), TYPE (int), OUT (log directory, default /tmp/reduce_gpu).
set -u
dev_dir=${1:-.devbuild}
bin=$dev_dir/bin
out=${OUT:-/tmp/reduce_gpu}
mkdir -p "$out"
export LD_LIBRARY_PATH=$dev_dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nv_ocl=/usr/local/nvidia/lib64/libnvidia-opencl.so.1
if [ -f "$nv_ocl" ] && [ -z "${OCL_ICD_FILENAMES:-}" ]; then
    export OCL_ICD_FILENAMES=$nv_ocl
fi
export SGRT_CACHE=0
# Default: the CUDA device and every OpenCL device (NVIDIA's, PoCL's ...),
# found by asking the sample for opencl:0, opencl:1, ... until none matches.
if [ -z "${DEVICES:-}" ]; then
    DEVICES=cuda
    k=0
    while [ $k -lt 16 ] && ! "$bin/reduce" -d opencl:$k -n 1 -r 1 2>&1 | grep -q 'no device matches'; do
        DEVICES="$DEVICES opencl:$k"
        k=$((k + 1))
    done
fi
devices=$DEVICES
n=${N:-2^26}
status=0

printf '%-18s %-40s %-10s %-9s %6s %7s %9s %s\n' selector device asked got local passes "GB/s" result >"$out/table.txt"
for dev in $devices; do
    tag=$(echo "$dev" | tr ':' '_')
    for s in default tree builtin subgroup; do
        log=$out/${tag}_$s.log
        timeout 300 "$bin/reduce" -d "$dev" -s "$s" -n "$n" -o "${OP:-sum}" -t "${TYPE:-int}" -r 5 >"$log" 2>&1
        rc=$?
        name=$(sed -n 's/^device: \(.*\) (.*$/\1/p' "$log" | head -n 1 | cut -c1-40)
        if [ $rc -eq 3 ]; then
            printf '%-18s %-40s %-10s %-9s %6s %7s %9s %s\n' "$dev" "$name" "$s" - - - - "refused: $(sed -n 's/^reduce: //p' "$log" | cut -c1-90)" >>"$out/table.txt"
            continue
        fi
        line=$(grep '^RESULT' "$log")
        if [ -z "$line" ]; then
            printf '%-18s %-40s %-10s %-9s %6s %7s %9s %s\n' "$dev" "${name:-?}" "$s" - - - - "failed (rc=$rc): $(tail -n 1 "$log" | cut -c1-80)" >>"$out/table.txt"
            [ $rc -eq 2 ] && echo "$dev: no such device or runtime failure, see $log"
            status=1
            continue
        fi
        get() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
        verdict=$(echo "$line" | awk '{print $NF}')
        [ "$verdict" = correct ] || status=1
        printf '%-18s %-40s %-10s %-9s %6s %7s %9s %s\n' "$dev" "$name" "$s" "$(get strategy)" \
            "$(get local)" "$(get passes)" "$(get gbps)" "$verdict" >>"$out/table.txt"
    done
    # The correctness matrix with the kernel's own work-group size.
    timeout 600 "$bin/test_reduce" -d "$dev" -w 0 >"$out/${tag}_matrix.log" 2>&1
    rc=$?
    echo "matrix $dev: rc=$rc: $(tail -n 1 "$out/${tag}_matrix.log")" >>"$out/matrix.txt"
    [ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
done
cat "$out/table.txt"
cat "$out/matrix.txt"
exit $status
