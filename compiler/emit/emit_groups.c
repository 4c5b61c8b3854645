/* emit_groups.c — groups (docs/REFERENCE.md "Groups") lowered onto a target's device library
 * (emit/<target>/; docs/GROUPS.md is the calling convention, docs/LOWERING.md
 * "Groups" the emitter's side).
 *
 * The library does the work, so the lowering decides what to print and the
 * target's EmitLowering table (emit_lowering.h) how its library spells it:
 *   - types: work_group -> <ns>work_group, the other five -> <ns>group (one
 *     value type carrying a lane mask);
 *   - constructors, members, functions and algorithms -> one library call;
 *     this file finds the call's parts (value, init, operator, element type,
 *     what the group's makers saw) and the target prints them;
 *   - joint_* algorithms -> helpers of the target's library.
 * Each construct asks for the library sections it needs (base < subgroup <
 * workgroup), pasted once and in that order before the body. */
#include "emit/emit_lowering.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const EmitLowering *lowering(const EmitCtx *ctx) { return ctx->hooks->lowering; }

/* ---- library sections ---------------------------------------------------- */

void emit_group_library(EmitCtx *ctx, GroupLevel level)
{
    static const char *const keys[LEVEL_COUNT] = {"groups:base", "groups:subgroup", "groups:workgroup"};
    /* A blank line between the first section and the piece before it. */
    emit_prelude_piece(ctx, "groups:blank", "\n");
    for (int l = LEVEL_BASE; l <= (int)level; l++)
        emit_prelude_piece(ctx, keys[l], *lowering(ctx)->group_sections[l]);
}

static const Type *group_of(const Node *n)
{
    const Type *ty = n ? emit_canonical(n->ty) : NULL;
    return ty && ty->kind == TY_GROUP ? ty : NULL;
}

bool emit_group_is_work_group(const Node *n)
{
    const Type *ty = group_of(n);
    return ty && ty->group == GROUP_WORK_GROUP;
}

TypeKind emit_group_elem_kind(const Type *ty)
{
    ty = emit_canonical(ty);
    return ty ? (ty->kind == TY_ENUM ? TY_INT : ty->kind) : TY_INT;
}

void emit_group_print_fn_rest(EmitCtx *ctx, const GroupCall *c)
{
    if (c->value) {
        emit_out(ctx, ", ");
        if (c->typed)
            lowering(ctx)->elem_arg(ctx, c->value, c->elem);
        else
            emit_expr(ctx, c->value);
    }
    if (c->extra) {
        emit_out(ctx, ", ");
        emit_expr(ctx, c->extra);
    } else if (c->builtin == BI_SHIFT_GROUP_LEFT || c->builtin == BI_SHIFT_GROUP_RIGHT) {
        emit_out(ctx, ", 1u"); /* the default delta */
    }
    emit_out(ctx, ")");
}

/* The result of size_t algorithms comes back as ulong. */
void emit_group_open_result(EmitCtx *ctx, TypeKind k)
{
    if (k == TY_SIZE_T)
        emit_out(ctx, "(size_t)");
}

/* ---- types ---------------------------------------------------------------- */

void emit_group_type(EmitCtx *ctx, const Type *ty)
{
    if (ty->kind == TY_ASYNC_BARRIER || ty->kind == TY_ARRIVAL_TOKEN) {
        emit_barrier_type(ctx, ty);
        return;
    }
    emit_group_library(ctx, LEVEL_BASE);
    emit_out(ctx, "%s%s", lowering(ctx)->ns, ty->group == GROUP_WORK_GROUP ? "work_group" : "group");
}

/* ---- constructors --------------------------------------------------------- */

