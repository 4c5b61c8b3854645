/* ast.c — node construction and the name tables declared in ast.h. */
#include "ast/ast.h"

#include <stddef.h>
#include <string.h>

const ScalarType scalar_types[TY_LAST_SCALAR + 1] = {
#define SCALAR(kind, spelling, sgrt, ctype, setter, member) \
    [TY_##kind] = {spelling, sgrt, ctype, setter, member},
#include "ast/scalars.def"
#undef SCALAR
};

const char *const group_kind_names[GROUP_KIND_COUNT] = {
#define X(name, spelling) [GROUP_##name] = spelling,
    GROUP_KINDS(X)
#undef X
};

/* The node's narrow fields and size (syntax.h; issue 24's memory goal). */
_Static_assert(ND_KIND_COUNT <= 1 << 8, "Node.kind is 8 bits");
_Static_assert(OP_COUNT <= 1 << 8, "Node.op is 8 bits");
_Static_assert(sizeof(void *) != 8 || sizeof(Node) == 80, "a node is 80 bytes on LP64");
_Static_assert(SC_REGISTER < 1 << 4 && AS_CONSTANT < 1 << 4, "DeclSpecs: 4-bit fields");
_Static_assert(GROUP_KIND_COUNT <= 1 << 8, "DeclSpecs.group is 8 bits");
_Static_assert(sizeof(void *) != 8 || sizeof(DeclSpecs) == 80, "DeclSpecs is 80 bytes on LP64");

const char *const op_spellings[OP_COUNT] = {
#define X(name, spelling) [OP_##name] = spelling,
    OPERATORS(X)
#undef X
};

void nodelist_append(NodeList *list, Node *node)
{
    if (!node)
        return;
    node->next = NULL;
    if (list->tail)
        list->tail->next = node;
    else
        list->head = node;
    list->tail = node;
    list->count++;
}

/* Nodes sized by kind (issue 24): a node is allocated up to the end of the
 * last payload slot its kind uses (the fields NODE_KINDS lists beside it;
 * tests/unit/test_node_layout.c checks every field of every kind lies
 * inside).  Writing a field its kind does not use would write past the
 * node's end. */
#define END(field) (offsetof(Node, field) + sizeof(((Node *)0)->field))
#define P0 END(lhs)
#define P1 END(rhs)
#define P2 END(cond)
#define P3 END(then)
#define P4 END(els)
static const unsigned char node_sizes[ND_KIND_COUNT] = {
    [ND_INT_LIT] = P1, [ND_FLOAT_LIT] = P1, [ND_CHAR_LIT] = P1,
    [ND_STRING_LIT] = P1, [ND_BOOL_LIT] = P1, [ND_IDENT] = P2,
    [ND_UNARY] = P0, [ND_POSTFIX] = P0, [ND_BINARY] = P1, [ND_ASSIGN] = P1,
    [ND_COND] = P4, [ND_COMMA] = P1, [ND_CAST] = P1, [ND_SIZEOF] = P1,
    [ND_ALIGNOF] = P1, [ND_CALL] = P4, [ND_INDEX] = P1, [ND_MEMBER] = P2,
    [ND_INIT_LIST] = P4, [ND_DESIG_INIT] = P4, [ND_DESIGNATOR] = P1,
    [ND_COMPOUND_LIT] = P1, [ND_GENERIC] = P0,
    [ND_BLOCK] = P4, [ND_DECL] = P4, [ND_EXPR_STMT] = P0,
    [ND_IF] = P4, [ND_SWITCH] = P3, [ND_CASE] = P3, [ND_DEFAULT] = P3,
    [ND_WHILE] = P3, [ND_DO] = P3, [ND_FOR] = P3, [ND_RETURN] = P0,
    [ND_GOTO] = P1, [ND_LABEL] = P3, [ND_STATIC_ASSERT] = P2, [ND_PRAGMA] = P1,
    [ND_INIT_DECLARATOR] = P4, [ND_PARAM] = P4, [ND_FUNC_DEF] = P4,
    [ND_RECORD_SPEC] = P4, [ND_ENUM_SPEC] = P4, [ND_ENUMERATOR] = P2,
    [ND_TYPE_NAME] = P4, [ND_TRANSLATION_UNIT] = P4,
};
#undef P0
#undef P1
#undef P2
#undef P3
#undef P4
#undef END
_Static_assert(offsetof(Node, lhs) == offsetof(Node, const_value) + sizeof(int64_t),
               "the payload follows const_value");

size_t ast_node_size(NodeKind kind)
{
    size_t size = node_sizes[kind];
    return size ? size : offsetof(Node, lhs); /* kinds with no payload */
}

_Static_assert(sizeof(void *) != 8 || offsetof(Declarator, params) == 48,
               "a declarator other than a function's is 48 bytes on LP64");
_Static_assert(sizeof(void *) != 8 || sizeof(Symbol) == 200, "a symbol is 200 bytes on LP64");
_Static_assert(sizeof(void *) != 8 || offsetof(Symbol, enum_value) == 80,
               "a variable's symbol is 80 bytes on LP64");

size_t symbol_size(SymbolKind kind)
{
    switch (kind) {
    case SYM_VAR: case SYM_TYPEDEF: return offsetof(Symbol, enum_value);
    case SYM_ENUM_CONST: case SYM_SPEC_CONST: return offsetof(Symbol, reqd_work_group_size);
    default: return sizeof(Symbol);
    }
}

void *ast_alloc_sized(Arena *arena, size_t size, size_t full)
{
#ifdef SGCC_NODE_POISON
    char *p = arena_alloc(arena, full);
    memset(p + size, 0xA5, full - size);
    return p;
#else
    (void)full;
    return arena_alloc(arena, size);
#endif
}

Node *ast_new(Arena *arena, NodeKind kind, SrcLoc loc)
{
    Node *node = ast_alloc_sized(arena, ast_node_size(kind), sizeof(Node));
    node->kind = kind;
    node->loc = loc;
    return node;
}

Node *ast_binary(Arena *arena, OpKind op, Node *lhs, Node *rhs, SrcLoc loc)
{
    Node *node = ast_new(arena, ND_BINARY, loc);
    node->op = op;
    node->lhs = lhs;
    node->rhs = rhs;
    return node;
}

Node *ast_unary(Arena *arena, NodeKind kind, OpKind op, Node *operand, SrcLoc loc)
{
    Node *node = ast_new(arena, kind, loc);
    node->op = op;
    node->lhs = operand;
    return node;
}

Declarator *ast_declarator(Arena *arena, DeclaratorKind kind, SrcLoc loc)
{
    size_t size = kind == DECL_FUNC ? sizeof(Declarator) : offsetof(Declarator, params);
    Declarator *d = ast_alloc_sized(arena, size, sizeof(Declarator));
    d->kind = kind;
    d->loc = loc;
    return d;
}

const Declarator *ast_declarator_name(const Declarator *d)
{
    while (d && d->kind != DECL_NAME)
        d = d->inner;
    return d;
}

const char *ast_node_kind_name(NodeKind kind)
{
    static const char *const names[ND_KIND_COUNT] = {
#define X(kind, name) [ND_##kind] = name,
        NODE_KINDS(X)
#undef X
    };
    return names[kind];
}
