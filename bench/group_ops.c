/* group_ops — the cost of every reduce and scan of the group matrix on
 * ballot, tangle and opportunistic groups against the sub-group's, on the
 * device SGRT_DEVICE selects (issue 22 part 1; bench/group_ops.sgc says
 * what each kernel does).
 *
 * For each element type the host compiles group_ops.sgc at run time
 * (sgrt_program_create_from_file, -DGO_T=type), builds it, and runs every
 * kernel `repeats` times after one warm-up; every output is checked against
 * a host reference built from the SPEC rules alone (partitions by the same
 * hash bit, ranks in lane order, the operator's identity for exclusive
 * scans).  One Markdown row per (type, operator, algorithm): the
 * sub-group's median time, then each kind's time over it.
 *
 *   tangle1/opp1: one group operation (one side of the branch works)
 *   tangle2/opp2: two group operations (both sides; SIMT runs them in turn)
 *
 * usage: group_ops [-n N] [-r ROUNDS] [-R REPEATS] [-o BUILD_OPTIONS]
 *                  [-s SGC_FILE] [TYPE...]
 * Exit status: 0 every result right, 1 a wrong result, 2 failure. */
#include <getopt.h>
#include <math.h>
#include <string.h>

#include "sample_util.h"

/* ---- what the matrix holds ---- */

typedef enum go_kind { GO_SG, GO_BALLOT, GO_TANGLE1, GO_OPP1, GO_TANGLE2, GO_OPP2, GO_KINDS } go_kind;
static const char *const kind_names[GO_KINDS] = {"sg", "ballot", "tangle1", "opp1", "tangle2", "opp2"};

typedef enum go_alg { GO_REDUCE, GO_EXCLUSIVE, GO_INCLUSIVE, GO_ALGS } go_alg;
static const char *const alg_names[GO_ALGS] = {"reduce", "exclusive", "inclusive"};

typedef enum go_op {
    OP_PLUS, OP_MUL, OP_MIN, OP_MAX, OP_AND, OP_OR, OP_XOR, OP_LAND, OP_LOR, GO_OPS
} go_op;
static const char *const op_names[GO_OPS] = {"plus",   "multiplies", "minimum",
                                             "maximum", "bit_and",   "bit_or",
                                             "bit_xor", "logical_and", "logical_or"};

typedef enum go_elem { E_INT, E_UINT, E_LONG, E_ULONG, E_FLOAT, E_DOUBLE, GO_ELEMS } go_elem;
static const struct {
    const char *name;
    size_t size;
    bool floating;
} elems[GO_ELEMS] = {
    {"int", 4, false},   {"uint", 4, false},  {"long", 8, false},
    {"ulong", 8, false}, {"float", 4, true},  {"double", 8, true},
};

static bool op_allowed(go_elem e, go_op op) { return !elems[e].floating || op < OP_AND || op > OP_XOR; }

/* ---- options ---- */

static uint32_t n_items = 1u << 21;
static uint32_t rounds = 32;
static int repeats = 11;
static const char *build_options = "";
static const char *sgc_path = "bench/group_ops.sgc";
/* Outputs checked: a prefix of whole sub-groups (they are independent),
 * so that the host reference costs seconds, not minutes, at 2^21. */
static uint32_t check_items;
enum { WG = 256, CHECK_ITEMS = 1u << 16 };

/* The side a work-item takes (group_ops.sgc's side_of). */
static bool side_of(uint32_t gid) { return ((gid * 2654435761u) >> 15 & 1u) != 0u; }

/* Who works on `kind`, and with whom: members of one partition share a key. */
static bool takes_part(go_kind kind, uint32_t gid)
{
    return (kind != GO_TANGLE1 && kind != GO_OPP1) || side_of(gid);
}
static int partition_key(go_kind kind, uint32_t gid) { return kind == GO_SG ? 0 : side_of(gid); }

/* ---- the host reference, one instance per element type ---- */

/* REF_FUNCTIONS(T, SUFFIX, FLOATING, MAXV, MINV) defines:
 *   combine_SUFFIX: the operator on two values
 *   identity_SUFFIX: its identity (SPEC 1.1)
 *   mix_SUFFIX: group_ops.sgc's MIX for that operator
 *   reference_SUFFIX: the kernel's whole output */
