#!/usr/bin/env python3
"""run_atomics.py — the atomics, printf and get_max_sub_group_size() of
docs/REFERENCE.md "Work-item functions, barriers, math"-4 through sgcc on one OpenCL platform, checked against
host references computed here (numpy):

  - float (and double where the device has fp64) atomic_fetch_add/sub/
    min/max and atomic_exchange on global and local memory; the values are
    multiples of 0.25 whose sums are exact, so the result does not depend
    on the order the work-items run in; exchange: the final value and the
    returned old values are the start value and the inputs, each once;
  - min/max on pairs with NaN, -0.0 and +0.0 (NaNs ignored, -0.0 below
    +0.0 for the emulation; with native built-ins only the NaN rule);
  - atomic_load/atomic_store on int uint long ulong float (global, local);
  - printf: a child process runs the kernel and the lines it prints are
    compared with the expected text;
  - get_max_sub_group_size(): the device's CL_KERNEL_MAX_SUB_GROUP_SIZE_
    FOR_NDRANGE on the khr tier; the wg tier refuses the kernel with sgcc's
    "needs sub-groups" #error.

usage: run_atomics.py SGCC SOURCE_DIR PLATFORM [BUILD-OPTIONS] [--native]
--native: the device has cl_ext_float_atomics in the build's OpenCL C
version (the ±0 order is then the device's).  Exit 0 passed, 1 failed,
77 no such platform.
"""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:  # the checks need numpy and PyOpenCL: a skip
    print("numpy not installed: skipped")
    sys.exit(77)

N, LOCAL = 256, 64
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL", what)


def translate(sgcc, src, out_dir, defines=()):
    out = os.path.join(out_dir, os.path.basename(src)[:-4] + ".cl")
    subprocess.run([sgcc, "-t", "opencl", *defines, "-o", out, src], check=True)
    with open(out) as f:
        return f.read()


def values(dtype, rng):
    # Multiples of 0.25 up to 64 in magnitude: 256 of them sum exactly.
    return (rng.integers(-256, 257, N) / 4.0).astype(dtype)


def check_rmw(name, v, start, acc, old):
    s = start.astype(np.float64)
    check(acc[0] == s[0] + v.sum(dtype=np.float64), f"{name}: add {acc[0]} want {s[0] + v.sum()}")
    check(acc[1] == s[1] - v.sum(dtype=np.float64), f"{name}: sub {acc[1]} want {s[1] - v.sum()}")
    check(acc[2] == min(s[2], v.min()), f"{name}: min {acc[2]}")
    check(acc[3] == max(s[3], v.max()), f"{name}: max {acc[3]}")
    if old is not None:
        chain = sorted(list(old[:, 4]) + [acc[4]])
        check(chain == sorted(list(v) + [start[4]]), f"{name}: exchange chain")
        # add's old values: each is start plus the sum of a subset; the
        # largest partial sums are reached by some item, so just bounds.
        check(all(np.isin(old[:, 2], np.append(v, start[2]))), f"{name}: min old values")
    else:
        check(acc[4] in v, f"{name}: exchange final value")


def run_rmw(cl, ctx, queue, prog, dtype, suffix, rng):
    mf = cl.mem_flags
    v = values(dtype, rng)
    start = np.array([10.5, -3.25, 1000.0, -1000.0, 7.0], dtype=dtype)
    acc = start.copy()
    old = np.zeros((N, 5), dtype=dtype)
    bv = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=v)
    bacc = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=acc)
    bold = cl.Buffer(ctx, mf.WRITE_ONLY, old.nbytes)
    getattr(prog, "rmw_" + suffix)(queue, (N,), (LOCAL,), bv, bacc, bold)
    cl.enqueue_copy(queue, acc, bacc)
    cl.enqueue_copy(queue, old, bold)
    check_rmw(f"rmw_{suffix} global", v, start, acc, old)
    groups = N // LOCAL
    out = np.zeros(5 * groups, dtype=dtype)
    bstart = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=start)
    bout = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
    getattr(prog, f"rmw_{suffix}_local")(queue, (N,), (LOCAL,), bv, bstart, bout,
                                         cl.LocalMemory(5 * dtype().itemsize))
    cl.enqueue_copy(queue, out, bout)
    for g in range(groups):
        check_rmw(f"rmw_{suffix}_local group {g}", v[g * LOCAL:(g + 1) * LOCAL], start,
                  out[5 * g:5 * g + 5], None)


def ref_min(a, b, signed_zero):
    if np.isnan(b):
        return a
    if np.isnan(a):
        return b
    if signed_zero and a == b:
        return b if np.signbit(b) else a
    return b if b < a else a


def ref_max(a, b, signed_zero):
    if np.isnan(b):
        return a
    if np.isnan(a):
        return b
    if signed_zero and a == b:
        return a if np.signbit(b) else b
    return b if b > a else a


