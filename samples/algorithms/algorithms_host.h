/* algorithms_host.h — the host side of samples/algorithms, shared by the
 * sample program (main.c, C) and the GPU benchmark against cuSPARSE and CUB
 * (bench/algorithms_gpu.cu, C++), so both run the same kernels the same
 * way: input generators, host references, and one enqueue function per
 * algorithm over sgrt buffers.  Plain C that also compiles as C++.
 *
 * Every reference is computed here independently of the device code:
 * straight loops, integers exact, SpMV accumulated in long double. */
#ifndef SGC_ALGORITHMS_HOST_H
#define SGC_ALGORITHMS_HOST_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgrt.h>

#include "sample_util.h"

#define ALG_LOCAL 256 /* work-group size of every kernel here */
#define ALG_ITEMS 16  /* scan/compact: elements per work-item (spec constant ITEMS) */
#define ALG_TILE (ALG_LOCAL * ALG_ITEMS)

static void *alg_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "algorithms: out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

static inline uint32_t alg_tiles(uint32_t n) { return (n + ALG_TILE - 1) / ALG_TILE; }

/* ---- inputs ---- */

/* n uniform 32-bit values. */
static void alg_fill_random(uint32_t *v, size_t n, uint32_t seed)
{
    uint32_t st = seed ? seed : 1;
    for (size_t i = 0; i < n; i++)
        v[i] = sample_random(&st);
}

/* Histogram inputs in [0, bins): uniform, or skewed (bin k with
 * probability 2^-(k+1): half the values in bin 0, a quarter in bin 1 ...),
 * plus a few values >= bins that every histogram must ignore. */
static void alg_fill_bins(uint32_t *v, size_t n, uint32_t bins, bool skewed, uint32_t seed)
{
    uint32_t st = seed ? seed : 1;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = sample_random(&st);
        uint32_t b = skewed ? (r ? (uint32_t)__builtin_ctz(r) : 31u) : r % bins;
        v[i] = i % 1000 == 999 ? bins + (r & 7) : (b < bins ? b : bins - 1);
    }
}

/* ---- CSR matrices (generated, so the benchmark needs no files) ---- */

typedef struct alg_csr {
    const char *name;  /* profile, for the tables */
    uint32_t rows, cols, nnz;
    uint32_t *row_ptr; /* rows + 1 */
    uint32_t *col;     /* nnz, ascending within a row */
    double *val;       /* nnz, in [-1, 1) */
} alg_csr;

static void alg_csr_alloc(alg_csr *m, const char *name, uint32_t rows, uint32_t cols, size_t nnz)
{
    m->name = name;
    m->rows = rows;
    m->cols = cols;
    m->nnz = 0;
    m->row_ptr = (uint32_t *)alg_alloc(((size_t)rows + 1) * sizeof(uint32_t));
    m->col = (uint32_t *)alg_alloc(nnz * sizeof(uint32_t));
    m->val = (double *)alg_alloc(nnz * sizeof(double));
}

static void alg_csr_free(alg_csr *m)
{
    free(m->row_ptr);
    free(m->col);
    free(m->val);
}

/* The 5-point Laplacian of a g x g grid: 5 nonzeros per inner row. */
static void alg_csr_laplacian(alg_csr *m, uint32_t g)
{
    uint32_t rows = g * g;
    alg_csr_alloc(m, "laplacian-5pt", rows, rows, (size_t)rows * 5);
    for (uint32_t r = 0; r < rows; r++) {
        uint32_t i = r / g, j = r % g;
        m->row_ptr[r] = m->nnz;
#define ALG_PUT(c, v) (m->col[m->nnz] = (c), m->val[m->nnz++] = (v))
        if (i > 0) ALG_PUT(r - g, -1.0);
        if (j > 0) ALG_PUT(r - 1, -1.0);
        ALG_PUT(r, 4.0);
        if (j + 1 < g) ALG_PUT(r + 1, -1.0);
        if (i + 1 < g) ALG_PUT(r + g, -1.0);
#undef ALG_PUT
    }
    m->row_ptr[rows] = m->nnz;
}

/* A random power-law graph: row lengths L = floor(4 / u^(1/1.5)) for u
 * uniform in (0, 1] (Pareto, exponent 2.5: mean about 12, most rows 4-8
 * long, a few thousands), capped at `cols`; columns spread over the whole
 * range, ascending and distinct. */
