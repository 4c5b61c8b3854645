/* test_runtime.c — sgrt against a real device (libcheck).
 *
 * Runs on the device sgrt selects (SGRT_DEVICE, default first GPU else the
 * first OpenCL CPU device: PoCL or the Intel CPU runtime here; a CUDA GPU
 * elsewhere).  Expected values are computed on the host.  Every test makes
 * its own cache directory so that cache behaviour is deterministic. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "modules.h"
#include "rt_fixture.h"
#include "sgrt_internal.h" /* the cache, for the concurrency test */

static sgrt_context *ctx;
static sgrt_device_info info;
static const char *cache_dir;

/* Fresh cache per test (each test runs in its own process under CK_FORK,
 * or sequentially under CK_FORK=no: both fine). */
static void setup(void)
{
    cache_dir = rt_cache_dir_create("test");
    unsetenv("SGRT_CACHE");
    ctx = rt_context_open(&info);
}

static void teardown(void)
{
    OK(sgrt_context_free(ctx));
    rt_cache_dir_remove();
}

static sgrt_program *build(const sgrt_module_desc *m)
{
    sgrt_program *p = NULL;
    OK(sgrt_program_create(ctx, m, &p));
    OK(sgrt_program_build(p, NULL));
    return p;
}

static sgrt_buffer *buffer_from(const void *data, size_t size)
{
    return rt_buffer_from(ctx, data, size);
}

/* ------------------------------------------------------------------ */

START_TEST(status_names_are_distinct)
{
    for (int i = 0; i < SGRT_STATUS_COUNT; i++) {
        ck_assert_str_ne(sgrt_status_name((sgrt_status)i), "SGRT_UNKNOWN_STATUS");
        for (int j = 0; j < i; j++)
            ck_assert_str_ne(sgrt_status_name((sgrt_status)i), sgrt_status_name((sgrt_status)j));
    }
    ck_assert_str_eq(sgrt_status_name(SGRT_ERROR_SPEC_AFTER_BUILD), "SGRT_ERROR_SPEC_AFTER_BUILD");
    ck_assert_str_eq(sgrt_status_name((sgrt_status)999), "SGRT_UNKNOWN_STATUS");
    ck_assert_uint_eq(sgrt_type_size(SGRT_TYPE_BOOL), 1);
    ck_assert_uint_eq(sgrt_type_size(SGRT_TYPE_LONG), 8);
    ck_assert_uint_eq(sgrt_type_size(SGRT_TYPE_DOUBLE), 8);
    ck_assert_str_eq(sgrt_type_name(SGRT_TYPE_USHORT), "ushort");
}
END_TEST

START_TEST(device_selection)
{
    size_t count = 0;
    sgrt_device *dev = NULL, *again = NULL;
    OK(sgrt_device_count(&count));
    ck_assert_uint_ge(count, 1);
    OK(sgrt_device_get(0, &dev));
    EXPECT(SGRT_ERROR_NO_DEVICE, sgrt_device_get(count, &dev));
    EXPECT(SGRT_ERROR_NO_DEVICE, sgrt_device_select("opencl:no-such-device-xyz", &dev));
    ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "no-such-device-xyz"));
    /* The selected device is found again by its backend and index. */
    char sel[64];
    snprintf(sel, sizeof sel, "%s:%u", info.backend == SGRT_BACKEND_CUDA ? "cuda" : "opencl",
             info.backend_index);
    OK(sgrt_device_select(sel, &again));
    sgrt_device *current = NULL;
    OK(sgrt_context_device(ctx, &current));
    ck_assert_ptr_eq(again, current);
    ck_assert(info.split_barriers || info.backend == SGRT_BACKEND_CUDA);
    ck_assert_uint_gt(info.max_work_group_size, 0);
    ck_assert_uint_gt(info.local_mem_size, 0);
    ck_assert(strlen(info.name) > 0);
}
END_TEST

START_TEST(no_device_from_env)
{
    sgrt_device *dev = NULL;
    setenv("SGRT_DEVICE", "opencl:nothing-matches-this", 1);
    EXPECT(SGRT_ERROR_NO_DEVICE, sgrt_device_select(NULL, &dev));
    setenv("SGRT_DEVICE", "opencl:99", 1);
    EXPECT(SGRT_ERROR_NO_DEVICE, sgrt_device_select(NULL, &dev));
    unsetenv("SGRT_DEVICE");
}
END_TEST

/* Without a driver, CUDA yields no devices rather than an error. */
START_TEST(cuda_absent_is_clean)
{
    size_t count = 0, cuda = 0;
    OK(sgrt_device_count(&count));
    for (size_t i = 0; i < count; i++) {
        sgrt_device *d;
        sgrt_device_info in;
        OK(sgrt_device_get(i, &d));
        OK(sgrt_device_get_info(d, &in));
        cuda += in.backend == SGRT_BACKEND_CUDA;
    }
    sgrt_device *d = NULL;
    if (cuda == 0)
        EXPECT(SGRT_ERROR_NO_DEVICE, sgrt_device_select("cuda", &d));
    else
        OK(sgrt_device_select("cuda", &d));
}
END_TEST

