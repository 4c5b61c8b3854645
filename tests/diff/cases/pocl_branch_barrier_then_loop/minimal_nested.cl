/* pocl_branch_barrier_then_loop, second form: no loop, two nested branches
 * uniform over the work-group (work-group size 48, 144 work-items: only
 * group 1 enters both).  After the barriers, work-item 3 stores 3 into
 * out[48 * 5 + 4]; a statement follows the inner branch.  PoCL 3.1 leaves
 * it 0, Intel stores 3.  With one branch (the statement after the store in
 * the same branch) PoCL is right.  Campaign seed 70011 wg k63 has this
 * shape; 70051 wg k30 and 70307 wg k28 are of the family too. */
kernel void k(global ulong *out, global const int *in)
{
    local uchar lm[48];
    uint lid = get_local_id(0), gid = get_global_id(0), grp = get_group_id(0);
    ulong cs = 5;
    if (grp % 2) {
        if (grp % 3) {
            lm[lid] = (uchar)lid;
            barrier(CLK_LOCAL_MEM_FENCE);
            cs = cs * 31 + lm[47 - lid];
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid == 3u)
                out[(gid - lid) * 5u + 4u] = 3;
        }
        cs = cs * 31 + grp;
    }
    out[gid * 5u] = cs + (ulong)in[gid];
}
