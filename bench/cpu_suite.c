/* cpu_suite.c — the group benchmark kernels (bench/cpu_suite*.sgc) on every
 * device sgrt lists (meant for the CPU OpenCL runtimes: Intel's, khr tier,
 * and PoCL, wg tier), each checked against the host and timed against a peer
 * measured in the same run: the same computation as a plain C loop on one
 * host core.
 *
 * Per kernel: median of R device event times, GB/s over the input read
 * once, the host loop's best of R, and host / device (above 1: the device
 * kernel is faster than one host core).  Kernels that need sub-groups are
 * reported as not run on a device without them.  The split-barrier tiles and
 * the spec-constant matmul have their own programs (bench_tiles,
 * samples/matmul); bench/cpu_suite.sh runs all three per device.
 *
 * Usage: bench_cpu_suite [SELECTOR|all] [N] [R]   (N a multiple of 256) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu_suite.h"
#include "cpu_suite_wg.h"
#include "sample_util.h"

enum { LOCAL = 256, THRESHOLD = 7 };

typedef struct Bench {
    size_t n;
    int repeats;
    const int *in;
    sgrt_context *context;
    sgrt_program *sg, *wg;     /* sg NULL without sub-groups */
    sgrt_buffer *din, *d_a, *d_b;
    int *host_a, *host_b;      /* host results (peer), n ints each */
    int *dev_a, *dev_b;        /* device results read back */
} Bench;

typedef enum Kernel {
    K_REDUCE_SG, K_REDUCE_WG, K_FIXED8, K_BALLOT, K_TANGLE, K_OPPORTUNISTIC, K_COUNT
} Kernel;

