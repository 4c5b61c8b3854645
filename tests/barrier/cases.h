/* cases.h — the split-barrier execution cases: inputs, launch, and a host
 * reference computed independently of the device code (plain sequential C
 * following the semantics in docs/REFERENCE.md "Split barriers").  Shared by the OpenCL host (C17)
 * and the CUDA host (C++), which differ only in the TestBackend they pass. */
#ifndef SGC_BARRIER_CASES_H
#define SGC_BARRIER_CASES_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_WG 128 /* keep equal to kdialect.h */
#define COPY_MAX (4 * TEST_WG + 8)
#define BYTES_MAX 4096
#define BYTES_STRIDE (BYTES_MAX + 16)
#define TILE (2 * TEST_WG)

/* One kernel argument: a buffer (copied in before the launch and back
 * after it) or a 32-bit scalar. */
typedef struct TestArg {
    void *host;   /* NULL for a scalar */
    size_t bytes;
    unsigned value;
} TestArg;

typedef enum TestStatus { TEST_PASS, TEST_FAIL, TEST_SKIP } TestStatus;

typedef struct TestBackend {
    void *self;
    /* Launches kernel on groups work-groups of TEST_WG.  Returns TEST_SKIP
     * when this build has no such kernel, TEST_FAIL on an API error. */
    TestStatus (*run)(void *self, const char *kernel, unsigned groups, TestArg *args, int nargs);
} TestBackend;

static TestArg test_buf(void *host, size_t bytes)
{
    TestArg a = {host, bytes, 0};
    return a;
}

static TestArg test_u32(unsigned value)
{
    TestArg a = {NULL, 0, value};
    return a;
}

