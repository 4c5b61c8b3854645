/* program.c — programs: spec-constant binding (docs/RUNTIME.md "Programs and specialization constants"),
 * capability checks, build options, and the cache around the backend's
 * compiler.
 *
 * Binding contract: the emitted source reads the constant with ID N from
 * the macro SGC_SPEC_N, so each constant set on the program becomes one
 * `-DSGC_SPEC_N=<value>` option; unset ones keep the source's default.
 * Values are spelled so that the device compiler reads back exactly the
 * bits that were set: integers in decimal with a suffix for unsigned and
 * 64-bit types, floats in hexadecimal ("%a"), infinities and NaNs as
 * constant divisions (no headers are needed for them). */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgrt_internal.h"

#define OPTIONS_MAX 16384

/* ---- descriptor validation ------------------------------------------ */

#define MODULE_ERROR(m, ...)                                                                  \
    sgrt_fail(SGRT_ERROR_INVALID_MODULE, "module '%s': %s", (m)->name ? (m)->name : "?",       \
              describe(__VA_ARGS__))

/* A descriptor's fault as text (one per thread, as sgrt_last_error). */
static const char *describe(const char *fmt, ...)
{
    static _Thread_local char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return text;
}

static sgrt_status desc_check_params(const sgrt_module_desc *m, const sgrt_kernel_desc *k)
{
    if (k->param_count > SGRT_MODULE_MAX_COUNT)
        return MODULE_ERROR(m, "kernel '%s' has %" PRIu32 " parameters (at most %u)", k->name,
                            k->param_count, SGRT_MODULE_MAX_COUNT);
    if (k->param_count && !k->params)
        return MODULE_ERROR(m, "kernel '%s' has %" PRIu32 " parameters but a NULL params table",
                            k->name, k->param_count);
    for (uint32_t i = 0; i < k->param_count; i++) {
        const sgrt_param_desc *p = &k->params[i];
        if (!p->name)
            return MODULE_ERROR(m, "parameter %" PRIu32 " of kernel '%s' has no name", i,
                                k->name);
        if ((unsigned)p->kind > SGRT_PARAM_SCALAR || (unsigned)p->type >= SGRT_TYPE_COUNT)
            return MODULE_ERROR(m, "parameter '%s' of kernel '%s' has kind %d, type %d (out of "
                                   "range)",
                                p->name, k->name, (int)p->kind, (int)p->type);
    }
    return SGRT_SUCCESS;
}

static sgrt_status desc_check_kernels(const sgrt_module_desc *m)
{
    if (m->kernel_count > SGRT_MODULE_MAX_COUNT)
        return MODULE_ERROR(m, "%" PRIu32 " kernels (at most %u)", m->kernel_count,
                            SGRT_MODULE_MAX_COUNT);
    if (m->kernel_count && !m->kernels)
        return MODULE_ERROR(m, "%" PRIu32 " kernels but a NULL kernels table", m->kernel_count);
    for (uint32_t i = 0; i < m->kernel_count; i++) {
        if (!m->kernels[i].name)
            return MODULE_ERROR(m, "kernel %" PRIu32 " has no name", i);
        sgrt_status status = desc_check_params(m, &m->kernels[i]);
        if (status != SGRT_SUCCESS)
            return status;
    }
    return SGRT_SUCCESS;
}

static sgrt_status desc_check_specs(const sgrt_module_desc *m)
{
    if (m->spec_count > SGRT_MODULE_MAX_COUNT)
        return MODULE_ERROR(m, "%" PRIu32 " specialization constants (at most %u)",
                            m->spec_count, SGRT_MODULE_MAX_COUNT);
    if (m->spec_count && !m->specs)
        return MODULE_ERROR(m, "%" PRIu32 " specialization constants but a NULL specs table",
                            m->spec_count);
    for (uint32_t i = 0; i < m->spec_count; i++) {
        const sgrt_spec_desc *sc = &m->specs[i];
        if (!sc->name)
            return MODULE_ERROR(m, "specialization constant %" PRIu32 " has no name", i);
        if (sc->type <= SGRT_TYPE_NONE || sc->type >= SGRT_TYPE_COUNT)
            return MODULE_ERROR(m, "specialization constant '%s' has type %d (out of range)",
                                sc->name, (int)sc->type);
    }
    return SGRT_SUCCESS;
}

/* Everything later calls read through `module` must be there: a table a
 * count says has entries, every name (messages print them), types and
 * kinds within their enums.  A generated header always passes. */
