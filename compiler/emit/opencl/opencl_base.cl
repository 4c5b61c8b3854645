/* opencl_base.cl — prelude section "opencl_base": the capability tier, the
 * group value types, their constructors and members (docs/REFERENCE.md §6, docs/LOWERING.md), and the
 * sub-group primitives (lane, ballot, shuffle) that the algorithm sections are
 * written on.  Every other OpenCL section needs this one first.
 *
 * Design (docs/GROUPS.md): a sub-group-scope group (sub_group, ballot,
 * fixed-size, tangle, opportunistic) is one value type, sgc_group, carrying a
 * 64-bit lane mask of its members plus its kind; the kind is a constant after
 * inlining, so the kind dispatch in the algorithms folds away.  Local ids are
 * ranks in the mask, so non-contiguous groups need no special casing.  OpenCL
 * C 1.2 has no overloading: functions are suffixed by type (and operator),
 * generated from the X-macro lists below. */

/* The tier block of docs/DESIGN.md; SGC_FORCE_TIER_WG (tests) pretends the
 * device has no sub-groups. */
#if defined(SGC_NV_PTX)
#define SGC_TIER_NVPTX 1
#elif (defined(cl_khr_subgroups) || defined(__opencl_c_subgroups) || defined(cl_intel_subgroups)) && \
    !defined(SGC_FORCE_TIER_WG)
#define SGC_TIER_KHR 1
#else
#define SGC_TIER_WG 1
#endif

/* The library's functions.  C99 `inline` alone gives no external
 * definition, so a device compiler that does not inline cannot link the
 * calls (NVIDIA's OpenCL at -cl-opt-disable: "Unresolved extern
 * function"); `static inline` can.  Only the nvptx tier takes `static`:
 * PoCL 3.1 computes wrong work-group collectives when their functions have
 * internal linkage (tests groups-pocl), and the CPU tiers keep the form
 * they are validated with.  (barrier.cl's functions are static on every
 * tier, as they always were.) */
#if defined(SGC_TIER_NVPTX)
#define SGC_INLINE static inline
#else
#define SGC_INLINE inline
#endif

/* Extensions are used where the device compiler defines them (their
 * built-ins need no pragma); a host may
 * switch one off with -DSGC_NO_<name> (the tests force each emulation so).
 * SGC_FORCE_GENERIC keeps only ballot + shuffle: every algorithm then runs
 * the mask-based code that the nvptx tier and the CUDA prelude use too. */
#ifdef SGC_FORCE_GENERIC
#define SGC_NO_KHR_SHUFFLE_RELATIVE 1
#define SGC_NO_KHR_NON_UNIFORM_ARITHMETIC 1
#define SGC_NO_KHR_NON_UNIFORM_VOTE 1
#define SGC_NO_KHR_CLUSTERED_REDUCE 1
#define SGC_NO_CORE_SUBGROUP_ALGORITHMS 1
#define SGC_NO_WG_COLLECTIVES 1
#endif
#if defined(SGC_TIER_KHR) && !defined(SGC_NO_CORE_SUBGROUP_ALGORITHMS)
#define SGC_HAS_CORE_ALGORITHMS 1 /* sub_group_reduce/scan_add/min/max, any, all */
#endif
/* Intel defines the feature macro in OpenCL C 1.2 mode too, without the
 * built-ins: the version is checked as well. */
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200 && \
    (defined(__opencl_c_work_group_collective_functions) || __OPENCL_C_VERSION__ == 200) && \
    !defined(SGC_NO_WG_COLLECTIVES)
