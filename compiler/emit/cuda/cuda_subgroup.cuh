/* cuda_subgroup.cuh — prelude section "cuda_subgroup": the group functions
 * and algorithms of docs/REFERENCE.md §6 on sub-group-scope groups (sgc::group).
 * Needs "cuda_base".
 *
 * Everything works from the group's mask, so one implementation is correct
 * for contiguous and scattered members alike: each member takes part in
 * every shuffle of the group, reading member lanes only.
 * int/unsigned reductions use __reduce_*_sync (sm_80+), which take any mask.
 * A shift/select/permute whose source is outside the group returns the
 * caller's own value (docs/REFERENCE.md §6, unlike SYCL). */

namespace sgc {

template <class A, class B> struct same { static constexpr bool value = false; };
template <class A> struct same<A, A> { static constexpr bool value = true; };

/* ---- data movement ---- */

/* The value of the member of rank `rank`, or the caller's own when !valid
 * or the rank is outside the group. */
template <class T>
__device__ __forceinline__ T from_rank(group g, T x, unsigned rank, bool valid)
{
    valid = valid && rank < (unsigned)__popc(g.mask);
    unsigned src = valid ? lane_of_rank(g.mask, rank) : lane();
    return shfl(x, src, g.mask);
}

template <class T>
__device__ __forceinline__ T group_broadcast(group g, T x)
{
    return shfl(x, __ffs(g.mask) - 1u, g.mask);
}

template <class T>
__device__ __forceinline__ T group_broadcast(group g, T x, unsigned local_id)
{
    return from_rank(g, x, local_id, true);
}

template <class T>
__device__ __forceinline__ T select_from_group(group g, T x, unsigned local_id)
{
    return from_rank(g, x, local_id, true);
}

template <class T>
__device__ __forceinline__ T shift_group_left(group g, T x, unsigned delta = 1)
{
    unsigned r = g.get_local_linear_id();
    return from_rank(g, x, r + delta, r + delta >= r);
}

template <class T>
__device__ __forceinline__ T shift_group_right(group g, T x, unsigned delta = 1)
{
    unsigned r = g.get_local_linear_id();
    return from_rank(g, x, r - delta, r >= delta);
}

template <class T>
__device__ __forceinline__ T permute_group_by_xor(group g, T x, unsigned mask)
{
    return from_rank(g, x, g.get_local_linear_id() ^ mask, true);
}

/* ---- votes ---- */

__device__ __forceinline__ bool any_of_group(group g, bool p) { return __any_sync(g.mask, p); }
__device__ __forceinline__ bool all_of_group(group g, bool p) { return __all_sync(g.mask, p); }
__device__ __forceinline__ bool none_of_group(group g, bool p) { return !__any_sync(g.mask, p); }

/* ---- reductions and scans ---- */

/* __reduce_*_sync where the type and the architecture allow; false
 * otherwise. */
template <class T, class Op>
__device__ __forceinline__ bool native_reduce(unsigned mask, T x, T *r)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (same<T, int>::value || same<T, unsigned>::value) {
        if constexpr (same<Op, plus>::value) {
            *r = (T)__reduce_add_sync(mask, x);
            return true;
        } else if constexpr (same<Op, minimum>::value) {
            *r = (T)__reduce_min_sync(mask, x);
            return true;
        } else if constexpr (same<Op, maximum>::value) {
            *r = (T)__reduce_max_sync(mask, x);
            return true;
        } else if constexpr (same<Op, bit_and>::value || same<Op, logical_and>::value) {
            *r = (T)__reduce_and_sync(mask, (unsigned)x);
            return true;
        } else if constexpr (same<Op, bit_or>::value || same<Op, logical_or>::value) {
            *r = (T)__reduce_or_sync(mask, (unsigned)x);
            return true;
        } else if constexpr (same<Op, bit_xor>::value) {
            *r = (T)__reduce_xor_sync(mask, (unsigned)x);
            return true;
        }
    }
#endif
    (void)mask, (void)x, (void)r;
    return false;
}

