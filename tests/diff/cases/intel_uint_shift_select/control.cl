/* Control for minimal.cl: gid passed through a volatile private copy (same
 * value, same meaning).  Right on the Intel CPU runtime. */
uint safe_shl_uint(uint a, ulong b) { return b >= 32 ? a : a << b; }
kernel void k(global ulong *out, global const int *in)
{
    uint gid = get_global_id(0);
    volatile uint vgid = gid;
    out[gid] = (ulong)safe_shl_uint(6u, vgid);
}
