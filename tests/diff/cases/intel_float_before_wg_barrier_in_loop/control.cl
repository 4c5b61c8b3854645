/* Control for minimal.cl: gid read through a volatile private copy in the
 * expression (same value, same meaning).  Right on the Intel CPU runtime.
 * (A volatile copy of the result instead, as in
 * { volatile float v = 1.0f - (float)(int)gid * -16.0f; d = v; }, stays
 * wrong: the stale value is the gid-derived operand, not d.) */
kernel void k(global ulong *out, global const int *in)
{
    uint gid = get_global_id(0), grp = get_group_id(0);
    volatile uint vgid = gid;
    double d = -1;
    for (uint i = 0; i < grp; i++) {
        if (in[gid] != 12345)
            d = 1.0f - (float)(int)vgid * -16.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[gid] = (ulong)(long)d;
}
