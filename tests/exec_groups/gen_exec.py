#!/usr/bin/env python3
"""gen_exec.py — writes the SGC sources of the groups execution test (SPEC
1.1 through sgcc, docs/LOWERING.md "Groups"): one unit per element type and
scope, each kernel running one family of group calls on the group chosen by
its uniform `kind` argument, and cases.h, the table the host walks.

  sg_<type>.sgc  sub-group kinds: sub_group, ballot, fixed_size<FIXED_N>,
                 tangle and opportunistic groups (the last two made inside
                 the two sides of a divergent branch)
  wg_<type>.sgc  the work_group (every tier, PoCL included)

Kernels: arith_<scope>_<op>_<type> (reduce, exclusive, inclusive scans, each
with and without init: 6 outputs), move_<scope>_<type> (broadcast, broadcast
by id, shifts, xor-permute, select: 6 outputs), vote_<scope> (any/all/none,
the five members, a barrier-published leader slot: 9 outputs).

usage: gen_exec.py OUTDIR
"""
import os
import sys

ARITH_TYPES = ["int", "uint", "long", "ulong", "float", "double"]
SMALL_TYPES = ["bool", "char", "uchar", "short", "ushort"]
# Reductions and scans on every type but bool: the small integer types with
# every integer operator, each step (T)(a op b) (docs/REFERENCE.md "Group
# algorithms and operators"; exec_host.c's apply wraps to the type).
SMALL_INT_TYPES = ["char", "uchar", "short", "ushort"]
REDUCE_TYPES = ARITH_TYPES + SMALL_INT_TYPES
INT_OPS = ["plus", "multiplies", "minimum", "maximum", "bit_and", "bit_or",
           "bit_xor", "logical_and", "logical_or"]
# Every (op, T) pair of SPEC 1.1: logical operators on floating types too
# (C semantics: nonzero is true, the result is 0 or 1).
FLOAT_OPS = ["plus", "multiplies", "minimum", "maximum", "logical_and", "logical_or"]
STORAGE = {"bool": "uchar"}  # bool has no fixed size on the host side

SG_KINDS = [
    ("sub_group", "sub_group g = sg;"),
    ("ballot", "ballot_group g = get_ballot_group(sg, p);"),
    ("fixed", "fixed_size_group<FIXED_N> g = get_fixed_size_group<FIXED_N>(sg);"),
]
DIVERGENT_KINDS = [
    ("tangle", "tangle_group g = get_tangle_group(sg);"),
    ("opportunistic", "opportunistic_group g = get_opportunistic_group();"),
]


def ops_of(t):
    return FLOAT_OPS if t in ("float", "double") else INT_OPS


def arith_body(op, t):
    return [f"o[0] = reduce_over_group(g, x, {op});",
            f"o[1] = reduce_over_group(g, x, init, {op});",
            f"o[2] = exclusive_scan_over_group(g, x, {op});",
            f"o[3] = exclusive_scan_over_group(g, x, init, {op});",
            f"o[4] = inclusive_scan_over_group(g, x, {op});",
            f"o[5] = inclusive_scan_over_group(g, x, {op}, init);"]


def move_body(t):
    s = STORAGE.get(t, t)
    return [f"o[0] = ({s})group_broadcast(g, x);",
            f"o[1] = ({s})group_broadcast(g, x, a2);",
            f"o[2] = ({s})shift_group_left(g, x, a0);",
            f"o[3] = ({s})shift_group_right(g, x, a0);",
            f"o[4] = ({s})permute_group_by_xor(g, x, a1);",
            f"o[5] = ({s})select_from_group(g, x, (uint)sel[gid]);"]


