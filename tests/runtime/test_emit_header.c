/* test_emit_header.c — `sgcc --header` output (compiler/module/emit_header.c).
 *
 * Builds a TranslationUnit by hand (as sema would leave it), generates the
 * header, checks its text, then compiles host programs that include it:
 * one that must compile cleanly (and, given libsgrt, runs a kernel through
 * the typed setter and launcher and checks the result), and ones that must
 * NOT compile because an argument has the wrong type.
 * Usage: test_emit_header RUNTIME_INCLUDE_DIR [LIBSGRT_DIR] */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "base/arena.h"
#include "ast/ast.h"
#include "emit/emit.h"
#include "module/emit_header.h"
#include "modules.h"

static const char *include_dir = "runtime";
static const char *lib_dir;
static Arena arena;
static TranslationUnit tu;
static Diag diag;
static SourceManager sources;
static char work[64];
static EmitBuffer out;

static Type *scalar(TypeKind kind, int size)
{
    Type *t = ARENA_NEW(&arena, Type);
    t->kind = kind;
    t->size = t->align = size;
    return t;
}

static Type *pointer(Type *base, AddrSpace as)
{
    Type *elem = ARENA_NEW(&arena, Type);
    *elem = *base;
    elem->addr_space = as;
    Type *t = scalar(TY_PTR, 8);
    t->base = elem;
    return t;
}

static Symbol *spec(const char *name, uint32_t id, Type *ty, bool required, int64_t i, double f)
{
    Symbol *s = ARENA_NEW(&arena, Symbol);
    s->kind = SYM_SPEC_CONST;
    s->name = name;
    s->ty = ty;
    s->spec_id = id;
    s->spec_required = required;
    s->spec_default_int = i;
    s->spec_default_float = f;
    return s;
}

static Symbol *kernel(const char *name, int nparams, const char **names, Type **types)
{
    Symbol *k = ARENA_NEW(&arena, Symbol);
    k->kind = SYM_FUNC;
    k->is_kernel = true;
    k->name = name;
    k->ty = scalar(TY_FUNC, -1);
    Param **tail = &k->ty->params;
    for (int i = 0; i < nparams; i++) {
        Param *p = ARENA_NEW(&arena, Param);
        p->name = names[i];
        p->ty = types[i];
        *tail = p;
        tail = &p->next;
    }
    return k;
}

/* A unit whose vadd kernel matches vadd_cl in modules.h, plus a kernel
 * with every parameter kind and attribute. */
