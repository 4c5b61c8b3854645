/* intel_double_across_local_barriers in plain OpenCL C (no sgcc).  Launch:
 * local 32, global 64, diffrun's inputs (Intel picks sub-groups of 16).  A
 * per-work-item double computed before a work-group barrier and used after
 * it: on the Intel CPU runtime the first sub-group of each work-group gets
 * the second sub-group's values (gid 0..15 get gid 16..31's, 32..47 get
 * 48..63's).  Right with -cl-opt-disable, without the barrier, and with
 * "+ X * 15.0" in place of "- X * -15.0".  control.cl (f through a volatile
 * copy) is right, and so is PoCL 3.1.  check_minimal.py compares with the
 * host.  Campaign seed 70714 sg k40 (case.sgc: the double, then local
 * atomics between barriers, then the double mixed into the checksum). */
__kernel void k(__global ulong *out, __global const int *in) {
    uint gid = get_global_id(0);
    double f = -10.0 - (double)((int)(in[gid] & 31) - 16) * -15.0;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = (ulong)(long)f;
}
