#!/usr/bin/env bash
# run_install.sh BUILD_DIR SOURCE_ROOT PREFIX LIBDIR — TAP.  Installs this
# build into a temporary staging directory (meson install --destdir: the
# installed tree is relocatable, docs/BUILD.md), checks what was installed,
# then builds the two consumer examples from scratch as an outside project
# would: samples/meson-consumer with meson (sgcc on PATH, sgrt through
# pkg-config) and samples/cmake-consumer with CMake (find_package(sgcc),
# sgcc_add_kernels(), static libsgrt).  Both programs run on the default
# device and check their results against a host reference; the meson one
# also runs on every other device sgrt-info lists.  Editing a file the
# kernels include must rerun sgcc (the depfile) in both builds.
set -uo pipefail
build=$(cd "$1" && pwd) root=$(cd "$2" && pwd) prefix=$3 libdir=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
check() {
    local what=$1
    shift
    n=$((n + 1))
    if "$@" >"$tmp/check.log" 2>&1; then
        echo "ok $n - $what"
    else
        echo "not ok $n - $what"
        sed 's/^/# /' "$tmp/check.log" | tail -40
        failed=$((failed + 1))
    fi
}

# ---- install ----------------------------------------------------------------
check "meson install into a staging directory" \
    meson install -C "$build" --no-rebuild --destdir "$tmp/stage"
P=$tmp/stage$prefix
L=$P/$libdir
for f in bin/sgcc bin/sgrt-info include/sgrt.h "$libdir/libsgrt.a" "$libdir/libsgrt.so" \
         "$libdir/pkgconfig/sgrt.pc" "$libdir/cmake/sgcc/sgccConfig.cmake" \
         "$libdir/cmake/sgcc/sgccConfigVersion.cmake" share/man/man1/sgcc.1 \
         share/man/man1/sgrt-info.1 share/doc/sgcc/LICENSE share/doc/sgcc/README.md \
         share/doc/sgcc/CHANGELOG.md share/doc/sgcc/REFERENCE.md \
         share/doc/sgcc/diagnostics.schema.json; do
    check "installed $f" test -e "$P/$f"
done
check "installed sgcc runs" bash -c '"$1" --version | grep -qx "sgcc [0-9.]*"' _ "$P/bin/sgcc"
check "man page is roff for sgcc(1)" grep -q '^\.TH "sgcc" "1"' "$P/share/man/man1/sgcc.1"
check "man page is roff for sgrt-info(1)" grep -q '^\.TH "sgrt-info" "1"' "$P/share/man/man1/sgrt-info.1"
check "sgrt.pc is relocatable" grep -qx 'prefix=${pcfiledir}/.*' "$L/pkgconfig/sgrt.pc"
check "pkg-config --static lists sgrt's own dependencies" bash -c \
    'PKG_CONFIG_PATH="$1" pkg-config --static --libs sgrt | grep -q -- -lOpenCL' _ "$L/pkgconfig"

export PATH="$P/bin:$PATH"
export PKG_CONFIG_PATH="$L/pkgconfig"
export LD_LIBRARY_PATH="$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

check "sgrt-info --help" bash -c '"$1" --help | grep -q "^usage: sgrt-info"' _ "$P/bin/sgrt-info"
check "sgrt-info: bad usage exits 2" bash -c '"$1" --bogus; [ $? -eq 2 ]' _ "$P/bin/sgrt-info"
check "sgrt-info --json is JSON with a selected device" bash -c \
    '"$1" --json | python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"devices\"] and d[\"selected\"] is not None and \"sub_groups\" in d[\"devices\"][0]"' \
    _ "$P/bin/sgrt-info"
check "sgrt-info: no matching device exits 1, JSON says why" bash -c \
    'out=$("$1" --json -d no-such-device); [ $? -eq 1 ] && echo "$out" | python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"selected\"] is None and \"no-such-device\" in d[\"error\"]"' \
    _ "$P/bin/sgrt-info"

