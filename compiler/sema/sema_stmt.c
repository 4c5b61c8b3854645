/* sema_stmt.c — statements (C17 6.8), function bodies and initialisers
 * (6.7.9): scopes of blocks and for-loops, break/continue/case placement,
 * duplicate case values, return conversions, labels and gotos. */
#include <stdlib.h>
#include <string.h>

#include "sema/sema_int.h"

static void condition(Sema *s, Node *cond)
{
    Type *ty = type_decay(s, sema_expr(s, cond));
    if (!sema_is_err(s, ty) && !type_is_scalar(ty))
        diag_error(s->diag, cond->loc, "statement requires expression of scalar type ('%s' invalid)",
                   fmt_type(s, ty));
}

static void switch_stmt(Sema *s, Node *n)
{
    Type *ty = sema_expr(s, n->cond);
    SwitchCtx sw = {.outer = s->sw, .cond_ty = s->basic[TY_INT]};
    if (!sema_is_err(s, ty) && !type_is_integer(ty))
        diag_error(s->diag, n->cond->loc, "statement requires expression of integer type ('%s' invalid)",
                   fmt_type(s, ty));
    else if (!sema_is_err(s, ty)) {
        sw.cond_ty = type_promote(s, s->basic[ty->kind == TY_ENUM ? TY_INT : ty->kind]);
        n->cond = sema_implicit_cast(s, n->cond, sw.cond_ty);
    }
    s->sw = &sw;
    sema_stmt(s, n->body);
    s->sw = sw.outer;
    free(sw.cases.slots);
}

/* The case values of a switch, hashed (a generated switch can have 100k
 * cases; comparing each with all before was quadratic): open addressing on
 * the value, each slot the first ND_CASE with it. */
static Node **case_slot(CaseTable *t, int64_t v)
{
    uint64_t h = (uint64_t)v * 0x9E3779B97F4A7C15u;
    for (unsigned i = (unsigned)(h >> 32) & (t->capacity - 1);; i = (i + 1) & (t->capacity - 1))
        if (!t->slots[i] || t->slots[i]->lhs->const_value == v)
            return &t->slots[i];
}

static void case_table_grow(CaseTable *t)
{
    CaseTable bigger = {.capacity = t->capacity ? 2 * t->capacity : 64, .count = t->count};
    bigger.slots = mem_zalloc(bigger.capacity, sizeof *bigger.slots);
    for (unsigned i = 0; i < t->capacity; i++)
        if (t->slots[i])
            *case_slot(&bigger, t->slots[i]->lhs->const_value) = t->slots[i];
    free(t->slots);
    *t = bigger;
}

/* The earlier case with n's value, or NULL after recording n. */
static Node *case_seen_before(CaseTable *t, Node *n)
{
    if (2 * (t->count + 1) > t->capacity)
        case_table_grow(t);
    Node **slot = case_slot(t, n->lhs->const_value);
    Node *earlier = *slot;
    if (!earlier) {
        *slot = n;
        t->count++;
    }
    return earlier;
}

static void case_stmt(Sema *s, Node *n)
{
    int64_t v;
    if (!s->sw) {
        diag_error(s->diag, n->loc, "'case' statement not in switch statement");
    } else if (sema_int_const(s, n->lhs, &v, "case value")) {
        n->lhs = sema_implicit_cast(s, n->lhs, s->sw->cond_ty);
        v = n->lhs->const_value;
        /* a value that depends on a spec constant is known only at build time */
        Node *other = n->lhs->depends_on_spec_const ? NULL : case_seen_before(&s->sw->cases, n);
        if (other) {
            diag_error(s->diag, n->lhs->loc, "duplicate case value '%lld'", (long long)v);
            diag_note(s->diag, other->lhs->loc, "previous case defined here");
        }
    }
    if (n->body)
        sema_stmt(s, n->body);
}

