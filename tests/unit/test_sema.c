/* test_sema.c — semantic analysis unit tests: SGC snippets go through the
 * real preprocessor and parser into sema_run; the tests check expression
 * types, folded constants, implicit conversions, spec-constant IDs, the
 * TranslationUnit tables, uniformity, and located diagnostics
 * ("line:col: error: message", captured through Diag.capture).  Expected
 * values are written out by hand from the C17 / SPEC rules. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/builtins.h"
#include "parse/parse.h"
#include "sema/sema.h"

typedef struct Run {
    SourceManager sm;
    Diag diag;
    Arena arena;
    Preprocessor *pp;
    TranslationUnit tu;
    char text[8192];   /* every diagnostic, one per line */
    unsigned errors;
} Run;

static void capture(void *ctx, DiagLevel level, SrcLoc loc, const char *message)
{
    Run *r = ctx;
    unsigned line = 0, col = 0;
    srcmgr_line_col(&r->sm, loc, &line, &col);
    size_t used = strlen(r->text);
    snprintf(r->text + used, sizeof r->text - used, "%u:%u: %s: %s\n", line, col,
             level >= DIAG_ERROR ? "error" : level == DIAG_WARNING ? "warning" : "note", message);
    if (level >= DIAG_ERROR)
        r->errors++;
}

static Run *run_opts(const char *source, const SemaOptions *options)
{
    Run *r = calloc(1, sizeof *r);
    srcmgr_init(&r->sm);
    diag_init(&r->diag, &r->sm, stderr);
    r->diag.capture = capture;
    r->diag.capture_ctx = r;
    uint32_t file = srcmgr_add(&r->sm, "test.sgc", source, strlen(source));
    arena_init(&r->arena);
    PPOptions pp_options = {0};
    r->pp = pp_new(&r->arena, &r->diag, file, &pp_options);
    Node *root = parse_translation_unit(&r->arena, &r->diag, r->pp);
    ck_assert_msg(r->errors == 0, "syntax errors in test input:\n%s", r->text);
    sema_run(&r->arena, &r->diag, root, options, &r->tu);
    return r;
}

static Run *run(const char *source)
{
    static const SemaOptions options = {.max_sub_group_size = 32, .narrowest_sub_group_size = 32};
    return run_opts(source, &options);
}

static void run_free(Run *r)
{
    pp_free(r->pp);
    arena_free(&r->arena);
    srcmgr_free(&r->sm);
    free(r);
}

static void expect_ok(const char *source)
{
    Run *r = run(source);
    ck_assert_msg(r->errors == 0, "unexpected errors for:\n%s\n%s", source, r->text);
    run_free(r);
}

/* The first diagnostic of the run must be `expected` (line:col: error: ...). */
static void expect_error(const char *source, const char *expected)
{
    Run *r = run(source);
    const char *nl = strchr(r->text, '\n');
    char first[1024];
    snprintf(first, sizeof first, "%.*s", nl ? (int)(nl - r->text) : (int)strlen(r->text), r->text);
    ck_assert_msg(r->errors > 0, "expected an error for:\n%s\ngot:\n%s", source, r->text);
    ck_assert_str_eq(first, expected);
    run_free(r);
}

/* `expected` must be one of the diagnostics of the run. */
static void expect_diag(const char *source, const char *expected)
{
    Run *r = run(source);
    ck_assert_msg(strstr(r->text, expected) != NULL, "expected '%s' for:\n%s\ngot:\n%s", expected, source,
                  r->text);
    run_free(r);
}

/* ---- tree helpers ------------------------------------------------------- */

static Node *find_decl(Node *n, const char *name)
{
    if (!n)
        return NULL;
    if (n->kind == ND_INIT_DECLARATOR && n->sym && strcmp(n->sym->name, name) == 0)
        return n;
    /* The payload is a per-kind union (syntax.h): read only this kind's. */
    Node *found;
    bool has_items = n->kind == ND_TRANSLATION_UNIT || n->kind == ND_BLOCK || n->kind == ND_DECL;
    for (Node *i = has_items ? n->items.head : NULL; i; i = i->next)
        if ((found = find_decl(i, name)))
            return found;
    bool has_body = n->kind == ND_FUNC_DEF || n->kind == ND_SWITCH || n->kind == ND_CASE ||
                    n->kind == ND_DEFAULT || n->kind == ND_WHILE || n->kind == ND_DO ||
                    n->kind == ND_FOR || n->kind == ND_LABEL;
    bool is_if = n->kind == ND_IF;
    Node *kids[] = {has_body ? n->body : NULL, is_if ? n->then : NULL, is_if ? n->els : NULL,
                    n->kind == ND_FOR ? n->init : NULL};
    for (size_t k = 0; k < sizeof kids / sizeof kids[0]; k++)
        if ((found = find_decl(kids[k], name)))
            return found;
    return NULL;
}

static Node *init_of(Run *r, const char *name)
{
    Node *d = find_decl(r->tu.root, name);
    ck_assert_msg(d && d->init, "no initialised declaration of '%s'", name);
    return d->init;
}

static Node *strip_implicit(Node *n)
{
    while (n->kind == ND_CAST && n->is_implicit)
        n = n->lhs;
    return n;
}

static const char *tname(const Type *ty)
{
    static char buf[256];
    return type_name(ty, buf, sizeof buf);
}

