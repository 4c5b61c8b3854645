/* gpu_common.h — host side shared by the GPU benchmark programs
 * (bench/gpu_cuda.cu: sgcc's CUDA output and the hand-written CUDA
 * baselines; bench/gpu_ocl.c: sgcc's OpenCL output): problem sizes, random
 * inputs, the host references every timed result is checked against, and
 * the result records that bench/gpu_tables.awk turns into tables.
 *
 * Plain C17 that also compiles as C++ (nvcc), header-only: every function
 * is static.  The references are written independently of any device code:
 * partitions are rebuilt from the SPEC rules (sub-group = 32 consecutive
 * work-items; fixed-size groups = aligned blocks of N lanes; ballot, tangle
 * and opportunistic groups here = the lanes of the sub-group whose value has
 * the same low bit, the branch the kernels take). */
#ifndef GPU_COMMON_H
#define GPU_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- sizes ---- */

typedef struct gb_sizes {
    uint32_t reduce_n;       /* elements of the array reduction (2^28) */
    uint32_t stream_n;       /* group kernels, 1 round: streaming */
    uint32_t compute_n;      /* group kernels, many rounds: the operation's cost */
    uint32_t compute_rounds; /* rounds of the compute variant */
    uint32_t tile_groups;    /* tiles kernel: work-groups ... */
    uint32_t tile_count;     /* ... and tiles per work-group */
    uint32_t matmul_n;       /* matrix order */
    int repeats;             /* timed runs per kernel (the median is kept) */
} gb_sizes;

/* Full sizes keep every input several times larger than the 50 MB L2 of an
 * H100/H200 (1 GiB, 256 MiB, 268 MB); "small" is the CPU smoke test. */
static gb_sizes gb_sizes_for(int small)
{
    gb_sizes s;
    if (small) {
        s.reduce_n = (1u << 20) + 77; /* not a multiple of anything: tails run */
        s.stream_n = 1u << 14;
        s.compute_n = 1u << 12;
        s.compute_rounds = 8;
        s.tile_groups = 64;
        s.tile_count = 6;
        s.matmul_n = 128;
        s.repeats = 3;
    } else {
        s.reduce_n = 1u << 28;
        s.stream_n = 1u << 26;
        s.compute_n = 1u << 21;
        s.compute_rounds = 32;
        s.tile_groups = 4096;
        s.tile_count = 64;
        s.matmul_n = 2048;
        s.repeats = 21;
    }
    /* Overrides for the group tables on slower devices (a CPU runtime). */
    const char *e;
    if ((e = getenv("GB_COMPUTE_N")) != NULL)
        s.compute_n = (uint32_t)strtoul(e, NULL, 0);
    if ((e = getenv("GB_STREAM_N")) != NULL)
        s.stream_n = (uint32_t)strtoul(e, NULL, 0);
    if ((e = getenv("GB_REPEATS")) != NULL)
        s.repeats = atoi(e);
    return s;
}

enum { GB_WG = 256, GB_TILE_WG = 128, GB_TILE = 2 * GB_TILE_WG, GB_MATMUL_BS = 32 };

/* ---- random inputs (xorshift64*, seeded per benchmark) ---- */

