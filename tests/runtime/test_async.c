/* test_async.c — asynchronous work (libcheck): several queues of one
 * context, non-blocking writes and reads with events, fill, buffer-to-
 * buffer copy, launches after a list of events, page-locked host memory,
 * and the misuse statuses.
 * On the device sgrt selects (SGRT_DEVICE); results against host
 * references computed here. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interop.h"
#include "rt_fixture.h"

enum { N = 1024, LOCAL = 64 };

static sgrt_context *ctx;
static sgrt_device_info info;

static void setup(void)
{
    rt_cache_dir_create("async");
    ctx = rt_context_open(&info);
}

static void teardown(void)
{
    OK(sgrt_context_free(ctx));
    rt_cache_dir_remove();
}

static sgrt_buffer *new_buffer(size_t size) { return rt_buffer_from(ctx, NULL, size); }

/* interop.sgc's saxpy of p with its arguments set: y = a * x + y (+ bias) over N. */
static sgrt_kernel *saxpy_kernel(sgrt_program *p, sgrt_buffer *x, sgrt_buffer *y, float a)
{
    sgrt_kernel *k = NULL;
    int n = N;
    OK(sgrt_kernel_get(p, "saxpy", &k));
    OK(sgrt_kernel_set_arg_buffer(k, 0, x));
    OK(sgrt_kernel_set_arg_buffer(k, 1, y));
    OK(sgrt_kernel_set_arg_scalar(k, 2, SGRT_TYPE_FLOAT, &a));
    OK(sgrt_kernel_set_arg_scalar(k, 3, SGRT_TYPE_INT, &n));
    return k;
}

/* write (q1) and fill (q2) -> saxpy on q1 after both -> copy on q2 ->
 * read on the context's queue: every step waits only through events. */
START_TEST(pipeline_across_queues)
{
    static float x[N], z[N], want[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 29) - 7.0f;
        want[i] = 3.0f * x[i] + 1.5f + 2.0f;   /* y filled with 1.5, bias 2 */
    }
    sgrt_queue *q1 = NULL, *q2 = NULL;
    OK(sgrt_queue_create(ctx, &q1));
    OK(sgrt_queue_create(ctx, &q2));
    sgrt_program *p = NULL;
    OK(sgrt_program_create(ctx, &interop_module, &p));
    OK(interop_set_bias(p, 2));
    OK(sgrt_program_build(p, NULL));
    sgrt_buffer *bx = new_buffer(sizeof x), *by = new_buffer(sizeof x), *bz = new_buffer(sizeof x);

    sgrt_event *wrote = NULL, *filled = NULL, *ran = NULL, *copied = NULL, *read = NULL;
    float one_and_half = 1.5f;
    OK(sgrt_buffer_write_async(q1, bx, 0, sizeof x, x, NULL, 0, &wrote));
    OK(sgrt_buffer_fill(q2, by, &one_and_half, sizeof one_and_half, 0, sizeof x, NULL, 0,
                        &filled));
    sgrt_kernel *k = saxpy_kernel(p, bx, by, 3.0f);
    sgrt_event *inputs[] = {wrote, filled};
    sgrt_launch_dims dims = {.dims = 1, .global = {N}, .local = {LOCAL}};
    OK(sgrt_kernel_launch_async(k, q1, &dims, inputs, 2, &ran));
    OK(sgrt_buffer_copy(q2, by, 0, bz, 0, sizeof x, &ran, 1, &copied));
    OK(sgrt_buffer_read_async(NULL, bz, 0, sizeof z, z, &copied, 1, &read));
    OK(sgrt_event_wait(read));
    for (int i = 0; i < N; i++)
        ck_assert_msg(z[i] == want[i], "z[%d] = %g, want %g", i, (double)z[i], (double)want[i]);

    /* Events of other queues carry profiling times too. */
    uint64_t start = 0, end = 0;
    OK(sgrt_event_get_profile(ran, &start, &end));
    ck_assert_uint_le(start, end);
    OK(sgrt_event_get_profile(copied, &start, &end));
    ck_assert_uint_le(start, end);
    sgrt_event *all[] = {wrote, filled, ran, copied, read};
    for (size_t i = 0; i < 5; i++)
        OK(sgrt_event_free(all[i]));

    /* A zero-byte write still orders: its event completes after its waits. */
    sgrt_event *marker = NULL;
    OK(sgrt_kernel_launch_async(k, q2, &dims, NULL, 0, &ran));
    OK(sgrt_buffer_write_async(q1, bx, 0, 0, x, &ran, 1, &marker));
    OK(sgrt_event_wait(marker));
    OK(sgrt_event_free(ran));
    OK(sgrt_event_free(marker));

    void *h = NULL;
    OK(sgrt_queue_get_native(q1, info.backend, &h));
    ck_assert_ptr_nonnull(h);
    EXPECT(SGRT_ERROR_HANDLE_MISMATCH,
           sgrt_queue_get_native(q1, info.backend == SGRT_BACKEND_CUDA ? SGRT_BACKEND_OPENCL
                                                                       : SGRT_BACKEND_CUDA,
                                 &h));
    /* A context with queues cannot be freed. */
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_context_free(ctx));
    OK(sgrt_queue_finish(q1));
    OK(sgrt_queue_free(q1));
    OK(sgrt_queue_free(q2));
    OK(sgrt_program_free(p));
    OK(sgrt_buffer_free(bx));
    OK(sgrt_buffer_free(by));
    OK(sgrt_buffer_free(bz));
}
END_TEST

