/* emit.h — the emitter interface: the output buffer every printer writes
 * through (emit_printf), and the targets, one row each in emit/targets.def
 * (emit_targets[] below is generated from them).  A target is a folder
 * emit/<name>/: emit_<name>.c with its EmitHooks table for the shared
 * printer of emit.c, groups_<name>.c with its EmitLowering table for the
 * group, tangle and barrier lowering (emit_lowering.h), and its device
 * library. */
#ifndef SGCC_EMIT_H
#define SGCC_EMIT_H

#include <stdbool.h>
#include <stddef.h>

#include "ast/ast.h"

/* Growable output buffer; every emit helper writes through emit_printf. */
typedef struct EmitBuffer {
    char *data;
    size_t len, capacity;
} EmitBuffer;

void emit_buffer_init(EmitBuffer *buf);
void emit_buffer_free(EmitBuffer *buf);
void emit_printf(EmitBuffer *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void emit_write(EmitBuffer *buf, const char *s, size_t len);

/* One per row of emit/targets.def. */
typedef enum EmitTargetKind {
#define TARGET(kind, name, api, extension, sgcc_bit, sgcc_output) TARGET_##kind,
#include "emit/targets.def"
#undef TARGET
    TARGET_COUNT
} EmitTargetKind;

/* What the tangle-mask lowering did in one target (sgcc --stats). */
typedef struct EmitStats {
    int tangle_functions;   /* functions rewritten to carry a tangle mask */
    int ballots;            /* ballot sites emitted to split or rejoin a mask */
    int uniform_branches;   /* if/loop/switch in those functions printed as
                               written because the uniformity analysis proved
                               the condition uniform: one ballot site saved each */
    int fixed_group_calls;  /* algorithms on a fixed-size group its declaration made */
    int creator_facts;      /* of those, calls every maker of the group reaches
                               (printed through with_creators) */
} EmitStats;

typedef struct EmitOptions {
    bool line_directives;   /* emit #line back to the .sgc (default true) */
    const char *sgcc_version;
    EmitStats *stats;       /* filled when not NULL */
} EmitOptions;

typedef struct EmitTarget {
    EmitTargetKind kind;
    const char *name;       /* "opencl", "cuda" (options, module description) */
    const char *api;        /* "OpenCL", "CUDA" (messages) */
    const char *extension;  /* ".cl", ".cu" */
    const struct EmitHooks *hooks; /* the target's printer hooks (emit_internal.h) */
    /* Writes the whole translated unit.  Returns false (after reporting to
     * diag) when something cannot be expressed for this target. */
    bool (*emit_unit)(const TranslationUnit *tu, const SourceManager *sources,
                      const EmitOptions *options, Diag *diag, EmitBuffer *out);
} EmitTarget;

extern const EmitTarget emit_targets[TARGET_COUNT];

/* Why `target` cannot run function `fn` (a kernel is then left out of its
 * output, the header and the module description say why): writes the
 * reason into why[cap] and returns true, or returns false. */
bool emit_target_unsupported(const EmitTarget *target, const Symbol *fn, char *why, size_t cap);
/* The largest sub-group the target's output may meet (CUDA: a warp). */
int emit_target_sub_group_max(const EmitTarget *target);

#endif