/* The type of the expression initialising `name`, under any implicit cast. */
static void expect_init_type(const char *source, const char *name, const char *type)
{
    Run *r = run(source);
    ck_assert_msg(r->errors == 0, "unexpected errors:\n%s", r->text);
    ck_assert_str_eq(tname(strip_implicit(init_of(r, name))->ty), type);
    run_free(r);
}

static void expect_const(const char *source, const char *name, int64_t value)
{
    Run *r = run(source);
    ck_assert_msg(r->errors == 0, "unexpected errors:\n%s", r->text);
    Node *init = init_of(r, name);
    ck_assert_msg(init->is_const_expr, "initialiser of '%s' is not folded", name);
    ck_assert_int_eq(init->const_value, value);
    run_free(r);
}

#define K(body) "kernel void k(global int *out, int n) { " body " }"

/* ---- types of expressions ----------------------------------------------- */

START_TEST(test_arith_types)
{
    expect_init_type(K("long a = 1 + 2u;"), "a", "uint");
    expect_init_type(K("long a = 1L + 2u;"), "a", "long");
    expect_init_type(K("float a = 1 + 2.0f;"), "a", "float");
    expect_init_type(K("double a = 1.0f * 2.0;"), "a", "double");
    expect_init_type(K("int a = (char)1 + (short)2;"), "a", "int");
    expect_init_type(K("ulong a = (uint)1 + 1L;"), "a", "long");
    expect_init_type(K("ulong a = 1UL + (long)2;"), "a", "ulong");
    expect_init_type(K("size_t a = get_global_id(0) + 1;"), "a", "size_t");
    expect_init_type(K("int a = 3 < 4.0;"), "a", "int");
    expect_init_type(K("int a = (uchar)1 << 3L;"), "a", "int");
    expect_init_type(K("long a = 0x80000000;"), "a", "uint");
    expect_init_type(K("long a = 2147483648;"), "a", "long");
}
END_TEST

START_TEST(test_pointer_types)
{
    expect_init_type(K("global int *p = out + 1;"), "p", "global int *");
    expect_init_type(K("long d = (out + 4) - out;"), "d", "long");
    expect_init_type(K("int v = out[n];"), "v", "global int");
    expect_init_type(K("int a[4]; int *p = a;"), "p", "int [4]");
    expect_init_type("struct S { int x; float y[3]; };\n" K("struct S s; float f = s.y[1];"), "f", "float");
    expect_init_type("typedef unsigned int U32;\n" K("U32 x = 1; U32 y = x;"), "y", "U32");
    expect_init_type(K("int (*fp)(int) = 0; int r = fp != 0;"), "r", "int");
}
END_TEST

START_TEST(test_specifier_combinations)
{
    expect_init_type(K("unsigned long long int x = 1; ulong y = x;"), "y", "ulong");
    expect_init_type(K("signed char c = 1; signed char d = c;"), "d", "signed char");
    expect_init_type(K("long int x = 1; long y = x;"), "y", "long");
    expect_init_type(K("unsigned short int x = 1; ushort y = x;"), "y", "ushort");
    expect_init_type(K("_Bool b = 1; bool c = b;"), "c", "bool");
    expect_init_type(K("const volatile int x = 1; int y = x;"), "y", "const volatile int");
}
END_TEST

START_TEST(test_implicit_casts)
{
    Run *r = run(K("float f = n; int i = 2; long l = i + 1;"));
    ck_assert_int_eq(r->errors, 0);
    Node *f = init_of(r, "f");
    ck_assert_int_eq(f->kind, ND_CAST);
    ck_assert(f->is_implicit);
    ck_assert_int_eq(f->ty->kind, TY_FLOAT);
    ck_assert_int_eq(init_of(r, "i")->kind, ND_INT_LIT); /* int to int: nothing inserted */
    Node *l = init_of(r, "l");
    ck_assert_int_eq(l->kind, ND_CAST);
    ck_assert_int_eq(l->ty->kind, TY_LONG);
    ck_assert_int_eq(l->lhs->kind, ND_BINARY);
    run_free(r);
}
END_TEST

/* ---- constant folding --------------------------------------------------- */

START_TEST(test_folding)
{
    expect_const(K("int a = 1 + 2 * 3;"), "a", 7);
    expect_const(K("int a = (7 / 2) << 4;"), "a", 48);
    expect_const(K("uint a = -1;"), "a", 4294967295LL);
    expect_const(K("int a = -1 < 1u;"), "a", 0);
    expect_const(K("int a = sizeof(long) + sizeof(char[5]);"), "a", 13);
    expect_const("enum E { A, B = 10, C };\n" K("int a = C;"), "a", 11);
    expect_const(K("int a = 5 > 3 ? 100 : 200;"), "a", 100);
    expect_const(K("char a = 300;"), "a", 44);
    expect_const("struct P { char c; int i; double d; };\n" K("int a = sizeof(struct P);"), "a", 16);
    expect_const(K("int a = (int)2.75;"), "a", 2);
    expect_const(K("int a = ~0u >> 28;"), "a", 15);
    expect_const(K("int a = !0 && 3;"), "a", 1);
}
END_TEST

