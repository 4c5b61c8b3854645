/* opencl_target.h — what the OpenCL C target's files share: emit_opencl.c
 * (the printer hooks) and groups_opencl.c (the group library's spellings). */
#ifndef SGCC_OPENCL_TARGET_H
#define SGCC_OPENCL_TARGET_H

#include "emit/emit_lowering.h"

extern const EmitLowering emit_opencl_lowering;

/* The __local scratch of work-group functions, declared in kernels and
 * passed to device functions that need it (EmitHooks.group_*). */
void emit_opencl_scratch_prologue(EmitCtx *ctx, const Symbol *fn);
void emit_opencl_scratch_params(EmitCtx *ctx, const Symbol *fn, bool first);
void emit_opencl_scratch_args(EmitCtx *ctx, const Node *call, const Symbol *callee, bool first);

#endif
