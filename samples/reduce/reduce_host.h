/* reduce_host.h — the host side of the Reduce sample, shared by the sample
 * program (main.c) and its test matrix (tests/reduce/test_reduce.c):
 * element types and operations, reproducible inputs, the host reference,
 * and the multi-pass device reduction with per-pass profiling.
 *
 * Inputs are chosen so that every reduction order gives the same answer,
 * so results are compared exactly: integer sums wrap the same way on host
 * (unsigned arithmetic) and device; float sums add small integers (|x| <= 8,
 * so partial sums stay far below 2^24 and are exact); minima are exact. */
#ifndef SGC_REDUCE_HOST_H
#define SGC_REDUCE_HOST_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgrt.h>

#include "sample_util.h"

typedef enum reduce_type {
    REDUCE_INT, REDUCE_UINT, REDUCE_LONG, REDUCE_FLOAT, REDUCE_TYPE_COUNT
} reduce_type;
typedef enum reduce_op { REDUCE_SUM, REDUCE_MIN, REDUCE_OP_COUNT } reduce_op;

/* Indexed by reduce_type: name, kernel of reduce.sgc, element size, sgrt type. */
static const struct {
    const char *name;
    const char *kernel;
    size_t size;
} reduce_types[REDUCE_TYPE_COUNT] = {
    {"int", "reduce_int", 4},
    {"uint", "reduce_uint", 4},
    {"long", "reduce_long", 8},
    {"float", "reduce_float", 4},
};
/* Indexed by reduce_op; the value is the spec constant reduce_op. */
static const char *const reduce_op_names[REDUCE_OP_COUNT] = {"sum", "min"};

#define REDUCE_MAX_PASSES 64

/* One pass: `in_count` elements reduced by `groups` work-groups of `local`
 * work-items, taking `ns` on the device (profiling events). */
typedef struct reduce_pass {
    size_t in_count, groups, local;
    uint64_t ns;
} reduce_pass;

/* Fills `n` elements: sums get small values (see the banner), minima wide
 * values of both signs that all lie above a minimum planted in the last
 * element, where the last, partial work-group reads it: a reduction that
 * drops that work-group cannot find it (tests/reduce checks this). */
static void reduce_fill(reduce_type t, reduce_op op, void *data, size_t n, uint32_t seed)
{
    uint32_t st = seed ? seed : 1;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = sample_random(&st);
        switch (t) {
        case REDUCE_INT:
            /* min: [-2^30, 2^30 - 1], all above the planted one */
            ((int32_t *)data)[i] = op == REDUCE_SUM ? (int32_t)(r % 2001) - 1000
                                                    : (int32_t)(r >> 1) - (1 << 30);
            break;
        case REDUCE_UINT:
            ((uint32_t *)data)[i] = op == REDUCE_SUM ? r : r | 1u;
            break;
        case REDUCE_LONG: {
            uint64_t v = (uint64_t)r << 32 | sample_random(&st);
            /* min: [-2^62, 2^62 - 1], all above the planted one */
            ((int64_t *)data)[i] = op == REDUCE_SUM ? (int64_t)(v % (1ull << 41)) - (1ll << 40)
                                                    : (int64_t)(v >> 1) - (1ll << 62);
            break;
        }
        case REDUCE_FLOAT:
            ((float *)data)[i] = op == REDUCE_SUM ? (float)((int)(r % 17) - 8)
                                                  : (float)(r >> 8) / 16777216.0f * 2.0f - 0.5f;
            break;
        default:
            break;
        }
    }
    if (op == REDUCE_MIN && n > 0) {
        switch (t) {
        case REDUCE_INT: ((int32_t *)data)[n - 1] = -1234567890; break;       /* < -2^30 */
        case REDUCE_UINT: ((uint32_t *)data)[n - 1] = 0; break;               /* others odd */
        case REDUCE_LONG: ((int64_t *)data)[n - 1] = -6123456789012345678ll; break; /* < -2^62 */
        case REDUCE_FLOAT: ((float *)data)[n - 1] = -3.25f; break;            /* others >= -0.5 */
        default: break;
        }
    }
}