static void alg_csr_powerlaw(alg_csr *m, uint32_t rows, uint32_t seed)
{
    uint32_t st = seed ? seed : 1, cap = rows < 20000 ? rows : 20000;
    uint32_t *len = (uint32_t *)alg_alloc((size_t)rows * sizeof(uint32_t));
    size_t nnz = 0;
    for (uint32_t r = 0; r < rows; r++) {
        double u = ((double)(sample_random(&st) >> 8) + 1.0) / 16777216.0;
        double l = 4.0 / pow(u, 1.0 / 1.5);
        len[r] = l >= cap ? cap : (uint32_t)l;
        nnz += len[r];
    }
    alg_csr_alloc(m, "power-law", rows, rows, nnz);
    for (uint32_t r = 0; r < rows; r++) {
        m->row_ptr[r] = m->nnz;
        uint32_t step = rows / len[r]; /* >= 1 */
        for (uint32_t k = 0; k < len[r]; k++) {
            m->col[m->nnz] = k * step + sample_random(&st) % step;
            m->val[m->nnz++] = sample_random_float(&st);
        }
    }
    m->row_ptr[rows] = m->nnz;
    free(len);
}

/* A banded matrix, dense inside the band: row i holds columns
 * [i - half, i + half] (2 * half + 1 nonzeros away from the edges). */
static void alg_csr_banded(alg_csr *m, uint32_t rows, uint32_t half, uint32_t seed)
{
    uint32_t st = seed ? seed : 1;
    alg_csr_alloc(m, "banded-dense", rows, rows, (size_t)rows * (2 * half + 1));
    for (uint32_t r = 0; r < rows; r++) {
        m->row_ptr[r] = m->nnz;
        uint32_t lo = r > half ? r - half : 0, hi = r + half < rows ? r + half : rows - 1;
        for (uint32_t c = lo; c <= hi; c++) {
            m->col[m->nnz] = c;
            m->val[m->nnz++] = sample_random_float(&st);
        }
    }
    m->row_ptr[rows] = m->nnz;
}

/* How spmv.sgc runs one matrix, decided from its row lengths. */
typedef struct alg_spmv_plan {
    uint32_t row_group;         /* spec constant ROW_GROUP */
    uint32_t long_row;          /* longer rows are listed in `list` */
    bool stream;                /* CSR-stream first, else CSR-vector */
    uint32_t blocks;            /* CSR-stream blocks (none when every row is long) */
    uint32_t medium, longest;   /* how many rows take a sub-group, and chunks */
    uint32_t chunks;            /* how many chunks of ALG_CHUNK_NNZ nonzeros */
    uint32_t *list;             /* spmv.sgc's plan[]; list_len entries */
    size_t list_len;
} alg_spmv_plan;

#define ALG_MEDIUM_ROW 1024 /* = 32 work-items x 32 steps */
#define ALG_CHUNK_NNZ 2048u /* = 256 work-items x 8 steps (spmv.sgc's SPMV_CHUNK) */
#define ALG_STREAM_NNZ 1024u /* nonzeros per CSR-stream block (spmv.sgc's SPMV_TILE) */
#define ALG_STREAM_ROW 64u   /* CSR-stream: longer rows are listed in `list` */

/* Device copies for a plan, made by the caller (sgrt buffers of its own or
 * wrapped native memory): `list` holds plan->list, `scratch`
 * alg_spmv_scratch_bytes() zero bytes (spmv leaves them zero). */
typedef struct alg_spmv_buffers {
    sgrt_buffer *list, *scratch;
} alg_spmv_buffers;

static size_t alg_spmv_scratch_bytes(const alg_spmv_plan *pl)
{
    return 8 * ((size_t)pl->longest + 2 * (size_t)pl->chunks) + 8;
}

static uint32_t alg_row_length(const alg_csr *m, uint32_t r)
{
    return m->row_ptr[r + 1] - m->row_ptr[r];
}

static uint32_t alg_median_row_length(const alg_csr *m)
{
    enum { CAP = 4096 };
    uint32_t *count = (uint32_t *)calloc(CAP + 1, sizeof(uint32_t)), median = 0, seen = 0;
    if (!count) {
        fprintf(stderr, "algorithms: out of memory\n");
        exit(2);
    }
    for (uint32_t r = 0; r < m->rows; r++) {
        uint32_t len = alg_row_length(m, r);
        count[len < CAP ? len : CAP]++;
    }
    while (median < CAP && (seen += count[median]) < (m->rows + 1) / 2)
        median++;
    free(count);
    return median;
}

