/* types.h — the types sema builds (ast.h is the umbrella of the data model):
 * address spaces, group kinds, the scalar kinds of scalars.def and Type. */
#ifndef SGCC_AST_TYPES_H
#define SGCC_AST_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h" /* SrcLoc */

typedef struct Node Node;
typedef struct Type Type;

typedef enum AddrSpace {
    AS_NONE,     /* not written; private for objects, generic-to-private for pointees */
    AS_PRIVATE,
    AS_GLOBAL,
    AS_LOCAL,
    AS_CONSTANT,
} AddrSpace;

/* Group kinds of docs/REFERENCE.md "Groups", in the order it lists them. */
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
    TY_ASYNC_BARRIER,  /* docs/REFERENCE.md "Split barriers" */
    TY_ARRIVAL_TOKEN,
} TypeKind;

/* The case labels of the kinds without an arithmetic value (all after
 * TY_ENUM), for a switch over the arithmetic kinds that names every
 * TypeKind (TY_VOID and TY_ENUM too), so that -Wswitch asks each such
 * switch about a new scalars.def row. */
#define CASE_TY_NOT_ARITHMETIC                                         \
    case TY_PTR: case TY_ARRAY: case TY_STRUCT: case TY_UNION:         \
    case TY_FUNC: case TY_GROUP: case TY_ASYNC_BARRIER: case TY_ARRIVAL_TOKEN

typedef struct Member {
    struct Member *next;
    const char *name;      /* NULL for an anonymous struct/union member */
    Type *ty;
    int offset;            /* byte offset (informational) */
    SrcLoc loc;
    bool defines_record;   /* the member's specifiers define its struct or union
                              (`struct in { int x; } *p;`), so the printer puts
                              the body there; else the tag is only a reference */
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

/* The largest object, in bytes: Type.size is an int.  A larger array or
 * record is an error at its declarator (docs/REFERENCE.md "Limits"). */
#define TYPE_MAX_OBJECT_SIZE INT32_MAX

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

#endif
