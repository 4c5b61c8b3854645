/* cuda_base.cuh — prelude section "cuda_base": SGC group values for CUDA C
 * (docs/REFERENCE.md §6, docs/LOWERING.md): the group types, their constructors and members, the
 * operator function objects and the warp primitives the algorithm sections
 * use.  Every other CUDA group section needs this one first.
 *
 * The sub-group is the warp of 32 (consecutive linear thread ids).  Every
 * sub-group-scope group carries an explicit 32-bit lane mask: ballot groups
 * come from __ballot_sync on the parent's mask, fixed-size groups are the
 * aligned block of N lanes, opportunistic groups __activemask(), and tangle
 * groups a mask the compiler maintains through control flow (never
 * __activemask(), which is no tangle under independent thread scheduling).
 * Local ids are ranks in the mask.  No #include: NVRTC compiles it as is.
 * Names mirror SGC's inside namespace sgc (docs/GROUPS.md). */

namespace sgc {

/* ---- work-item linearisation ---- */

__device__ __forceinline__ unsigned linear_local_id()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ __forceinline__ unsigned linear_local_size()
{
    return blockDim.x * blockDim.y * blockDim.z;
}

__device__ __forceinline__ unsigned lane() { return linear_local_id() & 31u; }
__device__ __forceinline__ unsigned sub_group_id() { return linear_local_id() >> 5; }
__device__ __forceinline__ unsigned num_sub_groups() { return (linear_local_size() + 31u) >> 5; }

__device__ __forceinline__ unsigned sub_group_size()
{
    unsigned rest = linear_local_size() - (sub_group_id() << 5);
    return rest < 32u ? rest : 32u;
}

/* Lanes of the caller's warp that exist (the last warp may be partial). */
__device__ __forceinline__ unsigned sub_group_mask()
{
    unsigned n = sub_group_size();
    return n == 32u ? 0xffffffffu : (1u << n) - 1u;
}

/* ---- masks ---- */

__device__ __forceinline__ unsigned rank_in(unsigned mask, unsigned l)
{
    return __popc(mask & ((1u << l) - 1u));
}

__device__ __forceinline__ unsigned last_lane(unsigned mask) { return 31u - __clz(mask); }

/* Lane of the k-th member (k < popcount(mask)): contiguous masks (sub-groups,
 * fixed-size groups) by addition, others by popcount bisection. */
__device__ __forceinline__ unsigned lane_of_rank(unsigned mask, unsigned k)
{
    unsigned first = __ffs(mask) - 1u;
    unsigned run = mask >> first;
    if ((run & (run + 1u)) == 0u)
        return first + k;
    unsigned base = 0;
    for (unsigned width = 16; width > 0; width >>= 1) {
        unsigned low = __popc(mask & ((1u << width) - 1u));
        if (k >= low) {
            k -= low;
            mask >>= width;
            base += width;
        }
    }
    return base;
}

/* Shuffle any scalar of up to 8 bytes; narrower types travel as int. */
template <class T>
__device__ __forceinline__ T shfl(T x, unsigned src, unsigned mask)
{
    if constexpr (sizeof(T) < 4)
        return (T)__shfl_sync(mask, (int)x, (int)src);
    else
        return __shfl_sync(mask, x, (int)src);
}

/* The value of lane (this lane - d) within aligned segments of `width`
 * lanes, or the caller's own when that lane lies in an earlier segment: as
 * shfl(x, r >= d ? lane() - d : lane(), mask) with r the rank in the
 * segment, but as shfl.up, with no source-lane arithmetic per round (what
 * cooperative groups' scans compile to). */
template <class T>
__device__ __forceinline__ T shfl_up(T x, unsigned d, unsigned width, unsigned mask)
{
    if constexpr (sizeof(T) < 4)
        return (T)__shfl_up_sync(mask, (int)x, d, (int)width);
    else
        return __shfl_up_sync(mask, x, d, (int)width);
}

/* ---- group values ---- */

/* A sub-group-scope group: sub_group, ballot, fixed-size, tangle or
 * opportunistic.  The members are the SGC methods. */
struct group {
    unsigned mask;  /* members: bit i = lane i of the warp */
    unsigned id;    /* get_group_linear_id() */
    unsigned range; /* get_group_linear_range() */
    unsigned size;  /* N of a fixed-size group, 32 for the sub-group, else 0:
                       a constant after inlining, for the aligned-block paths */
    bool whole_at_creation; /* fixed-size and ballot groups: all 32 lanes made it */
    bool creators_call;     /* set by with_creators only: every lane that made
                               the group runs this call (the compiler proved it),
                               so whole_at_creation holds here too */
    unsigned pair;          /* ballot groups: the parent's mask, both
                               partitions together; 0 for other kinds (a
                               constant after inlining) */