# ---- libsgcc: a host that compiles SGC at run time (docs/LIBSGCC.md) ---------
for f in include/sgcc.h "$libdir/libsgcc.a" "$libdir/libsgcc.so" "$libdir/pkgconfig/sgcc.pc"; do
    check "installed $f" test -e "$P/$f"
done
cat >"$tmp/libsgcc_host.c" <<'C'
#include <sgcc.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    const char *src = "kernel void k(global int *p) { p[0] = N; }\n";
    sgcc_options *o = sgcc_options_create();
    sgcc_options_add_define(o, "N=42");
    sgcc_result *r = NULL;
    sgcc_status st = sgcc_compile_string(o, "k.sgc", src, strlen(src), &r);
    const char *cl = sgcc_result_get_output(r, SGCC_OUTPUT_OPENCL, NULL);
    int ok = st == SGCC_OK && cl && strstr(cl, "p[0] = 42;");
    sgcc_result_destroy(r);
    st = sgcc_compile_string(o, "bad.sgc", "kernel void k(", 14, &r);
    ok = ok && st == SGCC_ERROR_COMPILE && sgcc_result_get_diagnostic_count(r) > 0;
    sgcc_result_destroy(r);
    sgcc_options_destroy(o);
    puts(ok ? "libsgcc ok" : "libsgcc FAILED");
    return !ok;
}
C
check "libsgcc: a host builds with pkg-config sgcc (shared)" bash -c \
    'cc -o "$1/host_shared" "$1/libsgcc_host.c" $(pkg-config --cflags --libs sgcc)' _ "$tmp"
check "libsgcc: the host compiles SGC at run time (shared)" "$tmp/host_shared"
check "libsgcc: the host needs no libclang, flex or bison at run time" \
    bash -c '! ldd "$1" | grep -q "clang\|libfl"' _ "$tmp/host_shared"
check "libsgcc: a host links the static library" bash -c \
    'cc -o "$1/host_static" "$1/libsgcc_host.c" $(pkg-config --cflags sgcc) "$2/libsgcc.a" \
     $(pkg-config --static --libs-only-l sgcc | sed "s/-lsgcc//")' _ "$tmp" "$L"
check "libsgcc: the statically linked host runs" "$tmp/host_static"

# The examples are copied so that the depfile check can touch their files.
mkdir -p "$tmp/src"
cp -r "$root/samples/consumer" "$root/samples/meson-consumer" "$root/samples/cmake-consumer" \
    "$tmp/src/"

