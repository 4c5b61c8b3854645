/* emit_opencl.c — the OpenCL C target: spellings and built-in mappings for
 * OpenCL C 1.2 (docs/DESIGN.md "OpenCL C"), plugged into the shared printer.
 *
 * OpenCL C already has SGC's scalar names, address spaces and work-item
 * functions, so most hooks print what they are given.  The real work is the
 * atomics mapping (SGC's C11-style names to the 1.2 built-ins, 64-bit ones
 * through the cl_khr_int64_* extensions) and the fixed prelude: extension
 * pragmas, the sub-group capability tiers and the attribute macros. */
#include "emit/emit_internal.h"
#include "emit/opencl/opencl_target.h"
#include "prelude.h"

#include <string.h>

/* OpenCL C spells the scalar types as SGC does (scalars.def); an enum is
 * an int. */
static const char *opencl_scalar_type(TypeKind kind)
{
    return type_kind_is_scalar(kind) ? scalar_types[kind].spelling : "int";
}

/* OpenCL `long` is 64-bit on every device, so `L` is exact. */
static const char *opencl_int_suffix(TypeKind kind)
{
    switch (kind) {
    case TY_UINT: return "u";
    case TY_LONG: return "L";
    case TY_ULONG: case TY_SIZE_T: return "UL";
    case TY_VOID: case TY_BOOL: case TY_CHAR: case TY_SCHAR: case TY_UCHAR: case TY_SHORT: case TY_USHORT:
    case TY_INT: case TY_ENUM: case TY_FLOAT: case TY_DOUBLE:
    CASE_TY_NOT_ARITHMETIC:
        break;
    }
    return "";
}

static void opencl_addr_space(EmitCtx *ctx, AddrSpace as, EmitAsRole role)
{
    (void)role;
    switch (as) {
    case AS_GLOBAL: emit_out(ctx, "__global "); break;
    case AS_LOCAL: emit_out(ctx, "__local "); break;
    case AS_CONSTANT: emit_out(ctx, "__constant "); break;
    case AS_PRIVATE: emit_out(ctx, "__private "); break;
    case AS_NONE: break;
    }
}

static void opencl_float_special(EmitCtx *ctx, double value, bool is_double)
{
    const char *name = value != value ? "NAN" : "INFINITY";
    emit_out(ctx, is_double ? "((double)%s)" : "%s", name);
}

/* `__kernel` plus the kernel attributes, or `static inline` for device
 * functions declared inline (C99 `inline` alone gives no external
 * definition, which fails to link when the call is not inlined). */
static void opencl_function_prefix(EmitCtx *ctx, const Symbol *fn, bool is_definition)
{
    (void)is_definition;
    if (!fn->is_kernel) {
        const Node *def = fn->def;
        bool is_inline = def && def->decl_specs && def->decl_specs->is_inline;
        if (fn->storage == SC_STATIC || is_inline)
            emit_out(ctx, "static ");
        if (is_inline)
            emit_out(ctx, "inline ");
        return;
    }
    emit_out(ctx, "__kernel ");
    const int *wg = fn->reqd_work_group_size;
    if (wg[0] > 0 || fn->reqd_work_group_size_expr[0]) {
        /* A size given by a spec constant is its SGC_SC_ macro, which the
         * device compiler folds (docs/REFERENCE.md "Specialization constants"). */
        emit_out(ctx, "__attribute__((reqd_work_group_size(");
        for (int d = 0; d < 3; d++) {
            emit_out(ctx, d ? ", " : "");
            if (fn->reqd_work_group_size_expr[d])
                emit_expr(ctx, fn->reqd_work_group_size_expr[d]);
            else
                emit_out(ctx, "%d", wg[d] > 0 ? wg[d] : 1);
        }
        emit_out(ctx, "))) ");
    }
    if (fn->reqd_sub_group_size > 0) {
        emit_use(ctx, USE_REQD_SUB_GROUP_SIZE);
        if (fn->reqd_sub_group_size != 32)
            emit_use(ctx, USE_TIERS); /* its refusal on the nvptx tier */
        emit_out(ctx, "SGC_REQD_SUB_GROUP_SIZE(%d) ", fn->reqd_sub_group_size);
    }
}

