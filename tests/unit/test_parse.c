/* test_parse.c — parser unit tests: source snippets in, S-expression dumps
 * (ast_dump.c) and located syntax errors out. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/ast_dump.h"
#include "parse/parse.h"
#include "parse/parse_internal.h"
#include "parse.tab.h"

typedef struct Captured {
    char text[4096];
    unsigned count;
    SourceManager *sources;
} Captured;

static void capture(void *ctx, DiagLevel level, SrcLoc loc, const char *message)
{
    Captured *c = ctx;
    unsigned line = 0, col = 0;
    srcmgr_line_col(c->sources, loc, &line, &col);
    size_t used = strlen(c->text);
    snprintf(c->text + used, sizeof c->text - used, "%u:%u: %s: %s\n", line, col,
             level >= DIAG_ERROR ? "error" : level == DIAG_WARNING ? "warning" : "note", message);
    if (level >= DIAG_ERROR)
        c->count++;
}

/* Parses `source`; returns the dump (malloc'd) and fills `errors`. */
static char *parse_source(const char *source, Captured *errors)
{
    SourceManager sm;
    srcmgr_init(&sm);
    Diag diag;
    diag_init(&diag, &sm, stderr);
    memset(errors, 0, sizeof *errors);
    errors->sources = &sm;
    diag.capture = capture;
    diag.capture_ctx = errors;
    uint32_t file = srcmgr_add(&sm, "test.sgc", source, strlen(source));
    Arena arena;
    arena_init(&arena);
    PPOptions options = {0};
    Preprocessor *pp = pp_new(&arena, &diag, file, &options);
    Node *root = parse_translation_unit(&arena, &diag, pp);
    EmitBuffer out;
    emit_buffer_init(&out);
    ast_dump(&out, root);
    char *result = strdup(out.data ? out.data : "");
    emit_buffer_free(&out);
    pp_free(pp);
    arena_free(&arena);
    srcmgr_free(&sm);
    return result;
}

static void check_dump(const char *source, const char *expected)
{
    Captured errors;
    char *dump = parse_source(source, &errors);
    ck_assert_msg(errors.count == 0, "unexpected errors for %s:\n%s", source, errors.text);
    ck_assert_str_eq(dump, expected);
    free(dump);
}

static void check_error(const char *source, const char *expected_first_error)
{
    Captured errors;
    char *dump = parse_source(source, &errors);
    free(dump);
    ck_assert_msg(errors.count > 0, "expected an error for %s", source);
    const char *newline = strchr(errors.text, '\n');
    size_t len = newline ? (size_t)(newline - errors.text) : strlen(errors.text);
    char first[1024];
    snprintf(first, sizeof first, "%.*s", (int)len, errors.text);
    ck_assert_str_eq(first, expected_first_error);
}

START_TEST(test_declarations)
{
    check_dump("int x = 1;", "(decl (specs int) (x = 1))\n");
    check_dump("unsigned long long y, *p;", "(decl (specs long long unsigned) (y) (*p))\n");
    check_dump("int *a[3];", "(decl (specs int) (*[3]a))\n");
    check_dump("int (*p)[3];", "(decl (specs int) ([3]*p))\n");
    check_dump("int a[2][3];", "(decl (specs int) ([3][2]a))\n");
    check_dump("int (*fp)(int, float);",
               "(decl (specs int) ((fn (param (specs int)) (param (specs float)))*fp))\n");
    check_dump("const float * const q;", "(decl (specs const float) (*const q))\n");
}
END_TEST

