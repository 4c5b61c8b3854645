/* intel_divergent_switch_merge: plain OpenCL C, no sgcc.  What sgcc's
 * joint_reduce(fixed_size_group<1>, tab + 10, tab + 13, bit_and) leaves on
 * the lanes with sgl % 3 == 2 (a loop over the range, from the group's local
 * id 0 by its size 1; no group function is left for a group of one), beside
 * a switch on the other lanes that sets v = 1.  Run with local 64, global 64
 * (check_minimal.py): the Intel CPU runtime picks sub-groups of 16 (the top
 * bits of each output hold get_sub_group_size()).  Expected: cs = 4 where
 * sgl % 3 == 2 (-1 & 5 & 6 & 7, plus 4 >> 7), else 0 or, for odd sgl, 1000.
 * Intel's default build gives 4 + 1000 on sgl 5 and 11 (gids 5, 11, 21, 27,
 * 37, 43, 53, 59): the `if (sgl & v)` sees v = 1 on lanes that never ran the
 * else side.  Right with -cl-opt-disable.  Needs all of: the loop with a
 * trip count not known at compile time, cs += cs >> 7, a 64-bit v, the two
 * case labels on one arm (arm storing a non-constant), a default arm with a
 * side effect (mem_fence, a volatile store), and a switch value the front
 * end does not fold (min(3, 5); a literal 3 is right: control.cl).
 * CPU campaign seed 70752 sg k54 (khr and SGC_FORCE_GENERIC). */
kernel void k(global ulong *out, global const int *in)
{
    uint gid = get_global_id(0), sgl = get_sub_group_local_id();
    ulong cs = 0, v = 0;
    if (sgl % 3u == 2u) {
        cs = -1;
        for (uint i = sgl >> 6; i < 3; i++)
            cs &= i + 5;
        cs += cs >> 7;
    } else {
        switch (min(3, 5)) {
        case 6:
        case 2:
            cs = sgl;
            break;
        default:
            mem_fence(CLK_GLOBAL_MEM_FENCE);
        }
        v = 1;
    }
    if (sgl & v)
        cs += 1000;
    out[gid] = cs | (ulong)get_sub_group_size() << 48;
}