static sgrt_status desc_check_module(const sgrt_module_desc *m)
{
    if (!m->name)
        return MODULE_ERROR(m, "the module has no name");
    sgrt_status status = desc_check_specs(m);
    return status == SGRT_SUCCESS ? desc_check_kernels(m) : status;
}

sgrt_status sgrt_program_create(sgrt_context *context, const sgrt_module_desc *module,
                                sgrt_program **program)
{
    if (!context || !module || !program)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_program_create: NULL argument");
    if (module->abi != SGRT_MODULE_ABI)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "module '%s' has descriptor ABI %u, this sgrt expects %u; regenerate "
                         "the header with a matching sgcc",
                         module->name ? module->name : "?", module->abi, SGRT_MODULE_ABI);
    sgrt_status valid = desc_check_module(module);
    if (valid != SGRT_SUCCESS)
        return valid;
    sgrt_program *prog = calloc(1, sizeof *prog);
    size_t n = module->spec_count ? module->spec_count : 1;
    if (prog) {
        prog->spec_set = calloc(n, sizeof *prog->spec_set);
        prog->spec_values = calloc(n, sizeof *prog->spec_values);
        prog->log = sgrt_strdup("");
        prog->options = sgrt_strdup("");
    }
    if (!prog || !prog->spec_set || !prog->spec_values || !prog->log || !prog->options) {
        if (prog) {
            free(prog->spec_set);
            free(prog->spec_values);
            free(prog->log);
            free(prog->options);
        }
        free(prog);
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory creating a program");
    }
    prog->context = context;
    prog->module = module;
    pthread_mutex_init(&prog->lock, NULL);
    *program = prog;
    return sgrt_ok();
}

static void free_refused(sgrt_program *prog);

sgrt_status sgrt_program_free(sgrt_program *program)
{
    if (!program)
        return sgrt_ok();
    const SgrtBackend *be = sgrt_backend_of(program->context->device);
    for (sgrt_kernel *k = program->kernels, *next; k; k = next) {
        next = k->next;
        be->kernel_free(k);
        for (uint32_t i = 0; i < k->desc->param_count; i++)
            free(k->args[i].value);
        free(k->args);
        free(k);
    }
    if (program->api_program)
        be->program_free(program);
    pthread_mutex_destroy(&program->lock);
    free_refused(program);
    free(program->spec_set);
    free(program->spec_values);
    free(program->log);
    free(program->options);
    sgrt_owned_module_free(program->owned_module);
    free(program->owned_module);
    free(program);
    return sgrt_ok();
}

static const sgrt_spec_desc *find_spec(const sgrt_program *prog, uint32_t id, size_t *index)
{
    for (size_t i = 0; i < prog->module->spec_count; i++)
        if (prog->module->specs[i].id == id) {
            *index = i;
            return &prog->module->specs[i];
        }
    return NULL;
}

/* Finds the constant and checks the caller's type and size. */
static sgrt_status check_spec(const sgrt_program *prog, uint32_t id, sgrt_type type, size_t size,
                              const void *value, const char *fn, size_t *index)
{
    if (!prog || !value)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "%s: NULL argument", fn);
    const sgrt_spec_desc *spec = find_spec(prog, id, index);
    if (!spec)
        return sgrt_fail(SGRT_ERROR_SPEC_UNKNOWN_ID,
                         "%s: module '%s' has no specialization constant with ID %" PRIu32, fn,
                         prog->module->name, id);
    if (spec->type != type || size != sgrt_type_size(type))
        return sgrt_fail(SGRT_ERROR_SPEC_TYPE_MISMATCH,
                         "%s: specialization constant '%s' (ID %" PRIu32 ") is %s (%zu bytes), "
                         "not %s (%zu bytes)",
                         fn, spec->name, id, sgrt_type_name(spec->type),
                         sgrt_type_size(spec->type), sgrt_type_name(type), size);
    return SGRT_SUCCESS;
}

sgrt_status sgrt_program_set_spec(sgrt_program *program, uint32_t id, sgrt_type type,
                                  const void *value, size_t size)
{
    size_t index = 0;
    sgrt_status status =
        check_spec(program, id, type, size, value, "sgrt_program_set_spec", &index);
    if (status != SGRT_SUCCESS)
        return status;
    if (program->built)
        return sgrt_fail(SGRT_ERROR_SPEC_AFTER_BUILD,
                         "specialization constant '%s' (ID %" PRIu32 ") set after module '%s' "
                         "was built; set it before sgrt_program_build",
                         program->module->specs[index].name, id, program->module->name);
    memcpy(&program->spec_values[index], value, size);
    program->spec_set[index] = true;
    return sgrt_ok();
}