/* N of fixed_size_group<N>: folded, or the spec constant's macro. */
void emit_group_print_size(EmitCtx *ctx, const Node *call)
{
    const Type *ty = group_of(call);
    if (ty && ty->group_size > 0)
        emit_out(ctx, "%lld", (long long)ty->group_size);
    else if (ty && ty->group_size_expr)
        emit_expr_prec(ctx, ty->group_size_expr, PREC_PRIMARY);
    else if (call->template_args && call->template_args->head)
        emit_expr_prec(ctx, call->template_args->head, PREC_PRIMARY);
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
 * the target knows (EmitLowering.sub_group_max: CUDA 32, a warp; OpenCL 64,
 * the largest sub-group of any device and of the 64-bit lane masks, and 32
 * on its nvptx tier), or the kernel's reqd_sub_group_size.  The wg tier refuses the kernel anyway (no
 * sub-groups).  Sizes written as larger expressions are left to the
 * library (CUDA: its static_assert). */
static void fixed_size_check(EmitCtx *ctx, const Node *call)
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
    const EmitLowering *target = lowering(ctx);
    const char *why = target->sub_group_max_why;
    int max = target->sub_group_max;
    if (reqd > 0) {
        max = reqd;
        why = "the kernel's reqd_sub_group_size";
    }
    if (target->narrow_tier && reqd == 0)
        emit_printf(&b, "#elif defined(%s) && (SGC_SPEC_%u) > %d\n"
                        "#error \"sgc: fixed_size_group<%s>: spec constant '%s' (ID %u) "
                        "must be at most the sub-group size, %d on this device (%s)\"\n",
                    target->narrow_tier, id, target->narrow_tier_max, sc->name, sc->name, id,
                    target->narrow_tier_max, target->narrow_tier_why);
    emit_printf(&b, "#elif (SGC_SPEC_%u) > %d\n"
                    "#error \"sgc: fixed_size_group<%s>: spec constant '%s' (ID %u) must be "
                    "at most the sub-group size, %d (%s)\"\n#endif\n#endif\n",
                id, max, sc->name, sc->name, id, max, why);
    emit_prelude_piece(ctx, key, b.data);
    emit_buffer_free(&b);
}

