/* control for minimal.cl: one edit, the switch value min(3, 5) written as
 * the literal 3 (the same value); right on the Intel CPU runtime.  (Other
 * one-edit controls that were right: v declared uint, v volatile, the
 * default arm's mem_fence dropped.) */
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
        switch (3) {
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
