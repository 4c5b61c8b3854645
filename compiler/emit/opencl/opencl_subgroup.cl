/* opencl_subgroup.cl — prelude section "opencl_subgroup": the group
 * functions and algorithms of docs/REFERENCE.md §6 on sub-group-scope groups
 * (sub_group, ballot, fixed-size, tangle, opportunistic).  Needs
 * "opencl_base".  Compiles to nothing in the wg tier, where the emitter
 * reports the kernel as unsupported.
 *
 * Every function has one mask-based implementation (ranks in the group's
 * lane mask, shuffles from member lanes only), correct for any mask and used
 * by the nvptx tier and as the khr emulation.  In the khr tier the native
 * built-ins take over where the extension exists and the group's members are
 * exactly the work-items that the built-in sees: the active ones for ballot
 * (each partition in its own branch), tangle and opportunistic groups; the
 * whole sub-group for sub_group; a cluster for full fixed-size groups.
 *
 * Names: sgc_<fn>_<T>(g, ...) and sgc_<algo>_<op>_<T>(g, x [, init]). */

#if !defined(SGC_TIER_WG)

/* ---- data movement: broadcast, shift, xor-permute, select ---- */

/* Every member takes part in exactly one shuffle; a source outside the group
 * is replaced by the caller's own lane, which returns its own value
 * (docs/REFERENCE.md §6 defines this, unlike SYCL). */
#define SGC_DEFINE_MOVE(T)                                                      \
    SGC_INLINE T sgc_from_rank_##T(sgc_group g, T x, uint rank, bool valid)     \
    {                                                                           \
        valid = valid && rank < sgc_popcount(g.mask);                           \
        uint src = valid ? sgc_lane_of_rank(g.mask, rank) : sgc_lane();         \
        return sgc_shfl_##T(x, src, g.mask);                                    \
    }                                                                           \
    SGC_INLINE T sgc_select_##T(sgc_group g, T x, uint local_id)                \
    {                                                                           \
        return sgc_from_rank_##T(g, x, local_id, true);                         \
    }                                                                           \
    SGC_INLINE T sgc_broadcast_id_##T(sgc_group g, T x, uint local_id)          \
    {                                                                           \
        return sgc_from_rank_##T(g, x, local_id, true);                         \
    }                                                                           \
    SGC_INLINE T sgc_broadcast_##T(sgc_group g, T x)                            \
    {                                                                           \
        SGC_KHR_BROADCAST_LEADER(g, x);                                         \
        return sgc_shfl_##T(x, sgc_lane_of_rank(g.mask, 0), g.mask);            \
    }                                                                           \
    SGC_INLINE T sgc_shift_left_##T(sgc_group g, T x, uint delta)               \
    {                                                                           \
        SGC_KHR_RELATIVE(g, x, sub_group_shuffle_down(x, delta),                \
                         delta < sgc_sub_group_size() - sgc_lane());            \
        uint rank = sgc_rank(g.mask, sgc_lane());                               \
        return sgc_from_rank_##T(g, x, rank + delta, rank + delta >= rank);     \
    }                                                                           \
    SGC_INLINE T sgc_shift_right_##T(sgc_group g, T x, uint delta)              \
    {                                                                           \
        SGC_KHR_RELATIVE(g, x, sub_group_shuffle_up(x, delta),                  \
                         delta <= sgc_lane());                                  \
        uint rank = sgc_rank(g.mask, sgc_lane());                               \
        return sgc_from_rank_##T(g, x, rank - delta, rank >= delta);            \
    }                                                                           \
    SGC_INLINE T sgc_permute_xor_##T(sgc_group g, T x, uint mask)               \
    {                                                                           \
        SGC_KHR_RELATIVE(g, x, sub_group_shuffle_xor(x, mask),                  \
                         (sgc_lane() ^ mask) < sgc_sub_group_size());           \
        return sgc_from_rank_##T(g, x, sgc_rank(g.mask, sgc_lane()) ^ mask,     \
                                 true);                                         \
    }

#if defined(SGC_TIER_KHR) && defined(SGC_HAS_CORE_ALGORITHMS)
#define SGC_KHR_BROADCAST_LEADER(g, x)                                          \
    if ((g).kind == SGC_KIND_SUB_GROUP)                                         \
        return sub_group_broadcast((x), 0)
#else
#define SGC_KHR_BROADCAST_LEADER(g, x) (void)0
#endif

/* Shuffle-relative on the whole sub-group: the built-in's result is kept
 * only when `in_group` says its source lane exists.  The tests are written
 * without computing the source lane, which wraps past 2^32 (lane + delta
 * with delta = 0xffffffff is lane - 1: issue 34 item 2). */
#if defined(SGC_TIER_KHR) && defined(SGC_HAS_SHUFFLE_RELATIVE)
#define SGC_KHR_RELATIVE(g, x, call, in_group)                                  \
    if ((g).kind == SGC_KIND_SUB_GROUP) {                                       \
        bool sgc_in_ = (in_group);                                              \
        __typeof__(x) sgc_r_ = (call);                                          \
        return sgc_in_ ? sgc_r_ : (x);                                          \
    }
#else
#define SGC_KHR_RELATIVE(g, x, call, in_group) (void)0
#endif

SGC_TYPES_ARITH(SGC_DEFINE_MOVE)
#undef SGC_DEFINE_MOVE

