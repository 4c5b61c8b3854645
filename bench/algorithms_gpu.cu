/* algorithms_gpu.cu — samples/algorithms against the libraries, in one
 * process on one CUDA device: sgcc's CUDA output (the sample's own .sgc
 * files, compiled at run time by sgrt through NVRTC, spec constants bound
 * at run time as the sample does) next to CUB and cuSPARSE on the same
 * buffers and the same stream.
 *
 *   scan       scan_inclusive             cub::DeviceScan::InclusiveSum
 *   compact    compact_below              cub::DeviceSelect::If (x < threshold)
 *   histogram  histogram_aggregated,      cub::DeviceHistogram::HistogramEven
 *              histogram_atomic           (256 bins, uniform and skewed)
 *   spmv       spmv_{float,double}        cusparseSpMV (CSR, ALG_DEFAULT)
 *              (one launch; long rows by sub-groups and chunks),
 *              with ROW_GROUP from the matrix (also without the split),
 *              and every other ROW_GROUP
 *
 * sgrt adopts the runtime's primary context and the legacy default stream
 * (sgrt_context_create_from_cuda) and wraps cudaMalloc'd memory
 * (sgrt_buffer_create_from_cuda), so both sides read the same inputs and
 * are timed the same way: CUDA events around the whole operation (zeroing
 * of counters and histograms included on both sides), median of R runs
 * after a warm-up.  Every result of both sides is checked against the
 * host references of samples/algorithms/algorithms_host.h.
 *
 * Build (bench/algorithms_gpu.sh does it):
 *   nvcc -O3 -std=c++17 -I samples/algorithms -I samples/common -I runtime -I GEN \
 *        bench/algorithms_gpu.cu -L LIB -lsgrt -lcusparse -lcuda
 * where GEN holds scan.h compact.h histogram.h spmv.h (sgcc --header).
 * usage: algorithms_gpu [-n N] [-g GRID] [-r R]   (defaults 2^28, 2048, 20)
 * Exit status: 0 all correct, 1 a wrong result, 2 a failure. */
#include <cuda.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <vector>

#include <unistd.h>

#include "compact.h" /* sgcc --header */
#include "histogram.h"
#include "scan.h"
#include "spmv.h"

#include "algorithms_host.h"

#define CK(call) ck_cuda((call), #call, __LINE__)
static void ck_cuda(cudaError_t e, const char *what, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "algorithms_gpu.cu:%d: %s: %s\n", line, what, cudaGetErrorString(e));
        exit(2);
    }
}
#define CKS(call) ck_sparse((call), #call, __LINE__)
static void ck_sparse(cusparseStatus_t s, const char *what, int line)
{
    if (s != CUSPARSE_STATUS_SUCCESS) {
        fprintf(stderr, "algorithms_gpu.cu:%d: %s: %s\n", line, what, cusparseGetErrorString(s));
        exit(2);
    }
}

static int repeats = 20, failures;
static cudaEvent_t ev0, ev1;
static sgrt_context *sctx;
static FILE *tsv;

