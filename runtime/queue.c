/* queue.c — asynchronous work: more queues per context, non-blocking
 * reads and writes, fill, buffer-to-buffer copy, launches after a list of
 * events (sgrt_kernel_launch_async is in kernel.c).
 *
 * Every command is described once (SgrtCommand: what; SgrtSubmit: on
 * which queue, after which events, into which event) and checked here, so
 * that the backends only translate: OpenCL to clEnqueue* with an event
 * wait list, CUDA to *Async calls after cuStreamWaitEvent on the waited
 * events' completion events. */
#include <stdlib.h>

#include "sgrt_internal.h"

sgrt_status sgrt_submit_prepare(SgrtSubmit *submit, sgrt_context *context, sgrt_queue *queue,
                                sgrt_event *const *wait, size_t wait_count, const char *fn)
{
    if (queue && queue->context != context)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "%s: the queue belongs to another context", fn);
    if (wait_count && !wait)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "%s: %zu events to wait for, but no list",
                         fn, wait_count);
    for (size_t i = 0; i < wait_count; i++)
        if (!wait[i] || wait[i]->context != context)
            return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                             "%s: event %zu of the wait list is %s", fn, i,
                             wait[i] ? "of another context" : "NULL");
    *submit = (SgrtSubmit){context, queue ? queue->api_queue : context->api_queue, wait,
                           wait_count, NULL};
    return SGRT_SUCCESS;
}

sgrt_status sgrt_submit_event(SgrtSubmit *submit, sgrt_event **event)
{
    if (!event)
        return SGRT_SUCCESS;
    if (!(submit->event = calloc(1, sizeof *submit->event)))
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory creating an event");
    submit->event->context = submit->context;
    return SGRT_SUCCESS;
}

sgrt_status sgrt_queue_create(sgrt_context *context, sgrt_queue **queue)
{
    if (!context || !queue)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_queue_create: NULL argument");
    sgrt_queue *q = calloc(1, sizeof *q);
    if (!q)
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory creating a queue");
    q->context = context;
    sgrt_status status = sgrt_backend_of(context->device)->queue_create(context, &q->api_queue);
    if (status != SGRT_SUCCESS) {
        free(q);
        return status;
    }
    pthread_mutex_lock(&context->lock);
    context->queue_count++;
    pthread_mutex_unlock(&context->lock);
    *queue = q;
    return sgrt_ok();
}

sgrt_status sgrt_queue_free(sgrt_queue *queue)
{
    if (!queue)
        return sgrt_ok();
    sgrt_context *ctx = queue->context;
    sgrt_backend_of(ctx->device)->queue_free(ctx, queue->api_queue);
    pthread_mutex_lock(&ctx->lock);
    ctx->queue_count--;
    pthread_mutex_unlock(&ctx->lock);
    free(queue);
    return sgrt_ok();
}

sgrt_status sgrt_queue_finish(sgrt_queue *queue)
{
    if (!queue)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_queue_finish: queue is NULL");
    sgrt_context *ctx = queue->context;
    sgrt_status status = sgrt_backend_of(ctx->device)->queue_finish(ctx, queue->api_queue);
    return status == SGRT_SUCCESS ? sgrt_ok() : status;
}

sgrt_status sgrt_queue_get_native(const sgrt_queue *queue, sgrt_backend api, void **handle)
{
    if (!queue || !handle)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_queue_get_native: NULL argument");
    sgrt_backend has = queue->context->device->info.backend;
    if (has != api)
        return sgrt_native_mismatch("queue", has, api);
    *handle = queue->api_queue;
    return sgrt_ok();
}

static sgrt_status check_range(const sgrt_buffer *b, size_t offset, size_t size, const char *fn)
{
    if (offset > b->size || size > b->size - offset)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "%s: range [%zu, %zu) outside the buffer of %zu bytes", fn, offset,
                         offset + size, b->size);
    return SGRT_SUCCESS;
}