/* The host reference into 8 bytes at `out` (the element's bytes first). */
static void reduce_reference(reduce_type t, reduce_op op, const void *data, size_t n, void *out)
{
    memset(out, 0, 8);
    switch (t) {
    /* Integer sums wrap like the device's: accumulated unsigned. */
#define REDUCE_REFERENCE_INTEGER(TAG, ELEM, UELEM, LARGEST)                     \
    case TAG: {                                                                 \
        const ELEM *d = data;                                                   \
        UELEM sum = 0;                                                          \
        ELEM mn = LARGEST;                                                      \
        for (size_t i = 0; i < n; i++) {                                        \
            sum += (UELEM)d[i];                                                 \
            mn = d[i] < mn ? d[i] : mn;                                         \
        }                                                                       \
        ELEM r = op == REDUCE_SUM ? (ELEM)sum : mn;                             \
        memcpy(out, &r, sizeof r);                                              \
        break;                                                                  \
    }
    REDUCE_REFERENCE_INTEGER(REDUCE_INT, int32_t, uint32_t, INT32_MAX)
    REDUCE_REFERENCE_INTEGER(REDUCE_UINT, uint32_t, uint32_t, UINT32_MAX)
    REDUCE_REFERENCE_INTEGER(REDUCE_LONG, int64_t, uint64_t, INT64_MAX)
#undef REDUCE_REFERENCE_INTEGER
    case REDUCE_FLOAT: {
        const float *d = data;
        double sum = 0.0;
        float mn = 3.402823466e+38f;
        for (size_t i = 0; i < n; i++) {
            sum += d[i];
            mn = d[i] < mn ? d[i] : mn;
        }
        float r = op == REDUCE_SUM ? (float)sum : mn;
        memcpy(out, &r, 4);
        break;
    }
    default:
        break;
    }
}

static void reduce_format(reduce_type t, const void *v, char *buf, size_t cap)
{
    int32_t i;
    uint32_t u;
    int64_t l;
    float f;
    switch (t) {
    case REDUCE_INT: memcpy(&i, v, 4); snprintf(buf, cap, "%" PRId32, i); break;
    case REDUCE_UINT: memcpy(&u, v, 4); snprintf(buf, cap, "%" PRIu32, u); break;
    case REDUCE_LONG: memcpy(&l, v, 8); snprintf(buf, cap, "%" PRId64, l); break;
    case REDUCE_FLOAT: memcpy(&f, v, 4); snprintf(buf, cap, "%.9g", (double)f); break;
    default: snprintf(buf, cap, "?"); break;
    }
}

/* Builds the module for one operation and strategy.  A strategy the
 * device lacks is refused by sgrt before anything is compiled: the status
 * is returned (UNSUPPORTED, message in sgrt_last_error()). */
static sgrt_status reduce_program(sgrt_context *context, const sgrt_module_desc *module,
                                  reduce_op op, sgrt_wg_strategy strategy,
                                  sgrt_program **program)
{
    sgrt_status st = sgrt_program_create(context, module, program);
    if (st != SGRT_SUCCESS)
        return st;
    if ((st = sgrt_program_set_wg_strategy(*program, strategy)) != SGRT_SUCCESS ||
        (st = sgrt_program_set_spec_int(*program, 0, (int32_t)op)) != SGRT_SUCCESS ||
        (st = sgrt_program_build(*program, NULL)) != SGRT_SUCCESS) {
        sgrt_program_free(*program);
        *program = NULL;
    }
    return st;
}

/* The narrowest work-group a pass shrinks to (when the kernel allows it). */
#define REDUCE_MIN_LOCAL 32

/* Largest work-group for the tree strategy on a CPU device: there the tree
 * is a serial scan of 255-value chunks by one work-item (docs/GROUPS.md),
 * so a big group is a long serial loop.  Measured on 2^26 ints
 * (bench/RESULTS.md): 256 is 4-7x faster than the 4096-8192 the kernels
 * allow on Intel's CPU runtime and PoCL. */
