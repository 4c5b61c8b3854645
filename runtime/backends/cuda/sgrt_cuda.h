/* sgrt_cuda.h — sgrt's interop calls with the CUDA driver API's own types.
 *
 * Header only: each function forwards to the void * form in sgrt.h
 * (docs/RUNTIME.md "Interop with native OpenCL and CUDA handles") and
 * converts the handle, so that a host
 * that already uses CUDA writes no casts.  Needs cuda.h (the CUDA
 * toolkit's) but no CUDA library: libsgrt loads the driver itself.
 * Ownership is that of the sgrt.h calls: the application keeps an adopted
 * CUcontext, CUstream and wrapped memory alive until the sgrt object is
 * freed; handles sgrt gives out stay sgrt's.  A runtime-API host passes
 * its cudaStream_t as the CUstream and a device pointer as the
 * CUdeviceptr; its current context is cuCtxGetCurrent's. */
#ifndef SGRT_CUDA_H
#define SGRT_CUDA_H

#include <cuda.h>
#include <stdint.h>

#include "sgrt.h"

#ifdef __cplusplus
extern "C" {
#endif

static inline sgrt_status sgrt_context_create_from_cu(CUcontext context, CUstream stream,
                                                      sgrt_context **out)
{
    return sgrt_context_create_from_cuda((void *)context, (void *)stream, out);
}

static inline sgrt_status sgrt_buffer_create_from_cu_ptr(sgrt_context *context, CUdeviceptr ptr,
                                                         size_t size, sgrt_buffer **out)
{
    return sgrt_buffer_create_from_cuda(context, (void *)(uintptr_t)ptr, size, out);
}

static inline sgrt_status sgrt_device_get_cu_device(const sgrt_device *device, CUdevice *out)
{
    void *handle = NULL;
    sgrt_status status = sgrt_device_get_native(device, SGRT_BACKEND_CUDA, &handle);
    if (status == SGRT_SUCCESS)
        *out = (CUdevice)(intptr_t)handle;
    return status;
}

static inline sgrt_status sgrt_buffer_get_cu_ptr(const sgrt_buffer *buffer, CUdeviceptr *out)
{
    void *handle = NULL;
    sgrt_status status = sgrt_buffer_get_native(buffer, SGRT_BACKEND_CUDA, &handle);
    if (status == SGRT_SUCCESS)
        *out = (CUdeviceptr)(uintptr_t)handle;
    return status;
}

/* sgrt_<object>_get_cu_<what>(object, &handle): the native handle. */
#define SGRT_CU_GETTER(function, object_type, getter, cu_type)                 \
    static inline sgrt_status function(const object_type *object, cu_type *out) \
    {                                                                          \
        void *handle = NULL;                                                   \
        sgrt_status status = getter(object, SGRT_BACKEND_CUDA, &handle);       \
        if (status == SGRT_SUCCESS)                                            \
            *out = (cu_type)handle;                                            \
        return status;                                                         \
    }
SGRT_CU_GETTER(sgrt_context_get_cu_context, sgrt_context, sgrt_context_get_native, CUcontext)
SGRT_CU_GETTER(sgrt_context_get_cu_stream, sgrt_context, sgrt_context_get_native_queue, CUstream)
SGRT_CU_GETTER(sgrt_program_get_cu_module, sgrt_program, sgrt_program_get_native, CUmodule)
SGRT_CU_GETTER(sgrt_kernel_get_cu_function, sgrt_kernel, sgrt_kernel_get_native, CUfunction)
SGRT_CU_GETTER(sgrt_event_get_cu_event, sgrt_event, sgrt_event_get_native, CUevent)
#undef SGRT_CU_GETTER

#ifdef __cplusplus
}
#endif

#endif