static void default_stmt(Sema *s, Node *n)
{
    if (!s->sw) {
        diag_error(s->diag, n->loc, "'default' statement not in switch statement");
    } else if (s->sw->default_node) {
        diag_error(s->diag, n->loc, "multiple default labels in one switch");
        diag_note(s->diag, s->sw->default_node->loc, "previous case defined here");
    } else {
        s->sw->default_node = n;
    }
    if (n->body)
        sema_stmt(s, n->body);
}

static void return_stmt(Sema *s, Node *n)
{
    const char *fname = s->func ? s->func->name : "";
    bool is_void = !s->ret_ty || s->ret_ty->kind == TY_VOID;
    if (!n->lhs) {
        if (!is_void && !sema_is_err(s, s->ret_ty))
            diag_error(s->diag, n->loc, "non-void function '%s' should return a value", fname);
        return;
    }
    Type *ty = sema_expr(s, n->lhs);
    if (sema_is_err(s, ty))
        return;
    if (is_void) {
        if (ty->kind != TY_VOID)
            diag_error(s->diag, n->lhs->loc, "void function '%s' should not return a value", fname);
        return;
    }
    n->lhs = sema_convert(s, n->lhs, s->ret_ty, CONV_RETURN, NULL);
}

static void static_assert_stmt(Sema *s, Node *n)
{
    int64_t v;
    if (!sema_int_const(s, n->cond, &v, "static assertion expression") || n->cond->depends_on_spec_const || v)
        return;
    if (n->text) {
        size_t len = strlen(n->text);
        bool quoted = len >= 2 && n->text[0] == '"' && n->text[len - 1] == '"';
        diag_error(s->diag, n->loc, "static assertion failed: %.*s", (int)(quoted ? len - 2 : len),
                   n->text + (quoted ? 1 : 0));
    } else {
        diag_error(s->diag, n->loc, "static assertion failed");
    }
}

static void loop(Sema *s, Node *n)
{
    s->loop_depth++;
    if (n->kind == ND_FOR) {
        sema_push_scope(s);
        if (n->init)
            sema_stmt(s, n->init);
        if (n->cond)
            condition(s, n->cond);
        if (n->inc)
            sema_expr(s, n->inc);
        sema_stmt(s, n->body);
        sema_pop_scope(s);
    } else {
        condition(s, n->cond);
        sema_stmt(s, n->body);
    }
    s->loop_depth--;
}

static void label_stmt(Sema *s, Node *n)
{
    for (int i = 0; i < s->labels.count; i++) {
        Node *other = s->labels.items[i];
        if (strcmp(other->name, n->name) == 0) {
            diag_error(s->diag, n->loc, "redefinition of label '%s'", n->name);
            diag_note(s->diag, other->loc, "previous definition is here");
            break;
        }
    }
    vec_push(&s->labels, n);
    if (n->body)
        sema_stmt(s, n->body);
}

void sema_stmt(Sema *s, Node *n)
{
    if (!n)
        return;
    switch (n->kind) {
    case ND_BLOCK:
        sema_push_scope(s);
        for (Node *item = n->items.head; item; item = item->next)
            sema_stmt(s, item);
        sema_pop_scope(s);
        break;
    case ND_DECL: sema_declaration(s, n); break;
    case ND_EXPR_STMT: sema_expr(s, n->lhs); break;
    case ND_NULL_STMT: case ND_PRAGMA: break;
    case ND_IF:
        condition(s, n->cond);
        sema_stmt(s, n->then);
        sema_stmt(s, n->els);
        break;
    case ND_SWITCH: switch_stmt(s, n); break;
    case ND_CASE: case_stmt(s, n); break;
    case ND_DEFAULT: default_stmt(s, n); break;
    case ND_WHILE: case ND_DO: case ND_FOR: loop(s, n); break;
    case ND_BREAK:
        if (s->loop_depth == 0 && !s->sw)
            diag_error(s->diag, n->loc, "'break' statement not in loop or switch statement");
        break;
    case ND_CONTINUE:
        if (s->loop_depth == 0)
            diag_error(s->diag, n->loc, "'continue' statement not in loop statement");
        break;
    case ND_RETURN: return_stmt(s, n); break;
    case ND_GOTO: vec_push(&s->gotos, n); break;
    case ND_LABEL: label_stmt(s, n); break;
    case ND_STATIC_ASSERT: static_assert_stmt(s, n); break;
    default: sema_expr(s, n); break;
    }
}

