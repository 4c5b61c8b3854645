/* ast_dump.c — the syntax tree as a compact S-expression, for the parser's
 * unit tests and debugging (not a stable format; no sgcc option prints it).
 *
 *   int x = a + 1;   =>   (decl (specs int) (x = (+ a 1)))
 */
#include "ast/ast_dump.h"

#include <string.h>

static void dump_node(EmitBuffer *out, const Node *n);

static void dump_list(EmitBuffer *out, const NodeList *list)
{
    for (const Node *n = list->head; n; n = n->next) {
        emit_write(out, " ", 1);
        dump_node(out, n);
    }
}

static void dump_specs(EmitBuffer *out, const DeclSpecs *s)
{
    static const char *const ts_names[TS_COUNT] = {
        [TS_VOID] = "void", [TS_BOOL] = "bool", [TS_CHAR] = "char", [TS_SHORT] = "short",
        [TS_INT] = "int", [TS_LONG] = "long", [TS_LONG2] = "long", [TS_SIGNED] = "signed",
        [TS_UNSIGNED] = "unsigned", [TS_FLOAT] = "float", [TS_DOUBLE] = "double",
        [TS_UCHAR] = "uchar", [TS_USHORT] = "ushort", [TS_UINT] = "uint",
        [TS_ULONG] = "ulong", [TS_SIZE_T] = "size_t", [TS_COMPLEX] = "_Complex",
        [TS_ATOMIC] = "_Atomic",
    };
    static const char *const as_names[] = {"", " private", " global", " local", " constant"};
    static const char *const sc_names[] = {"", " typedef", " extern", " static", " auto", " register"};
    emit_printf(out, "(specs%s%s", sc_names[s->storage], as_names[s->addr_space]);
    if (s->is_kernel)
        emit_printf(out, " kernel");
    if (s->is_spec_const) {
        emit_printf(out, " spec_const");
        if (s->spec_const_id) {
            emit_printf(out, "(");
            dump_node(out, s->spec_const_id);
            emit_printf(out, ")");
        }
    }
    if (s->is_const)
        emit_printf(out, " const");
    if (s->is_volatile)
        emit_printf(out, " volatile");
    for (int bit = 0; bit < TS_COUNT; bit++)
        if (s->type_spec_bits & (1u << bit))
            emit_printf(out, " %s", ts_names[bit]);
    if (s->typedef_name)
        emit_printf(out, " %s", s->typedef_name);
    if (s->is_group) {
        emit_printf(out, " %s", group_kind_names[s->group]);
        if (s->group_size_expr) {
            emit_printf(out, "<");
            dump_node(out, s->group_size_expr);
            emit_printf(out, ">");
        }
    }
    if (s->is_async_barrier)
        emit_printf(out, " async_barrier");
    if (s->is_arrival_token)
        emit_printf(out, " arrival_token");
    if (s->record) {
        emit_printf(out, " ");
        dump_node(out, s->record);
    }
    for (const Attribute *a = s->attrs; a; a = a->next) {
        emit_printf(out, " [[%s", a->name);
        dump_list(out, &a->args);
        emit_printf(out, "]]");
    }
    emit_printf(out, ")");
}

static void dump_declarator(EmitBuffer *out, const Declarator *d)
{
    for (; d; d = d->inner) {
        switch (d->kind) {
        case DECL_NAME:
            emit_printf(out, "%s", d->name ? d->name : "_");
            return;
        case DECL_PTR:
            emit_printf(out, "*%s", d->is_const ? "const " : "");
            break;
        case DECL_ARRAY:
            emit_printf(out, "[");
            if (d->array_len)
                dump_node(out, d->array_len);
            emit_printf(out, "]");
            break;
        case DECL_FUNC:
            emit_printf(out, "(fn");
            dump_list(out, &d->params);
            emit_printf(out, "%s)", d->is_variadic ? " ..." : "");
            break;
        }
    }
    emit_printf(out, "_");
}

static void dump_children(EmitBuffer *out, const Node *a, const Node *b, const Node *c)
{
    const Node *kids[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        if (!kids[i])
            continue;
        emit_write(out, " ", 1);
        dump_node(out, kids[i]);
    }
}

/* The children the generic form prints, by role, in this order; a node's
 * payload is a per-kind union (syntax.h), so only its kind's roles may be
 * read. */
enum {
    KID_TYPE_NAME = 1 << 0, KID_COND = 1 << 1, KID_LHS = 1 << 2, KID_RHS = 1 << 3,
    KID_THEN = 1 << 4, KID_ELS = 1 << 5, KID_INIT = 1 << 6, KID_INC = 1 << 7,
    KID_BODY = 1 << 8, KID_ITEMS = 1 << 9,
};

static unsigned generic_kids(NodeKind kind)
{
    switch (kind) {
    case ND_COND: case ND_IF: return KID_COND | KID_THEN | KID_ELS;
    case ND_COMMA: case ND_INDEX: return KID_LHS | KID_RHS;
    case ND_CAST: case ND_SIZEOF: return KID_TYPE_NAME | KID_LHS;
    case ND_ALIGNOF: return KID_TYPE_NAME;
    case ND_COMPOUND_LIT: return KID_TYPE_NAME | KID_INIT;
    case ND_INIT_LIST: case ND_BLOCK: return KID_ITEMS;
    case ND_DESIG_INIT: return KID_LHS | KID_ITEMS;
    case ND_DESIGNATOR: case ND_GENERIC: case ND_EXPR_STMT: case ND_RETURN: return KID_LHS;
    case ND_SWITCH: case ND_WHILE: case ND_DO: return KID_COND | KID_BODY;
    case ND_CASE: return KID_LHS | KID_BODY;
    case ND_DEFAULT: return KID_BODY;
    case ND_FOR: return KID_COND | KID_INIT | KID_INC | KID_BODY;
    case ND_STATIC_ASSERT: return KID_COND;
    default: return 0;
    }
}

