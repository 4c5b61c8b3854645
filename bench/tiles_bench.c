/* tiles_bench.c — split-barrier double buffering vs plain barriers.
 *
 * Runs tiled_double_buffer and tiled_plain (bench/tiles.sgc) on the device
 * SGRT_DEVICE selects, checks both against the host, and prints a Markdown
 * row with the median of the event times.  Usage: bench_tiles [groups] [tiles] [repeats] */
#include <stdio.h>
#include <stdlib.h>

#include "sample_util.h" /* SAMPLE_CHECK */
#include "tiles.h"

enum { WG = 128, TILE = 2 * WG };

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    uint32_t groups = argc > 1 ? (uint32_t)atoi(argv[1]) : 2048;
    uint32_t tiles = argc > 2 ? (uint32_t)atoi(argv[2]) : 64;
    int repeats = argc > 3 ? atoi(argv[3]) : 21;
    if (repeats < 1)
        repeats = 21;
    size_t count = (size_t)groups * tiles * TILE;
    int *src = malloc(count * sizeof *src);
    uint32_t *want = malloc((size_t)groups * WG * sizeof *want);
    uint32_t *got = malloc((size_t)groups * WG * sizeof *got);
    uint32_t seed = 1;
    for (size_t i = 0; i < count; i++) {
        seed = seed * 1664525u + 1013904223u;
        src[i] = (int)(seed >> 8);
    }
    for (uint32_t g = 0; g < groups; g++)
        for (uint32_t lid = 0; lid < WG; lid++) {
            uint32_t acc = 0;
            for (uint32_t k = 0; k < tiles; k++) {
                const int *tile = src + ((size_t)g * tiles + k) * TILE;
                acc += (uint32_t)tile[lid] * (k + 1) + (uint32_t)tile[TILE - 1 - lid];
            }
            want[g * WG + lid] = acc;
        }

    sgrt_device *device;
    sgrt_device_info info;
    sgrt_context *context;
    SAMPLE_CHECK(sgrt_device_select(getenv("SGRT_DEVICE"), &device));
    SAMPLE_CHECK(sgrt_device_get_info(device, &info));
    SAMPLE_CHECK(sgrt_context_create(device, &context));
    sgrt_program *program;
    SAMPLE_CHECK(sgrt_program_create(context, &tiles_module, &program));
    SAMPLE_CHECK(sgrt_program_build(program, NULL));
    sgrt_buffer *dsrc, *dout;
    SAMPLE_CHECK(sgrt_buffer_create(context, count * sizeof(int), &dsrc));
    SAMPLE_CHECK(sgrt_buffer_create(context, (size_t)groups * WG * sizeof(uint32_t), &dout));
    SAMPLE_CHECK(sgrt_buffer_write(dsrc, 0, count * sizeof(int), src));
    sgrt_launch_dims dims = {1, {(size_t)groups * WG, 1, 1}, {WG, 1, 1}};

    double ms[2];
    int failed = 0;
    uint64_t *times = calloc((size_t)repeats, sizeof *times);
    for (int variant = 0; variant < 2; variant++) {
        for (int r = 0; r < repeats; r++) {
            sgrt_event *event;
            if (variant == 0)
                SAMPLE_CHECK(tiles_launch_tiled_double_buffer(program, &dims, dsrc, dout, tiles, &event));
            else
                SAMPLE_CHECK(tiles_launch_tiled_plain(program, &dims, dsrc, dout, tiles, &event));
            SAMPLE_CHECK(sgrt_event_wait(event));
            uint64_t t0, t1;
            SAMPLE_CHECK(sgrt_event_profile(event, &t0, &t1));
            times[r] = t1 - t0;
            sgrt_event_free(event);
        }
        qsort(times, (size_t)repeats, sizeof *times, compare_u64);
        ms[variant] = (double)times[repeats / 2] / 1e6;
        SAMPLE_CHECK(sgrt_buffer_read(dout, 0, (size_t)groups * WG * sizeof(uint32_t), got));
        for (size_t i = 0; i < (size_t)groups * WG; i++)
            if (got[i] != want[i]) {
                fprintf(stderr, "%s: wrong result at %zu\n", variant ? "plain" : "split", i);
                failed = 1;
                break;
            }
    }
    double gbps = (double)count * sizeof(int) / 1e6;
    printf("| %s | %u x %u tiles | %.3f ms (%.0f GB/s) | %.3f ms (%.0f GB/s) | %.2fx | %s |\n",
           info.name, groups, tiles, ms[0], gbps / ms[0], ms[1], gbps / ms[1], ms[1] / ms[0],
           failed ? "WRONG" : "correct");
    free(times);
    sgrt_buffer_free(dsrc);
    sgrt_buffer_free(dout);
    sgrt_program_free(program);
    sgrt_context_free(context);
    free(src);
    free(want);
    free(got);
    return failed;
}
