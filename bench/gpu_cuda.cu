/* gpu_cuda.cu — sgcc's CUDA output against hand-written CUDA on the GPU.
 *
 * The sgcc kernels come from separately compiled objects of sgcc's output
 * (bench/gpu_kernels.sgc, bench/tiles.sgc, samples/matmul/matmul.sgc with
 * block_size bound to 32 by -DSGC_SPEC_0); they are extern "C" with SGC's
 * names and parameters, declared below.  The baselines are written here the
 * way a CUDA programmer would write them: vector loads and warp shuffles,
 * CUB, cooperative groups, cuda::barrier with cuda::memcpy_async.  Every
 * timed result is checked against gpu_common.h's host references; times are
 * the median of device-event times over gb_sizes.repeats runs after one
 * warm-up run.  Prints one line per measurement and appends records to the
 * TSV file given as argument (bench/gpu_tables.awk prints the tables).
 *
 * usage: gpu_cuda [--small] [TSV]   (env GB_ONLY_GROUPS=1: group tables only) */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cub/device/device_reduce.cuh>
#include <cuda/barrier>

#include <vector>

#include "gpu_common.h"

namespace cg = cooperative_groups;

#define CK(call) ck((call), #call, __LINE__)
static void ck(cudaError_t err, const char *what, int line)
{
    if (err != cudaSuccess) {
        fprintf(stderr, "gpu_cuda.cu:%d: %s: %s\n", line, what, cudaGetErrorString(err));
        exit(1);
    }
}

/* ---- sgcc's kernels (generated; see the file banner) ---- */

extern "C" __global__ void sum_int_atomic(const int *in, int *out, unsigned n);
extern "C" __global__ void sum_float_partial(const float *in, float *partial, unsigned n);
extern "C" __global__ void sum_float_final(const float *partial, float *out, unsigned count);
#define DECLARE_GRP(kind, n)                                                                \
    extern "C" __global__ void grp_##kind##_reduce_uint(const unsigned *, unsigned *, unsigned); \
    extern "C" __global__ void grp_##kind##_scan_uint(const unsigned *, unsigned *, unsigned); \
    extern "C" __global__ void grp_##kind##_reduce_float(const float *, float *, unsigned);  \
    extern "C" __global__ void grp_##kind##_scan_float(const float *, float *, unsigned);
GB_KINDS(DECLARE_GRP)
#undef DECLARE_GRP
extern "C" __global__ void tiled_double_buffer(const int *src, unsigned *out, unsigned tiles);
extern "C" __global__ void tiled_plain(const int *src, unsigned *out, unsigned tiles);
extern "C" __global__ void matmul_spec(const float *a, const float *b, float *c, unsigned n);
extern "C" __global__ void matmul_arg(const float *a, const float *b, float *c, unsigned n,
                                      unsigned bs, unsigned tile_a_offset, unsigned tile_b_offset);

/* sgcc kernel table for the group benchmarks: [kind][op][type]. */
typedef void (*grp_uint_fn)(const unsigned *, unsigned *, unsigned);
typedef void (*grp_float_fn)(const float *, float *, unsigned);
#define GRP_UINT_ENTRY(kind, n) {grp_##kind##_reduce_uint, grp_##kind##_scan_uint},
#define GRP_FLOAT_ENTRY(kind, n) {grp_##kind##_reduce_float, grp_##kind##_scan_float},
static const grp_uint_fn sgcc_grp_uint[GB_NKINDS][2] = {GB_KINDS(GRP_UINT_ENTRY)};
static const grp_float_fn sgcc_grp_float[GB_NKINDS][2] = {GB_KINDS(GRP_FLOAT_ENTRY)};
#undef GRP_UINT_ENTRY
#undef GRP_FLOAT_ENTRY

/* ---- timing ---- */

static cudaEvent_t ev_start, ev_stop;

/* Median ms of `repeats` runs of launch(), each after prep() (untimed). */
template <class Prep, class Launch>
static double time_ms(int repeats, Prep prep, Launch launch)
{
    std::vector<double> ms((size_t)repeats);
    prep();
    launch(); /* warm-up: module load, first-touch */
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    for (int r = 0; r < repeats; r++) {
        prep();
        CK(cudaEventRecord(ev_start));
        launch();
        CK(cudaEventRecord(ev_stop));
        CK(cudaEventSynchronize(ev_stop));
        CK(cudaGetLastError());
        float t;
        CK(cudaEventElapsedTime(&t, ev_start, ev_stop));
        ms[(size_t)r] = t;
    }
    return gb_median(ms.data(), repeats);
}

