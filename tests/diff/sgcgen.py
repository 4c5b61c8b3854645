#!/usr/bin/env python3
"""sgcgen.py — random valid SGC programs with an independent host oracle.

One seed gives one *module*: a .sgc file holding several kernels, the host
C of a reference for each kernel (the oracle), and a manifest the device
driver (diffrun.c) reads.  The generator builds a small AST once and prints
it twice:

  * as SGC, for sgcc;
  * as host C in SIMT form: every variable becomes an array over the lanes
    of one work-group, every statement runs under an active-lane mask, ifs
    and loops split and narrow the mask, and group operations are computed
    from the SPEC's rules (partitions, ranks, identities, "a source outside
    the group returns the caller's own value") over the members the
    generator knows (ballot: same predicate; fixed-size: lane / N; tangle:
    the lanes active at that point; opportunistic: the membership the
    device reports, checked for consistency).  gcc compiles it; nothing of
    sgcc's emitters or device library is shared.

Programs have no undefined behaviour: signed + - * / % << >> go through
Csmith-style safe_* functions, floats carry exactly representable integers
(no rounding, so FMA contraction cannot change a result), group
arithmetic gets bounded inputs, local memory is written and read in phases
separated by barriers (work-group barriers or the phases of a split
barrier), atomics only combine commutatively (a 64-bit word of out[] per
work-group is checked as the total), math built-ins only where their
results are exact, unions are read through the member written last, a
joint range in private memory holds the same values in every work-item.  Group
operations appear only where every member of the group is active
(uniformity levels below).  Every work-item folds what it computes into a
checksum written to out[].

Modules come in two flavours: 'wg' (no sub-groups: runs on the wg tier,
PoCL, forced-wg) and 'sg' (sub-groups and every group kind).

Reduction (campaign.py): every statement has an id; printing with a set of
dropped ids leaves them out (a dropped declaration keeps its name with a
zero initialiser, a dropped group creation drops the group's uses), so a
reduced program is still valid and its oracle still exact.

usage: sgcgen.py --seed N --flavour wg|sg --out DIR/BASE [--kernels K]
                 [--drop 1,2,3] [--only-kernel NAME] [--gpu] [--no-workarounds]
writes BASE.sgc, BASE_ref.c, BASE.manifest, BASE.sgccopts
"""

import argparse
import random

# ---------------------------------------------------------------- types --

# names C allows that CUDA C++ reserves or predeclares (sgcc renames them):
# block-scope variables, and file-scope functions (CUDA_R_32F, cudaError are
# reserved only when the unit declares them at file scope)
CXX_NAMES = ["class", "new", "this", "delete", "template", "namespace", "operator", "threadIdx",
             "warpSize", "dim3", "make_int2", "char2"]
FILE_SCOPE_NAMES = ["CUDA_R_32F", "cudaError"]
# char literals as leaves (int in C, char in C++)
CHAR_LITERALS = ["'a'", "'\\n'", "'\\x7f'", "'\\0'", "'\\''", "'Z'"]

# string literals indexed by (e) & 7: escapes of every kind, 8 characters
STRING_LITERALS = [r'"sgc\t\"q\\Z"', r'"A\101b\x7e!?x9"']

INT_TYPES = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"]
BITS = {"bool": 1, "char": 8, "uchar": 8, "short": 16, "ushort": 16, "int": 32,
        "uint": 32, "long": 64, "ulong": 64, "size_t": 64}
SIGNED = {"char", "short", "int", "long"}
FLOATS = ["float", "double"]
ALGO_TYPES = ["int", "uint", "long", "ulong", "float", "double"]
MOVE_TYPES = ["bool", "char", "uchar", "short", "ushort", "int", "uint", "long",
              "ulong", "float", "double"]
OPS = ["plus", "multiplies", "minimum", "maximum", "bit_and", "bit_or", "bit_xor",
       "logical_and", "logical_or"]

# Work-arounds for sgcc bugs found by the campaign and not fixed yet, so
# that the campaign keeps finding other ones (campaign.py --no-workarounds).
AVOID_CHAINED_COMPARISONS = False   # fixed in sgcc (6b2a767): chained forms generated again
# Intel's CPU compiler aborts, or computes a work-group scan before it
# wrongly, on joint_reduce over one element (tests/diff/cases/KNOWN_FAILURES):
# ranges of 2+ elements
AVOID_INTEL_JOINT_ONE_ELEMENT = True
# Intel's CPU compiler gets "b >= 32 ? a : a << b" wrong on uint a: the
# guard shifts in 64 bits instead (tests/diff/cases/KNOWN_FAILURES)
AVOID_INTEL_UINT_SHIFT_SELECT = True
# Fixed in sgcc (e42d40e), kept as switches for older binaries: OpenCL's
# abs returns uint where SGC's returns the argument's type
# (tests/diff/cases/opencl_abs_unsigned), and a math built-in's arguments
# inside an initialiser list lost their conversions
# (tests/diff/cases/opencl_init_list_builtin_args).  Off: the generator
# writes both.
AVOID_OPENCL_ABS_UNSIGNED = False
AVOID_OPENCL_INIT_LIST_BUILTINS = False
# Fixed in sgcc too: an enum argument of min/max/clamp reached the OpenCL
# output unconverted (max(e, x): ambiguous; tests/diff/cases/
# opencl_enum_builtin_args).  Off: the generator passes enums plainly.
AVOID_ENUM_BUILTIN_ARGS = False
# PoCL 3.1 runs a do/while loop whose trip count differs between
# work-items only once when a work-group barrier follows it
# (tests/diff/cases/KNOWN_FAILURES pocl_do_while_barrier): in wg-flavour
# modules (the ones PoCL runs) such loops are written as while loops
AVOID_POCL_DIVERGENT_DO_WHILE = True
# PoCL 3.1 copies nothing when sgcc's cooperative async_work_group_copy
# (a loop from the linear local id by the linear local size) is inlined
# twice into one kernel (tests/diff/cases/pocl_split_barrier_copy,
# minimal.cl): wg-flavour kernels get one copy at most
AVOID_POCL_TWO_COPIES = True
# sgcc's CUDA output of min/max/clamp did not convert the arguments to one
# type: size_t (unsigned long there) with ulong (unsigned long long) was an
# ambiguous call for nvcc (tests/diff/cases/cuda_minmax_size_t); fixed in
# sgcc, so the mixed calls are generated again
AVOID_CUDA_SIZE_T_MINMAX = False
# --gpu: reqd_sub_group_size only 32 (a warp), so CUDA keeps every kernel
GPU_SUB_GROUP_SIZES = False

# uniformity levels of values and of control flow
U_WG, U_SG, U_BLK, U_DIV = 0, 1, 2, 3


def promote(t):
    if t in ("bool", "char", "uchar", "short", "ushort"):
        return "int"
    if t == "size_t":
        return "ulong"
    return t


def uac(a, b):
    """C's usual arithmetic conversions for two integer types (LP64)."""
    a, b = promote(a), promote(b)
    if a == b:
        return a
    rank = {"int": 1, "uint": 1, "long": 2, "ulong": 2}
    sa, sb = a in SIGNED, b in SIGNED
    if sa == sb:
        return a if rank[a] > rank[b] else b
    s, u = (a, b) if sa else (b, a)
    if rank[u] >= rank[s]:
        return u
    if BITS[s] > BITS[u]:
        return s
    return "u" + s


def limits(t):
    bits = BITS[t]
    if t in SIGNED:
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def c_literal(t, v):
    """A literal of type t that both C and CUDA read the same way."""
    if t == "int":
        return str(v) if v >= 0 else "(%d)" % v if v > -2**31 else "(-2147483647 - 1)"
    if t == "uint":
        return "%du" % v
    if t == "long":
        return "%dl" % v if v >= 0 else "(%dl)" % v if v > -2**63 else "(-9223372036854775807l - 1)"
    if t == "ulong":
        return "%dul" % v
    if t == "bool":
        return "true" if v else "false"
    return "((%s)%d)" % (t, v)


# ---------------------------------------------------------- expressions --

class E:
    """An expression: its text with per-lane variable references."""

    def __init__(self, typ, fmt, subs=(), u=U_WG):
        self.typ = typ
        self.fmt = fmt      # a format string: {0}, {1} ... are subs
        self.subs = list(subs)
        self.u = u

    def s(self, lane):
        return self.fmt.format(*[x.s(lane) for x in self.subs])


class VarRef(E):
    def __init__(self, var, suffix=""):
        super().__init__(var.typ, "", (), var.u)
        self.var = var
        self.suffix = suffix     # ".f0", "[...]" printed after the lane index

    def s(self, lane):
        base = self.var.name
        if lane is not None and self.var.per_lane:
            base += "[%s]" % lane
        return base + self.suffix


class HostIntArg(E):
    """An enum variable as a direct argument of min/max/clamp: SGC counts it
    as an int there (docs/REFERENCE.md: "An argument of enum type to an
    overloaded built-in ... counts as an int"), while C (the oracle) would
    take the enum's compatible type, unsigned int; the oracle's text casts."""

    def __init__(self, sub):
        super().__init__("int", "{0}", [sub], sub.u)

    def s(self, lane):
        # lane None: SGC text, or a device function, whose text both files
        # share; ENUM_ARG is (x) in the module and ((int)(x)) in the oracle
        text = self.subs[0].s(lane)
        return "ENUM_ARG(%s)" % text if lane is None else "((int)(%s))" % text


def host_int_arg(x):
    """x, or x marked as an enum argument of an overloaded built-in."""
    inner = x
    while type(inner) is E and inner.fmt == "({0})" and len(inner.subs) == 1:
        inner = inner.subs[0]
    if isinstance(inner, VarRef) and not inner.suffix and getattr(inner.var, "enum", False):
        return HostIntArg(x)
    return x


class IndexRef(E):
    """a[(idx) & (n-1)] on a private array."""

    def __init__(self, var, idx):
        super().__init__(var.typ, "", (), U_DIV)
        self.var, self.idx = var, idx

    def s(self, lane):
        base = self.var.name + ("[%s]" % lane if lane is not None else "")
        return "%s[(%s) & %d]" % (base, self.idx.s(lane), self.var.n - 1)


class Var:
    def __init__(self, name, typ, u, mutable, per_lane=True, n=0):
        self.name, self.typ, self.u, self.mutable = name, typ, u, mutable
        self.per_lane = per_lane
        self.n = n


# ----------------------------------------------------------- statements --

class S:
    """A statement: SGC lines and SIMT host lines (both indented by the printer)."""
    droppable = True

    def __init__(self, gen):
        self.sid = gen.next_sid()


class Printer:
    def __init__(self, drop):
        self.drop = drop
        self.lines = []
        self.ind = 0

    def w(self, text):
        self.lines.append("    " * self.ind + text)

    def block(self, stmts, fn):
        self.ind += 1
        for st in stmts:
            fn(st, self)
        self.ind -= 1


def dropped(st, pr):
    return st.droppable and st.sid in pr.drop


# The mask context of the SIMT printer: a stack of mask array names from
# the kernel down; loops remember where their masks start for break/continue.
class MaskCtx:
    def __init__(self):
        self.stack = ["m0"]
        self.loops = []   # (index into stack of the loop's continue mask, loop mask name)
        self.count = 0

    def cur(self):
        return self.stack[-1]

    def fresh(self):
        self.count += 1
        return "m%d" % self.count


class Decl(S):
    def __init__(self, gen, var, init):
        super().__init__(gen)
        self.var, self.init = var, init

    qual = ""

    def sgc(self, pr):
        init = self.init.s(None) if self.sid not in pr.drop else "0"
        pr.w("%s%s %s = %s;" % (self.qual.replace("const ", ""), self.var.typ, self.var.name, init)
             if self.qual == "volatile " else "%s%s %s = %s;" % (self.qual, self.var.typ, self.var.name, init))

    def simt(self, pr, mc):
        v = self.var
        pr.w("%s%s %s[L];" % ("volatile " if self.qual == "volatile " else "", v.typ, v.name))
        init = self.init.s("l") if self.sid not in pr.drop else "0"
        pr.w("for (int l = 0; l < L; l++) if (%s[l]) %s[l] = %s;" % (mc.cur(), v.name, init))


class Assign(S):
    def __init__(self, gen, target, val, op="="):
        super().__init__(gen)
        self.target, self.val, self.op = target, val, op

    def sgc(self, pr):
        if not dropped(self, pr):
            pr.w("%s %s %s;" % (self.target.s(None), self.op, self.val.s(None)))

    def simt(self, pr, mc):
        if not dropped(self, pr):
            pr.w("for (int l = 0; l < L; l++) if (%s[l]) %s %s %s;" % (
                mc.cur(), self.target.s("l"), self.op, self.val.s("l")))


class Sink(Assign):
    """cs = mix(cs, value): what the work-item computed reaches the output."""

    def __init__(self, gen, val):
        conv = "f2u(%s)" if val.typ in FLOATS else "(ulong)(%s)"
        super().__init__(gen, VarRef(gen.cs), E("ulong", "mix({0}, " + conv.replace("%s", "{1}") + ")",
                                             [VarRef(gen.cs), val], U_DIV))


class ArrayDecl(S):
    droppable = False

    def __init__(self, gen, var):
        super().__init__(gen)
        self.var = var

    def sgc(self, pr):
        v = self.var
        if v.typ.startswith("struct"):
            pr.w("%s %s = {0};" % (v.typ, v.name))
        else:
            pr.w("%s %s[%s] = {0};" % (v.typ, v.name, v.size_text))

    def simt(self, pr, mc):
        v = self.var
        if v.typ.startswith("struct"):
            pr.w("%s %s[L]; memset(%s, 0, sizeof %s);" % (v.typ, v.name, v.name, v.name))
        else:
            pr.w("%s %s[L][%d]; memset(%s, 0, sizeof %s);" % (v.typ, v.name, v.n, v.name, v.name))


class If(S):
    def __init__(self, gen, cond, then, els):
        super().__init__(gen)
        self.cond, self.then, self.els = cond, then, els

    def sgc(self, pr, chained=False):
        if dropped(self, pr):
            return
        pr.w(("} else if (%s) {" if chained else "if (%s) {") % self.cond.s(None))
        pr.block(self.then, lambda st, p: st.sgc(p))
        if self.els is not None:
            e = self.els
            if len(e) == 1 and type(e[0]) is If and not dropped(e[0], pr):
                e[0].sgc(pr, chained=True)     # else if (...): closes the chain
                return
            pr.w("} else {")
            pr.block(self.els, lambda st, p: st.sgc(p))
        pr.w("}")

    def simt(self, pr, mc):
        if dropped(self, pr):
            return
        m, mt, me = mc.cur(), mc.fresh(), mc.fresh()
        pr.w("{")
        pr.ind += 1
        pr.w("uchar %s[L], %s[L];" % (mt, me))
        pr.w("for (int l = 0; l < L; l++) { int c = %s[l] ? (%s) != 0 : 0; %s[l] = %s[l] && c; %s[l] = %s[l] && !c; }"
             % (m, self.cond.s("l"), mt, m, me, m))
        for body, mm in ((self.then, mt), (self.els, me)):
            if body is None:
                continue
            mc.stack.append(mm)
            pr.w("{")
            pr.block(body, lambda st, p: st.simt(p, mc))
            pr.w("}")
            mc.stack.pop()
        pr.ind -= 1
        pr.w("}")


