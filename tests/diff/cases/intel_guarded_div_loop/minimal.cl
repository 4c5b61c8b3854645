/* intel_guarded_div_loop in plain OpenCL C (seed 70708 sg kernel k15: the
 * generator's loop `for (i = 0; i < (int)((sgid + sc3) % 3); i++)` with sc3 = -4
 * whose body calls safe_div_long(iny, (int)sgid), before an opportunistic
 * group's reduce; every sgcc tier emits a sub_group_ballot after it, for the
 * opportunistic group's mask).  Intel's CPU compiler aborts at build:
 *   Compiler Error! UNREACHABLE executed: Scalar sub_group_ballot execution
 *   breaks subgroup semantics!
 * No sgcc library code and no joint algorithm: a loop whose trip count
 * ((sgid - 4) % 3, at most two) is a function of the sub-group id, calling a
 * separate function that divides by that id behind a b == 0 test, then any
 * sub_group_ballot.  Builds (and is right) if: the division is written in
 * the loop (control.cl: same meaning, since at sgid 0 the loop runs no
 * trip), the trip count is sgid % 3, sgid % 2, sgid & 1 or sgid, or the
 * divisor is another value (in[gid + 1]); a multiply in the body (here *3)
 * is needed: `cs += div(...)` builds.  -cl-opt-disable builds and gives
 * control.cl's output.  Expected (run_minimal.py defaults: local 32, global
 * 96, one output a work-item): digest eba8441e5f81, the first outputs
 * 10000 (x16) f94e fffffffebaf69122 ... (sub-group size 16: sub-group 0
 * runs no trip, 1 + 0xffff; sub-group 1 runs one).  From the repository root:
 *   eval "$(scripts/intel-ocl-env.sh)"
 *   python3 tests/diff/intel_hangs/run_minimal.py Intel --show \
 *       --src tests/diff/cases/intel_guarded_div_loop/minimal.cl
 *   (add --options=-cl-opt-disable, or --src .../control.cl, to see it build) */
long div(long a, long b) { return b == 0 ? a : a / b; }
kernel void k(global ulong *out, global const int *in) {
    uint gid = get_global_id(0), sgid = get_sub_group_id();
    ulong cs = 1;
    for (int i = 0; i < (int)((sgid + (-4)) % 3); i++)
        cs = (cs ^ div(in[gid], (int)sgid)) * 3;
    out[gid] = cs + sub_group_ballot(true).x;
}