/* ---- function bodies ---------------------------------------------------- */

static void parameters(Sema *s, Node *def)
{
    Declarator *fd = NULL;
    for (Declarator *d = def->declarator; d && d->kind != DECL_NAME; d = d->inner)
        if (d->kind == DECL_FUNC)
            fd = d;
    for (Node *p = fd ? fd->params.head : NULL; p; p = p->next) {
        if (!p->ty)
            continue; /* (void), or an error already reported */
        const Declarator *nd = ast_declarator_name(p->declarator);
        if (!nd || !nd->name) {
            diag_error(s->diag, p->loc, "parameter name omitted");
            continue;
        }
        if (p->ty->kind != TY_PTR && p->ty->addr_space != AS_NONE && p->ty->addr_space != AS_PRIVATE)
            diag_error(s->diag, p->loc, "parameter '%s' may not be qualified with an address space", nd->name);
        if (p->ty != s->t_err && !type_is_complete(p->ty))
            diag_error(s->diag, p->loc, "variable has incomplete type '%s'", fmt_type(s, p->ty));
        if (p->ty->kind == TY_DOUBLE)
            s->tu->uses_fp64 = true;
        Symbol *sym = sema_new_symbol(s, SYM_VAR, nd->name, p->ty, p->loc);
        sym->is_param = true;
        sym->def = p;
        p->sym = sym;
    }
}

void sema_function_body(Sema *s, Node *def)
{
    s->func = def->sym;
    s->ret_ty = def->ty->base;
    s->labels.count = s->gotos.count = 0;
    sema_push_scope(s);
    parameters(s, def);
    if (def->body)
        sema_stmt(s, def->body); /* the body block is depth 2: "kernel scope" */
    for (int i = 0; i < s->gotos.count; i++) {
        Node *g = s->gotos.items[i];
        bool found = false;
        for (int j = 0; j < s->labels.count && !found; j++)
            found = strcmp(((Node *)s->labels.items[j])->name, g->name) == 0;
        if (!found)
            diag_error(s->diag, g->loc, "use of undeclared label '%s'", g->name);
    }
    sema_pop_scope(s);
    s->func = NULL;
    s->ret_ty = NULL;
}

/* ---- initialisers ------------------------------------------------------- */

static bool char_type(const Type *ty)
{
    return ty->kind == TY_CHAR || ty->kind == TY_SCHAR || ty->kind == TY_UCHAR;
}

static Type *init_list(Sema *s, Type *ty, Node *list);

Type *sema_initializer(Sema *s, Type *ty, Node **slot)
{
    Node *init = *slot;
    if (!init)
        return ty;
    if (init->kind == ND_INIT_LIST)
        return init_list(s, ty, init);
    Type *from = sema_expr(s, init);
    if (sema_is_err(s, from) || sema_is_err(s, ty))
        return ty;
    if (ty->kind == TY_ARRAY) {
        if (init->kind == ND_STRING_LIT && char_type(ty->base)) {
            if (ty->array_len < 0)
                return type_array(s, ty->base, from->array_len, NULL);
            if (from->array_len - 1 > ty->array_len)
                diag_error(s->diag, init->loc, "initializer-string for char array is too long");
            return ty;
        }
        diag_error(s->diag, init->loc, "array initializer must be an initializer list");
        return ty;
    }
    *slot = sema_convert(s, init, ty, CONV_INIT, NULL);
    return ty;
}

