/* emit_groups.c — groups (SPEC §1.1) lowered onto the device library in
 * compiler/prelude/{opencl,cuda}_{base,subgroup,workgroup} (docs/GROUPS.md is
 * the calling convention; docs/LOWERING.md "Groups" the emitter's side).
 *
 * The library does the work, so the emitter renames:
 *   - types: work_group -> sgc_work_group / sgc::work_group, the other five
 *     -> sgc_group / sgc::group (one value type carrying a lane mask);
 *   - constructors, members, functions and algorithms -> one library call,
 *     spelled from the tables below.  OpenCL C 1.2 has no overloading, so its
 *     names carry the element type and the operator; CUDA passes the operator
 *     as a functor (sgc::plus{}) and lets templates pick the type, which is
 *     why CUDA arguments are cast to the element type exactly;
 *   - joint_* algorithms -> helper functions generated into the prelude, one
 *     per (algorithm, operator, element type, group class, address space).
 * Each construct asks for the library sections it needs (base < subgroup <
 * workgroup), pasted once and in that order before the body.
 *
 * OpenCL work-group functions need __local scratch, which OpenCL C 1.2 allows
 * only at kernel scope: a kernel that (transitively) calls one declares
 * `__local ulong sgc_wg_scratch[SGC_WG_SCRATCH_SLOTS]` first in its body, and
 * device functions on the path receive it as a hidden trailing parameter of
 * the same name.  The CUDA library keeps its scratch in a static __shared__
 * array, so CUDA needs neither. */
#include "emit_lowering.h"
#include "prelude.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- library sections ---------------------------------------------------- */

typedef enum GroupLevel { LEVEL_BASE, LEVEL_SUB, LEVEL_WG } GroupLevel;

static void need_library(EmitCtx *ctx, GroupLevel level, bool cuda)
{
    /* A blank line between the first section and the piece before it. */
    emit_prelude_piece(ctx, "groups:blank", "\n");
    emit_prelude_piece(ctx, "groups:base", cuda ? prelude_cuda_base : prelude_opencl_base);
    if (level >= LEVEL_SUB)
        emit_prelude_piece(ctx, "groups:subgroup", cuda ? prelude_cuda_subgroup : prelude_opencl_subgroup);
    if (level >= LEVEL_WG)
        emit_prelude_piece(ctx, "groups:workgroup", cuda ? prelude_cuda_workgroup : prelude_opencl_workgroup);
}

static const Type *group_of(const Node *n)
{
    const Type *ty = n ? emit_canonical(n->ty) : NULL;
    return ty && ty->kind == TY_GROUP ? ty : NULL;
}

static bool is_work_group(const Node *n)
{
    const Type *ty = group_of(n);
    return ty && ty->group == GROUP_WORK_GROUP;
}

/* ---- element types -------------------------------------------------------- */

/* The library's name for an element type: OpenCL suffixes and CUDA casts.
 * size_t travels as ulong / unsigned long long (its width differs between
 * devices and CUDA's templates know only the fixed-width types). */
static const char *opencl_elem(TypeKind k)
{
    switch (k) {
    case TY_BOOL: return "bool";
    case TY_CHAR: case TY_SCHAR: return "char";
    case TY_UCHAR: return "uchar";
    case TY_SHORT: return "short";
    case TY_USHORT: return "ushort";
    case TY_UINT: return "uint";
    case TY_LONG: return "long";
    case TY_ULONG: case TY_SIZE_T: return "ulong";
    case TY_FLOAT: return "float";
    case TY_DOUBLE: return "double";
    default: return "int";
    }
}

static const char *cuda_elem(EmitCtx *ctx, TypeKind k)
{
    if (k == TY_SIZE_T)
        return "unsigned long long";
    return ctx->hooks->scalar_type(k == TY_ENUM ? TY_INT : k);
}

static TypeKind elem_kind(const Type *ty)
{
    ty = emit_canonical(ty);
    return ty ? (ty->kind == TY_ENUM ? TY_INT : ty->kind) : TY_INT;
}

/* An argument of element type `k`.  OpenCL converts at the call (the
 * parameter types are fixed), except that size_t is widened explicitly;
 * CUDA deduces T from the argument, so anything not exactly T is cast. */
static void print_elem_arg(EmitCtx *ctx, const Node *arg, TypeKind k, bool cuda)
{
    const Node *value = arg;
    if (value->kind == ND_CAST && value->is_implicit && value->lhs)
        value = value->lhs;
    /* exact also in C++ terms: 'a' is a char there, a < b a bool */
    bool exact = elem_kind(value->ty) == k && k != TY_SIZE_T &&
                 !(cuda && emit_cxx_type_differs(ctx, value));
    if (!cuda && k != TY_SIZE_T) {
        emit_expr(ctx, arg);
    } else if (exact) {
        emit_expr(ctx, value);
    } else {
        emit_out(ctx, "(%s)", cuda ? cuda_elem(ctx, k) : opencl_elem(k));
        emit_expr_prec(ctx, value, PREC_UNARY);
    }
}

