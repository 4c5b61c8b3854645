/* intel_ballot_branch_mix_leak in plain OpenCL C.  Launch: local 8 (sub-groups of 8),
 * global 16.  Work-item 0 takes the else side alone; gids 1..7 (the then
 * side, a partition of 7) should get mix(0x11445, f2u(-3129)), but on the
 * Intel CPU runtime the `v >> 7` term of their mix() is taken from the else
 * side's value f2u(-249) (0xe781fffe2361e4 for 0xe781fffe2361cd).  The
 * sub_group_ballot, whose result is unused, is needed: control.cl drops it
 * and is right.  check_minimal.py compares with the host.
 * control.cl: minimal.cl without the unused sub_group_ballot (same meaning). */
ulong mix(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (v >> 7); }
ulong f2u(double x) { if (x != x) return 7UL; if (x > 1e18) return 11UL; if (x < -1e18) return 13UL; return (ulong)(long)x; }
__kernel __attribute__((intel_reqd_sub_group_size(8))) void k(__global ulong *out, __global const int *in) {
    uint gid = get_global_id(0);
    ulong cs = 0x11445UL;
    bool p = gid != 0;
    if (p) {
        double r = sub_group_non_uniform_reduce_add(-447.0);
        cs = mix(cs, f2u(r));
    } else {
        double s = sub_group_non_uniform_scan_inclusive_add(-504.0);
        cs = mix(cs, f2u(s));
        cs = mix(cs, f2u(sub_group_non_uniform_reduce_add(-249.0f)));
    }
    out[gid] = cs;
}
