/* intel_guarded_shift_divide_fpe: Intel CPU OpenCL runtime (PyPI intel-opencl-rt): SIGFPE (integer divide
 * trap, process exit 136) while RUNNING this kernel built with default
 * options.  clBuildProgram and clCreateKernel succeed; the crash comes at
 * enqueue/execution.  The source never divides by zero: shl() returns 1 or
 * a<<b only when b < 32 and a <= INT_MAX>>b (no signed overflow), so d is always >= 1, and the division is guarded anyway.
 * With -cl-opt-disable: runs, out[gid] = 2 for all 32 work-items (same as
 * PoCL 3.1).  Sizes: local 32, global 32; input in[] = diffrun's diff_input(i).
 * Reduced by hand from CPU campaign seed 70796, wg flavour, kernel k56
 * (sgcc statement safe_div_ulong(..., safe_shl_int(..., safe_mod_long(iny, 0)))). */
int shl(int a, ulong b) { return b >= 32u || a > 2147483647 >> b ? a : a << b; }

kernel void k(global ulong *out, global const int *in) {
    uint gid = get_global_id(0);
    ulong d = shl(1, (long)in[(gid + 5u) % 32u] + in[gid]);
    out[gid] = d == 0 ? 2 : 2 / d;
}
