/* reference.h — the host's model of tangle_exec.sgc (shared by the OpenCL
 * and CUDA hosts): which work-items of a sub-group reach each observation
 * slot together.  Work-items with the same slot predicate in one sub-group
 * form the tangle there (docs/REFERENCE.md "Groups": same point, same control-flow path; the
 * paths re-merge at the end of each if/loop/switch). */
#ifndef TANGLE_REFERENCE_H
#define TANGLE_REFERENCE_H

#include <stdbool.h>
#include <string.h>

#define SLOTS 16

static inline int tangle_data(int gid) { return (gid * 7 + gid / 5) % 23; }

/* Does a work-item with value v reach `slot`, and with what x (record()'s
 * third argument)? */
static inline bool tangle_reaches(int v, int limit, int slot, int *x)
{
    int c = v % 5 == 0 ? 1 : 2;
    bool alive = v % 4 != 3; /* not returned before the switch */
    switch (slot) {
    case 0: *x = v; return true;
    case 1: *x = v; return v % 5 == 0;
    case 2: *x = v; return v % 5 != 0;
    case 3: *x = v; return v & 1;
    case 4: *x = v + c; return !(v & 1);
    case 5: case 6: case 7: {
        int i = slot - 5;
        *x = i;
        return i < v % 7 && (v + i) % 3 != 0;
    }
    case 8: *x = v; return true;
    case 9: *x = v; return alive && v % 3 == 0;
    case 10: *x = v; return alive && v % 3 <= 1; /* case 0 falls through */
    case 11: *x = v; return alive && v % 3 == 2;
    case 12: *x = 1; return alive;
    case 13: *x = v; return alive && limit > 2;
    case 14: case 15: *x = slot - 14; return (v & 1) && slot - 14 < limit - 3;
    default: return false;
    }
}

/* Fills expect[(gid * SLOTS + slot) * 3 + {0,1,2}] with the tangle's size,
 * the rank and the sum, or -1 where the slot is not reached; sub-groups are
 * runs of `sg` consecutive work-items of each work-group of `local`. */
static inline void tangle_expect(int *expect, int global, int local, int sg, int limit)
{
    for (int gid = 0; gid < global; gid++) {
        int first = gid / local * local + (gid % local) / sg * sg;
        int end = first + sg;
        if (end > gid / local * local + local)
            end = gid / local * local + local;
        for (int slot = 0; slot < SLOTS; slot++) {
            int *e = expect + (gid * SLOTS + slot) * 3, x;
            e[0] = e[1] = e[2] = -1;
            if (!tangle_reaches(tangle_data(gid), limit, slot, &x))
                continue;
            e[0] = e[1] = e[2] = 0;
            for (int o = first; o < end; o++) {
                int ox;
                if (!tangle_reaches(tangle_data(o), limit, slot, &ox))
                    continue;
                e[0]++;
                e[1] += o < gid;
                e[2] += ox;
            }
        }
    }
}

#endif
