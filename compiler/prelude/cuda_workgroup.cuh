/* cuda_workgroup.cuh — prelude section "cuda_workgroup": group functions and
 * algorithms on the work-group (the thread block), SPEC §1.1.  Needs
 * "cuda_base" and "cuda_subgroup".
 *
 * Two levels: the warp algorithms of cuda_subgroup, then one value per warp
 * through shared memory, combined by warp 0 (at most 32 warps a block).  The
 * scratch is a static __shared__ array inside scratch() (legal in a __device__
 * function), so the emitter declares nothing; every call starts with
 * __syncthreads() so that back-to-back calls may reuse it. */

namespace sgc {

#define SGC_WG_SLOTS 256

__device__ __forceinline__ void *scratch()
{
    __shared__ unsigned long long slots[SGC_WG_SLOTS];
    return slots;
}

/* ---- data movement: chunks of SGC_WG_SLOTS sources through scratch ---- */

template <class T>
__device__ __forceinline__ T wg_from(T x, unsigned src, bool valid)
{
    T *s = (T *)scratch();
    unsigned lid = linear_local_id(), n = linear_local_size();
    T r = x;
    for (unsigned base = 0; base < n; base += SGC_WG_SLOTS) {
        unsigned cnt = n - base < SGC_WG_SLOTS ? n - base : SGC_WG_SLOTS;
        __syncthreads();
        if (lid >= base && lid - base < cnt)
            s[lid - base] = x;
        __syncthreads();
        if (valid && src >= base && src - base < cnt)
            r = s[src - base];
    }
    return r;
}

template <class T>
__device__ __forceinline__ T group_broadcast(work_group, T x)
{
    T *s = (T *)scratch();
    __syncthreads();
    if (linear_local_id() == 0)
        s[0] = x;
    __syncthreads();
    return s[0];
}

template <class T>
__device__ __forceinline__ T group_broadcast(work_group, T x, unsigned local_id)
{
    return wg_from(x, local_id, true);
}

template <class T>
__device__ __forceinline__ T select_from_group(work_group, T x, unsigned local_id)
{
    return wg_from(x, local_id, true);
}

template <class T>
__device__ __forceinline__ T shift_group_left(work_group, T x, unsigned delta = 1)
{
    unsigned lid = linear_local_id();
    return wg_from(x, lid + delta, lid + delta >= lid);
}

template <class T>
__device__ __forceinline__ T shift_group_right(work_group, T x, unsigned delta = 1)
{
    unsigned lid = linear_local_id();
    return wg_from(x, lid - delta, lid >= delta);
}

template <class T>
__device__ __forceinline__ T permute_group_by_xor(work_group, T x, unsigned mask)
{
    return wg_from(x, linear_local_id() ^ mask, true);
}

/* ---- votes ---- */

__device__ __forceinline__ bool any_of_group(work_group, bool p) { return __syncthreads_or(p) != 0; }
__device__ __forceinline__ bool all_of_group(work_group, bool p) { return __syncthreads_and(p) != 0; }
__device__ __forceinline__ bool none_of_group(work_group, bool p) { return __syncthreads_or(p) == 0; }

/* ---- reductions and scans ---- */

/* Exclusive prefix of the caller's warp over the warps' values `v` (written
 * by the lane with `writer` set); *total gets the block total. */
template <class T, class Op>
__device__ __forceinline__ T warp_prefix(T v, bool writer, Op op, T *total)
{
    T *s = (T *)scratch();
    unsigned w = sub_group_id(), l = lane(), nw = num_sub_groups();
    __syncthreads();
    if (writer)
        s[w] = v;
    __syncthreads();
    if (w == 0) {
        group g0 = get_sub_group();
        T mine = l < nw ? s[l] : Op::template identity<T>();
        T excl = exclusive_scan_over_group(g0, mine, op);
        T all = reduce_over_group(g0, mine, op);
        s[l] = excl;
        if (l == 0)
            s[32] = all;
    }
    __syncthreads();
    *total = s[32];
    return s[w];
}

template <class T, class Op>
__device__ __forceinline__ T reduce_over_group(work_group, T x, Op op)
{
    T part = reduce_over_group(get_sub_group(), x, op), total;
    (void)warp_prefix(part, lane() == 0, op, &total);
    return total;
}

template <class T, class Op>
__device__ __forceinline__ T inclusive_scan_over_group(work_group, T x, Op op)
{
    T incl = inclusive_scan_over_group(get_sub_group(), x, op), total;
    T prefix = warp_prefix(incl, lane() + 1 == sub_group_size(), op, &total);
    return op(prefix, incl);
}

template <class T, class Op>
__device__ __forceinline__ T exclusive_scan_over_group(work_group, T x, Op op)
{
    T excl = exclusive_scan_over_group(get_sub_group(), x, op), total;
    T prefix = warp_prefix(op(excl, Op::in(x)), lane() + 1 == sub_group_size(), op, &total);
    return op(prefix, excl);
}

template <class T, class Op>
__device__ __forceinline__ T reduce_over_group(work_group g, T x, T init, Op op)
{
    return op(Op::in(init), reduce_over_group(g, x, op));
}

template <class T, class Op>
__device__ __forceinline__ T exclusive_scan_over_group(work_group g, T x, T init, Op op)
{
    return op(Op::in(init), exclusive_scan_over_group(g, x, op));
}

template <class T, class Op>
__device__ __forceinline__ T inclusive_scan_over_group(work_group g, T x, Op op, T init)
{
    return op(Op::in(init), inclusive_scan_over_group(g, x, op));
}

} /* namespace sgc */
