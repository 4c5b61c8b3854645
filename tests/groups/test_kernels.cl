/* test_kernels.cl — the OpenCL side of the group-library test harness: the
 * kernel shapes that gen_matrix.py instantiates.  The host prepends the
 * prelude sections.  Every kernel builds the group named by `kind` (uniform
 * kernel argument), runs one family of library calls on it, and records the
 * sub-group shape and the group's mask so the host can check against its own
 * simulation.  Layout of `info`: 8 uints per work-item, see host_common.h. */

#define K_SUB 0u
#define K_BALLOT 1u
#define K_FIXED 2u
#define K_TANGLE 3u
#define K_OPPORTUNISTIC 4u
#define K_WORK_GROUP 5u
#define TEST_MAX_WG 1024

/* The host may pin the sub-group size (Intel: 8, 16, 32, 64). */
#if defined(TEST_SG_SIZE)
#define TEST_ATTR __attribute__((intel_reqd_sub_group_size(TEST_SG_SIZE)))
#else
#define TEST_ATTR
#endif

#if !defined(SGC_TIER_WG)
#define RECORD(g)                                                          \
    info[gid * 8 + 0] = sgc_sub_group_size();                              \
    info[gid * 8 + 1] = sgc_sub_group_id();                                \
    info[gid * 8 + 2] = sgc_lane();                                        \
    info[gid * 8 + 3] = (uint)(g).mask;                                    \
    info[gid * 8 + 4] = (uint)((g).mask >> 32);                            \
    info[gid * 8 + 5] = sgc_max_sub_group_size();                          \
    info[gid * 8 + 6] = 0xC0FFEEu

/* BODY(g) runs on a sub-group-scope group; tangle and opportunistic groups
 * are made and used inside the two sides of a divergent branch. */
#define RUN_SUB_GROUP_KINDS(BODY, ...)                                     \
    sgc_group sg = sgc_get_sub_group();                                    \
    bool p = pred[gid] != 0;                                               \
    if (kind == K_SUB) {                                                   \
        sgc_group g = sg;                                                  \
        BODY(__VA_ARGS__, g);                                                         \
    } else if (kind == K_BALLOT) {                                         \
        sgc_group g = sgc_get_ballot_group(sg, p);                         \
        BODY(__VA_ARGS__, g);                                                         \
    } else if (kind == K_FIXED) {                                          \
        sgc_group g = sgc_get_fixed_size_group(sg, param);                 \
        BODY(__VA_ARGS__, g);                                                         \
    } else if (kind == K_TANGLE) {                                         \
        ulong taken = sgc_ballot(sg.mask, p);                              \
        if (p) {                                                           \
            sgc_group g = sgc_get_tangle_group(sg, taken);                 \
            BODY(__VA_ARGS__, g);                                                     \
        } else {                                                           \
            sgc_group g = sgc_get_tangle_group(sg, sg.mask & ~taken);      \
            BODY(__VA_ARGS__, g);                                                     \
        }                                                                  \
    } else if (kind == K_OPPORTUNISTIC) {                                  \
        if (p) {                                                           \
            sgc_group g = sgc_get_opportunistic_group();                   \
            BODY(__VA_ARGS__, g);                                                     \
        } else {                                                           \
            sgc_group g = sgc_get_opportunistic_group();                   \
            BODY(__VA_ARGS__, g);                                                     \
        }                                                                  \
    }
#else
#define RUN_SUB_GROUP_KINDS(BODY, ...)
#endif

#define RECORD_WG()                                                        \
    info[gid * 8 + 1] = 0;                                                 \
    info[gid * 8 + 2] = sgc_linear_local_id();                             \
    info[gid * 8 + 6] = 0xC0FFEEu

#define TEST_ARITH_KERNEL(op, T)                                           \
    __kernel TEST_ATTR void arith_##op##_##T(__global const T *in, __global T *out, \
        __global uint *info, __global const int *pred,                     \
        __global const int *sel, uint kind, uint param, uint a0, uint a1,  \
        uint a2, T init)                                                   \
    {                                                                      \
        __local ulong scratch[SGC_WG_SCRATCH_SLOTS];                       \
        uint gid = get_global_id(0);                                       \
        T x = in[gid];                                                     \
        (void)sel; (void)a0; (void)a1; (void)a2;                           \
        __global T *o = out + gid * 6;                                     \
        if (kind == K_WORK_GROUP) {                                        \
            sgc_work_group w = sgc_get_work_group();                       \
            o[0] = sgc_wg_reduce_##op##_##T(w, scratch, x);                \
            o[1] = sgc_wg_reduce_init_##op##_##T(w, scratch, x, init);     \
            o[2] = sgc_wg_exclusive_scan_##op##_##T(w, scratch, x);        \
            o[3] = sgc_wg_exclusive_scan_init_##op##_##T(w, scratch, x, init); \
            o[4] = sgc_wg_inclusive_scan_##op##_##T(w, scratch, x);        \
            o[5] = sgc_wg_inclusive_scan_init_##op##_##T(w, scratch, x, init); \
            RECORD_WG();                                                   \
            return;                                                        \
        }                                                                  \
        RUN_SUB_GROUP_KINDS(ARITH_BODY, op, T)                         \
    }