class GotoSkip(S):
    """{ if (cond) goto L; body (starting with an initialised declaration) L: cs = mix(cs, 3); }"""

    def __init__(self, gen, cond, body, label):
        super().__init__(gen)
        self.cond, self.body, self.label = cond, body, label
        self.cs = gen.cs.name

    def sgc(self, pr):
        if dropped(self, pr):
            return
        pr.w("{")
        pr.ind += 1
        pr.w("if (%s) goto %s;" % (self.cond.s(None), self.label))
        for st in self.body:
            st.sgc(pr)
        pr.ind -= 1
        pr.w("%s:" % self.label)
        pr.ind += 1
        pr.w(";")
        pr.w("%s = mix(%s, 3ul);" % (self.cs, self.cs))
        pr.ind -= 1
        pr.w("}")

    def simt(self, pr, mc):
        if dropped(self, pr):
            return
        m, mg = mc.cur(), mc.fresh()
        pr.w("{")
        pr.ind += 1
        pr.w("uchar %s[L];" % mg)
        pr.w("for (int l = 0; l < L; l++) %s[l] = %s[l] && !(%s);" % (mg, m, self.cond.s("l")))
        mc.stack.append(mg)
        pr.w("{")
        pr.block(self.body, lambda st, p: st.simt(p, mc))
        pr.w("}")
        mc.stack.pop()
        pr.w("for (int l = 0; l < L; l++) if (%s[l]) %s[l] = mix(%s[l], 3ul);" % (m, self.cs, self.cs))
        pr.ind -= 1
        pr.w("}")


class Escape(S):
    """if (cond) break; / continue; directly in a loop body."""

    def __init__(self, gen, cond, kind):
        super().__init__(gen)
        self.cond, self.kind = cond, kind

    def sgc(self, pr):
        if not dropped(self, pr):
            pr.w("if (%s) %s;" % (self.cond.s(None), self.kind))

    def simt(self, pr, mc):
        if dropped(self, pr):
            return
        start, lm = mc.loops[-1]
        clears = ["%s[l] = 0;" % name for name in mc.stack[start:]]
        if self.kind == "break":
            clears.append("%s[l] = 0;" % lm)
        pr.w("for (int l = 0; l < L; l++) if (%s[l] && (%s)) { %s }" % (
            mc.cur(), self.cond.s("l"), " ".join(clears)))


class For(S):
    """for (T i = 0; i < bound; i++) body — bound evaluated every iteration."""

    def __init__(self, gen, ivar, bound, body, kind="for"):
        super().__init__(gen)
        self.ivar, self.bound, self.body = ivar, bound, body
        self.kind = kind   # for; while (++i < n) with i from -1, the same trips; do ... while (++i < n)

    def sgc(self, pr):
        if dropped(self, pr):
            return
        i, t, n = self.ivar.name, self.ivar.typ, self.bound.s(None)
        if self.kind == "for" and self.sid % 3 == 0:
            pr.w("%s %s;" % (t, i))
            pr.w("for (%s = 0; %s < %s; %s++) {" % (i, i, n, i))
        elif self.kind == "for":
            pr.w("for (%s %s = 0; %s < %s; %s++) {" % (t, i, i, n, i))
        elif self.kind == "while":
            pr.w("%s %s = -1;" % (t, i))
            pr.w("while (++%s < %s) {" % (i, n))
        else:
            pr.w("%s %s = 0;" % (t, i))
            pr.w("do {")
        pr.block(self.body, lambda st, p: st.sgc(p))
        pr.w("}" if self.kind != "do" else "} while (++%s < %s);" % (i, n))

    def simt(self, pr, mc):
        if dropped(self, pr):
            return
        i = self.ivar.name
        m, lm, cm = mc.cur(), mc.fresh(), mc.fresh()
        pr.w("{")
        pr.ind += 1
        pr.w("%s %s[L]; uchar %s[L];" % (self.ivar.typ, i, lm))
        pr.w("for (int l = 0; l < L; l++) { %s[l] = %s[l]; if (%s[l]) %s[l] = 0; }" % (lm, m, m, i))
        pr.w("for (int iter = 0;; iter++) {")
        pr.ind += 1
        pr.w("int any = 0;")
        if self.kind == "do":
            # the body runs once before the first test; then ++i < n
            pr.w("for (int l = 0; l < L; l++) if (%s[l]) { if (iter == 0 || ++%s[l] < %s) any = 1; else %s[l] = 0; }"
                 % (lm, i, self.bound.s("l"), lm))
        else:
            pr.w("for (int l = 0; l < L; l++) if (%s[l]) { if (%s[l] < %s) any = 1; else %s[l] = 0; }"
                 % (lm, i, self.bound.s("l"), lm))
        pr.w("if (!any) break;")
        pr.w("uchar %s[L]; memcpy(%s, %s, sizeof %s);" % (cm, cm, lm, cm))
        mc.stack.append(cm)
        mc.loops.append((len(mc.stack) - 1, lm))
        pr.w("{")
        pr.block(self.body, lambda st, p: st.simt(p, mc))
        pr.w("}")
        mc.loops.pop()
        mc.stack.pop()
        if self.kind != "do":
            pr.w("for (int l = 0; l < L; l++) if (%s[l]) %s[l]++;" % (lm, i))
        pr.ind -= 1
        pr.w("}")
        pr.ind -= 1
        pr.w("}")


class Switch(S):
    """switch (x) { case ...: stmts [break;] ... default: ... } (arms may fall through)."""

    def __init__(self, gen, ctl, arms):
        super().__init__(gen)
        self.ctl = ctl
        self.arms = arms   # [(labels: list of (text, value) or None for default, stmts, ends_with_break)]

    def sgc(self, pr):
        if dropped(self, pr):
            return
        pr.w("switch (%s) {" % self.ctl.s(None))
        for labels, body, brk in self.arms:
            if labels is None:
                pr.w("default:")
            for text, _ in labels or []:
                pr.w("case %s:" % text)
            pr.w("{")
            pr.block(body, lambda st, p: st.sgc(p))
            pr.w("}")
            if brk:
                pr.ind += 1
                pr.w("break;")
                pr.ind -= 1
        pr.w("}")

    def simt(self, pr, mc):
        if dropped(self, pr):
            return
        m, sv, fall = mc.cur(), mc.fresh(), mc.fresh()
        all_values = [v for labels, _, _ in self.arms for _, v in labels or []]
        pr.w("{")
        pr.ind += 1
        pr.w("long %s[L]; uchar %s[L]; memset(%s, 0, sizeof %s);" % (sv, fall, fall, fall))
        pr.w("for (int l = 0; l < L; l++) if (%s[l]) %s[l] = (long)(%s);" % (m, sv, self.ctl.s("l")))
        for labels, body, brk in self.arms:
            am = mc.fresh()
            if labels is None:
                match = " && ".join("%s[l] != %dl" % (sv, v) for v in all_values) or "1"
            else:
                match = " || ".join("%s[l] == %dl" % (sv, v) for _, v in labels)
            pr.w("uchar %s[L];" % am)
            pr.w("for (int l = 0; l < L; l++) %s[l] = %s[l] && ((%s) || %s[l]);" % (am, m, match, fall))
            mc.stack.append(am)
            pr.w("{")
            pr.block(body, lambda st, p: st.simt(p, mc))
            pr.w("}")
            mc.stack.pop()
            if brk:
                pr.w("memset(%s, 0, sizeof %s);" % (fall, fall))
            else:
                pr.w("memcpy(%s, %s, sizeof %s);" % (fall, am, fall))
        pr.ind -= 1
        pr.w("}")


class Raw(S):
    """A statement given as SGC text and SIMT text directly (group operations,
    local-memory phases, atomics)."""

    def __init__(self, gen, sgc_lines, simt_fn, deps=()):
        super().__init__(gen)
        self.sgc_lines = sgc_lines
        self.simt_fn = simt_fn      # fn(printer, maskctx) writing the host lines
        self.deps = deps            # sids whose drop drops this statement too

    def is_dropped(self, pr):
        return self.sid in pr.drop or any(d in pr.drop for d in self.deps)

    def sgc(self, pr):
        if not self.is_dropped(pr):
            for line in self.sgc_lines:
                pr.w(line)

    def simt(self, pr, mc):
        if not self.is_dropped(pr):
            self.simt_fn(pr, mc)


# ------------------------------------------------------------ generator --

class Group:
    def __init__(self, name, kind, creator_sid, n=0, home=None, needs=U_DIV):
        self.name, self.kind, self.creator, self.n = name, kind, creator_sid, n
        self.home = home          # the statement list it may be used in
        self.alive = True
        self.needs = needs        # context level needed to use it


class Ctx:
    """Where the generator is: uniformity of the control flow, loop state."""

    def __init__(self, level=U_WG, blk=64, in_loop=False, in_func=False, depth=0, in_switch=False):
        self.level, self.blk = level, blk
        self.in_loop, self.in_func, self.depth = in_loop, in_func, depth
        self.in_switch = in_switch
        self.opp_ok = not in_loop
        self.escape_ok = False
        self.escape_level = U_WG

    def inner(self, level, blk=None, **kw):
        c = Ctx(max(self.level, level), self.blk if blk is None else min(self.blk, blk),
                self.in_loop, self.in_func, self.depth + 1, self.in_switch)
        c.opp_ok = self.opp_ok
        c.escape_ok, c.escape_level = self.escape_ok, self.escape_level
        for k, v in kw.items():
            setattr(c, k, v)
        if c.in_loop:
            c.opp_ok = False
        return c


