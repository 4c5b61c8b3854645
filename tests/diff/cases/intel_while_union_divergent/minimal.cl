/* Intel CPU OpenCL runtime miscompiles this kernel (local size 32 or 64).
 * Expected: out[g] = 5 << g for g <= 28, else 5.
 * Intel gives (5 << (g - 16)) + 5*16 for g = 16..28. */
__kernel void k(__global ulong *out, __global const int *in) {
    uint gid = get_global_id(0);
    int r = 5;
    if (gid < 32u && 5 <= 0x7fffffff >> gid) r = 5 << gid;
    out[gid] = (ulong)r;
}
