/* kernel.c — kernels of a built program: argument slots checked against
 * the module descriptor (the descriptor, not the device API, is the
 * reference, so errors are the same on every backend), launch-size
 * validation with OpenCL meaning (global = total work-items), and events. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sgrt_internal.h"

static const sgrt_kernel_desc *find_kernel(const sgrt_module_desc *m, const char *name)
{
    for (uint32_t i = 0; i < m->kernel_count; i++)
        if (strcmp(m->kernels[i].name, name) == 0)
            return &m->kernels[i];
    return NULL;
}

static sgrt_status new_kernel(sgrt_program *prog, const sgrt_kernel_desc *desc,
                              sgrt_kernel **out)
{
    sgrt_kernel *k = calloc(1, sizeof *k);
    bool ok = k && (k->args = calloc(desc->param_count + 1, sizeof *k->args));
    for (uint32_t i = 0; ok && i < desc->param_count; i++)
        if (desc->params[i].kind == SGRT_PARAM_SCALAR)
            ok = (k->args[i].value = calloc(1, desc->params[i].size + 1)) != NULL;
    sgrt_status status = ok ? SGRT_SUCCESS
                            : sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory creating a kernel");
    if (ok) {
        k->program = prog;
        k->desc = desc;
        status = sgrt_backend_of(prog->context->device)->kernel_create(k);
    }
    if (status != SGRT_SUCCESS) {
        for (uint32_t i = 0; k && k->args && i < desc->param_count; i++)
            free(k->args[i].value);
        if (k)
            free(k->args);
        free(k);
        return status;
    }
    k->next = prog->kernels;
    prog->kernels = k;
    *out = k;
    return SGRT_SUCCESS;
}

sgrt_status sgrt_kernel_get(sgrt_program *program, const char *name, sgrt_kernel **kernel)
{
    if (!program || !name || !kernel)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_kernel_get: NULL argument");
    if (!program->built)
        return sgrt_fail(SGRT_ERROR_NOT_BUILT, "module '%s' is not built; call sgrt_program_build",
                         program->module->name);
    const sgrt_kernel_desc *desc = find_kernel(program->module, name);
    if (!desc)
        return sgrt_fail(SGRT_ERROR_KERNEL_NOT_FOUND, "module '%s' has no kernel '%s'",
                         program->module->name, name);
    sgrt_backend backend = program->context->device->info.backend;
    if (desc->unsupported[backend]) {
        const char *api = sgrt_backend_of(program->context->device)->api;
        return sgrt_fail(SGRT_ERROR_KERNEL_UNSUPPORTED,
                         "kernel '%s' of module '%s' cannot run on %s: %s (sgcc left it out of "
                         "the %s source)",
                         name, program->module->name, api, desc->unsupported[backend], api);
    }
    const char *refused = program->refused ? program->refused[desc - program->module->kernels]
                                           : NULL;
    if (refused)
        return sgrt_fail(SGRT_ERROR_KERNEL_UNSUPPORTED,
                         "%s (module '%s' was built without it: "
                         "-DSGC_SKIP_UNSUPPORTED_KERNELS)",
                         refused, program->module->name);
    sgrt_status status = SGRT_SUCCESS;
    pthread_mutex_lock(&program->lock);
    sgrt_kernel *k = program->kernels;
    while (k && k->desc != desc)
        k = k->next;
    if (!k)
        status = new_kernel(program, desc, &k);
    pthread_mutex_unlock(&program->lock);
    if (status != SGRT_SUCCESS)
        return status;
    *kernel = k;
    return sgrt_ok();
}

sgrt_status sgrt_program_get_kernel(sgrt_program *program, const char *name,
                                    sgrt_kernel **kernel)
{
    return sgrt_kernel_get(program, name, kernel);
}

sgrt_status sgrt_kernel_get_desc(const sgrt_kernel *kernel, const sgrt_kernel_desc **desc)
{
    if (!kernel || !desc)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_kernel_get_desc: NULL argument");
    *desc = kernel->desc;
    return sgrt_ok();
}

static const char *const param_kind_names[] = {
    [SGRT_PARAM_GLOBAL] = "global buffer",
    [SGRT_PARAM_CONSTANT] = "constant buffer",
    [SGRT_PARAM_LOCAL] = "local (dynamic local memory)",
    [SGRT_PARAM_SCALAR] = "by-value",
};

/* The parameter `index`, or NULL after reporting ARG_COUNT. */
static const sgrt_param_desc *param_at(const sgrt_kernel *kernel, uint32_t index, sgrt_status *st)
{
    if (!kernel) {
        *st = sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "kernel is NULL");
        return NULL;
    }
    if (index >= kernel->desc->param_count) {
        *st = sgrt_fail(SGRT_ERROR_ARG_COUNT,
                        "kernel '%s' has %u parameter(s); argument index %u is out of range",
                        kernel->desc->name, kernel->desc->param_count, index);
        return NULL;
    }
    return &kernel->desc->params[index];
}

