/* opencl_workgroup.cl — prelude section "opencl_workgroup": group functions
 * and algorithms on the work-group (docs/REFERENCE.md §6), for every tier.  Needs
 * "opencl_base", and "opencl_subgroup" before it outside the wg tier.
 *
 * The emitter declares the scratch at kernel scope and passes it to every
 * call:  __local ulong sgc_wg_scratch[SGC_WG_SCRATCH_SLOTS];
 * It has a slot per work-item (SGC_WG_MAX_ITEMS, below) and one more, so
 * that the work-item level of every collective is straight-line code: a few
 * barriers, none inside a loop or a branch.  CPU compilers that run a
 * work-group as loops over its work-items between barriers (PoCL) replicate
 * the code after every loop that contains a barrier: with the former
 * chunk loops, PoCL 3.1 took minutes for 5 work-group calls in one kernel
 * and did not finish 12 (bench/RESULTS.md, "Work-group collectives: device
 * build time").  Every call starts with a barrier before it writes the
 * scratch, so back-to-back calls share it without a trailing barrier.
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

/* A CPU device: sgrt defines SGC_DEVICE_CPU; for other hosts, compilers
 * that build for the host processor itself (PoCL's CPU devices) give it
 * away by its target macros, and Intel's CPU runtime (which compiles for
 * SPIR) by cl_intel_vec_len_hint, its CPU vectorizer's extension. */
#if !defined(SGC_DEVICE_CPU) && (defined(__x86_64__) || defined(__i386__) || \
    defined(__aarch64__) || defined(__arm__) || defined(__powerpc64__) || defined(__riscv) || \
    defined(cl_intel_vec_len_hint))
#define SGC_DEVICE_CPU 1
#endif
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
 * tier), sub-groups otherwise. */
#if defined(SGC_TIER_WG) || SGC_WG_STRATEGY == SGC_WG_TREE
#define SGC_WG_ITEMS_ARE_WORK_ITEMS 1
#elif SGC_WG_STRATEGY == SGC_WG_BUILTIN && defined(SGC_DEVICE_CPU)
/* The operators the built-ins lack (multiplies, bitwise, logical) take the
 * serial work-item scan below on a CPU device, not the sub-group strategy
 * (said above). */
#define SGC_WG_ITEMS_ARE_WORK_ITEMS 1
#endif

/* The largest work-group the collectives serve: sgrt defines it as the
 * device's CL_DEVICE_MAX_WORK_GROUP_SIZE.  Without it, 8192 on a CPU device
 * (Intel's CPU runtime allows 8192, PoCL 4096) and 1024 elsewhere (the
 * largest of the GPUs: NVIDIA, AMD, Intel, Arm, Apple).  A larger
 * work-group gets wrong results (never out-of-bounds accesses): a host for
 * such a device must define it. */
#if !defined(SGC_WG_MAX_ITEMS)
#if defined(SGC_DEVICE_CPU)
#define SGC_WG_MAX_ITEMS 8192
#else
#define SGC_WG_MAX_ITEMS 1024
#endif
#endif
/* A slot per work-item (or sub-group), one for a total; a kernel with a
 * required work-group size of n items declares SGC_WG_SCRATCH_FOR(n). */
#define SGC_WG_SCRATCH_SLOTS (SGC_WG_MAX_ITEMS + 1)
#define SGC_WG_SCRATCH_FOR(n) ((n) < SGC_WG_MAX_ITEMS ? (n) + 1 : SGC_WG_SCRATCH_SLOTS)

/* ---- data movement: every work-item reads one source work-item ---- */

/* Every work-item publishes its value in its slot; a source outside the
 * work-group leaves the caller's own value (docs/REFERENCE.md §6). */
