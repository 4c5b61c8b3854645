/* emit_header.c — `sgcc --header`: the host header for the sgrt runtime.
 *
 * The header is self-contained C (also valid C++ apart from the C11 type
 * checks, which fall back to plain calls there) and contains, in order:
 *   1. both emitted sources as string literals, one source line per
 *      literal line so that the header stays readable and diffable;
 *   2. the sgrt_module_desc descriptor: spec-constant table, kernel table
 *      with every parameter's kind and element type;
 *   3. `enum { MODULE_SPEC_NAME = id }` and one typed setter per spec
 *      constant, `MODULE_set_name(sgrt_program *, T)`;
 *   4. one typed launcher per kernel, `MODULE_launch_kernel(prog, dims,
 *      params..., sgrt_event **)`: global/constant pointers become
 *      `sgrt_buffer *`, local pointers a `size_t` byte count, scalars their
 *      C type.  In C11 a same-named macro (for setters too) wraps buffer
 *      and scalar arguments in SGRT_EXACT, so a wrong argument type is a
 *      compile error rather than a silent conversion; bool arguments are
 *      not wrapped because `true` has type int in C17.
 * Everything is static (inline), so the header may be included by several
 * translation units; output depends only on the tree, like the emitters. */
#include "module/emit_header.h"
#include "emit/emit_spelling.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A scalar as sgrt sees it: its row of scalars.def (ast/ast.h), an enum
 * as an int; NULL for void and anything not a scalar.  The sgrt columns
 * follow SGRT_TYPES in runtime/sgrt.h. */
static const ScalarType *scalar_info(const Type *ty)
{
    TypeKind kind = ty ? (ty->kind == TY_ENUM ? TY_INT : ty->kind) : TY_VOID;
    return type_kind_is_scalar(kind) && scalar_types[kind].sgrt ? &scalar_types[kind] : NULL;
}

void emit_header_module_name(const char *path, char *buf, size_t cap)
{
    const char *base = path ? strrchr(path, '/') : NULL;
    base = base ? base + 1 : path ? path : "module";
    const char *dot = strrchr(base, '.');
    size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    size_t n = 0;
    if (cap == 0)
        return;
    if (len == 0 || isdigit((unsigned char)base[0]))
        buf[n < cap - 1 ? n++ : n] = '_';
    for (size_t i = 0; i < len && n < cap - 1; i++)
        buf[n++] = isalnum((unsigned char)base[i]) ? base[i] : '_';
    buf[n] = '\0';
}

/* A C string literal (quotes and backslashes escaped). */
static void emit_c_string(EmitBuffer *out, const char *s)
{
    emit_write(out, "\"", 1);
    for (const char *c = s; *c; c++)
        emit_printf(out, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
    emit_write(out, "\"", 1);
}

static void emit_upper(EmitBuffer *out, const char *s)
{
    for (; *s; s++)
        emit_printf(out, "%c", toupper((unsigned char)*s));
}

/* One C string literal per source line; escapes keep it byte-exact
 * (including '?' pairs, which a strict C17 compiler reads as trigraphs). */
static void emit_source_literal(EmitBuffer *out, const char *module, const char *what,
                                const char *src, size_t len)
{
    emit_printf(out, "static const char %s_%s_source[] SGRT_MAYBE_UNUSED =\n", module, what);
    bool line_open = false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)src[i];
        if (!line_open) {
            emit_write(out, "    \"", 5);
            line_open = true;
        }
        if (c == '\n') {
            emit_write(out, "\\n\"\n", 4);
            line_open = false;
        } else if (c == '"' || c == '\\') {
            emit_printf(out, "\\%c", c);
        } else if (c == '?' && i > 0 && src[i - 1] == '?') {
            emit_write(out, "\\?", 2);
        } else if (c == '\t') {
            emit_write(out, "\\t", 2);
        } else if (c < 0x20 || c >= 0x7f) {
            emit_printf(out, "\\%03o", c);
        } else {
            emit_write(out, (const char *)&src[i], 1);
        }
    }
    if (line_open)
        emit_write(out, "\"\n", 2);
    if (len == 0)
        emit_write(out, "    \"\"\n", 7);
    emit_write(out, "    ;\n\n", 7);
}

