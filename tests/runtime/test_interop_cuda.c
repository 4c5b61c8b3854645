/* test_interop_cuda.c — sgrt mixed with raw CUDA driver calls in one
 * process, on an NVIDIA GPU (run by tests/runtime/gpu_run.sh).
 *
 * The CUDA twin of test_interop.c: the application's primary context,
 * stream and cuMemAlloc memory adopted by sgrt, an sgcc kernel launched on
 * them through sgrt (NVRTC), the result read with cuMemcpyDtoH; sgrt's
 * objects handed out as CUcontext / CUstream / CUdeviceptr / CUfunction /
 * CUevent and used by raw calls; lifetimes (the application's objects stay
 * usable after the sgrt ones are freed); misuse statuses; and a program
 * compiled from SGC text at run time.  The driver is opened with dlopen,
 * as libsgrt does, so this builds where cuda.h exists but no driver does;
 * without a CUDA device it skips (exit 77).  Prints TAP. */
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interop.h"
#include "sgrt_cuda.h"

/* The driver entry points used, by their versioned symbols. */
#define RAW_FUNCTIONS(X)                                                                   \
    X(cuInit, "cuInit", (unsigned))                                                        \
    X(cuDeviceGet, "cuDeviceGet", (CUdevice *, int))                                       \
    X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", (CUcontext *, CUdevice))       \
    X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", (CUdevice))               \
    X(cuCtxDestroy, "cuCtxDestroy_v2", (CUcontext))                                        \
    X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", (CUcontext))                                \
    X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", (CUcontext *))                                \
    X(cuStreamCreate, "cuStreamCreate", (CUstream *, unsigned))                            \
    X(cuStreamDestroy, "cuStreamDestroy_v2", (CUstream))                                   \
    X(cuStreamSynchronize, "cuStreamSynchronize", (CUstream))                              \
    X(cuStreamWaitEvent, "cuStreamWaitEvent", (CUstream, CUevent, unsigned))               \
    X(cuEventSynchronize, "cuEventSynchronize", (CUevent))                                 \
    X(cuMemAlloc, "cuMemAlloc_v2", (CUdeviceptr *, size_t))                                \
    X(cuMemFree, "cuMemFree_v2", (CUdeviceptr))                                            \
    X(cuMemcpyHtoD, "cuMemcpyHtoD_v2", (CUdeviceptr, const void *, size_t))                \
    X(cuMemcpyDtoH, "cuMemcpyDtoH_v2", (void *, CUdeviceptr, size_t))                      \
    X(cuLaunchKernel, "cuLaunchKernel",                                                    \
      (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,   \
       CUstream, void **, void **))

static struct {
#define X(name, sym, params) CUresult(*name) params;
    RAW_FUNCTIONS(X)
#undef X
    /* Optional: the pre-13 signature, for a second context in misuse(). */
    CUresult (*ctx_create)(CUcontext *, unsigned, CUdevice);
} raw;

static int tests, failures;

static void check(const char *what, bool ok, const char *detail)
{
    printf("%s %d - %s\n", ok ? "ok" : "not ok", ++tests, what);
    if (!ok) {
        failures++;
        printf("#   %s\n", detail ? detail : "");
    }
}

#define OK(call) check(#call, (call) == SGRT_SUCCESS, sgrt_last_error())
#define EXPECT(status, call) check(#call " is " #status, (call) == (status), sgrt_last_error())
#define CU_OK(call) check(#call, (call) == CUDA_SUCCESS, "CUDA error")

enum { N = 1000, GLOBAL = 1024, LOCAL = 128 };

static bool load_driver(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    bool ok = lib != NULL;
#define X(name, sym, params)                            \
    if (ok && !(*(void **)&raw.name = dlsym(lib, sym))) \
        ok = false;
    RAW_FUNCTIONS(X)
#undef X
    if (ok)
        *(void **)&raw.ctx_create = dlsym(lib, "cuCtxCreate_v2");
    return ok && raw.cuInit(0) == CUDA_SUCCESS;
}