sgrt_status sgrt_program_get_spec(const sgrt_program *program, uint32_t id, sgrt_type type,
                                  void *value, size_t size)
{
    size_t index = 0;
    sgrt_status status =
        check_spec(program, id, type, size, value, "sgrt_program_get_spec", &index);
    if (status != SGRT_SUCCESS)
        return status;
    const sgrt_spec_desc *spec = &program->module->specs[index];
    if (program->spec_set[index])
        memcpy(value, &program->spec_values[index], size);
    else if (!spec->required)
        memcpy(value, &spec->default_value, size);
    else
        return sgrt_fail(SGRT_ERROR_SPEC_REQUIRED_UNSET,
                         "specialization constant '%s' (ID %" PRIu32 ") is required and unset",
                         spec->name, id);
    return sgrt_ok();
}

#define X(NAME, name, ctype, member)                                                        \
    sgrt_status sgrt_program_set_spec_##name(sgrt_program *program, uint32_t id, ctype value) \
    {                                                                                       \
        return sgrt_program_set_spec(program, id, SGRT_TYPE_##NAME, &value, sizeof value);  \
    }
SGRT_TYPES(X)
#undef X

/* Writes a floating value so that it reads back exactly; `suffix` is "f"
 * for float.  Hexadecimal floats are valid OpenCL C and CUDA C. */
static void format_floating(char *buf, size_t cap, double v, const char *suffix)
{
    if (isnan(v))
        snprintf(buf, cap, "(0.0%s/0.0%s)", suffix, suffix);
    else if (isinf(v))
        snprintf(buf, cap, "(%s1.0%s/0.0%s)", v < 0 ? "-" : "", suffix, suffix);
    else
        snprintf(buf, cap, "%a%s", v, suffix);
}

/* Signed 64-bit minimum has no literal: write it as an expression. */
static void format_signed(char *buf, size_t cap, int64_t v, int64_t min, const char *suffix)
{
    if (v == min)
        snprintf(buf, cap, "(%" PRId64 "%s-1)", v + 1, suffix);
    else
        snprintf(buf, cap, "%" PRId64 "%s", v, suffix);
}

static void format_spec_value(char *buf, size_t cap, sgrt_type type, const sgrt_value *v)
{
    switch (type) {
    case SGRT_TYPE_BOOL: snprintf(buf, cap, "%d", v->b ? 1 : 0); break;
    case SGRT_TYPE_CHAR: snprintf(buf, cap, "%d", v->c); break;
    case SGRT_TYPE_UCHAR: snprintf(buf, cap, "%u", v->uc); break;
    case SGRT_TYPE_SHORT: snprintf(buf, cap, "%d", v->s); break;
    case SGRT_TYPE_USHORT: snprintf(buf, cap, "%u", v->us); break;
    case SGRT_TYPE_INT: format_signed(buf, cap, v->i, INT32_MIN, ""); break;
    case SGRT_TYPE_UINT: snprintf(buf, cap, "%" PRIu32 "u", v->ui); break;
    case SGRT_TYPE_LONG: format_signed(buf, cap, v->l, INT64_MIN, "L"); break;
    case SGRT_TYPE_ULONG: snprintf(buf, cap, "%" PRIu64 "UL", v->ul); break;
    case SGRT_TYPE_FLOAT: format_floating(buf, cap, v->f, "f"); break;
    case SGRT_TYPE_DOUBLE: format_floating(buf, cap, v->d, ""); break;
    default: snprintf(buf, cap, "0"); break;
    }
}

/* A malloc'ed message (NULL when out of memory). */
static char *format_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format_message(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (!buf)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(buf, (size_t)len + 1, fmt, ap);
    va_end(ap);
    return buf;
}

/* Why device `in` cannot run kernel `k` (sgrt's words), or NULL; sets
 * *left_out when the backend's source leaves such a kernel out under
 * SGC_SKIP_UNSUPPORTED_KERNELS (SgrtBackend.skips_unsupported_kernels; on
 * OpenCL compiler/emit/opencl/emit_opencl.c: sub-groups on the wg tier,
 * non-uniform groups without the extensions, a sub-group size other than 32
 * on the nvptx tier), so that the rest of the module builds. */
static char *kernel_refusal(const sgrt_kernel_desc *k, const sgrt_device_info *in,
                            const SgrtBackend *be, bool *left_out)
{
    bool skips = be->skips_unsupported_kernels;
    *left_out = skips;
    if (k->needs_sub_groups && !in->sub_groups)
        return format_message("kernel '%s' needs sub-groups (cl_khr_subgroups or "
                           "cl_intel_subgroups), not supported on device '%s'",
                           k->name, in->name);
    if (k->needs_non_uniform_groups && !in->non_uniform_groups)
        return format_message("kernel '%s' uses non-uniform groups (ballot, tangle or "
                           "opportunistic), which need sub-group operations in divergent "
                           "control flow; device '%s' does not offer them (no "
                           "cl_khr_subgroup_non_uniform_vote/arithmetic, or no ballot and "
                           "shuffle)",
                           k->name, in->name);
    *left_out = false;
    if (k->needs_split_barriers && !in->split_barriers)
        return format_message("kernel '%s' needs split barriers (mbarrier, sm_80 or newer), not "
                           "supported on device '%s'",
                           k->name, in->name);
    bool size_ok = k->reqd_sub_group_size == 0 || in->sub_group_size_count == 0;
    for (uint32_t s = 0; !size_ok && s < in->sub_group_size_count; s++)
        size_ok = in->sub_group_sizes[s] == k->reqd_sub_group_size;
    *left_out = skips && in->nvptx;
    if (!size_ok)
        return format_message("kernel '%s' requires sub-group size %" PRIu32
                           ", not supported on device '%s'",
                           k->name, k->reqd_sub_group_size, in->name);
    return NULL;
}

static void free_refused(sgrt_program *prog)
{
    for (uint32_t i = 0; prog->refused && i < prog->module->kernel_count; i++)
        free(prog->refused[i]);
    free(prog->refused);
    prog->refused = NULL;
}

/* Per kernel: one the source leaves out is recorded in prog->refused for
 * sgrt_kernel_get to refuse by name; one it cannot leave out refuses the
 * whole build, as does a module none of whose kernels can run here. */
static sgrt_status check_kernels(sgrt_program *prog)
{
    const sgrt_module_desc *m = prog->module;
    const sgrt_device_info *in = &prog->context->device->info;
    prog->refused = calloc(m->kernel_count ? m->kernel_count : 1, sizeof *prog->refused);
    if (!prog->refused)
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory checking kernels");
    uint32_t runnable = 0, in_source = 0;
    const char *first = NULL;
    for (uint32_t i = 0; i < m->kernel_count; i++) {
        const sgrt_kernel_desc *k = &m->kernels[i];
        if (k->unsupported[in->backend])
            continue;   /* not in this source; sgrt_kernel_get refuses it */
        in_source++;
        bool left_out = false;
        char *why = kernel_refusal(k, in, sgrt_backend_of(prog->context->device), &left_out);
        if (why && !left_out) {
            sgrt_status status = sgrt_fail(SGRT_ERROR_UNSUPPORTED, "%s", why);
            free(why);
            free_refused(prog);
            return status;
        }
        prog->refused[i] = why;
        if (why && !first)
            first = why;
        runnable += why == NULL;
    }
    if (in_source > 0 && runnable == 0) {
        sgrt_status status = sgrt_fail(SGRT_ERROR_UNSUPPORTED, "%s", first);
        free_refused(prog);
        return status;
    }
    return SGRT_SUCCESS;
}

/* Everything is checked before the device compiler runs, so that the user
 * gets sgrt's message rather than an #error from the emitted source. */
static sgrt_status check_buildable(sgrt_program *prog, const char *source)
{
    const sgrt_module_desc *m = prog->module;
    const sgrt_device_info *in = &prog->context->device->info;
    const char *api = sgrt_backend_of(prog->context->device)->name;
    if (!source)
        return sgrt_fail(SGRT_ERROR_UNSUPPORTED, "module '%s' has no %s source", m->name, api);
    for (uint32_t i = 0; i < m->spec_count; i++)
        if (m->specs[i].required && !prog->spec_set[i])
            return sgrt_fail(SGRT_ERROR_SPEC_REQUIRED_UNSET,
                             "specialization constant '%s' (ID %" PRIu32 ") of module '%s' is "
                             "required and has no value; set it before building",
                             m->specs[i].name, m->specs[i].id, m->name);
    if (m->needs_fp64 && !in->fp64)
        return sgrt_fail(SGRT_ERROR_UNSUPPORTED,
                         "module '%s' uses double, but device '%s' has no fp64 (cl_khr_fp64)",
                         m->name, in->name);
    free_refused(prog);
    return check_kernels(prog);
}

static sgrt_status compose_options(sgrt_program *prog, const char *user, char **out)
{
    char *buf = malloc(OPTIONS_MAX);
    if (!buf)
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory composing build options");
    sgrt_backend_of(prog->context->device)->device_options(prog->context->device, buf,
                                                           OPTIONS_MAX);
    size_t len = strlen(buf);
    sgrt_wg_strategy strategy = SGRT_WG_DEFAULT;
    sgrt_program_get_wg_strategy(prog, &strategy);
    len += (size_t)snprintf(buf + len, OPTIONS_MAX - len, "%s" SGRT_OPT_WG_STRATEGY "%d",
                            len ? " " : "", (int)strategy);
    for (uint32_t i = 0; i < prog->module->spec_count && len < OPTIONS_MAX; i++) {
        if (!prog->spec_set[i])
            continue;
        char value[128];
        format_spec_value(value, sizeof value, prog->module->specs[i].type, &prog->spec_values[i]);
        len += (size_t)snprintf(buf + len, OPTIONS_MAX - len, "%s" SGRT_OPT_SPEC "%" PRIu32 "=%s",
                                len ? " " : "", prog->module->specs[i].id, value);
    }
    if (user && *user && len < OPTIONS_MAX)
        len += (size_t)snprintf(buf + len, OPTIONS_MAX - len, "%s%s", len ? " " : "", user);
    if (len >= OPTIONS_MAX) {
        free(buf);
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "build options longer than %d bytes",
                         OPTIONS_MAX);
    }
    *out = buf;
    return SGRT_SUCCESS;
}

