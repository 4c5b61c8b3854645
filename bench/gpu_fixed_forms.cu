// gpu_fixed_forms.cu — which form of sgcc's fixed_size_group<N> reduce and
// inclusive scan can match cooperative groups' tiled_partition<N>?  Each
// kernel runs ROUNDS dependent calls on a group made once before the loop
// (the shape of bench/gpu_kernels.sgc and of emitted code):
//   cg        cg::reduce / cg::inclusive_scan on cg::tiled_partition<N>
//   library   sgcc's library as it is: every call tests __activemask()
//   hoisted   __activemask() == 0xffffffff read once, where the group is
//             made; each call branches on that flag (valid only when every
//             lane present at the group's creation reaches the call, which
//             the compiler would have to prove)
//   sg mask   the flag from the sub-group's mask (blockDim), not a vote
//   constant  0xffffffff unconditionally: the bound (valid here only
//             because every warp is full and converged)
// Results are checked against the cg variant (uint exactly, float to a
// relative 1e-5, since the butterfly's order of additions differs).  One
// table row per (algorithm, type, N): median ms of 21 runs and the ratio
// cg / variant (above 1: faster than cg).  Build from the repository root:
//   nvcc -O3 -arch=sm_90 -I compiler/emit/cuda -I BUILD/compiler -o gpu_fixed_forms bench/gpu_fixed_forms.cu
// (BUILD/compiler: a meson build's, for the operator rows group_ops_*.inc
// that cuda_base.cuh includes)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "cuda_base.cuh"
#include "cuda_subgroup.cuh"

namespace cg = cooperative_groups;

enum Variant { CG, LIBRARY, HOISTED, SG_MASK, CONSTANT, VARIANTS };
static const char *const names[VARIANTS] = {"cg", "library", "hoisted", "sg mask", "constant"};

template <class T> __device__ __forceinline__ T scale();
template <> __device__ __forceinline__ unsigned scale<unsigned>() { return 1u; }
template <> __device__ __forceinline__ float scale<float>() { return 0.03125f; }

template <int N, int V, bool SCAN, class T>
__global__ void forms(const T *in, T *out, unsigned rounds)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    T v = in[gid], x = v;
    constexpr sgc::block_algo A = SCAN ? sgc::BLOCK_INCLUSIVE : sgc::BLOCK_REDUCE;
    if constexpr (V == CG) {
        auto tile = cg::tiled_partition<N>(cg::this_thread_block());
        for (unsigned r = 0; r < rounds; r++) {
            T y = SCAN ? cg::inclusive_scan(tile, x, cg::plus<T>()) : cg::reduce(tile, x, cg::plus<T>());
            x = y * scale<T>() + v;
        }
    } else {
        sgc::group sg = sgc::get_sub_group();
        sgc::group g = sgc::get_fixed_size_group<N>(sg);
        bool whole = V == HOISTED ? __activemask() == 0xffffffffu : sg.mask == 0xffffffffu;
        for (unsigned r = 0; r < rounds; r++) {
            T y;
            if constexpr (V == LIBRARY)
                y = SCAN ? sgc::inclusive_scan_over_group(g, x, sgc::plus{})
                         : sgc::reduce_over_group(g, x, sgc::plus{});
            else if constexpr (V == CONSTANT)
                y = sgc::block_algo_under<A>(0xffffffffu, N, x, sgc::plus{});
            else
                y = whole ? sgc::block_algo_under<A>(0xffffffffu, N, x, sgc::plus{})
                          : sgc::block_algo_under<A>(__activemask() | g.mask, N, x, sgc::plus{});
            x = y * scale<T>() + v;
        }
    }
    out[gid] = x;
}

static bool same_value(unsigned a, unsigned b) { return a == b; }
static bool same_value(float a, float b) { return std::fabs(a - b) <= 1e-5f * std::fmax(1.0f, std::fabs(b)); }

template <int N, bool SCAN, class T>
static void row(const char *type, const T *d_in, T *d_out, int n, unsigned rounds)
{
    void (*k[VARIANTS])(const T *, T *, unsigned) = {forms<N, CG, SCAN, T>, forms<N, LIBRARY, SCAN, T>,
                                                     forms<N, HOISTED, SCAN, T>, forms<N, SG_MASK, SCAN, T>,
                                                     forms<N, CONSTANT, SCAN, T>};
    std::vector<T> ref(n), got(n);
    float med[VARIANTS];
    int wrong[VARIANTS];
    for (int v = 0; v < VARIANTS; v++) {
        cudaEvent_t a, b;
        cudaEventCreate(&a);
        cudaEventCreate(&b);
        std::vector<float> t;
        for (int rep = 0; rep < 21; rep++) {
            cudaEventRecord(a);
            k[v]<<<n / 256, 256>>>(d_in, d_out, rounds);
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            float ms = 0;
            cudaEventElapsedTime(&ms, a, b);
            t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        med[v] = t[10];
        cudaMemcpy(got.data(), d_out, n * sizeof(T), cudaMemcpyDeviceToHost);
        if (v == CG)
            ref = got;
        wrong[v] = 0;
        for (int i = 0; i < n; i++)
            wrong[v] += !same_value(got[i], ref[i]);
        cudaEventDestroy(a);
        cudaEventDestroy(b);
    }
    printf("| %s | %s | %2d |", SCAN ? "scan" : "reduce", type, N);
    for (int v = 0; v < VARIANTS; v++)
        printf(" %.4f%s |", med[v], wrong[v] ? " WRONG" : "");
    for (int v = 1; v < VARIANTS; v++)
        printf(" %.2fx |", med[CG] / med[v]);
    printf("\n");
}

template <class T>
static void rows(const char *type, int n, unsigned rounds)
{
    std::vector<T> h(n);
    for (int i = 0; i < n; i++)
        h[i] = (T)((i * 2654435761u) % 17u);
    T *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(T));
    cudaMalloc(&d_out, n * sizeof(T));
    cudaMemcpy(d_in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
    row<8, false, T>(type, d_in, d_out, n, rounds);
    row<16, false, T>(type, d_in, d_out, n, rounds);
    row<8, true, T>(type, d_in, d_out, n, rounds);
    row<16, true, T>(type, d_in, d_out, n, rounds);
    cudaFree(d_in);
    cudaFree(d_out);
}

int main()
{
    const int n = 1 << 22;
    const unsigned rounds = 64;
    printf("| algorithm | type | N |");
    for (int v = 0; v < VARIANTS; v++)
        printf(" %s ms |", names[v]);
    for (int v = 1; v < VARIANTS; v++)
        printf(" cg / %s |", names[v]);
    printf("\n|---|---|---:|");
    for (int v = 0; v < 2 * VARIANTS - 1; v++)
        printf("---:|");
    printf("\n");
    rows<unsigned>("uint", n, rounds);
    rows<float>("float", n, rounds);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
