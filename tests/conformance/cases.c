/* cases.c — the conformance cases: one host reference per case, written
 * from the SPEC rules with plain loops (nothing here comes from sgcc), and
 * the table conform_host.c runs.  How to add a case: conform_host.c. */
#include "conform.h"

#include <stdbool.h>

double conform_input_value(ElemType t, size_t i)
{
    uint32_t h = (uint32_t)(i + 1) * 2654435761u;
    int v = (int)((h >> 11) % 81);
    return t == E_UINT || t == E_ULONG ? v : v - 40;
}

static int max_i(int a, int b) { return a > b ? a : b; }
static int min_i(int a, int b) { return a < b ? a : b; }

/* joint_local_reduce.sgc: 4 work-groups of 16, 64 inputs each. */
static void ref_joint_local_reduce(const Case *c, const void *in_, void *out_)
{
    const int32_t *in = in_;
    int32_t *out = out_;
    for (size_t g = 0; g < c->global_size / c->local_size; g++) {
        const int32_t *t = in + g * 64;
        int sum = 0, low = 7;
        bool neg = false, above = false;
        for (int i = 0; i < 64; i++) {
            sum += t[i];
            neg |= t[i] < 0;
            above |= t[i] > 40;
        }
        for (int i = 8; i < 40; i++)
            low = min_i(low, t[i]);
        out[g * 4 + 0] = sum;
        out[g * 4 + 1] = low;
        out[g * 4 + 2] = neg;
        out[g * 4 + 3] = !above;
    }
}

/* joint_local_scan.sgc: per work-group, the exclusive plus scan of its 48
 * inputs, then their inclusive maximum scan with init -5 (docs/REFERENCE.md "Groups":
 * init is folded into every element). */
static void ref_joint_local_scan(const Case *c, const void *in_, void *out_)
{
    const int32_t *in = in_;
    int32_t *out = out_;
    for (size_t g = 0; g < c->global_size / c->local_size; g++) {
        const int32_t *t = in + g * 48;
        int sum = 0, high = -5;
        for (int i = 0; i < 48; i++) {
            out[g * 96 + i] = sum;
            sum += t[i];
            high = max_i(high, t[i]);
            out[g * 96 + 48 + i] = high;
        }
    }
}

/* joint_private_range.sgc: every work-item writes the product of the 10
 * inputs (init 1) and whether all are below 41. */
static void ref_joint_private_range(const Case *c, const void *in_, void *out_)
{
    const int64_t *in = in_;
    int64_t *out = out_;
    int64_t prod = 1;
    bool all_small = true;
    for (int i = 0; i < 10; i++) {
        prod *= in[i];
        all_small &= in[i] < 41;
    }
    for (size_t g = 0; g < c->global_size; g++) {
        out[g * 2] = prod;
        out[g * 2 + 1] = all_small;
    }
}

/* joint_sub_group_spaces.sgc: in = pair {a[8], b[8]} then 8 private values. */
static void ref_joint_sub_group_spaces(const Case *c, const void *in_, void *out_)
{
    static const float table[16] = {3, -1, 4, 1, -5, 9, 2, -6, 5, 3, -5, 8, 9, -7, 9, 3};
    const float *in = in_;
    float *out = out_;
    float total = 0, high_a = in[0], high_priv = -100;
    bool any_b = false;
    for (int i = 0; i < 16; i++)
        total += table[i];
    for (int i = 0; i < 8; i++) {
        high_a = in[i] > high_a ? in[i] : high_a;
        any_b |= in[8 + i] > 0;
        high_priv = in[16 + i] > high_priv ? in[16 + i] : high_priv;
    }
    for (size_t g = 0; g < c->global_size; g++) {
        out[g * 4 + 0] = total;
        out[g * 4 + 1] = high_a;
        out[g * 4 + 2] = high_priv;
        out[g * 4 + 3] = any_b;
    }
    float *tail = out + c->global_size * 4, sum = 0, run = 0.5f;
    for (int i = 0; i < 16; i++) {
        tail[i] = sum;
        sum += table[i];
    }
    for (int i = 0; i < 8; i++) {
        run += in[16 + i];
        tail[16 + i] = run;
    }
}