#define REF_FUNCTIONS(T, SUFFIX, FLOATING, MAXV, MINV)                                      \
    static T combine_##SUFFIX(go_op op, T a, T b)                                          \
    {                                                                                       \
        switch (op) {                                                                       \
        case OP_PLUS: return a + b;                                                         \
        case OP_MUL: return a * b;                                                          \
        case OP_MIN: return a < b ? a : b;                                                  \
        case OP_MAX: return a > b ? a : b;                                                  \
        case OP_LAND: return (T)(a != 0 && b != 0);                                         \
        case OP_LOR: return (T)(a != 0 || b != 0);                                          \
        default: return bitwise_##SUFFIX(op, a, b);                                         \
        }                                                                                   \
    }                                                                                       \
    static T identity_##SUFFIX(go_op op)                                                   \
    {                                                                                       \
        switch (op) {                                                                       \
        case OP_MUL: case OP_LAND: return (T)1;                                             \
        case OP_MIN: return MAXV;                                                           \
        case OP_MAX: return MINV;                                                           \
        case OP_AND: return all_ones_##SUFFIX();                                             \
        default: return (T)0;                                                               \
        }                                                                                   \
    }                                                                                       \
    static T mix_##SUFFIX(go_op op, T r, T v)                                              \
    {                                                                                       \
        if (op == OP_MUL)                                                                   \
            return r * v;                                                                   \
        if (op == OP_LAND || op == OP_LOR)                                                  \
            return (T)((r != 0) != (v != 0));                                               \
        return FLOATING ? (T)(r * (T)0.03125 + v) : mask16_##SUFFIX(r + v);                 \
    }                                                                                       \
    /* One round of one partition: members[0..count) in lane order. */                     \
    static void round_##SUFFIX(go_op op, go_alg alg, const T *x, T *result,                \
                               const uint32_t *members, uint32_t count)                    \
    {                                                                                       \
        T acc = identity_##SUFFIX(op);                                                      \
        for (uint32_t k = 0; k < count; k++) {                                              \
            T before = acc;                                                                 \
            acc = combine_##SUFFIX(op, acc, x[members[k]]);                                 \
            result[members[k]] = alg == GO_EXCLUSIVE ? before : acc;                        \
        }                                                                                   \
        if (alg == GO_REDUCE)                                                               \
            for (uint32_t k = 0; k < count; k++)                                            \
                result[members[k]] = acc;                                                   \
    }                                                                                       \
    static void reference_##SUFFIX(go_kind kind, go_alg alg, go_op op, uint32_t sg_size,  \
                                   const T *in, T *out)                                     \
    {                                                                                       \
        T x[64], result[64];                                                                \
        uint32_t members[2][64], count[2];                                                  \
        for (uint32_t base = 0; base < check_items; base += sg_size) {                          \
            count[0] = count[1] = 0;                                                        \
            for (uint32_t lane = 0; lane < sg_size; lane++) {                               \
                x[lane] = in[base + lane];                                                  \
                if (takes_part(kind, base + lane)) {                                        \
                    int key = partition_key(kind, base + lane);                             \
                    members[key][count[key]++] = lane;                                      \
                }                                                                           \
            }                                                                               \
            for (uint32_t r = 0; r < rounds; r++) {                                         \
                for (int key = 0; key < 2; key++)                                           \
                    round_##SUFFIX(op, alg, x, result, members[key], count[key]);           \
                for (int key = 0; key < 2; key++)                                           \
                    for (uint32_t k = 0; k < count[key]; k++) {                             \
                        uint32_t lane = members[key][k];                                    \
                        x[lane] = mix_##SUFFIX(op, result[lane], in[base + lane]);          \
                    }                                                                       \
            }                                                                               \
            memcpy(out + base, x, sg_size * sizeof(T));                                     \
        }                                                                                   \
    }

#define INTEGER_HELPERS(T, SUFFIX)                                                         \
    static T bitwise_##SUFFIX(go_op op, T a, T b)                                          \
    {                                                                                       \
        return op == OP_AND ? (a & b) : op == OP_OR ? (a | b) : (a ^ b);                    \
    }                                                                                       \
    static T mask16_##SUFFIX(T v) { return v & (T)0xffff; }                                \
    static T all_ones_##SUFFIX(void) { return (T)~(T)0; }
