/* emit_cuda.c — the CUDA C target: spellings, built-in mappings and the
 * prelude for CUDA C++ compiled by nvcc or NVRTC (docs/DESIGN.md "CUDA C").
 *
 * The output includes no headers, so everything SGC code relies on comes from
 * a prelude of small `__device__ __forceinline__` functions, each printed
 * only when the body uses it: the OpenCL work-item functions, 64-bit atomics
 * that CUDA has only for unsigned long long, and the dynamic local memory
 * array.  CUDA is C++: sema's implicit conversions that C++ rejects are
 * printed (is_cxx); reserved identifiers are renamed by emit_names.c. */
#include "emit/emit_internal.h"
#include "emit/cuda/cuda_target.h"
#include "prelude.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CUDA C's spelling of each scalar kind (scalars.def lists SGC's); no
 * default, so that -Wswitch names a kind added without one. */
static const char *cuda_scalar_type(TypeKind kind)
{
    switch (kind) {
    case TY_VOID: return "void";
    case TY_BOOL: return "bool";
    case TY_CHAR: return "char";
    case TY_SCHAR: return "signed char";
    case TY_UCHAR: return "unsigned char";
    case TY_SHORT: return "short";
    case TY_USHORT: return "unsigned short";
    case TY_INT: case TY_ENUM: return "int";
    case TY_UINT: return "unsigned int";
    case TY_LONG: return "long long";
    case TY_ULONG: return "unsigned long long";
    case TY_SIZE_T: return "size_t";
    case TY_FLOAT: return "float";
    case TY_DOUBLE: return "double";
    case TY_PTR: case TY_ARRAY: case TY_STRUCT: case TY_UNION: case TY_FUNC:
    case TY_GROUP: case TY_ASYNC_BARRIER: case TY_ARRIVAL_TOKEN:
        break; /* not scalars: the printer never asks */
    }
    return "int";
}

/* `long long` is the 64-bit type on every CUDA host (LP64 and LLP64). */
static const char *cuda_int_suffix(TypeKind kind)
{
    switch (kind) {
    case TY_UINT: return "u";
    case TY_LONG: return "LL";
    case TY_ULONG: return "ULL";
    case TY_SIZE_T: return "UL";
    case TY_VOID: case TY_BOOL: case TY_CHAR: case TY_SCHAR: case TY_UCHAR: case TY_SHORT: case TY_USHORT:
    case TY_INT: case TY_ENUM: case TY_FLOAT: case TY_DOUBLE:
    CASE_TY_NOT_ARITHMETIC:
        break;
    }
    return "";
}

/* Memory spaces are properties of variables in CUDA, never of pointees. */
static void cuda_addr_space(EmitCtx *ctx, AddrSpace as, EmitAsRole role)
{
    if (role == AS_ROLE_FILE_OBJECT) {
        emit_out(ctx, as == AS_CONSTANT ? "__constant__ " : as == AS_LOCAL ? "__shared__ "
                                                                            : "__device__ ");
    } else if (role == AS_ROLE_BLOCK_OBJECT) {
        if (as == AS_LOCAL)
            emit_out(ctx, "__shared__ ");
        else if (as == AS_CONSTANT)
            emit_out(ctx, "const ");
    }
}

static void cuda_float_special(EmitCtx *ctx, double value, bool is_double)
{
    bool nan = value != value;
    if (is_double)
        emit_out(ctx, "__longlong_as_double(%s)", nan ? "0x7ff8000000000000LL" : "0x7ff0000000000000LL");
    else
        emit_out(ctx, "__int_as_float(%s)", nan ? "0x7fc00000" : "0x7f800000");
}

