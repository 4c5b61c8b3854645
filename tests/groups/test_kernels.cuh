/* test_kernels.cuh — the CUDA side of the group-library test harness: the
 * kernel shapes that gen_matrix.py instantiates (kernels.cuh), the same
 * shapes and `info` layout as test_kernels.cl.  Included after the prelude
 * sections by host_cuda.cu. */

enum { K_SUB_, K_BALLOT_, K_FIXED_, K_TANGLE_, K_OPPORTUNISTIC_, K_WORK_GROUP_ };
#define TEST_MAX_WG 1024

#define RECORD(g)                                                          \
    info[gid * 8 + 0] = sgc::sub_group_size();                             \
    info[gid * 8 + 1] = sgc::sub_group_id();                               \
    info[gid * 8 + 2] = sgc::lane();                                       \
    info[gid * 8 + 3] = (g).mask;                                          \
    info[gid * 8 + 4] = 0;                                                 \
    info[gid * 8 + 5] = 32;                                                \
    info[gid * 8 + 6] = 0xC0FFEEu

#define RECORD_WG()                                                        \
    info[gid * 8 + 2] = sgc::linear_local_id();                            \
    info[gid * 8 + 6] = 0xC0FFEEu

/* The tangle's masks come from a ballot before the branch, as the compiler
 * will emit them. */
#define RUN_SUB_GROUP_KINDS(BODY)                                          \
    sgc::group sg = sgc::get_sub_group();                                  \
    bool p = pred[gid] != 0;                                               \
    if (kind == K_SUB_) {                                                  \
        sgc::group g = sg;                                                 \
        BODY;                                                              \
    } else if (kind == K_BALLOT_) {                                        \
        sgc::group g = sgc::get_ballot_group(sg, p);                       \
        BODY;                                                              \
    } else if (kind == K_FIXED_) {                                         \
        sgc::group g = sgc::get_fixed_size_group(sg, param);               \
        BODY;                                                              \
    } else if (kind == K_TANGLE_) {                                        \
        unsigned taken = sgc::ballot(sg.mask, p);                          \
        if (p) {                                                           \
            sgc::group g = sgc::get_tangle_group(sg, taken);               \
            BODY;                                                          \
        } else {                                                           \
            sgc::group g = sgc::get_tangle_group(sg, sg.mask & ~taken);    \
            BODY;                                                          \
        }                                                                  \
    } else if (kind == K_OPPORTUNISTIC_) {                                 \
        if (p) {                                                           \
            sgc::group g = sgc::get_opportunistic_group();                 \
            BODY;                                                          \
        } else {                                                           \
            sgc::group g = sgc::get_opportunistic_group();                 \
            BODY;                                                          \
        }                                                                  \
    }

#define ARITH_BODY(G)                                                      \
    o[0] = sgc::reduce_over_group(G, x, op);                               \
    o[1] = sgc::reduce_over_group(G, x, init, op);                         \
    o[2] = sgc::exclusive_scan_over_group(G, x, op);                       \
    o[3] = sgc::exclusive_scan_over_group(G, x, init, op);                 \
    o[4] = sgc::inclusive_scan_over_group(G, x, op);                       \
    o[5] = sgc::inclusive_scan_over_group(G, x, op, init)

#define TEST_ARITH_KERNEL(opname, tname, T)                                \
    extern "C" __global__ void arith_##opname##_##tname(const T *in,       \
        T *out, unsigned *info, const int *pred, const int *sel,           \
        unsigned kind, unsigned param, unsigned a0, unsigned a1,           \
        unsigned a2, T init)                                               \
    {                                                                      \
        unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;              \
        sgc::opname op;                                                    \
        T x = in[gid];                                                     \
        T *o = out + gid * 6;                                              \
        (void)sel, (void)a0, (void)a1, (void)a2;                           \
        if (kind == K_WORK_GROUP_) {                                       \
            sgc::work_group w = sgc::get_work_group();                     \
            ARITH_BODY(w);                                                 \
            RECORD_WG();                                                   \
            return;                                                        \
        }                                                                  \
        RUN_SUB_GROUP_KINDS(ARITH_BODY(g); RECORD(g))                      \
    }

#define MOVE_BODY(G)                                                       \
    o[0] = (S)sgc::group_broadcast(G, x);                                  \
    o[1] = (S)sgc::group_broadcast(G, x, a2);                              \
    o[2] = (S)sgc::shift_group_left(G, x, a0);                             \
    o[3] = (S)sgc::shift_group_right(G, x, a0);                            \
    o[4] = (S)sgc::permute_group_by_xor(G, x, a1);                         \
    o[5] = (S)sgc::select_from_group(G, x, (unsigned)sel[gid])

/* bool travels in unsigned char buffers. */
template <class T> struct storage { typedef T type; };
template <> struct storage<bool> { typedef unsigned char type; };

#define TEST_MOVE_KERNEL(tname, T)                                         \
    extern "C" __global__ void move_##tname(                               \
        const storage<T>::type *in, storage<T>::type *out,                 \
        unsigned *info, const int *pred, const int *sel, unsigned kind,    \
        unsigned param, unsigned a0, unsigned a1, unsigned a2)             \
    {                                                                      \
        typedef storage<T>::type S;                                        \
        unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;              \
        T x = (T)in[gid];                                                  \
        S *o = out + gid * 6;                                              \
        if (kind == K_WORK_GROUP_) {                                       \
            sgc::work_group w = sgc::get_work_group();                     \
            MOVE_BODY(w);                                                  \
            RECORD_WG();                                                   \
            return;                                                        \
        }                                                                  \
        RUN_SUB_GROUP_KINDS(MOVE_BODY(g); RECORD(g))                       \
    }

#define VOTE_BODY(G)                                                       \
    o[0] = sgc::any_of_group(G, q);                                        \
    o[1] = sgc::all_of_group(G, q);                                        \
    o[2] = sgc::none_of_group(G, q);                                       \
    o[3] = (G).get_group_linear_id();                                      \
    o[4] = (G).get_group_linear_range();                                   \
    o[5] = (G).get_local_linear_id();                                      \
    o[6] = (G).get_local_linear_range();                                   \
    o[7] = (G).leader();                                                   \
    slots[lid] = gid;                                                      \
    sgc::group_barrier(G)

#define TEST_VOTE_KERNEL()                                                 \
    extern "C" __global__ void vote_members(const unsigned *in,            \
        unsigned *out, unsigned *info, const int *pred, const int *sel,    \
        unsigned kind, unsigned param, unsigned a0, unsigned a1,           \
        unsigned a2)                                                       \
    {                                                                      \
        __shared__ unsigned slots[TEST_MAX_WG];                            \
        unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;              \
        unsigned lid = sgc::linear_local_id();                             \
        bool q = sel[gid] != 0;                                            \
        unsigned *o = out + gid * 9;                                       \
        (void)in, (void)a0, (void)a1, (void)a2;                            \
        if (kind == K_WORK_GROUP_) {                                       \
            sgc::work_group w = sgc::get_work_group();                     \
            VOTE_BODY(w);                                                  \
            o[8] = slots[0];                                               \
            RECORD_WG();                                                   \
            return;                                                        \
        }                                                                  \
        RUN_SUB_GROUP_KINDS(VOTE_BODY(g);                                  \
            o[8] = slots[lid - sgc::lane() + sgc::lane_of_rank(g.mask, 0)]; \
            RECORD(g))                                                     \
    }
