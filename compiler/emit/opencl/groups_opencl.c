/* groups_opencl.c — how the OpenCL C device library (opencl_*.cl, barrier.cl
 * beside this file) spells the group lowering of emit_groups.c.
 *
 * OpenCL C 1.2 has no overloading, so the library's names carry the element
 * type and the operator (sgc_reduce_plus_int), and joint_* algorithms become
 * helpers generated into the prelude, one per (algorithm, operator, element
 * type, group class, address spaces).
 *
 * Work-group functions need __local scratch, which OpenCL C 1.2 allows only
 * at kernel scope: a kernel that (transitively) calls one declares
 * `__local ulong sgc_wg_scratch[SGC_WG_SCRATCH_SLOTS]` first in its body, and
 * device functions on the path receive it as a hidden trailing parameter of
 * the same name. */
#include "emit/opencl/opencl_target.h"
#include "prelude.h"

#include <stdio.h>
#include <string.h>

/* The library's name for an element type.  size_t travels as ulong (its
 * width differs between devices). */
static const char *opencl_elem(TypeKind k)
{
    switch (k) {
    case TY_SCHAR: k = TY_CHAR; break;
    case TY_SIZE_T: k = TY_ULONG; break;
    case TY_VOID: case TY_ENUM: k = TY_INT; break;
    case TY_BOOL: case TY_CHAR: case TY_UCHAR: case TY_SHORT: case TY_USHORT: case TY_INT: case TY_UINT:
    case TY_LONG: case TY_ULONG: case TY_FLOAT: case TY_DOUBLE:
    CASE_TY_NOT_ARITHMETIC:
        break;
    }
    return type_kind_is_scalar(k) ? scalar_types[k].spelling : "int";
}

/* An argument of element type `k`: the library's parameter types are fixed,
 * so C converts at the call, except that size_t is widened explicitly. */
static void print_elem_arg(EmitCtx *ctx, const Node *arg, TypeKind k)
{
    if (k != TY_SIZE_T) {
        emit_expr(ctx, arg);
        return;
    }
    const Node *value = arg;
    if (value->kind == ND_CAST && value->is_implicit && value->lhs)
        value = value->lhs;
    emit_out(ctx, "(%s)", opencl_elem(k));
    emit_expr_prec(ctx, value, PREC_UNARY);
}

static void opencl_fixed_size_ctor(EmitCtx *ctx, const Node *call, const Node *parent)
{
    emit_out(ctx, "sgc_get_fixed_size_group(");
    emit_expr(ctx, parent);
    emit_out(ctx, ", ");
    emit_group_print_size(ctx, call);
    emit_out(ctx, ")");
}

/* sgc_group_linear_id(g) ... sgc_leader(g); work-group: sgc_wg_... */
static void opencl_method(EmitCtx *ctx, const Node *recv, const char *name, bool work_group)
{
    if (strncmp(name, "get_", 4) == 0)
        name += 4;
    emit_out(ctx, "sgc_%s%s(", work_group ? "wg_" : "", name);
    emit_expr(ctx, recv);
    emit_out(ctx, ")");
}

/* The library's stem of each group function: sgc_[wg_]<stem>[_id][_T], T
 * only for those that move a value (votes and the barrier take no element
 * type).  GROUP_FNS(X): X(builtin, stem) */
#define GROUP_FNS(X)                       \
    X(GROUP_BARRIER, "group_barrier")      \
    X(GROUP_BROADCAST, "broadcast")        \
    X(ANY_OF_GROUP, "any")                 \
    X(ALL_OF_GROUP, "all")                 \
    X(NONE_OF_GROUP, "none")               \
    X(SHIFT_GROUP_LEFT, "shift_left")      \
    X(SHIFT_GROUP_RIGHT, "shift_right")    \
    X(PERMUTE_GROUP_BY_XOR, "permute_xor") \
    X(SELECT_FROM_GROUP, "select")

/* GROUP_ALGOS(X): X(builtin, opencl stem) */
#define GROUP_ALGOS(X)                                  \
    X(REDUCE_OVER_GROUP, "reduce")                      \
    X(EXCLUSIVE_SCAN_OVER_GROUP, "exclusive_scan")      \
    X(INCLUSIVE_SCAN_OVER_GROUP, "inclusive_scan")