static void cuda_function_prefix(EmitCtx *ctx, const Symbol *fn, bool is_definition)
{
    (void)is_definition;
    if (!fn->is_kernel) {
        const Node *def = fn->def;
        bool is_inline = def && def->decl_specs && def->decl_specs->is_inline;
        emit_out(ctx, "static __device__ %s", is_inline ? "inline " : "");
        return;
    }
    emit_out(ctx, "extern \"C\" __global__ ");
    const int *wg = fn->reqd_work_group_size;
    const Node *const *wg_expr = (const Node *const *)fn->reqd_work_group_size_expr;
    if (wg[0] > 0 && !wg_expr[1] && !wg_expr[2]) {
        emit_out(ctx, "__launch_bounds__(%d) ",
                 wg[0] * (wg[1] > 0 ? wg[1] : 1) * (wg[2] > 0 ? wg[2] : 1));
    } else if (wg_expr[0] || wg_expr[1] || wg_expr[2]) {
        /* A size given by a spec constant: its SGC_SC_ macro, folded by nvcc. */
        emit_out(ctx, "__launch_bounds__(");
        for (int d = 0; d < 3; d++) {
            emit_out(ctx, d ? " * " : "");
            if (wg_expr[d]) {
                emit_out(ctx, "(");
                emit_expr(ctx, wg_expr[d]);
                emit_out(ctx, ")");
            } else {
                emit_out(ctx, "%d", wg[d] > 0 ? wg[d] : 1);
            }
        }
        emit_out(ctx, ") ");
    }
}

/* What CUDA cannot run, from sema's facts: a required sub-group size other
 * than 32, a fixed-size group wider than a warp (its own or a callee's);
 * emit.c leaves it out. */
static bool cuda_unsupported(const Symbol *fn, char *why, size_t cap)
{
    if (fn->reqd_sub_group_size > 0 && fn->reqd_sub_group_size != 32)
        snprintf(why, cap, "requires sub-group size %d, but CUDA warps have 32 threads",
                 fn->reqd_sub_group_size);
    else if (fn->widest_fixed_group > 32)
        snprintf(why, cap, "uses fixed_size_group<%lld>, larger than a CUDA warp (32 threads)",
                 (long long)fn->widest_fixed_group);
    else
        return false;
    return true;
}

/* `local T *p` of a kernel: dynamic shared memory, passed as a byte offset. */
static bool is_dynamic_local_param(const Symbol *fn, const Param *p)
{
    const Type *ty = emit_canonical(p->ty);
    return fn && fn->is_kernel && ty && ty->kind == TY_PTR && ty->base &&
           ty->base->addr_space == AS_LOCAL;
}

static bool cuda_param(EmitCtx *ctx, const Symbol *fn, const Param *p)
{
    if (!is_dynamic_local_param(fn, p))
        return false;
    emit_use(ctx, USE_DYNAMIC_LOCAL);
    emit_out(ctx, "unsigned int ");
    emit_name(ctx, p->name);
    emit_out(ctx, "_sgc_offset");
    return true;
}

static void cuda_body_prologue(EmitCtx *ctx, const Symbol *fn)
{
    emit_tangle_prologue(ctx, fn);
    for (const Param *p = fn->ty ? fn->ty->params : NULL; p; p = p->next) {
        if (!is_dynamic_local_param(fn, p) || !p->name)
            continue;
        emit_line_begin(ctx, (SrcLoc){0, 0});
        emit_type(ctx, p->ty, p->name, AS_ROLE_BLOCK_OBJECT);
        emit_out(ctx, " = (");
        emit_type(ctx, p->ty, NULL, AS_ROLE_OTHER);
        emit_out(ctx, ")(sgc_dynamic_local + ");
        emit_name(ctx, p->name);
        emit_out(ctx, "_sgc_offset);");
        emit_line_end(ctx);
    }
}

/* Work-item functions keep their OpenCL names; the prelude defines them. */
#define CUDA_WORKITEMS(X)                                                          \
    X(GET_GLOBAL_ID, "(size_t)blockIdx.%c * blockDim.%c + threadIdx.%c", "0")     \
    X(GET_LOCAL_ID, "threadIdx.%c", "0")                                            \
    X(GET_GROUP_ID, "blockIdx.%c", "0")                                             \
    X(GET_LOCAL_SIZE, "blockDim.%c", "1")                                           \
    X(GET_GLOBAL_SIZE, "(size_t)gridDim.%c * blockDim.%c", "1")                    \
    X(GET_NUM_GROUPS, "gridDim.%c", "1")

static void cuda_workitem_call(EmitCtx *ctx, const Node *call)
{
    switch ((Builtin)call->builtin) {
#define X(bi, expr, other) case BI_##bi: emit_use(ctx, USE_##bi); break;
    CUDA_WORKITEMS(X)
#undef X
    case BI_GET_WORK_DIM: emit_use(ctx, USE_GET_WORK_DIM); break;
    case BI_GET_MAX_SUB_GROUP_SIZE:
        emit_out(ctx, "((unsigned int)warpSize)"); /* the sub-group is the warp */
        return;
    default: break;
    }
    emit_out(ctx, "%s", builtin_info[call->builtin].name);
    emit_call_args(ctx, call, false);
}