#define SGC_DEFINE_WG_MOVE(T)                                                   \
    SGC_INLINE T sgc_wg_from_##T(__local void *scratch, T x, uint src, bool valid) \
    {                                                                           \
        __local T *s = (__local T *)scratch;                                    \
        uint lid = sgc_linear_local_id();                                       \
        uint n = min(sgc_linear_local_size(), (uint)SGC_WG_MAX_ITEMS);          \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        if (lid < n)                                                            \
            s[lid] = x;                                                         \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        return valid && src < n ? s[src] : x;                                   \
    }                                                                           \
    SGC_INLINE T sgc_wg_select_##T(sgc_work_group g, __local void *scratch, T x, \
                               uint local_id)                                   \
    {                                                                           \
        (void)g;                                                                \
        return sgc_wg_from_##T(scratch, x, local_id, true);                     \
    }                                                                           \
    SGC_INLINE T sgc_wg_broadcast_id_##T(sgc_work_group g, __local void *scratch, \
                                     T x, uint local_id)                        \
    {                                                                           \
        (void)g;                                                                \
        return sgc_wg_from_##T(scratch, x, local_id, true);                     \
    }                                                                           \
    SGC_INLINE T sgc_wg_broadcast_##T(sgc_work_group g, __local void *scratch, T x) \
    {                                                                           \
        __local T *s = (__local T *)scratch;                                    \
        (void)g;                                                                \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        if (sgc_linear_local_id() == 0)                                         \
            s[0] = x;                                                           \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        return s[0];                                                            \
    }                                                                           \
    SGC_INLINE T sgc_wg_shift_left_##T(sgc_work_group g, __local void *scratch, \
                                   T x, uint delta)                             \
    {                                                                           \
        uint lid = sgc_linear_local_id();                                       \
        (void)g;                                                                \
        return sgc_wg_from_##T(scratch, x, lid + delta, lid + delta >= lid);    \
    }                                                                           \
    SGC_INLINE T sgc_wg_shift_right_##T(sgc_work_group g, __local void *scratch, \
                                    T x, uint delta)                            \
    {                                                                           \
        uint lid = sgc_linear_local_id();                                       \
        (void)g;                                                                \
        return sgc_wg_from_##T(scratch, x, lid - delta, lid >= delta);          \
    }                                                                           \
    SGC_INLINE T sgc_wg_permute_xor_##T(sgc_work_group g, __local void *scratch, \
                                    T x, uint mask)                             \
    {                                                                           \
        (void)g;                                                                \
        return sgc_wg_from_##T(scratch, x, sgc_linear_local_id() ^ mask, true); \
    }
SGC_TYPES_ARITH(SGC_DEFINE_WG_MOVE)
#undef SGC_DEFINE_WG_MOVE

#define SGC_DEFINE_WG_MOVE_SMALL(T)                                             \
    SGC_INLINE T sgc_wg_select_##T(sgc_work_group g, __local void *s, T x, uint id) \
    {                                                                           \
        return (T)sgc_wg_select_int(g, s, (int)x, id);                          \
    }                                                                           \
    SGC_INLINE T sgc_wg_broadcast_id_##T(sgc_work_group g, __local void *s, T x, \
                                     uint id)                                   \
    {                                                                           \
        return (T)sgc_wg_broadcast_id_int(g, s, (int)x, id);                    \
    }                                                                           \
    SGC_INLINE T sgc_wg_broadcast_##T(sgc_work_group g, __local void *s, T x)   \
    {                                                                           \
        return (T)sgc_wg_broadcast_int(g, s, (int)x);                           \
    }                                                                           \
    SGC_INLINE T sgc_wg_shift_left_##T(sgc_work_group g, __local void *s, T x,  \
                                   uint delta)                                  \
    {                                                                           \
        return (T)sgc_wg_shift_left_int(g, s, (int)x, delta);                   \
    }                                                                           \
    SGC_INLINE T sgc_wg_shift_right_##T(sgc_work_group g, __local void *s, T x, \
                                    uint delta)                                 \
    {                                                                           \
        return (T)sgc_wg_shift_right_int(g, s, (int)x, delta);                  \
    }                                                                           \
    SGC_INLINE T sgc_wg_permute_xor_##T(sgc_work_group g, __local void *s, T x, \
                                    uint mask)                                  \
    {                                                                           \
        return (T)sgc_wg_permute_xor_int(g, s, (int)x, mask);                   \
    }