static void opencl_function(EmitCtx *ctx, const GroupCall *c)
{
    const char *stem = NULL;
    switch (c->builtin) {
#define X(b, s) case BI_##b: stem = s; break;
    GROUP_FNS(X)
#undef X
    default:
        emit_error(ctx, c->call->loc, "internal error: not a group function");
        return;
    }
    bool wg = c->work_group;
    if (c->builtin == BI_GROUP_BARRIER) {
        emit_out(ctx, "sgc_%s(", wg ? "wg_barrier" : "group_barrier");
        emit_expr(ctx, c->group);
    } else {
        bool by_id = c->builtin == BI_GROUP_BROADCAST && c->extra;
        emit_out(ctx, "sgc_%s%s%s%s%s(", wg ? "wg_" : "", stem, by_id ? "_id" : "", c->typed ? "_" : "",
                 c->typed ? opencl_elem(c->elem) : "");
        emit_expr(ctx, c->group);
        if (wg)
            emit_out(ctx, ", sgc_wg_scratch");
    }
    emit_group_print_fn_rest(ctx, c);
}

/* sgc_[wg_]<algo>[_init]_<op>_<T>(g, [scratch, ]x[, init]) */
static void opencl_algorithm(EmitCtx *ctx, const GroupCall *c)
{
    const char *stem = c->builtin == BI_REDUCE_OVER_GROUP           ? "reduce"
                       : c->builtin == BI_EXCLUSIVE_SCAN_OVER_GROUP ? "exclusive_scan"
                                                                    : "inclusive_scan";
    emit_out(ctx, "sgc_%s%s%s_%s_%s(", c->work_group ? "wg_" : "", stem, c->init ? "_init" : "", c->op,
             opencl_elem(c->elem));
    emit_group_print_arg(ctx, c->call, c->group);
    if (c->work_group)
        emit_out(ctx, ", sgc_wg_scratch");
    emit_out(ctx, ", ");
    print_elem_arg(ctx, c->value, c->elem);
    if (c->init) {
        emit_out(ctx, ", ");
        print_elem_arg(ctx, c->init, c->elem);
    }
    emit_out(ctx, ")");
}

/* OpenCL C 1.2 has neither templates nor a generic address space: one
 * helper per (algorithm, operator or predicate, element type, address
 * spaces, group class), named after all of them and pasted once. */
static const char *as_name(const Type *ptr)
{
    const Type *base = ptr && ptr->kind == TY_PTR ? ptr->base : NULL;
    switch (base ? base->addr_space : AS_NONE) {
    case AS_GLOBAL: return "global";
    case AS_LOCAL: return "local";
    case AS_CONSTANT: return "constant";
    default: return "private";
    }
}

typedef struct JointShape {
    Builtin bi;
    bool wg, init;
    const char *op;           /* operator spelling, or the predicate's name */
    const char *value, *elem; /* algorithm type (ulong for size_t); pointee spelling */
    const char *identity;     /* the operator's identity for elem, as a value */
    const char *src_as, *dst_as;
} JointShape;

static void joint_head(EmitBuffer *b, const JointShape *j, const char *ret, const char *name)
{
    emit_printf(b, "\nSGC_INLINE %s %s(%s g%s, __%s const %s *first, __%s const %s *last", ret, name,
                j->wg ? "sgc_work_group" : "sgc_group", j->wg ? ", __local void *scratch" : "",
                j->src_as, j->elem, j->src_as, j->elem);
    if (j->dst_as)
        emit_printf(b, ", __%s %s *result", j->dst_as, j->elem);
    if (j->init)
        emit_printf(b, ", %s init", j->value);
    emit_printf(b, ")\n{\n    uint lid = sgc_%slocal_linear_id(g), range = sgc_%slocal_linear_range(g);\n"
                   "    size_t n = (size_t)(last - first);\n", j->wg ? "wg_" : "", j->wg ? "wg_" : "");
}