/* Fill patterns of each size at an offset, and copies inside one buffer. */
START_TEST(fill_and_copy)
{
    enum { BYTES = 512 };
    unsigned char got[BYTES], want[BYTES];
    sgrt_buffer *b = new_buffer(BYTES);
    unsigned char pattern[128];
    for (int i = 0; i < 128; i++)
        pattern[i] = (unsigned char)(i * 37 + 11);
    size_t max = info.backend == SGRT_BACKEND_CUDA ? 4 : 128;
    for (size_t size = 1; size <= 128; size *= 2) {
        memset(want, 0xEE, sizeof want);
        OK(sgrt_buffer_write(b, 0, BYTES, want));
        size_t offset = size * 2, length = 256;
        if (size > max) {
            EXPECT(SGRT_ERROR_UNSUPPORTED,
                   sgrt_buffer_fill(NULL, b, pattern, size, offset, length, NULL, 0, NULL));
            continue;
        }
        OK(sgrt_buffer_fill(NULL, b, pattern, size, offset, length, NULL, 0, NULL));
        for (size_t i = 0; i < length; i++)
            want[offset + i] = pattern[i % size];
        OK(sgrt_buffer_read(b, 0, BYTES, got));
        ck_assert_msg(memcmp(got, want, BYTES) == 0, "fill with a %zu-byte pattern", size);
    }
    /* copy [0, 100) to [300, 400) of the same buffer */
    for (int i = 0; i < BYTES; i++)
        want[i] = (unsigned char)(i * 7);
    OK(sgrt_buffer_write(b, 0, BYTES, want));
    sgrt_event *ev = NULL;
    OK(sgrt_buffer_copy(NULL, b, 0, b, 300, 100, NULL, 0, &ev));
    OK(sgrt_event_wait(ev));
    OK(sgrt_event_free(ev));
    memcpy(want + 300, want, 100);
    OK(sgrt_buffer_read(b, 0, BYTES, got));
    ck_assert(memcmp(got, want, BYTES) == 0);
    OK(sgrt_buffer_free(b));
}
END_TEST

START_TEST(async_misuse)
{
    sgrt_buffer *b = new_buffer(256), *c = new_buffer(256);
    sgrt_device *dev = NULL;
    sgrt_context *other = NULL;
    sgrt_queue *foreign = NULL;
    sgrt_buffer *foreign_buf = NULL;
    sgrt_event *foreign_ev = NULL;
    OK(sgrt_context_get_device(ctx, &dev));
    OK(sgrt_context_create(dev, &other));
    OK(sgrt_queue_create(other, &foreign));
    OK(sgrt_buffer_create(other, 256, &foreign_buf));
    int v = 7;
    OK(sgrt_buffer_fill(NULL, foreign_buf, &v, 4, 0, 256, NULL, 0, &foreign_ev));
    unsigned char host[256] = {0};

    EXPECT(SGRT_ERROR_INVALID_ARGUMENT,
           sgrt_buffer_write_async(foreign, b, 0, 16, host, NULL, 0, NULL));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT,
           sgrt_buffer_read_async(NULL, b, 0, 16, host, &foreign_ev, 1, NULL));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT,
           sgrt_buffer_read_async(NULL, b, 0, 16, host, NULL, 1, NULL));
    sgrt_event *null_event = NULL;
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT,
           sgrt_buffer_read_async(NULL, b, 0, 16, host, &null_event, 1, NULL));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT,
           sgrt_buffer_read_async(NULL, b, 250, 16, host, NULL, 0, NULL));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT,
           sgrt_buffer_copy(NULL, foreign_buf, 0, b, 0, 16, NULL, 0, NULL));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_buffer_copy(NULL, b, 0, b, 8, 16, NULL, 0, NULL));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_buffer_copy(NULL, b, 0, c, 200, 100, NULL, 0, NULL));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_buffer_fill(NULL, b, &v, 3, 0, 12, NULL, 0, NULL));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_buffer_fill(NULL, b, &v, 4, 2, 12, NULL, 0, NULL));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_buffer_fill(NULL, b, NULL, 4, 0, 12, NULL, 0, NULL));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_queue_create(NULL, &foreign));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_queue_finish(NULL));

    OK(sgrt_event_free(foreign_ev));
    OK(sgrt_buffer_free(foreign_buf));
    OK(sgrt_queue_free(foreign));
    OK(sgrt_context_free(other));
    OK(sgrt_buffer_free(b));
    OK(sgrt_buffer_free(c));
}
END_TEST