static sgrt_status arg_type_error(const sgrt_kernel *kernel, uint32_t index, const char *what)
{
    const sgrt_param_desc *p = &kernel->desc->params[index];
    return sgrt_fail(SGRT_ERROR_ARG_TYPE,
                     "argument %u ('%s') of kernel '%s' is a %s parameter of type %s%s "
                     "(%zu bytes): %s",
                     index, p->name, kernel->desc->name, param_kind_names[p->kind],
                     sgrt_type_name(p->type), p->kind == SGRT_PARAM_SCALAR ? "" : " *", p->size,
                     what);
}

sgrt_status sgrt_kernel_set_arg_buffer(sgrt_kernel *kernel, uint32_t index, sgrt_buffer *buffer)
{
    sgrt_status st = SGRT_SUCCESS;
    const sgrt_param_desc *p = param_at(kernel, index, &st);
    if (!p)
        return st;
    if (p->kind != SGRT_PARAM_GLOBAL && p->kind != SGRT_PARAM_CONSTANT)
        return arg_type_error(kernel, index, "a buffer was passed");
    if (!buffer || !sgrt_buffer_is_live(kernel->program->context, buffer))
        return arg_type_error(kernel, index, "not a live buffer of the program's context");
    kernel->args[index].buffer = buffer;
    kernel->args[index].set = true;
    kernel->args[index].dirty = true;
    return sgrt_ok();
}

sgrt_status sgrt_kernel_set_arg_local(sgrt_kernel *kernel, uint32_t index, size_t bytes)
{
    sgrt_status st = SGRT_SUCCESS;
    const sgrt_param_desc *p = param_at(kernel, index, &st);
    if (!p)
        return st;
    if (p->kind != SGRT_PARAM_LOCAL)
        return arg_type_error(kernel, index, "a local-memory size was passed");
    if (bytes == 0)
        return arg_type_error(kernel, index, "local-memory size 0");
    kernel->args[index].local_bytes = bytes;
    kernel->args[index].set = true;
    kernel->args[index].dirty = true;
    return sgrt_ok();
}

static sgrt_status set_scalar(sgrt_kernel *kernel, uint32_t index, size_t size, const void *value)
{
    const sgrt_param_desc *p = &kernel->desc->params[index];
    if (p->kind != SGRT_PARAM_SCALAR)
        return arg_type_error(kernel, index, "a by-value argument was passed");
    if (!value || size != p->size)
        return arg_type_error(kernel, index, "wrong size or NULL value");
    memcpy(kernel->args[index].value, value, size);
    kernel->args[index].set = true;
    kernel->args[index].dirty = true;
    return sgrt_ok();
}

sgrt_status sgrt_kernel_set_arg_scalar(sgrt_kernel *kernel, uint32_t index, sgrt_type type,
                                       const void *value)
{
    sgrt_status st = SGRT_SUCCESS;
    const sgrt_param_desc *p = param_at(kernel, index, &st);
    if (!p)
        return st;
    if (p->kind == SGRT_PARAM_SCALAR && p->type != type)
        return arg_type_error(kernel, index, "a value of another type was passed");
    return set_scalar(kernel, index, sgrt_type_size(type), value);
}

