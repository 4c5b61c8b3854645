/* opencl_workgroup.cl — prelude section "opencl_workgroup": group functions
 * and algorithms on the work-group (SPEC §1.1), for every tier.  Needs
 * "opencl_base", and "opencl_subgroup" before it outside the wg tier.
 *
 * The emitter declares the scratch at kernel scope and passes it to every
 * call:  __local ulong sgc_wg_scratch[SGC_WG_SCRATCH_SLOTS];
 * A fixed number of slots serves any work-group size: items are processed in
 * chunks of SGC_WG_SCRATCH_SLOTS.  An item is a work-item in the wg tier and
 * a sub-group elsewhere (the sub-group algorithms do the first level).  Where
 * OpenCL 2.0 work-group collectives exist, add/min/max use them. */

#if defined(SGC_TIER_WG)
#define SGC_WG_SCRATCH_SLOTS 256
#else
#define SGC_WG_SCRATCH_SLOTS 64
#endif

/* ---- data movement: every work-item reads one source work-item ---- */

/* Sources are published chunk by chunk; a source outside the work-group
 * leaves the caller's own value (SPEC §1.1). */
#define SGC_DEFINE_WG_MOVE(T)                                                   \
    inline T sgc_wg_from_##T(__local void *scratch, T x, uint src, bool valid)  \
    {                                                                           \
        __local T *s = (__local T *)scratch;                                    \
        uint lid = sgc_linear_local_id(), n = sgc_linear_local_size();          \
        T r = x;                                                                \
        for (uint base = 0; base < n; base += SGC_WG_SCRATCH_SLOTS) {           \
            uint cnt = min(n - base, (uint)SGC_WG_SCRATCH_SLOTS);               \
            barrier(CLK_LOCAL_MEM_FENCE);                                       \
            if (lid >= base && lid - base < cnt)                                \
                s[lid - base] = x;                                              \
            barrier(CLK_LOCAL_MEM_FENCE);                                       \
            if (valid && src >= base && src - base < cnt)                       \
                r = s[src - base];                                              \
        }                                                                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        return r;                                                               \
    }                                                                           \
    inline T sgc_wg_select_##T(sgc_work_group g, __local void *scratch, T x,    \
                               uint local_id)                                   \
    {                                                                           \
        (void)g;                                                                \
        return sgc_wg_from_##T(scratch, x, local_id, true);                     \
    }                                                                           \
    inline T sgc_wg_broadcast_id_##T(sgc_work_group g, __local void *scratch,   \
                                     T x, uint local_id)                        \
    {                                                                           \
        (void)g;                                                                \
        return sgc_wg_from_##T(scratch, x, local_id, true);                     \
    }                                                                           \
    inline T sgc_wg_broadcast_##T(sgc_work_group g, __local void *scratch, T x) \
    {                                                                           \
        __local T *s = (__local T *)scratch;                                    \
        (void)g;                                                                \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        if (sgc_linear_local_id() == 0)                                         \
            s[0] = x;                                                           \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        T r = s[0];                                                             \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        return r;                                                               \
    }                                                                           \
    inline T sgc_wg_shift_left_##T(sgc_work_group g, __local void *scratch,     \
                                   T x, uint delta)                             \
    {                                                                           \
        uint lid = sgc_linear_local_id();                                       \
        (void)g;                                                                \
        return sgc_wg_from_##T(scratch, x, lid + delta, lid + delta >= lid);    \
    }                                                                           \
    inline T sgc_wg_shift_right_##T(sgc_work_group g, __local void *scratch,    \
                                    T x, uint delta)                            \
    {                                                                           \
        uint lid = sgc_linear_local_id();                                       \
        (void)g;                                                                \
        return sgc_wg_from_##T(scratch, x, lid - delta, lid >= delta);          \
    }                                                                           \
    inline T sgc_wg_permute_xor_##T(sgc_work_group g, __local void *scratch,    \
                                    T x, uint mask)                             \
    {                                                                           \
        (void)g;                                                                \
        return sgc_wg_from_##T(scratch, x, sgc_linear_local_id() ^ mask, true); \
    }
