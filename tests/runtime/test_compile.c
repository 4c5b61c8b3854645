/* test_compile.c — programs compiled from SGC text at run time
 * (sgrt_program_create_from_source / _from_file, libsgcc inside libsgrt).
 *
 * On the device sgrt selects (SGRT_DEVICE).  Checks that such a program
 * behaves like one from a generated header: spec constants by ID and by
 * name typed by the module description, required constants, a spec
 * constant folded into a local array size, the binary cache; that errors
 * in the source come back as SGRT_ERROR_COMPILE with the caret text; that
 * the translation cache notices a changed #include.  Expected values are
 * computed on the host. */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt_fixture.h"

enum { N = 512, LOCAL = 32 };

static sgrt_context *ctx;
static const char *dir;   /* the test's cache and source directory */

static void setup(void)
{
    dir = rt_cache_dir_create("compile");
    unsetenv("SGRT_CACHE");
    ctx = rt_context_open(NULL);
}

static void teardown(void)
{
    OK(sgrt_context_free(ctx));
    rt_cache_dir_remove();
}

static const char scale_src[] =
    "spec_const float alpha = 0.1f;        /* ID 0 */\n"
    "spec_const(7) int offset;             /* required */\n"
    "spec_const uint block = 8;            /* ID 1: a local array size */\n"
    "kernel void scale(global const float *x, global float *y, int n)\n"
    "{\n"
    "    int i = (int)get_global_id(0);\n"
    "    if (i < n)\n"
    "        y[i] = alpha * x[i] + (float)offset;\n"
    "}\n"
    "kernel void block_sums(global const int *in, global int *out)\n"
    "{\n"
    "    local int tile[block];\n"
    "    uint lid = get_local_id(0);\n"
    "    tile[lid] = in[get_global_id(0)];\n"
    "    group_barrier(get_work_group());\n"
    "    if (lid == 0) {\n"
    "        int s = 0;\n"
    "        for (uint i = 0; i < block; i++)\n"
    "            s += tile[i];\n"
    "        out[get_group_id(0)] = s;\n"
    "    }\n"
    "}\n";

static sgrt_buffer *buffer_from(const void *data, size_t size)
{
    return rt_buffer_from(ctx, data, size);
}

static void run_scale(sgrt_program *p, float alpha, int offset)
{
    float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)(i % 17) - 8.0f;
    sgrt_buffer *bx = buffer_from(x, sizeof x), *by = buffer_from(NULL, sizeof y);
    sgrt_kernel *k = NULL;
    int n = N;
    OK(sgrt_kernel_get(p, "scale", &k));
    OK(sgrt_kernel_set_arg_buffer(k, 0, bx));
    OK(sgrt_kernel_set_arg_buffer(k, 1, by));
    OK(sgrt_kernel_set_arg_scalar(k, 2, SGRT_TYPE_INT, &n));
    sgrt_launch_dims dims = {.dims = 1, .global = {N}, .local = {LOCAL}};
    OK(sgrt_kernel_launch(k, &dims, NULL));
    OK(sgrt_buffer_read(by, 0, sizeof y, y));
    for (int i = 0; i < N; i++) {
        /* alpha * x is exact here (x is a small integer times a float whose
         * product fits), so fused or not gives the same float. */
        float want = alpha * x[i] + (float)offset;
        ck_assert_msg(fabsf(y[i] - want) <= 1e-6f * fabsf(want) + 1e-6f, "y[%d] = %a, want %a",
                      i, (double)y[i], (double)want);
    }
    OK(sgrt_buffer_free(bx));
    OK(sgrt_buffer_free(by));
}

/* ------------------------------------------------------------------ */

