/* test_emit.c — unit tests of the shared C printer and both targets, on
 * sema-annotated trees built by hand (so they do not depend on the parser
 * or sema).  Expected strings are written out from the C17 grammar, the
 * OpenCL C 1.2 built-in list and the CUDA programming guide; the vector-add
 * test also compiles the emitted OpenCL C on the first OpenCL device and
 * runs it against a host reference, and compiles the CUDA C with nvcc when
 * it is installed. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit/emit_internal.h"

/* ---- tree building ------------------------------------------------------- */

static Arena A;
static SourceManager SM;
static Diag D;
static uint32_t FILE_ID;
static char DIAGS[4096];
static TranslationUnit TU;

/* 40 numbered lines: locations point at line N via at(N). */
static void capture(void *ctx, DiagLevel level, SrcLoc loc, const char *message)
{
    (void)ctx;
    unsigned line, col;
    srcmgr_line_col(&SM, loc, &line, &col);
    size_t used = strlen(DIAGS);
    snprintf(DIAGS + used, sizeof DIAGS - used, "%u:%u: %s: %s\n", line, col,
             level == DIAG_ERROR ? "error" : "note", message);
}

static void setup(void)
{
    arena_init(&A);
    srcmgr_init(&SM);
    char text[40 * 8] = "";
    for (int i = 1; i <= 40; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "l%02d\n", i);
    FILE_ID = srcmgr_add(&SM, "t.sgc", text, strlen(text));
    diag_init(&D, &SM, stderr);
    D.capture = capture;
    DIAGS[0] = '\0';
    memset(&TU, 0, sizeof TU);
    TU.main_file = "t.sgc";
}

static void teardown(void)
{
    arena_free(&A);
    srcmgr_free(&SM);
}

static SrcLoc at(int line) { return (SrcLoc){FILE_ID, (uint32_t)(line - 1) * 4}; }

static Type *T(TypeKind k)
{
    Type *t = ARENA_NEW(&A, Type);
    t->kind = k;
    t->array_len = -1;
    return t;
}

static Type *in_space(Type *t, AddrSpace as)
{
    Type *c = ARENA_NEW(&A, Type);
    *c = *t;
    c->origin = t->origin ? t->origin : t;
    c->addr_space = as;
    return c;
}

static Type *constq(Type *t)
{
    Type *c = in_space(t, t->addr_space);
    c->is_const = true;
    return c;
}

static Type *ptr(Type *base)
{
    Type *t = T(TY_PTR);
    t->base = base;
    return t;
}

static Type *arr(Type *base, int64_t n)
{
    Type *t = T(TY_ARRAY);
    t->base = base;
    t->array_len = n;
    t->addr_space = base->addr_space;
    return t;
}

static Param *param(const char *name, Type *ty, Param *next)
{
    Param *p = ARENA_NEW(&A, Param);
    p->name = name;
    p->ty = ty;
    p->next = next;
    return p;
}

static Type *func(Type *ret, Param *params)
{
    Type *t = T(TY_FUNC);
    t->base = ret;
    t->params = params;
    t->has_prototype = true;
    return t;
}

static Symbol *var(const char *name, Type *ty)
{
    Symbol *s = ARENA_NEW(&A, Symbol);
    s->kind = SYM_VAR;
    s->name = name;
    s->ty = ty;
    return s;
}

static Node *N(NodeKind k, Type *ty)
{
    Node *n = ast_new(&A, k, at(1));
    n->ty = ty;
    return n;
}

static Node *id(Symbol *s)
{
    Node *n = N(ND_IDENT, s->ty);
    n->sym = s;
    n->name = s->name;
    return n;
}

static Node *lit(uint64_t v, Type *ty, const char *text)
{
    Node *n = N(ND_INT_LIT, ty);
    n->int_value = v;
    n->text = text;
    n->is_const_expr = true;
    n->const_value = (int64_t)v;
    return n;
}

static Node *flit(double v, const char *text, bool f)
{
    Node *n = N(ND_FLOAT_LIT, T(f ? TY_FLOAT : TY_DOUBLE));
    n->float_value = v;
    n->text = text;
    n->is_float_suffix = f;
    return n;
}

static Node *bin(OpKind op, Node *l, Node *r)
{
    Node *n = ast_binary(&A, op, l, r, at(1));
    n->ty = l->ty;
    return n;
}

static Node *un(OpKind op, Node *x)
{
    Node *n = ast_unary(&A, ND_UNARY, op, x, at(1));
    n->ty = x->ty;
    return n;
}

static Node *cast(Node *x, Type *to, bool implicit)
{
    Node *n = N(ND_CAST, to);
    n->lhs = x;
    n->is_implicit = implicit;
    return n;
}

static Node *assign(Node *l, Node *r)
{
    Node *n = N(ND_ASSIGN, l->ty);
    n->op = OP_ASSIGN;
    n->lhs = l;
    n->rhs = r;
    return n;
}

static Node *index_(Node *base, Node *i)
{
    Node *n = N(ND_INDEX, base->ty->base);
    n->lhs = base;
    n->rhs = i;
    return n;
}

static Node *call(Builtin b, Type *ty, Node *a0, Node *a1, Node *a2)
{
    Node *n = N(ND_CALL, ty);
    n->builtin = b;
    n->callee = N(ND_IDENT, NULL);
    n->callee->name = builtin_info[b].name;
    nodelist_append(&n->args, a0);
    nodelist_append(&n->args, a1);
    nodelist_append(&n->args, a2);
    return n;
}

static Node *stmt(Node *e, int line)
{
    Node *n = ast_new(&A, ND_EXPR_STMT, at(line));
    n->lhs = e;
    return n;
}

static Node *block(Node *s0, Node *s1, Node *s2)
{
    Node *b = ast_new(&A, ND_BLOCK, at(1));
    nodelist_append(&b->items, s0);
    nodelist_append(&b->items, s1);
    nodelist_append(&b->items, s2);
    return b;
}

/* ---- printing through a context ----------------------------------------- */

static EmitBuffer OUT;
static EmitCtx CTX;
static EmitOptions OPTS = {.line_directives = true, .sgcc_version = "test"};

static EmitCtx *ctx_for(const EmitHooks *hooks)
{
    /* What the previous expression left (emit_unit frees these itself). */
    for (int i = 0; i < CTX.piece_keys.count; i++)
        free(CTX.piece_keys.items[i]);
    free(CTX.piece_keys.items);
    free(CTX.defined_records.items);
    emit_buffer_free(&CTX.pieces);
    emit_buffer_free(&OUT);
    emit_buffer_init(&OUT);
    memset(&CTX, 0, sizeof CTX);
    CTX.hooks = hooks;
    CTX.tu = &TU;
    CTX.sources = &SM;
    CTX.options = &OPTS;
    CTX.diag = &D;
    CTX.out = &OUT;
    return &CTX;
}

