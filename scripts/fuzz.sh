#!/usr/bin/env bash
# fuzz.sh [SECONDS] — builds the libFuzzer harnesses (tests/fuzz) with
# clang, ASan and UBSan in build-fuzz/, and runs each for SECONDS (default
# 300) on one core.  Seed corpora: every .sgc file of the repository
# (fuzz_sgcc); sgcc's OpenCL output with a device-compiler log
# (fuzz_module); the macro-heavy tests/fuzz/seed_pp and every .sgc
# (fuzz_pp, the preprocessor alone).  Prints executions, coverage and
# findings per harness; crashing inputs land in build-fuzz/findings/<harness>/.
# SGCC_FUZZ_HARNESSES picks harnesses (default: fuzz_sgcc fuzz_module fuzz_pp).
# Not part of scripts/test.sh: the crashers found so far are regression
# cases in tests/errors and tests/golden.  See docs/RELIABILITY.md.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
build=${SGCC_FUZZ_BUILD_DIR:-build-fuzz}
cc=${CC:-$(command -v clang-19 || command -v clang)}
if [ ! -f "$build/build.ninja" ]; then
    CC=$cc meson setup "$build" -Dfuzz=true -Db_sanitize=address,undefined \
        -Db_lundef=false -Dbuildtype=debugoptimized >/dev/null
fi
meson compile -C "$build" fuzz_sgcc fuzz_module fuzz_pp sgcc:executable >/dev/null

work=$build/fuzz-work
rm -rf "$work"
mkdir -p "$work/seed_sgcc" "$work/seed_module" "$work/seed_pp" "$work/corpus_sgcc" \
    "$work/corpus_module" "$work/corpus_pp" "$work/cwd" \
    "$build/findings/fuzz_sgcc" "$build/findings/fuzz_module" "$build/findings/fuzz_pp"
n=0
while IFS= read -r f; do
    n=$((n + 1))
    cp "$f" "$work/seed_sgcc/$n.sgc"
done < <(git ls-files '*.sgc')
# Preprocessor seeds: the macro-heavy files, then every source as well.
cp tests/fuzz/seed_pp/*.sgc "$work/seed_pp/"
for f in "$work"/seed_sgcc/*.sgc; do cp "$f" "$work/seed_pp/src_$(basename "$f")"; done
# Module seeds: real emitted OpenCL C (with #line) + a log in the
# "<kernel>:LINE:COL:" form NVIDIA's compiler prints + an entry payload.
for f in tests/golden/*.sgc; do
    name=$(basename "$f" .sgc)
    out=$work/$name.cl
    "$build/compiler/sgcc" -t opencl -o "$out" "$f" 2>/dev/null || continue
    { cat "$out"; printf '\0<kernel>:%d:3: error: use of undeclared identifier\n' \
        "$(($(wc -l <"$out") / 2))"; printf 'note: here\n\0binary-payload'; } \
        >"$work/seed_module/$name"
done
# Keywords of the language as a libFuzzer dictionary.
sed -n 's/^KEYWORD([A-Z_0-9]*, *\("[^"]*"\)).*/\1/p' compiler/lex/keywords.def >"$work/sgc.dict"
printf '"#include"\n"#define"\n"#if"\n"#line"\n"##"\n"[["\n"]]"\n"<kernel>:"\n' >>"$work/sgc.dict"
printf '"#undef"\n"#ifdef"\n"#ifndef"\n"#elif"\n"#else"\n"#endif"\n"#pragma"\n"#error"\n"defined"\n"__VA_ARGS__"\n"__LINE__"\n"__FILE__"\n"__COUNTER__"\n"_Pragma"\n"..."\n"#x"\n"a##b"\n' >>"$work/sgc.dict"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
report=$work/report.txt
: >"$report"
for h in ${SGCC_FUZZ_HARNESSES:-fuzz_sgcc fuzz_module fuzz_pp}; do
    seed=$work/seed_${h#fuzz_}
    dict=()
    [ $h != fuzz_module ] && dict=(-dict="$(pwd)/$work/sgc.dict")
    exe=$(pwd)/$build/tests/fuzz/$h
    log=$work/$h.log
    # #include in an input resolves in an empty directory.
    start=$SECONDS
    (cd "$work/cwd" && "$exe" -max_total_time="$seconds" -max_len=8192 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$(pwd)/../../findings/$h/" \
        "${dict[@]}" "../corpus_${h#fuzz_}" "../seed_${h#fuzz_}") >"$log" 2>&1 || true
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    corpus=$(find "$work/corpus_${h#fuzz_}" -type f | wc -l)
    findings=$(find "$build/findings/$h" -type f | wc -l)
    # Seconds actually fuzzed: less than asked when a crash stopped it.
    printf '%-12s %5ss  execs %-9s cov %-6s ft %-6s corpus %-5s findings %s\n' \
        "$h" "$((SECONDS - start))" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$findings" |
        tee -a "$report"
    grep -E 'ERROR: |SUMMARY: |runtime error' "$log" | head -5 || true
done
