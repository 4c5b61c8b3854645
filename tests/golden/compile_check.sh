#!/bin/sh
# compile_check.sh CLBUILD [NVRTCBUILD] — checks that the expected outputs
# of the golden tests compile: every x.cl is built on each OpenCL device the
# ICD loader offers (tests/tools/clbuild.c: PoCL, and the Intel CPU runtime
# when OCL_ICD_FILENAMES points at it), every x.cu with `nvcc -arch=sm_90 -c`
# when nvcc is installed and with NVRTC (no include paths) when NVRTCBUILD
# (tests/tools/nvrtcbuild.c) is given.  Optional x.defines holds -D options
# for all of them (the host-side values of required spec constants).
# Exit 0 all compiled, 1 some did not, 77 nothing to check with.
set -u
clbuild=${1:?usage: compile_check.sh CLBUILD [NVRTCBUILD]}
nvrtcbuild=${2:-}
dir=$(dirname "$0")
pass=0 fail=0
for cl in "$dir"/*.cl; do
    [ -e "$cl" ] || continue
    name=$(basename "$cl" .cl)
    defs=
    [ -f "$dir/$name.defines" ] && defs=$(cat "$dir/$name.defines")
    # shellcheck disable=SC2086  # defines are words on purpose
    if out=$("$clbuild" $defs "$cl" 2>&1); then
        pass=$((pass + 1))
    else
        echo "FAIL $name.cl:"; echo "$out"; fail=$((fail + 1))
    fi
    cu=$dir/$name.cu
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