/* ---- types ---------------------------------------------------------------- */

static void group_type(EmitCtx *ctx, const Type *ty, bool cuda)
{
    if (ty->kind == TY_ASYNC_BARRIER || ty->kind == TY_ARRIVAL_TOKEN) {
        if (cuda)
            emit_barrier_type_cuda(ctx, ty);
        else
            emit_barrier_type_opencl(ctx, ty);
        return;
    }
    need_library(ctx, LEVEL_BASE, cuda);
    bool wg = ty->group == GROUP_WORK_GROUP;
    if (cuda)
        emit_out(ctx, wg ? "sgc::work_group" : "sgc::group");
    else
        emit_out(ctx, wg ? "sgc_work_group" : "sgc_group");
}

/* ---- constructors --------------------------------------------------------- */

/* N of fixed_size_group<N>: folded, or the spec constant's macro. */
static void print_fixed_size(EmitCtx *ctx, const Node *call)
{
    const Type *ty = group_of(call);
    if (ty && ty->group_size > 0)
        emit_out(ctx, "%lld", (long long)ty->group_size);
    else if (ty && ty->group_size_expr)
        emit_expr_prec(ctx, ty->group_size_expr, PREC_PRIMARY);
    else if (call->template_args.head)
        emit_expr_prec(ctx, call->template_args.head, PREC_PRIMARY);
    else
        emit_error(ctx, call->loc, "internal error: fixed_size_group without a size");
}

/* On NVIDIA every warp, and so every sub-group, of such a kernel is full,
 * and the library can name the constant mask (ptxas then needs no
 * convergence test per shuffle).  Only kernels: a device function may be
 * called from other kernels too. */
bool emit_has_only_full_warps(const Symbol *fn)
{
    if (!fn || !fn->is_kernel)
        return false;
    /* The product is a multiple of 32 when its factors hold five factors of
     * two between them (counted, not multiplied: sizes may be large). */
    int twos = 0;
    for (int d = 0; d < 3; d++) {
        int size = fn->reqd_work_group_size[d];
        if (size <= 0)
            return false;
        for (; size % 2 == 0 && twos < 5; size /= 2)
            twos++;
    }
    return twos >= 5;
}

/* fixed_size_group<S> with S a spec constant: N is known only when the
 * device compiler runs, so the output checks SPEC 1.1's rule there, in the
 * preprocessor (the host binds S with -DSGC_SPEC_<id>).  The maximum is what
 * the target knows: CUDA and the nvptx tier 32 (a warp), the kernel's
 * reqd_sub_group_size, else 64 (the largest sub-group of any device and of
 * the 64-bit lane masks).  The wg tier refuses the kernel anyway (no
 * sub-groups).  Sizes written as larger expressions are left to the
 * library (CUDA: its static_assert). */
static void fixed_size_check(EmitCtx *ctx, const Node *call, bool cuda)
{
    const Type *ty = group_of(call);
    const Node *size = ty && ty->group_size <= 0 ? ty->group_size_expr : NULL;
    while (size && size->kind == ND_CAST && size->is_implicit)
        size = size->lhs;
    if (!size || size->kind != ND_IDENT || !size->sym || size->sym->kind != SYM_SPEC_CONST)
        return;
    const Symbol *sc = size->sym;
    const Symbol *fn = ctx->function;
    int reqd = fn && fn->is_kernel ? fn->reqd_sub_group_size : 0;
    unsigned id = (unsigned)sc->spec_id;
    char key[160];
    snprintf(key, sizeof key, "fixed-size-check:%s:%d", sc->name, reqd);
    EmitBuffer b;
    emit_buffer_init(&b);
    emit_printf(&b, "\n/* fixed_size_group<%s> (docs/REFERENCE.md §6): the bound value must be a power of two,\n"
                    " * at most the sub-group size. */\n"
                    "#if defined(SGC_SPEC_%u) && !defined(SGC_TIER_WG)\n"
                    "#if (SGC_SPEC_%u) <= 0 || ((SGC_SPEC_%u) & ((SGC_SPEC_%u) - 1)) != 0\n"
                    "#error \"sgc: fixed_size_group<%s>: spec constant '%s' (ID %u) must be "
                    "a power of two\"\n",
                sc->name, id, id, id, id, sc->name, sc->name, id);
    const char *why = cuda ? "a CUDA warp" : "the largest sub-group size of any device";
    int max = cuda ? 32 : 64;
    if (reqd > 0) {
        max = reqd;
        why = "the kernel's reqd_sub_group_size";
    }
    if (!cuda && reqd == 0)
        emit_printf(&b, "#elif defined(SGC_TIER_NVPTX) && (SGC_SPEC_%u) > 32\n"
                        "#error \"sgc: fixed_size_group<%s>: spec constant '%s' (ID %u) "
                        "must be at most the sub-group size, 32 on this device (an NVIDIA warp)\"\n",
                    id, sc->name, sc->name, id);
    emit_printf(&b, "#elif (SGC_SPEC_%u) > %d\n"
                    "#error \"sgc: fixed_size_group<%s>: spec constant '%s' (ID %u) must be "
                    "at most the sub-group size, %d (%s)\"\n#endif\n#endif\n",
                id, max, sc->name, sc->name, id, max, why);
    emit_prelude_piece(ctx, key, b.data);
    emit_buffer_free(&b);
}

