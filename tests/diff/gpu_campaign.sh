#!/usr/bin/env bash
# gpu_campaign.sh [JOBS] — the GPU differential campaign (docs/RELIABILITY.md
# "Differential testing").  Each module runs on CUDA (nvcc -cubin of sgcc's
# CUDA output, cudarun) and NVIDIA OpenCL (sgcc's OpenCL output with
# -DSGC_NV_PTX=1, the nvptx tier; diffrun), and wg-flavour modules also on
# PoCL 5 (CPU OpenCL, when present; no non-uniform groups there, so no
# sg-flavour modules), each compared with the host oracle (ref_main.c +
# MOD_ref.c, built here with cc).
#
# Modules: the ones gpu_pack.sh put into mod/ beside this script, or, with
# GEN_FIRST set, generated here (sgcgen.py --gpu and the sgcc binary beside
# this script, as gpu_pack.sh leaves them with COUNT 0) from seed GEN_FIRST
# on, both flavours, GEN_COUNT seeds at most (default 100000).
# Every module is one pipeline (generate, translate, oracle + nvcc, CUDA run,
# NVIDIA OpenCL run, PoCL run), JOBS pipelines at once (default: the CPU
# count): the GPU is shared by the processes, the compilers use every core.
#
# Environment: KERNELS (kernels per generated module, default 8),
# SECONDS_LIMIT (start no module after this many seconds; the running ones
# finish), POCL_EVERY (PoCL 5 on every Nth wg module, default 1; 0 off),
# NVCC_ARCH (default sm_90), GEN_FLAGS (more sgcgen.py options),
# BACKENDS (default "cuda nvidia-opencl pocl5"; "pocl5" alone gives the
# host's cores to PoCL: no nvcc), FLAVOURS (generated, default "wg sg"),
# POCL_THREADS (PoCL's threads per module, default 2), FAIL_SOURCES (0: the
# failure archive keeps logs only).
# A PoCL run that dies on a signal (its own compiler's assertions) counts as
# "pocl5 crash", not as a mismatch: valid OpenCL C that aborts the device
# compiler is the device's bug (docs/RELIABILITY.md).  In a module with wrong
# values the kernels the oracle passed still count as ok.
# Prints one line per module and backend and a summary; exit 1 on any
# mismatch.  With $OUT set: $OUT/diff_gpu_summary.txt, $OUT/diff_gpu.log and
# $OUT/diff_gpu_fail.tgz (the failing modules, for reduction elsewhere).
set -u
here=$(cd "$(dirname "$0")" && pwd)
jobs=${1:-$(nproc)}
arch=${NVCC_ARCH:-sm_90}
sm=${arch#sm_}
work=$(mktemp -d)
cd "$here"
nv_ocl=/usr/local/nvidia/lib64/libnvidia-opencl.so.1
[ -f "$nv_ocl" ] && export OCL_ICD_FILENAMES=$nv_ocl
export POCL_CACHE_DIR=$work/pocl-cache
backends=${BACKENDS:-cuda nvidia-opencl pocl5}
have() { case " $backends " in *" $1 "*) echo 1 ;; *) echo 0 ;; esac; }
have_cuda=$(have cuda) have_ocl=$(have nvidia-opencl) have_pocl=$(have pocl5)
if [ "$have_cuda" = 1 ]; then
    nvcc -O1 -o "$work/cudarun" cudarun.c -lcuda || exit 2
fi
cc -O1 -o "$work/diffrun" diffrun.c -lOpenCL 2>/dev/null || { have_ocl=0 have_pocl=0; }
[ "$have_ocl" = 1 ] && ! "$work/diffrun" --has NVIDIA && have_ocl=0
[ "$have_pocl" = 1 ] && ! "$work/diffrun" --has Portable && have_pocl=0
[ "${POCL_EVERY:-1}" = 0 ] && have_pocl=0
start=$(date +%s)
deadline=$((start + ${SECONDS_LIMIT:-1000000000}))
mkdir -p "$work/res" "$work/fail"
export here work arch sm have_cuda have_ocl have_pocl deadline
export KERNELS=${KERNELS:-8} POCL_EVERY=${POCL_EVERY:-1} GEN_FLAGS=${GEN_FLAGS:-} POCL_THREADS=${POCL_THREADS:-2}

