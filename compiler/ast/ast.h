/* ast.h — the data model of an SGC translation unit.
 *
 * Three layers share this header:
 *   - the parser (compiler/parse/parse.y) builds *syntax*: Node trees for statements
 *     and expressions, and declarations as DeclSpecs + Declarator chains, with
 *     no types resolved;
 *   - sema (sema.c) resolves names to Symbols, builds Types from the syntax,
 *     inserts implicit conversions and annotates every expression with its Type;
 *   - the emitters (emit_*.c) read the annotated tree.
 * Everything here is allocated in the translation unit's Arena (arena.h) and
 * is never freed individually.  Every node carries the SrcLoc of its first
 * token (for binary operators: of the operator). */
#ifndef SGCC_AST_H
#define SGCC_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"

typedef struct Node Node;
typedef struct Type Type;
typedef struct Symbol Symbol;
typedef struct DeclSpecs DeclSpecs;
typedef struct Declarator Declarator;
typedef struct Attribute Attribute;

/* A singly linked list of nodes (statement lists, arguments, initialisers). */
typedef struct NodeList {
    Node *head, *tail;
    int count;
} NodeList;

void nodelist_append(NodeList *list, Node *node);

/* ===================================================================== */
/* Types (built by sema)                                                  */
/* ===================================================================== */

typedef enum AddrSpace {
    AS_NONE,     /* not written; private for objects, generic-to-private for pointees */
    AS_PRIVATE,
    AS_GLOBAL,
    AS_LOCAL,
    AS_CONSTANT,
} AddrSpace;

/* Group kinds of SPEC §1.1, in the order the spec lists them. */
#define GROUP_KINDS(X)                                      \
    X(WORK_GROUP, "work_group")                             \
    X(SUB_GROUP, "sub_group")                               \
    X(BALLOT_GROUP, "ballot_group")                         \
    X(FIXED_SIZE_GROUP, "fixed_size_group")                 \
    X(TANGLE_GROUP, "tangle_group")                         \
    X(OPPORTUNISTIC_GROUP, "opportunistic_group")

typedef enum GroupKind {
#define X(name, spelling) GROUP_##name,
    GROUP_KINDS(X)
#undef X
    GROUP_KIND_COUNT
} GroupKind;

extern const char *const group_kind_names[GROUP_KIND_COUNT];

/* The scalar kinds come first, in the order of scalars.def.  Plain char is
 * signed on every target we emit for; long is 64-bit on every target
 * (OpenCL long); size_t is unsigned, 64-bit for analysis, emitted as
 * size_t. */
typedef enum TypeKind {
#define SCALAR(kind, spelling, sgrt, ctype, setter, member) TY_##kind,
#include "ast/scalars.def"
#undef SCALAR
    TY_ENUM,     /* underlying int */
    TY_PTR,
    TY_ARRAY,
    TY_STRUCT,
    TY_UNION,
    TY_FUNC,
    TY_GROUP,          /* group.kind, group.size_expr for fixed_size_group<N> */
    TY_ASYNC_BARRIER,  /* SPEC §1.3 */
    TY_ARRIVAL_TOKEN,
} TypeKind;

typedef struct Member {
    struct Member *next;
    const char *name;      /* NULL for an anonymous struct/union member */
    Type *ty;
    int offset;            /* byte offset (informational) */
    SrcLoc loc;
} Member;

typedef struct Param {
    struct Param *next;
    const char *name;      /* may be NULL in a prototype */
    Type *ty;
    SrcLoc loc;
} Param;

#define TY_LAST_SCALAR TY_DOUBLE

/* One row of scalars.def. */
typedef struct ScalarType {
    const char *spelling, *sgrt, *ctype, *setter, *member;
} ScalarType;

extern const ScalarType scalar_types[TY_LAST_SCALAR + 1];

static inline bool type_kind_is_scalar(TypeKind kind) { return kind <= TY_LAST_SCALAR; }

struct Type {
    TypeKind kind;
    int size;              /* bytes; -1 if incomplete or not an object */
    int align;
    /* qualifiers of this (possibly copied) type */
    bool is_const, is_volatile, is_restrict;
    AddrSpace addr_space;  /* address space of objects of this type */
    const char *typedef_name; /* set on the copy obtained through a typedef, so
                                 emitters can keep the user's spelling */
    Type *origin;          /* the unqualified type this one was copied from */

    Type *base;            /* TY_PTR pointee, TY_ARRAY element, TY_FUNC return */
    int64_t array_len;     /* TY_ARRAY: -1 when incomplete */
    Node *array_len_expr;  /* TY_ARRAY: the length expression as written (kept so
                              that spec-constant sizes are emitted symbolically) */