class Gen:
    def __init__(self, seed, flavour, nkernels):
        self.r = random.Random(seed)
        self.seed = seed
        self.flavour = flavour
        self.nkernels = nkernels
        self.sid = 0
        self.nvar = 0
        self.spec = []       # (name, type, id, default, bound value or None, explicit)
        self.structs = []    # (name, [(field, type)])
        self.funcs = []      # (name, rettype, params, body stmts, ret expr)
        self.gfuncs = []     # GroupFunc
        self.kernels = []
        self.macro_val = self.r.randint(-20, 20)
        self.ctype_text = []
        self.used_cxx = set()

    def next_sid(self):
        self.sid += 1
        return self.sid

    def fresh(self, prefix="v"):
        self.nvar += 1
        return "%s%d" % (prefix, self.nvar)

    def cxx_name(self):
        """A C++ keyword or CUDA name as a variable name, once per module, or a fresh name."""
        left = [n for n in CXX_NAMES if n not in self.used_cxx]
        if left and self.chance(0.08):
            self.used_cxx.add(left[0])
            return left[0]
        return self.fresh()

    def chance(self, p):
        return self.r.random() < p

    # ---- module-level declarations

    def make_spec_consts(self):
        used_ids = set()
        nspec = self.r.randint(2, 5)
        explicit_pool = [3, 7, 11, 42, 100]
        decls = []
        for i in range(nspec):
            typ = self.r.choice(["int", "uint", "long", "short", "bool", "ulong"])
            lo, hi = limits(typ) if typ != "bool" else (0, 1)
            default = self.r.randint(max(lo, -8), min(hi, 9))
            explicit = self.chance(0.4)
            sid = self.r.choice([x for x in explicit_pool if x not in used_ids]) if explicit else None
            if sid is not None:
                used_ids.add(sid)
            bound = self.r.randint(max(lo, -8), min(hi, 9)) if self.chance(0.5) else None
            decls.append([self.fresh("sc"), typ, sid, default, bound, explicit])
        nxt = 0
        for d in decls:            # implicit IDs: smallest unused, declaration order
            if d[2] is None:
                while nxt in used_ids:
                    nxt += 1
                d[2] = nxt
                used_ids.add(nxt)
        self.spec = decls
        # a power-of-two spec constant for private array sizes
        self.arr_spec = [self.fresh("scn"), "int", None, 4, self.r.choice([None, 2, 8]), False]
        nxt = 0
        while nxt in used_ids:
            nxt += 1
        self.arr_spec[2] = nxt
        used_ids.add(nxt)

    def spec_value(self, d):
        return d[4] if d[4] is not None else d[3]

    def make_ctypes(self):
        """An enum or two (negative enumerators make the underlying type int,
        else unsigned int, as gcc), a union, a struct nesting a struct and arrays."""
        r = self.r
        self.enums = []
        for _ in range(r.randint(1, 2)):
            name = self.fresh("En")
            items, texts, v = [], [], r.choice([0, 0, -3, 2])
            for i in range(r.randint(2, 4)):
                ename = "%s_%d" % (name, i)
                if i == 0 or self.chance(0.3):
                    v = r.randint(-4, 9) if i else v
                    texts.append("%s = %d" % (ename, v))
                else:
                    texts.append(ename)
                items.append((ename, v))
                v += 1
            under = "int" if any(val < 0 for _, val in items) else "uint"
            self.enums.append((name, items, under))
            self.ctype_text.append("enum %s { %s };" % (name, ", ".join(texts)))
        uf = [("i", "int"), ("l", "long"), ("u", "uint"), ("s", "short"), ("c", "uchar")]
        r.shuffle(uf)
        self.union = (self.fresh("Un"), uf[:r.randint(2, 5)])
        self.ctype_text.append("union %s { %s };" % (self.union[0], " ".join("%s %s;" % (t, f) for f, t in self.union[1])))
        ta, tb, tx, tr = (r.choice(INT_TYPES) for _ in range(4))
        inner = self.fresh("In")
        self.nstruct_name = self.fresh("Nn")
        self.nstruct_fields = [("x", tx), ("sub", ("struct", [("a", ta), ("b", (tb, 3))])), ("arr", (tr, 2))]
        self.ctype_text.append("struct %s { %s a; %s b[3]; };" % (inner, ta, tb))
        self.ctype_text.append("struct %s { %s x; struct %s sub; %s arr[2]; };" % (self.nstruct_name, tx, inner, tr))
        self.ctype_text.append('_Static_assert(sizeof(long) == 8, "LP64");')

    def make_structs(self):
        for _ in range(self.r.randint(0, 2)):
            fields = [("f%d" % i, self.r.choice(INT_TYPES + ["float"])) for i in range(self.r.randint(1, 4))]
            self.structs.append((self.fresh("S"), fields))

    # ---- expressions

    def leaf(self, env, typ_pref=None):
        r = self.r
        choices = []
        ints = [v for v in env if v.typ in INT_TYPES + ["bool", "size_t"] and v.n == 0]
        if ints:
            choices += ["var"] * 6
        choices += ["const"] * 3 + ["spec"] * 2 + ["macro"]
        arrays = [v for v in env if v.n > 0 and v.typ in INT_TYPES]
        structs = [v for v in env if v.typ.startswith("struct")]
        if arrays:
            choices += ["arr"] * 2
        if structs:
            choices += ["field"] * 2
        k = r.choice(choices)
        if k == "var":
            v = r.choice(ints)
            if getattr(v, "enum", False) and AVOID_ENUM_BUILTIN_ARGS and getattr(self, "in_imath", False):
                return E(v.typ, "((%s)({0}))" % v.typ, [VarRef(v)], v.u)
            return VarRef(v)
        if k == "spec":
            d = r.choice(self.spec)
            return E(d[1], d[0], (), U_WG)
        if k == "macro":
            if self.chance(0.2):
                return E("int", r.choice(CHAR_LITERALS), (), U_WG)
            if self.chance(0.1):
                return E("uint", "get_work_dim()", (), U_WG)
            return E("int", "GK", (), U_WG)
        if k == "arr":
            v = r.choice(arrays)
            return IndexRef(v, self.expr(env, 1))
        if k == "field":
            v = r.choice(structs)
            fields = [f for f in self.struct_fields(v.typ) if f[1] in INT_TYPES]
            if fields:
                f = r.choice(fields)
                e = VarRef(v, "." + f[0])
                e.typ, e.u = f[1], U_DIV
                return e
        t = typ_pref or r.choice(INT_TYPES + ["bool"])
        lo, hi = limits(t) if t != "bool" else (0, 1)
        v = r.choice([0, 1, 2, 3, 7, -1, -2, lo, hi, hi - 1, lo + 1, r.randint(lo, hi),
                      r.randint(-100, 100)])
        v = min(max(v, lo), hi)
        return E(t, c_literal(t, v), (), U_WG)

    def struct_fields(self, typ):
        name = typ.split()[1]
        for n, f in self.structs:
            if n == name:
                return f
        return []

    def expr(self, env, depth):
        r = self.r
        if depth <= 0 or self.chance(0.25):
            return self.leaf(env)
        k = r.choice(["bin"] * 6 + ["un", "cast", "tern", "cmp", "cmp", "logic", "call", "imath", "str"])
        if k == "str" and self.chance(0.4):
            a, b = self.expr(env, depth - 1), self.expr(env, depth - 1)
            # (void) on the left: gcc 12 (the oracle's compiler) crashes on
            # (bool)((c1), (c2)) with constant operands (internal compiler error)
            return E(b.typ, "((void)({0}), ({1}))", [a, b], max(a.u, b.u))
        if k == "str" and self.chance(0.4):
            a = self.expr(env, depth - 1)
            what = r.choice(["sizeof(({0}) + 0)", "sizeof(%s)" % r.choice(INT_TYPES + FLOATS),
                             "sizeof(struct %s)" % self.nstruct_name, "_Alignof(%s)" % r.choice(INT_TYPES),
                             "sizeof(union %s)" % self.union[0]])
            return E("ulong", "((ulong)%s)" % what, [a], U_WG)
        if k == "imath" and not (AVOID_OPENCL_INIT_LIST_BUILTINS and getattr(self, "in_init_list", False)):
            return self.imath(env, depth)
        if k == "imath":
            return self.leaf(env)
        if k == "str":
            lit = self.r.choice(STRING_LITERALS)
            return E("int", "((int)%s[({0}) & 7])" % lit.replace("{", "{{").replace("}", "}}"), [self.expr(env, depth - 1)],
                     U_DIV)
        if k == "call" and self.funcs and not getattr(self, "in_func_gen", False):
            name, ret, params, _, _ = r.choice(self.funcs)
            args = [self.cast_to(p[1], self.expr(env, depth - 1)) for p in params]
            fmt = name + "(" + ", ".join("{%d}" % i for i in range(len(args))) + ")"
            return E(ret, fmt, args, U_DIV if any(a.u == U_DIV for a in args) else max([a.u for a in args] + [0]))
        if k == "un":
            a = self.expr(env, depth - 1)
            op = r.choice(["-", "~", "!", "+"])
            t = promote(a.typ)
            if op == "!":
                return E("int", "(!{0})", [a], a.u)
            if op == "-" and t in SIGNED:
                return E(t, "safe_neg_%s({0})" % t, [a], a.u)
            return E(t, "(" + op + "{0})", [a], a.u)
        if k == "cast":
            a = self.expr(env, depth - 1)
            t = r.choice(INT_TYPES + ["bool"])
            return E(t, "((%s)({0}))" % t, [a], a.u)
        if k == "tern":
            c, a, b = self.expr(env, depth - 1), self.expr(env, depth - 1), self.expr(env, depth - 1)
            return E(uac(a.typ, b.typ), "(({0}) ? ({1}) : ({2}))", [c, a, b], max(c.u, a.u, b.u))
        if k == "cmp":
            a, b = self.expr(env, depth - 1), self.expr(env, depth - 1)
            op = r.choice(["<", ">", "<=", ">=", "==", "!="])
            if AVOID_CHAINED_COMPARISONS:
                # sgcc prints (a < b) >= c as a < b >= c, which Intel's
                # OpenCL compiler rejects (tests/diff/cases/KNOWN_FAILURES):
                # a cast keeps the comparison's operands apart until fixed
                return E("int", "((int)(({0}) %s ({1})))" % op, [a, b], max(a.u, b.u))
            return E("int", "(({0}) %s ({1}))" % op, [a, b], max(a.u, b.u))
        if k == "logic":
            a, b = self.expr(env, depth - 1), self.expr(env, depth - 1)
            op = r.choice(["&&", "||"])
            return E("int", "(({0}) %s ({1}))" % op, [a, b], max(a.u, b.u))
        a, b = self.expr(env, depth - 1), self.expr(env, depth - 1)
        op = r.choice(["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"])
        u = max(a.u, b.u)
        if op in ("<<", ">>"):
            t = promote(a.typ)
            return E(t, "safe_%s_%s({0}, {1})" % ("shl" if op == "<<" else "shr", t), [a, b], u)
        t = uac(a.typ, b.typ)
        if op in ("&", "|", "^"):
            return E(t, "(({0}) %s ({1}))" % op, [a, b], u)
        name = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod"}[op]
        if t in SIGNED or op in ("/", "%"):
            return E(t, "safe_%s_%s({0}, {1})" % (name, t), [a, b], u)
        return E(t, "(({0}) %s ({1}))" % op, [a, b], u)

    def cast_to(self, t, e):
        return E(t, "((%s)({0}))" % t, [e], e.u)

    def uniform_expr(self, env, level, blk=64):
        """An expression whose value is the same across the given scope."""
        cands = [v for v in env if v.n == 0 and v.typ in INT_TYPES + ["bool"] and v.u <= level
                 and not v.mutable and (level != U_BLK or v.u < U_BLK or getattr(v, "blk", 64) >= blk)]
        parts = []
        for _ in range(self.r.randint(1, 2)):
            if cands and self.chance(0.7):
                parts.append(VarRef(self.r.choice(cands)))
            else:
                d = self.r.choice(self.spec)
                parts.append(E(d[1], d[0], (), U_WG))
        e = parts[0]
        if len(parts) > 1:
            op = self.r.choice(["+", "^", "&", "|"])
            t = uac(e.typ, parts[1].typ)
            e = E(t, ("safe_add_%s({0}, {1})" % t) if op == "+" and t in SIGNED else "(({0}) %s ({1}))" % op,
                  [e, parts[1]], max(e.u, parts[1].u))
        k = self.r.randint(1, 3)
        return E(promote(e.typ), "(({0}) %% %d)" % (k + 1) if promote(e.typ) not in SIGNED else
                 "safe_mod_%s({0}, %d)" % (promote(e.typ), k + 1), [e], e.u)

    def float_expr(self, env, ft):
        """Sum of up to three products of at most two bounded leaves: exact in ft."""
        fvars = [v for v in env if v.typ == ft and v.n == 0]
        terms = []
        for _ in range(self.r.randint(1, 3)):
            fac = []
            for k in range(self.r.randint(1, 2)):
                # at most one variable (|v| < 4096) per product, the other factor small
                if k == 0 and self.chance(0.25):
                    fac.append(self.fmath(env, ft, fvars))
                elif k == 0 and fvars and self.chance(0.5):
                    fac.append(VarRef(self.r.choice(fvars)))
                else:
                    fac.append(E(ft, "((%s)((int)(({0}) & 31) - 16))" % ft, [self.expr(env, 2)], U_DIV))
            e = fac[0] if len(fac) == 1 else E(ft, "({0} * {1})", fac, U_DIV)
            terms.append(e)
        e = terms[0]
        for t in terms[1:]:
            e = E(ft, "({0} %s {1})" % self.r.choice("+-"), [e, t], U_DIV)
        # keep variables below 4096 in magnitude: every value stays an exact integer
        return E(ft, "((%s)((long)({0}) %% 4096))" % ft, [e], U_DIV)

    # ---- statements

    def int_type(self):
        return self.r.choice(INT_TYPES + ["int", "uint", "int", "bool", "size_t"])

    def stmts(self, env, ctx, n, kernel):
        out = []
        env = list(env)
        for _ in range(n):
            st = self.stmt(env, ctx, kernel, out)
            if st is not None:
                out.append(st)
        return out

    def stmt(self, env, ctx, kernel, out):
        r = self.r
        kinds = ["decl"] * 4 + ["assign"] * 3 + ["sink"] * 3 + ["fdecl", "farr", "struct"]
        # C constructs (initialiser lists, unions, enums, compound literals)
        kinds += ["cinit", "cunion", "cenum"]
        if ctx.depth < 3:
            kinds += ["if"] * 2 + ["for"] * 2 + ["switch"]
            # sgcc refuses goto in a function that uses tangle groups
            if kernel is None or (isinstance(kernel, Kernel) and kernel.goto_ok):
                kinds += ["goto"]
        if ctx.in_loop and ctx.escape_ok:
            kinds += ["escape"]
        if isinstance(kernel, GroupFunc):
            # a device function called from any control flow: only the
            # groups that need no uniformity from its callers
            kinds += ["tangle", "tangle", "tangle"]
        elif kernel is not None:
            if self.gfuncs and self.flavour == "sg" and not kernel.goto_ok:
                kinds += ["gcall", "gcall"]
            kinds += ["gatomic"]
            if ctx.level == U_WG and not ctx.in_switch:
                kinds += ["local", "atomic", "wgcoll", "wgcoll", "sbar"]
            if self.flavour == "sg":
                if ctx.level <= U_SG:
                    kinds += ["sgop", "sgop", "ballot", "ballot"]
                if ctx.level <= U_BLK:
                    kinds += ["fixed", "fixed"]
                if not kernel.goto_ok:
                    kinds += ["tangle", "tangle", "tangle"]
                if ctx.opp_ok:
                    kinds += ["opp"]
                if ctx.level <= U_SG and ctx.depth < 3:
                    kinds += ["blkif"]
        k = r.choice(kinds)
        return getattr(self, "st_" + k)(env, ctx, kernel, out)

    def st_gcall(self, env, ctx, kernel, out):
        """cs = gfN(cs, args): a device function that makes tangle groups,
        called from wherever the kernel is (divergent flow included).  The
        oracle inlines its SIMT body under the caller's mask."""
        f = self.r.choice(self.gfuncs)
        args = [self.cast_to(p.typ, self.expr(env, 2)) for p in f.params]
        sgc = ["cs = %s(cs%s);" % (f.name, "".join(", " + a.s(None) for a in args))]

        def simt(pr, mc, f=f, args=args):
            pr.w("{ /* inlined %s */" % f.name)
            pr.ind += 1
            for p, a in zip(f.params, args):
                pr.w("%s %s[L];" % (p.typ, p.name))
                pr.w("for (int l = 0; l < L; l++) if (%s[l]) %s[l] = %s;" % (mc.cur(), p.name, a.s("l")))
            for st in f.body:
                st.simt(pr, mc)
            pr.ind -= 1
            pr.w("}")
        return Raw(self, sgc, simt)

    def st_decl(self, env, ctx, kernel, out):
        t = self.int_type()
        e = self.expr(env, self.r.randint(1, 4))
        u = max(e.u, ctx.level)
        mutable = self.chance(0.5) or u == U_DIV
        v = Var(self.cxx_name(), t, U_DIV if mutable else u, mutable)
        if v.u == U_BLK:
            v.blk = ctx.blk
        env.append(v)
        d = Decl(self, v, e)
        d.qual = "const " if not mutable and self.chance(0.2) else "volatile " if mutable and self.chance(0.05) else ""
        return d

    def st_fdecl(self, env, ctx, kernel, out):
        ft = self.r.choice(FLOATS)
        v = Var(self.fresh("f"), ft, U_DIV, True)
        st = Decl(self, v, self.float_expr(env, ft))
        env.append(v)
        return st

    def st_assign(self, env, ctx, kernel, out):
        muts = [v for v in env if v.mutable and v.n == 0 and not v.typ.startswith("struct")
                and v.typ != "ulong_cs"]
        if not muts:
            return self.st_sink(env, ctx, kernel, out)
        v = self.r.choice(muts)
        if v.typ in FLOATS:
            if self.chance(0.25):
                sfx = "f" if v.typ == "float" and self.chance(0.5) else ""
                op, lit = self.r.choice([("*=", "0.5"), ("+=", "2.0"), ("-=", "1.5"), ("*=", "2.0")])
                if op == "*=" and lit == "2.0":     # keep magnitudes bounded: x * 2 then back below 4096
                    return Assign(self, VarRef(v), E(v.typ, "((%s)((long)({0} * 2.0%s) %% 4096))" % (v.typ, sfx),
                                                     [VarRef(v)], U_DIV))
                return Assign(self, VarRef(v), E(v.typ, lit + sfx, (), U_WG), op)
            return Assign(self, VarRef(v), self.float_expr(env, v.typ))
        e = self.expr(env, self.r.randint(1, 4))
        if v.typ in ("uint", "ulong", "uchar", "ushort") and self.chance(0.4):
            return Assign(self, VarRef(v), e, self.r.choice(["+=", "-=", "*=", "^=", "|=", "&="]))
        if self.chance(0.2):
            return Assign(self, VarRef(v), e, self.r.choice(["^=", "|=", "&="]))
        return Assign(self, VarRef(v), e)

    def st_sink(self, env, ctx, kernel, out):
        fl = [v for v in env if v.typ in FLOATS and v.n == 0]
        if fl and self.chance(0.3):
            return Sink(self, VarRef(self.r.choice(fl)))
        return Sink(self, self.expr(env, self.r.randint(1, 4)))

    def st_farr(self, env, ctx, kernel, out):
        """A private array, filled by a loop, read later by leaf()."""
        t = self.r.choice(INT_TYPES)
        if self.chance(0.5):
            n, size_text = 4, "4"
        else:
            n = self.spec_value(self.arr_spec)
            size_text = self.arr_spec[0]
        v = Var(self.fresh("a"), t, U_DIV, False, n=n)
        v.size_text = size_text
        decl = ArrayDecl(self, v)
        iv = Var(self.fresh("i"), "int", U_DIV, False)
        fill = For(self, iv, E("int", size_text), [
            Assign(self, IndexRef(v, VarRef(iv)), self.expr(env + [iv], 2))])
        env.append(v)
        return Compound([decl, fill])

    def st_struct(self, env, ctx, kernel, out):
        if not self.structs:
            return self.st_decl(env, ctx, kernel, out)
        name, fields = self.r.choice(self.structs)
        v = Var(self.fresh("s"), "struct " + name, U_DIV, False)
        parts = [ArrayDecl(self, v)]
        for f, t in fields:
            if self.chance(0.7):
                target = VarRef(v, "." + f)
                target.typ = t
                if t == "float":
                    parts.append(Assign(self, target, self.float_expr(env, "float")))
                else:
                    parts.append(Assign(self, target, self.expr(env, 2)))
        env.append(v)
        return Compound(parts)

    def st_if(self, env, ctx, kernel, out):
        if self.chance(0.35):
            cond = self.uniform_expr(env, ctx.level if ctx.level < U_DIV else U_SG, ctx.blk)
        else:
            cond = self.expr(env, self.r.randint(1, 3))
        inner = ctx.inner(cond.u)
        # a uniform break/continue must stay where the control flow is as uniform
        inner.escape_ok = ctx.escape_ok and (ctx.escape_level == U_DIV or inner.level <= ctx.escape_level)
        then = self.stmts(env, inner, self.r.randint(1, 4), kernel)
        els = self.stmts(env, inner, self.r.randint(1, 3), kernel) if self.chance(0.5) else None
        return If(self, cond, then, els)

    def st_blkif(self, env, ctx, kernel, out):
        """A branch uniform per aligned block of M sub-group lanes."""
        m = self.r.choice([1, 2, 4, 8, 16, 32])
        sgl = kernel.sgl
        cond = E("int", "(((%s / %du) %% 3u) == %du)" % ("{0}", m, self.r.randint(0, 2)), [VarRef(sgl)], U_BLK)
        inner = ctx.inner(U_BLK, blk=m)
        inner.escape_ok = False
        then = self.stmts(env, inner, self.r.randint(1, 4), kernel)
        els = self.stmts(env, inner, self.r.randint(1, 3), kernel) if self.chance(0.5) else None
        return If(self, cond, then, els)

    def st_for(self, env, ctx, kernel, out):
        r = self.r
        kind = r.choice(["const", "spec", "div", "uni"])
        if kind == "const":
            bound, bu = E("int", str(r.randint(0, 4))), U_WG
        elif kind == "spec":
            d = r.choice([s for s in self.spec if s[1] in ("int", "short")] or [self.arr_spec])
            bound, bu = E("int", "(%s & 3)" % d[0]), U_WG
        elif kind == "uni":
            e = self.uniform_expr(env, ctx.level if ctx.level < U_DIV else U_SG, ctx.blk)
            bound, bu = E("int", "((int)({0}))", [e]), e.u
        else:
            e = self.expr(env, 2)
            bound, bu = E("int", "((int)(({0}) & 3))", [e]), U_DIV
        escape = r.choice([None, None, "uni", "div"])
        level = max(ctx.level, bu, U_DIV if escape == "div" else U_WG)
        inner = ctx.inner(level, in_loop=True)
        inner.escape_ok = escape is not None
        inner.escape_level = U_DIV if escape == "div" else U_WG
        if escape == "uni":
            inner.escape_level = inner.level
        iv = Var(self.fresh("i"), "int", max(bu, ctx.level), False)
        inner.in_switch = False
        body = self.stmts(env + [iv], inner, r.randint(1, 5), kernel)
        kind = r.choice(["for", "for", "while", "do"])
        if kind == "do" and bu == U_DIV and self.flavour == "wg" and AVOID_POCL_DIVERGENT_DO_WHILE:
            kind = "while"
        return For(self, iv, bound, body, kind)

    def st_escape(self, env, ctx, kernel, out):
        if ctx.escape_level == U_DIV:
            cond = self.expr(env, 2)
        else:
            cond = self.uniform_expr(env, ctx.level if ctx.level < U_DIV else U_SG, ctx.blk)
        for g in getattr(kernel, "groups", []):
            if g.home is out:
                g.alive = False
        return Escape(self, cond, self.r.choice(["break", "continue"]))

    def st_switch(self, env, ctx, kernel, out):
        r = self.r
        ctl = self.expr(env, 2)
        ctl = E("int", "((int)(({0}) & 7))", [ctl], ctl.u)
        values = list(range(8))
        r.shuffle(values)
        arms = []
        used = set()
        spec_ints = [s for s in self.spec if s[1] in ("int", "short", "long", "uint", "ulong")]
        inner = ctx.inner(ctl.u, in_switch=True)
        inner.escape_ok = False
        prev_brk = True
        for _ in range(r.randint(1, 4)):
            labels = []
            for _ in range(r.randint(1, 2)):
                if spec_ints and self.chance(0.3):
                    d = r.choice(spec_ints)
                    val = self.spec_value(d)
                    text = d[0]
                else:
                    val = values.pop()
                    text = str(val)
                if val in used:
                    continue
                used.add(val)
                labels.append((text, val))
            if not labels:
                continue
            brk = self.chance(0.75)
            # a group used in an arm that another arm falls into would have
            # members from two control flows: keep groups out of such arms
            arm_ctx = inner if prev_brk else ctx.inner(U_DIV, in_switch=True)
            arm_ctx.escape_ok = False
            body = self.stmts(env, arm_ctx, r.randint(0, 3), kernel)
            arms.append((labels, body, brk))
            prev_brk = brk
        if self.chance(0.6):
            arm_ctx = inner if prev_brk else ctx.inner(U_DIV, in_switch=True)
            arm_ctx.escape_ok = False
            arms.append((None, self.stmts(env, arm_ctx, r.randint(0, 2), kernel), True))
        return Switch(self, ctl, arms)

    # ---- work-group level (context uniform across the work-group)

    def st_local(self, env, ctx, kernel, out):
        t = self.r.choice(INT_TYPES)
        arr = kernel.local_array(t, self)
        e = self.expr(env, 3)
        v = Var(self.fresh(), t, U_DIV, True)
        k = self.r.randint(1, 5)
        idx = self.r.choice(["(lid + %du) %% L_SIZE" % k, "L_SIZE - 1u - lid", "(lid ^ %du) %% L_SIZE" % k])
        ex = e.s(None)
        sgc = ["%s[lid] = (%s)(%s);" % (arr, t, ex),
               "mem_fence(CLK_LOCAL_MEM_FENCE);" if self.chance(0.3) else "barrier(CLK_LOCAL_MEM_FENCE);",
               "barrier(CLK_LOCAL_MEM_FENCE);",
               "%s %s = %s[%s];" % (t, v.name, arr, idx), "barrier(CLK_LOCAL_MEM_FENCE);"]
        idx_host = idx.replace("lid", "lid[l]")

        def simt(pr, mc, e=e, v=v, arr=arr, t=t, idx_host=idx_host):
            m = mc.cur()   # uniform across the work-group: all lanes or none
            pr.w("for (int l = 0; l < L; l++) if (%s[l]) %s[lid[l]] = (%s)(%s);" % (m, arr, t, e.s("l")))
            pr.w("%s %s[L];" % (t, v.name))
            pr.w("for (int l = 0; l < L; l++) if (%s[l]) %s[l] = %s[%s];" % (m, v.name, arr, idx_host))
        st = Raw(self, sgc, simt)
        st.droppable = False     # declares a variable later statements read
        st.decl_var = v
        # when dropped, it still declares the variable
        env.append(v)
        return DroppableDecl(self, st, v)

    def st_atomic(self, env, ctx, kernel, out):
        t = self.r.choice(["int", "uint", "long", "ulong"])
        acc = kernel.local_array(t, self, atomic=True)
        mask = "0xffff" if BITS[t] == 32 else "0xffffffffffl"
        op = self.r.choice(["add", "sub", "min", "max", "and", "or", "xor"])
        init = self.r.choice([0, 1, 0x7fff, 12345])
        val = self.expr(env, 2)
        cond = self.expr(env, 2) if self.chance(0.5) else E("int", "1")
        hostop = {"add": "a + b", "sub": "a - b", "min": "a < b ? a : b", "max": "a > b ? a : b",
                  "and": "a & b", "or": "a | b", "xor": "a ^ b"}[op]
        sgc = ["if (lid == 0u) %s[0] = %d;" % (acc, init), "barrier(CLK_LOCAL_MEM_FENCE);",
               "if (%s) atomic_fetch_%s(&%s[0], (%s)((%s) & %s));" % (cond.s(None), op, acc, t, val.s(None), mask),
               "barrier(CLK_LOCAL_MEM_FENCE);",
               "cs = mix(cs, (ulong)%s[0]);" % acc, "barrier(CLK_LOCAL_MEM_FENCE);"]
        cx = self.r.randint(0, 3)
        if self.chance(0.5):
            exp = self.r.choice([init, 5])
            sgc += ["if (lid == %du) cs = mix(cs, (ulong)atomic_compare_exchange(&%s[0], %d, 77));" % (cx, acc, exp),
                    "barrier(CLK_LOCAL_MEM_FENCE);", "cs = mix(cs, (ulong)%s[0]);" % acc,
                    "barrier(CLK_LOCAL_MEM_FENCE);"]
        else:
            exp = None

        def simt(pr, mc):
            m = mc.cur()   # uniform across the work-group: all lanes or none
            pr.w("{ %s acc = %d;" % (t, init))
            pr.w("  for (int l = 0; l < L; l++) if (" + m + "[l] && (%s)) { %s a = acc, b = (%s)((%s) & %s); acc = (%s)(%s); }"
                 % (cond.s("l"), "u" + t if t in SIGNED else t, t, val.s("l"), mask, t, hostop.replace("a", "(" + t + ")a").replace("b", "(" + t + ")b") if op in ("min", "max") else hostop))
            pr.w("  for (int l = 0; l < L; l++) if (%s[l]) cs[l] = mix(cs[l], (ulong)acc);" % m)
            if exp is not None:
                pr.w("  if (%d < L && %s[%d]) { cs[%d] = mix(cs[%d], (ulong)acc); if (acc == %d) acc = 77; }" % (cx, m, cx, cx, cx, exp))
                pr.w("  for (int l = 0; l < L; l++) if (%s[l]) cs[l] = mix(cs[l], (ulong)acc);" % m)
            pr.w("}")
        return Raw(self, sgc, simt)

    def st_wgcoll(self, env, ctx, kernel, out):
        g = kernel.wg
        return self.group_op(env, g, kernel, ctx)

    # ---- sub-group level

    def st_sgop(self, env, ctx, kernel, out):
        return self.group_op(env, kernel.sg, kernel, ctx)

    def st_ballot(self, env, ctx, kernel, out):
        name = self.fresh("b")
        pred = self.expr(env, 2)

        def simt(pr, mc, name=name, pred=pred):
            pr.w("HG %s[L]; { int pv[L]; for (int l = 0; l < L; l++) pv[l] = %s[l] ? (%s) != 0 : 0;"
                 % (name, mc.cur(), pred.s("l")))
            pr.w("  hg_ballot(%s, sgG, %s, L, pv); }" % (name, mc.cur()))
        creator = Raw(self, ["ballot_group %s = get_ballot_group(sg, (%s) != 0);" % (name, pred.s(None))], simt)
        g = Group(name, "ballot", creator.sid)
        parts = [creator]
        for _ in range(self.r.randint(1, 3)):
            parts.append(self.group_op(env, g, kernel, ctx, deps=(creator.sid,)))
        if self.chance(0.6):
            # each partition in its own control flow
            then = [self.group_op(env, g, kernel, ctx, deps=(creator.sid,)) for _ in range(self.r.randint(1, 2))]
            els = [self.group_op(env, g, kernel, ctx, deps=(creator.sid,)) for _ in range(self.r.randint(0, 2))]
            cond = E("int", "(%s.get_group_linear_id() == 0u)" % name, (), U_DIV)
            cond.s = lambda lane, name=name: ("(%s.get_group_linear_id() == 0u)" % name) if lane is None else \
                "(%s[%s].id == 0u)" % (name, lane)
            parts.append(GuardedIf(self, cond, then, els or None, creator.sid))
        return Compound(parts)

    def st_fixed(self, env, ctx, kernel, out):
        ns = [n for n in (1, 2, 4, 8, 16, 32) if ctx.level <= U_SG or n <= ctx.blk]
        n = self.r.choice(ns)
        name = self.fresh("fx")
        if self.chance(0.3):
            ntext = kernel.fixed_spec(n, self)
        else:
            ntext = str(n)
        creator = Raw(self, ["fixed_size_group<%s> %s = get_fixed_size_group<%s>(sg);" % (ntext, name, ntext)],
                      lambda pr, mc, name=name, n=n: pr.w("HG %s[L]; hg_fixed(%s, sgG, %s, L, %d);" % (name, name, mc.cur(), n)))
        g = Group(name, "fixed", creator.sid, n)
        parts = [creator]
        for _ in range(self.r.randint(1, 3)):
            parts.append(self.group_op(env, g, kernel, ctx, deps=(creator.sid,)))
        return Compound(parts)

    def st_tangle(self, env, ctx, kernel, out):
        name = self.fresh("tg")
        creator = Raw(self, ["tangle_group %s = get_tangle_group(sg);" % name],
                      lambda pr, mc, name=name: pr.w("HG %s[L]; hg_tangle(%s, sgG, %s, L);" % (name, name, mc.cur())))
        g = Group(name, "tangle", creator.sid)
        parts = [creator]
        for _ in range(self.r.randint(1, 3)):
            parts.append(self.group_op(env, g, kernel, ctx, deps=(creator.sid,)))
        return Compound(parts)

    def st_opp(self, env, ctx, kernel, out):
        name = self.fresh("op")
        slot = kernel.new_slot()
        creator = Raw(self, ["opportunistic_group %s = get_opportunistic_group();" % name,
                             "out[gid * NOUT + %du] = reduce_over_group(%s, (ulong)1 << sgl, bit_or);" % (slot, name)],
                      lambda pr, mc, name=name, slot=slot: pr.w(
                          "HG %s[L]; hg_opportunistic(%s, sgG, %s, L, dev, wgi, %d, NOUT);" % (name, name, mc.cur(), slot)))
        g = Group(name, "opp", creator.sid)
        parts = [creator]
        for _ in range(self.r.randint(1, 2)):
            parts.append(self.group_op(env, g, kernel, ctx, deps=(creator.sid,)))
        return Compound(parts)

    # ---- C constructs: initialiser lists, unions, enums, compound literals, goto

    def lane_stmt(self, lines):
        """Raw statement from E lines run per active lane (host) and as is (SGC)."""
        def simt(pr, mc, lines=lines):
            for e in lines:
                pr.w("for (int l = 0; l < L; l++) if (%s[l]) { %s; }" % (mc.cur(), e.s("l")))
        return simt

    def small(self, env, t, depth=2):
        """An expression converted to t (any value of t), for initialisers."""
        self.in_init_list = True
        e = self.cast_to(t, self.expr(env, depth))
        self.in_init_list = False
        return e

    def init_list(self, env, fields, designated, subs=None):
        """A brace initialiser for fields [(name, type | ('struct', fields) |
        (type, n))], designated or positional (then a prefix of the fields):
        returns (format for E, subs); unnamed members are zero in both."""
        subs = [] if subs is None else subs
        if designated:
            chosen = [f for f in fields if self.chance(0.7)]
            self.r.shuffle(chosen)
        else:
            chosen = fields[:self.r.randint(1, len(fields))]
        parts = []
        for name, ft in chosen:
            if isinstance(ft, tuple) and ft[0] == "struct":
                fmt = self.init_list(env, ft[1], self.chance(0.5), subs)[0]
            elif isinstance(ft, tuple):
                fmt = self.array_init(env, ft[0], ft[1], subs)
            else:
                subs.append(self.small(env, ft))
                fmt = "{%d}" % (len(subs) - 1)
            parts.append((".%s = " % name if designated else "") + fmt)
        if not parts:
            return "{{ 0 }}", subs
        return "{{ " + ", ".join(parts) + " }}", subs

    def array_init(self, env, et, n, subs):
        """{ a, b } (maybe shorter than n) or { [k] = a, b } for T[n]."""
        k = 0 if self.chance(0.5) else self.r.randint(0, n - 1)
        ph = []
        for _ in range(self.r.randint(1, n - k)):
            subs.append(self.small(env, et, 1))
            ph.append("{%d}" % (len(subs) - 1))
        return "{{ " + ("[%d] = " % k if k else "") + ", ".join(ph) + " }}"

    def nested_fields(self):
        name, fields = self.nstruct
        return fields

    def st_cinit(self, env, ctx, kernel, out):
        """A nested struct or an array declared with a designated or
        positional initialiser list, some of its members sunk."""
        cs = self.cs.name
        v = self.fresh("ni")
        if self.chance(0.7):
            fmt, subs = self.init_list(env, self.nstruct_fields, self.chance(0.6))
            ctype, hdecl = "struct %s" % self.nstruct_name, "struct %s %s[L];" % (self.nstruct_name, v)
            sgc_decl = "struct %s %s = %s;" % (self.nstruct_name, v, E("", fmt, subs).s(None))
            host_init = "%s[l] = (struct %s)@" % (v, self.nstruct_name)
            leaves = self.struct_leaves(self.nstruct_fields, "")
        elif self.chance(0.3):
            lit = self.r.choice(STRING_LITERALS)
            et = self.r.choice(["char", "uchar"])
            sgc_decl = "%s %s[9] = %s;" % (et, v, lit)
            hdecl = "%s %s[L][9];" % (et, v)
            host_init = "memcpy(%s[l], %s, sizeof %s[l])" % (v, lit, v)
            fmt, subs = "", []
            leaves = ["[%d]" % i for i in range(9)]
        else:
            et = self.r.choice(INT_TYPES)
            n = self.r.randint(2, 6)
            subs = []
            fmt = self.array_init(env, et, n, subs)
            sgc_decl = "%s %s[%d] = %s;" % (et, v, n, E("", fmt, subs).s(None))
            hdecl = "%s %s[L][%d];" % (et, v, n)
            host_init = "memcpy(%s[l], (%s[%d])@, sizeof %s[l])" % (v, et, n, v)
            leaves = ["[%d]" % i for i in range(n)]
        picks = self.r.sample(leaves, min(len(leaves), self.r.randint(1, 3)))
        sgc = [sgc_decl] + ["%s = mix(%s, (ulong)%s%s);" % (cs, cs, v, p) for p in picks]

        def simt(pr, mc, fmt=fmt, subs=subs):
            pr.w(hdecl)
            init = E("", fmt, subs).s("l")
            pr.w("for (int l = 0; l < L; l++) if (%s[l]) { %s; }" % (mc.cur(), host_init.replace("@", init)))
            for p in picks:
                pr.w("for (int l = 0; l < L; l++) if (%s[l]) %s[l] = mix(%s[l], (ulong)%s[l]%s);"
                     % (mc.cur(), cs, cs, v, p))
        return Raw(self, sgc, simt)

    def struct_leaves(self, fields, prefix):
        out = []
        for name, ft in fields:
            if isinstance(ft, tuple) and ft[0] == "struct":
                out += self.struct_leaves(ft[1], prefix + "." + name)
            elif isinstance(ft, tuple):
                out += ["%s.%s[%d]" % (prefix, name, i) for i in range(ft[1])]
            else:
                out.append("%s.%s" % (prefix, name))
        return out

    def st_cunion(self, env, ctx, kernel, out):
        """A union written and read through the member written last (no
        type punning), and a compound literal of the nested struct or the union."""
        cs = self.cs.name
        uname, ufields = self.union
        v = self.fresh("un")
        f1, t1 = self.r.choice(ufields)
        f2, t2 = self.r.choice(ufields)
        e1, e2 = self.small(env, t1), self.small(env, t2)
        first = ufields[0]
        lines_sgc, lines = [], []
        if self.chance(0.5):
            init = E("", "{{ .%s = {0} }}" % f1, [e1])
        else:
            f1, t1 = first
            e1 = self.small(env, t1)
            init = E("", "{{ {0} }}", [e1])
        lines.append(E("", "%s = mix(%s, (ulong)%s.%s)" % ("{0}", "{0}", "{1}", f1),
                       [VarRef(self.cs), VarRef(Var(v, "union", U_DIV, True))]))
        if self.chance(0.6):
            lines.append(E("", "{0}.%s = {1}" % f2, [VarRef(Var(v, "union", U_DIV, True)), e2]))
            lines.append(E("", "{0} = mix({0}, (ulong){1}.%s)" % f2,
                           [VarRef(self.cs), VarRef(Var(v, "union", U_DIV, True))]))
        # a compound literal, a member read at once
        if self.chance(0.5):
            fmt, subs = self.init_list(env, self.nstruct_fields, True)
            leaf = self.r.choice(self.struct_leaves(self.nstruct_fields, ""))
            lines.append(E("", "{%d} = mix({%d}, (ulong)((struct %s)%s)%s)" % (len(subs), len(subs), self.nstruct_name,
                                                                             fmt, leaf), subs + [VarRef(self.cs)]))
        else:
            f3, t3 = self.r.choice(ufields)
            lines.append(E("", "{0} = mix({0}, (ulong)((union %s){{ .%s = {1} }}).%s)" % (uname, f3, f3),
                           [VarRef(self.cs), self.small(env, t3)]))
        sgc = ["union %s %s = %s;" % (uname, v, init.s(None))] + [e.s(None) + ";" for e in lines]
        per_lane = self.lane_stmt(lines)

        def simt(pr, mc):
            pr.w("union %s %s[L];" % (uname, v))
            pr.w("for (int l = 0; l < L; l++) if (%s[l]) %s[l] = (union %s)%s;" % (mc.cur(), v, uname, init.s("l")))
            per_lane(pr, mc)
        return Raw(self, sgc, simt)

    def st_cenum(self, env, ctx, kernel, out):
        """An enum variable: initialised from an enumerator or an int,
        assigned ints (C allows it), in arithmetic; later read as its
        underlying type (unsigned int without negative enumerators, as gcc)."""
        name, items, under = self.r.choice(self.enums)
        v = Var(self.fresh("ev"), under, U_DIV, False)
        v.enum = True
        ref = VarRef(v)
        lines = []
        if self.chance(0.5):
            init = E("", self.r.choice(items)[0])
        else:
            init = E("", "(({0}) & 7)", [self.expr(env, 2)])
        if self.chance(0.6):
            lines.append(E("", "{0} = ({1}) & 7", [ref, self.expr(env, 2)]))
        if self.chance(0.4):
            lines.append(E("", "{0} %s %d" % (self.r.choice(["+=", "-=", "|=", "^="]), self.r.randint(0, 3)), [ref]))
        if self.chance(0.3):
            lines.append(E("", "{0}++", [ref]))
        k = self.r.choice(items)[0]
        lines.append(E("", "{1} = mix({1}, (ulong)({0} * 3 + %s))" % k, [ref, VarRef(self.cs)]))
        lines.append(E("", "{1} = mix({1}, (ulong)({0} == %s))" % self.r.choice(items)[0], [ref, VarRef(self.cs)]))
        sgc = ["enum %s %s = %s;" % (name, v.name, init.s(None))] + [e.s(None) + ";" for e in lines]
        per_lane = self.lane_stmt(lines)

        def simt(pr, mc):
            pr.w("enum %s %s[L];" % (name, v.name))
            pr.w("for (int l = 0; l < L; l++) if (%s[l]) %s[l] = %s;" % (mc.cur(), v.name, init.s("l")))
            per_lane(pr, mc)
        st = Raw(self, sgc, simt)
        st.droppable = False
        env.append(v)
        return DroppableDecl(self, st, v)

    def st_goto(self, env, ctx, kernel, out):
        """if (c) goto L; T x = e; ... L: — a forward jump over initialised
        declarations (C allows it; CUDA C++ needs them split)."""
        cond = self.expr(env, 2)
        label = self.fresh("skip")
        inner = ctx.inner(U_DIV)
        inner.escape_ok = False
        x = Var(self.fresh("gx"), self.int_type(), U_DIV, True)
        decl = Decl(self, x, self.expr(env, 2))
        body = [decl] + self.stmts(env + [x], inner, self.r.randint(1, 3), None)
        body.append(Sink(self, VarRef(x)))
        return GotoSkip(self, cond, body, label)

    # ---- math built-ins (exact: the oracle compares bit patterns)

    def imath(self, env, depth):
        r = self.r
        k = r.choice(["min", "max", "clamp", "abs"])
        saved, self.in_imath = getattr(self, "in_imath", False), True
        try:
            return self.imath_call(env, depth, k)
        finally:
            self.in_imath = saved

    def imath_call(self, env, depth, k):
        r = self.r
        a = self.expr(env, depth - 1)
        if k == "abs":
            t, fmt = ("long", "abs((long)(({0}) & 0xffffffffffl) - 549755813888l)") \
                if promote(a.typ) in ("long", "ulong") else ("int", "abs((int)(({0}) & 0xffff) - 32768)")
            if AVOID_OPENCL_ABS_UNSIGNED:
                fmt = "((%s)%s)" % (t, fmt)
            return E(t, fmt, [a], a.u)
        if k == "clamp":
            a = host_int_arg(a)
            t = promote(a.typ)
            lo = r.randint(0, 50)
            hi = lo + r.randint(0, 1000)
            fmt = "clamp({0}, (%s)%d, (%s)%d)" if not (AVOID_CUDA_SIZE_T_MINMAX and t == "ulong") \
                else "clamp((ulong)({0}), (%s)%d, (%s)%d)"
            return E(t, fmt % (t, lo, t, hi), [a], a.u)
        b = self.expr(env, depth - 1)
        a, b = host_int_arg(a), host_int_arg(b)
        t = uac(a.typ, b.typ)
        fmt = "%s((ulong)({0}), (ulong)({1}))" if AVOID_CUDA_SIZE_T_MINMAX and t == "ulong" else "%s({0}, {1})"
        return E(t, fmt % k, [a, b], max(a.u, b.u))

    def fmath(self, env, ft, fvars):
        """A float factor of magnitude <= 4096 through a math built-in."""
        r = self.r
        sfx = "f" if ft == "float" else ""

        def base():
            if fvars and self.chance(0.6):
                return VarRef(r.choice(fvars))
            return E(ft, "((%s)((int)(({0}) & 4095) - 2048))" % ft, [self.expr(env, 2)], U_DIV)
        k = r.choice(["fabs", "floor", "ceil", "fmin", "fmax", "fma", "mad", "sqrt"])
        if k == "sqrt" and ft == "double":
            return E(ft, "sqrt({0} * {0})", [base()], U_DIV)
        if k in ("floor", "ceil"):
            return E(ft, "%s({0} * %s)" % (k, r.choice(["0.5", "0.25", "0.125"]) + sfx), [base()], U_DIV)
        if k in ("fmin", "fmax"):
            return E(ft, "%s({0}, {1})" % k, [base(), base()], U_DIV)
        if k in ("fma", "mad"):
            return E(ft, "%s({0}, (%s)0.5, (%s)%d)" % (k, ft, ft, r.randint(-8, 8)), [base()], U_DIV)
        return E(ft, "fabs({0})", [base()], U_DIV)

    # ---- 64-bit atomics on global memory, split barriers, joint scans

    def st_gatomic(self, env, ctx, kernel, out):
        """atomic_fetch_OP on a 64-bit word of out[] that each work-group owns:
        from anywhere (divergent flow, loops); the total does not depend on
        the order.  Or atomic_exchange by one work-item."""
        t = self.r.choice(["long", "ulong"])
        slot = kernel.new_slot()
        kernel.gslots.append(slot)
        word = "out[(gid - lid) * NOUT + %du]" % slot
        hword = "out[(size_t)(wgi * L) * NOUT + %d]" % slot
        val = self.expr(env, 2)
        if self.chance(0.25):
            cx = self.r.randint(0, 3)
            sgc = ["if (lid == %du) %s = mix(%s, (ulong)atomic_exchange((global %s *)&%s, (%s)(%s)));"
                   % (cx, self.cs.name, self.cs.name, t, word, t, val.s(None))]

            def simt(pr, mc):
                pr.w("if (%d < L && %s[%d]) { int l = %d; %s old = (%s)%s; %s = (ulong)(%s)(%s); cs[l] = mix(cs[l], (ulong)old); }"
                     % (cx, mc.cur(), cx, cx, t, t, hword, hword, t, val.s("l")))
            return Raw(self, sgc, simt)
        op = self.r.choice(["add", "sub", "min", "max", "or", "xor"])
        cond = self.expr(env, 2) if self.chance(0.5) else E("int", "1")
        sgc = ["if (%s) atomic_fetch_%s((global %s *)&%s, (%s)(%s));" % (cond.s(None), op, t, word, t, val.s(None))]
        hostop = {"add": "(ulong)a + (ulong)b", "sub": "(ulong)a - (ulong)b", "min": "a < b ? a : b",
                  "max": "a > b ? a : b", "or": "a | b", "xor": "a ^ b"}[op]

        def simt(pr, mc):
            pr.w("for (int l = 0; l < L; l++) if (%s[l] && (%s)) { %s a = (%s)%s, b = (%s)(%s); %s = (ulong)(%s)(%s); }"
                 % (mc.cur(), cond.s("l"), t, t, hword, t, val.s("l"), hword, t, hostop))
        return Raw(self, sgc, simt)

    def st_sbar(self, env, ctx, kernel, out):
        """A split barrier through its phases: initialize, arrive / wait with
        independent work between, test_wait after the wait, arrive_and_wait,
        a token of the previous phase (does not block), async_work_group_copy
        tracked by arrive_copy_async; invalidate at the end.  The oracle's
        model: each completed phase is a work-group barrier."""
        r = self.r
        cs = self.cs.name
        b = "sb%d" % len(kernel.barriers)
        kernel.barriers.append(b)
        t = r.choice(INT_TYPES)
        arr = kernel.local_array(t, self)
        e, e2 = self.expr(env, 3), self.expr(env, 2)
        v = Var(self.fresh(), t, U_DIV, True)
        k = r.randint(1, 5)
        idx = r.choice(["(lid + %du) %% L_SIZE" % k, "L_SIZE - 1u - lid", "(lid ^ %du) %% L_SIZE" % k])
        tk = self.fresh("tk")
        copy = r.random() < 0.3
        if copy and self.flavour == "wg" and AVOID_POCL_TWO_COPIES and any(x.endswith("c") for x in kernel.barriers):
            copy = False
        counted = r.random() < 0.5
        sgc = ["if (lid == 0u) %s.initialize(L_SIZE);" % b]
        if copy:
            # a barrier of its own: without the increment the copy's arrival
            # counts, so each phase needs two per work-item (as samples/barriers/copy_overlap.sgc)
            bc = b + "c"
            kernel.barriers.append(bc)
            lc = kernel.local_array("int", self, atomic="copy")
            sgc += ["if (lid == 0u) %s.initialize(%s);" % (bc, "L_SIZE" if counted else "2u * L_SIZE"),
                    "barrier(CLK_LOCAL_MEM_FENCE);",
                    "async_work_group_copy(%s, in + (gid - lid), L_SIZE);" % lc,
                    "%s.arrive_copy_async%s();" % (bc, "" if counted else "_no_inc"),
                    "%s = mix(%s, (ulong)(%s));" % (cs, cs, e2.s(None)),
                    "%s.arrive_and_wait();" % bc,
                    "%s = mix(%s, (ulong)%s[%s]);" % (cs, cs, lc, idx)]
        else:
            sgc += ["barrier(CLK_LOCAL_MEM_FENCE);"]
        sgc += ["%s[lid] = (%s)(%s);" % (arr, t, e.s(None)),
                "arrival_token %s = %s.arrive();" % (tk, b),
                "%s = mix(%s, (ulong)(%s));" % (cs, cs, e2.s(None)),
                "%s.wait(%s);" % (b, tk),
                "%s %s = %s[%s];" % (t, v.name, arr, idx),
                "%s = mix(%s, (ulong)%s.test_wait(%s));" % (cs, cs, b, tk),
                "%s.arrive_and_wait();" % b]
        if r.random() < 0.5:
            # SPEC: a token of the *previous* phase does not block; one of
            # two phases back is not covered (on the GPU's mbarrier it has
            # the current phase's parity and waits for ever), so the
            # first round ends with an arrive + wait whose token is then
            # the previous phase's
            sgc[-1] = "arrival_token %sb = %s.arrive(); %s.wait(%sb);" % (tk, b, b, tk)
            sgc += ["%s.wait(%sb);   /* a token of the previous phase: does not block */" % (b, tk),
                    "%s[lid] = (%s)(%s ^ 1);" % (arr, t, v.name),
                    "%s.arrive_and_wait();" % b,
                    "%s = mix(%s, (ulong)%s[%s]);" % (cs, cs, arr, idx),
                    "%s.arrive_and_wait();" % b]
            second = True
        else:
            second = False
        sgc += ["barrier(CLK_LOCAL_MEM_FENCE);", "if (lid == 0u) %s.invalidate();" % b]
        if copy:
            sgc[-1] = "if (lid == 0u) { %s.invalidate(); %s.invalidate(); }" % (b, b + "c")
        idx_host = idx.replace("lid", "lid[l]")

        def simt(pr, mc):
            m = mc.cur()   # uniform across the work-group: all lanes or none
            if copy:
                pr.w("for (int l = 0; l < L; l++) if (%s[l]) cs[l] = mix(cs[l], (ulong)(%s));" % (m, e2.s("l")))
                pr.w("for (int l = 0; l < L; l++) if (%s[l]) cs[l] = mix(cs[l], (ulong)in[wgi * L + (%s)]);"
                     % (m, idx_host))
            pr.w("for (int l = 0; l < L; l++) if (%s[l]) %s[lid[l]] = (%s)(%s);" % (m, arr, t, e.s("l")))
            pr.w("for (int l = 0; l < L; l++) if (%s[l]) cs[l] = mix(cs[l], (ulong)(%s));" % (m, e2.s("l")))
            pr.w("%s %s[L];" % (t, v.name))
            pr.w("for (int l = 0; l < L; l++) if (%s[l]) { %s[l] = %s[%s]; cs[l] = mix(cs[l], 1ul); }"
                 % (m, v.name, arr, idx_host))
            if second:
                pr.w("for (int l = 0; l < L; l++) if (%s[l]) %s[lid[l]] = (%s)(%s[l] ^ 1);" % (m, arr, t, v.name))
                pr.w("for (int l = 0; l < L; l++) if (%s[l]) cs[l] = mix(cs[l], (ulong)%s[%s]);" % (m, arr, idx_host))
        st = Raw(self, sgc, simt)
        st.droppable = False
        env.append(v)
        return DroppableDecl(self, st, v)

    def joint_scan(self, g, kernel, deps):
        """joint_exclusive_scan / joint_inclusive_scan of a table into local
        memory (a region per sub-group), read back by every member."""
        r = self.r
        t = r.choice(ALGO_TYPES)
        op = r.choice([o for o in OPS if t not in FLOATS or not o.startswith("bit_")])
        width = "s" if op == "multiplies" else "w"
        n = r.randint(2, 8)
        a = r.randint(0, 16 - n)
        bnd = a + n
        tab, htab = self.joint_range(kernel, t, width, a, bnd)
        if tab == "in" and op in ("plus", "multiplies"):
            op = r.choice(["minimum", "maximum", "bit_xor", "logical_or"])
        form = r.choice(["exclusive", "inclusive"])
        init = None
        if r.random() < 0.4:
            init = r.choice([1, 2] if op == "multiplies" else [0, 1] if op.startswith("logical") else [0, 1, 7, 100])
        if g.kind == "wg":
            res = kernel.local_array(t, self, atomic="jw")
            rank, hrank = "lid", "l"
        else:
            res = "(%s + sgid * 8u)" % kernel.local_array(t, self, atomic="js")
            rank, hrank = "sgl", "sgl[l]"
        rv = self.fresh("r")
        call = "joint_%s_scan(%s, %s + %d, %s + %d, %s, %s%s);" % (
            form, g.name, tab, a, tab, bnd, res, op, "" if init is None else ", (%s)%d" % (t, init))
        sink = "f2u" if t in FLOATS else "(ulong)"
        sgc = ["group_barrier(%s);" % g.name, call, "group_barrier(%s);" % g.name,
               "%s %s = %s[%s %% %du];" % (t, rv, res, rank, n),
               "cs = mix(cs, %s(%s));" % (sink, rv),
               "cs = mix(cs, %s(%s[%d]));" % (sink, res, n - 1),
               "group_barrier(%s);" % g.name]
        ident = "(%s)%d" % (t, init) if init is not None else host_identity(t, op)

        def simt(pr, mc):
            G = self.hg(g)
            pr.w("{ %s hs[16], a = %s;" % (t, ident))
            if op in ("logical_and", "logical_or") and init is not None:
                pr.w("  a = (%s)(a != 0);" % t)
            step = "hs[j - %d] = a; a = %s;" % (a, host_op(t, op)) if form == "exclusive" else \
                "a = %s; hs[j - %d] = a;" % (host_op(t, op), a)
            pr.w("  for (int j = %d; j < %d; j++) { %s b = %s[j]; %s }" % (a, bnd, t, htab, step))
            pr.w("  for (int l = 0; l < L; l++) if (%s[l]) { hg_check(&%s[l], %s, L); cs[l] = mix(cs[l], %s(hs[%s %% %d]));"
                 " cs[l] = mix(cs[l], %s(hs[%d])); } }" % (mc.cur(), G, mc.cur(), sink, hrank, n, sink, n - 1))
        return Raw(self, sgc, simt, deps)

    # ---- group operations: SGC text + host model

    def bounded_input(self, env, t, op):
        e = self.expr(env, 2)
        if t in FLOATS:
            if op == "multiplies":
                return "((%s)(((%s) & 1) + 1))" % (t, "{0}"), e
            if op in ("logical_and", "logical_or"):
                return "((%s)((%s) & 1))" % (t, "{0}"), e
            return "((%s)((int)((%s) & 1023) - 512))" % (t, "{0}"), e
        if op == "multiplies":
            return ("((%s)((({0}) & 1) ? -1 : 1))" % t if t in SIGNED else "((%s)({0}))" % t), e
        if op in ("plus",):
            return ("((%s)((int)(({0}) & 1023) - 512))" % t if t in SIGNED else "((%s)({0}))" % t), e
        if op in ("logical_and", "logical_or"):
            return "((%s)(({0}) & 3))" % t, e
        return "((%s)({0}))" % t, e

    def group_op(self, env, g, kernel, ctx, deps=()):
        r = self.r
        kind = r.choice(["member", "bcast", "bcast_id", "vote", "shift", "xor", "select",
                         "reduce", "reduce", "scan", "scan", "barrier", "joint", "joint"])
        res = self.fresh("r")
        gname = g.name
        if kind == "member":
            m = r.choice(["get_group_linear_id", "get_group_linear_range", "get_local_linear_id",
                          "get_local_linear_range", "leader"])
            if g.kind == "wg" and m in ("get_group_linear_id", "get_group_linear_range"):
                m = "get_local_linear_range"
            sgc = ["cs = mix(cs, (ulong)%s.%s());" % (gname, m)]
            field = {"get_group_linear_id": "G.id", "get_group_linear_range": "G.range",
                     "get_local_linear_id": "(uint)hg_rank(&G, l)", "get_local_linear_range": "(uint)hg_count(&G)",
                     "leader": "(hg_rank(&G, l) == 0)"}[m]
            return Raw(self, sgc, lambda pr, mc: pr.w(
                "for (int l = 0; l < L; l++) if (%s[l]) { HG G = %s[l]; cs[l] = mix(cs[l], (ulong)%s); }"
                % (mc.cur(), self.hg(g), field)), deps)
        if kind == "barrier":
            return Raw(self, ["group_barrier(%s);" % gname], lambda pr, mc: None, deps)
        if kind == "vote":
            fn = r.choice(["any_of_group", "all_of_group", "none_of_group"])
            p = self.expr(env, 2)
            sgc = ["cs = mix(cs, (ulong)%s(%s, (%s) != 0));" % (fn, gname, p.s(None))]
            return Raw(self, sgc, lambda pr, mc: self.host_vote(pr, mc, g, fn, p), deps)
        if kind in ("bcast", "bcast_id", "shift", "xor", "select"):
            t = r.choice(MOVE_TYPES)
            e = self.expr(env, 2)
            xin = "((%s)(%s))" % (t, "{0}") if t not in FLOATS else "((%s)((int)((%s) & 1023) - 512))" % (t, "{0}")
            if t == "bool":
                xin = "(((%s) & 1) != 0)" % "{0}"
            xe = E(t, xin, [e], U_DIV)
            arg = None
            if kind == "bcast":
                call = "group_broadcast(%s, %s)" % (gname, xe.s(None))
            elif kind == "bcast_id":
                arg = r.choice([0, 1, 2, 3, 5, 17, 40])
                call = "group_broadcast(%s, %s, %du)" % (gname, xe.s(None), arg)
            elif kind == "shift":
                fn = r.choice(["shift_group_left", "shift_group_right"])
                arg = r.choice([0, 1, 1, 2, 3, 7, 16, 33])
                kind = fn
                call = "%s(%s, %s, %du)" % (fn, gname, xe.s(None), arg)
            elif kind == "xor":
                arg = r.choice([0, 1, 2, 3, 4, 8, 16, 31])
                call = "permute_group_by_xor(%s, %s, %du)" % (gname, xe.s(None), arg)
            else:
                ie = self.expr(env, 2)
                arg = E("uint", "((uint)(({0}) & 63))", [ie], U_DIV)
                call = "select_from_group(%s, %s, %s)" % (gname, xe.s(None), arg.s(None))
            sgc = ["%s %s = %s;" % (t, res, call), self.sink_text(t, res)]
            return Raw(self, sgc, lambda pr, mc: self.host_move(pr, mc, g, kind, t, xe, arg, res), deps)
        if kind == "joint":
            if isinstance(kernel, Kernel) and g.kind in ("wg", "sg") and self.chance(0.4):
                return self.joint_scan(g, kernel, deps)
            return self.joint_op(g, deps, kernel)
        # reduce / scan
        t = r.choice(ALGO_TYPES)
        ops = [o for o in OPS if t not in FLOATS or not o.startswith("bit_")]
        op = r.choice(ops)
        fmt, e = self.bounded_input(env, t, op)
        xe = E(t, fmt, [e], U_DIV)
        init = None
        if self.chance(0.4):
            init_val = r.choice([0, 1, 2, 3, -1, 100]) if t in SIGNED or t in FLOATS else r.choice([0, 1, 5, 100])
            if op == "multiplies":
                init_val = r.choice([1, 2] if t not in SIGNED else [1, -1])
            if op in ("logical_and", "logical_or"):
                init_val = r.choice([0, 1, 2])
            init = "((%s)%d)" % (t, init_val)
        if kind == "reduce":
            form = "reduce"
            call = ("reduce_over_group(%s, %s, %s)" % (gname, xe.s(None), op) if init is None else
                    "reduce_over_group(%s, %s, %s, %s)" % (gname, xe.s(None), init, op))
        else:
            form = r.choice(["exclusive", "inclusive"])
            if form == "exclusive":
                call = ("exclusive_scan_over_group(%s, %s, %s)" % (gname, xe.s(None), op) if init is None else
                        "exclusive_scan_over_group(%s, %s, %s, %s)" % (gname, xe.s(None), init, op))
            else:
                call = ("inclusive_scan_over_group(%s, %s, %s)" % (gname, xe.s(None), op) if init is None else
                        "inclusive_scan_over_group(%s, %s, %s, %s)" % (gname, xe.s(None), op, init))
        sgc = ["%s %s = %s;" % (t, res, call), self.sink_text(t, res)]
        return Raw(self, sgc, lambda pr, mc: self.host_algo(pr, mc, g, form, t, op, xe, init, res), deps)

    def joint_range(self, kernel, t, width, a, b):
        """Where a joint range lies: a constant table, its copy in local or
        private memory (filled in the kernel's prologue, the same values in
        every work-item), or the global input (int only).  Returns the SGC
        name and the host name of the table."""
        spaces = ["constant"]
        if isinstance(kernel, Kernel):
            spaces += ["local", "private"]
            if t == "int" and width == "w" and b <= kernel.L * kernel.groups_n:
                spaces += ["global"]
        space = self.r.choice(spaces)
        host = "jtab_%s_%s" % (t, width)
        if space == "constant":
            return host, host
        if space == "global":
            return "in", "in"
        kernel.jtabs.add((space, t, width))
        return "%sjt_%s_%s" % (space[0], t, width), host

    def joint_op(self, g, deps, kernel=None):
        """joint_reduce / joint_any_of ... over a table that every member
        sees alike (JOINT_TABLES or the input): the result is the same for all."""
        r = self.r
        t = r.choice(ALGO_TYPES)
        a = r.randint(0, 14)
        short = 2 if AVOID_INTEL_JOINT_ONE_ELEMENT else 1
        b = r.randint(a + short, 16)
        res = self.fresh("r")
        if r.random() < 0.3:
            fn = r.choice(["joint_any_of", "joint_all_of", "joint_none_of"])
            tab, htab = self.joint_range(kernel, t, "w", a, b)
            sgc = ["cs = mix(cs, (ulong)%s(%s, %s + %d, %s + %d, jpred_%s));" % (fn, g.name, tab, a, tab, b, t)]
            val = {"joint_any_of": "h_any", "joint_all_of": "h_all", "joint_none_of": "!h_any"}[fn]
            expr = ("({ int h_any = 0, h_all = 1; for (int j = %d; j < %d; j++) { int h = jpred_%s(%s[j]); "
                    "h_any |= h; h_all &= h; } (ulong)(%s); })" % (a, b, t, htab, val))
            return Raw(self, sgc, lambda pr, mc: self.host_const(pr, mc, g, expr), deps)
        op = r.choice([o for o in OPS if t not in FLOATS or not o.startswith("bit_")])
        width = "s" if op == "multiplies" else "w"
        tab, htab = self.joint_range(kernel, t, width, a, b)
        if tab == "in" and op in ("plus", "multiplies"):
            op = r.choice(["minimum", "maximum", "bit_xor", "logical_or"])
        init = None
        if r.random() < 0.4:
            init = r.choice([1, 2] if op in ("multiplies", "logical_and", "logical_or") else [0, 1, 7, 100])
        call = ("joint_reduce(%s, %s + %d, %s + %d, %s)" % (g.name, tab, a, tab, b, op) if init is None else
                "joint_reduce(%s, %s + %d, %s + %d, ((%s)%d), %s)" % (g.name, tab, a, tab, b, t, init, op))
        sgc = ["%s %s = %s;" % (t, res, call), self.sink_text(t, res)]
        # the oracle folds the table in C, in the table's order
        expr = "({ %s a = %s; " % (t, "(%s)%d" % (t, init) if init is not None else host_identity(t, op))
        if op in ("logical_and", "logical_or") and init is not None:
            expr += "a = (%s)(a != 0); " % t
        expr += "for (int j = %d; j < %d; j++) { %s b = %s[j]; a = %s; } a; })" % (a, b, t, htab, host_op(t, op))
        conv = "f2u(%s)" if t in FLOATS else "(ulong)(%s)"
        return Raw(self, sgc, lambda pr, mc: self.host_const(pr, mc, g, conv % expr), deps)

    def host_const(self, pr, mc, g, value):
        G = self.hg(g)
        pr.w("for (int l = 0; l < L; l++) if (%s[l]) { hg_check(&%s[l], %s, L); cs[l] = mix(cs[l], %s); }"
             % (mc.cur(), G, mc.cur(), value))

    def sink_text(self, t, res):
        if t in FLOATS:
            return "cs = mix(cs, f2u(%s));" % res
        return "cs = mix(cs, (ulong)%s);" % res

    def hg(self, g):
        return "wgG" if g.kind == "wg" else ("sgG" if g.kind == "sg" else g.name)

    def host_vote(self, pr, mc, g, fn, p):
        G = self.hg(g)
        pr.w("{ int pv[L]; for (int l = 0; l < L; l++) if (%s[l]) pv[l] = (%s) != 0;" % (mc.cur(), p.s("l")))
        pr.w("  for (int l = 0; l < L; l++) if (%s[l]) { int any = 0, all = 1; hg_check(&%s[l], %s, L);"
             % (mc.cur(), G, mc.cur()))
        pr.w("    for (int j = 0; j < L; j++) if (hg_member(&%s[l], j)) { any |= pv[j]; all &= pv[j]; }" % G)
        val = {"any_of_group": "any", "all_of_group": "all", "none_of_group": "!any"}[fn]
        pr.w("    cs[l] = mix(cs[l], (ulong)(%s)); } }" % val)

    def host_move(self, pr, mc, g, kind, t, xe, arg, res):
        G = self.hg(g)
        m = mc.cur()
        pr.w("%s %s[L]; { %s xv[L];" % (t, res, t))
        pr.w("  for (int l = 0; l < L; l++) if (%s[l]) xv[l] = %s;" % (m, xe.s("l")))
        pr.w("  for (int l = 0; l < L; l++) if (%s[l]) { hg_check(&%s[l], %s, L); long n = hg_count(&%s[l]), rk = hg_rank(&%s[l], l), src;"
             % (m, G, m, G, G))
        if kind == "bcast":
            pr.w("    src = 0;")
        elif kind == "bcast_id":
            pr.w("    src = %d;" % arg)
        elif kind == "shift_group_left":
            pr.w("    src = rk + %d;" % arg)
        elif kind == "shift_group_right":
            pr.w("    src = rk - %d;" % arg)
        elif kind == "xor":
            pr.w("    src = rk ^ %d;" % arg)
        else:
            pr.w("    src = (long)(%s);" % arg.s("l"))
        pr.w("    %s[l] = (src >= 0 && src < n) ? xv[hg_lane_of_rank(&%s[l], src)] : xv[l];" % (res, G))
        pr.w("    cs[l] = mix(cs[l], %s); } }" % (("f2u(%s[l])" if t in FLOATS else "(ulong)%s[l]") % res))

    def host_algo(self, pr, mc, g, form, t, op, xe, init, res):
        G = self.hg(g)
        m = mc.cur()
        ident = host_identity(t, op)
        pr.w("%s %s[L]; { %s xv[L];" % (t, res, t))
        pr.w("  for (int l = 0; l < L; l++) if (%s[l]) xv[l] = %s;" % (m, xe.s("l")))
        pr.w("  for (int l = 0; l < L; l++) if (%s[l]) { hg_check(&%s[l], %s, L); long rk = hg_rank(&%s[l], l);"
             % (m, G, m, G))
        pr.w("    %s a = %s;" % (t, init if init is not None else ident))
        if op in ("logical_and", "logical_or") and init is not None:
            pr.w("    a = (%s)(a != 0);" % t)
        cmp = {"reduce": "1", "exclusive": "hg_rank(&%s[l], j) < rk" % G,
               "inclusive": "hg_rank(&%s[l], j) <= rk" % G}[form]
        pr.w("    for (int j = 0; j < L; j++) if (hg_member(&%s[l], j) && %s) { %s b = xv[j]; a = %s; }"
             % (G, cmp, t, host_op(t, op)))
        pr.w("    %s[l] = a;" % res)
        pr.w("    cs[l] = mix(cs[l], %s); } }" % (("f2u(%s[l])" if t in FLOATS else "(ulong)%s[l]") % res))


