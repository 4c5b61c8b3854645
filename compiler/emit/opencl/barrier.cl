/* barrier.cl — SGC split (asynchronous) barriers for OpenCL C (docs/REFERENCE.md §7).
 *
 * A self-contained prelude section: the emitter pastes it into the output
 * when the unit uses async_barrier.  It needs nothing from other sections
 * except, optionally, SGC_TIER_NVPTX (the host's SGC_NV_PTX works as well).
 * The lowering of the SGC surface (docs/BARRIERS.md):
 *
 *   local async_barrier b[2]        __local sgc_async_barrier b[2]
 *   arrival_token                   sgc_arrival_token
 *   b[i].m(args)                    sgc_async_barrier_m(&b[i], args)
 *   async_barrier_max()             sgc_async_barrier_max()
 *   async_work_group_copy(d, s, n)  sgc_async_work_group_copy(d, s, n)
 *
 * Two implementations behind one interface:
 *
 * nvptx tier (NVIDIA OpenCL, host defines SGC_NV_PTX): the hardware mbarrier
 * through inline PTX, exactly as in barrier.cuh; tokens are the 64-bit state
 * that mbarrier.arrive returns; the copy uses cp.async.
 *
 * every other device: an emulation in local memory.  OpenCL promises no
 * forward progress between work-items of a work-group except at barrier(),
 * and CPU devices (PoCL, Intel) really do run a work-group as a loop over
 * work-items, so a wait that spins on another work-item's arrival never
 * returns there.  The emulated wait therefore *is* a work-group barrier: it
 * is correct whenever every work-item of the work-group executes each wait
 * in converged control flow (docs/BARRIERS.md lists the supported patterns).
 * A host that knows the device schedules work-items independently (NVIDIA
 * Volta or newer without the PTX tier) may define SGC_ASYNC_BARRIER_SPIN, and
 * then wait spins on the phase instead, so that subsets may wait.
 *
 * Emulated state, word 0: phase counter in bits 31..20, pending arrivals in
 * bits 19..0; word 1: the expected count of the phases to come (arrive_and_drop
 * lowers it).  Arrivals are one atomic_sub; the arrival that brings pending
 * to zero then adds (1 << 20) + expected in one atomic, which flips the phase
 * and reloads pending together, so no one can see a new phase with a stale
 * count.  A token is the phase counter at arrival. */

#define SGC_ASYNC_BARRIER_MAX_COUNT ((1u << 20) - 1u)

typedef struct sgc_async_barrier {
    uint sgc_word[2]; /* nvptx: the 64-bit mbarrier object; else see above */
} __attribute__((aligned(8))) sgc_async_barrier;

static inline ulong sgc_async_barrier_max(void)
{
    return SGC_ASYNC_BARRIER_MAX_COUNT;
}

/* Method form b.async_barrier_max(): the receiver plays no part. */
#define sgc_async_barrier_async_barrier_max(b) sgc_async_barrier_max()

/* The copy is a work-group function (all work-items, same arguments); each
 * work-item moves its share, and its arrive_copy_async* tracks that share. */
#define sgc_async_work_group_copy(dst, src, n)                                 \
    sgc_async_copy_bytes((__local uchar *)(dst), (__global const uchar *)(src), \
                         (uint)((n) * sizeof(*(dst))))

static inline uint sgc_async_linear_local_id(void)
{
    return (uint)(get_local_id(0) +
                  get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
}

static inline uint sgc_async_linear_local_size(void)
{
    return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

/* The widest chunk that dst, src and the length all allow. */
static inline uint sgc_async_copy_chunk(__local uchar *dst, __global const uchar *src, uint bytes)
{
    uint mix = (uint)(size_t)dst | (uint)(size_t)src | bytes;
    return (mix & 15u) == 0 ? 16u : (mix & 7u) == 0 ? 8u : (mix & 3u) == 0 ? 4u : 1u;
}

#if defined(SGC_TIER_NVPTX) || defined(SGC_NV_PTX)

typedef ulong sgc_arrival_token;

/* A __local pointer may reach us as a shared-window offset or as a generic
 * address depending on the driver; isspacep tells them apart.  Not volatile:
 * the answer depends on p alone, so the compiler may compute it once for
 * all the operations on one barrier (NVIDIA's OpenCL otherwise repeats the
 * test at each, 10 in bench/tiles.sgc's loop). */
static inline uint sgc_shared_addr(const __local void *p)
{
    uint r;
    __asm__("{ .reg .pred g; .reg .u64 a;\n\t"
                     "isspacep.shared g, %1;\n\t"
                     "@g cvta.to.shared.u64 a, %1;\n\t"
                     "@!g mov.u64 a, %1;\n\t"
                     "cvt.u32.u64 %0, a; }"
                     : "=r"(r) : "l"((ulong)(size_t)p));
    return r;
}

static inline void sgc_async_barrier_initialize(__local sgc_async_barrier *b, uint expected)
{
    __asm__ volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(sgc_shared_addr(b)), "r"(expected)
                     : "memory");
}

static inline void sgc_async_barrier_invalidate(__local sgc_async_barrier *b)
{
    __asm__ volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(sgc_shared_addr(b)) : "memory");
}