START_TEST(source_to_launch_with_specs_by_name)
{
    sgrt_program *p = NULL;
    OK(sgrt_program_create_from_source(ctx, scale_src, "scale.sgc", NULL, &p));
    const sgrt_module_desc *m = NULL;
    OK(sgrt_program_get_module(p, &m));
    ck_assert_str_eq(m->name, "scale");
    ck_assert_uint_eq(m->spec_count, 3);
    ck_assert_uint_eq(m->kernel_count, 2);
    ck_assert_str_eq(m->kernels[1].name, "block_sums");
    ck_assert_int_eq(m->kernels[0].params[2].kind, SGRT_PARAM_SCALAR);

    /* Types, IDs and defaults come from the module description. */
    uint32_t id = 99;
    sgrt_type type = SGRT_TYPE_NONE;
    OK(sgrt_program_get_spec_id(p, "offset", &id, &type));
    ck_assert_uint_eq(id, 7);
    ck_assert_int_eq(type, SGRT_TYPE_INT);
    float alpha = 0;
    OK(sgrt_program_get_spec_by_name(p, "alpha", SGRT_TYPE_FLOAT, &alpha, sizeof alpha));
    ck_assert_msg(alpha == 0.1f, "default alpha %a", (double)alpha);
    EXPECT(SGRT_ERROR_SPEC_TYPE_MISMATCH,
           sgrt_program_set_spec_by_name(p, "alpha", SGRT_TYPE_DOUBLE, &(double){1.0}, 8));
    EXPECT(SGRT_ERROR_SPEC_UNKNOWN_ID,
           sgrt_program_set_spec_by_name(p, "beta", SGRT_TYPE_FLOAT, &alpha, sizeof alpha));
    EXPECT(SGRT_ERROR_SPEC_REQUIRED_UNSET, sgrt_program_build(p, NULL));
    ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "offset"));

    int offset = -3;
    alpha = 2.5f;
    OK(sgrt_program_set_spec_by_name(p, "offset", SGRT_TYPE_INT, &offset, sizeof offset));
    OK(sgrt_program_set_spec_by_name(p, "alpha", SGRT_TYPE_FLOAT, &alpha, sizeof alpha));
    OK(sgrt_program_build(p, NULL));
    EXPECT(SGRT_ERROR_SPEC_AFTER_BUILD, sgrt_program_set_spec_int(p, 7, 1));
    run_scale(p, 2.5f, -3);
    OK(sgrt_program_free(p));

    /* A second program from the same text with other values, by ID. */
    OK(sgrt_program_create_from_source(ctx, scale_src, "scale.sgc", NULL, &p));
    OK(sgrt_program_set_spec_int(p, 7, 11));
    OK(sgrt_program_build(p, NULL));
    run_scale(p, 0.1f, 11);
    OK(sgrt_program_free(p));
}
END_TEST

/* The spec constant `block` sizes a local array and bounds a loop. */
START_TEST(spec_constant_sizes_local_array)
{
    int in[N], out[N / 4], want[N / 4];
    for (int i = 0; i < N; i++)
        in[i] = (i * 31) % 23 - 11;
    for (uint32_t block = 4; block <= 16; block *= 2) {
        sgrt_program *p = NULL;
        OK(sgrt_program_create_from_source(ctx, scale_src, "scale.sgc", NULL, &p));
        OK(sgrt_program_set_spec_int(p, 7, 0));
        OK(sgrt_program_set_spec_by_name(p, "block", SGRT_TYPE_UINT, &block, sizeof block));
        OK(sgrt_program_build(p, NULL));
        sgrt_buffer *bi = buffer_from(in, sizeof in), *bo = buffer_from(NULL, sizeof out);
        sgrt_kernel *k = NULL;
        OK(sgrt_kernel_get(p, "block_sums", &k));
        OK(sgrt_kernel_set_arg_buffer(k, 0, bi));
        OK(sgrt_kernel_set_arg_buffer(k, 1, bo));
        sgrt_launch_dims dims = {.dims = 1, .global = {N}, .local = {block}};
        OK(sgrt_kernel_launch(k, &dims, NULL));
        size_t groups = N / block;
        OK(sgrt_buffer_read(bo, 0, groups * sizeof(int), out));
        for (size_t g = 0; g < groups; g++) {
            want[g] = 0;
            for (uint32_t i = 0; i < block; i++)
                want[g] += in[g * block + i];
            ck_assert_msg(out[g] == want[g], "block %u group %zu: %d, want %d", block, g, out[g],
                          want[g]);
        }
        OK(sgrt_buffer_free(bi));
        OK(sgrt_buffer_free(bo));
        OK(sgrt_program_free(p));
    }
}
END_TEST

