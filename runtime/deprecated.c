/* deprecated.c — the sgrt 0.1 names of the getters, kept as functions so
 * that hosts built against them still compile and link (sgrt.h declares
 * them under "Deprecated names").  Each forwards to its
 * sgrt_<object>_get_<what> successor; messages name the new function. */
#include "sgrt_internal.h"

sgrt_status sgrt_device_count(size_t *count) { return sgrt_device_get_count(count); }

/* The exported symbol behind the sgrt_device_get_info macro, for callers
 * that take its address or bypass the macro: they pass a struct of this
 * header's size. */
sgrt_status(sgrt_device_get_info)(const sgrt_device *device, sgrt_device_info *info)
{
    return sgrt_device_get_info_sized(device, info, sizeof *info);
}

sgrt_status sgrt_context_device(const sgrt_context *context, sgrt_device **device)
{
    return sgrt_context_get_device(context, device);
}

size_t sgrt_buffer_size(const sgrt_buffer *buffer) { return buffer ? buffer->size : 0; }

sgrt_status sgrt_event_profile(sgrt_event *event, uint64_t *start_ns, uint64_t *end_ns)
{
    return sgrt_event_get_profile(event, start_ns, end_ns);
}

sgrt_status sgrt_program_build_log(const sgrt_program *program, const char **log)
{
    return sgrt_program_get_build_log(program, log);
}

sgrt_status sgrt_program_build_options(const sgrt_program *program, const char **options)
{
    return sgrt_program_get_build_options(program, options);
}

sgrt_status sgrt_program_cache_hit(const sgrt_program *program, bool *hit)
{
    return sgrt_program_get_cache_hit(program, hit);
}

sgrt_status sgrt_kernel_desc_get(const sgrt_kernel *kernel, const sgrt_kernel_desc **desc)
{
    return sgrt_kernel_get_desc(kernel, desc);
}

sgrt_status sgrt_kernel_sub_group_size(sgrt_kernel *kernel, const sgrt_launch_dims *dims,
                                       uint32_t *size)
{
    return sgrt_kernel_get_sub_group_size(kernel, dims, size);
}
