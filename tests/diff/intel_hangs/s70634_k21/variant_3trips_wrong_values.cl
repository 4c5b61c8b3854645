/* minimal.cl with the strided loop replaced by a fixed 3-trip loop (same
 * elements read).  Finishes on Intel(R) OpenCL but every work-item writes 0;
 * lanes with lane % 3 != 2 must write 0x113ea (control.cl gets that). */
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
        uint sgid = get_sub_group_id(); /* CONTROL: dead; delete it and the kernel finishes */
        uint range = max(popcount(mask), (ulong)1);
        ulong acc = ~(ulong)0;
        for (uint n = 0; n < 3; n++) {
            uint i = lane + n * range;
            if (i < 12)
                acc &= tab[i];
        }
        cs = sub_group_non_uniform_reduce_and(acc);
    }
    out[gid] = cs;
}
