/* sgrt_opencl.h — sgrt's interop calls with OpenCL's own types.
 *
 * Header only: each function forwards to the void * form in sgrt.h
 * (docs/RUNTIME.md "Interop with native OpenCL and CUDA handles") and
 * converts the handle, so that a C host
 * that already uses OpenCL writes no casts.  Include CL/cl.h first if you
 * want to choose CL_TARGET_OPENCL_VERSION; any version works.  Ownership
 * is that of the sgrt.h calls: adopted handles are retained and released,
 * never destroyed; handles sgrt gives out stay sgrt's (retain to keep). */
#ifndef SGRT_OPENCL_H
#define SGRT_OPENCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "sgrt.h"

#ifdef __cplusplus
extern "C" {
#endif

static inline sgrt_status sgrt_context_create_from_cl(cl_context context, cl_device_id device,
                                                      cl_command_queue queue,
                                                      sgrt_context **out)
{
    return sgrt_context_create_from_opencl((void *)context, (void *)device, (void *)queue, out);
}

static inline sgrt_status sgrt_buffer_create_from_cl_mem(sgrt_context *context, cl_mem mem,
                                                         sgrt_buffer **out)
{
    return sgrt_buffer_create_from_opencl(context, (void *)mem, out);
}

/* sgrt_<object>_get_cl_<what>(object, &handle): the native handle. */
#define SGRT_CL_GETTER(function, object_type, getter, cl_type)                 \
    static inline sgrt_status function(const object_type *object, cl_type *out) \
    {                                                                          \
        void *handle = NULL;                                                   \
        sgrt_status status = getter(object, SGRT_BACKEND_OPENCL, &handle);     \
        if (status == SGRT_SUCCESS)                                            \
            *out = (cl_type)handle;                                            \
        return status;                                                         \
    }
SGRT_CL_GETTER(sgrt_device_get_cl_device, sgrt_device, sgrt_device_get_native, cl_device_id)
SGRT_CL_GETTER(sgrt_context_get_cl_context, sgrt_context, sgrt_context_get_native, cl_context)
SGRT_CL_GETTER(sgrt_context_get_cl_queue, sgrt_context, sgrt_context_get_native_queue,
               cl_command_queue)
SGRT_CL_GETTER(sgrt_buffer_get_cl_mem, sgrt_buffer, sgrt_buffer_get_native, cl_mem)
SGRT_CL_GETTER(sgrt_program_get_cl_program, sgrt_program, sgrt_program_get_native, cl_program)
SGRT_CL_GETTER(sgrt_kernel_get_cl_kernel, sgrt_kernel, sgrt_kernel_get_native, cl_kernel)
SGRT_CL_GETTER(sgrt_event_get_cl_event, sgrt_event, sgrt_event_get_native, cl_event)
#undef SGRT_CL_GETTER

#ifdef __cplusplus
}
#endif

#endif
