/* intel_int_shift_select, left-shift form: plain OpenCL C, no sgcc.  The
 * generator's guard for int << (Csmith's): on the Intel CPU runtime with
 * sub-groups of 8 (the attribute below; without it the result is right),
 * work-items 8..23 of a work-group of 24 get 0x1b, 0x1e, 0x24, 0x30, ...
 * where 3 << gid is 0x300, 0x600, 0xc00, 0x1800, ...; PoCL 3.1 is right.
 * Campaign seed 70100 sg k18 (third session; reduced in the fourth): a loop
 * mixing safe_shl_int((ushort)3, gid) into the checksum, wrong on Intel's
 * khr and generic tiers. */
int safe_shl_int(int a, ulong b) { return a < 0 || b >= 32u || a > 2147483647 >> b ? a : a << b; }
__attribute__((intel_reqd_sub_group_size(8)))
kernel void k(global ulong *out, global const int *in)
{
    uint gid = get_global_id(0);
    out[gid] = (ulong)safe_shl_int((ushort)3, gid);
}