static void group_ctor(EmitCtx *ctx, const Node *call)
{
    Builtin bi = (Builtin)call->builtin;
    emit_group_library(ctx, LEVEL_BASE);
    const char *ns = lowering(ctx)->ns;
    const Node *parent = emit_call_arg(call, 0);
    switch (bi) {
    case BI_GET_FIXED_SIZE_GROUP:
        fixed_size_check(ctx, call);
        lowering(ctx)->fixed_size_ctor(ctx, call, parent);
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

void emit_group_method(EmitCtx *ctx, const Node *call, Method method)
{
    const Node *recv = call->callee ? call->callee->lhs : NULL;
    if (method == METHOD_NONE || method_info[method].receiver != RECV_GROUP || !recv) {
        emit_error(ctx, call->loc, "internal error: not a group member function");
        emit_out(ctx, "0");
        return;
    }
    emit_group_library(ctx, LEVEL_BASE);
    lowering(ctx)->method(ctx, recv, method_info[method].name, emit_group_is_work_group(recv));
}

/* ---- functions and algorithms --------------------------------------------- */

/* Whether a group function moves a value of the element type (broadcast,
 * shifts, permute, select) rather than a truth value or nothing. */
static bool moves_value(Builtin bi)
{
    switch (bi) {
    case BI_GROUP_BROADCAST: case BI_SHIFT_GROUP_LEFT: case BI_SHIFT_GROUP_RIGHT:
    case BI_PERMUTE_GROUP_BY_XOR: case BI_SELECT_FROM_GROUP:
        return true;
    default:
        return false;
    }
}

static void group_fn(EmitCtx *ctx, const Node *call)
{
    Builtin bi = (Builtin)call->builtin;
    GroupCall c = {
        .call = call, .builtin = bi,
        .group = emit_call_arg(call, 0), .value = emit_call_arg(call, 1), .extra = emit_call_arg(call, 2),
        .typed = moves_value(bi),
    };
    c.work_group = emit_group_is_work_group(c.group);
    c.elem = c.typed ? emit_group_elem_kind(call->ty) : TY_BOOL;
    emit_group_library(ctx, c.work_group && bi != BI_GROUP_BARRIER ? LEVEL_WG : c.work_group ? LEVEL_BASE : LEVEL_SUB);
    if (c.typed)
        emit_group_open_result(ctx, c.elem);
    lowering(ctx)->function(ctx, &c);
}

/* The group argument of an algorithm.  A fixed-size or ballot group whose
 * every maker reaches this call (sema_flow.c, "creators") goes through
 * with_creators, which lets the library trust what it saw when the group
 * was made -- on NVIDIA, that the whole warp made it, so the call needs no
 * test of the active lanes (docs/GROUPS.md "Creation facts").  --stats
 * counts the fixed-size calls. */
void emit_group_print_arg(EmitCtx *ctx, const Node *call, const Node *g)
{
    const Symbol *sym = g->kind == ND_IDENT ? g->sym : NULL;
    bool kept = sym && !sym->group_rewritten;
    bool fixed = kept && sym->made_fixed_group;
    bool reach = kept && (sym->made_fixed_group || sym->made_ballot_group) && !call->creators_may_diverge;
    if (fixed && ctx->options->stats) {
        ctx->options->stats->fixed_group_calls++;
        ctx->options->stats->creator_facts += reach;
    }
    if (reach)
        emit_out(ctx, "%swith_creators(", lowering(ctx)->ns);
    emit_expr(ctx, g);
    if (reach)
        emit_out(ctx, ")");
}

static void group_algo(EmitCtx *ctx, const Node *call)
{
    Builtin bi = (Builtin)call->builtin;
    GroupCall c = {
        .call = call, .builtin = bi,
        .group = emit_call_arg(call, 0), .value = emit_call_arg(call, 1),
        .op = group_op_names[call->group_op], .elem = emit_group_elem_kind(call->ty),
    };
    int init_at = builtin_init_arg(bi, call->args.count);
    if (init_at >= 0)
        c.init = emit_call_arg(call, init_at);
    c.work_group = emit_group_is_work_group(c.group);
    emit_group_library(ctx, c.work_group ? LEVEL_WG : LEVEL_SUB);
    emit_group_open_result(ctx, c.elem);
    lowering(ctx)->algorithm(ctx, &c);
}

/* ---- joint algorithms ----------------------------------------------------- */

static void group_joint(EmitCtx *ctx, const Node *call)
{
    const Node *first = emit_call_arg(call, 1);
    const Type *pty = first ? emit_canonical(first->ty) : NULL;
    if (!pty || pty->kind != TY_PTR || call->args.count < 4) {
        emit_error(ctx, call->loc, "internal error: malformed joint algorithm");
        return;
    }
    emit_group_library(ctx, emit_group_is_work_group(emit_call_arg(call, 0)) ? LEVEL_WG : LEVEL_SUB);
    lowering(ctx)->joint(ctx, call, emit_group_elem_kind(pty->base));
}

void emit_group_call(EmitCtx *ctx, const Node *call)
{
    switch (builtin_info[call->builtin].kind) {
    case BK_GROUP_CTOR: group_ctor(ctx, call); return;
    case BK_GROUP_FN: group_fn(ctx, call); return;
    case BK_GROUP_ALGO: group_algo(ctx, call); return;
    case BK_JOINT: group_joint(ctx, call); return;
    case BK_WORKITEM: case BK_SYNC: case BK_ATOMIC: case BK_MATH: case BK_MATH_INT: case BK_ASYNC_COPY:
    case BK_PRINTF:
        break;
    }
    emit_error(ctx, call->loc, "internal error: not a group built-in");
    emit_out(ctx, "0");
}

/* ---- work-group scratch (OpenCL passes it to functions that need it) ---- */

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
        bigger.keys = mem_zalloc(bigger.capacity, sizeof *bigger.keys);
        bigger.values = mem_zalloc(bigger.capacity, sizeof *bigger.values);
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
        memo = mem_zalloc(1, sizeof *memo);
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

bool emit_group_needs_scratch(EmitCtx *ctx, const Symbol *fn)
{
    return function_needs_scratch(ctx, fn, 0);
}
