/* emit_json.c — `sgcc --emit-json`: the module description (emit_json.h).
 *
 * One JSON document, pretty-printed with two-space indentation and keys in
 * a fixed order, so that identical input gives byte-identical output.  The
 * facts come from the same places as the host header's: names and types
 * from emit_header (emit_header_param_shape, emit_header_scalar_name),
 * default spellings from emit_spelling, per-backend refusals from each
 * target (emit_target_unsupported).  Every key is always present; a fact that does
 * not apply is null.  docs/module.schema.json is the contract. */
#include "module/emit_json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module/emit_header.h"
#include "emit/emit_spelling.h"
/* The options sgrt passes, spelled once for the runtime and this file. */
#include "../runtime/sgrt_options.h"

/* ---- JSON printing ------------------------------------------------------ */

static void json_string(EmitBuffer *out, const char *s)
{
    if (!s) {
        emit_write(out, "null", 4);
        return;
    }
    emit_write(out, "\"", 1);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            emit_printf(out, "\\%c", *c);
        else if (*c == '\n')
            emit_write(out, "\\n", 2);
        else if (*c == '\t')
            emit_write(out, "\\t", 2);
        else if (*c < 0x20 || *c == 0x7f)
            emit_printf(out, "\\u%04x", *c);
        else
            emit_write(out, (const char *)c, 1);
    }
    emit_write(out, "\"", 1);
}

static void json_bool(EmitBuffer *out, bool value)
{
    emit_printf(out, "%s", value ? "true" : "false");
}

/* `"key": ` at `depth` levels of indentation, after a comma unless first. */
static void json_key(EmitBuffer *out, int depth, bool first, const char *key)
{
    emit_printf(out, "%s\n%*s", first ? "" : ",", depth * 2, "");
    json_string(out, key);
    emit_write(out, ": ", 2);
}

static void json_close(EmitBuffer *out, int depth, char bracket)
{
    emit_printf(out, "\n%*s%c", depth * 2, "", bracket);
}

static void json_string_array(EmitBuffer *out, const char *const *items, int count)
{
    emit_write(out, "[", 1);
    for (int i = 0; i < count; i++) {
        if (i)
            emit_write(out, ", ", 2);
        json_string(out, items[i]);
    }
    emit_write(out, "]", 1);
}

/* ---- spec constants ----------------------------------------------------- */

/* The default as a JSON value: a number or bool, null when required or
 * not finite (default_spelling still has NaN and the infinities). */
static void json_spec_default(EmitBuffer *out, const Symbol *sc)
{
    char number[EMIT_SPELLING_MAX];
    if (sc->spec_required) {
        emit_write(out, "null", 4);
        return;
    }
    switch (sc->ty->kind) {
    case TY_BOOL: json_bool(out, sc->spec_default_int != 0); break;
    case TY_FLOAT:
    case TY_DOUBLE:
        emit_spell_json_number(number, sizeof number,
                               sc->ty->kind == TY_FLOAT ? (double)(float)sc->spec_default_float
                                                        : sc->spec_default_float);
        emit_printf(out, "%s", number);
        break;
    case TY_UINT:
    case TY_ULONG:
    case TY_SIZE_T:
    case TY_UCHAR:
    case TY_USHORT: emit_printf(out, "%" PRIu64, (uint64_t)sc->spec_default_int); break;
    case TY_CHAR: case TY_SCHAR: case TY_SHORT: case TY_INT: case TY_LONG: case TY_ENUM:
    case TY_VOID: /* not a spec constant's type (spec_type_ok) */
    CASE_TY_NOT_ARITHMETIC:
        emit_printf(out, "%" PRId64, sc->spec_default_int);
        break;
    }
}