START_TEST(test_struct_layout)
{
    Run *r = run("struct A { char c; short s; long l; };\n"
                 "union U { char c[5]; int i; };\n"
                 "struct B { struct { int x, y; }; float z; };\n" K("struct B b; b.x = 1; int s = sizeof(union U);"));
    ck_assert_msg(r->errors == 0, "%s", r->text);
    ck_assert_int_eq(init_of(r, "s")->const_value, 8);
    run_free(r);
    expect_const("struct A { char c; short s; long l; };\n" K("int a = sizeof(struct A);"), "a", 16);
}
END_TEST

/* ---- spec constants (docs/REFERENCE.md "Specialization constants") ------ */

START_TEST(test_spec_ids)
{
    Run *r = run("spec_const int a = 16;\n"
                 "spec_const(0) float alpha;\n"
                 "spec_const bool flag = true;\n"
                 "spec_const(2) long big = -5;\n"
                 "spec_const double d = 0.5 * 3;\n"
                 "spec_const uchar c = 300;\n");
    ck_assert_msg(r->errors == 0, "%s", r->text);
    ck_assert_int_eq(r->tu.spec_const_count, 6);
    Symbol **sc = r->tu.spec_consts;
    ck_assert_str_eq(sc[0]->name, "a");
    ck_assert_int_eq(sc[0]->spec_id, 1);     /* 0 and 2 are explicit */
    ck_assert_int_eq(sc[1]->spec_id, 0);
    ck_assert(sc[1]->spec_required && sc[1]->spec_id_explicit);
    ck_assert_int_eq(sc[2]->spec_id, 3);
    ck_assert_int_eq(sc[2]->spec_default_int, 1);
    ck_assert_int_eq(sc[3]->spec_id, 2);
    ck_assert_int_eq(sc[3]->spec_default_int, -5);
    ck_assert_int_eq(sc[4]->spec_id, 4);
    ck_assert(sc[4]->spec_default_float == 1.5);
    ck_assert_int_eq(sc[5]->spec_id, 5);
    ck_assert_int_eq(sc[5]->spec_default_int, 44);
    ck_assert_int_eq(sc[0]->spec_default_int, 16);
    run_free(r);
}
END_TEST

START_TEST(test_spec_in_constant_contexts)
{
    Run *r = run("spec_const int N = 64;\n"
                 "spec_const int M = 3;\n"
                 "kernel void k(global int *out) {\n"
                 "  local int tile[N * 2];\n"
                 "  int priv[M];\n"
                 "  fixed_size_group<8> f = get_fixed_size_group<8>(get_sub_group());\n"
                 "  switch (out[0]) { case N: break; case M: break; case 1: break; }\n"
                 "  int x = N + 1;\n"
                 "}\n");
    ck_assert_msg(r->errors == 0, "%s", r->text);
    Node *x = init_of(r, "x");
    ck_assert(x->is_const_expr && x->depends_on_spec_const);
    ck_assert_int_eq(x->const_value, 65);
    Node *tile = find_decl(r->tu.root, "tile");
    ck_assert_int_eq(tile->ty->kind, TY_ARRAY);
    ck_assert_int_eq(tile->ty->array_len, 128);
    ck_assert(tile->ty->array_len_expr && tile->ty->array_len_expr->depends_on_spec_const);
    run_free(r);
}
END_TEST

START_TEST(test_spec_fixed_size_group)
{
    Run *r = run("spec_const int W = 4;\n"
                 "kernel void k(global int *out) {\n"
                 "  sub_group sg = get_sub_group();\n"
                 "  fixed_size_group<W> f = get_fixed_size_group<W>(sg);\n"
                 "  out[0] = reduce_over_group(f, 1, plus);\n"
                 "}\n");
    ck_assert_msg(r->errors == 0, "%s", r->text);
    Node *f = find_decl(r->tu.root, "f");
    ck_assert_int_eq(f->ty->kind, TY_GROUP);
    ck_assert_int_eq(f->ty->group, GROUP_FIXED_SIZE_GROUP);
    ck_assert_int_eq(f->ty->group_size, 0); /* symbolic: bound at device build */
    run_free(r);
}
END_TEST

/* ---- groups (docs/REFERENCE.md "Groups") -------------------------------- */

START_TEST(test_groups_typed)
{
    Run *r = run("bool odd(int v) { return v & 1; }\n"
                 "kernel void k(global int *out, global const int *in) {\n"
                 "  sub_group sg = get_sub_group();\n"
                 "  ballot_group b = get_ballot_group(sg, in[0] > 0);\n"
                 "  fixed_size_group<8> f = get_fixed_size_group<8>(sg);\n"
                 "  tangle_group t = get_tangle_group(sg);\n"
                 "  opportunistic_group o = get_opportunistic_group();\n"
                 "  auto wg = get_work_group();\n"
                 "  uint id = b.get_local_linear_id();\n"
                 "  bool lead = f.leader();\n"
                 "  int s = reduce_over_group(b, in[id], plus);\n"
                 "  float m = exclusive_scan_over_group(t, 1.0f, 2.0f, maximum);\n"
                 "  long x = inclusive_scan_over_group(o, 3L, bit_or, 1L);\n"
                 "  short sh = shift_group_left(sg, (short)1, 1u);\n"
                 "  bool any = joint_any_of(wg, in, in + 8, odd);\n"
                 "  int jr = joint_reduce(sg, in, in + 4, 0, plus);\n"
                 "  joint_inclusive_scan(wg, in, in + 4, out, multiplies);\n"
                 "  group_barrier(wg);\n"
                 "  out[s] = lead + any + jr + (int)m + (int)x + sh;\n"
                 "}\n");
    ck_assert_msg(r->errors == 0, "%s", r->text);
    ck_assert_str_eq(tname(find_decl(r->tu.root, "wg")->ty), "work_group");
    ck_assert_str_eq(tname(strip_implicit(init_of(r, "lead"))->ty), "bool");
    ck_assert_str_eq(tname(strip_implicit(init_of(r, "id"))->ty), "uint");
    Node *s = strip_implicit(init_of(r, "s"));
    ck_assert_int_eq(s->builtin, BI_REDUCE_OVER_GROUP);
    ck_assert_int_eq(s->group_op, GOP_PLUS);
    ck_assert_int_eq(strip_implicit(init_of(r, "x"))->group_op, GOP_BIT_OR);
    ck_assert_int_eq(init_of(r, "lead")->method, METHOD_LEADER);
    ck_assert(r->tu.kernels[0]->uses_sub_groups);
    ck_assert(r->tu.kernels[0]->needs_tangle_mask);
    ck_assert(r->tu.uses_sub_groups);
    run_free(r);
}
END_TEST

