/* intel_int_shift_select: plain OpenCL C, no sgcc; the family of
 * intel_uint_shift_select with the signed right shift.  On the Intel CPU
 * runtime (2026.2), work-group of 64: the guard's value itself is right (0
 * for gid < 32), but (guard & 1) ? -1 : 1 gives -1 for gid 16..31 (20
 * excepted) instead of 1.  Campaign seed 70014 sg k45: the values of a
 * reduce_over_group(ballot, x, multiplies) over such x. */
int safe_shr_int(int a, ulong b) { return b >= 32u ? a : a >> b; }
kernel void k(global long *out)
{
    uint gid = get_global_id(0);
    out[gid] = safe_shr_int((char)gid, (uint)gid) & 1 ? -1 : 1;
}
