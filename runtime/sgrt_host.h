/* sgrt_host.h — internal: page-locked host allocations (host.c), and the
 * CUDA calls behind them (cuda.c, which holds the driver's entry points). */
#ifndef SGRT_HOST_H
#define SGRT_HOST_H

#include <stddef.h>

#include "sgrt.h"

/* Live page-locked allocations of `context` (sgrt_context_free refuses
 * while there are some). */
size_t sgrt_host_alloc_count(const sgrt_context *context);

/* cuMemHostAlloc (portable) / cuMemFreeHost with the context current. */
sgrt_status sgrt_cuda_host_alloc(sgrt_context *context, size_t size, void **ptr);
sgrt_status sgrt_cuda_host_free(sgrt_context *context, void *ptr);

#endif
