/* test_libsgcc.c — the public API of libsgcc (sgcc.h), linked against the
 * shared library so that only exported symbols are reachable: compiling a
 * string and a file, outputs on request, structured diagnostics with their
 * option names and caret text, warning flags, defines and include dirs,
 * dependencies, -E output, argument checking, and concurrent compilations
 * on threads.  Expected values come from the inputs written here (line and
 * column counted by hand), not from an earlier run. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sgcc.h"

static const char good[] = "spec_const int block = 16;\n"
                           "kernel void scale(global int *p, int k)\n"
                           "{\n"
                           "    p[get_global_id(0)] *= k * block;\n"
                           "}\n";

static sgcc_result *compile(const sgcc_options *opt, const char *text, sgcc_status want)
{
    sgcc_result *r = NULL;
    sgcc_status st = sgcc_compile_string(opt, "t.sgc", text, strlen(text), &r);
    ck_assert_msg(st == want, "status %d (%s), want %d; diagnostics:\n%s", st,
                  sgcc_status_to_string(st), want, sgcc_result_get_diagnostics_text(r));
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(sgcc_result_get_status(r), want);
    return r;
}

START_TEST(string_to_both_targets)
{
    sgcc_result *r = compile(NULL, good, SGCC_OK);
    size_t len = 0;
    const char *cl = sgcc_result_get_output(r, SGCC_OUTPUT_OPENCL, &len);
    ck_assert_ptr_nonnull(cl);
    ck_assert_uint_eq(len, strlen(cl));
    ck_assert_ptr_nonnull(strstr(cl, "kernel void scale("));
    ck_assert_ptr_nonnull(strstr(cl, "SGC_SPEC_0"));
    const char *cu = sgcc_result_get_output(r, SGCC_OUTPUT_CUDA, NULL);
    ck_assert_ptr_nonnull(cu);
    ck_assert_ptr_nonnull(strstr(cu, "__global__"));
    /* Not asked for: */
    ck_assert_ptr_null(sgcc_result_get_output(r, SGCC_OUTPUT_HEADER, &len));
    ck_assert_uint_eq(len, 0);
    ck_assert_ptr_null(sgcc_result_get_output(r, SGCC_OUTPUT_MODULE_JSON, NULL));
    ck_assert_uint_eq(sgcc_result_get_diagnostic_count(r), 0);
    ck_assert_str_eq(sgcc_result_get_diagnostics_text(r), "");
    ck_assert_uint_eq(sgcc_result_get_dependency_count(r), 1);
    ck_assert_str_eq(sgcc_result_get_dependency(r, 0), "t.sgc");
    ck_assert_ptr_null(sgcc_result_get_dependency(r, 1));
    sgcc_result_destroy(r);
}
END_TEST

START_TEST(one_target_header_and_json)
{
    sgcc_options *opt = sgcc_options_create();
    ck_assert_int_eq(sgcc_options_set_targets(opt, SGCC_TARGET_CUDA), SGCC_OK);
    ck_assert_int_eq(sgcc_options_set_header(opt, 1), SGCC_OK);
    ck_assert_int_eq(sgcc_options_set_module_json(opt, 1), SGCC_OK);
    ck_assert_int_eq(sgcc_options_set_module_name(opt, "mine"), SGCC_OK);
    sgcc_result *r = compile(opt, good, SGCC_OK);
    ck_assert_ptr_null(sgcc_result_get_output(r, SGCC_OUTPUT_OPENCL, NULL));
    ck_assert_ptr_nonnull(sgcc_result_get_output(r, SGCC_OUTPUT_CUDA, NULL));
    const char *h = sgcc_result_get_output(r, SGCC_OUTPUT_HEADER, NULL);
    ck_assert_ptr_nonnull(h);
    ck_assert_ptr_nonnull(strstr(h, "mine"));
    const char *json = sgcc_result_get_output(r, SGCC_OUTPUT_MODULE_JSON, NULL);
    ck_assert_ptr_nonnull(json);
    ck_assert_ptr_nonnull(strstr(json, "\"sgcc-module\""));
    ck_assert_ptr_nonnull(strstr(json, "\"block\""));
    ck_assert_ptr_nonnull(strstr(json, "\"scale\""));
    sgcc_result_destroy(r);
    sgcc_options_destroy(opt);
}
END_TEST

