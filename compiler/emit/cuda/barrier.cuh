/* barrier.cuh — SGC split (asynchronous) barriers for CUDA C (docs/REFERENCE.md §7).
 *
 * A self-contained prelude section, pasted by the emitter when the unit uses
 * async_barrier; it includes no header, so the output still compiles with
 * NVRTC without include paths.  The lowering (docs/BARRIERS.md):
 *
 *   local async_barrier b[2]        __shared__ sgc_async_barrier b[2]
 *   arrival_token                   sgc_arrival_token
 *   b[i].m(args)                    sgc_async_barrier_m(&b[i], args)
 *   async_barrier_max()             sgc_async_barrier_max()
 *   async_work_group_copy(d, s, n)  sgc_async_work_group_copy(d, s, n)
 *
 * The barrier is the hardware mbarrier (PTX ISA 7.0, sm_80): a 64-bit object
 * in shared memory that counts pending and expected arrivals and a phase.
 * Arrivals release and waits acquire at CTA scope (the PTX defaults), so data
 * written before arrive() is visible after wait().  A token is the 64-bit
 * state that mbarrier.arrive returns; test_wait with it is true once that
 * phase has completed, so a token of the previous phase never blocks.
 * async_work_group_copy issues cp.async per thread for its share, and
 * cp.async.mbarrier.arrive(.noinc) makes the barrier track that share. */

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "split barriers need sm_80 or newer"
#endif

#define SGC_ASYNC_BARRIER_MAX_COUNT ((1u << 20) - 1u)

struct __align__(8) sgc_async_barrier {
    unsigned long long sgc_state; /* the mbarrier object; opaque */
};

typedef unsigned long long sgc_arrival_token;

__device__ __forceinline__ unsigned long long sgc_async_barrier_max(void)
{
    return SGC_ASYNC_BARRIER_MAX_COUNT;
}

/* Method form b.async_barrier_max(): the receiver plays no part. */
#define sgc_async_barrier_async_barrier_max(b) sgc_async_barrier_max()

__device__ __forceinline__ unsigned sgc_shared_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void sgc_async_barrier_initialize(sgc_async_barrier *b,
                                                                    unsigned expected)
{
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(sgc_shared_addr(b)), "r"(expected)
                 : "memory");
}

__device__ __forceinline__ void sgc_async_barrier_invalidate(sgc_async_barrier *b)
{
    asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(sgc_shared_addr(b)) : "memory");
}

__device__ __forceinline__ sgc_arrival_token sgc_async_barrier_arrive(sgc_async_barrier *b)
{
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];"
                 : "=l"(state) : "r"(sgc_shared_addr(b)) : "memory");
    return state;
}

__device__ __forceinline__ sgc_arrival_token
sgc_async_barrier_arrive_and_drop(sgc_async_barrier *b)
{
    unsigned long long state;
    asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];"
                 : "=l"(state) : "r"(sgc_shared_addr(b)) : "memory");
    return state;
}

/* count must leave the phase incomplete (undefined otherwise, as in PTX). */
__device__ __forceinline__ sgc_arrival_token
sgc_async_barrier_arrive_no_complete(sgc_async_barrier *b, int count)
{
    unsigned long long state;
    asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], %2;"
                 : "=l"(state) : "r"(sgc_shared_addr(b)), "r"(count) : "memory");
    return state;
}

__device__ __forceinline__ sgc_arrival_token
sgc_async_barrier_arrive_and_drop_no_complete(sgc_async_barrier *b, int count)
{
    unsigned long long state;
    asm volatile("mbarrier.arrive_drop.noComplete.shared.b64 %0, [%1], %2;"
                 : "=l"(state) : "r"(sgc_shared_addr(b)), "r"(count) : "memory");
    return state;
}

/* The arrival happens when this thread's earlier cp.async copies land.  The
 * fence first orders its plain stores (the byte fallback of the copy) before
 * that later, asynchronous arrival. */
__device__ __forceinline__ void sgc_async_barrier_arrive_copy_async(sgc_async_barrier *b)
{
    asm volatile("membar.cta;\n\tcp.async.mbarrier.arrive.shared.b64 [%0];"
                 ::"r"(sgc_shared_addr(b)) : "memory");
}

__device__ __forceinline__ void
sgc_async_barrier_arrive_copy_async_no_inc(sgc_async_barrier *b)
{
    asm volatile("membar.cta;\n\tcp.async.mbarrier.arrive.noinc.shared.b64 [%0];"
                 ::"r"(sgc_shared_addr(b)) : "memory");
}

__device__ __forceinline__ bool sgc_async_barrier_test_wait(sgc_async_barrier *b,
                                                                   sgc_arrival_token token)
{
    unsigned done;
    asm volatile("{ .reg .pred p;\n\t"
                 "mbarrier.test_wait.shared.b64 p, [%1], %2;\n\t"
                 "selp.b32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(sgc_shared_addr(b)), "l"(token) : "memory");
    return done != 0;
}

/* sm_90 has try_wait, which parks the thread for a while in hardware instead
 * of burning issue slots; sm_80 polls test_wait. */
__device__ __forceinline__ void sgc_async_barrier_wait(sgc_async_barrier *b,
                                                              sgc_arrival_token token)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    unsigned done;
    do {
        asm volatile("{ .reg .pred p;\n\t"
                     "mbarrier.try_wait.shared.b64 p, [%1], %2;\n\t"
                     "selp.b32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(sgc_shared_addr(b)), "l"(token) : "memory");
    } while (!done);
#else
    while (!sgc_async_barrier_test_wait(b, token))
        ;
#endif
}

__device__ __forceinline__ void sgc_async_barrier_arrive_and_wait(sgc_async_barrier *b)
{
    sgc_async_barrier_wait(b, sgc_async_barrier_arrive(b));
}

/* The copy is a work-group function (all threads, same arguments); each
 * thread issues its share with the widest cp.async that the alignment of
 * dst, src and the length allows (16 bytes bypass L1), bytes one by one when
 * nothing does. */
#define sgc_async_work_group_copy(dst, src, n)                                              \
    sgc_async_copy_bytes((void *)(dst), (const void *)(src), (unsigned)((n) * sizeof(*(dst))))

__device__ __forceinline__ void sgc_async_copy_bytes(void *dst, const void *src,
                                                            unsigned bytes)
{
    unsigned dst_addr = sgc_shared_addr(dst);
    const unsigned char *s = (const unsigned char *)src;
    unsigned mix = dst_addr | (unsigned)(unsigned long long)s | bytes;
    unsigned chunk = (mix & 15u) == 0 ? 16u : (mix & 7u) == 0 ? 8u : (mix & 3u) == 0 ? 4u : 1u;
    unsigned lid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned step = blockDim.x * blockDim.y * blockDim.z * chunk;
    for (unsigned i = lid * chunk; i < bytes; i += step) {
        unsigned long long g = (unsigned long long)__cvta_generic_to_global(s + i);
        if (chunk == 16)
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst_addr + i), "l"(g)
                         : "memory");
        else if (chunk == 8)
            asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(dst_addr + i), "l"(g)
                         : "memory");
        else if (chunk == 4)
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst_addr + i), "l"(g)
                         : "memory");
        else
            ((unsigned char *)dst)[i] = s[i];
    }
}
