/* cuda.c — the CUDA backend: driver API and NVRTC, both loaded with dlopen
 * so that libsgrt has no link-time CUDA dependency and works (with zero CUDA
 * devices) on machines without a driver.  No CUDA header is included: the
 * few types and entry points used are declared below from the documented
 * driver ABI; versioned symbols (_v2) are what the CUDA headers map the
 * plain names to.
 *
 * Execution model: each sgrt_context retains the device's primary context
 * and owns one stream; every call pushes the context for its duration, so
 * any host thread may use any sgrt_context.  Dynamic local memory: the
 * emitted kernel takes one `unsigned int` byte offset per `local T *`
 * parameter into a single extern __shared__ block (docs/DESIGN.md); the
 * launch lays the local arguments out in order, 16-byte aligned. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgcc.h"
#include "sgrt_internal.h"

extern const SgrtBackend sgrt_cuda_backend;

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;

enum {
    CUDA_SUCCESS = 0,
    CU_ATTR_MAX_THREADS_PER_BLOCK = 1,
    CU_ATTR_MAX_BLOCK_DIM_X = 2,     /* then _Y = 3, _Z = 4 */
    CU_ATTR_MAX_GRID_DIM_X = 5,      /* then _Y = 6, _Z = 7 */
    CU_ATTR_MAX_SHARED_PER_BLOCK = 8,
    CU_ATTR_WARP_SIZE = 10,
    CU_ATTR_CC_MAJOR = 75,
    CU_ATTR_CC_MINOR = 76,
    CU_ATTR_MAX_SHARED_PER_BLOCK_OPTIN = 97,
    CU_FUNC_ATTR_MAX_DYNAMIC_SHARED = 8,
    NVRTC_SUCCESS = 0,
    STATIC_SHARED_LIMIT = 48 * 1024,
};

/* X(name, parameters, symbol, fallback symbol): the driver entry points. */
#define CU_FUNCTIONS(X)                                                                        \
    X(cuInit, (unsigned), "cuInit", "cuInit")                                                  \
    X(cuDeviceGetCount, (int *), "cuDeviceGetCount", "cuDeviceGetCount")                       \
    X(cuDeviceGet, (CUdevice *, int), "cuDeviceGet", "cuDeviceGet")                            \
    X(cuDeviceGetName, (char *, int, CUdevice), "cuDeviceGetName", "cuDeviceGetName")          \
    X(cuDeviceGetAttribute, (int *, int, CUdevice), "cuDeviceGetAttribute",                    \
      "cuDeviceGetAttribute")                                                                  \
    X(cuDeviceTotalMem, (size_t *, CUdevice), "cuDeviceTotalMem_v2", "cuDeviceTotalMem")       \
    X(cuDriverGetVersion, (int *), "cuDriverGetVersion", "cuDriverGetVersion")                 \
    X(cuDevicePrimaryCtxRetain, (CUcontext *, CUdevice), "cuDevicePrimaryCtxRetain",           \
      "cuDevicePrimaryCtxRetain")                                                              \
    X(cuDevicePrimaryCtxRelease, (CUdevice), "cuDevicePrimaryCtxRelease_v2",                   \
      "cuDevicePrimaryCtxRelease")                                                             \
    X(cuCtxPushCurrent, (CUcontext), "cuCtxPushCurrent_v2", "cuCtxPushCurrent")                \
    X(cuCtxPopCurrent, (CUcontext *), "cuCtxPopCurrent_v2", "cuCtxPopCurrent")                 \
    X(cuCtxGetDevice, (CUdevice *), "cuCtxGetDevice", "cuCtxGetDevice")                        \
    X(cuStreamGetCtx, (CUstream, CUcontext *), "cuStreamGetCtx", "cuStreamGetCtx")             \
    X(cuPointerGetAttribute, (void *, int, CUdeviceptr), "cuPointerGetAttribute",              \
      "cuPointerGetAttribute")                                                                 \
    X(cuStreamCreate, (CUstream *, unsigned), "cuStreamCreate", "cuStreamCreate")              \
    X(cuStreamDestroy, (CUstream), "cuStreamDestroy_v2", "cuStreamDestroy")                    \
    X(cuStreamSynchronize, (CUstream), "cuStreamSynchronize", "cuStreamSynchronize")           \
    X(cuMemAlloc, (CUdeviceptr *, size_t), "cuMemAlloc_v2", "cuMemAlloc")                      \
    X(cuMemFree, (CUdeviceptr), "cuMemFree_v2", "cuMemFree")                                   \
    X(cuMemHostAlloc, (void **, size_t, unsigned), "cuMemHostAlloc", "cuMemHostAlloc")         \
    X(cuMemFreeHost, (void *), "cuMemFreeHost", "cuMemFreeHost")                               \
    X(cuMemcpyHtoDAsync, (CUdeviceptr, const void *, size_t, CUstream),                        \
      "cuMemcpyHtoDAsync_v2", "cuMemcpyHtoDAsync")                                             \
    X(cuMemcpyDtoHAsync, (void *, CUdeviceptr, size_t, CUstream), "cuMemcpyDtoHAsync_v2",      \
      "cuMemcpyDtoHAsync")                                                                     \
    X(cuMemcpyDtoDAsync, (CUdeviceptr, CUdeviceptr, size_t, CUstream),                         \
      "cuMemcpyDtoDAsync_v2", "cuMemcpyDtoDAsync")                                             \
    X(cuMemsetD8Async, (CUdeviceptr, unsigned char, size_t, CUstream), "cuMemsetD8Async",      \
      "cuMemsetD8Async")                                                                       \
    X(cuMemsetD16Async, (CUdeviceptr, unsigned short, size_t, CUstream), "cuMemsetD16Async",   \
      "cuMemsetD16Async")                                                                      \
    X(cuMemsetD32Async, (CUdeviceptr, unsigned, size_t, CUstream), "cuMemsetD32Async",         \
      "cuMemsetD32Async")                                                                      \
    X(cuStreamWaitEvent, (CUstream, CUevent, unsigned), "cuStreamWaitEvent",                   \
      "cuStreamWaitEvent")                                                                     \
    X(cuModuleLoadData, (CUmodule *, const void *), "cuModuleLoadData", "cuModuleLoadData")    \
    X(cuModuleUnload, (CUmodule), "cuModuleUnload", "cuModuleUnload")                          \
    X(cuModuleGetFunction, (CUfunction *, CUmodule, const char *), "cuModuleGetFunction",      \
      "cuModuleGetFunction")                                                                   \
    X(cuFuncSetAttribute, (CUfunction, int, int), "cuFuncSetAttribute", "cuFuncSetAttribute")  \
    X(cuFuncGetAttribute, (int *, int, CUfunction), "cuFuncGetAttribute", "cuFuncGetAttribute") \
    X(cuOccupancyMaxPotentialBlockSize, (int *, int *, CUfunction, size_t (*)(int), size_t, int), \
      "cuOccupancyMaxPotentialBlockSize", "cuOccupancyMaxPotentialBlockSize")                  \
    X(cuLaunchKernel,                                                                          \
      (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,       \
       CUstream, void **, void **),                                                            \
      "cuLaunchKernel", "cuLaunchKernel")                                                      \
    X(cuEventCreate, (CUevent *, unsigned), "cuEventCreate", "cuEventCreate")                  \
    X(cuEventRecord, (CUevent, CUstream), "cuEventRecord", "cuEventRecord")                    \
    X(cuEventSynchronize, (CUevent), "cuEventSynchronize", "cuEventSynchronize")               \
    X(cuEventElapsedTime, (float *, CUevent, CUevent), "cuEventElapsedTime_v2",                \
      "cuEventElapsedTime")                                                                    \
    X(cuEventDestroy, (CUevent), "cuEventDestroy_v2", "cuEventDestroy")                        \
    X(cuGetErrorName, (CUresult, const char **), "cuGetErrorName", "cuGetErrorName")

