/* intel_value_across_wg_barrier: plain OpenCL C, no sgcc.  A per-work-item
 * double (or float) computed before a work-group barrier comes out wrong and
 * the same for every work-item after it on the Intel CPU runtime
 * (2026.2): 16 everywhere (here and there INT64_MIN + 32) where it should be
 * -29, -26, -23, ... (work-group of 32, 64 work-items).  Without the barrier,
 * or with (double)(int)gid * 3.0 instead, it is right.  The same in the
 * sgcc output of case.sgc (campaign seed 70028 sg k29, the value before a
 * reduce_over_group(wg, ...)), seed 70016 wg k29 (before a
 * group_broadcast(wg, double)), and likely intel_float_before_wg_barrier_in_loop. */
kernel void k(global long *out)
{
    uint gid = get_global_id(0);
    double f = -16.0 - (double)((int)(~gid & 31) - 16) * 3.0;
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = (long)f + 32;
}
