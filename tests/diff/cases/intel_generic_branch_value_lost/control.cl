/* Control for minimal.cl: the then side's ladder runs to 16u (the same trip
 * count: get_max_sub_group_size() is 16 at local size 16) instead of
 * get_max_sub_group_size().  Right on the Intel CPU runtime (check_minimal.py
 * says RIGHT); so is minimal.cl with `volatile int v`. */
kernel void k(global ulong *out, global const int *in) {
    uint gid = get_global_id(0), lane = get_sub_group_local_id();
    int v = get_group_id(0);
    long cs;
    if (lane % 3u == 2u) {
        v = 5;
        int x = in[gid] & 1;
        for (uint d = 1; d < 16u; d <<= 1)
            x &= sub_group_shuffle(x, 2u);
        cs = x;
    } else {
        long acc = in[gid];
        for (uint d = 1; d < get_max_sub_group_size(); d <<= 1)
            acc += sub_group_shuffle(acc, 0u);
        cs = acc;
    }
    out[gid] = cs * 1000 + v;
}