SGC_TYPES_SMALL(SGC_DEFINE_WG_MOVE_SMALL)
#undef SGC_DEFINE_WG_MOVE_SMALL

/* ---- reductions and scans ---- */

/* Exclusive scan over n_items items (n_items <= SGC_WG_MAX_ITEMS), item
 * idx holding v (written by the work-item with `writer` set): the first
 * work-item scans the items serially in local memory and leaves the total
 * after them.  Three barriers, none in a loop or a branch.  Returns the
 * exclusive prefix of item idx; *total gets the total of all items.  Every
 * work-item calls it.
 *
 * Items are sub-groups for the subgroup strategy.  For the tree strategy on
 * a CPU device (SGC_DEVICE_CPU) the items are work-items: CPU compilers run
 * a work-group as loops over the work-items between barriers (PoCL does),
 * so a barrier costs a pass over the whole group, and the log-step tree
 * below -- a barrier or two per step, inside a loop -- ran the PoCL test
 * matrix more than 10x slower (over an hour, against minutes) than this
 * serial scan, and its loops made PoCL's build time exponential in the
 * number of calls. */
#define SGC_DEFINE_WG_ITEMS(op, T)                                              \
    SGC_INLINE T sgc_wg_items_##op##_##T(__local void *scratch, uint n_items,   \
                                     uint idx, bool writer, T v, T *total)      \
    {                                                                           \
        __local T *s = (__local T *)scratch;                                    \
        uint cnt = min(n_items, (uint)SGC_WG_MAX_ITEMS);                        \
        bool in = idx < cnt;                                                    \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        if (in && writer)                                                       \
            s[idx] = v;                                                         \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        if (sgc_linear_local_id() == 0) {                                       \
            T acc = SGC_ID_##op(T);                                             \
            for (uint i = 0; i < cnt; i++) {                                    \
                T t = s[i];                                                     \
                s[i] = acc;                                                     \
                acc = SGC_OP_##op(acc, t);                                      \
            }                                                                   \
            s[cnt] = acc;                                                       \
        }                                                                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        *total = s[cnt];                                                        \
        return in ? s[idx] : SGC_ID_##op(T);                                    \
    }
SGC_OP_TYPE_PAIRS(SGC_DEFINE_WG_ITEMS)
#undef SGC_DEFINE_WG_ITEMS

#if defined(SGC_WG_ITEMS_ARE_WORK_ITEMS) && defined(SGC_DEVICE_CPU) && \
    !defined(SGC_WG_TREE_LOGSTEP)
/* Tree strategy on a CPU device: the serial scan over work-items; the
 * reduce has no prefixes to write back, the first work-item only folds.
 * SGC_WG_TREE_LOGSTEP forces the log-step tree there (the tests run both
 * shapes on the Intel CPU runtime, which rejects -U build options). */
#define SGC_DEFINE_WG_SERIAL(op, T)                                             \
    SGC_INLINE T sgc_wg_serial_reduce_##op##_##T(__local void *scratch, T x)    \
    {                                                                           \
        __local T *s = (__local T *)scratch;                                    \
        uint lid = sgc_linear_local_id();                                       \
        uint n = min(sgc_linear_local_size(), (uint)SGC_WG_MAX_ITEMS);          \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        if (lid < n)                                                            \
            s[lid] = x;                                                         \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        if (lid == 0) {                                                         \
            T acc = s[0];                                                       \
            for (uint i = 1; i < n; i++)                                        \
                acc = SGC_OP_##op(acc, s[i]);                                   \
            s[n] = acc;                                                         \
        }                                                                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        return s[n];                                                            \
    }                                                                           \
    SGC_INLINE T sgc_wg_serial_scan_##op##_##T(__local void *scratch, T x,      \
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
/* Tree strategy (GPUs: their barriers are cheap and in hardware, so loops
 * around them cost nothing at build time).  Every work-item has a slot.
 * Reduce: a log-step tree halves the occupied slots (any count: the upper
 * half folds onto the lower one).  Scan: Hillis-Steele (read, barrier,
 * write). */
