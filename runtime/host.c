/* host.c — page-locked (pinned) host memory: sgrt_host_alloc/_free.
 *
 * The backend allocates (SgrtBackend.host_alloc: CUDA's cuMemHostAlloc,
 * OpenCL's mapped CL_MEM_ALLOC_HOST_PTR buffer).  Every allocation is
 * listed here with its context, so that a free checks the pointer and
 * sgrt_context_free refuses while allocations live (what a backend keeps
 * behind one, such as OpenCL's buffer, may belong to the context). */
#include <pthread.h>
#include <stdlib.h>

#include "sgrt_internal.h"

typedef struct SgrtHostAlloc {
    struct SgrtHostAlloc *next;
    sgrt_context *context;
    void *ptr;
    void *priv;   /* the backend's own (OpenCL: the mapped buffer) */
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
    sgrt_status st = sgrt_backend_of(context->device)->host_alloc(context, size, &a->ptr,
                                                                  &a->priv);
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
    sgrt_status st = sgrt_backend_of(context->device)->host_free(context, ptr, a->priv);
    free(a);
    return st == SGRT_SUCCESS ? sgrt_ok() : st;
}