START_TEST(vector_add)
{
    enum { N = 1000 };
    float a[N], b[N], c[N], want[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.5f - 3.0f;
        b[i] = 1.0f / (float)(i + 1);
        want[i] = a[i] + b[i];
    }
    sgrt_program *p = build(&vadd_module);
    sgrt_buffer *ba = buffer_from(a, sizeof a), *bb = buffer_from(b, sizeof b);
    sgrt_buffer *bc = buffer_from(NULL, sizeof c);
    sgrt_kernel *k = NULL, *same = NULL;
    int n = N;
    OK(sgrt_kernel_get(p, "vadd", &k));
    OK(sgrt_kernel_get(p, "vadd", &same));
    ck_assert_ptr_eq(k, same);
    OK(sgrt_kernel_set_arg_buffer(k, 0, ba));
    OK(sgrt_kernel_set_arg(k, 1, sizeof bb, &bb));
    OK(sgrt_kernel_set_arg_buffer(k, 2, bc));
    OK(sgrt_kernel_set_arg_scalar(k, 3, SGRT_TYPE_INT, &n));
    sgrt_launch_dims dims = {.dims = 1, .global = {1024}, .local = {64}};
    OK(sgrt_kernel_launch(k, &dims, NULL));
    OK(sgrt_finish(ctx));
    OK(sgrt_buffer_read(bc, 0, sizeof c, c));
    for (int i = 0; i < N; i++)
        ck_assert_msg(c[i] == want[i], "c[%d] = %a, want %a", i, c[i], want[i]);
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_buffer_read(bc, 8, sizeof c, c));
    /* A context with buffers cannot be freed. */
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_context_free(ctx));
    OK(sgrt_buffer_free(ba));
    OK(sgrt_buffer_free(bb));
    OK(sgrt_buffer_free(bc));
    OK(sgrt_program_free(p));
}
END_TEST

/* Runs block_sum with `block` and `scale`, checking against the host. */
static void run_block_sum(sgrt_program *p, int block, float scale)
{
    enum { N = 256 };
    float in[N], out[N], want[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)(i % 13) - 4.0f;
    for (int g = 0; g < N / block; g++) {
        float s = 0.0f;
        for (int i = 0; i < block; i++)
            s += in[g * block + i];
        want[g] = s * scale;
    }
    sgrt_buffer *bi = buffer_from(in, sizeof in), *bo = buffer_from(NULL, sizeof out);
    sgrt_kernel *k = NULL;
    OK(sgrt_kernel_get(p, "block_sum", &k));
    OK(sgrt_kernel_set_arg_buffer(k, 0, bi));
    OK(sgrt_kernel_set_arg_buffer(k, 1, bo));
    sgrt_launch_dims dims = {.dims = 1, .global = {N}, .local = {(size_t)block}};
    OK(sgrt_kernel_launch(k, &dims, NULL));
    OK(sgrt_buffer_read(bo, 0, sizeof(float) * (size_t)(N / block), out));
    for (int g = 0; g < N / block; g++)
        ck_assert_msg(out[g] == want[g], "block %d: %a, want %a", g, out[g], want[g]);
    OK(sgrt_buffer_free(bi));
    OK(sgrt_buffer_free(bo));
}

START_TEST(spec_constants_fold_into_sizes)
{
    sgrt_program *p8 = NULL, *p32 = NULL, *pdef = NULL;
    OK(sgrt_program_create(ctx, &block_sum_module, &p8));
    OK(sgrt_program_create(ctx, &block_sum_module, &p32));
    OK(sgrt_program_create(ctx, &block_sum_module, &pdef));
    OK(sgrt_program_set_spec_int(p8, 0, 4));      /* overwritten below */
    OK(sgrt_program_set_spec_int(p8, 0, 8));
    OK(sgrt_program_set_spec_float(p8, 3, 2.5f));
    OK(sgrt_program_set_spec_int(p32, 0, 32));
    OK(sgrt_program_set_spec_float(p32, 3, 0.1f));
    OK(sgrt_program_set_spec_float(pdef, 3, -1.75f));
    OK(sgrt_program_build(p8, NULL));
    OK(sgrt_program_build(p32, NULL));
    OK(sgrt_program_build(pdef, NULL));
    const char *opts = NULL;
    OK(sgrt_program_build_options(p32, &opts));
    ck_assert_ptr_nonnull(strstr(opts, "-DSGC_SPEC_0=32"));
    ck_assert_ptr_nonnull(strstr(opts, "-DSGC_SPEC_3=0x1.99999ap-4f"));
    OK(sgrt_program_build_options(pdef, &opts));
    ck_assert_ptr_null(strstr(opts, "SGC_SPEC_0"));
    run_block_sum(p8, 8, 2.5f);
    run_block_sum(p32, 32, 0.1f);
    run_block_sum(pdef, 16, -1.75f);   /* default block size */
    OK(sgrt_program_free(p8));
    OK(sgrt_program_free(p32));
    OK(sgrt_program_free(pdef));
}
END_TEST