static void no_prep() {}

/* ---- baseline: array reduction with vector loads and warp shuffles ---- */

template <class T>
__device__ __forceinline__ T warp_sum(T v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

template <class T> struct vec4;
template <> struct vec4<int> { typedef int4 type; };
template <> struct vec4<float> { typedef float4 type; };

/* Grid-stride over 16-byte vectors, two independent loads in flight per
 * thread per iteration, warp shuffles, one shared slot per warp, and one
 * atomicAdd per block (float atomics included: CUDA has them). */
template <class T>
__global__ __launch_bounds__(GB_WG) void hand_sum(const T *in, T *out, unsigned n)
{
    typedef typename vec4<T>::type V;
    const V *in4 = reinterpret_cast<const V *>(in);
    unsigned n4 = n / 4, stride = gridDim.x * blockDim.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    T a = 0, b = 0;
    for (; i + stride < n4; i += 2 * stride) {
        V p = __ldg(in4 + i), q = __ldg(in4 + i + stride);
        a += (p.x + p.y) + (p.z + p.w);
        b += (q.x + q.y) + (q.z + q.w);
    }
    if (i < n4) {
        V p = __ldg(in4 + i);
        a += (p.x + p.y) + (p.z + p.w);
    }
    unsigned tail = n4 * 4 + blockIdx.x * blockDim.x + threadIdx.x;
    if (tail < n)
        a += in[tail]; /* at most 3 elements */
    T v = warp_sum(a + b);
    __shared__ T per_warp[GB_WG / 32];
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    if (lane == 0)
        per_warp[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < GB_WG / 32 ? per_warp[lane] : T(0);
        v = warp_sum(v);
        if (lane == 0)
            atomicAdd(out, v);
    }
}

/* ---- baseline: group algorithms with cooperative groups ---- */

template <class T> __device__ __forceinline__ T round_scale();
template <> __device__ __forceinline__ unsigned round_scale<unsigned>() { return 1u; }
template <> __device__ __forceinline__ float round_scale<float>() { return 0.03125f; }

__device__ __forceinline__ bool low_bit(unsigned v) { return (v & 1u) != 0u; }
__device__ __forceinline__ bool low_bit(float v) { return ((unsigned)(int)v & 1u) != 0u; }

template <int SCAN, class G, class T>
__device__ __forceinline__ T cg_rounds(const G &g, T x, T v, unsigned rounds)
{
    for (unsigned r = 0; r < rounds; r++) {
        T y;
        if (SCAN)
            y = cg::inclusive_scan(g, x, cg::plus<T>());
        else
            y = cg::reduce(g, x, cg::plus<T>());
        x = y * round_scale<T>() + v;
    }
    return x;
}

template <unsigned N, int SCAN, class T>
__global__ void cg_fixed(const T *in, T *out, unsigned rounds)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    T v = in[gid];
    auto g = cg::tiled_partition<N>(cg::this_thread_block());
    out[gid] = cg_rounds<SCAN>(g, v, v, rounds);
}

template <int SCAN, class T>
__global__ void cg_ballot(const T *in, T *out, unsigned rounds)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    T v = in[gid];
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    auto g = cg::binary_partition(warp, low_bit(v));
    out[gid] = cg_rounds<SCAN>(g, v, v, rounds);
}

/* The tangle and opportunistic rows: the group of the threads that took the
 * same side of the branch, as CUDA code gets it, cg::coalesced_threads(). */
template <int SCAN, class T>
__global__ void cg_coalesced(const T *in, T *out, unsigned rounds)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    T v = in[gid], x;
    if (low_bit(v)) {
        auto g = cg::coalesced_threads();
        x = cg_rounds<SCAN>(g, v, v, rounds);
    } else {
        auto g = cg::coalesced_threads();
        x = cg_rounds<SCAN>(g, v, v, rounds);
    }
    out[gid] = x;
}

template <class T> struct cg_table {
    typedef void (*fn)(const T *, T *, unsigned);
    fn k[GB_NKINDS][2];
};

