/* test_node_layout.c — the per-kind payload of struct Node (syntax.h).
 *
 * A node's payload is a union: fields of different kinds share bytes.  That
 * is only sound if no kind uses two fields that overlap.  This table lists,
 * for every kind, the payload fields the parser, sema and the emitters use
 * (NODE_KINDS documents the same), and the test checks that each kind's
 * fields are pairwise disjoint.  A new field or kind must be added here. */
#include <check.h>
#include <stddef.h>

#include "ast/ast.h"

typedef struct Field {
    const char *name;
    size_t offset, size;
} Field;

#define F(field) {#field, offsetof(Node, field), sizeof(((Node *)0)->field)}

enum { MAX_FIELDS = 6 };

typedef struct KindFields {
    NodeKind kind;
    Field fields[MAX_FIELDS];
} KindFields;

static const KindFields kind_fields[] = {
    {ND_INT_LIT, {F(int_value), F(text), F(const_value)}},
    {ND_FLOAT_LIT, {F(float_value), F(text), F(const_value)}},
    {ND_CHAR_LIT, {F(int_value), F(text), F(const_value)}},
    {ND_STRING_LIT, {F(text)}},
    {ND_BOOL_LIT, {F(int_value), F(text), F(const_value)}},
    {ND_IDENT, {F(name), F(sym), F(const_value)}},
    {ND_UNARY, {F(lhs), F(const_value)}},
    {ND_POSTFIX, {F(lhs), F(const_value)}},
    {ND_BINARY, {F(lhs), F(rhs), F(const_value)}},
    {ND_ASSIGN, {F(lhs), F(rhs), F(const_value)}},
    {ND_COND, {F(cond), F(then), F(els), F(const_value)}},
    {ND_COMMA, {F(lhs), F(rhs), F(const_value)}},
    {ND_CAST, {F(type_name), F(lhs), F(const_value)}},
    {ND_SIZEOF, {F(lhs), F(type_name), F(const_value)}},
    {ND_ALIGNOF, {F(type_name), F(lhs), F(const_value)}},
    {ND_CALL, {F(callee), F(args), F(template_args), F(const_value)}},
    {ND_INDEX, {F(lhs), F(rhs), F(const_value)}},
    {ND_MEMBER, {F(lhs), F(name), F(member), F(const_value)}},
    {ND_INIT_LIST, {F(items), F(const_value)}},
    {ND_DESIG_INIT, {F(items), F(lhs), F(init)}}, /* lhs and init: one slot, read as either */
    {ND_DESIGNATOR, {F(name), F(lhs), F(const_value)}},
    {ND_COMPOUND_LIT, {F(type_name), F(init), F(lhs), F(const_value)}}, /* init or lhs, as above */
    {ND_GENERIC, {F(lhs)}},
    {ND_BLOCK, {F(items)}},
    {ND_DECL, {F(decl_specs), F(items)}},
    {ND_EXPR_STMT, {F(lhs)}},
    {ND_NULL_STMT, {{0}}},
    {ND_IF, {F(cond), F(then), F(els)}},
    {ND_SWITCH, {F(cond), F(body)}},
    {ND_CASE, {F(lhs), F(body)}},
    {ND_DEFAULT, {F(body)}},
    {ND_WHILE, {F(cond), F(body)}},
    {ND_DO, {F(body), F(cond)}},
    {ND_FOR, {F(init), F(cond), F(inc), F(body)}},
    {ND_BREAK, {{0}}},
    {ND_CONTINUE, {{0}}},
    {ND_RETURN, {F(lhs)}},
    {ND_GOTO, {F(name)}},
    {ND_LABEL, {F(name), F(body)}},
    {ND_STATIC_ASSERT, {F(cond), F(text)}},
    {ND_PRAGMA, {F(text)}},
    {ND_INIT_DECLARATOR, {F(declarator), F(init), F(sym)}},
    {ND_PARAM, {F(decl_specs), F(declarator), F(name), F(sym)}},
    {ND_FUNC_DEF, {F(decl_specs), F(declarator), F(body), F(sym)}},
    {ND_RECORD_SPEC, {F(name), F(items)}},
    {ND_ENUM_SPEC, {F(name), F(items)}},
    {ND_ENUMERATOR, {F(name), F(lhs), F(sym), F(const_value)}},
    {ND_TYPE_NAME, {F(decl_specs), F(declarator), F(name)}},
    {ND_TRANSLATION_UNIT, {F(items), F(dropped_names), F(int_value)}},
};

