/* context.c — contexts (a device plus one in-order queue), buffers and
 * events: argument checks and bookkeeping in front of the backend table.
 * A context keeps a list of its live buffers so that kernel arguments can
 * be validated without trusting the pointer the caller passes. */
#include <stdlib.h>

#include "sgrt_internal.h"

sgrt_status sgrt_context_create(sgrt_device *device, sgrt_context **context)
{
    if (!device || !context)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_context_create: NULL argument");
    sgrt_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory creating a context");
    ctx->device = device;
    sgrt_status status = sgrt_backend_of(device)->context_create(ctx);
    if (status != SGRT_SUCCESS) {
        free(ctx);
        return status;
    }
    pthread_mutex_init(&ctx->lock, NULL);
    *context = ctx;
    return sgrt_ok();
}

sgrt_status sgrt_context_free(sgrt_context *context)
{
    if (!context)
        return sgrt_ok();
    if (context->buffers)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_context_free: the context still has buffers");
    sgrt_backend_of(context->device)->context_free(context);
    pthread_mutex_destroy(&context->lock);
    free(context);
    return sgrt_ok();
}

sgrt_status sgrt_context_device(const sgrt_context *context, sgrt_device **device)
{
    if (!context || !device)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_context_device: NULL argument");
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

sgrt_status sgrt_buffer_create(sgrt_context *context, size_t size, sgrt_buffer **buffer)
{
    if (!context || !buffer || size == 0)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_buffer_create: NULL argument or zero size");
    sgrt_buffer *buf = calloc(1, sizeof *buf);
    if (!buf)
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory creating a buffer");
    buf->context = context;
    buf->size = size;
    sgrt_status status = sgrt_backend_of(context->device)->buffer_create(buf);
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

size_t sgrt_buffer_size(const sgrt_buffer *buffer) { return buffer ? buffer->size : 0; }

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

sgrt_status sgrt_event_profile(sgrt_event *event, uint64_t *start_ns, uint64_t *end_ns)
{
    if (!event || !start_ns || !end_ns)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_event_profile: NULL argument");
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