template <class T> static cg_table<T> make_cg_table()
{
    cg_table<T> t = {{{cg_fixed<4, 0, T>, cg_fixed<4, 1, T>},
                      {cg_fixed<8, 0, T>, cg_fixed<8, 1, T>},
                      {cg_fixed<16, 0, T>, cg_fixed<16, 1, T>},
                      {cg_fixed<32, 0, T>, cg_fixed<32, 1, T>},
                      {cg_ballot<0, T>, cg_ballot<1, T>},
                      {cg_coalesced<0, T>, cg_coalesced<1, T>},
                      {cg_coalesced<0, T>, cg_coalesced<1, T>}}};
    return t;
}

/* ---- baseline: the tiles kernel with cuda::barrier and cuda::memcpy_async ---- */

typedef cuda::barrier<cuda::thread_scope_block> block_barrier;

/* bench/tiles.sgc's tiled_double_buffer by hand: full[s] completes when
 * tile s has landed (memcpy_async tracked by the barrier: cp.async.bulk on
 * sm_90), empty[s] when every thread has read it. */
__global__ __launch_bounds__(GB_TILE_WG) void hand_tiles_async(const int *src, unsigned *out,
                                                               unsigned tiles)
{
    __shared__ alignas(128) int buf[2][GB_TILE];
    /* Initialised by init() below, as the CUDA guide shows. */
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ block_barrier full[2], empty[2];
    auto block = cg::this_thread_block();
    unsigned lid = threadIdx.x, g = blockIdx.x;
    const int *mine = src + (size_t)g * tiles * GB_TILE;
    if (lid < 2) {
        init(&full[lid], GB_TILE_WG);
        init(&empty[lid], GB_TILE_WG);
    }
    block.sync();
    const auto bytes = cuda::aligned_size_t<16>(GB_TILE * sizeof(int));
    cuda::memcpy_async(block, buf[0], mine, bytes, full[0]);
    block_barrier::arrival_token consumed[2];
    unsigned acc = 0;
    for (unsigned k = 0; k < tiles; k++) {
        unsigned s = k & 1;
        if (k >= 1 && k + 1 < tiles)
            empty[s ^ 1].wait(std::move(consumed[s ^ 1]));
        if (k + 1 < tiles)
            cuda::memcpy_async(block, buf[s ^ 1], mine + (size_t)(k + 1) * GB_TILE, bytes, full[s ^ 1]);
        full[s].arrive_and_wait();
        acc += (unsigned)buf[s][lid] * (k + 1) + (unsigned)buf[s][GB_TILE - 1 - lid];
        consumed[s] = empty[s].arrive();
    }
    out[(size_t)g * GB_TILE_WG + lid] = acc;
}

/* tiled_plain by hand: copy, __syncthreads, compute, __syncthreads. */
__global__ __launch_bounds__(GB_TILE_WG) void hand_tiles_plain(const int *src, unsigned *out,
                                                               unsigned tiles)
{
    __shared__ int buf[GB_TILE];
    unsigned lid = threadIdx.x, g = blockIdx.x;
    const int *mine = src + (size_t)g * tiles * GB_TILE;
    unsigned acc = 0;
    for (unsigned k = 0; k < tiles; k++) {
        for (unsigned i = lid; i < GB_TILE; i += GB_TILE_WG)
            buf[i] = mine[(size_t)k * GB_TILE + i];
        __syncthreads();
        acc += (unsigned)buf[lid] * (k + 1) + (unsigned)buf[GB_TILE - 1 - lid];
        __syncthreads();
    }
    out[(size_t)g * GB_TILE_WG + lid] = acc;
}

/* ---- the benchmarks ---- */

static int grid_for(const void *kernel, int block)
{
    int device, sms, per_sm;
    CK(cudaGetDevice(&device));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
    return sms * (per_sm > 0 ? per_sm : 1);
}