#define ARITH_BODY(op, T, g)                                               \
    o[0] = sgc_reduce_##op##_##T(g, x);                                    \
    o[1] = sgc_reduce_init_##op##_##T(g, x, init);                         \
    o[2] = sgc_exclusive_scan_##op##_##T(g, x);                            \
    o[3] = sgc_exclusive_scan_init_##op##_##T(g, x, init);                 \
    o[4] = sgc_inclusive_scan_##op##_##T(g, x);                            \
    o[5] = sgc_inclusive_scan_init_##op##_##T(g, x, init);                 \
    RECORD(g)

#define TEST_MOVE_KERNEL(T, S)                                             \
    __kernel TEST_ATTR void move_##T(__global const S *in, __global S *out,          \
        __global uint *info, __global const int *pred,                     \
        __global const int *sel, uint kind, uint param, uint a0, uint a1,  \
        uint a2)                                                           \
    {                                                                      \
        __local ulong scratch[SGC_WG_SCRATCH_SLOTS];                       \
        uint gid = get_global_id(0);                                       \
        T x = (T)in[gid];                                                  \
        __global S *o = out + gid * 6;                                     \
        if (kind == K_WORK_GROUP) {                                        \
            sgc_work_group w = sgc_get_work_group();                       \
            o[0] = (S)sgc_wg_broadcast_##T(w, scratch, x);                 \
            o[1] = (S)sgc_wg_broadcast_id_##T(w, scratch, x, a2);          \
            o[2] = (S)sgc_wg_shift_left_##T(w, scratch, x, a0);            \
            o[3] = (S)sgc_wg_shift_right_##T(w, scratch, x, a0);           \
            o[4] = (S)sgc_wg_permute_xor_##T(w, scratch, x, a1);           \
            o[5] = (S)sgc_wg_select_##T(w, scratch, x, (uint)sel[gid]);    \
            RECORD_WG();                                                   \
            return;                                                        \
        }                                                                  \
        RUN_SUB_GROUP_KINDS(MOVE_BODY, T, S)                                 \
    }

#define MOVE_BODY(T, S, g)                                                 \
    o[0] = (S)sgc_broadcast_##T(g, x);                                     \
    o[1] = (S)sgc_broadcast_id_##T(g, x, a2);                              \
    o[2] = (S)sgc_shift_left_##T(g, x, a0);                                \
    o[3] = (S)sgc_shift_right_##T(g, x, a0);                               \
    o[4] = (S)sgc_permute_xor_##T(g, x, a1);                               \
    o[5] = (S)sgc_select_##T(g, x, (uint)sel[gid]);                        \
    RECORD(g)

/* Votes on a second predicate, the members, and a barrier: each member
 * publishes its gid, the group barrier, then reads its leader's slot. */
#define TEST_VOTE_KERNEL()                                                 \
    __kernel TEST_ATTR void vote_members(__global const uint *in, __global uint *out, \
        __global uint *info, __global const int *pred,                     \
        __global const int *sel, uint kind, uint param, uint a0, uint a1,  \
        uint a2)                                                           \
    {                                                                      \
        __local uint slots[TEST_MAX_WG];                                   \
        __local ulong scratch[SGC_WG_SCRATCH_SLOTS];                       \
        uint gid = get_global_id(0);                                       \
        uint lid = sgc_linear_local_id();                                  \
        bool q = sel[gid] != 0;                                            \
        (void)in; (void)a0; (void)a1; (void)a2;                            \
        __global uint *o = out + gid * 9;                                  \
        if (kind == K_WORK_GROUP) {                                        \
            sgc_work_group w = sgc_get_work_group();                       \
            o[0] = sgc_wg_any(w, scratch, q);                              \
            o[1] = sgc_wg_all(w, scratch, q);                              \
            o[2] = sgc_wg_none(w, scratch, q);                             \
            o[3] = sgc_wg_group_linear_id(w);                              \
            o[4] = sgc_wg_group_linear_range(w);                           \
            o[5] = sgc_wg_local_linear_id(w);                              \
            o[6] = sgc_wg_local_linear_range(w);                           \
            o[7] = sgc_wg_leader(w);                                       \
            slots[lid] = gid;                                              \
            sgc_wg_barrier(w);                                             \
            o[8] = slots[0];                                               \
            RECORD_WG();                                                   \
            return;                                                        \
        }                                                                  \
        RUN_SUB_GROUP_KINDS(VOTE_BODY, 0)                                     \
    }

#define VOTE_BODY(unused, g)                                                       \
    o[0] = sgc_any(g, q);                                                  \
    o[1] = sgc_all(g, q);                                                  \
    o[2] = sgc_none(g, q);                                                 \
    o[3] = sgc_group_linear_id(g);                                         \
    o[4] = sgc_group_linear_range(g);                                      \
    o[5] = sgc_local_linear_id(g);                                         \
    o[6] = sgc_local_linear_range(g);                                      \
    o[7] = sgc_leader(g);                                                  \
    slots[lid] = gid;                                                      \
    sgc_group_barrier(g);                                                  \
    o[8] = slots[lid - sgc_lane() + sgc_lane_of_rank(g.mask, 0)];          \
    RECORD(g)