START_TEST(spec_constant_errors)
{
    sgrt_program *p = NULL;
    int iv = 8;
    float fv = 1.0f;
    OK(sgrt_program_create(ctx, &block_sum_module, &p));
    EXPECT(SGRT_ERROR_SPEC_UNKNOWN_ID, sgrt_program_set_spec_int(p, 1, 8));
    ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "ID 1"));
    EXPECT(SGRT_ERROR_SPEC_TYPE_MISMATCH, sgrt_program_set_spec_float(p, 0, 8.0f));
    EXPECT(SGRT_ERROR_SPEC_TYPE_MISMATCH, sgrt_program_set_spec_uint(p, 0, 8));
    EXPECT(SGRT_ERROR_SPEC_TYPE_MISMATCH, sgrt_program_set_spec(p, 0, SGRT_TYPE_INT, &iv, 2));
    EXPECT(SGRT_ERROR_SPEC_TYPE_MISMATCH, sgrt_program_set_spec_double(p, 3, 1.0));
    ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "scale"));
    /* Required and unset: refused by sgrt, naming the constant. */
    EXPECT(SGRT_ERROR_SPEC_REQUIRED_UNSET, sgrt_program_get_spec(p, 3, SGRT_TYPE_FLOAT, &fv, 4));
    EXPECT(SGRT_ERROR_SPEC_REQUIRED_UNSET, sgrt_program_build(p, NULL));
    ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "'scale'"));
    ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "ID 3"));
    /* Defaults and overwrites read back. */
    OK(sgrt_program_get_spec(p, 0, SGRT_TYPE_INT, &iv, sizeof iv));
    ck_assert_int_eq(iv, 16);
    OK(sgrt_program_set_spec_int(p, 0, 64));
    OK(sgrt_program_set_spec_int(p, 0, 8));
    OK(sgrt_program_get_spec(p, 0, SGRT_TYPE_INT, &iv, sizeof iv));
    ck_assert_int_eq(iv, 8);
    OK(sgrt_program_set_spec_float(p, 3, 3.0f));
    OK(sgrt_program_build(p, NULL));
    EXPECT(SGRT_ERROR_SPEC_AFTER_BUILD, sgrt_program_set_spec_int(p, 0, 16));
    EXPECT(SGRT_ERROR_SPEC_AFTER_BUILD, sgrt_program_set_spec_float(p, 3, 1.0f));
    /* Unknown ID and type still take precedence after the build. */
    EXPECT(SGRT_ERROR_SPEC_UNKNOWN_ID, sgrt_program_set_spec_int(p, 9, 1));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_program_build(p, NULL));
    run_block_sum(p, 8, 3.0f);
    OK(sgrt_program_free(p));
}
END_TEST

/* Values that need care to spell: extremes, non-decimal floats, bool. */
START_TEST(spec_values_round_trip)
{
    const struct {
        int64_t l;
        uint64_t ul;
        double d;
        float f;
        int32_t i;
        bool b;
    } cases[] = {
        {INT64_MIN, UINT64_MAX, 0.1, FLT_MIN, INT32_MIN, true},
        {INT64_MAX, 0, -1.0 / 3.0, 1.0f / 3.0f, INT32_MAX, false},
        {-1, 1ull << 63, DBL_MAX, -0.0f, -1, true},
        {0, 12345678901234ull, 5e-324, (float)INFINITY, 0, false},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        sgrt_program *p = NULL;
        OK(sgrt_program_create(ctx, &echo_module, &p));
        if (!info.fp64) {
            EXPECT(SGRT_ERROR_UNSUPPORTED, sgrt_program_build(p, NULL));
            OK(sgrt_program_free(p));
            return;
        }
        OK(sgrt_program_set_spec_long(p, 1, cases[c].l));
        OK(sgrt_program_set_spec_ulong(p, 2, cases[c].ul));
        OK(sgrt_program_set_spec_double(p, 5, cases[c].d));
        OK(sgrt_program_set_spec_float(p, 6, cases[c].f));
        OK(sgrt_program_set_spec_int(p, 7, cases[c].i));
        OK(sgrt_program_set_spec_bool(p, 8, cases[c].b));
        OK(sgrt_program_build(p, NULL));
        int64_t l[2];
        double d;
        float f;
        int32_t i[2];
        sgrt_buffer *bl = buffer_from(NULL, sizeof l), *bd = buffer_from(NULL, sizeof d);
        sgrt_buffer *bf = buffer_from(NULL, sizeof f), *bi = buffer_from(NULL, sizeof i);
        sgrt_kernel *k = NULL;
        OK(sgrt_kernel_get(p, "echo", &k));
        OK(sgrt_kernel_set_arg_buffer(k, 0, bl));
        OK(sgrt_kernel_set_arg_buffer(k, 1, bd));
        OK(sgrt_kernel_set_arg_buffer(k, 2, bf));
        OK(sgrt_kernel_set_arg_buffer(k, 3, bi));
        sgrt_launch_dims dims = {.dims = 1, .global = {1}, .local = {1}};
        OK(sgrt_kernel_launch(k, &dims, NULL));
        OK(sgrt_buffer_read(bl, 0, sizeof l, l));
        OK(sgrt_buffer_read(bd, 0, sizeof d, &d));
        OK(sgrt_buffer_read(bf, 0, sizeof f, &f));
        OK(sgrt_buffer_read(bi, 0, sizeof i, i));
        ck_assert_msg(l[0] == cases[c].l, "case %zu long", c);
        ck_assert_msg((uint64_t)l[1] == cases[c].ul, "case %zu ulong", c);
        ck_assert_msg(memcmp(&d, &cases[c].d, sizeof d) == 0, "case %zu: %a != %a", c, d,
                      cases[c].d);
        ck_assert_msg(memcmp(&f, &cases[c].f, sizeof f) == 0, "case %zu: %a != %a", c, f,
                      cases[c].f);
        ck_assert_int_eq(i[0], cases[c].i);
        ck_assert_int_eq(i[1], cases[c].b);
        OK(sgrt_buffer_free(bl));
        OK(sgrt_buffer_free(bd));
        OK(sgrt_buffer_free(bf));
        OK(sgrt_buffer_free(bi));
        OK(sgrt_program_free(p));
    }
}
END_TEST

