/* emit_barrier.c — split barriers (docs/REFERENCE.md "Split barriers"): async_barrier, arrival_token
 * and async_work_group_copy, lowered onto the device library in
 * each target's barrier.cl / barrier.cuh (docs/BARRIERS.md).
 *
 * The library does the work, so the emitter only renames, by one rule for
 * every member: `b.m(args)` becomes `sgc_async_barrier_m(&b, args)` with the
 * spelling of METHODS in builtins.h; a member added there needs no change
 * here, only its function in every target's library section.  Every target
 * prints the same calls; they differ in the library section they paste
 * (EmitLowering.barrier_section) and in what it needs before it.
 *
 * The first split-barrier construct a unit prints (a type, a member call or
 * a built-in) pastes the section into the prelude, once.  The OpenCL section
 * picks the hardware mbarrier when SGC_TIER_NVPTX is defined, so it asks for
 * the tier block, which the OpenCL unit prelude prints before the pieces;
 * the CUDA section needs nothing and stops sm_70 and older with #error. */
#include "emit/emit_lowering.h"

static void need_library(EmitCtx *ctx)
{
    const EmitLowering *target = ctx->hooks->lowering;
    if (target->barrier_needs_tiers)
        emit_use(ctx, USE_TIERS);
    /* A blank line between the section and the piece before it. */
    emit_prelude_piece(ctx, "async_barrier:blank", "\n");
    emit_prelude_piece(ctx, "async_barrier", *target->barrier_section);
}

void emit_barrier_type(EmitCtx *ctx, const Type *ty)
{
    switch (ty->kind) {
    case TY_ASYNC_BARRIER: emit_out(ctx, "sgc_async_barrier"); break;
    case TY_ARRIVAL_TOKEN: emit_out(ctx, "sgc_arrival_token"); break;
    default:
        emit_error(ctx, ctx->loc, "internal error: not a split-barrier type");
        emit_out(ctx, "int");
        return;
    }
    need_library(ctx);
}

/* The receiver as the library's first argument, a pointer to the barrier:
 * `b[i].m()` passes &b[i]; `p->m()` and `(*p).m()` pass p itself. */
static void print_receiver(EmitCtx *ctx, const Node *member)
{
    const Node *recv = member->lhs;
    if (member->is_arrow) {
        emit_expr(ctx, recv);
    } else if (recv->kind == ND_UNARY && recv->op == OP_DEREF) {
        emit_expr(ctx, recv->lhs);
    } else {
        emit_out(ctx, "&");
        emit_expr_prec(ctx, recv, PREC_UNARY);
    }
}

static void print_method_call(EmitCtx *ctx, const Node *call, Method method)
{
    emit_out(ctx, "sgc_async_barrier_%s(", method_info[method].name);
    print_receiver(ctx, call->callee);
    for (const Node *a = call->args.head; a; a = a->next) {
        emit_out(ctx, ", ");
        emit_expr(ctx, a);
    }
    emit_out(ctx, ")");
}

/* async_work_group_copy(d, s, n) and async_barrier_max(): the same call
 * with the library's prefix (the copy is a macro counting elements of *d). */
static void print_builtin_call(EmitCtx *ctx, const Node *call)
{
    emit_out(ctx, "sgc_%s", builtin_info[call->builtin].name);
    emit_call_args(ctx, call, false);
}

void emit_barrier_call(EmitCtx *ctx, const Node *call, Method method)
{
    need_library(ctx);
    if (method != METHOD_NONE && method_info[method].receiver == RECV_BARRIER &&
        call->callee && call->callee->kind == ND_MEMBER)
        print_method_call(ctx, call, method);
    else if (method == METHOD_NONE && builtin_info[call->builtin].kind == BK_ASYNC_COPY)
        print_builtin_call(ctx, call);
    else
        emit_error(ctx, call->loc, "internal error: not a split-barrier call");
}
