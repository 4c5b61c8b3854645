/* intel_dead_ballot_empty_kernel control: minimal.cl without the statement
 * get_sub_group_local_id(); (its value was unused, so the meaning is the
 * same).  Right on the Intel CPU runtime: every out[gid] = 0x11462. */
kernel void k(global ulong *out, global const int *in)
{
    uint gid = get_global_id(0);
    if (abs((int)(gid & 1)) == 3) {
        bool c = in[gid] || gid;
        (void)sub_group_ballot(c);
        if (!c)
            out[gid] = 1;
    }
    out[gid] = 0x11462;
}