/* One `d == 0 ? x : d == 1 ? y : ...` line per dimension. */
static void print_workitem_function(EmitBuffer *out, const char *name, const char *expr,
                                    const char *other)
{
    emit_printf(out, "static __device__ __forceinline__ size_t %s(unsigned int d)\n{\n"
                     "    return ", name);
    const char dims[] = {'x', 'y', 'z'};
    for (int i = 0; i < 3; i++) {
        char c = dims[i];
        emit_printf(out, "d == %d ? ", i);
        emit_printf(out, expr, c, c, c);
        emit_printf(out, "\n         : ");
    }
    emit_printf(out, "%s;\n}\n", other);
}

static void cuda_sync_call(EmitCtx *ctx, const Node *call)
{
    if (call->builtin == BI_BARRIER) {
        emit_out(ctx, "__syncthreads()");
        return;
    }
    const Node *flags = emit_call_arg(call, 0);
    bool local_only = flags && flags->is_const_expr && flags->const_value == 1;
    emit_out(ctx, local_only ? "__threadfence_block()" : "__threadfence()");
}

/* SGC atomic -> CUDA function.  `u64_direct`: CUDA has it for unsigned long
 * long; everything else 64-bit goes through a prelude helper. */
#define CUDA_ATOMICS(X)                                         \
    X(ATOMIC_FETCH_ADD, "add", "atomicAdd", true)               \
    X(ATOMIC_FETCH_SUB, "sub", "atomicSub", false)              \
    X(ATOMIC_FETCH_MIN, "min", "atomicMin", true)               \
    X(ATOMIC_FETCH_MAX, "max", "atomicMax", true)               \
    X(ATOMIC_FETCH_AND, "and", "atomicAnd", true)               \
    X(ATOMIC_FETCH_OR, "or", "atomicOr", true)                  \
    X(ATOMIC_FETCH_XOR, "xor", "atomicXor", true)               \
    X(ATOMIC_EXCHANGE, "exchange", "atomicExch", true)          \
    X(ATOMIC_COMPARE_EXCHANGE, "compare_exchange", "atomicCAS", true)

/* A 64-bit helper: signed values travel as unsigned long long (two's
 * complement makes add/sub/and/or/xor/exchange/CAS identical); min/max use
 * CUDA's signed overloads; sub is add of the negation. */
static void cuda_atomic_helper(EmitCtx *ctx, const char *stem, const char *cuda_fn, bool is_signed)
{
    const char *t = is_signed ? "long long" : "unsigned long long";
    const char *sfx = is_signed ? "i64" : "u64";
    char key[64], text[768];
    snprintf(key, sizeof key, "atomic_%s_%s", stem, sfx);
    bool cas = strcmp(stem, "compare_exchange") == 0;
    bool sub = strcmp(stem, "sub") == 0;
    bool native_signed = strcmp(stem, "min") == 0 || strcmp(stem, "max") == 0;
    const char *fn = sub ? "atomicAdd" : cuda_fn;
    if (is_signed && native_signed) {
        snprintf(text, sizeof text,
                 "static __device__ __forceinline__ %s sgc_atomic_%s_%s(%s *p, %s v)\n"
                 "{\n    return %s(p, v);\n}\n", t, stem, sfx, t, t, fn);
    } else if (cas) {
        snprintf(text, sizeof text,
                 "static __device__ __forceinline__ %s sgc_atomic_%s_%s(%s *p, %s expected, %s desired)\n"
                 "{\n    return (%s)%s((unsigned long long *)p, (unsigned long long)expected,"
                 " (unsigned long long)desired);\n}\n", t, stem, sfx, t, t, t, t, fn);
    } else {
        snprintf(text, sizeof text,
                 "static __device__ __forceinline__ %s sgc_atomic_%s_%s(%s *p, %s v)\n"
                 "{\n    return (%s)%s((unsigned long long *)p, %s(unsigned long long)v);\n}\n",
                 t, stem, sfx, t, t, t, fn, sub ? "0ULL - " : "");
    }
    emit_prelude_piece(ctx, key, text);
    emit_out(ctx, "sgc_atomic_%s_%s", stem, sfx);
}

