/* diff_shim.h — what the host oracles written by sgcgen.py need: the SGC
 * scalar type names, and a model of docs/REFERENCE.md "Groups" groups over the lanes of one
 * work-group (HG: one per lane, describing that lane's group).
 *
 * Membership is computed here from the generator's knowledge of each group,
 * never from sgcc's output: sub-group = consecutive linear local ids in
 * blocks of S (the size the device reports, checked by the oracle);
 * ballot = lanes of the sub-group with the same predicate; fixed-size<N> =
 * the aligned block of N lanes; tangle = the lanes of the sub-group active
 * at that point of the SIMT execution; opportunistic = what the device
 * reports, checked to be a consistent subset of the active lanes.  Ranks
 * are positions among the members by local id. */
#ifndef DIFF_SHIM_H
#define DIFF_SHIM_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;

typedef struct HG {
    int all;          /* the whole work-group: members are lanes [0, n) */
    int base, n;      /* sub-group: first lane and lanes present */
    uint64_t mask;    /* members, bit i = sub-group lane i */
    unsigned id, range;
} HG;

typedef void RefFn(ulong *out, const ulong *dev, const int *in, int S);

typedef struct RefKernel {
    const char *name;
    RefFn *fn;
    int local_size, global_size, nout;
    int uses_sub_groups;   /* slots 1..3 hold the sub-group shape */
    int reqd_sub_group_size;  /* 0: none */
} RefKernel;

extern const RefKernel ref_kernels[];
extern const int ref_kernel_count;

/* Set by the oracle when a check of the model itself fails. */
extern int hg_generator_error, hg_device_error;

static inline int hg_member(const HG *g, int j)
{
    if (g->all)
        return j >= 0 && j < g->n;
    return j >= g->base && j < g->base + g->n && ((g->mask >> (j - g->base)) & 1u);
}

static inline int hg_count(const HG *g)
{
    return g->all ? g->n : __builtin_popcountll(g->mask);
}

static inline int hg_rank(const HG *g, int j)
{
    if (g->all)
        return j;
    int s = j - g->base;
    return __builtin_popcountll(g->mask & (s >= 64 ? ~0ull : ((1ull << s) - 1)));
}

static inline int hg_lane_of_rank(const HG *g, long r)
{
    if (g->all)
        return (int)r;
    uint64_t m = g->mask;
    for (long k = 0; k < r; k++)
        m &= m - 1;
    return g->base + __builtin_ctzll(m);
}

/* Every member of the group must be active where a group function is
 * called (the generator's promise): otherwise the program is invalid. */
static inline void hg_check(const HG *g, const uchar *m, int L)
{
    for (int j = 0; j < L; j++)
        if (hg_member(g, j) && !m[j]) {
            if (!hg_generator_error)
                fprintf(stderr, "generator error: member lane %d of a group is not active at its use\n", j);
            hg_generator_error = 1;
        }
}

static inline uint64_t hg_lanes(int n)
{
    return n >= 64 ? ~0ull : ((1ull << n) - 1);
}

static inline void hg_work_group(HG *g, int L)
{
    for (int l = 0; l < L; l++)
        g[l] = (HG){.all = 1, .base = 0, .n = L, .mask = 0, .id = 0, .range = 1};
}

static inline void hg_sub_group(HG *g, int L, int S)
{
    for (int l = 0; l < L; l++) {
        int base = l / S * S, n = L - base < S ? L - base : S;
        g[l] = (HG){.all = 0, .base = base, .n = n, .mask = hg_lanes(n), .id = (unsigned)(l / S),
                    .range = (unsigned)((L + S - 1) / S)};
    }
}

static inline void hg_ballot(HG *g, const HG *sg, const uchar *m, int L, const int *pred)
{
    for (int l = 0; l < L; l++) {
        if (!m[l])
            continue;
        hg_check(&sg[l], m, L);
        uint64_t mask = 0;
        for (int j = 0; j < sg[l].n; j++)
            if (!pred[sg[l].base + j] == !pred[l])
                mask |= 1ull << j;
        g[l] = (HG){.all = 0, .base = sg[l].base, .n = sg[l].n, .mask = mask,
                    .id = pred[l] ? 0u : 1u, .range = 2};
    }
}

static inline void hg_fixed(HG *g, const HG *sg, const uchar *m, int L, int N)
{
    for (int l = 0; l < L; l++) {
        if (!m[l])
            continue;
        int lane = l - sg[l].base, first = lane / N * N;
        int end = first + N < sg[l].n ? first + N : sg[l].n;
        g[l] = (HG){.all = 0, .base = sg[l].base, .n = sg[l].n,
                    .mask = hg_lanes(end) & ~hg_lanes(first), .id = (unsigned)(lane / N),
                    .range = (unsigned)((sg[l].n + N - 1) / N)};
    }
}

static inline void hg_tangle(HG *g, const HG *sg, const uchar *m, int L)
{
    for (int l = 0; l < L; l++) {
        if (!m[l])
            continue;
        uint64_t mask = 0;
        for (int j = 0; j < sg[l].n; j++)
            if (m[sg[l].base + j])
                mask |= 1ull << j;
        g[l] = (HG){.all = 0, .base = sg[l].base, .n = sg[l].n, .mask = mask, .id = 0, .range = 1};
    }
}

/* The device wrote, per work-item, reduce_over_group(o, 1 << lane, bit_or):
 * its membership as it sees it.  Accept it when it contains the caller,
 * holds only active lanes of its sub-group, and every member reports the
 * same set; otherwise the device is wrong. */
static inline void hg_opportunistic(HG *g, const HG *sg, const uchar *m, int L, const ulong *dev,
                                    int grp, int slot, int nout)
{
    for (int l = 0; l < L; l++) {
        if (!m[l])
            continue;
        uint64_t mask = dev[((size_t)grp * L + l) * nout + slot];
        int lane = l - sg[l].base, ok = (mask >> lane) & 1u;
        for (int j = 0; j < sg[l].n && ok; j++)
            if ((mask >> j) & 1u)
                ok = m[sg[l].base + j] &&
                     dev[((size_t)grp * L + sg[l].base + j) * nout + slot] == mask;
        if (ok && sg[l].n < 64 && (mask >> sg[l].n))
            ok = 0;
        if (!ok) {
            if (!hg_device_error)
                fprintf(stderr, "opportunistic group: lane %d of work-group %d reports an inconsistent "
                        "membership 0x%llx\n", l, grp, (unsigned long long)mask);
            hg_device_error = 1;
            mask = 1ull << lane;
        }
        g[l] = (HG){.all = 0, .base = sg[l].base, .n = sg[l].n, .mask = mask, .id = 0, .range = 1};
    }
}

#endif