/* Deterministic inputs. */
static unsigned test_rand(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

#define TEST_CHECK(cond, ...)                  \
    do {                                       \
        if (!(cond)) {                         \
            snprintf(why, why_len, __VA_ARGS__); \
            status = TEST_FAIL;                \
            goto done;                         \
        }                                      \
    } while (0)

#define TEST_LAUNCH(kernel, groups, ...)                                          \
    do {                                                                          \
        TestArg args_[] = {__VA_ARGS__};                                          \
        status = be->run(be->self, kernel, groups, args_, (int)(sizeof args_ / sizeof args_[0])); \
        if (status != TEST_PASS) {                                                \
            snprintf(why, why_len, status == TEST_SKIP ? "kernel not built for this backend" \
                                                       : "launch failed");        \
            goto done;                                                            \
        }                                                                         \
    } while (0)

static TestStatus case_ring(const TestBackend *be, int cycles, char *why, size_t why_len)
{
    enum { G = 3 };
    TestStatus status = TEST_PASS;
    int in[G * TEST_WG], data[G * TEST_WG];
    unsigned seed = 7;
    for (int i = 0; i < G * TEST_WG; i++)
        in[i] = data[i] = (int)(test_rand(&seed) % 100000);
    TEST_LAUNCH("ring_exchange", G, test_buf(data, sizeof data), test_u32((unsigned)cycles));
    for (int g = 0; g < G; g++)
        for (int idx = 0; idx < TEST_WG; idx++) {
            int from = ((idx - cycles) % TEST_WG + TEST_WG) % TEST_WG;
            int want = in[g * TEST_WG + from] + cycles;
            TEST_CHECK(data[g * TEST_WG + idx] == want, "group %d item %d: got %d want %d", g,
                       idx, data[g * TEST_WG + idx], want);
        }
done:
    return status;
}

static unsigned test_lcg100(unsigned w)
{
    for (int j = 0; j < 100; j++)
        w = w * 1664525u + 1013904223u;
    return w;
}

static TestStatus case_copy_overlap(const TestBackend *be, unsigned n, unsigned counted, char *why,
                                    size_t why_len)
{
    enum { G = 3 };
    TestStatus status = TEST_PASS;
    int *src = (int *)malloc(sizeof(int) * G * n), *out = (int *)calloc(G * n, sizeof(int));
    unsigned work[G * TEST_WG] = {0};
    unsigned seed = n + counted;
    for (unsigned i = 0; i < G * n; i++)
        src[i] = (int)test_rand(&seed);
    TEST_LAUNCH("copy_overlap", G, test_buf(src, sizeof(int) * G * n),
                test_buf(out, sizeof(int) * G * n), test_buf(work, sizeof work), test_u32(n),
                test_u32(counted));
    for (unsigned g = 0; g < G; g++) {
        for (unsigned i = 0; i < n; i++) {
            int want = (int)((unsigned)src[g * n + n - 1 - i] + i);
            TEST_CHECK(out[g * n + i] == want, "group %u element %u: got %d want %d", g, i,
                       out[g * n + i], want);
        }
        for (unsigned lid = 0; lid < TEST_WG; lid++)
            TEST_CHECK(work[g * TEST_WG + lid] == test_lcg100(lid), "work of item %u wrong", lid);
    }
done:
    free(src);
    free(out);
    return status;
}

static TestStatus case_copy_bytes(const TestBackend *be, unsigned off, unsigned nbytes, char *why,
                                  size_t why_len)
{
    enum { G = 2 };
    TestStatus status = TEST_PASS;
    static unsigned char src[G * BYTES_STRIDE], out[G * BYTES_MAX];
    unsigned seed = off * 31 + nbytes;
    for (unsigned i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)test_rand(&seed);
    memset(out, 0xEE, sizeof out);
    TEST_LAUNCH("copy_bytes", G, test_buf(src, sizeof src), test_buf(out, sizeof out),
                test_u32(off), test_u32(nbytes));
    for (unsigned g = 0; g < G; g++)
        for (unsigned i = 0; i < BYTES_MAX; i++) {
            unsigned want = i < nbytes ? src[g * BYTES_STRIDE + off + nbytes - 1 - i] : 0xEE;
            TEST_CHECK(out[g * BYTES_MAX + i] == want, "group %u byte %u: got %u want %u", g, i,
                       out[g * BYTES_MAX + i], want);
        }
done:
    return status;
}

static TestStatus case_phase_semantics(const TestBackend *be, char *why, size_t why_len)
{
    enum { G = 4 };
    TestStatus status = TEST_PASS;
    unsigned out[G * TEST_WG + 2];
    /* Bits listed in kernels.inc; 1, 8 only for the items that arrived
     * early, 64 and 128 only for item 0. */
    const unsigned common = 2 | 4 | 16 | 32 | 256 | 512;
    memset(out, 0, sizeof out);
    TEST_LAUNCH("phase_semantics", G, test_buf(out, sizeof out), test_u32(G));
    for (unsigned i = 0; i < G * TEST_WG; i++) {
        unsigned want = common | (i % TEST_WG == 0 ? 64u | 128u : 1u | 8u);
        TEST_CHECK(out[i] == want, "group %u item %u: checks 0x%x, want 0x%x", i / TEST_WG,
                   i % TEST_WG, out[i], want);
    }
    {
        unsigned long long max = out[G * TEST_WG] | (unsigned long long)out[G * TEST_WG + 1] << 32;
        TEST_CHECK(max == (1ull << 20) - 1, "async_barrier_max() = %llu", max);
    }
done:
    return status;
}

static TestStatus case_drop_two_phase(const TestBackend *be, char *why, size_t why_len)
{
    enum { G = 2 };
    TestStatus status = TEST_PASS;
    unsigned out[G * TEST_WG];
    int seen[G * TEST_WG * 2];
    memset(out, 0, sizeof out);
    TEST_LAUNCH("drop_two_phase", G, test_buf(out, sizeof out), test_buf(seen, sizeof seen));
    for (unsigned g = 0; g < G; g++)
        for (unsigned lid = 0; lid < TEST_WG; lid++) {
            unsigned i = g * TEST_WG + lid, next = (lid + 1) % TEST_WG;
            int stays = lid % 4 != 1;
            TEST_CHECK(out[i] == (stays ? 3u : 1u), "group %u item %u: checks 0x%x", g, lid,
                       out[i]);
            TEST_CHECK(seen[2 * i] == (int)(next * 7 + g), "group %u item %u: phase 0 saw %d", g,
                       lid, seen[2 * i]);
            if (next % 4 == 1)
                next = (next + 1) % TEST_WG;
            int want1 = stays ? (int)(next * 5 + 1000 + g) : -1;
            TEST_CHECK(seen[2 * i + 1] == want1, "group %u item %u: phase 1 saw %d want %d", g,
                       lid, seen[2 * i + 1], want1);
        }
done:
    return status;
}

static TestStatus case_tiled(const TestBackend *be, unsigned tiles, char *why, size_t why_len)
{
    enum { G = 3 };
    TestStatus status = TEST_PASS;
    int *src = (int *)malloc(sizeof(int) * G * tiles * TILE);
    unsigned out[G * TEST_WG] = {0};
    unsigned seed = tiles;
    for (unsigned i = 0; i < G * tiles * TILE; i++)
        src[i] = (int)test_rand(&seed);
    TEST_LAUNCH("tiled_double_buffer", G, test_buf(src, sizeof(int) * G * tiles * TILE),
                test_buf(out, sizeof out), test_u32(tiles));
    for (unsigned g = 0; g < G; g++)
        for (unsigned lid = 0; lid < TEST_WG; lid++) {
            unsigned want = 0;
            for (unsigned k = 0; k < tiles; k++) {
                const int *tile = src + (g * tiles + k) * TILE;
                want += (unsigned)tile[lid] * (k + 1) + (unsigned)tile[TILE - 1 - lid];
            }
            TEST_CHECK(out[g * TEST_WG + lid] == want, "group %u item %u: got %u want %u", g, lid,
                       out[g * TEST_WG + lid], want);
        }
done:
    free(src);
    return status;
}

static TestStatus case_drop_progressive(const TestBackend *be, char *why, size_t why_len)
{
    enum { G = 2 };
    TestStatus status = TEST_PASS;
    unsigned in[G * TEST_WG], data[G * TEST_WG];
    unsigned seed = 99;
    for (unsigned i = 0; i < G * TEST_WG; i++)
        in[i] = data[i] = test_rand(&seed) % 1000;
    TEST_LAUNCH("drop_progressive", G, test_buf(data, sizeof data));
    for (unsigned g = 0; g < G; g++) {
        unsigned before = 0; /* sum of p_j, j < i */
        for (unsigned i = 0; i < TEST_WG; i++) {
            unsigned p = in[g * TEST_WG + i] + before;
            TEST_CHECK(data[g * TEST_WG + i] == p, "group %u item %u: got %u want %u", g, i,
                       data[g * TEST_WG + i], p);
            before += p;
        }
    }
done:
    return status;
}

static TestStatus case_phase_subset(const TestBackend *be, char *why, size_t why_len)
{
    enum { G = 2 };
    TestStatus status = TEST_PASS;
    unsigned out[G * TEST_WG], sums[G];
    memset(out, 0, sizeof out);
    memset(sums, 0, sizeof sums);
    TEST_LAUNCH("phase_subset", G, test_buf(out, sizeof out), test_buf(sums, sizeof sums));
    for (unsigned g = 0; g < G; g++) {
        unsigned want = 0;
        for (unsigned i = 0; i < TEST_WG; i++) {
            want += i * i + g;
            TEST_CHECK(out[g * TEST_WG + i] == (i >= TEST_WG / 2 ? 1u : 0u),
                       "group %u item %u: lone wait flag %u", g, i, out[g * TEST_WG + i]);
        }
        TEST_CHECK(sums[g] == want, "group %u: sum %u want %u", g, sums[g], want);
    }
done:
    return status;
}

/* The case list: CASE(name, call).  `be`, `why`, `why_len` are in scope. */
#define TEST_CASES(CASE)                                                        \
    CASE("ring_exchange/5", case_ring(be, 5, why, why_len))                    \
    CASE("ring_exchange/300", case_ring(be, 300, why, why_len))                \
    CASE("copy_overlap/no_inc/16B", case_copy_overlap(be, 4 * TEST_WG, 0, why, why_len)) \
    CASE("copy_overlap/no_inc/8B", case_copy_overlap(be, 4 * TEST_WG + 2, 0, why, why_len)) \
    CASE("copy_overlap/no_inc/4B", case_copy_overlap(be, 4 * TEST_WG + 1, 0, why, why_len)) \
    CASE("copy_overlap/inc/16B", case_copy_overlap(be, 4 * TEST_WG, 1, why, why_len)) \
    CASE("copy_overlap/inc/4B", case_copy_overlap(be, 4 * TEST_WG + 7, 1, why, why_len)) \
    CASE("copy_bytes/16B", case_copy_bytes(be, 0, 4096, why, why_len))         \
    CASE("copy_bytes/8B", case_copy_bytes(be, 8, 4000, why, why_len))          \
    CASE("copy_bytes/4B", case_copy_bytes(be, 4, 1028, why, why_len))          \
    CASE("copy_bytes/1B", case_copy_bytes(be, 1, 1001, why, why_len))          \
    CASE("copy_bytes/1B-misaligned", case_copy_bytes(be, 3, 4096, why, why_len)) \
    CASE("phase_semantics", case_phase_semantics(be, why, why_len))            \
    CASE("drop_two_phase", case_drop_two_phase(be, why, why_len))              \
    CASE("tiled_double_buffer/1", case_tiled(be, 1, why, why_len))             \
    CASE("tiled_double_buffer/7", case_tiled(be, 7, why, why_len))             \
    CASE("drop_progressive", case_drop_progressive(be, why, why_len))          \
    CASE("phase_subset", case_phase_subset(be, why, why_len))

/* True when `name` starts with one of the comma-separated prefixes in
 * $BARRIER_TEST_SKIP.  scripts/gpu_sanitize.sh skips the cases that use
 * arrive_copy_async() under synccheck, which reports NVIDIA's own form of
 * that arrive (cp.async.mbarrier.arrive) as "Missing wait"
 * (tests/exec_barrier/synccheck_probe.cu shows it without sgcc). */
static bool test_skipped(const char *name)
{
    const char *list = getenv("BARRIER_TEST_SKIP");
    while (list && *list) {
        size_t len = strcspn(list, ",");
        if (len && strncmp(name, list, len) == 0)
            return true;
        list += len + (list[len] == ',');
    }
    return false;
}

/* Runs every case, prints one line each; returns the number of failures. */
static int test_run_all(const TestBackend *be, const char *label)
{
    int pass = 0, fail = 0, skip = 0;
    char why[256];
    size_t why_len = sizeof why;
#define TEST_RUN_ONE(name, call)                                           \
    {                                                                      \
        why[0] = '\0';                                                     \
        TestStatus s = TEST_SKIP;                                          \
        if (test_skipped(name))                                            \
            snprintf(why, why_len, "in $BARRIER_TEST_SKIP");               \
        else                                                               \
            s = call;                                                      \
        printf("%s %s: %s%s%s\n", s == TEST_PASS ? "PASS" : s == TEST_SKIP ? "SKIP" : "FAIL", \
               label, name, why[0] ? " - " : "", why);                    \
        pass += s == TEST_PASS, fail += s == TEST_FAIL, skip += s == TEST_SKIP; \
        fflush(stdout);                                                    \
    }
    TEST_CASES(TEST_RUN_ONE)
#undef TEST_RUN_ONE
    printf("%s: %d passed, %d failed, %d skipped\n", label, pass, fail, skip);
    return fail;
}

#endif
