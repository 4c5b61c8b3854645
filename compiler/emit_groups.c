/* emit_groups.c — group lowering (being written). */
#include "emit_lowering.h"

static void group_type(EmitCtx *ctx, const Type *ty, bool cuda)
{
    if (ty->kind == TY_ASYNC_BARRIER || ty->kind == TY_ARRIVAL_TOKEN) {
        if (cuda)
            emit_barrier_type_cuda(ctx, ty);
        else
            emit_barrier_type_opencl(ctx, ty);
        return;
    }
    emit_group_type_unimplemented(ctx, ty);
}

void emit_groups_type_opencl(EmitCtx *ctx, const Type *ty) { group_type(ctx, ty, false); }
void emit_groups_type_cuda(EmitCtx *ctx, const Type *ty) { group_type(ctx, ty, true); }
void emit_groups_call_opencl(EmitCtx *ctx, const Node *call) { emit_group_call_unimplemented(ctx, call); }
void emit_groups_call_cuda(EmitCtx *ctx, const Node *call) { emit_group_call_unimplemented(ctx, call); }
void emit_groups_method_opencl(EmitCtx *ctx, const Node *call, Method method)
{
    emit_group_method_unimplemented(ctx, call, method);
}
void emit_groups_method_cuda(EmitCtx *ctx, const Node *call, Method method)
{
    emit_group_method_unimplemented(ctx, call, method);
}