static void emit_default(EmitBuffer *out, const Symbol *sc, const ScalarType *si)
{
    emit_printf(out, "{.%s = ", si->member);
    if (sc->spec_required) {
        emit_printf(out, "0}");
        return;
    }
    double d = sc->spec_default_float;
    int64_t v = sc->spec_default_int;
    switch (sc->ty->kind) {
    case TY_FLOAT:
    case TY_DOUBLE: {
        char spelling[EMIT_SPELLING_MAX];
        emit_spell_float(spelling, sizeof spelling, d, sc->ty->kind == TY_FLOAT);
        emit_printf(out, "%s", spelling);
        break;
    }
    case TY_BOOL: emit_printf(out, "%s", v ? "true" : "false"); break;
    case TY_ULONG:
    case TY_SIZE_T: emit_printf(out, "%" PRIu64 "ull", (uint64_t)v); break;
    case TY_UINT: emit_printf(out, "%" PRIu32 "u", (uint32_t)v); break;
    case TY_CHAR: case TY_SCHAR: case TY_UCHAR: case TY_SHORT: case TY_USHORT: case TY_INT: case TY_LONG:
    case TY_ENUM:
    case TY_VOID: /* not a spec constant's type (spec_type_ok) */
    CASE_TY_NOT_ARITHMETIC:
        if (v == INT64_MIN)
            emit_printf(out, "(-9223372036854775807ll - 1)");
        else
            emit_printf(out, "%" PRId64 "%s", v, sc->ty->kind == TY_LONG ? "ll" : "");
        break;
    }
    emit_printf(out, "}");
}

static void emit_spec_table(EmitBuffer *out, const TranslationUnit *tu, const char *module)
{
    if (tu->spec_const_count == 0)
        return;
    emit_printf(out, "static const sgrt_spec_desc %s_specs[] = {\n", module);
    for (int i = 0; i < tu->spec_const_count; i++) {
        const Symbol *sc = tu->spec_consts[i];
        const ScalarType *si = scalar_info(sc->ty);
        emit_printf(out, "    {\"%s\", %" PRIu32 ", SGRT_TYPE_%s, %s, ", sc->name, sc->spec_id,
                    si->sgrt, sc->spec_required ? "true" : "false");
        emit_default(out, sc, si);
        emit_printf(out, "},\n");
    }
    emit_printf(out, "};\n\n");
}

/* Parameter kind and element description; false for a type no host can
 * pass (reported by the caller). */
typedef struct ParamShape {
    const char *kind;          /* "GLOBAL", "CONSTANT", "LOCAL", "SCALAR" */
    const ScalarType *scalar;  /* scalar or pointee scalar; NULL: struct */
    int size;                  /* by-value size or element size */
} ParamShape;

static bool param_shape(const Type *ty, ParamShape *shape)
{
    if (ty->kind == TY_PTR) {
        const Type *base = ty->base;
        AddrSpace as = base ? base->addr_space : AS_NONE;
        shape->kind = as == AS_LOCAL ? "LOCAL" : as == AS_CONSTANT ? "CONSTANT" : "GLOBAL";
        shape->scalar = scalar_info(base);
        shape->size = base && base->size > 0 ? base->size : 0;
        return base && (as == AS_GLOBAL || as == AS_LOCAL || as == AS_CONSTANT);
    }
    shape->kind = "SCALAR";
    shape->scalar = scalar_info(ty);
    shape->size = ty->size;
    return shape->scalar || ((ty->kind == TY_STRUCT || ty->kind == TY_UNION) && ty->size > 0);
}

const char *emit_header_scalar_name(const Type *ty)
{
    const ScalarType *si = scalar_info(ty);
    return si ? si->setter : NULL;
}

bool emit_header_param_shape(const Type *ty, EmitParamShape *out)
{
    ParamShape shape;
    bool ok = param_shape(ty, &shape);
    out->kind = shape.kind[0] == 'G'   ? EMIT_PARAM_GLOBAL
                : shape.kind[0] == 'C' ? EMIT_PARAM_CONSTANT
                : shape.kind[0] == 'L' ? EMIT_PARAM_LOCAL
                                       : EMIT_PARAM_SCALAR;
    out->scalar_name = shape.scalar ? shape.scalar->setter : NULL;
    out->size = shape.size;
    out->is_const = ty->kind == TY_PTR ? ty->base && ty->base->is_const : ty->is_const;
    return ok;
}

