/* ast.c — node construction and the name tables declared in ast.h. */
#include "ast/ast.h"

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

Node *ast_new(Arena *arena, NodeKind kind, SrcLoc loc)
{
    Node *node = ARENA_NEW(arena, Node);
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
    Declarator *d = ARENA_NEW(arena, Declarator);
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