runs_correctly() { # PROGRAM [SGRT_DEVICE]
    local prog=$1
    if [ $# -gt 1 ]; then SGRT_DEVICE=$2 "$prog"; else "$prog"; fi >"$tmp/run.out" 2>&1
    local status=$?
    cat "$tmp/run.out"
    [ $status -eq 0 ] && grep -q '^block_scan: .*: correct (0 wrong)$' "$tmp/run.out" &&
        grep -q '^ballot_sums: \(correct (0 wrong)\|skipped\)' "$tmp/run.out" &&
        grep -qx 'all results correct' "$tmp/run.out"
}

# ---- meson consumer -----------------------------------------------------------
mb=$tmp/meson-build
check "meson consumer: setup from scratch" meson setup "$mb" "$tmp/src/meson-consumer"
check "meson consumer: found the installed sgcc" grep -q "Program sgcc found: YES ($P/bin/sgcc)" \
    "$mb/meson-logs/meson-log.txt"
check "meson consumer: build" meson compile -C "$mb"
check "meson consumer: runs correctly on the default device" runs_correctly "$mb/consumer"
devices=$("$P/bin/sgrt-info" 2>/dev/null | sed -n 's/^\([0-9]\+\): \([a-z]*:[0-9]*\) .*/\2/p')
check "installed sgrt-info lists a device" test -n "$devices"
ballot_ran=0
for dev in $devices; do
    check "meson consumer: runs correctly on $dev" runs_correctly "$mb/consumer" "$dev"
    grep -q '^ballot_sums: correct' "$tmp/run.out" && ballot_ran=1
done
# The ballot kernel must have run where a device can run it.
if "$P/bin/sgrt-info" 2>/dev/null | grep -q 'non-uniform groups yes'; then
    check "meson consumer: the ballot-group kernel ran on a device with sub-groups" \
        test $ballot_ran = 1
fi
check "meson consumer: no-op build is a no-op" bash -c \
    'ninja -C "$1" -n | grep -q "no work to do"' _ "$mb"
touch "$tmp/src/consumer/kernels/partition.sgh"
check "meson consumer: editing an included file reruns sgcc on both kernels" bash -c \
    'ninja -C "$1" -n >"$1/plan" && grep -q block_scan_sgc "$1/plan" && grep -q ballot_sums_sgc "$1/plan"' _ "$mb"

# ---- CMake consumer -----------------------------------------------------------
cb=$tmp/cmake-build
check "cmake consumer: configure from scratch" \
    cmake -S "$tmp/src/cmake-consumer" -B "$cb" -DCMAKE_PREFIX_PATH="$P" -DCONSUMER_SGRT=STATIC
check "cmake consumer: build" cmake --build "$cb"
check "cmake consumer: linked libsgrt statically" bash -c '! ldd "$1" | grep -q libsgrt' _ "$cb/consumer"
check "cmake consumer: runs correctly on the default device" runs_correctly "$cb/consumer"
touch "$tmp/src/consumer/kernels/partition.sgh"
check "cmake consumer: editing an included file reruns sgcc on both kernels" bash -c \
    'cmake --build "$1" >"$1/rebuild.log" && grep -q "sgcc .*block_scan.sgc" "$1/rebuild.log" &&
     grep -q "sgcc .*ballot_sums.sgc" "$1/rebuild.log"' _ "$cb"
# The other generator and the shared library: Ninja reads the depfile in the
# form CMake rewrites it to (policy CMP0116, set by sgccConfig.cmake).
cn=$tmp/cmake-ninja
check "cmake consumer (Ninja, shared sgrt): configure from scratch" \
    cmake -G Ninja -S "$tmp/src/cmake-consumer" -B "$cn" -DCMAKE_PREFIX_PATH="$P"
check "cmake consumer (Ninja, shared sgrt): build" cmake --build "$cn"
check "cmake consumer (Ninja, shared sgrt): linked the installed libsgrt.so" bash -c \
    'ldd "$1" | grep -q "libsgrt.so.0 => $2/libsgrt.so.0"' _ "$cn/consumer" "$L"
check "cmake consumer (Ninja, shared sgrt): runs correctly" runs_correctly "$cn/consumer"
check "cmake consumer (Ninja): no-op build is a no-op" bash -c \
    'ninja -C "$1" -n | grep -q "no work to do"' _ "$cn"
touch "$tmp/src/consumer/kernels/partition.sgh"
check "cmake consumer (Ninja): editing an included file reruns sgcc" bash -c \
    'ninja -C "$1" -n >"$1/plan" && grep -q "sgcc .*block_scan.sgc" "$1/plan" &&
     grep -q "sgcc .*ballot_sums.sgc" "$1/plan"' _ "$cn"
check "cmake consumer: find_package(sgcc 99) is refused" bash -c \
    'printf "cmake_minimum_required(VERSION 3.20)\nproject(v C)\nfind_package(sgcc 99 REQUIRED)\n" >"$2/CMakeLists.txt" &&
     ! cmake -S "$2" -B "$2/b" -DCMAKE_PREFIX_PATH="$1"' _ "$P" "$(mkdir -p "$tmp/v" && echo "$tmp/v")"

echo "1..$n"
[ $failed -eq 0 ]