sgrt_status sgrt_kernel_set_arg(sgrt_kernel *kernel, uint32_t index, size_t size,
                                const void *value)
{
    sgrt_status st = SGRT_SUCCESS;
    const sgrt_param_desc *p = param_at(kernel, index, &st);
    if (!p)
        return st;
    switch (p->kind) {
    case SGRT_PARAM_GLOBAL:
    case SGRT_PARAM_CONSTANT:
        if (!value || size != sizeof(sgrt_buffer *))
            return arg_type_error(kernel, index,
                                  "pass sizeof(sgrt_buffer *) and a pointer to an sgrt_buffer *");
        return sgrt_kernel_set_arg_buffer(kernel, index, *(sgrt_buffer *const *)value);
    case SGRT_PARAM_LOCAL:
        if (value)
            return arg_type_error(kernel, index, "pass the byte size and a NULL value");
        return sgrt_kernel_set_arg_local(kernel, index, size);
    case SGRT_PARAM_SCALAR:
        break;
    }
    return set_scalar(kernel, index, size, value);
}

/* a * b into *product unless it overflows size_t. */
static bool mul_fits(size_t a, size_t b, size_t *product)
{
    if (a && b > SIZE_MAX / a)
        return false;
    *product = a * b;
    return true;
}

/* The work-group `local` (all non-zero) against the device's limits. */
static sgrt_status check_local_limits(const sgrt_kernel *kernel, const size_t local[3])
{
    const sgrt_device *dev = kernel->program->context->device;
    const char *name = kernel->desc->name;
    size_t items = 1;
    for (uint32_t i = 0; i < 3; i++) {
        size_t max = dev->max_work_item_sizes[i];
        if (max && local[i] > max)
            return sgrt_fail(SGRT_ERROR_WORK_SIZE,
                             "launch of '%s': local[%u] = %zu exceeds the device maximum %zu "
                             "for that dimension",
                             name, i, local[i], max);
        if (!mul_fits(items, local[i], &items))
            items = SIZE_MAX;
    }
    size_t max = dev->info.max_work_group_size;
    if (max && items > max)
        return sgrt_fail(SGRT_ERROR_WORK_SIZE,
                         "launch of '%s': work-group of %zu work-items exceeds the device "
                         "maximum %zu",
                         name, items, max);
    return SGRT_SUCCESS;
}

/* The NDRange `global` in all: its product must be a size_t and within
 * what the device addresses. */
static sgrt_status check_global_limits(const sgrt_kernel *kernel, const size_t global[3])
{
    const sgrt_device *dev = kernel->program->context->device;
    size_t items = 1;
    bool fits = mul_fits(global[0], global[1], &items) && mul_fits(items, global[2], &items);
    uint64_t max = dev->max_global_items ? dev->max_global_items : UINT64_MAX;
    if (!fits || (uint64_t)items > max)
        return sgrt_fail(SGRT_ERROR_WORK_SIZE,
                         "launch of '%s': global size %zu x %zu x %zu is more work-items than "
                         "the device addresses (at most %" PRIu64 ")",
                         kernel->desc->name, global[0], global[1], global[2], max);
    return SGRT_SUCCESS;
}

sgrt_status sgrt_check_groups(const sgrt_kernel *kernel, const size_t global[3],
                              const size_t local[3])
{
    const sgrt_device *dev = kernel->program->context->device;
    for (uint32_t i = 0; i < 3; i++) {
        uint64_t groups = global[i] / local[i], max = dev->max_groups[i];
        if (max && groups > max)
            return sgrt_fail(SGRT_ERROR_WORK_SIZE,
                             "launch of '%s': %" PRIu64 " work-groups in dimension %u exceed "
                             "the device maximum %" PRIu64 " (global[%u] = %zu, local[%u] = %zu)",
                             kernel->desc->name, groups, i, max, i, global[i], i, local[i]);
    }
    return SGRT_SUCCESS;
}

/* One dimension of a local size given (or required): it must be the
 * required one and divide the global size. */