#define SGC_HAS_WG_COLLECTIVES 1 /* work_group_reduce/scan_add/min/max, any, all */
#endif
#if defined(SGC_TIER_KHR)
#ifdef cl_khr_subgroups
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif
#if defined(cl_khr_subgroup_ballot) && !defined(SGC_NO_KHR_BALLOT)
#define SGC_HAS_BALLOT 1
#endif
#if defined(cl_khr_subgroup_shuffle) && !defined(SGC_NO_KHR_SHUFFLE)
#define SGC_HAS_SHUFFLE 1
#endif
#if defined(cl_khr_subgroup_shuffle_relative) && !defined(SGC_NO_KHR_SHUFFLE_RELATIVE)
#define SGC_HAS_SHUFFLE_RELATIVE 1
#endif
#if defined(cl_khr_subgroup_non_uniform_arithmetic) && !defined(SGC_NO_KHR_NON_UNIFORM_ARITHMETIC)
#define SGC_HAS_NU_ARITHMETIC 1
#endif
#if defined(cl_khr_subgroup_non_uniform_vote) && !defined(SGC_NO_KHR_NON_UNIFORM_VOTE)
#define SGC_HAS_NU_VOTE 1
#endif
#if defined(cl_khr_subgroup_clustered_reduce) && !defined(SGC_NO_KHR_CLUSTERED_REDUCE)
#define SGC_HAS_CLUSTERED_REDUCE 1
#endif
#if !defined(SGC_HAS_SHUFFLE) && !(defined(cl_intel_subgroups) && !defined(SGC_NO_INTEL_SUBGROUPS))
#error "sgc: sub-group algorithms need cl_khr_subgroup_shuffle or cl_intel_subgroups, not supported on this device"
#endif
#endif /* SGC_TIER_KHR */

#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define SGC_HAS_FP64 1
#endif

/* Element types of the algorithms: SGC_TYPES_ARITH(X) lists X(T) for the
 * types of reductions and scans, SGC_TYPES_SMALL the extra types that
 * broadcast/shift/select/permute move (through int). */
#ifdef SGC_HAS_FP64
#define SGC_TYPES_ARITH(X) X(int) X(uint) X(long) X(ulong) X(float) X(double)
#else
#define SGC_TYPES_ARITH(X) X(int) X(uint) X(long) X(ulong) X(float)
#endif
#define SGC_TYPES_SMALL(X) X(bool) X(char) X(uchar) X(short) X(ushort)

/* Group kinds; the numbering is part of the calling convention. */
#define SGC_KIND_SUB_GROUP 1u
#define SGC_KIND_BALLOT 2u
#define SGC_KIND_FIXED 3u
#define SGC_KIND_TANGLE 4u
#define SGC_KIND_OPPORTUNISTIC 5u

typedef struct sgc_group {
    ulong mask;  /* members: bit i = sub-group local id i (sub-groups <= 64) */
    uint kind;   /* SGC_KIND_*: picks the native fast path */
    uint id;     /* get_group_linear_id() */
    uint range;  /* get_group_linear_range() */
    uint size;   /* fixed-size groups: N; else 0 */
    uint whole_at_creation; /* nvptx fixed-size and ballot groups: all 32 lanes made it */
    uint creators_call;     /* set by sgc_with_creators only: every work-item
                               that made the group runs this call (the compiler
                               proved it), so whole_at_creation holds here too */
    ulong pair;  /* ballot groups: the parent's mask, both partitions
                    together; else 0 */
} sgc_group;

typedef struct sgc_work_group {
    uint unused; /* the work-group has no state: everything is a built-in */
} sgc_work_group;

/* ---- work-item linearisation (OpenCL 1.2 has no get_local_linear_id) ---- */

SGC_INLINE uint sgc_linear_local_id(void)
{
    return (uint)(get_local_id(0) + get_local_size(0) *
                  (get_local_id(1) + get_local_size(1) * get_local_id(2)));
}

