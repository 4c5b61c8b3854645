/* atomics.cl — prelude section "opencl_atomics": the atomics of
 * docs/REFERENCE.md §4 that OpenCL C 1.2 has no built-in for:
 * atomic_load/atomic_store on every atomic type, and add, sub, min, max and
 * exchange on float and double.  Emitted when a unit uses one of them;
 * needs no other section.
 *
 * Names: sgc_atomic_<op>_<T>_<space>(p [, v]), space global or local, op
 * load, store, add, sub, minimum, maximum, exchange (not min and max,
 * which some device compilers define as macros: PoCL).
 *  - load/store: volatile accesses of the naturally aligned object, which
 *    every OpenCL device performs as one access (relaxed, as SGC's atomics
 *    are);
 *  - float add/sub/min/max: cl_ext_float_atomics where the device compiler
 *    defines its feature macro for the operation, type and space (OpenCL
 *    C 2.0 or later: the extension works on atomic_float/atomic_double);
 *    else a compare-exchange loop on the bit pattern, which compares bits,
 *    so a NaN or -0.0 in memory cannot make it spin;
 *  - exchange: atomic_xchg (float, OpenCL 1.2 core); double through the
 *    64-bit atom_xchg of its bits.
 * min and max are fmin/fmax-like: a NaN operand is ignored (a NaN in
 * memory is replaced, a NaN argument leaves memory as it is); the emulation
 * orders -0.0 below +0.0, the native built-ins follow the device's fmin
 * and fmax there (docs/REFERENCE.md §4).  SGC_NO_EXT_FLOAT_ATOMICS (tests)
 * forces the emulation. */

#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define SGC_ATOMICS_FP64 1
#endif
#if defined(cl_khr_int64_base_atomics)
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#endif
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200 && defined(cl_ext_float_atomics) && \
    !defined(SGC_NO_EXT_FLOAT_ATOMICS)
#define SGC_EXT_FLOAT_ATOMICS 1
#endif

/* ---- load and store ---- */

#define SGC_DEFINE_ATOMIC_LOAD_STORE(T, AS, space)                              \
    static inline T sgc_atomic_load_##T##_##space(volatile AS const T *p)       \
    {                                                                           \
        return *p;                                                              \
    }                                                                           \
    static inline void sgc_atomic_store_##T##_##space(volatile AS T *p, T v)    \
    {                                                                           \
        *p = v;                                                                 \
    }
#define SGC_DEFINE_ATOMIC_LOAD_STORE_BOTH(T)                                    \
    SGC_DEFINE_ATOMIC_LOAD_STORE(T, __global, global)                           \
    SGC_DEFINE_ATOMIC_LOAD_STORE(T, __local, local)
SGC_DEFINE_ATOMIC_LOAD_STORE_BOTH(int)
SGC_DEFINE_ATOMIC_LOAD_STORE_BOTH(uint)
SGC_DEFINE_ATOMIC_LOAD_STORE_BOTH(long)
SGC_DEFINE_ATOMIC_LOAD_STORE_BOTH(ulong)
SGC_DEFINE_ATOMIC_LOAD_STORE_BOTH(float)
#ifdef SGC_ATOMICS_FP64
SGC_DEFINE_ATOMIC_LOAD_STORE_BOTH(double)
#endif
#undef SGC_DEFINE_ATOMIC_LOAD_STORE_BOTH
#undef SGC_DEFINE_ATOMIC_LOAD_STORE

/* ---- floating read-modify-write ---- */

/* The new value of each operation from the old one (a) and the argument
 * (b).  min/max: NaNs ignored, -0.0 below +0.0. */
#define SGC_ATOMIC_OP_add(a, b) ((a) + (b))
#define SGC_ATOMIC_OP_sub(a, b) ((a) - (b))
#define SGC_ATOMIC_OP_minimum(a, b)                                             \
    (isnan(b) ? (a) : isnan(a) ? (b) : ((b) < (a) || ((b) == (a) && signbit(b))) ? (b) : (a))
#define SGC_ATOMIC_OP_maximum(a, b)                                             \
    (isnan(b) ? (a) : isnan(a) ? (b) : ((b) > (a) || ((b) == (a) && !signbit(b))) ? (b) : (a))

/* The compare-exchange loop: T's bits as U, cas the space's compare-exchange
 * on U.  A new value with the old bits needs no write (a read serves). */
