/* cuda_workgroup.cuh — prelude section "cuda_workgroup": group functions and
 * algorithms on the work-group (the thread block), docs/REFERENCE.md §6.  Needs
 * "cuda_base" and "cuda_subgroup".
 *
 * Reductions and scans have two strategies (docs/GROUPS.md, "Work-group
 * strategies"), chosen by SGC_WG_STRATEGY (sgrt always defines it):
 *   SGC_WG_SUBGROUP (3, the default): the warp algorithms of cuda_subgroup
 *     (__reduce_*_sync where the type allows), then one value per warp
 *     through shared memory, combined by warp 0 (at most 32 warps a block);
 *   SGC_WG_TREE (1): a log-step tree in shared memory, thread by thread.
 * CUDA has no work-group built-ins: SGC_WG_BUILTIN (2) is an error.  The
 * scratch is a static __shared__ array inside scratch() (legal in a
 * __device__ function), so the emitter declares nothing; every call starts
 * with __syncthreads() so that back-to-back calls may reuse it. */

/* Same values as sgrt_wg_strategy (runtime/sgrt.h) and opencl_workgroup.cl. */
#define SGC_WG_TREE 1
#define SGC_WG_BUILTIN 2
#define SGC_WG_SUBGROUP 3
#if !defined(SGC_WG_STRATEGY)
#define SGC_WG_STRATEGY SGC_WG_SUBGROUP
#endif
#if SGC_WG_STRATEGY == SGC_WG_BUILTIN
#error "sgc: work-group strategy 'builtin' needs OpenCL C 2.0 work-group collective functions, not supported on CUDA"
#elif SGC_WG_STRATEGY != SGC_WG_TREE && SGC_WG_STRATEGY != SGC_WG_SUBGROUP
#error "sgc: SGC_WG_STRATEGY must be 1 (tree), 2 (builtin) or 3 (subgroup)"
#endif

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

#if SGC_WG_STRATEGY == SGC_WG_TREE
/* Tree strategy, as in opencl_workgroup.cl: threads fold into
 * SGC_WG_SLOTS slots chunk by chunk, then a log-step tree halves the
 * occupied slots; scans are Hillis-Steele per chunk with a carry. */
template <class T, class Op>
__device__ __forceinline__ T reduce_over_group(work_group, T x, Op op)
{
    T *s = (T *)scratch();
    unsigned lid = linear_local_id(), n = linear_local_size();
    x = Op::in(x);
    __syncthreads();
    if (lid < SGC_WG_SLOTS)
        s[lid] = x;
    for (unsigned base = SGC_WG_SLOTS; base < n; base += SGC_WG_SLOTS) {
        __syncthreads();
        if (lid >= base && lid - base < SGC_WG_SLOTS)
            s[lid - base] = op(s[lid - base], x);
    }
    for (unsigned m = n < SGC_WG_SLOTS ? n : SGC_WG_SLOTS; m > 1;) {
        unsigned upper = (m + 1) / 2;
        __syncthreads();
        if (lid + upper < m)
            s[lid] = op(s[lid], s[lid + upper]);
        m = upper;
    }
    __syncthreads();
    return s[0];
}

template <class T, class Op>
__device__ __forceinline__ T tree_scan(T x, Op op, bool inclusive)
{
    T *s = (T *)scratch();
    unsigned lid = linear_local_id(), n = linear_local_size();
    T carry = Op::template identity<T>(), mine = carry;
    x = Op::in(x);
    for (unsigned base = 0; base < n; base += SGC_WG_SLOTS) {
        unsigned cnt = n - base < SGC_WG_SLOTS ? n - base : SGC_WG_SLOTS, i = lid - base;
        bool in = lid >= base && i < cnt;
        __syncthreads();
        if (in)
            s[i] = x;
        for (unsigned d = 1; d < cnt; d <<= 1) {
            __syncthreads();
            T t = in && i >= d ? s[i - d] : Op::template identity<T>();
            __syncthreads();
            if (in && i >= d)
                s[i] = op(t, s[i]);
        }
        __syncthreads();
        if (in)
            mine = inclusive ? op(carry, s[i]) : i > 0 ? op(carry, s[i - 1]) : carry;
        carry = op(carry, s[cnt - 1]);
    }
    return mine;
}

template <class T, class Op>
__device__ __forceinline__ T inclusive_scan_over_group(work_group, T x, Op op)
{
    return tree_scan(x, op, true);
}

template <class T, class Op>
__device__ __forceinline__ T exclusive_scan_over_group(work_group, T x, Op op)
{
    return tree_scan(x, op, false);
}

#else /* SGC_WG_SUBGROUP */
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

/* Reduce needs no prefix: each warp's lane 0 publishes the warp's total,
 * warp 0 reduces those (one warp reduction, __reduce_*_sync where the type
 * allows) and publishes the block's total. */
template <class T, class Op>
__device__ __forceinline__ T reduce_over_group(work_group, T x, Op op)
{
    T *s = (T *)scratch();
    T part = reduce_over_group(get_sub_group(), x, op);
    unsigned w = sub_group_id(), l = lane(), nw = num_sub_groups();
    __syncthreads();
    if (l == 0)
        s[w] = part;
    __syncthreads();
    if (w == 0) {
        T all = reduce_over_group(get_sub_group(), l < nw ? s[l] : Op::template identity<T>(), op);
        if (l == 0)
            s[32] = all;
    }
    __syncthreads();
    return s[32];
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

#endif

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
