/* intel_int_shl_guard_sg16: plain OpenCL C, no sgcc.  The generator's guard
 * for int << (as in intel_int_shift_select's minimal_shl.cl, there with
 * sub-groups of 8).  Run with local 48, global 144 (check_minimal.py): the
 * Intel CPU runtime picks sub-groups of 16 and work-items 16..29 get
 * 0x33, 0x36, 0x3c, 0x48, ... ((3 << (gid - 16)) + 0x30) where 3 << gid is
 * 0x30000, 0x60000, ...; right with -cl-opt-disable and on PoCL 3.1.
 * CPU campaign seed 70731 sg k47 (khr and SGC_FORCE_GENERIC). */
int safe_shl_int(int a, ulong b) { return a < 0 || b >= 32u || a > 2147483647 >> b ? a : a << b; }
kernel void k(global ulong *out, global const int *in)
{
    uint gid = get_global_id(0);
    out[gid] = (ulong)safe_shl_int((char)3, gid);
}
