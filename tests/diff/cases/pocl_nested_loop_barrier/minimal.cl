/* pocl_nested_loop_barrier in plain OpenCL C (diffrun -p Portable -o -DINNER=2
 * minimal.manifest minimal.cl DIR): a while loop whose trip count differs between
 * work-items (1 or 3) with an inner loop of INNER iterations, in a kernel with
 * work-group barriers.  PoCL 3.1 runs the outer loop 3 times on every work-item
 * with INNER=2 (1093116 everywhere instead of 13116 on half); right with INNER=0
 * or 1, and right without the barriers.  Intel: right. */
#ifndef INNER
#define INNER 2
#endif
ulong f(char p13, char p14)
{
    ulong acc = 1;
    int i = -1;
    while (++i < ((9 | p14) & 3)) {
        for (int j = 0; j < INNER; j++)
            acc = acc * 3 + 1;
        p13 = (char)(836266612 ^ p13);
    }
    acc = acc * 1000 + (ulong)(uchar)p13;
    return acc;
}
__kernel void k(__global ulong *out, __global const int *in)
{
    __local ulong l[1];
    uint lid = get_local_id(0), gid = get_global_id(0);
    if (lid == 0u) l[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong v = f((char)(lid == 3u), (char)lid);
    out[gid * 2u + 1u] = v;
    atom_add(&l[0], v);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid * 2u] = l[0];
}
