/* Control for minimal.cl: f through a volatile private copy (same value, same
 * meaning).  Right on the Intel CPU runtime. */
__kernel void k(__global ulong *out, __global const int *in) {
    uint gid = get_global_id(0);
    volatile double f = -10.0 - (double)((int)(in[gid] & 31) - 16) * -15.0;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = (ulong)(long)f;
}
