/* Control: minimal.cl with the shift count read back through a volatile
 * private variable (same value, so the same semantics).  Intel is right. */
__kernel void k(__global ulong *out, __global const int *in) {
    uint gid = get_global_id(0);
    int r = 5;
    if (gid < 32u && 5 <= 0x7fffffff >> gid) { volatile uint s = gid; r = 5 << s; }
    out[gid] = (ulong)r;
}