#define NVRTC_FUNCTIONS(X)                                                                     \
    X(nvrtcCreateProgram,                                                                      \
      (nvrtcProgram *, const char *, const char *, int, const char *const *,                   \
       const char *const *))                                                                   \
    X(nvrtcCompileProgram, (nvrtcProgram, int, const char *const *))                           \
    X(nvrtcGetProgramLogSize, (nvrtcProgram, size_t *))                                        \
    X(nvrtcGetProgramLog, (nvrtcProgram, char *))                                              \
    X(nvrtcGetCUBINSize, (nvrtcProgram, size_t *))                                             \
    X(nvrtcGetCUBIN, (nvrtcProgram, char *))                                                   \
    X(nvrtcDestroyProgram, (nvrtcProgram *))

static struct {
#define X(name, params, sym, fallback) CUresult(*name) params;
    CU_FUNCTIONS(X)
#undef X
#define X(name, params) nvrtcResult(*name) params;
    NVRTC_FUNCTIONS(X)
#undef X
    const char *(*nvrtcGetErrorString)(nvrtcResult);
    bool nvrtc_loaded;
    bool driver_ready;   /* every CU_FUNCTIONS entry found and cuInit done */
} api;

static bool load_driver(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return false;
    bool ok = true;
#define X(name, params, sym, fallback)                                    \
    *(void **)&api.name = dlsym(lib, sym);                                \
    if (!api.name)                                                        \
        *(void **)&api.name = dlsym(lib, fallback);                       \
    ok = ok && api.name != NULL;
    CU_FUNCTIONS(X)
#undef X
    return ok;
}