static SgrtCacheKey program_key(const sgrt_program *prog, const char *source)
{
    const sgrt_device_info *in = &prog->context->device->info;
    const char *parts[] = {
        "sgrt-cache-2",  sgrt_backend_of(prog->context->device)->name,
        source,          prog->options,
        in->name,        in->vendor,
        in->platform,    in->version,
        in->driver_version,
    };
    return sgrt_cache_key(parts, sizeof parts / sizeof *parts);
}

static void set_log(sgrt_program *prog, char *log)
{
    if (!log)
        return;
    free(prog->log);
    prog->log = log;
}

/* A cached binary that fails to load is treated like a miss. */
static bool try_cache(sgrt_program *prog, const SgrtBackend *be, SgrtCacheKey key)
{
    char *log = NULL;
    unsigned char *binary = NULL;
    size_t size = 0;
    if (!sgrt_cache_load(key, &log, &binary, &size))
        return false;
    bool ok = be->build_binary(prog, binary, size, prog->options) == SGRT_SUCCESS;
    free(binary);
    if (ok)
        set_log(prog, log);
    else
        free(log);
    return ok;
}

/* Some device compilers (NVIDIA's OpenCL) ignore #line and report
 * "<kernel>:LINE:COL:" in physical lines of the source; others already
 * print .sgc locations.  This rewrites the former through the source's own
 * #line directives, so that every log names .sgc files and lines. */