static void group_ctor(EmitCtx *ctx, const Node *call, bool cuda)
{
    Builtin bi = (Builtin)call->builtin;
    need_library(ctx, LEVEL_BASE, cuda);
    const char *ns = cuda ? "sgc::" : "sgc_";
    const Node *parent = emit_call_arg(call, 0);
    switch (bi) {
    case BI_GET_FIXED_SIZE_GROUP:
        fixed_size_check(ctx, call, cuda);
        if (cuda) {
            emit_out(ctx, "sgc::get_fixed_size_group<");
            print_fixed_size(ctx, call);
            emit_out(ctx, ">(");
            emit_expr(ctx, parent);
        } else {
            emit_out(ctx, "sgc_get_fixed_size_group(");
            emit_expr(ctx, parent);
            emit_out(ctx, ", ");
            print_fixed_size(ctx, call);
        }
        emit_out(ctx, ")");
        return;
    case BI_GET_TANGLE_GROUP:
        emit_out(ctx, "%sget_tangle_group(", ns);
        emit_expr(ctx, parent);
        emit_out(ctx, ", ");
        emit_tangle_print_mask(ctx);
        emit_out(ctx, ")");
        return;
    case BI_GET_SUB_GROUP:
        if (emit_has_only_full_warps(ctx->function)) {
            emit_out(ctx, "%sget_sub_group_of_full_warps()", ns);
            return;
        }
        emit_out(ctx, "%sget_sub_group()", ns);
        return;
    default: /* get_work_group, get_ballot_group, get_opportunistic_group */
        emit_out(ctx, "%s%s", ns, builtin_info[bi].name);
        emit_call_args(ctx, call, false);
        return;
    }
}

/* ---- members -------------------------------------------------------------- */

static void group_method(EmitCtx *ctx, const Node *call, Method method, bool cuda)
{
    const Node *recv = call->callee ? call->callee->lhs : NULL;
    if (method == METHOD_NONE || method_info[method].receiver != RECV_GROUP || !recv) {
        emit_error(ctx, call->loc, "internal error: not a group member function");
        emit_out(ctx, "0");
        return;
    }
    need_library(ctx, LEVEL_BASE, cuda);
    const char *name = method_info[method].name;
    if (cuda) {
        emit_expr_prec(ctx, recv, PREC_POSTFIX);
        emit_out(ctx, ".%s()", name);
        return;
    }
    /* sgc_group_linear_id(g) ... sgc_leader(g); work-group: sgc_wg_... */
    if (strncmp(name, "get_", 4) == 0)
        name += 4;
    emit_out(ctx, "sgc_%s%s(", is_work_group(recv) ? "wg_" : "", name);
    emit_expr(ctx, recv);
    emit_out(ctx, ")");
}

/* ---- functions and algorithms --------------------------------------------- */

/* OpenCL spelling of each group function: sgc_[wg_]<stem>[_id][_T], T only
 * when `typed` (votes and the barrier take no element type).  CUDA keeps
 * SGC's names.  GROUP_FNS(X): X(builtin, opencl stem, typed) */
#define GROUP_FNS(X)                            \
    X(GROUP_BARRIER, "group_barrier", false)    \
    X(GROUP_BROADCAST, "broadcast", true)       \
    X(ANY_OF_GROUP, "any", false)               \
    X(ALL_OF_GROUP, "all", false)               \
    X(NONE_OF_GROUP, "none", false)             \
    X(SHIFT_GROUP_LEFT, "shift_left", true)     \
    X(SHIFT_GROUP_RIGHT, "shift_right", true)   \
    X(PERMUTE_GROUP_BY_XOR, "permute_xor", true) \
    X(SELECT_FROM_GROUP, "select", true)

