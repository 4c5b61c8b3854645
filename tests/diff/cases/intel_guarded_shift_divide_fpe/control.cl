/* Control for minimal.cl (Intel CPU OpenCL runtime SIGFPE, campaign seed 70796
 * wg k56; local 32, global 32).  One edit: d is declared `volatile ulong`
 * instead of `ulong`, so the optimizer cannot fold shl() into the guarded
 * division.  Expected: out[gid] = 2 for all work-items. */
int shl(int a, ulong b) { return b >= 32u || a > 2147483647 >> b ? a : a << b; }

kernel void k(global ulong *out, global const int *in) {
    uint gid = get_global_id(0);
    volatile ulong d = shl(1, (long)in[(gid + 5u) % 32u] + in[gid]);
    out[gid] = d == 0 ? 2 : 2 / d;
}
