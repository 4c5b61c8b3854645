/* intel_guarded_div_loop control: minimal.cl with div() written in the loop
 * (same meaning: sub-group 0 runs no trip, so the divisor is never 0).
 * Builds; digest eba8441e5f81 as minimal.cl with -cl-opt-disable. */
long div(long a, long b) { return b == 0 ? a : a / b; }
kernel void k(global ulong *out, global const int *in) {
    uint gid = get_global_id(0), sgid = get_sub_group_id();
    ulong cs = 1;
    for (int i = 0; i < (int)((sgid + (-4)) % 3); i++)
        cs = (cs ^ in[gid] / (long)(int)sgid) * 3;
    out[gid] = cs + sub_group_ballot(true).x;
}
