/* test_interop.c — sgrt mixed with raw OpenCL in one process (libcheck).
 *
 * Both directions of docs/RUNTIME.md "Interop with native OpenCL and
 * CUDA handles": an application's own
 * cl_context, queue and cl_mem buffers adopted by sgrt, an sgcc kernel
 * launched on them through sgrt and read back with raw OpenCL; and sgrt's
 * objects handed out as native handles that raw OpenCL calls use.  Also
 * the lifetimes (reference counts before and after) and the misuse
 * statuses.  Runs on the OpenCL device sgrt selects (SGRT_DEVICE: the
 * Intel CPU runtime or PoCL here); on a CUDA device it has nothing to test
 * and skips (exit 77).  Expected values are computed on the host. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "interop.h"
#include "rt_fixture.h"
#include "sgrt_opencl.h"

#define CL_OK(call) ck_assert_int_eq((call), CL_SUCCESS)

enum { N = 1000, GLOBAL = 1024, LOCAL = 64 };

static sgrt_device *device;
static cl_device_id cl_dev;
static cl_platform_id cl_plat;

static void setup(void)
{
    rt_cache_dir_create("interop");
    OK(sgrt_device_select(NULL, &device));
    OK(sgrt_device_get_cl_device(device, &cl_dev));
    CL_OK(clGetDeviceInfo(cl_dev, CL_DEVICE_PLATFORM, sizeof cl_plat, &cl_plat, NULL));
}

static void teardown(void) { rt_cache_dir_remove(); }

/* The application's side: plain OpenCL objects. */
static cl_context raw_context(void)
{
    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)cl_plat, 0};
    cl_context c = clCreateContext(props, 1, &cl_dev, NULL, NULL, &err);
    CL_OK(err);
    return c;
}

static cl_command_queue raw_queue(cl_context c, cl_command_queue_properties props)
{
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(c, cl_dev, props, &err);
    CL_OK(err);
    return q;
}

static cl_mem raw_buffer(cl_context c, size_t size, void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), size,
                              init, &err);
    CL_OK(err);
    return m;
}

/* Reference counts, to check what sgrt retains and releases. */
static cl_uint context_refs(cl_context c)
{
    cl_uint n = 0;
    CL_OK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof n, &n, NULL));
    return n;
}

static cl_uint queue_refs(cl_command_queue q)
{
    cl_uint n = 0;
    CL_OK(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof n, &n, NULL));
    return n;
}

static cl_uint mem_refs(cl_mem m)
{
    cl_uint n = 0;
    CL_OK(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof n, &n, NULL));
    return n;
}

/* Inputs whose saxpy is exact in float (small integers), fused or not. */
static void saxpy_inputs(float *x, float *y, float *want, float a, int bias)
{
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 37) - 11.0f;
        y[i] = (float)(i % 5) * 3.0f;
        want[i] = a * x[i] + y[i] + (float)bias;
    }
}

static sgrt_program *built_program(sgrt_context *ctx, int bias)
{
    sgrt_program *p = NULL;
    OK(sgrt_program_create(ctx, &interop_module, &p));
    OK(interop_set_bias(p, bias));
    OK(sgrt_program_build(p, NULL));
    return p;
}

static void expect_floats(const float *got, const float *want, int n)
{
    for (int i = 0; i < n; i++)
        ck_assert_msg(got[i] == want[i], "[%d] = %g, want %g", i, (double)got[i],
                      (double)want[i]);
}

/* ------------------------------------------------------------------ */

/* The application's context, queue and buffers; sgrt launches on them;
 * raw OpenCL reads the result.  sgrt retains and releases, never frees. */