def sg_dispatch(body):
    """The body on each sub-group kind; kind is a uniform kernel argument."""
    lines = ["sub_group sg = get_sub_group();",
             "info[gid * 4 + 0] = sg.get_local_linear_range();",
             "info[gid * 4 + 1] = sg.get_group_linear_id();",
             "info[gid * 4 + 2] = sg.get_local_linear_id();",
             "info[gid * 4 + 3] = sg.get_group_linear_range();"]
    out = lines
    chain = []
    for i, (_, make) in enumerate(SG_KINDS + DIVERGENT_KINDS):
        head = "if" if i == 0 else "} else if"
        chain.append(f"{head} (KIND_ON({i}) && kind == {i}u) {{")
        if i < len(SG_KINDS):
            chain += ["    " + make] + ["    " + b for b in body]
        else:
            chain.append("    if (p) {")
            chain += ["        " + make] + ["        " + b for b in body]
            chain.append("    } else {")
            chain += ["        " + make] + ["        " + b for b in body]
            chain.append("    }")
    chain.append("}")
    return out + chain


def wg_dispatch(body):
    return ["work_group g = get_work_group();",
            "info[gid * 4 + 0] = 0u;",
            "info[gid * 4 + 1] = 0u;",
            "info[gid * 4 + 2] = (uint)get_local_id(0);",
            "info[gid * 4 + 3] = 0u;"] + body


def kernel(w, name, params, prologue, body, scope):
    w(f"kernel void {name}({params})\n{{\n")
    lines = prologue + (sg_dispatch(body) if scope == "sg" else wg_dispatch(body))
    w("".join(f"    {l}\n" for l in lines))
    w("}\n\n")


def spec_constants(w):
    w("spec_const uint FIXED_N = 4; /* fixed_size_group<FIXED_N>: set with -DSGC_SPEC_0 */\n")
    w("/* -1: every group kind; k: kind k alone (exec_host.c --per-kind). */\n")
    w("spec_const int ONLY_KIND = -1;\n")
    w("#define KIND_ON(k) (ONLY_KIND < 0 || ONLY_KIND == (k))\n\n")


COMMON = "global uint *info, global const int *pred, global const int *sel, uint kind, uint a0, uint a1, uint a2"


PROLOGUE = ["size_t gid = get_global_id(0);", "bool p = pred[gid] != 0;",
            "(void)p; (void)sel; (void)a0; (void)a1; (void)a2; (void)kind;"]


def arith_kernel(w, t, op, scope, cases):
    name = f"arith_{scope}_{op}_{t}"
    kernel(w, name, f"global const {t} *in, global {t} *out, {COMMON}, {t} init",
           PROLOGUE + [f"{t} x = in[gid];", f"global {t} *o = out + gid * 6;"],
           arith_body(op, t), scope)
    cases.append(("FAM_ARITH", t, op, scope, name))


def move_kernel(w, t, scope, cases):
    s = STORAGE.get(t, t)
    name = f"move_{scope}_{t}"
    kernel(w, name, f"global const {s} *in, global {s} *out, {COMMON}",
           PROLOGUE + [f"{t} x = ({t})in[gid];", f"global {s} *o = out + gid * 6;"],
           move_body(t), scope)
    cases.append(("FAM_MOVE", t, "none", scope, name))


def unit(w, t, scope, cases):
    w(f"/* Generated by gen_exec.py: {scope} kernels on {t}. */\n")
    spec_constants(w)
    if t in REDUCE_TYPES:
        for op in ops_of(t):
            arith_kernel(w, t, op, scope, cases)
    move_kernel(w, t, scope, cases)


# The quick suite's sample (exec_host.c --sample): every operator once, the
# integer ones spread over the four integer types and again over the four
# small integer types, the floating ones over float (double in the fp64
# unit), the move family on every small type, and the votes.  Each sub-group kernel runs every group kind, so the sample
# covers every kind x family x operator, and every type.
SAMPLE_INT = ["int", "uint", "long", "ulong"]


def sample_unit(w, scope, cases):
    w(f"/* Generated by gen_exec.py: the quick sample of the {scope} kernels. */\n")
    spec_constants(w)
    for i, op in enumerate(INT_OPS):
        arith_kernel(w, SAMPLE_INT[i % len(SAMPLE_INT)], op, scope, cases)
    for i, op in enumerate(INT_OPS):
        arith_kernel(w, SMALL_INT_TYPES[i % len(SMALL_INT_TYPES)], op, scope, cases)
    for op in FLOAT_OPS:
        arith_kernel(w, "float", op, scope, cases)
    for t in SMALL_TYPES:
        move_kernel(w, t, scope, cases)
    vote_kernel(w, scope, cases)