#define SGC_DEFINE_WG_TREE(op, T)                                               \
    SGC_INLINE T sgc_wg_tree_reduce_##op##_##T(__local void *scratch, T x)      \
    {                                                                           \
        __local T *s = (__local T *)scratch;                                    \
        uint lid = sgc_linear_local_id();                                       \
        uint n = min(sgc_linear_local_size(), (uint)SGC_WG_MAX_ITEMS);          \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        if (lid < n)                                                            \
            s[lid] = x;                                                         \
        for (uint m = n; m > 1;) {                                              \
            uint upper = (m + 1) / 2;                                           \
            barrier(CLK_LOCAL_MEM_FENCE);                                       \
            if (lid + upper < m)                                                \
                s[lid] = SGC_OP_##op(s[lid], s[lid + upper]);                   \
            m = upper;                                                          \
        }                                                                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        return s[0];                                                            \
    }                                                                           \
    SGC_INLINE T sgc_wg_tree_scan_##op##_##T(__local void *scratch, T x,        \
                                         bool inclusive)                        \
    {                                                                           \
        __local T *s = (__local T *)scratch;                                    \
        uint lid = sgc_linear_local_id();                                       \
        uint n = min(sgc_linear_local_size(), (uint)SGC_WG_MAX_ITEMS);          \
        bool in = lid < n;                                                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        if (in)                                                                 \
            s[lid] = x;                                                         \
        for (uint d = 1; d < n; d <<= 1) {                                      \
            barrier(CLK_LOCAL_MEM_FENCE);                                       \
            T t = in && lid >= d ? s[lid - d] : SGC_ID_##op(T);                 \
            barrier(CLK_LOCAL_MEM_FENCE);                                       \
            if (in && lid >= d)                                                 \
                s[lid] = SGC_OP_##op(t, s[lid]);                                \
        }                                                                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        if (!in)                                                                \
            return SGC_ID_##op(T);                                              \
        return inclusive ? s[lid] : lid > 0 ? s[lid - 1] : SGC_ID_##op(T);      \
    }
SGC_OP_TYPE_PAIRS(SGC_DEFINE_WG_TREE)
#undef SGC_DEFINE_WG_TREE
#define SGC_WG_LEVEL_REDUCE(op, T, s, x) sgc_wg_tree_reduce_##op##_##T(s, x)
#define SGC_WG_LEVEL_SCAN(op, T, s, x, inclusive) sgc_wg_tree_scan_##op##_##T(s, x, inclusive)

#else /* items are sub-groups */