bool emit_header_check(const TranslationUnit *tu, const char *what, Diag *diag)
{
    for (int i = 0; i < tu->spec_const_count; i++)
        if (!scalar_info(tu->spec_consts[i]->ty)) {
            diag_error(diag, tu->spec_consts[i]->loc,
                       "%s: spec constant '%s' is not a scalar; sgrt cannot bind it", what,
                       tu->spec_consts[i]->name);
            return false;
        }
    for (int k = 0; k < tu->kernel_count; k++) {
        const Symbol *kernel = tu->kernels[k];
        int i = 0;
        for (const Param *p = kernel->ty->params; p; p = p->next, i++) {
            ParamShape shape;
            if (!param_shape(p->ty, &shape)) {
                diag_error(diag, p->loc,
                           "kernel '%s': parameter %d cannot be passed from the host (use a "
                           "global, local or constant pointer, a scalar or a struct)",
                           kernel->name, i + 1);
                return false;
            }
        }
    }
    return true;
}

static int param_count(const Symbol *k)
{
    int n = 0;
    for (const Param *p = k->ty->params; p; p = p->next)
        n++;
    return n;
}

/* Parameters were checked by emit_header_check. */
static void emit_kernel_params(EmitBuffer *out, const Symbol *k, const char *module)
{
    if (!k->ty->params)
        return;
    emit_printf(out, "static const sgrt_param_desc %s_%s_params[] = {\n", module, k->name);
    for (const Param *p = k->ty->params; p; p = p->next) {
        ParamShape shape;
        param_shape(p->ty, &shape);
        emit_printf(out, "    {\"%s\", SGRT_PARAM_%s, SGRT_TYPE_%s, %d},\n",
                    p->name ? p->name : "", shape.kind,
                    shape.scalar ? shape.scalar->sgrt : "NONE", shape.size);
    }
    emit_printf(out, "};\n");
}

static void emit_kernel_table(EmitBuffer *out, const TranslationUnit *tu, const char *module)
{
    if (tu->kernel_count == 0)
        return;
    emit_printf(out, "static const sgrt_kernel_desc %s_kernels[] = {\n", module);
    for (int i = 0; i < tu->kernel_count; i++) {
        const Symbol *k = tu->kernels[i];
        char params[512] = "NULL";
        if (k->ty->params)
            snprintf(params, sizeof params, "%s_%s_params", module, k->name);
        emit_printf(out, "    {\"%s\", %d, %s, {%d, %d, %d}, %d, %s, %s, %s, {", k->name,
                    param_count(k), params, k->reqd_work_group_size[0],
                    k->reqd_work_group_size[1], k->reqd_work_group_size[2],
                    k->reqd_sub_group_size, k->uses_sub_groups ? "true" : "false",
                    k->uses_async_barrier ? "true" : "false",
                    k->uses_non_uniform_groups ? "true" : "false");
        /* unsupported[SGRT_BACKEND_...]: a backend per target, in order */
        for (int t = 0; t < TARGET_COUNT; t++) {
            char why[200];
            if (t > 0)
                emit_printf(out, ", ");
            if (emit_target_unsupported(&emit_targets[t], k, why, sizeof why))
                emit_c_string(out, why);
            else
                emit_printf(out, "NULL");
        }
        emit_printf(out, "}},\n");
    }
    emit_printf(out, "};\n\n");
}

static void emit_descriptor(EmitBuffer *out, const TranslationUnit *tu, const char *module,
                            const EmitBuffer *const code[TARGET_COUNT])
{
    char specs[300] = "NULL", kernels[300] = "NULL";
    if (tu->spec_const_count)
        snprintf(specs, sizeof specs, "%s_specs", module);
    if (tu->kernel_count)
        snprintf(kernels, sizeof kernels, "%s_kernels", module);
    emit_printf(out, "/* Pass &%s_module to sgrt_program_create. */\n", module);
    emit_printf(out, "static const sgrt_module_desc %s_module SGRT_MAYBE_UNUSED = {\n", module);
    emit_printf(out, "    SGRT_MODULE_ABI,\n    \"%s\",\n    ", module);
    emit_c_string(out, tu->main_file ? tu->main_file : "");
    /* sources[SGRT_BACKEND_...]: a backend per target, in order */
    emit_printf(out, ",\n    {");
    for (int t = 0; t < TARGET_COUNT; t++) {
        if (code[t])
            emit_printf(out, "%s%s_%s_source", t ? ", " : "", module, emit_targets[t].name);
        else
            emit_printf(out, "%sNULL", t ? ", " : "");
    }
    emit_printf(out, "},\n    %d, %s,\n    %d, %s,\n    %s,\n};\n\n", tu->spec_const_count, specs,
                tu->kernel_count, kernels, tu->uses_fp64 ? "true" : "false");
}