static void setup(void)
{
    arena_init(&arena);
    srcmgr_init(&sources);
    diag_init(&diag, &sources, stderr);
    emit_buffer_init(&out);
    memset(&tu, 0, sizeof tu);
    tu.main_file = "dir/mat-mul.sgc";
    Type *f32 = scalar(TY_FLOAT, 4), *i32 = scalar(TY_INT, 4);
    static Symbol *specs[4];
    specs[0] = spec("block_size", 0, i32, false, 16, 0);
    specs[1] = spec("alpha", 42, f32, true, 0, 0);
    specs[2] = spec("flag", 1, scalar(TY_BOOL, 1), false, 1, 0);
    specs[3] = spec("big", 2, scalar(TY_ULONG, 8), false, INT64_MIN, 0);
    tu.spec_consts = specs;
    tu.spec_const_count = 4;
    static Symbol *kernels[2];
    const char *vnames[] = {"a", "b", "c", "n"};
    Type *vtypes[] = {pointer(f32, AS_GLOBAL), pointer(f32, AS_GLOBAL), pointer(f32, AS_GLOBAL),
                      i32};
    kernels[0] = kernel("vadd", 4, vnames, vtypes);
    const char *knames[] = {"out", "tile", "lut", "scale", "count"};
    Type *ktypes[] = {pointer(scalar(TY_DOUBLE, 8), AS_GLOBAL), pointer(f32, AS_LOCAL),
                      pointer(i32, AS_CONSTANT), scalar(TY_DOUBLE, 8), scalar(TY_USHORT, 2)};
    kernels[1] = kernel("tiled", 5, knames, ktypes);
    kernels[1]->reqd_work_group_size[0] = 8;
    kernels[1]->reqd_work_group_size[1] = kernels[1]->reqd_work_group_size[2] = 1;
    kernels[1]->uses_sub_groups = true;
    kernels[1]->uses_async_barrier = true;
    kernels[1]->uses_non_uniform_groups = true;
    tu.kernels = kernels;
    tu.kernel_count = 2;
    tu.uses_fp64 = true;
    snprintf(work, sizeof work, "/tmp/sgrt-hdr-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(work));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
    ck_assert_int_eq(system(cmd), 0);
    emit_buffer_free(&out);
    srcmgr_free(&sources);
    arena_free(&arena);
}

static const char tricky_cuda[] = "/* \"quoted\" \\ back\tslash ?\?= trigraph */\nint x;\n\x01";

/* The two targets' outputs as libsgcc hands them to emit_header. */
static const EmitBuffer vadd_cl_code = {(char *)vadd_cl, sizeof vadd_cl - 1, sizeof vadd_cl};
static const EmitBuffer tricky_cuda_code = {(char *)tricky_cuda, sizeof tricky_cuda - 1, sizeof tricky_cuda};
static const EmitBuffer *const both_targets[TARGET_COUNT] = {
    [TARGET_OPENCL] = &vadd_cl_code, [TARGET_CUDA] = &tricky_cuda_code};

static void generate(void)
{
    ck_assert(emit_header(&tu, NULL, both_targets, &diag, &out));
    ck_assert_uint_eq(diag.error_count, 0);
    char path[128];
    snprintf(path, sizeof path, "%s/mat_mul.h", work);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(out.data, 1, out.len, f), out.len);
    fclose(f);
}

#define HAS(text) ck_assert_msg(strstr(out.data, (text)) != NULL, "missing: %s\n%s", (text), out.data)

START_TEST(header_text)
{
    generate();
    HAS("#ifndef SGC_MODULE_MAT_MUL_H");
    HAS("#include <sgrt.h>");
    HAS("static const sgrt_module_desc mat_mul_module SGRT_MAYBE_UNUSED = {");
    HAS("{\"block_size\", 0, SGRT_TYPE_INT, false, {.i = 16}},");
    HAS("{\"alpha\", 42, SGRT_TYPE_FLOAT, true, {.f = 0}},");
    HAS("{\"flag\", 1, SGRT_TYPE_BOOL, false, {.b = true}},");
    HAS("{\"big\", 2, SGRT_TYPE_ULONG, false, {.ul = 9223372036854775808ull}},");
    HAS("{\"tile\", SGRT_PARAM_LOCAL, SGRT_TYPE_FLOAT, 4},");
    HAS("{\"lut\", SGRT_PARAM_CONSTANT, SGRT_TYPE_INT, 4},");
    HAS("{\"tiled\", 5, mat_mul_tiled_params, {8, 1, 1}, 0, true, true, true, {NULL, NULL}},");
    HAS("MAT_MUL_SPEC_ALPHA = 42,");
    HAS("static inline sgrt_status mat_mul_set_alpha(sgrt_program *program, float value)");
    HAS("size_t tile_bytes");
    HAS("sgrt_buffer *lut");
    HAS("uint16_t count");
    HAS("    \"__kernel void vadd(__global const float *a, __global const float *b,\\n\"\n");
    HAS("\\\"quoted\\\" \\\\ back\\tslash ?\\?= trigraph");
    HAS("\"\\001\"");
    /* Deterministic: a second run is byte-identical. */
    EmitBuffer again;
    emit_buffer_init(&again);
    ck_assert(emit_header(&tu, "mat-mul", both_targets, &diag, &again));
    ck_assert_uint_eq(again.len, out.len);
    ck_assert(memcmp(again.data, out.data, out.len) == 0);
    emit_buffer_free(&again);
}
END_TEST

