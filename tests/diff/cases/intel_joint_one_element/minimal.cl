/* intel_joint_one_element in plain OpenCL C: what sgcc's joint_reduce helper
 * does over a one-element range (a loop strided by the group's size from the
 * local id, then the sub-group built-in), the size being popcount of a ballot
 * as for sgcc's ballot group.  Intel's CPU compiler aborts at build:
 *   Compiler Error! UNREACHABLE executed: Scalar sub_group_ballot execution
 *   breaks subgroup semantics!
 * The loop must sit in a function of its own (inline or not; written
 * straight into the kernel it builds) and the stride must be a value the
 * compiler cannot prove non-zero (a ballot-derived one: ballot().x directly
 * aborts too, and so does a loop without the reduce; get_sub_group_size()
 * builds).  A range of two elements builds.  -cl-opt-disable builds and is
 * right.  control.cl (the stride as max(range, 1u)) builds.  Expected value,
 * any launch: 5 on every work-item (only local id 0 adds tab[0], the reduce
 * sums over the sub-group).  From the repository root:
 *   eval "$(scripts/intel-ocl-env.sh)"
 *   python3 tests/diff/intel_hangs/run_minimal.py Intel --show \
 *       --src tests/diff/cases/intel_joint_one_element/minimal.cl */
constant uint tab[1] = {5u};
uint joint(uint range) {
    uint acc = 0;
    for (uint i = get_sub_group_local_id(); i < 1; i += range)
        acc += tab[i];
    return sub_group_non_uniform_reduce_add(acc);
}
kernel void k(global ulong *out, global const int *in) {
    out[get_global_id(0)] = joint(popcount(sub_group_ballot(true).x));
}
