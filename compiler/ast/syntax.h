/* syntax.h — the syntax tree the parser builds (ast.h is the umbrella of
 * the data model): declarations as written, node kinds, operators and the
 * Node itself, with the fields sema fills. */
#ifndef SGCC_AST_SYNTAX_H
#define SGCC_AST_SYNTAX_H

#include "ast/types.h"
#include "base/diag.h"

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

/* One per declaration (and parameter): pointers first, then the small
 * fields packed, 80 bytes (issue 24). */
struct DeclSpecs {
    SrcLoc loc;
    Node *spec_const_id;     /* explicit ID expression, or NULL */
    const char *typedef_name;/* a typedef name used as the type specifier */
    Node *record;            /* ND_RECORD_SPEC or ND_ENUM_SPEC, or NULL */
    Node *group_size_expr;   /* fixed_size_group<N> */
    Node *alignas_expr;      /* _Alignas(expr); NULL if absent */
    Attribute *attrs;        /* attributes written anywhere in the specifiers */
    Type *resolved;          /* sema: the type these specifiers denote */
    unsigned type_spec_bits; /* 1u << TypeSpecBit; `long long` sets TS_LONG2 */
    int type_spec_count;     /* number of type-specifier keywords seen */
    StorageClass storage : 4;
    AddrSpace addr_space : 4;
    GroupKind group : 8;
    bool is_inline : 1, is_noreturn : 1, is_thread_local : 1;
    bool is_kernel : 1;      /* `kernel` / `__kernel` */
    bool is_spec_const : 1;  /* `spec_const` or `spec_const(ID)` */
    bool is_const : 1, is_volatile : 1, is_restrict : 1;
    bool is_group : 1;       /* one of the group type keywords */
    bool is_async_barrier : 1, is_arrival_token : 1;
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
    Declarator *inner;      /* the rest of the declarator; NULL after DECL_NAME */
    const char *name;       /* DECL_NAME; NULL for abstract declarators */
    Attribute *attrs;       /* attributes after the declarator */
    Node *array_len;        /* DECL_ARRAY: NULL for [] */
    SrcLoc loc;
    DeclaratorKind kind : 8;
    AddrSpace addr_space : 8; /* DECL_PTR: `int * local p`: rare, OpenCL allows it */
    bool is_const : 1, is_volatile : 1, is_restrict : 1; /* DECL_PTR */
    bool array_static : 1;  /* DECL_ARRAY */
    bool is_variadic : 1;   /* DECL_FUNC */
    bool params_void : 1;   /* DECL_FUNC: written as (void) */
    NodeList params;        /* DECL_FUNC only: the other kinds are allocated
                               without it (ast_declarator; issue 24), 48 bytes
                               instead of 72 */
};

/* ===================================================================== */
/* Nodes                                                                  */
/* ===================================================================== */

/* Node kinds, written once with their names (diagnostics, ast_dump):
 * X(kind, name).  After each, the fields it uses. */