/* Page-locked host memory: transfers from and to it through a launch on
 * another queue, its misuse statuses, and the context refusing to be freed
 * while an allocation lives. */
START_TEST(host_alloc)
{
    float *in = NULL, *out = NULL;
    OK(sgrt_host_alloc(ctx, N * sizeof *in, (void **)&in));
    OK(sgrt_host_alloc(ctx, N * sizeof *out, (void **)&out));
    ck_assert_ptr_nonnull(in);
    ck_assert_ptr_ne(in, out);
    for (int i = 0; i < N; i++) {
        in[i] = (float)(i % 37) - 11.0f;
        out[i] = -1.0f;
    }
    sgrt_program *p = NULL;
    OK(sgrt_program_create(ctx, &interop_module, &p));
    OK(sgrt_program_build(p, NULL));
    sgrt_buffer *bx = new_buffer(N * sizeof *in), *by = new_buffer(N * sizeof *in);
    sgrt_queue *copies = NULL;
    OK(sgrt_queue_create(ctx, &copies));
    float zero = 0.0f;
    sgrt_event *wrote = NULL, *zeroed = NULL, *ran = NULL, *read = NULL;
    OK(sgrt_buffer_write_async(copies, bx, 0, N * sizeof *in, in, NULL, 0, &wrote));
    OK(sgrt_buffer_fill(copies, by, &zero, sizeof zero, 0, N * sizeof *in, NULL, 0, &zeroed));
    sgrt_kernel *k = saxpy_kernel(p, bx, by, 2.0f);
    sgrt_event *inputs[] = {wrote, zeroed};
    sgrt_launch_dims dims = {.dims = 1, .global = {N}, .local = {LOCAL}};
    OK(sgrt_kernel_launch_async(k, NULL, &dims, inputs, 2, &ran));
    OK(sgrt_buffer_read_async(copies, by, 0, N * sizeof *out, out, &ran, 1, &read));
    OK(sgrt_event_wait(read));
    for (int i = 0; i < N; i++)
        ck_assert_msg(out[i] == 2.0f * in[i], "out[%d] = %g, want %g", i, (double)out[i],
                      2.0 * in[i]);
    sgrt_event *all[] = {wrote, zeroed, ran, read};
    for (size_t i = 0; i < 4; i++)
        OK(sgrt_event_free(all[i]));
    OK(sgrt_queue_free(copies));
    OK(sgrt_program_free(p));
    OK(sgrt_buffer_free(bx));
    OK(sgrt_buffer_free(by));

    /* Misuse: NULL and zero sizes, memory that is not the context's. */
    void *ptr = NULL;
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_host_alloc(ctx, 0, &ptr));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_host_alloc(NULL, 64, &ptr));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_host_alloc(ctx, 64, NULL));
    float plain[4];
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_host_free(ctx, plain));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_host_free(NULL, in));
    sgrt_device *dev = NULL;
    sgrt_context *other = NULL;
    OK(sgrt_context_get_device(ctx, &dev));
    OK(sgrt_context_create(dev, &other));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_host_free(other, in));
    OK(sgrt_context_free(other));
    OK(sgrt_host_free(ctx, NULL));
    /* The context refuses to go while an allocation lives. */
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_context_free(ctx));
    ck_assert_ptr_nonnull(strstr(sgrt_last_error(), "page-locked"));
    OK(sgrt_host_free(ctx, in));
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_host_free(ctx, in));   /* twice */
    EXPECT(SGRT_ERROR_INVALID_ARGUMENT, sgrt_context_free(ctx));
    OK(sgrt_host_free(ctx, out));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sgrt-async");
    TCase *tc = rt_tcase(s, "async", setup, teardown);
    tcase_add_test(tc, pipeline_across_queues);
    tcase_add_test(tc, fill_and_copy);
    tcase_add_test(tc, async_misuse);
    tcase_add_test(tc, host_alloc);
    return rt_run_suite(s);
}
