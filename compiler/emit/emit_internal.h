/* emit_internal.h — the shared C printer of the emitters and the hooks a
 * target plugs into it.
 *
 * emit.c prints C (declarations from sema's Types, expressions with minimal
 * safe parentheses, statements with 4-space indentation, #line directives,
 * the spec-constant block).  Everything that differs between OpenCL C and
 * CUDA C is asked of the target through EmitHooks: spellings, address spaces,
 * function prefixes, built-in calls, and the spellings of its device library
 * that the target-neutral group / split-barrier lowering asks for
 * (emit_lowering.h).
 *
 * A hook receives the printer context and the node; it prints with the same
 * helpers the printer uses (emit_out, emit_expr, emit_type ...), so a hook
 * can print any sub-expression exactly as the rest of the output. */
#ifndef SGCC_EMIT_INTERNAL_H
#define SGCC_EMIT_INTERNAL_H

#include "ast/builtins.h"
#include "base/mem.h"
#include "emit/emit.h"

typedef struct EmitCtx EmitCtx;

/* How far a target reserves a name (emit_names.c). */
typedef enum EmitReservedScope {
    RESERVED_NONE,
    RESERVED_FILE_SCOPE, /* clashes only with a file-scope declaration */
    RESERVED_EVERYWHERE, /* keyword, type, macro or function the output may call */
} EmitReservedScope;

typedef struct ReservedName {
    const char *name;
    EmitReservedScope scope;
} ReservedName;

/* One target's reserved names, sorted in strcmp order.  A target defines
 * its table from its .def file:
 *   #define RESERVED(name, scope) {name, RESERVED_##scope},
 *   static const ReservedName names[] = {
 *   #include "emit/<target>/reserved_<target>.def"
 *   }; */
typedef struct EmitReservedTable {
    const char *target;                  /* "OpenCL C", "CUDA C" (diagnostics) */
    const ReservedName *names;
    size_t count;
} EmitReservedTable;

/* Where an object or pointee sits, so a target can pick its qualifier:
 * OpenCL writes `__local` everywhere; CUDA writes `__shared__` on a
 * block-scope object and nothing on a pointee. */
typedef enum EmitAsRole {
    AS_ROLE_POINTEE,      /* the pointed-to type of a pointer */
    AS_ROLE_FILE_OBJECT,  /* a variable at file scope */
    AS_ROLE_BLOCK_OBJECT, /* a variable inside a function */
    AS_ROLE_PARAM,        /* a parameter object (never a pointee) */
    AS_ROLE_OTHER,        /* members, casts, sizeof */
} EmitAsRole;