static inline sgc_arrival_token sgc_async_barrier_arrive(__local sgc_async_barrier *b)
{
    ulong state;
    __asm__ volatile("mbarrier.arrive.shared.b64 %0, [%1];"
                     : "=l"(state) : "r"(sgc_shared_addr(b)) : "memory");
    return state;
}

static inline sgc_arrival_token sgc_async_barrier_arrive_and_drop(__local sgc_async_barrier *b)
{
    ulong state;
    __asm__ volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];"
                     : "=l"(state) : "r"(sgc_shared_addr(b)) : "memory");
    return state;
}

static inline sgc_arrival_token sgc_async_barrier_arrive_no_complete(__local sgc_async_barrier *b,
                                                                     int count)
{
    ulong state;
    __asm__ volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], %2;"
                     : "=l"(state) : "r"(sgc_shared_addr(b)), "r"(count) : "memory");
    return state;
}

static inline sgc_arrival_token
sgc_async_barrier_arrive_and_drop_no_complete(__local sgc_async_barrier *b, int count)
{
    ulong state;
    __asm__ volatile("mbarrier.arrive_drop.noComplete.shared.b64 %0, [%1], %2;"
                     : "=l"(state) : "r"(sgc_shared_addr(b)), "r"(count) : "memory");
    return state;
}

/* The fence orders this work-item's plain stores (the 1-byte fallback of the
 * copy) before the arrival that the copy engine performs later. */
static inline void sgc_async_barrier_arrive_copy_async(__local sgc_async_barrier *b)
{
    __asm__ volatile("membar.cta;\n\tcp.async.mbarrier.arrive.shared.b64 [%0];"
                     ::"r"(sgc_shared_addr(b)) : "memory");
}

static inline void sgc_async_barrier_arrive_copy_async_no_inc(__local sgc_async_barrier *b)
{
    __asm__ volatile("membar.cta;\n\tcp.async.mbarrier.arrive.noinc.shared.b64 [%0];"
                     ::"r"(sgc_shared_addr(b)) : "memory");
}

static inline bool sgc_async_barrier_test_wait(__local sgc_async_barrier *b, sgc_arrival_token token)
{
    uint done;
    __asm__ volatile("{ .reg .pred p;\n\t"
                     "mbarrier.test_wait.shared.b64 p, [%1], %2;\n\t"
                     "selp.b32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(sgc_shared_addr(b)), "l"(token) : "memory");
    return done != 0;
}

/* sm_90 has try_wait, which parks the thread for a while in hardware instead
 * of burning issue slots (as barrier.cuh does); before it, test_wait polls.
 * Measured on the H100: bench/tiles.sgc's split tiles on NVIDIA OpenCL
 * polled at 0.82x of the hand-written CUDA (bench/RESULTS.md). */
static inline void sgc_async_barrier_wait(__local sgc_async_barrier *b, sgc_arrival_token token)
{
#if defined(SGC_NV_SM) && SGC_NV_SM >= 90
    uint done;
    do {
        __asm__ volatile("{ .reg .pred p;\n\t"
                         "mbarrier.try_wait.shared.b64 p, [%1], %2;\n\t"
                         "selp.b32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(sgc_shared_addr(b)), "l"(token) : "memory");
    } while (!done);
#else
    while (!sgc_async_barrier_test_wait(b, token))
        ;
#endif
}

static inline void sgc_async_copy_bytes(__local uchar *dst, __global const uchar *src, uint bytes)
{
    uint chunk = sgc_async_copy_chunk(dst, src, bytes);
    uint step = sgc_async_linear_local_size() * chunk;
    uint dst_addr = sgc_shared_addr(dst);
    for (uint i = sgc_async_linear_local_id() * chunk; i < bytes; i += step) {
        if (chunk == 16)
            __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16;"
                             ::"r"(dst_addr + i), "l"((ulong)(size_t)(src + i)) : "memory");
        else if (chunk == 8)
            __asm__ volatile("cp.async.ca.shared.global [%0], [%1], 8;"
                             ::"r"(dst_addr + i), "l"((ulong)(size_t)(src + i)) : "memory");
        else if (chunk == 4)
            __asm__ volatile("cp.async.ca.shared.global [%0], [%1], 4;"
                             ::"r"(dst_addr + i), "l"((ulong)(size_t)(src + i)) : "memory");
        else
            dst[i] = src[i];
    }
}

#else /* emulation in local memory */

typedef uint sgc_arrival_token;

#define SGC_ASYNC_PHASE_SHIFT 20
#define SGC_ASYNC_PENDING_MASK SGC_ASYNC_BARRIER_MAX_COUNT

static inline void sgc_async_barrier_initialize(__local sgc_async_barrier *b, uint expected)
{
    b->sgc_word[0] = expected; /* phase 0, all arrivals pending */
    b->sgc_word[1] = expected;
}

static inline void sgc_async_barrier_invalidate(__local sgc_async_barrier *b)
{
    b->sgc_word[0] = 0;
    b->sgc_word[1] = 0;
}

/* An atomic read (OpenCL C 1.2 has no atomic load): a plain volatile load
 * racing with the arrivals' atomic_sub is a data race (Oclgrind reports it). */
static inline uint sgc_async_barrier_phase(__local sgc_async_barrier *b)
{
    return atomic_or((volatile __local uint *)b->sgc_word, 0u) >> SGC_ASYNC_PHASE_SHIFT;
}

/* count arrivals at once; drop of them also leave the phases to come. */
static inline sgc_arrival_token sgc_async_barrier_arrive_n(__local sgc_async_barrier *b, uint count,
                                                           uint drop)
{
    volatile __local uint *word = b->sgc_word;
    mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); /* release what we wrote */
    if (drop)
        atomic_sub(&word[1], drop);
    uint old = atomic_sub(&word[0], count);
    if ((old & SGC_ASYNC_PENDING_MASK) == count)
        atomic_add(&word[0], (1u << SGC_ASYNC_PHASE_SHIFT) + atomic_add(&word[1], 0u));
    return old >> SGC_ASYNC_PHASE_SHIFT;
}