static void json_spec_const(EmitBuffer *out, const Symbol *sc, int depth)
{
    char macro[32], spelling[EMIT_SPELLING_MAX];
    snprintf(macro, sizeof macro, "SGC_SPEC_%" PRIu32, sc->spec_id);
    emit_spell_spec_default(spelling, sizeof spelling, sc);
    emit_write(out, "{", 1);
    json_key(out, depth + 1, true, "name");
    json_string(out, sc->name);
    json_key(out, depth + 1, false, "id");
    emit_printf(out, "%" PRIu32, sc->spec_id);
    json_key(out, depth + 1, false, "type");
    json_string(out, emit_header_scalar_name(sc->ty));
    json_key(out, depth + 1, false, "macro");
    json_string(out, macro);
    json_key(out, depth + 1, false, "required");
    json_bool(out, sc->spec_required);
    json_key(out, depth + 1, false, "default");
    json_spec_default(out, sc);
    json_key(out, depth + 1, false, "default_spelling");
    json_string(out, sc->spec_required ? NULL : spelling);
    json_close(out, depth, '}');
}

/* ---- kernels ------------------------------------------------------------ */

static const char *const param_kind_names[] = {
    [EMIT_PARAM_GLOBAL] = "global",
    [EMIT_PARAM_CONSTANT] = "constant",
    [EMIT_PARAM_LOCAL] = "local",
    [EMIT_PARAM_SCALAR] = "scalar",
};

static void json_param(EmitBuffer *out, const Param *p, int index, int depth)
{
    EmitParamShape shape;
    char name[32];
    emit_header_param_shape(p->ty, &shape);
    snprintf(name, sizeof name, "arg%d", index);   /* the launcher's name for it */
    emit_write(out, "{", 1);
    json_key(out, depth + 1, true, "name");
    json_string(out, p->name ? p->name : name);
    json_key(out, depth + 1, false, "kind");
    json_string(out, param_kind_names[shape.kind]);
    json_key(out, depth + 1, false, "type");
    json_string(out, shape.scalar_name);
    json_key(out, depth + 1, false, "size");
    emit_printf(out, "%d", shape.size);
    json_key(out, depth + 1, false, "const");
    json_bool(out, shape.is_const);
    json_close(out, depth, '}');
}

/* What a kernel (or, for the module, any kernel) needs of the device: the
 * same facts as sgrt_kernel_desc's needs_* fields plus fp64 and the
 * work-group collectives (which choose the work-group strategy). */
typedef struct Requires {
    bool sub_groups, non_uniform_groups, split_barriers, fp64, work_group_collectives;
} Requires;

/* Whether functions reach a work-group collective through their calls
 * (sema's has_work_group_calls covers a body, not its callees): memoised by
 * Symbol.index, the function's place among the declared ones, so each is
 * visited once however many kernels share it.  SGC has no recursion. */
typedef struct WorkGroupReach {
    signed char *memo;   /* 0 unknown, 1 reaches, -1 does not */
    int count;
} WorkGroupReach;

static bool reaches_work_group_calls(WorkGroupReach *reach, const Symbol *fn)
{
    bool known = fn->index >= 0 && fn->index < reach->count;
    if (known && reach->memo[fn->index])
        return reach->memo[fn->index] > 0;
    bool found = fn->has_work_group_calls;
    for (const CallEdge *e = fn->calls; e && !found; e = e->next)
        found = e->callee && e->callee != fn && reaches_work_group_calls(reach, e->callee);
    if (known)
        reach->memo[fn->index] = found ? 1 : -1;
    return found;
}

static void reach_init(WorkGroupReach *reach, const TranslationUnit *tu)
{
    int max = -1;
    for (int i = 0; i < tu->function_count; i++) {
        max = tu->functions[i]->index > max ? tu->functions[i]->index : max;
        for (const CallEdge *e = tu->functions[i]->calls; e; e = e->next)
            max = e->callee && e->callee->index > max ? e->callee->index : max;
    }
    reach->count = max + 1;
    reach->memo = reach->count ? calloc((size_t)reach->count, 1) : NULL;
    if (!reach->memo)
        reach->count = 0;   /* out of memory: unmemoised, still right */
}