/* Statement-level hook points (see EmitHooks.stmt_pre / stmt_post). */
typedef struct EmitHooks {
    const char *target_name;          /* "OpenCL C", "CUDA C" (diagnostics) */
    bool is_cxx;                      /* C++ rules: casts from void *, to enums,
                                         no narrowing in brace initialisers */
    bool has_function_pointers;       /* false: report function pointer types */

    /* ---- spellings --------------------------------------------------- */
    /* Scalar type name for TY_VOID..TY_DOUBLE (never NULL for those). */
    const char *(*scalar_type)(TypeKind kind);
    /* Integer literal suffix for a literal of `kind` ("", "u", "L", "ULL"). */
    const char *(*int_suffix)(TypeKind kind);
    /* Prints the qualifier (with a trailing space) for address space `as` in
     * `role`, or nothing.  `as` is AS_NONE only for AS_ROLE_FILE_OBJECT (a
     * file-scope object written without one; CUDA must still say
     * `__device__`). */
    void (*addr_space)(EmitCtx *ctx, AddrSpace as, EmitAsRole role);
    const char *restrict_kw;          /* "restrict" / "__restrict__" */
    const char *static_assert_kw;     /* "_Static_assert" / "static_assert" */
    /* Names the target reserves; user identifiers whose stem is there are
     * printed with a `_` more (emit_names.c).  May be NULL. */
    const EmitReservedTable *reserved;
    /* Prints +inf/NaN of a float (is_double false) or double. */
    void (*float_special)(EmitCtx *ctx, double value, bool is_double);

    /* ---- functions ----------------------------------------------------- */
    /* Prints what goes before the return type (`__kernel `, `extern "C"
     * __global__ `, `static __device__ `) including attributes. */
    void (*function_prefix)(EmitCtx *ctx, const Symbol *fn, bool is_definition);
    /* Why this target cannot run `fn` (its own requirement or a callee's),
     * or NULL.  Such a definition is left out of the output, a kernel with
     * a comment and a [-Wtarget-unsupported] warning, so that one kernel
     * does not take the others down.  May be NULL (every function runs). */
    bool (*unsupported)(const Symbol *fn, char *why, size_t cap);
    /* Opens a preprocessor condition around the definition of `fn` and
     * returns true (the printer closes it with #endif), or returns false.
     * OpenCL: the kernels a device build may leave out under
     * SGC_SKIP_UNSUPPORTED_KERNELS, and the functions only they call.
     * May be NULL. */
    bool (*definition_guard)(EmitCtx *ctx, const Symbol *fn);
    /* Prints one parameter of a function declaration; `fn` is NULL inside a
     * function-pointer type.  Returns false to let the printer print it. */
    bool (*param)(EmitCtx *ctx, const Symbol *fn, const Param *param);
    /* Hidden parameters after the declared ones (e.g. a tangle mask
     * `unsigned sgc_tangle`).  `first` is true when no parameter was
     * printed yet (no leading comma).  May be NULL. */
    void (*extra_params)(EmitCtx *ctx, const Symbol *fn, bool first);
    /* Hidden arguments of a call to user function `callee`, matching
     * extra_params.  May be NULL. */
    void (*extra_args)(EmitCtx *ctx, const Node *call, const Symbol *callee, bool first);
    /* Statements printed first in a function body (use emit_line_begin /
     * emit_line_end).  May be NULL. */
    void (*body_prologue)(EmitCtx *ctx, const Symbol *fn);

    /* ---- built-ins (ND_CALL with node->builtin set) --------------------- */
    void (*workitem_call)(EmitCtx *ctx, const Node *call);  /* BK_WORKITEM */
    void (*sync_call)(EmitCtx *ctx, const Node *call);      /* BK_SYNC */
    void (*atomic_call)(EmitCtx *ctx, const Node *call);    /* BK_ATOMIC */
    void (*math_call)(EmitCtx *ctx, const Node *call);      /* BK_MATH, BK_MATH_INT */
    /* Prelude text a unit calling printf needs (BK_PRINTF, printed by
     * emit.c under the same name on every target).  May be NULL. */
    const char *printf_prelude;

    /* ---- groups and split barriers (docs/REFERENCE.md "Groups", docs/REFERENCE.md "Split barriers") --------------------
     * The target-neutral lowering (emit_lowering.h) prints group and
     * split-barrier types and calls with the target's library spellings;
     * NULL: such constructs report "group lowering for <target> not
     * implemented yet". */
    const struct EmitLowering *lowering;
    /* State the group lowering threads through functions (emit_groups.c):
     * declarations printed first in a body (OpenCL: the __local scratch of
     * work-group algorithms, which OpenCL C 1.2 allows only at kernel
     * scope), and the hidden parameter / argument that hands it to device
     * functions, printed after extra_params / extra_args.  `first` as for
     * those.  May be NULL. */
    void (*group_prologue)(EmitCtx *ctx, const Symbol *fn);
    void (*group_params)(EmitCtx *ctx, const Symbol *fn, bool first);
    void (*group_args)(EmitCtx *ctx, const Node *call, const Symbol *callee, bool first);

    /* ---- control flow ---------------------------------------------------
     * Called around ND_IF, ND_SWITCH, ND_WHILE, ND_DO, ND_FOR, ND_RETURN,
     * ND_BREAK and ND_CONTINUE, at the statement's indentation, before
     * its #line and after its last line.  Whole statements may be printed
     * (emit_line_begin / emit_line_end).  No-ops by default (NULL). */
    void (*stmt_pre)(EmitCtx *ctx, const Node *stmt);
    void (*stmt_post)(EmitCtx *ctx, const Node *stmt);
    /* Prints any statement itself (a structured tangle-mask lowering that
     * rewrites break/continue/return, say) and returns true, or returns
     * false to leave it to the printer.  The hook may print parts with
     * emit_stmt (children: hooks apply again) or emit_stmt_default (this
     * node, without the override).  May be NULL. */
    bool (*stmt_override)(EmitCtx *ctx, const Node *stmt);

    /* ---- the unit ----------------------------------------------------- */
    /* Fixed prelude lines (pragmas, tier macros) printed after the banner
     * and before the prelude pieces; sees everything the body used. */
    void (*unit_prelude)(EmitCtx *ctx, EmitBuffer *out);
} EmitHooks;