# Constant tables for the joint_* algorithms, the same in every module: 'w'
# wide values, 's' small ones (products of 16 stay exact), per type.
def _tables():
    rng = random.Random(21)
    out = {}
    for t in ALGO_TYPES:
        lo = 0 if t not in SIGNED and t not in FLOATS else -500
        out[(t, "w")] = [rng.randint(lo, 500) for _ in range(16)]
        out[(t, "s")] = [rng.randint(0 if lo == 0 else -2, 2) or 1 for _ in range(16)]
    return out


JOINT_TABLES = _tables()


def jpred(t, v):
    """What jpred_T (joint_tables_text) answers for v."""
    return (int(v) & 3) == 1


def joint_tables_text():
    out = []
    for (t, w), vals in sorted(JOINT_TABLES.items()):
        lit = ", ".join(("%d.0" % v + ("f" if t == "float" else "")) if t in FLOATS else c_literal(t, v)
                        for v in vals)
        out.append("constant %s jtab_%s_%s[16] = {%s};" % (t, t, w, lit))
    for t in ALGO_TYPES:
        out.append("bool jpred_%s(%s x) { return ((long)x & 3) == 1; }" % (t, t))
    return "\n".join(out)


def host_identity(t, op):
    if op in ("plus", "bit_or", "bit_xor", "logical_or"):
        return "(%s)0" % t
    if op in ("multiplies", "logical_and"):
        return "(%s)1" % t
    if op == "bit_and":
        return "(%s)~(%s)0" % (t, t)
    if t in FLOATS:
        return "(%s)INFINITY" % t if op == "minimum" else "(%s)-INFINITY" % t
    lo, hi = limits(t)
    return c_literal(t, hi if op == "minimum" else lo)