static Requires kernel_requires(const TranslationUnit *tu, WorkGroupReach *reach,
                                const Symbol *k)
{
    return (Requires){
        .sub_groups = k->uses_sub_groups,
        .non_uniform_groups = k->uses_non_uniform_groups,
        .split_barriers = k->uses_async_barrier,
        /* sema records fp64 per unit, not per kernel */
        .fp64 = tu->uses_fp64,
        .work_group_collectives = reaches_work_group_calls(reach, k),
    };
}

static void json_requires(EmitBuffer *out, const Requires *r, int depth)
{
    emit_write(out, "{", 1);
    json_key(out, depth + 1, true, "sub_groups");
    json_bool(out, r->sub_groups);
    json_key(out, depth + 1, false, "non_uniform_groups");
    json_bool(out, r->non_uniform_groups);
    json_key(out, depth + 1, false, "split_barriers");
    json_bool(out, r->split_barriers);
    json_key(out, depth + 1, false, "fp64");
    json_bool(out, r->fp64);
    json_key(out, depth + 1, false, "work_group_collectives");
    json_bool(out, r->work_group_collectives);
    json_close(out, depth, '}');
}

static void json_backend_support(EmitBuffer *out, const char *reason, int depth)
{
    emit_write(out, "{", 1);
    json_key(out, depth + 1, true, "supported");
    json_bool(out, reason == NULL);
    json_key(out, depth + 1, false, "reason");
    json_string(out, reason);
    json_close(out, depth, '}');
}

/* [x, y, z]; a dimension given by a spec constant (docs/REFERENCE.md "Specialization constants") is known
 * only when the program is built: {"spec_constant": name, "id": N}, with
 * nulls when it is an expression of spec constants. */
static void json_work_group_size(EmitBuffer *out, const Symbol *k)
{
    const int *wg = k->reqd_work_group_size;
    bool present = wg[0] > 0;
    for (int d = 0; d < 3; d++)
        present |= k->reqd_work_group_size_expr[d] != NULL;
    if (!present) {
        emit_write(out, "null", 4);
        return;
    }
    emit_write(out, "[", 1);
    for (int d = 0; d < 3; d++) {
        const Symbol *spec = k->reqd_work_group_size_spec[d];
        if (d)
            emit_write(out, ", ", 2);
        if (!k->reqd_work_group_size_expr[d]) {
            emit_printf(out, "%d", wg[d] > 0 ? wg[d] : 1);
            continue;
        }
        emit_write(out, "{\"spec_constant\": ", 18);
        json_string(out, spec ? spec->name : NULL);
        if (spec)
            emit_printf(out, ", \"id\": %" PRIu32 "}", spec->spec_id);
        else
            emit_write(out, ", \"id\": null}", 13);
    }
    emit_write(out, "]", 1);
}

static void json_kernel(EmitBuffer *out, const Symbol *k, const Requires *r, int depth)
{
    emit_write(out, "{", 1);
    json_key(out, depth + 1, true, "name");
    json_string(out, k->name);
    json_key(out, depth + 1, false, "params");
    emit_write(out, "[", 1);
    int i = 0;
    for (const Param *p = k->ty->params; p; p = p->next, i++) {
        emit_printf(out, "%s\n%*s", i ? "," : "", (depth + 2) * 2, "");
        json_param(out, p, i, depth + 2);
    }
    if (i)
        json_close(out, depth + 1, ']');
    else
        emit_write(out, "]", 1);
    json_key(out, depth + 1, false, "reqd_work_group_size");
    json_work_group_size(out, k);
    json_key(out, depth + 1, false, "reqd_sub_group_size");
    if (k->reqd_sub_group_size > 0)
        emit_printf(out, "%d", k->reqd_sub_group_size);
    else
        emit_write(out, "null", 4);
    json_key(out, depth + 1, false, "requires");
    json_requires(out, r, depth + 1);
    json_key(out, depth + 1, false, "backends");
    emit_write(out, "{", 1);
    for (int t = 0; t < TARGET_COUNT; t++) {
        char why[200];
        json_key(out, depth + 2, t == 0, emit_targets[t].name);
        json_backend_support(out, emit_target_unsupported(&emit_targets[t], k, why, sizeof why) ? why : NULL,
                             depth + 2);
    }
    json_close(out, depth + 1, '}');
    json_close(out, depth, '}');
}