static uint32_t gb_next(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

static uint64_t gb_seed(uint64_t salt) { return 0x9E3779B97F4A7C15ull ^ (salt * 0xBF58476D1CE4E5B9ull) ^ 1u; }

static void gb_fill_int(int32_t *a, size_t n, uint64_t salt) /* [-100, 100] */
{
    uint64_t s = gb_seed(salt);
    for (size_t i = 0; i < n; i++)
        a[i] = (int32_t)(gb_next(&s) % 201u) - 100;
}

static void gb_fill_float(float *a, size_t n, uint64_t salt) /* [0, 1) */
{
    uint64_t s = gb_seed(salt);
    for (size_t i = 0; i < n; i++)
        a[i] = (float)(gb_next(&s) >> 8) * (1.0f / 16777216.0f);
}

static void gb_fill_uint(uint32_t *a, size_t n, uint64_t salt)
{
    uint64_t s = gb_seed(salt);
    for (size_t i = 0; i < n; i++)
        a[i] = gb_next(&s);
}

static void gb_fill_small_float(float *a, size_t n, uint64_t salt) /* whole numbers 0..15 */
{
    uint64_t s = gb_seed(salt);
    for (size_t i = 0; i < n; i++)
        a[i] = (float)(gb_next(&s) & 15u);
}

/* ---- array reduction ---- */

static int32_t gb_sum_int(const int32_t *a, size_t n)
{
    int64_t acc = 0;
    for (size_t i = 0; i < n; i++)
        acc += a[i];
    return (int32_t)(uint32_t)(uint64_t)acc; /* the device wraps */
}

static double gb_sum_float(const float *a, size_t n)
{
    double acc = 0.0;
    for (size_t i = 0; i < n; i++)
        acc += a[i];
    return acc;
}

/* Float sums are checked to a relative 1e-4 (inputs are non-negative, so
 * that is of the sum of magnitudes): above the rounding of any summation
 * order used here (float atomics into a 2^27-sized total are the worst),
 * below the share of one work-group's or one thread block's partial sum
 * (about 1e-3), so a lost or doubled partial shows.  Single elements are
 * covered by the exact int sums. */
static int gb_float_sum_ok(float got, double want)
{
    return fabs((double)got - want) <= 1e-4 * want + 1e-3;
}

/* ---- group algorithms ---- */

/* The kinds of bench/gpu_kernels.sgc, in table order: name, fixed size
 * (0: split by the low bit of the value). */
#define GB_KINDS(X)                                                                         \
    X(fixed4, 4)                                                                            \
    X(fixed8, 8)                                                                            \
    X(fixed16, 16)                                                                          \
    X(sub_group, 32)                                                                        \
    X(ballot, 0)                                                                            \
    X(tangle, 0)                                                                            \
    X(opportunistic, 0)

typedef struct gb_kind {
    const char *name;
    unsigned fixed; /* N of fixed_size_group<N> (32: the sub-group), 0 for the predicate groups */
} gb_kind;

#define GB_KIND_ENTRY(name, n) {#name, n},
static const gb_kind gb_kinds[] = {GB_KINDS(GB_KIND_ENTRY)};
#undef GB_KIND_ENTRY
enum { GB_NKINDS = (int)(sizeof gb_kinds / sizeof gb_kinds[0]) };

static const char *const gb_ops[2] = {"reduce", "scan"};
static const char *const gb_types[2] = {"uint", "float"};

/* Which partition of its sub-group lane l belongs to (same value = same group). */
static unsigned gb_part_uint(const gb_kind *k, unsigned lane, uint32_t v)
{
    return k->fixed ? lane / k->fixed : (v & 1u);
}

static unsigned gb_part_float(const gb_kind *k, unsigned lane, float v)
{
    return k->fixed ? lane / k->fixed : ((uint32_t)(int32_t)v & 1u);
}

/* rounds of x = OP(g, x) + v over every sub-group of 32 (uint wraps). */
static void gb_group_ref_uint(const gb_kind *k, int scan, const uint32_t *in, uint32_t *out,
                              size_t n, uint32_t rounds)
{
    for (size_t base = 0; base < n; base += 32) {
        uint32_t x[32], v[32], y[32];
        unsigned part[32], lanes = n - base < 32 ? (unsigned)(n - base) : 32u;
        for (unsigned l = 0; l < lanes; l++) {
            v[l] = x[l] = in[base + l];
            part[l] = gb_part_uint(k, l, v[l]);
        }
        for (uint32_t r = 0; r < rounds; r++) {
            uint32_t acc[32] = {0};
            for (unsigned l = 0; l < lanes; l++)
                y[l] = acc[part[l]] += x[l]; /* running sum of the lane's partition */
            for (unsigned l = 0; l < lanes; l++)
                x[l] = (scan ? y[l] : acc[part[l]]) + v[l];
        }
        for (unsigned l = 0; l < lanes; l++)
            out[base + l] = x[l];
    }
}

/* rounds of x = OP(g, x) / 32 + v, in double. */
static void gb_group_ref_float(const gb_kind *k, int scan, const float *in, double *out, size_t n,
                               uint32_t rounds)
{
    for (size_t base = 0; base < n; base += 32) {
        double x[32], v[32], y[32];
        unsigned part[32], lanes = n - base < 32 ? (unsigned)(n - base) : 32u;
        for (unsigned l = 0; l < lanes; l++) {
            v[l] = x[l] = in[base + l];
            part[l] = gb_part_float(k, l, in[base + l]);
        }
        for (uint32_t r = 0; r < rounds; r++) {
            double acc[32] = {0};
            for (unsigned l = 0; l < lanes; l++)
                y[l] = acc[part[l]] += x[l];
            for (unsigned l = 0; l < lanes; l++)
                x[l] = (scan ? y[l] : acc[part[l]]) * 0.03125 + v[l];
        }
        for (unsigned l = 0; l < lanes; l++)
            out[base + l] = x[l];
    }
}

/* Count of wrong elements (float: relative 1e-4, far above the rounding of
 * up to 32 rounds of 32-term float sums, far below a wrong partition). */
static size_t gb_wrong_uint(const uint32_t *got, const uint32_t *want, size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += got[i] != want[i];
    return bad;
}

static size_t gb_wrong_float(const float *got, const double *want, size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += !(fabs((double)got[i] - want[i]) <= 1e-4 * (fabs(want[i]) + 1.0));
    return bad;
}

/* ---- tiles (bench/tiles.sgc) ---- */

static void gb_tiles_ref(const int32_t *src, uint32_t *want, uint32_t groups, uint32_t tiles)
{
    for (uint32_t g = 0; g < groups; g++)
        for (uint32_t lid = 0; lid < GB_TILE_WG; lid++) {
            uint32_t acc = 0;
            for (uint32_t k = 0; k < tiles; k++) {
                const int32_t *tile = src + ((size_t)g * tiles + k) * GB_TILE;
                acc += (uint32_t)tile[lid] * (k + 1) + (uint32_t)tile[GB_TILE - 1 - lid];
            }
            want[(size_t)g * GB_TILE_WG + lid] = acc;
        }
}

/* ---- matmul (samples/matmul) ---- */

static void gb_matmul_ref(const float *a, const float *b, float *c, uint32_t n)
{
    double *row = (double *)malloc(n * sizeof *row);
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t j = 0; j < n; j++)
            row[j] = 0.0;
        for (uint32_t k = 0; k < n; k++) {
            double aik = a[(size_t)i * n + k];
            const float *brow = b + (size_t)k * n;
            for (uint32_t j = 0; j < n; j++)
                row[j] += aik * brow[j];
        }
        for (uint32_t j = 0; j < n; j++)
            c[(size_t)i * n + j] = (float)row[j];
    }
    free(row);
}