START_TEST(adopt_application_objects)
{
    float x[N], y[N], want[N], got[N];
    saxpy_inputs(x, y, want, 2.0f, 5);
    cl_context app_ctx = raw_context();
    cl_command_queue app_q = raw_queue(app_ctx, 0);
    cl_mem mx = raw_buffer(app_ctx, sizeof x, x), my = raw_buffer(app_ctx, sizeof y, y);
    /* Some implementations (PoCL) count the context's queues and buffers in
     * its reference count: compare with the count before the adoption. */
    cl_uint base = context_refs(app_ctx), queue_base = queue_refs(app_q);

    sgrt_context *ctx = NULL;
    OK(sgrt_context_create_from_cl(app_ctx, cl_dev, app_q, &ctx));
    ck_assert_uint_eq(context_refs(app_ctx), base + 1);
    ck_assert_uint_eq(queue_refs(app_q), queue_base + 1);
    cl_context got_ctx = NULL;
    cl_command_queue got_q = NULL;
    OK(sgrt_context_get_cl_context(ctx, &got_ctx));
    OK(sgrt_context_get_cl_queue(ctx, &got_q));
    ck_assert_ptr_eq(got_ctx, app_ctx);
    ck_assert_ptr_eq(got_q, app_q);
    sgrt_device *dev = NULL;
    OK(sgrt_context_device(ctx, &dev));
    ck_assert_ptr_eq(dev, device);

    sgrt_buffer *bx = NULL, *by = NULL;
    OK(sgrt_buffer_create_from_cl_mem(ctx, mx, &bx));
    OK(sgrt_buffer_create_from_cl_mem(ctx, my, &by));
    ck_assert_uint_eq(mem_refs(mx), 2);
    ck_assert_uint_eq(sgrt_buffer_size(bx), sizeof x);
    cl_mem back = NULL;
    OK(sgrt_buffer_get_cl_mem(bx, &back));
    ck_assert_ptr_eq(back, mx);

    sgrt_program *p = built_program(ctx, 5);
    sgrt_launch_dims dims = {.dims = 1, .global = {GLOBAL}, .local = {LOCAL}};
    OK(interop_launch_saxpy(p, &dims, bx, by, 2.0f, N, NULL));
    /* Same in-order queue: the application's blocking read sees the result. */
    CL_OK(clEnqueueReadBuffer(app_q, my, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    expect_floats(got, want, N);

    /* Freeing the sgrt objects drops only sgrt's references. */
    OK(sgrt_buffer_free(bx));
    OK(sgrt_buffer_free(by));
    ck_assert_uint_eq(mem_refs(mx), 1);
    OK(sgrt_program_free(p));
    /* Finished commands may still hold the queue (PoCL) until the end:
     * sgrt_context_free must drop exactly its own reference. */
    CL_OK(clFinish(app_q));
    cl_uint context_before = context_refs(app_ctx), queue_before = queue_refs(app_q);
    OK(sgrt_context_free(ctx));
    ck_assert_uint_eq(context_refs(app_ctx), context_before - 1);
    ck_assert_uint_eq(queue_refs(app_q), queue_before - 1);
    memset(got, 0, sizeof got);
    CL_OK(clEnqueueReadBuffer(app_q, my, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    expect_floats(got, want, N);
    CL_OK(clReleaseMemObject(mx));
    CL_OK(clReleaseMemObject(my));
    CL_OK(clReleaseCommandQueue(app_q));
    CL_OK(clReleaseContext(app_ctx));
}
END_TEST

/* The application may drop its references right after the adoption:
 * sgrt's keep the objects alive.  A NULL queue makes sgrt create its own
 * (profiling on) in the application's context. */
START_TEST(adopted_objects_outlive_the_application_references)
{
    float x[N], y[N], want[N], got[N];
    saxpy_inputs(x, y, want, -3.0f, 0);
    cl_context app_ctx = raw_context();
    cl_mem mx = raw_buffer(app_ctx, sizeof x, x);
    sgrt_context *ctx = NULL;
    sgrt_buffer *bx = NULL, *by = NULL;
    OK(sgrt_context_create_from_cl(app_ctx, cl_dev, NULL, &ctx));
    OK(sgrt_buffer_create_from_cl_mem(ctx, mx, &bx));
    CL_OK(clReleaseMemObject(mx));
    CL_OK(clReleaseContext(app_ctx));

    cl_command_queue own = NULL;
    OK(sgrt_context_get_cl_queue(ctx, &own));
    ck_assert_ptr_nonnull(own);
    OK(sgrt_buffer_create(ctx, sizeof y, &by));   /* an sgrt buffer beside the wrapped one */
    OK(sgrt_buffer_write(by, 0, sizeof y, y));
    sgrt_program *p = built_program(ctx, 0);
    sgrt_launch_dims dims = {.dims = 1, .global = {GLOBAL}, .local = {LOCAL}};
    sgrt_event *ev = NULL;
    OK(interop_launch_saxpy(p, &dims, bx, by, -3.0f, N, &ev));
    uint64_t start = 0, end = 0;
    OK(sgrt_event_profile(ev, &start, &end));   /* sgrt's own queue has profiling */
    ck_assert_uint_le(start, end);
    OK(sgrt_buffer_read(by, 0, sizeof got, got));
    expect_floats(got, want, N);
    OK(sgrt_event_free(ev));
    OK(sgrt_buffer_free(bx));
    OK(sgrt_buffer_free(by));
    OK(sgrt_program_free(p));
    OK(sgrt_context_free(ctx));
}
END_TEST

/* The other way: sgrt's objects as native handles in raw OpenCL calls. */
static const char add_index_cl[] =
    "__kernel void add_index(__global float *y) { size_t i = get_global_id(0); y[i] += (float)i; }\n";

static void raw_add_index(cl_context c, cl_command_queue q, cl_mem y, size_t n)
{
    cl_int err;
    const char *src = add_index_cl;
    cl_program prog = clCreateProgramWithSource(c, 1, &src, NULL, &err);
    CL_OK(err);
    CL_OK(clBuildProgram(prog, 1, &cl_dev, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(prog, "add_index", &err);
    CL_OK(err);
    CL_OK(clSetKernelArg(k, 0, sizeof y, &y));
    CL_OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CL_OK(clReleaseKernel(k));
    CL_OK(clReleaseProgram(prog));
}

START_TEST(native_handles_of_sgrt_objects)
{
    float x[N], y[N], want[N], got[N];
    saxpy_inputs(x, y, want, 0.5f, 1);
    for (int i = 0; i < N; i++)
        want[i] += (float)i;   /* raw add_index runs after saxpy */
    sgrt_context *ctx = NULL;
    OK(sgrt_context_create(device, &ctx));
    cl_context c = NULL;
    cl_command_queue q = NULL;
    OK(sgrt_context_get_cl_context(ctx, &c));
    OK(sgrt_context_get_cl_queue(ctx, &q));
    cl_device_id qdev = NULL;
    CL_OK(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL));
    ck_assert_ptr_eq(qdev, cl_dev);

    sgrt_buffer *bx = NULL, *by = NULL;
    OK(sgrt_buffer_create(ctx, sizeof x, &bx));
    OK(sgrt_buffer_create(ctx, sizeof y, &by));
    cl_mem mx = NULL, my = NULL;
    OK(sgrt_buffer_get_cl_mem(bx, &mx));
    OK(sgrt_buffer_get_cl_mem(by, &my));
    CL_OK(clEnqueueWriteBuffer(q, mx, CL_TRUE, 0, sizeof x, x, 0, NULL, NULL));
    CL_OK(clEnqueueWriteBuffer(q, my, CL_TRUE, 0, sizeof y, y, 0, NULL, NULL));

    sgrt_program *p = built_program(ctx, 1);
    sgrt_launch_dims dims = {.dims = 1, .global = {GLOBAL}, .local = {LOCAL}};
    sgrt_event *ev = NULL;
    OK(interop_launch_saxpy(p, &dims, bx, by, 0.5f, N, &ev));
    cl_event cev = NULL;
    OK(sgrt_event_get_cl_event(ev, &cev));
    CL_OK(clWaitForEvents(1, &cev));
    cl_command_queue evq = NULL;
    CL_OK(clGetEventInfo(cev, CL_EVENT_COMMAND_QUEUE, sizeof evq, &evq, NULL));
    ck_assert_ptr_eq(evq, q);
    raw_add_index(c, q, my, N);
    OK(sgrt_buffer_read(by, 0, sizeof got, got));   /* in order after the raw kernel */
    expect_floats(got, want, N);

    /* Program and kernel handles name the same objects. */
    cl_program cp = NULL;
    cl_kernel ck = NULL;
    sgrt_kernel *k = NULL;
    OK(sgrt_program_get_cl_program(p, &cp));
    cl_context pc = NULL;
    CL_OK(clGetProgramInfo(cp, CL_PROGRAM_CONTEXT, sizeof pc, &pc, NULL));
    ck_assert_ptr_eq(pc, c);
    OK(sgrt_kernel_get(p, "saxpy", &k));
    OK(sgrt_kernel_get_cl_kernel(k, &ck));
    char name[64] = "";
    CL_OK(clGetKernelInfo(ck, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
    ck_assert_str_eq(name, "saxpy");
    /* The cl_kernel carries the arguments sgrt set: enqueue it raw once more. */
    size_t global = GLOBAL, local = LOCAL;
    CL_OK(clEnqueueNDRangeKernel(q, ck, 1, NULL, &global, &local, 0, NULL, NULL));
    CL_OK(clFinish(q));
    OK(sgrt_buffer_read(by, 0, sizeof got, got));
    for (int i = 0; i < N; i++)
        ck_assert_msg(got[i] == 0.5f * x[i] + want[i] + 1.0f, "[%d] = %g", i, (double)got[i]);

    OK(sgrt_event_free(ev));
    OK(sgrt_program_free(p));
    OK(sgrt_buffer_free(bx));
    OK(sgrt_buffer_free(by));
    OK(sgrt_context_free(ctx));
}
END_TEST

/* A kernel with dynamic local memory on wrapped buffers (group sums). */
START_TEST(local_memory_kernel_on_wrapped_buffers)
{
    enum { GROUPS = GLOBAL / LOCAL };
    int in[GLOBAL], out[GROUPS], want[GROUPS] = {0};
    for (int i = 0; i < GLOBAL; i++) {
        in[i] = (i * 7919) % 101 - 50;
        want[i / LOCAL] += in[i];
    }
    cl_context app_ctx = raw_context();
    cl_command_queue app_q = raw_queue(app_ctx, CL_QUEUE_PROFILING_ENABLE);
    cl_mem min = raw_buffer(app_ctx, sizeof in, in), mout = raw_buffer(app_ctx, sizeof out, NULL);
    sgrt_context *ctx = NULL;
    sgrt_buffer *bin = NULL, *bout = NULL;
    OK(sgrt_context_create_from_cl(app_ctx, cl_dev, app_q, &ctx));
    OK(sgrt_buffer_create_from_cl_mem(ctx, min, &bin));
    OK(sgrt_buffer_create_from_cl_mem(ctx, mout, &bout));
    sgrt_program *p = built_program(ctx, 0);
    sgrt_launch_dims dims = {.dims = 1, .global = {GLOBAL}, .local = {LOCAL}};
    OK(interop_launch_group_sums(p, &dims, bin, bout, LOCAL * sizeof(int), NULL));
    CL_OK(clEnqueueReadBuffer(app_q, mout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int g = 0; g < GROUPS; g++)
        ck_assert_int_eq(out[g], want[g]);
    OK(sgrt_program_free(p));
    OK(sgrt_buffer_free(bin));
    OK(sgrt_buffer_free(bout));
    OK(sgrt_context_free(ctx));
    CL_OK(clReleaseMemObject(min));
    CL_OK(clReleaseMemObject(mout));
    CL_OK(clReleaseCommandQueue(app_q));
    CL_OK(clReleaseContext(app_ctx));
}
END_TEST

/* NULL handles, handles that do not belong together, the wrong API. */
START_TEST(interop_misuse)
{
    cl_context a = raw_context(), b = raw_context();
    cl_command_queue qb = raw_queue(b, 0);
    cl_mem mb = raw_buffer(b, 64, NULL);
    sgrt_context *ctx = NULL;
    sgrt_buffer *buf = NULL;
    cl_uint base = context_refs(a);
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_context_create_from_cl(NULL, cl_dev, NULL, &ctx));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_context_create_from_cl(a, NULL, NULL, &ctx));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_context_create_from_cl(a, cl_dev, NULL, NULL));
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_context_create_from_cl(a, cl_dev, qb, &ctx));
    ck_assert_uint_eq(queue_refs(qb), 1);   /* a refusal takes no reference */
    ck_assert_uint_eq(context_refs(a), base);
    /* Not a device sgrt lists: a host pointer posing as one. */
    int not_a_device = 0;
    EXPECT(SGRT_ERROR_INVALID_HANDLE,
           sgrt_context_create_from_cl(a, (cl_device_id)(void *)&not_a_device, NULL, &ctx));
    /* A device of another platform is not in the context. */
    size_t count = 0;
    OK(sgrt_device_count(&count));
    for (size_t i = 0; i < count; i++) {
        sgrt_device *other = NULL;
        cl_device_id other_id = NULL;
        OK(sgrt_device_get(i, &other));
        if (other != device && sgrt_device_get_cl_device(other, &other_id) == SGRT_SUCCESS)
            EXPECT(SGRT_ERROR_HANDLE_MISMATCH,
                   sgrt_context_create_from_cl(a, other_id, NULL, &ctx));
    }
    cl_int err;
    cl_command_queue ooo =
        clCreateCommandQueue(a, cl_dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (ooo) {
        EXPECT(SGRT_ERROR_UNSUPPORTED, sgrt_context_create_from_cl(a, cl_dev, ooo, &ctx));
        CL_OK(clReleaseCommandQueue(ooo));
    }

    OK(sgrt_context_create_from_cl(a, cl_dev, NULL, &ctx));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_buffer_create_from_cl_mem(ctx, NULL, &buf));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_buffer_create_from_cl_mem(NULL, mb, &buf));
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_buffer_create_from_cl_mem(ctx, mb, &buf));
    ck_assert_uint_eq(mem_refs(mb), 1);
    int fake = 0;
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_buffer_create_from_cuda(ctx, &fake, 4, &buf));

    /* CUDA handles of OpenCL objects, and a program before its build. */
    void *h = NULL;
    sgrt_program *p = NULL;
    OK(sgrt_buffer_create(ctx, 64, &buf));
    OK(sgrt_program_create(ctx, &interop_module, &p));
    EXPECT(SGRT_ERROR_NOT_BUILT, sgrt_program_get_native(p, SGRT_BACKEND_OPENCL, &h));
    OK(sgrt_program_build(p, NULL));
    sgrt_kernel *k = NULL;
    OK(sgrt_kernel_get(p, "saxpy", &k));
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_device_get_native(device, SGRT_BACKEND_CUDA, &h));
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_context_get_native(ctx, SGRT_BACKEND_CUDA, &h));
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_context_get_native_queue(ctx, SGRT_BACKEND_CUDA, &h));
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_buffer_get_native(buf, SGRT_BACKEND_CUDA, &h));
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_program_get_native(p, SGRT_BACKEND_CUDA, &h));
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_kernel_get_native(k, SGRT_BACKEND_CUDA, &h));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_kernel_get_native(k, SGRT_BACKEND_OPENCL, NULL));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_event_get_native(NULL, SGRT_BACKEND_OPENCL, &h));
    OK(sgrt_program_free(p));
    OK(sgrt_buffer_free(buf));
    OK(sgrt_context_free(ctx));

    CL_OK(clReleaseMemObject(mb));
    CL_OK(clReleaseCommandQueue(qb));
    CL_OK(clReleaseContext(a));
    CL_OK(clReleaseContext(b));
}
END_TEST