#define NODE_KINDS(X) \
    /* --- expressions --- */ \
    X(INT_LIT, "int literal")                /* int_value; ty from the suffix */ \
    X(FLOAT_LIT, "float literal")            /* float_value; text keeps the spelling */ \
    X(CHAR_LIT, "char literal")              /* int_value */ \
    X(STRING_LIT, "string literal")          /* text = spelling with quotes (concatenated) */ \
    X(BOOL_LIT, "bool literal")              /* true / false */ \
    X(IDENT, "identifier")                   /* name; sema sets sym */ \
    X(UNARY, "unary")                        /* op, lhs */ \
    X(POSTFIX, "postfix")                    /* op (OP_INC / OP_DEC), lhs */ \
    X(BINARY, "binary")                      /* op, lhs, rhs */ \
    X(ASSIGN, "assignment")                  /* op (OP_ASSIGN or a compound OP_*), lhs, rhs */ \
    X(COND, "conditional")                   /* cond ? then : els */ \
    X(COMMA, "comma")                        /* lhs, rhs */ \
    X(CAST, "cast")                          /* type_name, lhs; sema also inserts implicit ones (is_implicit) */ \
    X(SIZEOF, "sizeof")                      /* lhs (expression) or type_name */ \
    X(ALIGNOF, "alignof")                    /* type_name */ \
    X(CALL, "call")                          /* callee, args; template_args for get_fixed_size_group<N>(...) */ \
    X(INDEX, "index")                        /* lhs[rhs] */ \
    X(MEMBER, "member")                      /* lhs.name or lhs->name (is_arrow); sema sets member */ \
    X(INIT_LIST, "initializer list")         /* { ... } : list of ND_DESIG_INIT or expressions */ \
    X(DESIG_INIT, "designated initializer")  /* designators (list of ND_DESIGNATOR) = init (lhs) */ \
    X(DESIGNATOR, "designator")              /* .name or [index] (lhs) */ \
    X(COMPOUND_LIT, "compound literal")      /* (type_name){ init } */ \
    X(GENERIC, "_Generic")                   /* _Generic: parsed to report it as unsupported */ \
    /* --- statements --- */ \
    X(BLOCK, "block")                        /* items */ \
    X(DECL, "declaration")                   /* decl_specs, items = ND_INIT_DECLARATOR list */ \
    X(EXPR_STMT, "expression statement")     /* lhs */ \
    X(NULL_STMT, "null statement") \
    X(IF, "if")                              /* cond, then, els */ \
    X(SWITCH, "switch")                      /* cond, body */ \
    X(CASE, "case")                          /* lhs = value, body */ \
    X(DEFAULT, "default")                    /* body */ \
    X(WHILE, "while")                        /* cond, body */ \
    X(DO, "do")                              /* body, cond */ \
    X(FOR, "for")                            /* init (ND_DECL or ND_EXPR_STMT or NULL), cond, inc, body */ \
    X(BREAK, "break") \
    X(CONTINUE, "continue") \
    X(RETURN, "return")                      /* lhs may be NULL */ \
    X(GOTO, "goto")                          /* name */ \
    X(LABEL, "label")                        /* name, body */ \
    X(STATIC_ASSERT, "static_assert")        /* cond, text (message literal or NULL) */ \
    X(PRAGMA, "pragma")                      /* text: the pragma line after `#pragma` (kept for emitters) */ \
    /* --- declarations --- */ \
    X(INIT_DECLARATOR, "init declarator")    /* declarator, init (may be NULL); sema sets sym */ \
    X(PARAM, "parameter")                    /* decl_specs + declarator (declarator->name may be NULL); \
                                                name alone: an entry of a K&R identifier list */ \
    X(FUNC_DEF, "function definition")       /* decl_specs, declarator, body; sema sets sym */ \
    X(RECORD_SPEC, "struct/union")           /* struct/union: name (tag or NULL), is_union, \
                                                items = ND_DECL (member declarations); \
                                                has_body false for `struct S` */ \
    X(ENUM_SPEC, "enum")                     /* name (tag or NULL), items = ND_ENUMERATOR, has_body */ \
    X(ENUMERATOR, "enumerator")              /* name, lhs = value expression or NULL */ \
    X(TYPE_NAME, "type name")                /* decl_specs + abstract declarator (casts, sizeof) */ \
    X(TRANSLATION_UNIT, "translation unit")  /* items = external declarations; dropped_names = \
                                                ND_IDENTs naming declarations that syntax-error \
                                                recovery dropped; int_value: \
                                                parse_tree_checkable() (parse.h) */