static const char *expr_cl(const Node *n)
{
    emit_expr(ctx_for(&emit_opencl_hooks), n);
    return OUT.data ? OUT.data : "";
}

static const char *expr_cu(const Node *n)
{
    emit_expr(ctx_for(&emit_cuda_hooks), n);
    return OUT.data ? OUT.data : "";
}

static const char *decl_with(const EmitHooks *h, const Type *ty, const char *name, EmitAsRole role)
{
    emit_type(ctx_for(h), ty, name, role);
    return OUT.data ? OUT.data : "";
}

static const char *decl_cl(const Type *ty, const char *name)
{
    return decl_with(&emit_opencl_hooks, ty, name, AS_ROLE_BLOCK_OBJECT);
}

static const char *decl_cu(const Type *ty, const char *name)
{
    return decl_with(&emit_cuda_hooks, ty, name, AS_ROLE_BLOCK_OBJECT);
}

/* ---- declarators --------------------------------------------------------- */

START_TEST(test_declarators)
{
    Type *i = T(TY_INT);
    ck_assert_str_eq(decl_cl(arr(ptr(i), 3), "a"), "int *a[3]");
    ck_assert_str_eq(decl_cl(ptr(arr(i, 3)), "p"), "int (*p)[3]");
    ck_assert_str_eq(decl_cl(arr(arr(i, 3), 2), "m"), "int m[2][3]");
    ck_assert_str_eq(decl_cl(ptr(ptr(T(TY_UINT))), "pp"), "uint **pp");
    ck_assert_str_eq(decl_cl(ptr(arr(i, 3)), NULL), "int (*)[3]");
    ck_assert_str_eq(decl_cl(arr(ptr(i), 3), NULL), "int *[3]");
    Type *cp = ptr(constq(T(TY_CHAR)));
    cp->is_const = true;
    ck_assert_str_eq(decl_cl(cp, "s"), "const char *const s");
    /* pointer to an array of function pointers returning pointers to float */
    Type *fp = ptr(func(ptr(T(TY_FLOAT)), param("x", i, NULL)));
    ck_assert_str_eq(decl_cu(ptr(arr(fp, 4)), "t"), "float *(*(*t)[4])(int x)");
    ck_assert_str_eq(decl_cu(ptr(func(T(TY_VOID), NULL)), "cb"), "void (*cb)(void)");
    ck_assert_str_eq(decl_cu(T(TY_ULONG), "u"), "unsigned long long u");
    ck_assert_str_eq(decl_cl(T(TY_ULONG), "u"), "ulong u");
    ck_assert_str_eq(decl_cu(T(TY_LONG), "l"), "long long l");
    ck_assert_str_eq(decl_cu(T(TY_UCHAR), "c"), "unsigned char c");
    ck_assert_str_eq(DIAGS, "");
}
END_TEST

START_TEST(test_function_pointer_opencl_error)
{
    Type *fp = ptr(func(T(TY_INT), param("x", T(TY_INT), NULL)));
    emit_type(ctx_for(&emit_opencl_hooks), fp, "f", AS_ROLE_BLOCK_OBJECT);
    ck_assert(CTX.failed);
    ck_assert_ptr_nonnull(strstr(DIAGS, "error: function pointers are not supported in OpenCL C"));
}
END_TEST

START_TEST(test_address_spaces)
{
    Type *gf = in_space(T(TY_FLOAT), AS_GLOBAL);
    Type *p = ptr(gf);
    p->is_restrict = true;
    ck_assert_str_eq(decl_with(&emit_opencl_hooks, p, "a", AS_ROLE_PARAM), "__global float *restrict a");
    ck_assert_str_eq(decl_with(&emit_cuda_hooks, p, "a", AS_ROLE_PARAM), "float *__restrict__ a");
    Type *tile = arr(in_space(T(TY_FLOAT), AS_LOCAL), 64);
    ck_assert_str_eq(decl_cl(tile, "tile"), "__local float tile[64]");
    ck_assert_str_eq(decl_cu(tile, "tile"), "__shared__ float tile[64]");
    Type *table = arr(constq(in_space(T(TY_INT), AS_CONSTANT)), 4);
    ck_assert_str_eq(decl_with(&emit_opencl_hooks, table, "t", AS_ROLE_FILE_OBJECT),
                     "__constant const int t[4]");
    ck_assert_str_eq(decl_with(&emit_cuda_hooks, table, "t", AS_ROLE_FILE_OBJECT),
                     "__constant__ const int t[4]");
    /* a private pointer to local memory inside a kernel */
    ck_assert_str_eq(decl_cl(ptr(in_space(T(TY_INT), AS_LOCAL)), "q"), "__local int *q");
    ck_assert_str_eq(decl_cu(ptr(in_space(T(TY_INT), AS_LOCAL)), "q"), "int *q");
}
END_TEST

START_TEST(test_typedef_names_kept)
{
    Type *s = T(TY_STRUCT);
    s->tag = "pair";
    Type *named = in_space(s, AS_NONE);
    named->typedef_name = "pair_t";
    ck_assert_str_eq(decl_cl(ptr(named), "p"), "pair_t *p");
    ck_assert_str_eq(decl_cl(ptr(s), "p"), "struct pair *p");
    ck_assert_str_eq(decl_cu(ptr(constq(named)), "p"), "const pair_t *p");
}
END_TEST

/* ---- expressions --------------------------------------------------------- */

START_TEST(test_precedence)
{
    Type *i = T(TY_INT);
    Node *a = id(var("a", i)), *b = id(var("b", i)), *c = id(var("c", i));
    ck_assert_str_eq(expr_cl(bin(OP_MUL, bin(OP_ADD, a, b), c)), "(a + b) * c");
    ck_assert_str_eq(expr_cl(bin(OP_ADD, bin(OP_MUL, a, b), c)), "a * b + c");
    ck_assert_str_eq(expr_cl(bin(OP_SUB, a, bin(OP_SUB, b, c))), "a - (b - c)");
    ck_assert_str_eq(expr_cl(bin(OP_SUB, bin(OP_SUB, a, b), c)), "a - b - c");
    ck_assert_str_eq(expr_cl(bin(OP_LOGOR, a, bin(OP_LOGAND, b, c))), "a || (b && c)");
    ck_assert_str_eq(expr_cl(bin(OP_LOGAND, bin(OP_LOGOR, a, b), c)), "(a || b) && c");
    ck_assert_str_eq(expr_cl(bin(OP_SHL, a, bin(OP_ADD, b, c))), "a << (b + c)");
    ck_assert_str_eq(expr_cl(bin(OP_EQ, bin(OP_BITAND, a, b), c)), "(a & b) == c");
    ck_assert_str_eq(expr_cl(bin(OP_BITAND, a, bin(OP_EQ, b, c))), "a & (b == c)");
    ck_assert_str_eq(expr_cl(un(OP_NEG, un(OP_NEG, a))), "-(-a)");
    ck_assert_str_eq(expr_cl(un(OP_NEG, bin(OP_ADD, a, b))), "-(a + b)");
    ck_assert_str_eq(expr_cl(assign(a, assign(b, c))), "a = b = c");
    Node *cond = N(ND_COND, i);
    cond->cond = a;
    cond->then = b;
    cond->els = assign(c, a);
    ck_assert_str_eq(expr_cl(assign(a, cond)), "a = a ? b : (c = a)");
    Node *deref = un(OP_DEREF, bin(OP_ADD, id(var("p", ptr(i))), a));
    ck_assert_str_eq(expr_cl(deref), "*(p + a)");
    ck_assert_str_eq(expr_cl(cast(bin(OP_ADD, a, b), T(TY_FLOAT), false)), "(float)(a + b)");
    Node *comma = N(ND_COMMA, i);
    comma->lhs = a;
    comma->rhs = b;
    ck_assert_str_eq(expr_cl(call(BI_MIN, i, comma, c, NULL)), "min((a, b), c)");
}
END_TEST