START_TEST(compile_errors_have_caret_text)
{
    static const char bad[] = "kernel void k(global int *p)\n{\n    p[0] = undeclared_x + 1;\n}\n";
    sgrt_program *p = NULL;
    EXPECT(SGRT_ERROR_COMPILE, sgrt_program_create_from_source(ctx, bad, "bad.sgc", NULL, &p));
    const char *msg = sgrt_last_error();
    ck_assert_msg(strstr(msg, "bad.sgc:3:12: error:") != NULL, "message: %s", msg);
    ck_assert_msg(strstr(msg, "undeclared_x") && strstr(msg, "^"), "message: %s", msg);
    /* Errors are not cached: the same text fails again the same way. */
    EXPECT(SGRT_ERROR_COMPILE, sgrt_program_create_from_source(ctx, bad, "bad.sgc", NULL, &p));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT,
           sgrt_program_create_from_source(ctx, scale_src, NULL, "-O2", &p));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT,
           sgrt_program_create_from_source(ctx, NULL, NULL, NULL, &p));
    EXPECT(SGRT_ERROR_IO, sgrt_program_create_from_file(ctx, "/nonexistent/x.sgc", NULL, &p));
}
END_TEST

/* ---- a run-time compile of deep input on a small thread stack (issue 35) */

/* `out[0] = a + a + ... + a;` with `terms` terms: as deep as it is long. */
static char *long_sum_source(int terms)
{
    static const char head[] = "kernel void sum(global int *out, int a)\n{\n    out[0] = a";
    static const char tail[] = ";\n}\n";
    size_t size = sizeof head + (size_t)terms * 4 + sizeof tail;
    char *src = malloc(size), *p = src;
    ck_assert_ptr_nonnull(src);
    p += sprintf(p, "%s", head);
    for (int i = 1; i < terms; i++)
        p += sprintf(p, " + a");
    sprintf(p, "%s", tail);
    return src;
}

typedef struct DeepCompile {
    const char *src;
    sgrt_program *program;
    sgrt_status status;
    char message[2048];    /* sgrt_last_error() is per thread */
} DeepCompile;

static void *compile_deep(void *arg)
{
    DeepCompile *job = arg;
    job->status = sgrt_program_create_from_source(ctx, job->src, "deep.sgc", NULL, &job->program);
    snprintf(job->message, sizeof job->message, "%s", sgrt_last_error());
    return NULL;
}

/* The application's thread has 256 KiB of stack, less than the tree walks
 * of a 3,000-term sum needed (a crash before the compiler took a stack of
 * its own). */
static sgrt_status compile_on_small_stack(const char *src, sgrt_program **program, char *message,
                                          size_t size)
{
    static DeepCompile job; /* not on this test's stack either */
    memset(&job, 0, sizeof job);
    job.src = src;
    pthread_attr_t attr;
    pthread_t thread;
    ck_assert_int_eq(pthread_attr_init(&attr), 0);
    ck_assert_int_eq(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
    ck_assert_int_eq(pthread_create(&thread, &attr, compile_deep, &job), 0);
    ck_assert_int_eq(pthread_join(thread, NULL), 0);
    pthread_attr_destroy(&attr);
    *program = job.program;
    snprintf(message, size, "%s", job.message);
    return job.status;
}

START_TEST(deep_source_on_a_small_thread_stack)
{
    enum { TERMS = 3000, A = 7 };
    char *src = long_sum_source(TERMS);
    sgrt_program *p = NULL;
    char msg[2048];
    OK(compile_on_small_stack(src, &p, msg, sizeof msg));
    free(src);
    OK(sgrt_program_build(p, NULL));
    sgrt_buffer *bo = buffer_from(NULL, sizeof(int));
    sgrt_kernel *k = NULL;
    int a = A, out = 0;
    OK(sgrt_kernel_get(p, "sum", &k));
    OK(sgrt_kernel_set_arg_buffer(k, 0, bo));
    OK(sgrt_kernel_set_arg_scalar(k, 1, SGRT_TYPE_INT, &a));
    sgrt_launch_dims dims = {.dims = 1, .global = {1}, .local = {1}};
    OK(sgrt_kernel_launch(k, &dims, NULL));
    OK(sgrt_buffer_read(bo, 0, sizeof out, &out));
    ck_assert_int_eq(out, TERMS * A);
    OK(sgrt_buffer_free(bo));
    OK(sgrt_program_free(p));

    /* Past the nesting limit (docs/REFERENCE.md "Limits"): a located error. */
    src = long_sum_source(140000);
    EXPECT(SGRT_ERROR_COMPILE, compile_on_small_stack(src, &p, msg, sizeof msg));
    free(src);
    ck_assert_msg(strstr(msg, "deep.sgc:3:") && strstr(msg, "expression too deeply nested"),
                  "message: %.300s", msg);
}
END_TEST

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fputs(text, f) >= 0, 1);
    ck_assert_int_eq(fclose(f), 0);
}

