#!/usr/bin/env bash
# gpu_pack.sh SGCC FIRST_SEED COUNT DEST — prepares the GPU differential
# campaign here (docs/RELIABILITY.md "Differential testing"): COUNT seeds x
# {wg, sg} modules from sgcgen.py --gpu, translated by sgcc -t all, with the
# oracle and runner sources, into DEST.  On the GPU machine (nvcc, cc and
# NVIDIA's OpenCL; no sgcc build tools needed) run DEST/gpu_campaign.sh.
# The sgcc binary (it needs only libc) and sgcgen.py are copied too, so that
# with COUNT 0 DEST is small and gpu_campaign.sh generates the modules on the
# GPU machine (GEN_FIRST=N), each in its own pipeline.  Packing runs JOBS at
# a time (default the CPU count).  SGCGEN_FLAGS: more sgcgen.py options
# (e.g. --no-workarounds); KERNELS: kernels per module (default 4).
# GPU_CASES=1 also packs the GPU-only regression cases (tests/diff/gpu_cases:
# mismatches no CPU device shows), translated by SGCC; with COUNT 0 and no
# GEN_FIRST, gpu_campaign.sh then runs exactly those.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sgcc=$1 first=$2 count=$3 dest=$4
mkdir -p "$dest/mod"
cp "$here"/diffrun.c "$here"/cudarun.c "$here"/ref_main.c "$here"/diff_shim.h "$here"/diff_input.h \
   "$here"/gpu_campaign.sh "$here"/sgcgen.py "$dest/"
cp "$sgcc" "$dest/sgcc"
pack_one() { # pack_one SEED FLAVOUR
    base=$dest/mod/s$1_$2
    # shellcheck disable=SC2086
    python3 "$here/sgcgen.py" --gpu ${SGCGEN_FLAGS:-} --seed "$1" --flavour "$2" --kernels "${KERNELS:-4}" \
        --out "$base"
    # shellcheck disable=SC2046
    "$sgcc" $(cat "$base.sgccopts") -w -t all -o "$base" "$base.sgc"
}
export -f pack_one
export here sgcc dest SGCGEN_FLAGS KERNELS
for ((s = first; s < first + count; s++)); do
    echo "$s wg"
    echo "$s sg"
done | xargs -r -P "${JOBS:-$(nproc)}" -n 2 bash -c 'pack_one "$0" "$1"'
cases=0
if [ "${GPU_CASES:-0}" = 1 ]; then
    for dir in "$here"/gpu_cases/*/; do
        base=$dest/mod/$(basename "$dir")
        cp "$dir/case.sgc" "$base.sgc"
        cp "$dir/case_ref.c" "${base}_ref.c"
        cp "$dir/case.manifest" "$base.manifest"
        # shellcheck disable=SC2046
        "$sgcc" $(cat "$dir/case.sgccopts") -w -t all -o "$base" "$base.sgc"
        cases=$((cases + 1))
    done
fi
echo "packed $((count * 2)) modules and $cases GPU cases into $dest"