/* GROUP_ALGOS(X): X(builtin, opencl stem) */
#define GROUP_ALGOS(X)                                  \
    X(REDUCE_OVER_GROUP, "reduce")                      \
    X(EXCLUSIVE_SCAN_OVER_GROUP, "exclusive_scan")      \
    X(INCLUSIVE_SCAN_OVER_GROUP, "inclusive_scan")

static void print_scratch_arg(EmitCtx *ctx, bool cuda)
{
    if (!cuda)
        emit_out(ctx, ", sgc_wg_scratch");
}

/* The result of size_t algorithms comes back as ulong. */
static void open_result(EmitCtx *ctx, TypeKind k)
{
    if (k == TY_SIZE_T)
        emit_out(ctx, "(size_t)");
}

static void group_fn(EmitCtx *ctx, const Node *call, bool cuda)
{
    Builtin bi = (Builtin)call->builtin;
    const Node *g = emit_call_arg(call, 0);
    const Node *x = emit_call_arg(call, 1), *third = emit_call_arg(call, 2);
    bool wg = is_work_group(g);
    need_library(ctx, wg && bi != BI_GROUP_BARRIER ? LEVEL_WG : wg ? LEVEL_BASE : LEVEL_SUB, cuda);
    const char *stem = NULL;
    bool typed = false;
    switch (bi) {
#define X(b, s, t) case BI_##b: stem = s; typed = t; break;
    GROUP_FNS(X)
#undef X
    default:
        emit_error(ctx, call->loc, "internal error: not a group function");
        return;
    }
    TypeKind k = typed ? elem_kind(call->ty) : TY_BOOL;
    if (typed)
        open_result(ctx, k);
    if (cuda) {
        emit_out(ctx, "sgc::%s(", builtin_info[bi].name);
        emit_expr(ctx, g);
    } else if (bi == BI_GROUP_BARRIER) {
        emit_out(ctx, "sgc_%s(", wg ? "wg_barrier" : "group_barrier");
        emit_expr(ctx, g);
    } else {
        bool by_id = bi == BI_GROUP_BROADCAST && third;
        emit_out(ctx, "sgc_%s%s%s%s%s(", wg ? "wg_" : "", stem, by_id ? "_id" : "", typed ? "_" : "",
                 typed ? opencl_elem(k) : "");
        emit_expr(ctx, g);
        if (wg)
            print_scratch_arg(ctx, cuda);
    }
    if (x) {
        emit_out(ctx, ", ");
        if (typed)
            print_elem_arg(ctx, x, k, cuda);
        else
            emit_expr(ctx, x);
    }
    if (third) {
        emit_out(ctx, ", ");
        emit_expr(ctx, third);
    } else if (bi == BI_SHIFT_GROUP_LEFT || bi == BI_SHIFT_GROUP_RIGHT) {
        emit_out(ctx, ", 1u"); /* the default delta */
    }
    emit_out(ctx, ")");
}

/* The group argument of an algorithm.  A fixed-size group whose every
 * maker reaches this call (sema_flow.c, "creators") goes through
 * with_creators, which lets the library trust what it saw when the group
 * was made -- on NVIDIA, that the whole warp made it, so the call needs no
 * test of the active lanes (docs/GROUPS.md "Creation facts"). */
static void print_group_arg(EmitCtx *ctx, const Node *call, const Node *g, bool cuda)
{
    const Symbol *sym = g->kind == ND_IDENT ? g->sym : NULL;
    bool fixed = sym && sym->made_fixed_group && !sym->group_rewritten;
    bool reach = fixed && !call->creators_may_diverge;
    if (fixed && ctx->options->stats) {
        ctx->options->stats->fixed_group_calls++;
        ctx->options->stats->creator_facts += reach;
    }
    if (reach)
        emit_out(ctx, cuda ? "sgc::with_creators(" : "sgc_with_creators(");
    emit_expr(ctx, g);
    if (reach)
        emit_out(ctx, ")");
}

