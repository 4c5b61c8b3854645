/* opencl_workgroup.cl — prelude section "opencl_workgroup": group functions
 * and algorithms on the work-group (SPEC §1.1), for every tier.  Needs
 * "opencl_base", and "opencl_subgroup" before it outside the wg tier.
 *
 * The emitter declares the scratch at kernel scope and passes it to every
 * call:  __local ulong sgc_wg_scratch[SGC_WG_SCRATCH_SLOTS];
 * A fixed number of slots serves any work-group size: items are processed in
 * chunks of SGC_WG_SCRATCH_SLOTS.
 *
 * Reductions and scans have three strategies (docs/GROUPS.md, "Work-group
 * strategies"), chosen by SGC_WG_STRATEGY, which the host defines (sgrt
 * always does) or which defaults to the best the device compiler offers:
 *   SGC_WG_TREE (1)     log-step tree in local memory, work-item by work-item;
 *                       any OpenCL 1.2 device;
 *   SGC_WG_BUILTIN (2)  OpenCL 2.0 work_group_reduce/scan_add/min/max (other
 *                       operators as SGC_WG_SUBGROUP where the tier has
 *                       sub-groups and the device is not a CPU, else as
 *                       SGC_WG_TREE);
 *   SGC_WG_SUBGROUP (3) sub-group algorithms first, their results combined
 *                       through local memory (khr and nvptx tiers).
 * A strategy the device lacks stops the build with #error.  On a CPU device
 * (SGC_DEVICE_CPU) the default is never SGC_WG_SUBGROUP: its shuffles are
 * passes through memory between barriers there, and PoCL 5 did not finish
 * compiling one such kernel in 200 s, where with the tree's serial CPU
 * shape (below) it ran all 56 work-group kernels of the test matrix in
 * 380 s (bench/RESULTS.md). */

/* Same values as sgrt_wg_strategy (runtime/sgrt.h) and cuda_workgroup.cuh:
 * change them together. */
#define SGC_WG_TREE 1
#define SGC_WG_BUILTIN 2
#define SGC_WG_SUBGROUP 3
#if !defined(SGC_WG_STRATEGY)
#if defined(SGC_HAS_WG_COLLECTIVES)
#define SGC_WG_STRATEGY SGC_WG_BUILTIN
#elif !defined(SGC_TIER_WG) && !defined(SGC_DEVICE_CPU)
#define SGC_WG_STRATEGY SGC_WG_SUBGROUP
#else
#define SGC_WG_STRATEGY SGC_WG_TREE
#endif
#endif
#if SGC_WG_STRATEGY == SGC_WG_BUILTIN
#if !defined(SGC_HAS_WG_COLLECTIVES)
#error "sgc: work-group strategy 'builtin' needs the OpenCL C 2.0 work-group collective functions (__opencl_c_work_group_collective_functions), not supported on this device"
#endif
#elif SGC_WG_STRATEGY == SGC_WG_SUBGROUP
#if defined(SGC_TIER_WG)
#error "sgc: work-group strategy 'subgroup' needs sub-groups (cl_khr_subgroups), not supported on this device"
#endif
#elif SGC_WG_STRATEGY != SGC_WG_TREE
#error "sgc: SGC_WG_STRATEGY must be 1 (tree), 2 (builtin) or 3 (subgroup)"
#endif

/* The second level works on items: work-items for the tree (and the wg
 * tier), sub-groups otherwise.  256 slots (2 KiB): a round of the
 * sub-group strategy covers 256 sub-groups, so even an 8192-work-item
 * group of 16-wide sub-groups needs two (64 slots made it 8 rounds, and
 * the 2^26-int Reduce sample 3-4x slower on the Intel CPU runtime). */
#if defined(SGC_TIER_WG) || SGC_WG_STRATEGY == SGC_WG_TREE
#define SGC_WG_ITEMS_ARE_WORK_ITEMS 1
#elif SGC_WG_STRATEGY == SGC_WG_BUILTIN && defined(SGC_DEVICE_CPU)
/* The operators the built-ins lack (multiplies, bitwise, logical) take the
 * serial work-item scan below on a CPU device, not the sub-group strategy
 * (said above). */
