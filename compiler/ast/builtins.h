/* builtins.h — built-in functions, group members and group operators of SGC,
 * each written once (docs/REFERENCE.md "Work-item functions, barriers, math",
 * "Atomics", "Groups", "Split barriers").  Sema resolves names against these
 * tables; emitters switch on the enums.  Adding a built-in is one line here
 * plus its typing rule in sema.c and its spelling in each emitter, which the
 * compiler's -Wswitch keeps honest. */
#ifndef SGCC_BUILTINS_H
#define SGCC_BUILTINS_H

#include <stdbool.h>

/* The most arguments of a printf call, the format included: CUDA's printf
 * takes 32 after the format (docs/REFERENCE.md "Atomics and printf" lists the limit). */
#define PRINTF_MAX_ARGS 33

/* BUILTIN(enum, spelling, category, min_args, max_args) */
#define BUILTINS(X)                                                            \
    /* work-item functions (docs/REFERENCE.md) */                              \
    X(GET_GLOBAL_ID, "get_global_id", BK_WORKITEM, 1, 1)                       \
    X(GET_LOCAL_ID, "get_local_id", BK_WORKITEM, 1, 1)                         \
    X(GET_GROUP_ID, "get_group_id", BK_WORKITEM, 1, 1)                         \
    X(GET_LOCAL_SIZE, "get_local_size", BK_WORKITEM, 1, 1)                     \
    X(GET_GLOBAL_SIZE, "get_global_size", BK_WORKITEM, 1, 1)                   \
    X(GET_NUM_GROUPS, "get_num_groups", BK_WORKITEM, 1, 1)                     \
    X(GET_WORK_DIM, "get_work_dim", BK_WORKITEM, 0, 0)                         \
    X(GET_MAX_SUB_GROUP_SIZE, "get_max_sub_group_size", BK_WORKITEM, 0, 0)     \
    /* OpenCL-style work-group barrier, kept for familiarity */                \
    X(BARRIER, "barrier", BK_SYNC, 1, 1)                                       \
    X(MEM_FENCE, "mem_fence", BK_SYNC, 1, 1)                                   \
    /* relaxed atomics (docs/REFERENCE.md "Atomics and printf") */                        \
    X(ATOMIC_FETCH_ADD, "atomic_fetch_add", BK_ATOMIC, 2, 2)                   \
    X(ATOMIC_FETCH_SUB, "atomic_fetch_sub", BK_ATOMIC, 2, 2)                   \
    X(ATOMIC_FETCH_MIN, "atomic_fetch_min", BK_ATOMIC, 2, 2)                   \
    X(ATOMIC_FETCH_MAX, "atomic_fetch_max", BK_ATOMIC, 2, 2)                   \
    X(ATOMIC_FETCH_AND, "atomic_fetch_and", BK_ATOMIC, 2, 2)                   \
    X(ATOMIC_FETCH_OR, "atomic_fetch_or", BK_ATOMIC, 2, 2)                     \
    X(ATOMIC_FETCH_XOR, "atomic_fetch_xor", BK_ATOMIC, 2, 2)                   \
    X(ATOMIC_EXCHANGE, "atomic_exchange", BK_ATOMIC, 2, 2)                     \
    X(ATOMIC_COMPARE_EXCHANGE, "atomic_compare_exchange", BK_ATOMIC, 3, 3)     \
    X(ATOMIC_LOAD, "atomic_load", BK_ATOMIC, 1, 1)                             \
    X(ATOMIC_STORE, "atomic_store", BK_ATOMIC, 2, 2)                           \
    /* printf with a string-literal format (docs/REFERENCE.md "Atomics and printf") */           \
    X(PRINTF, "printf", BK_PRINTF, 1, PRINTF_MAX_ARGS)                         \
    /* math: generic over float/double (and integers where noted in sema) */   \
    X(SQRT, "sqrt", BK_MATH, 1, 1)                                             \
    X(RSQRT, "rsqrt", BK_MATH, 1, 1)                                           \
    X(EXP, "exp", BK_MATH, 1, 1)                                               \
    X(LOG, "log", BK_MATH, 1, 1)                                               \
    X(SIN, "sin", BK_MATH, 1, 1)                                               \
    X(COS, "cos", BK_MATH, 1, 1)                                               \
    X(TAN, "tan", BK_MATH, 1, 1)                                               \
    X(FABS, "fabs", BK_MATH, 1, 1)                                             \
    X(FLOOR, "floor", BK_MATH, 1, 1)                                           \
    X(CEIL, "ceil", BK_MATH, 1, 1)                                             \
    X(POW, "pow", BK_MATH, 2, 2)                                               \
    X(FMIN, "fmin", BK_MATH, 2, 2)                                             \
    X(FMAX, "fmax", BK_MATH, 2, 2)                                             \
    X(FMA, "fma", BK_MATH, 3, 3)                                               \
    X(MAD, "mad", BK_MATH, 3, 3)                                               \
    X(MIN, "min", BK_MATH_INT, 2, 2)                                           \
    X(MAX, "max", BK_MATH_INT, 2, 2)                                           \
    X(ABS, "abs", BK_MATH_INT, 1, 1)                                           \
    X(CLAMP, "clamp", BK_MATH_INT, 3, 3)                                       \
    /* group constructors; get_fixed_size_group is a keyword */                \
    X(GET_WORK_GROUP, "get_work_group", BK_GROUP_CTOR, 0, 0)                   \
    X(GET_SUB_GROUP, "get_sub_group", BK_GROUP_CTOR, 0, 0)                     \
    X(GET_BALLOT_GROUP, "get_ballot_group", BK_GROUP_CTOR, 2, 2)               \
    X(GET_FIXED_SIZE_GROUP, "get_fixed_size_group", BK_GROUP_CTOR, 1, 1)       \
    X(GET_TANGLE_GROUP, "get_tangle_group", BK_GROUP_CTOR, 1, 1)               \
    X(GET_OPPORTUNISTIC_GROUP, "get_opportunistic_group", BK_GROUP_CTOR, 0, 0) \
    /* group functions */                                                      \
    X(GROUP_BARRIER, "group_barrier", BK_GROUP_FN, 1, 1)                       \
    X(GROUP_BROADCAST, "group_broadcast", BK_GROUP_FN, 2, 3)                   \
    X(ANY_OF_GROUP, "any_of_group", BK_GROUP_FN, 2, 2)                         \
    X(ALL_OF_GROUP, "all_of_group", BK_GROUP_FN, 2, 2)                         \
    X(NONE_OF_GROUP, "none_of_group", BK_GROUP_FN, 2, 2)                       \
    X(SHIFT_GROUP_LEFT, "shift_group_left", BK_GROUP_FN, 2, 3)                 \
    X(SHIFT_GROUP_RIGHT, "shift_group_right", BK_GROUP_FN, 2, 3)               \
    X(PERMUTE_GROUP_BY_XOR, "permute_group_by_xor", BK_GROUP_FN, 3, 3)         \
    X(SELECT_FROM_GROUP, "select_from_group", BK_GROUP_FN, 3, 3)               \
    /* group algorithms: the OP argument is a GroupOp name */                  \
    X(REDUCE_OVER_GROUP, "reduce_over_group", BK_GROUP_ALGO, 3, 4)             \
    X(EXCLUSIVE_SCAN_OVER_GROUP, "exclusive_scan_over_group", BK_GROUP_ALGO, 3, 4) \
    X(INCLUSIVE_SCAN_OVER_GROUP, "inclusive_scan_over_group", BK_GROUP_ALGO, 3, 4) \
    X(JOINT_ANY_OF, "joint_any_of", BK_JOINT, 4, 4)                            \
    X(JOINT_ALL_OF, "joint_all_of", BK_JOINT, 4, 4)                            \
    X(JOINT_NONE_OF, "joint_none_of", BK_JOINT, 4, 4)                          \
    X(JOINT_REDUCE, "joint_reduce", BK_JOINT, 4, 5)                            \
    X(JOINT_EXCLUSIVE_SCAN, "joint_exclusive_scan", BK_JOINT, 5, 6)            \
    X(JOINT_INCLUSIVE_SCAN, "joint_inclusive_scan", BK_JOINT, 5, 6)            \
    /* split barriers (docs/REFERENCE.md "Split barriers") */                  \
    X(ASYNC_WORK_GROUP_COPY, "async_work_group_copy", BK_ASYNC_COPY, 3, 3)     \
    X(ASYNC_BARRIER_MAX, "async_barrier_max", BK_ASYNC_COPY, 0, 0)