SGC_INLINE uint sgc_linear_local_size(void)
{
    return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

/* ---- lane masks: 64 bits, so sub-groups of up to 64 work-items ---- */

SGC_INLINE uint sgc_popcount(ulong m) { return (uint)popcount(m); }

SGC_INLINE uint sgc_rank(ulong mask, uint lane)
{
    return sgc_popcount(mask & (((ulong)1 << lane) - 1));
}

SGC_INLINE uint sgc_last_lane(ulong mask) { return 63u - (uint)clz(mask); }

/* Lane of the k-th member (k < popcount(mask)).  A contiguous mask, the
 * common case (sub-groups, fixed-size groups), is a subtraction; otherwise
 * popcount bisection, six steps. */
SGC_INLINE uint sgc_lane_of_rank(ulong mask, uint k)
{
    uint first = 63u - (uint)clz(mask & (~mask + 1));
    ulong run = mask >> first;
    if ((run & (run + 1)) == 0)
        return first + k;
    uint base = 0;
    for (uint width = 32; width > 0; width >>= 1) {
        uint low = sgc_popcount(mask & (((ulong)1 << width) - 1));
        if (k >= low) {
            k -= low;
            mask >>= width;
            base += width;
        }
    }
    return base;
}

/* ---- tier primitives: lane, sub-group shape, ballot, shuffle, sync ---- */

#if defined(SGC_TIER_NVPTX)
/* NVIDIA OpenCL: the sub-group is the 32-lane warp (consecutive linear ids);
 * the PTX below is the same as the CUDA prelude's intrinsics. */
SGC_INLINE uint sgc_lane(void) { return sgc_linear_local_id() & 31u; }
SGC_INLINE uint sgc_sub_group_id(void) { return sgc_linear_local_id() >> 5; }
SGC_INLINE uint sgc_num_sub_groups(void) { return (sgc_linear_local_size() + 31u) >> 5; }
SGC_INLINE uint sgc_sub_group_size(void)
{
    uint rest = sgc_linear_local_size() - (sgc_sub_group_id() << 5);
    return rest < 32u ? rest : 32u;
}
SGC_INLINE uint sgc_max_sub_group_size(void) { return 32u; }

SGC_INLINE uint sgc_ptx_activemask(void)
{
    uint m;
    __asm__ volatile("activemask.b32 %0;" : "=r"(m));
    return m;
}

SGC_INLINE uint sgc_ptx_ballot(uint mask, int pred)
{
    uint r;
    __asm__ volatile("{\n\t.reg .pred p;\n\tsetp.ne.s32 p, %1, 0;\n\t"
                     "vote.sync.ballot.b32 %0, p, %2;\n\t}"
                     : "=r"(r) : "r"(pred), "r"(mask));
    return r;
}

SGC_INLINE uint sgc_ptx_shfl(uint mask, uint x, uint src)
{
    uint r;
    __asm__ volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, %3;"
                     : "=r"(r) : "r"(x), "r"(src), "r"(mask));
    return r;
}

SGC_INLINE void sgc_sync(ulong mask)
{
    __asm__ volatile("bar.warp.sync %0;" : : "r"((uint)mask) : "memory");
}

SGC_INLINE ulong sgc_active_mask(void) { return sgc_ptx_activemask(); }
SGC_INLINE ulong sgc_ballot(ulong parent_mask, bool pred)
{
    return sgc_ptx_ballot((uint)parent_mask, pred);
}

SGC_INLINE uint sgc_shfl_uint(uint x, uint src, ulong mask)
{
    return sgc_ptx_shfl((uint)mask, x, src);
}
SGC_INLINE ulong sgc_shfl_ulong(ulong x, uint src, ulong mask)
{
    uint lo = sgc_ptx_shfl((uint)mask, (uint)x, src);
    uint hi = sgc_ptx_shfl((uint)mask, (uint)(x >> 32), src);
    return ((ulong)hi << 32) | lo;
}
SGC_INLINE int sgc_shfl_int(int x, uint src, ulong mask) { return as_int(sgc_shfl_uint(as_uint(x), src, mask)); }
SGC_INLINE float sgc_shfl_float(float x, uint src, ulong mask) { return as_float(sgc_shfl_uint(as_uint(x), src, mask)); }
SGC_INLINE long sgc_shfl_long(long x, uint src, ulong mask) { return as_long(sgc_shfl_ulong(as_ulong(x), src, mask)); }
#ifdef SGC_HAS_FP64
SGC_INLINE double sgc_shfl_double(double x, uint src, ulong mask) { return as_double(sgc_shfl_ulong(as_ulong(x), src, mask)); }
#endif