START_TEST(kernel_not_found_and_not_built)
{
    sgrt_program *p = NULL;
    sgrt_kernel *k = NULL;
    OK(sgrt_program_create(ctx, &vadd_module, &p));
    EXPECT(SGRT_ERROR_NOT_BUILT, sgrt_kernel_get(p, "vadd", &k));
    OK(sgrt_program_build(p, NULL));
    EXPECT(SGRT_ERROR_KERNEL_NOT_FOUND, sgrt_kernel_get(p, "vsub", &k));
    ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "'vsub'"));
    OK(sgrt_program_free(p));
}
END_TEST

START_TEST(argument_checks)
{
    sgrt_program *p = build(&vadd_module);
    sgrt_kernel *k = NULL;
    sgrt_buffer *b = buffer_from(NULL, 64);
    sgrt_buffer *bogus = (sgrt_buffer *)&k;   /* not a buffer */
    int n = 4;
    float f = 1.0f;
    OK(sgrt_kernel_get(p, "vadd", &k));
    EXPECT(SGRT_ERROR_ARG_COUNT, sgrt_kernel_set_arg(k, 4, sizeof n, &n));
    ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "4 parameter"));
    EXPECT(SGRT_ERROR_ARG_TYPE, sgrt_kernel_set_arg(k, 0, sizeof n, &n));
    EXPECT(SGRT_ERROR_ARG_TYPE, sgrt_kernel_set_arg(k, 0, sizeof bogus, &bogus));
    EXPECT(SGRT_ERROR_ARG_TYPE, sgrt_kernel_set_arg(k, 0, 16, NULL));
    EXPECT(SGRT_ERROR_ARG_TYPE, sgrt_kernel_set_arg(k, 3, sizeof(int64_t), &n));
    EXPECT(SGRT_ERROR_ARG_TYPE, sgrt_kernel_set_arg(k, 3, sizeof b, &b));
    EXPECT(SGRT_ERROR_ARG_TYPE, sgrt_kernel_set_arg_scalar(k, 3, SGRT_TYPE_FLOAT, &f));
    EXPECT(SGRT_ERROR_ARG_TYPE, sgrt_kernel_set_arg_local(k, 2, 64));
    EXPECT(SGRT_ERROR_ARG_TYPE, sgrt_kernel_set_arg_buffer(k, 3, b));
    ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "'n'"));
    OK(sgrt_kernel_set_arg(k, 0, sizeof b, &b));
    OK(sgrt_kernel_set_arg(k, 1, sizeof b, &b));
    OK(sgrt_kernel_set_arg(k, 3, sizeof n, &n));
    sgrt_launch_dims dims = {.dims = 1, .global = {4}, .local = {4}};
    EXPECT(SGRT_ERROR_ARG_COUNT, sgrt_kernel_launch(k, &dims, NULL));
    ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "'c'"));
    OK(sgrt_kernel_set_arg_buffer(k, 2, b));
    dims.global[0] = 6;   /* not a multiple of local */
    EXPECT(SGRT_ERROR_WORK_SIZE, sgrt_kernel_launch(k, &dims, NULL));
    dims.dims = 4;
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_kernel_launch(k, &dims, NULL));
    dims = (sgrt_launch_dims){.dims = 1, .global = {16}};   /* runtime picks local */
    OK(sgrt_kernel_launch(k, &dims, NULL));
    OK(sgrt_finish(ctx));
    OK(sgrt_buffer_free(b));
    OK(sgrt_program_free(p));
}
END_TEST

/* Issue 35.14: sizes no device runs are refused before the backend sees
 * them (a {SIZE_MAX, SIZE_MAX, 2} launch used to return success). */