/* $SGRT_NVRTC_PATH first, then the names the CUDA 12/13 toolkits install. */
static void load_nvrtc(void)
{
    const char *names[] = {getenv("SGRT_NVRTC_PATH"), "libnvrtc.so", "libnvrtc.so.13",
                           "libnvrtc.so.12"};
    void *lib = NULL;
    for (size_t i = 0; i < sizeof names / sizeof *names && !lib; i++)
        if (names[i] && *names[i])
            lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return;
    bool ok = true;
#define X(name, params)                       \
    *(void **)&api.name = dlsym(lib, #name);  \
    ok = ok && api.name != NULL;
    NVRTC_FUNCTIONS(X)
#undef X
    *(void **)&api.nvrtcGetErrorString = dlsym(lib, "nvrtcGetErrorString");
    api.nvrtc_loaded = ok && api.nvrtcGetErrorString != NULL;
}

static pthread_once_t nvrtc_once = PTHREAD_ONCE_INIT;

static sgrt_status cu_fail(const char *call, CUresult r)
{
    const char *name = NULL;
    if (api.cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
        name = "CUDA_ERROR_UNKNOWN";
    sgrt_status status = r == 2 /* CUDA_ERROR_OUT_OF_MEMORY */ ? SGRT_ERROR_OUT_OF_MEMORY
                                                               : SGRT_ERROR_BACKEND;
    return sgrt_fail(status, "%s failed: %s (%d)", call, name, r);
}

#define CU_CHECK(call, expr)                \
    do {                                    \
        CUresult r_ = (expr);               \
        if (r_ != CUDA_SUCCESS)             \
            return cu_fail(call, r_);       \
    } while (0)

static CUdevice dev_ordinal(const sgrt_device *dev) { return (CUdevice)(intptr_t)dev->device_handle; }

static int attribute(int attr, CUdevice d)
{
    int v = 0;
    return api.cuDeviceGetAttribute(&v, attr, d) == CUDA_SUCCESS ? v : 0;
}

static void fill_info(sgrt_device *dev, CUdevice d, int index, int driver)
{
    sgrt_device_info *in = &dev->info;
    memset(dev, 0, sizeof *dev);
    dev->device_handle = (void *)(intptr_t)d;
    in->kind = SGRT_DEVICE_GPU;
    in->backend_index = (uint32_t)index;
    if (api.cuDeviceGetName(in->name, (int)sizeof in->name, d) != CUDA_SUCCESS)
        snprintf(in->name, sizeof in->name, "CUDA device %d", index);
    snprintf(in->vendor, sizeof in->vendor, "NVIDIA Corporation");
    snprintf(in->platform, sizeof in->platform, "CUDA");
    in->cuda_cc_major = (uint32_t)attribute(CU_ATTR_CC_MAJOR, d);
    in->cuda_cc_minor = (uint32_t)attribute(CU_ATTR_CC_MINOR, d);
    snprintf(in->version, sizeof in->version, "CUDA sm_%u%u", in->cuda_cc_major,
             in->cuda_cc_minor);
    snprintf(in->driver_version, sizeof in->driver_version, "%d.%d", driver / 1000,
             driver % 1000 / 10);
    in->sub_groups = in->non_uniform_groups = in->fp64 = true;
    in->split_barriers = in->cuda_cc_major >= 8;   /* mbarrier + cp.async */
    in->sub_group_size_count = 1;
    in->sub_group_sizes[0] = (uint32_t)attribute(CU_ATTR_WARP_SIZE, d);
    in->max_work_group_size = (size_t)attribute(CU_ATTR_MAX_THREADS_PER_BLOCK, d);
    for (int i = 0; i < 3; i++) {
        dev->max_work_item_sizes[i] = (size_t)attribute(CU_ATTR_MAX_BLOCK_DIM_X + i, d);
        dev->max_groups[i] = (uint64_t)attribute(CU_ATTR_MAX_GRID_DIM_X + i, d);
    }
    /* cuLaunchKernel takes unsigned grid and block sizes. */
    dev->max_global_items = UINT64_MAX;
    int optin = attribute(CU_ATTR_MAX_SHARED_PER_BLOCK_OPTIN, d);
    in->local_mem_size = (uint64_t)(optin ? optin : attribute(CU_ATTR_MAX_SHARED_PER_BLOCK, d));
    size_t mem = 0;
    if (api.cuDeviceTotalMem(&mem, d) == CUDA_SUCCESS)
        in->global_mem_size = mem;
}

static void cu_enumerate(sgrt_device *out, size_t cap, size_t *count)
{
    int n = 0, driver = 0;
    if (!load_driver() || api.cuInit(0) != CUDA_SUCCESS || api.cuDeviceGetCount(&n) != CUDA_SUCCESS)
        return;
    api.driver_ready = true;
    api.cuDriverGetVersion(&driver);
    for (int i = 0; i < n && *count < cap; i++) {
        CUdevice d;
        if (api.cuDeviceGet(&d, i) == CUDA_SUCCESS)
            fill_info(&out[(*count)++], d, i, driver);
    }
}

/* Makes ctx current on this thread for one backend call. */
static sgrt_status push(sgrt_context *ctx)
{
    CU_CHECK("cuCtxPushCurrent", api.cuCtxPushCurrent(ctx->api_context));
    return SGRT_SUCCESS;
}

static void pop(void)
{
    CUcontext ignored;
    api.cuCtxPopCurrent(&ignored);
}

/* Page-locked host memory (host.c): portable, so that every context of the
 * process sees it as pinned, not only `ctx`.  Nothing kept besides. */
static sgrt_status cu_host_alloc(sgrt_context *ctx, size_t size, void **ptr, void **priv)
{
    *priv = NULL;
    sgrt_status st = push(ctx);
    if (st != SGRT_SUCCESS)
        return st;
    CUresult r = api.cuMemHostAlloc(ptr, size, 0x01 /* CU_MEMHOSTALLOC_PORTABLE */);
    pop();
    return r == CUDA_SUCCESS ? SGRT_SUCCESS : cu_fail("cuMemHostAlloc", r);
}

static sgrt_status cu_host_free(sgrt_context *ctx, void *ptr, void *priv)
{
    (void)priv;
    sgrt_status st = push(ctx);
    if (st != SGRT_SUCCESS)
        return st;
    CUresult r = api.cuMemFreeHost(ptr);
    pop();
    return r == CUDA_SUCCESS ? SGRT_SUCCESS : cu_fail("cuMemFreeHost", r);
}

static sgrt_status cu_context_create(sgrt_context *ctx)
{
    CUcontext c;
    CUdevice d = dev_ordinal(ctx->device);
    CU_CHECK("cuDevicePrimaryCtxRetain", api.cuDevicePrimaryCtxRetain(&c, d));
    ctx->api_context = c;
    CUstream stream = NULL;
    CUevent epoch = NULL;
    CUresult r = api.cuCtxPushCurrent(c);
    const char *call = "cuCtxPushCurrent";
    if (r == CUDA_SUCCESS && (call = "cuStreamCreate", r = api.cuStreamCreate(&stream, 0)) ==
                                 CUDA_SUCCESS &&
        (call = "cuEventCreate", r = api.cuEventCreate(&epoch, 0)) == CUDA_SUCCESS)
        call = "cuEventRecord", r = api.cuEventRecord(epoch, stream);
    if (r != CUDA_SUCCESS) {
        if (epoch)
            api.cuEventDestroy(epoch);
        if (stream)
            api.cuStreamDestroy(stream);
        pop();
        api.cuDevicePrimaryCtxRelease(d);
        return cu_fail(call, r);
    }
    pop();
    ctx->api_queue = stream;
    ctx->priv = epoch;
    return SGRT_SUCCESS;
}

/* Records the profiling epoch (ctx->priv) on ctx's stream. */
static CUresult record_epoch(sgrt_context *ctx)
{
    CUevent epoch = NULL;
    CUresult r = api.cuEventCreate(&epoch, 0);
    if (r == CUDA_SUCCESS && (r = api.cuEventRecord(epoch, ctx->api_queue)) != CUDA_SUCCESS)
        api.cuEventDestroy(epoch);
    else
        ctx->priv = epoch;
    return r;
}

/* The application's context and stream, neither retained: CUDA has no
 * reference count for them (the application keeps them alive). */
static sgrt_status cu_context_adopt(sgrt_context *ctx, void *api_context, void *api_device,
                                    void *api_queue)
{
    (void)api_device;
    if (!api.driver_ready)
        return sgrt_fail(SGRT_ERROR_NO_DEVICE,
                         "sgrt_context_create_from_cuda: no CUDA driver (libcuda.so.1 not found "
                         "or cuInit failed)");
    CUcontext c = api_context;
    CUresult r = api.cuCtxPushCurrent(c);
    if (r != CUDA_SUCCESS)
        return sgrt_fail(SGRT_ERROR_INVALID_HANDLE,
                         "sgrt_context_create_from_cuda: the CUcontext is not valid: "
                         "cuCtxPushCurrent failed (%d)", r);
    CUdevice d = 0;
    CUcontext stream_ctx = NULL;
    sgrt_status status = SGRT_SUCCESS;
    if ((r = api.cuCtxGetDevice(&d)) != CUDA_SUCCESS)
        status = sgrt_fail(SGRT_ERROR_INVALID_HANDLE,
                           "sgrt_context_create_from_cuda: the CUcontext is not valid: "
                           "cuCtxGetDevice failed (%d)", r);
    else if ((r = api.cuStreamGetCtx(api_queue, &stream_ctx)) != CUDA_SUCCESS)
        status = sgrt_fail(SGRT_ERROR_INVALID_HANDLE,
                           "sgrt_context_create_from_cuda: the CUstream is not valid: "
                           "cuStreamGetCtx failed (%d)", r);
    else if (stream_ctx != c)
        status = sgrt_fail(SGRT_ERROR_HANDLE_MISMATCH,
                           "sgrt_context_create_from_cuda: the CUstream belongs to another "
                           "CUcontext");
    else if (!(ctx->device = sgrt_device_find(&sgrt_cuda_backend, (void *)(intptr_t)d)))
        status = sgrt_fail(SGRT_ERROR_INVALID_HANDLE,
                           "sgrt_context_create_from_cuda: CUDA device %d is not listed", d);
    if (status == SGRT_SUCCESS) {
        ctx->api_context = c;
        ctx->api_queue = api_queue;
        if ((r = record_epoch(ctx)) != CUDA_SUCCESS)
            status = cu_fail("cuEventCreate/cuEventRecord", r);
    }
    pop();
    ctx->adopted = ctx->adopted_queue = true;
    return status;
}

static void cu_context_free(sgrt_context *ctx)
{
    if (push(ctx) == SGRT_SUCCESS) {
        api.cuStreamSynchronize(ctx->api_queue);
        api.cuEventDestroy(ctx->priv);
        if (!ctx->adopted_queue)
            api.cuStreamDestroy(ctx->api_queue);
        pop();
    }
    if (!ctx->adopted)
        api.cuDevicePrimaryCtxRelease(dev_ordinal(ctx->device));
}

/* Runs `expr` with the context current and returns its checked status. */
#define WITH_CONTEXT(ctx, call, expr)                          \
    do {                                                       \
        sgrt_status s_ = push(ctx);                            \
        if (s_ != SGRT_SUCCESS)                                \
            return s_;                                         \
        CUresult r_ = (expr);                                  \
        pop();                                                 \
        return r_ == CUDA_SUCCESS ? SGRT_SUCCESS : cu_fail(call, r_); \
    } while (0)

static sgrt_status cu_finish(sgrt_context *ctx)
{
    WITH_CONTEXT(ctx, "cuStreamSynchronize", api.cuStreamSynchronize(ctx->api_queue));
}

/* A buffer's native handle is its CUdeviceptr, kept as a pointer. */
static CUdeviceptr dptr(const sgrt_buffer *buf) { return (CUdeviceptr)(uintptr_t)buf->api_mem; }

static sgrt_status cu_buffer_create(sgrt_buffer *buf)
{
    CUdeviceptr ptr = 0;
    sgrt_status status = push(buf->context);
    if (status != SGRT_SUCCESS)
        return status;
    CUresult r = api.cuMemAlloc(&ptr, buf->size);
    pop();
    if (r != CUDA_SUCCESS)
        return cu_fail("cuMemAlloc", r);
    buf->api_mem = (void *)(uintptr_t)ptr;
    return SGRT_SUCCESS;
}

enum {
    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
    CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11,
    CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
};

/* The pointer must be device memory CUDA knows, of the context's device,
 * and [ptr, ptr + size) inside its allocation. */
static sgrt_status check_device_range(CUdeviceptr ptr, size_t size, CUdevice want)
{
    int ordinal = -1;
    CUdeviceptr start = 0;
    size_t range = 0;
    CUresult r = api.cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr);
    if (r != CUDA_SUCCESS)
        return sgrt_fail(SGRT_ERROR_INVALID_HANDLE,
                         "sgrt_buffer_create_from_cuda: 0x%llx is not device memory CUDA knows "
                         "(cuPointerGetAttribute failed: %d)", ptr, r);
    if (ordinal != want)
        return sgrt_fail(SGRT_ERROR_HANDLE_MISMATCH,
                         "sgrt_buffer_create_from_cuda: the memory is on CUDA device %d, the "
                         "context on device %d", ordinal, want);
    if (api.cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, ptr) ==
            CUDA_SUCCESS &&
        api.cuPointerGetAttribute(&range, CU_POINTER_ATTRIBUTE_RANGE_SIZE, ptr) ==
            CUDA_SUCCESS &&
        range && (ptr - start > range || size > range - (ptr - start)))
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_buffer_create_from_cuda: %zu bytes at 0x%llx run past the end "
                         "of its allocation (%zu bytes at 0x%llx)", size, ptr, range, start);
    return SGRT_SUCCESS;
}