#define SGC_DEFINE_WG_SG(op, T)                                                 \
    /* Sub-group reduce, then sub-group 0 reduces the sub-groups' results   */  \
    /* (a slot each) and broadcasts the total.                              */  \
    SGC_INLINE T sgc_wg_sg_reduce_##op##_##T(__local void *scratch, T x)        \
    {                                                                           \
        __local T *s = (__local T *)scratch;                                    \
        sgc_group sg = sgc_get_sub_group();                                     \
        T part = sgc_reduce_##op##_##T(sg, x), acc = SGC_ID_##op(T);            \
        uint nsg = sgc_num_sub_groups(), sgid = sgc_sub_group_id();             \
        uint lane = sgc_lane(), width = sgc_sub_group_size();                   \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        if (lane == 0)                                                          \
            s[sgid] = part;                                                     \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        if (sgid == 0) {                                                        \
            for (uint j = 0; j < nsg; j += width) {                             \
                T v = j + lane < nsg ? s[j + lane] : SGC_ID_##op(T);            \
                acc = SGC_OP_##op(acc, sgc_reduce_##op##_##T(sg, v));           \
            }                                                                   \
            if (lane == 0)                                                      \
                s[nsg] = acc;                                                   \
        }                                                                       \
        barrier(CLK_LOCAL_MEM_FENCE);                                           \
        return s[nsg];                                                          \
    }                                                                           \
    /* Sub-group scan, then the prefix of the caller's sub-group over the   */  \
    /* sub-groups' totals (written by each sub-group's last lane).          */  \
    SGC_INLINE T sgc_wg_sg_scan_##op##_##T(__local void *scratch, T x,          \
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
    SGC_INLINE T sgc_wg_inclusive_scan_##op##_##T(sgc_work_group g,             \
                                              __local void *s, T x)             \
    {                                                                           \
        (void)g;                                                                \
        x = SGC_IN_##op(T, x);                                                  \
        SGC_WG_FAST_##op(scan_inclusive, x)                                     \
        return SGC_WG_LEVEL_SCAN(op, T, s, x, true);                            \
    }                                                                           \
    SGC_INLINE T sgc_wg_exclusive_scan_##op##_##T(sgc_work_group g,             \
                                              __local void *s, T x)             \
    {                                                                           \
        (void)g;                                                                \
        x = SGC_IN_##op(T, x);                                                  \
        SGC_WG_FAST_##op(scan_exclusive, x)                                     \
        return SGC_WG_LEVEL_SCAN(op, T, s, x, false);                           \
    }                                                                           \
    SGC_INLINE T sgc_wg_reduce_##op##_##T(sgc_work_group g, __local void *s, T x) \
    {                                                                           \
        (void)g;                                                                \
        x = SGC_IN_##op(T, x);                                                  \
        SGC_WG_FAST_##op(reduce, x)                                             \
        return SGC_WG_LEVEL_REDUCE(op, T, s, x);                                \
    }                                                                           \
    SGC_INLINE T sgc_wg_reduce_init_##op##_##T(sgc_work_group g, __local void *s, \
                                           T x, T init)                         \
    {                                                                           \
        T r = sgc_wg_reduce_##op##_##T(g, s, x);                                \
        return SGC_OP_##op(SGC_IN_##op(T, init), r);                            \
    }                                                                           \
    SGC_INLINE T sgc_wg_inclusive_scan_init_##op##_##T(sgc_work_group g,        \
                                                   __local void *s, T x, T init) \
    {                                                                           \
        T r = sgc_wg_inclusive_scan_##op##_##T(g, s, x);                        \
        return SGC_OP_##op(SGC_IN_##op(T, init), r);                            \
    }                                                                           \
    SGC_INLINE T sgc_wg_exclusive_scan_init_##op##_##T(sgc_work_group g,        \
                                                   __local void *s, T x, T init) \
    {                                                                           \
        T r = sgc_wg_exclusive_scan_##op##_##T(g, s, x);                        \
        return SGC_OP_##op(SGC_IN_##op(T, init), r);                            \
    }
SGC_OP_TYPE_PAIRS(SGC_DEFINE_WG_ALGOS)
#undef SGC_DEFINE_WG_ALGOS

#define SGC_DEFINE_WG_LOGICAL_WRAPPER(op, T)                                    \
    SGC_INLINE T sgc_wg_reduce_##op##_##T(sgc_work_group g, __local void *s, T x) \
    {                                                                           \
        return (T)sgc_wg_reduce_##op##_int(g, s, x != 0);                       \
    }                                                                           \
    SGC_INLINE T sgc_wg_inclusive_scan_##op##_##T(sgc_work_group g,             \
                                              __local void *s, T x)             \
    {                                                                           \
        return (T)sgc_wg_inclusive_scan_##op##_int(g, s, x != 0);               \
    }                                                                           \
    SGC_INLINE T sgc_wg_exclusive_scan_##op##_##T(sgc_work_group g,             \
                                              __local void *s, T x)             \
    {                                                                           \
        return (T)sgc_wg_exclusive_scan_##op##_int(g, s, x != 0);               \
    }                                                                           \
    SGC_INLINE T sgc_wg_reduce_init_##op##_##T(sgc_work_group g, __local void *s, \
                                           T x, T init)                         \
    {                                                                           \
        return (T)sgc_wg_reduce_init_##op##_int(g, s, x != 0, init != 0);       \
    }                                                                           \
    SGC_INLINE T sgc_wg_inclusive_scan_init_##op##_##T(sgc_work_group g,        \
                                                   __local void *s, T x, T init) \
    {                                                                           \
        return (T)sgc_wg_inclusive_scan_init_##op##_int(g, s, x != 0, init != 0); \
    }                                                                           \
    SGC_INLINE T sgc_wg_exclusive_scan_init_##op##_##T(sgc_work_group g,        \
                                                   __local void *s, T x, T init) \
    {                                                                           \
        return (T)sgc_wg_exclusive_scan_init_##op##_int(g, s, x != 0, init != 0); \
    }