static void bench_reduce(const gb_sizes *sz, FILE *tsv)
{
    unsigned n = sz->reduce_n;
    size_t bytes = (size_t)n * 4;
    char row[64];
    snprintf(row, sizeof row, "sum of %u", n);
    std::vector<int32_t> hi(n);
    std::vector<float> hf(n);
    gb_fill_int(hi.data(), n, 1);
    gb_fill_float(hf.data(), n, 2);
    int32_t want_i = gb_sum_int(hi.data(), n);
    double want_f = gb_sum_float(hf.data(), n);

    void *din, *dcopy, *dout, *dpartial, *dtemp = nullptr;
    CK(cudaMalloc(&din, bytes));
    CK(cudaMalloc(&dcopy, bytes));
    CK(cudaMalloc(&dout, 16));
    int grid_i = grid_for((const void *)sum_int_atomic, GB_WG);
    int grid_f = grid_for((const void *)sum_float_partial, GB_WG);
    /* Grid sizes are found before the timed region: host work between the
     * start event and the launch would count as device time. */
    int grid_hi = grid_for((const void *)hand_sum<int>, GB_WG);
    int grid_hf = grid_for((const void *)hand_sum<float>, GB_WG);
    CK(cudaMalloc(&dpartial, (size_t)grid_f * sizeof(float)));
    size_t temp_bytes = 0, temp_f = 0;
    CK(cub::DeviceReduce::Sum(nullptr, temp_bytes, (const int *)din, (int *)dout, (int)n));
    CK(cub::DeviceReduce::Sum(nullptr, temp_f, (const float *)din, (float *)dout, (int)n));
    temp_bytes = temp_bytes > temp_f ? temp_bytes : temp_f;
    CK(cudaMalloc(&dtemp, temp_bytes));
    auto zero_out = [&] { CK(cudaMemsetAsync(dout, 0, 16)); };

    /* int */
    CK(cudaMemcpy(din, hi.data(), bytes, cudaMemcpyHostToDevice));
    int got_i;
    struct {
        const char *impl, *role;
        int which;
    } int_runs[] = {{"sgcc CUDA", "sgcc", 0}, {"CUDA warp shuffles", "base", 1}, {"CUB DeviceReduce", "base", 2}};
    for (auto &run : int_runs) {
        double ms = time_ms(sz->repeats, zero_out, [&] {
            if (run.which == 0)
                sum_int_atomic<<<grid_i, GB_WG>>>((const int *)din, (int *)dout, n);
            else if (run.which == 1)
                hand_sum<int><<<grid_hi, GB_WG>>>((const int *)din, (int *)dout, n);
            else
                CK(cub::DeviceReduce::Sum(dtemp, temp_bytes, (const int *)din, (int *)dout, (int)n));
        });
        CK(cudaMemcpy(&got_i, dout, 4, cudaMemcpyDeviceToHost));
        char r[80];
        snprintf(r, sizeof r, "int %s", row);
        gb_record(tsv, "reduce", r, run.impl, run.role, ms, (double)bytes, "GB/s", got_i != want_i);
        if (got_i != want_i)
            fprintf(stderr, "  %s: got %d, want %d\n", run.impl, got_i, want_i);
    }

    /* float */
    CK(cudaMemcpy(din, hf.data(), bytes, cudaMemcpyHostToDevice));
    for (int which = 0; which < 3; which++) {
        double ms = time_ms(sz->repeats, zero_out, [&] {
            if (which == 0) {
                sum_float_partial<<<grid_f, GB_WG>>>((const float *)din, (float *)dpartial, n);
                sum_float_final<<<1, GB_WG>>>((const float *)dpartial, (float *)dout, (unsigned)grid_f);
            } else if (which == 1) {
                hand_sum<float><<<grid_hf, GB_WG>>>((const float *)din, (float *)dout, n);
            } else {
                CK(cub::DeviceReduce::Sum(dtemp, temp_bytes, (const float *)din, (float *)dout, (int)n));
            }
        });
        float got_f;
        CK(cudaMemcpy(&got_f, dout, 4, cudaMemcpyDeviceToHost));
        bool ok = gb_float_sum_ok(got_f, want_f);
        char r[80];
        snprintf(r, sizeof r, "float %s", row);
        gb_record(tsv, "reduce", r, int_runs[which].impl, int_runs[which].role, ms, (double)bytes,
                  "GB/s", !ok);
        if (!ok)
            fprintf(stderr, "  %s: got %.9g, want %.9g\n", int_runs[which].impl, got_f, want_f);
    }

    /* The device's copy bandwidth in the same run: bytes read + written. */
    double ms = time_ms(sz->repeats, no_prep,
                        [&] { CK(cudaMemcpyAsync(dcopy, din, bytes, cudaMemcpyDeviceToDevice)); });
    std::vector<float> back(n);
    CK(cudaMemcpy(back.data(), dcopy, bytes, cudaMemcpyDeviceToHost));
    gb_record(tsv, "reduce", "copy (read + write)", "cudaMemcpy D2D", "ref", ms, 2.0 * bytes, "GB/s",
              memcmp(back.data(), hf.data(), bytes) != 0);

    CK(cudaFree(din));
    CK(cudaFree(dcopy));
    CK(cudaFree(dout));
    CK(cudaFree(dpartial));
    CK(cudaFree(dtemp));
}