START_TEST(launch_sizes_out_of_range)
{
    sgrt_program *p = build(&vadd_module);
    sgrt_kernel *k = NULL;
    sgrt_buffer *b = buffer_from(NULL, 64);
    int n = 0;
    OK(sgrt_kernel_get(p, "vadd", &k));
    for (uint32_t i = 0; i < 3; i++)
        OK(sgrt_kernel_set_arg_buffer(k, i, b));
    OK(sgrt_kernel_set_arg_scalar(k, 3, SGRT_TYPE_INT, &n));
    sgrt_device *dev = NULL;
    sgrt_device_info info;
    OK(sgrt_context_get_device(ctx, &dev));
    OK(sgrt_device_get_info(dev, &info));
    const size_t big = (size_t)1 << 32;
    const sgrt_launch_dims refused[] = {
        {.dims = 3, .global = {SIZE_MAX, SIZE_MAX, 2}},            /* the product wraps */
        {.dims = 3, .global = {SIZE_MAX, SIZE_MAX, 2}, .local = {1, 1, 1}},
        {.dims = 2, .global = {big, big}},                          /* 2^64: wraps to 0 */
        {.dims = 1, .global = {SIZE_MAX / 2 + 1}, .local = {3}},    /* not a multiple */
        /* a work-group one larger than the device's maximum */
        {.dims = 1, .global = {2 * (info.max_work_group_size + 1)},
         .local = {info.max_work_group_size + 1}},
        /* per dimension: no device here takes 2^20 work-items in z */
        {.dims = 3, .global = {1, 1, (size_t)1 << 20}, .local = {1, 1, (size_t)1 << 20}},
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        EXPECT(SGRT_ERROR_WORK_SIZE, sgrt_kernel_launch(k, &refused[i], NULL));
        ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "launch of 'vadd'"));
    }
    EXPECT(SGRT_ERROR_WORK_SIZE, sgrt_kernel_launch(k, &refused[0], NULL));
    ck_assert_msg(strstr(sgrt_last_error(), "more work-items than the device addresses"), "%s",
                  sgrt_last_error());
    uint32_t size = 0;
    EXPECT(SGRT_ERROR_WORK_SIZE, sgrt_kernel_get_sub_group_size(k, &refused[1], &size));
    /* The limits themselves are fine. */
    sgrt_launch_dims fine = {.dims = 1, .global = {info.max_work_group_size},
                             .local = {info.max_work_group_size}};
    OK(sgrt_kernel_launch(k, &fine, NULL));
    OK(sgrt_finish(ctx));
    OK(sgrt_buffer_free(b));
    OK(sgrt_program_free(p));
}
END_TEST

START_TEST(build_failure_has_sgc_log)
{
    sgrt_program *p = NULL;
    const char *log = NULL;
    OK(sgrt_program_create(ctx, &broken_module, &p));
    EXPECT(SGRT_ERROR_BUILD_FAILED, sgrt_program_build(p, NULL));
    OK(sgrt_program_build_log(p, &log));
    ck_assert_msg(strstr(log, "broken.sgc:3") || strstr(log, "broken.sgc(3)"),
                  "log lacks broken.sgc line 3:\n%s", log);
    ck_assert_ptr_nonnull(strstr(log, "undeclared_name"));
    ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "broken"));
    OK(sgrt_program_free(p));
}
END_TEST

START_TEST(unsupported_sub_groups)
{
    sgrt_program *p = NULL;
    OK(sgrt_program_create(ctx, &needs_sg_module, &p));
    if (info.sub_groups) {
        OK(sgrt_program_build(p, NULL));
    } else {
        EXPECT(SGRT_ERROR_UNSUPPORTED, sgrt_program_build(p, NULL));
        ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "sub-groups"));
        ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "'vadd'"));
    }
    OK(sgrt_program_free(p));
}
END_TEST

/* The device compiler's choice for one kernel: a power of two the device
 * lists (when it lists any); the wg tier has none to give. */
START_TEST(kernel_sub_group_size)
{
    sgrt_program *p = build(&vadd_module);
    sgrt_kernel *k = NULL;
    OK(sgrt_kernel_get(p, "vadd", &k));
    sgrt_launch_dims dims = {.dims = 1, .global = {256}, .local = {64}};
    sgrt_launch_dims no_local = {.dims = 1, .global = {256}};
    uint32_t size = 0;
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_kernel_sub_group_size(NULL, &dims, &size));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_kernel_sub_group_size(k, &dims, NULL));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_kernel_sub_group_size(k, &no_local, &size));
    if (!info.sub_groups) {
        EXPECT(SGRT_ERROR_UNSUPPORTED, sgrt_kernel_sub_group_size(k, &dims, &size));
        ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "no sub-groups"));
    } else {
        OK(sgrt_kernel_sub_group_size(k, &dims, &size));
        ck_assert_msg(size > 0 && size <= 64 && (size & (size - 1)) == 0, "size %u", size);
        bool listed = info.sub_group_size_count == 0;
        for (uint32_t i = 0; i < info.sub_group_size_count; i++)
            listed |= info.sub_group_sizes[i] == size;
        ck_assert_msg(listed, "sub-group size %u is not one the device lists", size);
        if (info.backend == SGRT_BACKEND_CUDA || info.nvptx)
            ck_assert_uint_eq(size, 32);
    }
    OK(sgrt_program_free(p));
}
END_TEST

/* Work-group strategies: names, the device's set, refusal before the
 * build, the define the build passes, and errors. */
