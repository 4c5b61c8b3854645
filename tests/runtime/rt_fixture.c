/* rt_fixture.c — the runtime tests' shared fixture (rt_fixture.h). */
#include "rt_fixture.h"

#include <stdio.h>
#include <stdlib.h>

static char cache_dir[256];

const char *rt_cache_dir_create(const char *name)
{
    snprintf(cache_dir, sizeof cache_dir, "/tmp/sgrt-%s-XXXXXX", name);
    ck_assert_ptr_nonnull(mkdtemp(cache_dir));
    setenv("SGRT_CACHE_DIR", cache_dir, 1);
    return cache_dir;
}

void rt_cache_dir_remove(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
    ck_assert_int_eq(system(cmd), 0);
}

sgrt_context *rt_context_open(sgrt_device_info *info)
{
    sgrt_device *dev = NULL;
    sgrt_context *ctx = NULL;
    OK(sgrt_device_select(NULL, &dev));
    if (info)
        OK(sgrt_device_get_info(dev, info));
    OK(sgrt_context_create(dev, &ctx));
    return ctx;
}

sgrt_buffer *rt_buffer_from(sgrt_context *ctx, const void *data, size_t size)
{
    sgrt_buffer *b = NULL;
    OK(sgrt_buffer_create(ctx, size, &b));
    if (data)
        OK(sgrt_buffer_write(b, 0, size, data));
    return b;
}

TCase *rt_tcase(Suite *s, const char *name, void (*setup)(void), void (*teardown)(void))
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, setup, teardown);
    suite_add_tcase(s, tc);
    return tc;
}

int rt_run_suite(Suite *s)
{
    SRunner *runner = srunner_create(s);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? 1 : 0;
}
