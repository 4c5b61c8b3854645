#!/usr/bin/env bash
# regen.sh SEED DIR — writes the reduced kernel of reduced.tsv's row SEED into
# DIR (case.sgc, case_ref.c, case.manifest, case.sgccopts) as sgcgen.py makes
# it from the seed and the dropped statement ids, and its OpenCL C (case.cl)
# with the sgcc beside it in the build tree (SGCC overrides).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
seed=$1 dir=$2
row=$(awk -F'\t' -v s="$seed" '$1 == s' "$here/reduced.tsv")
[ -n "$row" ] || { echo "regen.sh: no row for seed $seed" >&2; exit 2; }
kernel=$(cut -f2 <<<"$row") kernels=$(cut -f3 <<<"$row") drop=$(cut -f10 <<<"$row")
mkdir -p "$dir"
python3 "$here/../sgcgen.py" --gpu --seed "$seed" --flavour wg --kernels "$kernels" --only-kernel "$kernel" \
    --drop "$drop" --out "$dir/case" >/dev/null
sgcc=${SGCC:-$here/../../../build/compiler/sgcc}
# shellcheck disable=SC2046
"$sgcc" $(cat "$dir/case.sgccopts") -w -t opencl -o "$dir/case.cl" "$dir/case.sgc"
echo "$dir: $kernel of seed $seed (module of $kernels kernels), $(wc -l <"$dir/case.sgc") lines of SGC"