typedef struct LineOrigin {
    const char *file;   /* points into the source; NULL before any #line */
    size_t file_len;
    long line;
} LineOrigin;

static LineOrigin *line_origins(const char *source, size_t *count)
{
    size_t n = 1;
    for (const char *c = source; *c; c++)
        n += *c == '\n';
    LineOrigin *map = calloc(n + 1, sizeof *map);
    if (!map)
        return NULL;
    LineOrigin cur = {NULL, 0, 1};
    const char *p = source;
    for (size_t i = 0; i < n; i++) {
        map[i] = cur;
        const char *q = p + strspn(p, " \t");
        const char *digits = NULL;
        long num = 0;
        char *after = NULL;
        if (*q == '#' && (q += 1 + strspn(q + 1, " \t"), strncmp(q, "line", 4) == 0)) {
            digits = q + 4 + strspn(q + 4, " \t");
            num = strtol(digits, &after, 10);
        }
        /* C17 6.10.4: the line number is at most 2147483647. */
        if (digits && after != digits && isdigit((unsigned char)*digits) && num <= INT_MAX) {
            const char *f = strchr(after, '"'), *e = f ? strchr(f + 1, '"') : NULL;
            const char *eol = strchr(q, '\n');
            if (f && e && (!eol || e < eol))
                cur.file = f + 1, cur.file_len = (size_t)(e - f - 1);
            cur.line = num;
        } else {
            cur.line++;
        }
        const char *nl = strchr(p, '\n');
        if (!nl)
            break;
        p = nl + 1;
    }
    *count = n;
    return map;
}