    /* TY_STRUCT / TY_UNION / TY_ENUM */
    const char *tag;       /* NULL if anonymous */
    Member *members;
    bool is_complete;
    bool is_packed;
    bool enum_has_negative; /* TY_ENUM: an enumerator is negative, so the C type
                              compatible with it is int (GCC and Clang), else
                              unsigned int (emitters print CUDA objects so) */

    /* TY_FUNC */
    Param *params;
    bool is_variadic;
    bool has_prototype;    /* false for `f()` in C17 meaning "unspecified" */

    /* TY_GROUP */
    GroupKind group;
    Node *group_size_expr; /* fixed_size_group<N>: N as written */
    int64_t group_size;    /* folded N, or 0 when N is a spec constant */
};

/* ===================================================================== */
/* Declarations as written (built by the parser, read by sema)            */
/* ===================================================================== */

typedef enum StorageClass {
    SC_NONE,
    SC_TYPEDEF,
    SC_EXTERN,
    SC_STATIC,
    SC_AUTO,      /* C23 `auto` type inference when no type specifier is present */
    SC_REGISTER,
} StorageClass;

/* `[[name(args)]]` or `__attribute__((name(args)))`. */
struct Attribute {
    Attribute *next;
    const char *name;
    NodeList args;
    SrcLoc loc;
};

/* Type-specifier keywords counted while parsing, resolved by sema
 * (e.g. `unsigned long int`).  TS_* are bit positions. */
typedef enum TypeSpecBit {
    TS_VOID, TS_BOOL, TS_CHAR, TS_SHORT, TS_INT, TS_LONG, TS_LONG2, TS_SIGNED,
    TS_UNSIGNED, TS_FLOAT, TS_DOUBLE, TS_UCHAR, TS_USHORT, TS_UINT, TS_ULONG,
    TS_SIZE_T, TS_COMPLEX, TS_ATOMIC,
    TS_COUNT
} TypeSpecBit;

struct DeclSpecs {
    SrcLoc loc;
    StorageClass storage;
    bool is_inline, is_noreturn, is_thread_local;
    bool is_kernel;          /* `kernel` / `__kernel` */
    bool is_spec_const;      /* `spec_const` or `spec_const(ID)` */
    Node *spec_const_id;     /* explicit ID expression, or NULL */
    bool is_const, is_volatile, is_restrict;
    AddrSpace addr_space;
    unsigned type_spec_bits; /* 1u << TypeSpecBit; `long long` sets TS_LONG2 */
    int type_spec_count;     /* number of type-specifier keywords seen */
    const char *typedef_name;/* a typedef name used as the type specifier */
    Node *record;            /* ND_RECORD_SPEC or ND_ENUM_SPEC, or NULL */
    bool is_group;           /* one of the group type keywords */
    GroupKind group;
    Node *group_size_expr;   /* fixed_size_group<N> */
    bool is_async_barrier, is_arrival_token;
    Node *alignas_expr;      /* _Alignas(expr); NULL if absent */
    Attribute *attrs;        /* attributes written anywhere in the specifiers */
    Type *resolved;          /* sema: the type these specifiers denote */
};

typedef enum DeclaratorKind {
    DECL_NAME,   /* the innermost part: the identifier (or nothing when abstract) */
    DECL_PTR,    /* pointer to `inner` */
    DECL_ARRAY,  /* array of `inner` */
    DECL_FUNC,   /* function returning `inner` */
} DeclaratorKind;

/* A declarator is a chain from its outermost derivation to the name.  Sema
 * builds the type by starting from the specifiers' type and, walking from the
 * head towards DECL_NAME, wrapping it once per derivation:
 *   `*a[3]`    PTR -> ARRAY(3) -> NAME(a)   int -> int* -> int*[3]
 *   `(*p)[3]`  ARRAY(3) -> PTR -> NAME(p)   int -> int[3] -> int(*)[3]
 *   `a[2][3]`  ARRAY(3) -> ARRAY(2) -> NAME int -> int[3] -> int[2][3]
 * The parser makes each new derivation's `inner` the chain it wraps. */
struct Declarator {
    DeclaratorKind kind;
    SrcLoc loc;
    Declarator *inner;      /* the rest of the declarator; NULL after DECL_NAME */
    const char *name;       /* DECL_NAME; NULL for abstract declarators */
    /* DECL_PTR */
    bool is_const, is_volatile, is_restrict;
    AddrSpace addr_space;   /* `int * local p`: rare, OpenCL allows it */
    /* DECL_ARRAY */
    Node *array_len;        /* NULL for [] */
    bool array_static;
    /* DECL_FUNC */
    NodeList params;        /* ND_PARAM nodes */
    bool is_variadic;
    bool params_void;       /* written as (void) */
    Attribute *attrs;       /* attributes after the declarator */
};

