#!/usr/bin/env python3
"""run_minimal.py PLATFORM [options] — build one OpenCL C file and run one kernel
the way tests/diff/diffrun.c does (arg 0: global ulong *out of global*NOUT
zeros, arg 1: global const int *in = diff_input(i)), in a child process that is
killed after --timeout seconds.

Prints one line: FINISHED (with build and run seconds and an output digest),
HANG (the child was still running after --timeout s; build time shown if the
build had finished), or BUILD-FAILED / ERROR.  Exit code: 0 finished, 1 hang,
2 other.

PLATFORM is a substring of the OpenCL platform name ("Intel", "Portable",
"Oclgrind").  Before running on the Intel CPU runtime installed from PyPI:
    eval "$(scripts/intel-ocl-env.sh)"     (from the repository root)
"""
import argparse
import hashlib
import multiprocessing as mp
import os
import subprocess
import sys
import time


def diff_input(i):
    x = (i * 2654435761 + 0x9E3779B9) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x85EBCA6B) & 0xFFFFFFFF
    x ^= x >> 13
    m = x % 8
    if m == 0:
        return x - (1 << 32) if x >= (1 << 31) else x
    if m == 1:
        return (x % 7) - 3
    if m == 2:
        return 2147483647 if x & 1 else -2147483648
    return (x % 2001) - 1000


def run_kernel(src, platform, options, local_size, global_size, timeout):
    """Runs kernel k of SRC (one output per work-item) through this script in
    a child process.  Returns (status, values, text): status 0 finished, with
    VALUES the outputs; 1 hang; 2 no result (TEXT says why: a build failure,
    or "ERROR child died, exit code -N" when signal N killed the child)."""
    run = subprocess.run([sys.executable, os.path.abspath(__file__), platform, "--src", src,
                          "--kernel", "k", "--options=" + options, "--local-size", str(local_size),
                          "--global-size", str(global_size), "--nout", "1", "--timeout", str(timeout),
                          "--show"],
                         capture_output=True, text=True)
    text = run.stdout + run.stderr
    if run.returncode != 0:
        return run.returncode, None, text
    return 0, [int(x, 16) for x in run.stdout.strip().split("\n")[-1].split()], text


def check_main(want, local_size, global_size, timeout=30):
    """The main of a case's check_minimal.py: runs kernel k of FILE (command
    line: FILE [--platform P] [--options=OPTS] [--local-size N], default
    platform Intel, default local size LOCAL_SIZE) through run_kernel and
    compares every value with WANT, the host's values.  Prints both lists,
    then RIGHT or WRONG with the wrong work-items; returns 0 right, 1 wrong,
    2 no result."""
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--platform", default="Intel")
    ap.add_argument("--options", default="")
    ap.add_argument("--local-size", type=int, default=local_size)
    a = ap.parse_args()
    status, got, text = run_kernel(a.src, a.platform, a.options, a.local_size, global_size, timeout)
    if status != 0:
        print(text)
        return 2
    wrong = [i for i in range(global_size) if got[i] != want[i]]
    print("expected", [hex(x) for x in want])
    print("got     ", [hex(x) for x in got])
    print("WRONG" if wrong else "RIGHT", wrong)
    return 1 if wrong else 0


def child(a, q):
    os.environ["PYOPENCL_NO_CACHE"] = "1"
    import warnings
    warnings.simplefilter("ignore")
    import numpy as np
    import pyopencl as cl
    plat = [p for p in cl.get_platforms() if a.platform in p.name]
    if not plat:
        q.put(("ERROR", "no platform matching %r" % a.platform))
        return
    dev = plat[0].get_devices()[0]
    ctx = cl.Context([dev])
    qu = cl.CommandQueue(ctx)
    src = open(a.src).read()
    t0 = time.time()
    try:
        prg = cl.Program(ctx, src).build(options=a.options)
    except cl.RuntimeError as e:
        q.put(("BUILD-FAILED", str(e)[-3000:]))
        return
    tb = time.time() - t0
    q.put(("BUILT", tb))
    out = np.zeros(a.global_size * a.nout, dtype=np.uint64)
    inp = np.array([diff_input(i) for i in range(a.global_size)], dtype=np.int32)
    mf = cl.mem_flags
    bout = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
    bin_ = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=inp)
    k = getattr(prg, a.kernel)
    k.set_args(bout, bin_)
    t1 = time.time()
    cl.enqueue_nd_range_kernel(qu, k, (a.global_size,), (a.local_size,))
    cl.enqueue_copy(qu, out, bout)
    qu.finish()
    tr = time.time() - t1
    q.put(("FINISHED", tb, tr, hashlib.sha1(out.tobytes()).hexdigest()[:12], out.tolist()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("platform")
    ap.add_argument("--src", default="minimal.cl")
    ap.add_argument("--kernel", default="k")
    ap.add_argument("--options", default="")
    ap.add_argument("--local-size", type=int, default=32)
    ap.add_argument("--global-size", type=int, default=96)
    ap.add_argument("--nout", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--show", action="store_true", help="print the first outputs")
    a = ap.parse_args()
    q = mp.Queue()
    p = mp.Process(target=child, args=(a, q))
    t0 = time.time()
    p.start()
    built = None
    res = None
    while time.time() - t0 < a.timeout:
        try:
            m = q.get(timeout=0.2)
        except Exception:
            if not p.is_alive() and q.empty():
                break
            continue
        if m[0] == "BUILT":
            built = m[1]
            continue
        res = m
        break
    if res is None:
        if p.is_alive():
            p.kill()
            p.join()
            print("HANG after %.0f s (build %s)" % (time.time() - t0,
                  "%.1f s" % built if built is not None else "not finished"))
            sys.exit(1)
        print("ERROR child died, exit code %s" % p.exitcode)
        sys.exit(2)
    p.join()
    if res[0] == "FINISHED":
        print("FINISHED build %.1f s run %.2f s digest %s" % (res[1], res[2], res[3]))
        if a.show:
            print(" ".join("%x" % x for x in res[4]))
        sys.exit(0)
    print(res[0], res[1])
    sys.exit(2)


if __name__ == "__main__":
    main()
