/* context.c — contexts (a device plus one in-order queue), buffers and
 * events: argument checks and bookkeeping in front of the backend table.
 * A context keeps a list of its live buffers so that kernel arguments can
 * be validated without trusting the pointer the caller passes. */
#include <stdlib.h>
#include <string.h>

#include "sgrt_internal.h"

/* The application's handles a context adopts. */
typedef struct AdoptedHandles {
    void *context, *device, *queue;
} AdoptedHandles;

/* Creates ctx through `be`: its own objects, or (with adopt) the
 * application's handles. */
static sgrt_status new_context(sgrt_device *device, const SgrtBackend *be,
                               const AdoptedHandles *adopt, sgrt_context **context)
{
    sgrt_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory creating a context");
    ctx->device = device;
    sgrt_status status = adopt ? be->context_adopt(ctx, adopt->context, adopt->device,
                                                   adopt->queue)
                               : be->context_create(ctx);
    if (status != SGRT_SUCCESS) {
        free(ctx);
        return status;
    }
    pthread_mutex_init(&ctx->lock, NULL);
    *context = ctx;
    return sgrt_ok();
}

sgrt_status sgrt_context_create(sgrt_device *device, sgrt_context **context)
{
    if (!device || !context)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_context_create: NULL argument");
    return new_context(device, sgrt_backend_of(device), NULL, context);
}

sgrt_status sgrt_context_adopt(const SgrtBackend *be, sgrt_device *device, void *api_context,
                               void *api_device, void *api_queue, sgrt_context **context)
{
    AdoptedHandles handles = {api_context, api_device, api_queue};
    return new_context(device, be, &handles, context);
}

static const char *backend_api_name(sgrt_backend backend)
{
    const SgrtBackend *be = sgrt_backend_by_id(backend);
    return be ? be->api : "unknown";
}

sgrt_status sgrt_native_mismatch(const char *object, sgrt_backend has, sgrt_backend asked)
{
    return sgrt_fail(SGRT_ERROR_HANDLE_MISMATCH,
                     "the sgrt_%s belongs to a %s device; it has no native %s handle", object,
                     backend_api_name(has), backend_api_name(asked));
}

sgrt_status sgrt_context_get_native(const sgrt_context *context, sgrt_backend api,
                                    void **handle)
{
    if (!context || !handle)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_context_get_native: NULL argument");
    if (context->device->info.backend != api)
        return sgrt_native_mismatch("context", context->device->info.backend, api);
    *handle = context->api_context;
    return sgrt_ok();
}

sgrt_status sgrt_context_get_native_queue(const sgrt_context *context, sgrt_backend api,
                                          void **handle)
{
    if (!context || !handle)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_context_get_native_queue: NULL argument");
    if (context->device->info.backend != api)
        return sgrt_native_mismatch("context", context->device->info.backend, api);
    *handle = context->api_queue;
    return sgrt_ok();
}

sgrt_status sgrt_context_free(sgrt_context *context)
{
    if (!context)
        return sgrt_ok();
    if (context->buffers)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_context_free: the context still has buffers");
    if (context->queue_count)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_context_free: the context still has %zu queue(s)",
                         context->queue_count);
    size_t host_allocs = sgrt_host_alloc_count(context);
    if (host_allocs)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_context_free: the context still has %zu page-locked host "
                         "allocation(s) (sgrt_host_free)", host_allocs);
    sgrt_backend_of(context->device)->context_free(context);
    pthread_mutex_destroy(&context->lock);
    free(context);
    return sgrt_ok();
}

sgrt_status sgrt_context_get_device(const sgrt_context *context, sgrt_device **device)
{
    if (!context || !device)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_context_get_device: NULL argument");
    *device = context->device;
    return sgrt_ok();
}

sgrt_status sgrt_finish(sgrt_context *context)
{
    if (!context)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_finish: context is NULL");
    sgrt_status status = sgrt_backend_of(context->device)->finish(context);
    return status == SGRT_SUCCESS ? sgrt_ok() : status;
}

/* Allocates (handle NULL) or wraps the application's memory. */
static sgrt_status new_buffer(sgrt_context *context, size_t size, void *handle,
                              sgrt_buffer **buffer)
{
    sgrt_buffer *buf = calloc(1, sizeof *buf);
    if (!buf)
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory creating a buffer");
    buf->context = context;
    buf->size = size;
    buf->borrowed = handle != NULL;
    const SgrtBackend *be = sgrt_backend_of(context->device);
    sgrt_status status = handle ? be->buffer_adopt(buf, handle, size) : be->buffer_create(buf);
    if (status != SGRT_SUCCESS) {
        free(buf);
        return status;
    }
    pthread_mutex_lock(&context->lock);
    buf->next = context->buffers;
    context->buffers = buf;
    pthread_mutex_unlock(&context->lock);
    *buffer = buf;
    return sgrt_ok();
}