static void saxpy_inputs(float *x, float *y, float *want, float a, int bias)
{
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 37) - 11.0f;
        y[i] = (float)(i % 5) * 3.0f;
        want[i] = a * x[i] + y[i] + (float)bias;
    }
}

static bool same(const float *got, const float *want, int n)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            printf("#   [%d] = %g, want %g\n", i, (double)got[i], (double)want[i]);
            return false;
        }
    return true;
}

static sgrt_program *built(sgrt_context *ctx, int bias)
{
    sgrt_program *p = NULL;
    OK(sgrt_program_create(ctx, &interop_module, &p));
    OK(interop_set_bias(p, bias));
    OK(sgrt_program_build(p, NULL));
    return p;
}

/* The application's context, stream and memory; sgrt launches on them. */
static void adopt_application_objects(CUdevice dev, CUcontext app)
{
    float x[N], y[N], want[N], got[N];
    saxpy_inputs(x, y, want, 2.0f, 5);
    CUstream stream = NULL;
    CUdeviceptr dx = 0, dy = 0;
    CU_OK(raw.cuCtxPushCurrent(app));
    CU_OK(raw.cuStreamCreate(&stream, 0));
    CU_OK(raw.cuMemAlloc(&dx, sizeof x));
    CU_OK(raw.cuMemAlloc(&dy, sizeof y));
    CU_OK(raw.cuMemcpyHtoD(dx, x, sizeof x));
    CU_OK(raw.cuMemcpyHtoD(dy, y, sizeof y));

    sgrt_context *ctx = NULL;
    OK(sgrt_context_create_from_cu(app, stream, &ctx));
    CUcontext got_ctx = NULL;
    CUstream got_stream = NULL;
    CUdevice got_dev = -1;
    sgrt_device *sdev = NULL;
    OK(sgrt_context_get_cu_context(ctx, &got_ctx));
    OK(sgrt_context_get_cu_stream(ctx, &got_stream));
    OK(sgrt_context_device(ctx, &sdev));
    OK(sgrt_device_get_cu_device(sdev, &got_dev));
    check("adopted handles come back", got_ctx == app && got_stream == stream && got_dev == dev,
          NULL);

    sgrt_buffer *bx = NULL, *by = NULL;
    OK(sgrt_buffer_create_from_cu_ptr(ctx, dx, sizeof x, &bx));
    OK(sgrt_buffer_create_from_cu_ptr(ctx, dy, sizeof y, &by));
    CUdeviceptr back = 0;
    OK(sgrt_buffer_get_cu_ptr(bx, &back));
    check("wrapped pointer comes back", back == dx, NULL);
    sgrt_buffer *bad = NULL;
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT,
           sgrt_buffer_create_from_cu_ptr(ctx, dx + 64, (size_t)64 << 20, &bad));
    EXPECT(SGRT_ERROR_INVALID_HANDLE, sgrt_buffer_create_from_cuda(ctx, x, sizeof x, &bad));

    sgrt_program *p = built(ctx, 5);
    sgrt_launch_dims dims = {.dims = 1, .global = {GLOBAL}, .local = {LOCAL}};
    OK(interop_launch_saxpy(p, &dims, bx, by, 2.0f, N, NULL));
    CU_OK(raw.cuStreamSynchronize(stream));
    CU_OK(raw.cuMemcpyDtoH(got, dy, sizeof got));
    check("sgrt kernel on the application's memory and stream", same(got, want, N), NULL);

    OK(sgrt_buffer_free(bx));
    OK(sgrt_buffer_free(by));
    OK(sgrt_program_free(p));
    OK(sgrt_context_free(ctx));
    /* The application's objects outlive the sgrt ones. */
    memset(got, 0, sizeof got);
    CU_OK(raw.cuStreamSynchronize(stream));
    CU_OK(raw.cuMemcpyDtoH(got, dy, sizeof got));
    check("memory intact after sgrt_buffer_free", same(got, want, N), NULL);

    /* The legacy default stream (NULL) may be adopted too. */
    OK(sgrt_context_create_from_cu(app, NULL, &ctx));
    OK(sgrt_buffer_create_from_cu_ptr(ctx, dy, sizeof y, &by));
    OK(sgrt_buffer_write(by, 0, sizeof y, y));
    OK(sgrt_buffer_read(by, 0, sizeof got, got));
    check("default stream round trip", same(got, y, N), NULL);
    OK(sgrt_buffer_free(by));
    OK(sgrt_context_free(ctx));

    CU_OK(raw.cuMemFree(dx));
    CU_OK(raw.cuMemFree(dy));
    CU_OK(raw.cuStreamDestroy(stream));
    CUcontext ignored;
    CU_OK(raw.cuCtxPopCurrent(&ignored));
}