/* ===================================================================== */
/* Nodes                                                                  */
/* ===================================================================== */

typedef enum NodeKind {
    /* --- expressions ---------------------------------------------------- */
    ND_INT_LIT,      /* int_value; ty from the suffix */
    ND_FLOAT_LIT,    /* float_value; text keeps the spelling */
    ND_CHAR_LIT,     /* int_value */
    ND_STRING_LIT,   /* text = spelling with quotes (concatenated) */
    ND_BOOL_LIT,     /* true / false */
    ND_IDENT,        /* name; sema sets sym */
    ND_UNARY,        /* op, lhs */
    ND_POSTFIX,      /* op (OP_INC / OP_DEC), lhs */
    ND_BINARY,       /* op, lhs, rhs */
    ND_ASSIGN,       /* op (OP_ASSIGN or a compound OP_*), lhs, rhs */
    ND_COND,         /* cond ? then : els */
    ND_COMMA,        /* lhs, rhs */
    ND_CAST,         /* type_name, lhs; sema also inserts implicit ones (is_implicit) */
    ND_SIZEOF,       /* lhs (expression) or type_name */
    ND_ALIGNOF,      /* type_name */
    ND_CALL,         /* callee, args; template_args for get_fixed_size_group<N>(...) */
    ND_INDEX,        /* lhs[rhs] */
    ND_MEMBER,       /* lhs.name or lhs->name (is_arrow); sema sets member */
    ND_INIT_LIST,    /* { ... } : list of ND_DESIG_INIT or expressions */
    ND_DESIG_INIT,   /* designators (list of ND_DESIGNATOR) = init (lhs) */
    ND_DESIGNATOR,   /* .name or [index] (lhs) */
    ND_COMPOUND_LIT, /* (type_name){ init } */
    ND_GENERIC,      /* _Generic: parsed to report it as unsupported */

    /* --- statements ----------------------------------------------------- */
    ND_BLOCK,        /* items */
    ND_DECL,         /* decl_specs, items = ND_INIT_DECLARATOR list */
    ND_EXPR_STMT,    /* lhs */
    ND_NULL_STMT,
    ND_IF,           /* cond, then, els */
    ND_SWITCH,       /* cond, body */
    ND_CASE,         /* lhs = value, body */
    ND_DEFAULT,      /* body */
    ND_WHILE,        /* cond, body */
    ND_DO,           /* body, cond */
    ND_FOR,          /* init (ND_DECL or ND_EXPR_STMT or NULL), cond, inc, body */
    ND_BREAK,
    ND_CONTINUE,
    ND_RETURN,       /* lhs may be NULL */
    ND_GOTO,         /* name */
    ND_LABEL,        /* name, body */
    ND_STATIC_ASSERT,/* cond, text (message literal or NULL) */
    ND_PRAGMA,       /* text: the pragma line after `#pragma` (kept for emitters) */

    /* --- declarations --------------------------------------------------- */
    ND_INIT_DECLARATOR, /* declarator, init (may be NULL); sema sets sym */
    ND_PARAM,        /* decl_specs + declarator (declarator->name may be NULL) */
    ND_FUNC_DEF,     /* decl_specs, declarator, body; sema sets sym */
    ND_RECORD_SPEC,  /* struct/union: name (tag or NULL), is_union, items = ND_DECL
                        (member declarations); has_body false for `struct S` */
    ND_ENUM_SPEC,    /* name (tag or NULL), items = ND_ENUMERATOR, has_body */
    ND_ENUMERATOR,   /* name, lhs = value expression or NULL */
    ND_TYPE_NAME,    /* decl_specs + abstract declarator (casts, sizeof) */
    ND_TRANSLATION_UNIT, /* items = external declarations; args = ND_IDENTs naming
                            declarations that syntax-error recovery dropped;
                            int_value: parse_tree_checkable() (parse.h) */
} NodeKind;

/* Operators of ND_UNARY / ND_BINARY / ND_ASSIGN / ND_POSTFIX, written once:
 * X(name, spelling). */