SGC_TYPES_ARITH(SGC_DEFINE_WG_MOVE)
#undef SGC_DEFINE_WG_MOVE

#define SGC_DEFINE_WG_MOVE_SMALL(T)                                             \
    inline T sgc_wg_select_##T(sgc_work_group g, __local void *s, T x, uint id) \
    {                                                                           \
        return (T)sgc_wg_select_int(g, s, (int)x, id);                          \
    }                                                                           \
    inline T sgc_wg_broadcast_id_##T(sgc_work_group g, __local void *s, T x,    \
                                     uint id)                                   \
    {                                                                           \
        return (T)sgc_wg_broadcast_id_int(g, s, (int)x, id);                    \
    }                                                                           \
    inline T sgc_wg_broadcast_##T(sgc_work_group g, __local void *s, T x)       \
    {                                                                           \
        return (T)sgc_wg_broadcast_int(g, s, (int)x);                           \
    }                                                                           \
    inline T sgc_wg_shift_left_##T(sgc_work_group g, __local void *s, T x,      \
                                   uint delta)                                  \
    {                                                                           \
        return (T)sgc_wg_shift_left_int(g, s, (int)x, delta);                   \
    }                                                                           \
    inline T sgc_wg_shift_right_##T(sgc_work_group g, __local void *s, T x,     \
                                    uint delta)                                 \
    {                                                                           \
        return (T)sgc_wg_shift_right_int(g, s, (int)x, delta);                  \
    }                                                                           \
    inline T sgc_wg_permute_xor_##T(sgc_work_group g, __local void *s, T x,     \
                                    uint mask)                                  \
    {                                                                           \
        return (T)sgc_wg_permute_xor_int(g, s, (int)x, mask);                   \
    }
SGC_TYPES_SMALL(SGC_DEFINE_WG_MOVE_SMALL)
#undef SGC_DEFINE_WG_MOVE_SMALL

/* ---- reductions and scans ---- */

/* Exclusive scan over n_items items, item idx holding v (written by the
 * work-item with `writer` set), in chunks of SGC_WG_SCRATCH_SLOTS - 1: the
 * first work-item scans each chunk serially in local memory, leaving the
 * running total after the chunk.  Three barriers a chunk and no barrier in
 * an inner loop: cheap for compilers that build work-group loops around
 * barrier regions (PoCL), and the chunks are short (an item is a sub-group
 * outside the wg tier).  Returns the exclusive prefix of item idx; *total
 * gets the total of all items.  Every work-item calls it. */
#define SGC_DEFINE_WG_ITEMS(op, T)                                              \
    inline T sgc_wg_items_##op##_##T(__local void *scratch, uint n_items,       \
                                     uint idx, bool writer, T v, T *total)      \
    {                                                                           \
        __local T *s = (__local T *)scratch;                                    \
        const uint chunk = SGC_WG_SCRATCH_SLOTS - 1;                            \
        T carry = SGC_ID_##op(T), mine = SGC_ID_##op(T);                        \
        for (uint base = 0; base < n_items; base += chunk) {                    \
            uint cnt = min(n_items - base, chunk);                              \
            bool in = idx >= base && idx - base < cnt;                          \
            barrier(CLK_LOCAL_MEM_FENCE);                                       \
            if (in && writer)                                                   \
                s[idx - base] = v;                                              \
            barrier(CLK_LOCAL_MEM_FENCE);                                       \
            if (sgc_linear_local_id() == 0) {                                   \
                T acc = carry;                                                  \
                for (uint i = 0; i < cnt; i++) {                                \
                    T t = s[i];                                                 \
                    s[i] = acc;                                                 \
                    acc = SGC_OP_##op(acc, t);                                  \
                }                                                               \
                s[cnt] = acc;                                                   \
            }                                                                   \
            barrier(CLK_LOCAL_MEM_FENCE);                                       \
            if (in)                                                             \
                mine = s[idx - base];                                           \
            carry = s[cnt];                                                     \
        }                                                                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        *total = carry;                                                         \
        return mine;                                                            \
    }
SGC_OP_TYPE_PAIRS(SGC_DEFINE_WG_ITEMS)
#undef SGC_DEFINE_WG_ITEMS

