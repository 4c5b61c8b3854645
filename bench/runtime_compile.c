/* runtime_compile.c — what compiling SGC at run time costs.
 *
 * For each .sgc file, on one device, the fastest of R runs of:
 *   translate  sgrt_program_create_from_source with an empty translation
 *              cache (libsgcc in process: preprocess, check, emit, JSON);
 *   build      sgrt_program_build of that program with an empty binary
 *              cache (the device compiler);
 *   cached     create + build again with both caches filled;
 *   sgcc       `sgcc -t <backend> -o TMP --header TMP.h FILE` as a
 *              process (fork + exec + wait), what a build system pays per
 *              file before the same device build;
 * and the totals: run-time cold = translate + build, run-time cached,
 * and sgcc process + build.  Every cold run appends a distinct comment to
 * the text, so that neither sgrt's caches nor the driver's own (PoCL's
 * kernel cache) can serve it.  Prints one Markdown row per file.
 *
 * Usage: bench_runtime_compile SELECTOR R SGCC FILE...
 *   SELECTOR as SGRT_DEVICE; SGCC the sgcc command ("-" to skip that
 *   column, e.g. on a machine without one). */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sgrt.h"

extern char **environ;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = n >= 0 ? calloc(1, (size_t)n + 200) : NULL;
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        text = NULL;
    }
    fclose(f);
    return text;
}

#define MUST(call)                                                                         \
    do {                                                                                   \
        sgrt_status s_ = (call);                                                           \
        if (s_ != SGRT_SUCCESS) {                                                          \
            fprintf(stderr, "%s: %s\n%s\n", #call, sgrt_status_name(s_), sgrt_last_error()); \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* Sets required spec constants (none in the samples; kept general) to 1. */
static void set_required(sgrt_program *p)
{
    const sgrt_module_desc *m = NULL;
    MUST(sgrt_program_get_module(p, &m));
    for (uint32_t i = 0; i < m->spec_count; i++)
        if (m->specs[i].required) {
            sgrt_value one = {0};
            one.ul = 1;
            if (m->specs[i].type == SGRT_TYPE_FLOAT)
                one.f = 1.0f;
            if (m->specs[i].type == SGRT_TYPE_DOUBLE)
                one.d = 1.0;
            MUST(sgrt_program_set_spec(p, m->specs[i].id, m->specs[i].type, &one,
                                       sgrt_type_size(m->specs[i].type)));
        }
}

typedef struct Times {
    double translate, build, cached, process;
} Times;

static double min(double a, double b) { return a < b ? a : b; }

/* One cold create + build of `text` made unique by `tag`, then one cached. */
static void one_run(sgrt_context *ctx, const char *path, char *text, size_t len, int tag,
                    Times *best)
{
    snprintf(text + len, 200, "\n/* bench run %d.%ld */\n", tag, (long)getpid());
    sgrt_program *p = NULL;
    double t0 = now_ms();
    MUST(sgrt_program_create_from_source(ctx, text, path, NULL, &p));
    double t1 = now_ms();
    set_required(p);
    MUST(sgrt_program_build(p, NULL));
    double t2 = now_ms();
    MUST(sgrt_program_free(p));
    double t3 = now_ms();
    MUST(sgrt_program_create_from_source(ctx, text, path, NULL, &p));
    set_required(p);
    MUST(sgrt_program_build(p, NULL));
    double t4 = now_ms();
    bool hit = false;
    MUST(sgrt_program_cache_hit(p, &hit));
    MUST(sgrt_program_free(p));
    if (!hit) {
        fprintf(stderr, "the second build was not a cache hit\n");
        exit(1);
    }
    best->translate = min(best->translate, t1 - t0);
    best->build = min(best->build, t2 - t1);
    best->cached = min(best->cached, t4 - t3);
}

static double run_sgcc(const char *sgcc, const char *target, const char *path, const char *tmp)
{
    char out[300], header[300];
    snprintf(out, sizeof out, "%s/out", tmp);
    snprintf(header, sizeof header, "%s/out.h", tmp);
    char *argv[] = {(char *)sgcc, "-t", (char *)target, "-o", out, "--header", header,
                    (char *)path, NULL};
    double t0 = now_ms();
    pid_t pid;
    int status = 0;
    if (posix_spawn(&pid, sgcc, NULL, NULL, argv, environ) != 0 ||
        waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "running %s on %s failed\n", sgcc, path);
        exit(1);
    }
    return now_ms() - t0;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s SELECTOR R SGCC FILE...\n", argv[0]);
        return 2;
    }
    char tmp[] = "/tmp/sgrt-bench-compile-XXXXXX";
    if (!mkdtemp(tmp))
        return 1;
    setenv("SGRT_CACHE_DIR", tmp, 1);
    unsetenv("SGRT_CACHE");
    int runs = atoi(argv[2]);
    const char *sgcc = strcmp(argv[3], "-") ? argv[3] : NULL;
    sgrt_device *dev = NULL;
    sgrt_context *ctx = NULL;
    sgrt_device_info info;
    MUST(sgrt_device_select(argv[1], &dev));
    MUST(sgrt_device_get_info(dev, &info));
    MUST(sgrt_context_create(dev, &ctx));
    const char *target = info.backend == SGRT_BACKEND_CUDA ? "cuda" : "opencl";
    printf("| device | file | translate | build | run-time cold | run-time cached | sgcc "
           "process | sgcc + build |\n|---|---|---|---|---|---|---|---|\n");
    for (int f = 4; f < argc; f++) {
        char *text = read_text(argv[f]);
        if (!text) {
            fprintf(stderr, "cannot read %s\n", argv[f]);
            return 1;
        }
        size_t len = strlen(text);
        Times best = {1e30, 1e30, 1e30, 1e30};
        for (int r = 0; r < runs; r++) {
            one_run(ctx, argv[f], text, len, r, &best);
            if (sgcc)
                best.process = min(best.process, run_sgcc(sgcc, target, argv[f], tmp));
        }
        printf("| %s | %s | %.2f | %.1f | %.1f | %.2f |", info.name, argv[f], best.translate,
               best.build, best.translate + best.build, best.cached);
        if (sgcc)
            printf(" %.2f | %.1f |\n", best.process, best.process + best.build);
        else
            printf(" - | - |\n");
        free(text);
    }
    MUST(sgrt_context_free(ctx));
    char cmd[100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    return system(cmd) == 0 ? 0 : 1;
}