START_TEST(test_typedef_names)
{
    check_dump("typedef int T; T x;", "(decl (specs typedef int) (T))\n(decl (specs T) (x))\n");
    /* A typedef name can be shadowed by an ordinary identifier. */
    check_dump("typedef int T; void f(void) { float T = 1.0f; T = 2.0f; }",
               "(decl (specs typedef int) (T))\n"
               "(function (specs void) (fn (param (specs void)))f (block (decl (specs float) "
               "(T = 1.0f)) (expression statement (= T 2.0f))))\n");
    check_dump("typedef struct S S; S *p;",
               "(decl (specs typedef (struct S)) (S))\n(decl (specs S) (*p))\n");
    /* (T)x is a cast only when T names a type. */
    check_dump("typedef int T; int f(int x) { return (T)x; }",
               "(decl (specs typedef int) (T))\n(function (specs int) (fn (param (specs int) x))f "
               "(block (return (cast (type (specs T)) x))))\n");
    check_dump("int f(int T, int x) { return (T) - x; }",
               "(function (specs int) (fn (param (specs int) T) (param (specs int) x))f "
               "(block (return (- T x))))\n");
}
END_TEST

START_TEST(test_expressions)
{
    check_dump("int x = 1 + 2 * 3;", "(decl (specs int) (x = (+ 1 (* 2 3))))\n");
    check_dump("int x = (1 + 2) * 3;", "(decl (specs int) (x = (* (+ 1 2) 3)))\n");
    check_dump("int x = a < b ? c : (d = e);",
               "(decl (specs int) (x = (conditional (< a b) c (= d e))))\n");
    /* C's grammar makes `a ? b : c = d` a syntax error (no lvalue). */
    check_error("int x = a ? b : c = d;", "1:18: error: expected ';' before '='");
    check_dump("void f(void) { a = b = c; x += y << 2; }",
               "(function (specs void) (fn (param (specs void)))f (block (expression statement "
               "(= a (= b c))) (expression statement (+= x (<< y 2)))))\n");
    check_dump("void f(void) { p->q.r[2]++; --*s; }",
               "(function (specs void) (fn (param (specs void)))f (block (expression statement "
               "(post++ (index (. (-> p q) r) 2))) (expression statement (-- (* s)))))\n");
    check_dump("int x = sizeof(int) + sizeof y;",
               "(decl (specs int) (x = (+ (sizeof (type (specs int))) (sizeof y))))\n");
    check_dump("char *s = \"ab\" \"cd\";", "(decl (specs char) (*s = \"abcd\"))\n");
}
END_TEST

START_TEST(test_statements)
{
    check_dump("void f(int n) { for (int i = 0; i < n; i++) if (i) continue; else break; }",
               "(function (specs void) (fn (param (specs int) n))f (block (for (< i n) (decl "
               "(specs int) (i = 0)) (post++ i) (if i (continue) (break)))))\n");
    check_dump("void f(int n) { switch (n) { case 1: n = 2; default: ; } }",
               "(function (specs void) (fn (param (specs int) n))f (block (switch n (block (case 1 "
               "(expression statement (= n 2))) (default (null statement))))))\n");
    check_dump("void f(int n) { do n--; while (n); l: goto l; }",
               "(function (specs void) (fn (param (specs int) n))f (block (do n "
               "(expression statement (post-- n))) (label l (goto l))))\n");
}
END_TEST

START_TEST(test_sgc_additions)
{
    check_dump("kernel void k(global float *a, local int *t) { }",
               "(function (specs kernel void) (fn (param (specs global float) *a) (param (specs "
               "local int) *t))k (block))\n");
    check_dump("spec_const int bs = 16; spec_const(42) float alpha;",
               "(decl (specs spec_const int) (bs = 16))\n(decl (specs spec_const(42) float) (alpha))\n");
    check_dump("[[reqd_work_group_size(8, 1, 1)]] kernel void k(void) { }",
               "(function (specs kernel void [[reqd_work_group_size 8 1 1]]) (fn (param (specs "
               "void)))k (block))\n");
    check_dump("void f(sub_group sg) { fixed_size_group<8> g = get_fixed_size_group<8>(sg); }",
               "(function (specs void) (fn (param (specs sub_group) sg))f (block (decl (specs "
               "fixed_size_group<8>) (g = (call get_fixed_size_group< 8> sg)))))\n");
    check_dump("void f(sub_group sg) { auto b = get_ballot_group(sg, 1 > 0); b.leader(); }",
               "(function (specs void) (fn (param (specs sub_group) sg))f (block (decl (specs "
               "auto) (b = (call get_ballot_group sg (> 1 0)))) (expression statement (call (. b "
               "leader)))))\n");
    check_dump("kernel void k(void) { local async_barrier bars[2]; arrival_token t = "
               "bars[0].arrive(); bars[0].wait(t); }",
               "(function (specs kernel void) (fn (param (specs void)))k (block (decl (specs local "
               "async_barrier) ([2]bars)) (decl (specs arrival_token) (t = (call (. (index bars 0) "
               "arrive)))) (expression statement (call (. (index bars 0) wait) t))))\n");
}
END_TEST