/* Whether native_reduce takes T and Op. */
template <class T, class Op>
__device__ constexpr bool has_native_reduce()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return (same<T, int>::value || same<T, unsigned>::value) && !same<Op, multiplies>::value;
#else
    return false;
#endif
}

/* Groups of any member mask m (ballot, tangle, opportunistic): the xor
 * butterfly and the scan ladder by aligned blocks of lanes, five rounds
 * whatever the members, like the sub-group's.  Round d (1, 2, ..., 16)
 * joins the aligned d-lane block holding the caller with its partner
 * block, the one holding lane ^ d.  What a block's members have combined
 * so far, any member of it holds -- its last member holds it in the scan
 * -- so each round reads one value from partner_last, the partner block's
 * last member, a member whatever the mask; a partner block with no member
 * contributes nothing (the caller reads its own value and keeps x).
 * Lower lanes stay on the left of the operator, so members end with the
 * same bits in a reduce.  The source lanes depend on m and the lane only:
 * in a loop of calls on one group nvcc computes them once (docs/GROUPS.md
 * "Any mask"). */
__device__ __forceinline__ unsigned partner_last(unsigned m, unsigned l, unsigned d)
{
    unsigned part = m & (((1u << d) - 1u) << ((l ^ d) & ~(d - 1u)));
    return part != 0u ? 31u - __clz(part) : l;
}

/* Which algorithm a shared path runs. */
enum block_algo { BLOCK_REDUCE, BLOCK_INCLUSIVE, BLOCK_EXCLUSIVE };

/* Where a round has nothing to join (no member in the partner block), the
 * caller has read its own value (src == l).  An idempotent operator (min,
 * max, and, or) then joins x with itself, which gives x: no test of src,
 * whose compare ptxas had folded with the operator's own into one
 * predicate recomputed every round (bench/group_ops.c, H200: 64-bit
 * minimum reduces of a tangle group 2.2x -> 1.2x of the sub-group). */
template <class T, class Op>
__device__ __forceinline__ T mask_reduce_under(unsigned sm, unsigned m, T x, Op op)
{
    unsigned l = lane();
#pragma unroll
    for (unsigned d = 1; d < 32u; d <<= 1) {
        unsigned src = partner_last(m, l, d);
        T y = shfl(x, src, sm);
        if (Op::idempotent || src != l)
            x = (l & d) != 0u ? op(y, x) : op(x, y);
    }
    return x;
}

/* After round d, x is the inclusive scan over the members of the caller's
 * aligned 2d-lane block; the last member of a block holds its total.  Only
 * a caller whose partner block lies below joins (l & d); an idempotent
 * operator needs no test of src.  (Making the callers above read their own
 * lane instead, so that an idempotent join needs no test at all, made
 * ptxas recompute the source lanes in the loop: plus scans 1.5x -> 2.8x of
 * the sub-group, bench/RESULTS.md.) */
template <class T, class Op>
__device__ __forceinline__ T mask_inclusive_under(unsigned sm, unsigned m, T x, Op op)
{
    unsigned l = lane();
#pragma unroll
    for (unsigned d = 1; d < 32u; d <<= 1) {
        unsigned src = partner_last(m, l, d);
        T y = shfl(x, src, sm);
        if ((l & d) != 0u && (Op::idempotent || src != l))
            x = op(y, x);
    }
    return x;
}

/* Logical operators on any mask: one vote instead of a ladder.  Inputs
 * are truth values (Op::in), so a reduce asks whether every member
 * (logical_and) or any member (logical_or) holds true, and a scan asks the
 * same of the members up to the caller (inclusive) or below it
 * (exclusive; none below gives the identity, true or false).  Op::logical
 * and Op::every come from the operator table (cuda_base.cuh). */