START_TEST(test_sub_group_use_is_transitive)
{
    Run *r = run("int helper(int v) { return reduce_over_group(get_sub_group(), v, plus); }\n"
                 "int middle(int v) { return helper(v) + 1; }\n"
                 "kernel void a(global int *out) { out[0] = middle(1); }\n"
                 "kernel void b(global int *out) { out[0] = reduce_over_group(get_work_group(), 1, plus); }\n");
    ck_assert_msg(r->errors == 0, "%s", r->text);
    ck_assert_int_eq(r->tu.kernel_count, 2);
    ck_assert_int_eq(r->tu.function_count, 4);
    ck_assert(r->tu.kernels[0]->uses_sub_groups);
    ck_assert(!r->tu.kernels[1]->uses_sub_groups);
    ck_assert(r->tu.uses_sub_groups);
    ck_assert(!r->tu.uses_fp64);
    ck_assert(!r->tu.kernels[0]->uses_non_uniform_groups);
    run_free(r);
}
END_TEST

/* Ballot, tangle and opportunistic groups need divergent sub-group
 * operations (sgrt checks the device); fixed-size groups do not. */
START_TEST(test_non_uniform_group_use_is_transitive)
{
    Run *r = run("int part(int v) { ballot_group b = get_ballot_group(get_sub_group(), v > 0);\n"
                 "                  return reduce_over_group(b, v, plus); }\n"
                 "int wrap(int v) { return part(v); }\n"
                 "kernel void a(global int *o) { o[0] = wrap(1); }\n"
                 "kernel void b(global int *o) { o[0] = get_opportunistic_group().get_local_linear_id(); }\n"
                 "kernel void c(global int *o) { o[0] = reduce_over_group(get_fixed_size_group<4>(get_sub_group()), 1, plus); }\n");
    ck_assert_msg(r->errors == 0, "%s", r->text);
    ck_assert_int_eq(r->tu.kernel_count, 3);
    ck_assert(r->tu.kernels[0]->uses_non_uniform_groups);
    ck_assert(r->tu.kernels[1]->uses_non_uniform_groups);
    ck_assert(!r->tu.kernels[2]->uses_non_uniform_groups);
    ck_assert(r->tu.kernels[2]->uses_sub_groups);
    run_free(r);
}
END_TEST

START_TEST(test_tangle_and_fp64_flags)
{
    Run *r = run("uint inner(sub_group sg) { return get_tangle_group(sg).get_local_linear_id(); }\n"
                 "uint outer(sub_group sg) { return inner(sg); }\n"
                 "kernel void k(global double *o) { o[0] = outer(get_sub_group()) * 2.0; }\n");
    ck_assert_msg(r->errors == 0, "%s", r->text);
    ck_assert_int_eq(r->tu.function_count, 3);
    ck_assert(r->tu.functions[0]->needs_tangle_mask);
    ck_assert(r->tu.functions[1]->needs_tangle_mask);
    ck_assert(r->tu.kernels[0]->needs_tangle_mask);
    ck_assert(r->tu.kernels[0]->uses_sub_groups);
    ck_assert(r->tu.kernels[0]->uses_non_uniform_groups);
    ck_assert(r->tu.uses_fp64);
    run_free(r);
}
END_TEST

START_TEST(test_barriers_typed)
{
    Run *r = run("kernel void k(global float *g, uint n) {\n"
                 "  local async_barrier bars[2];\n"
                 "  local float tile[64];\n"
                 "  if (get_local_id(0) == 0) bars[0].initialize(n);\n"
                 "  group_barrier(get_work_group());\n"
                 "  async_work_group_copy(tile, g, 64);\n"
                 "  bars[1].arrive_copy_async();\n"
                 "  arrival_token t = bars[0].arrive();\n"
                 "  bars[0].wait(t);\n"
                 "  bool done = bars[1].test_wait(t);\n"
                 "  ulong mx = bars[0].async_barrier_max();\n"
                 "  g[0] = tile[0] + done + mx;\n"
                 "}\n");
    ck_assert_msg(r->errors == 0, "%s", r->text);
    ck_assert_str_eq(tname(find_decl(r->tu.root, "t")->ty), "arrival_token");
    ck_assert_int_eq(init_of(r, "t")->method, METHOD_ARRIVE);
    ck_assert(r->tu.uses_async_barrier);
    run_free(r);
}
END_TEST