static void dump_generic(EmitBuffer *out, const Node *n)
{
    unsigned kids = generic_kids(n->kind);
    emit_printf(out, "(%s", ast_node_kind_name(n->kind));
    if ((kids & KID_TYPE_NAME) && n->type_name) {
        emit_write(out, " ", 1);
        dump_node(out, n->type_name);
    }
    dump_children(out, kids & KID_COND ? n->cond : NULL, kids & KID_LHS ? n->lhs : NULL,
                  kids & KID_RHS ? n->rhs : NULL);
    dump_children(out, kids & KID_THEN ? n->then : NULL, kids & KID_ELS ? n->els : NULL,
                  kids & KID_INIT ? n->init : NULL);
    dump_children(out, kids & KID_INC ? n->inc : NULL, kids & KID_BODY ? n->body : NULL, NULL);
    if (kids & KID_ITEMS)
        dump_list(out, &n->items);
    emit_printf(out, ")");
}

static void dump_expression(EmitBuffer *out, const Node *n)
{
    switch (n->kind) {
    case ND_INT_LIT: case ND_FLOAT_LIT: case ND_CHAR_LIT: case ND_STRING_LIT:
        emit_printf(out, "%s", n->text);
        return;
    case ND_BOOL_LIT:
        emit_printf(out, "%s", n->int_value ? "true" : "false");
        return;
    case ND_IDENT:
        emit_printf(out, "%s", n->name);
        return;
    case ND_UNARY: case ND_BINARY: case ND_ASSIGN:
        emit_printf(out, "(%s", op_spellings[n->op]);
        dump_children(out, n->lhs, n->kind == ND_UNARY ? NULL : n->rhs, NULL);
        emit_printf(out, ")");
        return;
    case ND_POSTFIX:
        emit_printf(out, "(post%s", op_spellings[n->op]);
        dump_children(out, n->lhs, NULL, NULL);
        emit_printf(out, ")");
        return;
    case ND_MEMBER:
        emit_printf(out, "(%s ", n->is_arrow ? "->" : ".");
        dump_node(out, n->lhs);
        emit_printf(out, " %s)", n->name);
        return;
    case ND_CALL:
        emit_printf(out, "(call ");
        dump_node(out, n->callee);
        if (n->template_args && n->template_args->head) {
            emit_printf(out, "<");
            dump_list(out, n->template_args);
            emit_printf(out, ">");
        }
        dump_list(out, &n->args);
        emit_printf(out, ")");
        return;
    default:
        break;
    }
    dump_generic(out, n);
}

static void dump_node(EmitBuffer *out, const Node *n)
{
    if (!n) {
        emit_printf(out, "null");
        return;
    }
    switch (n->kind) {
    case ND_DECL:
        emit_printf(out, "(decl ");
        dump_specs(out, n->decl_specs);
        dump_list(out, &n->items);
        emit_printf(out, ")");
        return;
    case ND_INIT_DECLARATOR:
        emit_printf(out, "(");
        dump_declarator(out, n->declarator);
        if (n->init) {
            emit_printf(out, " = ");
            dump_node(out, n->init);
        }
        emit_printf(out, ")");
        return;
    case ND_PARAM: case ND_TYPE_NAME:
        emit_printf(out, "(%s ", n->kind == ND_PARAM ? "param" : "type");
        if (n->decl_specs)
            dump_specs(out, n->decl_specs);
        if (n->declarator) {
            emit_printf(out, " ");
            dump_declarator(out, n->declarator);
        } else if (n->name) {
            emit_printf(out, " %s", n->name);
        }
        emit_printf(out, ")");
        return;
    case ND_FUNC_DEF:
        emit_printf(out, "(function ");
        dump_specs(out, n->decl_specs);
        emit_printf(out, " ");
        dump_declarator(out, n->declarator);
        emit_printf(out, " ");
        dump_node(out, n->body);
        emit_printf(out, ")");
        return;
    case ND_RECORD_SPEC: case ND_ENUM_SPEC:
        emit_printf(out, "(%s %s", n->kind == ND_ENUM_SPEC ? "enum" : n->is_union ? "union" : "struct",
                    n->name ? n->name : "_");
        dump_list(out, &n->items);
        emit_printf(out, ")");
        return;
    case ND_ENUMERATOR:
        emit_printf(out, "(%s", n->name);
        dump_children(out, n->lhs, NULL, NULL);
        emit_printf(out, ")");
        return;
    case ND_LABEL: case ND_GOTO:
        emit_printf(out, "(%s %s", ast_node_kind_name(n->kind), n->name);
        dump_children(out, n->kind == ND_LABEL ? n->body : NULL, NULL, NULL);
        emit_printf(out, ")");
        return;
    case ND_PRAGMA:
        emit_printf(out, "(pragma %s)", n->text);
        return;
    default:
        dump_expression(out, n);
    }
}

void ast_dump(EmitBuffer *out, const Node *node)
{
    if (node && node->kind == ND_TRANSLATION_UNIT) {
        for (const Node *n = node->items.head; n; n = n->next) {
            dump_node(out, n);
            emit_write(out, "\n", 1);
        }
        return;
    }
    dump_node(out, node);
}
