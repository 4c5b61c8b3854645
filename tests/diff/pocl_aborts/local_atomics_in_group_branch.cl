#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
ulong mix_(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (h >> 29); }
__kernel void k(__global ulong *out, __global const int *in)
{
    __local long lm[1];
    uint lid = get_local_id(0), gid = get_global_id(0), grp = get_group_id(0);
    ulong cs = 0xe42dUL;
    if ((grp ^ 8u) % 4) {
        cs = mix_(cs, lid ? 0 : get_global_size(0));
    } else {
        if (lid == 0u) lm[0] = 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        cs = mix_(cs, (ulong)lm[0]);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 2u) cs = mix_(cs, (ulong)atom_cmpxchg(&lm[0], 1L, 77L));
        barrier(CLK_LOCAL_MEM_FENCE);
        cs = mix_(cs, (ulong)lm[0]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[gid] = cs;
}