#define SGC_DEFINE_ATOMIC_CAS(op, T, U, AS, space, cas)                         \
    static inline T sgc_atomic_cas_##op##_##T##_##space(volatile AS T *p, T v)  \
    {                                                                           \
        volatile AS U *q = (volatile AS U *)p;                                  \
        U old = *q;                                                             \
        for (;;) {                                                              \
            T cur = as_##T(old);                                                \
            U want = as_##U(SGC_ATOMIC_OP_##op(cur, v));                        \
            if (want == old)                                                    \
                return cur;                                                     \
            U seen = cas(q, old, want);                                         \
            if (seen == old)                                                    \
                return cur;                                                     \
            old = seen;                                                         \
        }                                                                       \
    }
#define SGC_DEFINE_ATOMIC_CAS_ALL(T, U, AS, space, cas)                         \
    SGC_DEFINE_ATOMIC_CAS(add, T, U, AS, space, cas)                            \
    SGC_DEFINE_ATOMIC_CAS(sub, T, U, AS, space, cas)                            \
    SGC_DEFINE_ATOMIC_CAS(minimum, T, U, AS, space, cas)                        \
    SGC_DEFINE_ATOMIC_CAS(maximum, T, U, AS, space, cas)
SGC_DEFINE_ATOMIC_CAS_ALL(float, uint, __global, global, atomic_cmpxchg)
SGC_DEFINE_ATOMIC_CAS_ALL(float, uint, __local, local, atomic_cmpxchg)
#if defined(SGC_ATOMICS_FP64) && defined(cl_khr_int64_base_atomics)
SGC_DEFINE_ATOMIC_CAS_ALL(double, ulong, __global, global, atom_cmpxchg)
SGC_DEFINE_ATOMIC_CAS_ALL(double, ulong, __local, local, atom_cmpxchg)
#endif
#undef SGC_DEFINE_ATOMIC_CAS_ALL
#undef SGC_DEFINE_ATOMIC_CAS

/* The public operation: the extension's built-in where its feature macro
 * (fpN_space_atomic_add, for sub too, or fpN_space_atomic_min_max) says
 * the device has it, else the loop.  SGC_NATIVE_<what> is 1 or 0. */
#define SGC_DEFINE_ATOMIC_RMW(op, T, AS, space, native)                         \
    static inline T sgc_atomic_##op##_##T##_##space(volatile AS T *p, T v)      \
    {                                                                           \
        SGC_ATOMIC_NATIVE_##native(op, T, AS, p, v)                             \
        return sgc_atomic_cas_##op##_##T##_##space(p, v);                       \
    }
#define SGC_ATOMIC_NATIVE_0(op, T, AS, p, v)
#define SGC_ATOMIC_NATIVE_1(op, T, AS, p, v)                                    \
    return SGC_ATOMIC_NATIVE_NAME_##op((volatile AS atomic_##T *)(p), (v), memory_order_relaxed);
#define SGC_ATOMIC_NATIVE_NAME_add atomic_fetch_add_explicit
#define SGC_ATOMIC_NATIVE_NAME_sub atomic_fetch_sub_explicit
#define SGC_ATOMIC_NATIVE_NAME_minimum atomic_fetch_min_explicit
#define SGC_ATOMIC_NATIVE_NAME_maximum atomic_fetch_max_explicit

/* The extension's feature macros say which operations the device has.
 * The Intel CPU runtime (2026) defines the extension macro alone, with
 * every built-in (checked by tests/exec_atomics at -cl-std=CL3.0): a
 * device that names no feature gets them all. */
#if defined(SGC_EXT_FLOAT_ATOMICS) && \
    !defined(__opencl_c_ext_fp32_global_atomic_add) && \
    !defined(__opencl_c_ext_fp32_global_atomic_min_max) && \
    !defined(__opencl_c_ext_fp32_local_atomic_add) && \
    !defined(__opencl_c_ext_fp32_local_atomic_min_max) && \
    !defined(__opencl_c_ext_fp64_global_atomic_add) && \
    !defined(__opencl_c_ext_fp64_global_atomic_min_max) && \
    !defined(__opencl_c_ext_fp64_local_atomic_add) && \
    !defined(__opencl_c_ext_fp64_local_atomic_min_max)
