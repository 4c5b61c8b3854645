#!/usr/bin/env python3
"""python_bench.py [N] — figures for the Python package (docs/PYTHON.md),
not a test: prints a Markdown table for bench/RESULTS.md.

1. sgcc.compile(): cold (empty cache, first call of the process: sgcc runs,
   the binary is hashed and asked its version), miss (empty cache, binary
   already known), cached (hit), and a whole script run (new process:
   interpreter start, import, compile) with an empty and with a warm cache.
2. Launch overhead on each CPU OpenCL device: N enqueues of a one-work-item
   kernel with four arguments (two buffers, a LocalMemory, a float), plain
   pyopencl.Kernel against sgcc.pyopencl.Kernel (the argument checks), then
   one queue.finish(); best of 15 interleaved rounds, microseconds per
   launch.  On a loaded machine the difference of two enqueue loops is
   noise-bound; the last column times the wrapper's own work alone (its
   pyopencl.Kernel replaced by a no-op), which is what the checks cost.

Run from the repository root after a build: SGCC_EXE=build/compiler/sgcc
PYTHONPATH=python python3 bench/python_bench.py"""
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))
import sgcc  # noqa: E402

SOURCE = (ROOT / "tests" / "python" / "kernels" / "workgroup.sgc").read_text()


def timed(fn, repeat=1):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def compile_figures():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SGCC_CACHE_DIR"] = os.path.join(tmp, "a")
        rows.append(("compile(), cold: empty cache, first call in the process",
                     timed(lambda: sgcc.compile(source=SOURCE))))
        counter = iter(range(10**6))
        rows.append(("compile(), miss: empty cache (5 sources, best)",
                     timed(lambda: sgcc.compile(source=SOURCE + f"\n// {next(counter)}\n"),
                           5)))
        rows.append(("compile(), cached (best of 20)",
                     timed(lambda: sgcc.compile(source=SOURCE), 20)))
        script = [sys.executable, "-c",
                  "import sys; sys.path.insert(0, sys.argv[1]); import sgcc; "
                  "sgcc.compile(source=open(sys.argv[2]).read())",
                  str(ROOT / "python"), str(ROOT / "tests/python/kernels/workgroup.sgc")]
        env = dict(os.environ, SGCC_CACHE_DIR=os.path.join(tmp, "b"))
        rows.append(("script run (new process), empty cache",
                     timed(lambda: subprocess.run(script, env=env, check=True))))
        rows.append(("script run (new process), warm cache (best of 10)",
                     timed(lambda: subprocess.run(script, env=env, check=True), 10)))
        rows.append(("of which: python -c 'import sgcc' (best of 10)",
                     timed(lambda: subprocess.run(script[:2] + [
                         "import sys; sys.path.insert(0, sys.argv[1]); import sgcc",
                         str(ROOT / "python")], check=True), 10)))
        rows.append(("of which: python -c pass (best of 10)",
                     timed(lambda: subprocess.run([sys.executable, "-c", "pass"],
                                                  check=True), 10)))
    print("| step | ms |\n|---|---:|")
    for what, s in rows:
        print(f"| {what} | {s * 1e3:.2f} |")


def launch_figures(n):
    sgcc.use_opencl_env()
    import numpy as np
    import pyopencl as cl
    import sgcc.pyopencl as sgcl
    module = sgcc.compile(source=SOURCE)
    print("\n| device | plain pyopencl us/launch | sgcc.pyopencl.Kernel us/launch | "
          "difference us | wrapper alone, no enqueue us |\n|---|---:|---:|---:|---:|")
    for p in cl.get_platforms():
        if "Oclgrind" in p.name:
            continue
        for d in p.get_devices():
            ctx = cl.Context([d])
            q = cl.CommandQueue(ctx)
            prog = sgcl.build(ctx, module)
            buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 64)
            args = (buf, buf, np.float32(2), cl.LocalMemory(16))
            plain = cl.Kernel(prog, "scaled_copy")
            checked = sgcl.Kernel(prog, "scaled_copy")

            def loop(k):
                for _ in range(n):
                    k(q, (1,), (1,), *args)
                q.finish()

            stubbed = sgcl.Kernel(prog, "scaled_copy")
            stubbed.cl_kernel = lambda *a: None   # the wrapper's own work, no enqueue

            def python_side():
                for _ in range(n):
                    stubbed(q, (1,), (1,), *args)
            loop(plain)
            loop(checked)
            tp = tc = tk = float("inf")
            for _ in range(15):   # interleaved rounds, best of each: the machine is shared
                tp = min(tp, timed(lambda: loop(plain)) / n * 1e6)
                tc = min(tc, timed(lambda: loop(checked)) / n * 1e6)
                tk = min(tk, timed(python_side) / n * 1e6)
            print(f"| {p.name} ({d.name}) | {tp:.2f} | {tc:.2f} | {tc - tp:.2f} | {tk:.2f} |")


if __name__ == "__main__":
    compile_figures()
    launch_figures(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