static size_t cache_entries(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -c '\\.bin$'", dir);
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    ck_assert_int_eq(fscanf(p, "%zu", &n), 1);
    pclose(p);
    return n;
}

/* Runs fill.sgc's kernel and returns out[0]. */
static int run_fill(const char *path, const char *options, bool *binary_hit)
{
    sgrt_program *p = NULL;
    OK(sgrt_program_create_from_file(ctx, path, options, &p));
    OK(sgrt_program_build(p, NULL));
    OK(sgrt_program_cache_hit(p, binary_hit));
    sgrt_buffer *b = buffer_from(NULL, LOCAL * sizeof(int));
    sgrt_kernel *k = NULL;
    OK(sgrt_kernel_get(p, "fill", &k));
    OK(sgrt_kernel_set_arg_buffer(k, 0, b));
    sgrt_launch_dims dims = {.dims = 1, .global = {LOCAL}, .local = {LOCAL}};
    OK(sgrt_kernel_launch(k, &dims, NULL));
    int out[LOCAL];
    OK(sgrt_buffer_read(b, 0, sizeof out, out));
    for (int i = 1; i < LOCAL; i++)
        ck_assert_int_eq(out[i], out[0] + i);
    OK(sgrt_buffer_free(b));
    OK(sgrt_program_free(p));
    return out[0];
}

/* From a file with an #include and -D options; the translation and the
 * binary are cached, and changing the included file is a miss. */
START_TEST(file_include_options_and_caches)
{
    char path[300], inc[300];
    snprintf(path, sizeof path, "%s/fill.sgc", dir);
    snprintf(inc, sizeof inc, "%s/base.h", dir);
    write_file(inc, "#define BASE 100\n");
    write_file(path, "#include \"base.h\"\n"
                     "kernel void fill(global int *out)\n"
                     "{\n"
                     "    out[get_global_id(0)] = BASE + EXTRA + (int)get_global_id(0);\n"
                     "}\n");
    bool hit = true;
    ck_assert_int_eq(run_fill(path, "-DEXTRA=5", &hit), 105);
    ck_assert(!hit);
    size_t entries = cache_entries();   /* the translation and the binary */
    ck_assert_uint_eq(entries, 2);
    ck_assert_int_eq(run_fill(path, "-DEXTRA=5", &hit), 105);
    ck_assert(hit);
    ck_assert_uint_eq(cache_entries(), entries);
    ck_assert_int_eq(run_fill(path, "-D EXTRA=7 -Wall", &hit), 107);
    write_file(inc, "#define BASE 200\n");
    ck_assert_int_eq(run_fill(path, "-DEXTRA=5", &hit), 205);
    ck_assert(!hit);
    /* Caching off: same results, nothing written. */
    setenv("SGRT_CACHE", "0", 1);
    entries = cache_entries();
    ck_assert_int_eq(run_fill(path, "-DEXTRA=1", &hit), 201);
    ck_assert_uint_eq(cache_entries(), entries);
}
END_TEST

/* Runs kernel "five" of the program made from `path` (a launch of 8
 * work-items writing out[i] = value(i)) and returns out[5]. */
static int run_five(const char *path, const char *options)
{
    sgrt_program *p = NULL;
    OK(sgrt_program_create_from_file(ctx, path, options, &p));
    OK(sgrt_program_build(p, NULL));
    sgrt_buffer *b = buffer_from(NULL, 8 * sizeof(int));
    sgrt_kernel *k = NULL;
    OK(sgrt_kernel_get(p, "five", &k));
    OK(sgrt_kernel_set_arg_buffer(k, 0, b));
    sgrt_launch_dims dims = {.dims = 1, .global = {8}, .local = {8}};
    OK(sgrt_kernel_launch(k, &dims, NULL));
    int out[8];
    OK(sgrt_buffer_read(b, 0, sizeof out, out));
    OK(sgrt_buffer_free(b));
    OK(sgrt_program_free(p));
    return out[5];
}

static void make_dir(const char *name, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", dir, name);
    ck_assert_int_eq(mkdir(path, 0755), 0);
}

/* Issue 35.8: with -Id1 -Id2 and mul.h only in d2, the translation uses
 * d2's; a d1/mul.h added later is what the include search finds first, so
 * the cached translation (whose dependency, d2/mul.h, is unchanged) must
 * miss.  mul(x) is 4x + 2 in d2 and 6x + 2 in d1: out[5] is 22, then 32. */