sgrt_status sgrt_buffer_create(sgrt_context *context, size_t size, sgrt_buffer **buffer)
{
    if (!context || !buffer || size == 0)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_buffer_create: NULL argument or zero size");
    return new_buffer(context, size, NULL, buffer);
}

sgrt_status sgrt_buffer_adopt(const SgrtBackend *be, sgrt_context *context, void *handle,
                              size_t size, const char *fn, sgrt_buffer **buffer)
{
    const char *api = sgrt_backend_of(context->device)->api;
    if (sgrt_backend_of(context->device) != be)
        return sgrt_fail(SGRT_ERROR_HANDLE_MISMATCH, "%s: the context is on %s %s device", fn,
                         strchr("AEIOU", api[0]) ? "an" : "a", api);
    return new_buffer(context, size, handle, buffer);
}

sgrt_status sgrt_buffer_get_native(const sgrt_buffer *buffer, sgrt_backend api, void **handle)
{
    if (!buffer || !handle)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_buffer_get_native: NULL argument");
    sgrt_backend has = buffer->context->device->info.backend;
    if (has != api)
        return sgrt_native_mismatch("buffer", has, api);
    *handle = buffer->api_mem;
    return sgrt_ok();
}

sgrt_status sgrt_buffer_free(sgrt_buffer *buffer)
{
    if (!buffer)
        return sgrt_ok();
    sgrt_context *ctx = buffer->context;
    pthread_mutex_lock(&ctx->lock);
    for (sgrt_buffer **p = &ctx->buffers; *p; p = &(*p)->next)
        if (*p == buffer) {
            *p = buffer->next;
            break;
        }
    pthread_mutex_unlock(&ctx->lock);
    sgrt_backend_of(ctx->device)->buffer_free(buffer);
    free(buffer);
    return sgrt_ok();
}

sgrt_status sgrt_buffer_get_size(const sgrt_buffer *buffer, size_t *size)
{
    if (!buffer || !size)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_buffer_get_size: NULL argument");
    *size = buffer->size;
    return sgrt_ok();
}

bool sgrt_buffer_is_live(sgrt_context *context, const sgrt_buffer *buffer)
{
    bool found = false;
    pthread_mutex_lock(&context->lock);
    for (const sgrt_buffer *b = context->buffers; b && !found; b = b->next)
        found = b == buffer;
    pthread_mutex_unlock(&context->lock);
    return found;
}

static sgrt_status check_range(const sgrt_buffer *buffer, size_t offset, size_t size,
                               const void *host, const char *fn)
{
    if (!buffer || !host)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "%s: NULL argument", fn);
    if (offset > buffer->size || size > buffer->size - offset)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "%s: range [%zu, %zu) outside the buffer of %zu bytes", fn, offset,
                         offset + size, buffer->size);
    return SGRT_SUCCESS;
}

sgrt_status sgrt_buffer_write(sgrt_buffer *buffer, size_t offset, size_t size, const void *src)
{
    sgrt_status status = check_range(buffer, offset, size, src, "sgrt_buffer_write");
    if (status == SGRT_SUCCESS && size > 0)
        status = sgrt_backend_of(buffer->context->device)->buffer_write(buffer, offset, size, src);
    return status == SGRT_SUCCESS ? sgrt_ok() : status;
}

sgrt_status sgrt_buffer_read(sgrt_buffer *buffer, size_t offset, size_t size, void *dst)
{
    sgrt_status status = check_range(buffer, offset, size, dst, "sgrt_buffer_read");
    if (status == SGRT_SUCCESS && size > 0)
        status = sgrt_backend_of(buffer->context->device)->buffer_read(buffer, offset, size, dst);
    return status == SGRT_SUCCESS ? sgrt_ok() : status;
}

sgrt_status sgrt_event_wait(sgrt_event *event)
{
    if (!event)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_event_wait: event is NULL");
    sgrt_status status = sgrt_backend_of(event->context->device)->event_wait(event);
    return status == SGRT_SUCCESS ? sgrt_ok() : status;
}

sgrt_status sgrt_event_get_profile(sgrt_event *event, uint64_t *start_ns, uint64_t *end_ns)
{
    if (!event || !start_ns || !end_ns)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_event_get_profile: NULL argument");
    const SgrtBackend *be = sgrt_backend_of(event->context->device);
    sgrt_status status = be->event_wait(event);
    if (status == SGRT_SUCCESS)
        status = be->event_profile(event, start_ns, end_ns);
    return status == SGRT_SUCCESS ? sgrt_ok() : status;
}

sgrt_status sgrt_event_free(sgrt_event *event)
{
    if (event) {
        sgrt_backend_of(event->context->device)->event_free(event);
        free(event);
    }
    return sgrt_ok();
}

sgrt_status sgrt_event_get_native(const sgrt_event *event, sgrt_backend api, void **handle)
{
    if (!event || !handle)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_event_get_native: NULL argument");
    sgrt_backend has = event->context->device->info.backend;
    if (has != api)
        return sgrt_native_mismatch("event", has, api);
    *handle = event->api_event;
    return sgrt_ok();
}