/* Median ms over `repeats` runs of op() after one warm-up, CUDA events on stream 0. */
template <class Op> static double time_ms(Op op)
{
    std::vector<double> ms;
    op();
    CK(cudaDeviceSynchronize());
    for (int r = 0; r < repeats; r++) {
        CK(cudaEventRecord(ev0, 0));
        op();
        CK(cudaEventRecord(ev1, 0));
        CK(cudaEventSynchronize(ev1));
        float t;
        CK(cudaEventElapsedTime(&t, ev0, ev1));
        ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

/* One row of the table: sgcc against the library (ratio = library time / sgcc time). */
static void row(const char *alg, const char *variant, double bytes, double sgcc_ms, bool sgcc_ok,
                const char *lib, double lib_ms, bool lib_ok)
{
    printf("| %s | %s | %.3f | %.1f | %s %.3f | %.1f | **%.2fx** | %s |\n", alg, variant, sgcc_ms,
           bytes / sgcc_ms / 1e6, lib, lib_ms, bytes / lib_ms / 1e6, lib_ms / sgcc_ms,
           sgcc_ok && lib_ok ? "both correct" : !sgcc_ok ? "SGCC WRONG" : "LIBRARY WRONG");
    if (tsv)
        fprintf(tsv, "%s\t%s\t%.6f\t%.6f\t%s\t%.4f\t%d\t%d\n", alg, variant, sgcc_ms, lib_ms, lib,
                lib_ms / sgcc_ms, sgcc_ok, lib_ok);
    failures += !sgcc_ok + !lib_ok;
    fflush(stdout);
}

template <class T> static T *dev_alloc(size_t count)
{
    T *p;
    CK(cudaMalloc(&p, count * sizeof(T) + 16));
    return p;
}

/* An sgrt view of device memory the runtime API allocated. */
static sgrt_buffer *wrap(void *p, size_t bytes)
{
    sgrt_buffer *b;
    SAMPLE_CHECK(sgrt_buffer_create_from_cuda(sctx, (void *)(uintptr_t)p, bytes, &b));
    return b;
}

static sgrt_program *build(const sgrt_module_desc *m, int spec_id, uint32_t v)
{
    sgrt_program *p;
    SAMPLE_CHECK(sgrt_program_create(sctx, m, &p));
    if (spec_id >= 0)
        SAMPLE_CHECK(sgrt_program_set_spec_uint(p, (uint32_t)spec_id, v));
    SAMPLE_CHECK(sgrt_program_build(p, NULL));
    return p;
}

static bool equal_dev(const uint32_t *dev, const uint32_t *want, size_t n)
{
    std::vector<uint32_t> got(n);
    CK(cudaMemcpy(got.data(), dev, n * 4, cudaMemcpyDeviceToHost));
    return n == 0 || memcmp(got.data(), want, n * 4) == 0;
}

struct below {
    uint32_t t;
    __host__ __device__ bool operator()(const uint32_t &x) const { return x < t; }
};

static void bench_copy_scan_compact(const uint32_t *in, uint32_t n)
{
    uint32_t *d_in = dev_alloc<uint32_t>(n), *d_out = dev_alloc<uint32_t>(n);
    uint32_t *d_count = dev_alloc<uint32_t>(1);
    size_t scratch_bytes = alg_scratch_bytes(n);
    void *d_scratch = dev_alloc<char>(scratch_bytes);
    CK(cudaMemcpy(d_in, in, (size_t)n * 4, cudaMemcpyHostToDevice));
    sgrt_buffer *b_in = wrap(d_in, (size_t)n * 4), *b_out = wrap(d_out, (size_t)n * 4);
    sgrt_buffer *b_count = wrap(d_count, 4), *b_scratch = wrap(d_scratch, scratch_bytes);
    sgrt_program *scan_p = build(&scan_module, 0, ALG_ITEMS);
    sgrt_program *compact_p = build(&compact_module, 0, ALG_ITEMS);
    std::vector<uint32_t> want(n);

    /* copy: sgcc's copy_uint against cudaMemcpy device to device */
    sgrt_launch_dims cd = alg_dims(((size_t)n + ALG_ITEMS - 1) / ALG_ITEMS);
    double s_ms = time_ms([&] { SAMPLE_CHECK(scan_launch_copy_uint(scan_p, &cd, b_in, b_out, n, NULL)); });
    bool s_ok = equal_dev(d_out, in, n);
    double l_ms = time_ms([&] { CK(cudaMemcpyAsync(d_out, d_in, (size_t)n * 4, cudaMemcpyDeviceToDevice, 0)); });
    row("copy", "uint", 8.0 * n, s_ms, s_ok, "cudaMemcpy", l_ms, equal_dev(d_out, in, n));

    /* scan */
    alg_ref_scan(in, want.data(), n);
    CK(cudaMemset(d_out, 0, (size_t)n * 4));
    s_ms = time_ms([&] { SAMPLE_CHECK(alg_scan(scan_p, b_in, b_out, n, b_scratch, NULL, NULL)); });
    s_ok = equal_dev(d_out, want.data(), n);
    void *temp = NULL;
    size_t temp_bytes = 0, t2 = 0;
    CK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, d_in, d_out, (int)n));
    CK(cub::DeviceSelect::If(temp, t2, d_in, d_out, d_count, (int)n, below{0}));
    temp_bytes = std::max(temp_bytes, t2);
    CK(cub::DeviceHistogram::HistogramEven(temp, t2, d_in, d_out, 257, 0u, 256u, (int)n));
    temp_bytes = std::max(temp_bytes, t2);
    temp = dev_alloc<char>(temp_bytes);
    CK(cudaMemset(d_out, 0, (size_t)n * 4));
    l_ms = time_ms([&] { CK(cub::DeviceScan::InclusiveSum(temp, temp_bytes, d_in, d_out, (int)n)); });
    row("scan", "inclusive uint", 8.0 * n, s_ms, s_ok, "CUB InclusiveSum", l_ms,
        equal_dev(d_out, want.data(), n));

    /* compact */
    static const uint32_t thresholds[] = {0x80000000u, 0x0ccccccdu, 0xf3333333u};
    static const char *names[] = {"keep 50%", "keep 5%", "keep 95%"};
    for (int c = 0; c < 3; c++) {
        size_t kept = alg_ref_compact(in, want.data(), n, thresholds[c]);
        uint32_t count = 0;
        CK(cudaMemset(d_out, 0, (size_t)n * 4));
        CK(cudaMemset(d_count, 0xff, 4));
        s_ms = time_ms([&] {
            SAMPLE_CHECK(alg_compact(compact_p, b_in, b_out, b_count, n, thresholds[c], b_scratch, NULL, NULL));
        });
        CK(cudaMemcpy(&count, d_count, 4, cudaMemcpyDeviceToHost));
        s_ok = count == kept && equal_dev(d_out, want.data(), kept);
        CK(cudaMemset(d_out, 0, (size_t)n * 4));
        CK(cudaMemset(d_count, 0xff, 4));
        l_ms = time_ms([&] {
            CK(cub::DeviceSelect::If(temp, temp_bytes, d_in, d_out, d_count, (int)n, below{thresholds[c]}));
        });
        CK(cudaMemcpy(&count, d_count, 4, cudaMemcpyDeviceToHost));
        row("compact", names[c], 4.0 * n + 4.0 * kept, s_ms, s_ok, "CUB DeviceSelect::If", l_ms,
            count == kept && equal_dev(d_out, want.data(), kept));
    }

    /* histogram: 256 bins; the same input buffer, refilled */
    enum { BINS = 256 };
    std::vector<uint32_t> bins_in(n);
    uint32_t want_hist[BINS];
    uint32_t *d_hist = dev_alloc<uint32_t>(BINS);
    sgrt_buffer *b_hist = wrap(d_hist, BINS * 4);
    sgrt_program *hist_p = build(&histogram_module, -1, 0);
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    size_t groups = (size_t)sms * 8; /* 8 work-groups of 256 per SM: full occupancy */
    for (int skewed = 0; skewed < 2; skewed++) {
        alg_fill_bins(bins_in.data(), n, BINS, skewed, 99 + skewed);
        alg_ref_histogram(bins_in.data(), n, want_hist, BINS);
        CK(cudaMemcpy(d_in, bins_in.data(), (size_t)n * 4, cudaMemcpyHostToDevice));
        l_ms = time_ms([&] {
            CK(cudaMemsetAsync(d_hist, 0, BINS * 4, 0));
            CK(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, d_in, d_hist, BINS + 1, 0u,
                                                   (unsigned)BINS, (int)n));
        });
        bool l_ok = equal_dev(d_hist, want_hist, BINS);
        for (int aggregated = 1; aggregated >= 0; aggregated--) {
            s_ms = time_ms([&] {
                SAMPLE_CHECK(alg_histogram(hist_p, aggregated, b_in, b_hist, n, BINS, groups, NULL, NULL));
            });
            s_ok = equal_dev(d_hist, want_hist, BINS);
            char variant[64];
            snprintf(variant, sizeof variant, "%s, %s", skewed ? "skewed" : "uniform",
                     aggregated ? "aggregated" : "plain global atomics");
            row("histogram", variant, 4.0 * n, s_ms, s_ok, "CUB HistogramEven", l_ms, l_ok);
        }
    }
    CK(cudaFree(temp));
    CK(cudaFree(d_hist));
    sgrt_buffer_free(b_hist);
    sgrt_program_free(hist_p);
    sgrt_buffer_free(b_in), sgrt_buffer_free(b_out), sgrt_buffer_free(b_count), sgrt_buffer_free(b_scratch);
    sgrt_program_free(scan_p), sgrt_program_free(compact_p);
    CK(cudaFree(d_in)), CK(cudaFree(d_out)), CK(cudaFree(d_count)), CK(cudaFree(d_scratch));
}