def sample_fp64_unit(w, scope, cases):
    """double apart: a unit with it does not build without fp64."""
    w(f"/* Generated by gen_exec.py: the quick sample's double kernels ({scope}). */\n")
    spec_constants(w)
    arith_kernel(w, "double", "multiplies", scope, cases)
    arith_kernel(w, "double", "maximum", scope, cases)
    move_kernel(w, "double", scope, cases)


def vote_unit(w, scope, cases):
    w(f"/* Generated by gen_exec.py: {scope} votes, members and barrier. */\n")
    spec_constants(w)
    vote_kernel(w, scope, cases)


def vote_kernel(w, scope, cases):
    # The leader's slot: each member publishes its lid and the leader's,
    # found by a broadcast of the leader's lid (no shuffle-free way in SGC).
    name = f"vote_{scope}"
    w(f"kernel void {name}(global const uint *in, global uint *out, {COMMON}, local uint *slot)\n{{\n")
    pro = ["size_t gid = get_global_id(0);", "bool p = pred[gid] != 0;",
           "bool q = sel[gid] != 0;", "uint lid = (uint)get_local_id(0);",
           "(void)in; (void)p; (void)a0; (void)a1; (void)a2; (void)kind;",
           "global uint *o = out + gid * 9;"]
    body = ["o[0] = any_of_group(g, q);",
            "o[1] = all_of_group(g, q);",
            "o[2] = none_of_group(g, q);",
            "o[3] = g.get_group_linear_id();",
            "o[4] = g.get_group_linear_range();",
            "o[5] = g.get_local_linear_id();",
            "o[6] = g.get_local_linear_range();",
            "o[7] = g.leader();",
            "slot[lid] = (uint)gid;",
            "uint leader_lid = group_broadcast(g, lid);",
            "group_barrier(g);",
            "o[8] = slot[leader_lid];"]
    lines = pro + (sg_dispatch(body) if scope == "sg" else wg_dispatch(body))
    w("".join(f"    {l}\n" for l in lines))
    w("}\n")
    cases.append(("FAM_VOTE", "uint", "none", scope, name))


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    cases = []
    units = []
    for scope in ("wg", "sg"):
        for t in ARITH_TYPES + SMALL_TYPES:
            uname = f"{scope}_{t}"
            with open(os.path.join(outdir, uname + ".sgc"), "w") as f:
                start = len(cases)
                unit(f.write, t, scope, cases)
            units.append((uname, start, len(cases)))
        uname = f"{scope}_vote"
        with open(os.path.join(outdir, uname + ".sgc"), "w") as f:
            start = len(cases)
            vote_unit(f.write, scope, cases)
        units.append((uname, start, len(cases)))
    for scope in ("wg", "sg"):
        for uname, write in ((f"sample_{scope}", sample_unit),
                             (f"sample_{scope}_fp64", sample_fp64_unit)):
            with open(os.path.join(outdir, uname + ".sgc"), "w") as f:
                start = len(cases)
                write(f.write, scope, cases)
            units.append((uname, start, len(cases)))
    with open(os.path.join(outdir, "cases.h"), "w") as f:
        w = f.write
        w("/* Generated by gen_exec.py: the kernels of the groups execution test. */\n")
        w("#define EXEC_CASES(X) \\\n")
        w(" \\\n".join(f'    X({fam}, T_{t.upper()}, GOP_{op.upper()}, {int(scope == "sg")}, "{name}")'
                       for fam, t, op, scope, name in cases) + "\n")
        w("#define EXEC_UNITS(X) \\\n")
        w(" \\\n".join(f'    X("{u}", {a}, {b})' for u, a, b in units) + "\n")


if __name__ == "__main__":
    main()