/* Pieces of prelude a unit may need, requested while printing the body;
 * printed once each, in a fixed order, before the spec-constant block.
 * ORDER: targets switch on these; add new ones at the end. */
#define EMIT_USES(X)                                                        \
    X(FP64) X(INT64_BASE_ATOMICS) X(INT64_EXT_ATOMICS) X(REQD_SUB_GROUP_SIZE) \
    X(GET_GLOBAL_ID) X(GET_LOCAL_ID) X(GET_GROUP_ID) X(GET_LOCAL_SIZE)      \
    X(GET_GLOBAL_SIZE) X(GET_NUM_GROUPS) X(GET_WORK_DIM) X(DYNAMIC_LOCAL)   \
    X(ATOMIC_I64) X(TIERS)

typedef enum EmitUse {
#define X(name) USE_##name,
    EMIT_USES(X)
#undef X
    USE_COUNT
} EmitUse;

/* The printer state for one unit and one target. */
struct EmitCtx {
    const EmitHooks *hooks;
    const TranslationUnit *tu;
    const SourceManager *sources;
    const EmitOptions *options;
    Diag *diag;
    EmitBuffer *out;           /* where emit_out writes (swapped for temporaries) */
    int indent;                /* current statement depth (4 spaces each) */
    SrcLoc loc;                /* declaration or statement being printed (errors) */
    bool failed;               /* an error was reported */
    const Symbol *function;    /* function being printed, NULL at file scope */
    bool in_init_list;         /* printing inside `{ ... }` (C++ narrowing) */
    bool uses[USE_COUNT];      /* prelude pieces requested */
    EmitBuffer pieces;         /* free-form prelude text added by hooks */
    VEC(char *) piece_keys;    /* keys of emit_prelude_piece, for dedup (owned) */
    VEC(const Type *) defined_records; /* struct/union types already printed */
    /* #line state: the source line the next output line corresponds to. */
    uint32_t line_file;        /* 0: no #line printed yet */
    unsigned line_next;
    size_t line_scan;          /* bytes of out already scanned for newlines */
    VEC(const char *) file_scope_names; /* names the unit declares at file scope,
                                  sorted (RESERVED_FILE_SCOPE lookups) */
    VEC(const Node *) split_decls; /* C++ targets: block-scope declarations that a goto or
                                  case label jumps past (emit_jumps.c) */
    void *target_data;         /* per-target scratch */
    void *group_data;          /* scratch for the group/barrier lowering */
    /* emit_tangle.c: the printing state of the tangle-lowered function body
     * being printed (on its stack), and that function's definition */
    void *tangle;
    const Node *tangle_def;
};

