#!/usr/bin/env bash
# gpu_pack.sh SGCC FIRST_SEED COUNT DEST — prepares the GPU differential
# campaign here (docs/RELIABILITY.md "Differential testing"): COUNT seeds x
# {wg, sg} modules from sgcgen.py --gpu, translated by sgcc -t all, with the
# oracle and runner sources, into DEST.  On the GPU machine (nvcc, cc and
# NVIDIA's OpenCL; no sgcc build tools needed) run DEST/gpu_campaign.sh.
# sgcc needs only libc, so this can run on the GPU machine too (JOBS at a
# time, default the CPU count).  SGCGEN_FLAGS: more sgcgen.py options
# (e.g. --no-workarounds).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sgcc=$1 first=$2 count=$3 dest=$4
mkdir -p "$dest/mod"
cp "$here"/diffrun.c "$here"/cudarun.c "$here"/ref_main.c "$here"/diff_shim.h "$here"/diff_input.h \
   "$here"/gpu_campaign.sh "$dest/"
pack_one() { # pack_one SEED FLAVOUR
    base=$dest/mod/s$1_$2
    # shellcheck disable=SC2086
    python3 "$here/sgcgen.py" --gpu ${SGCGEN_FLAGS:-} --seed "$1" --flavour "$2" --out "$base"
    # shellcheck disable=SC2046
    "$sgcc" $(cat "$base.sgccopts") -w -t all -o "$base" "$base.sgc"
}
export -f pack_one
export here sgcc dest SGCGEN_FLAGS
for ((s = first; s < first + count; s++)); do
    echo "$s wg"
    echo "$s sg"
done | xargs -P "${JOBS:-$(nproc)}" -n 2 bash -c 'pack_one "$0" "$1"'
echo "packed $((count * 2)) modules into $dest"
