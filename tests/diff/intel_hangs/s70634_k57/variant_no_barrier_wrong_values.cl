/* minimal.cl with its only barrier (top level, reached by every work-item,
 * no local memory used) deleted.  Launch: global 16, local 16.  Finishes on
 * Intel(R) OpenCL (CPU runtime) but writes 0 to every out[i], where 0x113ea is
 * right (-cl-opt-disable gives 0x113ea). */
ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (v >> 7); }
ulong safe_div_ulong(ulong a, ulong b) { return b == 0 ? a : a / b; }
/* parent & (the lanes whose p is true), as a 64-bit mask */
ulong ballot(ulong parent, bool p) { uint4 b = sub_group_ballot(p); return parent & ((ulong)b.x | ((ulong)b.y << 32)); }

kernel void k(global ulong *out, global const int *in)
{
    uint lid = get_local_id(0);
    ulong all = 0xFFFFFFFF;
    ulong cs = 0x113ea;
    uint mirror = 15 - lid;
    for (int rep = 0; rep < 3; rep++) { /* 3 trips */
        short q = (short)mirror; /* 0 only for lid 15 */
        uint lane = popcount(all & (((ulong)1 << get_sub_group_local_id()) - 1));
        int i = 0;
        for (;;) { /* at most 1 trip: i < 1, i++ below; entered by lid 15 only */
            bool go = i < 1 && q < 1;
            if (!go) break;
            ushort v = 0xFFFF ^ safe_div_ulong(clamp(1, 48, 524), max(1UL, 4UL)); /* 0xFFFF ^ 12 = 0xFFF3 */ /* CONTROL */
            q = v;
            int j = 0;
            ulong t = all;
            bool brk = false;
            for (;;) { /* at most 1 trip: j < 1, j++ below */
                bool go2 = !brk && j < 1;
                t = ballot(t, go2);
                if (!go2) break;
                bool c = v > 114; /* always true */
                ballot(t, c);
                if (c) brk = true;
                ulong t5 = ballot(t, !brk);
                if (!brk) { /* never executed */
                    long r1 = sub_group_non_uniform_reduce_logical_and(-8L * v <= max((ulong)i, 9UL));
                    cs = mix(cs, r1);
                    uint r2 = sub_group_shuffle(0, popcount(t5) > 56 ? 0 : get_sub_group_local_id());
                    cs = mix(cs, r2);
                    int r3 = sub_group_non_uniform_scan_exclusive_or(v != 0);
                    cs = mix(cs, r3);
                }
                j++;
            }
            ballot(all, false);
            i++;
        }
        /* reached by every work-item of the sub-group; results unused */
        sub_group_non_uniform_reduce_and((ulong)lane);
        sub_group_shuffle((int)(uchar)(get_work_dim() ^ (q ? 9UL / q : 9UL)), 0);
    }
    out[lid] = cs; /* must be 0x113ea everywhere */
}