START_TEST(errors_are_structured)
{
    /* line 3, column 12: the undeclared name; line 4 column 5: the second one. */
    const char *bad = "kernel void k(global int *p)\n"
                      "{\n"
                      "    p[0] = nope;\n"
                      "    p[1] = 1;\n"
                      "}\n";
    sgcc_result *r = compile(NULL, bad, SGCC_ERROR_COMPILE);
    ck_assert_ptr_null(sgcc_result_get_output(r, SGCC_OUTPUT_OPENCL, NULL));
    ck_assert_uint_ge(sgcc_result_get_diagnostic_count(r), 1);
    ck_assert_uint_ge(sgcc_result_get_error_count(r), 1);
    const sgcc_diagnostic *d = sgcc_result_get_diagnostic(r, 0);
    ck_assert_int_eq(d->severity, SGCC_SEVERITY_ERROR);
    ck_assert_str_eq(d->file, "t.sgc");
    ck_assert_uint_eq(d->line, 3);
    ck_assert_uint_eq(d->column, 12);
    ck_assert_ptr_nonnull(strstr(d->message, "'nope'"));
    ck_assert_ptr_null(d->option);
    ck_assert_str_eq(d->source_line, "    p[0] = nope;");
    /* The text form: locus line, the source line, the caret under column 12. */
    char want[256];
    snprintf(want, sizeof want, "t.sgc:3:12: error: %s\n    p[0] = nope;\n           ^\n",
             d->message);
    ck_assert_str_eq(d->text, want);
    ck_assert_ptr_nonnull(strstr(sgcc_result_get_diagnostics_text(r), want));
    ck_assert_ptr_null(sgcc_result_get_diagnostic(r, sgcc_result_get_diagnostic_count(r)));
    sgcc_result_destroy(r);
}
END_TEST

/* -fmax-errors through the library: 30 undeclared names, one per line
 * (line i + 2 for name i); the default stops at 20, a set limit at n, 0
 * reports every one. */
START_TEST(error_limit)
{
    char text[4096] = "kernel void k(global int *p)\n{\n";
    for (int i = 1; i <= 30; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "    p[%d] = nope_%d;\n", i, i);
    strcat(text, "}\n");
    sgcc_options *opt = sgcc_options_create();
    unsigned limits[] = {SGCC_DEFAULT_MAX_ERRORS, 5, 1, 0};
    for (size_t l = 0; l < sizeof limits / sizeof *limits; l++) {
        if (l > 0)
            ck_assert_int_eq(sgcc_options_set_max_errors(opt, limits[l]), SGCC_OK);
        sgcc_result *r = compile(opt, text, SGCC_ERROR_COMPILE);
        size_t want = limits[l] ? limits[l] + 1 : 30;
        ck_assert_uint_eq(sgcc_result_get_diagnostic_count(r), want);
        const sgcc_diagnostic *last = sgcc_result_get_diagnostic(r, want - 1);
        ck_assert_uint_eq(last->line, (unsigned)want + 2);
        if (limits[l]) {
            ck_assert_int_eq(last->severity, SGCC_SEVERITY_FATAL);
            ck_assert_str_eq(last->message, "too many errors emitted, stopping now [-fmax-errors=]");
        } else {
            ck_assert_int_eq(last->severity, SGCC_SEVERITY_ERROR);
        }
        sgcc_result_destroy(r);
    }
    ck_assert_int_eq(sgcc_options_set_max_errors(NULL, 3), SGCC_ERROR_INVALID_ARGUMENT);
    sgcc_options_destroy(opt);
}
END_TEST