static size_t gb_matmul_wrong(const float *got, const float *want, size_t count)
{
    size_t wrong = 0;
    for (size_t i = 0; i < count; i++)
        wrong += !(fabsf(got[i] - want[i]) <= 1e-3f * (1.0f + fabsf(want[i])));
    return wrong;
}

/* ---- results ---- */

static int gb_compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double gb_median(double *ms, int count)
{
    qsort(ms, (size_t)count, sizeof *ms, gb_compare_double);
    return count % 2 ? ms[count / 2] : 0.5 * (ms[count / 2 - 1] + ms[count / 2]);
}

/* One measurement, a tab-separated line for gpu_tables.awk:
 *   table, row, implementation, role, ms, rate, rate unit, check
 * role: "sgcc" (compared against every "base" of its table and row), "base",
 * or "ref" (a bandwidth reference for the whole table).  rate = work / ms
 * (GB/s or GFLOP/s). */
static int gb_failures;

static void gb_record(FILE *tsv, const char *table, const char *row, const char *impl,
                      const char *role, double ms, double work, const char *unit, size_t wrong)
{
    double rate = ms > 0 ? work / (ms * 1e6) : 0.0;
    const char *check = wrong ? "WRONG" : "ok";
    if (wrong)
        gb_failures++;
    printf("%-10s %-28s %-24s %9.4f ms %9.1f %-7s %s", table, row, impl, ms, rate, unit, check);
    if (wrong)
        printf(" (%zu wrong)", wrong);
    printf("\n");
    fflush(stdout);
    if (tsv) {
        fprintf(tsv, "%s\t%s\t%s\t%s\t%.6f\t%.3f\t%s\t%s\n", table, row, impl, role, ms, rate, unit,
                check);
        fflush(tsv);
    }
}

#endif /* GPU_COMMON_H */