START_TEST(test_literals)
{
    Type *f = T(TY_FLOAT), *d = T(TY_DOUBLE);
    /* a double literal in a float context never stays double */
    ck_assert_str_eq(expr_cl(cast(flit(1.0, "1.0", false), f, true)), "1.0f");
    ck_assert_str_eq(expr_cl(cast(flit(0.5, "0.5", false), f, true)), "0.5f");
    ck_assert_str_eq(expr_cl(cast(flit(0.1, "0.1", false), f, true)), "0.1f");
    ck_assert_str_eq(expr_cl(cast(flit(1.0 / 3.0, "0.333333333333333314829616256247", false), f, true)),
                     "0.33333334f");
    ck_assert_str_eq(expr_cl(cast(flit(0.1, "0.1", false), f, false)), "(float)0.1f");
    ck_assert_str_eq(expr_cl(flit(2.5, "2.5", false)), "2.5");
    ck_assert_str_eq(expr_cl(cast(flit(1e40, "1e40", false), f, true)), "INFINITY");
    ck_assert_str_eq(expr_cu(cast(flit(1e40, "1e40", false), f, true)), "__int_as_float(0x7f800000)");
    /* integer literals keep their type on each target */
    ck_assert_str_eq(expr_cl(lit(5000000000ull, T(TY_LONG), "5000000000")), "5000000000L");
    ck_assert_str_eq(expr_cu(lit(5000000000ull, T(TY_LONG), "5000000000")), "5000000000LL");
    ck_assert_str_eq(expr_cl(lit(~0ull, T(TY_ULONG), "0xFFFFFFFFFFFFFFFFul")), "0xFFFFFFFFFFFFFFFFUL");
    ck_assert_str_eq(expr_cu(lit(~0ull, T(TY_ULONG), "0xFFFFFFFFFFFFFFFFul")), "0xFFFFFFFFFFFFFFFFULL");
    ck_assert_str_eq(expr_cl(lit(0xFFFFFFFFu, T(TY_UINT), "0xFFFFFFFF")), "0xFFFFFFFFu");
    ck_assert_str_eq(expr_cl(lit(5, T(TY_INT), "0b101")), "5");
    /* an int literal in a double context prints as it is (C converts it) */
    ck_assert_str_eq(expr_cl(cast(lit(2, T(TY_INT), "2"), d, true)), "2");
    ck_assert_str_eq(DIAGS, "");
}
END_TEST

START_TEST(test_builtin_overloads_strict)
{
    Type *u = T(TY_UINT), *f = T(TY_FLOAT);
    Symbol *ys = var("y", f);
    Node *x = id(var("x", u)), *y = id(ys), *k = id(var("k", T(TY_INT)));
    /* nodes are list members through ->next: each argument is its own node */
    /* OpenCL max(uint, int) is ambiguous: the converted literal gets its suffix */
    ck_assert_str_eq(expr_cl(call(BI_MAX, u, x, cast(lit(1, T(TY_INT), "1"), u, true), NULL)),
                     "max(x, 1u)");
    ck_assert_str_eq(expr_cl(call(BI_MIN, u, x, cast(k, u, true), NULL)), "min(x, (uint)k)");
    ck_assert_str_eq(expr_cl(call(BI_SQRT, f, cast(lit(2, T(TY_INT), "2"), f, true), NULL, NULL)),
                     "sqrt(2.0f)");
    ck_assert_str_eq(expr_cu(call(BI_SQRT, f, y, NULL, NULL)), "sqrtf(y)");
    ck_assert_str_eq(expr_cu(call(BI_MAX, u, x, cast(k, u, true), NULL)), "max(x, (unsigned int)k)");
    ck_assert_str_eq(expr_cu(call(BI_MAD, f, id(ys), id(ys), id(ys))), "fmaf(y, y, y)");
    ck_assert_str_eq(expr_cu(call(BI_CLAMP, f, id(ys), id(ys), id(ys))), "fminf(fmaxf(y, y), y)");
    ck_assert_str_eq(expr_cu(call(BI_MIN, f, id(ys), id(ys), NULL)), "fminf(y, y)");
}
END_TEST

START_TEST(test_cxx_implicit_casts)
{
    Type *vp = ptr(T(TY_VOID)), *fp = ptr(T(TY_FLOAT));
    Node *v = id(var("v", vp));
    Symbol *p = var("p", fp);
    /* C converts void * implicitly, C++ does not */
    ck_assert_str_eq(expr_cl(assign(id(p), cast(v, fp, true))), "p = v");
    ck_assert_str_eq(expr_cu(assign(id(p), cast(v, fp, true))), "p = (float *)v");
    /* array decay is never written */
    Node *a = id(var("a", arr(T(TY_FLOAT), 4)));
    ck_assert_str_eq(expr_cu(assign(id(p), cast(a, fp, true))), "p = a");
    Type *e = T(TY_ENUM);
    e->tag = "mode";
    Node *m = id(var("m", e));
    /* C++ objects of an enum type are printed as its compatible integer */
    ck_assert_str_eq(expr_cu(assign(m, cast(lit(1, T(TY_INT), "1"), e, true))), "m = 1");
    ck_assert_str_eq(expr_cl(assign(m, cast(lit(1, T(TY_INT), "1"), e, true))), "m = 1");
}
END_TEST