/* The power of two nearest to the median row length / 8, in [2, 32]. */
static uint32_t alg_spmv_row_group(uint32_t median)
{
    uint32_t row_group = 2;
    while (row_group < 32 && median >= 12 * row_group)
        row_group *= 2; /* nearest: median / 8 >= 1.5 x row_group */
    return row_group;
}

/* CSR-stream blocks (when `out`, their (first row, end row) pairs): runs
 * of consecutive rows of at most long_row nonzeros each, ALG_STREAM_NNZ
 * nonzeros and ALG_LOCAL rows in all; a longer row ends a block. */
static uint32_t alg_spmv_stream_blocks(const alg_spmv_plan *pl, const alg_csr *m, uint32_t *out)
{
    uint32_t blocks = 0, first = 0;
    for (uint32_t r = 0; r <= m->rows; r++) {
        bool split_off = r < m->rows && alg_row_length(m, r) > pl->long_row;
        bool full = r == m->rows || split_off || r - first == ALG_LOCAL ||
                    m->row_ptr[r + 1] - m->row_ptr[first] > ALG_STREAM_NNZ;
        if (full && r > first) {
            if (out)
                out[2 * blocks] = first, out[2 * blocks + 1] = r;
            blocks++;
        }
        if (full)
            first = split_off ? r + 1 : r;
    }
    return blocks;
}

/* Fills pl->list (counts first, then the entries): the CSR-stream blocks,
 * the medium rows, the long rows, each long row's first chunk, then (long
 * row, start) per chunk. */
static void alg_spmv_plan_list(alg_spmv_plan *pl, const alg_csr *m, bool stream)
{
    uint32_t medium = 0, longest = 0, chunks = 0;
    for (uint32_t r = 0; r < m->rows; r++) {
        uint32_t len = alg_row_length(m, r);
        if (len <= pl->long_row)
            continue;
        if (len <= ALG_MEDIUM_ROW)
            medium++;
        else
            longest++, chunks += (len + ALG_CHUNK_NNZ - 1) / ALG_CHUNK_NNZ;
    }
    pl->stream = stream;
    pl->blocks = stream ? alg_spmv_stream_blocks(pl, m, NULL) : 0;
    pl->medium = medium, pl->longest = longest, pl->chunks = chunks;
    pl->list_len = 2 * (size_t)pl->blocks + medium + 2 * (size_t)longest + 1 + 2 * (size_t)chunks;
    pl->list = (uint32_t *)alg_alloc(sizeof(uint32_t) * pl->list_len);
    if (stream)
        alg_spmv_stream_blocks(pl, m, pl->list);
    uint32_t *med = pl->list + 2 * pl->blocks, *lng = med + medium, *first = lng + longest;
    uint32_t *chunk = first + longest + 1, *long_rows = lng;
    uint32_t c = 0;
    for (uint32_t r = 0; r < m->rows; r++) {
        uint32_t len = alg_row_length(m, r);
        if (len <= pl->long_row)
            continue;
        if (len <= ALG_MEDIUM_ROW) {
            *med++ = r;
            continue;
        }
        *first++ = c;
        for (uint32_t j = m->row_ptr[r]; j < m->row_ptr[r + 1]; j += ALG_CHUNK_NNZ, c++)
            chunk[2 * c] = (uint32_t)(lng - long_rows), chunk[2 * c + 1] = j;
        *lng++ = r;
    }
    *first = c;
}

/* CSR-stream for matrices of short rows (the median takes the narrowest
 * fixed-size group) of irregular lengths (a mean 1.5 x the median or more).
 * On the H200 (bench/history/algorithms.md "GPU run 5") it made the power-law graph
 * (median 6, mean 12) 1.08-1.16x faster than CSR-vector, and the 5-point
 * Laplacian (every row 5) 1.2x slower: rows of one length keep a group's
 * lanes busy, and there CSR-vector's direct reduction beats staging in
 * local memory behind a barrier. */
static bool alg_spmv_use_stream(const alg_csr *m, uint32_t median)
{
    return alg_spmv_row_group(median) == 2 && 2 * (double)m->nnz >= 3.0 * median * m->rows;
}

/* The plan for a matrix; row_group 0 chooses it, others force it (the
 * benchmark's sweep), and long_row 0 means 32 x ROW_GROUP (ALG_STREAM_ROW
 * with CSR-stream blocks: stream 1 takes them, 0 not, -1 chooses).
 *
 * ROW_GROUP: the power of two nearest to the median row length / 8, in
 * [2, 32], so that each work-item of a typical row takes about 8 nonzeros.
 * The median, not the mean: a power-law matrix's few rows of thousands
 * raise the mean but should not widen the group of every short row.  On
 * the H200 (bench/RESULTS.md) the 5-point Laplacian was fastest with 2,
 * not the 8 that the average rule (the smallest power of two >= the mean,
 * Bell & Garland) gave, and the rows of 129 with 16, not 32: a group wider
 * than the row's work idles lanes and multiplies the warps, each of which
 * pays the row_ptr -> col -> x latency chain.
 *
 * Rows longer than long_row (more than 32 steps of the group) take a
 * sub-group each, up to 1024 nonzeros; longer ones are cut into chunks. */