/* sgrt's objects as native handles in raw driver calls. */
static void native_handles_of_sgrt_objects(sgrt_device *sdev)
{
    float x[N], y[N], want[N], got[N];
    saxpy_inputs(x, y, want, 0.5f, 1);
    sgrt_context *ctx = NULL;
    OK(sgrt_context_create(sdev, &ctx));
    CUcontext c = NULL;
    CUstream s = NULL;
    OK(sgrt_context_get_cu_context(ctx, &c));
    OK(sgrt_context_get_cu_stream(ctx, &s));
    sgrt_buffer *bx = NULL, *by = NULL;
    OK(sgrt_buffer_create(ctx, sizeof x, &bx));
    OK(sgrt_buffer_create(ctx, sizeof y, &by));
    CUdeviceptr dx = 0, dy = 0;
    OK(sgrt_buffer_get_cu_ptr(bx, &dx));
    OK(sgrt_buffer_get_cu_ptr(by, &dy));
    CU_OK(raw.cuCtxPushCurrent(c));
    CU_OK(raw.cuMemcpyHtoD(dx, x, sizeof x));
    CU_OK(raw.cuMemcpyHtoD(dy, y, sizeof y));

    sgrt_program *p = built(ctx, 1);
    sgrt_launch_dims dims = {.dims = 1, .global = {GLOBAL}, .local = {LOCAL}};
    sgrt_event *ev = NULL;
    OK(interop_launch_saxpy(p, &dims, bx, by, 0.5f, N, &ev));
    CUevent done = NULL;
    OK(sgrt_event_get_cu_event(ev, &done));
    CU_OK(raw.cuEventSynchronize(done));
    CU_OK(raw.cuMemcpyDtoH(got, dy, sizeof got));
    check("raw read after the sgrt event", same(got, want, N), NULL);

    /* The CUfunction launched raw on sgrt's stream, with our own arguments:
     * y = 0.5 x + y + 1 once more. */
    CUmodule module = NULL;
    CUfunction f = NULL;
    sgrt_kernel *k = NULL;
    OK(sgrt_program_get_cu_module(p, &module));
    OK(sgrt_kernel_get(p, "saxpy", &k));
    OK(sgrt_kernel_get_cu_function(k, &f));
    check("module and function handles", module != NULL && f != NULL, NULL);
    float a = 0.5f;
    int n = N;
    void *params[] = {&dx, &dy, &a, &n};
    CU_OK(raw.cuLaunchKernel(f, GLOBAL / LOCAL, 1, 1, LOCAL, 1, 1, 0, s, params, NULL));
    OK(sgrt_buffer_read(by, 0, sizeof got, got));   /* in order on sgrt's stream */
    for (int i = 0; i < N; i++)
        want[i] = 0.5f * x[i] + want[i] + 1.0f;
    check("raw launch of sgrt's CUfunction on sgrt's stream", same(got, want, N), NULL);

    /* OpenCL handles of CUDA objects are refused. */
    void *h = NULL;
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_context_get_native(ctx, SGRT_BACKEND_OPENCL, &h));
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_buffer_get_native(bx, SGRT_BACKEND_OPENCL, &h));
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_kernel_get_native(k, SGRT_BACKEND_OPENCL, &h));
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_event_get_native(ev, SGRT_BACKEND_OPENCL, &h));
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_buffer_create_from_opencl(ctx, &h, &bx));

    CUcontext ignored;
    CU_OK(raw.cuCtxPopCurrent(&ignored));
    OK(sgrt_event_free(ev));
    OK(sgrt_program_free(p));
    OK(sgrt_buffer_free(bx));
    OK(sgrt_buffer_free(by));
    OK(sgrt_context_free(ctx));
}