def host_op(t, op):
    if op == "plus":
        return "(%s)(a + b)" % t if t not in SIGNED else "(%s)((u%s)a + (u%s)b)" % (t, t, t)
    if op == "multiplies":
        return "(%s)(a * b)" % t if t not in SIGNED else "(%s)((u%s)a * (u%s)b)" % (t, t, t)
    if op == "minimum":
        return "(b < a ? b : a)"
    if op == "maximum":
        return "(b > a ? b : a)"
    if op == "bit_and":
        return "(a & b)"
    if op == "bit_or":
        return "(a | b)"
    if op == "bit_xor":
        return "(a ^ b)"
    if op == "logical_and":
        return "(%s)(a != 0 && b != 0)" % t
    return "(%s)(a != 0 || b != 0)" % t


class Compound(S):
    """Several statements that belong together (a creation and its uses)."""
    droppable = True

    def __init__(self, parts):
        self.parts = parts
        self.sid = parts[0].sid
        # dropping it drops what its first part's drop drops (a group's uses
        # go with their creation; an array's declaration stays)
        self.droppable = parts[0].droppable

    def sgc(self, pr):
        for p in self.parts:
            p.sgc(pr)

    def simt(self, pr, mc):
        for p in self.parts:
            p.simt(pr, mc)


class DroppableDecl(S):
    """A Raw statement that declares a variable: dropped, it declares it as 0."""

    def __init__(self, gen, raw, var):
        self.sid = raw.sid
        self.raw, self.var = raw, var

    def sgc(self, pr):
        if self.sid in pr.drop:
            pr.w("%s %s = 0;" % (self.var.typ, self.var.name))
        else:
            self.raw.sgc(pr)

    def simt(self, pr, mc):
        if self.sid in pr.drop:
            pr.w("%s %s[L]; memset(%s, 0, sizeof %s);" % (self.var.typ, self.var.name, self.var.name, self.var.name))
        else:
            self.raw.simt(pr, mc)