/* OpenCL 2.0 work-group built-ins for add/min/max. */
#if defined(SGC_HAS_WG_COLLECTIVES)
#define SGC_WG_NATIVE(op, algo, x) return SGC_KHR_FN(op, work_group_##algo)(x);
#define SGC_WG_FAST_plus(algo, x) SGC_WG_NATIVE(plus, algo, x)
#define SGC_WG_FAST_minimum(algo, x) SGC_WG_NATIVE(minimum, algo, x)
#define SGC_WG_FAST_maximum(algo, x) SGC_WG_NATIVE(maximum, algo, x)
#else
#define SGC_WG_FAST_plus(algo, x)
#define SGC_WG_FAST_minimum(algo, x)
#define SGC_WG_FAST_maximum(algo, x)
#endif
#define SGC_WG_FAST_multiplies(algo, x)
#define SGC_WG_FAST_bit_and(algo, x)
#define SGC_WG_FAST_bit_or(algo, x)
#define SGC_WG_FAST_bit_xor(algo, x)
#define SGC_WG_FAST_logical_and(algo, x)
#define SGC_WG_FAST_logical_or(algo, x)

/* The item prefix of the caller's own item: its work-item (wg tier) or its
 * sub-group, whose last lane writes the sub-group's inclusive value. */
#if defined(SGC_TIER_WG)
#define SGC_WG_ITEM_PREFIX(op, T, s, incl, total)                               \
    sgc_wg_items_##op##_##T(s, sgc_linear_local_size(), sgc_linear_local_id(),  \
                            true, incl, &total)
#else
#define SGC_WG_ITEM_PREFIX(op, T, s, incl, total)                               \
    sgc_wg_items_##op##_##T(s, sgc_num_sub_groups(), sgc_sub_group_id(),        \
                            sgc_lane() + 1 == sgc_sub_group_size(), incl, &total)
#endif

/* Scans within the caller's item (identity-free: one value in the wg tier). */
#if defined(SGC_TIER_WG)
#define SGC_WG_ITEM_INCLUSIVE(op, T, x) (x)
#define SGC_WG_ITEM_EXCLUSIVE(op, T, x) SGC_ID_##op(T)
#else
#define SGC_WG_ITEM_INCLUSIVE(op, T, x) sgc_inclusive_scan_##op##_##T(sgc_get_sub_group(), x)
#define SGC_WG_ITEM_EXCLUSIVE(op, T, x) sgc_exclusive_scan_##op##_##T(sgc_get_sub_group(), x)
#endif

#define SGC_DEFINE_WG_ALGOS(op, T)                                              \
    inline T sgc_wg_inclusive_scan_##op##_##T(sgc_work_group g,                 \
                                              __local void *s, T x)             \
    {                                                                           \
        (void)g;                                                                \
        x = SGC_IN_##op(T, x);                                                  \
        SGC_WG_FAST_##op(scan_inclusive, x)                                     \
        T total, incl = SGC_WG_ITEM_INCLUSIVE(op, T, x);                        \
        T prefix = SGC_WG_ITEM_PREFIX(op, T, s, incl, total);                   \
        return SGC_OP_##op(prefix, incl);                                       \
    }                                                                           \
    inline T sgc_wg_exclusive_scan_##op##_##T(sgc_work_group g,                 \
                                              __local void *s, T x)             \
    {                                                                           \
        (void)g;                                                                \
        x = SGC_IN_##op(T, x);                                                  \
        SGC_WG_FAST_##op(scan_exclusive, x)                                     \
        T total, excl = SGC_WG_ITEM_EXCLUSIVE(op, T, x);                        \
        T incl = SGC_OP_##op(excl, x);                                          \
        T prefix = SGC_WG_ITEM_PREFIX(op, T, s, incl, total);                   \
        return SGC_OP_##op(prefix, excl);                                       \
    }                                                                           \
    inline T sgc_wg_reduce_##op##_##T(sgc_work_group g, __local void *s, T x)   \
    {                                                                           \
        (void)g;                                                                \
        x = SGC_IN_##op(T, x);                                                  \
        SGC_WG_FAST_##op(reduce, x)                                             \
        T total, incl = SGC_WG_ITEM_INCLUSIVE(op, T, x);                        \
        (void)SGC_WG_ITEM_PREFIX(op, T, s, incl, total);                        \
        return total;                                                           \
    }                                                                           \
    inline T sgc_wg_reduce_init_##op##_##T(sgc_work_group g, __local void *s,   \
                                           T x, T init)                         \
    {                                                                           \
        T r = sgc_wg_reduce_##op##_##T(g, s, x);                                \
        return SGC_OP_##op(SGC_IN_##op(T, init), r);                            \
    }                                                                           \
    inline T sgc_wg_inclusive_scan_init_##op##_##T(sgc_work_group g,            \
                                                   __local void *s, T x, T init) \
    {                                                                           \
        T r = sgc_wg_inclusive_scan_##op##_##T(g, s, x);                        \
        return SGC_OP_##op(SGC_IN_##op(T, init), r);                            \
    }                                                                           \
    inline T sgc_wg_exclusive_scan_init_##op##_##T(sgc_work_group g,            \
                                                   __local void *s, T x, T init) \
    {                                                                           \
        T r = sgc_wg_exclusive_scan_##op##_##T(g, s, x);                        \
        return SGC_OP_##op(SGC_IN_##op(T, init), r);                            \
    }
