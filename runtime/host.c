/* host.c — page-locked (pinned) host memory: sgrt_host_alloc/_free.
 *
 * OpenCL has no call for it; the portable recipe (NVIDIA's and AMD's
 * guides) is a buffer made with CL_MEM_ALLOC_HOST_PTR, mapped once: the
 * driver backs it with pinned memory, and the mapped pointer is ordinary
 * host memory that clEnqueueRead/WriteBuffer of any buffer copy from and to
 * by DMA.  On CPU runtimes it is plain memory (nothing to pin).  CUDA has
 * cuMemHostAlloc.  Every allocation is listed here with its context, so
 * that a free checks the pointer and sgrt_context_free refuses while
 * allocations live (the OpenCL buffer behind one belongs to the context). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdlib.h>

#include "sgrt_host.h"
#include "sgrt_internal.h"

typedef struct SgrtHostAlloc {
    struct SgrtHostAlloc *next;
    sgrt_context *context;
    void *ptr;
    cl_mem mem;   /* OpenCL: the mapped buffer; NULL on CUDA */
} SgrtHostAlloc;

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static SgrtHostAlloc *host_allocs;

size_t sgrt_host_alloc_count(const sgrt_context *context)
{
    size_t count = 0;
    pthread_mutex_lock(&host_lock);
    for (const SgrtHostAlloc *a = host_allocs; a; a = a->next)
        count += a->context == context;
    pthread_mutex_unlock(&host_lock);
    return count;
}

static sgrt_status cl_host_fail(const char *call, cl_int err)
{
    sgrt_status status = err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE
                             ? SGRT_ERROR_OUT_OF_MEMORY
                             : SGRT_ERROR_BACKEND;
    return sgrt_fail(status, "sgrt_host_alloc: %s failed (OpenCL error %d)", call, (int)err);
}

/* A CL_MEM_ALLOC_HOST_PTR buffer, mapped for reading and writing. */
static sgrt_status cl_host_alloc(sgrt_context *context, size_t size, SgrtHostAlloc *a)
{
    cl_int err = CL_SUCCESS;
    a->mem = clCreateBuffer(context->api_context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size,
                            NULL, &err);
    if (!a->mem)
        return cl_host_fail("clCreateBuffer", err);
    a->ptr = clEnqueueMapBuffer(context->api_queue, a->mem, CL_TRUE,
                                CL_MAP_READ | CL_MAP_WRITE, 0, size, 0, NULL, NULL, &err);
    if (!a->ptr) {
        clReleaseMemObject(a->mem);
        return cl_host_fail("clEnqueueMapBuffer", err);
    }
    return SGRT_SUCCESS;
}

static sgrt_status cl_host_free(sgrt_context *context, SgrtHostAlloc *a)
{
    cl_int err = clEnqueueUnmapMemObject(context->api_queue, a->mem, a->ptr, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(context->api_queue);
    clReleaseMemObject(a->mem);
    return err == CL_SUCCESS ? SGRT_SUCCESS : cl_host_fail("clEnqueueUnmapMemObject", err);
}

sgrt_status sgrt_host_alloc(sgrt_context *context, size_t size, void **ptr)
{
    if (!context || !ptr || size == 0)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_host_alloc: NULL context or output, or size 0");
    *ptr = NULL;
    SgrtHostAlloc *a = calloc(1, sizeof *a);
    if (!a)
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "sgrt_host_alloc: out of host memory");
    a->context = context;
    sgrt_status st = context->device->info.backend == SGRT_BACKEND_CUDA
                         ? sgrt_cuda_host_alloc(context, size, &a->ptr)
                         : cl_host_alloc(context, size, a);
    if (st != SGRT_SUCCESS) {
        free(a);
        return st;
    }
    pthread_mutex_lock(&host_lock);
    a->next = host_allocs;
    host_allocs = a;
    pthread_mutex_unlock(&host_lock);
    *ptr = a->ptr;
    return sgrt_ok();
}

/* Unlinks the allocation of `context` at `ptr`; NULL when there is none. */
static SgrtHostAlloc *take_alloc(const sgrt_context *context, const void *ptr)
{
    SgrtHostAlloc *found = NULL;
    pthread_mutex_lock(&host_lock);
    for (SgrtHostAlloc **p = &host_allocs; *p; p = &(*p)->next) {
        if ((*p)->context == context && (*p)->ptr == ptr) {
            found = *p;
            *p = found->next;
            break;
        }
    }
    pthread_mutex_unlock(&host_lock);
    return found;
}

sgrt_status sgrt_host_free(sgrt_context *context, void *ptr)
{
    if (!ptr)
        return sgrt_ok();
    if (!context)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_host_free: NULL context");
    SgrtHostAlloc *a = take_alloc(context, ptr);
    if (!a)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_host_free: %p is not a page-locked allocation of this context "
                         "(sgrt_host_alloc), or was freed already", ptr);
    sgrt_status st = context->device->info.backend == SGRT_BACKEND_CUDA
                         ? sgrt_cuda_host_free(context, ptr)
                         : cl_host_free(context, a);
    free(a);
    return st == SGRT_SUCCESS ? sgrt_ok() : st;
}