    __device__ unsigned get_group_linear_id() const { return id; }
    __device__ unsigned get_group_linear_range() const { return range; }
    __device__ unsigned get_local_linear_id() const { return rank_in(mask, lane()); }
    __device__ unsigned get_local_linear_range() const { return __popc(mask); }
    __device__ bool leader() const { return get_local_linear_id() == 0; }
};

struct work_group {
    __device__ unsigned get_group_linear_id() const
    {
        return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    }
    __device__ unsigned get_group_linear_range() const { return gridDim.x * gridDim.y * gridDim.z; }
    __device__ unsigned get_local_linear_id() const { return linear_local_id(); }
    __device__ unsigned get_local_linear_range() const { return linear_local_size(); }
    __device__ bool leader() const { return linear_local_id() == 0; }
};

__device__ __forceinline__ group make_group(unsigned mask, unsigned id, unsigned range,
                                            unsigned size = 0u)
{
    group g;
    g.mask = mask;
    g.id = id;
    g.range = range;
    g.size = size;
    g.whole_at_creation = false;
    g.creators_call = false;
    g.pair = 0u;
    return g;
}

/* The group as passed by sgcc to an algorithm every lane that made the
 * group calls (docs/GROUPS.md "Creation facts"). */
__device__ __forceinline__ group with_creators(group g)
{
    g.creators_call = true;
    return g;
}

/* ---- constructors (docs/REFERENCE.md §6) ---- */

__device__ __forceinline__ work_group get_work_group() { return work_group(); }

__device__ __forceinline__ group get_sub_group()
{
    return make_group(sub_group_mask(), sub_group_id(), num_sub_groups(), 32u);
}

/* The sub-group in a kernel whose required work-group size is a multiple
 * of 32 (sgcc emits this one there): every warp is full, so the mask is the
 * constant, which ptxas needs no convergence test for. */
__device__ __forceinline__ group get_sub_group_of_full_warps()
{
    return make_group(0xffffffffu, sub_group_id(), num_sub_groups(), 32u);
}

/* The compiler's tool for tangle masks too: the members of parent_mask whose
 * predicate holds. */
__device__ __forceinline__ unsigned ballot(unsigned parent_mask, bool pred)
{
    return __ballot_sync(parent_mask, pred);
}

/* Group 0 is the true partition; the ballot synchronises the parent. */
__device__ __forceinline__ group get_ballot_group(group parent, bool pred)
{
    unsigned yes = __ballot_sync(parent.mask, pred);
    group g = make_group(pred ? yes : parent.mask & ~yes, pred ? 0u : 1u, 2u);
    g.pair = parent.mask;
    /* The ballot needed every lane of the parent: a whole-warp parent
     * means the whole warp made g. */
    g.whole_at_creation = parent.mask == 0xffffffffu;
    return g;
}

/* The aligned block of n lanes holding the caller (n a power of two). */
__device__ __forceinline__ group get_fixed_size_group(group parent, unsigned n)
{
    unsigned l = lane();
    unsigned block = n >= 32u ? 0xffffffffu : ((1u << n) - 1u) << (l & ~(n - 1u));
    group g = make_group(parent.mask & block, l / n, (sub_group_size() + n - 1u) / n, n);
    g.whole_at_creation = __activemask() == 0xffffffffu;
    return g;
}

template <unsigned N>
__device__ __forceinline__ group get_fixed_size_group(group parent)
{
    static_assert(N != 0 && (N & (N - 1)) == 0 && N <= 32,
                  "sgc: fixed_size_group<N>: N must be a power of two, at most the sub-group size, 32 (a CUDA warp)");
    return get_fixed_size_group(parent, N);
}

__device__ __forceinline__ group get_tangle_group(group parent, unsigned tangle_mask)
{
    return make_group(parent.mask & tangle_mask, 0u, 1u);
}

__device__ __forceinline__ group get_opportunistic_group()
{
    return make_group(__activemask(), 0u, 1u);
}

__device__ __forceinline__ void group_barrier(group g) { __syncwarp(g.mask); }
__device__ __forceinline__ void group_barrier(work_group) { __syncthreads(); }

/* ---- operators (docs/REFERENCE.md §6): apply, identity, and input normalisation ---- */

/* Largest and lowest values; floating types use the infinities. */
template <class T> struct limits;
#define SGC_LIMITS(T, hi, lo)                                              \
    template <> struct limits<T> {                                         \
        static __device__ __forceinline__ T max() { return hi; }           \
        static __device__ __forceinline__ T lowest() { return lo; }        \
    };
/* Plain char has the host's signedness (CUDA follows the host compiler). */
SGC_LIMITS(char, (char)((char)-1 < (char)0 ? 0x7f : 0xff), (char)((char)-1 < (char)0 ? -0x80 : 0))
SGC_LIMITS(signed char, (signed char)0x7f, (signed char)-0x80)
SGC_LIMITS(unsigned char, (unsigned char)0xffu, (unsigned char)0u)
SGC_LIMITS(short, (short)0x7fff, (short)-0x8000)
SGC_LIMITS(unsigned short, (unsigned short)0xffffu, (unsigned short)0u)
SGC_LIMITS(int, 0x7fffffff, (int)0x80000000u)
SGC_LIMITS(unsigned, 0xffffffffu, 0u)
SGC_LIMITS(long long, 0x7fffffffffffffffll, (long long)0x8000000000000000ull)
SGC_LIMITS(unsigned long long, 0xffffffffffffffffull, 0ull)
SGC_LIMITS(float, __int_as_float(0x7f800000), __int_as_float((int)0xff800000u))
SGC_LIMITS(double, __longlong_as_double(0x7ff0000000000000ll),
           __longlong_as_double((long long)0xfff0000000000000ull))
#undef SGC_LIMITS

/* The type an operator computes in on T: T, except that the small integer
 * types (char, short and their kin) take unsigned for the operators that
 * may leave their range (the non-idempotent ones: plus, multiplies,
 * bit_xor), which wrap there with no overflow (C++ would promote to int,
 * where 65535 * 65535 overflows); the result converts back to T, which
 * keeps it modulo 2^8 or 2^16: each step is T(a op b) (docs/REFERENCE.md
 * "Group algorithms and operators").  The idempotent ones never leave T's
 * range and compute as C++ promotes. */
template <class T, bool Idempotent> struct compute_in { using type = T; };
template <> struct compute_in<char, false> { using type = unsigned; };
template <> struct compute_in<signed char, false> { using type = unsigned; };
template <> struct compute_in<unsigned char, false> { using type = unsigned; };
template <> struct compute_in<short, false> { using type = unsigned; };
template <> struct compute_in<unsigned short, false> { using type = unsigned; };

/* `in` normalises an input: logical operators work on truth values, so
 * their results are 0/1 whatever the group size. */
#define SGC_OPERATOR(name, expr, ident, idem)                              \
    struct name {                                                          \
        static constexpr bool idempotent = idem; /* a op a == a */        \
        static constexpr bool logical = false;                             \
        template <class W> static __device__ W apply(W a, W b) { return expr; } \
        template <class T> __device__ T operator()(T a, T b) const         \
        {                                                                  \
            using W = typename compute_in<T, idem>::type;                  \
            return T(apply<W>(W(a), W(b)));                                \
        }                                                                  \
        template <class T> static __device__ T identity() { return ident; } \
        template <class T> static __device__ T in(T x) { return x; }       \
    };
#include "group_ops_cuda.inc"
#undef SGC_OPERATOR
#define SGC_LOGICAL(name, expr, ident)                                     \
    struct name {                                                          \
        static constexpr bool idempotent = true;                           \
        static constexpr bool logical = true;                              \
        /* identity true: every member must be true (logical_and); */     \
        /* false: any member true is enough (logical_or) */                \
        static constexpr bool every = (ident) != 0;                        \
        template <class T> __device__ T operator()(T a, T b) const { return T(expr); } \
        template <class T> static __device__ T identity() { return T(ident); } \
        template <class T> static __device__ T in(T x) { return T(x != T(0)); } \
    };
#include "group_ops_cuda_logical.inc"
#undef SGC_LOGICAL

} /* namespace sgc */