#define REDUCE_CPU_TREE_LOCAL 256

/* The work-group size: the largest power of two within what the built
 * kernel allows (and, on CUDA, what the occupancy calculator suggests),
 * capped for the tree strategy on a CPU device. */
static size_t reduce_pick_local(const sgrt_kernel_info *ki, sgrt_wg_strategy strategy,
                                sgrt_device_kind kind)
{
    size_t limit = ki->max_work_group_size;
    if (ki->suggested_work_group_size && ki->suggested_work_group_size < limit)
        limit = ki->suggested_work_group_size;
    if (strategy == SGRT_WG_TREE && kind == SGRT_DEVICE_CPU && limit > REDUCE_CPU_TREE_LOCAL)
        limit = REDUCE_CPU_TREE_LOCAL;
    size_t local = 1;
    while (local * 2 <= limit)
        local *= 2;
    return local;
}

/* Elements left after one pass over `count` with work-groups of `local`. */
static inline size_t reduce_pass_groups(size_t count, size_t local)
{
    return (count + 2 * local - 1) / (2 * local);
}

/* Reduces `n` elements of `input` to one, in passes (input never written;
 * tmp[0] and tmp[1], each of reduce_pass_groups(n, local) elements, take
 * turns as output).  A pass whose input fits fewer work-items uses a
 * smaller power of two.  Fills passes[] (times from profiling events) and
 * the result's bytes. */
static sgrt_status reduce_device(sgrt_kernel *kernel, sgrt_buffer *input, sgrt_buffer *tmp[2],
                                 size_t n, size_t local, size_t elem_size, void *result,
                                 reduce_pass *passes, int *pass_count)
{
    sgrt_event *events[REDUCE_MAX_PASSES];
    sgrt_buffer *src = input;
    size_t count = n;
    int k = 0;
    sgrt_status st = SGRT_SUCCESS;
    do {
        /* 2 * (l / 2) >= count: half as many work-items suffice.  Not below
         * a warp's 32, though: narrower groups save nothing, and they are
         * where drivers are least tried (PoCL 5.0 fails to link a kernel
         * specialised for 1-work-item groups: undefined symbol
         * __pocl_work_group_alloca). */
        size_t l = local;
        while (l > REDUCE_MIN_LOCAL && l >= count)
            l /= 2;
        size_t groups = reduce_pass_groups(count, l);
        sgrt_buffer *dst = tmp[k % 2];
        uint32_t length = (uint32_t)count;
        sgrt_launch_dims dims = {1, {groups * l, 1, 1}, {l, 1, 1}};
        if ((st = sgrt_kernel_set_arg_buffer(kernel, 0, src)) != SGRT_SUCCESS ||
            (st = sgrt_kernel_set_arg_buffer(kernel, 1, dst)) != SGRT_SUCCESS ||
            (st = sgrt_kernel_set_arg_scalar(kernel, 2, SGRT_TYPE_UINT, &length)) != SGRT_SUCCESS ||
            (st = sgrt_kernel_launch(kernel, &dims, &events[k])) != SGRT_SUCCESS)
            break;
        passes[k] = (reduce_pass){count, groups, l, 0};
        k++;
        count = groups;
        src = dst;
    } while (count > 1 && k < REDUCE_MAX_PASSES);
    /* The queue is in order: the passes need no waits between them. */
    for (int i = 0; i < k; i++) {
        uint64_t t0 = 0, t1 = 0;
        if (st == SGRT_SUCCESS)
            st = sgrt_event_profile(events[i], &t0, &t1);
        passes[i].ns = t1 - t0;
        sgrt_event_free(events[i]);
    }
    *pass_count = k;
    memset(result, 0, 8);
    if (st == SGRT_SUCCESS)
        st = sgrt_buffer_read(src, 0, elem_size, result);
    return st;
}

#endif