#elif defined(SGC_TIER_KHR)
SGC_INLINE uint sgc_lane(void) { return get_sub_group_local_id(); }
SGC_INLINE uint sgc_sub_group_id(void) { return get_sub_group_id(); }
SGC_INLINE uint sgc_num_sub_groups(void) { return get_num_sub_groups(); }
SGC_INLINE uint sgc_sub_group_size(void) { return get_sub_group_size(); }
SGC_INLINE uint sgc_max_sub_group_size(void) { return get_max_sub_group_size(); }

/* Ballot over the active work-items.  Without cl_khr_subgroup_ballot the
 * lanes' distinct bits are summed, which needs the whole sub-group. */
SGC_INLINE ulong sgc_ballot_active(bool pred)
{
#ifdef SGC_HAS_BALLOT
    uint4 b = sub_group_ballot(pred);
    return (ulong)b.x | ((ulong)b.y << 32);
#else
    return sub_group_reduce_add(pred ? (ulong)1 << get_sub_group_local_id() : (ulong)0);
#endif
}

SGC_INLINE ulong sgc_active_mask(void) { return sgc_ballot_active(true); }
SGC_INLINE ulong sgc_ballot(ulong parent_mask, bool pred) { return parent_mask & sgc_ballot_active(pred); }

/* Members of a group other than the sub-group run in lock-step with each
 * other here (SIMD lanes); a ballot is the convergence point and the fence
 * orders memory. */
SGC_INLINE void sgc_sync(ulong mask)
{
    (void)mask;
    mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
#ifdef SGC_HAS_BALLOT
    (void)sub_group_ballot(true);
#endif
}

#ifdef SGC_HAS_SHUFFLE
#define SGC_SHUFFLE(x, src) sub_group_shuffle((x), (src))
#else
#define SGC_SHUFFLE(x, src) intel_sub_group_shuffle((x), (src))
#endif
#define SGC_DEFINE_SHFL(T)                                          \
    SGC_INLINE T sgc_shfl_##T(T x, uint src, ulong mask)            \
    {                                                               \
        (void)mask;                                                 \
        return SGC_SHUFFLE(x, src);                                 \
    }
SGC_TYPES_ARITH(SGC_DEFINE_SHFL)
#undef SGC_DEFINE_SHFL

#else /* SGC_TIER_WG: no sub-groups; only the work-group is available */
SGC_INLINE uint sgc_lane(void) { return 0; }
#endif

#if !defined(SGC_TIER_WG)
SGC_INLINE ulong sgc_sub_group_mask(void)
{
    uint n = sgc_sub_group_size();
    return n >= 64u ? ~(ulong)0 : ((ulong)1 << n) - 1;
}
#endif

/* ---- constructors (docs/REFERENCE.md §6) ---- */

SGC_INLINE sgc_work_group sgc_get_work_group(void)
{
    sgc_work_group g = {0};
    return g;
}

#if !defined(SGC_TIER_WG)
SGC_INLINE sgc_group sgc_make_group(ulong mask, uint kind, uint id, uint range, uint size)
{
    sgc_group g;
    g.mask = mask;
    g.kind = kind;
    g.id = id;
    g.range = range;
    g.size = size;
    g.whole_at_creation = 0u;
    g.creators_call = 0u;
    g.pair = 0;
    return g;
}

/* The group as passed by sgcc to an algorithm every work-item that made the
 * group calls (docs/GROUPS.md "Creation facts"). */
