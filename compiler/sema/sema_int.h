/* sema_int.h — state shared by the files of semantic analysis:
 *   sema.c        driver, scopes, declarations, spec-constant IDs
 *   sema_types.c  Type construction, declarators, struct layout, type names
 *   sema_expr.c   expressions, conversions, constant folding
 *   sema_call.c   calls: user functions, built-ins, groups, barriers, atomics
 *   sema_stmt.c   statements and initialisers
 *   sema_flow.c   whole-unit passes: call graph, recursion, uniformity
 * Not part of the front end's interface: other layers include sema.h. */
#ifndef SGCC_SEMA_INT_H
#define SGCC_SEMA_INT_H

#include "ast/builtins.h"
#include "base/mem.h"
#include "sema/sema.h"

#include <stdlib.h>

/* A growable array of pointers (base/mem.h); sema-private scratch, freed by
 * sema_run (results handed to the TranslationUnit are copied to the arena). */
typedef VEC(void *) PtrVec;

static inline void vec_push(PtrVec *v, void *p) { VEC_PUSH(v, p); }
static inline void vec_free(PtrVec *v)
{
    free(v->items);
    *v = (PtrVec){0};
}

/* Block scopes hold a handful of names; the file scope can hold every
 * function of a large generated library, so it gets a bigger table. */
enum { SCOPE_BUCKETS = 32, FILE_SCOPE_BUCKETS = 16384 };

typedef struct ScopeEntry {
    struct ScopeEntry *next;
    const char *name;
    Symbol *sym;   /* ordinary identifiers */
    Type *tag;     /* struct/union/enum tags */
} ScopeEntry;

typedef struct Scope {
    struct Scope *parent;
    int depth;     /* 0 file, 1 function parameters, 2+ blocks */
    unsigned buckets;    /* in use of names[] and tags[] (a power of two) */
    unsigned capacity;   /* allocated: a recycled scope starts small again */
    unsigned entries;    /* names and tags held: the tables double past 2 per bucket */
    ScopeEntry **names;
    ScopeEntry **tags;
} Scope;

typedef struct CaseTable {
    struct Node **slots;   /* capacity (a power of two) slots, NULL when free */
    unsigned capacity, count;
} CaseTable;

typedef struct SwitchCtx {
    struct SwitchCtx *outer;
    Type *cond_ty;
    CaseTable cases;       /* ND_CASE nodes with folded values (sema_stmt.c) */
    Node *default_node;
} SwitchCtx;

/* How a value is being converted, for the wording of diagnostics. */
typedef enum ConvContext { CONV_ASSIGN, CONV_INIT, CONV_ARG, CONV_RETURN } ConvContext;

typedef struct Sema {
    Arena *arena;
    Diag *diag;
    const SemaOptions *opt;
    TranslationUnit *tu;
    Scope *scope;
    Scope *free_scopes;   /* popped block scopes, reused by sema_push_scope */
    ScopeEntry *free_entries; /* their entries, reused by insert_in */
    Symbol *func;          /* function whose body is being checked, or NULL */
    Type *ret_ty;
    int loop_depth;
    SwitchCtx *sw;
    PtrVec labels, gotos;  /* ND_LABEL / ND_GOTO of the current function */
    PtrVec spec_consts, kernels, functions, declared_funcs;
    PtrVec tangle_calls;   /* ND_CALLs of get_tangle_group, with tangle_owner */
    PtrVec tangle_owner;   /* Symbol* of the function making each one */
    Symbol *builtin_syms[BI_COUNT];
    struct TypeEntry **types;    /* interned pointer and qualified types (sema_types.c) */
    size_t type_buckets, type_count;
    Type *basic[TY_DOUBLE + 1];
    Type *t_err;           /* type of an erroneous expression: silences follow-ons */
    Type *t_void_ptr;
    bool in_sizeof;        /* operand of sizeof: not evaluated */
    int expr_depth;        /* sema_expr's nesting (SEMA_MAX_EXPR_NESTING) */
    bool too_deep;         /* an expression went past it: no whole-unit passes */
} Sema;

