/* test_compile_oom.c — run-time compiles when an allocation fails.
 *
 * This program's malloc makes the 1st, then the 2nd, ... allocation that
 * libsgrt (libsgcc inside) asks for fail, until a compile gets through
 * without reaching it.  Every call must come back with a status, never
 * crash: translate() and cached_translation() free a half-made
 * translation, and create_from_text() used to free it again (a double free
 * clang's analyzer found).  Through the translation itself (cache off) and
 * through the translation cache (an entry there).  Only malloc fails;
 * calloc and realloc are left alone.  Skipped under the sanitizers, whose
 * own malloc this one would bypass. */
#include <check.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rt_fixture.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) /* gcc */
#define SANITIZED 1
#elif defined(__has_feature) /* clang */
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif

#ifdef SANITIZED
#define FAIL_INJECTION 0
#else
#define FAIL_INJECTION 1

void *__libc_malloc(size_t size); /* glibc's own, under the name malloc replaces */

static long fail_countdown;        /* 0: off; else the libsgrt mallocs left until one fails */
static _Thread_local bool in_malloc; /* dladdr inside malloc must not recurse */

static bool from_sgrt(void *caller)
{
    Dl_info info;
    return dladdr(caller, &info) && info.dli_fname && strstr(info.dli_fname, "libsgrt");
}

void *malloc(size_t size)
{
    if (fail_countdown > 0 && !in_malloc) {
        in_malloc = true;
        bool fail = from_sgrt(__builtin_return_address(0)) && --fail_countdown == 0;
        in_malloc = false;
        if (fail)
            return NULL;
    }
    return __libc_malloc(size);
}
#endif

static sgrt_context *ctx;

static const char src[] = "kernel void add_one(global int *x)\n"
                          "{\n"
                          "    x[get_global_id(0)] += 1;\n"
                          "}\n";

static void setup(void)
{
    rt_cache_dir_create("compile-oom");
    unsetenv("SGRT_CACHE");
    ctx = rt_context_open(NULL);
}

static void teardown(void)
{
    OK(sgrt_context_free(ctx));
    rt_cache_dir_remove();
}

/* Fails each libsgrt malloc of one compile in turn; returns how many the
 * compile makes. */
static long fail_each_malloc(void)
{
#if FAIL_INJECTION
    for (long n = 1; n < 1000000; n++) {
        sgrt_program *p = NULL;
        fail_countdown = n;
        sgrt_status status = sgrt_program_create_from_source(ctx, src, "oom.sgc", NULL, &p);
        bool reached = fail_countdown == 0;
        fail_countdown = 0;
        if (status == SGRT_SUCCESS)
            OK(sgrt_program_free(p));
        if (!reached) {
            ck_assert_msg(status == SGRT_SUCCESS, "nothing failed, yet: %s", sgrt_last_error());
            return n - 1;
        }
    }
    ck_abort_msg("a compile that never ends allocating");
#endif
    return 0;
}

START_TEST(translation_survives_each_failed_malloc)
{
    setenv("SGRT_CACHE", "0", 1);
    long count = fail_each_malloc();
    ck_assert_msg(!FAIL_INJECTION || count > 0, "no malloc of libsgrt was seen");
}
END_TEST

START_TEST(cached_translation_survives_each_failed_malloc)
{
    sgrt_program *p = NULL;
    OK(sgrt_program_create_from_source(ctx, src, "oom.sgc", NULL, &p)); /* the cache entry */
    OK(sgrt_program_free(p));
    long count = fail_each_malloc();
    ck_assert_msg(!FAIL_INJECTION || count > 0, "no malloc of libsgrt was seen");
}
END_TEST

static Suite *oom_suite(void)
{
    Suite *s = suite_create("sgrt-compile-oom");
    TCase *tc = rt_tcase(s, "compile-oom", setup, teardown);
    tcase_add_test(tc, translation_survives_each_failed_malloc);
    tcase_add_test(tc, cached_translation_survives_each_failed_malloc);
    return s;
}

int main(void)
{
    return rt_run_suite(oom_suite());
}