# one_module SEED FLAVOUR INDEX (generated) or one_module BASE (packed):
# writes $work/res/NAME: "module kernels N", then per backend BACKEND STATUS KERNELS
one_module() {
    t0=$(date +%s%N)
    if [ "$#" = 3 ]; then
        [ "$(date +%s)" -ge "$deadline" ] && return 0
        base=$work/m/s$1_$2 index=$3 flavour=$2
        mkdir -p "$work/m"
        # shellcheck disable=SC2086
        python3 "$here/sgcgen.py" --gpu $GEN_FLAGS --seed "$1" --flavour "$2" --kernels "$KERNELS" \
            --out "$base" >/dev/null 2>&1 || { echo "gen fail 0" >"$work/res/s$1_$2"; return 0; }
        # shellcheck disable=SC2046
        "$here/sgcc" $(cat "$base.sgccopts") -w -t all -o "$base" "$base.sgc" >"$base.sgcc.log" 2>&1 ||
            { echo "sgcc fail 0" >"$work/res/s$1_$2"; cp "$base".* "$base"_ref.c "$work/fail/" 2>/dev/null; return 0; }
    else
        base=$1 index=$(basename "$1"); index=${index#s}; index=${index%%_*}
        flavour=$(sed -n 's/^flavour //p' "$base.manifest")
    fi
    name=$(basename "$base") res=$work/res/$(basename "$base") w=$work/$name
    nk=$(grep -c '^kernel' "$base.manifest")
    t1=$(date +%s%N)
    timeout "$(run_limit 300)" cc -O0 -w -I"$here" "${base}_ref.c" "$here/ref_main.c" -o "$w.ref" -lm >"$w.refbuild" 2>&1 &
    nvcc_rc=0
    if [ "$have_cuda" = 1 ]; then
        # shellcheck disable=SC2046
        timeout "$(run_limit 300)" nvcc -cubin -w -arch="$arch" $(sed -n 's/^options //p' "$base.manifest") -o "$w.cubin" "$base.cu" \
            >"$w.nvcc" 2>&1
        nvcc_rc=$?
    fi
    wait
    t2=$(date +%s%N) t3=0 t4=0 t5=0
    echo "module kernels $nk" >"$w.restmp"
    bad=0
    if [ ! -x "$w.ref" ]; then
        echo "oracle build-fail $nk" >>"$w.restmp"; bad=1
    else
        if [ "$have_cuda" = 0 ]; then
            :
        elif [ "$nvcc_rc" != 0 ]; then
            echo "cuda build-fail $nk" >>"$w.restmp"; bad=1
        else
            mkdir -p "$w.cuda"
            timeout "$(run_limit 120)" "$work/cudarun" "$base.manifest" "$w.cubin" "$w.cuda" >"$w.cuda.log" 2>&1
            rc=$?
            if [ "$rc" = 124 ] && [ "$(date +%s)" -ge "$deadline" ]; then
                echo "cuda late $nk" >>"$w.restmp"
            elif [ "$rc" = 0 ] && "$w.ref" "$w.cuda" >>"$w.cuda.log" 2>&1; then
                echo "cuda ok $nk" >>"$w.restmp"
            else
                echo "cuda MISMATCH $nk" >>"$w.restmp"; bad=1
            fi
        fi
        t3=$(date +%s%N)
        if [ "$have_ocl" = 1 ]; then
            mkdir -p "$w.ocl"
            timeout "$(run_limit 180)" "$work/diffrun" -p NVIDIA -o "-DSGC_NV_PTX=1 -DSGC_NV_SM=$sm" \
                "$base.manifest" "$base.cl" "$w.ocl" >"$w.ocl.log" 2>&1
            rc=$?
            if [ "$rc" = 124 ] && [ "$(date +%s)" -ge "$deadline" ]; then
                echo "nvidia-opencl late $nk" >>"$w.restmp"
            elif [ "$rc" = 0 ] && "$w.ref" "$w.ocl" >>"$w.ocl.log" 2>&1; then
                echo "nvidia-opencl ok $nk" >>"$w.restmp"
            else
                echo "nvidia-opencl MISMATCH $nk" >>"$w.restmp"; bad=1
            fi
        fi
        t4=$(date +%s%N)
        if [ "$have_pocl" = 1 ] && [ "$flavour" = wg ] && [ $((index % POCL_EVERY)) = 0 ]; then
            left=$((deadline + 30 - $(date +%s)))
            if [ "$left" -gt 5 ]; then
                mkdir -p "$w.pocl"
                POCL_MAX_PTHREAD_COUNT=$POCL_THREADS POCL_CPU_MAX_CU_COUNT=$POCL_THREADS timeout "$left" nice -n 5 \
                    "$work/diffrun" -p Portable "$base.manifest" "$base.cl" "$w.pocl" >"$w.pocl.log" 2>&1
                rc=$?
                if [ "$rc" = 124 ]; then
                    echo "pocl5 late $nk" >>"$w.restmp"
                elif [ "$rc" = 0 ] && "$w.ref" "$w.pocl" >>"$w.pocl.log" 2>&1; then
                    echo "pocl5 ok $nk" >>"$w.restmp"
                elif [ "$rc" = 0 ]; then # wrong values: count the kernels the oracle passed
                    ok=$(grep -c ': ok$' "$w.pocl.log")
                    [ "$ok" -gt 0 ] && echo "pocl5 ok $ok" >>"$w.restmp"
                    echo "pocl5 MISMATCH $((nk - ok))" >>"$w.restmp"; bad=1
                elif [ "$rc" -gt 128 ]; then # killed by a signal: PoCL's compiler aborted
                    echo "pocl5 crash $nk" >>"$w.restmp"; bad=1
                else
                    echo "pocl5 error $nk" >>"$w.restmp"; bad=1
                fi
            fi
            t5=$(date +%s%N)
        fi
    fi
    if [ "$bad" = 1 ]; then
        mkdir -p "$work/fail/$name"
        # the logs and the options; the sources come back from the seed (sgcgen.py --gpu)
        cp "$base".sgccopts "$w".*.log "$w".nvcc "$w".refbuild "$work/fail/$name/" 2>/dev/null
        [ "${FAIL_SOURCES:-1}" = 1 ] && cp "$base".sgc "$base"_ref.c "$base".manifest "$base".cl "$base".cu \
            "$work/fail/$name/" 2>/dev/null
    fi
    mv "$w.restmp" "$res"
    { while read -r b s n; do [ "$b" = module ] || echo "$name $b: $s"; done <"$res"
      ms() { [ "$2" = 0 ] && echo - || echo $((($2 - $1) / 1000000)); }
      echo "$name ms: gen+sgcc $(ms "$t0" "$t1") oracle+nvcc $(ms "$t1" "$t2") cuda $(ms "$t2" "$t3")" \
           "nvidia-opencl $(ms "$t3" "$t4") pocl5 $(ms "$t4" "$t5")"
      [ "$bad" = 1 ] && { tail -n 4 "$w".*.log "$w".nvcc 2>/dev/null | cut -c1-300; }
    } >"$w.msg"
    cat "$w.msg" # one write: the parallel pipelines' lines do not interleave
    # keep the disk small: a module's files are not needed once judged
    [ "$bad" = 0 ] && [ "$#" = 3 ] && rm -rf "$base".* "$base"_ref.c
    rm -rf "$w".*
    return 0
}
# a run's time limit: LIMIT seconds, and never past the deadline by more than 30 s
run_limit() {
    left=$((deadline + 30 - $(date +%s)))
    [ "$left" -lt 5 ] && left=5
    [ "$left" -lt "$1" ] && echo "$left" || echo "$1"
}
export -f one_module run_limit
[ -n "${OUT:-}" ] && exec > >(tee "$OUT/diff_gpu.log") 2>&1
[ -n "${OUT:-}" ] && [ -n "${PS_AT:-}" ] &&
    (sleep "$PS_AT"; ps -eo pid,etimes,pcpu,rss,args --sort=-pcpu | cut -c1-200 | head -40 >"$OUT/ps.txt"; nvidia-smi >>"$OUT/ps.txt") &
echo "jobs=$jobs kernels/module=$KERNELS cuda=$have_cuda nvidia_opencl=$have_ocl pocl5=$have_pocl (every $POCL_EVERY wg module)"
sum() { cat "$work"/res/* 2>/dev/null | awk -v b="$1" -v s="$2" '$1 == b && $2 == s { n += $3 } END { print n + 0 }'; }
cnt() { cat "$work"/res/* 2>/dev/null | awk -v b="$1" -v s="$2" '$1 == b && $2 == s { n++ } END { print n + 0 }'; }
summary() {
    modules=$(ls "$work/res" | wc -l)
    kernels=$(sum module kernels)
    echo "modules=$modules kernels=$kernels cuda_kernels_ok=$(sum cuda ok) cuda_bad_modules=$(cnt cuda MISMATCH) \
nvidia_opencl_kernels_ok=$(sum nvidia-opencl ok) nvidia_opencl_bad_modules=$(cnt nvidia-opencl MISMATCH) \
pocl5_kernels_ok=$(sum pocl5 ok) pocl5_bad_modules=$(cnt pocl5 MISMATCH) pocl5_bad_kernels=$(sum pocl5 MISMATCH) \
pocl5_crash_modules=$(cnt pocl5 crash) pocl5_error_modules=$(cnt pocl5 error) \
pocl5_late_modules=$(cnt pocl5 late) \
late_gpu_runs=$(($(cnt cuda late) + $(cnt nvidia-opencl late))) \
build_failures=$(cat "$work"/res/* 2>/dev/null | grep -c 'build-fail\| fail ') \
nvidia_opencl_present=$have_ocl pocl5_present=$have_pocl jobs=$jobs kernels_per_module=$KERNELS \
first_seed=${GEN_FIRST:-packed} seconds=$(($(date +%s) - start))"
}
summary_now() { # the summary so far, also while the modules run (a cut call keeps it)
    [ -n "${OUT:-}" ] && summary >"$OUT/diff_gpu_summary.tmp" && mv "$OUT/diff_gpu_summary.tmp" "$OUT/diff_gpu_summary.txt"
}
# defined before the ticker starts: a background subshell sees only the
# functions that exist when it forks
(while sleep 20; do summary_now; done) &
ticker=$!
if [ -n "${GEN_FIRST:-}" ]; then
    for ((s = GEN_FIRST, i = 0; i < ${GEN_COUNT:-100000}; s++, i++)); do
        for fl in ${FLAVOURS:-wg sg}; do echo "$s $fl $i"; done
    done | xargs -P "$jobs" -n 3 bash -c 'one_module "$0" "$1" "$2"'
else
    ls mod/*.manifest | sed 's/\.manifest$//' | xargs -P "$jobs" -I{} bash -c 'one_module "$(pwd)/{}"'
fi
kill "$ticker" 2>/dev/null
summary
bad=$(cat "$work"/res/* 2>/dev/null | grep -c -v ' ok \| late \|^module ')
summary_now
if [ -n "${OUT:-}" ] && [ -n "$(ls "$work/fail")" ]; then
    tar -czf "$OUT/diff_gpu_fail.tgz" -C "$work/fail" .
fi
rm -rf "$work"
[ "$bad" = 0 ]