def run_minmax(cl, ctx, queue, prog, native):
    nan, inf = np.float32("nan"), np.float32("inf")
    pairs = [(1, 2), (2, 1), (-1, -2), (nan, 3), (3, nan), (nan, nan), (-0.0, 0.0), (0.0, -0.0),
             (-0.0, -0.0), (inf, 5), (-inf, 5), (5, -inf), (0.0, nan)]
    a = np.array([p[0] for p in pairs], dtype=np.float32)
    b = np.array([p[1] for p in pairs], dtype=np.float32)
    m = np.zeros(2 * len(pairs), dtype=np.float32)
    mf = cl.mem_flags
    ba = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    bb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
    bm = cl.Buffer(ctx, mf.READ_WRITE, m.nbytes)
    prog.minmax_pairs(queue, (len(pairs),), None, ba, bb, bm)
    cl.enqueue_copy(queue, m, bm)
    for i, (x, y) in enumerate(zip(a, b)):
        for got, ref, what in ((m[2 * i], ref_min, "min"), (m[2 * i + 1], ref_max, "max")):
            want = ref(x, y, not native)
            same = (np.isnan(got) and np.isnan(want)) or (got == want and (
                native or np.signbit(got) == np.signbit(want)))
            check(same, f"minmax {what}({x}, {y}) = {got}, want {want}")


def run_load_store(cl, ctx, queue, prog, rng):
    mf = cl.mem_flags
    for name, dtype in (("int", np.int32), ("uint", np.uint32), ("long", np.int64),
                        ("ulong", np.uint64), ("float", np.float32)):
        if dtype == np.float32:
            x = values(dtype, rng)
        else:
            info = np.iinfo(dtype)
            x = rng.integers(info.min // 4, info.max // 4, N, dtype=dtype, endpoint=True)
        out = np.zeros_like(x)
        bx = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
        bo = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
        getattr(prog, "load_store_" + name)(queue, (N,), (LOCAL,), bx, bo,
                                            cl.LocalMemory(LOCAL * x.itemsize))
        cl.enqueue_copy(queue, out, bo)
        check(np.array_equal(out, (x * 2).astype(dtype)), f"load_store_{name}")


PRINT_CHILD = r"""
import sys, numpy as np, pyopencl as cl
plat = [p for p in cl.get_platforms() if sys.argv[1] in p.name][0]
ctx = cl.Context(plat.get_devices()[:1])
queue = cl.CommandQueue(ctx)
prog = cl.Program(ctx, open(sys.argv[2]).read()).build(options=sys.argv[3])
v = np.array([int(x) for x in sys.argv[4].split(",")], dtype=np.int32)
bv = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=v)
sys.stdout.flush()
prog.print_lines(queue, (len(v),), None, bv)
queue.finish()
"""


def run_printf(platform, cl_path, options):
    v = [0, 7, -5, 300, 65535, 12]
    res = subprocess.run([sys.executable, "-c", PRINT_CHILD, platform, cl_path, options,
                          ",".join(map(str, v))], capture_output=True, text=True, timeout=300)
    check(res.returncode == 0, f"printf child failed: {res.stderr[-2000:]}")
    want = []
    for i, x in enumerate(v):
        ux = x % 2**32
        want.append("item %d: %d %u 0x%04x %c %s %.2f [%5d]" % (
            i, x, (ux * 3) % 2**32, ux, chr(ord("a") + i), "ok", x / 4.0, x - 100))
    got = [line for line in res.stdout.splitlines() if line.startswith("item ")]
    check(sorted(got) == sorted(want), "printf text:\n got  %s\n want %s" % (sorted(got), sorted(want)))


def run_max_sub_group(cl, ctx, dev, queue, src, options):
    try:
        prog = cl.Program(ctx, src).build(options=options)
    except cl.RuntimeError as e:
        log = str(e)
        check("needs sub-groups" in log and "not supported on this device" in log,
              "max_sub_group: build failed without sgcc's refusal: " + log[-1500:])
        return "refused (wg tier)"
    out = np.zeros(LOCAL, dtype=np.uint32)
    bo = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, out.nbytes)
    k = prog.max_sub_group
    k(queue, (LOCAL,), (LOCAL,), bo)
    cl.enqueue_copy(queue, out, bo)
    want = k.get_sub_group_info(dev, cl.kernel_sub_group_info.MAX_SUB_GROUP_SIZE_FOR_NDRANGE, (LOCAL,))
    check(np.all(out == want), f"max_sub_group: got {set(out.tolist())} want {want}")
    return f"{want}"


def main():
    args = [a for a in sys.argv[1:] if a != "--native"]
    native = "--native" in sys.argv
    sgcc, src_dir, platform = args[:3]
    options = args[3] if len(args) > 3 else ""
    try:
        import pyopencl as cl
    except ImportError:
        print("pyopencl not installed: skipped")
        return 77
    plats = [p for p in cl.get_platforms() if platform in p.name]
    if not plats:
        print(f"no OpenCL platform matching '{platform}': skipped")
        return 77
    dev = plats[0].get_devices()[0]
    fp64 = "cl_khr_fp64" in dev.extensions
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx)
    rng = np.random.default_rng(34)
    with tempfile.TemporaryDirectory() as tmp:
        defines = ["-DWITH_DOUBLE"] if fp64 else []
        cl_src = translate(sgcc, os.path.join(src_dir, "atomics.sgc"), tmp, defines)
        prog = cl.Program(ctx, cl_src).build(options=options)
        run_rmw(cl, ctx, queue, prog, np.float32, "float", rng)
        if fp64:
            run_rmw(cl, ctx, queue, prog, np.float64, "double", rng)
        run_minmax(cl, ctx, queue, prog, native)
        run_load_store(cl, ctx, queue, prog, rng)
        run_printf(platform, os.path.join(tmp, "atomics.cl"), options)
        msg = run_max_sub_group(cl, ctx, dev, queue,
                                translate(sgcc, os.path.join(src_dir, "max_sub_group.sgc"), tmp), options)
    print(f"{dev.name.strip()} [{options}]: fp64 {fp64}, max sub-group size {msg}, "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
