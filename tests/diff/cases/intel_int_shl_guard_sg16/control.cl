/* control for minimal.cl: one edit, gid read through a volatile copy (the
 * same value); right on the Intel CPU runtime. */
int safe_shl_int(int a, ulong b) { return a < 0 || b >= 32u || a > 2147483647 >> b ? a : a << b; }
kernel void k(global ulong *out, global const int *in)
{
    volatile uint gid = get_global_id(0);
    out[gid] = (ulong)safe_shl_int((char)3, gid);
}
