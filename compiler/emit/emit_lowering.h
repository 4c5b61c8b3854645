/* emit_lowering.h — the target-neutral lowering of groups (docs/REFERENCE.md "Groups"),
 * tangle masks and split barriers (docs/REFERENCE.md "Split barriers"), and what it asks of a target.
 *
 * The lowering decides *what* to print (which library section a construct
 * needs, which argument is the value, the init or the operator, whether a
 * fixed-size group's makers all reach a call, which control flow needs a
 * ballot); the target's EmitLowering table (emit/<target>/groups_<target>.c)
 * says *how* its device library spells it.  One file per feature:
 *   emit_groups.c   group types, constructors, members, functions, algorithms
 *   emit_tangle.c   structured control flow with explicit tangle masks
 *   emit_barrier.c  async_barrier / arrival_token / async_work_group_copy */
#ifndef SGCC_EMIT_LOWERING_H
#define SGCC_EMIT_LOWERING_H

#include "emit/emit_internal.h"

/* The group library's sections, each needing the ones before it. */
typedef enum GroupLevel { LEVEL_BASE, LEVEL_SUB, LEVEL_WG, LEVEL_COUNT } GroupLevel;

/* A group function or algorithm call as emit_groups.c decoded it. */
typedef struct GroupCall {
    const Node *call;
    Builtin builtin;
    const Node *group;     /* argument 0 */
    const Node *value;     /* the value moved or combined; NULL for group_barrier */
    const Node *extra;     /* functions: the third argument (id, delta, mask) or NULL */
    const Node *init;      /* algorithms: the init argument or NULL */
    const char *op;        /* algorithms: the operator (group_op_names) */
    TypeKind elem;         /* the element type; TY_BOOL for votes and the barrier */
    bool typed;            /* functions: moves a value of type elem */
    bool work_group;       /* the group is a work_group */
} GroupCall;

/* What the lowering asks of a target: its device library's sections and
 * spellings.  Text fields are printed as they are. */
typedef struct EmitLowering {
    /* ---- library ----------------------------------------------------- */
    const char *const *group_sections[LEVEL_COUNT]; /* prelude strings (prelude.h) */
    const char *const *barrier_section;
    bool barrier_needs_tiers;      /* the barrier section reads the tier macros */
    const char *ns;                /* the library's prefix: "sgc_", "sgc::" */

    /* ---- fixed_size_group<S>, S a spec constant: the build-time check -- */
    int sub_group_max;             /* the largest sub-group the output may meet */
    const char *sub_group_max_why; /* why, in the #error text */
    const char *narrow_tier;       /* a tier macro under which it is smaller, or NULL */
    int narrow_tier_max;
    const char *narrow_tier_why;

    /* ---- tangle masks (emit_tangle.c) -------------------------------- */
    const char *mask_type;         /* "ulong", "unsigned" */
    const char *ballot;            /* ballot of a mask: "sgc_ballot", "__ballot_sync" */
    const char *maybe_unused;      /* attribute for a mask that may go unused, or "" */

    /* ---- spellings (`print` the construct at the current output) ------ */
    /* An argument that becomes a value of element type `elem` (the value
     * of a function or algorithm, an init). */
    void (*elem_arg)(EmitCtx *ctx, const Node *arg, TypeKind elem);
    /* fixed_size_group<N>(parent): emit_group_print_size prints N. */
    void (*fixed_size_ctor)(EmitCtx *ctx, const Node *call, const Node *parent);
    /* g.get_local_linear_id() etc.; `name` as in method_info. */
    void (*method)(EmitCtx *ctx, const Node *recv, const char *name, bool work_group);
    void (*function)(EmitCtx *ctx, const GroupCall *c);  /* BK_GROUP_FN */
    void (*algorithm)(EmitCtx *ctx, const GroupCall *c); /* BK_GROUP_ALGO */
    /* BK_JOINT: call->args are (g, first, last, ...) with `first` a pointer
     * to `elem`; checked by emit_groups.c. */
    void (*joint)(EmitCtx *ctx, const Node *call, TypeKind elem);
} EmitLowering;

/* ---- emit_groups.c: entry points of the printer ------------------------- */
void emit_group_type(EmitCtx *ctx, const Type *ty);   /* also async_barrier, arrival_token */
void emit_group_call(EmitCtx *ctx, const Node *call); /* constructors, functions, algorithms, joint */
void emit_group_method(EmitCtx *ctx, const Node *call, Method method);
/* Frees what the group lowering kept in ctx->group_data (end of a unit). */
void emit_groups_free(EmitCtx *ctx);

/* ---- emit_groups.c: helpers for the targets' spellings ----------------- */
/* Pastes the library sections up to `level`, once each. */
void emit_group_library(EmitCtx *ctx, GroupLevel level);
bool emit_group_is_work_group(const Node *group);
/* The element type the library moves for an expression of type ty. */
TypeKind emit_group_elem_kind(const Type *ty);
/* N of fixed_size_group<N>: folded, or the spec constant's macro. */
void emit_group_print_size(EmitCtx *ctx, const Node *call);
/* The group argument of an algorithm, through ns##with_creators when every
 * maker of a fixed-size group reaches the call (docs/GROUPS.md). */
void emit_group_print_arg(EmitCtx *ctx, const Node *call, const Node *group);
/* The rest of a group function call after its group argument: the value
 * (through EmitLowering.elem_arg when it moves one), the id / delta / mask
 * (shifts default to 1), and the closing parenthesis. */
void emit_group_print_fn_rest(EmitCtx *ctx, const GroupCall *c);
/* `(size_t)` before an algorithm whose size_t result comes back as ulong. */
void emit_group_open_result(EmitCtx *ctx, TypeKind elem);
/* Whether fn, or a function it calls, has a work-group function other than
 * the barrier (OpenCL passes it a __local scratch). */
bool emit_group_needs_scratch(EmitCtx *ctx, const Symbol *fn);
/* A kernel whose required work-group size is a multiple of 32: its
 * sub-groups are full warps on NVIDIA (docs/GROUPS.md "Full warps"). */
bool emit_has_only_full_warps(const Symbol *fn);

/* ---- emit_barrier.c ---------------------------------------------------- */
void emit_barrier_type(EmitCtx *ctx, const Type *ty);
/* `b.method(...)` (method != METHOD_NONE) or async_work_group_copy. */
void emit_barrier_call(EmitCtx *ctx, const Node *call, Method method);

/* ---- emit_tangle.c (docs/DESIGN.md "Tangle masks") ---------------------- */
bool emit_tangle_stmt_override(EmitCtx *ctx, const Node *stmt);
void emit_tangle_extra_params(EmitCtx *ctx, const Symbol *fn, bool first);
void emit_tangle_extra_args(EmitCtx *ctx, const Node *call, const Symbol *callee, bool first);
/* Statements at the start of a function body (declares the mask variable). */
void emit_tangle_prologue(EmitCtx *ctx, const Symbol *fn);
/* Prints the expression holding the current tangle mask (for
 * get_tangle_group); only meaningful inside a function that needs one. */
void emit_tangle_print_mask(EmitCtx *ctx);

#endif