class GuardedIf(If):
    """if (b.get_group_linear_id() == 0) {...} else {...}: dropped with its group."""

    def __init__(self, gen, cond, then, els, dep):
        super().__init__(gen, cond, then, els)
        self.dep = dep

    def sgc(self, pr):
        if self.dep not in pr.drop:
            super().sgc(pr)

    def simt(self, pr, mc):
        if self.dep not in pr.drop:
            super().simt(pr, mc)


# ---------------------------------------------------------------- kernels --

class GroupFunc:
    """ulong gfN(ulong cs, params): a device function whose body makes
    tangle groups (so sgcc must pass the caller's tangle mask in)."""

    def __init__(self, gen):
        r = gen.r
        self.name = gen.fresh("gf")
        self.params = [Var(gen.fresh("q"), r.choice(INT_TYPES), U_DIV, True) for _ in range(r.randint(1, 2))]
        self.sgl = Var("sgl", "uint", U_DIV, False)
        ctx = Ctx(U_DIV, in_func=True)
        ctx.opp_ok = False
        gen.cs = Var("cs", "ulong", U_DIV, False)
        self.body = gen.stmts(self.params + [self.sgl], ctx, r.randint(2, 5), self)

    def sgc(self, drop):
        pr = Printer(drop)
        pr.w("ulong %s(ulong cs%s)" % (self.name, "".join(", %s %s" % (p.typ, p.name) for p in self.params)))
        pr.w("{")
        pr.ind += 1
        pr.w("sub_group sg = get_sub_group();")
        pr.w("uint sgl = sg.get_local_linear_id();")
        for st in self.body:
            st.sgc(pr)
        pr.w("return cs;")
        pr.ind -= 1
        pr.w("}")
        return "\n".join(pr.lines)


