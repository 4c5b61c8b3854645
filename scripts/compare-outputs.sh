#!/bin/bash
# compare-outputs.sh OLD_SGCC NEW_SGCC [ROOT] — translates every .sgc under
# ROOT (default: the repository) with both binaries, -t opencl, -t cuda,
# --header and --emit-json, and reports each input whose outputs or exit status differ.
# Used to check that a refactoring of the driver (libsgcc) keeps the emitted
# bytes.  Diagnostics (stderr) are compared too, but reported apart: wording
# changes there are expected more often.  Exit 0 when no output differs.
set -u
old=${1:?usage: compare-outputs.sh OLD_SGCC NEW_SGCC [ROOT]}
new=${2:?usage: compare-outputs.sh OLD_SGCC NEW_SGCC [ROOT]}
root=${3:-$(cd "$(dirname "$0")/.." && pwd)}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

inputs=0 same=0 differ=0 stderr_differ=0
run() { # run BIN TAG INPUT ARGS...: outputs into $tmp/TAG
    local bin=$1 tag=$2 input=$3
    shift 3
    rm -rf "$tmp/$tag" && mkdir -p "$tmp/$tag"
    (cd "$(dirname "$input")" && "$bin" --color=never "$@" "$(basename "$input")" \
        >"$tmp/$tag/stdout" 2>"$tmp/$tag/stderr"
     echo $? >"$tmp/$tag/status")
}
while IFS= read -r -d '' src; do
    inputs=$((inputs + 1))
    bad=0
    for mode in opencl cuda header json; do
        case $mode in
        opencl | cuda) args=(-t "$mode" -o -) ;;
        header) args=(--header "$tmp/@/x.h" -o "$tmp/@/x") ;;
        json) args=(--emit-json - -o "$tmp/@/x") ;;
        esac
        run "$old" old "$src" "${args[@]//@/old}"
        run "$new" new "$src" "${args[@]//@/new}"
        if ! diff -r -q -x stderr "$tmp/old" "$tmp/new" >/dev/null; then
            echo "DIFFERS: ${src#"$root"/} ($mode)"
            diff -r -x stderr "$tmp/old" "$tmp/new" | head -10 | sed 's/^/    /'
            bad=1
        elif ! cmp -s "$tmp/old/stderr" "$tmp/new/stderr"; then
            stderr_differ=$((stderr_differ + 1))
            [ -n "${VERBOSE:-}" ] && diff "$tmp/old/stderr" "$tmp/new/stderr" | head -6
        fi
    done
    if [ $bad -eq 0 ]; then same=$((same + 1)); else differ=$((differ + 1)); fi
done < <(find "$root" -name '*.sgc' -not -path '*/build*' -not -path '*/.git/*' -print0 | sort -z)
echo "compare-outputs: $inputs inputs x 4 modes: $same identical, $differ differ;" \
     "$stderr_differ runs with other diagnostics text"
[ $differ -eq 0 ]
