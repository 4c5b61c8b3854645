/* libsgcc_internal.h — what the sgcc command uses of libsgcc beyond the
 * public sgcc.h: a hook that sees the checked tree and the emitted code
 * before the compilation state goes away (--verify needs both), and the
 * lowering statistics of --stats.  Not installed. */
#ifndef SGCC_LIBSGCC_INTERNAL_H
#define SGCC_LIBSGCC_INTERNAL_H

#include "emit/emit.h"
#include "driver/sgcc.h"

/* The public sgcc_target bit and sgcc_output kind of emit target t, from
 * the rows of emit/targets.def (sgcc.h's numbers are the ABI: a later
 * target's output kind comes after SGCC_OUTPUT_PREPROCESSED). */
static inline unsigned sgcc_target_bit(int t)
{
    switch ((EmitTargetKind)t) {
#define TARGET(kind, name, api, extension, sgcc_bit, sgcc_output) \
    case TARGET_##kind: return (unsigned)sgcc_bit;
#include "emit/targets.def"
#undef TARGET
    case TARGET_COUNT: break;
    }
    return 0;
}

static inline sgcc_output sgcc_target_output(int t)
{
    switch ((EmitTargetKind)t) {
#define TARGET(kind, name, api, extension, sgcc_bit, sgcc_output) \
    case TARGET_##kind: return sgcc_output;
#include "emit/targets.def"
#undef TARGET
    case TARGET_COUNT: break;
    }
    return SGCC_OUTPUT_COUNT;
}

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