class Kernel:
    def __init__(self, gen, index):
        self.gen = gen
        self.name = "k%d_s%d" % (index, gen.seed % 100000)
        r = gen.r
        self.L = r.choice([16, 32, 32, 64, 64, 24, 48, 128, 8])
        self.groups_n = r.choice([1, 2, 3])
        self.reqd = r.random() < 0.4
        self.reqd_spec = r.random() < 0.3
        self.reqd_sg = gen.flavour == "sg" and r.random() < 0.25
        self.sg_size = r.choice([32] if GPU_SUB_GROUP_SIZES else [8, 16, 32]) if self.reqd_sg else 0
        self.nslots = 4
        self.locals = []     # (name, type, size text)
        self.groups = []
        self.fixed_specs = []
        # goto in this kernel (then no tangle groups: sgcc refuses both in one function)
        self.goto_ok = gen.flavour == "wg" or r.random() < 0.35
        self.jtabs = set()       # (space, type, width): joint ranges in local / private memory
        self.gslots = []         # out[] slots of global atomics: zeroed, then one work-item's total
        self.barriers = []       # local async_barrier objects
        gen.kernel_ctx = self
        self.cs = Var("cs", "ulong", U_DIV, False)
        gen.cs = self.cs
        lid = Var("lid", "uint", U_DIV, False)
        gid = Var("gid", "uint", U_DIV, False)
        grp = Var("grp", "uint", U_WG, False)
        inx = Var("inx", "int", U_DIV, False)
        iny = Var("iny", "long", U_DIV, False)
        gsz = Var("gsz", "size_t", U_DIV, False)
        env = [lid, gid, grp, inx, iny, gsz]
        self.wg = Group("wg", "wg", -1)
        if gen.flavour == "sg":
            self.sgl = Var("sgl", "uint", U_DIV, False)
            sgid = Var("sgid", "uint", U_SG, False)
            env += [self.sgl, sgid]
            self.sg = Group("sg", "sg", -1)
        ctx = Ctx()
        ctx.escape_ok = False
        ctx.escape_level = U_WG
        self.body = gen.stmts(env, ctx, r.randint(4, 9), self)

    def new_slot(self):
        self.nslots += 1
        return self.nslots - 1

    def local_array(self, t, gen, atomic=False):
        for name, lt, _, at in self.locals:
            if lt == t and at == atomic:
                return name
        name = gen.fresh("lm")
        if atomic is True:
            size = "1"
        elif atomic:      # copy target, joint scan results (per work-group / per sub-group)
            size = {"copy": "L_SIZE", "jw": "16", "js": "8 * L_SIZE"}[atomic]
        else:
            size = "L_SIZE_SC" if gen.r.random() < 0.5 else str(self.L)
        self.locals.append((name, t, size, atomic))
        return name

    def fixed_spec(self, n, gen):
        name = "scf%d_%s" % (n, self.name)
        if name not in self.fixed_specs:
            self.fixed_specs.append(name)
        gen.fixed_spec_decls[name] = n
        return name


HOST_PRELUDE = r"""/* generated by sgcgen.py: the host oracle of %(base)s.sgc (SIMT form, see sgcgen.py) */
#include "diff_shim.h"
"""

# The SGC math built-ins the generator writes, for the host: integer forms
# in the usual arithmetic conversions of their arguments (sema's rule),
# abs of int/long returning the same type (C17); the float forms are
# <math.h>'s (the generator keeps their results exact).
HOST_MATH = r"""
#define H_MM(T) \
    static inline T h_min_##T(T a, T b) { return b < a ? b : a; } \
    static inline T h_max_##T(T a, T b) { return b > a ? b : a; } \
    static inline T h_clamp_##T(T x, T lo, T hi) { return x < lo ? lo : x > hi ? hi : x; }
H_MM(int) H_MM(uint) H_MM(long) H_MM(ulong)
#define H_GEN(f, e) _Generic((e), int: h_##f##_int, uint: h_##f##_uint, long: h_##f##_long, ulong: h_##f##_ulong)
#define min(a, b) H_GEN(min, (a) + (b))((a), (b))
#define max(a, b) H_GEN(max, (a) + (b))((a), (b))
#define clamp(x, lo, hi) H_GEN(clamp, (x) + (lo) + (hi))((x), (lo), (hi))
static inline int h_abs_int(int x) { return x < 0 ? -x : x; }
static inline long h_abs_long(long x) { return x < 0 ? -x : x; }
#define abs(x) _Generic(+(x), int: h_abs_int, long: h_abs_long)(x)
#define mad(a, b, c) fma((a), (b), (c))
static inline uint get_work_dim(void) { return 1; }
"""

SAFE_FUNCS = r"""
ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3ul + (v >> 7); }
ulong f2u(double x)
{
    if (x != x) return 7ul;
    if (x > 1e18) return 11ul;
    if (x < -1e18) return 13ul;
    return (ulong)(long)x;
}
"""


def safe_funcs():
    """Csmith-style guards, written once as C text that SGC and the host share."""
    out = []
    for t, bits in (("int", 32), ("long", 64)):
        mx = "2147483647" if t == "int" else "9223372036854775807l"
        mn = "(-2147483647 - 1)" if t == "int" else "(-9223372036854775807l - 1)"
        out.append("%s safe_add_%s(%s a, %s b) { return ((b > 0 && a > %s - b) || (b < 0 && a < %s - b)) ? a : a + b; }"
                   % (t, t, t, t, mx, mn))
        out.append("%s safe_sub_%s(%s a, %s b) { return ((b < 0 && a > %s + b) || (b > 0 && a < %s + b)) ? a : a - b; }"
                   % (t, t, t, t, mx, mn))
        out.append(("%s safe_mul_%s(%s a, %s b) { return (a > 0 && b > 0 && a > %s / b) || (a > 0 && b <= 0 && b < %s / a) ||"
                    " (a <= 0 && b > 0 && a < %s / b) || (a < 0 && b <= 0 && a != 0 && b < %s / a) ? a : a * b; }")
                   % (t, t, t, t, mx, mn, mn, mx))
        out.append("%s safe_div_%s(%s a, %s b) { return (b == 0 || (a == %s && b == -1)) ? a : a / b; }" % (t, t, t, t, mn))
        out.append("%s safe_mod_%s(%s a, %s b) { return (b == 0 || (a == %s && b == -1)) ? a : a %% b; }" % (t, t, t, t, mn))
        out.append("%s safe_neg_%s(%s a) { return a == %s ? a : -a; }" % (t, t, t, mn))
        out.append("%s safe_shl_%s(%s a, ulong b) { return (a < 0 || b >= %d%s || a > (%s >> b)) ? a : a << b; }"
                   % (t, t, t, bits, "u" if t == "int" else "ul", mx))
        out.append("%s safe_shr_%s(%s a, ulong b) { return b >= %d%s ? a : a >> b; }" % (t, t, t, bits, "u" if t == "int" else "ul"))
    for t, bits in (("uint", 32), ("ulong", 64)):
        out.append("%s safe_div_%s(%s a, %s b) { return b == 0 ? a : a / b; }" % (t, t, t, t))
        out.append("%s safe_mod_%s(%s a, %s b) { return b == 0 ? a : a %% b; }" % (t, t, t, t))
        if t == "uint" and AVOID_INTEL_UINT_SHIFT_SELECT:
            out.append("uint safe_shl_uint(uint a, ulong b) { return b >= 32 ? a : (uint)((ulong)a << b); }")
        else:
            out.append("%s safe_shl_%s(%s a, ulong b) { return b >= %d ? a : a << b; }" % (t, t, t, bits))
        out.append("%s safe_shr_%s(%s a, ulong b) { return b >= %d ? a : a >> b; }" % (t, t, t, bits))
    return "\n".join(out) + "\n"


