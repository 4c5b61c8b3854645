/* intel_float_before_wg_barrier_in_loop in plain OpenCL C (no sgcc), cut from
 * sgcc's output of debug.sgc (f71 = ... - (float)(gid-term) * -16.0f in an if
 * inside a loop whose body then runs sgc_wg_broadcast's two barriers).
 * Launch: local 24, global 72, diffrun's inputs.  Group g runs g iterations;
 * d should be 1 + 16 * gid in groups 1 and 2.  On the Intel CPU runtime
 * (2026.22.10) every work-item of group 1 gets 1 and every one of group 2
 * gets 753 (= the value of gid 47, the last work-item of group 1), now and
 * then a garbage value on gid 47: the gid-derived (loop-invariant) operand
 * seems to be read as one stale value for the group after the barriers.  Right
 * with -cl-opt-disable, on PoCL 3.1, with 1.0f + (float)(int)gid * 16.0f,
 * without the if, without the loop (an if (grp > 0) instead), without the
 * barriers, and in control.cl (gid through a volatile copy).  Still wrong
 * with one barrier (then the wrong values vary from run to run) and with
 * the result through a volatile copy.  check_minimal.py compares with the
 * host. */
kernel void k(global ulong *out, global const int *in)
{
    uint gid = get_global_id(0), grp = get_group_id(0);
    double d = -1;
    for (uint i = 0; i < grp; i++) {
        if (in[gid] != 12345)
            d = 1.0f - (float)(int)gid * -16.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[gid] = (ulong)(long)d;
}