static void opencl_workitem_call(EmitCtx *ctx, const Node *call)
{
    if (call->builtin == BI_GET_MAX_SUB_GROUP_SIZE) {
        /* The library's: the built-in on khr, 32 on nvptx (a kernel using
         * it needs sub-groups, so the wg tier refuses it). */
        emit_group_library(ctx, LEVEL_BASE);
        emit_out(ctx, "sgc_max_sub_group_size()");
        return;
    }
    emit_out(ctx, "%s", builtin_info[call->builtin].name);
    emit_call_args(ctx, call, false);
}

/* barrier(CLK_LOCAL_MEM_FENCE): the flags arrive folded (the preprocessor
 * expanded the macros), so constant flags are spelled back by name. */
static void opencl_sync_call(EmitCtx *ctx, const Node *call)
{
    const Node *flags = emit_call_arg(call, 0);
    emit_out(ctx, "%s(", builtin_info[call->builtin].name);
    if (flags && flags->is_const_expr && flags->const_value >= 1 && flags->const_value <= 3) {
        static const char *const names[] = {
            "", "CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE",
            "CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE",
        };
        emit_out(ctx, "%s", names[flags->const_value]);
    } else {
        emit_expr(ctx, flags);
    }
    emit_out(ctx, ")");
}

/* SGC atomic -> OpenCL 1.2 name stem: atomic_<stem> (32-bit, core) or
 * atom_<stem> (64-bit, cl_khr_int64_base/extended_atomics). */
#define OPENCL_ATOMICS(X)                                    \
    X(ATOMIC_FETCH_ADD, "add", INT64_BASE_ATOMICS)           \
    X(ATOMIC_FETCH_SUB, "sub", INT64_BASE_ATOMICS)           \
    X(ATOMIC_FETCH_MIN, "min", INT64_EXT_ATOMICS)            \
    X(ATOMIC_FETCH_MAX, "max", INT64_EXT_ATOMICS)            \
    X(ATOMIC_FETCH_AND, "and", INT64_EXT_ATOMICS)            \
    X(ATOMIC_FETCH_OR, "or", INT64_EXT_ATOMICS)              \
    X(ATOMIC_FETCH_XOR, "xor", INT64_EXT_ATOMICS)            \
    X(ATOMIC_EXCHANGE, "xchg", INT64_BASE_ATOMICS)           \
    X(ATOMIC_COMPARE_EXCHANGE, "cmpxchg", INT64_BASE_ATOMICS)

/* The atomics atomics.cl defines, by their stem there; NULL for the others. */
static const char *library_atomic_stem(Builtin bi, const Type *elem)
{
    bool floating = elem && (elem->kind == TY_FLOAT || elem->kind == TY_DOUBLE);
    switch (bi) {
    case BI_ATOMIC_LOAD: return "load";
    case BI_ATOMIC_STORE: return "store";
    case BI_ATOMIC_FETCH_ADD: return floating ? "add" : NULL;
    case BI_ATOMIC_FETCH_SUB: return floating ? "sub" : NULL;
    case BI_ATOMIC_FETCH_MIN: return floating ? "minimum" : NULL;
    case BI_ATOMIC_FETCH_MAX: return floating ? "maximum" : NULL;
    case BI_ATOMIC_EXCHANGE: return floating ? "exchange" : NULL;
    default: return NULL;
    }
}

/* sgc_atomic_<stem>_<T>_<space>(p [, v]) of atomics.cl. */
static bool print_library_atomic(EmitCtx *ctx, const Node *call, const Type *pty)
{
    const Type *elem = pty && pty->kind == TY_PTR ? emit_canonical(pty->base) : NULL;
    const char *stem = library_atomic_stem((Builtin)call->builtin, elem);
    if (!stem || !elem)
        return false;
    if (elem->kind == TY_DOUBLE)
        emit_use(ctx, USE_INT64_BASE_ATOMICS); /* its loops and exchange use atom_* */
    emit_prelude_piece(ctx, "atomics:blank", "\n");
    emit_prelude_piece(ctx, "atomics", prelude_opencl_atomics);
    emit_out(ctx, "sgc_atomic_%s_%s_%s", stem, opencl_scalar_type(elem->kind),
             pty->base->addr_space == AS_LOCAL ? "local" : "global");
    emit_call_args(ctx, call, true);
    return true;
}