def gen_funcs(gen):
    """Pure scalar device functions (plain C, shared text for SGC and host)."""
    gen.in_func_gen = True
    for i in range(gen.r.randint(0, 3)):
        name = gen.fresh("fn") if i or gen.r.random() < 0.6 else gen.r.choice(FILE_SCOPE_NAMES)
        ret = gen.r.choice(["int", "uint", "long", "ulong", "short"])
        params = [(gen.fresh("p"), gen.r.choice(INT_TYPES)) for _ in range(gen.r.randint(1, 3))]
        env = [Var(p, t, U_DIV, True) for p, t in params]
        ctx = Ctx(U_DIV, in_func=True)
        ctx.escape_ok = False
        ctx.escape_level = U_WG
        saved_cs = getattr(gen, "cs", None)
        gen.cs = Var("acc", "ulong", U_DIV, False)
        body = gen.stmts(env, ctx, gen.r.randint(1, 4), None)
        gen.cs = saved_cs
        ret_e = gen.expr(env, 2)
        gen.funcs.append((name, ret, params, body, ret_e))
    gen.in_func_gen = False


def print_funcs(gen, drop):
    pr = Printer(drop)
    for name, ret, params, body, ret_e in gen.funcs:
        pr.w("%s %s(%s)" % (ret, name, ", ".join("%s %s" % (t, p) for p, t in params)))
        pr.w("{")
        pr.ind += 1
        pr.w("ulong acc = 1;")
        pr.block(body, lambda st, p: st.sgc(p))
        pr.w("return (%s)((%s) ^ (%s)acc);" % (ret, ret_e.s(None), ret))
        pr.ind -= 1
        pr.w("}")
    return "\n".join(pr.lines) + "\n"


def generate(seed, flavour, nkernels):
    gen = Gen(seed, flavour, nkernels)
    gen.fixed_spec_decls = {}
    gen.make_spec_consts()
    gen.make_structs()
    gen.make_ctypes()
    gen_funcs(gen)
    gen.gfuncs = []
    if flavour == "sg":
        gen.gfuncs = [GroupFunc(gen) for _ in range(gen.r.randint(0, 2))]
    for i in range(nkernels):
        gen.kernels.append(Kernel(gen, i))
    return gen


def spec_decl_text(d):
    name, typ, sid, default, bound, explicit = d
    lit = c_literal(typ, default) if typ != "bool" else ("true" if default else "false")
    if explicit:
        return "spec_const(%d) %s %s = %s;" % (sid, typ, name, lit)
    return "spec_const %s %s = %s;" % (typ, name, lit)


def write_module(gen, base, drop=frozenset(), only=None):
    kernels = [k for k in gen.kernels if only is None or k.name in only]
    # ---- SGC
    sgc = ["/* sgcgen seed %d flavour %s (tests/diff/sgcgen.py) */" % (gen.seed, gen.flavour)]
    specs = list(gen.spec) + [gen.arr_spec]
    for d in specs:
        sgc.append(spec_decl_text(d))
    # fixed-size N as spec constants and the local array size: implicit IDs after the others
    used = {d[2] for d in specs}
    extra = []
    nxt = 0
    for name, n in sorted(gen.fixed_spec_decls.items()):
        while nxt in used:
            nxt += 1
        used.add(nxt)
        extra.append((name, nxt, n))
        sgc.append("spec_const uint %s = %du;" % (name, n))
    for k in kernels:
        while nxt in used:
            nxt += 1
        used.add(nxt)
        k.lsize_id = nxt
        sgc.append("spec_const uint L_SIZE_SC_%s = 1u;  /* bound to the work-group size */" % k.name)
    for name, fields in gen.structs:
        sgc.append("struct %s { %s };" % (name, " ".join("%s %s;" % (t, f) for f, t in fields)))
    sgc += gen.ctype_text
    sgc.append("#define ENUM_ARG(x) (x) /* an enum argument of min/max/clamp: int in SGC */")
    sgc.append(SAFE_FUNCS.strip())
    sgc.append(safe_funcs().strip())
    sgc.append(print_funcs(gen, drop).rstrip())
    sgc.append(joint_tables_text())
    for f in gen.gfuncs:
        sgc.append(f.sgc(drop))
    manifest = []
    for k in kernels:
        pr = Printer(drop)
        attrs = []
        if k.reqd and k.reqd_spec:
            attrs.append("reqd_work_group_size(L_SIZE_SC_%s, 1, 1)" % k.name)
        elif k.reqd:
            attrs.append("reqd_work_group_size(%d, 1, 1)" % k.L)
        if k.reqd_sg:
            attrs.append("reqd_sub_group_size(%d)" % k.sg_size)
        for a in attrs:
            pr.w("[[%s]]" % a)
        pr.w("kernel void %s(global ulong *out, global const int *in)" % k.name)
        pr.w("{")
        pr.ind += 1
        pr.w("#define L_SIZE %du" % k.L)
        pr.w("#define L_SIZE_SC L_SIZE_SC_%s" % k.name)
        pr.w("#define NOUT %du" % k.nslots)
        for name, t, size, atomic in k.locals:
            pr.w("local %s %s[%s];" % (t, name, size))
        for space, t, w in sorted(k.jtabs):
            if space == "local":
                pr.w("local %s ljt_%s_%s[16];" % (t, t, w))
        for b in k.barriers:
            pr.w("local async_barrier %s;" % b)
        pr.w("uint lid = get_local_id(0), gid = get_global_id(0), grp = get_group_id(0);")
        for space, t, w in sorted(k.jtabs):
            # joint ranges in local and private memory: the constant table's values
            if space == "local":
                pr.w("for (uint j = lid; j < 16u; j += L_SIZE) ljt_%s_%s[j] = jtab_%s_%s[j];" % (t, w, t, w))
            else:
                pr.w("%s pjt_%s_%s[16];" % (t, t, w))
                pr.w("for (int j = 0; j < 16; j++) pjt_%s_%s[j] = jtab_%s_%s[j];" % (t, w, t, w))
        if any(space == "local" for space, _, _ in k.jtabs):
            pr.w("barrier(CLK_LOCAL_MEM_FENCE);")
        pr.w("size_t gsz = get_global_size(0);")
        pr.w("int inx = in[gid];")
        pr.w("long iny = (long)in[(gid + 5u) %% %du] * 65536 + inx;" % (k.L * k.groups_n))
        pr.w("ulong cs = 0x%xul;" % (gen.seed & 0xffffffff))
        if gen.flavour == "sg":
            pr.w("sub_group sg = get_sub_group();")
            pr.w("uint sgl = sg.get_local_linear_id(), sgid = sg.get_group_linear_id();")
        pr.w("work_group wg = get_work_group();")
        pr.w('_Static_assert(sizeof(struct %s) >= 4, "a struct");' % gen.nstruct_name)
        for st in k.body:
            st.sgc(pr)
        for slot in range(1, 4):
            if gen.flavour == "sg":
                val = ["sg.get_local_linear_range()", "sgid", "sgl"][slot - 1]
            else:
                val = "0u"
            pr.w("out[gid * NOUT + %du] = %s;" % (slot, val))
        pr.w("out[gid * NOUT] = cs;")
        pr.w("#undef L_SIZE")
        pr.w("#undef L_SIZE_SC")
        pr.w("#undef NOUT")
        pr.ind -= 1
        pr.w("}")
        sgc.append("\n".join(pr.lines))
        manifest.append("%s %d %d %d" % (k.name, k.L, k.L * k.groups_n, k.nslots))
    with open(base + ".sgc", "w") as f:
        f.write("\n\n".join(sgc) + "\n")
    # ---- spec constant bindings (device build options) and the macro for sgcc
    opts = []
    for d in specs:
        if d[4] is not None:
            opts.append("-DSGC_SPEC_%d=%s" % (d[2], spec_value_text(d[1], d[4])))
    for k in kernels:
        opts.append("-DSGC_SPEC_%d=%du" % (k.lsize_id, k.L))
    with open(base + ".manifest", "w") as f:
        f.write("options %s\n" % " ".join(opts))
        f.write("flavour %s\n" % gen.flavour)
        for line in manifest:
            f.write("kernel %s\n" % line)
    with open(base + ".sgccopts", "w") as f:
        f.write("-DGK=%d\n" % gen.macro_val)
    # ---- host oracle
    host = [HOST_PRELUDE % {"base": base.split("/")[-1]}, "#define GK %d" % gen.macro_val]
    for d in specs:
        host.append("#define %s ((%s)%s)" % (d[0], d[1], spec_value_text(d[1], gen.spec_value(d))))
    for name, _, n in extra:
        host.append("#define %s %du" % (name, n))
    for name, fields in gen.structs:
        host.append("struct %s { %s };" % (name, " ".join("%s %s;" % (t, f) for f, t in fields)))
    host += gen.ctype_text
    host.append(HOST_MATH.strip())
    host.append("#define ENUM_ARG(x) ((int)(x)) /* C would take the enum's unsigned type */")
    host.append(SAFE_FUNCS.strip())
    host.append(safe_funcs().strip())
    host.append(print_funcs(gen, drop).rstrip())
    host.append(joint_tables_text().replace("constant ", "static const "))
    for k in kernels:
        host.append(host_kernel(gen, k, drop))
    host.append("const RefKernel ref_kernels[] = {")
    for k in kernels:
        host.append("    { \"%s\", ref_%s, %d, %d, %d, %d, %d }," % (
            k.name, k.name, k.L, k.L * k.groups_n, k.nslots, 1 if gen.flavour == "sg" else 0, k.sg_size))
    host.append("};")
    host.append("const int ref_kernel_count = %d;" % len(kernels))
    with open(base + "_ref.c", "w") as f:
        f.write("\n".join(host) + "\n")


def spec_value_text(t, v):
    """The value of a spec constant as a -D option and in the oracle's macro."""
    if t == "bool":
        return "1" if v else "0"
    if t in ("int", "uint", "long", "ulong"):
        return c_literal(t, v).strip("()") if v >= 0 else "(%s)" % c_literal(t, v).strip("()")
    return str(v) if v >= 0 else "(%d)" % v


def host_kernel(gen, k, drop):
    pr = Printer(drop)
    mc = MaskCtx()
    pr.w("static void ref_%s(ulong *out, const ulong *dev, const int *in, int S)" % k.name)
    pr.w("{")
    pr.ind += 1
    pr.w("enum { L = %d, NOUT = %d, NG = %d };" % (k.L, k.nslots, k.groups_n))
    pr.w("(void)dev; (void)S;")
    pr.w("for (int wgi = 0; wgi < NG; wgi++) {")
    pr.ind += 1
    pr.w("uchar m0[L]; memset(m0, 1, sizeof m0);")
    pr.w("uint lid[L], gid[L], grp[L]; size_t gsz[L]; int inx[L]; long iny[L]; ulong cs[L];")
    pr.w("for (int l = 0; l < L; l++) { lid[l] = l; grp[l] = wgi; gid[l] = wgi * L + l; gsz[l] = L * NG; inx[l] = in[gid[l]];"
         " iny[l] = (long)in[(gid[l] + 5u) %% (L * NG)] * 65536 + inx[l]; cs[l] = 0x%xul; }" % (gen.seed & 0xffffffff))
    pr.w("HG wgG[L]; hg_work_group(wgG, L);")
    for slot in k.gslots:   # global atomics: the device's buffer starts at zero
        pr.w("for (int l = 0; l < L; l++) out[(size_t)(wgi * L + l) * NOUT + %d] = 0;" % slot)
    if gen.flavour == "sg":
        pr.w("HG sgG[L]; hg_sub_group(sgG, L, S);")
        pr.w("uint sgl[L], sgid[L];")
        pr.w("for (int l = 0; l < L; l++) { sgl[l] = l % S; sgid[l] = l / S; }")
    for name, t, size, atomic in k.locals:
        pr.w("%s %s[L];" % (t, name))
    pr.w("#define L_SIZE %du" % k.L)
    pr.w("#define L_SIZE_SC %du" % k.L)
    for st in k.body:
        st.simt(pr, mc)
    pr.w("#undef L_SIZE")
    pr.w("#undef L_SIZE_SC")
    pr.w("for (int l = 0; l < L; l++) {")
    pr.w("    ulong *o = out + (size_t)gid[l] * NOUT;")
    pr.w("    o[0] = cs[l];")
    if gen.flavour == "sg":
        pr.w("    o[1] = (ulong)hg_count(&sgG[l]); o[2] = sgid[l]; o[3] = sgl[l];")
    else:
        pr.w("    o[1] = o[2] = o[3] = 0;")
    pr.w("}")
    pr.ind -= 1
    pr.w("}")
    pr.ind -= 1
    pr.w("}")
    return "\n".join(pr.lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--flavour", choices=["wg", "sg"], default="sg")
    ap.add_argument("--kernels", type=int, default=4)
    ap.add_argument("--out", required=True)
    ap.add_argument("--drop", default="")
    ap.add_argument("--only-kernel", default=None)
    ap.add_argument("--gpu", action="store_true", help="only sub-group sizes a warp has")
    ap.add_argument("--no-workarounds", action="store_true")
    a = ap.parse_args()
    global GPU_SUB_GROUP_SIZES, AVOID_CHAINED_COMPARISONS, AVOID_INTEL_JOINT_ONE_ELEMENT
    global AVOID_INTEL_UINT_SHIFT_SELECT, AVOID_OPENCL_ABS_UNSIGNED, AVOID_OPENCL_INIT_LIST_BUILTINS
    global AVOID_ENUM_BUILTIN_ARGS, AVOID_POCL_DIVERGENT_DO_WHILE, AVOID_CUDA_SIZE_T_MINMAX, AVOID_POCL_TWO_COPIES
    GPU_SUB_GROUP_SIZES = a.gpu
    if a.no_workarounds:
        AVOID_CHAINED_COMPARISONS = AVOID_INTEL_JOINT_ONE_ELEMENT = AVOID_INTEL_UINT_SHIFT_SELECT = False
        AVOID_OPENCL_ABS_UNSIGNED = AVOID_OPENCL_INIT_LIST_BUILTINS = AVOID_ENUM_BUILTIN_ARGS = False
        AVOID_POCL_DIVERGENT_DO_WHILE = AVOID_CUDA_SIZE_T_MINMAX = AVOID_POCL_TWO_COPIES = False
    gen = generate(a.seed, a.flavour, a.kernels)
    drop = frozenset(int(x) for x in a.drop.split(",") if x)
    only = set(a.only_kernel.split(",")) if a.only_kernel else None
    write_module(gen, a.out, drop, only)


if __name__ == "__main__":
    main()