START_TEST(test_workitems_and_atomics)
{
    Type *gl = in_space(T(TY_LONG), AS_GLOBAL), *gi = in_space(T(TY_INT), AS_GLOBAL);
    Node *pl = id(var("pl", ptr(gl))), *pi = id(var("pi", ptr(gi)));
    Node *one = cast(lit(1, T(TY_INT), "1"), T(TY_LONG), true);
    ck_assert_str_eq(expr_cl(call(BI_ATOMIC_FETCH_ADD, T(TY_LONG), pl, one, NULL)), "atom_add(pl, 1L)");
    ck_assert(CTX.uses[USE_INT64_BASE_ATOMICS]);
    ck_assert_str_eq(expr_cl(call(BI_ATOMIC_FETCH_MAX, T(TY_LONG), pl, one, NULL)), "atom_max(pl, 1L)");
    ck_assert(CTX.uses[USE_INT64_EXT_ATOMICS]);
    ck_assert_str_eq(expr_cl(call(BI_ATOMIC_COMPARE_EXCHANGE, T(TY_INT), pi, lit(0, T(TY_INT), "0"),
                                  lit(1, T(TY_INT), "1"))), "atomic_cmpxchg(pi, 0, 1)");
    ck_assert_str_eq(expr_cu(call(BI_ATOMIC_FETCH_ADD, T(TY_LONG), pl, one, NULL)),
                     "sgc_atomic_add_i64(pl, 1LL)");
    ck_assert_ptr_nonnull(strstr(CTX.pieces.data, "return (long long)atomicAdd((unsigned long long *)p,"));
    ck_assert_str_eq(expr_cu(call(BI_ATOMIC_EXCHANGE, T(TY_INT), pi, lit(3, T(TY_INT), "3"), NULL)),
                     "atomicExch(pi, 3)");
    Node *gid = call(BI_GET_GLOBAL_ID, T(TY_SIZE_T), lit(0, T(TY_UINT), "0u"), NULL, NULL);
    ck_assert_str_eq(expr_cu(gid), "get_global_id(0u)");
    ck_assert(CTX.uses[USE_GET_GLOBAL_ID]);
    Node *bar = call(BI_BARRIER, T(TY_VOID), lit(1, T(TY_INT), "1"), NULL, NULL);
    ck_assert_str_eq(expr_cl(bar), "barrier(CLK_LOCAL_MEM_FENCE)");
    ck_assert_str_eq(expr_cu(bar), "__syncthreads()");
}
END_TEST

START_TEST(test_group_hook_default_error)
{
    /* A target without a group lowering (EmitHooks.lowering) gets a located
     * error; the real targets lower the call. */
    Node *g = call(BI_GET_SUB_GROUP, T(TY_GROUP), NULL, NULL, NULL);
    g->loc = at(9);
    EmitHooks bare = emit_cuda_hooks;
    bare.lowering = NULL;
    emit_expr(ctx_for(&bare), g);
    ck_assert_str_eq(DIAGS, "9:1: error: group lowering for CUDA C not implemented yet\n");
    ck_assert_str_eq(expr_cl(g), "sgc_get_sub_group()");
}
END_TEST

/* ---- statements and #line ------------------------------------------------ */

START_TEST(test_statements_and_lines)
{
    Type *i = T(TY_INT);
    Symbol *x = var("x", i);
    Node *iff = ast_new(&A, ND_IF, at(3));
    iff->cond = bin(OP_LT, id(x), lit(3, i, "3"));
    iff->then = stmt(assign(id(x), lit(1, i, "1")), 4);
    Node *elif = ast_new(&A, ND_IF, at(5));
    elif->cond = bin(OP_GT, id(x), lit(9, i, "9"));
    elif->then = block(stmt(assign(id(x), lit(2, i, "2")), 6), NULL, NULL);
    elif->els = stmt(assign(id(x), lit(0, i, "0")), 12);
    iff->els = elif;
    EmitCtx *ctx = ctx_for(&emit_opencl_hooks);
    ctx->indent = 1;
    emit_line_directive(ctx, at(2));
    emit_stmt(ctx, iff);
    ck_assert_str_eq(OUT.data,
                     "#line 2 \"t.sgc\"\n"
                     "\n"
                     "    if (x < 3) {\n"
                     "        x = 1;\n"
                     "    } else if (x > 9) {\n"
                     "        x = 2;\n"
                     "    } else {\n"
                     "#line 12 \"t.sgc\"\n"
                     "        x = 0;\n"
                     "    }\n");
}
END_TEST