START_TEST(module_names)
{
    char buf[64];
    emit_header_module_name("a/b/mat-mul.sgc", buf, sizeof buf);
    ck_assert_str_eq(buf, "mat_mul");
    emit_header_module_name("3d.sgc", buf, sizeof buf);
    ck_assert_str_eq(buf, "_3d");
    emit_header_module_name("plain", buf, sizeof buf);
    ck_assert_str_eq(buf, "plain");
}
END_TEST

/* Compiles host code that includes the header; returns gcc's status. */
/* A sanitizer build's libsgrt needs a host linked with the same runtime
 * (scripts/test-sanitize.sh). */
#if defined(__SANITIZE_ADDRESS__)
#define HOST_SANITIZE "-fsanitize=address,undefined "
#elif defined(__SANITIZE_THREAD__)
#define HOST_SANITIZE "-fsanitize=thread "
#else
#define HOST_SANITIZE ""
#endif

static int compile_host(const char *body, bool link)
{
    char src[128], cmd[1024];
    snprintf(src, sizeof src, "%s/host.c", work);
    FILE *f = fopen(src, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#include <stdio.h>\n#include <string.h>\n#include \"mat_mul.h\"\n%s", body);
    fclose(f);
    if (link)
        snprintf(cmd, sizeof cmd,
                 "gcc " HOST_SANITIZE "-std=c17 -Wall -Wextra -Werror -I'%s' '%s' -o '%s/host' "
                 "-L'%s' -Wl,-rpath,'%s' -lsgrt 2>'%s/gcc.log'",
                 include_dir, src, work, lib_dir, lib_dir, work);
    else
        snprintf(cmd, sizeof cmd,
                 "gcc -std=c17 -Wall -Wextra -Werror -I'%s' -c '%s' -o '%s/host.o' 2>'%s/gcc.log'",
                 include_dir, src, work, work);
    return system(cmd);
}

static const char host_descriptor[] =
    "int main(void) {\n"
    "  const sgrt_module_desc *m = &mat_mul_module;\n"
    "  if (strcmp(m->sources[SGRT_BACKEND_CUDA], \"/* \\\"quoted\\\" \\\\ back\\tslash ??\" \"= trigraph */\\nint x;\\n\\001\")) return 1;\n"
    "  if (m->spec_count != 4 || m->specs[1].id != 42 || !m->specs[1].required) return 2;\n"
    "  if (m->specs[3].default_value.ul != 9223372036854775808ull) return 3;\n"
    "  if (m->kernel_count != 2 || m->kernels[1].params[1].kind != SGRT_PARAM_LOCAL) return 4;\n"
    "  if (!m->needs_fp64 || strcmp(m->name, \"mat_mul\") || MAT_MUL_SPEC_BIG != 2) return 5;\n"
    "  return 0;\n}\n";

START_TEST(header_compiles_and_describes)
{
    generate();
    ck_assert_int_eq(compile_host(host_descriptor, false), 0);
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && gcc -std=c17 -Wall -Wextra -Werror -I'%s' host.c -o host.exe "
             "-Wl,--unresolved-symbols=ignore-all && ./host.exe",
             work, include_dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(wrong_argument_types_do_not_compile)
{
    generate();
    const char *bad[] = {
        /* double for an int scalar */
        "void f(sgrt_program *p, const sgrt_launch_dims *d, sgrt_buffer *b) {\n"
        "  mat_mul_launch_vadd(p, d, b, b, b, 1.0, NULL); }\n",
        /* a host pointer for a buffer */
        "void f(sgrt_program *p, const sgrt_launch_dims *d, sgrt_buffer *b, float *h) {\n"
        "  mat_mul_launch_vadd(p, d, b, h, b, 4, NULL); }\n",
        /* too few arguments */
        "void f(sgrt_program *p, const sgrt_launch_dims *d, sgrt_buffer *b) {\n"
        "  mat_mul_launch_vadd(p, d, b, b, 4, NULL); }\n",
        /* double for a float spec constant */
        "void f(sgrt_program *p) { mat_mul_set_alpha(p, 2.0); }\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_msg(compile_host(bad[i], false) != 0, "case %zu compiled", i);
    ck_assert_int_eq(compile_host("void f(sgrt_program *p, const sgrt_launch_dims *d,\n"
                                  "       sgrt_buffer *b) {\n"
                                  "  mat_mul_launch_vadd(p, d, b, b, b, 4, NULL);\n"
                                  "  mat_mul_set_alpha(p, 2.0f); mat_mul_set_flag(p, true); }\n",
                                  false),
                     0);
}
END_TEST

/* The generated header drives a real launch through libsgrt. */
static const char host_run[] =
    "int main(void) {\n"
    "  sgrt_device *dev; sgrt_context *ctx; sgrt_program *p; sgrt_buffer *a, *b, *c;\n"
    "  float ha[64], hb[64], hc[64]; int bad = 0;\n"
    "  for (int i = 0; i < 64; i++) { ha[i] = (float)i; hb[i] = 0.5f * (float)i; }\n"
    "  if (sgrt_device_select(NULL, &dev) || sgrt_context_create(dev, &ctx)) return 10;\n"
    "  if (sgrt_program_create(ctx, &mat_mul_module, &p)) return 11;\n"
    "  if (sgrt_program_build(p, NULL) != SGRT_ERROR_SPEC_REQUIRED_UNSET) return 12;\n"
    "  if (mat_mul_set_alpha(p, 2.0f) || mat_mul_set_block_size(p, 8)) return 13;\n"
    "  sgrt_status s = sgrt_program_build(p, NULL);\n"
    "  if (s == SGRT_ERROR_UNSUPPORTED) { puts(sgrt_last_error()); return 0; }\n"
    "  if (s) { puts(sgrt_last_error()); return 14; }\n"
    "  sgrt_buffer_create(ctx, sizeof ha, &a); sgrt_buffer_create(ctx, sizeof hb, &b);\n"
    "  sgrt_buffer_create(ctx, sizeof hc, &c);\n"
    "  sgrt_buffer_write(a, 0, sizeof ha, ha); sgrt_buffer_write(b, 0, sizeof hb, hb);\n"
    "  sgrt_launch_dims dims = {1, {64, 0, 0}, {16, 0, 0}};\n"
    "  if (mat_mul_launch_vadd(p, &dims, a, b, c, 60, NULL)) return 15;\n"
    "  sgrt_buffer_read(c, 0, sizeof hc, hc);\n"
    "  for (int i = 0; i < 60; i++) bad |= hc[i] != ha[i] + hb[i];\n"
    "  sgrt_buffer_free(a); sgrt_buffer_free(b); sgrt_buffer_free(c);\n"
    "  sgrt_program_free(p); sgrt_context_free(ctx);\n"
    "  return bad ? 16 : 0;\n}\n";

START_TEST(typed_launcher_runs)
{
    if (!lib_dir)
        return;
    /* The tiled kernel needs sub-groups; keep only vadd for this run. */
    tu.kernel_count = 1;
    tu.uses_fp64 = false;
    generate();
    ck_assert_int_eq(compile_host(host_run, true), 0);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "'%s/host'", work);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(int argc, char **argv)
{
    /* Absolute paths: one test compiles from inside its work directory. */
    static char inc[4096], lib[4096];
    if (argc > 1 && realpath(argv[1], inc))
        include_dir = inc;
    if (argc > 2 && realpath(argv[2], lib))
        lib_dir = lib;
    setenv("SGRT_CACHE", "0", 1);
    Suite *s = suite_create("emit_header");
    TCase *tc = tcase_create("header");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, header_text);
    tcase_add_test(tc, module_names);
    tcase_add_test(tc, header_compiles_and_describes);
    tcase_add_test(tc, wrong_argument_types_do_not_compile);
    tcase_add_test(tc, typed_launcher_runs);
    suite_add_tcase(s, tc);
    SRunner *runner = srunner_create(s);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
