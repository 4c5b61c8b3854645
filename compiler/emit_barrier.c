/* emit_barrier.c — split-barrier lowering (being written). */
#include "emit_lowering.h"

void emit_barrier_type_opencl(EmitCtx *ctx, const Type *ty) { emit_group_type_unimplemented(ctx, ty); }
void emit_barrier_type_cuda(EmitCtx *ctx, const Type *ty) { emit_group_type_unimplemented(ctx, ty); }
void emit_barrier_call_opencl(EmitCtx *ctx, const Node *call, Method method)
{
    emit_barrier_call_unimplemented(ctx, call, method);
}
void emit_barrier_call_cuda(EmitCtx *ctx, const Node *call, Method method)
{
    emit_barrier_call_unimplemented(ctx, call, method);
}