template <block_algo A, class T, class Op>
__device__ __forceinline__ T logical_by_vote(unsigned sm, unsigned m, T x)
{
    unsigned l = lane();
    unsigned upto = A == BLOCK_REDUCE      ? 0xffffffffu
                    : A == BLOCK_INCLUSIVE ? (2u << l) - 1u /* lane 31: 0 - 1 */
                                           : (1u << l) - 1u;
    unsigned asked = m & upto, yes = __ballot_sync(sm, x != T(0)) & asked;
    if constexpr (Op::every)
        return T(yes == asked);
    else
        return T(yes != 0u);
}

/* The inclusive value of the previous member. */
template <class T, class Op>
__device__ __forceinline__ T mask_exclusive_under(unsigned sm, unsigned m, T x, Op op)
{
    unsigned l = lane(), below = m & ((1u << l) - 1u);
    T y = mask_inclusive_under(sm, m, x, op);
    T t = shfl(y, below != 0u ? 31u - __clz(below) : l, sm);
    return below != 0u ? t : Op::template identity<T>();
}

/* Aligned blocks (fixed-size groups and the sub-group): g.size is a
 * constant after inlining, so these loops unroll into the xor butterfly and
 * the shift-up ladder of cooperative groups' tiles, with no rank
 * arithmetic.
 *
 * Blocks shuffle under one mask for every lane running this code, not
 * the block's own N lanes: when the 32/N blocks of a converged warp each
 * name only their own lanes, the hardware serialises the shuffle per
 * distinct mask (2.2x slower for N = 4, bench/gpu_shfl_masks.cu).
 *
 * With the whole warp active (whole_warp) that mask is the constant
 * 0xffffffff, and that one test also proves the block full: a group with
 * aligned blocks (g.size != 0) has the sub-group as parent, whose lanes all
 * exist when all 32 run.  ptxas then emits bare shuffles after one
 * convergence test, where a mask known only at run time costs a
 * MATCH.ANY/REDUX.OR test before each shuffle (SASS of the same benchmark),
 * and no per-block test is left on that path.  Otherwise (on_fixed) the
 * active lanes plus the block's own, so each shuffle waits for a block the
 * warp has split under; the other lanes in the mask run the same unrolled
 * shuffles (same call site, same N, same path).
 * 32-lane blocks need no test at all (warp_group, below).
 *
 * The butterfly combines the lower lane's value on the left, so every
 * member ends with the same bits (floating min/max of -0/+0 and NaNs
 * included). */
template <class T, class Op>
__device__ __forceinline__ T block_reduce_under(unsigned mask, unsigned size, T x, Op op)
{
    unsigned l = lane();
    for (unsigned d = size >> 1; d > 0u; d >>= 1) {
        T y = shfl(x, l ^ d, mask);
        x = (l & d) != 0u ? op(y, x) : op(x, y);
    }
    return x;
}

/* The shift-up ladder, as shfl.up with a width of the block: no source-lane
 * arithmetic per round.  On the H100 this measured slower than shfl.idx
 * while masks were known only at run time (fifth session: sub-group uint
 * scan 0.70x -> 0.64x of cooperative groups) and faster once the common
 * paths named constant masks (sixth: 0.98x -> 1.00x, fixed8 scan uint
 * 1.03x -> 1.08x; bench/RESULTS.md).  Every lane of a mask runs this same
 * code (see on_fixed). */
template <class T, class Op>
__device__ __forceinline__ T block_inclusive_under(unsigned mask, unsigned size, T x, Op op)
{
    unsigned r = lane() & (size - 1u);
    for (unsigned d = 1; d < size; d <<= 1) {
        T y = shfl_up(x, d, size, mask);
        if (r >= d)
            x = op(y, x);
    }
    return x;
}

template <class T, class Op>
__device__ __forceinline__ T block_exclusive_under(unsigned mask, unsigned size, T x, Op op)
{
    unsigned l = lane(), r = l & (size - 1u);
    T y = block_inclusive_under(mask, size, x, op);
    T t = shfl(y, r > 0 ? l - 1u : l, mask);
    return r > 0 ? t : Op::template identity<T>();
}