static void emit_spec_api(EmitBuffer *out, const TranslationUnit *tu, const char *module)
{
    if (tu->spec_const_count == 0)
        return;
    emit_printf(out, "/* Specialization-constant IDs (the N of SGC_SPEC_N). */\nenum {\n");
    for (int i = 0; i < tu->spec_const_count; i++) {
        emit_printf(out, "    ");
        emit_upper(out, module);
        emit_printf(out, "_SPEC_");
        emit_upper(out, tu->spec_consts[i]->name);
        emit_printf(out, " = %" PRIu32 ",\n", tu->spec_consts[i]->spec_id);
    }
    emit_printf(out, "};\n\n");
    for (int i = 0; i < tu->spec_const_count; i++) {
        const Symbol *sc = tu->spec_consts[i];
        const ScalarType *si = scalar_info(sc->ty);
        emit_printf(out,
                    "/* %s %s%s */\n"
                    "static inline sgrt_status %s_set_%s(sgrt_program *program, %s value)\n"
                    "{\n    return sgrt_program_set_spec_%s(program, %" PRIu32 ", value);\n}\n\n",
                    si->setter, sc->name, sc->spec_required ? " (required)" : "", module,
                    sc->name, si->ctype, si->setter, sc->spec_id);
        if (sc->ty->kind != TY_BOOL)   /* `true` has type int in C17 */
            emit_printf(out,
                        "#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && "
                        "!defined(__cplusplus)\n#define %s_set_%s(program, value) "
                        "(%s_set_%s)((program), SGRT_EXACT((value), %s))\n#endif\n\n",
                        module, sc->name, module, sc->name, si->ctype);
    }
}

/* The launcher's C name for parameter i (unnamed ones become argN). */
static void param_name(const Param *p, int i, char *buf, size_t cap)
{
    if (p->name)
        snprintf(buf, cap, "%s", p->name);
    else
        snprintf(buf, cap, "arg%d", i);
}

/* The C parameter list of a launcher (after program, dims). */
static void emit_launcher_params(EmitBuffer *out, const Symbol *k)
{
    int i = 0;
    for (const Param *p = k->ty->params; p; p = p->next, i++) {
        ParamShape shape;
        char name[256];
        param_shape(p->ty, &shape);
        param_name(p, i, name, sizeof name);
        if (shape.kind[0] == 'L')
            emit_printf(out, ",\n    size_t %s_bytes", name);
        else if (shape.kind[0] != 'S')
            emit_printf(out, ",\n    sgrt_buffer *%s", name);
        else if (shape.scalar)
            emit_printf(out, ",\n    %s %s", shape.scalar->ctype, name);
        else   /* struct by value: a pointer to its bytes */
            emit_printf(out, ",\n    const void *%s", name);
    }
}

static void emit_launcher_body(EmitBuffer *out, const Symbol *k)
{
    emit_printf(out, "{\n    sgrt_kernel *kernel = NULL;\n"
                     "    sgrt_status status = sgrt_kernel_get(program, \"%s\", &kernel);\n",
                k->name);
    int i = 0;
    for (const Param *p = k->ty->params; p; p = p->next, i++) {
        ParamShape shape;
        char name[256];
        param_shape(p->ty, &shape);
        param_name(p, i, name, sizeof name);
        emit_printf(out, "    if (status == SGRT_SUCCESS)\n        status = ");
        if (shape.kind[0] == 'L')
            emit_printf(out, "sgrt_kernel_set_arg_local(kernel, %d, %s_bytes);\n", i, name);
        else if (shape.kind[0] != 'S')
            emit_printf(out, "sgrt_kernel_set_arg_buffer(kernel, %d, %s);\n", i, name);
        else if (shape.scalar)
            emit_printf(out, "sgrt_kernel_set_arg_scalar(kernel, %d, SGRT_TYPE_%s, &%s);\n", i,
                        shape.scalar->sgrt, name);
        else
            emit_printf(out, "sgrt_kernel_set_arg(kernel, %d, %d, %s);\n", i, shape.size, name);
    }
    emit_printf(out, "    return status == SGRT_SUCCESS ? sgrt_kernel_launch(kernel, dims, event)"
                     " : status;\n}\n");
}

