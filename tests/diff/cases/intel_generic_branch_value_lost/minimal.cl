/* intel_generic_branch_value_lost in plain OpenCL C (sgcc's output before
 * 89404d3, reduced by hand).  Launch: local 16, global 32 (sub-groups of
 * 16), diffrun's inputs.  An if/else on lane % 3 == 2, each side running a
 * shuffle ladder of the old generic tier (a loop to get_max_sub_group_size()
 * doubling d, shuffling from a lane of its own side: lane 2 / lane 0); the
 * then side also sets v = 5.  On the Intel CPU runtime the then side's
 * work-items end with v = get_group_id(0) (0 or 1) instead of 5: the
 * assignment is lost (2, 5, 8, ... 30 wrong).  Both ladders are needed, and
 * the get_max_sub_group_size() bound: with 16u in the then side's loop
 * (control.cl) or v volatile it is right.  -cl-opt-disable is wrong too, with
 * other values (the then side's ladder results, not only v).  From the
 * repository root, after eval "$(scripts/intel-ocl-env.sh)":
 *   python3 tests/diff/cases/intel_generic_branch_value_lost/check_minimal.py \
 *       tests/diff/cases/intel_generic_branch_value_lost/minimal.cl */
kernel void k(global ulong *out, global const int *in) {
    uint gid = get_global_id(0), lane = get_sub_group_local_id();
    int v = get_group_id(0);
    long cs;
    if (lane % 3u == 2u) {
        v = 5;
        int x = in[gid] & 1;
        for (uint d = 1; d < get_max_sub_group_size(); d <<= 1)
            x &= sub_group_shuffle(x, 2u);
        cs = x;
    } else {
        long acc = in[gid];
        for (uint d = 1; d < get_max_sub_group_size(); d <<= 1)
            acc += sub_group_shuffle(acc, 0u);
        cs = acc;
    }
    out[gid] = cs * 1000 + v;
}