START_TEST(warnings_and_their_flags)
{
    const char *warn = "#warning \"careful\"\nkernel void k(global int *p) { p[0] = 1; }\n";
    sgcc_result *r = compile(NULL, warn, SGCC_OK);
    ck_assert_uint_eq(sgcc_result_get_diagnostic_count(r), 1);
    ck_assert_uint_eq(sgcc_result_get_warning_count(r), 1);
    const sgcc_diagnostic *d = sgcc_result_get_diagnostic(r, 0);
    ck_assert_int_eq(d->severity, SGCC_SEVERITY_WARNING);
    ck_assert_str_eq(d->option, "-Wcpp");
    ck_assert_uint_eq(d->line, 1);
    ck_assert_uint_eq(d->column, 2);
    ck_assert_ptr_nonnull(strstr(d->text, "warning: #warning \"careful\" [-Wcpp]\n"));
    sgcc_result_destroy(r);

    sgcc_options *opt = sgcc_options_create();
    ck_assert_int_eq(sgcc_options_add_warning_flag(opt, "-Wno-cpp"), SGCC_OK);
    r = compile(opt, warn, SGCC_OK);
    ck_assert_uint_eq(sgcc_result_get_diagnostic_count(r), 0);
    sgcc_result_destroy(r);

    ck_assert_int_eq(sgcc_options_add_warning_flag(opt, "-Werror=cpp"), SGCC_OK);
    r = compile(opt, warn, SGCC_ERROR_COMPILE);
    d = sgcc_result_get_diagnostic(r, 0);
    ck_assert_int_eq(d->severity, SGCC_SEVERITY_ERROR);
    ck_assert_str_eq(d->option, "-Werror=cpp");
    ck_assert_ptr_null(sgcc_result_get_output(r, SGCC_OUTPUT_OPENCL, NULL));
    sgcc_result_destroy(r);

    ck_assert_int_eq(sgcc_options_add_warning_flag(opt, "-Wno-error=cpp"), SGCC_OK);
    ck_assert_int_eq(sgcc_options_add_warning_flag(opt, "-Werror"), SGCC_OK);
    r = compile(opt, warn, SGCC_OK); /* -Wno-error=cpp wins over -Werror */
    ck_assert_int_eq(sgcc_result_get_diagnostic(r, 0)->severity, SGCC_SEVERITY_WARNING);
    sgcc_result_destroy(r);

    ck_assert_int_eq(sgcc_options_add_warning_flag(opt, "-w"), SGCC_OK);
    r = compile(opt, warn, SGCC_OK);
    ck_assert_uint_eq(sgcc_result_get_diagnostic_count(r), 0);
    sgcc_result_destroy(r);

    ck_assert_int_eq(sgcc_options_add_warning_flag(opt, "-Wall"), SGCC_OK);
    ck_assert_int_eq(sgcc_options_add_warning_flag(opt, "-Wno-such-thing"), SGCC_OK);
    ck_assert_int_eq(sgcc_options_add_warning_flag(opt, "-Wsuch-thing"),
                     SGCC_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(sgcc_options_add_warning_flag(opt, "cpp"), SGCC_ERROR_INVALID_ARGUMENT);
    sgcc_options_destroy(opt);
}
END_TEST

/* The include search's empty probes, in order, each once: "m.h" next to
 * the includer (t.sgc: the working directory), then -I d1 before d2 where
 * it is found; __has_include's misses too; a second include of m.h adds
 * nothing. */
START_TEST(absent_includes_are_reported)
{
    char root[] = "/tmp/test_libsgcc_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(root));
    char d1[300], d2[300], header[320], opt_h[320];
    snprintf(d1, sizeof d1, "%s/d1", root);
    snprintf(d2, sizeof d2, "%s/d2", root);
    ck_assert_int_eq(mkdir(d1, 0755), 0);
    ck_assert_int_eq(mkdir(d2, 0755), 0);
    snprintf(header, sizeof header, "%s/m.h", d2);
    FILE *f = fopen(header, "w");
    ck_assert_ptr_nonnull(f);
    fputs("#define M 3\n", f);
    fclose(f);
    const char *src = "#include \"m.h\"\n#include \"m.h\"\n"
                      "#if __has_include(<opt.h>)\n#endif\n"
                      "kernel void k(global int *p) { p[0] = M; }\n";
    sgcc_options *opt = sgcc_options_create();
    ck_assert_int_eq(sgcc_options_add_include_dir(opt, d1), SGCC_OK);
    ck_assert_int_eq(sgcc_options_add_include_dir(opt, d2), SGCC_OK);
    sgcc_result *r = compile(opt, src, SGCC_OK);
    char d1_m[320], d1_opt[320];
    snprintf(d1_m, sizeof d1_m, "%s/m.h", d1);
    snprintf(d1_opt, sizeof d1_opt, "%s/opt.h", d1);
    snprintf(opt_h, sizeof opt_h, "%s/opt.h", d2);
    const char *want[] = {"m.h", d1_m, d1_opt, opt_h};
    ck_assert_uint_eq(sgcc_result_get_absent_include_count(r), 4);
    for (size_t i = 0; i < 4; i++)
        ck_assert_str_eq(sgcc_result_get_absent_include(r, i), want[i]);
    ck_assert_ptr_null(sgcc_result_get_absent_include(r, 4));
    ck_assert_uint_eq(sgcc_result_get_absent_include_count(NULL), 0);
    sgcc_result_destroy(r);
    sgcc_options_destroy(opt);
    unlink(header);
    rmdir(d1);
    rmdir(d2);
    rmdir(root);
}
END_TEST

START_TEST(defines_undefines_and_includes)
{
    char dir[] = "/tmp/test_libsgcc_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[512];
    snprintf(path, sizeof path, "%s/factor.h", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("#define FACTOR 7\n", f);
    fclose(f);
    const char *src = "#include <factor.h>\n"
                      "#ifdef GONE\n#error GONE is defined\n#endif\n"
                      "kernel void k(global int *p) { p[0] = FACTOR * TWICE; }\n";
    sgcc_options *opt = sgcc_options_create();
    sgcc_result *r = compile(opt, src, SGCC_ERROR_COMPILE); /* no include dir */
    sgcc_result_destroy(r);
    ck_assert_int_eq(sgcc_options_add_include_dir(opt, dir), SGCC_OK);
    ck_assert_int_eq(sgcc_options_add_define(opt, "TWICE=2"), SGCC_OK);
    ck_assert_int_eq(sgcc_options_add_define(opt, "GONE"), SGCC_OK);
    ck_assert_int_eq(sgcc_options_add_undefine(opt, "GONE"), SGCC_OK);
    r = compile(opt, src, SGCC_OK);
    ck_assert_uint_eq(sgcc_result_get_dependency_count(r), 2);
    ck_assert_str_eq(sgcc_result_get_dependency(r, 1), path);
    /* FACTOR * TWICE expanded: 7 * 2 in the output */
    ck_assert_ptr_nonnull(strstr(sgcc_result_get_output(r, SGCC_OUTPUT_OPENCL, NULL), "7 * 2"));
    sgcc_result_destroy(r);

    ck_assert_int_eq(sgcc_options_set_preprocess_only(opt, 1), SGCC_OK);
    r = compile(opt, src, SGCC_OK);
    const char *pre = sgcc_result_get_output(r, SGCC_OUTPUT_PREPROCESSED, NULL);
    ck_assert_ptr_nonnull(pre);
    ck_assert_ptr_nonnull(strstr(pre, "# 1 \"t.sgc\"\n"));
    ck_assert_ptr_nonnull(strstr(pre, "p[0] = 7 * 2;"));
    ck_assert_ptr_null(sgcc_result_get_output(r, SGCC_OUTPUT_OPENCL, NULL));
    sgcc_result_destroy(r);
    sgcc_options_destroy(opt);
    unlink(path);
    rmdir(dir);
}
END_TEST

START_TEST(files_and_io_errors)
{
    char path[] = "/tmp/test_libsgcc_XXXXXX.sgc";
    int fd = mkstemps(path, 4);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, good, strlen(good)), (ssize_t)strlen(good));
    close(fd);
    sgcc_result *r = NULL;
    ck_assert_int_eq(sgcc_compile_file(NULL, path, &r), SGCC_OK);
    sgcc_result *s = compile(NULL, good, SGCC_OK);
    /* Same text, same output apart from the file name in #line. */
    ck_assert_ptr_nonnull(strstr(sgcc_result_get_output(r, SGCC_OUTPUT_OPENCL, NULL), path));
    ck_assert_str_eq(sgcc_result_get_dependency(r, 0), path);
    sgcc_result_destroy(r);
    sgcc_result_destroy(s);
    unlink(path);

    ck_assert_int_eq(sgcc_compile_file(NULL, path, &r), SGCC_ERROR_IO);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(sgcc_result_get_diagnostic_count(r), 1);
    ck_assert_ptr_nonnull(strstr(sgcc_result_get_diagnostic(r, 0)->message, "cannot open"));
    ck_assert_str_eq(sgcc_result_get_diagnostic(r, 0)->file, "sgcc");
    sgcc_result_destroy(r);
}
END_TEST

