#!/usr/bin/env python3
"""sgc_limits.py — a structure-aware generator of deep, long and amplifying
SGC inputs (issue 35), run through sgcc under a time and a memory limit.

Each family writes one shape of hostile input at a size n: chains of binary
operators, nested parentheses, unary runs, `#if` expressions, nested and
doubling macros, adjacent string literals, sparse designated initialisers,
huge switches, blocks of many locals, else-if chains.  A run is a *finding*
when sgcc
  - dies on a signal (a stack overflow is SIGSEGV), runs past the time limit
    or the memory limit (address space, like `ulimit -v`), or exits with a
    status other than 0 (translated) or 1 (errors in the input);
  - exits 1 without a located `file:line:col: error:` (or fatal error);
  - gives a wrong answer where the family knows it (the value an `#if`
    computes, the length of a concatenated literal, a translation that
    should succeed below a limit, the located limit error above it).

  sgc_limits.py SGCC --quick            the bounded set of the meson test
                                        (suite 'fuzz': each family at a size
                                        below and above its limit)
  sgc_limits.py SGCC --count 200 --seed 7 [--keep DIR]
                                        random families and sizes up to
                                        --max-size; findings saved in DIR

Limits per input: --timeout seconds (10) and --memory MiB (2048).  Exit
status 1 when there was a finding, 0 otherwise.  docs/RELIABILITY.md says
how to run it longer.
"""
import argparse
import os
import random
import re
import resource
import subprocess
import sys
import tempfile

# The limits of docs/REFERENCE.md "Limits" the families step over.
EXPR_NESTING = 1 << 17
IF_NESTING = 1 << 16
MACRO_NESTING = 4096
CXX_FILLED_SLOTS = 1 << 16

LOCATED = re.compile(r"^[^:\s]+:\d+:\d+: (fatal )?error: ", re.M)


def kernel(body, params="global int *out, int a"):
    return "kernel void k(%s)\n{\n%s\n}\n" % (params, body)


# ---- families: n -> (source, target, check) --------------------------------
# check(rc, stdout_code, stderr) returns None when right, else why not.

def expect_ok(extra=None):
    def check(rc, code, err):
        if rc != 0:
            return "expected a translation, got exit %d: %s" % (rc, err[:300])
        return extra(code) if extra else None
    return check


def expect_error(fragment):
    def check(rc, code, err):
        if rc != 1 or fragment not in err:
            return "expected a located error '%s', got exit %d: %s" % (fragment, rc, err[:300])
        return None
    return check


def ok_below(n, limit, fragment, extra=None):
    return expect_ok(extra) if n < limit else expect_error(fragment)


def binary_chain(n, rng):
    op = rng.choice(["+", "*", "|", "^", "&&", "-"])
    src = kernel("    out[0] = " + (" %s " % op).join(["a"] * n) + ";")
    # the assignment and the index add two levels
    return src, "opencl", ok_below(n + 2, EXPR_NESTING, "expression too deeply nested")


def comma_chain(n, rng):
    src = kernel("    out[0] = (" + ", ".join(["a"] * n) + ");")
    return src, "opencl", ok_below(n + 2, EXPR_NESTING, "expression too deeply nested")


def nested_parens(n, rng):
    # right-deep: the parser's stack bounds it ("nesting too deep")
    src = kernel("    out[0] = " + "(a + " * n + "a" + ")" * n + ";")
    return src, "opencl", lambda rc, code, err: None if rc in (0, 1) else "exit %d" % rc


def unary_run(n, rng):
    op = rng.choice(["- ", "~", "!"])
    src = kernel("    out[0] = " + op * n + "a;")
    return src, "opencl", lambda rc, code, err: None if rc in (0, 1) else "exit %d" % rc


def if_value(n, rng):
    """`#if` with n parentheses or n unary operators; the value is checked."""
    if rng.random() < 0.5:
        expr, value, limited = "(" * n + "2" + ")" * n, 2, n > IF_NESTING
    else:
        ops = [rng.choice("-~!+") for _ in range(n)]
        value = 3
        for op in reversed(ops):
            value = {"-": -value, "~": ~value, "!": int(not value), "+": value}[op]
        expr, limited = " ".join(ops) + " 3", False
    src = "#if (%s) == (%d)\n#define R 11\n#else\n#define R 22\n#endif\n" % (expr, value)
    src += kernel("    out[0] = R;")
    if limited:
        return src, "opencl", expect_error("too deeply nested")
    return src, "opencl", expect_ok(lambda code: None if "out[0] = 11;" in code
                                    else "#if computed the wrong value")


def macro_nesting(n, rng):
    src = "#define F(x) x\n" + kernel("    out[0] = " + "F(" * n + "a" + ")" * n + ";")
    # the arguments are copied at each level: the token limit may fire first
    if n <= MACRO_NESTING // 4:
        return src, "opencl", expect_ok()
    return src, "opencl", lambda rc, code, err: (
        None if rc == 1 and ("nested too deeply" in err or "makes more than" in err)
        else "expected a located limit error, got exit %d: %s" % (rc, err[:300]))


def macro_doubling(n, rng):
    src = "#define A0 + a\n" + "".join("#define A%d A%d A%d\n" % (i, i - 1, i - 1)
                                      for i in range(1, n + 1))
    src += kernel("    out[0] = 0 A%d;" % n)
    if n < 20:
        return src, "opencl", expect_ok()
    # the token limit, or for a chain thousands deep the rescanning limit
    return src, "opencl", lambda rc, code, err: (
        None if rc == 1 and ("makes more than" in err or "steps through the macros" in err)
        else "expected a located limit error, got exit %d: %s" % (rc, err[:300]))