static void opencl_atomic_call(EmitCtx *ctx, const Node *call)
{
    const Node *ptr = emit_call_arg(call, 0);
    const Type *pty = ptr ? emit_canonical(ptr->ty) : NULL;
    if (print_library_atomic(ctx, call, pty))
        return;
    bool wide = pty && pty->kind == TY_PTR && emit_type_is_64bit_int(emit_canonical(pty->base));
    const char *stem = NULL;
    EmitUse ext = USE_INT64_BASE_ATOMICS;
    switch ((Builtin)call->builtin) {
#define X(bi, name, use) case BI_##bi: stem = name; ext = USE_##use; break;
    OPENCL_ATOMICS(X)
#undef X
    default: break;
    }
    if (!stem) {
        emit_error(ctx, call->loc, "internal error: unknown atomic built-in");
        return;
    }
    if (wide) {
        emit_use(ctx, USE_INT64_BASE_ATOMICS);
        emit_use(ctx, ext);
    }
    emit_out(ctx, "%s_%s", wide ? "atom" : "atomic", stem);
    emit_call_args(ctx, call, true);
}

/* OpenCL C has every SGC math built-in under its own name; arguments are
 * converted explicitly so that overload resolution picks sema's choice. */
/* OpenCL's abs of an integer returns the unsigned type of the same width
 * (uint abs(int)); SGC's, like C's, returns the argument's type, so the
 * result is cast back: `abs(x) - 100 < 0` must compare signed. */
static void opencl_math_call(EmitCtx *ctx, const Node *call)
{
    const Type *ty = emit_canonical(call->ty);
    if (call->builtin == BI_ABS && ty && type_kind_is_scalar(ty->kind) && ty->kind != TY_FLOAT &&
        ty->kind != TY_DOUBLE)
        emit_out(ctx, "(%s)", opencl_scalar_type(ty->kind));
    emit_out(ctx, "%s", builtin_info[call->builtin].name);
    emit_call_args(ctx, call, true);
}

/* What a kernel needs that the device may lack stops the device build with
 * #error, keyed on the device compiler's own macros, so that every host
 * (sgrt, PyOpenCL, a raw OpenCL host) gets an error, never wrong results or
 * a hang (docs/LOWERING.md "Refusals in the OpenCL output"):
 *  - sub-groups, on the wg tier;
 *  - non-uniform groups (ballot, tangle, opportunistic) on the khr tier:
 *    their partitions run sub-group operations in divergent control flow,
 *    which OpenCL promises only with cl_khr_subgroup_ballot plus a
 *    non-uniform extension (PoCL 5 has ballot and shuffle without them; its
 *    sub-group operations are work-group barriers there, and a ballot-group
 *    kernel hung).  The same rule as sgrt's (runtime/backends/opencl/opencl.c);
 *    SGC_FORCE_NO_NON_UNIFORM pretends the extensions are absent (tests);
 *  - a reqd_sub_group_size other than 32 on the nvptx tier, whose
 *    sub-groups are always 32-wide warps.
 * A host that defines SGC_SKIP_UNSUPPORTED_KERNELS (sgrt does) gets, in
 * place of the #error, SGC_SKIP_KERNEL_<name>: the kernel, and every
 * function only such kernels call, is left out of the program, so that the
 * module's other kernels still build (opencl_definition_guard). */
static bool wrong_nvptx_size(const Symbol *k)
{
    return k->reqd_sub_group_size > 0 && k->reqd_sub_group_size != 32;
}

/* True when a device build may leave kernel `k` out. */
static bool opencl_may_skip(const Symbol *k)
{
    return k->uses_sub_groups || k->uses_non_uniform_groups || wrong_nvptx_size(k);
}