/* Reduce for a block whose members are its first lanes, full or not: the
 * ladder, then the total of its last member, lane `last` (the twin of
 * opencl_subgroup.cl's sgc_block_prefix_reduce_under). */
template <class T, class Op>
__device__ __forceinline__ T block_prefix_reduce_under(unsigned mask, unsigned size, unsigned last,
                                                       T x, Op op)
{
    T y = block_inclusive_under(mask, size, x, op);
    return shfl(y, last, mask);
}

template <block_algo A, class T, class Op>
__device__ __forceinline__ T block_algo_under(unsigned mask, unsigned size, T x, Op op)
{
    if constexpr (A == BLOCK_REDUCE)
        return block_reduce_under(mask, size, x, op);
    else if constexpr (A == BLOCK_INCLUSIVE)
        return block_inclusive_under(mask, size, x, op);
    else
        return block_exclusive_under(mask, size, x, op);
}

/* The sub-group, or a fixed-size group of 32 (the same lanes): every
 * member calls the algorithm (docs/REFERENCE.md §6), so its own mask -- the lanes of
 * the warp that exist, always lanes 0..n-1 -- is a valid shuffle mask with
 * no test of the active lanes. */
__device__ __forceinline__ bool warp_group(group g) { return g.size == 32u; }

/* Reduce on a 32-lane group.  A full warp names the constant mask: ptxas
 * guards redux.sync or a shuffle under a mask it knows only at run time
 * with a convergence test of its own (bench/gpu_shfl_masks.cu), and the
 * test of g.mask here is on a value a loop of calls does not change
 * (H100, sub_group reduce uint: 0.85x -> 0.89x of cooperative groups).
 * The scans keep g.mask alone: the same split measured slower there
 * (sub_group scan uint 0.91x -> 0.81x), bench/RESULTS.md.  A partial warp
 * reduces by the ladder and a broadcast of its last member. */
template <class T, class Op>
__device__ __forceinline__ T reduce_on_warp(group g, T x, Op op)
{
    T r;
    if (g.mask == 0xffffffffu) {
        if (native_reduce<T, Op>(0xffffffffu, x, &r))
            return r;
        return block_reduce_under(0xffffffffu, 32u, x, op);
    }
    if (native_reduce<T, Op>(g.mask, x, &r))
        return r;
    return block_prefix_reduce_under(g.mask, 32u, last_lane(g.mask), x, op);
}

/* A fixed-size group narrower than the warp.  Its parent is the sub-group,
 * whose lanes are 0..n-1, so its members are the first lanes of its aligned
 * block: all N, or fewer in the last block of a partial warp. */
__device__ __forceinline__ bool narrow_fixed(group g) { return g.size != 0u && g.size < 32u; }

/* All 32 lanes run this call: every block of a narrow fixed-size group is
 * full and 0xffffffff is a valid shuffle mask (said above), and both
 * partitions of a ballot group of the whole warp are at the call
 * (ballot_whole_warp).  When the compiler proved that every lane that made
 * g runs this call (with_creators), the whole warp having made g is
 * enough: the fact recorded at creation replaces a vote per call
 * (bench/gpu_fixed_forms.cu: "hoisted" against "library"). */
__device__ __forceinline__ bool whole_warp(group g)
{
    return g.creators_call ? g.whole_at_creation : __activemask() == 0xffffffffu;
}

/* Algorithm A on a narrow fixed-size group.  Not the whole warp: the
 * lanes of a partial warp when all are at the call, else the block's own
 * (below), and the ladder (it reads lower lanes
 * only) serves a partial block too, so no rank arithmetic and no loop
 * with a run-time trip count is left.  That keeps the call small enough
 * for nvcc to unroll a loop of calls around the whole-warp test.
 *
 * Every lane the mask names runs the same shuffles here, full block or
 * partial: reduce is the ladder and a broadcast of the block's last member
 * for all of them.  Lanes of one mask at different shuffle instructions
 * gave wrong results on the H100 (full blocks on shfl.bfly, a partial one
 * on shfl.idx: 77 failed checks at local size 37, bench/RESULTS.md), and
 * PTX does not promise the idx-only mix that used to pass either. */