/* Items of a list as slots that conversions may replace. */
static Node **list_slots(Node *list, int *count)
{
    *count = list->items.count;
    Node **items = mem_zalloc((size_t)(*count > 0 ? *count : 1), sizeof(Node *));
    int i = 0;
    for (Node *it = list->items.head; it; it = it->next)
        items[i++] = it;
    return items;
}

static void relink(Node *list, Node **items, int count)
{
    list->items = (NodeList){0};
    for (int i = 0; i < count; i++)
        nodelist_append(&list->items, items[i]);
    free(items);
}

/* Returns the slot holding the value of item *it; sets *desig to its sole
 * designator (NULL when positional). */
static Node **item_value(Sema *s, Node **it, Node **desig)
{
    *desig = NULL;
    if ((*it)->kind != ND_DESIG_INIT)
        return it;
    if ((*it)->items.count != 1)
        diag_error(s->diag, (*it)->loc, "nested designators are not supported");
    *desig = (*it)->items.head;
    return &(*it)->lhs;
}

static Type *array_list(Sema *s, Type *ty, Node *list, Node **items, int count)
{
    int64_t idx = 0, max = 0;
    for (int i = 0; i < count; i++) {
        Node *d;
        Node **slot = item_value(s, &items[i], &d);
        if (d && d->name) {
            diag_error(s->diag, d->loc, "field designator cannot initialize a non-struct, non-union type '%s'",
                       fmt_type(s, ty));
            continue;
        }
        if (d && !sema_int_const(s, d->lhs, &idx, "array designator"))
            continue;
        if (idx < 0 || (ty->array_len >= 0 && idx >= ty->array_len)) {
            diag_error(s->diag, (*slot)->loc, "excess elements in array initializer");
            break;
        }
        sema_initializer(s, ty->base, slot);
        if (++idx > max)
            max = idx;
    }
    (void)list;
    return ty->array_len >= 0 ? ty : type_array(s, ty->base, max > 0 ? max : 1, NULL);
}

static Type *record_list(Sema *s, Type *ty, Node **items, int count)
{
    const Member *m = type_unqualified(ty)->members;
    for (int i = 0; i < count; i++) {
        Node *d;
        Node **slot = item_value(s, &items[i], &d);
        if (d) {
            m = d->name ? type_find_member(ty, d->name, NULL) : NULL;
            if (!m) {
                diag_error(s->diag, d->loc, "field designator '%s' does not refer to any field in type '%s'",
                           d->name ? d->name : "[]", fmt_type(s, ty));
                return ty;
            }
        }
        if (!m) {
            diag_error(s->diag, (*slot)->loc, "excess elements in %s initializer",
                       ty->kind == TY_UNION ? "union" : "struct");
            return ty;
        }
        sema_initializer(s, m->ty, slot);
        m = ty->kind == TY_UNION ? NULL : m->next;
    }
    return ty;
}

static Type *init_list(Sema *s, Type *ty, Node *list)
{
    int count;
    Node **items = list_slots(list, &count);
    if (sema_is_err(s, ty)) {
        for (int i = 0; i < count; i++)
            if (items[i]->kind != ND_INIT_LIST && items[i]->kind != ND_DESIG_INIT)
                sema_expr(s, items[i]);
    } else if (ty->kind == TY_ARRAY) {
        ty = array_list(s, ty, list, items, count);
    } else if (ty->kind == TY_STRUCT || ty->kind == TY_UNION) {
        ty = record_list(s, ty, items, count);
    } else if (count > 1) {
        diag_error(s->diag, items[1]->loc, "excess elements in scalar initializer");
    } else if (count == 1) {
        Node *d;
        Node **slot = item_value(s, &items[0], &d);
        sema_initializer(s, ty, slot);
    }
    relink(list, items, count);
    list->ty = ty;
    return ty;
}