/* ---- output helpers ---------------------------------------------------- */
void emit_out(EmitCtx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Starts a statement line at the current indentation, after a #line when
 * `loc`'s line does not follow the previous output line (loc.file 0: none). */
void emit_line_begin(EmitCtx *ctx, SrcLoc loc);
void emit_line_end(EmitCtx *ctx);
/* Prints `#line N "file"` for loc unconditionally (top-level declarations). */
void emit_line_directive(EmitCtx *ctx, SrcLoc loc);
/* Reports a located error and marks the unit failed. */
void emit_error(EmitCtx *ctx, SrcLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void emit_use(EmitCtx *ctx, EmitUse use);
/* Appends `text` to the prelude the first time `key` is requested. */
void emit_prelude_piece(EmitCtx *ctx, const char *key, const char *text);

/* ---- printing ---------------------------------------------------------- */
/* Precedence levels, lowest first (C17 6.5). */
typedef enum EmitPrec {
    PREC_COMMA = 1, PREC_ASSIGN, PREC_COND, PREC_LOGOR, PREC_LOGAND, PREC_BITOR,
    PREC_BITXOR, PREC_BITAND, PREC_EQUALITY, PREC_RELATIONAL, PREC_SHIFT,
    PREC_ADDITIVE, PREC_MULTIPLICATIVE, PREC_UNARY, PREC_POSTFIX, PREC_PRIMARY,
} EmitPrec;

/* An expression as an assignment-expression (a call argument, an initialiser). */
void emit_expr(EmitCtx *ctx, const Node *node);
/* An expression parenthesised unless it binds at least as tightly as `prec`. */
void emit_expr_prec(EmitCtx *ctx, const Node *node, EmitPrec prec);
/* `callee(arg, arg...)` with the arguments printed by emit_expr; arguments
 * that are implicit conversions are printed as casts when `strict`. */
void emit_call_args(EmitCtx *ctx, const Node *call, bool strict);
/* One argument of a call: with `strict` (an overloaded built-in) its
 * conversions are written so the device compiler picks sema's overload. */
void emit_call_arg_value(EmitCtx *ctx, const Node *arg, bool strict);
/* A declaration of `name` (NULL: abstract) with type `ty`, cdecl style.
 * `name` is a user identifier (renamed as emit_name does); sgcc's own
 * names (`sgc_...`) go through emit_type_internal, printed as given. */
void emit_type(EmitCtx *ctx, const Type *ty, const char *name, EmitAsRole role);
void emit_type_internal(EmitCtx *ctx, const Type *ty, const char *name, EmitAsRole role);
/* A user identifier, renamed when the target reserves it (emit_names.c). */
void emit_name(EmitCtx *ctx, const char *name);
EmitReservedScope emit_reserved_lookup(const EmitReservedTable *table, const char *name);
const char *emit_reserved_name_at(const EmitReservedTable *table, size_t i); /* unit tests */
bool emit_name_is_renamed(const EmitCtx *ctx, const char *name);
/* Fills ctx->file_scope_names from the unit (once, before printing). */
void emit_collect_file_scope_names(EmitCtx *ctx);
/* Reports a kernel whose name the target reserves (kernels keep names). */
void emit_check_kernel_name(EmitCtx *ctx, const Symbol *kernel);
/* An expression whose type decides something in the target (an overload, a
 * template argument, sizeof): in CUDA C, where C++ gives the printed text
 * another type than C (a character literal is char, a comparison bool, an
 * enumerator its enum), it is printed with a cast to its C type. */
void emit_expr_c_typed(EmitCtx *ctx, const Node *node, EmitPrec prec);
/* True when the C++ type of `node` as printed differs from its C type. */
bool emit_cxx_type_differs(const EmitCtx *ctx, const Node *node);
/* CUDA C: finds the declarations of a function body that a goto or case
 * label jumps past (ctx->split_decls); emit_decl_is_crossed asks. */
void emit_find_crossed_decls(EmitCtx *ctx, const Node *body);
bool emit_decl_is_crossed(const EmitCtx *ctx, const Node *decl);
/* An integer literal of `ty` with value `v`, e.g. `5u`, `-3L`. */
void emit_int_literal(EmitCtx *ctx, const Type *ty, uint64_t v);
/* A floating literal that round-trips exactly: float gets an `f`. */
void emit_float_literal(EmitCtx *ctx, double value, bool is_float);
void emit_stmt(EmitCtx *ctx, const Node *stmt);
/* emit_stmt without EmitHooks.stmt_override (pre/post hooks still run). */
void emit_stmt_default(EmitCtx *ctx, const Node *stmt);

/* ---- helpers for hooks ------------------------------------------------- */
const Type *emit_canonical(const Type *ty);  /* follows origin copies */
bool emit_type_is_64bit_int(const Type *ty);
/* The n-th argument (0-based) of a call, or NULL. */
const Node *emit_call_arg(const Node *call, int n);
/* The spelling of the source file of loc (for banners and #line). */
const char *emit_file_name(const EmitCtx *ctx, uint32_t file);

/* Prints a whole unit with `hooks`; the per-target entry points below call it. */
bool emit_unit_with(const EmitHooks *hooks, const TranslationUnit *tu,
                    const SourceManager *sources, const EmitOptions *options,
                    Diag *diag, EmitBuffer *out, void *target_data);

/* Each target's hook table and entry point (emit/<name>/emit_<name>.c:
 * emit_opencl_hooks, emit_cuda_unit ...), declared for every row of
 * emit/targets.def. */
#define TARGET(kind, name, api, extension, sgcc_bit, sgcc_output)                     \
    extern const EmitHooks emit_##name##_hooks;                                      \
    bool emit_##name##_unit(const TranslationUnit *tu, const SourceManager *sources, \
                            const EmitOptions *options, Diag *diag, EmitBuffer *out);
#include "emit/targets.def"
#undef TARGET

#endif
