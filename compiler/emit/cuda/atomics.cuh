/* atomics.cuh — prelude section "cuda_atomics": the atomics of
 * docs/REFERENCE.md §4 that CUDA has no function of the same meaning for:
 * atomic_load/atomic_store on every atomic type, and add, sub, min, max and
 * exchange on float and double (the same meaning as opencl/atomics.cl).
 * Needs no other section.
 *  - load/store: volatile accesses (PTX ld.volatile/st.volatile: relaxed);
 *  - float: atomicAdd (sub adds the negation, exact), atomicExch; double:
 *    atomicAdd from sm_60, exchange through the 64-bit atomicExch of its
 *    bits; everything else a compare-exchange loop on the bit pattern (so
 *    a NaN or -0.0 in memory cannot make it spin).
 * min and max are fmin/fmax-like: a NaN operand is ignored, -0.0 is below
 * +0.0. */

namespace sgc {

template <class T>
__device__ __forceinline__ T atomic_load(const T *p)
{
    return *(const volatile T *)p;
}

template <class T>
__device__ __forceinline__ void atomic_store(T *p, T v)
{
    *(volatile T *)p = v;
}

__device__ __forceinline__ unsigned int atomic_bits(float x) { return __float_as_uint(x); }
__device__ __forceinline__ unsigned long long atomic_bits(double x)
{
    return (unsigned long long)__double_as_longlong(x);
}
__device__ __forceinline__ float atomic_value(unsigned int b) { return __uint_as_float(b); }
__device__ __forceinline__ double atomic_value(unsigned long long b)
{
    return __longlong_as_double((long long)b);
}

/* The new value from the old one (a) and the argument (b). */
struct atomic_op_add {
    template <class T> __device__ T operator()(T a, T b) const { return a + b; }
};
struct atomic_op_min {
    template <class T> __device__ T operator()(T a, T b) const
    {
        return isnan(b) ? a : isnan(a) ? b : (b < a || (b == a && signbit(b))) ? b : a;
    }
};
struct atomic_op_max {
    template <class T> __device__ T operator()(T a, T b) const
    {
        return isnan(b) ? a : isnan(a) ? b : (b > a || (b == a && !signbit(b))) ? b : a;
    }
};

/* The compare-exchange loop; a new value with the old bits needs no write. */
template <class T, class Op>
__device__ __forceinline__ T atomic_cas_loop(T *p, T v, Op op)
{
    typedef decltype(atomic_bits(v)) U;
    U *q = (U *)p;
    U old = *(volatile U *)q;
    for (;;) {
        T cur = atomic_value(old);
        U want = atomic_bits(op(cur, v));
        if (want == old)
            return cur;
        U seen = atomicCAS(q, old, want);
        if (seen == old)
            return cur;
        old = seen;
    }
}

__device__ __forceinline__ float atomic_fetch_add(float *p, float v) { return atomicAdd(p, v); }
__device__ __forceinline__ double atomic_fetch_add(double *p, double v)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
    return atomicAdd(p, v);
#else
    return atomic_cas_loop(p, v, atomic_op_add());
#endif
}
template <class T>
__device__ __forceinline__ T atomic_fetch_sub(T *p, T v) { return atomic_fetch_add(p, -v); }
template <class T>
__device__ __forceinline__ T atomic_fetch_min(T *p, T v) { return atomic_cas_loop(p, v, atomic_op_min()); }
template <class T>
__device__ __forceinline__ T atomic_fetch_max(T *p, T v) { return atomic_cas_loop(p, v, atomic_op_max()); }
__device__ __forceinline__ float atomic_exchange(float *p, float v) { return atomicExch(p, v); }
__device__ __forceinline__ double atomic_exchange(double *p, double v)
{
    return atomic_value(atomicExch((unsigned long long *)p, atomic_bits(v)));
}

} /* namespace sgc */
