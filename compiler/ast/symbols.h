/* symbols.h — the symbols and the translation unit sema builds (ast.h is
 * the umbrella of the data model). */
#ifndef SGCC_AST_SYMBOLS_H
#define SGCC_AST_SYMBOLS_H

#include "ast/syntax.h"

typedef enum SymbolKind {
    SYM_VAR,        /* object: global, local, or parameter */
    SYM_FUNC,
    SYM_TYPEDEF,
    SYM_ENUM_CONST,
    SYM_SPEC_CONST, /* docs/REFERENCE.md "Specialization constants" */
    SYM_BUILTIN,    /* a built-in function name (builtins.h) */
} SymbolKind;

typedef struct CallEdge {
    struct CallEdge *next;
    Symbol *callee;
    Node *call;     /* the ND_CALL */
} CallEdge;

/* A symbol is sized by kind (issue 24): the common fields first, then the
 * constant part (SYM_ENUM_CONST, SYM_SPEC_CONST), then the function part
 * (SYM_FUNC, SYM_BUILTIN); symbol_size() says how many bytes a kind is
 * allocated with, so a variable or typedef (most symbols) takes 80 bytes of
 * the 200.  Read or write a part's fields only on a symbol of its kinds. */
struct Symbol {
    /* --- every kind --- */
    const char *name;
    Type *ty;
    SrcLoc loc;            /* where it was declared */
    Node *def;             /* SYM_FUNC: its ND_FUNC_DEF once defined; SYM_VAR: declarator */

    SymbolKind kind;
    StorageClass storage;
    int builtin;           /* SYM_BUILTIN */
    int index;             /* declaration order among its kind (for stable output) */
    int scope_depth;       /* sema: 0 file scope, 1 parameters, 2+ nested blocks */
    int decl_divergence;   /* SYM_VAR local: nesting of non-uniform conditions at
                              its declaration; assignments at that nesting keep it
                              uniform for the tangle its scope lies in */
    int decl_jumps;        /* SYM_VAR local: divergent exits seen before it (sema_flow.c) */

    bool is_global;        /* file scope */
    bool is_param;
    bool is_kernel;        /* SYM_FUNC declared `kernel` */
    bool address_taken;    /* SYM_FUNC used other than as a callee */
    bool needs_tangle_mask;/* SYM_FUNC: body uses tangle groups (or calls one that does) */
    bool uses_sub_groups;  /* SYM_FUNC: body needs sub-group support (transitively) */
    bool uses_non_uniform_groups; /* SYM_FUNC: makes a ballot, tangle or opportunistic
                              group (transitively): sub-group operations in divergent
                              control flow, which the device must support */
    bool uses_async_barrier;
    bool has_work_group_calls; /* SYM_FUNC: its body (not its callees) calls a
                              group function other than group_barrier, an
                              algorithm or a joint algorithm on a work_group */
    bool spec_id_explicit; /* SYM_SPEC_CONST */
    bool spec_required;    /* SYM_SPEC_CONST: no default value */
    bool has_indirect_calls; /* SYM_FUNC: calls through a function pointer */
    bool is_uniform;       /* SYM_VAR local/param: every assignment is uniform */
    bool made_fixed_group; /* SYM_VAR local: a fixed-size group initialised by
                              get_fixed_size_group at its declaration */
    bool made_ballot_group; /* SYM_VAR local: likewise by get_ballot_group */
    bool group_rewritten;  /* SYM_VAR local of group type: assigned again or
                              address taken after its declaration */
    uint32_t spec_id;      /* SYM_SPEC_CONST (here: the common part's padding) */

    /* --- constants (and functions): SYM_ENUM_CONST, SYM_SPEC_CONST --- */
    int64_t enum_value;    /* SYM_ENUM_CONST */
    Node *spec_default;    /* SYM_SPEC_CONST: the initialiser as written (NULL when required) */
    int64_t spec_default_int;  /* folded default for bool/integer constants */
    double spec_default_float; /* folded default for float/double constants */

    /* --- functions: SYM_FUNC, SYM_BUILTIN --- */
    int reqd_work_group_size[3]; /* 0 when absent, or when only known at build
                              time (then see reqd_work_group_size_expr) */
    int reqd_sub_group_size;     /* 0 when absent */
    Attribute *attrs;      /* kernel attributes */
    Node *reqd_work_group_size_expr[3]; /* the argument when it depends on a spec constant
                              (docs/REFERENCE.md "Specialization constants"): emitted as written, its size unknown to sgcc */
    Symbol *reqd_work_group_size_spec[3]; /* the spec constant when that argument is
                              exactly one spec constant's name, else NULL */
    CallEdge *calls;       /* SYM_FUNC: calls made by its body */
    int64_t widest_fixed_group; /* SYM_FUNC: the largest constant N of a
                              fixed_size_group<N> it makes, itself or through a
                              callee (0: none); a target whose sub-groups are
                              narrower leaves it out (EmitHooks.unsupported) */
};

/* Bytes a symbol of this kind is allocated with (ast.c): the common part,
 * plus the constant part, plus the function part, as above. */
size_t symbol_size(SymbolKind kind);

/* A translation unit after sema: the tree plus the tables emitters need. */
typedef struct TranslationUnit {
    Node *root;            /* ND_TRANSLATION_UNIT */
    Symbol **spec_consts;  /* in declaration order */
    int spec_const_count;
    Symbol **kernels;      /* in declaration order */
    int kernel_count;
    Symbol **functions;    /* all defined functions, in definition order */
    int function_count;
    bool uses_sub_groups;  /* any kernel needs sub-group support */
    bool uses_fp64;
    bool uses_async_barrier;
    const char *main_file; /* the .sgc path for #line directives */
} TranslationUnit;

#endif