/* The atomics atomics.cuh defines (sgc::<name>); NULL for the others. */
static const char *library_atomic(Builtin bi, const Type *elem)
{
    bool floating = elem && (elem->kind == TY_FLOAT || elem->kind == TY_DOUBLE);
    switch (bi) {
    case BI_ATOMIC_LOAD: return "atomic_load";
    case BI_ATOMIC_STORE: return "atomic_store";
    case BI_ATOMIC_FETCH_ADD: return floating ? "atomic_fetch_add" : NULL;
    case BI_ATOMIC_FETCH_SUB: return floating ? "atomic_fetch_sub" : NULL;
    case BI_ATOMIC_FETCH_MIN: return floating ? "atomic_fetch_min" : NULL;
    case BI_ATOMIC_FETCH_MAX: return floating ? "atomic_fetch_max" : NULL;
    case BI_ATOMIC_EXCHANGE: return floating ? "atomic_exchange" : NULL;
    default: return NULL;
    }
}

static void cuda_atomic_call(EmitCtx *ctx, const Node *call)
{
    const Node *ptr = emit_call_arg(call, 0);
    const Type *pty = ptr ? emit_canonical(ptr->ty) : NULL;
    const Type *elem = pty && pty->kind == TY_PTR ? emit_canonical(pty->base) : NULL;
    const char *library = library_atomic((Builtin)call->builtin, elem);
    if (library) {
        emit_prelude_piece(ctx, "atomics:blank", "\n");
        emit_prelude_piece(ctx, "atomics", prelude_cuda_atomics);
        emit_out(ctx, "sgc::%s", library);
        emit_call_args(ctx, call, true);
        return;
    }
    bool wide = emit_type_is_64bit_int(elem);
    bool is_signed = elem && elem->kind == TY_LONG, is_size_t = elem && elem->kind == TY_SIZE_T;
    const char *stem = NULL, *cuda_fn = NULL;
    bool u64_direct = false;
    switch ((Builtin)call->builtin) {
#define X(bi, s, f, direct) case BI_##bi: stem = s; cuda_fn = f; u64_direct = direct; break;
    CUDA_ATOMICS(X)
#undef X
    default: break;
    }
    if (!stem) {
        emit_error(ctx, call->loc, "internal error: unknown atomic built-in");
        return;
    }
    if (wide && (is_signed || !u64_direct || is_size_t))
        cuda_atomic_helper(ctx, stem, cuda_fn, is_signed);
    else
        emit_out(ctx, "%s", cuda_fn);
    emit_call_args(ctx, call, true);
}

/* SGC math -> CUDA for float and double arguments: X(builtin, float
 * spelling, double spelling).  clamp is printed by print_clamp; integer
 * arguments keep SGC's name (abs of a long: llabs). */
#define CUDA_MATH(X)                                   \
    X(SQRT, "sqrtf", "sqrt") X(RSQRT, "rsqrtf", "rsqrt") \
    X(EXP, "expf", "exp") X(LOG, "logf", "log")          \
    X(SIN, "sinf", "sin") X(COS, "cosf", "cos")          \
    X(TAN, "tanf", "tan") X(FABS, "fabsf", "fabs")       \
    X(FLOOR, "floorf", "floor") X(CEIL, "ceilf", "ceil") \
    X(POW, "powf", "pow") X(FMIN, "fminf", "fmin")       \
    X(FMAX, "fmaxf", "fmax") X(FMA, "fmaf", "fma")       \
    X(MAD, "fmaf", "fma") X(MIN, "fminf", "fmin")        \
    X(MAX, "fmaxf", "fmax") X(ABS, "fabsf", "fabs")

static void print_clamp(EmitCtx *ctx, const Node *call, bool is_float, bool is_double)
{
    const char *lo = is_float ? "fmaxf" : is_double ? "fmax" : "max";
    const char *hi = is_float ? "fminf" : is_double ? "fmin" : "min";
    emit_out(ctx, "%s(%s(", hi, lo);
    emit_call_arg_value(ctx, emit_call_arg(call, 0), true);
    emit_out(ctx, ", ");
    emit_call_arg_value(ctx, emit_call_arg(call, 1), true);
    emit_out(ctx, "), ");
    emit_call_arg_value(ctx, emit_call_arg(call, 2), true);
    emit_out(ctx, ")");
}

