/* launch_overhead.c — what sgrt adds to a kernel launch.
 *
 * Launches the near-empty kernel of launch_overhead.sgc N times through
 * sgrt_kernel_launch, then N times through the raw API on the same queue
 * (OpenCL: clEnqueueNDRangeKernel on the cl_kernel and cl_command_queue that
 * sgrt created; CUDA: cuLaunchKernel on sgrt's CUfunction and stream, from a
 * libcuda.so.1 this program opens itself), waits for the queue after each
 * batch, and repeats the pair R times alternating, keeping the fastest batch
 * of each (the machine is shared: the minimum is the least disturbed).
 * Prints one Markdown row per device, per launch: the calling thread's CPU
 * time in the launch calls (the host cost of the API) and the wall time of
 * launches plus the final wait, for sgrt and the raw API, and the
 * differences (sgrt's overhead).  The kernel's result is
 * checked after each batch.  The raw handles come from sgrt_internal.h: the
 * public API has no accessor for them, by design.
 *
 * Usage: bench_launch_overhead [SELECTOR|all] [N] [R]
 *   SELECTOR as SGRT_DEVICE ("cuda:0", "opencl:pocl", "intel", ...);
 *   "all" (the default) runs every device sgrt lists. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "launch_overhead.h"
#include "sgrt_internal.h"

enum { LOCAL = 64 };

typedef int (*cu_launch_fn)(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                            unsigned by, unsigned bz, unsigned shared, void *stream,
                            void **params, void **extra);
typedef int (*cu_ctx_fn)(void *ctx);
typedef int (*cu_ctx_pop_fn)(void **ctx);
typedef int (*cu_sync_fn)(void *stream);

typedef struct CudaRaw {
    cu_launch_fn launch;
    cu_ctx_fn push;
    cu_ctx_pop_fn pop;
    cu_sync_fn sync;
} CudaRaw;

static double clock_us(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* A batch's cost per launch: wall time of the launches and the wait, and the
 * calling thread's CPU time in the launch calls alone (what the API costs
 * the host; little disturbed by other processes on a shared machine). */
typedef struct Cost {
    double wall_us, cpu_us;
} Cost;

typedef struct Clock {
    double wall0, cpu0, cpu_us;
} Clock;

static void clock_start(Clock *c)
{
    c->wall0 = clock_us(CLOCK_MONOTONIC);
    c->cpu0 = clock_us(CLOCK_THREAD_CPUTIME_ID);
}

static void clock_launched(Clock *c) { c->cpu_us = clock_us(CLOCK_THREAD_CPUTIME_ID) - c->cpu0; }

static Cost clock_done(const Clock *c, int n)
{
    return (Cost){(clock_us(CLOCK_MONOTONIC) - c->wall0) / n, c->cpu_us / n};
}

static const Cost failed_cost = {-1.0, -1.0};

static bool cuda_raw_load(CudaRaw *raw)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return false;
    *(void **)&raw->launch = dlsym(lib, "cuLaunchKernel");
    *(void **)&raw->push = dlsym(lib, "cuCtxPushCurrent_v2");
    *(void **)&raw->pop = dlsym(lib, "cuCtxPopCurrent_v2");
    *(void **)&raw->sync = dlsym(lib, "cuStreamSynchronize");
    return raw->launch && raw->push && raw->pop && raw->sync;
}

/* One batch of n launches through sgrt. */
static Cost batch_sgrt(sgrt_kernel *kernel, sgrt_context *context, int n)
{
    sgrt_launch_dims dims = {1, {LOCAL, 1, 1}, {LOCAL, 1, 1}};
    Clock c;
    clock_start(&c);
    for (int i = 0; i < n; i++)
        if (sgrt_kernel_launch(kernel, &dims, NULL) != SGRT_SUCCESS)
            return failed_cost;
    clock_launched(&c);
    if (sgrt_finish(context) != SGRT_SUCCESS)
        return failed_cost;
    return clock_done(&c, n);
}

/* One batch of n launches through the raw API on sgrt's own objects. */
static Cost batch_raw(sgrt_kernel *kernel, sgrt_context *context, sgrt_buffer *out, int value,
                      const CudaRaw *cuda, int n)
{
    Clock c;
    if (context->device->info.backend == SGRT_BACKEND_CUDA) {
        unsigned long long ptr = (unsigned long long)(uintptr_t)out->api_mem; /* CUdeviceptr */
        void *params[] = {&ptr, &value};
        if (cuda->push(context->api_context) != 0)
            return failed_cost;
        clock_start(&c);
        for (int i = 0; i < n; i++)
            if (cuda->launch(kernel->api_kernel, 1, 1, 1, LOCAL, 1, 1, 0, context->api_queue,
                             params, NULL) != 0)
                return failed_cost;
        clock_launched(&c);
        int r = cuda->sync(context->api_queue);
        Cost cost = clock_done(&c, n);
        void *ignored;
        cuda->pop(&ignored);
        return r == 0 ? cost : failed_cost;
    }
    /* The arguments are already on the cl_kernel: sgrt set them (same values). */
    cl_command_queue queue = context->api_queue;
    cl_kernel k = kernel->api_kernel;
    size_t global = LOCAL, local = LOCAL;
    clock_start(&c);
    for (int i = 0; i < n; i++)
        if (clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL) != CL_SUCCESS)
            return failed_cost;
    clock_launched(&c);
    if (clFinish(queue) != CL_SUCCESS)
        return failed_cost;
    return clock_done(&c, n);
}

