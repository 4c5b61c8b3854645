/* intel_khr_ballot_branches in plain OpenCL C (fifth session).  Launch: local 8
 * (Intel picks sub-groups of 8), global 16, diffrun's inputs.  The work-items of
 * the else side end up with the then side's reduce_add result on the Intel
 * CPU runtime (1-4 and 9, 12-15 wrong); control.cl, with the any() result
 * through a volatile copy, is right.  check_minimal.py compares with the host. */
ulong f2u(double x) { if (x != x) return 7UL; if (x > 1e18) return 11UL; if (x < -1e18) return 13UL; return (ulong)(long)x; }
__kernel void k(__global ulong *out, __global const int *in) {
    uint gid = get_global_id(0);
    uint lane = get_sub_group_local_id();
    ulong cs;
    if (in[gid] < 7) {
        long acc = lane < 3 ? (long)in[lane] : 0;
        cs = sub_group_non_uniform_reduce_add(acc);
    } else {
        cs = sub_group_non_uniform_any(gid == 0);
        double acc = lane < 5 ? (double)in[lane] : 1e30;
        cs = cs + f2u(sub_group_non_uniform_reduce_min(acc));
    }
    out[gid] = cs;
}