/* One matrix, one precision: sgcc with the chosen ROW_GROUP against
 * cusparseSpMV, then the other ROW_GROUP values (sgcc only, vs the same
 * library time) to show what the choice is worth. */
template <class T> static void bench_spmv(cusparseHandle_t h, const alg_csr *m)
{
    bool fp64 = sizeof(T) == 8;
    cudaDataType type = fp64 ? CUDA_R_64F : CUDA_R_32F;
    std::vector<T> val(m->nnz), x(m->cols), y(m->rows);
    std::vector<double> xd(m->cols), vd(m->nnz), want(m->rows), scale(m->rows);
    uint32_t st = 7;
    for (uint32_t i = 0; i < m->cols; i++)
        x[i] = (T)sample_random_float(&st), xd[i] = (double)x[i];
    for (uint32_t j = 0; j < m->nnz; j++)
        val[j] = (T)m->val[j], vd[j] = (double)val[j];
    alg_csr mt = *m; /* the reference of the rounded inputs */
    mt.val = vd.data();
    alg_ref_spmv(&mt, xd.data(), want.data(), scale.data());

    uint32_t *d_row = dev_alloc<uint32_t>(m->rows + 1), *d_col = dev_alloc<uint32_t>(m->nnz);
    T *d_val = dev_alloc<T>(m->nnz), *d_x = dev_alloc<T>(m->cols), *d_y = dev_alloc<T>(m->rows);
    CK(cudaMemcpy(d_row, m->row_ptr, ((size_t)m->rows + 1) * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_col, m->col, (size_t)m->nnz * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_val, val.data(), (size_t)m->nnz * sizeof(T), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_x, x.data(), (size_t)m->cols * sizeof(T), cudaMemcpyHostToDevice));
    auto check = [&]() {
        CK(cudaMemcpy(y.data(), d_y, (size_t)m->rows * sizeof(T), cudaMemcpyDeviceToHost));
        return alg_check_spmv(m, y.data(), fp64, want.data(), scale.data()) == 0;
    };

    /* cuSPARSE */
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t vx, vy;
    CKS(cusparseCreateCsr(&A, m->rows, m->cols, m->nnz, d_row, d_col, d_val, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type));
    CKS(cusparseCreateDnVec(&vx, m->cols, d_x, type));
    CKS(cusparseCreateDnVec(&vy, m->rows, d_y, type));
    T alpha = 1, beta = 0;
    size_t buf_bytes = 0;
    CKS(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, type,
                                CUSPARSE_SPMV_ALG_DEFAULT, &buf_bytes));
    void *buf = dev_alloc<char>(buf_bytes);
    CKS(cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, type,
                                CUSPARSE_SPMV_ALG_DEFAULT, buf));
    CK(cudaMemset(d_y, 0, (size_t)m->rows * sizeof(T)));
    double l_ms = time_ms([&] {
        CKS(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, type,
                         CUSPARSE_SPMV_ALG_DEFAULT, buf));
    });
    bool l_ok = check();

    sgrt_buffer *b_row = wrap(d_row, ((size_t)m->rows + 1) * 4), *b_col = wrap(d_col, (size_t)m->nnz * 4);
    sgrt_buffer *b_val = wrap(d_val, (size_t)m->nnz * sizeof(T)), *b_x = wrap(d_x, (size_t)m->cols * sizeof(T));
    sgrt_buffer *b_y = wrap(d_y, (size_t)m->rows * sizeof(T));
    double bytes = alg_spmv_bytes(m, sizeof(T));
    alg_spmv_plan chosen;
    alg_spmv_plan_make(&chosen, m, 0, 0, -1);
    /* the chosen plan; the chosen ROW_GROUP with the other first stage
     * (CSR-stream or CSR-vector), CSR-stream with longer rows in its
     * blocks, CSR-vector without the split (what splitting is worth); then
     * every other ROW_GROUP with CSR-vector and its own split */
    struct { uint32_t row_group, long_row; int stream; const char *note; } config[16];
    int configs = 0;
    uint32_t rg = chosen.row_group;
    int stream = chosen.stream;
    config[configs++] = {rg, 0, stream, stream ? " stream (chosen)" : " (chosen)"};
    config[configs++] = {rg, 0, !stream, stream ? " vector" : " stream"};
    config[configs++] = {rg, ALG_STREAM_ROW / 2, 1, " stream, long_row 32"};
    config[configs++] = {rg, 2 * ALG_STREAM_ROW, 1, " stream, long_row 128"};
    config[configs++] = {rg, UINT32_MAX, 0, " no split"};
    for (uint32_t g = 2; g <= 32; g *= 2)
        if (g != rg)
            config[configs++] = {g, 0, 0, ""};
    for (int k = 0; k < configs; k++) {
        uint32_t g = config[k].row_group;
        alg_spmv_plan plan;
        alg_spmv_plan_make(&plan, m, g, config[k].long_row, config[k].stream);
        uint32_t *d_list = dev_alloc<uint32_t>(plan.list_len + 1);
        CK(cudaMemcpy(d_list, plan.list, plan.list_len * 4, cudaMemcpyHostToDevice));
        size_t scratch_bytes = alg_spmv_scratch_bytes(&plan);
        char *d_scratch = dev_alloc<char>(scratch_bytes);
        CK(cudaMemset(d_scratch, 0, scratch_bytes)); /* once: each launch leaves it zero */
        alg_spmv_buffers lists = {wrap(d_list, plan.list_len * 4 + 4), wrap(d_scratch, scratch_bytes)};
        sgrt_program *p = build(&spmv_module, 0, g); /* ROW_GROUP, bound at run time */
        CK(cudaMemset(d_y, 0, (size_t)m->rows * sizeof(T)));
        double s_ms = time_ms([&] {
            SAMPLE_CHECK(alg_spmv(p, fp64, &plan, b_row, b_col, b_val, b_x, b_y, m->rows, &lists, NULL));
        });
        char variant[128];
        snprintf(variant, sizeof variant, "%s %s, ROW_GROUP %u%s, %u + %u rows split off", m->name,
                 fp64 ? "fp64" : "fp32", g, config[k].note, plan.medium, plan.longest);
        row("spmv", variant, bytes, s_ms, check(), "cusparseSpMV", l_ms, l_ok);
        sgrt_program_free(p);
        sgrt_buffer_free(lists.list), sgrt_buffer_free(lists.scratch);
        CK(cudaFree(d_list)), CK(cudaFree(d_scratch));
        alg_spmv_plan_free(&plan);
    }
    alg_spmv_plan_free(&chosen);
    sgrt_buffer_free(b_row), sgrt_buffer_free(b_col), sgrt_buffer_free(b_val);
    sgrt_buffer_free(b_x), sgrt_buffer_free(b_y);
    CKS(cusparseDestroySpMat(A)), CKS(cusparseDestroyDnVec(vx)), CKS(cusparseDestroyDnVec(vy));
    CK(cudaFree(buf)), CK(cudaFree(d_row)), CK(cudaFree(d_col)), CK(cudaFree(d_val));
    CK(cudaFree(d_x)), CK(cudaFree(d_y));
}

