/* emit_lowering.h — the group (SPEC §1.1) and split-barrier (SPEC §1.3)
 * lowerings behind the emitters' hooks (emit_internal.h).  One file per
 * feature, with an OpenCL and a CUDA entry for each hook:
 *   emit_groups.c   group types, constructors, members, functions, algorithms
 *   emit_tangle.c   structured control flow with explicit tangle masks
 *   emit_barrier.c  async_barrier / arrival_token / async_work_group_copy */
#ifndef SGCC_EMIT_LOWERING_H
#define SGCC_EMIT_LOWERING_H

#include "emit_internal.h"

/* group_type hook: TY_GROUP here; TY_ASYNC_BARRIER / TY_ARRIVAL_TOKEN are
 * passed on to emit_barrier_type_*. */
void emit_groups_type_opencl(EmitCtx *ctx, const Type *ty);
void emit_groups_type_cuda(EmitCtx *ctx, const Type *ty);
void emit_groups_call_opencl(EmitCtx *ctx, const Node *call);
void emit_groups_call_cuda(EmitCtx *ctx, const Node *call);
void emit_groups_method_opencl(EmitCtx *ctx, const Node *call, Method method);
void emit_groups_method_cuda(EmitCtx *ctx, const Node *call, Method method);
/* OpenCL only: the __local scratch of work-group functions, declared in
 * kernels and passed to device functions that need it (group_* hooks). */
void emit_groups_prologue_opencl(EmitCtx *ctx, const Symbol *fn);
void emit_groups_params_opencl(EmitCtx *ctx, const Symbol *fn, bool first);
void emit_groups_args_opencl(EmitCtx *ctx, const Node *call, const Symbol *callee, bool first);
/* Frees what the group lowering kept in ctx->group_data (end of a unit). */
void emit_groups_free(EmitCtx *ctx);
/* A kernel whose required work-group size is a multiple of 32: its
 * sub-groups are full warps on NVIDIA (docs/GROUPS.md "Full warps"). */
bool emit_has_only_full_warps(const Symbol *fn);

void emit_barrier_type_opencl(EmitCtx *ctx, const Type *ty);
void emit_barrier_type_cuda(EmitCtx *ctx, const Type *ty);
void emit_barrier_call_opencl(EmitCtx *ctx, const Node *call, Method method);
void emit_barrier_call_cuda(EmitCtx *ctx, const Node *call, Method method);

/* Tangle masks (emit_tangle.c, docs/DESIGN.md "Tangle masks"), shared by
 * both targets (the target is told apart by ctx->hooks->is_cxx). */
bool emit_tangle_stmt_override(EmitCtx *ctx, const Node *stmt);
void emit_tangle_extra_params(EmitCtx *ctx, const Symbol *fn, bool first);
void emit_tangle_extra_args(EmitCtx *ctx, const Node *call, const Symbol *callee, bool first);
/* Statements at the start of a function body (declares the mask variable). */
void emit_tangle_prologue(EmitCtx *ctx, const Symbol *fn);
/* Prints the expression holding the current tangle mask (for
 * get_tangle_group); only meaningful inside a function that needs one. */
void emit_tangle_print_mask(EmitCtx *ctx);

#endif