START_TEST(test_spec_constant_block)
{
    Symbol *bs = var("block_size", T(TY_INT)), *alpha = var("alpha", T(TY_FLOAT));
    Symbol *third = var("third", T(TY_DOUBLE)), *flag = var("flag", T(TY_BOOL));
    bs->kind = alpha->kind = third->kind = flag->kind = SYM_SPEC_CONST;
    bs->spec_default_int = 16;
    alpha->spec_id = 42;
    alpha->spec_required = true;
    third->spec_id = 1;
    third->spec_default_float = 1.0 / 3.0;
    flag->spec_id = 2;
    flag->spec_default_int = 1;
    Symbol *list[] = {bs, alpha, third, flag};
    TU.spec_consts = list;
    TU.spec_const_count = 4;
    TU.root = ast_new(&A, ND_TRANSLATION_UNIT, at(1));
    EmitBuffer out;
    emit_buffer_init(&out);
    ck_assert(emit_opencl_unit(&TU, &SM, &OPTS, &D, &out));
    const char *want =
        "#ifdef SGC_SPEC_0\n#define SGC_SC_block_size ((int)(SGC_SPEC_0))\n#else\n"
        "#define SGC_SC_block_size ((int)(16))\n#endif\n"
        "#ifdef SGC_SPEC_42\n#define SGC_SC_alpha ((float)(SGC_SPEC_42))\n#else\n"
        "#error \"spec constant 'alpha' (ID 42) has no value: define SGC_SPEC_42\"\n#endif\n"
        "#ifdef SGC_SPEC_1\n#define SGC_SC_third ((double)(SGC_SPEC_1))\n#else\n"
        "#define SGC_SC_third ((double)(0x1.5555555555555p-2)) /* 0.3333333333333333 */\n"
        "#endif\n"
        "#ifdef SGC_SPEC_2\n#define SGC_SC_flag ((bool)(SGC_SPEC_2))\n#else\n"
        "#define SGC_SC_flag ((bool)(1))\n#endif\n";
    ck_assert_msg(strstr(out.data, want), "got:\n%s", out.data);
    ck_assert_ptr_nonnull(strstr(out.data, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"));
    ck_assert_str_eq(expr_cu(id(bs)), "SGC_SC_block_size");
    emit_buffer_free(&out);
}
END_TEST

/* ---- hooks for control-flow-aware lowerings ------------------------------ */

static void pre_hook(EmitCtx *ctx, const Node *n)
{
    emit_line_begin(ctx, (SrcLoc){0, 0});
    emit_out(ctx, "/* pre %s */", ast_node_kind_name(n->kind));
    emit_line_end(ctx);
}

static void post_hook(EmitCtx *ctx, const Node *n)
{
    emit_line_begin(ctx, (SrcLoc){0, 0});
    emit_out(ctx, "/* post %s */", ast_node_kind_name(n->kind));
    emit_line_end(ctx);
}

static void extra_params(EmitCtx *ctx, const Symbol *fn, bool first)
{
    (void)fn;
    emit_out(ctx, "%sunsigned sgc_tangle", first ? "" : ", ");
}

static void extra_args(EmitCtx *ctx, const Node *call_node, const Symbol *callee, bool first)
{
    (void)call_node, (void)callee;
    emit_out(ctx, "%ssgc_tangle", first ? "" : ", ");
}

static bool override_break(EmitCtx *ctx, const Node *n)
{
    if (n->kind != ND_BREAK)
        return false;
    emit_line_begin(ctx, n->loc);
    emit_out(ctx, "sgc_exit = 1;");
    emit_line_end(ctx);
    return true;
}

START_TEST(test_statement_and_function_hooks)
{
    EmitHooks hooks = emit_cuda_hooks;
    hooks.stmt_pre = pre_hook;
    hooks.stmt_post = post_hook;
    hooks.extra_params = extra_params;
    hooks.extra_args = extra_args;
    hooks.stmt_override = override_break;
    Type *i = T(TY_INT);
    Symbol *x = var("x", i);
    Symbol *f = var("f", func(i, param("v", i, NULL)));
    f->kind = SYM_FUNC;
    Symbol *g = var("g", func(T(TY_VOID), NULL));
    g->kind = SYM_FUNC;
    Node *loop = ast_new(&A, ND_WHILE, at(3));
    loop->cond = id(x);
    loop->body = ast_new(&A, ND_BREAK, at(4));
    Node *c = N(ND_CALL, i);
    c->callee = id(f);
    nodelist_append(&c->args, id(x));
    Node *ret = ast_new(&A, ND_RETURN, at(5));
    ret->lhs = c;
    Node *def = ast_new(&A, ND_FUNC_DEF, at(2));
    def->sym = f;
    def->body = block(loop, ret, NULL);
    Node *gcall = N(ND_CALL, T(TY_VOID));
    gcall->callee = id(g);
    Node *gdef = ast_new(&A, ND_FUNC_DEF, at(7));
    gdef->sym = g;
    gdef->body = block(stmt(gcall, 8), NULL, NULL);
    TU.root = ast_new(&A, ND_TRANSLATION_UNIT, at(1));
    nodelist_append(&TU.root->items, def);
    nodelist_append(&TU.root->items, gdef);
    EmitBuffer out;
    emit_buffer_init(&out);
    OPTS.line_directives = false;
    ck_assert(emit_unit_with(&hooks, &TU, &SM, &OPTS, &D, &out, NULL));
    OPTS.line_directives = true;
    const char *want =
        "static __device__ int f(int v, unsigned sgc_tangle) {\n"
        "    /* pre while */\n"
        "    while (x) {\n"
        "        sgc_exit = 1;\n"
        "    }\n"
        "    /* post while */\n"
        "    /* pre return */\n"
        "    return f(x, sgc_tangle);\n"
        "    /* post return */\n"
        "}\n"
        "\n"
        "static __device__ void g(unsigned sgc_tangle) {\n"
        "    g(sgc_tangle);\n"
        "}\n";
    ck_assert_msg(strstr(out.data, want), "got:\n%s", out.data);
    emit_buffer_free(&out);
}
END_TEST

/* ---- a whole kernel: vector add ------------------------------------------ */

/* kernel void vadd(global const float *a, global const float *b,
 *                  global float *c, uint n)
 * {
 *     size_t i = get_global_id(0);
 *     if (i < n)
 *         c[i] = a[i] + b[i] * 2.0;      (2.0 in a float context)
 * } */
static void build_vadd(void)
{
    Type *cgf = constq(in_space(T(TY_FLOAT), AS_GLOBAL)), *gf = in_space(T(TY_FLOAT), AS_GLOBAL);
    Type *u = T(TY_UINT), *sz = T(TY_SIZE_T);
    Symbol *a = var("a", ptr(cgf)), *b = var("b", ptr(cgf)), *c = var("c", ptr(gf)), *n = var("n", u);
    Type *fty = func(T(TY_VOID), param("a", a->ty, param("b", b->ty, param("c", c->ty,
                                          param("n", u, NULL)))));
    Symbol *k = var("vadd", fty);
    k->kind = SYM_FUNC;
    k->is_kernel = true;
    Symbol *i = var("i", sz);

    Node *decl = ast_new(&A, ND_DECL, at(4));
    decl->decl_specs = ARENA_NEW(&A, DeclSpecs);
    Node *idecl = ast_new(&A, ND_INIT_DECLARATOR, at(4));
    idecl->sym = i;
    idecl->ty = sz;
    idecl->init = call(BI_GET_GLOBAL_ID, sz, lit(0, T(TY_INT), "0"), NULL, NULL);
    nodelist_append(&decl->items, idecl);

    Node *sum = bin(OP_ADD, index_(id(a), id(i)),
                    bin(OP_MUL, index_(id(b), id(i)), cast(flit(2.0, "2.0", false), T(TY_FLOAT), true)));
    Node *iff = ast_new(&A, ND_IF, at(5));
    iff->cond = bin(OP_LT, id(i), cast(id(n), sz, true));
    iff->then = stmt(assign(index_(id(c), id(i)), sum), 6);

    Node *def = ast_new(&A, ND_FUNC_DEF, at(2));
    def->sym = k;
    def->body = block(decl, iff, NULL);
    k->def = def;
    TU.root = ast_new(&A, ND_TRANSLATION_UNIT, at(1));
    nodelist_append(&TU.root->items, def);
}

static const char VADD_CL[] =
    "/* Generated by sgcc test from t.sgc (OpenCL C). Do not edit. */\n"
    "\n"
    "#line 2 \"t.sgc\"\n"
    "__kernel void vadd(__global const float *a, __global const float *b, __global float *c, uint n) {\n"
    "\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n) {\n"
    "        c[i] = a[i] + b[i] * 2.0f;\n"
    "    }\n"
    "}\n";

static const char VADD_CU[] =
    "/* Generated by sgcc test from t.sgc (CUDA C). Do not edit. */\n"
    "\n"
    "/* OpenCL work-item functions. */\n"
    "static __device__ __forceinline__ size_t get_global_id(unsigned int d)\n"
    "{\n"
    "    return d == 0 ? (size_t)blockIdx.x * blockDim.x + threadIdx.x\n"
    "         : d == 1 ? (size_t)blockIdx.y * blockDim.y + threadIdx.y\n"
    "         : d == 2 ? (size_t)blockIdx.z * blockDim.z + threadIdx.z\n"
    "         : 0;\n"
    "}\n"
    "\n"
    "#line 2 \"t.sgc\"\n"
    "extern \"C\" __global__ void vadd(const float *a, const float *b, float *c, unsigned int n) {\n"
    "\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n) {\n"
    "        c[i] = a[i] + b[i] * 2.0f;\n"
    "    }\n"
    "}\n";

static char *write_temp(const char *text, const char *suffix)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/test_emit_XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* Builds and runs the emitted kernel on the first OpenCL device; returns
 * false (skipping) when there is no device. */
static bool run_vadd_opencl(const char *src)
{
    cl_platform_id platform;
    cl_device_id dev;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
        return false;
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        ck_abort_msg("OpenCL build failed:\n%s", log);
    }
    enum { COUNT = 1000 };
    float a[COUNT], b[COUNT], c[COUNT];
    for (int i = 0; i < COUNT; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = (float)(COUNT - i);
        c[i] = -1.0f;
    }
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof c, c, &err);
    cl_kernel k = clCreateKernel(prog, "vadd", &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    cl_uint n = COUNT - 10; /* the last 10 must stay untouched */
    clSetKernelArg(k, 0, sizeof da, &da);
    clSetKernelArg(k, 1, sizeof db, &db);
    clSetKernelArg(k, 2, sizeof dc, &dc);
    clSetKernelArg(k, 3, sizeof n, &n);
    size_t global = 1024;
    ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    clEnqueueReadBuffer(q, dc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL);
    for (int i = 0; i < COUNT; i++) {
        float want = i < (int)n ? a[i] + b[i] * 2.0f : -1.0f;
        ck_assert_msg(c[i] == want, "c[%d] = %g, want %g", i, (double)c[i], (double)want);
    }
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return true;
}

START_TEST(test_vadd_opencl)
{
    build_vadd();
    EmitBuffer out;
    emit_buffer_init(&out);
    ck_assert(emit_opencl_unit(&TU, &SM, &OPTS, &D, &out));
    ck_assert_str_eq(out.data, VADD_CL);
    if (!run_vadd_opencl(out.data))
        fprintf(stderr, "test_vadd_opencl: no OpenCL device, run skipped\n");
    emit_buffer_free(&out);
}
END_TEST

START_TEST(test_vadd_cuda)
{
    build_vadd();
    EmitBuffer out;
    emit_buffer_init(&out);
    ck_assert(emit_cuda_unit(&TU, &SM, &OPTS, &D, &out));
    ck_assert_str_eq(out.data, VADD_CU);
    if (system("command -v nvcc >/dev/null 2>&1") == 0) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "nvcc -arch=sm_90 -c -x cu -o /dev/null %s", write_temp(out.data, ".cu"));
        ck_assert_int_eq(system(cmd), 0);
    }
    emit_buffer_free(&out);
}
END_TEST

