/* multidevice — splits one SAXPY + checksum job (saxpy_sum.sgc) over every
 * device sgrt sees, or over the devices named on the command line: one
 * context per device, every share started (asynchronous writes, launch,
 * reads) before any is waited for, so the devices work at the same time;
 * then the host adds the shares' checksums and checks them, and every
 * element, against a host reference.
 *
 *   multidevice [-n ELEMENTS] [--min-devices K] [SELECTOR...]
 *
 * With fewer than K devices it prints why and exits 77 (a test's SKIP).
 * Exit status 0 when correct, 1 when a result is wrong, 2 on an error. */
#include <string.h>
#include <time.h>

#include "saxpy_share.h"

#define MAX_DEVICES 16

typedef struct options {
    uint64_t n;
    size_t min_devices;
    char **selectors;
    size_t selector_count;
} options;

static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s [-n ELEMENTS] [--min-devices K] [SELECTOR...]\n", prog);
    exit(2);
}

static options parse_options(int argc, char **argv)
{
    options o = {.n = 1u << 22, .min_devices = 1};
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            o.n = strtoull(argv[++i], NULL, 0);
        else if (strcmp(argv[i], "--min-devices") == 0 && i + 1 < argc)
            o.min_devices = (size_t)strtoul(argv[++i], NULL, 0);
        else
            usage(argv[0]);
    }
    o.selectors = argv + i;
    o.selector_count = (size_t)(argc - i);
    if (o.n == 0 || o.n > UINT32_MAX)
        usage(argv[0]);
    return o;
}

/* The devices named by the selectors, else every device sgrt lists. */
static size_t pick_devices(const options *o, sgrt_device **devices)
{
    size_t count = o->selector_count;
    if (count == 0)
        SAMPLE_CHECK(sgrt_device_get_count(&count));
    if (count > MAX_DEVICES)
        count = MAX_DEVICES;
    for (size_t d = 0; d < count; d++) {
        if (o->selector_count)
            SAMPLE_CHECK(sgrt_device_select(o->selectors[d], &devices[d]));
        else
            SAMPLE_CHECK(sgrt_device_get(d, &devices[d]));
    }
    return count;
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    options o = parse_options(argc, argv);
    sgrt_device *devices[MAX_DEVICES];
    size_t count = pick_devices(&o, devices);
    if (count < o.min_devices) {
        printf("SKIP: %zu device(s), %zu needed\n", count, o.min_devices);
        return 77;
    }

    const int32_t a = 3;
    share shares[MAX_DEVICES];
    uint64_t firsts[MAX_DEVICES];
    for (size_t d = 0; d < count; d++) {
        size_t part;
        job_part(o.n, count, d, &firsts[d], &part);
        share_open(&shares[d], devices[d], firsts[d], part);
    }

    double start = seconds_now();
    for (size_t d = 0; d < count; d++)
        share_start(&shares[d], a);
    int64_t checksum = 0;
    for (size_t d = 0; d < count; d++)
        checksum += share_finish(&shares[d]);
    double wall_ms = (seconds_now() - start) * 1e3;

    size_t wrong = 0;
    for (size_t d = 0; d < count; d++) {
        sgrt_device_info info;
        SAMPLE_CHECK(sgrt_device_get_info(devices[d], &info));
        size_t bad = share_count_wrong(&shares[d], firsts[d], a);
        printf("device %zu: %s (%s, %s): elements [%llu, %llu), kernel %.3f ms, %zu wrong\n",
               d, info.name, info.backend == SGRT_BACKEND_CUDA ? "CUDA" : "OpenCL",
               info.platform, (unsigned long long)firsts[d],
               (unsigned long long)(firsts[d] + shares[d].count), share_kernel_ms(&shares[d]),
               bad);
        wrong += bad;
    }
    int64_t reference = job_reference_sum(0, o.n, a);
    bool sum_ok = checksum == reference;
    printf("multidevice: n = %llu on %zu device(s), %.3f ms from first write to last read; "
           "checksum %lld (host %lld): %s\n",
           (unsigned long long)o.n, count, wall_ms, (long long)checksum,
           (long long)reference, sum_ok && !wrong ? "correct" : "FAILED");

    for (size_t d = 0; d < count; d++)
        share_close(&shares[d]);
    return sum_ok && !wrong ? 0 : 1;
}