START_TEST(bad_arguments)
{
    sgcc_result *r = (sgcc_result *)1;
    ck_assert_int_eq(sgcc_compile_string(NULL, "x", NULL, 3, &r), SGCC_ERROR_INVALID_ARGUMENT);
    ck_assert_ptr_null(r);
    ck_assert_int_eq(sgcc_compile_file(NULL, NULL, &r), SGCC_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(sgcc_compile_string(NULL, "x", "", 0, NULL), SGCC_ERROR_INVALID_ARGUMENT);
    sgcc_options *opt = sgcc_options_create();
    ck_assert_int_eq(sgcc_options_set_targets(opt, 0), SGCC_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(sgcc_options_set_targets(opt, 8), SGCC_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(sgcc_options_add_define(opt, ""), SGCC_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(sgcc_options_add_define(opt, "=1"), SGCC_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(sgcc_options_add_include_dir(NULL, "d"), SGCC_ERROR_INVALID_ARGUMENT);
    ck_assert_int_eq(sgcc_options_set_header(NULL, 1), SGCC_ERROR_INVALID_ARGUMENT);
    sgcc_options_destroy(opt);
    sgcc_options_destroy(NULL);
    sgcc_result_destroy(NULL);
    ck_assert_uint_eq(sgcc_result_get_diagnostic_count(NULL), 0);
    ck_assert_ptr_null(sgcc_result_get_output(NULL, SGCC_OUTPUT_OPENCL, NULL));
    ck_assert_str_eq(sgcc_result_get_diagnostics_text(NULL), "");
    ck_assert_str_eq(sgcc_status_to_string((sgcc_status)99), "unknown status");
    ck_assert_str_eq(sgcc_version(), "0.1.0");
    /* An empty source is a valid, empty unit; a name defaults. */
    ck_assert_int_eq(sgcc_compile_string(NULL, NULL, "", 0, &r), SGCC_OK);
    ck_assert_str_eq(sgcc_result_get_dependency(r, 0), "<string>");
    sgcc_result_destroy(r);
}
END_TEST

/* Separate compilations on threads, one shared (unchanged) options object:
 * every one gets the single-threaded bytes. */
typedef struct Work {
    const sgcc_options *opt;
    const char *want;
    int mismatches;
} Work;

static void *compile_many(void *arg)
{
    Work *w = arg;
    for (int i = 0; i < 20; i++) {
        sgcc_result *r = NULL;
        if (sgcc_compile_string(w->opt, "t.sgc", good, strlen(good), &r) != SGCC_OK
            || strcmp(sgcc_result_get_output(r, SGCC_OUTPUT_CUDA, NULL), w->want) != 0)
            w->mismatches++;
        sgcc_result_destroy(r);
    }
    return NULL;
}

START_TEST(threads)
{
    sgcc_options *opt = sgcc_options_create();
    sgcc_options_add_define(opt, "UNUSED=1");
    sgcc_result *ref = compile(opt, good, SGCC_OK);
    const char *want = sgcc_result_get_output(ref, SGCC_OUTPUT_CUDA, NULL);
    enum { N = 4 };
    pthread_t thread[N];
    Work work[N];
    for (int i = 0; i < N; i++) {
        work[i] = (Work){opt, want, 0};
        ck_assert_int_eq(pthread_create(&thread[i], NULL, compile_many, &work[i]), 0);
    }
    for (int i = 0; i < N; i++) {
        pthread_join(thread[i], NULL);
        ck_assert_int_eq(work[i].mismatches, 0);
    }
    sgcc_result_destroy(ref);
    sgcc_options_destroy(opt);
}
END_TEST

#ifndef __SANITIZE_ADDRESS__ /* see suite(): not under AddressSanitizer */
/* Bytes of address space this process uses now (/proc/self/statm). */
static size_t address_space_now(void)
{
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* In a child: a source of `size` bytes of "int v;" lines, an address-space
 * limit `headroom` bytes above what is used once it exists, then a compile.
 * The child exits 0 when the call returned SGCC_ERROR_OUT_OF_MEMORY and no
 * result (not an abort, not a crash). */
static int compile_under_limit(size_t size, size_t headroom)
{
    pid_t pid = fork();
    if (pid == 0) {
        char *text = malloc(size);
        if (!text)
            _exit(2);
        for (size_t i = 0; i < size; i++)
            text[i] = "int v;\n"[i % 7];
        struct rlimit limit = {.rlim_cur = address_space_now() + headroom,
                               .rlim_max = RLIM_INFINITY};
        if (setrlimit(RLIMIT_AS, &limit) != 0)
            _exit(3);
        sgcc_result *r = (sgcc_result *)1;
        sgcc_status st = sgcc_compile_string(NULL, "big.sgc", text, size, &r);
        _exit(st == SGCC_ERROR_OUT_OF_MEMORY && r == NULL ? 0 : 4);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

START_TEST(out_of_memory_is_a_status)
{
    enum { MB = 1 << 20 };
    /* The copy of the source cannot be made. */
    ck_assert_int_eq(compile_under_limit(64 * MB, 16 * MB), 0);
    /* The copy fits; the tokens (many times the text) do not: an arena. */
    ck_assert_int_eq(compile_under_limit(32 * MB, 96 * MB), 0);
}
END_TEST
#endif /* !__SANITIZE_ADDRESS__ */

int main(void)
{
    Suite *s = suite_create("libsgcc");
    TCase *tc = tcase_create("api");
    tcase_add_test(tc, string_to_both_targets);
    tcase_add_test(tc, one_target_header_and_json);
    tcase_add_test(tc, errors_are_structured);
    tcase_add_test(tc, error_limit);
    tcase_add_test(tc, warnings_and_their_flags);
    tcase_add_test(tc, defines_undefines_and_includes);
    tcase_add_test(tc, absent_includes_are_reported);
    tcase_add_test(tc, files_and_io_errors);
    tcase_add_test(tc, bad_arguments);
    tcase_add_test(tc, threads);
#ifndef __SANITIZE_ADDRESS__
    /* An address-space limit does not mix with AddressSanitizer (its shadow
     * and allocator reserve, then report and abort, and the 32 MiB compile
     * outlasts the timeout there): the plain build runs this test. */
    tcase_add_test(tc, out_of_memory_is_a_status);
#endif
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