SGC_OP_TYPE_PAIRS(SGC_DEFINE_WG_ALGOS)
#undef SGC_DEFINE_WG_ALGOS

#define SGC_DEFINE_WG_LOGICAL_WRAPPER(op, T)                                    \
    inline T sgc_wg_reduce_##op##_##T(sgc_work_group g, __local void *s, T x)   \
    {                                                                           \
        return (T)sgc_wg_reduce_##op##_int(g, s, x != 0);                       \
    }                                                                           \
    inline T sgc_wg_inclusive_scan_##op##_##T(sgc_work_group g,                 \
                                              __local void *s, T x)             \
    {                                                                           \
        return (T)sgc_wg_inclusive_scan_##op##_int(g, s, x != 0);               \
    }                                                                           \
    inline T sgc_wg_exclusive_scan_##op##_##T(sgc_work_group g,                 \
                                              __local void *s, T x)             \
    {                                                                           \
        return (T)sgc_wg_exclusive_scan_##op##_int(g, s, x != 0);               \
    }                                                                           \
    inline T sgc_wg_reduce_init_##op##_##T(sgc_work_group g, __local void *s,   \
                                           T x, T init)                         \
    {                                                                           \
        return (T)sgc_wg_reduce_init_##op##_int(g, s, x != 0, init != 0);       \
    }                                                                           \
    inline T sgc_wg_inclusive_scan_init_##op##_##T(sgc_work_group g,            \
                                                   __local void *s, T x, T init) \
    {                                                                           \
        return (T)sgc_wg_inclusive_scan_init_##op##_int(g, s, x != 0, init != 0); \
    }                                                                           \
    inline T sgc_wg_exclusive_scan_init_##op##_##T(sgc_work_group g,            \
                                                   __local void *s, T x, T init) \
    {                                                                           \
        return (T)sgc_wg_exclusive_scan_init_##op##_int(g, s, x != 0, init != 0); \
    }
SGC_LOGICAL_WRAPPERS(SGC_DEFINE_WG_LOGICAL_WRAPPER)
#undef SGC_DEFINE_WG_LOGICAL_WRAPPER

/* ---- votes ---- */

inline bool sgc_wg_any(sgc_work_group g, __local void *s, bool p)
{
#if defined(SGC_HAS_WG_COLLECTIVES)
    (void)g;
    (void)s;
    return work_group_any(p);
#else
    return sgc_wg_reduce_logical_or_int(g, s, p) != 0;
#endif
}

inline bool sgc_wg_all(sgc_work_group g, __local void *s, bool p)
{
#if defined(SGC_HAS_WG_COLLECTIVES)
    (void)g;
    (void)s;
    return work_group_all(p);
#else
    return sgc_wg_reduce_logical_and_int(g, s, p) != 0;
#endif
}

inline bool sgc_wg_none(sgc_work_group g, __local void *s, bool p) { return !sgc_wg_any(g, s, p); }
