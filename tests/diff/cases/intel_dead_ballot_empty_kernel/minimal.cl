/* intel_dead_ballot_empty_kernel in plain OpenCL C, from CPU campaign seed 70754
 * sg kernel k42 (wrong with -DSGC_FORCE_GENERIC and on the khr tier: the
 * kernel wrote none of its 192*7 outputs).  Launch: local 64, global 192 (the
 * case's sizes; the Intel CPU runtime picks sub-groups of 16).  Every
 * work-item should write out[gid] = 0x11462: the if is never taken (abs(0 or
 * 1) != 3), so neither the ballot nor the store in it runs. Intel's default
 * (optimised) build writes nothing: all 192 outputs stay 0
 * (CL_CONFIG_DUMP_ASM: the work-item loops have empty bodies, and the 16-wide
 * vector path is gone).  Right with -cl-opt-disable and with
 * CL_CONFIG_USE_VECTORIZER=False; PoCL 3.1 has no sub-group built-ins. All of
 * these are needed: the unused get_sub_group_local_id() (control.cl drops it;
 * any sub-group query does: get_sub_group_size/id, get_num_sub_groups), the
 * sub_group_ballot of c, the store under !c (not under c), c as `in[gid] ||
 * gid` (not `gid || in[gid]` nor `in[gid] != 0`), and a never-true condition
 * that the compiler can only prove false late (abs of gid & 1; `(gid & 1) ==
 * 3` or gid > 1000 are right). check_minimal.py compares with the host. */
kernel void k(global ulong *out, global const int *in)
{
    uint gid = get_global_id(0);
    get_sub_group_local_id();
    if (abs((int)(gid & 1)) == 3) {
        bool c = in[gid] || gid;
        (void)sub_group_ballot(c);
        if (!c)
            out[gid] = 1;
    }
    out[gid] = 0x11462;
}