static sgrt_status cu_buffer_adopt(sgrt_buffer *buf, void *handle, size_t size)
{
    sgrt_status status = push(buf->context);
    if (status != SGRT_SUCCESS)
        return status;
    CUdeviceptr ptr = (CUdeviceptr)(uintptr_t)handle;
    status = check_device_range(ptr, size, dev_ordinal(buf->context->device));
    pop();
    if (status == SGRT_SUCCESS)
        buf->api_mem = (void *)(uintptr_t)ptr;
    return status;
}

static void cu_buffer_free(sgrt_buffer *buf)
{
    if (buf->borrowed)
        return;   /* the application's memory */
    if (push(buf->context) == SGRT_SUCCESS) {
        api.cuStreamSynchronize(buf->context->api_queue);
        api.cuMemFree(dptr(buf));
        pop();
    }
}

static CUresult copy_sync(CUresult r, CUstream stream)
{
    return r == CUDA_SUCCESS ? api.cuStreamSynchronize(stream) : r;
}

static sgrt_status cu_buffer_write(sgrt_buffer *buf, size_t offset, size_t size, const void *src)
{
    CUstream s = buf->context->api_queue;
    WITH_CONTEXT(buf->context, "cuMemcpyHtoDAsync",
                 copy_sync(api.cuMemcpyHtoDAsync(dptr(buf) + offset, src, size, s), s));
}