#define OPERATORS(X)                                                        \
    X(ADD, "+") X(SUB, "-") X(MUL, "*") X(DIV, "/") X(MOD, "%")             \
    X(SHL, "<<") X(SHR, ">>") X(BITAND, "&") X(BITOR, "|") X(BITXOR, "^")   \
    X(LT, "<") X(GT, ">") X(LE, "<=") X(GE, ">=") X(EQ, "==") X(NE, "!=")   \
    X(LOGAND, "&&") X(LOGOR, "||")                                          \
    X(ASSIGN, "=") X(ADD_ASSIGN, "+=") X(SUB_ASSIGN, "-=")                  \
    X(MUL_ASSIGN, "*=") X(DIV_ASSIGN, "/=") X(MOD_ASSIGN, "%=")             \
    X(SHL_ASSIGN, "<<=") X(SHR_ASSIGN, ">>=") X(AND_ASSIGN, "&=")           \
    X(OR_ASSIGN, "|=") X(XOR_ASSIGN, "^=")                                  \
    X(PLUS, "+") X(NEG, "-") X(NOT, "!") X(BITNOT, "~") X(DEREF, "*")       \
    X(ADDR, "&") X(PRE_INC, "++") X(PRE_DEC, "--") X(INC, "++") X(DEC, "--")

typedef enum OpKind {
#define X(name, spelling) OP_##name,
    OPERATORS(X)
#undef X
    OP_COUNT
} OpKind;

extern const char *const op_spellings[OP_COUNT];

struct Node {
    /* Fields are grouped by size (pointers, then 4-byte, then flags) so the
     * node has no padding holes: a million-line unit has ~5 million nodes. */
    Node *next;            /* sibling in a NodeList */

    /* generic children (meaning per kind, see NodeKind) */
    Node *lhs, *rhs;
    Node *cond, *then, *els;
    Node *init, *inc, *body;
    Node *callee;
    NodeList args;         /* call arguments */
    NodeList template_args;/* get_fixed_size_group<N>: N */
    NodeList items;        /* block items, declarators, members, enumerators,
                              initialiser elements, designators */

    /* leaves */
    const char *name;      /* identifiers, members, labels, tags */
    const char *text;      /* literal spelling (NUL-terminated, arena) */
    uint64_t int_value;    /* ND_INT_LIT, ND_CHAR_LIT, ND_BOOL_LIT */
    double float_value;    /* ND_FLOAT_LIT */

    /* declarations */
    DeclSpecs *decl_specs; /* ND_DECL, ND_PARAM, ND_FUNC_DEF, ND_TYPE_NAME */
    Declarator *declarator;/* ND_INIT_DECLARATOR, ND_PARAM, ND_FUNC_DEF, ND_TYPE_NAME */
    Node *type_name;       /* ND_CAST, ND_SIZEOF, ND_ALIGNOF, ND_COMPOUND_LIT */

    /* --- filled by sema ------------------------------------------------- */
    Type *ty;              /* type of an expression; declared type of a declarator */
    Symbol *sym;           /* ND_IDENT, ND_INIT_DECLARATOR, ND_PARAM, ND_FUNC_DEF */
    Member *member;        /* ND_MEMBER */
    int64_t const_value;   /* valid when is_const_expr */
    void *emit_data;       /* scratch for the emitters (e.g. tangle masks) */

    /* 4-byte fields */
    NodeKind kind;
    SrcLoc loc;
    OpKind op;
    unsigned int_suffix;   /* ND_INT_LIT: bit 0 'u', bit 1 'l', bit 2 'll' */
    int builtin;           /* ND_CALL: a Builtin (builtins.h), 0 if a user function */
    int group_op;          /* ND_CALL of a group algorithm: the OP (builtins.h), or 0 */
    int method;            /* ND_CALL of a group/barrier member function: a Method
                              (builtins.h); callee is the ND_MEMBER; 0 otherwise */

    /* flags */
    bool is_float_suffix;  /* ND_FLOAT_LIT: 'f' suffix */
    bool is_arrow;         /* ND_MEMBER */
    bool is_union;         /* ND_RECORD_SPEC */
    bool has_body;         /* ND_RECORD_SPEC / ND_ENUM_SPEC */
    bool is_implicit;      /* ND_CAST inserted by sema */
    bool is_const_expr;    /* expression folds to const_value at translation time */
    bool depends_on_spec_const; /* constant only once spec constants are bound */
    bool is_uniform;       /* same value for every work-item of the current tangle:
                              of the sub-group, or, inside a divergent branch, of
                              the work-items that took it (avoids ballots, SPEC §2) */
    bool creators_may_diverge; /* ND_CALL of a group algorithm on a fixed-size group
                              made by its declaration: some work-item that made the
                              group may not reach this call (sema_flow.c) */
};

