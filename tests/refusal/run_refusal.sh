#!/bin/sh
# run_refusal.sh SGCC CLBUILD SRCDIR PLATFORM MODE [NVCC] — the refusals
# that sgcc writes into its output (docs/LOWERING.md "Refusals in the OpenCL
# output"): each case is translated, then built by the device compiler of
# the OpenCL platform whose name contains PLATFORM (tests/tools/clbuild.c)
# with host defines that bind spec constants or force a tier; a refusal
# must stop the build with sgcc's message (naming the kernel or the spec
# constant and the rule), and only where the rule is broken; with
# -DSGC_SKIP_UNSUPPORTED_KERNELS (what sgrt passes) the refused kernel is
# left out instead and the others build and run.  MODE is what
# the device is:
#   khr    sub-groups with the non-uniform extensions (Intel CPU runtime);
#          the nvptx tier and a device without the extensions are forced
#          with -DSGC_NV_PTX=1 and -DSGC_FORCE_NO_NON_UNIFORM
#   wg     no sub-groups (PoCL 3.1)
#   khr-no-non-uniform  sub-groups, ballot and shuffle without the
#          non-uniform extensions (PoCL 5 on the GPU machine)
#   nvptx  NVIDIA's OpenCL: every build gets -DSGC_NV_PTX=1 -DSGC_NV_SM=$NV_SM
# With NVCC, the CUDA output's refusal of fixed_size_group<W> is checked too.
# Exit 0 all checks pass, 1 a check failed, 77 no such platform (skip).
sgcc=$1 clbuild=$2 src=$3 platform=$4 mode=$5 nvcc=${6:-}
base_options=
[ "$mode" = nvptx ] && base_options="-DSGC_NV_PTX=1 -DSGC_NV_SM=${NV_SM:-90}"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0 checks=0