START_TEST(test_attributes)
{
    Run *r = run("[[reqd_work_group_size(64, 2, 1)]] [[reqd_sub_group_size(16)]]\n"
                 "kernel void k(global int *out) { out[0] = 1; }\n");
    ck_assert_msg(r->errors == 0, "%s", r->text);
    Symbol *k = r->tu.kernels[0];
    ck_assert_int_eq(k->reqd_work_group_size[0], 64);
    ck_assert_int_eq(k->reqd_work_group_size[1], 2);
    ck_assert_int_eq(k->reqd_work_group_size[2], 1);
    ck_assert_int_eq(k->reqd_sub_group_size, 16);
    run_free(r);
    expect_diag("[[frobnicate]] kernel void k(global int *out) { }\n",
                "1:3: warning: unknown attribute 'frobnicate' ignored");
}
END_TEST

START_TEST(test_uniformity)
{
    Run *r = run("kernel void k(global int *out, int n) {\n"
                 "  int a = n * 2;\n"
                 "  int b = get_local_id(0);\n"
                 "  int c = get_group_id(0) + a;\n"
                 "  int d = 0;\n"
                 "  if (b > 3) d = 1;\n"
                 "  int e = 0;\n"
                 "  for (int i = 0; i < n; i++) e += i;\n"
                 "  int f = d;\n"
                 "  int g = reduce_over_group(get_sub_group(), b, plus);\n"
                 "  int h = e + g;\n"
                 "  out[b] = a + c + f + h;\n"
                 "}\n");
    ck_assert_msg(r->errors == 0, "%s", r->text);
    ck_assert(init_of(r, "a")->is_uniform);
    ck_assert(!init_of(r, "b")->is_uniform);
    ck_assert(init_of(r, "c")->is_uniform);
    ck_assert(!init_of(r, "f")->is_uniform); /* assigned under a divergent branch */
    ck_assert(init_of(r, "g")->is_uniform);
    ck_assert(init_of(r, "h")->is_uniform);
    run_free(r);
}
END_TEST

START_TEST(test_valid_programs)
{
    expect_ok("typedef struct { float x, y; } vec2;\n"
              "float dot(vec2 a, vec2 b) { return a.x * b.x + a.y * b.y; }\n"
              "constant float weights[3] = {0.25f, 0.5f, 0.25f};\n"
              "kernel void k(global vec2 *v, global float *out, local float *scratch) {\n"
              "  size_t i = get_global_id(0);\n"
              "  scratch[get_local_id(0)] = dot(v[i], v[i]) * weights[i % 3];\n"
              "  barrier(CLK_LOCAL_MEM_FENCE);\n"
              "  out[i] = scratch[0];\n"
              "}\n");
    expect_ok("int f(int);\nint f(int x) { return x + 1; }\n"
              "kernel void k(global uint *c) { atomic_fetch_add(c, 1u); atomic_compare_exchange(c, 0u, 1u); }\n");
    expect_ok("kernel void k(global float *o) { int a[] = {1, 2, 3}; o[0] = sqrt(2.0f) + fmax(1.0f, 2) + a[2]; "
              "_Static_assert(sizeof a == 12, \"size\"); }\n");
    expect_ok("kernel void k(global int *o) { int x = 0; l: x++; if (x < 3) goto l; o[0] = x; }\n");
}
END_TEST

/* ---- diagnostics -------------------------------------------------------- */

/* Bad inputs and the first diagnostic each must produce (line:col of the
 * offending node), grouped by topic. */