template <block_algo A, class T, class Op>
__device__ __forceinline__ T on_fixed(group g, T x, Op op)
{
    if (whole_warp(g))
        return block_algo_under<A>(0xffffffffu, g.size, x, op);
    /* Every lane of the warp at the call (a test all of them answer
     * alike), else the block's own lanes.  Not __activemask() | g.mask:
     * lanes of one block that reach the call apart (after divergent code)
     * would name different masks in one shuffle, which is undefined: wrong
     * values and hangs on the H200 (docs/RELIABILITY.md, case
     * cuda_fixed_mask_diverged). */
    unsigned present = sub_group_mask();
    unsigned mask = __activemask() == present ? present : g.mask;
    if constexpr (A == BLOCK_REDUCE)
        return block_prefix_reduce_under(mask, g.size, last_lane(g.mask), x, op);
    else
        return block_algo_under<A>(mask, g.size, x, op);
}

/* Ballot, tangle and opportunistic groups.  Shuffle masks in a reduce:
 *  - a ballot group with all 32 lanes at the call (a converged warp's two
 *    partitions): the constant full mask for every lane -- no convergence
 *    test before each shuffle, and the partitions' distinct masks are not
 *    serialised (as in on_fixed);
 *  - a group of the whole warp (a tangle or opportunistic group in
 *    converged code): the same constant, with no test of the active lanes
 *    (every member calls), and the sub-group's own algorithms;
 *  - otherwise the group's own mask.
 * Only ballot groups pay the __activemask() test (g.pair is 0 for the
 * others, a constant after inlining): in divergent code, where tangle and
 * opportunistic groups live, it never holds, and it cost their 32-bit
 * reduces 45 % (tangle reduce uint 0.042 -> 0.060 ms on the H200,
 * bench/RESULTS.md).
 *
 * A 32-bit integer reduce takes __reduce_*_sync.  Under the partitions'
 * own masks a converged warp runs one per distinct mask (ballot reduce
 * uint: 3.4x the sub-group's time); when both partitions of a ballot of
 * the whole warp are at the call, two reduces under the full mask serve
 * both, each partition's lanes giving the identity to the other's: my
 * result is the one of the partition holding lane 0, or the other one. */
__device__ __forceinline__ bool ballot_whole_warp(group g)
{
    return g.pair != 0u && whole_warp(g);
}

template <class T, class Op>
__device__ __forceinline__ T reduce_on_mask(group g, T x, Op op)
{
    T r, other;
    if (ballot_whole_warp(g)) {
        if constexpr (has_native_reduce<T, Op>()) {
            if (g.pair == 0xffffffffu) {
                T id = Op::template identity<T>();
                bool first = (g.mask & 1u) != 0u;
                native_reduce<T, Op>(0xffffffffu, first ? x : id, &r);
                native_reduce<T, Op>(0xffffffffu, first ? id : x, &other);
                return first ? r : other;
            }
        }
        return mask_reduce_under(0xffffffffu, g.mask, x, op);
    }
    if (g.mask == 0xffffffffu) {
        if (native_reduce<T, Op>(0xffffffffu, x, &r))
            return r;
        return block_reduce_under(0xffffffffu, 32u, x, op);
    }
    if (native_reduce<T, Op>(g.mask, x, &r))
        return r;
    return mask_reduce_under(g.mask, g.mask, x, op);
}