#define FLOATING_HELPERS(T, SUFFIX)                                                        \
    static T bitwise_##SUFFIX(go_op op, T a, T b)                                          \
    {                                                                                       \
        (void)op, (void)b;                                                                  \
        return a; /* never called: no bitwise operator on floating types */                 \
    }                                                                                       \
    static T mask16_##SUFFIX(T v) { return v; }                                            \
    static T all_ones_##SUFFIX(void) { return 0; }

INTEGER_HELPERS(int32_t, int)
INTEGER_HELPERS(uint32_t, uint)
INTEGER_HELPERS(int64_t, long)
INTEGER_HELPERS(uint64_t, ulong)
FLOATING_HELPERS(float, float)
FLOATING_HELPERS(double, double)
REF_FUNCTIONS(int32_t, int, false, INT32_MAX, INT32_MIN)
REF_FUNCTIONS(uint32_t, uint, false, UINT32_MAX, 0)
REF_FUNCTIONS(int64_t, long, false, INT64_MAX, INT64_MIN)
REF_FUNCTIONS(uint64_t, ulong, false, UINT64_MAX, 0)
REF_FUNCTIONS(float, float, true, INFINITY, -INFINITY)
REF_FUNCTIONS(double, double, true, INFINITY, -INFINITY)

static void reference(go_elem e, go_kind kind, go_alg alg, go_op op, uint32_t sg_size,
                      const void *in, void *out)
{
    switch (e) {
    case E_INT: reference_int(kind, alg, op, sg_size, in, out); break;
    case E_UINT: reference_uint(kind, alg, op, sg_size, in, out); break;
    case E_LONG: reference_long(kind, alg, op, sg_size, in, out); break;
    case E_ULONG: reference_ulong(kind, alg, op, sg_size, in, out); break;
    case E_FLOAT: reference_float(kind, alg, op, sg_size, in, out); break;
    default: reference_double(kind, alg, op, sg_size, in, out); break;
    }
}

/* Inputs: 1/-1 for multiplies, 0/1 for the logical operators, else 0..7. */
static void make_input(go_elem e, go_op op, void *in)
{
    uint32_t state = 0x2545f491u + (uint32_t)op;
    for (uint32_t i = 0; i < n_items; i++) {
        uint32_t r = sample_random(&state) >> 8;
        int v = op == OP_MUL ? (r & 1 ? -1 : 1) : (op == OP_LAND || op == OP_LOR) ? (int)(r & 1)
                                                                                   : (int)(r & 7);
        switch (e) {
        case E_INT: ((int32_t *)in)[i] = v; break;
        case E_UINT: ((uint32_t *)in)[i] = (uint32_t)v; break;
        case E_LONG: ((int64_t *)in)[i] = v; break;
        case E_ULONG: ((uint64_t *)in)[i] = (uint64_t)(int64_t)v; break;
        case E_FLOAT: ((float *)in)[i] = (float)v; break;
        default: ((double *)in)[i] = v; break;
        }
    }
}

/* Exact, but floating plus (a different order of additions) within 1e-5;
 * the first check_items outputs. */
static uint32_t count_wrong(go_elem e, go_op op, const void *got, const void *want)
{
    size_t size = elems[e].size;
    uint32_t wrong = 0;
    if (!elems[e].floating || op != OP_PLUS) {
        for (uint32_t i = 0; i < check_items; i++)
            wrong += memcmp((const char *)got + i * size, (const char *)want + i * size, size) != 0;
        return wrong;
    }
    for (uint32_t i = 0; i < check_items; i++) {
        double g = e == E_FLOAT ? ((const float *)got)[i] : ((const double *)got)[i];
        double w = e == E_FLOAT ? ((const float *)want)[i] : ((const double *)want)[i];
        wrong += !(fabs(g - w) <= 1e-5 * fmax(1.0, fabs(w)));
    }
    return wrong;
}

/* ---- device runs ---- */

typedef struct go_device {
    sgrt_context *context;
    sgrt_device_info info;
    sgrt_buffer *in, *out;
} go_device;