#define SGC_WG_ITEMS_ARE_WORK_ITEMS 1
#endif
#define SGC_WG_SCRATCH_SLOTS 256

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
 * an inner loop.  Returns the exclusive prefix of item idx; *total gets the
 * total of all items.  Every work-item calls it.
 *
 * Items are sub-groups for the subgroup strategy (short chunks).  For the
 * tree strategy on a CPU device (SGC_DEVICE_CPU, which sgrt defines) the
 * items are work-items: CPU compilers run a work-group as loops over the
 * work-items between barriers (PoCL does), so a barrier costs a pass over
 * the whole group, and the log-step tree below -- a barrier or two per
 * step, inside a loop -- ran the PoCL test matrix more than 10x slower
 * (over an hour, against minutes) than this serial scan. */
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

#if defined(SGC_WG_ITEMS_ARE_WORK_ITEMS) && defined(SGC_DEVICE_CPU) && \
    !defined(SGC_WG_TREE_LOGSTEP)
/* Tree strategy on a CPU device: the serial scan over work-items.
 * SGC_WG_TREE_LOGSTEP forces the log-step tree there (the tests run both
 * shapes on the Intel CPU runtime, which rejects -U build options). */
#define SGC_DEFINE_WG_SERIAL(op, T)                                             \
    inline T sgc_wg_serial_reduce_##op##_##T(__local void *scratch, T x)        \
    {                                                                           \
        T total;                                                                \
        (void)sgc_wg_items_##op##_##T(scratch, sgc_linear_local_size(),         \
                                      sgc_linear_local_id(), true, x, &total);  \
        return total;                                                           \
    }                                                                           \
    inline T sgc_wg_serial_scan_##op##_##T(__local void *scratch, T x,          \
                                           bool inclusive)                      \
    {                                                                           \
        T total;                                                                \
        T prefix = sgc_wg_items_##op##_##T(scratch, sgc_linear_local_size(),    \
                                           sgc_linear_local_id(), true, x,      \
                                           &total);                             \
        return inclusive ? SGC_OP_##op(prefix, x) : prefix;                     \
    }
SGC_OP_TYPE_PAIRS(SGC_DEFINE_WG_SERIAL)
#undef SGC_DEFINE_WG_SERIAL
#define SGC_WG_LEVEL_REDUCE(op, T, s, x) sgc_wg_serial_reduce_##op##_##T(s, x)
#define SGC_WG_LEVEL_SCAN(op, T, s, x, inclusive) sgc_wg_serial_scan_##op##_##T(s, x, inclusive)

#elif defined(SGC_WG_ITEMS_ARE_WORK_ITEMS)
/* Tree strategy.  Reduce: work-item lid folds its value into slot
 * lid % SGC_WG_SCRATCH_SLOTS, one chunk of work-items after the other (one
 * writer per slot per barrier), then a log-step tree halves the occupied
 * slots (any count: the upper half folds onto the lower one).  Scan:
 * Hillis-Steele in each chunk (read, barrier, write), the chunk's total
 * carried into the next.  Every call starts with a barrier, so back-to-back
 * calls may reuse the scratch. */