typedef enum BuiltinKind {
    BK_WORKITEM, BK_SYNC, BK_ATOMIC, BK_MATH, BK_MATH_INT, BK_GROUP_CTOR,
    BK_GROUP_FN, BK_GROUP_ALGO, BK_JOINT, BK_ASYNC_COPY, BK_PRINTF,
} BuiltinKind;

typedef enum Builtin {
    BI_NONE = 0, /* Node.builtin == 0: not a built-in */
#define X(name, spelling, kind, min, max) BI_##name,
    BUILTINS(X)
#undef X
    BI_COUNT
} Builtin;

typedef struct BuiltinInfo {
    const char *name;
    BuiltinKind kind;
    int min_args, max_args;
} BuiltinInfo;

extern const BuiltinInfo builtin_info[BI_COUNT];
/* BI_NONE when `name` is not a built-in. */
Builtin builtin_lookup(const char *name);

/* The roles of the arguments that are not plain values (docs/REFERENCE.md "Groups"):
 * BUILTIN_ROLES(X): X(enum, name, init) gives the position of the OP (or
 * predicate) name, ARG_LAST for the last argument, and of the optional init
 * value, present when the call has its max_args, or ARG_NONE.  Sema and
 * the lowering read the positions through builtin_name_arg and
 * builtin_init_arg, never as literals. */
