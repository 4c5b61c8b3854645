/* build_cache.c — cold vs cached program build through sgrt, per device.
 *
 * For each device (or the one SGRT_DEVICE names): builds the vector-add
 * module with an empty cache directory (cold: the device compiler runs),
 * then builds it again N times from the on-disk cache, and prints the
 * median times as a Markdown table row.  Usage: bench_build_cache [N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vector_add.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Builds once; returns the wall time in ms or a negative value on error. */
static double timed_build(sgrt_context *context, bool *hit)
{
    sgrt_program *program = NULL;
    double t0 = now_ms();
    if (sgrt_program_create(context, &vector_add_module, &program) != SGRT_SUCCESS ||
        sgrt_program_build(program, NULL) != SGRT_SUCCESS) {
        fprintf(stderr, "build failed: %s\n", sgrt_last_error());
        sgrt_program_free(program);
        return -1.0;
    }
    double t1 = now_ms();
    sgrt_program_cache_hit(program, hit);
    sgrt_program_free(program);
    return t1 - t0;
}

static void bench_device(sgrt_device *device, int repeats)
{
    sgrt_device_info info;
    sgrt_context *context = NULL;
    if (sgrt_device_get_info(device, &info) != SGRT_SUCCESS ||
        sgrt_context_create(device, &context) != SGRT_SUCCESS)
        return;
    bool hit = false;
    double cold = timed_build(context, &hit);
    double *cached = calloc((size_t)repeats, sizeof *cached);
    bool all_hits = true;
    for (int i = 0; i < repeats; i++) {
        cached[i] = timed_build(context, &hit);
        all_hits &= hit;
    }
    qsort(cached, (size_t)repeats, sizeof *cached, compare_double);
    double median = cached[repeats / 2];
    printf("| %s | %s | %.1f | %.3f | %.0fx | %s |\n", info.name,
           info.backend == SGRT_BACKEND_CUDA ? "CUDA" : info.platform, cold, median,
           median > 0 ? cold / median : 0.0, all_hits ? "yes" : "NO");
    free(cached);
    sgrt_context_free(context);
}

int main(int argc, char **argv)
{
    int repeats = argc > 1 ? atoi(argv[1]) : 21;
    if (repeats < 1)
        repeats = 21;
    char dir[] = "/tmp/sgrt-bench-cache-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    setenv("SGRT_CACHE_DIR", dir, 1);
    setenv("SGRT_CACHE", "1", 1);
    printf("| device | platform | cold build ms | cached build ms (median of %d) | ratio | all cache hits |\n", repeats);
    printf("|---|---|---:|---:|---:|---|\n");
    const char *selector = getenv("SGRT_DEVICE");
    if (selector && *selector) {
        sgrt_device *device = NULL;
        if (sgrt_device_select(selector, &device) == SGRT_SUCCESS)
            bench_device(device, repeats);
    } else {
        size_t count = 0;
        sgrt_device_count(&count);
        for (size_t i = 0; i < count; i++) {
            sgrt_device *device = NULL;
            if (sgrt_device_get(i, &device) == SGRT_SUCCESS)
                bench_device(device, repeats);
        }
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
