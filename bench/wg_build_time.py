#!/usr/bin/env python3
"""wg_build_time.py — device build time of work-group collectives against
the number of calls in one kernel (issue 25 item 2, bench/RESULTS.md).

For each family, element type and call count N it writes one SGC kernel
with N work-group calls, translates it with sgcc, and in a child process
(killed after --timeout seconds) builds it on the OpenCL platform whose
name starts with --platform, launches it once (2 work-groups of 64) and
checks every output against a reference computed here.  PoCL builds the
work-group function at the first launch, so "first launch" is part of the
device build there.

  reduce  reduce_over_group / exclusive / inclusive scans, with and
          without init (six forms in turn)
  joint   joint_reduce (with and without init), joint_exclusive_scan,
          joint_inclusive_scan with init, joint_any_of (five forms in turn)
          over 100-element ranges in global memory

usage: wg_build_time.py --sgcc build/compiler/sgcc --platform Portable
           [--options "-DSGC_FORCE_TIER_WG"] [--calls 1,6,12,24,48]
           [--families reduce,joint] [--types int,double] [--timeout 600]
The Intel CPU runtime needs its environment first:
  eval "$(scripts/intel-ocl-env.sh)"
Prints one Markdown table row per measurement; after a timeout the larger
call counts of that family and type are skipped (the time only grows).
Exit status 1 when any output was wrong or a build failed; with --check,
also when a build ran past --timeout (the test suite runs it so: issue 25
item 2, PoCL's build time must stay small).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

LOCAL = 64
GROUPS = 2
RANGE = 100  # joint_* range length per work-group (not a multiple of LOCAL)

REDUCE_FORMS = [
    ("reduce_over_group(g, x{i}, plus)", "reduce", "plus", None),
    ("reduce_over_group(g, x{i}, ({t}){i}, maximum)", "reduce", "maximum", "{i}"),
    ("exclusive_scan_over_group(g, x{i}, plus)", "exclusive", "plus", None),
    ("exclusive_scan_over_group(g, x{i}, ({t})3, minimum)", "exclusive", "minimum", "3"),
    ("inclusive_scan_over_group(g, x{i}, maximum)", "inclusive", "maximum", None),
    ("inclusive_scan_over_group(g, x{i}, plus, ({t}){i})", "inclusive", "plus", "{i}"),
]


def op_apply(op, a, b):
    return {"plus": a + b, "maximum": max(a, b), "minimum": min(a, b)}[op]


def op_identity(op, t):
    big = float("inf") if t == "double" else 2**31 - 1
    return {"plus": 0, "maximum": -big, "minimum": big}[op]


def reduce_kernel(t, n_calls):
    lines = [f"kernel void k(global const {t} *in, global {t} *out)", "{",
             "    size_t gid = get_global_id(0), n = get_global_size(0);",
             "    work_group g = get_work_group();"]
    for i in range(n_calls):
        form = REDUCE_FORMS[i % len(REDUCE_FORMS)][0].format(i=i, t=t)
        lines.append(f"    {t} x{i} = in[gid] + ({t}){i};")
        lines.append(f"    out[{i} * n + gid] = {form};")
    return "\n".join(lines + ["}", ""])


def reduce_reference(t, n_calls, data):
    out = []
    for i in range(n_calls):
        _, algo, op, init = REDUCE_FORMS[i % len(REDUCE_FORMS)]
        init = None if init is None else int(init.format(i=i))
        for grp in range(GROUPS):
            xs = [v + i for v in data[grp * LOCAL:(grp + 1) * LOCAL]]
            acc = op_identity(op, t) if init is None else init
            if algo == "reduce":
                for v in xs:
                    acc = op_apply(op, acc, v)
                out += [acc] * LOCAL
                continue
            for v in xs:
                if algo == "exclusive":
                    out.append(acc)
                acc = op_apply(op, acc, v)
                if algo == "inclusive":
                    out.append(acc)
    return out


def joint_kernel(t, n_calls):
    lines = [f"bool is_big({t} v) {{ return v > ({t})40; }}", "",
             f"kernel void k(global const {t} *in, global {t} *out, global {t} *res)", "{",
             "    size_t gid = get_global_id(0), n = get_global_size(0), grp = get_group_id(0);",
             "    work_group g = get_work_group();",
             f"    global const {t} *first = in + grp * {RANGE}, *last = first + {RANGE};"]
    for i in range(n_calls):
        dst = f"res + ({i} * {GROUPS} + grp) * {RANGE}"
        form = i % 5
        if form == 0:
            lines.append(f"    out[{i} * n + gid] = joint_reduce(g, first, last, plus);")
        elif form == 1:
            lines.append(f"    out[{i} * n + gid] = joint_reduce(g, first, last, ({t}){i}, maximum);")
        elif form == 2:
            lines.append(f"    joint_exclusive_scan(g, first, last, {dst}, plus);")
        elif form == 3:
            lines.append(f"    joint_inclusive_scan(g, first, last, {dst}, minimum, ({t}){i});")
        else:
            lines.append(f"    out[{i} * n + gid] = ({t})joint_any_of(g, first, last, is_big);")
    return "\n".join(lines + ["}", ""])


def joint_reference(t, n_calls, data):
    """(expected out, expected res); None marks an element not written."""
    out = [None] * (n_calls * GROUPS * LOCAL)
    res = [None] * (n_calls * GROUPS * RANGE)
    for i in range(n_calls):
        form = i % 5
        for grp in range(GROUPS):
            xs = data[grp * RANGE:(grp + 1) * RANGE]
            base = (i * GROUPS + grp) * RANGE
            if form in (0, 1, 4):
                if form == 0:
                    v = sum(xs)
                elif form == 1:
                    v = max([i] + xs)
                else:
                    v = 1 if any(x > 40 for x in xs) else 0
                for lid in range(LOCAL):
                    out[i * GROUPS * LOCAL + grp * LOCAL + lid] = v
            else:
                acc = 0 if form == 2 else i
                for k, x in enumerate(xs):
                    if form == 2:
                        res[base + k] = acc
                        acc += x
                    else:
                        acc = min(acc, x)
                        res[base + k] = acc
    return out, res


def child(args):
    """Builds and runs one kernel; prints a JSON line."""
    import numpy as np
    import pyopencl as cl
    src = open(args.child).read()
    plat = [p for p in cl.get_platforms() if p.name.startswith(args.platform)][0]
    ctx = cl.Context([plat.get_devices()[0]])
    queue = cl.CommandQueue(ctx)
    dtype = np.float64 if args.type == "double" else np.int32
    rng = np.random.default_rng(25)
    data = rng.integers(-50, 51, size=GROUPS * max(LOCAL, RANGE)).astype(dtype)
    t0 = time.perf_counter()
    prog = cl.Program(ctx, src).build(options=args.options)
    t1 = time.perf_counter()
    mf = cl.mem_flags
    n = args.n_calls
    buf_in = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
    out = np.zeros(n * GROUPS * LOCAL, dtype)
    res = np.zeros(n * GROUPS * RANGE, dtype)
    buf_out = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
    buf_res = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=res)
    kernel = prog.k
    kernel.set_arg(0, buf_in)
    kernel.set_arg(1, buf_out)
    if args.family == "joint":
        kernel.set_arg(2, buf_res)
    cl.enqueue_nd_range_kernel(queue, kernel, (GROUPS * LOCAL,), (LOCAL,))
    queue.finish()
    t2 = time.perf_counter()
    cl.enqueue_copy(queue, out, buf_out)
    cl.enqueue_copy(queue, res, buf_res)
    queue.finish()
    values = [v.item() for v in data]
    if args.family == "reduce":
        want_out, want_res = reduce_reference(args.type, n, values[:GROUPS * LOCAL]), []
    else:
        want_out, want_res = joint_reference(args.type, n, values[:GROUPS * RANGE])
    bad = sum(1 for w, g in zip(want_out, out.tolist()) if w is not None and w != g)
    bad += sum(1 for w, g in zip(want_res, res.tolist()) if w is not None and w != g)
    wrong = [(k, w, g) for k, (w, g) in enumerate(zip(want_out + want_res, out.tolist() + res.tolist()))
             if w is not None and w != g]
    print(json.dumps({"build": t1 - t0, "launch": t2 - t1, "bad": bad,
                      "first_wrong": wrong[:3]}))


def measure(args, family, t, n_calls, tmp):
    sgc = os.path.join(tmp, f"{family}_{t}_{n_calls}.sgc")
    cl_path = sgc[:-4] + ".cl"
    with open(sgc, "w") as f:
        f.write((reduce_kernel if family == "reduce" else joint_kernel)(t, n_calls))
    subprocess.run([args.sgcc, "-t", "opencl", "-o", cl_path, sgc], check=True)
    env = dict(os.environ, POCL_KERNEL_CACHE="0")
    cmd = [sys.executable, __file__, "--child", cl_path, "--platform", args.platform,
           "--options=" + args.options, "--family", family, "--type", t, "--n-calls", str(n_calls)]
    start = time.perf_counter()
    cpu0 = os.times()
    try:
        run = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return None
    cpu1 = os.times()
    wall = time.perf_counter() - start
    cpu = (cpu1.children_user + cpu1.children_system) - (cpu0.children_user + cpu0.children_system)
    if run.returncode != 0:
        sys.stderr.write(run.stderr[-2000:])
        return {"error": True, "wall": wall, "cpu": cpu}
    r = json.loads(run.stdout.strip().splitlines()[-1])
    r.update(wall=wall, cpu=cpu)
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sgcc")
    ap.add_argument("--platform", default="Portable")
    ap.add_argument("--options", default="")
    ap.add_argument("--calls", default="1,6,12,24,48")
    ap.add_argument("--families", default="reduce,joint")
    ap.add_argument("--types", default="int,double")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--child")
    ap.add_argument("--family")
    ap.add_argument("--type")
    ap.add_argument("--n-calls", type=int)
    args = ap.parse_args()
    if args.child:
        child(args)
        return 0
    try:
        import pyopencl  # noqa: F401 (the children use it)
    except ImportError:
        print("SKIP: pyopencl is not installed")
        return 77
    failed = False
    print("| family | type | calls | build s | first launch s | process CPU s | outputs |")
    print("|---|---|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for family in args.families.split(","):
            for t in args.types.split(","):
                for n_calls in [int(c) for c in args.calls.split(",")]:
                    r = measure(args, family, t, n_calls, tmp)
                    if r is None:
                        print(f"| {family} | {t} | {n_calls} | > {args.timeout:.0f} (killed) | | | |",
                              flush=True)
                        failed = failed or args.check
                        break
                    if r.get("error"):
                        print(f"| {family} | {t} | {n_calls} | build failed | | | |", flush=True)
                        failed = True
                        continue
                    verdict = "right" if r["bad"] == 0 else f"{r['bad']} wrong"
                    if r["bad"]:
                        sys.stderr.write(f"{family} {t} {n_calls}: (index, want, got) "
                                         f"{r['first_wrong']}\n")
                    failed = failed or r["bad"] != 0
                    print(f"| {family} | {t} | {n_calls} | {r['build']:.2f} | {r['launch']:.2f} "
                          f"| {r['cpu']:.2f} | {verdict} |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