static const struct BadInput {
    const char *source;
    const char *expected;
} bad_inputs[] = {
    /* names */
    {K("x = 1;"), "1:41: error: use of undeclared identifier 'x'"},
    {K("n = plus;"), "1:45: error: 'plus' can only be used as the operation of a group algorithm"},
    {K("static int s = 1;"), "1:52: error: static variables inside functions are not supported"},
    {K("int n2 = 1; int n2 = 2;"), "1:57: error: redefinition of 'n2'"},
    {"int f(int a);\nfloat f(int a);\n", "2:7: error: conflicting types for 'f'"},
    {"int f(void) { return 1; }\nint f(void) { return 2; }\n", "2:5: error: redefinition of 'f'"},
    {K("struct Q q;"), "1:50: error: variable has incomplete type 'struct Q'"},
    {K("int v = sqrt;"), "1:49: error: built-in function 'sqrt' must be called"},
    /* types */
    {K("int *p = 1.5f;"), "1:50: error: initializing 'int *' with an expression of incompatible type 'float'"},
    {K("int *p; p = 1.5f;"), "1:53: error: assigning to 'int *' from incompatible type 'float'"},
    {K("global float *p = out;"),
                 "1:59: error: incompatible pointer types initializing 'global float *' with an expression of type 'global int *'"},
    {K("local int *p = out;"),
                 "1:56: error: address space mismatch: initializing 'local int *' with an expression of type 'global int *'"},
    {K("int v = out;"),
                 "1:49: error: incompatible pointer to integer conversion initializing 'int' with an expression of type 'global int *'"},
    {K("int v = n % 2.0f;"), "1:51: error: invalid operands to binary expression ('int' and 'float')"},
    {K("int v = *n;"), "1:49: error: indirection requires pointer operand ('int' invalid)"},
    {"struct S { int a; };\n" K("struct S s; s.b = 1;"), "2:55: error: no member named 'b' in 'struct S'"},
    {K("n.x = 1;"), "1:43: error: member reference base type 'int' is not a structure or union"},
    {K("n[1] = 2;"), "1:42: error: subscripted value is not an array or pointer"},
    {"struct S { int a; };\n" K("struct S s; if (s) {}"), "2:57: error: statement requires expression of scalar type ('struct S' invalid)"},
    {K("switch (1.5) { }"), "1:49: error: statement requires expression of integer type ('double' invalid)"},
    /* lvalues */
    {K("const int c = 1; c = 2;"),
                 "1:58: error: cannot assign to variable 'c' with const-qualified type 'const int'"},
    {K("(n + 1) = 2;"), "1:44: error: expression is not assignable"},
    {K("int a[2]; int b[2]; a = b;"), "1:61: error: array type 'int [2]' is not assignable"},
    {K("(n + 1)++;"), "1:44: error: expression is not assignable"},
    {K("int *p = &(n + 1);"), "1:50: error: cannot take the address of an rvalue of type 'int'"},
    /* calls */
    {"int add(int a, int b) { return a + b; }\n" K("n = add(1);"),
                 "2:45: error: too few arguments to function call, expected 2, have 1"},
    {"int add(int a, int b) { return a + b; }\n" K("n = add(1, 2, 3);"),
                 "2:45: error: too many arguments to function call, expected 2, have 3"},
    {K("n = get_global_id();"), "1:45: error: too few arguments to function call, expected 1, have 0"},
    {K("n = n(1);"), "1:45: error: called object type 'int' is not a function or function pointer"},
    {"void f(global float *p) { }\n" K("f(out);"),
                 "2:43: error: incompatible pointer types passing 'global int *' to parameter of type 'global float *'"},
    {K("n = clamp(n);"), "1:45: error: too few arguments to function call, expected 3, have 1"},
    {"int g(int x);\n" K("n = g(1);"), "2:45: error: function 'g' is used but never defined"},
    /* statements */
    {K("break;"), "1:41: error: 'break' statement not in loop or switch statement"},
    {K("if (n) continue;"), "1:48: error: 'continue' statement not in loop statement"},
    {K("case 1: ;"), "1:41: error: 'case' statement not in switch statement"},
    {K("switch (n) { case 1: case 2: case 1: ; }"), "1:75: error: duplicate case value '1'"},
    {K("switch (n) { default: default: ; }"), "1:63: error: multiple default labels in one switch"},
    {K("goto nowhere;"), "1:41: error: use of undeclared label 'nowhere'"},
    {K("return 1;"), "1:48: error: void function 'k' should not return a value"},
    {"int f(void) { return; }\n", "1:15: error: non-void function 'f' should return a value"},
    {"int *f(float *p) { return p; }\n",
                 "1:27: error: incompatible pointer types returning 'float *' from a function with result type 'int *'"},
    {K("switch (n) { case n: ; }"), "1:59: error: case value is not an integer constant expression"},
    {K("_Static_assert(sizeof(int) == 8, \"int is 4 bytes\");"),
                 "1:41: error: static assertion failed: int is 4 bytes"},
    /* unsupported */
    {K("int v = _Generic(n, int: 1, default: 2);"), "1:49: error: _Generic selections are not supported"},
    {K("long double d = 1;"), "1:41: error: 'long double' is not supported"},
    {K("_Complex float z;"), "1:41: error: _Complex types are not supported"},
    {K("_Atomic(int) a;"), "1:41: error: _Atomic types are not supported"},
    {K("int vla[n];"), "1:49: error: variable length arrays are not supported"},
    {"struct B { int f : 3; };\n", "1:16: error: bit-fields are not supported"},
    {"int f(int x, ...);\n", "1:6: error: variadic functions are not supported"},
    {K("auto s = n > 0 ? (int[2]){1, 2} : 1.5f;"), "1:56: error: incompatible operand types ('int *' and 'float')"},
    {"struct S { int a; };\n" K("struct S s = {1}; auto t = s;"),
                 "2:68: error: 'auto' can only deduce a group, arrival_token or scalar type, not 'struct S'"},
    {K("auto x;"), "1:46: error: declaration of variable 'x' with deduced type 'auto' requires an initializer"},
    /* kernels */
    {"kernel int k(global int *o) { return 0; }\n",
                 "1:12: error: kernel function 'k' must have void return type"},
    {"kernel void k(int *p) { }\n",
                 "1:19: error: kernel pointer parameter 'p' must point to global, constant or local memory"},
    {"void f(void) { local int x[4]; }\n",
                 "1:27: error: variables in the local address space can only be declared in the outermost scope of a kernel function"},
    {"local int x;\n",
                 "1:11: error: variables in the local address space can only be declared in the outermost scope of a kernel function"},
    {"constant int c;\n", "1:14: error: variable in constant address space must be initialized"},
    {"int g;\n", "1:5: error: program scope variable must reside in constant address space"},
    {"kernel void a(global int *o) { }\nvoid f(global int *o) { a(o); }\n",
                 "2:25: error: kernel function 'a' cannot be called from device code"},
    {"kernel void k(bool b) { }\n", "1:20: error: 'bool' cannot be used as the type of a kernel parameter"},
    {"int f(int n) { return n ? f(n - 1) : 0; }\n", "1:27: error: recursion is not allowed: f -> f"},
    {"int a(int n);\nint b(int n) { return a(n); }\nint a(int n) { return b(n); }\n",
                 "2:23: error: recursion is not allowed: a -> b -> a"},
    {"[[reqd_work_group_size(64, 0, 1)]] kernel void k(global int *o) { }\n",
                 "1:28: error: 'reqd_work_group_size' attribute requires a positive integer constant"},
    /* spec_consts */
    {"spec_const int a = 1;\n" K("a = 2;"), "2:41: error: cannot assign to spec constant 'a'"},
    {"spec_const(3) int a = 1;\nspec_const(3) int b = 2;\n",
                 "2:19: error: spec constant ID 3 is already used by 'a'"},
    {"struct S { int x; };\nspec_const struct S s;\n",
                 "2:21: error: spec constant of type 'struct S' is not supported"},
    {"spec_const int arr[4];\n", "1:19: error: spec constant of type 'int [4]' is not supported"},
    {K("spec_const int a = 1;"), "1:56: error: spec constants must be declared at file scope"},
    {"spec_const int a = 1.5;\n",
                 "1:20: error: default value of spec constant 'a' must be an integer constant expression"},
    {"constant int z = 1;\nspec_const float f = z;\n",
                 "2:22: error: default value of spec constant 'f' must be a constant expression of type 'const float'"},
    {"spec_const int N = 4;\nconstant int t[N] = {1};\n",
                 "2:15: error: array size depending on a spec constant is only allowed for local or private arrays inside functions"},
    {"spec_const int a = 1;\n" K("int *p = &a;"), "2:50: error: cannot take the address of spec constant 'a'"},
    /* groups */
    {K("fixed_size_group<6> f = get_fixed_size_group<6>(get_sub_group());"),
                 "1:58: error: fixed_size_group size 6 is not a power of two"},
    {K("auto f = get_fixed_size_group<64>(get_sub_group());"),
                 "1:71: error: fixed_size_group size 64 is larger than the maximum sub-group size 32"},
    {K("auto b = get_ballot_group(get_work_group(), true);"),
                 "1:67: error: 'get_ballot_group' requires a sub_group as its parent, have 'work_group'"},
    {"struct S { int a; };\n" K("struct S s = {1}; auto r = reduce_over_group(get_sub_group(), s, plus);"),
                 "2:68: error: group algorithm 'reduce_over_group' does not support type 'struct S'"},
    {K("n = reduce_over_group(get_sub_group(), (bool)1, plus);"),
                 "1:45: error: group algorithm 'reduce_over_group' does not support type 'bool'"},
    {K("n = reduce_over_group(get_sub_group(), n, minus);"),
                 "1:83: error: expected a group operation (plus, multiplies, minimum, maximum, bit_and, bit_or, "
                 "bit_xor, logical_and, logical_or) as argument 3 of 'reduce_over_group'"},
    /* suggestions: by edit distance, OpenCL's stems (group_ops.def), other aliases */
    {K("n = reduce_over_group(get_sub_group(), n, plux);"),
                 "1:83: error: unknown group operation 'plux' as argument 3 of 'reduce_over_group'; did you mean 'plus'?"},
    {K("n = reduce_over_group(get_sub_group(), n, add);"),
                 "1:83: error: unknown group operation 'add' as argument 3 of 'reduce_over_group'; did you mean 'plus'?"},
    {K("n = reduce_over_group(get_sub_group(), n, xor);"),
                 "1:83: error: unknown group operation 'xor' as argument 3 of 'reduce_over_group'; did you mean 'bit_xor'?"},
    {K("n = reduce_over_group(get_sub_group(), n, product);"),
                 "1:83: error: unknown group operation 'product' as argument 3 of 'reduce_over_group'; did you mean 'multiplies'?"},
    {K("float f = reduce_over_group(get_sub_group(), 1.0f, bit_xor);"),
                 "1:51: error: group operation 'bit_xor' requires an integer type, have 'float'"},
    {K("group_barrier(n);"), "1:55: error: 'group_barrier' requires a group as its first argument, have 'int'"},
    {"sub_group g;\n", "1:11: error: group value cannot escape the scope where it was created"},
    {"struct S { sub_group g; };\n", "1:22: error: group value cannot escape the scope where it was created"},
    {"sub_group make(void);\n", "1:11: error: group value cannot escape the scope where it was created"},
    {K("sub_group sg = get_sub_group(); sub_group *p = &sg;"),
                 "1:83: error: group value cannot escape the scope where it was created"},
    {K("sub_group sg = get_sub_group(); ballot_group b = get_ballot_group(sg, true);"
                   " if (n) { ballot_group inner = get_ballot_group(sg, false); b = inner; }"),
                 "1:179: error: group value cannot escape the scope where it was created"},
    {K("ballot_group b = get_sub_group();"),
                 "1:58: error: initializing 'ballot_group' with an expression of incompatible type 'sub_group'"},
    {K("sub_group sg;"), "1:51: error: group variable 'sg' must be initialized"},
    {"int tangled(void) { return get_tangle_group(get_sub_group()).get_local_linear_id(); }\n"
                 "kernel void k(global int *o) { int (*fp)(void) = tangled; o[0] = fp(); }\n",
                 "1:28: error: get_tangle_group cannot be used in 'tangled': its callers cannot be analysed "
                 "(it may be called through a function pointer)"},
    {K("uint x = n.leader();"), "1:52: error: member function 'leader' requires a group, but 'n' has type 'int'"},
    /* barriers */
    {K("async_barrier b;"), "1:55: error: async_barrier must be declared in local memory"},
    {K("int x = 0; x.arrive();"),
                 "1:54: error: member function 'arrive' requires an async_barrier, but 'x' has type 'int'"},
    {K("local async_barrier b[2]; b[0].wait(5);"),
                 "1:77: error: passing 'int' to parameter of incompatible type 'arrival_token'"},
    {K("local float t[4]; async_work_group_copy(out, t, 4);"),
                 "1:81: error: 'async_work_group_copy' requires a pointer to local memory as its destination, have 'global int *'"},
    {K("local async_barrier b; b.arrive(1);"),
                 "1:66: error: too many arguments to function call, expected 0, have 1"},
    {K("float f = 0; atomic_fetch_add(&f, 1.0f);"),
                 "1:71: error: atomic operation requires a pointer to int, uint, long, ulong, float or double in global or local memory, have 'float *'"},
    {K("int i = 0; atomic_fetch_add(&i, 1);"),
                 "1:69: error: atomic operation requires a pointer to int, uint, long, ulong, float or double in global or local memory, have 'int *'"},
};