START_TEST(include_appearing_earlier_in_the_search_is_a_miss)
{
    char d1[300], d2[300], path[300], header[320], options[700];
    make_dir("d1", d1, sizeof d1);
    make_dir("d2", d2, sizeof d2);
    snprintf(path, sizeof path, "%s/five.sgc", dir);
    write_file(path, "#include \"mul.h\"\n"
                     "kernel void five(global int *out)\n"
                     "{\n"
                     "    int i = (int)get_global_id(0);\n"
                     "    out[i] = mul(i);\n"
                     "}\n");
    snprintf(header, sizeof header, "%s/mul.h", d2);
    write_file(header, "int mul(int x) { return 4 * x + 2; }\n");
    snprintf(options, sizeof options, "-I%s -I%s", d1, d2);
    ck_assert_int_eq(run_five(path, options), 4 * 5 + 2);
    ck_assert_int_eq(run_five(path, options), 4 * 5 + 2);   /* from the cache */
    snprintf(header, sizeof header, "%s/mul.h", d1);
    write_file(header, "int mul(int x) { return 6 * x + 2; }\n");
    ck_assert_int_eq(run_five(path, options), 6 * 5 + 2);
    /* The includer's own directory comes before -I for "mul.h". */
    snprintf(header, sizeof header, "%s/mul.h", dir);
    write_file(header, "int mul(int x) { return 7 * x; }\n");
    ck_assert_int_eq(run_five(path, options), 7 * 5);
}
END_TEST

/* __has_include's answer is a dependency too: "no" until the file exists. */
START_TEST(has_include_turning_true_is_a_miss)
{
    char path[300], header[300];
    snprintf(path, sizeof path, "%s/five.sgc", dir);
    write_file(path, "#if __has_include(\"tuning.h\")\n"
                     "#include \"tuning.h\"\n"
                     "#else\n"
                     "#define BIAS 1\n"
                     "#endif\n"
                     "kernel void five(global int *out)\n"
                     "{\n"
                     "    out[get_global_id(0)] = (int)get_global_id(0) + BIAS;\n"
                     "}\n");
    ck_assert_int_eq(run_five(path, NULL), 5 + 1);
    ck_assert_int_eq(run_five(path, NULL), 5 + 1);
    snprintf(header, sizeof header, "%s/tuning.h", dir);
    write_file(header, "#define BIAS 40\n");
    ck_assert_int_eq(run_five(path, NULL), 5 + 40);
}
END_TEST

/* Issue 35.13: a FIFO where a cache entry or an included file was, and
 * sources that are no regular file or too large, fail at once (the alarm
 * turns a blocking open or an endless read into a failed test). */
START_TEST(fifos_devices_and_huge_files_are_refused)
{
    alarm(60);
    char path[300], header[300], fifo[300];
    snprintf(path, sizeof path, "%s/five.sgc", dir);
    snprintf(header, sizeof header, "%s/base.h", dir);
    write_file(header, "#define BASE 3\n");
    write_file(path, "#include \"base.h\"\n"
                     "kernel void five(global int *out)\n"
                     "{\n"
                     "    out[get_global_id(0)] = (int)get_global_id(0) * BASE;\n"
                     "}\n");
    ck_assert_int_eq(run_five(path, NULL), 15);
    /* Every entry (translation and binary) becomes a FIFO: misses, rebuilt. */
    char cmd[700];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && for f in *.bin; do rm \"$f\" && mkfifo \"$f\" || exit 1; done", dir);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_int_eq(run_five(path, NULL), 15);
    /* The included file becomes a FIFO: the cached translation misses and
     * the include search finds no file there. */
    ck_assert_int_eq(unlink(header), 0);
    ck_assert_int_eq(mkfifo(header, 0644), 0);
    sgrt_program *p = NULL;
    EXPECT(SGRT_ERROR_COMPILE, sgrt_program_create_from_file(ctx, path, NULL, &p));
    ck_assert_msg(strstr(sgrt_last_error(), "'base.h' file not found"), "%s", sgrt_last_error());
    snprintf(fifo, sizeof fifo, "%s/source.fifo", dir);
    ck_assert_int_eq(mkfifo(fifo, 0644), 0);
    EXPECT(SGRT_ERROR_NOT_REGULAR_FILE, sgrt_program_create_from_file(ctx, fifo, NULL, &p));
    ck_assert_msg(strstr(sgrt_last_error(), "is not a regular file"), "%s", sgrt_last_error());
    EXPECT(SGRT_ERROR_NOT_REGULAR_FILE,
           sgrt_program_create_from_file(ctx, "/dev/zero", NULL, &p));
    EXPECT(SGRT_ERROR_NOT_REGULAR_FILE, sgrt_program_create_from_file(ctx, dir, NULL, &p));
    /* One byte over the bound (a sparse file: no disk space). */
    snprintf(path, sizeof path, "%s/huge.sgc", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(ftruncate(fileno(f), (off_t)SGRT_SOURCE_FILE_MAX + 1), 0);
    ck_assert_int_eq(fclose(f), 0);
    EXPECT(SGRT_ERROR_FILE_TOO_LARGE, sgrt_program_create_from_file(ctx, path, NULL, &p));
    ck_assert_msg(strstr(sgrt_last_error(), "larger than 64 MiB"), "%s", sgrt_last_error());
    alarm(0);
}
END_TEST