static const struct {
    const char *name, *group;
    bool needs_sub_groups;
} kernel_info[K_COUNT] = {
    {"reduce_sub_group", "sub_group reduce + atomic", true},
    {"reduce_work_group", "work_group reduce", false},
    {"fixed8_scan_reduce", "fixed_size_group<8> scan + reduce", true},
    {"ballot_reduce", "ballot_group reduce", true},
    {"tangle_count", "tangle_group reduce", true},
    {"opportunistic_compact", "opportunistic_group broadcast + atomic", true},
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- the peer: one host core ----------------------------------------------- */

static void host_run(Kernel k, const int *in, size_t n, int *a, int *b)
{
    switch (k) {
    case K_REDUCE_SG: {
        int s = 0;
        for (size_t i = 0; i < n; i++)
            s += in[i];
        a[0] = s;
        break;
    }
    case K_REDUCE_WG:
        for (size_t g = 0; g < n / LOCAL; g++) {
            int s = 0;
            for (size_t i = 0; i < LOCAL; i++)
                s += in[g * LOCAL + i];
            a[g] = s;
        }
        break;
    case K_FIXED8:
        for (size_t p = 0; p < n / 8; p++) {
            int s = 0;
            for (size_t i = 0; i < 8; i++)
                a[p * 8 + i] = s += in[p * 8 + i];
            b[p] = s;
        }
        break;
    case K_BALLOT:
        a[0] = a[1] = 0;
        for (size_t i = 0; i < n; i++)
            a[in[i] > THRESHOLD] += in[i];
        break;
    case K_TANGLE: {
        int c = 0;
        for (size_t i = 0; i < n; i++)
            c += in[i] > THRESHOLD;
        a[0] = c;
        break;
    }
    case K_OPPORTUNISTIC: {
        int c = 0;
        for (size_t i = 0; i < n; i++)
            if (in[i] > THRESHOLD)
                a[c++] = (int)i;
        b[0] = c;
        break;
    }
    case K_COUNT: break;
    }
}

/* ---- the device ------------------------------------------------------------ */

static bool ok(sgrt_status status, const char *what)
{
    if (status != SGRT_SUCCESS)
        fprintf(stderr, "%s: %s: %s\n", what, sgrt_status_name(status), sgrt_last_error());
    return status == SGRT_SUCCESS;
}

static bool zero(sgrt_buffer *buf, size_t bytes)
{
    static const int zeros[2] = {0, 0};
    return ok(sgrt_buffer_write(buf, 0, bytes, zeros), "clear");
}

/* One launch; the event's device time in ms, or -1. */
static double device_run(Bench *b, Kernel k)
{
    sgrt_launch_dims dims = {1, {b->n, 1, 1}, {LOCAL, 1, 1}};
    sgrt_event *ev = NULL;
    sgrt_status st;
    int threshold = THRESHOLD;
    switch (k) {
    case K_REDUCE_SG:
        if (!zero(b->d_a, sizeof(int)))
            return -1;
        st = cpu_suite_launch_reduce_sub_group(b->sg, &dims, b->din, b->d_a, &ev);
        break;
    case K_REDUCE_WG:
        st = cpu_suite_wg_launch_reduce_work_group(b->wg, &dims, b->din, b->d_a, &ev);
        break;
    case K_FIXED8:
        st = cpu_suite_launch_fixed8_scan_reduce(b->sg, &dims, b->din, b->d_a, b->d_b, &ev);
        break;
    case K_BALLOT:
        if (!zero(b->d_a, 2 * sizeof(int)))
            return -1;
        st = cpu_suite_launch_ballot_reduce(b->sg, &dims, b->din, b->d_a, threshold, &ev);
        break;
    case K_TANGLE:
        if (!zero(b->d_a, sizeof(int)))
            return -1;
        st = cpu_suite_launch_tangle_count(b->sg, &dims, b->din, b->d_a, threshold, &ev);
        break;
    case K_OPPORTUNISTIC:
        if (!zero(b->d_b, sizeof(int)))
            return -1;
        st = cpu_suite_launch_opportunistic_compact(b->sg, &dims, b->din, b->d_a, b->d_b,
                                                    threshold, &ev);
        break;
    default: return -1;
    }
    uint64_t t0, t1;
    bool good = ok(st, kernel_info[k].name) && ok(sgrt_event_wait(ev), "wait") &&
                ok(sgrt_event_profile(ev, &t0, &t1), "profile");
    sgrt_event_free(ev);
    return good ? (double)(t1 - t0) / 1e6 : -1.0;
}

static bool same(const int *x, const int *y, size_t count)
{
    return memcmp(x, y, count * sizeof(int)) == 0;
}

/* Reads the device results back and compares them with the host's. */
static bool device_check(Bench *b, Kernel k)
{
    size_t n = b->n;
    sgrt_buffer *da = b->d_a, *db = b->d_b;
    int *a = b->dev_a, *bb = b->dev_b;
    switch (k) {
    case K_REDUCE_SG:
    case K_TANGLE:
        return ok(sgrt_buffer_read(da, 0, sizeof(int), a), "read") && a[0] == b->host_a[0];
    case K_BALLOT:
        return ok(sgrt_buffer_read(da, 0, 2 * sizeof(int), a), "read") && same(a, b->host_a, 2);
    case K_REDUCE_WG:
        return ok(sgrt_buffer_read(da, 0, n / LOCAL * sizeof(int), a), "read") &&
               same(a, b->host_a, n / LOCAL);
    case K_FIXED8:
        return ok(sgrt_buffer_read(da, 0, n * sizeof(int), a), "read") &&
               ok(sgrt_buffer_read(db, 0, n / 8 * sizeof(int), bb), "read") &&
               same(a, b->host_a, n) && same(bb, b->host_b, n / 8);
    case K_OPPORTUNISTIC: {
        /* The order of the queue is the device's; its contents must be the
         * kept indices, each once. */
        if (!ok(sgrt_buffer_read(db, 0, sizeof(int), bb), "read") || bb[0] != b->host_b[0])
            return false;
        size_t count = (size_t)bb[0];
        if (!ok(sgrt_buffer_read(da, 0, count * sizeof(int), a), "read"))
            return false;
        char *seen = calloc(n, 1);
        bool good = seen != NULL;
        for (size_t i = 0; good && i < count; i++) {
            size_t idx = (size_t)(unsigned)a[i];
            good = idx < n && !seen[idx] && b->in[idx] > THRESHOLD;
            if (good)
                seen[idx] = 1;
        }
        free(seen);
        return good;
    }
    default: return false;
    }
}

static void bench_kernel(Bench *b, Kernel k, const char *device)
{
    if (kernel_info[k].needs_sub_groups && !b->sg) {
        printf("| %s | %s | %s | not run: no sub-groups (wg tier) | | | | |\n", device,
               kernel_info[k].name, kernel_info[k].group);
        return;
    }
    double *dev = calloc((size_t)b->repeats, sizeof *dev);
    double host_best = 1e30;
    bool good = true;
    for (int r = 0; r < b->repeats && good; r++) {
        double t0 = now_ms();
        host_run(k, b->in, b->n, b->host_a, b->host_b);
        double t = now_ms() - t0;
        host_best = t < host_best ? t : host_best;
        dev[r] = device_run(b, k);
        good = dev[r] >= 0 && device_check(b, k);
    }
    if (!good) {
        printf("| %s | %s | %s | WRONG or failed | | | | |\n", device, kernel_info[k].name,
               kernel_info[k].group);
        free(dev);
        return;
    }
    sample_sort_times(dev, (size_t)b->repeats);
    double med = dev[b->repeats / 2];
    double gbs = (double)b->n * sizeof(int) / 1e6 / med;
    printf("| %s | %s | %s | correct | %.3f | %.2f | %.3f | %.2fx |\n", device, kernel_info[k].name,
           kernel_info[k].group, med, gbs, host_best, host_best / med);
    fflush(stdout);
    free(dev);
}

static int bench_device(sgrt_device *device, const int *in, size_t n, int repeats)
{
    sgrt_device_info info;
    if (!ok(sgrt_device_get_info(device, &info), "device info"))
        return 1;
    Bench b = {.n = n, .repeats = repeats, .in = in};
    int failed = 1;
    b.host_a = calloc(n, sizeof(int));
    b.host_b = calloc(n, sizeof(int));
    b.dev_a = calloc(n, sizeof(int));
    b.dev_b = calloc(n, sizeof(int));
    if (!b.host_a || !b.host_b || !b.dev_a || !b.dev_b ||
        !ok(sgrt_context_create(device, &b.context), "context") ||
        !ok(sgrt_program_create(b.context, &cpu_suite_wg_module, &b.wg), "program") ||
        !ok(sgrt_program_build(b.wg, NULL), "build cpu_suite_wg") ||
        !ok(sgrt_buffer_create(b.context, n * sizeof(int), &b.din), "buffer") ||
        !ok(sgrt_buffer_create(b.context, n * sizeof(int), &b.d_a), "buffer") ||
        !ok(sgrt_buffer_create(b.context, n * sizeof(int), &b.d_b), "buffer") ||
        !ok(sgrt_buffer_write(b.din, 0, n * sizeof(int), in), "write"))
        goto done;
    if (info.sub_groups &&
        (!ok(sgrt_program_create(b.context, &cpu_suite_module, &b.sg), "program") ||
         !ok(sgrt_program_build(b.sg, NULL), "build cpu_suite")))
        goto done;
    const char *name = info.backend == SGRT_BACKEND_CUDA ? info.name : info.platform;
    for (Kernel k = 0; k < K_COUNT; k++)
        bench_kernel(&b, k, name);
    failed = 0;
done:
    sgrt_buffer_free(b.din);
    sgrt_buffer_free(b.d_a);
    sgrt_buffer_free(b.d_b);
    sgrt_program_free(b.sg);
    sgrt_program_free(b.wg);
    sgrt_context_free(b.context);
    free(b.host_a);
    free(b.host_b);
    free(b.dev_a);
    free(b.dev_b);
    return failed;
}

int main(int argc, char **argv)
{
    const char *selector = argc > 1 ? argv[1] : "all";
    size_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : (size_t)1 << 22;
    int repeats = argc > 3 ? atoi(argv[3]) : 11;
    if (n == 0 || n % LOCAL != 0 || repeats < 1) {
        fprintf(stderr, "usage: %s [SELECTOR|all] [N, a multiple of %d] [R >= 1]\n", argv[0],
                LOCAL);
        return 2;
    }
    int *in = malloc(n * sizeof *in);
    if (!in)
        return 1;
    uint32_t state = 12345;
    for (size_t i = 0; i < n; i++) {
        state ^= state << 13, state ^= state >> 17, state ^= state << 5;
        in[i] = (int)(state & 15);
    }
    printf("| device | kernel | group algorithm | result | device ms (median of %d) | GB/s "
           "| host 1-core ms (best) | host / device |\n", repeats);
    printf("|---|---|---|---|---:|---:|---:|---:|\n");
    int failed = 0;
    if (strcmp(selector, "all") == 0) {
        size_t count = 0;
        if (!ok(sgrt_device_count(&count), "devices"))
            return 1;
        for (size_t i = 0; i < count; i++) {
            sgrt_device *device;
            if (sgrt_device_get(i, &device) == SGRT_SUCCESS)
                failed |= bench_device(device, in, n, repeats);
        }
    } else {
        sgrt_device *device;
        if (!ok(sgrt_device_select(selector, &device), selector))
            return 1;
        failed |= bench_device(device, in, n, repeats);
    }
    free(in);
    return failed;
}