static sgrt_status cu_buffer_read(sgrt_buffer *buf, size_t offset, size_t size, void *dst)
{
    CUstream s = buf->context->api_queue;
    WITH_CONTEXT(buf->context, "cuMemcpyDtoHAsync",
                 copy_sync(api.cuMemcpyDtoHAsync(dst, dptr(buf) + offset, size, s), s));
}


static void cu_device_options(const sgrt_device *dev, char *buf, size_t cap)
{
    snprintf(buf, cap, SGRT_OPT_CUDA_ARCH "%u%u", dev->info.cuda_cc_major,
             dev->info.cuda_cc_minor);
}

/* NVRTC takes argv-style options: split on blanks (no quoting). */
static char **split_options(const char *options, int *argc)
{
    size_t len = strlen(options);
    char **argv = calloc(len / 2 + 2, sizeof *argv);
    char *copy = sgrt_strdup(options);
    *argc = 0;
    if (!argv || !copy) {
        free(argv);
        free(copy);
        return NULL;
    }
    argv[len / 2 + 1] = copy;   /* remembered for freeing */
    for (char *tok = strtok(copy, " \t\n"); tok; tok = strtok(NULL, " \t\n"))
        argv[(*argc)++] = tok;
    return argv;
}

static char *nvrtc_log(nvrtcProgram p)
{
    size_t size = 0;
    if (api.nvrtcGetProgramLogSize(p, &size) != NVRTC_SUCCESS)
        return NULL;
    char *log = calloc(1, size + 1);
    if (log && api.nvrtcGetProgramLog(p, log) != NVRTC_SUCCESS)
        log[0] = '\0';
    return log;
}

static sgrt_status nvrtc_compile(sgrt_program *prog, const char *source, const char *options,
                                 SgrtBuildResult *result)
{
    nvrtcProgram p;
    char name[300];
    snprintf(name, sizeof name, "%s.cu", prog->module->name);
    nvrtcResult r = api.nvrtcCreateProgram(&p, source, name, 0, NULL, NULL);
    if (r != NVRTC_SUCCESS)
        return sgrt_fail(SGRT_ERROR_BACKEND, "nvrtcCreateProgram failed: %s",
                         api.nvrtcGetErrorString(r));
    int argc = 0;
    char **argv = split_options(options, &argc);
    if (!argv) {
        api.nvrtcDestroyProgram(&p);
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory splitting options");
    }
    r = api.nvrtcCompileProgram(p, argc, (const char *const *)argv);
    free(argv[strlen(options) / 2 + 1]);
    free(argv);
    result->log = nvrtc_log(p);
    size_t size = 0;
    if (r == NVRTC_SUCCESS && api.nvrtcGetCUBINSize(p, &size) == NVRTC_SUCCESS && size > 0 &&
        (result->binary = malloc(size)) != NULL &&
        api.nvrtcGetCUBIN(p, (char *)result->binary) == NVRTC_SUCCESS)
        result->binary_size = size;
    api.nvrtcDestroyProgram(&p);
    if (r != NVRTC_SUCCESS)
        return sgrt_fail(SGRT_ERROR_BUILD_FAILED, "NVRTC build of module '%s' failed (%s):\n%s",
                         prog->module->name, api.nvrtcGetErrorString(r),
                         result->log ? result->log : "");
    if (result->binary_size == 0)
        return sgrt_fail(SGRT_ERROR_BACKEND, "NVRTC produced no CUBIN for module '%s'",
                         prog->module->name);
    return SGRT_SUCCESS;
}

static sgrt_status cu_build_binary(sgrt_program *prog, const unsigned char *binary, size_t size,
                                   const char *options)
{
    (void)size;
    (void)options;
    CUmodule module = NULL;
    sgrt_status status = push(prog->context);
    if (status != SGRT_SUCCESS)
        return status;
    CUresult r = api.cuModuleLoadData(&module, binary);
    pop();
    if (r != CUDA_SUCCESS)
        return cu_fail("cuModuleLoadData", r);
    prog->api_program = module;
    return SGRT_SUCCESS;
}

static sgrt_status cu_build_source(sgrt_program *prog, const char *source, const char *options,
                                   SgrtBuildResult *result)
{
    pthread_once(&nvrtc_once, load_nvrtc);
    if (!api.nvrtc_loaded)
        return sgrt_fail(SGRT_ERROR_UNSUPPORTED,
                         "NVRTC not found (tried $SGRT_NVRTC_PATH, libnvrtc.so, libnvrtc.so.13, "
                         "libnvrtc.so.12)");
    sgrt_status status = nvrtc_compile(prog, source, options, result);
    if (status == SGRT_SUCCESS)
        status = cu_build_binary(prog, result->binary, result->binary_size, options);
    return status;
}