/* reqd_wg_spec.sgc: per work-group of 16, the sum of its inputs and the
 * local size. */
static void ref_reqd_wg_spec(const Case *c, const void *in_, void *out_)
{
    const int32_t *in = in_;
    int32_t *out = out_;
    for (size_t g = 0; g < c->global_size / c->local_size; g++) {
        int sum = 0;
        for (size_t i = 0; i < c->local_size; i++)
            sum += in[g * c->local_size + i];
        out[g * 2] = sum;
        out[g * 2 + 1] = (int)c->local_size;
    }
}

/* reqd_wg_spec_sub_group.sgc, WG bound to 32 = the local size. */
static void ref_reqd_wg_spec_sub_group(const Case *c, const void *in_, void *out_)
{
    const int32_t *in = in_;
    int32_t *out = out_;
    int high = in[0];
    for (size_t i = 0; i < c->local_size; i++)
        high = max_i(high, in[i]);
    for (size_t g = 0; g < c->global_size; g++) {
        size_t first = g / c->local_size * c->local_size;
        int sum = 0;
        for (size_t i = 0; i < c->local_size; i++)
            sum += in[first + i];
        out[g * 4 + 0] = high;
        out[g * 4 + 1] = 1;
        out[g * 4 + 2] = sum;
        out[g * 4 + 3] = 1;
    }
}

/* joint_small_types.sgc: per work-group, 40 inputs v made into short v*1000,
 * uchar v*7 and char v*5 (wrapping), then reductions and scans whose every
 * step is (T)(a op b) (docs/REFERENCE.md "Group algorithms and operators"),
 * computed here in the types themselves. */
static int16_t to_i16(int64_t v) { return (int16_t)(uint16_t)(uint64_t)v; }
static uint8_t to_u8(int64_t v) { return (uint8_t)(uint64_t)v; }
static int8_t to_i8(int64_t v) { return (int8_t)(uint8_t)(uint64_t)v; }

enum { SMALL_N = 40, SMALL_WG_PER_GROUP = 7 + 2 * SMALL_N, SMALL_SG_PER_GROUP = 1 + 2 * SMALL_N };

typedef struct SmallInputs {
    int16_t s[SMALL_N];
    uint8_t u[SMALL_N];
    int8_t c[SMALL_N];
} SmallInputs;

static SmallInputs small_inputs(const int32_t *in, size_t g)
{
    SmallInputs x;
    for (int i = 0; i < SMALL_N; i++) {
        int v = in[g * SMALL_N + (size_t)i];
        x.s[i] = to_i16(v * 1000);
        x.u[i] = to_u8(v * 7);
        x.c[i] = to_i8(v * 5);
    }
    return x;
}

static void ref_joint_small_types(const Case *c, const void *in_, void *out_)
{
    const int32_t *in = in_;
    int32_t *out = out_;
    for (size_t g = 0; g < c->global_size / c->local_size; g++) {
        SmallInputs x = small_inputs(in, g);
        int32_t *o = out + g * SMALL_WG_PER_GROUP;
        int16_t sum = 0, low = INT16_MAX, scan_low = INT16_MAX;
        int8_t high = INT8_MIN, sum_c = 0;
        uint8_t prod = 3, scan_u = 250;
        for (int i = 0; i < SMALL_N; i++) {
            sum = to_i16(sum + x.s[i]);
            low = x.s[i] < low ? x.s[i] : low;
            high = x.c[i] > high ? x.c[i] : high;
            sum_c = to_i8(sum_c + x.c[i]);
            if (i < 8)
                prod = to_u8((uint32_t)prod * x.u[i]);
            o[7 + i] = scan_low;
            scan_low = x.s[i] < scan_low ? x.s[i] : scan_low;
            scan_u = to_u8(scan_u + x.u[i]);
            o[7 + SMALL_N + i] = scan_u;
        }
        o[0] = sum;
        o[1] = low;
        o[2] = high;
        o[3] = prod;
        o[4] = INT16_MAX; /* minimum over an empty range: short's identity */
        o[5] = INT8_MIN;  /* maximum over an empty range: char's identity */
        o[6] = sum_c / 2;
    }
}