/* One (kind, op) pair on one type: the sgcc kernel and the cooperative
 * groups kernel, both checked against the same reference. */
template <class T>
static void bench_group_type(const gb_sizes *sz, FILE *tsv, const char *table, unsigned n,
                             unsigned rounds, const cg_table<T> &cgk, const T *din, T *dout,
                             const std::vector<T> &host_in, int type_index)
{
    std::vector<T> got(n);
    std::vector<uint32_t> want_u(n);
    std::vector<double> want_f(n);
    for (int kind = 0; kind < GB_NKINDS; kind++)
        for (int op = 0; op < 2; op++) {
            const gb_kind *k = &gb_kinds[kind];
            if (type_index == 0)
                gb_group_ref_uint(k, op, (const uint32_t *)host_in.data(), want_u.data(), n, rounds);
            else
                gb_group_ref_float(k, op, (const float *)host_in.data(), want_f.data(), n, rounds);
            char row[96];
            snprintf(row, sizeof row, "%s %s %s", k->name, gb_ops[op], gb_types[type_index]);
            for (int impl = 0; impl < 2; impl++) {
                void (*fn)(const T *, T *, unsigned);
                if (impl == 0)
                    fn = type_index == 0 ? (void (*)(const T *, T *, unsigned))sgcc_grp_uint[kind][op]
                                         : (void (*)(const T *, T *, unsigned))sgcc_grp_float[kind][op];
                else
                    fn = cgk.k[kind][op];
                CK(cudaMemset(dout, 0xff, (size_t)n * sizeof(T)));
                double ms = time_ms(sz->repeats, no_prep, [&] { fn<<<n / GB_WG, GB_WG>>>(din, dout, rounds); });
                CK(cudaMemcpy(got.data(), dout, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost));
                size_t wrong = type_index == 0
                                   ? gb_wrong_uint((const uint32_t *)got.data(), want_u.data(), n)
                                   : gb_wrong_float((const float *)got.data(), want_f.data(), n);
                /* work: group operations per second (G op/s) for the
                 * compute table, bytes read + written for streaming. */
                double work = rounds > 1 ? (double)n * rounds : 2.0 * n * sizeof(T);
                gb_record(tsv, table, row, impl == 0 ? "sgcc CUDA" : "CUDA cooperative groups",
                          impl == 0 ? "sgcc" : "base", ms, work, rounds > 1 ? "Gop/s" : "GB/s", wrong);
            }
        }
}

static void bench_groups(const gb_sizes *sz, FILE *tsv)
{
    cg_table<unsigned> cg_u = make_cg_table<unsigned>();
    cg_table<float> cg_f = make_cg_table<float>();
    for (int variant = 0; variant < 2; variant++) {
        unsigned n = variant == 0 ? sz->stream_n : sz->compute_n;
        unsigned rounds = variant == 0 ? 1u : sz->compute_rounds;
        const char *table = variant == 0 ? "groups_stream" : "groups_compute";
        std::vector<unsigned> hu(n);
        std::vector<float> hf(n);
        gb_fill_uint(hu.data(), n, 10 + variant);
        gb_fill_small_float(hf.data(), n, 20 + variant);
        void *din, *dout;
        CK(cudaMalloc(&din, (size_t)n * 4));
        CK(cudaMalloc(&dout, (size_t)n * 4));
        CK(cudaMemcpy(din, hu.data(), (size_t)n * 4, cudaMemcpyHostToDevice));
        bench_group_type<unsigned>(sz, tsv, table, n, rounds, cg_u, (const unsigned *)din,
                                   (unsigned *)dout, hu, 0);
        CK(cudaMemcpy(din, hf.data(), (size_t)n * 4, cudaMemcpyHostToDevice));
        bench_group_type<float>(sz, tsv, table, n, rounds, cg_f, (const float *)din, (float *)dout,
                                hf, 1);
        CK(cudaFree(din));
        CK(cudaFree(dout));
    }
}