/* ---- backends ----------------------------------------------------------- */

/* The options sgrt passes when it builds a module (runtime/sgrt_options.h
 * spells them; runtime/backends/opencl/opencl.c cl_device_options, runtime/backends/cuda/cuda.c
 * cu_device_options and runtime/program.c compose_options decide when):
 * those every device gets, those of each OpenCL tier, and those that
 * depend on the device, with the condition in words.  A host that builds
 * the emitted source itself passes the same. */
typedef struct ConditionalOption {
    const char *option, *when;
} ConditionalOption;

static const ConditionalOption opencl_conditional[] = {
    {SGRT_OPT_CL_STD_3, "the device's OpenCL C version is 3.x"},
    {SGRT_OPT_CL_STD_2, "the device's OpenCL C version is 2.x"},
    {SGRT_OPT_NV_SM "<major><minor>", "nvptx tier: the device's compute capability, e.g. 90"},
    {SGRT_OPT_SKIP_UNSUPPORTED,
     "sgrt always: a kernel the device cannot run is left out of the program (with the "
     "functions only such kernels call) and refused by name, instead of an #error that "
     "stops the whole build"},
    {SGRT_OPT_DEVICE_CPU, "a CPU device (chooses the work-group strategy)"},
    {SGRT_OPT_WG_MAX_ITEMS "<n>",
     "the device's CL_DEVICE_MAX_WORK_GROUP_SIZE (sizes the work-group collectives' scratch; "
     "without it 8192 on a CPU device, 1024 elsewhere)"},
    {SGRT_OPT_WG_STRATEGY "<n>",
     "optional: 1 tree, 2 builtin, 3 subgroup work-group collectives; unset or 0 lets the "
     "source pick the device's best"},
    {SGRT_OPT_SPEC "<id>=<value>", "binds a spec constant (value spelled as default_spelling)"},
};

static const ConditionalOption cuda_conditional[] = {
    {SGRT_OPT_CUDA_ARCH "<major><minor>", "always (NVRTC): the device's compute capability"},
    {SGRT_OPT_WG_STRATEGY "<n>", "optional, as for OpenCL"},
    {SGRT_OPT_SPEC "<id>=<value>", "binds a spec constant (value spelled as default_spelling)"},
};

static void json_conditional(EmitBuffer *out, const ConditionalOption *opts, int count,
                             int depth)
{
    emit_write(out, "[", 1);
    for (int i = 0; i < count; i++) {
        emit_printf(out, "%s\n%*s{", i ? "," : "", (depth + 1) * 2, "");
        json_key(out, depth + 2, true, "option");
        json_string(out, opts[i].option);
        json_key(out, depth + 2, false, "when");
        json_string(out, opts[i].when);
        json_close(out, depth + 1, '}');
    }
    json_close(out, depth, ']');
}

/* The fields every backend object starts with: language, extension and
 * the options every device gets (none today). */
static void json_backend_common(EmitBuffer *out, int depth, const char *language,
                                const char *extension)
{
    json_key(out, depth, true, "language");
    json_string(out, language);
    json_key(out, depth, false, "extension");
    json_string(out, extension);
    json_key(out, depth, false, "build_options");
    json_string_array(out, NULL, 0);
}

/* A backend object's last field, its device-dependent options, and its end. */
static void json_backend_close(EmitBuffer *out, int depth, const ConditionalOption *conditional,
                               int count)
{
    json_key(out, depth + 1, false, "conditional_options");
    json_conditional(out, conditional, count, depth + 1);
    json_close(out, depth, '}');
}

