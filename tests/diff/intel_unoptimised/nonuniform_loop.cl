/* Intel CPU runtime, unoptimised build only (-cl-opt-disable): a do/while
 * loop whose trip count differs between the lanes of a sub-group of 8
 * (sgl & 3, at least one trip) holding sub_group_non_uniform_reduce_add.
 * Right values, which the default build gives: lanes with one trip 255
 * (every lane active), two trips 255204 (then lanes 2, 3, 6, 7: 0xcc),
 * three trips 255204136 (then lanes 3, 7: 0x88), so
 *   ff ff 3e4e4 f361b28 ff ff 3e4e4 f361b28.
 * With -cl-opt-disable every lane prints f36e2d7 (255255255): every lane
 * runs three trips, and every reduce counts all eight lanes.  Plain OpenCL
 * C; found while triaging campaign seed 70731 sg (sixth session), whose
 * unoptimised khr build was wrong on 20 of 64 kernels.  It is why
 * -cl-opt-disable on Intel's CPU runtime is no control for kernels with
 * sub-group operations in divergent code (docs/RELIABILITY.md).  From the
 * repository root, after eval "$(scripts/intel-ocl-env.sh)":
 *   python3 tests/diff/intel_hangs/run_minimal.py Intel --src tests/diff/intel_unoptimised/nonuniform_loop.cl \
 *       --local-size 8 --global-size 8 --show --options=-cl-opt-disable */
#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_arithmetic : enable
__attribute__((intel_reqd_sub_group_size(8)))
kernel void k(global ulong *out, global const int *in)
{
    uint gid = get_global_id(0), sgl = get_sub_group_local_id();
    ulong acc = 0;
    int i = 0;
    do {
        uint r = sub_group_non_uniform_reduce_add(1u << sgl);
        acc = acc * 1000 + r;
    } while (++i < (int)(sgl & 3));
    out[gid] = acc;
}