SGC_LOGICAL_WRAPPERS(SGC_DEFINE_WG_LOGICAL_WRAPPER)
#undef SGC_DEFINE_WG_LOGICAL_WRAPPER

/* Small types through int or uint, as in opencl_subgroup.cl ("Small
 * types"): exact, and the exclusive scans take T's identity as init. */
#define SGC_DEFINE_WG_SMALL_WRAPPER(op, T, W)                                   \
    SGC_INLINE T sgc_wg_reduce_##op##_##T(sgc_work_group g, __local void *s, T x) \
    {                                                                           \
        return (T)sgc_wg_reduce_##op##_##W(g, s, (W)x);                         \
    }                                                                           \
    SGC_INLINE T sgc_wg_inclusive_scan_##op##_##T(sgc_work_group g,             \
                                              __local void *s, T x)             \
    {                                                                           \
        return (T)sgc_wg_inclusive_scan_##op##_##W(g, s, (W)x);                 \
    }                                                                           \
    SGC_INLINE T sgc_wg_exclusive_scan_##op##_##T(sgc_work_group g,             \
                                              __local void *s, T x)             \
    {                                                                           \
        return (T)sgc_wg_exclusive_scan_init_##op##_##W(g, s, (W)x,             \
                                                        (W)SGC_ID_##op(T));     \
    }                                                                           \
    SGC_INLINE T sgc_wg_reduce_init_##op##_##T(sgc_work_group g, __local void *s, \
                                           T x, T init)                         \
    {                                                                           \
        return (T)sgc_wg_reduce_init_##op##_##W(g, s, (W)x, (W)init);           \
    }                                                                           \
    SGC_INLINE T sgc_wg_inclusive_scan_init_##op##_##T(sgc_work_group g,        \
                                                   __local void *s, T x, T init) \
    {                                                                           \
        return (T)sgc_wg_inclusive_scan_init_##op##_##W(g, s, (W)x, (W)init);   \
    }                                                                           \
    SGC_INLINE T sgc_wg_exclusive_scan_init_##op##_##T(sgc_work_group g,        \
                                                   __local void *s, T x, T init) \
    {                                                                           \
        return (T)sgc_wg_exclusive_scan_init_##op##_##W(g, s, (W)x, (W)init);   \
    }
SGC_SMALL_PAIRS(SGC_DEFINE_WG_SMALL_WRAPPER)
#undef SGC_DEFINE_WG_SMALL_WRAPPER

/* ---- votes ---- */

SGC_INLINE bool sgc_wg_any(sgc_work_group g, __local void *s, bool p)
{
#if SGC_WG_STRATEGY == SGC_WG_BUILTIN
    (void)g;
    (void)s;
    return work_group_any(p);
#else
    return sgc_wg_reduce_logical_or_int(g, s, p) != 0;
#endif
}

SGC_INLINE bool sgc_wg_all(sgc_work_group g, __local void *s, bool p)
{
#if SGC_WG_STRATEGY == SGC_WG_BUILTIN
    (void)g;
    (void)s;
    return work_group_all(p);
#else
    return sgc_wg_reduce_logical_and_int(g, s, p) != 0;
#endif
}

SGC_INLINE bool sgc_wg_none(sgc_work_group g, __local void *s, bool p) { return !sgc_wg_any(g, s, p); }