static bool check_result(sgrt_buffer *out, int want)
{
    int got = 0;
    return sgrt_buffer_read(out, 0, sizeof got, &got) == SGRT_SUCCESS && got == want;
}

static int bench_device(sgrt_device *device, int n, int rounds, const CudaRaw *cuda)
{
    sgrt_device_info info;
    sgrt_context *context = NULL;
    sgrt_program *program = NULL;
    sgrt_kernel *kernel = NULL;
    sgrt_buffer *out = NULL;
    int value = 12345;
    bool correct = false;
    if (sgrt_device_get_info(device, &info) != SGRT_SUCCESS)
        return 1;
    bool is_cuda = info.backend == SGRT_BACKEND_CUDA;
    if (is_cuda && !cuda->launch) {
        fprintf(stderr, "%s: libcuda.so.1 not loadable for the raw loop\n", info.name);
        return 1;
    }
    if (sgrt_context_create(device, &context) != SGRT_SUCCESS ||
        sgrt_program_create(context, &launch_overhead_module, &program) != SGRT_SUCCESS ||
        sgrt_program_build(program, NULL) != SGRT_SUCCESS ||
        sgrt_kernel_get(program, "touch", &kernel) != SGRT_SUCCESS ||
        sgrt_buffer_create(context, sizeof(int), &out) != SGRT_SUCCESS ||
        sgrt_kernel_set_arg_buffer(kernel, 0, out) != SGRT_SUCCESS ||
        sgrt_kernel_set_arg_scalar(kernel, 1, SGRT_TYPE_INT, &value) != SGRT_SUCCESS) {
        fprintf(stderr, "%s: setup failed: %s\n", info.name, sgrt_last_error());
        goto done;
    }
    /* Warm-up: first launches pay for lazy driver work. */
    if (batch_sgrt(kernel, context, n / 10 + 1).wall_us < 0 ||
        batch_raw(kernel, context, out, value, cuda, n / 10 + 1).wall_us < 0) {
        fprintf(stderr, "%s: launch failed: %s\n", info.name, sgrt_last_error());
        goto done;
    }
    Cost best_sgrt = {1e30, 1e30}, best_raw = {1e30, 1e30};
    correct = true;
    for (int r = 0; r < rounds; r++) {
        value = 1000 + 2 * r;
        sgrt_kernel_set_arg_scalar(kernel, 1, SGRT_TYPE_INT, &value);
        Cost s = batch_sgrt(kernel, context, n);
        correct &= check_result(out, value);
        value = 1001 + 2 * r;
        sgrt_kernel_set_arg_scalar(kernel, 1, SGRT_TYPE_INT, &value);
        if (!is_cuda) /* raw OpenCL reuses the arguments last set on the cl_kernel */
            batch_sgrt(kernel, context, 1);
        Cost w = batch_raw(kernel, context, out, value, cuda, n);
        correct &= check_result(out, value);
        if (s.wall_us < 0 || w.wall_us < 0) {
            fprintf(stderr, "%s: launch failed: %s\n", info.name, sgrt_last_error());
            correct = false;
            goto done;
        }
        best_sgrt.wall_us = s.wall_us < best_sgrt.wall_us ? s.wall_us : best_sgrt.wall_us;
        best_sgrt.cpu_us = s.cpu_us < best_sgrt.cpu_us ? s.cpu_us : best_sgrt.cpu_us;
        best_raw.wall_us = w.wall_us < best_raw.wall_us ? w.wall_us : best_raw.wall_us;
        best_raw.cpu_us = w.cpu_us < best_raw.cpu_us ? w.cpu_us : best_raw.cpu_us;
    }
    printf("| %s | %s | %.3f | %.3f | %+.3f | %.3f | %.3f | %+.3f | %s |\n", info.name,
           is_cuda ? "CUDA" : info.platform, best_sgrt.cpu_us, best_raw.cpu_us,
           best_sgrt.cpu_us - best_raw.cpu_us, best_sgrt.wall_us, best_raw.wall_us,
           best_sgrt.wall_us - best_raw.wall_us, correct ? "correct" : "WRONG");
    fflush(stdout);
done:
    sgrt_buffer_free(out);
    sgrt_program_free(program);
    sgrt_context_free(context);
    return correct ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *selector = argc > 1 ? argv[1] : "all";
    int n = argc > 2 ? atoi(argv[2]) : 20000;
    int rounds = argc > 3 ? atoi(argv[3]) : 7;
    if (n < 1 || rounds < 1) {
        fprintf(stderr, "usage: %s [SELECTOR|all] [N >= 1] [R >= 1]\n", argv[0]);
        return 2;
    }
    CudaRaw cuda = {0};
    if (!cuda_raw_load(&cuda))
        cuda = (CudaRaw){0};
    printf("| device | platform | sgrt CPU µs | raw CPU µs | overhead CPU µs "
           "| sgrt wall µs | raw wall µs | overhead wall µs | result |\n");
    printf("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    int failed = 0;
    if (strcmp(selector, "all") == 0) {
        size_t count = 0;
        if (sgrt_device_count(&count) != SGRT_SUCCESS)
            return 1;
        for (size_t i = 0; i < count; i++) {
            sgrt_device *device;
            if (sgrt_device_get(i, &device) == SGRT_SUCCESS)
                failed |= bench_device(device, n, rounds, &cuda);
        }
    } else {
        sgrt_device *device;
        if (sgrt_device_select(selector, &device) != SGRT_SUCCESS) {
            fprintf(stderr, "no device for '%s': %s\n", selector, sgrt_last_error());
            return 1;
        }
        failed |= bench_device(device, n, rounds, &cuda);
    }
    return failed;
}
