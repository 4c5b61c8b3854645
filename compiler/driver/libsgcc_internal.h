/* libsgcc_internal.h — what the sgcc command uses of libsgcc beyond the
 * public sgcc.h: a hook that sees the checked tree and the emitted code
 * before the compilation state goes away (--verify needs both), and the
 * lowering statistics of --stats.  Not installed. */
#ifndef SGCC_LIBSGCC_INTERNAL_H
#define SGCC_LIBSGCC_INTERNAL_H

#include "emit/emit.h"
#include "driver/sgcc.h"

/* The public sgcc_target bit of emit target t: sgcc.h's bits follow
 * EmitTargetKind's order. */
_Static_assert((unsigned)SGCC_TARGET_OPENCL == 1u << TARGET_OPENCL &&
                   (unsigned)SGCC_TARGET_CUDA == 1u << TARGET_CUDA,
               "sgcc_target bits in EmitTargetKind's order");
static inline unsigned sgcc_target_bit(int t) { return 1u << t; }

typedef struct SgccHooks {
    /* Called once after every requested output was emitted without errors;
     * may report more diagnostics to `diag` (they join the result's).
     * code[t] is NULL for a target that was not emitted. */
    void (*after_emit)(void *ctx, const TranslationUnit *tu,
                       const EmitBuffer *code[TARGET_COUNT], Diag *diag);
    void *ctx;
    bool stats; /* fill the EmitStats of each emitted target */
} SgccHooks;

/* Copies `hooks` into `options` (NULL clears them). */
void sgcc_options_set_hooks(sgcc_options *options, const SgccHooks *hooks);

/* The statistics of target `t`, or NULL when it was not emitted or stats
 * were not asked for. */
const EmitStats *sgcc_result_get_stats(const sgcc_result *result, EmitTargetKind t);

#endif