static void ref_joint_small_types_sg(const Case *c, const void *in_, void *out_)
{
    const int32_t *in = in_;
    int32_t *out = out_;
    for (size_t g = 0; g < c->global_size / c->local_size; g++) {
        SmallInputs x = small_inputs(in, g);
        int32_t *o = out + g * SMALL_SG_PER_GROUP;
        int8_t scan_high = INT8_MIN;
        int16_t prod = 1;
        uint8_t bits = 0;
        for (int i = 0; i < SMALL_N; i++) {
            bits ^= x.u[i];
            o[1 + i] = scan_high;
            scan_high = x.c[i] > scan_high ? x.c[i] : scan_high;
            prod = to_i16((int64_t)prod * x.s[i]);
            o[1 + SMALL_N + i] = prod;
        }
        o[0] = bits;
    }
}

/* c_semantics.sgc: the shared C17 body (compiled here by the host C
 * compiler, which is the reference), then the three work-group results. */
#include "cases/c_semantics_body.h"

static void ref_c_semantics(const Case *c, const void *in_, void *out_)
{
    const int32_t *in = in_;
    int32_t *out = out_;
    for (size_t gid = 0; gid < c->global_size; gid++) {
        size_t first = gid / c->local_size * c->local_size;
        int res[C_SEMANTICS_COUNT], positive = 0;
        c_semantics(res, in[gid]);
        for (size_t j = first; j < first + c->local_size; j++)
            positive += in[j] > 0;
        res[C_SEMANTICS_COUNT - 3] = (int)sizeof('a');
        res[C_SEMANTICS_COUNT - 2] = in[first] < 0;
        res[C_SEMANTICS_COUNT - 1] = positive;
        for (int k = 0; k < C_SEMANTICS_COUNT; k++)
            out[gid * C_SEMANTICS_COUNT + k] = res[k];
    }
}

const Case conform_cases[] = {
    {"joint_local_reduce", E_INT, E_INT, 256, 16, 64, 16, NULL, 0, ref_joint_local_reduce},
    {"joint_local_scan", E_INT, E_INT, 192, 384, 64, 16, NULL, 0, ref_joint_local_scan},
    {"joint_private_range", E_LONG, E_LONG, 10, 64, 32, 16, NULL, 0, ref_joint_private_range},
    {"joint_sub_group_spaces", E_FLOAT, E_FLOAT, 24, 280, 64, 32, NULL, 0, ref_joint_sub_group_spaces},
    {"joint_small_types", E_INT, E_INT, 80, 2 * SMALL_WG_PER_GROUP, 64, 32, NULL, 0, ref_joint_small_types},
    {"joint_small_types_sg", E_INT, E_INT, 80, 2 * SMALL_SG_PER_GROUP, 64, 32, NULL, 0,
     ref_joint_small_types_sg},
    {"reqd_wg_spec", E_INT, E_INT, 64, 8, 64, 16, "-DSGC_SPEC_0=16", 16, ref_reqd_wg_spec},
    {"reqd_wg_spec_sub_group", E_INT, E_INT, 64, 256, 64, 32, "-DSGC_SPEC_3=32", 32,
     ref_reqd_wg_spec_sub_group},
    {"c_semantics", E_INT, E_INT, 16, 16 * C_SEMANTICS_COUNT, 16, 8, NULL, 0, ref_c_semantics},
};
const size_t conform_case_count = sizeof conform_cases / sizeof conform_cases[0];