/* `sgc_[wg_]<algo>_<op>_<T>(g, [scratch, ]` */
static void joint_algo_call(EmitBuffer *b, const JointShape *j, const char *algo)
{
    emit_printf(b, "sgc_%s%s_%s_%s(g%s, ", j->wg ? "wg_" : "", algo, j->op, j->value, j->wg ? ", scratch" : "");
}

/* Work-group joint scans: each work-item scans a contiguous block of the
 * range serially, and one work-group exclusive scan of the blocks' totals
 * gives each block its carry.  One collective call and no barrier inside a
 * loop: CPU compilers that run work-groups as loops over work-items (PoCL)
 * replicate the code after every loop containing a barrier, which made
 * their build time exponential in the number of calls (docs/GROUPS.md).
 * Each element is read before it is written, by the same work-item, so
 * result may be first (in place). */
static void opencl_joint_wg_scan_body(EmitBuffer *b, const JointShape *j, bool incl)
{
    const char *v = j->value, *op = j->op;
    emit_printf(b, "    size_t per = (n + range - 1) / range;\n"
                   "    size_t lo = min(n, (size_t)lid * per), hi = min(n, lo + per);\n"
                   "    %s sum = %s;\n"
                   "    for (size_t i = lo; i < hi; i++)\n"
                   "        sum = SGC_OP_%s(sum, SGC_IN_%s(%s, (%s)first[i]));\n"
                   "    %s prefix = ", v, j->identity, op, op, v, v, v);
    joint_algo_call(b, j, "exclusive_scan");
    /* The SGC_OP_ macros evaluate their operands twice: never a call. */
    emit_printf(b, "sum);\n    %s acc = SGC_OP_%s(carry, prefix);\n"
                   "    for (size_t i = lo; i < hi; i++) {\n", v, op);
    emit_printf(b, "        %s x = SGC_IN_%s(%s, (%s)first[i]);\n", v, op, v, v);
    if (incl)
        emit_printf(b, "        acc = SGC_OP_%s(acc, x);\n        result[i] = (%s)acc;\n", op, j->elem);
    else
        emit_printf(b, "        result[i] = (%s)acc;\n        acc = SGC_OP_%s(acc, x);\n", j->elem, op);
    emit_printf(b, "    }\n}\n");
}

static void opencl_joint_text(EmitBuffer *b, const JointShape *j, const char *name)
{
    const char *v = j->value, *op = j->op;
    switch (j->bi) {
    case BI_JOINT_ANY_OF: case BI_JOINT_ALL_OF: case BI_JOINT_NONE_OF:
        joint_head(b, j, "bool", name);
        emit_printf(b, "    bool hit = false;\n    for (size_t i = lid; i < n; i += range)\n"
                       "        hit = hit || %s%s(first[i]);\n    return %ssgc_%sany(g%s, hit);\n}\n",
                    j->bi == BI_JOINT_ALL_OF ? "!" : "", op, j->bi == BI_JOINT_ANY_OF ? "" : "!",
                    j->wg ? "wg_" : "", j->wg ? ", scratch" : "");
        return;
    case BI_JOINT_REDUCE: {
        /* A small type computed in int or uint returns as itself. */
        bool narrowed = strcmp(v, j->elem) != 0 && strcmp(v, "ulong") != 0;
        joint_head(b, j, narrowed ? j->elem : v, name);
        emit_printf(b, "    %s acc = %s;\n    for (size_t i = lid; i < n; i += range)\n"
                       "        acc = SGC_OP_%s(acc, SGC_IN_%s(%s, (%s)first[i]));\n    return ",
                    v, j->identity, op, op, v, v);
        if (narrowed)
            emit_printf(b, "(%s)", j->elem);
        joint_algo_call(b, j, j->init ? "reduce_init" : "reduce");
        emit_printf(b, "acc%s);\n}\n", j->init ? ", init" : "");
        return;
    }
    default: {
        bool incl = j->bi == BI_JOINT_INCLUSIVE_SCAN;
        joint_head(b, j, "void", name);
        if (j->init)
            emit_printf(b, "    %s carry = SGC_IN_%s(%s, init);\n", v, op, v);
        else
            emit_printf(b, "    %s carry = %s;\n", v, j->identity);
        if (j->wg) {
            opencl_joint_wg_scan_body(b, j, incl);
            return;
        }
        emit_printf(b, "    for (size_t base = 0; base < n; base += range) {\n"
                       "        size_t i = base + lid;\n"
                       "        %s x = i < n ? SGC_IN_%s(%s, (%s)first[i]) : %s;\n"
                       "        %s part = ", v, op, v, v, j->identity, v);
        joint_algo_call(b, j, incl ? "inclusive_scan" : "exclusive_scan");
        emit_printf(b, "x);\n        %s total = ", v);
        joint_algo_call(b, j, "reduce");
        emit_printf(b, "x);\n        if (i < n)\n            result[i] = (%s)SGC_OP_%s(carry, part);\n"
                       "        carry = SGC_OP_%s(carry, total);\n    }\n}\n", j->elem, op, op);
        return;
    }
    }
}