/* Small types move as int. */
#define SGC_DEFINE_MOVE_SMALL(T)                                                \
    SGC_INLINE T sgc_select_##T(sgc_group g, T x, uint id)                      \
    {                                                                           \
        return (T)sgc_select_int(g, (int)x, id);                                \
    }                                                                           \
    SGC_INLINE T sgc_broadcast_id_##T(sgc_group g, T x, uint id)                \
    {                                                                           \
        return (T)sgc_broadcast_id_int(g, (int)x, id);                          \
    }                                                                           \
    SGC_INLINE T sgc_broadcast_##T(sgc_group g, T x)                            \
    {                                                                           \
        return (T)sgc_broadcast_int(g, (int)x);                                 \
    }                                                                           \
    SGC_INLINE T sgc_shift_left_##T(sgc_group g, T x, uint delta)               \
    {                                                                           \
        return (T)sgc_shift_left_int(g, (int)x, delta);                         \
    }                                                                           \
    SGC_INLINE T sgc_shift_right_##T(sgc_group g, T x, uint delta)              \
    {                                                                           \
        return (T)sgc_shift_right_int(g, (int)x, delta);                        \
    }                                                                           \
    SGC_INLINE T sgc_permute_xor_##T(sgc_group g, T x, uint mask)               \
    {                                                                           \
        return (T)sgc_permute_xor_int(g, (int)x, mask);                         \
    }
SGC_TYPES_SMALL(SGC_DEFINE_MOVE_SMALL)
#undef SGC_DEFINE_MOVE_SMALL

/* ---- votes ---- */

/* Native votes where the built-in sees exactly the group; a ballot masked
 * to the group otherwise. */
#if defined(SGC_TIER_KHR) && defined(SGC_HAS_NU_VOTE)
#define SGC_KHR_VOTE(g, p, name)                                                \
    if ((g).kind == SGC_KIND_BALLOT) {                                          \
        if ((g).id == 0)                                                        \
            return sub_group_non_uniform_##name(p);                             \
        return sub_group_non_uniform_##name(p);                                 \
    }                                                                           \
    if ((g).kind == SGC_KIND_TANGLE || (g).kind == SGC_KIND_OPPORTUNISTIC)      \
        return sub_group_non_uniform_##name(p);
#else
#define SGC_KHR_VOTE(g, p, name)
#endif
#if defined(SGC_TIER_KHR) && defined(SGC_HAS_CORE_ALGORITHMS)
#define SGC_KHR_CORE_VOTE(g, p, name)                                           \
    if ((g).kind == SGC_KIND_SUB_GROUP)                                         \
        return sub_group_##name(p) != 0;
#else
#define SGC_KHR_CORE_VOTE(g, p, name)
#endif

SGC_INLINE bool sgc_any(sgc_group g, bool p)
{
    SGC_KHR_CORE_VOTE(g, p, any)
    SGC_KHR_VOTE(g, p, any)
    return sgc_ballot(g.mask, p) != 0;
}

SGC_INLINE bool sgc_all(sgc_group g, bool p)
{
    SGC_KHR_CORE_VOTE(g, p, all)
    SGC_KHR_VOTE(g, p, all)
    return sgc_ballot(g.mask, p) == g.mask;
}

SGC_INLINE bool sgc_none(sgc_group g, bool p) { return !sgc_any(g, p); }

/* ---- reductions and scans ---- */

/* Mask-based, for any member mask (ballot, tangle, opportunistic groups):
 * the xor butterfly and the scan ladder by aligned blocks of lanes, as in
 * cuda_subgroup.cuh (mask_reduce_under): round d joins the aligned d-lane
 * block holding the caller with the one holding lane ^ d, reading the
 * partner block's running value from its last member (sgc_partner_last), a
 * member whatever the mask; a partner block with no member contributes
 * nothing.  log2 of the largest sub-group rounds (five on nvptx) whatever
 * the members, with no rank arithmetic; lower lanes stay on the left of
 * the operator, so members end with the same bits in a reduce.  `sm` is
 * the shuffle mask (nvptx), `mask` the group's. */
SGC_INLINE uint sgc_partner_last(ulong mask, uint lane, uint d)
{
    ulong part = mask & ((((ulong)1 << d) - 1) << ((lane ^ d) & ~(d - 1u)));
    return part != 0 ? sgc_last_lane(part) : lane;
}

SGC_INLINE uint sgc_first_lane(ulong mask) { return 63u - (uint)clz(mask & (~mask + 1)); }

/* nvptx, shuffle masks as in cuda_subgroup.cuh (scan_on_mask): a ballot
 * group with all 32 lanes at the call and a group of the whole warp
 * shuffle under the constant full mask, anything else under its own; only
 * ballot groups test the active lanes (the kind is a constant after
 * inlining). */
#if defined(SGC_TIER_NVPTX)
/* All 32 lanes run this call: the fact recorded when g was made, where
 * sgcc proved every maker reaches the call (sgc_with_creators), else a vote
 * (cuda_subgroup.cuh, whole_warp). */
#define SGC_NV_ALL_LANES_AT_CALL(g)                                             \
    ((g).creators_call ? (g).whole_at_creation != 0u                            \
                       : sgc_ptx_activemask() == 0xffffffffu)
#define SGC_NV_BALLOT_WHOLE_WARP(g) ((g).kind == SGC_KIND_BALLOT && SGC_NV_ALL_LANES_AT_CALL(g))
#define SGC_ON_MASK(fn, g, x)                                                   \
    if ((g).mask == 0xffffffffUL || SGC_NV_BALLOT_WHOLE_WARP(g))                \
        return fn(0xffffffffUL, (g).mask, x);                                   \
    return fn((g).mask, (g).mask, x)
#else
#define SGC_ON_MASK(fn, g, x) return fn((g).mask, (g).mask, x)
#endif

/* A round with nothing to join has the caller read its own lane (src ==
 * lane); an idempotent operator then joins x with itself, which gives x,
 * so it needs no test of src (cuda_subgroup.cuh, mask_reduce_under). */
/* Logical operators on any mask: one ballot of the truth values instead of
 * a ladder (cuda_subgroup.cuh, logical_by_vote).  upto: the lanes asked,
 * all (reduce), up to the caller (inclusive) or below it (exclusive);
 * vote: SGC_VOTE_<op>, 1 every one true, 2 any. */