START_TEST(wg_strategies)
{
    sgrt_wg_strategy s = SGRT_WG_DEFAULT;
    ck_assert_str_eq(sgrt_wg_strategy_name(SGRT_WG_TREE), "tree");
    ck_assert_str_eq(sgrt_wg_strategy_name(SGRT_WG_BUILTIN), "builtin");
    ck_assert_str_eq(sgrt_wg_strategy_name(SGRT_WG_SUBGROUP), "subgroup");
    ck_assert_ptr_null(sgrt_wg_strategy_name(SGRT_WG_STRATEGY_COUNT));
    OK(sgrt_wg_strategy_parse("subgroup", &s));
    ck_assert_int_eq(s, SGRT_WG_SUBGROUP);
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_wg_strategy_parse("warp", &s));
    ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "'warp'"));

    /* The device's set: tree always; builtin with OpenCL C 2.0 collectives
     * only; subgroup exactly with sub-groups; the best is in the set. */
    ck_assert(info.wg_strategies & (1u << SGRT_WG_TREE));
    ck_assert_int_eq(!!(info.wg_strategies & (1u << SGRT_WG_BUILTIN)),
                     info.backend == SGRT_BACKEND_OPENCL && info.wg_collectives);
    ck_assert_int_eq(!!(info.wg_strategies & (1u << SGRT_WG_SUBGROUP)), info.sub_groups);
    ck_assert(info.wg_strategies & (1u << info.wg_strategy));
    /* The best: builtin where it exists; never subgroup on a CPU device. */
    if (info.wg_strategies & (1u << SGRT_WG_BUILTIN))
        ck_assert_int_eq(info.wg_strategy, SGRT_WG_BUILTIN);
    if (info.kind == SGRT_DEVICE_CPU)
        ck_assert_int_ne(info.wg_strategy, SGRT_WG_SUBGROUP);
    if (info.backend == SGRT_BACKEND_OPENCL && info.opencl_c_major < 2)
        ck_assert(!info.wg_collectives);

    for (int k = SGRT_WG_TREE; k < SGRT_WG_STRATEGY_COUNT; k++) {
        sgrt_program *p = NULL;
        OK(sgrt_program_create(ctx, &vadd_module, &p));
        if (info.wg_strategies & (1u << k)) {
            OK(sgrt_program_set_wg_strategy(p, (sgrt_wg_strategy)k));
            OK(sgrt_program_get_wg_strategy(p, &s));
            ck_assert_int_eq(s, k);
            OK(sgrt_program_build(p, NULL));
            const char *options = NULL;
            char define[32];
            snprintf(define, sizeof define, "-DSGC_WG_STRATEGY=%d", k);
            OK(sgrt_program_build_options(p, &options));
            ck_assert_ptr_nonnull(strstr(options, define));
            /* The tree strategy's CPU shape is picked by the device type. */
            bool cpu_define = strstr(options, "-DSGC_DEVICE_CPU=1") != NULL;
            ck_assert_int_eq(cpu_define, info.backend == SGRT_BACKEND_OPENCL &&
                                             info.kind == SGRT_DEVICE_CPU);
            EXPECT(SGRT_ERROR_SPEC_AFTER_BUILD,
                   sgrt_program_set_wg_strategy(p, (sgrt_wg_strategy)k));
        } else {
            EXPECT(SGRT_ERROR_UNSUPPORTED, sgrt_program_set_wg_strategy(p, (sgrt_wg_strategy)k));
            ck_assert_ptr_nonnull(strstr(sgrt_last_error(), sgrt_wg_strategy_name(k)));
            ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "not supported on device"));
            ck_assert_ptr_nonnull(strstr(sgrt_last_error(), info.name));
            OK(sgrt_program_get_wg_strategy(p, &s)); /* unchanged: the default */
            ck_assert_int_eq(s, info.wg_strategy);
        }
        OK(sgrt_program_free(p));
    }
    sgrt_program *p = NULL;
    OK(sgrt_program_create(ctx, &vadd_module, &p));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_program_set_wg_strategy(p, SGRT_WG_STRATEGY_COUNT));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_program_get_wg_strategy(p, NULL));
    OK(sgrt_program_set_wg_strategy(p, SGRT_WG_DEFAULT));
    OK(sgrt_program_get_wg_strategy(p, &s));
    ck_assert_int_eq(s, info.wg_strategy);
    OK(sgrt_program_free(p));
}
END_TEST

/* Kernel work-group queries of a built kernel. */
START_TEST(kernel_work_group_info)
{
    sgrt_program *p = build(&vadd_module);
    sgrt_kernel *k = NULL;
    sgrt_kernel_info ki;
    OK(sgrt_kernel_get(p, "vadd", &k));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_kernel_get_info(k, NULL));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_kernel_get_info(NULL, &ki));
    OK(sgrt_kernel_get_info(k, &ki));
    ck_assert_uint_ge(ki.max_work_group_size, 1);
    ck_assert_uint_le(ki.max_work_group_size, info.max_work_group_size);
    ck_assert_uint_ge(ki.preferred_multiple, 1);
    ck_assert_uint_ge(ki.suggested_work_group_size, 1);
    ck_assert_uint_le(ki.suggested_work_group_size, ki.max_work_group_size);
    ck_assert_uint_le(ki.local_mem_size, info.local_mem_size);
    OK(sgrt_program_free(p));
}
END_TEST