/* ---- running golden outputs ---------------------------------------------- */

#ifndef SGC_SOURCE_ROOT
#define SGC_SOURCE_ROOT "."
#endif

/* tests/golden/name, found from $SGC_SOURCE_ROOT, -DSGC_SOURCE_ROOT, or this
 * file's own path (meson compiles it as ../tests/unit/test_emit.c and runs
 * the test from the build directory). */
static char *read_golden(const char *name)
{
    char path[512];
    const char *root = getenv("SGC_SOURCE_ROOT");
    FILE *f = NULL;
    if (root) {
        snprintf(path, sizeof path, "%s/tests/golden/%s", root, name);
        f = fopen(path, "rb");
    }
    if (!f) {
        snprintf(path, sizeof path, "%s/tests/golden/%s", SGC_SOURCE_ROOT, name);
        f = fopen(path, "rb");
    }
    if (!f) {
        const char *here = __FILE__, *slash = strrchr(here, '/');
        snprintf(path, sizeof path, "%.*s/../golden/%s", slash ? (int)(slash - here) : 1,
                 slash ? here : ".", name);
        f = fopen(path, "rb");
    }
    ck_assert_msg(f != NULL, "cannot open tests/golden/%s (set SGC_SOURCE_ROOT)", name);
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* tests/golden/dynlocal.cl: `reduce` sums 128-element blocks in dynamic
 * local memory and adds them atomically to a 64-bit total (atom_add), ORs a
 * bit per group (atom_or) and takes a 64-bit min; `fill` uses the default of
 * spec constant `chunk` (4).  Compared with sums computed here. */
START_TEST(test_golden_dynlocal_runs)
{
    cl_platform_id platform;
    cl_device_id dev;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
        fprintf(stderr, "test_golden_dynlocal_runs: no OpenCL device, skipped\n");
        return;
    }
    const char *src = read_golden("dynlocal.cl");
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    ck_assert_int_eq(clBuildProgram(prog, 1, &dev, "", NULL, NULL), CL_SUCCESS);
    enum { GROUPS = 5, WG = 128, COUNT = GROUPS * WG };
    cl_int in[COUNT];
    long long want_sum = 0, want_min = 1000000;
    cl_uint n = COUNT - 37;
    for (int i = 0; i < COUNT; i++)
        in[i] = (i * 7919) % 1000 - 300;
    for (int g = 0; g < GROUPS; g++) {
        long long block = 0;
        for (int i = g * WG; i < (g + 1) * WG; i++)
            block += (cl_uint)i < n ? in[i] : 0;
        want_sum += block;
        long long q4 = block / 4; /* C division truncates, as OpenCL's */
        if (q4 < want_min)
            want_min = q4;
    }
    cl_long sums[2] = {0, 1000000};
    cl_ulong bits = 0;
    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem dsum = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof sums, sums, &err);
    cl_mem dbits = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof bits, &bits, &err);
    cl_kernel k = clCreateKernel(prog, "reduce", &err);
    clSetKernelArg(k, 0, sizeof din, &din);
    clSetKernelArg(k, 1, sizeof dsum, &dsum);
    clSetKernelArg(k, 2, sizeof dbits, &dbits);
    clSetKernelArg(k, 3, WG * sizeof(cl_int), NULL);
    clSetKernelArg(k, 4, sizeof n, &n);
    size_t global = COUNT, local = WG;
    ck_assert_int_eq(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_SUCCESS);
    clEnqueueReadBuffer(q, dsum, CL_TRUE, 0, sizeof sums, sums, 0, NULL, NULL);
    clEnqueueReadBuffer(q, dbits, CL_TRUE, 0, sizeof bits, &bits, 0, NULL, NULL);
    ck_assert_int_eq(sums[0], want_sum);
    ck_assert_int_eq(sums[1], want_min);
    ck_assert_uint_eq(bits, (1u << GROUPS) - 1);

    cl_uint out[64];
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);
    cl_kernel fill = clCreateKernel(prog, "fill", &err);
    cl_uint value = 10;
    clSetKernelArg(fill, 0, sizeof dout, &dout);
    clSetKernelArg(fill, 1, sizeof value, &value);
    size_t fglobal = 64, flocal = 32;
    ck_assert_int_eq(clEnqueueNDRangeKernel(q, fill, 1, NULL, &fglobal, &flocal, 0, NULL, NULL), CL_SUCCESS);
    clEnqueueReadBuffer(q, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    for (int i = 0; i < 64; i++)
        ck_assert_uint_eq(out[i], 10 + 2 * 4); /* two groups, chunk = 4 */
    clReleaseKernel(fill);
    clReleaseKernel(k);
    clReleaseMemObject(dout);
    clReleaseMemObject(din);
    clReleaseMemObject(dsum);
    clReleaseMemObject(dbits);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}