static sgrt_status check_local_dim(const sgrt_kernel *kernel, uint32_t i, size_t global,
                                   size_t local, size_t want)
{
    const sgrt_kernel_desc *d = kernel->desc;
    const uint32_t *reqd = d->reqd_work_group_size;
    if (want && local != want)
        return sgrt_fail(SGRT_ERROR_WORK_SIZE,
                         "launch of '%s': local size differs from its "
                         "reqd_work_group_size(%u,%u,%u)",
                         d->name, reqd[0], reqd[1], reqd[2]);
    if (local && global % local != 0)
        return sgrt_fail(SGRT_ERROR_WORK_SIZE,
                         "launch of '%s': global[%u] = %zu is not a multiple of local[%u] = "
                         "%zu",
                         d->name, i, global, i, local);
    return SGRT_SUCCESS;
}

/* Normalises dims: unused dimensions become 1, an all-zero local size
 * becomes the kernel's required one (or stays 0: the backend picks).
 * Sizes the kernel or the device cannot take are SGRT_ERROR_WORK_SIZE. */
static sgrt_status check_dims(const sgrt_kernel *kernel, const sgrt_launch_dims *in,
                              sgrt_launch_dims *out)
{
    const sgrt_kernel_desc *d = kernel->desc;
    const uint32_t *reqd = d->reqd_work_group_size;
    if (in->dims < 1 || in->dims > 3)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "launch of '%s': dims must be 1, 2 or 3",
                         d->name);
    bool any_local = false;
    for (uint32_t i = 0; i < in->dims; i++)
        any_local |= in->local[i] != 0;
    out->dims = in->dims;
    for (uint32_t i = 0; i < 3; i++) {
        size_t want = reqd[0] ? (reqd[i] ? reqd[i] : 1) : 0;
        out->global[i] = i < in->dims ? in->global[i] : 1;
        if (any_local)
            out->local[i] = i < in->dims && in->local[i] ? in->local[i] : 1;
        else
            out->local[i] = want;
        if (out->global[i] == 0)
            return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "launch of '%s': global[%u] is 0",
                             d->name, i);
        sgrt_status status = check_local_dim(kernel, i, out->global[i], out->local[i], want);
        if (status != SGRT_SUCCESS)
            return status;
    }
    sgrt_status status = check_global_limits(kernel, out->global);
    if (status == SGRT_SUCCESS && out->local[0])
        status = check_local_limits(kernel, out->local);
    if (status == SGRT_SUCCESS && out->local[0])
        status = sgrt_check_groups(kernel, out->global, out->local);
    return status;
}

sgrt_status sgrt_kernel_get_sub_group_size(sgrt_kernel *kernel, const sgrt_launch_dims *dims,
                                           uint32_t *size)
{
    if (!kernel || !dims || !size)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_kernel_get_sub_group_size: NULL argument");
    sgrt_launch_dims norm;
    sgrt_status status = check_dims(kernel, dims, &norm);
    if (status != SGRT_SUCCESS)
        return status;
    if (!norm.local[0])
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_kernel_get_sub_group_size('%s'): give the local size",
                         kernel->desc->name);
    const sgrt_device *dev = kernel->program->context->device;
    if (!dev->info.sub_groups)
        return sgrt_fail(SGRT_ERROR_UNSUPPORTED,
                         "sgrt_kernel_get_sub_group_size('%s'): device '%s' has no sub-groups "
                         "(no cl_khr_subgroups, cl_intel_subgroups or __opencl_c_subgroups)",
                         kernel->desc->name, dev->info.name);
    status = sgrt_backend_of(dev)->sub_group_size(kernel, &norm, size);
    if (status != SGRT_SUCCESS)
        return status;
    /* The API answers with the compiler's maximum; a smaller work-group is
     * one sub-group of its own size. */
    size_t items = norm.local[0] * norm.local[1] * norm.local[2];
    if (items < *size)
        *size = (uint32_t)items;
    return sgrt_ok();
}

/* The device library keeps a sub-group's members in a 64-bit lane mask.
 * Where the device compiler picks the sub-group size (SgrtBackend's
 * checks_sub_group_width; OpenCL khr tier: PoCL makes the whole work-group
 * one sub-group), a larger one would compute wrong answers, so the launch
 * is refused.  Checked once per local size. */
