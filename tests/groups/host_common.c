/* host_common.c — the test matrix walk and the host reference of the group
 * library test (see host_common.h).  The reference never looks at the
 * library: it rebuilds every group from the docs/REFERENCE.md "Groups" rules (sub-groups are
 * consecutive linear local ids; ballot = same predicate; fixed-size = aligned
 * blocks of N lanes; ranks ordered by lane) and folds the operators itself.
 * Only the sub-group size and the opportunistic group's membership come from
 * the device, and both are checked for consistency. */
#include "host_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"

const TestKernel test_kernels[] = {
#define X(fam, ty, op, name) {fam, ty, op, name},
    TEST_MATRIX(X)
#undef X
};
const int test_kernel_count = (int)(sizeof test_kernels / sizeof test_kernels[0]);

static const struct {
    const char *name;
    size_t size;
    int is_signed, is_float;
} type_info[TY_COUNT] = {
    {"int", 4, 1, 0},   {"uint", 4, 0, 0},  {"long", 8, 1, 0},  {"ulong", 8, 0, 0},
    {"float", 4, 1, 1}, {"double", 8, 1, 1}, {"bool", 1, 0, 0}, {"char", 1, 1, 0},
    {"uchar", 1, 0, 0}, {"short", 2, 1, 0}, {"ushort", 2, 0, 0},
};

size_t test_type_size(TestType t) { return type_info[t].size; }
const char *test_type_name(TestType t) { return type_info[t].name; }

/* ---- values: bit patterns in the type's width ---- */

static uint64_t width_mask(TestType t)
{
    size_t n = type_info[t].size;
    return n == 8 ? ~(uint64_t)0 : (((uint64_t)1 << (8 * n)) - 1);
}

static int64_t as_signed(TestType t, uint64_t v)
{
    size_t bits = 8 * type_info[t].size;
    if (bits == 64)
        return (int64_t)v;
    uint64_t sign = (uint64_t)1 << (bits - 1);
    return (int64_t)((v ^ sign) - sign);
}

static double as_real(TestType t, uint64_t v)
{
    if (t == TY_FLOAT) {
        float f;
        uint32_t u = (uint32_t)v;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &v, 8);
    return d;
}