END_TEST

/* ---- emit_printf against the C library ------------------------------------- */

/* emit_printf formats the common conversions itself; each must print what
 * snprintf prints, and any other conversion must still work (vsnprintf). */
#define CHECK_PRINTF(...)                                                   \
    do {                                                                    \
        char want_[256];                                                    \
        snprintf(want_, sizeof want_, __VA_ARGS__);                         \
        EmitBuffer got_;                                                    \
        emit_buffer_init(&got_);                                            \
        emit_printf(&got_, __VA_ARGS__);                                    \
        ck_assert_str_eq(got_.data ? got_.data : "", want_);                \
        ck_assert_uint_eq(got_.len, strlen(want_));                         \
        emit_buffer_free(&got_);                                            \
    } while (0)

START_TEST(test_printf_matches_snprintf)
{
    CHECK_PRINTF("plain text, no conversion");
    CHECK_PRINTF("%s", "");
    CHECK_PRINTF("%s%s%s", "a", "", "bc");
    CHECK_PRINTF("100%% of %c%c", 'o', 'k');
    CHECK_PRINTF("%d %d %d %i", 0, -1, INT_MIN, INT_MAX);
    CHECK_PRINTF("%u %u", 0u, UINT_MAX);
    CHECK_PRINTF("%ld %lu", LONG_MIN, ULONG_MAX);
    CHECK_PRINTF("%lld %lld %llu", LLONG_MIN, LLONG_MAX, ULLONG_MAX);
    CHECK_PRINTF("%zu|%s|%d", (size_t)12345, "x", -42);
    CHECK_PRINTF("#line %u \"%s\"\n", 17u, "file.sgc");
    /* conversions left to vsnprintf, alone and mixed with the fast ones */
    CHECK_PRINTF("%5d|%-4s|%x|%08X", 42, "ab", 255u, 48879u);
    CHECK_PRINTF("%s = %.9g;", "f", 0.1);
    CHECK_PRINTF("%.*s", 3, "abcdef");
    /* one conversion far longer than a first guess of the buffer */
    char big[200];
    memset(big, 'q', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    CHECK_PRINTF("%s%5d", big, 7);
    /* appending keeps what is there */
    EmitBuffer b;
    emit_buffer_init(&b);
    emit_printf(&b, "%s", "ab");
    emit_printf(&b, "%d%%", -3);
    emit_printf(&b, "%3d", 4);
    ck_assert_str_eq(b.data, "ab-3%  4");
    emit_buffer_free(&b);
}
END_TEST

/* Every C++ keyword that is an identifier in C is renamed in CUDA output
 * (the keyword table is searched with bsearch, so it must stay sorted). */
START_TEST(test_cxx_keywords_renamed)
{
    static const char *const keywords[] = {
        "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "catch", "char16_t",
        "char32_t", "class", "compl", "const_cast", "constexpr", "decltype", "delete",
        "dynamic_cast", "explicit", "export", "friend", "mutable", "namespace", "new",
        "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private",
        "protected", "public", "reinterpret_cast", "static_assert", "static_cast", "template",
        "this", "thread_local", "throw", "try", "typeid", "typename", "using", "virtual",
        "wchar_t", "xor", "xor_eq",
    };
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "%s_", keywords[i]);
        ck_assert_str_eq(expr_cu(id(var(keywords[i], T(TY_INT)))), want);
        ck_assert_str_eq(expr_cl(id(var(keywords[i], T(TY_INT)))), keywords[i]);
    }
    /* names next to keywords in the order are left alone */
    static const char *const plain[] = {"a", "alignas2", "an", "classy", "news", "zzz", "_this"};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        ck_assert_str_eq(expr_cu(id(var(plain[i], T(TY_INT)))), plain[i]);
}
END_TEST

/* Both reserved-name tables are in strcmp order (emit_names.c looks names
 * up with bsearch) and hold what the OpenCL C 3.0 specification and the
 * CUDA programming guide say each language reserves. */
START_TEST(test_reserved_tables)
{
    const EmitReservedTable *tables[] = {emit_opencl_hooks.reserved, emit_cuda_hooks.reserved};
    for (size_t t = 0; t < 2; t++) {
        ck_assert_uint_gt(tables[t]->count, 500);
        for (size_t i = 1; i < tables[t]->count; i++)
            ck_assert_int_lt(strcmp(emit_reserved_name_at(tables[t], i - 1),
                                    emit_reserved_name_at(tables[t], i)), 0);
    }
    /* OpenCL C: keywords, built-in types, vector types, built-in functions, macros */
    static const char *const opencl[] = {
        "half", "pipe", "image2d_t", "sampler_t", "float4", "int2", "uchar16", "min", "max",
        "clamp", "dot", "mad", "select", "any", "all", "abs", "sqrt", "get_local_id",
        "barrier", "printf", "atomic_add", "vload4", "vstore_half", "convert_int_sat_rte",
        "as_float", "read_only", "FLT_MAX", "M_PI", "CLK_LOCAL_MEM_FENCE",
    };
    for (size_t i = 0; i < sizeof opencl / sizeof opencl[0]; i++)
        ck_assert_msg(emit_reserved_lookup(emit_opencl_hooks.reserved, opencl[i]) ==
                      RESERVED_EVERYWHERE, "OpenCL C should reserve %s", opencl[i]);
    /* CUDA C: C++ keywords, built-in variables and types, device functions */
    static const char *const cuda[] = {
        "class", "new", "delete", "this", "template", "namespace", "public", "private",
        "operator", "nullptr", "typename", "explicit", "virtual", "min", "max", "threadIdx",
        "warpSize", "dim3", "float4", "make_int2", "atomicAdd", "sqrtf", "sgc", "memcpy",
        "get_global_id",
    };
    for (size_t i = 0; i < sizeof cuda / sizeof cuda[0]; i++)
        ck_assert_msg(emit_reserved_lookup(emit_cuda_hooks.reserved, cuda[i]) == RESERVED_EVERYWHERE,
                      "CUDA C should reserve %s", cuda[i]);
    /* the host C library nvcc's headers declare clashes only at file scope */
    ck_assert_int_eq(emit_reserved_lookup(emit_cuda_hooks.reserved, "index"), RESERVED_FILE_SCOPE);
    ck_assert_int_eq(emit_reserved_lookup(emit_cuda_hooks.reserved, "time"), RESERVED_FILE_SCOPE);
    static const char *const plain[] = {"a", "total", "lid", "gid", "value", "acc"};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        ck_assert_int_eq(emit_reserved_lookup(emit_opencl_hooks.reserved, plain[i]), RESERVED_NONE);
        ck_assert_int_eq(emit_reserved_lookup(emit_cuda_hooks.reserved, plain[i]), RESERVED_NONE);
    }
}
END_TEST