SGC_INLINE int sgc_logical_by_vote(ulong sm, ulong mask, ulong upto, int x, int vote)
{
    ulong asked = mask & upto, yes = sgc_ballot(sm, x != 0) & asked;
    return vote == 1 ? yes == asked : yes != 0;
}
#define SGC_UPTO_REDUCE(lane) (~(ulong)0)
#define SGC_UPTO_INCLUSIVE(lane) (((ulong)2 << (lane)) - 1) /* lane 63: 0 - 1 */
#define SGC_UPTO_EXCLUSIVE(lane) (((ulong)1 << (lane)) - 1)
#define SGC_BY_VOTE(op, T, algo, sm, mask, x)                                   \
    if (SGC_VOTE_##op != 0)                                                     \
        return (T)sgc_logical_by_vote(sm, mask, SGC_UPTO_##algo(sgc_lane()), (int)((x) != 0), \
                                      SGC_VOTE_##op)

#define SGC_DEFINE_GENERIC_SCAN(op, T)                                          \
    SGC_INLINE T sgc_generic_reduce_under_##op##_##T(ulong sm, ulong mask, T x) \
    {                                                                           \
        SGC_BY_VOTE(op, T, REDUCE, sm, mask, x);                                \
        uint lane = sgc_lane();                                                 \
        for (uint d = 1; d < sgc_max_sub_group_size(); d <<= 1) {               \
            uint src = sgc_partner_last(mask, lane, d);                         \
            T y = sgc_shfl_##T(x, src, sm);                                     \
            if (SGC_IDEMPOTENT_##op || src != lane)                             \
                x = (lane & d) != 0u ? SGC_OP_##op(y, x) : SGC_OP_##op(x, y);   \
        }                                                                       \
        return x;                                                               \
    }                                                                           \
    /* After round d: the inclusive scan over the members of the caller's */   \
    /* aligned 2d-lane block, whose last member holds its total. */            \
    SGC_INLINE T sgc_generic_inclusive_under_##op##_##T(ulong sm, ulong mask, T x) \
    {                                                                           \
        SGC_BY_VOTE(op, T, INCLUSIVE, sm, mask, x);                             \
        uint lane = sgc_lane();                                                 \
        for (uint d = 1; d < sgc_max_sub_group_size(); d <<= 1) {               \
            uint src = sgc_partner_last(mask, lane, d);                         \
            T y = sgc_shfl_##T(x, src, sm);                                     \
            if ((lane & d) != 0u && (SGC_IDEMPOTENT_##op || src != lane))       \
                x = SGC_OP_##op(y, x);                                          \
        }                                                                       \
        return x;                                                               \
    }                                                                           \
    /* The inclusive value of the previous member. */                          \
    SGC_INLINE T sgc_generic_exclusive_under_##op##_##T(ulong sm, ulong mask, T x) \
    {                                                                           \
        SGC_BY_VOTE(op, T, EXCLUSIVE, sm, mask, x);                             \
        uint lane = sgc_lane();                                                 \
        ulong below = mask & (((ulong)1 << lane) - 1);                          \
        T y = sgc_generic_inclusive_under_##op##_##T(sm, mask, x);              \
        T t = sgc_shfl_##T(y, below != 0 ? sgc_last_lane(below) : lane, sm);    \
        return below != 0 ? t : SGC_ID_##op(T);                                 \
    }                                                                           \
    SGC_INLINE T sgc_generic_reduce_##op##_##T(sgc_group g, T x)                \
    {                                                                           \
        SGC_ON_MASK(sgc_generic_reduce_under_##op##_##T, g, x);                 \
    }                                                                           \
    SGC_INLINE T sgc_generic_inclusive_##op##_##T(sgc_group g, T x)             \
    {                                                                           \
        SGC_ON_MASK(sgc_generic_inclusive_under_##op##_##T, g, x);              \
    }                                                                           \
    SGC_INLINE T sgc_generic_exclusive_##op##_##T(sgc_group g, T x)             \
    {                                                                           \
        SGC_ON_MASK(sgc_generic_exclusive_under_##op##_##T, g, x);              \
    }
SGC_OP_TYPE_PAIRS(SGC_DEFINE_GENERIC_SCAN)
#undef SGC_DEFINE_GENERIC_SCAN

/* Fixed-size groups.  Their parent is the sub-group (sema checks it), whose
 * work-items are lanes 0..size-1, so a fixed-size group's members are always
 * the first lanes of its aligned block of N: all N, or fewer in the last
 * block of a sub-group whose size N does not divide.  N is a constant after
 * inlining, so every loop below unrolls, with no rank arithmetic:
 *  - scans: the shift-up ladder, which reads only lower lanes and so is
 *    right for a partial block too;
 *  - reduce: the xor butterfly when every block of the sub-group is full
 *    (it keeps the lower lane's value on the left, so every member gets the
 *    same bits), else the ladder and a broadcast of its last member's value.
 * Both tests are uniform over the sub-group: every work-item of it takes
 * the same path, as the core sub-group shuffles of a khr device without the
 * non-uniform extensions require.  It also keeps loops with a run-time trip
 * count (the generic rank-based code) out of fixed-size kernels, which PoCL
 * 5, where each shuffle is a work-group barrier, took minutes to compile. */
#define SGC_FIXED(g) ((g).kind == SGC_KIND_FIXED)
/* SGC_BUTTERFLY_FIXED: the fixed-size groups whose reduce is the butterfly.
 * nvptx: none here, since groups of 32 lanes and whole warps take
 * SGC_NV_WARP_REDUCE/_SCAN first (below), and after them every narrower
 * block, full or partial, takes the ladder and a broadcast, as in
 * cuda_subgroup.cuh's on_fixed: every lane of the mask then runs the same
 * shuffles (lanes of one mask at different shuffle instructions gave wrong
 * results on the H100), with no rank arithmetic and no loop with a
 * run-time trip count, so a loop of calls stays small enough to unroll. */
#if defined(SGC_TIER_NVPTX)
#define SGC_BUTTERFLY_FIXED(g) false
#else
#define SGC_BUTTERFLY_FIXED(g) (SGC_FIXED(g) && (sgc_sub_group_size() & ((g).size - 1u)) == 0u)
#endif
/* Runs algo on the block under its shuffle mask.  nvptx: one mask for every
 * lane running this code, so a converged warp's 32/N blocks do not shuffle
 * under N-lane masks the hardware serialises: the lanes of the (partial)
 * warp when all of them are at the call, a test every lane answers alike,
 * else the block's own (the whole warp takes SGC_NV_WARP_* below first).
 * Not the active lanes plus the block's: lanes of one block reaching the
 * call apart would name different masks in one shuffle (cuda_subgroup.cuh,
 * on_fixed).  Elsewhere the block's own mask. */
#if defined(SGC_TIER_NVPTX)
#define SGC_ON_BLOCK(algo, g, x)                                                 \
    return algo(sgc_ptx_activemask() == sgc_sub_group_mask() ? sgc_sub_group_mask() : (g).mask, \
                (g).size, x)
#else
#define SGC_ON_BLOCK(algo, g, x) return algo((g).mask, (g).size, x)
#endif
#define SGC_DEFINE_BLOCK_SCAN(op, T)                                            \
    SGC_INLINE T sgc_block_reduce_under_##op##_##T(ulong mask, uint size, T x)  \
    {                                                                           \
        uint lane = sgc_lane();                                                 \
        for (uint d = size >> 1; d > 0u; d >>= 1) {                             \
            T y = sgc_shfl_##T(x, lane ^ d, mask);                              \
            x = (lane & d) != 0u ? SGC_OP_##op(y, x) : SGC_OP_##op(x, y);       \
        }                                                                       \
        return x;                                                               \
    }                                                                           \
    SGC_INLINE T sgc_block_inclusive_under_##op##_##T(ulong mask, uint size, T x) \
    {                                                                           \
        uint lane = sgc_lane(), rank = lane & (size - 1u);                      \
        for (uint d = 1; d < size; d <<= 1) {                                   \
            T t = sgc_shfl_##T(x, rank >= d ? lane - d : lane, mask);           \
            if (rank >= d)                                                      \
                x = SGC_OP_##op(t, x);                                          \
        }                                                                       \
        return x;                                                               \
    }                                                                           \
    SGC_INLINE T sgc_block_exclusive_under_##op##_##T(ulong mask, uint size, T x) \
    {                                                                           \
        uint lane = sgc_lane(), rank = lane & (size - 1u);                      \
        T y = sgc_block_inclusive_under_##op##_##T(mask, size, x);              \
        T t = sgc_shfl_##T(y, rank > 0u ? lane - 1u : lane, mask);              \
        return rank > 0u ? t : SGC_ID_##op(T);                                  \
    }                                                                           \
    SGC_INLINE T sgc_block_prefix_reduce_under_##op##_##T(ulong mask, uint size, T x) \
    {                                                                           \
        /* The block's last member: its last lane, or the sub-group's. */       \
        uint base = sgc_lane() & ~(size - 1u);                                  \
        uint end = min(base + size, sgc_sub_group_size());                      \
        T y = sgc_block_inclusive_under_##op##_##T(mask, size, x);              \
        return sgc_shfl_##T(y, end - 1u, mask);                                 \
    }                                                                           \
    SGC_INLINE T sgc_block_reduce_##op##_##T(sgc_group g, T x)                  \
    {                                                                           \
        SGC_ON_BLOCK(sgc_block_reduce_under_##op##_##T, g, x);                  \
    }                                                                           \
    SGC_INLINE T sgc_block_inclusive_##op##_##T(sgc_group g, T x)               \
    {                                                                           \
        SGC_ON_BLOCK(sgc_block_inclusive_under_##op##_##T, g, x);               \
    }                                                                           \
    SGC_INLINE T sgc_block_exclusive_##op##_##T(sgc_group g, T x)               \
    {                                                                           \
        SGC_ON_BLOCK(sgc_block_exclusive_under_##op##_##T, g, x);               \
    }                                                                           \
    SGC_INLINE T sgc_block_prefix_reduce_##op##_##T(sgc_group g, T x)           \
    {                                                                           \
        SGC_ON_BLOCK(sgc_block_prefix_reduce_under_##op##_##T, g, x);           \
    }
SGC_OP_TYPE_PAIRS(SGC_DEFINE_BLOCK_SCAN)
#undef SGC_DEFINE_BLOCK_SCAN

/* The khr fast paths, `algo` one of reduce, scan_inclusive, scan_exclusive.
 * Core built-ins (add/min/max on the whole sub-group) first, then the
 * non-uniform ones. */
#if defined(SGC_TIER_KHR) && defined(SGC_HAS_CORE_ALGORITHMS)
#define SGC_CORE_plus 1
#define SGC_CORE_minimum 1
#define SGC_CORE_maximum 1
#define SGC_KHR_CORE(g, op, algo, x)                                            \
    if ((g).kind == SGC_KIND_SUB_GROUP)                                         \
        return SGC_KHR_FN(op, sub_group_##algo)(x);
#endif
#if defined(SGC_TIER_KHR) && defined(SGC_HAS_NU_ARITHMETIC)
/* Intel returns -1 for a true logical result: results are normalised. */
#define SGC_KHR_NU_CALL(op, algo, x)                                            \
    SGC_IN_##op(__typeof__(x), SGC_KHR_FN(op, sub_group_non_uniform_##algo)(x))
#define SGC_KHR_NU(g, op, algo, x)                                              \
    if ((g).kind == SGC_KIND_BALLOT) {                                          \
        if ((g).id == 0)                                                        \
            return SGC_KHR_NU_CALL(op, algo, x);                                \
        return SGC_KHR_NU_CALL(op, algo, x);                                    \
    }                                                                           \
    if ((g).kind != SGC_KIND_FIXED)                                             \
        return SGC_KHR_NU_CALL(op, algo, x);

/* Exclusive scans of float: the Intel CPU runtime (2026.22) folds inactive
 * work-items into sub_group_non_uniform_scan_exclusive_add(float), so for
 * float the exclusive scan is the native inclusive one shifted by one
 * member (the last one below the caller). */
#define SGC_KHR_NU_EXCLUSIVE_float(g, op, x)                                    \
    if ((g).kind != SGC_KIND_FIXED) {                                           \
        float y;                                                                \
        if ((g).kind == SGC_KIND_BALLOT && (g).id == 0)                         \
            y = SGC_KHR_NU_CALL(op, scan_inclusive, x);                         \
        else                                                                    \
            y = SGC_KHR_NU_CALL(op, scan_inclusive, x);                         \
        uint lane = sgc_lane();                                                 \
        ulong below = (g).mask & (((ulong)1 << lane) - 1);                      \
        float t = sgc_shfl_float(y, below != 0 ? sgc_last_lane(below) : lane,   \
                                 (g).mask);                                     \
        return below != 0 ? t : SGC_ID_##op(float);                             \
    }
#else
#define SGC_KHR_NU(g, op, algo, x)
#define SGC_KHR_NU_EXCLUSIVE_float(g, op, x)
#endif
#define SGC_KHR_NU_EXCLUSIVE_int(g, op, x) SGC_KHR_NU(g, op, scan_exclusive, x)
#define SGC_KHR_NU_EXCLUSIVE_uint(g, op, x) SGC_KHR_NU(g, op, scan_exclusive, x)
#define SGC_KHR_NU_EXCLUSIVE_long(g, op, x) SGC_KHR_NU(g, op, scan_exclusive, x)
#define SGC_KHR_NU_EXCLUSIVE_ulong(g, op, x) SGC_KHR_NU(g, op, scan_exclusive, x)
#define SGC_KHR_NU_EXCLUSIVE_double(g, op, x) SGC_KHR_NU(g, op, scan_exclusive, x)

/* Clustered reduce needs a constant cluster size: the switch folds once the
 * group's size is known.  Only for a fixed-size group that is a whole
 * cluster of the sub-group. */
#if defined(SGC_TIER_KHR) && defined(SGC_HAS_CLUSTERED_REDUCE)
#define SGC_CLUSTER_CASE(op, n, x)                                              \
    case n:                                                                     \
        return SGC_IN_##op(__typeof__(x),                                       \
                           SGC_KHR_FN(op, sub_group_clustered_reduce)(x, n));
#define SGC_KHR_CLUSTERED(g, op, x)                                             \
    if ((g).kind == SGC_KIND_FIXED && (g).size <= sgc_max_sub_group_size()) {   \
        ulong sgc_block_ = (g).size >= 64u ? ~(ulong)0                          \
            : (((ulong)1 << (g).size) - 1) << (sgc_lane() & ~((g).size - 1));   \
        if ((g).mask == (sgc_block_ & sgc_sub_group_mask())) {                  \
            switch ((g).size) {                                                 \
                SGC_CLUSTER_CASE(op, 1, x) SGC_CLUSTER_CASE(op, 2, x)           \
                SGC_CLUSTER_CASE(op, 4, x) SGC_CLUSTER_CASE(op, 8, x)           \
                SGC_CLUSTER_CASE(op, 16, x) SGC_CLUSTER_CASE(op, 32, x)         \
                SGC_CLUSTER_CASE(op, 64, x)                                     \
            }                                                                   \
        }                                                                       \
    }
#else
#define SGC_KHR_CLUSTERED(g, op, x)
#endif

/* Per-operator fast paths.  SGC_CORE_<op> says whether the core built-in
 * exists; the preprocessor cannot test it inside a macro body, so the
 * operators spell theirs out here. */
#if defined(SGC_TIER_KHR) && defined(SGC_HAS_CORE_ALGORITHMS)
#define SGC_FAST_CORE_plus(g, algo, x) SGC_KHR_CORE(g, plus, algo, x)
#define SGC_FAST_CORE_minimum(g, algo, x) SGC_KHR_CORE(g, minimum, algo, x)
#define SGC_FAST_CORE_maximum(g, algo, x) SGC_KHR_CORE(g, maximum, algo, x)
#else
#define SGC_FAST_CORE_plus(g, algo, x)
#define SGC_FAST_CORE_minimum(g, algo, x)
#define SGC_FAST_CORE_maximum(g, algo, x)
#endif
#define SGC_FAST_CORE_multiplies(g, algo, x)
#define SGC_FAST_CORE_bit_and(g, algo, x)
#define SGC_FAST_CORE_bit_or(g, algo, x)
#define SGC_FAST_CORE_bit_xor(g, algo, x)
#define SGC_FAST_CORE_logical_and(g, algo, x)
#define SGC_FAST_CORE_logical_or(g, algo, x)

/* nvptx tier, sm_80+ (the host passes SGC_NV_SM): redux.sync reduces 32-bit
 * integers over any mask.  SGC_NV_REDUX_<op> is the PTX operation or 0; the
 * dispatch tests constants only, so it folds away for other types. */
#if defined(SGC_TIER_NVPTX) && defined(SGC_NV_SM) && SGC_NV_SM >= 80 && \
    !defined(SGC_FORCE_GENERIC)
#define SGC_NV_I32_int 1
#define SGC_NV_I32_uint 1
#define SGC_NV_I32_long 0
#define SGC_NV_I32_ulong 0
#define SGC_NV_I32_float 0
#define SGC_NV_I32_double 0
#define SGC_NV_REDUX_OP(name, ptx_s32, ptx_u32)                                 \
    SGC_INLINE uint sgc_ptx_redux_##name(uint mask, uint x, bool is_signed)     \
    {                                                                           \
        uint r;                                                                 \
        if (is_signed)                                                          \
            __asm__ volatile(ptx_s32 " %0, %1, %2;" : "=r"(r) : "r"(x), "r"(mask)); \
        else                                                                    \
            __asm__ volatile(ptx_u32 " %0, %1, %2;" : "=r"(r) : "r"(x), "r"(mask)); \
        return r;                                                               \
    }
SGC_NV_REDUX_OP(plus, "redux.sync.add.s32", "redux.sync.add.u32")
SGC_NV_REDUX_OP(minimum, "redux.sync.min.s32", "redux.sync.min.u32")
SGC_NV_REDUX_OP(maximum, "redux.sync.max.s32", "redux.sync.max.u32")
SGC_NV_REDUX_OP(bit_and, "redux.sync.and.b32", "redux.sync.and.b32")
SGC_NV_REDUX_OP(bit_or, "redux.sync.or.b32", "redux.sync.or.b32")
SGC_NV_REDUX_OP(bit_xor, "redux.sync.xor.b32", "redux.sync.xor.b32")
#undef SGC_NV_REDUX_OP
/* Truth values: and/or of 0/1 are the logical operators. */
#define sgc_ptx_redux_logical_and sgc_ptx_redux_bit_and
#define sgc_ptx_redux_logical_or sgc_ptx_redux_bit_or
#define SGC_NV_FAST_plus(m, T, x) SGC_NV_REDUX(m, plus, T, x)
#define SGC_NV_FAST_minimum(m, T, x) SGC_NV_REDUX(m, minimum, T, x)
#define SGC_NV_FAST_maximum(m, T, x) SGC_NV_REDUX(m, maximum, T, x)
#define SGC_NV_FAST_bit_and(m, T, x) SGC_NV_REDUX(m, bit_and, T, x)
#define SGC_NV_FAST_bit_or(m, T, x) SGC_NV_REDUX(m, bit_or, T, x)
#define SGC_NV_FAST_bit_xor(m, T, x) SGC_NV_REDUX(m, bit_xor, T, x)
#define SGC_NV_FAST_logical_and(m, T, x) SGC_NV_REDUX(m, logical_and, T, x)
#define SGC_NV_FAST_logical_or(m, T, x) SGC_NV_REDUX(m, logical_or, T, x)
#define SGC_NV_REDUX(m, op, T, x)                                               \
    if (SGC_NV_I32_##T)                                                         \
        return (T)sgc_ptx_redux_##op((uint)(m), (uint)(x), (T)-1 < (T)0);
/* Both partitions of a ballot of the whole warp at the call: two
 * redux.sync under the full mask, each partition's lanes giving the
 * identity to the other's (cuda_subgroup.cuh, reduce_on_mask). */
#define SGC_NV_PAIR(g, op, T, x)                                                \
    if (SGC_NV_I32_##T && (g).pair == 0xffffffffUL) {                           \
        bool sgc_first_ = ((g).mask & 1) != 0;                                  \
        T sgc_id_ = SGC_ID_##op(T);                                             \
        uint sgc_a_ = sgc_ptx_redux_##op(0xffffffffu, (uint)(sgc_first_ ? (x) : sgc_id_), \
                                         (T)-1 < (T)0);                         \
        uint sgc_b_ = sgc_ptx_redux_##op(0xffffffffu, (uint)(sgc_first_ ? sgc_id_ : (x)), \
                                         (T)-1 < (T)0);                         \
        return (T)(sgc_first_ ? sgc_a_ : sgc_b_);                               \
    }
#define SGC_NV_PAIR_plus(g, T, x) SGC_NV_PAIR(g, plus, T, x)
#define SGC_NV_PAIR_minimum(g, T, x) SGC_NV_PAIR(g, minimum, T, x)
#define SGC_NV_PAIR_maximum(g, T, x) SGC_NV_PAIR(g, maximum, T, x)
#define SGC_NV_PAIR_bit_and(g, T, x) SGC_NV_PAIR(g, bit_and, T, x)
#define SGC_NV_PAIR_bit_or(g, T, x) SGC_NV_PAIR(g, bit_or, T, x)
#define SGC_NV_PAIR_bit_xor(g, T, x) SGC_NV_PAIR(g, bit_xor, T, x)
#define SGC_NV_PAIR_logical_and(g, T, x) SGC_NV_PAIR(g, logical_and, T, x)
#define SGC_NV_PAIR_logical_or(g, T, x) SGC_NV_PAIR(g, logical_or, T, x)
#else
#define SGC_NV_PAIR_plus(g, T, x)
#define SGC_NV_PAIR_minimum(g, T, x)
#define SGC_NV_PAIR_maximum(g, T, x)
#define SGC_NV_PAIR_bit_and(g, T, x)
#define SGC_NV_PAIR_bit_or(g, T, x)
#define SGC_NV_PAIR_bit_xor(g, T, x)
#define SGC_NV_PAIR_logical_and(g, T, x)
#define SGC_NV_PAIR_logical_or(g, T, x)
#define SGC_NV_FAST_plus(m, T, x)
#define SGC_NV_FAST_minimum(m, T, x)
#define SGC_NV_FAST_maximum(m, T, x)
#define SGC_NV_FAST_bit_and(m, T, x)
#define SGC_NV_FAST_bit_or(m, T, x)
#define SGC_NV_FAST_bit_xor(m, T, x)
#define SGC_NV_FAST_logical_and(m, T, x)
#define SGC_NV_FAST_logical_or(m, T, x)
#endif
#define SGC_NV_FAST_multiplies(m, T, x)
#define SGC_NV_PAIR_multiplies(g, T, x)
/* nvptx, as in cuda_subgroup.cuh (warp_group, whole_warp):
 *  - the sub-group and a 32-lane fixed-size group (the same lanes): every
 *    member calls (docs/REFERENCE.md §6), so their own mask, the warp's existing lanes
 *    0..n-1, is valid with no test of the active lanes; the scans' ladder
 *    reads lower lanes only, so it serves a partial warp too; reduce on a
 *    full warp names the constant mask (redux.sync or the butterfly), which
 *    ptxas needs no convergence test for, and on a partial warp takes
 *    redux.sync or the ladder and a broadcast of the last member (measured
 *    as in cuda_subgroup.cuh's reduce_on_warp);
 *  - narrower fixed-size groups, when all 32 lanes run the call: every
 *    block is full and 0xffffffff a valid mask, so one test (the active
 *    mask) replaces the per-block one and ptxas emits bare shuffles; where
 *    sgcc proved every maker of the group reaches the call
 *    (sgc_with_creators), the vote taken when the group was made serves. */
#if defined(SGC_TIER_NVPTX)
#define SGC_NV_WARP_GROUP(g)                                                    \
    ((g).kind == SGC_KIND_SUB_GROUP || (SGC_FIXED(g) && (g).size == 32u))
#define SGC_NV_WHOLE_WARP(g) (SGC_FIXED(g) && (g).size < 32u && SGC_NV_ALL_LANES_AT_CALL(g))
#define SGC_NV_WARP_REDUCE(g, op, T, x)                                         \
    if (SGC_VOTE_##op != 0 && SGC_NV_WARP_GROUP(g))                             \
        return sgc_generic_reduce_under_##op##_##T((g).mask, (g).mask, x);      \
    if (SGC_NV_WARP_GROUP(g)) {                                                 \
        if ((g).mask == 0xffffffffUL) {                                         \
            SGC_NV_FAST_##op(0xffffffffu, T, x)                                 \
            return sgc_block_reduce_under_##op##_##T(0xffffffffUL, 32u, x);     \
        }                                                                       \
        SGC_NV_FAST_##op((g).mask, T, x)                                        \
        return sgc_block_prefix_reduce_under_##op##_##T((g).mask, 32u, x);      \
    }                                                                           \
    if (SGC_NV_WHOLE_WARP(g))                                                   \
        return sgc_block_reduce_under_##op##_##T(0xffffffffUL, (g).size, x);
#define SGC_NV_WARP_SCAN(g, op, T, algo, x)                                     \
    if (SGC_VOTE_##op != 0 && SGC_NV_WARP_GROUP(g))                             \
        return sgc_generic_##algo##_under_##op##_##T((g).mask, (g).mask, x);    \
    if (SGC_NV_WARP_GROUP(g))                                                   \
        return sgc_block_##algo##_under_##op##_##T((g).mask, 32u, x);           \
    if (SGC_NV_WHOLE_WARP(g))                                                   \
        return sgc_block_##algo##_under_##op##_##T(0xffffffffUL, (g).size, x);
/* Logical operators on the sub-group and on ballot, tangle and
 * opportunistic groups: one ballot (sgc_logical_by_vote), as on CUDA.
 * Ballot, tangle and opportunistic groups (cuda_subgroup.cuh,
 * reduce_on_mask): a ballot group with all 32 lanes at the call takes the
 * redux pair or the butterfly under the full mask; a group of the whole
 * warp redux.sync or the butterfly under the full mask; anything else
 * redux.sync on its own mask where the type allows (then the butterfly,
 * sgc_generic_reduce). */
#define SGC_NV_NU_REDUCE(g, op, T, x)                                           \
    if (SGC_VOTE_##op != 0)                                                     \
        return sgc_generic_reduce_##op##_##T(g, x);                             \
    if (SGC_NV_BALLOT_WHOLE_WARP(g)) {                                          \
        SGC_NV_PAIR_##op(g, T, x)                                               \
        return sgc_generic_reduce_under_##op##_##T(0xffffffffUL, (g).mask, x);  \
    }                                                                           \
    if ((g).mask == 0xffffffffUL) {                                             \
        SGC_NV_FAST_##op(0xffffffffu, T, x)                                     \
        return sgc_block_reduce_under_##op##_##T(0xffffffffUL, 32u, x);         \
    }                                                                           \
    SGC_NV_FAST_##op((g).mask, T, x)
#else
#define SGC_NV_WARP_REDUCE(g, op, T, x)
#define SGC_NV_WARP_SCAN(g, op, T, algo, x)
#define SGC_NV_NU_REDUCE(g, op, T, x)
#endif

/* The six public algorithms per (op, T).  With init: the exclusive scan's
 * first element gets init and init is folded into the rest (docs/REFERENCE.md §6). */
#define SGC_DEFINE_ALGOS(op, T)                                                 \
    SGC_INLINE T sgc_reduce_##op##_##T(sgc_group g, T x)                        \
    {                                                                           \
        x = SGC_IN_##op(T, x);                                                  \
        SGC_FAST_CORE_##op(g, reduce, x)                                        \
        SGC_KHR_NU(g, op, reduce, x)                                            \
        SGC_KHR_CLUSTERED(g, op, x)                                             \
        SGC_NV_WARP_REDUCE(g, op, T, x)                                         \
        if (SGC_BUTTERFLY_FIXED(g))                                             \
            return sgc_block_reduce_##op##_##T(g, x);                           \
        if (SGC_FIXED(g))                                                       \
            return sgc_block_prefix_reduce_##op##_##T(g, x);                    \
        SGC_NV_NU_REDUCE(g, op, T, x)                                           \
        return sgc_generic_reduce_##op##_##T(g, x);                        \
    }                                                                           \
    SGC_INLINE T sgc_inclusive_scan_##op##_##T(sgc_group g, T x)                \
    {                                                                           \
        x = SGC_IN_##op(T, x);                                                  \
        SGC_FAST_CORE_##op(g, scan_inclusive, x)                                \
        SGC_KHR_NU(g, op, scan_inclusive, x)                                    \
        SGC_NV_WARP_SCAN(g, op, T, inclusive, x)                                \
        if (SGC_FIXED(g))                                                       \
            return sgc_block_inclusive_##op##_##T(g, x);                        \
        return sgc_generic_inclusive_##op##_##T(g, x);                     \
    }                                                                           \
    SGC_INLINE T sgc_exclusive_scan_##op##_##T(sgc_group g, T x)                \
    {                                                                           \
        x = SGC_IN_##op(T, x);                                                  \
        SGC_FAST_CORE_##op(g, scan_exclusive, x)                                \
        SGC_KHR_NU_EXCLUSIVE_##T(g, op, x)                                      \
        SGC_NV_WARP_SCAN(g, op, T, exclusive, x)                                \
        if (SGC_FIXED(g))                                                       \
            return sgc_block_exclusive_##op##_##T(g, x);                        \
        return sgc_generic_exclusive_##op##_##T(g, x);                     \
    }                                                                           \
    SGC_INLINE T sgc_reduce_init_##op##_##T(sgc_group g, T x, T init)           \
    {                                                                           \
        T r = sgc_reduce_##op##_##T(g, x);                                      \
        return SGC_OP_##op(SGC_IN_##op(T, init), r);                            \
    }                                                                           \
    SGC_INLINE T sgc_inclusive_scan_init_##op##_##T(sgc_group g, T x, T init)   \
    {                                                                           \
        T r = sgc_inclusive_scan_##op##_##T(g, x);                              \
        return SGC_OP_##op(SGC_IN_##op(T, init), r);                            \
    }                                                                           \
    SGC_INLINE T sgc_exclusive_scan_init_##op##_##T(sgc_group g, T x, T init)   \
    {                                                                           \
        T r = sgc_exclusive_scan_##op##_##T(g, x);                              \
        return SGC_OP_##op(SGC_IN_##op(T, init), r);                            \
    }
SGC_OP_TYPE_PAIRS(SGC_DEFINE_ALGOS)
#undef SGC_DEFINE_ALGOS

/* Logical operators on the other integer types go through int. */
#define SGC_DEFINE_LOGICAL_WRAPPER(op, T)                                       \
    SGC_INLINE T sgc_reduce_##op##_##T(sgc_group g, T x)                        \
    {                                                                           \
        return (T)sgc_reduce_##op##_int(g, x != 0);                             \
    }                                                                           \
    SGC_INLINE T sgc_inclusive_scan_##op##_##T(sgc_group g, T x)                \
    {                                                                           \
        return (T)sgc_inclusive_scan_##op##_int(g, x != 0);                     \
    }                                                                           \
    SGC_INLINE T sgc_exclusive_scan_##op##_##T(sgc_group g, T x)                \
    {                                                                           \
        return (T)sgc_exclusive_scan_##op##_int(g, x != 0);                     \
    }                                                                           \
    SGC_INLINE T sgc_reduce_init_##op##_##T(sgc_group g, T x, T init)           \
    {                                                                           \
        return (T)sgc_reduce_init_##op##_int(g, x != 0, init != 0);             \
    }                                                                           \
    SGC_INLINE T sgc_inclusive_scan_init_##op##_##T(sgc_group g, T x, T init)   \
    {                                                                           \
        return (T)sgc_inclusive_scan_init_##op##_int(g, x != 0, init != 0);     \
    }                                                                           \
    SGC_INLINE T sgc_exclusive_scan_init_##op##_##T(sgc_group g, T x, T init)   \
    {                                                                           \
        return (T)sgc_exclusive_scan_init_##op##_int(g, x != 0, init != 0);     \
    }
SGC_LOGICAL_WRAPPERS(SGC_DEFINE_LOGICAL_WRAPPER)
#undef SGC_DEFINE_LOGICAL_WRAPPER

/* Small types: char uchar short ushort compute in W, int or uint
 * (gen_group_ops.c, opencl_small_wide), and convert back once.  Each step
 * of the algorithm is (T)(a op b) (docs/REFERENCE.md "Group algorithms and
 * operators"), and this is exact:
 *  - minimum maximum bit_and bit_or, in int: their results never leave T's
 *    range (one of the operands, or bits of theirs, sign-extended for a
 *    signed T), so nothing is lost before the conversion;
 *  - plus multiplies bit_xor, in uint: they wrap modulo 2^32 with no
 *    overflow, and uint -> T keeps the value modulo 2^8 or 2^16, which
 *    commutes with + * and ^; a total computed modulo 2^32 and converted
 *    once equals one converted at every step.
 * So the int and uint instances serve whole, the khr built-ins they take
 * (sub_group_reduce_add on uint...) included.  What W does not give is
 * the identity: the exclusive scan's first element is T's identity, and
 * W's minimum identity INT_MAX converts to -1 in short.  The scans without
 * init therefore pass T's identity, as a W, as the init, which the other
 * elements absorb (op(id, v) == v for every v of T). */
#define SGC_DEFINE_SMALL_WRAPPER(op, T, W)                                      \
    SGC_INLINE T sgc_reduce_##op##_##T(sgc_group g, T x)                        \
    {                                                                           \
        return (T)sgc_reduce_##op##_##W(g, (W)x);                               \
    }                                                                           \
    SGC_INLINE T sgc_inclusive_scan_##op##_##T(sgc_group g, T x)                \
    {                                                                           \
        return (T)sgc_inclusive_scan_##op##_##W(g, (W)x);                       \
    }                                                                           \
    SGC_INLINE T sgc_exclusive_scan_##op##_##T(sgc_group g, T x)                \
    {                                                                           \
        return (T)sgc_exclusive_scan_init_##op##_##W(g, (W)x, (W)SGC_ID_##op(T)); \
    }                                                                           \
    SGC_INLINE T sgc_reduce_init_##op##_##T(sgc_group g, T x, T init)           \
    {                                                                           \
        return (T)sgc_reduce_init_##op##_##W(g, (W)x, (W)init);                 \
    }                                                                           \
    SGC_INLINE T sgc_inclusive_scan_init_##op##_##T(sgc_group g, T x, T init)   \
    {                                                                           \
        return (T)sgc_inclusive_scan_init_##op##_##W(g, (W)x, (W)init);         \
    }                                                                           \
    SGC_INLINE T sgc_exclusive_scan_init_##op##_##T(sgc_group g, T x, T init)   \
    {                                                                           \
        return (T)sgc_exclusive_scan_init_##op##_##W(g, (W)x, (W)init);         \
    }
SGC_SMALL_PAIRS(SGC_DEFINE_SMALL_WRAPPER)
#undef SGC_DEFINE_SMALL_WRAPPER

#endif /* !SGC_TIER_WG */