typedef enum NodeKind {
#define X(kind, name) ND_##kind,
    NODE_KINDS(X)
#undef X
    ND_KIND_COUNT
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

/* A node is a common header plus a per-kind payload (issue 24: the old
 * node had every field of every kind, 296 bytes; this one has 80).  The
 * payload is a union of five 8-byte slots P0..P4; each field below names its
 * slot, and the kinds that use it are those NODE_KINDS lists beside it.  Two
 * fields share a slot only where no kind uses both, so each kind's fields
 * are disjoint (tests/unit/test_node_layout.c checks every kind's set).  A
 * field a kind does not use holds another kind's data, or lies past the
 * node's end: a node is allocated only up to the last slot its kind uses
 * (ast_node_size in ast.c, 40 to 80 bytes).  Read or write a field only after
 * looking at `kind`, never as "NULL when absent" across kinds.
 *
 *   slot  fields (union views below)
 *   P0    lhs | init | decl_specs | int_value | float_value | args...
 *   P1    rhs | inc | name | text | type_name | dropped_names | ...args...
 *   P2    cond | sym | member | items... | ...args
 *   P3    then | body | callee | ...items...
 *   P4    els | declarator | template_args | ...items
 */
struct Node {
    Node *next;            /* sibling in a NodeList */
    Type *ty;              /* sema: type of an expression; declared type of
                              a declarator */
    SrcLoc loc;

    NodeKind kind : 8;
    OpKind op : 8;         /* ND_UNARY / ND_POSTFIX / ND_BINARY / ND_ASSIGN */
    unsigned int_suffix : 3;    /* ND_INT_LIT: bit 0 'u', bit 1 'l', bit 2 'll' */
    bool is_float_suffix : 1;   /* ND_FLOAT_LIT: 'f' suffix */
    bool is_arrow : 1;          /* ND_MEMBER */
    bool is_union : 1;          /* ND_RECORD_SPEC */
    bool has_body : 1;          /* ND_RECORD_SPEC / ND_ENUM_SPEC */
    bool is_implicit : 1;       /* ND_CAST inserted by sema */
    /* sema: expression facts */
    bool is_const_expr : 1;     /* folds to const_value at translation time */
    bool depends_on_spec_const : 1; /* constant only once spec constants are bound */
    /* sema_flow.c: analysis facts, one bit each (a side table keyed by node
     * would cost more than the bits) */
    bool is_uniform : 1;   /* same value for every work-item of the current
                              tangle: of the sub-group, or, inside a divergent
                              branch, of the work-items that took it (avoids
                              ballots, docs/LOWERING.md "Tangle masks") */
    bool creators_may_diverge : 1; /* ND_CALL of a group algorithm on a
                              fixed-size group made by its declaration: some
                              work-item that made the group may not reach this
                              call */
    /* ND_CALL, set by sema (builtins.h; ranges checked in builtins.c) */
    unsigned builtin : 16; /* a Builtin, 0 if a user function */
    unsigned group_op : 8; /* of a group algorithm: the OP, or 0 */
    unsigned method : 8;   /* of a group/barrier member function: a Method
                              (callee is the ND_MEMBER); 0 otherwise */
    int64_t const_value;   /* sema: an expression's value when is_const_expr
                              (outside the union: every expression kind has it,
                              and every node's allocation holds it) */

    union {
        struct {                    /* operators, conditionals, if */
            Node *lhs;              /* P0 */
            Node *rhs;              /* P1 */
            Node *cond;             /* P2 */
            Node *then;             /* P3 */
            Node *els;              /* P4 */
        };
        struct {                    /* loops, declarations, labels */
            Node *init;             /* P0: ND_FOR, ND_INIT_DECLARATOR, ND_COMPOUND_LIT */
            Node *inc;              /* P1: ND_FOR */
            Symbol *sym;            /* P2, sema: ND_IDENT, ND_INIT_DECLARATOR, ND_PARAM, ND_FUNC_DEF */
            Node *body;             /* P3 */
            Declarator *declarator; /* P4: ND_INIT_DECLARATOR, ND_PARAM, ND_FUNC_DEF, ND_TYPE_NAME */
        };
        struct {                    /* names, members, casts */
            DeclSpecs *decl_specs;  /* P0: ND_DECL, ND_PARAM, ND_FUNC_DEF, ND_TYPE_NAME */
            const char *name;       /* P1: identifiers, members, labels, tags, the
                                       parameters of a K&R identifier list */
            Member *member;         /* P2, sema: ND_MEMBER */
            Node *callee;           /* P3: ND_CALL */
            NodeList *template_args;/* P4: ND_CALL of get_fixed_size_group<N>: N; else NULL */
        };
        struct {                    /* literals */
            uint64_t int_value;     /* P0: ND_INT_LIT, ND_CHAR_LIT, ND_BOOL_LIT, ND_TRANSLATION_UNIT */
            const char *text;       /* P1: literal spelling (NUL-terminated, arena),
                                       ND_STATIC_ASSERT message, ND_PRAGMA line */
            NodeList items;         /* P2-P4: block items, declarators, members,
                                       enumerators, initialiser elements, designators */
        };
        struct {
            double float_value;     /* P0: ND_FLOAT_LIT */
            union {                 /* P1 */
                Node *type_name;    /* ND_CAST, ND_SIZEOF, ND_ALIGNOF, ND_COMPOUND_LIT */
                NodeList *dropped_names; /* ND_TRANSLATION_UNIT (see NODE_KINDS) */
            };
        };
        NodeList args;              /* P0-P2: ND_CALL arguments */
    };
};

#endif
