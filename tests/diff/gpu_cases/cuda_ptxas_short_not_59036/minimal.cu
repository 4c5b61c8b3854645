// cuda_ptxas_short_not_59036 in plain CUDA (no sgcc): on the path where x == 0,
// g = (short)x is 0, so (short)(~g & -2) is -2 and every lane should store -2.
// The inline PTX conversion only keeps NVVM from folding g itself, as the
// generated kernel's code did; ptxas sees through it.  NVVM's PTX is right
// (not.b16, and.b16 -2, cvt.s64.s16); ptxas (CUDA 13.0, sm_90, its default
// -O3) stores 0.  With -Xptxas -O0 every lane stores -2.
// Build: nvcc -arch=sm_90 -o m minimal.cu && ./m   (exit 1 when wrong)
#include <cstdio>
__global__ void k(const int *in, long long *out)
{
    unsigned t = threadIdx.x;
    int x = in[t];
    short g;
    asm("cvt.u16.u32 %0, %1;" : "=h"(g) : "r"(x));
    if (x == 0)
        out[t] = (short)(~g & -2);
}
int main()
{
    int h[32];
    for (int i = 0; i < 32; i++)
        h[i] = 0;
    int *din;
    long long *dout, out[32];
    cudaMalloc(&din, sizeof h);
    cudaMalloc(&dout, sizeof out);
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    k<<<1, 32>>>(din, dout);
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    printf("lane 0: %lld, lane 31: %lld (expected -2)\n", out[0], out[31]);
    return out[0] != -2 || out[31] != -2;
}