static void run_vadd_small(sgrt_program *p)
{
    float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40}, c[4];
    sgrt_buffer *ba = buffer_from(a, sizeof a), *bb = buffer_from(b, sizeof b);
    sgrt_buffer *bc = buffer_from(NULL, sizeof c);
    sgrt_kernel *k = NULL;
    int n = 4;
    OK(sgrt_kernel_get(p, "vadd", &k));
    OK(sgrt_kernel_set_arg_buffer(k, 0, ba));
    OK(sgrt_kernel_set_arg_buffer(k, 1, bb));
    OK(sgrt_kernel_set_arg_buffer(k, 2, bc));
    OK(sgrt_kernel_set_arg_scalar(k, 3, SGRT_TYPE_INT, &n));
    sgrt_launch_dims dims = {.dims = 1, .global = {4}, .local = {4}};
    OK(sgrt_kernel_launch(k, &dims, NULL));
    OK(sgrt_buffer_read(bc, 0, sizeof c, c));
    for (int i = 0; i < 4; i++)
        ck_assert(c[i] == a[i] + b[i]);
    OK(sgrt_buffer_free(ba));
    OK(sgrt_buffer_free(bb));
    OK(sgrt_buffer_free(bc));
}

static bool built_from_cache(const sgrt_module_desc *m, const char *options)
{
    sgrt_program *p = NULL;
    bool hit = false;
    OK(sgrt_program_create(ctx, m, &p));
    OK(sgrt_program_build(p, options));
    OK(sgrt_program_cache_hit(p, &hit));
    run_vadd_small(p);
    OK(sgrt_program_free(p));
    return hit;
}

START_TEST(cache_hits_and_recovers)
{
    ck_assert(!built_from_cache(&vadd_module, NULL));
    ck_assert(built_from_cache(&vadd_module, NULL));
    ck_assert(!built_from_cache(&vadd_module, "-DUNUSED=1"));   /* options are in the key */
    ck_assert(built_from_cache(&vadd_module, "-DUNUSED=1"));
    /* Corrupt every entry: they are ignored, rebuilt and rewritten. */
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "for f in '%s'/*.bin; do printf 'garbage' | dd of=\"$f\" bs=1 seek=40 conv=notrunc "
             "status=none; done",
             cache_dir);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert(!built_from_cache(&vadd_module, NULL));
    ck_assert(built_from_cache(&vadd_module, NULL));
    snprintf(cmd, sizeof cmd, "for f in '%s'/*.bin; do truncate -s 10 \"$f\"; done", cache_dir);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert(!built_from_cache(&vadd_module, NULL));
    setenv("SGRT_CACHE", "0", 1);
    ck_assert(!built_from_cache(&vadd_module, NULL));
    unsetenv("SGRT_CACHE");
}
END_TEST

/* Spec values are part of the key: another value is a miss. */
START_TEST(cache_keys_spec_values)
{
    for (int round = 0; round < 2; round++)
        for (int block = 8; block <= 16; block += 8) {
            sgrt_program *p = NULL;
            bool hit = true;
            OK(sgrt_program_create(ctx, &block_sum_module, &p));
            OK(sgrt_program_set_spec_int(p, 0, block));
            OK(sgrt_program_set_spec_float(p, 3, 1.5f));
            OK(sgrt_program_build(p, NULL));
            OK(sgrt_program_cache_hit(p, &hit));
            ck_assert_msg(hit == (round == 1), "round %d block %d", round, block);
            run_block_sum(p, block, 1.5f);
            OK(sgrt_program_free(p));
        }
}
END_TEST

START_TEST(dynamic_local_memory)
{
    enum { N = 128, WG = 32 };
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = i * 7 - 100;
    sgrt_program *p = build(&reverse_module);
    sgrt_buffer *bi = buffer_from(in, sizeof in), *bo = buffer_from(NULL, sizeof out);
    sgrt_kernel *k = NULL;
    OK(sgrt_kernel_get(p, "reverse", &k));
    OK(sgrt_kernel_set_arg_buffer(k, 0, bi));
    OK(sgrt_kernel_set_arg(k, 1, 4, NULL));   /* forces a 16-byte aligned second block */
    OK(sgrt_kernel_set_arg_local(k, 2, WG * sizeof(int)));
    OK(sgrt_kernel_set_arg_buffer(k, 3, bo));
    sgrt_launch_dims dims = {.dims = 1, .global = {N}, .local = {WG}};
    sgrt_event *ev = NULL;
    OK(sgrt_kernel_launch(k, &dims, &ev));
    OK(sgrt_event_wait(ev));
    uint64_t start = 0, end = 0;
    OK(sgrt_event_profile(ev, &start, &end));
    ck_assert_uint_ge(end, start);
    ck_assert_uint_gt(end, 0);
    OK(sgrt_event_free(ev));
    OK(sgrt_buffer_read(bo, 0, sizeof out, out));
    for (int i = 0; i < N; i++) {
        int g = i / WG, l = i % WG;
        ck_assert_int_eq(out[i], in[g * WG + (WG - 1 - l)]);
    }
    OK(sgrt_buffer_free(bi));
    OK(sgrt_buffer_free(bo));
    OK(sgrt_program_free(p));
}
END_TEST

