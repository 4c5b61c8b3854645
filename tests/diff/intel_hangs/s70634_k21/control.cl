/* Control for minimal.cl: identical except that the dead statement
 * "uint sgid = get_sub_group_id();" is deleted.  Finishes on Intel(R) OpenCL
 * with the right values (0x113ea where lane % 3 != 2, 0 where lane % 3 == 2). */
__constant ulong tab[12] = {197, 136, 13, 427, 47, 81, 367, 366, 253, 1, 251, 35};

kernel void k(global ulong *out, global const int *in)
{
    uint gid = get_global_id(0);
    uint lane = get_sub_group_local_id();
    ulong cs = 0x113ea;
    if (gid == 1) {
        int i = 0;
        ushort v = 0xFFFF ^ (clamp(1, 48, 524) / max(1ul, 4ul)); /* 0xFFFF ^ 12 = 0xFFF3 */
        if (v < 100) /* never true: the reduction below never runs */
            cs = (ulong)sub_group_non_uniform_reduce_logical_and((int)(v <= max((ulong)i, 9ul)));
    }
    bool c = lane % 3u == 2u;
    uint4 b = sub_group_ballot(c); /* reached by every work-item */
    ulong mask = ((ulong)b.x | ((ulong)b.y << 32));
    if (c) {
        uint range = max(popcount(mask), (ulong)1);
        ulong acc = ~(ulong)0;
        for (uint i = lane, n = 0; i < 12 && n < 12; i += range, n++) /* <= 12 trips */
            acc &= tab[i];
        cs = sub_group_non_uniform_reduce_and(acc);
    }
    out[gid] = cs;
}