static sgrt_status check_sub_group_fits(sgrt_kernel *kernel, const sgrt_launch_dims *norm)
{
    const sgrt_device *dev = kernel->program->context->device;
    if (!kernel->desc->needs_sub_groups || !sgrt_backend_of(dev)->checks_sub_group_width ||
        dev->info.nvptx || !norm->local[0] ||
        memcmp(kernel->sub_group_checked, norm->local, sizeof norm->local) == 0)
        return SGRT_SUCCESS;
    uint32_t size = 0;
    sgrt_status status = sgrt_kernel_get_sub_group_size(kernel, norm, &size);
    if (status != SGRT_SUCCESS)
        return status;
    if (size > 64)
        return sgrt_fail(SGRT_ERROR_UNSUPPORTED,
                         "launch of '%s': device '%s' makes sub-groups of %u work-items for "
                         "this work-group size; sgcc's group library holds at most 64; use a "
                         "work-group of at most 64 work-items",
                         kernel->desc->name, dev->info.name, size);
    memcpy(kernel->sub_group_checked, norm->local, sizeof norm->local);
    return SGRT_SUCCESS;
}

sgrt_status sgrt_kernel_get_info(sgrt_kernel *kernel, sgrt_kernel_info *info)
{
    if (!kernel || !info)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_kernel_get_info: NULL argument");
    sgrt_kernel_info out = {0};
    sgrt_status status =
        sgrt_backend_of(kernel->program->context->device)->kernel_info(kernel, &out);
    if (status != SGRT_SUCCESS)
        return status;
    *info = out;
    return sgrt_ok();
}

/* Both launch calls: arguments and sizes checked, then the backend. */
static sgrt_status launch(sgrt_kernel *kernel, sgrt_queue *queue, const sgrt_launch_dims *dims,
                          sgrt_event *const *wait, size_t wait_count, sgrt_event **event,
                          const char *fn)
{
    if (!kernel || !dims)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "%s: NULL argument", fn);
    for (uint32_t i = 0; i < kernel->desc->param_count; i++)
        if (!kernel->args[i].set)
            return sgrt_fail(SGRT_ERROR_ARG_COUNT, "argument %u ('%s') of kernel '%s' is not set",
                             i, kernel->desc->params[i].name, kernel->desc->name);
    sgrt_launch_dims norm;
    sgrt_status status = check_dims(kernel, dims, &norm);
    if (status == SGRT_SUCCESS)
        status = check_sub_group_fits(kernel, &norm);
    sgrt_context *ctx = kernel->program->context;
    SgrtSubmit submit;
    if (status == SGRT_SUCCESS)
        status = sgrt_submit_prepare(&submit, ctx, queue, wait, wait_count, fn);
    if (status == SGRT_SUCCESS)
        status = sgrt_submit_event(&submit, event);
    if (status != SGRT_SUCCESS)
        return status;
    status = sgrt_backend_of(ctx->device)->launch(kernel, &norm, &submit);
    if (status != SGRT_SUCCESS) {
        free(submit.event);
        return status;
    }
    if (event)
        *event = submit.event;
    return sgrt_ok();
}

sgrt_status sgrt_kernel_launch(sgrt_kernel *kernel, const sgrt_launch_dims *dims,
                               sgrt_event **event)
{
    return launch(kernel, NULL, dims, NULL, 0, event, "sgrt_kernel_launch");
}

sgrt_status sgrt_kernel_launch_async(sgrt_kernel *kernel, sgrt_queue *queue,
                                     const sgrt_launch_dims *dims, sgrt_event *const *wait,
                                     size_t wait_count, sgrt_event **event)
{
    return launch(kernel, queue, dims, wait, wait_count, event, "sgrt_kernel_launch_async");
}

sgrt_status sgrt_kernel_get_native(const sgrt_kernel *kernel, sgrt_backend api, void **handle)
{
    if (!kernel || !handle)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_kernel_get_native: NULL argument");
    sgrt_backend has = kernel->program->context->device->info.backend;
    if (has != api)
        return sgrt_native_mismatch("kernel", has, api);
    *handle = kernel->api_kernel;
    return sgrt_ok();
}