/* Scans test the active lanes on every kind (a ballot group with the
 * creation fact takes the fact): the full mask when all 32 lanes are at
 * the call, else the group's.  (Testing g.pair and g.mask
 * first, as the reduce does, measured slower on the H200: ballot scan uint
 * 1.32x -> 1.57x of the sub-group, tangle 2.71x -> 3.33x;
 * bench/RESULTS.md.) */
template <block_algo A, class T, class Op>
__device__ __forceinline__ T scan_on_mask(group g, T x, Op op)
{
    if ((g.creators_call && g.whole_at_creation) || __activemask() == 0xffffffffu) {
        if constexpr (A == BLOCK_INCLUSIVE)
            return mask_inclusive_under(0xffffffffu, g.mask, x, op);
        else
            return mask_exclusive_under(0xffffffffu, g.mask, x, op);
    }
    if constexpr (A == BLOCK_INCLUSIVE)
        return mask_inclusive_under(g.mask, g.mask, x, op);
    else
        return mask_exclusive_under(g.mask, g.mask, x, op);
}

/* The shuffle mask of a vote on g outside the fixed-size path: the full
 * one for a ballot group with all 32 lanes at the call (as in
 * reduce_on_mask), else the group's own. */
__device__ __forceinline__ unsigned vote_mask(group g)
{
    return ballot_whole_warp(g) ? 0xffffffffu : g.mask;
}

template <class T, class Op>
__device__ __forceinline__ T reduce_over_group(group g, T x, Op op)
{
    x = Op::in(x);
    if constexpr (Op::logical)
        if (!narrow_fixed(g))
            return logical_by_vote<BLOCK_REDUCE, T, Op>(vote_mask(g), g.mask, x);
    if (warp_group(g))
        return reduce_on_warp(g, x, op);
    if (narrow_fixed(g))
        return on_fixed<BLOCK_REDUCE>(g, x, op);
    return reduce_on_mask(g, x, op);
}

template <class T, class Op>
__device__ __forceinline__ T inclusive_scan_over_group(group g, T x, Op op)
{
    if constexpr (Op::logical)
        if (!narrow_fixed(g))
            return logical_by_vote<BLOCK_INCLUSIVE, T, Op>(vote_mask(g), g.mask, Op::in(x));
    /* The ladder reads lower lanes only: right for a partial warp too. */
    if (warp_group(g))
        return block_inclusive_under(g.mask, 32u, Op::in(x), op);
    if (narrow_fixed(g))
        return on_fixed<BLOCK_INCLUSIVE>(g, Op::in(x), op);
    return scan_on_mask<BLOCK_INCLUSIVE>(g, Op::in(x), op);
}

template <class T, class Op>
__device__ __forceinline__ T exclusive_scan_over_group(group g, T x, Op op)
{
    if constexpr (Op::logical)
        if (!narrow_fixed(g))
            return logical_by_vote<BLOCK_EXCLUSIVE, T, Op>(vote_mask(g), g.mask, Op::in(x));
    if (warp_group(g))
        return block_exclusive_under(g.mask, 32u, Op::in(x), op);
    if (narrow_fixed(g))
        return on_fixed<BLOCK_EXCLUSIVE>(g, Op::in(x), op);
    return scan_on_mask<BLOCK_EXCLUSIVE>(g, Op::in(x), op);
}

/* With init (docs/REFERENCE.md §6): init is folded in on the left; the exclusive
 * scan's first element gets init.  Argument orders are SGC's. */
template <class T, class Op>
__device__ __forceinline__ T reduce_over_group(group g, T x, T init, Op op)
{
    return op(Op::in(init), reduce_over_group(g, x, op));
}

template <class T, class Op>
__device__ __forceinline__ T exclusive_scan_over_group(group g, T x, T init, Op op)
{
    return op(Op::in(init), exclusive_scan_over_group(g, x, op));
}

template <class T, class Op>
__device__ __forceinline__ T inclusive_scan_over_group(group g, T x, Op op, T init)
{
    return op(Op::in(init), inclusive_scan_over_group(g, x, op));
}

} /* namespace sgc */