#define SGC_DEFINE_WG_TREE(op, T)                                               \
    inline T sgc_wg_tree_reduce_##op##_##T(__local void *scratch, T x)          \
    {                                                                           \
        __local T *s = (__local T *)scratch;                                    \
        uint lid = sgc_linear_local_id(), n = sgc_linear_local_size();          \
        const uint slots = SGC_WG_SCRATCH_SLOTS;                                \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        if (lid < slots)                                                        \
            s[lid] = x;                                                         \
        for (uint base = slots; base < n; base += slots) {                      \
            barrier(CLK_LOCAL_MEM_FENCE);                                       \
            if (lid >= base && lid - base < slots)                              \
                s[lid - base] = SGC_OP_##op(s[lid - base], x);                  \
        }                                                                       \
        for (uint m = min(n, slots); m > 1;) {                                  \
            uint upper = (m + 1) / 2;                                           \
            barrier(CLK_LOCAL_MEM_FENCE);                                       \
            if (lid + upper < m)                                                \
                s[lid] = SGC_OP_##op(s[lid], s[lid + upper]);                   \
            m = upper;                                                          \
        }                                                                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        return s[0];                                                            \
    }                                                                           \
    inline T sgc_wg_tree_scan_##op##_##T(__local void *scratch, T x,            \
                                         bool inclusive)                        \
    {                                                                           \
        __local T *s = (__local T *)scratch;                                    \
        uint lid = sgc_linear_local_id(), n = sgc_linear_local_size();          \
        const uint slots = SGC_WG_SCRATCH_SLOTS;                                \
        T carry = SGC_ID_##op(T), mine = SGC_ID_##op(T);                        \
        for (uint base = 0; base < n; base += slots) {                          \
            uint cnt = min(n - base, slots), i = lid - base;                    \
            bool in = lid >= base && i < cnt;                                   \
            barrier(CLK_LOCAL_MEM_FENCE);                                       \
            if (in)                                                             \
                s[i] = x;                                                       \
            for (uint d = 1; d < cnt; d <<= 1) {                                \
                barrier(CLK_LOCAL_MEM_FENCE);                                   \
                T t = in && i >= d ? s[i - d] : SGC_ID_##op(T);                 \
                barrier(CLK_LOCAL_MEM_FENCE);                                   \
                if (in && i >= d)                                               \
                    s[i] = SGC_OP_##op(t, s[i]);                                \
            }                                                                   \
            barrier(CLK_LOCAL_MEM_FENCE);                                       \
            if (in)                                                             \
                mine = inclusive ? SGC_OP_##op(carry, s[i])                     \
                       : i > 0   ? SGC_OP_##op(carry, s[i - 1])                 \
                                 : carry;                                       \
            carry = SGC_OP_##op(carry, s[cnt - 1]);                             \
        }                                                                       \
        return mine;                                                            \
    }
SGC_OP_TYPE_PAIRS(SGC_DEFINE_WG_TREE)
#undef SGC_DEFINE_WG_TREE
#define SGC_WG_LEVEL_REDUCE(op, T, s, x) sgc_wg_tree_reduce_##op##_##T(s, x)
#define SGC_WG_LEVEL_SCAN(op, T, s, x, inclusive) sgc_wg_tree_scan_##op##_##T(s, x, inclusive)

#else /* items are sub-groups */

#define SGC_DEFINE_WG_SG(op, T)                                                 \
    /* Sub-group reduce, then sub-group 0 reduces the sub-groups' results   */  \
    /* (SGC_WG_SCRATCH_SLOTS of them a round) and broadcasts the total.     */  \
    inline T sgc_wg_sg_reduce_##op##_##T(__local void *scratch, T x)            \
    {                                                                           \
        __local T *s = (__local T *)scratch;                                    \
        sgc_group sg = sgc_get_sub_group();                                     \
        T part = sgc_reduce_##op##_##T(sg, x), acc = SGC_ID_##op(T);            \
        uint nsg = sgc_num_sub_groups(), sgid = sgc_sub_group_id();             \
        uint lane = sgc_lane(), width = sgc_sub_group_size();                   \
        for (uint base = 0; base < nsg; base += SGC_WG_SCRATCH_SLOTS) {         \
            uint cnt = min(nsg - base, (uint)SGC_WG_SCRATCH_SLOTS);             \
            barrier(CLK_LOCAL_MEM_FENCE);                                       \
            if (lane == 0 && sgid >= base && sgid - base < cnt)                 \
                s[sgid - base] = part;                                          \
            barrier(CLK_LOCAL_MEM_FENCE);                                       \
            if (sgid == 0)                                                      \
                for (uint j = 0; j < cnt; j += width) {                         \
                    T v = j + lane < cnt ? s[j + lane] : SGC_ID_##op(T);        \
                    acc = SGC_OP_##op(acc, sgc_reduce_##op##_##T(sg, v));       \
                }                                                               \
        }                                                                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        if (sgid == 0 && lane == 0)                                             \
            s[0] = acc;                                                         \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        return s[0];                                                            \
    }                                                                           \
    /* Sub-group scan, then the prefix of the caller's sub-group over the   */  \
    /* sub-groups' totals (written by each sub-group's last lane).          */  \
    inline T sgc_wg_sg_scan_##op##_##T(__local void *scratch, T x,              \
                                       bool inclusive)                          \
    {                                                                           \
        sgc_group sg = sgc_get_sub_group();                                     \
        T total, mine, incl;                                                    \
        if (inclusive) {                                                        \
            mine = incl = sgc_inclusive_scan_##op##_##T(sg, x);                 \
        } else {                                                                \
            mine = sgc_exclusive_scan_##op##_##T(sg, x);                        \
            incl = SGC_OP_##op(mine, x);                                        \
        }                                                                       \
        T prefix = sgc_wg_items_##op##_##T(scratch, sgc_num_sub_groups(),       \
                                           sgc_sub_group_id(),                  \
                                           sgc_lane() + 1 == sgc_sub_group_size(), \
                                           incl, &total);                       \
        return SGC_OP_##op(prefix, mine);                                       \
    }