/* Checks the command's buffers and ranges, then submits it. */
static sgrt_status submit_command(const SgrtCommand *cmd, sgrt_queue *queue,
                                  sgrt_event *const *wait, size_t wait_count, sgrt_event **event,
                                  const char *fn)
{
    sgrt_buffer *main = cmd->kind == SGRT_CMD_READ ? cmd->src : cmd->dst;
    sgrt_context *ctx = main->context;
    sgrt_status status = SGRT_SUCCESS;
    if (cmd->kind == SGRT_CMD_COPY) {
        if (cmd->src->context != ctx)
            return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                             "%s: the buffers belong to different contexts", fn);
        if (cmd->src == cmd->dst && cmd->src_offset < cmd->dst_offset + cmd->size &&
            cmd->dst_offset < cmd->src_offset + cmd->size)
            return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "%s: the ranges overlap", fn);
        status = check_range(cmd->src, cmd->src_offset, cmd->size, fn);
    }
    if (status == SGRT_SUCCESS)
        status = check_range(main, cmd->kind == SGRT_CMD_READ ? cmd->src_offset : cmd->dst_offset,
                             cmd->size, fn);
    SgrtSubmit submit;
    if (status == SGRT_SUCCESS)
        status = sgrt_submit_prepare(&submit, ctx, queue, wait, wait_count, fn);
    if (status == SGRT_SUCCESS)
        status = sgrt_submit_event(&submit, event);
    if (status != SGRT_SUCCESS)
        return status;
    status = sgrt_backend_of(ctx->device)->enqueue(cmd, &submit);
    if (status != SGRT_SUCCESS) {
        free(submit.event);
        return status;
    }
    if (event)
        *event = submit.event;
    return sgrt_ok();
}

sgrt_status sgrt_buffer_write_async(sgrt_queue *queue, sgrt_buffer *buffer, size_t offset,
                                    size_t size, const void *src, sgrt_event *const *wait,
                                    size_t wait_count, sgrt_event **event)
{
    if (!buffer || !src)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_buffer_write_async: NULL argument");
    SgrtCommand cmd = {.kind = SGRT_CMD_WRITE, .dst = buffer, .dst_offset = offset,
                       .size = size, .host_src = src};
    return submit_command(&cmd, queue, wait, wait_count, event, "sgrt_buffer_write_async");
}

sgrt_status sgrt_buffer_read_async(sgrt_queue *queue, sgrt_buffer *buffer, size_t offset,
                                   size_t size, void *dst, sgrt_event *const *wait,
                                   size_t wait_count, sgrt_event **event)
{
    if (!buffer || !dst)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_buffer_read_async: NULL argument");
    SgrtCommand cmd = {.kind = SGRT_CMD_READ, .src = buffer, .src_offset = offset, .size = size,
                       .host_dst = dst};
    return submit_command(&cmd, queue, wait, wait_count, event, "sgrt_buffer_read_async");
}

sgrt_status sgrt_buffer_fill(sgrt_queue *queue, sgrt_buffer *buffer, const void *pattern,
                             size_t pattern_size, size_t offset, size_t size,
                             sgrt_event *const *wait, size_t wait_count, sgrt_event **event)
{
    if (!buffer || !pattern)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_buffer_fill: NULL argument");
    if (pattern_size == 0 || (pattern_size & (pattern_size - 1)) || pattern_size > 128 ||
        offset % pattern_size || size % pattern_size)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_buffer_fill: pattern of %zu bytes (a power of two up to 128, "
                         "dividing offset %zu and size %zu)",
                         pattern_size, offset, size);
    SgrtCommand cmd = {.kind = SGRT_CMD_FILL, .dst = buffer, .dst_offset = offset, .size = size,
                       .pattern = pattern, .pattern_size = pattern_size};
    return submit_command(&cmd, queue, wait, wait_count, event, "sgrt_buffer_fill");
}

sgrt_status sgrt_buffer_copy(sgrt_queue *queue, sgrt_buffer *src, size_t src_offset,
                             sgrt_buffer *dst, size_t dst_offset, size_t size,
                             sgrt_event *const *wait, size_t wait_count, sgrt_event **event)
{
    if (!src || !dst)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_buffer_copy: NULL argument");
    SgrtCommand cmd = {.kind = SGRT_CMD_COPY, .src = src, .src_offset = src_offset, .dst = dst,
                       .dst_offset = dst_offset, .size = size};
    return submit_command(&cmd, queue, wait, wait_count, event, "sgrt_buffer_copy");
}