/* ---- sema.c -------------------------------------------------------------- */
Symbol *sema_lookup(Sema *s, const char *name);
const char *sema_suggest_name(Sema *s, const char *word); /* "did you mean", or NULL */
bool sema_name_was_dropped(Sema *s, const char *name);   /* by syntax-error recovery */
Type *sema_lookup_tag(Sema *s, const char *name, bool current_only);
void sema_declare_tag(Sema *s, const char *name, Type *ty);
Symbol *sema_new_symbol(Sema *s, SymbolKind kind, const char *name, Type *ty, SrcLoc loc);
void sema_push_scope(Sema *s);
void sema_pop_scope(Sema *s);
void sema_declaration(Sema *s, Node *decl);   /* ND_DECL in any scope */
const char *fmt_type(Sema *s, const Type *ty); /* arena copy of type_name() */
const char *fmt_value_type(Sema *s, const Type *ty); /* no address space, qualifiers */

/* ---- sema_types.c -------------------------------------------------------- */
void types_init(Sema *s);
Type *type_new(Sema *s, TypeKind kind, int size, int align);
Type *type_basic(Sema *s, TypeKind kind);
Type *type_copy(Sema *s, const Type *ty);
Type *type_with_quals(Sema *s, Type *ty, bool is_const, bool is_volatile, AddrSpace as);
Type *type_ptr(Sema *s, Type *base);
Type *type_array(Sema *s, Type *elem, int64_t len, Node *len_expr);
Type *type_group(Sema *s, GroupKind kind, Node *size_expr, int64_t size);
Type *type_decay(Sema *s, Type *ty);
TypeKind type_enum_compatible_kind(const Type *ty);
Type *type_promote(Sema *s, Type *ty);
Type *type_common_arith(Sema *s, Type *a, Type *b);
Type *type_to_unsigned(Sema *s, Type *ty);
bool type_has_spec_len(const Type *ty);
/* Returns NULL for `auto` with no type specifier (inferred by the caller). */
Type *sema_declspecs(Sema *s, DeclSpecs *ds);
Type *sema_declarator(Sema *s, Type *base, Declarator *d, bool is_param);
Type *sema_type_name(Sema *s, Node *type_name);
void sema_func_params(Sema *s, Type *fn, Declarator *d);
AddrSpace type_space(const Type *ty);
int64_t sema_group_size(Sema *s, Node *expr);

/* ---- sema_expr.c --------------------------------------------------------- */
Type *sema_expr(Sema *s, Node *n);
Node *sema_convert(Sema *s, Node *n, Type *to, ConvContext ctx, const char *what);
Node *sema_implicit_cast(Sema *s, Node *n, Type *to);
Node *sema_decay_node(Sema *s, Node *n);   /* array/function -> pointer, as a cast node */
bool sema_int_const(Sema *s, Node *n, int64_t *value, const char *what);
bool sema_is_null_ptr_const(const Node *n);
bool sema_float_const(const Node *n, double *out);
void sema_fold_cast(Node *n, const Type *to);
bool sema_is_err(Sema *s, const Type *ty);
const char *expr_spelling(Sema *s, const Node *n);
int group_origin_depth(Sema *s, const Node *n);

/* ---- sema_call.c --------------------------------------------------------- */
Type *sema_call(Sema *s, Node *n);
void sema_mark_sub_groups(Sema *s);
void sema_mark_async(Sema *s);

/* ---- sema_printf.c ------------------------------------------------------- */
Type *sema_printf(Sema *s, Node *call);

/* ---- sema_stmt.c --------------------------------------------------------- */
void sema_stmt(Sema *s, Node *n);
void sema_function_body(Sema *s, Node *fn_def);
/* Checks *slot as the initialiser of an object of type ty (inserting
 * conversions); returns ty, completed when it was an array of unknown size. */
Type *sema_initializer(Sema *s, Type *ty, Node **slot);

/* ---- sema_flow.c --------------------------------------------------------- */
void sema_call_graph(Sema *s);
void sema_uniformity(Sema *s, Symbol *fn);

#endif