static void bench_tiles(const gb_sizes *sz, FILE *tsv)
{
    unsigned groups = sz->tile_groups, tiles = sz->tile_count;
    size_t count = (size_t)groups * tiles * GB_TILE, outs = (size_t)groups * GB_TILE_WG;
    std::vector<int32_t> src(count);
    std::vector<uint32_t> want(outs), got(outs);
    gb_fill_int(src.data(), count, 30);
    gb_tiles_ref(src.data(), want.data(), groups, tiles);
    int *dsrc;
    unsigned *dout;
    CK(cudaMalloc(&dsrc, count * 4));
    CK(cudaMalloc(&dout, outs * 4));
    CK(cudaMemcpy(dsrc, src.data(), count * 4, cudaMemcpyHostToDevice));
    char size[64];
    snprintf(size, sizeof size, "%u x %u tiles", groups, tiles);
    typedef void (*tile_fn)(const int *, unsigned *, unsigned);
    struct {
        const char *row, *impl, *role;
        tile_fn fn;
    } runs[] = {
        {"split barriers", "sgcc CUDA", "sgcc", tiled_double_buffer},
        {"split barriers", "hand-written CUDA", "base", hand_tiles_async},
        {"plain barriers", "sgcc CUDA", "sgcc", tiled_plain},
        {"plain barriers", "hand-written CUDA", "base", hand_tiles_plain},
    };
    for (auto &run : runs) {
        CK(cudaMemset(dout, 0, outs * 4));
        double ms = time_ms(sz->repeats, no_prep, [&] { run.fn<<<groups, GB_TILE_WG>>>(dsrc, dout, tiles); });
        CK(cudaMemcpy(got.data(), dout, outs * 4, cudaMemcpyDeviceToHost));
        char row[128];
        snprintf(row, sizeof row, "%s, %s", run.row, size);
        gb_record(tsv, "tiles", row, run.impl, run.role, ms, (double)count * 4, "GB/s",
                  gb_wrong_uint(got.data(), want.data(), outs));
    }
    CK(cudaFree(dsrc));
    CK(cudaFree(dout));
}

static void bench_matmul(const gb_sizes *sz, FILE *tsv)
{
    unsigned n = sz->matmul_n, bs = GB_MATMUL_BS;
    size_t count = (size_t)n * n, bytes = count * 4;
    std::vector<float> a(count), b(count), want(count), got(count);
    gb_fill_float(a.data(), count, 40);
    gb_fill_float(b.data(), count, 41);
    gb_matmul_ref(a.data(), b.data(), want.data(), n);
    float *da, *db, *dc;
    CK(cudaMalloc(&da, bytes));
    CK(cudaMalloc(&db, bytes));
    CK(cudaMalloc(&dc, bytes));
    CK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
    dim3 grid((n + bs - 1) / bs, (n + bs - 1) / bs), block(bs, bs);
    unsigned tile = bs * bs * 4;
    char row[64];
    snprintf(row, sizeof row, "n = %u, block %u, CUDA", n, bs);
    for (int variant = 0; variant < 2; variant++) {
        CK(cudaMemset(dc, 0, bytes));
        double ms = time_ms(sz->repeats, no_prep, [&] {
            if (variant == 0)
                matmul_spec<<<grid, block>>>(da, db, dc, n);
            else
                matmul_arg<<<grid, block, 2 * tile>>>(da, db, dc, n, bs, 0, tile);
        });
        CK(cudaMemcpy(got.data(), dc, bytes, cudaMemcpyDeviceToHost));
        gb_record(tsv, "matmul", row, variant == 0 ? "sgcc spec constant" : "sgcc plain argument",
                  variant == 0 ? "sgcc" : "base", ms, 2.0 * n * n * (double)n, "GFLOP/s",
                  gb_matmul_wrong(got.data(), want.data(), count));
    }
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dc));
}

int main(int argc, char **argv)
{
    int small = 0;
    const char *tsv_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--small") == 0)
            small = 1;
        else
            tsv_path = argv[i];
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        puts("gpu_cuda: no CUDA device");
        return 77;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("gpu_cuda: %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
    FILE *tsv = tsv_path ? fopen(tsv_path, "a") : NULL;
    if (tsv_path && !tsv) {
        perror(tsv_path);
        return 1;
    }
    gb_sizes sz = gb_sizes_for(small);
    CK(cudaEventCreate(&ev_start));
    CK(cudaEventCreate(&ev_stop));
    /* GB_ONLY_GROUPS=1: the group tables alone (a shorter device run). */
    bool groups_only = getenv("GB_ONLY_GROUPS") != NULL;
    if (!groups_only)
        bench_reduce(&sz, tsv);
    bench_groups(&sz, tsv);
    if (!groups_only) {
        bench_tiles(&sz, tsv);
        bench_matmul(&sz, tsv);
    }
    if (tsv)
        fclose(tsv);
    printf("gpu_cuda: %d wrong result(s)\n", gb_failures);
    return gb_failures ? 1 : 0;
}
