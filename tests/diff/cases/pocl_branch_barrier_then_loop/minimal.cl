/* pocl_branch_barrier_then_loop: plain OpenCL C, no sgcc.  Work-group size
 * 48, 144 work-items.  In a branch that is uniform over each work-group
 * (get_group_id(0) != 0), after a barrier, work-item 3 of the group stores
 * 3 into out[first work-item of the group * 5 + 4]; a loop follows the
 * branch.  PoCL 3.1 (Debian) never runs the store: out[48 * 5 + 4] and
 * out[96 * 5 + 4] stay 0, and work-item 3's checksum misses it too.  The
 * Intel CPU runtime stores 3.  Without the loop after the branch PoCL is
 * right.  The same program through sgcc (case.sgc: a joint_inclusive_scan
 * over the work-group, then an atomic_exchange by local id 3, then a while
 * loop) is campaign seed 70607 wg k41; seeds 56336, 56339 and 56553 (PoCL 5
 * on the GPU machine, PoCL 3.1 here) fail the same way, Intel right. */
kernel void k(global ulong *out, global const int *in)
{
    uint lid = get_local_id(0), gid = get_global_id(0);
    ulong cs = 5;
    if (get_group_id(0) != 0) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 3u) {
            out[(gid - lid) * 5u + 4u] = 3;
            cs = 0;
        }
    }
    int i = -1;
    while (++i < 3)
        cs = cs * 31 + (ulong)in[gid];
    out[gid * 5u] = cs;
}