/* ===================================================================== */
/* Symbols (built by sema)                                                */
/* ===================================================================== */

typedef enum SymbolKind {
    SYM_VAR,        /* object: global, local, or parameter */
    SYM_FUNC,
    SYM_TYPEDEF,
    SYM_ENUM_CONST,
    SYM_SPEC_CONST, /* SPEC §1.2 */
    SYM_BUILTIN,    /* a built-in function name (builtins.h) */
} SymbolKind;

typedef struct CallEdge {
    struct CallEdge *next;
    Symbol *callee;
    Node *call;     /* the ND_CALL */
} CallEdge;

struct Symbol {
    SymbolKind kind;
    const char *name;
    Type *ty;
    SrcLoc loc;            /* where it was declared */
    StorageClass storage;
    bool is_global;        /* file scope */
    bool is_param;
    bool is_kernel;        /* SYM_FUNC declared `kernel` */
    Node *def;             /* SYM_FUNC: its ND_FUNC_DEF once defined; SYM_VAR: declarator */
    Attribute *attrs;      /* kernel attributes */
    int reqd_work_group_size[3]; /* 0 when absent, or when only known at build time: */
    Node *reqd_work_group_size_expr[3]; /* the argument when it depends on a spec constant
                              (SPEC §1.2): emitted as written, its size unknown to sgcc */
    Symbol *reqd_work_group_size_spec[3]; /* the spec constant when that argument is
                              exactly one spec constant's name, else NULL */
    int reqd_sub_group_size;     /* 0 when absent */
    CallEdge *calls;       /* SYM_FUNC: calls made by its body */
    bool address_taken;    /* SYM_FUNC used other than as a callee */
    bool needs_tangle_mask;/* SYM_FUNC: body uses tangle groups (or calls one that does) */
    bool uses_sub_groups;  /* SYM_FUNC: body needs sub-group support (transitively) */
    bool uses_non_uniform_groups; /* SYM_FUNC: makes a ballot, tangle or opportunistic
                              group (transitively): sub-group operations in divergent
                              control flow, which the device must support */
    bool uses_async_barrier;
    int64_t widest_fixed_group; /* SYM_FUNC: the largest constant N of a
                              fixed_size_group<N> it makes, itself or through a
                              callee (0: none); a target whose sub-groups are
                              narrower leaves it out (EmitHooks.unsupported) */
    bool has_work_group_calls; /* SYM_FUNC: its body (not its callees) calls a
                              group function other than group_barrier, an
                              algorithm or a joint algorithm on a work_group */
    int64_t enum_value;    /* SYM_ENUM_CONST */
    int builtin;           /* SYM_BUILTIN */
    /* SYM_SPEC_CONST */
    uint32_t spec_id;
    bool spec_id_explicit;
    bool spec_required;    /* no default value */
    Node *spec_default;    /* the initialiser as written (NULL when required) */
    int64_t spec_default_int;  /* folded default for bool/integer constants */
    double spec_default_float; /* folded default for float/double constants */
    int index;             /* declaration order among its kind (for stable output) */
    int scope_depth;       /* sema: 0 file scope, 1 parameters, 2+ nested blocks */
    bool has_indirect_calls; /* SYM_FUNC: calls through a function pointer */
    bool is_uniform;       /* SYM_VAR local/param: every assignment is uniform */
    int decl_divergence;   /* SYM_VAR local: nesting of non-uniform conditions at
                              its declaration; assignments at that nesting keep it
                              uniform for the tangle its scope lies in */
    int decl_jumps;        /* SYM_VAR local: divergent exits seen before it (sema_flow.c) */
    bool made_fixed_group; /* SYM_VAR local: a fixed-size group initialised by
                              get_fixed_size_group at its declaration */
    bool group_rewritten;  /* SYM_VAR local of group type: assigned again or
                              address taken after its declaration */
};

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

/* ===================================================================== */
/* Construction helpers (ast.c)                                           */
/* ===================================================================== */

Node *ast_new(Arena *arena, NodeKind kind, SrcLoc loc);
Node *ast_binary(Arena *arena, OpKind op, Node *lhs, Node *rhs, SrcLoc loc);
Node *ast_unary(Arena *arena, NodeKind kind, OpKind op, Node *operand, SrcLoc loc);
Declarator *ast_declarator(Arena *arena, DeclaratorKind kind, SrcLoc loc);
/* Innermost DECL_NAME of a declarator chain (NULL for an abstract one). */
const Declarator *ast_declarator_name(const Declarator *d);
const char *ast_node_kind_name(NodeKind kind);

#endif