static void cu_program_free(sgrt_program *prog)
{
    if (push(prog->context) == SGRT_SUCCESS) {
        api.cuStreamSynchronize(prog->context->api_queue);
        api.cuModuleUnload(prog->api_program);
        pop();
    }
}

/* What a CUDA kernel keeps besides its sgrt_kernel (its `priv`). */
typedef struct CuKernel {
    size_t max_dynamic_local; /* dynamic shared size already allowed */
} CuKernel;

static sgrt_status get_function(sgrt_kernel *kernel)
{
    CUfunction f = NULL;
    sgrt_status status = push(kernel->program->context);
    if (status != SGRT_SUCCESS)
        return status;
    CUresult r = api.cuModuleGetFunction(&f, kernel->program->api_program, kernel->desc->name);
    pop();
    if (r == 500 /* CUDA_ERROR_NOT_FOUND */)
        return sgrt_fail(SGRT_ERROR_KERNEL_NOT_FOUND,
                         "kernel '%s' is in the descriptor but not in the built module",
                         kernel->desc->name);
    if (r != CUDA_SUCCESS)
        return cu_fail("cuModuleGetFunction", r);
    kernel->api_kernel = f;
    return SGRT_SUCCESS;
}

static sgrt_status cu_kernel_create(sgrt_kernel *kernel)
{
    CuKernel *own = calloc(1, sizeof *own);
    if (!own)
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory creating kernel '%s'",
                         kernel->desc->name);
    sgrt_status status = get_function(kernel);
    if (status != SGRT_SUCCESS) {
        free(own);
        return status;
    }
    kernel->priv = own;
    return SGRT_SUCCESS;
}

static void cu_kernel_free(sgrt_kernel *kernel)
{
    free(kernel->priv);
    kernel->priv = NULL;
}

/* A warp, whatever the launch. */
static sgrt_status cu_sub_group_size(sgrt_kernel *kernel, const sgrt_launch_dims *dims,
                                     uint32_t *size)
{
    (void)kernel;
    (void)dims;
    *size = 32;
    return SGRT_SUCCESS;
}

enum { CU_FUNC_ATTR_MAX_THREADS = 0, CU_FUNC_ATTR_SHARED_SIZE = 1 };

static sgrt_status cu_kernel_info(sgrt_kernel *kernel, sgrt_kernel_info *info)
{
    sgrt_status status = push(kernel->program->context);
    if (status != SGRT_SUCCESS)
        return status;
    int max = 0, shared = 0, min_grid = 0, block = 0;
    CUresult r = api.cuFuncGetAttribute(&max, CU_FUNC_ATTR_MAX_THREADS, kernel->api_kernel);
    if (r == CUDA_SUCCESS)
        r = api.cuFuncGetAttribute(&shared, CU_FUNC_ATTR_SHARED_SIZE, kernel->api_kernel);
    if (r == CUDA_SUCCESS)
        r = api.cuOccupancyMaxPotentialBlockSize(&min_grid, &block, kernel->api_kernel, NULL, 0,
                                                 0);
    pop();
    if (r != CUDA_SUCCESS)
        return cu_fail("cuFuncGetAttribute/cuOccupancyMaxPotentialBlockSize", r);
    const sgrt_device_info *in = &kernel->program->context->device->info;
    info->max_work_group_size = (size_t)max;
    info->preferred_multiple = in->sub_group_sizes[0] ? in->sub_group_sizes[0] : 32;
    info->suggested_work_group_size = (size_t)block;
    info->local_mem_size = (uint64_t)shared;
    return SGRT_SUCCESS;
}

/* A work-group size when the caller gave none: the largest power of two up
 * to 256 that divides the first dimension. */
static void pick_local(const sgrt_kernel *kernel, const sgrt_launch_dims *dims, size_t local[3])
{
    size_t max = kernel->program->context->device->info.max_work_group_size;
    size_t x = 256;
    while (x > 1 && (dims->global[0] % x != 0 || (max && x > max)))
        x /= 2;
    local[0] = x;
    local[1] = local[2] = 1;
}

/* Fills params[] for cuLaunchKernel; returns the dynamic shared bytes. */
static size_t marshal_args(sgrt_kernel *kernel, void **params, CUdeviceptr *ptrs,
                           unsigned *offsets)
{
    size_t shared = 0;
    for (uint32_t i = 0; i < kernel->desc->param_count; i++) {
        SgrtArg *a = &kernel->args[i];
        switch (kernel->desc->params[i].kind) {
        case SGRT_PARAM_LOCAL:
            shared = (shared + 15) & ~(size_t)15;
            offsets[i] = (unsigned)shared;
            shared += a->local_bytes;
            params[i] = &offsets[i];
            break;
        case SGRT_PARAM_SCALAR: params[i] = a->value; break;
        default:
            ptrs[i] = dptr(a->buffer);
            params[i] = &ptrs[i];
            break;
        }
    }
    return shared;
}

/* Makes the submit's stream wait for its wait list (their end events). */
static sgrt_status wait_for(const SgrtSubmit *submit)
{
    for (size_t i = 0; i < submit->wait_count; i++) {
        CUevent done = submit->wait[i]->api_event;
        if (done)
            CU_CHECK("cuStreamWaitEvent", api.cuStreamWaitEvent(submit->api_queue, done, 0));
    }
    return SGRT_SUCCESS;
}

/* Creates the event's pair and records the start (with the context
 * current).  The end event is the native handle (what waits wait for); the
 * start is the event's priv. */