/* group_ops.sgc's `keep`: 0xffff in the kernel's element type. */
static void set_keep(sgrt_kernel *kernel, go_elem e)
{
    static const sgrt_type types[GO_ELEMS] = {SGRT_TYPE_INT,   SGRT_TYPE_UINT,  SGRT_TYPE_LONG,
                                              SGRT_TYPE_ULONG, SGRT_TYPE_FLOAT, SGRT_TYPE_DOUBLE};
    union {
        int32_t i;
        uint32_t u;
        int64_t l;
        uint64_t ul;
        float f;
        double d;
    } keep;
    switch (e) {
    case E_INT: keep.i = 0xffff; break;
    case E_UINT: keep.u = 0xffff; break;
    case E_LONG: keep.l = 0xffff; break;
    case E_ULONG: keep.ul = 0xffff; break;
    case E_FLOAT: keep.f = 0; break;
    default: keep.d = 0; break;
    }
    SAMPLE_CHECK(sgrt_kernel_set_arg_scalar(kernel, 3, types[e], &keep));
}

static double launch_ms(sgrt_kernel *kernel, const sgrt_launch_dims *dims)
{
    sgrt_event *event = NULL;
    uint64_t t0, t1;
    SAMPLE_CHECK(sgrt_kernel_launch(kernel, dims, &event));
    SAMPLE_CHECK(sgrt_event_wait(event));
    SAMPLE_CHECK(sgrt_event_profile(event, &t0, &t1));
    sgrt_event_free(event);
    return (double)(t1 - t0) / 1e6;
}

/* Median time of one kernel; `wrong` gets the number of wrong outputs. */
static double time_kernel(go_device *dev, sgrt_program *program, go_elem e, go_kind kind,
                          go_alg alg, go_op op, void *in, void *got, void *want, uint32_t *wrong)
{
    char name[64];
    snprintf(name, sizeof name, "go_%s_%s_%s", kind_names[kind], alg_names[alg], op_names[op]);
    sgrt_kernel *kernel = NULL;
    SAMPLE_CHECK(sgrt_kernel_get(program, name, &kernel));
    SAMPLE_CHECK(sgrt_kernel_set_arg_buffer(kernel, 0, dev->in));
    SAMPLE_CHECK(sgrt_kernel_set_arg_buffer(kernel, 1, dev->out));
    SAMPLE_CHECK(sgrt_kernel_set_arg_scalar(kernel, 2, SGRT_TYPE_UINT, &rounds));
    set_keep(kernel, e);
    sgrt_launch_dims dims = {1, {n_items, 1, 1}, {WG, 1, 1}};
    uint32_t sg_size = 0;
    SAMPLE_CHECK(sgrt_kernel_get_sub_group_size(kernel, &dims, &sg_size));
    double ms[64];
    launch_ms(kernel, &dims); /* warm-up */
    for (int i = 0; i < repeats; i++)
        ms[i] = launch_ms(kernel, &dims);
    sample_sort_times(ms, (size_t)repeats);
    SAMPLE_CHECK(sgrt_buffer_read(dev->out, 0, (size_t)n_items * elems[e].size, got));
    reference(e, kind, alg, op, sg_size, in, want);
    *wrong = count_wrong(e, op, got, want);
    return ms[repeats / 2];
}

/* Builds group_ops.sgc for one element type; NULL (with a note) when the
 * device cannot run it. */
static sgrt_program *build_for(go_device *dev, go_elem e)
{
    char defines[96];
    snprintf(defines, sizeof defines, "-DGO_T=%s -DGO_FLOAT=%d", elems[e].name, elems[e].floating);
    sgrt_program *program = NULL;
    SAMPLE_CHECK(sgrt_program_create_from_file(dev->context, sgc_path, defines, &program));
    sgrt_status status = sgrt_program_build(program, build_options);
    if (status == SGRT_SUCCESS)
        return program;
    const char *log = "";
    sgrt_program_get_build_log(program, &log);
    printf("\n%s: not run: %s: %s\n%s\n", elems[e].name, sgrt_status_name(status),
           sgrt_last_error(), log);
    sgrt_program_free(program);
    return NULL;
}

typedef struct go_summary {
    double worst[GO_KINDS];
    uint32_t above_2x[GO_KINDS], rows, wrong_rows;
} go_summary;