enum { ARG_NONE = -2, ARG_LAST = -1 };
#define BUILTIN_ROLES(X)                                  \
    X(REDUCE_OVER_GROUP, ARG_LAST, 2)         /* (g, x, [init,] OP) */    \
    X(EXCLUSIVE_SCAN_OVER_GROUP, ARG_LAST, 2) /* (g, x, [init,] OP) */    \
    X(INCLUSIVE_SCAN_OVER_GROUP, 2, 3)        /* (g, x, OP [, init]) */   \
    X(JOINT_ANY_OF, 3, ARG_NONE)              /* (g, first, last, pred) */ \
    X(JOINT_ALL_OF, 3, ARG_NONE)                                          \
    X(JOINT_NONE_OF, 3, ARG_NONE)                                         \
    X(JOINT_REDUCE, ARG_LAST, 3)              /* (g, first, last, [init,] OP) */ \
    X(JOINT_EXCLUSIVE_SCAN, 4, 5)             /* (g, first, last, result, OP [, init]) */ \
    X(JOINT_INCLUSIVE_SCAN, 4, 5)

/* The position of the OP or predicate argument of a call of `bi` with `n`
 * arguments, -1 when it has none; likewise of the init argument. */
int builtin_name_arg(Builtin bi, int n);
int builtin_init_arg(Builtin bi, int n);

/* Members callable with method syntax: METHOD(enum, spelling, receiver, args).
 * Receiver RECV_GROUP: any group value; RECV_BARRIER: an async_barrier. */
#define METHODS(X)                                                     \
    X(GET_GROUP_LINEAR_ID, "get_group_linear_id", RECV_GROUP, 0)       \
    X(GET_GROUP_LINEAR_RANGE, "get_group_linear_range", RECV_GROUP, 0) \
    X(GET_LOCAL_LINEAR_ID, "get_local_linear_id", RECV_GROUP, 0)       \
    X(GET_LOCAL_LINEAR_RANGE, "get_local_linear_range", RECV_GROUP, 0) \
    X(LEADER, "leader", RECV_GROUP, 0)                                 \
    X(INITIALIZE, "initialize", RECV_BARRIER, 1)                       \
    X(INVALIDATE, "invalidate", RECV_BARRIER, 0)                       \
    X(ARRIVE, "arrive", RECV_BARRIER, 0)                               \
    X(ARRIVE_AND_DROP, "arrive_and_drop", RECV_BARRIER, 0)             \
    X(ARRIVE_NO_COMPLETE, "arrive_no_complete", RECV_BARRIER, 1)       \
    X(ARRIVE_AND_DROP_NO_COMPLETE, "arrive_and_drop_no_complete", RECV_BARRIER, 1) \
    X(ARRIVE_COPY_ASYNC, "arrive_copy_async", RECV_BARRIER, 0)         \
    X(ARRIVE_COPY_ASYNC_NO_INC, "arrive_copy_async_no_inc", RECV_BARRIER, 0) \
    X(WAIT, "wait", RECV_BARRIER, 1)                                   \
    X(TEST_WAIT, "test_wait", RECV_BARRIER, 1)                         \
    X(ARRIVE_AND_WAIT, "arrive_and_wait", RECV_BARRIER, 0)             \
    X(BARRIER_MAX, "async_barrier_max", RECV_BARRIER, 0)

typedef enum MethodReceiver { RECV_GROUP, RECV_BARRIER } MethodReceiver;

typedef enum Method {
    METHOD_NONE = 0,
#define X(name, spelling, recv, nargs) METHOD_##name,
    METHODS(X)
#undef X
    METHOD_COUNT
} Method;

typedef struct MethodInfo {
    const char *name;
    MethodReceiver receiver;
    int nargs;
} MethodInfo;

extern const MethodInfo method_info[METHOD_COUNT];
Method method_lookup(const char *name);

/* Binary operators of group algorithms (docs/REFERENCE.md "Groups"), one row each in
 * ast/group_ops.def with the columns the libraries and sema need. */
typedef enum GroupOp {
    GOP_NONE = 0,
#define GROUP_OP(kind, spelling, expr, identity, integer_only, logical, idempotent, khr) GOP_##kind,
#include "ast/group_ops.def"
#undef GROUP_OP
    GOP_COUNT
} GroupOp;

/* The identity of an operator; each device library spells it per type. */
typedef enum GroupOpIdentity {
    GOP_ID_ZERO,
    GOP_ID_ONE,
    GOP_ID_MAX,      /* the largest value of the type (+inf for floating types) */
    GOP_ID_LOWEST,   /* the lowest value of the type (-inf for floating types) */
    GOP_ID_ALL_ONES, /* every bit set (~0) */
} GroupOpIdentity;

typedef struct GroupOpInfo {
    const char *expr;          /* `a OP b` in C, operands `a` and `b` */
    GroupOpIdentity identity;
    bool integer_only;         /* integer types only */
    bool logical;              /* on truth values, results 0/1 */
    bool idempotent;           /* a OP a == a */
    const char *khr;           /* stem of OpenCL's built-ins: "add", "min" ... */
} GroupOpInfo;

extern const char *const group_op_names[GOP_COUNT]; /* spellings, "" for GOP_NONE */
extern const GroupOpInfo group_op_info[GOP_COUNT];
GroupOp group_op_lookup(const char *name);

#endif