START_TEST(test_syntax_errors)
{
    check_error("int x = 3\nint y;", "1:10: error: expected ';' before 'int'");
    check_error("void f(void) {\n  if (x > 1 {\n  }\n}\n",
                "2:13: error: expected ')' before '{' (to close '(' at line 2)");
    check_error("int z = ;", "1:9: error: expected expression before ';'");
    check_error("void f(void) { int a = (1 + 2; }",
                "1:30: error: expected ')' before ';' (to close '(' at line 1)");
    check_error("int long long long x;", "1:15: error: 'long long long' is too long");
    check_error("static extern int x;",
                "1:8: error: cannot combine 'extern' with previous 'static' storage class");
    check_error("global local int *p;",
                "1:8: error: multiple address spaces specified ('global' and 'local')");
    check_error("int x = 09;", "1:9: error: invalid digit '9' in octal constant");
    check_error("int x = 1zz;", "1:9: error: invalid suffix 'zz' on integer constant");
    check_error("int x = 99999999999999999999;",
                "1:9: error: integer literal is too large to be represented in any integer type");
    check_error("float x = 1.0q;", "1:11: error: invalid suffix 'q' on floating constant");
}
END_TEST

START_TEST(test_error_recovery_reports_each_error_once)
{
    Captured errors;
    char *dump = parse_source("void f(void) {\n  int a = ;\n  int b = 2\n  for (;;) { a++ }\n}\n",
                              &errors);
    free(dump);
    ck_assert_uint_eq(errors.count, 3);
}
END_TEST

/* keywords.def and parse.y's %token KW_* list change together: every
 * keyword maps to its own token (a missing %token does not compile), and
 * the bridge's table finds each spelling, and nothing else. */
START_TEST(test_keywords)
{
    static const struct { const char *spelling; int token; } keywords[] = {
#define KEYWORD(token, spelling) {spelling, KW_##token},
#include "lex/keywords.def"
#undef KEYWORD
    };
    enum { COUNT = sizeof keywords / sizeof keywords[0] };
    ParseContext *ctx = calloc(1, sizeof *ctx);
    ck_assert_ptr_nonnull(ctx);
    parse_context_init(ctx, NULL, NULL, NULL);
    for (int i = 0; i < COUNT; i++) {
        const char *s = keywords[i].spelling;
        ck_assert_int_eq(parse_keyword_token(ctx, s, strlen(s)), keywords[i].token);
        for (int j = 0; j < i; j++)
            ck_assert_int_ne(keywords[i].token, keywords[j].token);
    }
    ck_assert_int_eq(parse_keyword_token(ctx, "kernels", 7), 0);
    ck_assert_int_eq(parse_keyword_token(ctx, "in", 2), 0);
    parse_context_free(ctx);
    free(ctx);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("parse");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, test_declarations);
    tcase_add_test(tc, test_typedef_names);
    tcase_add_test(tc, test_expressions);
    tcase_add_test(tc, test_statements);
    tcase_add_test(tc, test_sgc_additions);
    tcase_add_test(tc, test_syntax_errors);
    tcase_add_test(tc, test_error_recovery_reports_each_error_once);
    tcase_add_test(tc, test_keywords);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