static void alg_spmv_plan_make(alg_spmv_plan *pl, const alg_csr *m, uint32_t row_group,
                               uint32_t long_row, int stream)
{
    uint32_t median = alg_median_row_length(m);
    pl->row_group = row_group ? row_group : alg_spmv_row_group(median);
    if (stream < 0)
        stream = alg_spmv_use_stream(m, median);
    pl->long_row = long_row ? long_row : stream ? ALG_STREAM_ROW : 32 * pl->row_group;
    if (stream && pl->long_row > ALG_STREAM_NNZ)
        pl->long_row = ALG_STREAM_NNZ; /* a block's row must fit its tile */
    alg_spmv_plan_list(pl, m, stream);
}

static void alg_spmv_plan_free(alg_spmv_plan *pl)
{
    free(pl->list);
}

/* Bytes an SpMV must move at least: the matrix, x once, y once. */
static double alg_spmv_bytes(const alg_csr *m, size_t elem)
{
    return (double)m->nnz * (4 + elem) + ((double)m->rows + 1) * 4 +
           (double)m->cols * elem + (double)m->rows * elem;
}

/* ---- host references ---- */

static void alg_ref_scan(const uint32_t *in, uint32_t *out, size_t n)
{
    uint32_t s = 0;
    for (size_t i = 0; i < n; i++)
        out[i] = s += in[i];
}

/* Returns how many elements are below threshold; writes them to out. */
static size_t alg_ref_compact(const uint32_t *in, uint32_t *out, size_t n, uint32_t threshold)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (in[i] < threshold)
            out[k++] = in[i];
    return k;
}

static void alg_ref_histogram(const uint32_t *in, size_t n, uint32_t *hist, uint32_t bins)
{
    memset(hist, 0, bins * sizeof *hist);
    for (size_t i = 0; i < n; i++)
        if (in[i] < bins)
            hist[in[i]]++;
}

/* y = A x in long double, and for each row the bound sum |a_ij x_j| that
 * scales the tolerance (rounding errors grow with it, not with |y|). */
static void alg_ref_spmv(const alg_csr *m, const double *x, double *y, double *scale)
{
    for (uint32_t r = 0; r < m->rows; r++) {
        long double s = 0, a = 0;
        for (uint32_t j = m->row_ptr[r]; j < m->row_ptr[r + 1]; j++) {
            s += (long double)m->val[j] * x[m->col[j]];
            a += fabsl((long double)m->val[j] * x[m->col[j]]);
        }
        y[r] = (double)s;
        scale[r] = (double)a;
    }
}

/* Rows of y (float or double) off the reference by more than
 * eps * (scale + 1); prints the first. */
static size_t alg_check_spmv(const alg_csr *m, const void *y, bool fp64, const double *ref,
                             const double *scale)
{
    double eps = fp64 ? 1e-12 : 1e-5;
    size_t bad = 0;
    for (uint32_t r = 0; r < m->rows; r++) {
        double got = fp64 ? ((const double *)y)[r] : (double)((const float *)y)[r];
        if (!(fabs(got - ref[r]) <= eps * (scale[r] + 1.0))) {
            if (!bad++)
                fprintf(stderr, "spmv %s %s: row %u: %.17g, expected %.17g\n", m->name,
                        fp64 ? "fp64" : "fp32", r, got, ref[r]);
        }
    }
    return bad;
}

/* ---- device side: one enqueue per algorithm ----
 * Each enqueues its commands on the context's queue and returns; `first`
 * and `last` (may be NULL) receive the first and last command's events, so
 * that a caller times the whole operation from profiling times. */

static sgrt_launch_dims alg_dims(size_t work_items)
{
    sgrt_launch_dims d;
    memset(&d, 0, sizeof d);
    d.dims = 1;
    d.global[0] = (work_items + ALG_LOCAL - 1) / ALG_LOCAL * ALG_LOCAL;
    d.local[0] = ALG_LOCAL;
    d.global[1] = d.global[2] = d.local[1] = d.local[2] = 1;
    return d;
}