START_TEST(test_bad_input)
{
    expect_error(bad_inputs[_i].source, bad_inputs[_i].expected);
}
END_TEST

START_TEST(test_several_errors_no_cascade)
{
    Run *r = run(K("int a = undefined1 + 1; int b = a * undefined2; float c = (undefined3)[0].x + 2;"));
    ck_assert_int_eq(r->errors, 3);
    ck_assert(strstr(r->text, "use of undeclared identifier 'undefined1'"));
    ck_assert(strstr(r->text, "use of undeclared identifier 'undefined2'"));
    ck_assert(strstr(r->text, "use of undeclared identifier 'undefined3'"));
    run_free(r);
}
END_TEST

/* The tables written once (ast/scalars.def, ast/builtins.h,
 * ast/group_ops.def) are complete:
 * every row has its spellings, and the arrays have one row per enum value. */
START_TEST(test_scalar_table)
{
    ck_assert_int_eq(sizeof scalar_types / sizeof scalar_types[0], TY_LAST_SCALAR + 1);
    for (int k = 0; k <= TY_LAST_SCALAR; k++) {
        const ScalarType *t = &scalar_types[k];
        ck_assert_ptr_nonnull(t->spelling);
        bool value = k != TY_VOID;
        ck_assert_msg(value == (t->sgrt && t->ctype && t->setter && t->member),
                      "scalars.def row %d (%s)", k, t->spelling);
    }
    ck_assert_int_eq(sizeof builtin_info / sizeof builtin_info[0], BI_COUNT);
    for (int b = BI_NONE + 1; b < BI_COUNT; b++)
        ck_assert_ptr_nonnull(builtin_info[b].name);
    ck_assert_int_eq(sizeof method_info / sizeof method_info[0], METHOD_COUNT);
    ck_assert_int_eq(sizeof group_op_names / sizeof group_op_names[0], GOP_COUNT);
    ck_assert_int_eq(sizeof group_op_info / sizeof group_op_info[0], GOP_COUNT);
    for (int op = 1; op < GOP_COUNT; op++) {
        const GroupOpInfo *info = &group_op_info[op];
        ck_assert_ptr_nonnull(group_op_names[op]);
        ck_assert_msg(info->expr && strstr(info->expr, "a") && strstr(info->expr, "b") && info->khr &&
                          info->khr[0], "group_ops.def row %d (%s)", op, group_op_names[op]);
        ck_assert_int_eq(group_op_lookup(group_op_names[op]), op);
        /* the libraries compute a logical operator on truth values (0/1) */
        ck_assert(!info->logical || ((info->identity == GOP_ID_ZERO || info->identity == GOP_ID_ONE) &&
                                     !info->integer_only));
    }
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("sema");
    TCase *tc = tcase_create("sema");
    tcase_add_test(tc, test_arith_types);
    tcase_add_test(tc, test_pointer_types);
    tcase_add_test(tc, test_specifier_combinations);
    tcase_add_test(tc, test_implicit_casts);
    tcase_add_test(tc, test_folding);
    tcase_add_test(tc, test_struct_layout);
    tcase_add_test(tc, test_spec_ids);
    tcase_add_test(tc, test_spec_in_constant_contexts);
    tcase_add_test(tc, test_spec_fixed_size_group);
    tcase_add_test(tc, test_groups_typed);
    tcase_add_test(tc, test_sub_group_use_is_transitive);
    tcase_add_test(tc, test_non_uniform_group_use_is_transitive);
    tcase_add_test(tc, test_tangle_and_fp64_flags);
    tcase_add_test(tc, test_barriers_typed);
    tcase_add_test(tc, test_attributes);
    tcase_add_test(tc, test_uniformity);
    tcase_add_test(tc, test_valid_programs);
    tcase_add_loop_test(tc, test_bad_input, 0, (int)(sizeof bad_inputs / sizeof bad_inputs[0]));
    tcase_add_test(tc, test_several_errors_no_cascade);
    tcase_add_test(tc, test_scalar_table);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