/* Fields a kind reads as the same child under two names (the parser sets
 * one, the readers try both): they must share their slot exactly. */
static bool same_slot_pair(const Field *a, const Field *b)
{
    return a->offset == b->offset && a->size == b->size;
}

START_TEST(test_every_kind_listed)
{
    bool seen[ND_KIND_COUNT] = {0};
    for (size_t i = 0; i < sizeof kind_fields / sizeof kind_fields[0]; i++)
        seen[kind_fields[i].kind] = true;
    for (int k = 0; k < ND_KIND_COUNT; k++)
        ck_assert_msg(seen[k], "node kind '%s' is missing from kind_fields", ast_node_kind_name(k));
}
END_TEST

START_TEST(test_fields_of_a_kind_are_disjoint)
{
    for (size_t i = 0; i < sizeof kind_fields / sizeof kind_fields[0]; i++) {
        const KindFields *kf = &kind_fields[i];
        for (int a = 0; a < MAX_FIELDS && kf->fields[a].name; a++)
            for (int b = a + 1; b < MAX_FIELDS && kf->fields[b].name; b++) {
                const Field *x = &kf->fields[a], *y = &kf->fields[b];
                bool apart = x->offset + x->size <= y->offset || y->offset + y->size <= x->offset;
                bool aliases = (kf->kind == ND_DESIG_INIT || kf->kind == ND_COMPOUND_LIT) &&
                               same_slot_pair(x, y);
                ck_assert_msg(apart || aliases, "%s: fields %s and %s overlap",
                              ast_node_kind_name(kf->kind), x->name, y->name);
            }
    }
}
END_TEST

START_TEST(test_fields_fit_the_kinds_size)
{
    /* ast_new allocates ast_node_size(kind) bytes, not sizeof(Node) */
    for (size_t i = 0; i < sizeof kind_fields / sizeof kind_fields[0]; i++) {
        const KindFields *kf = &kind_fields[i];
        size_t size = ast_node_size(kf->kind);
        ck_assert_uint_le(size, sizeof(Node));
        ck_assert_uint_ge(size, offsetof(Node, const_value) + sizeof(int64_t));
        for (int a = 0; a < MAX_FIELDS && kf->fields[a].name; a++)
            ck_assert_msg(kf->fields[a].offset + kf->fields[a].size <= size,
                          "%s: field %s lies past the node's %zu bytes",
                          ast_node_kind_name(kf->kind), kf->fields[a].name, size);
    }
}
END_TEST

START_TEST(test_aliased_children_share_a_slot)
{
    /* emit.c and sema_expr.c read `init ? init : lhs` on these two kinds */
    ck_assert_uint_eq(offsetof(Node, init), offsetof(Node, lhs));
}
END_TEST

START_TEST(test_node_is_small)
{
    /* issue 24: 296 bytes before the per-kind payload */
    if (sizeof(void *) == 8)
        ck_assert_uint_eq(sizeof(Node), 80);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("node_layout");
    TCase *tc = tcase_create("layout");
    tcase_add_test(tc, test_every_kind_listed);
    tcase_add_test(tc, test_fields_of_a_kind_are_disjoint);
    tcase_add_test(tc, test_fields_fit_the_kinds_size);
    tcase_add_test(tc, test_aliased_children_share_a_slot);
    tcase_add_test(tc, test_node_is_small);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? 1 : 0;
}
