/* test_reduce.c — the Reduce sample's matrix: every work-group strategy x
 * operation (sum, min) x element type (int, uint, long, float) x size (1, a
 * prime, one not divisible by the work-group size, 2^24), run through the
 * sample's own host code (samples/reduce/reduce_host.h) on one device and
 * compared exactly with the host reference.  A strategy the device lacks
 * must be refused by sgrt before the build, with a message naming it.
 *
 * Two work-group sizes: the kernel's own (the sample's choice) and LOCAL
 * (default 256, 0 = no cap), which alone runs MAX_SIZE (default 2^24).
 *
 * -x is the control of the inputs: the device reduces the input without
 * its final partial work-group (as a reduction that drops it would), the
 * reference takes all of it, and every such minimum must then differ from
 * the reference (reduce_fill plants the minimum in the last element), so
 * the normal run's comparisons would catch that bug for every type.
 *
 * usage: test_reduce [-d SELECTOR] [-w LOCAL] [-m MAX_SIZE] [-x]
 * Exit: 0 all passed, 1 a check failed, 77 no such device (meson: skip). */
#include <getopt.h>

#include "reduce.h"
#include "reduce_host.h"

static int failures, checks;

#define EXPECT(cond, ...)                                                      \
    do {                                                                       \
        checks++;                                                              \
        if (!(cond)) {                                                         \
            failures++;                                                        \
            printf("FAIL: " __VA_ARGS__);                                      \
            printf("\n");                                                      \
        }                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    const char *selector = NULL;
    size_t want_local = 256, max_size = (size_t)1 << 24;
    bool drop_last_group = false;
    for (int c; (c = getopt(argc, argv, "d:w:m:x")) != -1;) {
        if (c == 'x')
            drop_last_group = true;
        else if (c == 'd')
            selector = optarg;
        else if (c == 'w')
            want_local = strtoul(optarg, NULL, 0);
        else if (c == 'm')
            max_size = strtoul(optarg, NULL, 0);
        else
            return 2;
    }
    sgrt_device *device;
    if (sgrt_device_select(selector, &device) != SGRT_SUCCESS) {
        printf("skip: %s\n", sgrt_last_error());
        return 77;
    }
    sgrt_device_info info;
    SAMPLE_CHECK(sgrt_device_get_info(device, &info));
    sgrt_context *context;
    SAMPLE_CHECK(sgrt_context_create(device, &context));
    printf("device: %s (%s)\n", info.name, info.platform);

    /* Programs per (strategy, operation); refusals checked on the way. */
    sgrt_program *programs[SGRT_WG_STRATEGY_COUNT][REDUCE_OP_COUNT] = {{NULL}};
    int refused = 0;
    for (int s = SGRT_WG_TREE; s < SGRT_WG_STRATEGY_COUNT; s++) {
        bool has = info.wg_strategies & (1u << s);
        for (int op = 0; op < REDUCE_OP_COUNT; op++) {
            sgrt_status st = reduce_program(context, &reduce_module, (reduce_op)op,
                                            (sgrt_wg_strategy)s, &programs[s][op]);
            if (has) {
                EXPECT(st == SGRT_SUCCESS, "%s/%s: build failed: %s: %s",
                       sgrt_wg_strategy_name((sgrt_wg_strategy)s), reduce_op_names[op],
                       sgrt_status_name(st), sgrt_last_error());
                continue;
            }
            const char *msg = sgrt_last_error();
            EXPECT(st == SGRT_ERROR_UNSUPPORTED && strstr(msg, "not supported on device") &&
                       strstr(msg, sgrt_wg_strategy_name((sgrt_wg_strategy)s)),
                   "%s on a device without it: got %s (%s), want UNSUPPORTED naming it",
                   sgrt_wg_strategy_name((sgrt_wg_strategy)s), sgrt_status_name(st), msg);
            refused++;
        }
        printf("strategy %-8s %s\n", sgrt_wg_strategy_name((sgrt_wg_strategy)s),
               has ? "available" : "refused (checked)");
    }
    /* The default strategy is the device's best, and builds. */
    sgrt_program *def = NULL;
    sgrt_wg_strategy got_default = SGRT_WG_DEFAULT;
    EXPECT(reduce_program(context, &reduce_module, REDUCE_SUM, SGRT_WG_DEFAULT, &def) ==
                   SGRT_SUCCESS &&
               sgrt_program_get_wg_strategy(def, &got_default) == SGRT_SUCCESS &&
               got_default == info.wg_strategy,
           "default strategy: got %d, want %d", (int)got_default, (int)info.wg_strategy);
    sgrt_program_free(def);

    /* Work-group size: the kernel's (as the sample), capped to keep the
     * matrix fast on a CPU. */
    sgrt_kernel *k0;
    sgrt_kernel_info ki;
    SAMPLE_CHECK(sgrt_kernel_get(programs[SGRT_WG_TREE][0], "reduce_int", &k0));
    SAMPLE_CHECK(sgrt_kernel_get_info(k0, &ki));
    EXPECT(ki.max_work_group_size >= 1 && ki.max_work_group_size <= info.max_work_group_size &&
               ki.preferred_multiple >= 1,
           "kernel info: max %zu (device %zu), multiple %zu", ki.max_work_group_size,
           info.max_work_group_size, ki.preferred_multiple);
    /* Two work-group sizes: the kernel's own maximum (as the sample; on CPUs
     * thousands of work-items, so the strategies' multi-round paths run)
     * for the small sizes, and a capped one that keeps 2^24 fast. */
    size_t kernel_local = reduce_pick_local(&ki, SGRT_WG_DEFAULT, info.kind); /* no tree cap */
    size_t local = kernel_local;
    if (want_local && want_local < local)
        local = want_local;
    size_t cap = max_size > 6 * kernel_local + 17 ? max_size : 6 * kernel_local + 17;
    void *data = malloc(cap * 8);
    sgrt_buffer *input, *tmp[2];
    SAMPLE_CHECK(sgrt_buffer_create(context, cap * 8, &input));
    SAMPLE_CHECK(sgrt_buffer_create(context, reduce_pass_groups(cap, 1) * 8, &tmp[0]));
    SAMPLE_CHECK(sgrt_buffer_create(context, reduce_pass_groups(cap, 1) * 8, &tmp[1]));
    int runs = 0;
    for (int round = 0; round < 2; round++) {
        size_t l = round == 0 ? local : kernel_local;
        if (round == 1 && kernel_local == local)
            break;
        /* 1, a prime, not a multiple of the work-group size (nor of 2x it) */
        size_t sizes[] = {1, 100003, 3 * 2 * l + 17, max_size};
        size_t nsizes = round == 0 ? 4 : 3;
        printf("work-group size %zu; sizes", l);
        for (size_t si = 0; si < nsizes; si++)
            printf(" %zu", sizes[si]);
        printf("\n");
        for (int op = 0; op < REDUCE_OP_COUNT; op++)
            for (int t = 0; t < REDUCE_TYPE_COUNT; t++)
                for (size_t si = 0; si < nsizes; si++) {
                    size_t n = sizes[si], elem = reduce_types[t].size;
                    uint32_t seed = (uint32_t)(977 * si + 13 * t + op + 1);
                    reduce_fill((reduce_type)t, (reduce_op)op, data, n, seed);
                    unsigned char want[8], got[8];
                    reduce_reference((reduce_type)t, (reduce_op)op, data, n, want);
                    SAMPLE_CHECK(sgrt_buffer_write(input, 0, n * elem, data));
                    for (int s = SGRT_WG_TREE; s < SGRT_WG_STRATEGY_COUNT; s++) {
                        if (!programs[s][op])
                            continue;
                        sgrt_kernel *kernel;
                        SAMPLE_CHECK(sgrt_kernel_get(programs[s][op], reduce_types[t].kernel,
                                                     &kernel));
                        reduce_pass passes[REDUCE_MAX_PASSES];
                        int pass_count = 0;
                        /* -x: the input without its final partial group
                         * (a work-group reduces 2 x its size elements) */
                        size_t n_device = n;
                        if (drop_last_group && n > 2 * l && n % (2 * l))
                            n_device = n - n % (2 * l);
                        sgrt_status st = reduce_device(kernel, input, tmp, n_device, l, elem, got,
                                                       passes, &pass_count);
                        char gs[64], ws[64];
                        reduce_format((reduce_type)t, got, gs, sizeof gs);
                        reduce_format((reduce_type)t, want, ws, sizeof ws);
                        if (n_device != n && op == REDUCE_MIN)
                            EXPECT(st == SGRT_SUCCESS && memcmp(got, want, elem) != 0,
                                   "%s min %s n=%zu local=%zu: dropping the last %zu elements "
                                   "went unnoticed (device %s, host %s)",
                                   sgrt_wg_strategy_name((sgrt_wg_strategy)s), reduce_types[t].name,
                                   n, l, n - n_device, gs, ws);
                        else if (n_device == n)
                            EXPECT(st == SGRT_SUCCESS && memcmp(got, want, elem) == 0,
                                   "%s %s %s n=%zu local=%zu: device %s, host %s (%s)",
                                   sgrt_wg_strategy_name((sgrt_wg_strategy)s), reduce_op_names[op],
                                   reduce_types[t].name, n, l, gs, ws, sgrt_status_name(st));
                        /* Passes: each shrinks by 2 x its work-group size. */
                        size_t count = n_device;
                        for (int i = 0; i < pass_count; i++) {
                            size_t want_groups = reduce_pass_groups(count, passes[i].local);
                            EXPECT(passes[i].in_count == count && passes[i].groups == want_groups,
                                   "pass %d of n=%zu", i, n_device);
                            count = passes[i].groups;
                        }
                        EXPECT(count == 1, "n=%zu ends with %zu elements", n, count);
                        runs++;
                    }
                }
    }
    printf("%d reductions, %d refusals, %d checks, %d failed\n", runs, refused, checks, failures);

    free(data);
    sgrt_buffer_free(input);
    sgrt_buffer_free(tmp[0]);
    sgrt_buffer_free(tmp[1]);
    for (int s = 0; s < SGRT_WG_STRATEGY_COUNT; s++)
        for (int op = 0; op < REDUCE_OP_COUNT; op++)
            sgrt_program_free(programs[s][op]);
    sgrt_context_free(context);
    return failures ? 1 : 0;
}