static void group_algo(EmitCtx *ctx, const Node *call, bool cuda)
{
    Builtin bi = (Builtin)call->builtin;
    const char *stem = NULL;
    switch (bi) {
#define X(b, s) case BI_##b: stem = s; break;
    GROUP_ALGOS(X)
#undef X
    default:
        emit_error(ctx, call->loc, "internal error: not a group algorithm");
        return;
    }
    const Node *g = emit_call_arg(call, 0), *x = emit_call_arg(call, 1), *init = NULL;
    if (call->args.count == 4)
        init = emit_call_arg(call, bi == BI_INCLUSIVE_SCAN_OVER_GROUP ? 3 : 2);
    const char *op = group_op_names[call->group_op];
    TypeKind k = elem_kind(call->ty);
    bool wg = is_work_group(g);
    need_library(ctx, wg ? LEVEL_WG : LEVEL_SUB, cuda);
    open_result(ctx, k);
    if (cuda) {
        /* SGC's argument order: (g, x, [init,] OP) and (g, x, OP [, init]). */
        bool init_last = bi == BI_INCLUSIVE_SCAN_OVER_GROUP;
        emit_out(ctx, "sgc::%s(", builtin_info[bi].name);
        print_group_arg(ctx, call, g, true);
        emit_out(ctx, ", ");
        print_elem_arg(ctx, x, k, true);
        if (init && !init_last) {
            emit_out(ctx, ", ");
            print_elem_arg(ctx, init, k, true);
        }
        emit_out(ctx, ", sgc::%s{}", op);
        if (init && init_last) {
            emit_out(ctx, ", ");
            print_elem_arg(ctx, init, k, true);
        }
        emit_out(ctx, ")");
        return;
    }
    emit_out(ctx, "sgc_%s%s%s_%s_%s(", wg ? "wg_" : "", stem, init ? "_init" : "", op, opencl_elem(k));
    print_group_arg(ctx, call, g, false);
    if (wg)
        print_scratch_arg(ctx, cuda);
    emit_out(ctx, ", ");
    print_elem_arg(ctx, x, k, false);
    if (init) {
        emit_out(ctx, ", ");
        print_elem_arg(ctx, init, k, false);
    }
    emit_out(ctx, ")");
}

/* ---- joint algorithms ----------------------------------------------------- */

/* joint_*(g, first, last, ...): each member takes the elements at its local
 * id plus multiples of the local range, folds them, and the group algorithm
 * combines the members' partial results; scans go through [first, last) one
 * chunk of `range` elements at a time, carrying the running total.  The
 * trip counts depend only on the range, so members stay converged.
 *
 * CUDA: templates over the group type (both group classes have the same
 * members and algorithm overloads), pasted once; V, the value type, is
 * explicit so that size_t ranges reduce as unsigned long long. */
static const char cuda_joint_library[] =
    "\n/* joint_* algorithms (docs/REFERENCE.md §6), generated by sgcc's emit_groups.c. */\n"
    "namespace sgc {\n"
    "template <class V, class G, class T, class Op>\n"
    "__device__ __forceinline__ V joint_reduce(G g, const T *first, const T *last, Op op)\n"
    "{\n"
    "    unsigned lid = g.get_local_linear_id(), range = g.get_local_linear_range();\n"
    "    size_t n = (size_t)(last - first);\n"
    "    V acc = Op::template identity<V>();\n"
    "    for (size_t i = lid; i < n; i += range)\n"
    "        acc = op(acc, Op::template in<V>((V)first[i]));\n"
    "    return reduce_over_group(g, acc, op);\n"
    "}\n"
    "template <class V, class G, class T, class Op>\n"
    "__device__ __forceinline__ V joint_reduce(G g, const T *first, const T *last, V init, Op op)\n"
    "{\n"
    "    return op(Op::template in<V>(init), joint_reduce<V>(g, first, last, op));\n"
    "}\n"
    "template <bool Inclusive, class V, class G, class T, class Op>\n"
    "__device__ __forceinline__ void joint_scan(G g, const T *first, const T *last, T *result, Op op, V carry)\n"
    "{\n"
    "    unsigned lid = g.get_local_linear_id(), range = g.get_local_linear_range();\n"
    "    size_t n = (size_t)(last - first);\n"
    "    for (size_t base = 0; base < n; base += range) {\n"
    "        size_t i = base + lid;\n"
    "        V x = i < n ? Op::template in<V>((V)first[i]) : Op::template identity<V>();\n"
    "        V part = Inclusive ? inclusive_scan_over_group(g, x, op) : exclusive_scan_over_group(g, x, op);\n"
    "        V total = reduce_over_group(g, x, op);\n"
    "        if (i < n)\n"
    "            result[i] = (T)op(carry, part);\n"
    "        carry = op(carry, total);\n"
    "    }\n"
    "}\n"
    "template <class V, class G, class T, class Op>\n"
    "__device__ __forceinline__ void joint_exclusive_scan(G g, const T *first, const T *last, T *result, Op op)\n"
    "{\n"
    "    joint_scan<false>(g, first, last, result, op, Op::template identity<V>());\n"
    "}\n"
    "template <class V, class G, class T, class Op>\n"
    "__device__ __forceinline__ void joint_exclusive_scan(G g, const T *first, const T *last, T *result, Op op, V init)\n"
    "{\n"
    "    joint_scan<false>(g, first, last, result, op, Op::template in<V>(init));\n"
    "}\n"
    "template <class V, class G, class T, class Op>\n"
    "__device__ __forceinline__ void joint_inclusive_scan(G g, const T *first, const T *last, T *result, Op op)\n"
    "{\n"
    "    joint_scan<true>(g, first, last, result, op, Op::template identity<V>());\n"
    "}\n"
    "template <class V, class G, class T, class Op>\n"
    "__device__ __forceinline__ void joint_inclusive_scan(G g, const T *first, const T *last, T *result, Op op, V init)\n"
    "{\n"
    "    joint_scan<true>(g, first, last, result, op, Op::template in<V>(init));\n"
    "}\n"
    "/* Whether pred(x) == want for some element. */\n"
    "template <class G, class T, class P>\n"
    "__device__ __forceinline__ bool joint_some(G g, const T *first, const T *last, P pred, bool want)\n"
    "{\n"
    "    unsigned lid = g.get_local_linear_id(), range = g.get_local_linear_range();\n"
    "    size_t n = (size_t)(last - first);\n"
    "    bool hit = false;\n"
    "    for (size_t i = lid; i < n; i += range)\n"
    "        hit = hit || pred(first[i]) == want;\n"
    "    return any_of_group(g, hit);\n"
    "}\n"
    "template <class G, class T, class P>\n"
    "__device__ __forceinline__ bool joint_any_of(G g, const T *first, const T *last, P pred)\n"
    "{\n"
    "    return joint_some(g, first, last, pred, true);\n"
    "}\n"
    "template <class G, class T, class P>\n"
    "__device__ __forceinline__ bool joint_all_of(G g, const T *first, const T *last, P pred)\n"
    "{\n"
    "    return !joint_some(g, first, last, pred, false);\n"
    "}\n"
    "template <class G, class T, class P>\n"
    "__device__ __forceinline__ bool joint_none_of(G g, const T *first, const T *last, P pred)\n"
    "{\n"
    "    return !joint_some(g, first, last, pred, true);\n"
    "}\n"
    "} /* namespace sgc */\n";

