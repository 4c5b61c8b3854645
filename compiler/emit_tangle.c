/* emit_tangle.c — tangle-mask lowering (being written; no-ops for now). */
#include "emit_lowering.h"

bool emit_tangle_stmt_override(EmitCtx *ctx, const Node *stmt)
{
    (void)ctx, (void)stmt;
    return false;
}

void emit_tangle_extra_params(EmitCtx *ctx, const Symbol *fn, bool first) { (void)ctx, (void)fn, (void)first; }

void emit_tangle_extra_args(EmitCtx *ctx, const Node *call, const Symbol *callee, bool first)
{
    (void)ctx, (void)call, (void)callee, (void)first;
}

void emit_tangle_prologue(EmitCtx *ctx, const Symbol *fn) { (void)ctx, (void)fn; }

void emit_tangle_print_mask(EmitCtx *ctx) { emit_out(ctx, "sgc_active_mask()"); }