SGC_INLINE sgc_group sgc_with_creators(sgc_group g)
{
    g.creators_call = 1u;
    return g;
}

SGC_INLINE sgc_group sgc_get_sub_group(void)
{
    return sgc_make_group(sgc_sub_group_mask(), SGC_KIND_SUB_GROUP,
                          sgc_sub_group_id(), sgc_num_sub_groups(), 0);
}

/* The sub-group in a kernel whose required work-group size is a multiple
 * of 32 (sgcc emits this one there).  nvptx: every warp is full, so the
 * mask is the constant, which ptxas needs no convergence test for; other
 * tiers' sub-groups need not be 32 wide. */
SGC_INLINE sgc_group sgc_get_sub_group_of_full_warps(void)
{
#if defined(SGC_TIER_NVPTX)
    return sgc_make_group(0xffffffffUL, SGC_KIND_SUB_GROUP, sgc_sub_group_id(),
                          sgc_num_sub_groups(), 0);
#else
    return sgc_get_sub_group();
#endif
}

/* Group 0 is the true partition; the ballot synchronises the parent. */
SGC_INLINE sgc_group sgc_get_ballot_group(sgc_group parent, bool pred)
{
    ulong yes = sgc_ballot(parent.mask, pred);
    sgc_group g = sgc_make_group(pred ? yes : parent.mask & ~yes, SGC_KIND_BALLOT,
                                 pred ? 0u : 1u, 2u, 0);
    g.pair = parent.mask;
#if defined(SGC_TIER_NVPTX)
    /* The ballot needed every lane of the parent: a whole-warp parent
     * means the whole warp made g. */
    g.whole_at_creation = parent.mask == 0xffffffffUL;
#endif
    return g;
}

/* The aligned block of n lanes holding the caller (n a power of two). */
SGC_INLINE sgc_group sgc_get_fixed_size_group(sgc_group parent, uint n)
{
    uint lane = sgc_lane();
    ulong block = n >= 64u ? ~(ulong)0 : (((ulong)1 << n) - 1) << (lane & ~(n - 1));
    uint range = (sgc_sub_group_size() + n - 1) / n;
    sgc_group g = sgc_make_group(parent.mask & block, SGC_KIND_FIXED, lane / n, range, n);
#if defined(SGC_TIER_NVPTX)
    g.whole_at_creation = sgc_ptx_activemask() == 0xffffffffu;
#endif
    return g;
}

/* The compiler tracks the tangle's mask through control flow (ballots at
 * divergent branches) and passes it in; the active set is never trusted. */
SGC_INLINE sgc_group sgc_get_tangle_group(sgc_group parent, ulong tangle_mask)
{
    return sgc_make_group(parent.mask & tangle_mask, SGC_KIND_TANGLE, 0, 1, 0);
}

SGC_INLINE sgc_group sgc_get_opportunistic_group(void)
{
    return sgc_make_group(sgc_active_mask(), SGC_KIND_OPPORTUNISTIC, 0, 1, 0);
}

/* ---- members ---- */

SGC_INLINE uint sgc_group_linear_id(sgc_group g) { return g.id; }
SGC_INLINE uint sgc_group_linear_range(sgc_group g) { return g.range; }
SGC_INLINE uint sgc_local_linear_id(sgc_group g) { return sgc_rank(g.mask, sgc_lane()); }
SGC_INLINE uint sgc_local_linear_range(sgc_group g) { return sgc_popcount(g.mask); }
SGC_INLINE bool sgc_leader(sgc_group g) { return sgc_local_linear_id(g) == 0; }

SGC_INLINE void sgc_group_barrier(sgc_group g)
{
#if defined(SGC_TIER_KHR)
    if (g.kind == SGC_KIND_SUB_GROUP) {
        sub_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        return;
    }
#endif
    sgc_sync(g.mask);
}
#endif /* !SGC_TIER_WG */