/* Without a CUDA driver, adopting a CUDA context is NO_DEVICE. */
START_TEST(cuda_adoption_without_driver)
{
    sgrt_device *cuda = NULL;
    if (sgrt_device_select("cuda", &cuda) == SGRT_SUCCESS)
        return;   /* a CUDA machine: tests/runtime/test_interop_cuda covers it */
    int fake = 0;
    sgrt_context *ctx = NULL;
    EXPECT(SGRT_ERROR_NO_DEVICE, sgrt_context_create_from_cuda(&fake, NULL, &ctx));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_context_create_from_cuda(NULL, NULL, &ctx));
}
END_TEST

static Suite *interop_suite(void)
{
    Suite *s = suite_create("sgrt-interop");
    TCase *tc = rt_tcase(s, "opencl", setup, teardown);
    tcase_add_test(tc, adopt_application_objects);
    tcase_add_test(tc, adopted_objects_outlive_the_application_references);
    tcase_add_test(tc, native_handles_of_sgrt_objects);
    tcase_add_test(tc, local_memory_kernel_on_wrapped_buffers);
    tcase_add_test(tc, interop_misuse);
    tcase_add_test(tc, cuda_adoption_without_driver);
    return s;
}

/* Whether sgrt selects an OpenCL device, asked in a child process: an
 * OpenCL runtime started before Check forks its tests does not survive
 * the fork (PoCL's worker threads stay in the parent). */
static bool selects_opencl(void)
{
    pid_t child = fork();
    if (child == 0) {
        sgrt_device *dev = NULL;
        sgrt_device_info info;
        bool opencl = sgrt_device_select(NULL, &dev) == SGRT_SUCCESS &&
                      sgrt_device_get_info(dev, &info) == SGRT_SUCCESS &&
                      info.backend == SGRT_BACKEND_OPENCL;
        _exit(opencl ? 0 : 1);
    }
    int status = 0;
    return child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}

int main(void)
{
    if (!selects_opencl()) {
        printf("test_interop: the selected device is not an OpenCL device; skipped\n");
        return 77;
    }
    return rt_run_suite(interop_suite());
}
