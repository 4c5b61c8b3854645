/* gen_group_ops.c — writes the operator rows of the device libraries from
 * the one operator table, ast/group_ops.def (a build-time tool, run by
 * compiler/meson.build; never linked into sgcc).
 *
 * usage: gen_group_ops OUTDIR
 * Writes one file per block of rows into OUTDIR.  A library source names a
 * block with a line `#include "group_ops_<block>.inc"`; embed.py (--inc)
 * replaces that line with the file, so the emitted library holds the rows
 * themselves, and a direct #include of the library (nvcc, -I OUTDIR) sees
 * the same text.  What differs between the libraries, how each spells an
 * operand, an identity or a truth value, is here; what an operator is, is
 * in the table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast/builtins.h"

typedef struct Op {
    const char *name, *expr;
    GroupOpIdentity identity;
    bool integer_only, logical, idempotent;
    const char *khr;
} Op;

static const Op ops[] = {
#define GROUP_OP(kind, spelling, expr, identity, integer_only, logical, idempotent, khr) \
    {spelling, expr, GOP_ID_##identity, integer_only, logical, idempotent, khr},
#include "ast/group_ops.def"
#undef GROUP_OP
};
enum { OP_COUNT = sizeof ops / sizeof ops[0] };
_Static_assert(OP_COUNT == GOP_COUNT - 1, "one row per GroupOp but GOP_NONE");

static const char *out_dir;

static FILE *open_block(const char *block)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/group_ops_%s.inc", out_dir, block);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    return f;
}

static void close_block(FILE *f)
{
    if (ferror(f) || fclose(f) != 0) {
        fputs("gen_group_ops: write error\n", stderr);
        exit(1);
    }
}

static bool is_ident_char(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Prints `expr` with each operand `a` or `b` written as `operand` says
 * (a printf format with one %c, the operand's name). */
static void print_expr(FILE *f, const char *expr, const char *operand)
{
    for (const char *p = expr; *p; p++) {
        bool alone = (p == expr || !is_ident_char(p[-1])) && !is_ident_char(p[1]);
        if ((*p == 'a' || *p == 'b') && alone)
            fprintf(f, operand, *p);
        else
            fputc(*p, f);
    }
}

/* ---- CUDA (emit/cuda/cuda_base.cuh): functor structs in namespace sgc ---- */

static const char *cuda_identity(GroupOpIdentity id)
{
    switch (id) {
    case GOP_ID_ZERO: return "T(0)";
    case GOP_ID_ONE: return "T(1)";
    case GOP_ID_MAX: return "limits<T>::max()";
    case GOP_ID_LOWEST: return "limits<T>::lowest()";
    case GOP_ID_ALL_ONES: return "T(~T(0))";
    }
    return NULL;
}

/* A truth value's identity, inside SGC_LOGICAL's T(...). */
static const char *cuda_truth(GroupOpIdentity id)
{
    switch (id) {
    case GOP_ID_ZERO: return "0";
    case GOP_ID_ONE: return "1";
    case GOP_ID_MAX:
    case GOP_ID_LOWEST:
    case GOP_ID_ALL_ONES: break;
    }
    fputs("gen_group_ops: a logical operator's identity is 0 or 1\n", stderr);
    exit(1);
}

static void cuda_blocks(void)
{
    /* SGC_OPERATOR(name, expr, identity, idempotent) */
    FILE *f = open_block("cuda");
    for (int i = 0; i < OP_COUNT; i++) {
        if (ops[i].logical)
            continue;
        fprintf(f, "SGC_OPERATOR(%s, ", ops[i].name);
        print_expr(f, ops[i].expr, "%c");
        fprintf(f, ", %s, %s)\n", cuda_identity(ops[i].identity), ops[i].idempotent ? "true" : "false");
    }
    close_block(f);
    /* SGC_LOGICAL(name, expr on truth values, identity as 0/1); all
     * logical operators are idempotent (the table says so; checked here). */
    f = open_block("cuda_logical");
    for (int i = 0; i < OP_COUNT; i++) {
        if (!ops[i].logical)
            continue;
        if (!ops[i].idempotent) {
            fputs("gen_group_ops: a logical operator is idempotent\n", stderr);
            exit(1);
        }
        fprintf(f, "SGC_LOGICAL(%s, ", ops[i].name);
        print_expr(f, ops[i].expr, "%c != T(0)");
        fprintf(f, ", %s)\n", cuda_truth(ops[i].identity));
    }
    close_block(f);
}

/* ---- OpenCL (emit/opencl/opencl_base.cl): SGC_<what>_<op> macros ---- */

static const char *opencl_identity(GroupOpIdentity id)
{
    switch (id) {
    case GOP_ID_ZERO: return "((T)0)";
    case GOP_ID_ONE: return "((T)1)";
    case GOP_ID_MAX: return "((T)SGC_MAX_##T)";
    case GOP_ID_LOWEST: return "((T)SGC_MIN_##T)";
    case GOP_ID_ALL_ONES: return "((T)~(T)0)";
    }
    return NULL;
}

/* " X(op, T)" for each operator with the given integer_only and logical. */
static void opencl_pairs(FILE *f, bool integer_only, bool logical, const char *type)
{
    for (int i = 0; i < OP_COUNT; i++)
        if (ops[i].integer_only == integer_only && ops[i].logical == logical)
            fprintf(f, " X(%s, %s)", ops[i].name, type);
}