SGC_OP_TYPE_PAIRS(SGC_DEFINE_WG_SG)
#undef SGC_DEFINE_WG_SG
#define SGC_WG_LEVEL_REDUCE(op, T, s, x) sgc_wg_sg_reduce_##op##_##T(s, x)
#define SGC_WG_LEVEL_SCAN(op, T, s, x, inclusive) sgc_wg_sg_scan_##op##_##T(s, x, inclusive)
#endif

/* Builtin strategy: OpenCL 2.0 work-group built-ins for add/min/max. */
#if SGC_WG_STRATEGY == SGC_WG_BUILTIN
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

#define SGC_DEFINE_WG_ALGOS(op, T)                                              \
    inline T sgc_wg_inclusive_scan_##op##_##T(sgc_work_group g,                 \
                                              __local void *s, T x)             \
    {                                                                           \
        (void)g;                                                                \
        x = SGC_IN_##op(T, x);                                                  \
        SGC_WG_FAST_##op(scan_inclusive, x)                                     \
        return SGC_WG_LEVEL_SCAN(op, T, s, x, true);                            \
    }                                                                           \
    inline T sgc_wg_exclusive_scan_##op##_##T(sgc_work_group g,                 \
                                              __local void *s, T x)             \
    {                                                                           \
        (void)g;                                                                \
        x = SGC_IN_##op(T, x);                                                  \
        SGC_WG_FAST_##op(scan_exclusive, x)                                     \
        return SGC_WG_LEVEL_SCAN(op, T, s, x, false);                           \
    }                                                                           \
    inline T sgc_wg_reduce_##op##_##T(sgc_work_group g, __local void *s, T x)   \
    {                                                                           \
        (void)g;                                                                \
        x = SGC_IN_##op(T, x);                                                  \
        SGC_WG_FAST_##op(reduce, x)                                             \
        return SGC_WG_LEVEL_REDUCE(op, T, s, x);                                \
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
#if SGC_WG_STRATEGY == SGC_WG_BUILTIN
    (void)g;
    (void)s;
    return work_group_any(p);
#else
    return sgc_wg_reduce_logical_or_int(g, s, p) != 0;
#endif
}

inline bool sgc_wg_all(sgc_work_group g, __local void *s, bool p)
{
#if SGC_WG_STRATEGY == SGC_WG_BUILTIN
    (void)g;
    (void)s;
    return work_group_all(p);
#else
    return sgc_wg_reduce_logical_and_int(g, s, p) != 0;
#endif
}

inline bool sgc_wg_none(sgc_work_group g, __local void *s, bool p) { return !sgc_wg_any(g, s, p); }
