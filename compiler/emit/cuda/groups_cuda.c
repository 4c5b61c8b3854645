/* groups_cuda.c — how the CUDA C device library (cuda_*.cuh, barrier.cuh
 * beside this file) spells the group lowering of emit_groups.c.
 *
 * CUDA keeps SGC's names in namespace sgc, passes the operator as a functor
 * (sgc::plus{}) and lets templates pick the element type, which is why
 * arguments are cast to the element type exactly.  The library keeps its
 * work-group scratch in a static __shared__ array, so no scratch travels. */
#include "emit/cuda/cuda_target.h"
#include "prelude.h"

/* The library's name for an element type: size_t travels as unsigned long
 * long (CUDA's templates know only the fixed-width types). */
static const char *cuda_elem(EmitCtx *ctx, TypeKind k)
{
    if (k == TY_SIZE_T)
        return "unsigned long long";
    return ctx->hooks->scalar_type(k == TY_ENUM ? TY_INT : k);
}

/* An argument of element type `k`: the templates deduce T from it, so
 * anything not exactly T -- also in C++ terms, where 'a' is a char and
 * a < b a bool -- is cast. */
static void print_elem_arg(EmitCtx *ctx, const Node *arg, TypeKind k)
{
    const Node *value = arg;
    if (value->kind == ND_CAST && value->is_implicit && value->lhs)
        value = value->lhs;
    if (emit_group_elem_kind(value->ty) == k && k != TY_SIZE_T && !emit_cxx_type_differs(ctx, value)) {
        emit_expr(ctx, value);
        return;
    }
    emit_out(ctx, "(%s)", cuda_elem(ctx, k));
    emit_expr_prec(ctx, value, PREC_UNARY);
}

static void cuda_fixed_size_ctor(EmitCtx *ctx, const Node *call, const Node *parent)
{
    emit_out(ctx, "sgc::get_fixed_size_group<");
    emit_group_print_size(ctx, call);
    emit_out(ctx, ">(");
    emit_expr(ctx, parent);
    emit_out(ctx, ")");
}

static void cuda_method(EmitCtx *ctx, const Node *recv, const char *name, bool work_group)
{
    (void)work_group;
    emit_expr_prec(ctx, recv, PREC_POSTFIX);
    emit_out(ctx, ".%s()", name);
}

static void cuda_function(EmitCtx *ctx, const GroupCall *c)
{
    emit_out(ctx, "sgc::%s(", builtin_info[c->builtin].name);
    emit_expr(ctx, c->group);
    emit_group_print_fn_rest(ctx, c);
}

/* SGC's argument order is kept: (g, x, [init,] OP) and (g, x, OP [, init]). */
static void cuda_algorithm(EmitCtx *ctx, const GroupCall *c)
{
    bool init_last = c->builtin == BI_INCLUSIVE_SCAN_OVER_GROUP;
    emit_out(ctx, "sgc::%s(", builtin_info[c->builtin].name);
    emit_group_print_arg(ctx, c->call, c->group);
    emit_out(ctx, ", ");
    print_elem_arg(ctx, c->value, c->elem);
    if (c->init && !init_last) {
        emit_out(ctx, ", ");
        print_elem_arg(ctx, c->init, c->elem);
    }
    emit_out(ctx, ", sgc::%s{}", c->op);
    if (c->init && init_last) {
        emit_out(ctx, ", ");
        print_elem_arg(ctx, c->init, c->elem);
    }
    emit_out(ctx, ")");
}

/* joint_*(g, first, last, ...): each member takes the elements at its local
 * id plus multiples of the local range, folds them, and the group algorithm
 * combines the members' partial results; scans go through [first, last) one
 * chunk of `range` elements at a time, carrying the running total.  The
 * trip counts depend only on the range, so members stay converged.
 *
 * The library's templates (cuda_joint.cuh) work over the group type (both
 * group classes have the same members and algorithm overloads); V, the value
 * type, is explicit so that size_t ranges reduce as unsigned long long. */
static void cuda_joint(EmitCtx *ctx, const Node *call, TypeKind k)
{
    Builtin bi = (Builtin)call->builtin;
    bool pred = bi == BI_JOINT_ANY_OF || bi == BI_JOINT_ALL_OF || bi == BI_JOINT_NONE_OF;
    emit_prelude_piece(ctx, "groups:joint", prelude_cuda_joint);
    if (pred) {
        emit_out(ctx, "sgc::%s", builtin_info[bi].name);
        emit_call_args(ctx, call, false);
        return;
    }
    int op_at = builtin_name_arg(bi, call->args.count), init_at = builtin_init_arg(bi, call->args.count);
    const char *op = group_op_names[call->group_op];
    if (bi == BI_JOINT_REDUCE)
        emit_group_open_result(ctx, k);
    emit_out(ctx, "sgc::%s<%s>(", builtin_info[bi].name, cuda_elem(ctx, k));
    int i = 0;
    for (const Node *a = call->args.head; a; a = a->next, i++) {
        emit_out(ctx, i ? ", " : "");
        if (i == op_at)
            emit_out(ctx, "sgc::%s{}", op);
        else if (i == 0)
            emit_group_print_arg(ctx, call, a);
        else if (i == init_at)
            print_elem_arg(ctx, a, k);
        else
            emit_expr(ctx, a);
    }
    emit_out(ctx, ")");
}

const EmitLowering emit_cuda_lowering = {
    .group_sections = {&prelude_cuda_base, &prelude_cuda_subgroup, &prelude_cuda_workgroup},
    .barrier_section = &prelude_cuda_barrier,
    .barrier_needs_tiers = false,
    .ns = "sgc::",
    .sub_group_max = 32,
    .sub_group_max_why = "a CUDA warp",
    .mask_type = "unsigned",
    .ballot = "__ballot_sync",
    .maybe_unused = "[[maybe_unused]] ",
    .elem_arg = print_elem_arg,
    .fixed_size_ctor = cuda_fixed_size_ctor,
    .method = cuda_method,
    .function = cuda_function,
    .algorithm = cuda_algorithm,
    .joint = cuda_joint,
};