/* The predicate is a user function defined after the prelude: declare it. */
static void declare_predicate(EmitCtx *ctx, EmitBuffer *b, const Symbol *fn)
{
    EmitBuffer *saved = ctx->out;
    ctx->out = b;
    emit_out(ctx, "\n");
    ctx->hooks->function_prefix(ctx, fn, false);
    emit_out(ctx, "bool ");
    emit_name(ctx, fn->name);
    emit_out(ctx, "(%s);", opencl_elem(emit_group_elem_kind(fn->ty->params->ty)));
    ctx->out = saved;
}

static bool is_small_int(TypeKind k)
{
    return k == TY_CHAR || k == TY_SCHAR || k == TY_UCHAR || k == TY_SHORT || k == TY_USHORT;
}

/* The type a joint algorithm on `k` computes in: the type itself, ulong for
 * size_t, and for the small integer types the one their group algorithms
 * compute in (gen_group_ops.c, opencl_small_wide: int for the idempotent
 * operators, uint for the others). */
static const char *joint_value_type(TypeKind k, GroupOp op)
{
    if (!is_small_int(k) || op == GOP_NONE)
        return opencl_elem(k);
    return group_op_info[op].idempotent ? "int" : "uint";
}

static void opencl_joint(EmitCtx *ctx, const Node *call, TypeKind k)
{
    Builtin bi = (Builtin)call->builtin;
    const Node *g = emit_call_arg(call, 0), *first = emit_call_arg(call, 1);
    bool pred = bi == BI_JOINT_ANY_OF || bi == BI_JOINT_ALL_OF || bi == BI_JOINT_NONE_OF;
    bool scan = bi == BI_JOINT_EXCLUSIVE_SCAN || bi == BI_JOINT_INCLUSIVE_SCAN;
    const Type *pty = emit_canonical(first->ty);
    int name_at = builtin_name_arg(bi, call->args.count), init_at = builtin_init_arg(bi, call->args.count);
    const Node *pred_fn = pred ? emit_call_arg(call, name_at) : NULL;
    JointShape j = {
        .bi = bi, .wg = emit_group_is_work_group(g),
        .init = init_at >= 0,
        .op = pred ? (pred_fn && pred_fn->sym ? pred_fn->sym->name : "") : group_op_names[call->group_op],
        .value = joint_value_type(k, pred ? GOP_NONE : (GroupOp)call->group_op),
        .elem = k == TY_SIZE_T ? "size_t" : opencl_elem(k),
        .src_as = as_name(pty),
        .dst_as = scan ? as_name(emit_canonical(emit_call_arg(call, 3)->ty)) : NULL,
    };
    if (pred && !(pred_fn && pred_fn->sym && pred_fn->sym->ty && pred_fn->sym->ty->params)) {
        emit_error(ctx, call->loc, "internal error: joint predicate without a function");
        return;
    }
    /* The identity of the element type: for a small type computed in a
     * wider one, T's (INT_MAX is no minimum identity for short). */
    char identity[96];
    if (strcmp(j.value, j.elem) != 0 && is_small_int(k))
        snprintf(identity, sizeof identity, "((%s)SGC_ID_%s(%s))", j.value, j.op, j.elem);
    else
        snprintf(identity, sizeof identity, "SGC_ID_%s(%s)", j.op, j.value);
    j.identity = identity;
    char name[256];
    snprintf(name, sizeof name, "sgc_%s%s%s_%s_%s_%s%s%s", j.wg ? "wg_" : "", builtin_info[bi].name,
             j.init ? "_init" : "", j.op, j.elem, j.src_as, j.dst_as ? "_" : "", j.dst_as ? j.dst_as : "");
    EmitBuffer text;
    emit_buffer_init(&text);
    if (pred)
        declare_predicate(ctx, &text, pred_fn->sym);
    opencl_joint_text(&text, &j, name);
    emit_prelude_piece(ctx, name, text.data);
    emit_buffer_free(&text);

    if (bi == BI_JOINT_REDUCE)
        emit_group_open_result(ctx, k);
    emit_out(ctx, "%s(", name);
    if (pred)
        emit_expr(ctx, g);
    else
        emit_group_print_arg(ctx, call, g);
    if (j.wg)
        emit_out(ctx, ", sgc_wg_scratch");
    int i = 0;
    for (const Node *a = call->args.head; a; a = a->next, i++) {
        if (i == 0 || i == name_at)
            continue;
        emit_out(ctx, ", ");
        if (i == init_at)
            print_elem_arg(ctx, a, k);
        else
            emit_expr(ctx, a);
    }
    emit_out(ctx, ")");
}