int main(int argc, char **argv)
{
    uint32_t n = 1u << 28, grid = 2048;
    const char *tsv_path = NULL;
    for (int c; (c = getopt(argc, argv, "n:g:r:t:")) != -1;) {
        if (c == 'n') n = (uint32_t)strtoul(optarg, NULL, 0);
        else if (c == 'g') grid = (uint32_t)strtoul(optarg, NULL, 0);
        else if (c == 'r') repeats = atoi(optarg);
        else if (c == 't') tsv_path = optarg;
        else {
            fprintf(stderr, "usage: algorithms_gpu [-n N] [-g GRID] [-r R] [-t TSV]\n");
            return 2;
        }
    }
    if (tsv_path && !(tsv = fopen(tsv_path, "w"))) {
        perror(tsv_path);
        return 2;
    }
    CK(cudaSetDevice(0));
    CK(cudaFree(0)); /* creates the primary context */
    CUcontext cu;
    if (cuCtxGetCurrent(&cu) != CUDA_SUCCESS || !cu) {
        fprintf(stderr, "algorithms_gpu: no current CUDA context\n");
        return 2;
    }
    SAMPLE_CHECK(sgrt_context_create_from_cuda(cu, NULL, &sctx)); /* legacy default stream */
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int rt = 0, drv = 0;
    CK(cudaRuntimeGetVersion(&rt));
    CK(cudaDriverGetVersion(&drv));
    printf("device: %s, %d SMs; CUDA runtime %d, driver %d; n = %u, grid %u, median of %d runs\n\n",
           prop.name, prop.multiProcessorCount, rt, drv, n, grid, repeats);
    CK(cudaEventCreate(&ev0));
    CK(cudaEventCreate(&ev1));
    printf("| algorithm | case | sgcc CUDA ms | sgcc GB/s | library ms | library GB/s | "
           "sgcc / library | check |\n|---|---|---|---|---|---|---|---|\n");

    uint32_t *in = (uint32_t *)alg_alloc((size_t)n * 4);
    alg_fill_random(in, n, 2026);
    bench_copy_scan_compact(in, n);
    free(in);

    cusparseHandle_t h;
    CKS(cusparseCreate(&h));
    alg_csr m[3];
    alg_csr_laplacian(&m[0], grid);
    alg_csr_powerlaw(&m[1], grid * grid / 2, 11);
    alg_csr_banded(&m[2], grid * grid / 8, 64, 13);
    for (int i = 0; i < 3; i++) {
        printf("<!-- %s: %u rows, %u nonzeros, %.2f per row -->\n", m[i].name, m[i].rows, m[i].nnz,
               (double)m[i].nnz / m[i].rows);
        bench_spmv<float>(h, &m[i]);
        bench_spmv<double>(h, &m[i]);
        alg_csr_free(&m[i]);
    }
    CKS(cusparseDestroy(h));
    sgrt_context_free(sctx);
    if (tsv)
        fclose(tsv);
    printf("\n%s\n", failures ? "SOME RESULTS WRONG" : "all results correct");
    return failures ? 1 : 0;
}