static uint64_t from_real(TestType t, double d)
{
    if (t == TY_FLOAT) {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static uint64_t from_int(TestType t, int64_t i)
{
    if (type_info[t].is_float)
        return from_real(t, (double)i);
    return (uint64_t)i & width_mask(t);
}

static int is_true(TestType t, uint64_t v)
{
    return type_info[t].is_float ? as_real(t, v) != 0.0 : v != 0;
}

static int less(TestType t, uint64_t a, uint64_t b)
{
    if (type_info[t].is_float)
        return as_real(t, a) < as_real(t, b);
    if (type_info[t].is_signed)
        return as_signed(t, a) < as_signed(t, b);
    return a < b;
}

static uint64_t apply(TestType t, TestOp op, uint64_t a, uint64_t b)
{
    int fl = type_info[t].is_float;
    switch (op) {
    case OP_PLUS:
        return fl ? from_real(t, as_real(t, a) + as_real(t, b)) : (a + b) & width_mask(t);
    case OP_MULTIPLIES:
        return fl ? from_real(t, as_real(t, a) * as_real(t, b)) : (a * b) & width_mask(t);
    case OP_MINIMUM: return less(t, b, a) ? b : a;
    case OP_MAXIMUM: return less(t, a, b) ? b : a;
    case OP_BIT_AND: return a & b;
    case OP_BIT_OR: return a | b;
    case OP_BIT_XOR: return a ^ b;
    case OP_LOGICAL_AND: return from_int(t, is_true(t, a) && is_true(t, b));
    case OP_LOGICAL_OR: return from_int(t, is_true(t, a) || is_true(t, b));
    case OP_NONE: break;
    }
    return 0;
}

/* docs/REFERENCE.md "Groups" identities; floating minimum/maximum use the infinities. */
static uint64_t identity(TestType t, TestOp op)
{
    int fl = type_info[t].is_float, sg = type_info[t].is_signed;
    size_t bits = 8 * type_info[t].size;
    switch (op) {
    case OP_PLUS: case OP_BIT_OR: case OP_BIT_XOR: case OP_LOGICAL_OR:
        return from_int(t, 0);
    case OP_MULTIPLIES: case OP_LOGICAL_AND:
        return from_int(t, 1);
    case OP_BIT_AND:
        return width_mask(t);
    case OP_MINIMUM:
        if (fl)
            return from_real(t, INFINITY);
        return sg ? width_mask(t) >> 1 : width_mask(t);
    case OP_MAXIMUM:
        if (fl)
            return from_real(t, -INFINITY);
        return sg ? ((uint64_t)1 << (bits - 1)) : 0;
    case OP_NONE: break;
    }
    return 0;
}

/* Logical operators see truth values (docs/GROUPS.md). */
static uint64_t normalise(TestType t, TestOp op, uint64_t v)
{
    if (op == OP_LOGICAL_AND || op == OP_LOGICAL_OR)
        return from_int(t, is_true(t, v));
    return v;
}

static uint64_t load(const void *base, size_t size, size_t index)
{
    uint64_t v = 0;
    memcpy(&v, (const char *)base + size * index, size); /* little-endian */
    return v;
}

static void store(void *base, size_t size, size_t index, uint64_t v)
{
    memcpy((char *)base + size * index, &v, size);
}

/* ---- inputs ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Values keep every result exact: small integers for sums, ±1 with a rare
 * 2 for products, full bit patterns for bitwise operators. */
static uint64_t gen_value(TestType t, TestOp op)
{
    int fl = type_info[t].is_float;
    uint64_t r = rng();
    switch (op) {
    case OP_MULTIPLIES:
        if (fl) {
            static const double f[4] = {1.0, -1.0, 2.0, 0.5};
            return from_real(t, f[r % 4]);
        }
        return from_int(t, r % 16 == 0 ? 2 : (r & 16) ? -1 : 1);
    case OP_BIT_AND:
        return (r | (r >> 7) | (r >> 13)) & width_mask(t); /* mostly ones */
    case OP_BIT_OR: case OP_BIT_XOR:
        return r & width_mask(t);
    case OP_LOGICAL_AND: case OP_LOGICAL_OR:
        return r % 8 == 0 ? 0 : from_int(t, (int64_t)(r % 1000) + 1);
    case OP_MINIMUM: case OP_MAXIMUM:
        if (fl)
            return from_real(t, (double)((int64_t)(r % 20001) - 10000));
        return r & width_mask(t);
    case OP_PLUS:
        if (fl || type_info[t].is_signed)
            return from_int(t, (int64_t)(r % 201) - 100);
        return from_int(t, (int64_t)(r % 200));
    case OP_NONE:
        if (t == TY_BOOL)
            return r & 1;
        if (fl)
            return from_real(t, (double)((int64_t)(r % 2001) - 1000) / 4.0);
        return r & width_mask(t);
    }
    return 0;
}

typedef enum Pattern { PAT_ALL_TRUE, PAT_ALL_FALSE, PAT_ALTERNATING, PAT_RANDOM, PAT_SPARSE, PAT_COUNT } Pattern;
static const char *const pattern_names[PAT_COUNT] = {"all-true", "all-false", "alternating", "random", "sparse"};

static int gen_pred(Pattern p, size_t i)
{
    switch (p) {
    case PAT_ALL_TRUE: return 1;
    case PAT_ALL_FALSE: return 0;
    case PAT_ALTERNATING: return (int)(i & 1);
    case PAT_RANDOM: return (int)(rng() & 1);
    case PAT_SPARSE: return rng() % 8 == 0;
    case PAT_COUNT: break;
    }
    return 0;
}

/* ---- the reference ---- */

static const char *const kind_names[K_COUNT] = {"sub_group", "ballot", "fixed", "tangle", "opportunistic", "work_group"};

typedef struct Members {
    size_t item[1024];   /* global ids, by rank */
    unsigned count;
    unsigned rank;       /* the caller's */
    unsigned id, range;  /* expected group id / range */
} Members;

typedef struct Shape {
    unsigned sg_size, sg_id, lane, max_sg;
} Shape;

static Shape shape_of(const TestLaunch *l, size_t i)
{
    Shape s;
    const uint32_t *info = l->info + i * TEST_INFO_WORDS;
    s.sg_size = info[0];
    s.sg_id = info[1];
    s.lane = info[2];
    s.max_sg = info[5];
    return s;
}

static uint64_t device_mask(const TestLaunch *l, size_t i)
{
    const uint32_t *info = l->info + i * TEST_INFO_WORDS;
    return (uint64_t)info[3] | ((uint64_t)info[4] << 32);
}

/* Members of work-item i's group, or an error message. */
static const char *members_of(const TestLaunch *l, size_t i, Members *m)
{
    size_t L = l->local_size, wg = i / L, lid = i % L;
    m->count = 0;
    m->rank = 0;
    if (l->kind == K_WORK_GROUP) {
        for (size_t j = 0; j < L; j++)
            m->item[m->count++] = wg * L + j;
        m->rank = (unsigned)lid;
        m->id = (unsigned)wg;
        m->range = (unsigned)l->num_groups;
        return NULL;
    }
    Shape s = shape_of(l, i);
    if (s.max_sg == 0 || s.max_sg > 64)
        return "bad max sub-group size";
    unsigned expect_size = (unsigned)((L - lid / s.max_sg * s.max_sg) < s.max_sg ? L - lid / s.max_sg * s.max_sg : s.max_sg);
    if (s.sg_id != lid / s.max_sg || s.lane != lid % s.max_sg || s.sg_size != expect_size)
        return "sub-group is not the consecutive linear ids";
    size_t first = wg * L + (size_t)s.sg_id * s.max_sg;
    uint64_t dmask = device_mask(l, i);
    int p = l->pred[i] != 0;
    if (l->kind == K_OPPORTUNISTIC) {
        if (!((dmask >> s.lane) & 1))
            return "opportunistic group lacks the caller";
        for (unsigned k = 0; k < s.sg_size; k++)
            if (((dmask >> k) & 1) && ((l->pred[first + k] != 0) != p || device_mask(l, first + k) != dmask))
                return "opportunistic group spans both branches or disagrees";
    }
    for (unsigned k = 0; k < s.sg_size; k++) {
        size_t j = first + k;
        int in = 0;
        switch (l->kind) {
        case K_SUB: in = 1; break;
        case K_BALLOT: case K_TANGLE: in = (l->pred[j] != 0) == p; break;
        case K_FIXED: in = k / l->param == s.lane / l->param; break;
        case K_OPPORTUNISTIC: in = (int)((dmask >> k) & 1); break;
        default: break;
        }
        if (!in)
            continue;
        if (k == s.lane)
            m->rank = m->count;
        m->item[m->count++] = j;
    }
    switch (l->kind) {
    case K_SUB: m->id = s.sg_id; m->range = (unsigned)((L + s.max_sg - 1) / s.max_sg); break;
    case K_BALLOT: m->id = p ? 0 : 1; m->range = 2; break;
    case K_FIXED: m->id = s.lane / l->param; m->range = (s.sg_size + l->param - 1) / l->param; break;
    default: m->id = 0; m->range = 1; break;
    }
    if (l->kind != K_OPPORTUNISTIC) {
        uint64_t want = 0;
        for (unsigned r = 0; r < m->count; r++)
            want |= (uint64_t)1 << (m->item[r] - first);
        if (want != dmask)
            return "device group mask differs from the reference partition";
    }
    return NULL;
}

static void expect_arith(const TestLaunch *l, const Members *m, size_t i, uint64_t e[6])
{
    TestType t = l->kernel->type;
    TestOp op = l->kernel->op;
    size_t es = l->elem_size;
    uint64_t init = normalise(t, op, l->init);
    uint64_t acc = identity(t, op), excl = acc, incl = acc;
    for (unsigned r = 0; r < m->count; r++) {
        acc = apply(t, op, acc, normalise(t, op, load(l->in, es, m->item[r])));
        if (r + 1 == m->rank)
            excl = acc;
        if (r == m->rank)
            incl = acc;
    }
    if (m->rank == 0)
        excl = identity(t, op);
    (void)i;
    e[0] = acc;
    e[1] = apply(t, op, init, acc);
    e[2] = excl;
    e[3] = apply(t, op, init, excl);
    e[4] = incl;
    e[5] = apply(t, op, init, incl);
}

static void expect_move(const TestLaunch *l, const Members *m, size_t i, uint64_t e[6])
{
    size_t es = l->elem_size;
    uint64_t own = load(l->in, es, i);
    unsigned r = m->rank, n = m->count;
#define AT(k) ((k) < n ? load(l->in, es, m->item[k]) : own)
    e[0] = AT(0u);
    e[1] = AT(l->a2);
    e[2] = r + l->a0 >= r ? AT(r + l->a0) : own;
    e[3] = r >= l->a0 ? AT(r - l->a0) : own;
    e[4] = AT(r ^ l->a1);
    e[5] = AT((unsigned)l->sel[i]);
#undef AT
}

static void expect_vote(const TestLaunch *l, const Members *m, size_t i, uint64_t e[9])
{
    int any = 0, all = 1;
    for (unsigned r = 0; r < m->count; r++) {
        int q = l->sel[m->item[r]] != 0;
        any |= q;
        all &= q;
    }
    (void)i;
    e[0] = (uint64_t)any;
    e[1] = (uint64_t)all;
    e[2] = (uint64_t)!any;
    e[3] = m->id;
    e[4] = m->range;
    e[5] = m->rank;
    e[6] = m->count;
    e[7] = m->rank == 0;
    e[8] = m->item[0];
}

/* Checks one launch; returns the number of mismatching work-items. */
static int check_launch(const TestOptions *opt, const TestLaunch *l)
{
    size_t n = l->local_size * l->num_groups;
    int bad = 0;
    TestFamily fam = l->kernel->family;
    size_t outs = TEST_OUTPUTS(fam), osize = fam == FAM_VOTE ? 4 : l->elem_size;
    static Members m;
    for (size_t i = 0; i < n; i++) {
        const char *why = l->info[i * TEST_INFO_WORDS + 6] == 0xC0FFEEu ? members_of(l, i, &m)
                                                                           : "work-item did not run the body";
        uint64_t e[9];
        int mismatch = -1;
        if (!why) {
            if (fam == FAM_ARITH)
                expect_arith(l, &m, i, e);
            else if (fam == FAM_MOVE)
                expect_move(l, &m, i, e);
            else
                expect_vote(l, &m, i, e);
            for (size_t k = 0; k < outs && mismatch < 0; k++)
                if ((load(l->out, osize, i * outs + k) & (osize == 8 ? ~0ull : ((1ull << (8 * osize)) - 1))) != e[k])
                    mismatch = (int)k;
        }
        if (why || mismatch >= 0) {
            if (bad < 3 && opt->verbose)
                fprintf(stderr, "    item %zu (lid %zu): %s%s output %d: got 0x%llx want 0x%llx\n", i,
                        i % l->local_size, why ? why : "", why ? "" : "", mismatch,
                        why ? 0ull : (unsigned long long)load(l->out, osize, i * outs + (mismatch < 0 ? 0 : (size_t)mismatch)),
                        why ? 0ull : (unsigned long long)e[mismatch < 0 ? 0 : mismatch]);
            bad++;
        }
    }
    return bad;
}

/* ---- the walk ---- */

/* `only` is a comma-separated list of name fragments. */
static int selected(const char *only, const char *name)
{
    if (!only)
        return 1;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", only);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
        if (strstr(name, tok))
            return 1;
    return 0;
}

typedef struct Config {
    TestKind kind;
    Pattern pattern;
    uint32_t param;
} Config;

static Config config(TestKind kind, int pattern, uint32_t param)
{
    Config c;
    c.kind = kind;
    c.pattern = (Pattern)pattern;
    c.param = param;
    return c;
}

static int configs_for(const TestOptions *opt, Config *c)
{
    int n = 0;
    if (opt->sub_groups) {
        c[n++] = config(K_SUB, PAT_RANDOM, 0);
        for (int p = 0; p < PAT_COUNT; p++)
            c[n++] = config(K_BALLOT, p, 0);
        for (uint32_t size = 1; size <= opt->max_sub_group && size <= 64; size *= 2)
            c[n++] = config(K_FIXED, PAT_RANDOM, size);
        if (opt->divergent) {
            for (int p = 0; p < PAT_COUNT; p++)
                c[n++] = config(K_TANGLE, p, 0);
            for (int p = 0; p < PAT_COUNT; p++)
                c[n++] = config(K_OPPORTUNISTIC, p, 0);
        }
    }
    c[n++] = config(K_WORK_GROUP, PAT_RANDOM, 0);
    return n;
}

static const size_t local_sizes[] = {37, 64, 200};

TestCounts test_run_matrix(const TestOptions *opt, TestLaunchFn launch, void *ctx)
{
    TestCounts counts = {0, 0, 0};
    Config configs[64];
    int nconfig = configs_for(opt, configs);
    static const uint32_t deltas[] = {1, 2, 5, 17}, xors[] = {1, 3, 6, 16}, bids[] = {0, 1, 3, 40};
    unsigned variant = 0;
    for (int k = 0; k < test_kernel_count; k++) {
        const TestKernel *tk = &test_kernels[k];
        int sampled = !opt->sample_count || k % opt->sample_count == opt->sample_index ||
                      tk->family == FAM_VOTE;
        if ((tk->type == TY_DOUBLE && !opt->has_fp64) || !selected(opt->only, tk->name) || !sampled) {
            counts.skipped++;
            continue;
        }
        for (int c = 0; c < nconfig; c++) {
            for (size_t s = 0; s < sizeof local_sizes / sizeof local_sizes[0]; s++) {
                TestLaunch l;
                memset(&l, 0, sizeof l);
                l.kernel = tk;
                l.kind = configs[c].kind;
                l.param = configs[c].param;
                l.a0 = deltas[variant % 4];
                l.a1 = xors[(variant / 4) % 4];
                l.a2 = bids[(variant / 2) % 4];
                variant++;
                l.local_size = local_sizes[s];
                l.num_groups = 2;
                l.elem_size = tk->family == FAM_VOTE ? 4 : test_type_size(tk->type);
                size_t n = l.local_size * l.num_groups, outs = TEST_OUTPUTS(tk->family);
                l.in = calloc(n, 8);
                l.out = calloc(n * outs, 8);
                l.info = (uint32_t *)calloc(n * TEST_INFO_WORDS, 4);
                l.pred = (int32_t *)calloc(n, 4);
                l.sel = (int32_t *)calloc(n, 4);
                for (size_t i = 0; i < n; i++) {
                    store(l.in, l.elem_size, i, tk->family == FAM_VOTE ? 0 : gen_value(tk->type, tk->op));
                    l.pred[i] = gen_pred(configs[c].pattern, i);
                    l.sel[i] = tk->family == FAM_VOTE ? gen_pred((Pattern)(variant % PAT_COUNT), i)
                                                      : (int32_t)(rng() % (l.kind == K_WORK_GROUP ? l.local_size + 3 : opt->max_sub_group + 3));
                }
                l.init = tk->family == FAM_ARITH ? gen_value(tk->type, tk->op) : 0;
                int bad = launch(ctx, &l) ? -1 : check_launch(opt, &l);
                if (bad == 0) {
                    counts.passed++;
                } else {
                    counts.failed++;
                    fprintf(stderr, "FAIL %s %s kind=%s pattern=%s N=%u local=%zu a=(%u,%u,%u): %s\n", opt->backend,
                            tk->name, kind_names[l.kind], pattern_names[configs[c].pattern], l.param, l.local_size,
                            l.a0, l.a1, l.a2, bad < 0 ? "launch failed" : "wrong results");
                }
                free(l.in);
                free(l.out);
                free(l.info);
                free(l.pred);
                free(l.sel);
            }
        }
    }
    printf("%s: %d passed, %d failed, %d kernels skipped\n", opt->backend, counts.passed, counts.failed,
           counts.skipped);
    return counts;
}
