/* host_common.h — the API-neutral half of the group-library test: the test
 * matrix walk, input generation, and a host reference that simulates the
 * sub-group partitioning independently of the device code.  The OpenCL host
 * (host_opencl.c) and the CUDA host (host_cuda.cu) supply only a launcher.
 * Written in the common subset of C17 and C++ so both can compile it. */
#ifndef SGC_TEST_HOST_COMMON_H
#define SGC_TEST_HOST_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* Element types; ORDER matches gen_matrix.py's TY_<name>. */
typedef enum TestType {
    TY_INT, TY_UINT, TY_LONG, TY_ULONG, TY_FLOAT, TY_DOUBLE,
    TY_BOOL, TY_CHAR, TY_UCHAR, TY_SHORT, TY_USHORT, TY_COUNT
} TestType;

typedef enum TestOp {
    OP_NONE, OP_PLUS, OP_MULTIPLIES, OP_MINIMUM, OP_MAXIMUM, OP_BIT_AND,
    OP_BIT_OR, OP_BIT_XOR, OP_LOGICAL_AND, OP_LOGICAL_OR
} TestOp;

typedef enum TestFamily { FAM_ARITH, FAM_MOVE, FAM_VOTE } TestFamily;

/* Group kinds as the kernels' `kind` argument (test_kernels.cl). */
typedef enum TestKind {
    K_SUB, K_BALLOT, K_FIXED, K_TANGLE, K_OPPORTUNISTIC, K_WORK_GROUP, K_COUNT
} TestKind;

typedef struct TestKernel {
    TestFamily family;
    TestType type;
    TestOp op;
    const char *name;
} TestKernel;

/* Outputs per work-item: 6 elements (arith, move) or 9 uints (vote). */
#define TEST_OUTPUTS(fam) ((fam) == FAM_VOTE ? 9 : 6)
#define TEST_INFO_WORDS 8

/* One kernel launch: inputs filled by the walker, outputs by the launcher. */
typedef struct TestLaunch {
    const TestKernel *kernel;
    TestKind kind;
    uint32_t param;          /* fixed-size N */
    uint32_t a0, a1, a2;     /* shift delta, xor mask, broadcast id */
    size_t local_size, num_groups;
    size_t elem_size;        /* storage bytes of one element */
    void *in;                /* num items elements */
    void *out;               /* num items * TEST_OUTPUTS elements */
    uint32_t *info;          /* num items * TEST_INFO_WORDS */
    int32_t *pred, *sel;
    uint64_t init;           /* arith: init value's bits */
} TestLaunch;

/* Runs l on the device; returns 0 on success (l->out and l->info filled). */
typedef int (*TestLaunchFn)(void *ctx, TestLaunch *l);

typedef struct TestOptions {
    const char *backend;     /* label printed with the counts */
    int sub_groups;          /* 0: work-group kinds only (wg tier) */
    int divergent;           /* 0: skip tangle/opportunistic kinds */
    unsigned max_sub_group;  /* device's sub-group size, for fixed sizes */
    int has_fp64;
    int verbose;
    const char *only;        /* comma-separated name fragments to run, or NULL */
    /* Sampling (--sample I/N): kernel k runs when k % N == I (the vote
     * kernel always), so N runs with I = 0..N-1 cover the matrix once. */
    int sample_index, sample_count;
} TestOptions;

typedef struct TestCounts {
    int passed, failed, skipped;
} TestCounts;

extern const TestKernel test_kernels[];
extern const int test_kernel_count;

size_t test_type_size(TestType t);
const char *test_type_name(TestType t);
TestCounts test_run_matrix(const TestOptions *opt, TestLaunchFn launch, void *ctx);

#endif
