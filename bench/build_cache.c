/* build_cache.c — cold vs cached program build through sgrt, per device.
 *
 * For each device (or the one SGRT_DEVICE names): builds the vector-add
 * module with an empty cache directory (cold: the device compiler runs),
 * then builds it again N times from the on-disk cache, and prints the
 * median times as a Markdown table row.  A second table splits the cached
 * build into its steps, each timed alone N times (median): creating the
 * program object, hashing the cache key, loading the entry (read, checksum,
 * copy), the driver loading the binary (OpenCL: clCreateProgramWithBinary +
 * clBuildProgram; CUDA: cuModuleLoadData), and freeing the program.  The steps
 * are called through sgrt_internal.h exactly as sgrt_program_build calls them.
 * Usage: bench_build_cache [N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sample_util.h"
#include "sgrt_internal.h" /* the split times the cache's own steps */
#include "vector_add.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
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

enum { STEP_CREATE, STEP_KEY, STEP_LOAD, STEP_DRIVER, STEP_FREE, STEP_COUNT };

typedef struct Split {
    const char *device, *platform;
    double whole;                 /* median cached build (create + build) */
    double step[STEP_COUNT];      /* medians */
    size_t binary_size, source_size;
    bool ok;
} Split;

static double median_of(double *v, int n)
{
    sample_sort_times(v, (size_t)n);
    return v[n / 2];
}

/* Times each step of a cached build alone; `options` are the composed build
 * options of an earlier build (part of the key). */
static void split_cached_build(sgrt_context *context, const char *options, int repeats, Split *out)
{
    const sgrt_device_info *in = &context->device->info;
    const SgrtBackend *be = sgrt_backend_of(context->device);
    const char *source = vector_add_module.sources[in->backend];
    double *t[STEP_COUNT];
    for (int k = 0; k < STEP_COUNT; k++)
        t[k] = calloc((size_t)repeats, sizeof(double));
    out->ok = true;
    out->source_size = strlen(source);
    for (int i = 0; i < repeats && out->ok; i++) {
        sgrt_program *program = NULL;
        double t0 = now_ms();
        out->ok = sgrt_program_create(context, &vector_add_module, &program) == SGRT_SUCCESS;
        double t1 = now_ms();
        const char *parts[] = {"sgrt-cache-2", be->name, source, options, in->name, in->vendor,
                               in->platform, in->version, in->driver_version};
        SgrtCacheKey key = sgrt_cache_key(parts, sizeof parts / sizeof *parts);
        double t2 = now_ms();
        char *log = NULL;
        unsigned char *binary = NULL;
        size_t size = 0;
        out->ok = out->ok && sgrt_cache_load(key, &log, &binary, &size);
        double t3 = now_ms();
        out->ok = out->ok && be->build_binary(program, binary, size, options) == SGRT_SUCCESS;
        double t4 = now_ms();
        free(log);
        free(binary);
        sgrt_program_free(program);
        double t5 = now_ms();
        t[STEP_CREATE][i] = t1 - t0;
        t[STEP_KEY][i] = t2 - t1;
        t[STEP_LOAD][i] = t3 - t2;
        t[STEP_DRIVER][i] = t4 - t3;
        t[STEP_FREE][i] = t5 - t4;
        out->binary_size = size;
    }
    for (int k = 0; k < STEP_COUNT; k++) {
        out->step[k] = out->ok ? median_of(t[k], repeats) : 0.0;
        free(t[k]);
    }
}

static Split splits[SGRT_MAX_DEVICES];
static int split_count;

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
    sample_sort_times(cached, (size_t)repeats);
    double median = cached[repeats / 2];
    /* One more build, kept, for the options string of the key. */
    sgrt_program *built = NULL;
    if (split_count < SGRT_MAX_DEVICES &&
        sgrt_program_create(context, &vector_add_module, &built) == SGRT_SUCCESS &&
        sgrt_program_build(built, NULL) == SGRT_SUCCESS) {
        Split *sp = &splits[split_count++];
        sp->device = strdup(info.name);
        sp->platform = strdup(info.backend == SGRT_BACKEND_CUDA ? "CUDA" : info.platform);
        sp->whole = median;
        split_cached_build(context, built->options, repeats, sp);
    }
    sgrt_program_free(built);
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
    printf("\nCached build split (ms, median of %d each; the steps timed alone):\n\n", repeats);
    printf("| device | platform | cached build | create | key hash | cache load | driver load "
           "| free | source B | binary B |\n");
    printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 0; i < split_count; i++) {
        const Split *sp = &splits[i];
        if (!sp->ok) {
            printf("| %s | %s | split failed: %s |\n", sp->device, sp->platform, sgrt_last_error());
            continue;
        }
        printf("| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %zu | %zu |\n", sp->device,
               sp->platform, sp->whole, sp->step[STEP_CREATE], sp->step[STEP_KEY],
               sp->step[STEP_LOAD], sp->step[STEP_DRIVER], sp->step[STEP_FREE], sp->source_size,
               sp->binary_size);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
