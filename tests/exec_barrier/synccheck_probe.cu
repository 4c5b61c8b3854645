// synccheck_probe.cu — does compute-sanitizer's synccheck accept NVIDIA's
// own idiom for tracking cp.async copies on an mbarrier?  Two kernels, each
// correct by the PTX ISA, written only with CUDA's headers:
//   inc:   __pipeline_memcpy_async + __pipeline_arrive_on (cp.async.mbarrier.
//          arrive, which raises the pending count itself), barrier of WG;
//   noinc: the same copies + cp.async.mbarrier.arrive.noinc, barrier of 2*WG.
// Both check their output.  Run under synccheck (scripts/gpu_sanitize.sh
// does): a report on `inc` alone means the tool does not model the .inc
// arrive, not that sgcc's lowering (which emits the same instruction) is wrong.
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <cstdio>
#include <cstring>

#define WG 128
#pragma nv_diag_suppress static_var_with_dynamic_init
using barrier_t = cuda::barrier<cuda::thread_scope_block>;

template <bool Inc>
__global__ void copy_kernel(const int *src, int *out)
{
    __shared__ int loc[WG];
    __shared__ barrier_t bar;
    if (threadIdx.x == 0)
        init(&bar, Inc ? WG : 2 * WG);
    __syncthreads();
    __pipeline_memcpy_async(&loc[threadIdx.x], &src[blockIdx.x * WG + threadIdx.x], sizeof(int));
    unsigned addr = (unsigned)__cvta_generic_to_shared(cuda::device::barrier_native_handle(bar));
    if (Inc)
        asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" ::"r"(addr) : "memory");
    else
        asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(addr) : "memory");
    bar.arrive_and_wait();
    out[blockIdx.x * WG + threadIdx.x] = loc[WG - 1 - threadIdx.x] + 1;
}

template <bool Inc> static int run(const char *name, const int *d_src, int *d_out, int blocks)
{
    copy_kernel<Inc><<<blocks, WG>>>(d_src, d_out);
    static int h[WG * 8];
    if (cudaMemcpy(h, d_out, sizeof(int) * WG * blocks, cudaMemcpyDeviceToHost) != cudaSuccess) {
        printf("%s: launch failed: %s\n", name, cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    int bad = 0;
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < WG; t++)
            bad += h[b * WG + t] != b * WG + (WG - 1 - t) + 1;
    printf("%s: %s (%d wrong)\n", name, bad ? "FAIL" : "correct", bad);
    return bad != 0;
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "both"; /* noinc, inc or both */
    const int blocks = 3;
    int h[WG * blocks], *d_src, *d_out;
    for (int i = 0; i < WG * blocks; i++)
        h[i] = i;
    cudaMalloc(&d_src, sizeof h);
    cudaMalloc(&d_out, sizeof h);
    cudaMemcpy(d_src, h, sizeof h, cudaMemcpyHostToDevice);
    int failed = 0;
    if (strcmp(which, "inc") != 0)
        failed |= run<false>("noinc", d_src, d_out, blocks);
    if (strcmp(which, "noinc") != 0)
        failed |= run<true>("inc", d_src, d_out, blocks);
    return failed;
}