/* A stream of another context, NULL handles. */
static void misuse(CUdevice dev, CUcontext app)
{
    sgrt_context *ctx = NULL;
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_context_create_from_cu(NULL, NULL, &ctx));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_context_create_from_cu(app, NULL, NULL));
    CUcontext other = NULL;
    CUstream other_stream = NULL;
    if (!raw.ctx_create) {
        printf("# no cuCtxCreate_v2 in this driver: mismatch checks skipped\n");
        return;
    }
    CU_OK(raw.ctx_create(&other, 0, dev));   /* made current */
    CU_OK(raw.cuStreamCreate(&other_stream, 0));
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH, sgrt_context_create_from_cu(app, other_stream, &ctx));
    /* The other context adopted with its own stream works. */
    OK(sgrt_context_create_from_cu(other, other_stream, &ctx));
    OK(sgrt_context_free(ctx));
    CU_OK(raw.cuStreamDestroy(other_stream));
    CU_OK(raw.cuCtxDestroy(other));
}

/* SGC text compiled at run time and run through NVRTC. */
static void run_time_compile(sgrt_device *sdev)
{
    static const char src[] = "spec_const int shift = 1;\n"
                              "kernel void iota(global int *out)\n"
                              "{\n"
                              "    out[get_global_id(0)] = (int)get_global_id(0) << shift;\n"
                              "}\n";
    sgrt_context *ctx = NULL;
    sgrt_program *p = NULL;
    sgrt_buffer *b = NULL;
    sgrt_kernel *k = NULL;
    OK(sgrt_context_create(sdev, &ctx));
    OK(sgrt_program_create_from_source(ctx, src, "iota.sgc", NULL, &p));
    int shift = 3, out[GLOBAL];
    OK(sgrt_program_set_spec_by_name(p, "shift", SGRT_TYPE_INT, &shift, sizeof shift));
    OK(sgrt_program_build(p, NULL));
    OK(sgrt_buffer_create(ctx, sizeof out, &b));
    OK(sgrt_kernel_get(p, "iota", &k));
    OK(sgrt_kernel_set_arg_buffer(k, 0, b));
    sgrt_launch_dims dims = {.dims = 1, .global = {GLOBAL}, .local = {LOCAL}};
    OK(sgrt_kernel_launch(k, &dims, NULL));
    OK(sgrt_buffer_read(b, 0, sizeof out, out));
    bool ok = true;
    for (int i = 0; i < GLOBAL; i++)
        ok = ok && out[i] == i << 3;
    check("run-time compiled kernel on CUDA", ok, NULL);
    sgrt_program *broken = NULL;
    EXPECT(SGRT_ERROR_COMPILE,
           sgrt_program_create_from_source(ctx, "kernel void k() { nope; }", NULL, NULL, &broken));
    OK(sgrt_buffer_free(b));
    OK(sgrt_program_free(p));
    OK(sgrt_context_free(ctx));
}

int main(void)
{
    sgrt_device *sdev = NULL;
    if (!load_driver() || sgrt_device_select("cuda", &sdev) != SGRT_SUCCESS) {
        printf("1..0 # SKIP no CUDA driver or device\n");
        return 77;
    }
    CUdevice dev = 0;
    CUcontext app = NULL;
    CU_OK(raw.cuDeviceGet(&dev, 0));
    CU_OK(raw.cuDevicePrimaryCtxRetain(&app, dev));
    adopt_application_objects(dev, app);
    native_handles_of_sgrt_objects(sdev);
    misuse(dev, app);
    run_time_compile(sdev);
    CU_OK(raw.cuDevicePrimaryCtxRelease(dev));
    printf("1..%d\n", tests);
    return failures ? 1 : 0;
}
