/* sample_util.h — small helpers shared by the sample host programs: error
 * checking for sgrt calls, device selection with a printed summary, and a
 * deterministic random generator so runs are reproducible. */
#ifndef SGC_SAMPLE_UTIL_H
#define SGC_SAMPLE_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <sgrt.h>

/* Aborts the sample with sgrt's message when a call fails. */
#define SAMPLE_CHECK(call)                                                     \
    do {                                                                       \
        sgrt_status status_ = (call);                                          \
        if (status_ != SGRT_SUCCESS) {                                         \
            fprintf(stderr, "%s:%d: %s failed: %s: %s\n", __FILE__, __LINE__,  \
                    #call, sgrt_status_name(status_), sgrt_last_error());      \
            exit(2);                                                           \
        }                                                                      \
    } while (0)

/* Opens the device named by SGRT_DEVICE (default: first GPU, else first CPU
 * OpenCL device) and prints what it is. */
static inline sgrt_context *sample_open_device(sgrt_device_info *info)
{
    sgrt_device *device = NULL;
    SAMPLE_CHECK(sgrt_device_select(getenv("SGRT_DEVICE"), &device));
    SAMPLE_CHECK(sgrt_device_get_info(device, info));
    printf("device: %s (%s, %s)\n", info->name,
           info->backend == SGRT_BACKEND_CUDA ? "CUDA" : "OpenCL", info->platform);
    sgrt_context *context = NULL;
    SAMPLE_CHECK(sgrt_context_create(device, &context));
    return context;
}

/* xorshift32: reproducible inputs without depending on libc's rand(). */
static inline uint32_t sample_random(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* qsort order for doubles, ascending. */
static inline int sample_compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts n times (ms) in place, for a median or the range of repeated runs. */
static inline void sample_sort_times(double *ms, size_t n)
{
    qsort(ms, n, sizeof *ms, sample_compare_double);
}

static inline float sample_random_float(uint32_t *state)
{
    return (float)(sample_random(state) >> 8) / (float)(1u << 24) * 2.0f - 1.0f;
}

#endif