static void cuda_joint(EmitCtx *ctx, const Node *call, TypeKind k)
{
    Builtin bi = (Builtin)call->builtin;
    bool pred = bi == BI_JOINT_ANY_OF || bi == BI_JOINT_ALL_OF || bi == BI_JOINT_NONE_OF;
    emit_prelude_piece(ctx, "groups:joint", cuda_joint_library);
    if (pred) {
        emit_out(ctx, "sgc::%s", builtin_info[bi].name);
        emit_call_args(ctx, call, false);
        return;
    }
    int op_at = bi == BI_JOINT_REDUCE ? call->args.count - 1 : 4;
    const char *op = group_op_names[call->group_op];
    if (bi == BI_JOINT_REDUCE)
        open_result(ctx, k);
    emit_out(ctx, "sgc::%s<%s>(", builtin_info[bi].name, cuda_elem(ctx, k));
    int i = 0;
    for (const Node *a = call->args.head; a; a = a->next, i++) {
        emit_out(ctx, i ? ", " : "");
        bool is_init = (bi == BI_JOINT_REDUCE && i == 3 && call->args.count == 5) || i == 5;
        if (i == op_at)
            emit_out(ctx, "sgc::%s{}", op);
        else if (i == 0)
            print_group_arg(ctx, call, a, true);
        else if (is_init)
            print_elem_arg(ctx, a, k, true);
        else
            emit_expr(ctx, a);
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
    const char *src_as, *dst_as;
} JointShape;

static void joint_head(EmitBuffer *b, const JointShape *j, const char *ret, const char *name)
{
    emit_printf(b, "\ninline %s %s(%s g%s, __%s const %s *first, __%s const %s *last", ret, name,
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
                   "    %s sum = SGC_ID_%s(%s);\n"
                   "    for (size_t i = lo; i < hi; i++)\n"
                   "        sum = SGC_OP_%s(sum, SGC_IN_%s(%s, (%s)first[i]));\n"
                   "    %s prefix = ", v, op, v, op, op, v, v, v);
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
    case BI_JOINT_REDUCE:
        joint_head(b, j, v, name);
        emit_printf(b, "    %s acc = SGC_ID_%s(%s);\n    for (size_t i = lid; i < n; i += range)\n"
                       "        acc = SGC_OP_%s(acc, SGC_IN_%s(%s, (%s)first[i]));\n    return ",
                    v, op, v, op, op, v, v);
        joint_algo_call(b, j, j->init ? "reduce_init" : "reduce");
        emit_printf(b, "acc%s);\n}\n", j->init ? ", init" : "");
        return;
    default: {
        bool incl = j->bi == BI_JOINT_INCLUSIVE_SCAN;
        joint_head(b, j, "void", name);
        if (j->init)
            emit_printf(b, "    %s carry = SGC_IN_%s(%s, init);\n", v, op, v);
        else
            emit_printf(b, "    %s carry = SGC_ID_%s(%s);\n", v, op, v);
        if (j->wg) {
            opencl_joint_wg_scan_body(b, j, incl);
            return;
        }
        emit_printf(b, "    for (size_t base = 0; base < n; base += range) {\n"
                       "        size_t i = base + lid;\n"
                       "        %s x = i < n ? SGC_IN_%s(%s, (%s)first[i]) : SGC_ID_%s(%s);\n"
                       "        %s part = ", v, op, v, v, op, v, v);
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
    emit_out(ctx, "(%s);", opencl_elem(elem_kind(fn->ty->params->ty)));
    ctx->out = saved;
}

static void opencl_joint(EmitCtx *ctx, const Node *call, TypeKind k)
{
    Builtin bi = (Builtin)call->builtin;
    const Node *g = emit_call_arg(call, 0), *first = emit_call_arg(call, 1);
    bool pred = bi == BI_JOINT_ANY_OF || bi == BI_JOINT_ALL_OF || bi == BI_JOINT_NONE_OF;
    bool scan = bi == BI_JOINT_EXCLUSIVE_SCAN || bi == BI_JOINT_INCLUSIVE_SCAN;
    const Type *pty = emit_canonical(first->ty);
    const Node *pred_fn = pred ? emit_call_arg(call, 3) : NULL;
    JointShape j = {
        .bi = bi, .wg = is_work_group(g),
        .init = (bi == BI_JOINT_REDUCE && call->args.count == 5) || (scan && call->args.count == 6),
        .op = pred ? (pred_fn && pred_fn->sym ? pred_fn->sym->name : "") : group_op_names[call->group_op],
        .value = opencl_elem(k),
        .elem = k == TY_SIZE_T ? "size_t" : opencl_elem(k),
        .src_as = as_name(pty),
        .dst_as = scan ? as_name(emit_canonical(emit_call_arg(call, 3)->ty)) : NULL,
    };
    if (pred && !(pred_fn && pred_fn->sym && pred_fn->sym->ty && pred_fn->sym->ty->params)) {
        emit_error(ctx, call->loc, "internal error: joint predicate without a function");
        return;
    }
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
        open_result(ctx, k);
    emit_out(ctx, "%s(", name);
    if (pred)
        emit_expr(ctx, g);
    else
        print_group_arg(ctx, call, g, false);
    if (j.wg)
        print_scratch_arg(ctx, false);
    int i = 0, op_at = bi == BI_JOINT_REDUCE ? call->args.count - 1 : pred ? 3 : 4;
    for (const Node *a = call->args.head; a; a = a->next, i++) {
        if (i == 0 || i == op_at)
            continue;
        emit_out(ctx, ", ");
        if ((bi == BI_JOINT_REDUCE && i == 3) || i == 5)
            print_elem_arg(ctx, a, k, false);
        else
            emit_expr(ctx, a);
    }
    emit_out(ctx, ")");
}

static void group_joint(EmitCtx *ctx, const Node *call, bool cuda)
{
    const Node *first = emit_call_arg(call, 1);
    const Type *pty = first ? emit_canonical(first->ty) : NULL;
    if (!pty || pty->kind != TY_PTR || call->args.count < 4) {
        emit_error(ctx, call->loc, "internal error: malformed joint algorithm");
        return;
    }
    need_library(ctx, is_work_group(emit_call_arg(call, 0)) ? LEVEL_WG : LEVEL_SUB, cuda);
    TypeKind k = elem_kind(pty->base);
    if (cuda)
        cuda_joint(ctx, call, k);
    else
        opencl_joint(ctx, call, k);
}

static void group_call(EmitCtx *ctx, const Node *call, bool cuda)
{
    switch (builtin_info[call->builtin].kind) {
    case BK_GROUP_CTOR: group_ctor(ctx, call, cuda); return;
    case BK_GROUP_FN: group_fn(ctx, call, cuda); return;
    case BK_GROUP_ALGO: group_algo(ctx, call, cuda); return;
    case BK_JOINT: group_joint(ctx, call, cuda); return;
    default:
        emit_error(ctx, call->loc, "internal error: not a group built-in");
        emit_out(ctx, "0");
        return;
    }
}

/* ---- OpenCL work-group scratch -------------------------------------------- */

/* A function needs the scratch when its body (Symbol.has_work_group_calls,
 * set by sema), or a function it calls, has a work-group function other than
 * the barrier.  (Recursion is an error in SGC, so the call graph is a DAG;
 * depth bounds it anyway.) */
static bool function_needs_scratch_uncached(EmitCtx *ctx, const Symbol *fn, int depth);

/* Answers already computed, per function: every declaration, parameter list
 * and call site asks, so without them the printer walks a function's body
 * (and its callees') once per call.  Open addressing on the Symbol address;
 * lives in ctx->group_data until emit_groups_free. */
typedef struct ScratchMemo {
    const Symbol **keys;
    bool *values;
    size_t capacity, count; /* capacity: a power of two, or 0 */
} ScratchMemo;

static size_t memo_slot(const ScratchMemo *memo, const Symbol *fn)
{
    size_t h = (size_t)(uintptr_t)fn;
    h ^= h >> 17;
    h *= 0x9e3779b97f4a7c15ull;
    size_t i = (h >> 7) & (memo->capacity - 1);
    while (memo->keys[i] && memo->keys[i] != fn)
        i = (i + 1) & (memo->capacity - 1);
    return i;
}

static void memo_put(ScratchMemo *memo, const Symbol *fn, bool value)
{
    if ((memo->count + 1) * 2 > memo->capacity) {
        ScratchMemo bigger = {.capacity = memo->capacity ? memo->capacity * 2 : 64};
        bigger.keys = calloc(bigger.capacity, sizeof *bigger.keys);
        bigger.values = calloc(bigger.capacity, sizeof *bigger.values);
        if (!bigger.keys || !bigger.values)
            abort();
        for (size_t i = 0; i < memo->capacity; i++)
            if (memo->keys[i]) {
                size_t j = memo_slot(&bigger, memo->keys[i]);
                bigger.keys[j] = memo->keys[i];
                bigger.values[j] = memo->values[i];
                bigger.count++;
            }
        free(memo->keys);
        free(memo->values);
        *memo = bigger;
    }
    size_t i = memo_slot(memo, fn);
    if (!memo->keys[i])
        memo->count++;
    memo->keys[i] = fn;
    memo->values[i] = value;
}

/* A "true" holds at any depth; a "false" is only final when found from the
 * top (depth 0), since the depth bound may have cut the search short. */
static bool function_needs_scratch(EmitCtx *ctx, const Symbol *fn, int depth)
{
    if (!fn || fn->kind != SYM_FUNC || !fn->def || depth > 64)
        return false;
    ScratchMemo *memo = ctx->group_data;
    if (!memo) {
        memo = calloc(1, sizeof *memo);
        if (!memo)
            abort();
        ctx->group_data = memo;
    }
    if (memo->capacity) {
        size_t i = memo_slot(memo, fn);
        if (memo->keys[i])
            return memo->values[i];
    }
    bool needs = function_needs_scratch_uncached(ctx, fn, depth);
    if (needs || depth == 0)
        memo_put(memo, fn, needs);
    return needs;
}

static bool function_needs_scratch_uncached(EmitCtx *ctx, const Symbol *fn, int depth)
{
    if (fn->has_work_group_calls)
        return true;
    for (const CallEdge *e = fn->calls; e; e = e->next)
        if (function_needs_scratch(ctx, e->callee, depth + 1))
            return true;
    return false;
}

void emit_groups_free(EmitCtx *ctx)
{
    ScratchMemo *memo = ctx->group_data;
    if (!memo)
        return;
    free(memo->keys);
    free(memo->values);
    free(memo);
    ctx->group_data = NULL;
}

void emit_groups_prologue_opencl(EmitCtx *ctx, const Symbol *fn)
{
    if (!fn->is_kernel || !function_needs_scratch(ctx, fn, 0))
        return;
    need_library(ctx, LEVEL_WG, false);
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

void emit_groups_params_opencl(EmitCtx *ctx, const Symbol *fn, bool first)
{
    if (fn->is_kernel || !function_needs_scratch(ctx, fn, 0))
        return;
    emit_out(ctx, "%s__local ulong *sgc_wg_scratch", first ? "" : ", ");
}

void emit_groups_args_opencl(EmitCtx *ctx, const Node *call, const Symbol *callee, bool first)
{
    (void)call;
    if (callee->is_kernel || !function_needs_scratch(ctx, callee, 0))
        return;
    emit_out(ctx, "%ssgc_wg_scratch", first ? "" : ", ");
}

/* ---- hook entry points ---------------------------------------------------- */

void emit_groups_type_opencl(EmitCtx *ctx, const Type *ty) { group_type(ctx, ty, false); }
void emit_groups_type_cuda(EmitCtx *ctx, const Type *ty) { group_type(ctx, ty, true); }
void emit_groups_call_opencl(EmitCtx *ctx, const Node *call) { group_call(ctx, call, false); }
void emit_groups_call_cuda(EmitCtx *ctx, const Node *call) { group_call(ctx, call, true); }

void emit_groups_method_opencl(EmitCtx *ctx, const Node *call, Method method)
{
    group_method(ctx, call, method, false);
}

void emit_groups_method_cuda(EmitCtx *ctx, const Node *call, Method method)
{
    group_method(ctx, call, method, true);
}