static void cuda_math_call(EmitCtx *ctx, const Node *call)
{
    const Node *arg = emit_call_arg(call, 0);
    const Type *ty = emit_canonical(arg ? arg->ty : call->ty);
    TypeKind k = ty ? ty->kind : TY_FLOAT;
    bool is_float = k == TY_FLOAT, is_double = k == TY_DOUBLE;
    if (call->builtin == BI_CLAMP) {
        print_clamp(ctx, call, is_float, is_double);
        return;
    }
    const char *name = builtin_info[call->builtin].name;
    if (is_float || is_double) {
        switch ((Builtin)call->builtin) {
#define X(bi, f, d) case BI_##bi: name = is_float ? f : d; break;
        CUDA_MATH(X)
#undef X
        default: break;
        }
    } else if (call->builtin == BI_ABS) {
        name = k == TY_LONG ? "llabs" : "abs";
    }
    emit_out(ctx, "%s", name);
    emit_call_args(ctx, call, true);
}

static void cuda_unit_prelude(EmitCtx *ctx, EmitBuffer *out)
{
    bool any = false;
#define X(bi, expr, other) any |= ctx->uses[USE_##bi];
    CUDA_WORKITEMS(X)
#undef X
    if (any || ctx->uses[USE_GET_WORK_DIM])
        emit_printf(out, "\n/* OpenCL work-item functions. */\n");
#define X(bi, expr, other) \
    if (ctx->uses[USE_##bi]) print_workitem_function(out, builtin_info[BI_##bi].name, expr, other);
    CUDA_WORKITEMS(X)
#undef X
    if (ctx->uses[USE_GET_WORK_DIM])
        emit_printf(out, "static __device__ __forceinline__ unsigned int get_work_dim(void)\n{\n"
                         "    return gridDim.z * blockDim.z > 1 ? 3 : gridDim.y * blockDim.y > 1 ? 2 : 1;\n}\n");
    if (ctx->uses[USE_DYNAMIC_LOCAL])
        emit_printf(out, "\n/* Dynamic local memory: `local T *` kernel parameters are byte offsets. */\n"
                         "extern __shared__ __align__(16) unsigned char sgc_dynamic_local[];\n");
}

/* Names CUDA C reserves or predeclares (docs/LOWERING.md "Reserved names"). */
#define RESERVED(name, scope) {name, RESERVED_##scope},
static const ReservedName cuda_reserved_names[] = {
#include "emit/cuda/reserved_cuda.def"
};
#undef RESERVED

static const EmitReservedTable cuda_reserved = {
    "CUDA C", cuda_reserved_names, sizeof cuda_reserved_names / sizeof cuda_reserved_names[0]};

const EmitHooks emit_cuda_hooks = {
    .target_name = "CUDA C",
    .is_cxx = true,
    .has_function_pointers = true,
    .scalar_type = cuda_scalar_type,
    .int_suffix = cuda_int_suffix,
    .addr_space = cuda_addr_space,
    .restrict_kw = "__restrict__",
    .static_assert_kw = "static_assert",
    .reserved = &cuda_reserved,
    .float_special = cuda_float_special,
    .unsupported = cuda_unsupported,
    .lowering = &emit_cuda_lowering,
    .function_prefix = cuda_function_prefix,
    .param = cuda_param,
    .body_prologue = cuda_body_prologue,
    .extra_params = emit_tangle_extra_params,
    .extra_args = emit_tangle_extra_args,
    .stmt_override = emit_tangle_stmt_override,
    .workitem_call = cuda_workitem_call,
    .sync_call = cuda_sync_call,
    .atomic_call = cuda_atomic_call,
    /* nvcc declares device printf with <stdio.h>; NVRTC has it built in
     * and no <stdio.h>. */
    .printf_prelude = "\n#if !defined(__CUDACC_RTC__)\n#include <stdio.h>\n#endif\n",
    .math_call = cuda_math_call,
    .unit_prelude = cuda_unit_prelude,
};

bool emit_cuda_unit(const TranslationUnit *tu, const SourceManager *sources,
                    const EmitOptions *options, Diag *diag, EmitBuffer *out)
{
    return emit_unit_with(&emit_cuda_hooks, tu, sources, options, diag, out, NULL);
}
