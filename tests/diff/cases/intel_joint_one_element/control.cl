/* Control for minimal.cl: the stride as max(range, 1u) (the same value, as a
 * ballot of true has at least the caller's bit, but provably non-zero, so
 * the loop provably ends).  Builds and gives 5 on every work-item on the
 * Intel CPU runtime.  Other one-line edits that build and give 5: the stride
 * through a volatile copy, joint() marked __attribute__((noinline)), a
 * two-element table with i < 2, get_sub_group_size() as the stride. */
constant uint tab[1] = {5u};
uint joint(uint range) {
    uint acc = 0;
    for (uint i = get_sub_group_local_id(); i < 1; i += max(range, 1u))
        acc += tab[i];
    return sub_group_non_uniform_reduce_add(acc);
}
kernel void k(global ulong *out, global const int *in) {
    out[get_global_id(0)] = joint(popcount(sub_group_ballot(true).x));
}
