#!/bin/sh
# compile_check.sh SGCC CLBUILD [NVRTCBUILD] — checks that what sgcc writes
# for the golden inputs compiles.  The goldens themselves hold a marker line
# where sgcc pastes the device library (docs/RELIABILITY.md "Golden and error
# cases"), so each tests/golden/x.sgc is translated again (`-t all`, with
# x.flags, from inside tests/golden as the golden runner does) and the real
# output is built: every x.cl on each OpenCL device the ICD loader offers
# (tests/tools/clbuild.c: PoCL, and the Intel CPU runtime when
# OCL_ICD_FILENAMES points at it), every x.cu with `nvcc -arch=sm_90 -c`
# when nvcc is installed and with NVRTC (no include paths) when NVRTCBUILD
# (tests/tools/nvrtcbuild.c) is given.  Optional x.defines holds -D options
# for all of them (the host-side values of required spec constants).
# Exit 0 all compiled, 1 some did not, 77 nothing to check with.
set -u
usage='usage: compile_check.sh SGCC CLBUILD [NVRTCBUILD]'
sgcc=${1:?$usage}
clbuild=${2:?$usage}
nvrtcbuild=${3:-}
case $sgcc in /*) ;; *) sgcc=$(pwd)/$sgcc ;; esac
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
for src in "$dir"/*.sgc; do
    [ -e "$src" ] || continue
    name=$(basename "$src" .sgc)
    flags= defs=
    [ -f "$dir/$name.flags" ] && flags=$(cat "$dir/$name.flags")
    [ -f "$dir/$name.defines" ] && defs=$(cat "$dir/$name.defines")
    # shellcheck disable=SC2086  # flags and defines are words on purpose
    if ! out=$(cd "$dir" && "$sgcc" --color=never -t all -o "$tmp/$name" $flags "$name.sgc" 2>&1); then
        echo "FAIL $name.sgc: sgcc failed:"; echo "$out"; fail=$((fail + 1))
        continue
    fi
    cl=$tmp/$name.cl cu=$tmp/$name.cu
    # shellcheck disable=SC2086
    if out=$("$clbuild" $defs "$cl" 2>&1); then
        pass=$((pass + 1))
    else
        echo "FAIL $name.cl:"; echo "$out"; fail=$((fail + 1))
    fi
    if [ -f "$cu" ] && command -v nvcc >/dev/null 2>&1; then
        # shellcheck disable=SC2086
        if out=$(nvcc -arch=sm_90 -c -x cu $defs -o /dev/null "$cu" 2>&1); then
            pass=$((pass + 1))
        else
            echo "FAIL $name.cu:"; echo "$out"; fail=$((fail + 1))
        fi
    fi
    if [ -f "$cu" ] && [ -n "$nvrtcbuild" ]; then
        # shellcheck disable=SC2086
        if out=$("$nvrtcbuild" $defs "$cu" 2>&1); then
            pass=$((pass + 1))
        else
            echo "FAIL $name.cu (NVRTC):"; echo "$out"; fail=$((fail + 1))
        fi
    fi
done
echo "golden compile: $pass passed, $fail failed"
[ $((pass + fail)) -gt 0 ] || exit 77
[ $fail -eq 0 ]