/* ---- the work-group scratch ----------------------------------------------- */

void emit_opencl_scratch_prologue(EmitCtx *ctx, const Symbol *fn)
{
    if (!fn->is_kernel || !emit_group_needs_scratch(ctx, fn))
        return;
    emit_group_library(ctx, LEVEL_WG);
    emit_line_begin(ctx, (SrcLoc){0, 0});
    /* A slot per work-item: with a constant reqd_work_group_size the kernel
     * needs only that many (the default serves the device's largest
     * work-group: 64 KiB on a CPU, which the kernel's own local memory
     * competes with). */
    long long items = 1;
    for (int d = 0; d < 3 && items > 0; d++) {
        int size = fn->reqd_work_group_size[d];
        if (fn->reqd_work_group_size_expr[d] || (d == 0 && size <= 0))
            items = 0;
        else if (size > 0)
            items *= size;
    }
    if (items > 0 && items < 65536)
        emit_out(ctx, "__local ulong sgc_wg_scratch[SGC_WG_SCRATCH_FOR(%lld)];", items);
    else
        emit_out(ctx, "__local ulong sgc_wg_scratch[SGC_WG_SCRATCH_SLOTS];");
    emit_line_end(ctx);
}

void emit_opencl_scratch_params(EmitCtx *ctx, const Symbol *fn, bool first)
{
    if (fn->is_kernel || !emit_group_needs_scratch(ctx, fn))
        return;
    emit_out(ctx, "%s__local ulong *sgc_wg_scratch", first ? "" : ", ");
}

void emit_opencl_scratch_args(EmitCtx *ctx, const Node *call, const Symbol *callee, bool first)
{
    (void)call;
    if (callee->is_kernel || !emit_group_needs_scratch(ctx, callee))
        return;
    emit_out(ctx, "%ssgc_wg_scratch", first ? "" : ", ");
}

const EmitLowering emit_opencl_lowering = {
    .group_sections = {&prelude_opencl_base, &prelude_opencl_subgroup, &prelude_opencl_workgroup},
    .barrier_section = &prelude_opencl_barrier,
    .barrier_needs_tiers = true,
    .ns = "sgc_",
    .sub_group_max = 64,
    .sub_group_max_why = "the largest sub-group size of any device",
    .narrow_tier = "SGC_TIER_NVPTX",
    .narrow_tier_max = 32,
    .narrow_tier_why = "an NVIDIA warp",
    .mask_type = "ulong",
    .ballot = "sgc_ballot",
    .maybe_unused = "",
    .elem_arg = print_elem_arg,
    .fixed_size_ctor = opencl_fixed_size_ctor,
    .method = opencl_method,
    .function = opencl_function,
    .algorithm = opencl_algorithm,
    .joint = opencl_joint,
};