/* A file in the test's directory whose modification time is `age` seconds
 * ago; returns its path in `path`. */
static void make_aged_file(char *path, size_t cap, const char *name, long age)
{
    snprintf(path, cap, "%s/%s", dir, name);
    write_file(path, "partial");
    struct timespec times[2] = {{.tv_sec = time(NULL) - age}, {.tv_sec = time(NULL) - age}};
    ck_assert_int_eq(utimensat(AT_FDCWD, path, times, 0), 0);
}

/* Issue 35.16: a writer killed between its write and its rename leaves
 * <entry>.tmp.<pid>.<n>; the next process's first store sweeps those of
 * writers that are gone (older than a minute) and any older than an hour,
 * and leaves the rest alone. */
START_TEST(stale_cache_temporaries_are_swept)
{
    pid_t dead = fork();
    ck_assert_int_ge(dead, 0);
    if (dead == 0)
        _exit(0);
    ck_assert_int_eq(waitpid(dead, NULL, 0), dead);
    const char *entry = "0123456789abcdef0123456789abcdef.bin.tmp";
    char name[200], gone_old[400], gone_new[400], live_old[400], live_ancient[400], other[400];
    snprintf(name, sizeof name, "%s.%ld.0", entry, (long)dead);
    make_aged_file(gone_old, sizeof gone_old, name, 120);
    snprintf(name, sizeof name, "%s.%ld.1", entry, (long)dead);
    make_aged_file(gone_new, sizeof gone_new, name, 0);
    snprintf(name, sizeof name, "%s.%ld.2", entry, (long)getppid());
    make_aged_file(live_old, sizeof live_old, name, 120);
    snprintf(name, sizeof name, "%s.%ld.3", entry, (long)getppid());
    make_aged_file(live_ancient, sizeof live_ancient, name, 2 * 3600);
    make_aged_file(other, sizeof other, "notes.tmp.1.0", 2 * 3600);
    sgrt_program *p = NULL;
    OK(sgrt_program_create_from_source(ctx, scale_src, "scale.sgc", NULL, &p));
    OK(sgrt_program_free(p));
    ck_assert_msg(access(gone_old, F_OK) != 0, "%s was kept", gone_old);
    ck_assert_msg(access(live_ancient, F_OK) != 0, "%s was kept", live_ancient);
    ck_assert_msg(access(gone_new, F_OK) == 0, "%s was removed", gone_new);
    ck_assert_msg(access(live_old, F_OK) == 0, "%s was removed", live_old);
    ck_assert_msg(access(other, F_OK) == 0, "%s was removed", other);
}
END_TEST

static Suite *compile_suite(void)
{
    Suite *s = suite_create("sgrt-compile");
    TCase *tc = rt_tcase(s, "compile", setup, teardown);
    tcase_add_test(tc, source_to_launch_with_specs_by_name);
    tcase_add_test(tc, spec_constant_sizes_local_array);
    tcase_add_test(tc, compile_errors_have_caret_text);
    tcase_add_test(tc, file_include_options_and_caches);
    tcase_add_test(tc, include_appearing_earlier_in_the_search_is_a_miss);
    tcase_add_test(tc, has_include_turning_true_is_a_miss);
    tcase_add_test(tc, fifos_devices_and_huge_files_are_refused);
    tcase_add_test(tc, stale_cache_temporaries_are_swept);
    tcase_add_test(tc, deep_source_on_a_small_thread_stack);
    return s;
}

int main(void)
{
    return rt_run_suite(compile_suite());
}
