/* rt_fixture.h — what the libcheck runtime tests share (test_runtime.c,
 * test_async.c, test_compile.c, test_interop.c): the status assertions,
 * a fresh cache directory per test, the device sgrt selects and a context
 * on it, buffers with contents, and running a suite.  rt_fixture.c. */
#ifndef RT_FIXTURE_H
#define RT_FIXTURE_H

#include <check.h>
#include <stddef.h>

#include "sgrt.h"

/* The call returns SGRT_SUCCESS; else the failure names it and sgrt's message. */
#define OK(call) ck_assert_msg((call) == SGRT_SUCCESS, "%s: %s", #call, sgrt_last_error())
/* The call returns exactly `status`. */
#define EXPECT(status, call)                                                              \
    do {                                                                                  \
        sgrt_status got_ = (call);                                                        \
        ck_assert_msg(got_ == (status), "%s: got %s, want %s (%s)", #call,                \
                      sgrt_status_name(got_), sgrt_status_name(status), sgrt_last_error()); \
    } while (0)

/* Makes /tmp/sgrt-<name>-XXXXXX and points SGRT_CACHE_DIR at it, so that
 * each test sees its own (empty) cache; returns its path. */
const char *rt_cache_dir_create(const char *name);
/* Removes that directory and everything in it. */
void rt_cache_dir_remove(void);

/* A context on the device sgrt selects (SGRT_DEVICE); its description in
 * *info when info is not NULL. */
sgrt_context *rt_context_open(sgrt_device_info *info);

/* A buffer of `size` bytes of ctx, holding `data` when data is not NULL. */
sgrt_buffer *rt_buffer_from(sgrt_context *ctx, const void *data, size_t size);

/* A test case named `name` of suite s, with setup and teardown around
 * each test; the caller adds the tests. */
TCase *rt_tcase(Suite *s, const char *name, void (*setup)(void), void (*teardown)(void));

/* Runs every test of s and frees it: the process's exit status (0 when
 * all passed, 1 otherwise). */
int rt_run_suite(Suite *s);

#endif