# SGCC may be a directory of outputs translated in advance (the GPU
# machine has no sgcc: scripts/pack_gpu.sh translates them into .devbuild/gen).
for case in "$src"/*.sgc; do
    name=$(basename "$case" .sgc)
    if [ -d "$sgcc" ]; then
        cp "$sgcc/$name.cl" "$sgcc/$name.cu" "$tmp/" || { echo "FAIL no $name in $sgcc"; exit 1; }
    else
        "$sgcc" -t all -o "$tmp/$name" "$case" || { echo "FAIL sgcc $name"; exit 1; }
    fi
done

# build NAME OPTIONS [CLBUILD_ARGS...]: the build log in $tmp/log, the exit
# status returned.
build() {
    name=$1 options=$2
    shift 2
    CLBUILD_PLATFORM=$platform "$clbuild" -o "$base_options $options" "$@" "$tmp/$name.cl" \
        >"$tmp/log" 2>&1
}

# expect_ok NAME OPTIONS [CLBUILD_ARGS...]
expect_ok() {
    checks=$((checks + 1))
    build "$@"
    case $? in
        0) echo "ok   $1 [$2] builds" ;;
        3) echo "SKIP: no OpenCL device on a platform matching '$platform'"; exit 77 ;;
        *) echo "FAIL $1 [$2] should build:"; cat "$tmp/log"; fails=$((fails + 1)) ;;
    esac
}

# expect_refused NAME OPTIONS MESSAGE [NOT_MESSAGE]: the build fails and its
# log holds MESSAGE (and not NOT_MESSAGE, a refusal that must not be there).
expect_refused() {
    checks=$((checks + 1))
    build "$1" "$2"
    status=$?
    [ $status -eq 3 ] && { echo "SKIP: no OpenCL device on a platform matching '$platform'"; exit 77; }
    if [ $status -ne 0 ] && grep -qF "$3" "$tmp/log" &&
       { [ -z "${4:-}" ] || ! grep -qF "$4" "$tmp/log"; }; then
        echo "ok   $1 [$2] refused: $3"
    else
        echo "FAIL $1 [$2] should be refused with: $3${4:+ (and without: $4)}"
        cat "$tmp/log"
        fails=$((fails + 1))
    fi
}

# expect_left_out NAME OPTIONS LEFT_OUT [KEPT]: built with
# -DSGC_SKIP_UNSUPPORTED_KERNELS, kernel LEFT_OUT is not in the program (and
# KEPT is).
expect_left_out() {
    checks=$((checks + 1))
    build "$1" "-DSGC_SKIP_UNSUPPORTED_KERNELS $2" -x "$3" ${4:+-p "$4"}
    status=$?
    [ $status -eq 3 ] && { echo "SKIP: no OpenCL device on a platform matching '$platform'"; exit 77; }
    if [ $status -eq 0 ]; then
        echo "ok   $1 [$2] leaves '$3' out${4:+, builds '$4'}"
    else
        echo "FAIL $1 [$2] should leave '$3' out${4:+ and build '$4'}"
        cat "$tmp/log"
        fails=$((fails + 1))
    fi
}

# mixed_runs OPTIONS: mixed.cl with the skip define builds without 'lanes'
# (and 'lane_total', which only it calls), and 'plain' gives 2 * i + 1.
mixed_runs() {
    checks=$((checks + 1))
    build mixed "-DSGC_SKIP_UNSUPPORTED_KERNELS $1" -x lanes -r plain
    status=$?
    [ $status -eq 3 ] && { echo "SKIP: no OpenCL device on a platform matching '$platform'"; exit 77; }
    want="run plain:$(i=0; while [ $i -lt 16 ]; do printf ' %d' $((2 * i + 1)); i=$((i + 1)); done)"
    if [ $status -eq 0 ] && grep -qxF "$want" "$tmp/log" && grep -qF "absent lanes: yes" "$tmp/log"; then
        echo "ok   mixed [$1] leaves 'lanes' out; 'plain' runs"
    else
        echo "FAIL mixed [$1]: want 'lanes' absent and '$want'"
        cat "$tmp/log"
        fails=$((fails + 1))
    fi
}

fixed_spec_rule() { # the power-of-two rule, on any tier with sub-groups
    expect_ok fixed_spec ""
    expect_ok fixed_spec "-DSGC_SPEC_0=16u"
    expect_ok fixed_spec "-DSGC_SPEC_0=1"
    for bad in 3 0 12u 48; do
        expect_refused fixed_spec "-DSGC_SPEC_0=$bad" \
            "sgc: fixed_size_group<W>: spec constant 'W' (ID 0) must be a power of two"
    done
}

case $mode in
wg)
    expect_refused non_uniform "" "kernel 'ballot_partitions' needs sub-groups (cl_khr_subgroups), not supported on this device"
    expect_refused fixed_spec "-DSGC_SPEC_0=3" "kernel 'any_size' needs sub-groups" "must be a power of two"
    # Issue 25.5: without the define the whole program is refused; with it
    # only the kernel that needs sub-groups.
    expect_refused mixed "" "kernel 'lanes' needs sub-groups (cl_khr_subgroups), not supported on this device"
    mixed_runs ""
    ;;
khr)
    # Item 7: fixed_size_group<W>, W bound by the host.
    fixed_spec_rule
    expect_refused fixed_spec "-DSGC_SPEC_0=128" \
        "spec constant 'W' (ID 0) must be at most the sub-group size, 64"
    # nvptx tier forced (the build fails on the PTX anyway; the #error must
    # be among its errors).
    expect_refused fixed_spec "-DSGC_NV_PTX=1 -DSGC_SPEC_0=64" \
        "spec constant 'W' (ID 0) must be at most the sub-group size, 32 on this device"
    expect_ok fixed_spec_reqd "-DSGC_SPEC_0=16"
    expect_refused fixed_spec_reqd "-DSGC_SPEC_0=32" \
        "must be at most the sub-group size, 16 (the kernel's reqd_sub_group_size)"
    # Item 16: non-uniform groups on a khr device without the extensions.
    expect_ok non_uniform ""
    expect_refused non_uniform "-DSGC_FORCE_NO_NON_UNIFORM" \
        "sgc: kernel 'ballot_partitions' uses non-uniform groups (ballot, tangle or opportunistic), which need sub-group operations in divergent control flow" \
        "kernel 'uniform_only' uses"
    expect_ok tangle_helper ""
    expect_refused tangle_helper "-DSGC_FORCE_NO_NON_UNIFORM" "kernel 'tangle_in_helper' uses non-uniform groups"
    expect_refused tangle_helper "-DSGC_FORCE_NO_NON_UNIFORM" "kernel 'opportunistic_in_branch' uses non-uniform groups"
    # Item 4: reqd_sub_group_size on the nvptx tier.
    expect_ok reqd16 ""
    expect_refused reqd16 "-DSGC_NV_PTX=1" \
        "sgc: kernel 'sixteen' requires sub-group size 16, not supported on this device" \
        "kernel 'thirty_two' requires"
    # Issue 25.5: SGC_SKIP_UNSUPPORTED_KERNELS leaves only the refused
    # kernels out (the wg tier forced, and no non-uniform extensions).
    expect_refused mixed "-DSGC_FORCE_TIER_WG" "kernel 'lanes' needs sub-groups"
    mixed_runs "-DSGC_FORCE_TIER_WG"
    expect_ok mixed "-DSGC_SKIP_UNSUPPORTED_KERNELS" -p lanes -r plain
    expect_left_out non_uniform "-DSGC_FORCE_NO_NON_UNIFORM" ballot_partitions uniform_only
    expect_left_out tangle_helper "-DSGC_FORCE_NO_NON_UNIFORM" tangle_in_helper
    expect_left_out tangle_helper "-DSGC_FORCE_NO_NON_UNIFORM" opportunistic_in_branch
    ;;
khr-no-non-uniform)
    fixed_spec_rule
    expect_refused non_uniform "" \
        "sgc: kernel 'ballot_partitions' uses non-uniform groups (ballot, tangle or opportunistic), which need sub-group operations in divergent control flow" \
        "kernel 'uniform_only' uses"
    expect_refused tangle_helper "" "kernel 'tangle_in_helper' uses non-uniform groups"
    expect_left_out non_uniform "" ballot_partitions uniform_only
    ;;
nvptx)
    fixed_spec_rule
    expect_ok fixed_spec "-DSGC_SPEC_0=32"
    expect_refused fixed_spec "-DSGC_SPEC_0=64" \
        "spec constant 'W' (ID 0) must be at most the sub-group size, 32 on this device"
    expect_ok non_uniform ""
    expect_refused reqd16 "" \
        "sgc: kernel 'sixteen' requires sub-group size 16, not supported on this device" \
        "kernel 'thirty_two' requires"
    expect_left_out reqd16 "" sixteen thirty_two
    # Warps are sub-groups: nothing of mixed.sgc is refused here ('lanes'
    # stays even with the skip define; H100 run of 2026-11-25 expected it
    # absent).
    expect_ok mixed "-DSGC_SKIP_UNSUPPORTED_KERNELS" -p lanes -r plain
    ;;
*)
    echo "run_refusal.sh: unknown mode '$mode'"
    exit 2
    ;;
esac

if [ -n "$nvcc" ]; then
    # nvcc_check DEFINE EXPECT: EXPECT "ok" or a message of the refusal.
    nvcc_check() {
        checks=$((checks + 1))
        if "$nvcc" -arch=sm_90 -c -x cu -o /dev/null "$1" "$tmp/fixed_spec.cu" >"$tmp/log" 2>&1; then
            [ "$2" = ok ] && { echo "ok   nvcc fixed_spec [$1] builds"; return; }
        elif [ "$2" != ok ] && grep -qF "$2" "$tmp/log"; then
            echo "ok   nvcc fixed_spec [$1] refused: $2"
            return
        fi
        echo "FAIL nvcc fixed_spec [$1], expected: $2"
        cat "$tmp/log"
        fails=$((fails + 1))
    }
    nvcc_check -DSGC_SPEC_0=8 ok
    nvcc_check -DSGC_SPEC_0=3 "spec constant 'W' (ID 0) must be a power of two"
    nvcc_check -DSGC_SPEC_0=64 "spec constant 'W' (ID 0) must be at most the sub-group size, 32 (a CUDA warp)"
fi

echo "$((checks - fails)) of $checks checks passed"
[ $fails -eq 0 ]