static void json_backends(EmitBuffer *out, int depth)
{
    static const char *const nvptx[] = {SGRT_OPT_NV_PTX};
    emit_write(out, "{", 1);
    json_key(out, depth + 1, true, "opencl");
    emit_write(out, "{", 1);
    json_backend_common(out, depth + 2, "OpenCL C", ".cl");
    json_key(out, depth + 2, false, "tiers");
    emit_write(out, "{", 1);
    json_key(out, depth + 3, true, "khr");
    json_string_array(out, NULL, 0);
    json_key(out, depth + 3, false, "nvptx");
    json_string_array(out, nvptx, 1);
    json_key(out, depth + 3, false, "wg");
    json_string_array(out, NULL, 0);
    json_close(out, depth + 2, '}');
    json_backend_close(out, depth + 1, opencl_conditional,
                       (int)(sizeof opencl_conditional / sizeof *opencl_conditional));
    json_key(out, depth + 1, false, "cuda");
    emit_write(out, "{", 1);
    json_backend_common(out, depth + 2, "CUDA C++", ".cu");
    json_backend_close(out, depth + 1, cuda_conditional,
                       (int)(sizeof cuda_conditional / sizeof *cuda_conditional));
    json_close(out, depth, '}');
}

/* ---- the document ------------------------------------------------------- */

static void json_spec_consts(EmitBuffer *out, const TranslationUnit *tu, int depth)
{
    emit_write(out, "[", 1);
    for (int i = 0; i < tu->spec_const_count; i++) {
        emit_printf(out, "%s\n%*s", i ? "," : "", (depth + 1) * 2, "");
        json_spec_const(out, tu->spec_consts[i], depth + 1);
    }
    if (tu->spec_const_count)
        json_close(out, depth, ']');
    else
        emit_write(out, "]", 1);
}

static void json_kernels(EmitBuffer *out, const TranslationUnit *tu, int depth, Requires *all)
{
    WorkGroupReach reach;
    reach_init(&reach, tu);
    emit_write(out, "[", 1);
    for (int i = 0; i < tu->kernel_count; i++) {
        const Symbol *k = tu->kernels[i];
        Requires r = kernel_requires(tu, &reach, k);
        all->sub_groups |= r.sub_groups;
        all->non_uniform_groups |= r.non_uniform_groups;
        all->split_barriers |= r.split_barriers;
        all->work_group_collectives |= r.work_group_collectives;
        emit_printf(out, "%s\n%*s", i ? "," : "", (depth + 1) * 2, "");
        json_kernel(out, k, &r, depth + 1);
    }
    free(reach.memo);
    if (tu->kernel_count)
        json_close(out, depth, ']');
    else
        emit_write(out, "]", 1);
}

bool emit_module_json(const TranslationUnit *tu, const char *module_name,
                      const char *sgcc_version, const char *const *absent_includes,
                      int absent_count, Diag *diag, EmitBuffer *out)
{
    if (!emit_header_check(tu, "--emit-json", diag))
        return false;
    char module[256];
    emit_header_module_name(module_name ? module_name : tu->main_file, module, sizeof module);
    const char *file = tu->main_file;
    if (!file || strcmp(file, "-") == 0)
        file = "<stdin>";
    emit_write(out, "{", 1);
    json_key(out, 1, true, "format");
    json_string(out, "sgcc-module");
    json_key(out, 1, false, "format_version");
    emit_printf(out, "%d", EMIT_JSON_FORMAT_VERSION);
    json_key(out, 1, false, "sgcc_version");
    json_string(out, sgcc_version);
    json_key(out, 1, false, "module");
    json_string(out, module);
    json_key(out, 1, false, "source_file");
    json_string(out, file);
    json_key(out, 1, false, "absent_includes");
    json_string_array(out, absent_includes, absent_count);
    json_key(out, 1, false, "spec_constants");
    json_spec_consts(out, tu, 1);
    json_key(out, 1, false, "kernels");
    Requires all = {.fp64 = tu->uses_fp64};
    json_kernels(out, tu, 1, &all);
    json_key(out, 1, false, "requires");
    json_requires(out, &all, 1);
    json_key(out, 1, false, "backends");
    json_backends(out, 1);
    json_close(out, 0, '}');
    emit_write(out, "\n", 1);
    return true;
}
