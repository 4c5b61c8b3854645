// gpu_shfl_masks.cu — why is sgcc's fixed_size_group<4> reduce slower than
// cooperative groups' tiled_partition<4>?  The same 32-round butterfly
// reduce over aligned blocks of N lanes, with the shuffle's member mask
// chosen four ways:
//   group   each block passes its own N-lane mask (what sgcc's library does)
//   active  __activemask(): one mask for the whole converged warp
//   full    0xffffffff with the width argument N (valid only when the whole
//           warp is converged, as here)
//   cg      cg::reduce on cg::tiled_partition<N>
//   idx     __activemask() | the block's mask, shfl.idx to lane ^ d (the
//           instruction sgcc's library ends up with, PTX shows)
//   xor_or  __activemask() | the block's mask, shfl.bfly (xor)
//   idx_act __activemask() alone, shfl.idx to lane ^ d
//   sync    __syncwarp(__activemask() | the block's mask), then
//           __activemask() as the mask
//   sgc     sgcc's own library (compiler/emit/cuda/*.cuh) on
//           fixed_size_group<N>: reduce_over_group(g, x, plus)
// The last two separate the shuffle form from the library's other per-round
// work (the full-block test, the mask), where fixed8/16 still trail cg.
// Every variant's result is checked against the first one's.  Prints one
// table row per N.  Build (from the repository root):
//   nvcc -O3 -arch=sm_90 -I compiler/emit/cuda -I BUILD/compiler -o gpu_shfl_masks bench/gpu_shfl_masks.cu
// (BUILD/compiler: a meson build's, for the operator rows group_ops_*.inc
// that cuda_base.cuh includes)
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

/* sgcc's device library, as the emitted CUDA C carries it (no includes). */
#include "cuda_base.cuh"
#include "cuda_subgroup.cuh"

namespace cg = cooperative_groups;

enum Variant { GROUP, ACTIVE, FULL, CG, IDX, SGC, XOR_OR, IDX_ACTIVE, SYNC_ACTIVE, VARIANTS };
static const char *const names[VARIANTS] = {"group mask",        "__activemask", "full + width",
                                            "cg",                "active|group, idx",
                                            "sgcc library",      "active|group, xor",
                                            "__activemask, idx", "syncwarp, active"};

template <int N, int V>
__global__ void rounds_kernel(const float *in, float *out, int rounds)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31u;
    float v = in[gid], x = v;
    unsigned group_mask = (N == 32 ? 0xffffffffu : ((1u << N) - 1u) << (lane & ~(N - 1u)));
    auto tile = cg::tiled_partition<N>(cg::this_thread_block());
    for (int r = 0; r < rounds; r++) {
        float s = x;
        if (V == CG) {
            s = cg::reduce(tile, x, cg::plus<float>());
        } else if (V == SGC) {
            sgc::group g = sgc::get_fixed_size_group<N>(sgc::get_sub_group());
            s = sgc::reduce_over_group(g, x, sgc::plus{});
        } else if (V == IDX || V == IDX_ACTIVE) {
            unsigned mask = V == IDX ? __activemask() | group_mask : __activemask();
#pragma unroll
            for (int d = N / 2; d > 0; d /= 2)
                s += __shfl_sync(mask, s, lane ^ d);
        } else if (V == SYNC_ACTIVE) {
            __syncwarp(__activemask() | group_mask);
            unsigned mask = __activemask();
#pragma unroll
            for (int d = N / 2; d > 0; d /= 2)
                s += __shfl_xor_sync(mask, s, d);
        } else if (V == XOR_OR) {
            unsigned mask = __activemask() | group_mask;
#pragma unroll
            for (int d = N / 2; d > 0; d /= 2)
                s += __shfl_xor_sync(mask, s, d);
        } else {
            unsigned mask = V == GROUP ? group_mask : V == ACTIVE ? __activemask() : 0xffffffffu;
#pragma unroll
            for (int d = N / 2; d > 0; d /= 2) {
                float y = V == FULL ? __shfl_xor_sync(mask, s, d, N) : __shfl_xor_sync(mask, s, d);
                s = (lane & d) ? y + s : s + y;
            }
        }
        x = s * 0.03125f + v;
    }
    out[gid] = x;
}

template <int N>
static void run_row(const float *d_in, float *d_out, int n, int rounds, std::vector<float> &ref)
{
    void (*kernels[VARIANTS])(const float *, float *, int) = {
        rounds_kernel<N, GROUP>, rounds_kernel<N, ACTIVE>, rounds_kernel<N, FULL>,
        rounds_kernel<N, CG>,    rounds_kernel<N, IDX>,    rounds_kernel<N, SGC>,
        rounds_kernel<N, XOR_OR>, rounds_kernel<N, IDX_ACTIVE>, rounds_kernel<N, SYNC_ACTIVE>};
    printf("| %2d |", N);
    std::vector<float> got(n);
    for (int v = 0; v < VARIANTS; v++) {
        cudaEvent_t start, stop;
        cudaEventCreate(&start);
        cudaEventCreate(&stop);
        std::vector<float> times;
        for (int rep = 0; rep < 11; rep++) {
            cudaEventRecord(start);
            kernels[v]<<<n / 256, 256>>>(d_in, d_out, rounds);
            cudaEventRecord(stop);
            cudaEventSynchronize(stop);
            float ms = 0;
            cudaEventElapsedTime(&ms, start, stop);
            times.push_back(ms);
        }
        std::sort(times.begin(), times.end());
        cudaMemcpy(got.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
        if (v == GROUP)
            ref = got;
        int wrong = 0;
        for (int i = 0; i < n; i++)
            wrong += got[i] != ref[i];
        printf(" %.4f ms%s |", times[5], wrong ? " WRONG" : "");
        cudaEventDestroy(start);
        cudaEventDestroy(stop);
    }
    printf("\n");
}

int main()
{
    const int n = 1 << 21, rounds = 32;
    std::vector<float> h(n), ref;
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 17) - 8.0f;
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    printf("| N |");
    for (int v = 0; v < VARIANTS; v++)
        printf(" %s |", names[v]);
    printf("\n|---:|");
    for (int v = 0; v < VARIANTS; v++)
        printf("---:|");
    printf("\n");
    run_row<4>(d_in, d_out, n, rounds, ref);
    run_row<8>(d_in, d_out, n, rounds, ref);
    run_row<16>(d_in, d_out, n, rounds, ref);
    run_row<32>(d_in, d_out, n, rounds, ref);
    cudaFree(d_in);
    cudaFree(d_out);
    return 0;
}
