// nvidia_char_negate_52366 in plain CUDA (no sgcc): a char negated through
// an int function and stored back into the char.  For -128 the int result
// 128 converts to char -128 (modulo 2^8, as gcc and nvcc define it), so
// every line should print -128.  Build: nvcc -arch=sm_90 -o m minimal.cu
#include <cstdio>
__device__ __noinline__ int safe_neg_int(int a) { return a == (-2147483647 - 1) ? a : -a; }
__device__ __forceinline__ int safe_neg_inline(int a) { return a == (-2147483647 - 1) ? a : -a; }
__global__ void k(const int *in, long long *out)
{
    char p = (char)in[threadIdx.x];
    p = safe_neg_inline(p);
    out[threadIdx.x] = (long long)(short)p;
    char q = (char)in[threadIdx.x];
    q = safe_neg_int(q);
    out[32 + threadIdx.x] = (long long)(short)q;
}
int main()
{
    int h[32];
    for (int i = 0; i < 32; i++)
        h[i] = -128 + 65536 * i; // (char) of each is -128
    int *din;
    long long *dout, out[64];
    cudaMalloc(&din, sizeof h);
    cudaMalloc(&dout, sizeof out);
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    k<<<1, 32>>>(din, dout);
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    printf("inlined: %lld (lane 0) %lld (lane 31); call: %lld %lld\n", out[0], out[31], out[32], out[63]);
    return 0;
}