char *sgrt_map_log(const char *source, const char *log)
{
    size_t nlines = 0, cap = strlen(log) * 2 + 256, len = 0;
    LineOrigin *map = line_origins(source, &nlines);
    char *out = malloc(cap);
    if (!map || !out) {
        free(map);
        free(out);
        return NULL;
    }
    for (const char *p = log; *p;) {
        const char *nl = strchr(p, '\n');
        size_t line_len = nl ? (size_t)(nl - p + 1) : strlen(p);
        const char *close = *p == '<' ? memchr(p, '>', line_len) : NULL;
        long phys = 0;
        int used = 0;
        if (close && sscanf(close + 1, ":%ld:%n", &phys, &used) == 1 && used > 0 && phys >= 1 &&
            (size_t)phys <= nlines && map[phys - 1].file) {
            const LineOrigin *o = &map[phys - 1];
            if (len + o->file_len + 32 + line_len >= cap) {
                char *bigger = realloc(out, cap = cap * 2 + o->file_len + line_len);
                if (!bigger)
                    break;
                out = bigger;
            }
            len += (size_t)snprintf(out + len, cap - len, "%.*s:%ld:", (int)o->file_len, o->file,
                                    o->line);
            size_t skip = (size_t)(close + 1 + used - p);
            memcpy(out + len, p + skip, line_len - skip);
            len += line_len - skip;
        } else {
            if (len + line_len >= cap) {
                char *bigger = realloc(out, cap = cap * 2 + line_len);
                if (!bigger)
                    break;
                out = bigger;
            }
            memcpy(out + len, p, line_len);
            len += line_len;
        }
        p += line_len;
    }
    out[len] = '\0';
    free(map);
    return out;
}

sgrt_status sgrt_program_build(sgrt_program *program, const char *options)
{
    if (!program)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_program_build: program is NULL");
    if (program->built)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "module '%s' is already built",
                         program->module->name);
    const SgrtBackend *be = sgrt_backend_of(program->context->device);
    const char *source = program->module->sources[program->context->device->info.backend];
    sgrt_status status = check_buildable(program, source);
    char *composed = NULL;
    if (status == SGRT_SUCCESS)
        status = compose_options(program, options, &composed);
    if (status != SGRT_SUCCESS)
        return status;
    free(program->options);
    program->options = composed;

    char dir[4096];
    bool use_cache = sgrt_cache_dir(dir, sizeof dir);
    SgrtCacheKey key = program_key(program, source);
    program->cache_hit = use_cache && try_cache(program, be, key);
    if (!program->cache_hit) {
        SgrtBuildResult result = {0};
        status = be->build_source(program, source, program->options, &result);
        if (result.log) {
            char *mapped = sgrt_map_log(source, result.log);
            if (mapped) {
                free(result.log);
                result.log = mapped;
            }
        }
        set_log(program, result.log);
        if (status == SGRT_ERROR_BUILD_FAILED)   /* again, with the mapped log */
            sgrt_set_error("building module '%s' for '%s' failed:\n%s", program->module->name,
                           program->context->device->info.name, program->log);
        if (status == SGRT_SUCCESS && use_cache)
            sgrt_cache_store(key, program->log, result.binary, result.binary_size);
        free(result.binary);
        if (status != SGRT_SUCCESS)
            return status;
    }
    program->built = true;
    return sgrt_ok();
}

/* What each strategy needs, for the refusal message. */
static const char *wg_strategy_needs(const SgrtBackend *be, sgrt_wg_strategy strategy)
{
    if (strategy == SGRT_WG_BUILTIN)
        return be->wg_builtin_needs;
    return "sub-groups (cl_khr_subgroups or cl_intel_subgroups)";
}