/* The C11 checking macro: same name, arguments wrapped in SGRT_EXACT. */
static void emit_launcher_macro(EmitBuffer *out, const Symbol *k, const char *module)
{
    emit_printf(out, "#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && "
                     "!defined(__cplusplus)\n#define %s_launch_%s(program, dims",
                module, k->name);
    int n = param_count(k);
    for (int i = 0; i < n; i++)
        emit_printf(out, ", a%d", i);
    emit_printf(out, ", event) \\\n    (%s_launch_%s)((program), (dims)", module, k->name);
    int i = 0;
    for (const Param *p = k->ty->params; p; p = p->next, i++) {
        ParamShape shape;
        param_shape(p->ty, &shape);
        /* bool is left alone: `true` has type int in C17. */
        if (shape.kind[0] == 'S' && shape.scalar && shape.scalar != &scalar_types[TY_BOOL])
            emit_printf(out, ", SGRT_EXACT((a%d), %s)", i, shape.scalar->ctype);
        else if (shape.kind[0] == 'G' || shape.kind[0] == 'C')
            emit_printf(out, ", SGRT_EXACT((a%d), sgrt_buffer *)", i);
        else
            emit_printf(out, ", (a%d)", i);
    }
    emit_printf(out, ", (event))\n#endif\n\n");
}

static void emit_launchers(EmitBuffer *out, const TranslationUnit *tu, const char *module)
{
    for (int i = 0; i < tu->kernel_count; i++) {
        const Symbol *k = tu->kernels[i];
        emit_printf(out, "/* Launches kernel '%s'; buffers for global/constant pointers, byte "
                         "sizes for\n * local pointers.  `event` may be NULL. */\n",
                    k->name);
        emit_printf(out, "static inline sgrt_status %s_launch_%s(\n    sgrt_program *program, "
                         "const sgrt_launch_dims *dims",
                    module, k->name);
        emit_launcher_params(out, k);
        emit_printf(out, ",\n    sgrt_event **event)\n");
        emit_launcher_body(out, k);
        emit_launcher_macro(out, k, module);
    }
}

bool emit_header(const TranslationUnit *tu, const char *module_name,
                 const EmitBuffer *const code[TARGET_COUNT], Diag *diag, EmitBuffer *out)
{
    char module[256];
    if (module_name)
        emit_header_module_name(module_name, module, sizeof module);
    else
        emit_header_module_name(tu->main_file, module, sizeof module);
    if (!emit_header_check(tu, "--header", diag))
        return false;
    emit_printf(out, "/* Generated by sgcc --header from %s: the module '%s' for the sgrt "
                     "runtime.\n * Do not edit; regenerate instead.  See docs/RUNTIME.md. */\n",
                tu->main_file ? tu->main_file : "<input>", module);
    emit_printf(out, "#ifndef SGC_MODULE_");
    emit_upper(out, module);
    emit_printf(out, "_H\n#define SGC_MODULE_");
    emit_upper(out, module);
    emit_printf(out, "_H\n\n#include <sgrt.h>\n\n");
    for (int t = 0; t < TARGET_COUNT; t++)
        if (code[t])
            emit_source_literal(out, module, emit_targets[t].name, code[t]->data, code[t]->len);
    emit_spec_table(out, tu, module);
    for (int i = 0; i < tu->kernel_count; i++)
        emit_kernel_params(out, tu->kernels[i], module);
    if (tu->kernel_count)
        emit_printf(out, "\n");
    emit_kernel_table(out, tu, module);
    emit_descriptor(out, tu, module, code);
    emit_spec_api(out, tu, module);
    emit_launchers(out, tu, module);
    emit_printf(out, "#endif\n");
    return true;
}
