#!/usr/bin/env bash
# test-sanitize.sh — the test suite again under sanitizers (.ci/run runs it
# after scripts/test.sh; docs/RELIABILITY.md has the what and why).
#
# 1. build-sanitize/: gcc with AddressSanitizer + UndefinedBehaviorSanitizer
#    (every UB report is fatal, leaks are errors).  sgcc itself runs under
#    them at build time for every generated test input and sample.  Runs:
#    unit, golden, errors, cli, determinism, fuzz (crasher replay), runtime
#    (sgrt on PoCL), samples (sgrt hosts, --verify), and the execution tests
#    whose host goes through sgrt: split barriers (PoCL, Intel), the Reduce
#    matrix (PoCL).
#    Skipped, because they run no sanitized product code (sgcc itself runs
#    sanitized when the build translates their kernels) and spend their time
#    in third-party device compilers, which scripts/test.sh already ran:
#    the hosts written on raw OpenCL (groups matrix, exec-groups, tangle
#    masks, the barrier library's own test), the exhaustive suite, the nvcc
#    compile checks, the valgrind and Oclgrind passes (docs/RELIABILITY.md
#    "What runs where").
#    Third-party leaks (OpenCL ICD loader, PoCL, Intel runtime, LLVM) are
#    suppressed by library in tests/sanitize/lsan.supp; nothing of ours is.
# 2. build-tsan/: ThreadSanitizer on the runtime test (concurrent program
#    builds on one context, concurrent cache writers and readers) on PoCL.
#    The Intel runtime is not used under TSan: its kernels run on TBB
#    threads TSan cannot see synchronise, so it reports races in
#    JIT-compiled kernel code that are not races.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(scripts/intel-ocl-env.sh)"
start=$SECONDS
asan=${SGCC_ASAN_BUILD_DIR:-build-sanitize}
tsan=${SGCC_TSAN_BUILD_DIR:-build-tsan}

[ -f "$asan/build.ninja" ] ||
    meson setup "$asan" -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
# A golden or error case added since the build directory was configured.
python3 tests/run_case.py --list . | cmp -s - "$asan/tests/test-cases.txt" ||
    meson setup --reconfigure "$asan"
# intercept_tls_get_addr=0: GCC 12's LeakSanitizer records a bogus dynamic
# TLS block (begin 0x389, 2 GB long) after libclang's parsing thread exits
# in a process that also loaded NVRTC, and its tracer then segfaults
# ("Tracer caught signal 11: addr=0x390", sgcc --verify of
# samples/multidevice/saxpy_sum.sgc into the build tree, 2026-11-28).
# Without the interception dynamic TLS is not scanned as a root, which can
# only add reports, never hide a leak; none appears.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:intercept_tls_get_addr=0
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
export LSAN_OPTIONS=suppressions=$PWD/tests/sanitize/lsan.supp:print_suppressions=0
meson compile -C "$asan"
meson test -C "$asan" --print-errorlogs --suite unit --suite golden --suite errors --suite cli \
    --suite determinism --suite fuzz --suite runtime --suite samples
meson test -C "$asan" --print-errorlogs exec-barrier-pocl exec-barrier-intel reduce-pocl
echo "test-sanitize: ASan+UBSan pass done after $((SECONDS - start)) s"

[ -f "$tsan/build.ninja" ] ||
    meson setup "$tsan" -Db_sanitize=thread -Db_lundef=false -Dbuildtype=debug
meson compile -C "$tsan" tests/runtime/test_runtime
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 SGRT_DEVICE=opencl:portable \
    CK_DEFAULT_TIMEOUT=600 "$tsan/tests/runtime/test_runtime"
echo "test-sanitize: all passes done after $((SECONDS - start)) s"