/* The tier block is printed for sub-groups, the barrier library, and any
 * kernel a tier may refuse. */
static bool opencl_has_tiers(const EmitCtx *ctx)
{
    if (ctx->tu->uses_sub_groups || ctx->uses[USE_TIERS])
        return true;
    for (int i = 0; i < ctx->tu->kernel_count; i++)
        if (opencl_may_skip(ctx->tu->kernels[i]))
            return true;
    return false;
}

/* `condition` is a complete #if line's expression; `message` the #error's. */
static void emit_refusal(EmitBuffer *out, const char *condition, const char *kernel,
                         const char *message)
{
    emit_printf(out, "#if %s\n#ifdef SGC_SKIP_UNSUPPORTED_KERNELS\n#define SGC_SKIP_KERNEL_%s 1\n"
                     "#else\n#error \"%s\"\n#endif\n#endif\n",
                condition, kernel, message);
}

static void opencl_kernel_tier_errors(EmitCtx *ctx, EmitBuffer *out)
{
    char message[512];
    for (int i = 0; i < ctx->tu->kernel_count; i++) {
        const Symbol *k = ctx->tu->kernels[i];
        if (k->uses_sub_groups) {
            snprintf(message, sizeof message, "sgc: kernel '%s' needs sub-groups "
                     "(cl_khr_subgroups), not supported on this device", k->name);
            emit_refusal(out, "defined(SGC_TIER_WG)", k->name, message);
        }
        if (k->uses_non_uniform_groups) {
            snprintf(message, sizeof message, "sgc: kernel '%s' uses non-uniform groups "
                     "(ballot, tangle or opportunistic), which need sub-group operations in "
                     "divergent control flow (cl_khr_subgroup_ballot and "
                     "cl_khr_subgroup_non_uniform_vote or _arithmetic), not supported on this "
                     "device", k->name);
            emit_refusal(out, "defined(SGC_TIER_KHR) && (defined(SGC_FORCE_NO_NON_UNIFORM) || "
                              "!defined(cl_khr_subgroup_ballot) || \\\n"
                              "    (!defined(cl_khr_subgroup_non_uniform_vote) && "
                              "!defined(cl_khr_subgroup_non_uniform_arithmetic)))",
                         k->name, message);
        }
        if (wrong_nvptx_size(k)) {
            snprintf(message, sizeof message, "sgc: kernel '%s' requires sub-group size %d, "
                     "not supported on this device: NVIDIA sub-groups are 32-wide warps",
                     k->name, k->reqd_sub_group_size);
            emit_refusal(out, "defined(SGC_TIER_NVPTX)", k->name, message);
        }
    }
}

/* Whether `from` is `to` or calls it, directly or not (SGC rejects
 * recursion; the depth bound only guards against a cycle). */
static bool opencl_reaches(const Symbol *from, const Symbol *to, int depth)
{
    if (from == to)
        return true;
    if (depth > 64)
        return false;
    for (const CallEdge *e = from->calls; e; e = e->next)
        if (e->callee && opencl_reaches(e->callee, to, depth + 1))
            return true;
    return false;
}

/* A kernel that may be left out is wrapped in #ifndef SGC_SKIP_KERNEL_<name>;
 * a device function, in a condition true unless every kernel that calls it
 * is left out (a function that a kept kernel calls stays; one that no
 * kernel calls is not touched). */
static bool opencl_definition_guard(EmitCtx *ctx, const Symbol *fn)
{
    if (fn->is_kernel) {
        if (!opencl_may_skip(fn))
            return false;
        emit_out(ctx, "#ifndef SGC_SKIP_KERNEL_%s\n", fn->name);
        return true;
    }
    int users = 0;
    for (int i = 0; i < ctx->tu->kernel_count; i++) {
        const Symbol *k = ctx->tu->kernels[i];
        if (!opencl_reaches(k, fn, 0))
            continue;
        if (!opencl_may_skip(k))
            return false;
        users++;
    }
    if (users == 0)
        return false;
    if (users == 1) {
        for (int i = 0; i < ctx->tu->kernel_count; i++)
            if (opencl_reaches(ctx->tu->kernels[i], fn, 0))
                emit_out(ctx, "#ifndef SGC_SKIP_KERNEL_%s\n", ctx->tu->kernels[i]->name);
        return true;
    }
    emit_out(ctx, "#if !(");
    const char *sep = "";
    for (int i = 0; i < ctx->tu->kernel_count; i++) {
        const Symbol *k = ctx->tu->kernels[i];
        if (!opencl_reaches(k, fn, 0))
            continue;
        emit_out(ctx, "%sdefined(SGC_SKIP_KERNEL_%s)", sep, k->name);
        sep = " && ";
    }
    emit_out(ctx, ")\n");
    return true;
}

