/* intel_uint_shift_select in plain OpenCL C (no sgcc): the generator's guard
 * for uint << ulong.  On the Intel CPU runtime (2026.22.10), work-group of 64,
 * safe_shl_uint(6u, gid) is right for gid 0..15 and 32..63 but wrong for
 * 16..31: 0x66, 0x6c, 0x78, 0x90, ... (0x60 + (6 << (gid - 16))) where 6 << gid
 * is 0x60000, 0xc0000, 0x180000, ...  Right with -cl-opt-disable, on PoCL 3.1,
 * with a uint shift count, and in control.cl (gid through a volatile copy).
 * check_minimal.py compares with the host. */
uint safe_shl_uint(uint a, ulong b) { return b >= 32 ? a : a << b; }
kernel void k(global ulong *out, global const int *in)
{
    uint gid = get_global_id(0);
    out[gid] = (ulong)safe_shl_uint(6u, gid);
}