/* scratch: (1 + tiles) ulongs, zeroed here (the tile counter and the
 * look-back status words of lookback.sgh). */
static sgrt_status alg_zero_scratch(sgrt_buffer *scratch, uint32_t n, sgrt_event **first)
{
    uint32_t zero = 0;
    return sgrt_buffer_fill(NULL, scratch, &zero, sizeof zero, 0,
                            ((size_t)alg_tiles(n) + 1) * sizeof(uint64_t), NULL, 0, first);
}

static size_t alg_scratch_bytes(uint32_t n) { return ((size_t)alg_tiles(n) + 1) * 8; }

/* out = inclusive prefix sums of in (scan.sgc, program built with ITEMS = ALG_ITEMS). */
static sgrt_status alg_scan(sgrt_program *p, sgrt_buffer *in, sgrt_buffer *out, uint32_t n,
                            sgrt_buffer *scratch, sgrt_event **first, sgrt_event **last)
{
    sgrt_launch_dims d = alg_dims((size_t)alg_tiles(n) * ALG_LOCAL);
    sgrt_status st = alg_zero_scratch(scratch, n, first);
    return st != SGRT_SUCCESS ? st : scan_launch_scan_inclusive(p, &d, in, out, n, scratch, last);
}

/* out[0, *count) = the elements of in below threshold, in order (compact.sgc). */
static sgrt_status alg_compact(sgrt_program *p, sgrt_buffer *in, sgrt_buffer *out,
                               sgrt_buffer *count, uint32_t n, uint32_t threshold,
                               sgrt_buffer *scratch, sgrt_event **first, sgrt_event **last)
{
    sgrt_launch_dims d = alg_dims((size_t)alg_tiles(n) * ALG_LOCAL);
    sgrt_status st = alg_zero_scratch(scratch, n, first);
    return st != SGRT_SUCCESS ? st
              : compact_launch_compact_below(p, &d, in, out, count, n, threshold, alg_tiles(n),
                                             scratch, last);
}

/* hist[0, bins) = counts of in's values (histogram.sgc); `aggregated`
 * picks histogram_aggregated, else histogram_atomic.  `groups` work-groups
 * (grid-stride loops): enough to fill the device, few enough that each
 * private histogram is worth its final flush. */
static sgrt_status alg_histogram(sgrt_program *p, bool aggregated, sgrt_buffer *in,
                                 sgrt_buffer *hist, uint32_t n, uint32_t bins, size_t groups,
                                 sgrt_event **first, sgrt_event **last)
{
    uint32_t zero = 0;
    sgrt_launch_dims d = alg_dims(groups * ALG_LOCAL);
    sgrt_status st = sgrt_buffer_fill(NULL, hist, &zero, sizeof zero, 0, bins * sizeof zero,
                                      NULL, 0, first);
    if (st != SGRT_SUCCESS)
        return st;
    return aggregated ? histogram_launch_histogram_aggregated(p, &d, in, hist, n, bins, last)
                      : histogram_launch_histogram_atomic(p, &d, in, hist, n, bins, last);
}

/* y = A x (spmv.sgc, program built with ROW_GROUP = plan->row_group), one
 * launch: the CSR-vector work-groups, then the medium rows' and the long
 * rows' chunks' (b: device copies of the plan's list and the scratch). */
static sgrt_status alg_spmv(sgrt_program *p, bool fp64, const alg_spmv_plan *plan,
                            sgrt_buffer *row_ptr, sgrt_buffer *col, sgrt_buffer *val,
                            sgrt_buffer *x, sgrt_buffer *y, uint32_t rows,
                            const alg_spmv_buffers *b, sgrt_event **done)
{
    size_t rows_per_group = ALG_LOCAL / 32;
    size_t first_groups = plan->blocks ? plan->blocks
                                       : ((size_t)rows * plan->row_group + ALG_LOCAL - 1) / ALG_LOCAL;
    size_t groups = first_groups + (plan->medium + rows_per_group - 1) / rows_per_group + plan->chunks;
    sgrt_launch_dims d = alg_dims(groups * ALG_LOCAL);
    return fp64 ? spmv_launch_spmv_double(p, &d, row_ptr, col, val, x, y, rows, plan->long_row,
                                          b->list, plan->blocks, plan->medium, plan->longest,
                                          b->scratch, done)
                : spmv_launch_spmv_float(p, &d, row_ptr, col, val, x, y, rows, plan->long_row,
                                         b->list, plan->blocks, plan->medium, plan->longest,
                                         b->scratch, done);
}

#endif
