/* Control for minimal.cl: the trip count through a volatile private copy
 * (same value, same meaning).  Right on the Intel CPU runtime. */
ulong mix_(ulong h, ulong v) { return (h ^ v) * 0x100000001b3UL + (v >> 7); }
ulong ballot(ulong parent, bool p) { uint4 b = sub_group_ballot(p); return parent & ((ulong)b.x | ((ulong)b.y << 32)); }
uint lane_of_rank(ulong mask, uint k)
{
    uint first = 63u - (uint)clz(mask & (~mask + 1));
    ulong run = mask >> first;
    if ((run & (run + 1)) == 0)
        return first + k;
    uint base = 0;
    for (uint width = 32; width > 0; width >>= 1) {
        uint low = popcount(mask & (((ulong)1 << width) - 1));
        if (k >= low) {
            k -= low;
            mask >>= width;
            base += width;
        }
    }
    return base;
}

__kernel void k(__global ulong *out, __global const int *in) {
    const ulong all = ((ulong)1 << get_sub_group_size()) - 1;
    uint gid = get_global_id(0);
    int inx = in[gid];
    long iny = (long)in[(gid + 5u) % 32u] * 65536 + inx;
    ulong cs = 0x111afUL;
    char a[4] = {0};
    const bool c1 = (inx >> 1) != 0;
    const ulong m1 = ballot(all, c1);
    if (c1) {
        int i = 0;
        ulong m2 = m1;
        for (;;) {
            volatile int n = (int)(min(a[inx & 3] == gid, 0) & 3);
            const bool go = i < n;
            if (!go)
                break;
            const int sw = (int)((a[1] == 0 ? clamp(0, 39, 149) : clamp(0, 39, 149) / a[1]) & 7);
            const bool in3 = sw == 0 || sw == 5 || sw == 4;
            const bool brk = sw == 0;
            const ulong m7 = ballot(m2, in3 && !brk);
            if (in3 && !brk) {
                float r = sub_group_shuffle(-510.0f, lane_of_rank(m7, 0));
                cs = mix_(cs, (ulong)(long)r);
            }
            i++;
        }
        for (int j = 0; j < 2; j++) {
            uint src = lane_of_rank(m1, 2u);
            uchar r = (uchar)sub_group_shuffle((int)(uchar)(j * (iny != 0)), src);
            cs = mix_(cs, (ulong)r);
        }
    }
    out[gid] = cs;
}