static sgrt_status begin_event(const SgrtSubmit *submit)
{
    sgrt_event *event = submit->event;
    if (!event)
        return SGRT_SUCCESS;
    CUevent start = NULL, end = NULL;
    CU_CHECK("cuEventCreate", api.cuEventCreate(&start, 0));
    event->priv = start;
    CU_CHECK("cuEventCreate", api.cuEventCreate(&end, 0));
    event->api_event = end;
    CU_CHECK("cuEventRecord", api.cuEventRecord(start, submit->api_queue));
    return SGRT_SUCCESS;
}

static sgrt_status end_event(const SgrtSubmit *submit)
{
    if (submit->event)
        CU_CHECK("cuEventRecord",
                 api.cuEventRecord(submit->event->api_event, submit->api_queue));
    return SGRT_SUCCESS;
}

static sgrt_status launch_in_context(sgrt_kernel *kernel, const sgrt_launch_dims *dims,
                                     const SgrtSubmit *submit, void **params, size_t shared)
{
    size_t local[3] = {dims->local[0], dims->local[1], dims->local[2]};
    if (!local[0]) {
        pick_local(kernel, dims, local);
        sgrt_status status = sgrt_check_groups(kernel, dims->global, local);
        if (status != SGRT_SUCCESS)
            return status;
    }
    CuKernel *own = kernel->priv;
    if (shared > STATIC_SHARED_LIMIT && shared > own->max_dynamic_local) {
        CU_CHECK("cuFuncSetAttribute",
                 api.cuFuncSetAttribute(kernel->api_kernel, CU_FUNC_ATTR_MAX_DYNAMIC_SHARED,
                                        (int)shared));
        own->max_dynamic_local = shared;
    }
    sgrt_status status = wait_for(submit);
    if (status != SGRT_SUCCESS || (status = begin_event(submit)) != SGRT_SUCCESS)
        return status;
    CU_CHECK("cuLaunchKernel",
             api.cuLaunchKernel(kernel->api_kernel, (unsigned)(dims->global[0] / local[0]),
                                (unsigned)(dims->global[1] / local[1]),
                                (unsigned)(dims->global[2] / local[2]), (unsigned)local[0],
                                (unsigned)local[1], (unsigned)local[2], (unsigned)shared,
                                submit->api_queue, params, NULL));
    return end_event(submit);
}

static void cu_event_free(sgrt_event *event);

static sgrt_status cu_launch(sgrt_kernel *kernel, const sgrt_launch_dims *dims,
                             const SgrtSubmit *submit)
{
    /* Kernels with few parameters (nearly all) marshal on the stack: three
     * callocs per launch were a measurable part of sgrt's launch overhead. */
    enum { STACK_PARAMS = 16 };
    void *params_stack[STACK_PARAMS + 1] = {0};
    CUdeviceptr ptrs_stack[STACK_PARAMS + 1] = {0};
    unsigned offsets_stack[STACK_PARAMS + 1] = {0};
    uint32_t n = kernel->desc->param_count;
    bool small = n <= STACK_PARAMS;
    void **params = small ? params_stack : calloc(n + 1, sizeof *params);
    CUdeviceptr *ptrs = small ? ptrs_stack : calloc(n + 1, sizeof *ptrs);
    unsigned *offsets = small ? offsets_stack : calloc(n + 1, sizeof *offsets);
    sgrt_status status = SGRT_ERROR_OUT_OF_MEMORY;
    if (!params || !ptrs || !offsets)
        status = sgrt_fail(status, "out of memory launching '%s'", kernel->desc->name);
    else if ((status = push(kernel->program->context)) == SGRT_SUCCESS) {
        size_t shared = marshal_args(kernel, params, ptrs, offsets);
        status = launch_in_context(kernel, dims, submit, params, shared);
        pop();
        if (status != SGRT_SUCCESS && submit->event)
            cu_event_free(submit->event);
    }
    if (!small) {
        free(params);
        free(ptrs);
        free(offsets);
    }
    return status;
}

static sgrt_status cu_event_wait(sgrt_event *event)
{
    WITH_CONTEXT(event->context, "cuEventSynchronize", api.cuEventSynchronize(event->api_event));
}

static sgrt_status cu_event_profile(sgrt_event *event, uint64_t *start_ns, uint64_t *end_ns)
{
    float start_ms = 0, end_ms = 0;
    sgrt_status status = push(event->context);
    if (status != SGRT_SUCCESS)
        return status;
    CUevent epoch = event->context->priv;
    CUresult r = api.cuEventElapsedTime(&start_ms, epoch, event->priv);
    if (r == CUDA_SUCCESS)
        r = api.cuEventElapsedTime(&end_ms, epoch, event->api_event);
    pop();
    if (r != CUDA_SUCCESS)
        return cu_fail("cuEventElapsedTime", r);
    *start_ns = (uint64_t)((double)start_ms * 1e6);
    *end_ns = (uint64_t)((double)end_ms * 1e6);
    return SGRT_SUCCESS;
}

static void cu_event_free(sgrt_event *event)
{
    if (push(event->context) != SGRT_SUCCESS)
        return;
    if (event->priv)
        api.cuEventDestroy(event->priv);
    if (event->api_event)
        api.cuEventDestroy(event->api_event);
    event->priv = event->api_event = NULL;
    pop();
}

static sgrt_status cu_queue_create(sgrt_context *ctx, void **api_queue)
{
    CUstream stream = NULL;
    sgrt_status status = push(ctx);
    if (status != SGRT_SUCCESS)
        return status;
    CUresult r = api.cuStreamCreate(&stream, 0);
    pop();
    if (r != CUDA_SUCCESS)
        return cu_fail("cuStreamCreate", r);
    *api_queue = stream;
    return SGRT_SUCCESS;
}

static void cu_queue_free(sgrt_context *ctx, void *api_queue)
{
    if (push(ctx) == SGRT_SUCCESS) {
        api.cuStreamSynchronize(api_queue);
        api.cuStreamDestroy(api_queue);
        pop();
    }
}

