/* Seed 70634 sg k57, reduced to plain OpenCL C (OpenCL C 1.2 + cl_khr_subgroup_ballot,
 * cl_khr_subgroup_non_uniform_arithmetic, cl_khr_subgroup_shuffle built-ins; no sgcc code).
 * Launch: global 16, local 16 (one work-group, one sub-group of 16 on this device).
 * arg 0: global ulong out[16]; arg 1: global const int in[16] (unused).
 * Never finishes on Intel(R) OpenCL (CPU runtime, default build options); with
 * -cl-opt-disable it finishes with the right values (0x113ea in every out[i]).
 * Writing the constant on the line marked CONTROL as the literal it equals,
 * 0xFFF3, makes the default build finish with the right values (control.cl).
 *
 * Why it cannot loop by its own semantics: the "rep" loop runs 3 trips; the
 * two for (;;) loops each exit at the top unless i < 1 (resp. j < 1), and i++
 * (resp. j++) ends every trip, so each runs at most once per entry; only lid 15
 * (q == 0) enters them.  There v = 0xFFFF ^ (48 / 4) = 0xFFF3 > 114, so brk is
 * set and the block marked "never executed" never runs: cs stays 0x113ea for
 * every work-item.  The one barrier is at top level, reached by every
 * work-item.  The ballots inside the loops are cl_khr_subgroup_ballot calls in
 * non-uniform control flow, which the extension allows; the reduce and shuffle
 * after the loops are reached by all 16 work-items.  No overflow, no division
 * by zero (q != 0 is tested), no out-of-range index.
 *
 * Near variants that finish (deleting the barrier, a ballot whose result is
 * unused, the unused reduce or shuffle after the loops, or a mix() in the dead
 * block; calling the body once instead of 3 times) write 0 to every out[i]
 * instead of 0x113ea: wrong values from plain OpenCL C on the same runtime.
 * Same mechanism as s70634_k21 as far as can be seen: the same generator
 * pattern (0xFFFF ^ clamp(1, 48, 524) / max(.., 4) = 0xFFF3 guarding a
 * never-executed sub_group_non_uniform_reduce_logical_and), ballots in
 * divergent loop code, finishes when 0xFFF3 is a literal, wrong all-zero
 * values from near variants.  Deleting the never-executed block instead of
 * the CONTROL edit also finishes with the right values; the barrier is needed
 * here (deleting it gives the all-zero output), which k21 did not have. */
ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (v >> 7); }
ulong safe_div_ulong(ulong a, ulong b) { return b == 0 ? a : a / b; }
/* parent & (the lanes whose p is true), as a 64-bit mask */
ulong ballot(ulong parent, bool p) { uint4 b = sub_group_ballot(p); return parent & ((ulong)b.x | ((ulong)b.y << 32)); }

kernel void k(global ulong *out, global const int *in)
{
    uint lid = get_local_id(0);
    ulong all = 0xFFFFFFFF;
    ulong cs = 0x113ea;
    barrier(CLK_LOCAL_MEM_FENCE); /* every work-item, top level */
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
