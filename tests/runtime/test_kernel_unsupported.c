/* test_kernel_unsupported.c — a kernel sgcc left out of one backend's source
 * (sgrt_kernel_desc.unsupported, docs/RUNTIME.md) is refused by
 * sgrt_kernel_get with SGRT_ERROR_KERNEL_UNSUPPORTED and its reason, while
 * the program builds and the module's other kernels run.
 *
 * left_out.h is `sgcc --header` of left_out.sgc: on CUDA its 'sixteen' is
 * refused as generated (CUDA warps have 32 threads).  On any backend, a copy
 * of the descriptor that marks 'sixteen' unsupported on the device's own
 * backend, with a required sub-group size no device has (3), shows the
 * refusal path and that the build does not check a kernel that is not in
 * the source. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "left_out.h"

#define OK(call) ck_assert_msg((call) == SGRT_SUCCESS, "%s: %s", #call, sgrt_last_error())

static sgrt_device *dev;
static sgrt_context *ctx;
static sgrt_device_info info;

static void setup(void)
{
    OK(sgrt_context_create(dev, &ctx));
}

static void teardown(void)
{
    sgrt_context_free(ctx);
}

enum { N = 64 };

/* 'lanes' runs where the device has sub-groups: out[i] = i + 1. */
static void run_lanes(sgrt_program *program)
{
    int host[N];
    sgrt_buffer *out = NULL;
    sgrt_launch_dims dims = {.dims = 1, .global = {N}, .local = {0}};
    OK(sgrt_buffer_create(ctx, sizeof host, &out));
    OK(left_out_launch_lanes(program, &dims, out, NULL));
    OK(sgrt_buffer_read(out, 0, sizeof host, host));
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(host[i], i + 1);
    sgrt_buffer_free(out);
}

/* 'plain' still runs: out[i] = value + i. */
static void run_plain(sgrt_program *program)
{
    int host[N];
    sgrt_buffer *out = NULL;
    sgrt_launch_dims dims = {.dims = 1, .global = {N}, .local = {0}};
    OK(sgrt_buffer_create(ctx, sizeof host, &out));
    OK(left_out_launch_plain(program, &dims, out, 100, NULL));
    OK(sgrt_buffer_read(out, 0, sizeof host, host));
    for (int i = 0; i < N; i++)
        ck_assert_int_eq(host[i], 100 + i);
    sgrt_buffer_free(out);
}

static void expect_refused(sgrt_program *program, const char *reason)
{
    sgrt_kernel *kernel = NULL;
    ck_assert_int_eq(sgrt_kernel_get(program, "sixteen", &kernel), SGRT_ERROR_KERNEL_UNSUPPORTED);
    ck_assert_ptr_null(kernel);
    ck_assert_msg(strstr(sgrt_last_error(), reason) && strstr(sgrt_last_error(), "'sixteen'"),
                  "message: %s", sgrt_last_error());
    ck_assert_str_eq(sgrt_status_name(SGRT_ERROR_KERNEL_UNSUPPORTED),
                     "SGRT_ERROR_KERNEL_UNSUPPORTED");
    /* The launcher reports the same status. */
    sgrt_launch_dims dims = {.dims = 1, .global = {16}, .local = {0}};
    ck_assert_int_eq(left_out_launch_sixteen(program, &dims, (sgrt_buffer *)NULL, NULL),
                     SGRT_ERROR_KERNEL_UNSUPPORTED);
}

START_TEST(generated_descriptor)
{
    const sgrt_kernel_desc *sixteen = &left_out_kernels[0];
    ck_assert_str_eq(sixteen->name, "sixteen");
    ck_assert_ptr_null(sixteen->unsupported[SGRT_BACKEND_OPENCL]);
    ck_assert_str_eq(sixteen->unsupported[SGRT_BACKEND_CUDA],
                     "requires sub-group size 16, but CUDA warps have 32 threads");
    ck_assert_ptr_null(left_out_kernels[1].unsupported[SGRT_BACKEND_OPENCL]);
    ck_assert_ptr_null(left_out_kernels[1].unsupported[SGRT_BACKEND_CUDA]);
    ck_assert_ptr_null(strstr(left_out_cuda_source, "sixteen("));
    ck_assert_ptr_nonnull(strstr(left_out_opencl_source, "sixteen("));
    if (info.backend != SGRT_BACKEND_CUDA)
        return;   /* OpenCL runs 'sixteen' where the device has size 16 */
    sgrt_program *program = NULL;
    OK(sgrt_program_create(ctx, &left_out_module, &program));
    OK(sgrt_program_build(program, NULL));
    expect_refused(program, "CUDA warps have 32 threads");
    run_plain(program);
    sgrt_program_free(program);
}
END_TEST

/* The device refuses a kernel of the generated module that its backend's
 * source has: on OpenCL the build leaves it out (-DSGC_SKIP_UNSUPPORTED_
 * KERNELS) and the others run; sgrt_kernel_get names it and the reason. */
START_TEST(refused_by_the_device)
{
    sgrt_program *program = NULL;
    OK(sgrt_program_create(ctx, &left_out_module, &program));
    OK(sgrt_program_build(program, NULL));
    run_plain(program);
    sgrt_kernel *kernel = NULL;
    if (info.sub_groups) {
        run_lanes(program);
    } else {
        ck_assert_int_eq(sgrt_kernel_get(program, "lanes", &kernel),
                         SGRT_ERROR_KERNEL_UNSUPPORTED);
        ck_assert_ptr_null(kernel);
        const char *msg = sgrt_last_error();
        ck_assert_msg(strstr(msg, "kernel 'lanes' needs sub-groups") &&
                          strstr(msg, "not supported on device"),
                      "message: %s", msg);
        sgrt_launch_dims dims = {.dims = 1, .global = {16}, .local = {0}};
        ck_assert_int_eq(left_out_launch_lanes(program, &dims, (sgrt_buffer *)NULL, NULL),
                         SGRT_ERROR_KERNEL_UNSUPPORTED);
    }
    if (info.backend == SGRT_BACKEND_OPENCL && info.nvptx) {
        ck_assert_int_eq(sgrt_kernel_get(program, "sixteen", &kernel),
                         SGRT_ERROR_KERNEL_UNSUPPORTED);
        ck_assert_msg(strstr(sgrt_last_error(), "kernel 'sixteen' requires sub-group size 16"),
                      "message: %s", sgrt_last_error());
    }
    sgrt_program_free(program);
}
END_TEST

START_TEST(refused_on_the_devices_backend)
{
    sgrt_kernel_desc kernels[3];
    memcpy(kernels, left_out_kernels, sizeof kernels);
    kernels[0].reqd_sub_group_size = 3;   /* no device has it: the build must not look */
    kernels[0].unsupported[info.backend] = "left out for this test";
    sgrt_module_desc module = left_out_module;
    module.kernels = kernels;
    sgrt_program *program = NULL;
    OK(sgrt_program_create(ctx, &module, &program));
    OK(sgrt_program_build(program, NULL));
    expect_refused(program, "left out for this test");
    run_plain(program);
    sgrt_program_free(program);
}
END_TEST

int main(void)
{
    if (sgrt_device_select(NULL, &dev) != SGRT_SUCCESS ||
        sgrt_device_get_info(dev, &info) != SGRT_SUCCESS) {
        fprintf(stderr, "no device: %s\n", sgrt_last_error());
        return 77;
    }
    Suite *s = suite_create("kernel_unsupported");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, generated_descriptor);
    tcase_add_test(tc, refused_on_the_devices_backend);
    tcase_add_test(tc, refused_by_the_device);
    suite_add_tcase(s, tc);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