static void opencl_unit_prelude(EmitCtx *ctx, EmitBuffer *out)
{
    if (ctx->uses[USE_FP64])
        emit_printf(out, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    if (ctx->uses[USE_INT64_BASE_ATOMICS])
        emit_printf(out, "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n");
    if (ctx->uses[USE_INT64_EXT_ATOMICS])
        emit_printf(out, "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n");
    if (opencl_has_tiers(ctx)) {
        emit_printf(out,
            "\n/* Capability tier (docs/LOWERING.md): chosen by the device compiler's macros. */\n"
            "#if defined(SGC_NV_PTX)\n#define SGC_TIER_NVPTX 1\n"
            "#elif (defined(cl_khr_subgroups) || defined(__opencl_c_subgroups) || "
            "defined(cl_intel_subgroups)) && \\\n    !defined(SGC_FORCE_TIER_WG)\n"
            "#define SGC_TIER_KHR 1\n"
            "#else\n#define SGC_TIER_WG 1\n#endif\n");
        opencl_kernel_tier_errors(ctx, out);
    }
    if (ctx->uses[USE_REQD_SUB_GROUP_SIZE])
        emit_printf(out,
            "\n#ifdef cl_intel_required_subgroup_size\n"
            "#define SGC_REQD_SUB_GROUP_SIZE(n) __attribute__((intel_reqd_sub_group_size(n)))\n"
            "#else\n#define SGC_REQD_SUB_GROUP_SIZE(n)\n#endif\n");
}

/* Names OpenCL C reserves or predeclares (docs/LOWERING.md "Reserved names"). */
#define RESERVED(name, scope) {name, RESERVED_##scope},
static const ReservedName opencl_reserved_names[] = {
#include "emit/opencl/reserved_opencl.def"
};
#undef RESERVED

static const EmitReservedTable opencl_reserved = {
    "OpenCL C", opencl_reserved_names, sizeof opencl_reserved_names / sizeof opencl_reserved_names[0]};

const EmitHooks emit_opencl_hooks = {
    .target_name = "OpenCL C",
    .is_cxx = false,
    .has_function_pointers = false,
    .scalar_type = opencl_scalar_type,
    .int_suffix = opencl_int_suffix,
    .addr_space = opencl_addr_space,
    .restrict_kw = "restrict",
    .static_assert_kw = "_Static_assert",
    .reserved = &opencl_reserved,
    .float_special = opencl_float_special,
    .lowering = &emit_opencl_lowering,
    .function_prefix = opencl_function_prefix,
    .definition_guard = opencl_definition_guard,
    .body_prologue = emit_tangle_prologue,
    .extra_params = emit_tangle_extra_params,
    .extra_args = emit_tangle_extra_args,
    .stmt_override = emit_tangle_stmt_override,
    .workitem_call = opencl_workitem_call,
    .sync_call = opencl_sync_call,
    .atomic_call = opencl_atomic_call,
    .math_call = opencl_math_call,
    .group_prologue = emit_opencl_scratch_prologue,
    .group_params = emit_opencl_scratch_params,
    .group_args = emit_opencl_scratch_args,
    .unit_prelude = opencl_unit_prelude,
};

bool emit_opencl_unit(const TranslationUnit *tu, const SourceManager *sources,
                      const EmitOptions *options, Diag *diag, EmitBuffer *out)
{
    return emit_unit_with(&emit_opencl_hooks, tu, sources, options, diag, out, NULL);
}