def string_pieces(n, rng):
    src = kernel("    out[0] = sizeof(" + " ".join(['"ab"'] * n) + ");")

    def joined(code):
        m = re.search(r'sizeof\("((?:ab)*)"\)', code)
        return None if m and len(m.group(1)) == 2 * n else "the pieces were not joined"
    return src, "opencl", expect_ok(joined)


def sparse_designator(n, rng, target="opencl"):
    src = "kernel void k(global int *out) { int t[] = {[%d] = 5}; out[0] = t[%d]; }\n" % (n, n)
    if target == "opencl" or n <= CXX_FILLED_SLOTS:
        return src, target, expect_ok()
    return src, target, expect_error("designated initializer leaves")


def sparse_designator_cuda(n, rng):
    return sparse_designator(n, rng, "cuda")


def big_switch(n, rng):
    dup = rng.randrange(n)
    cases = "".join("    case %d: out[0] = %d; break;\n" % (i, i) for i in range(n))
    src = kernel("    switch (a) {\n" + cases + "    case %d: break;\n    }" % dup)
    return src, "opencl", expect_error("duplicate case value '%d'" % dup)


def many_locals(n, rng):
    body = "".join("    int v%d = a + %d;\n" % (i, i) for i in range(n))
    src = kernel(body + "    out[0] = v%d;" % (n - 1))
    return src, "opencl", expect_ok()


def else_if_chain(n, rng):
    body = "    if (a == 0) out[0] = 0;\n" + "".join(
        "    else if (a == %d) out[0] = %d;\n" % (i, i) for i in range(1, n))
    src = kernel(body)
    return src, "opencl", lambda rc, code, err: None if rc in (0, 1) else "exit %d" % rc


FAMILIES = {
    "binary_chain": binary_chain, "comma_chain": comma_chain, "nested_parens": nested_parens,
    "unary_run": unary_run, "if_value": if_value, "macro_nesting": macro_nesting,
    "macro_doubling": macro_doubling, "string_pieces": string_pieces,
    "sparse_designator": sparse_designator, "sparse_designator_cuda": sparse_designator_cuda,
    "big_switch": big_switch,
    "many_locals": many_locals, "else_if_chain": else_if_chain,
}

# --quick: each family below and above its limit (or at a size that used to
# take more than the limits), in a bounded time.
QUICK = [
    ("binary_chain", 3000), ("binary_chain", EXPR_NESTING + 10), ("comma_chain", 100000),
    ("nested_parens", 20000), ("unary_run", 30000), ("if_value", 40000),
    ("if_value", IF_NESTING + 5), ("if_value", 200000), ("macro_nesting", 100),
    ("macro_nesting", 10000), ("macro_doubling", 12), ("macro_doubling", 26),
    ("macro_doubling", 128), ("macro_doubling", 5000),
    ("string_pieces", 100000), ("sparse_designator", 1000),
    ("sparse_designator", 100000000), ("sparse_designator_cuda", 1000),
    ("sparse_designator_cuda", 100000000), ("big_switch", 100000), ("many_locals", 100000),
    ("else_if_chain", 3000),
]


def limit_resources(memory_mib):
    # A sanitizer build (scripts/test-sanitize.sh sets ASAN_OPTIONS) reserves
    # terabytes of shadow address space at start-up, so an address-space
    # limit aborts it before it reads its input: there only time is bounded.
    sanitized = "ASAN_OPTIONS" in os.environ

    def apply():
        size = memory_mib << 20
        if not sanitized:
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def run_one(sgcc, family, n, rng, args, workdir):
    src, target, check = FAMILIES[family](n, rng)
    path = os.path.join(workdir, "%s_%d.sgc" % (family, n))
    with open(path, "w") as f:
        f.write(src)
    cmd = [sgcc, "-t", target, "-o", "-", path]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=args.timeout,
                           preexec_fn=limit_resources(args.memory))
    except subprocess.TimeoutExpired:
        return path, "ran past %d s" % args.timeout
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0:
        return path, "killed by signal %d" % -p.returncode
    if "out of memory" in err:
        return path, "ran out of memory (limit %d MiB)" % args.memory
    if p.returncode not in (0, 1):
        return path, "exit %d: %s" % (p.returncode, err[:300])
    if p.returncode == 1 and not LOCATED.search(err):
        return path, "an error without a location: %s" % err[:300]
    why = check(p.returncode, out, err)
    return path, why


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sgcc")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-size", type=int, default=300000)
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--memory", type=int, default=2048, help="MiB of address space")
    ap.add_argument("--keep", help="directory for the inputs of findings")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    if args.quick:
        plan = QUICK
    else:
        plan = [(rng.choice(sorted(FAMILIES)), int(args.max_size ** rng.random()) + 1)
                for _ in range(args.count)]
    findings = 0
    with tempfile.TemporaryDirectory(prefix="sgc_limits.") as workdir:
        for family, n in plan:
            path, why = run_one(args.sgcc, family, n, rng, args, workdir)
            if not why:
                print("ok       %s n=%d" % (family, n))
                continue
            findings += 1
            print("FINDING  %s n=%d: %s" % (family, n, why))
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                os.replace(path, os.path.join(args.keep, os.path.basename(path)))
    print("%d inputs, %d findings" % (len(plan), findings))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