static sgrt_status cu_queue_finish(sgrt_context *ctx, void *api_queue)
{
    WITH_CONTEXT(ctx, "cuStreamSynchronize", api.cuStreamSynchronize(api_queue));
}

/* One transfer on the stream; fills of 1, 2 or 4 bytes (cuMemsetD*). */
static CUresult transfer(const SgrtCommand *c, CUstream s)
{
    CUdeviceptr dst = c->dst ? dptr(c->dst) + c->dst_offset : 0;
    CUdeviceptr src = c->src ? dptr(c->src) + c->src_offset : 0;
    switch (c->kind) {
    case SGRT_CMD_WRITE: return api.cuMemcpyHtoDAsync(dst, c->host_src, c->size, s);
    case SGRT_CMD_READ: return api.cuMemcpyDtoHAsync(c->host_dst, src, c->size, s);
    case SGRT_CMD_COPY: return api.cuMemcpyDtoDAsync(dst, src, c->size, s);
    case SGRT_CMD_FILL: break;
    }
    unsigned char b[4];
    memcpy(b, c->pattern, c->pattern_size);
    if (c->pattern_size == 1)
        return api.cuMemsetD8Async(dst, b[0], c->size, s);
    unsigned short h;
    unsigned w;
    memcpy(&h, b, sizeof h);
    if (c->pattern_size == 2)
        return api.cuMemsetD16Async(dst, h, c->size / 2, s);
    memcpy(&w, b, sizeof w);
    return api.cuMemsetD32Async(dst, w, c->size / 4, s);
}

static sgrt_status enqueue_in_context(const SgrtCommand *command, const SgrtSubmit *submit)
{
    static const char *const calls[] = {"cuMemcpyHtoDAsync", "cuMemcpyDtoHAsync",
                                        "cuMemsetD*Async", "cuMemcpyDtoDAsync"};
    sgrt_status status = wait_for(submit);
    if (status != SGRT_SUCCESS || (status = begin_event(submit)) != SGRT_SUCCESS)
        return status;
    if (command->size) {
        CUresult r = transfer(command, submit->api_queue);
        if (r == CUDA_SUCCESS && command->blocking)
            r = api.cuStreamSynchronize(submit->api_queue);
        if (r != CUDA_SUCCESS)
            return cu_fail(calls[command->kind], r);
    }
    return end_event(submit);
}

static sgrt_status cu_enqueue(const SgrtCommand *command, const SgrtSubmit *submit)
{
    if (command->kind == SGRT_CMD_FILL && command->pattern_size > 4)
        return sgrt_fail(SGRT_ERROR_UNSUPPORTED,
                         "sgrt_buffer_fill: CUDA fills patterns of 1, 2 or 4 bytes, not %zu",
                         command->pattern_size);
    sgrt_status status = push(submit->context);
    if (status != SGRT_SUCCESS)
        return status;
    status = enqueue_in_context(command, submit);
    pop();
    if (status != SGRT_SUCCESS && submit->event)
        cu_event_free(submit->event);
    return status;
}

const SgrtBackend sgrt_cuda_backend = {
    .name = "cuda",
    .api = "CUDA",
    .sgcc_output = SGCC_OUTPUT_CUDA,
    .sgcc_target = SGCC_TARGET_CUDA,
    /* Every kernel is in the CUDA source (sgcc refuses there at compile
     * time); warps are 32 wide; CUDA has no CPU device nor work-group
     * built-ins (its devices leave info.wg_collectives false). */
    .skips_unsupported_kernels = false,
    .checks_sub_group_width = false,
    .default_cpu = false,
    .wg_builtin_needs = "OpenCL C 2.0 work-group collective functions, which CUDA does not have",
    .language_level = NULL,
    .enumerate = cu_enumerate,
    .context_create = cu_context_create,
    .context_free = cu_context_free,
    .finish = cu_finish,
    .buffer_create = cu_buffer_create,
    .buffer_free = cu_buffer_free,
    .buffer_write = cu_buffer_write,
    .buffer_read = cu_buffer_read,
    .context_adopt = cu_context_adopt,
    .buffer_adopt = cu_buffer_adopt,
    .device_options = cu_device_options,
    .build_source = cu_build_source,
    .build_binary = cu_build_binary,
    .program_free = cu_program_free,
    .kernel_create = cu_kernel_create,
    .kernel_free = cu_kernel_free,
    .sub_group_size = cu_sub_group_size,
    .kernel_info = cu_kernel_info,
    .launch = cu_launch,
    .queue_create = cu_queue_create,
    .queue_free = cu_queue_free,
    .queue_finish = cu_queue_finish,
    .enqueue = cu_enqueue,
    .event_wait = cu_event_wait,
    .event_profile = cu_event_profile,
    .event_free = cu_event_free,
    .host_alloc = cu_host_alloc,
    .host_free = cu_host_free,
};

/* sgrt.h's interop entry points that take CUDA handles. */
sgrt_status sgrt_context_create_from_cuda(void *cu_context, void *cu_stream,
                                          sgrt_context **context)
{
    if (!cu_context || !context)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_context_create_from_cuda: NULL %s",
                         !cu_context ? "CUcontext" : "context");
    size_t count = 0;
    sgrt_device_get_count(&count);   /* enumerates, which loads the driver */
    return sgrt_context_adopt(&sgrt_cuda_backend, NULL, cu_context, NULL, cu_stream, context);
}

sgrt_status sgrt_buffer_create_from_cuda(sgrt_context *context, void *cu_device_ptr, size_t size,
                                         sgrt_buffer **buffer)
{
    if (!context || !cu_device_ptr || !buffer || size == 0)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_buffer_create_from_cuda: NULL argument or zero size");
    return sgrt_buffer_adopt(&sgrt_cuda_backend, context, cu_device_ptr, size,
                             "sgrt_buffer_create_from_cuda", buffer);
}