#define SGC_EXT_FLOAT_ATOMICS_ALL 1
#endif
#if defined(SGC_EXT_FLOAT_ATOMICS) && (defined(__opencl_c_ext_fp32_global_atomic_add) || defined(SGC_EXT_FLOAT_ATOMICS_ALL))
#define SGC_NATIVE_fp32_global_add 1
#else
#define SGC_NATIVE_fp32_global_add 0
#endif
#if defined(SGC_EXT_FLOAT_ATOMICS) && (defined(__opencl_c_ext_fp32_local_atomic_add) || defined(SGC_EXT_FLOAT_ATOMICS_ALL))
#define SGC_NATIVE_fp32_local_add 1
#else
#define SGC_NATIVE_fp32_local_add 0
#endif
#if defined(SGC_EXT_FLOAT_ATOMICS) && (defined(__opencl_c_ext_fp32_global_atomic_min_max) || defined(SGC_EXT_FLOAT_ATOMICS_ALL))
#define SGC_NATIVE_fp32_global_min_max 1
#else
#define SGC_NATIVE_fp32_global_min_max 0
#endif
#if defined(SGC_EXT_FLOAT_ATOMICS) && (defined(__opencl_c_ext_fp32_local_atomic_min_max) || defined(SGC_EXT_FLOAT_ATOMICS_ALL))
#define SGC_NATIVE_fp32_local_min_max 1
#else
#define SGC_NATIVE_fp32_local_min_max 0
#endif
#if defined(SGC_EXT_FLOAT_ATOMICS) && (defined(__opencl_c_ext_fp64_global_atomic_add) || defined(SGC_EXT_FLOAT_ATOMICS_ALL))
#define SGC_NATIVE_fp64_global_add 1
#else
#define SGC_NATIVE_fp64_global_add 0
#endif
#if defined(SGC_EXT_FLOAT_ATOMICS) && (defined(__opencl_c_ext_fp64_local_atomic_add) || defined(SGC_EXT_FLOAT_ATOMICS_ALL))
#define SGC_NATIVE_fp64_local_add 1
#else
#define SGC_NATIVE_fp64_local_add 0
#endif
#if defined(SGC_EXT_FLOAT_ATOMICS) && (defined(__opencl_c_ext_fp64_global_atomic_min_max) || defined(SGC_EXT_FLOAT_ATOMICS_ALL))
#define SGC_NATIVE_fp64_global_min_max 1
#else
#define SGC_NATIVE_fp64_global_min_max 0
#endif
#if defined(SGC_EXT_FLOAT_ATOMICS) && (defined(__opencl_c_ext_fp64_local_atomic_min_max) || defined(SGC_EXT_FLOAT_ATOMICS_ALL))
#define SGC_NATIVE_fp64_local_min_max 1
#else
#define SGC_NATIVE_fp64_local_min_max 0
#endif

/* One expansion step more, so that SGC_NATIVE_... becomes its 0 or 1. */
#define SGC_DEFINE_ATOMIC_RMW_(op, T, AS, space, native) SGC_DEFINE_ATOMIC_RMW(op, T, AS, space, native)
#define SGC_DEFINE_ATOMIC_FLOATING(T, U, N, AS, space, xchg)                    \
    SGC_DEFINE_ATOMIC_RMW_(add, T, AS, space, SGC_NATIVE_##N##_##space##_add)   \
    SGC_DEFINE_ATOMIC_RMW_(sub, T, AS, space, SGC_NATIVE_##N##_##space##_add)   \
    SGC_DEFINE_ATOMIC_RMW_(minimum, T, AS, space, SGC_NATIVE_##N##_##space##_min_max) \
    SGC_DEFINE_ATOMIC_RMW_(maximum, T, AS, space, SGC_NATIVE_##N##_##space##_min_max) \
    static inline T sgc_atomic_exchange_##T##_##space(volatile AS T *p, T v)    \
    {                                                                           \
        return as_##T(xchg((volatile AS U *)p, as_##U(v)));                     \
    }
SGC_DEFINE_ATOMIC_FLOATING(float, uint, fp32, __global, global, atomic_xchg)
SGC_DEFINE_ATOMIC_FLOATING(float, uint, fp32, __local, local, atomic_xchg)
#if defined(SGC_ATOMICS_FP64) && defined(cl_khr_int64_base_atomics)
SGC_DEFINE_ATOMIC_FLOATING(double, ulong, fp64, __global, global, atom_xchg)
SGC_DEFINE_ATOMIC_FLOATING(double, ulong, fp64, __local, local, atom_xchg)
#endif
#undef SGC_DEFINE_ATOMIC_FLOATING
#undef SGC_DEFINE_ATOMIC_RMW_
#undef SGC_DEFINE_ATOMIC_RMW