sgrt_status sgrt_program_set_wg_strategy(sgrt_program *program, sgrt_wg_strategy strategy)
{
    if (!program)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_program_set_wg_strategy: program is NULL");
    if ((unsigned)strategy >= SGRT_WG_STRATEGY_COUNT)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "unknown work-group strategy %d",
                         (int)strategy);
    if (program->built)
        return sgrt_fail(SGRT_ERROR_SPEC_AFTER_BUILD,
                         "work-group strategy of module '%s' set after the build",
                         program->module->name);
    const sgrt_device_info *in = &program->context->device->info;
    const SgrtBackend *be = sgrt_backend_of(program->context->device);
    if (strategy != SGRT_WG_DEFAULT && !(in->wg_strategies & (1u << strategy))) {
        char version[64] = "";
        if (be->language_level)
            be->language_level(in, version, sizeof version);
        return sgrt_fail(SGRT_ERROR_UNSUPPORTED,
                         "work-group strategy '%s' needs %s, not supported on device '%s'%s",
                         sgrt_wg_strategy_name(strategy), wg_strategy_needs(be, strategy),
                         in->name, version);
    }
    program->wg_strategy = strategy;
    return sgrt_ok();
}

sgrt_status sgrt_program_get_wg_strategy(const sgrt_program *program,
                                         sgrt_wg_strategy *strategy)
{
    if (!program || !strategy)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_program_get_wg_strategy: NULL argument");
    *strategy = program->wg_strategy != SGRT_WG_DEFAULT
                    ? program->wg_strategy
                    : program->context->device->info.wg_strategy;
    return sgrt_ok();
}

sgrt_status sgrt_program_get_build_log(const sgrt_program *program, const char **log)
{
    if (!program || !log)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_program_get_build_log: NULL argument");
    *log = program->log;
    return sgrt_ok();
}

sgrt_status sgrt_program_get_build_options(const sgrt_program *program, const char **options)
{
    if (!program || !options)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_program_get_build_options: NULL argument");
    *options = program->options;
    return sgrt_ok();
}

sgrt_status sgrt_program_get_cache_hit(const sgrt_program *program, bool *hit)
{
    if (!program || !hit)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_program_get_cache_hit: NULL argument");
    *hit = program->cache_hit;
    return sgrt_ok();
}

sgrt_status sgrt_program_get_native(const sgrt_program *program, sgrt_backend api,
                                    void **handle)
{
    if (!program || !handle)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_program_get_native: NULL argument");
    sgrt_backend has = program->context->device->info.backend;
    if (has != api)
        return sgrt_native_mismatch("program", has, api);
    if (!program->built)
        return sgrt_fail(SGRT_ERROR_NOT_BUILT,
                         "module '%s' is not built: it has no native program yet",
                         program->module->name);
    *handle = program->api_program;
    return sgrt_ok();
}

sgrt_status sgrt_program_get_module(const sgrt_program *program, const sgrt_module_desc **module)
{
    if (!program || !module)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_program_get_module: NULL argument");
    *module = program->module;
    return sgrt_ok();
}

sgrt_status sgrt_program_get_spec_id(const sgrt_program *program, const char *name,
                                     uint32_t *id, sgrt_type *type)
{
    if (!program || !name || !id || !type)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "sgrt_program_get_spec_id: NULL argument");
    const sgrt_module_desc *m = program->module;
    for (uint32_t i = 0; i < m->spec_count; i++)
        if (strcmp(m->specs[i].name, name) == 0) {
            *id = m->specs[i].id;
            *type = m->specs[i].type;
            return sgrt_ok();
        }
    return sgrt_fail(SGRT_ERROR_SPEC_UNKNOWN_ID,
                     "module '%s' has no specialization constant named '%s'", m->name, name);
}

sgrt_status sgrt_program_set_spec_by_name(sgrt_program *program, const char *name,
                                          sgrt_type type, const void *value, size_t size)
{
    uint32_t id = 0;
    sgrt_type declared;
    sgrt_status status = sgrt_program_get_spec_id(program, name, &id, &declared);
    return status == SGRT_SUCCESS ? sgrt_program_set_spec(program, id, type, value, size) : status;
}

sgrt_status sgrt_program_get_spec_by_name(const sgrt_program *program, const char *name,
                                          sgrt_type type, void *value, size_t size)
{
    uint32_t id = 0;
    sgrt_type declared;
    sgrt_status status = sgrt_program_get_spec_id(program, name, &id, &declared);
    return status == SGRT_SUCCESS ? sgrt_program_get_spec(program, id, type, value, size) : status;
}