SGC_INLINE uint sgc_wg_group_linear_id(sgc_work_group g)
{
    (void)g;
    return (uint)(get_group_id(0) + get_num_groups(0) *
                  (get_group_id(1) + get_num_groups(1) * get_group_id(2)));
}
SGC_INLINE uint sgc_wg_group_linear_range(sgc_work_group g)
{
    (void)g;
    return (uint)(get_num_groups(0) * get_num_groups(1) * get_num_groups(2));
}
SGC_INLINE uint sgc_wg_local_linear_id(sgc_work_group g) { (void)g; return sgc_linear_local_id(); }
SGC_INLINE uint sgc_wg_local_linear_range(sgc_work_group g) { (void)g; return sgc_linear_local_size(); }
SGC_INLINE bool sgc_wg_leader(sgc_work_group g) { (void)g; return sgc_linear_local_id() == 0; }
SGC_INLINE void sgc_wg_barrier(sgc_work_group g)
{
    (void)g;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

/* ---- operators of the algorithms: SGC_OP_<op>(a, b), identities ---- */

#include "group_ops_opencl_apply.inc"

/* Largest and lowest values; floating types use the infinities, as the
 * OpenCL scan built-ins do. */
#define SGC_MAX_int INT_MAX
#define SGC_MAX_uint UINT_MAX
#define SGC_MAX_long LONG_MAX
#define SGC_MAX_ulong ULONG_MAX
#define SGC_MAX_float INFINITY
#define SGC_MAX_double ((double)INFINITY)
#define SGC_MIN_int INT_MIN
#define SGC_MIN_uint 0u
#define SGC_MIN_long LONG_MIN
#define SGC_MIN_ulong 0ul
#define SGC_MIN_float (-INFINITY)
#define SGC_MIN_double (-(double)INFINITY)
#define SGC_MAX_char CHAR_MAX
#define SGC_MAX_uchar UCHAR_MAX
#define SGC_MAX_short SHRT_MAX
#define SGC_MAX_ushort USHRT_MAX
#define SGC_MIN_char CHAR_MIN
#define SGC_MIN_uchar 0
#define SGC_MIN_short SHRT_MIN
#define SGC_MIN_ushort 0

#include "group_ops_opencl_identity.inc"

/* Logical operators work on truth values: inputs are normalised to 0/1, so
 * results are 0/1 whatever the group size. */
#include "group_ops_opencl_input.inc"

/* (op, T) pairs of the algorithms: bitwise operators only on integer types.
 * Logical operators are computed on int (truth values) only; every other
 * arithmetic type, floating ones included (C semantics: nonzero is true,
 * the result is 0 or 1 of the type), reaches them through wrappers; the
 * other operators on char uchar short ushort go through int or uint
 * (SGC_SMALL_PAIRS, opencl_subgroup.cl "Small types").  The
 * lists together cover every (op, T) pair of docs/REFERENCE.md §6; the groups
 * execution test (tests/exec_groups/gen_exec.py) enumerates the same
 * pairs.  Each list calls X(op, T). */
#include "group_ops_opencl_pairs.inc"
#define SGC_OP_TYPE_PAIRS(X) SGC_OPS_INT(X, int) SGC_OPS_INT(X, uint)  \
    SGC_OPS_INT(X, long) SGC_OPS_INT(X, ulong) SGC_OPS_FLOAT(X, float) \
    SGC_OPS_DOUBLE(X) SGC_OPS_LOGICAL(X)

/* Native built-in names: SGC_KHR_FN(op, prefix) is prefix_<spelling>, e.g.
 * SGC_KHR_FN(minimum, sub_group_reduce) is sub_group_reduce_min.  The name is
 * pasted whole: some compilers (PoCL 5) define min and max as macros. */
#define SGC_KHR_FN(op, prefix) SGC_KHR_FN_##op(prefix)
#include "group_ops_opencl_khr.inc"