static void run_type(go_device *dev, go_elem e, go_summary *sum)
{
    if (elems[e].size == 8 && elems[e].floating && !dev->info.fp64)
        return;
    sgrt_program *program = build_for(dev, e);
    if (!program)
        return;
    size_t bytes = (size_t)n_items * elems[e].size;
    void *in = malloc(bytes), *got = malloc(bytes), *want = malloc(bytes);
    if (!in || !got || !want) {
        fprintf(stderr, "group_ops: out of memory\n");
        exit(2);
    }
    for (go_op op = 0; op < GO_OPS; op++) {
        if (!op_allowed(e, op))
            continue;
        make_input(e, op, in);
        SAMPLE_CHECK(sgrt_buffer_write(dev->in, 0, bytes, in));
        for (go_alg alg = 0; alg < GO_ALGS; alg++) {
            double ms[GO_KINDS];
            uint32_t wrong[GO_KINDS], any_wrong = 0;
            for (go_kind k = 0; k < GO_KINDS; k++) {
                ms[k] = time_kernel(dev, program, e, k, alg, op, in, got, want, &wrong[k]);
                any_wrong += wrong[k];
            }
            printf("| %s | %s | %s | %.4f |", elems[e].name, op_names[op], alg_names[alg], ms[GO_SG]);
            for (go_kind k = 1; k < GO_KINDS; k++) {
                double ratio = ms[k] / ms[GO_SG];
                printf(" %.2fx%s |", ratio, wrong[k] ? " WRONG" : "");
                if (ratio > sum->worst[k])
                    sum->worst[k] = ratio;
                sum->above_2x[k] += ratio > 2.0;
            }
            printf("%s\n", wrong[GO_SG] ? " sub-group WRONG" : "");
            sum->rows++;
            sum->wrong_rows += any_wrong != 0;
        }
    }
    free(in), free(got), free(want);
    sgrt_program_free(program);
}

static void usage(void)
{
    fprintf(stderr, "usage: group_ops [-n N] [-r ROUNDS] [-R REPEATS] [-o BUILD_OPTIONS] "
                    "[-s SGC_FILE] [TYPE...]\n");
    exit(2);
}

static void parse_options(int argc, char **argv)
{
    int c;
    while ((c = getopt(argc, argv, "n:r:R:o:s:")) != -1) {
        switch (c) {
        case 'n': n_items = (uint32_t)strtoul(optarg, NULL, 0); break;
        case 'r': rounds = (uint32_t)strtoul(optarg, NULL, 0); break;
        case 'R': repeats = atoi(optarg); break;
        case 'o': build_options = optarg; break;
        case 's': sgc_path = optarg; break;
        default: usage();
        }
    }
    if (n_items == 0 || n_items % WG != 0 || repeats < 1 || repeats > 64)
        usage();
    check_items = n_items < CHECK_ITEMS ? n_items : CHECK_ITEMS;
}

int main(int argc, char **argv)
{
    parse_options(argc, argv);
    go_device dev = {0};
    dev.context = sample_open_device(&dev.info);
    if (!dev.info.sub_groups || !dev.info.non_uniform_groups) {
        printf("not run: the device has no %s\n", dev.info.sub_groups ? "non-uniform groups"
                                                                      : "sub-groups");
        return 0;
    }
    SAMPLE_CHECK(sgrt_buffer_create(dev.context, (size_t)n_items * 8, &dev.in));
    SAMPLE_CHECK(sgrt_buffer_create(dev.context, (size_t)n_items * 8, &dev.out));
    printf("%u work-items (the first %u checked), %u rounds, median of %d; options \"%s\"\n\n",
           n_items, check_items, rounds, repeats, build_options);
    printf("| type | op | algorithm | sub-group ms |");
    for (go_kind k = 1; k < GO_KINDS; k++)
        printf(" %s |", kind_names[k]);
    printf("\n|---|---|---|---:|---:|---:|---:|---:|---:|\n");
    go_summary sum = {0};
    for (go_elem e = 0; e < GO_ELEMS; e++) {
        bool chosen = optind == argc;
        for (int i = optind; i < argc; i++)
            chosen |= strcmp(argv[i], elems[e].name) == 0;
        if (chosen)
            run_type(&dev, e, &sum);
    }
    printf("\n%u rows, %u with a wrong result\n| kind | worst ratio | rows above 2x |\n|---|---:|---:|\n",
           sum.rows, sum.wrong_rows);
    for (go_kind k = 1; k < GO_KINDS; k++)
        printf("| %s | %.2fx | %u |\n", kind_names[k], sum.worst[k], sum.above_2x[k]);
    sgrt_buffer_free(dev.in);
    sgrt_buffer_free(dev.out);
    sgrt_context_free(dev.context);
    return sum.wrong_rows ? 1 : 0;
}