START_TEST(profiling_events_are_ordered)
{
    sgrt_program *p = build(&vadd_module);
    enum { N = 1 << 16 };
    sgrt_buffer *b = buffer_from(NULL, N * sizeof(float));
    sgrt_kernel *k = NULL;
    int n = N;
    OK(sgrt_kernel_get(p, "vadd", &k));
    OK(sgrt_kernel_set_arg_buffer(k, 0, b));
    OK(sgrt_kernel_set_arg_buffer(k, 1, b));
    OK(sgrt_kernel_set_arg_buffer(k, 2, b));
    OK(sgrt_kernel_set_arg_scalar(k, 3, SGRT_TYPE_INT, &n));
    sgrt_launch_dims dims = {.dims = 1, .global = {N}, .local = {64}};
    sgrt_event *e1 = NULL, *e2 = NULL;
    OK(sgrt_kernel_launch(k, &dims, &e1));
    OK(sgrt_kernel_launch(k, &dims, &e2));
    uint64_t s1, t1, s2, t2;
    OK(sgrt_event_profile(e2, &s2, &t2));
    OK(sgrt_event_profile(e1, &s1, &t1));
    ck_assert_uint_le(s1, t1);
    ck_assert_uint_le(t1, s2);   /* in-order queue */
    ck_assert_uint_le(s2, t2);
    OK(sgrt_event_free(e1));
    OK(sgrt_event_free(e2));
    OK(sgrt_buffer_free(b));
    OK(sgrt_program_free(p));
}
END_TEST

/* Separate programs used from separate threads. */
static void *thread_body(void *arg)
{
    (void)arg;
    sgrt_program *p = NULL;
    if (sgrt_program_create(ctx, &vadd_module, &p) != SGRT_SUCCESS ||
        sgrt_program_build(p, NULL) != SGRT_SUCCESS)
        return (void *)1;
    run_vadd_small(p);
    sgrt_program_free(p);
    return NULL;
}

START_TEST(threads_with_own_programs)
{
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, thread_body, NULL), 0);
    for (int i = 0; i < 4; i++) {
        void *r = NULL;
        pthread_join(t[i], &r);
        ck_assert_ptr_null(r);
    }
}
END_TEST

/* Writers and readers of one cache key at once: every load sees one whole
 * entry of one writer (temporary file + rename), never a torn mix. */
enum { CACHE_THREADS = 6, CACHE_ROUNDS = 150, CACHE_BYTES = 8192 };

static void *cache_body(void *arg)
{
    unsigned id = (unsigned)(size_t)arg;
    SgrtCacheKey key = {0x5eed, 0xcafe};
    unsigned char mine[CACHE_BYTES];
    char log[32];
    memset(mine, (int)id, sizeof mine);
    snprintf(log, sizeof log, "writer %u", id);
    for (int round = 0; round < CACHE_ROUNDS; round++) {
        sgrt_cache_store(key, log, mine, sizeof mine);
        char *got_log = NULL;
        unsigned char *got = NULL;
        size_t size = 0;
        if (!sgrt_cache_load(key, &got_log, &got, &size))
            return (void *)1; /* someone's complete entry is always there */
        unsigned writer = got[0];
        char want_log[32];
        snprintf(want_log, sizeof want_log, "writer %u", writer);
        bool whole = size == CACHE_BYTES && strcmp(got_log, want_log) == 0;
        for (size_t i = 0; whole && i < size; i++)
            whole = got[i] == writer;
        free(got_log);
        free(got);
        if (!whole)
            return (void *)2;
    }
    return NULL;
}

START_TEST(cache_concurrent_writers_and_readers)
{
    pthread_t t[CACHE_THREADS];
    for (size_t i = 0; i < CACHE_THREADS; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, cache_body, (void *)(i + 1)), 0);
    for (int i = 0; i < CACHE_THREADS; i++) {
        void *r = NULL;
        pthread_join(t[i], &r);
        ck_assert_ptr_null(r);
    }
}
END_TEST

static Suite *runtime_suite(void)
{
    Suite *s = suite_create("sgrt");
    TCase *tc = rt_tcase(s, "device", setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, status_names_are_distinct);
    tcase_add_test(tc, device_selection);
    tcase_add_test(tc, no_device_from_env);
    tcase_add_test(tc, cuda_absent_is_clean);
    tcase_add_test(tc, vector_add);
    tcase_add_test(tc, spec_constants_fold_into_sizes);
    tcase_add_test(tc, spec_constant_errors);
    tcase_add_test(tc, spec_values_round_trip);
    tcase_add_test(tc, kernel_not_found_and_not_built);
    tcase_add_test(tc, argument_checks);
    tcase_add_test(tc, launch_sizes_out_of_range);
    tcase_add_test(tc, build_failure_has_sgc_log);
    tcase_add_test(tc, unsupported_sub_groups);
    tcase_add_test(tc, kernel_sub_group_size);
    tcase_add_test(tc, wg_strategies);
    tcase_add_test(tc, kernel_work_group_info);
    tcase_add_test(tc, cache_hits_and_recovers);
    tcase_add_test(tc, cache_keys_spec_values);
    tcase_add_test(tc, dynamic_local_memory);
    tcase_add_test(tc, profiling_events_are_ordered);
    tcase_add_test(tc, threads_with_own_programs);
    tcase_add_test(tc, cache_concurrent_writers_and_readers);
    return s;
}

int main(void)
{
    return rt_run_suite(runtime_suite());
}
