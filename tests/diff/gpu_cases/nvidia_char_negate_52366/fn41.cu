// fn41 as sgcc printed it for seed 52366 (CUDA output), with what it needs
#include <cstdio>
template <class T> static __device__ __forceinline__ T sgc_literal(T value) { return value; }
union Un7 {
    unsigned int u;
    long long l;
    int i;
    unsigned char c;
    short s;
};
static __device__ unsigned long long mix(unsigned long long h, unsigned long long v) {
#line 41 "s52366.sgc"
    return (h ^ v) * 0x100000001b3ULL + (v >> 7);
}
static __device__ int safe_neg_int(int a) {
#line 55 "s52366.sgc"
    return a == -2147483647 - 1 ? a : -a;
}
enum En5 {
    En5_0 = 0,
    En5_1
};
static __device__ int safe_shl_int(int a, unsigned long long b) {
#line 56 "s52366.sgc"
    return a < 0 || b >= 32u || a > 2147483647 >> b ? a : a << b;
}

static __device__ short fn41(char p42) {

    unsigned long long acc = 1;
    {
        if ((int)"sgc\t\"q\\Z"[3 & 7]) {
            goto skip43;
        }
        unsigned int gx44;
        gx44 = p42;
        long long a45[4];
        {
            long long sgc_init[4] = {0LL};
            memcpy(a45, sgc_init, sizeof sgc_init);
        }
        int i46;
        for (i46 = 0; i46 < 4; i46++) {
            a45[i46 & 3] = gx44 < 1LL ? p42 == i46 : (char)127;
        }
        unsigned int ev47;
        ev47 = En5_1;
        ev47 = safe_shl_int(gx44 || gx44, -gx44) & 7;
        ev47 ^= 2;
        acc = mix(acc, (unsigned long long)(ev47 * 3 + En5_0));
        acc = mix(acc, (unsigned long long)(ev47 == En5_0));
        acc = mix(acc, (unsigned long long)gx44);
    skip43:
        ;
        acc = mix(acc, 3ULL);
    }
    p42 = safe_neg_int(p42);
    union Un7 un48 = {(unsigned int)1LL};
    acc = mix(acc, (unsigned long long)un48.u);
    acc = mix(acc, (unsigned long long)sgc_literal<union Un7>([&] { union Un7 sgc_union = {}; sgc_union.s = (short)p42; return sgc_union; }()).s);
    return (short)(safe_neg_int((unsigned char)0 & (unsigned short)2) ^ (short)acc);
}

__global__ void k(const int *in, short *out) { out[threadIdx.x] = fn41((char)in[threadIdx.x]); }
int main()
{
    int h[32];
    for (int i = 0; i < 32; i++)
        h[i] = i - 128; /* (char) -128 .. -97 */
    int *din;
    short *dout, out[32];
    cudaMalloc(&din, sizeof h);
    cudaMalloc(&dout, sizeof out);
    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
    k<<<1, 32>>>(din, dout);
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    printf("fn41(-128) = %#hx (gcc: 0x56fe), fn41(-127) = %#hx\n", (unsigned short)out[0], (unsigned short)out[1]);
    return 0;
}