static inline sgc_arrival_token sgc_async_barrier_arrive(__local sgc_async_barrier *b)
{
    return sgc_async_barrier_arrive_n(b, 1, 0);
}

static inline sgc_arrival_token sgc_async_barrier_arrive_and_drop(__local sgc_async_barrier *b)
{
    return sgc_async_barrier_arrive_n(b, 1, 1);
}

static inline sgc_arrival_token sgc_async_barrier_arrive_no_complete(__local sgc_async_barrier *b,
                                                                     int count)
{
    return sgc_async_barrier_arrive_n(b, (uint)count, 0);
}

static inline sgc_arrival_token
sgc_async_barrier_arrive_and_drop_no_complete(__local sgc_async_barrier *b, int count)
{
    return sgc_async_barrier_arrive_n(b, (uint)count, (uint)count);
}

/* The emulated copy has finished by the time the work-item gets here (see
 * sgc_async_copy_bytes), so "arrive when my copies are done" is "arrive now";
 * the counted variant adds one pending arrival first, which cancels out. */
static inline void sgc_async_barrier_arrive_copy_async(__local sgc_async_barrier *b)
{
    (void)b;
}

static inline void sgc_async_barrier_arrive_copy_async_no_inc(__local sgc_async_barrier *b)
{
    (void)sgc_async_barrier_arrive_n(b, 1, 0);
}

static inline bool sgc_async_barrier_test_wait(__local sgc_async_barrier *b, sgc_arrival_token token)
{
    return sgc_async_barrier_phase(b) != token;
}

#ifdef SGC_ASYNC_BARRIER_SPIN
static inline void sgc_async_barrier_wait(__local sgc_async_barrier *b, sgc_arrival_token token)
{
    while (sgc_async_barrier_phase(b) == token)
        ;
    mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); /* acquire the arrivers' writes */
}
#else
/* Every arrival of the phase precedes some work-item's wait in converged
 * code, so once all work-items are past this barrier the phase is complete
 * and the arrivers' writes are visible. */
static inline void sgc_async_barrier_wait(__local sgc_async_barrier *b, sgc_arrival_token token)
{
    (void)b;
    (void)token;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
#endif

/* A plain cooperative copy: CPU devices have no copy engine to overlap with,
 * and a synchronous share keeps arrive_copy_async trivially correct. */
static inline void sgc_async_copy_bytes(__local uchar *dst, __global const uchar *src, uint bytes)
{
    uint chunk = sgc_async_copy_chunk(dst, src, bytes);
    uint n = bytes / chunk;
    uint lid = sgc_async_linear_local_id(), lsize = sgc_async_linear_local_size();
    for (uint i = lid; i < n; i += lsize) {
        if (chunk == 16)
            ((__local uint4 *)dst)[i] = ((__global const uint4 *)src)[i];
        else if (chunk == 8)
            ((__local uint2 *)dst)[i] = ((__global const uint2 *)src)[i];
        else if (chunk == 4)
            ((__local uint *)dst)[i] = ((__global const uint *)src)[i];
        else
            dst[i] = src[i];
    }
}

#endif

static inline void sgc_async_barrier_arrive_and_wait(__local sgc_async_barrier *b)
{
    sgc_async_barrier_wait(b, sgc_async_barrier_arrive(b));
}
