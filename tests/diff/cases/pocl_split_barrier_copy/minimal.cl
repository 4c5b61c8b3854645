/* pocl_split_barrier_copy reduced to plain OpenCL C (run: diffrun -p Portable
 * minimal.manifest minimal.cl DIR): the cooperative copy of sgcc's split-barrier
 * emulation (compiler/emit/opencl/barrier.cl, sgc_async_copy_bytes: a loop from the
 * linear local id by the linear local size), twice in a kernel with barriers
 * between, copies nothing on PoCL 3.1: out is 0 everywhere instead of in[63 - lid]
 * (Intel: right).  With get_local_id(0) and get_local_size(0) instead of the linear
 * id and size (min3 in the notes), or one copy only, PoCL is right. */
static inline uint lin_id(void)
{
    return (uint)(get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
}
static inline uint lin_size(void)
{
    return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}
static inline void copy(__local int *dst, __global const int *src, uint n)
{
    uint lid = lin_id(), lsize = lin_size();
    for (uint i = lid; i < n; i += lsize)
        dst[i] = src[i];
}
__kernel void k(__global ulong *out, __global const int *in)
{
    __local int l[64];
    uint lid = get_local_id(0), gid = get_global_id(0);
    copy(l, in + (gid - lid), 64u);
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong r = (ulong)l[63u - lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    copy(l, in + (gid - lid), 64u);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gid] = r + (ulong)l[lid] * 0;
}