/* The type a small integer type (char uchar short ushort) computes an
 * operator in, before one conversion back (opencl_subgroup.cl, "Small
 * types").  An idempotent operator (minimum maximum bit_and bit_or) gives
 * one of its operands or bits of theirs, never a value out of the type's
 * range: int, which holds every value of those types in their order.  The
 * others (plus multiplies bit_xor) may leave the range: uint, where they
 * wrap modulo 2^32 with no overflow, and the conversion to the type is
 * the reduction modulo 2^8 or 2^16, so one conversion of the total equals
 * a conversion at each step. */
static const char *opencl_small_wide(const Op *op) { return op->idempotent ? "int" : "uint"; }

/* " X(op, T, W)" for each operator that is not logical, on a small type. */
static void opencl_small_pairs(FILE *f, const char *type)
{
    for (int i = 0; i < OP_COUNT; i++)
        if (!ops[i].logical)
            fprintf(f, " X(%s, %s, %s)", ops[i].name, type, opencl_small_wide(&ops[i]));
}

static void opencl_blocks(void)
{
    FILE *f = open_block("opencl_apply"); /* SGC_OP_<op>(a, b), SGC_IDEMPOTENT_<op> */
    for (int i = 0; i < OP_COUNT; i++) {
        fprintf(f, "#define SGC_OP_%s(a, b) (", ops[i].name);
        print_expr(f, ops[i].expr, "(%c)");
        fputs(")\n", f);
    }
    for (int i = 0; i < OP_COUNT; i++)
        fprintf(f, "#define SGC_IDEMPOTENT_%s %d\n", ops[i].name, ops[i].idempotent);
    /* SGC_VOTE_<op>: 0, or how a logical operator reads a ballot of truth
     * values: 1 every member true (identity true), 2 any member true. */
    for (int i = 0; i < OP_COUNT; i++)
        fprintf(f, "#define SGC_VOTE_%s %d\n", ops[i].name,
                !ops[i].logical ? 0 : ops[i].identity == GOP_ID_ONE ? 1 : 2);
    close_block(f);

    f = open_block("opencl_identity"); /* SGC_ID_<op>(T) */
    for (int i = 0; i < OP_COUNT; i++)
        fprintf(f, "#define SGC_ID_%s(T) %s\n", ops[i].name, opencl_identity(ops[i].identity));
    close_block(f);

    f = open_block("opencl_input"); /* SGC_IN_<op>(T, x): truth values 0/1 */
    for (int i = 0; i < OP_COUNT; i++)
        fprintf(f, "#define SGC_IN_%s(T, x) %s\n", ops[i].name, ops[i].logical ? "((T)((x) != 0))" : "(x)");
    close_block(f);

    /* The (op, T) lists: every operator on every arithmetic type, the
     * integer-only ones on integer types; logical ones computed on int and
     * reached from the other types through wrappers. */
    f = open_block("opencl_pairs");
    fputs("#define SGC_OPS_FLOAT(X, T)", f);
    opencl_pairs(f, false, false, "T");
    fputs("\n#define SGC_OPS_INT(X, T) SGC_OPS_FLOAT(X, T)", f);
    opencl_pairs(f, true, false, "T");
    fputs("\n#define SGC_OPS_LOGICAL(X)", f);
    opencl_pairs(f, false, true, "int");
    fputs("\n#ifdef SGC_HAS_FP64\n"
          "#define SGC_OPS_DOUBLE(X) SGC_OPS_FLOAT(X, double)\n"
          "#define SGC_LOGICAL_WRAPPERS_DOUBLE(X)", f);
    opencl_pairs(f, false, true, "double");
    fputs("\n#else\n"
          "#define SGC_OPS_DOUBLE(X)\n"
          "#define SGC_LOGICAL_WRAPPERS_DOUBLE(X)\n"
          "#endif\n"
          "#define SGC_LOGICAL_WRAPPERS(X)", f);
    opencl_pairs(f, false, true, "uint");
    fputs(" \\\n   ", f);
    opencl_pairs(f, false, true, "long");
    opencl_pairs(f, false, true, "ulong");
    fputs(" \\\n   ", f);
    opencl_pairs(f, false, true, "float");
    fputs(" SGC_LOGICAL_WRAPPERS_DOUBLE(X) \\\n   ", f);
    static const char *const small[] = {"char", "uchar", "short", "ushort"};
    for (size_t t = 0; t < sizeof small / sizeof small[0]; t++)
        opencl_pairs(f, false, true, small[t]);
    /* SGC_SMALL_PAIRS(X): X(op, T, W), the other operators on the small
     * types, through W (opencl_small_wide). */
    fputs("\n#define SGC_SMALL_PAIRS(X)", f);
    for (size_t t = 0; t < sizeof small / sizeof small[0]; t++) {
        fputs(" \\\n   ", f);
        opencl_small_pairs(f, small[t]);
    }
    fputs("\n", f);
    close_block(f);

    f = open_block("opencl_khr"); /* SGC_KHR_FN_<op>(prefix) */
    for (int i = 0; i < OP_COUNT; i++)
        fprintf(f, "#define SGC_KHR_FN_%s(prefix) prefix##_%s\n", ops[i].name, ops[i].khr);
    close_block(f);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: gen_group_ops OUTDIR\n", stderr);
        return 2;
    }
    out_dir = argv[1];
    cuda_blocks();
    opencl_blocks();
    return 0;
}