/* The renaming rule: a name whose stem (the name without trailing `_`s) is
 * reserved gets one more `_`, so renamed names never meet another user
 * name; sgcc's own prefixes count as reserved. */
START_TEST(test_reserved_renaming)
{
    static const char *const cases[][3] = {
        /* name, OpenCL C, CUDA C */
        {"min", "min_", "min_"},
        {"min_", "min__", "min__"},
        {"min__", "min___", "min___"},
        {"half", "half_", "half"},
        {"pipe", "pipe_", "pipe"},
        {"class", "class", "class_"},
        {"threadIdx", "threadIdx", "threadIdx_"},
        {"sgc_tmp", "sgc_tmp_", "sgc_tmp_"},
        {"SGC_SPEC_1", "SGC_SPEC_1_", "SGC_SPEC_1_"},
        {"sgc", "sgc", "sgc_"},
        {"__syncthreads", "__syncthreads_", "__syncthreads_"},
        {"__x", "__x_", "__x_"},
        {"minimum", "minimum", "minimum"},
        {"index", "index", "index"}, /* not declared at file scope here */
        {"_", "_", "_"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Symbol *s = var(cases[i][0], T(TY_INT));
        ck_assert_str_eq(expr_cl(id(s)), cases[i][1]);
        ck_assert_str_eq(expr_cu(id(s)), cases[i][2]);
    }
    /* `index` clashes with nvcc's <strings.h> only when the unit declares
     * it at file scope */
    const char *names[] = {"index"};
    EmitCtx *ctx = ctx_for(&emit_cuda_hooks);
    ctx->file_scope_names.items = names;
    ctx->file_scope_names.count = 1;
    emit_name(ctx, "index");
    emit_name(ctx, "index_");
    ctx->file_scope_names.items = NULL;
    ctx->file_scope_names.count = 0;
    ck_assert_str_eq(OUT.data, "index_index__");
}
END_TEST

/* CUDA is C++: where C and C++ give one text different types, the CUDA
 * output pins C's (C17 6.4.4.4p10, 6.5.8p6, 6.5.9p3, 6.5.3.3p5, 6.5.13p3,
 * 6.5.14p3, 6.7.2.2p3). */
START_TEST(test_cxx_c_types)
{
    Type *i = T(TY_INT);
    Node *v = id(var("v", i));
    Node *ch = N(ND_CHAR_LIT, i);
    ch->text = "'a'";
    ch->int_value = 'a';
    Node *sz = N(ND_SIZEOF, T(TY_SIZE_T));
    sz->lhs = ch;
    ck_assert_str_eq(expr_cu(sz), "sizeof((int)'a')");
    ck_assert_str_eq(expr_cl(sz), "sizeof('a')");
    OpKind truth[] = {OP_LT, OP_EQ, OP_NE, OP_GE, OP_LOGAND, OP_LOGOR};
    for (size_t k = 0; k < sizeof truth / sizeof truth[0]; k++) {
        sz->lhs = bin(truth[k], v, lit(0, i, "0"));
        char want[64];
        snprintf(want, sizeof want, "sizeof((int)(v %s 0))", op_spellings[truth[k]]);
        ck_assert_str_eq(expr_cu(sz), want);
    }
    sz->lhs = un(OP_NOT, v);
    ck_assert_str_eq(expr_cu(sz), "sizeof((int)!v)");
    /* an enumerator has type int in C, its enum in C++ */
    Symbol *red = var("RED", i);
    red->kind = SYM_ENUM_CONST;
    sz->lhs = id(red);
    ck_assert_str_eq(expr_cu(sz), "sizeof((int)RED)");
    /* arithmetic already has the same type in both */
    sz->lhs = bin(OP_ADD, v, lit(1, i, "1"));
    ck_assert_str_eq(expr_cu(sz), "sizeof(v + 1)");
    /* overloaded built-ins see C's argument types */
    ck_assert_str_eq(expr_cu(call(BI_MAX, i, ch, v, NULL)), "max((int)'a', v)");
    /* ++ and -- on bool as C defines them */
    Node *b = id(var("b", T(TY_BOOL)));
    Node *post = ast_unary(&A, ND_POSTFIX, OP_INC, b, at(1));
    post->ty = b->ty;
    ck_assert_str_eq(expr_cu(post), "sgc_bool_post_inc(&b)");
    ck_assert_str_eq(expr_cl(post), "b++");
    ck_assert_str_eq(expr_cu(un(OP_PRE_DEC, b)), "sgc_bool_pre_dec(&b)");
    /* a string literal is const in C++ */
    Node *str = N(ND_STRING_LIT, arr(T(TY_CHAR), 3));
    str->text = "\"ab\"";
    Node *p = id(var("p", ptr(T(TY_CHAR))));
    ck_assert_str_eq(expr_cu(assign(p, str)), "p = (char *)\"ab\"");
    ck_assert_str_eq(expr_cl(assign(p, str)), "p = \"ab\"");
}
END_TEST

static Suite *emit_suite(void)
{
    Suite *s = suite_create("emit");
    TCase *tc = tcase_create("printer");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_declarators);
    tcase_add_test(tc, test_function_pointer_opencl_error);
    tcase_add_test(tc, test_address_spaces);
    tcase_add_test(tc, test_typedef_names_kept);
    tcase_add_test(tc, test_precedence);
    tcase_add_test(tc, test_literals);
    tcase_add_test(tc, test_builtin_overloads_strict);
    tcase_add_test(tc, test_cxx_implicit_casts);
    tcase_add_test(tc, test_workitems_and_atomics);
    tcase_add_test(tc, test_group_hook_default_error);
    tcase_add_test(tc, test_statements_and_lines);
    tcase_add_test(tc, test_spec_constant_block);
    tcase_add_test(tc, test_statement_and_function_hooks);
    tcase_add_test(tc, test_vadd_opencl);
    tcase_add_test(tc, test_vadd_cuda);
    tcase_add_test(tc, test_golden_dynlocal_runs);
    tcase_add_test(tc, test_printf_matches_snprintf);
    tcase_add_test(tc, test_cxx_keywords_renamed);
    tcase_add_test(tc, test_reserved_tables);
    tcase_add_test(tc, test_reserved_renaming);
    tcase_add_test(tc, test_cxx_c_types);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(emit_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
