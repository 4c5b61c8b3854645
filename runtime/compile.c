/* compile.c — programs from SGC text compiled at run time (docs/RUNTIME.md "Compiling SGC at run time"):
 * sgrt_program_create_from_source / _from_file.
 *
 * libsgcc (compiler/driver/sgcc.h, linked into libsgrt) translates the text for
 * the context's backend and writes the module description (JSON); this
 * file turns that description into the sgrt_module_desc a generated header
 * would hold, owned by the program, so that everything after creation
 * (spec constants by ID or name, capability checks, build, binary cache,
 * launches) is the code path of header-made programs.
 *
 * Translations are cached on disk beside the binaries: the key covers the
 * sgcc version, the source name and text, the options and the target; the
 * entry lists every file the preprocessor included with a hash of its
 * contents and every path its include search found empty, and a hit whose
 * included files changed, or where one of those paths is now a file, is a
 * miss. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgcc.h"
#include "sgrt_internal.h"
#include "sgrt_json.h"

struct SgrtOwnedModule {
    SgrtArena arena;          /* every string and table of `desc` */
    sgrt_module_desc desc;
};

void sgrt_owned_module_free(SgrtOwnedModule *module)
{
    if (module)
        sgrt_arena_free(&module->arena);
}

/* ---- options -------------------------------------------------------- */

/* Applies one compiler option; `next` is the following word, consumed
 * (*used = true) by -D NAME, -U NAME and -I DIR. */
static sgrt_status apply_option(sgcc_options *opt, const char *word, const char *next, bool *used)
{
    static const char flags[] = "DUI";
    const char *hit = word[0] == '-' && word[1] ? strchr(flags, word[1]) : NULL;
    if (hit) {
        const char *arg = word[2] ? word + 2 : next;
        *used = !word[2];
        if (!arg)
            return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "SGC option '%s' needs an argument",
                             word);
        sgcc_status st = *hit == 'D'   ? sgcc_options_add_define(opt, arg)
                         : *hit == 'U' ? sgcc_options_add_undefine(opt, arg)
                                       : sgcc_options_add_include_dir(opt, arg);
        return st == SGCC_OK ? SGRT_SUCCESS
                             : sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT, "SGC option '%s %s': %s",
                                         word, word[2] ? "" : arg, sgcc_status_to_string(st));
    }
    if (word[0] == '-' && word[1] == 'W' ? sgcc_options_add_warning_flag(opt, word) == SGCC_OK
                                         : strcmp(word, "-w") == 0 &&
                                               sgcc_options_add_warning_flag(opt, word) == SGCC_OK)
        return SGRT_SUCCESS;
    return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                     "unknown SGC option '%s' (run-time compiles take -D, -U, -I, -W and -w)",
                     word);
}

/* Space-separated options (no quoting) into `opt`. */
static sgrt_status parse_options(sgcc_options *opt, const char *options)
{
    char *copy = sgrt_strdup(options ? options : "");
    if (!copy)
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory reading SGC options");
    sgrt_status status = SGRT_SUCCESS;
    char *save = NULL;
    char *word = strtok_r(copy, " \t\n", &save);
    while (word && status == SGRT_SUCCESS) {
        char *next = strtok_r(NULL, " \t\n", &save);
        bool used = false;
        status = apply_option(opt, word, next, &used);
        word = used ? strtok_r(NULL, " \t\n", &save) : next;
    }
    free(copy);
    return status;
}

/* ---- the translation and its cache ---------------------------------- */

typedef struct Translation {
    char *source;   /* the backend's source text (malloc'ed) */
    char *json;     /* the module description (malloc'ed) */
} Translation;

/* Leaves *t empty: translate() and cached_translation() free a half-made
 * translation, and create_from_text() frees whatever is left again. */
static void translation_free(Translation *t)
{
    free(t->source);
    free(t->json);
    *t = (Translation){0};
}

/* The dependency list of an entry, one line per path:
 *     "HASH PATH"  a file the text #included (the main text is in the key),
 *                  with sgrt_hash_regular_file of its contents;
 *     "absent PATH"  a path the include search looked at and found no file
 *                  at (sgcc_result_get_absent_include): with -Id1 -Id2 and
 *                  mul.h only in d2, a d1/mul.h made later is what the next
 *                  translation includes, so its appearing is a change too.
 * A path holds no newline: the preprocessor's names come from one line. */
static const char absent_tag[] = "absent           "; /* as wide as "HASH " */
enum { TAG_WIDTH = 17 };

static char *dependency_list(const sgcc_result *res)
{
    size_t n = sgcc_result_get_dependency_count(res), cap = 1;
    size_t absent = sgcc_result_get_absent_include_count(res);
    for (size_t i = 1; i < n; i++)
        cap += strlen(sgcc_result_get_dependency(res, i)) + TAG_WIDTH + 1;
    for (size_t i = 0; i < absent; i++)
        cap += strlen(sgcc_result_get_absent_include(res, i)) + TAG_WIDTH + 1;
    char *list = malloc(cap), *o = list;
    if (!list)
        return NULL;
    *o = '\0';
    for (size_t i = 1; i < n; i++) {
        const char *path = sgcc_result_get_dependency(res, i);
        uint64_t h = 0;
        sgrt_hash_regular_file(path, &h); /* unreadable now: the next load misses */
        o += snprintf(o, cap - (size_t)(o - list), "%016" PRIx64 " %s\n", h, path);
    }
    for (size_t i = 0; i < absent; i++)
        o += snprintf(o, cap - (size_t)(o - list), "%s%s\n", absent_tag,
                      sgcc_result_get_absent_include(res, i));
    return list;
}

/* One line of the list (NUL-terminated, without its newline) still holds. */
static bool dependency_holds(const char *line)
{
    const char *path = line + TAG_WIDTH;
    if (strncmp(line, absent_tag, TAG_WIDTH) == 0)
        return !sgrt_is_regular_file(path);
    uint64_t got;
    return sgrt_hash_regular_file(path, &got) && got == strtoull(line, NULL, 16);
}

static bool dependencies_unchanged(char *list)
{
    for (char *line = list, *end; *line; line = end + 1) {
        if (!(end = strchr(line, '\n')) || end - line <= TAG_WIDTH || line[TAG_WIDTH - 1] != ' ')
            return false;
        *end = '\0';
        bool holds = dependency_holds(line);
        *end = '\n';
        if (!holds)
            return false;
    }
    return true;
}

/* Entry: log = dependency list; binary = source NUL json NUL. */
static bool cached_translation(SgrtCacheKey key, Translation *t)
{
    char *deps = NULL;
    unsigned char *payload = NULL;
    size_t size = 0;
    if (!sgrt_cache_load(key, &deps, &payload, &size))
        return false;
    const char *split = memchr(payload, '\0', size);
    bool ok = split && payload[size - 1] == '\0' && dependencies_unchanged(deps);
    if (ok) {
        t->source = sgrt_strdup((const char *)payload);
        t->json = sgrt_strdup(split + 1);
        ok = t->source && t->json;
    }
    free(deps);
    free(payload);
    if (!ok)
        translation_free(t);
    return ok;
}

static void store_translation(SgrtCacheKey key, const sgcc_result *res, const Translation *t)
{
    size_t a = strlen(t->source) + 1, b = strlen(t->json) + 1;
    unsigned char *payload = malloc(a + b);
    char *deps = dependency_list(res);
    if (payload && deps) {
        memcpy(payload, t->source, a);
        memcpy(payload + a, t->json, b);
        sgrt_cache_store(key, deps, payload, a + b);
    }
    free(payload);
    free(deps);
}

/* Runs libsgcc.  Errors in the input: SGRT_ERROR_COMPILE with the caret
 * diagnostics as the message.  sgrt's backends are sgcc's targets (sgrt.h):
 * `be` holds libsgcc's output kind for its source. */
static sgrt_status translate(const sgcc_options *opt, const char *name, const char *text,
                             size_t length, const SgrtBackend *be, SgrtCacheKey key,
                             Translation *t)
{
    sgcc_result *res = NULL;
    sgcc_status st = sgcc_compile_string(opt, name, text, length, &res);
    sgrt_status status = SGRT_SUCCESS;
    if (st == SGCC_ERROR_COMPILE || st == SGCC_ERROR_IO)
        status = sgrt_fail(st == SGCC_ERROR_IO ? SGRT_ERROR_IO : SGRT_ERROR_COMPILE, "%s",
                           sgcc_result_get_diagnostics_text(res));
    else if (st != SGCC_OK)
        status = sgrt_fail(st == SGCC_ERROR_OUT_OF_MEMORY ? SGRT_ERROR_OUT_OF_MEMORY
                                                          : SGRT_ERROR_INVALID_ARGUMENT,
                           "compiling '%s': %s", name, sgcc_status_to_string(st));
    if (status == SGRT_SUCCESS) {
        const char *src = sgcc_result_get_output(res, (sgcc_output)be->sgcc_output, NULL);
        const char *json = sgcc_result_get_output(res, SGCC_OUTPUT_MODULE_JSON, NULL);
        t->source = sgrt_strdup(src ? src : "");
        t->json = sgrt_strdup(json ? json : "");
        if (!t->source || !t->json) {
            translation_free(t);
            status = sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory compiling '%s'", name);
        } else {
            store_translation(key, res, t);
        }
    }
    sgcc_result_destroy(res);
    return status;
}

/* ---- the module description ----------------------------------------- */

static sgrt_type type_named(const char *name)
{
    for (int t = SGRT_TYPE_NONE + 1; name && t < SGRT_TYPE_COUNT; t++)
        if (strcmp(sgrt_type_name((sgrt_type)t), name) == 0)
            return (sgrt_type)t;
    return SGRT_TYPE_NONE;
}

/* The default from its exact C spelling ("0x1.99999ap-4f", "4294967295u",
 * "(-2147483647-1)", "(1.0f/0.0f)"), else the JSON number. */
static sgrt_value spec_default(sgrt_type type, const SgrtJson *spec)
{
    const char *spelling = sgrt_json_string(sgrt_json_get(spec, "default_spelling"));
    const SgrtJson *number = sgrt_json_get(spec, "default");
    double d = number && number->kind == SGRT_JSON_NUMBER ? number->number : 0.0;
    sgrt_value v = {0};
    if (spelling && strchr(spelling, '/'))   /* infinities and NaN */
        d = strstr(spelling, "(0.0") ? NAN : spelling[1] == '-' ? -INFINITY : INFINITY;
    else if (spelling && (type == SGRT_TYPE_FLOAT || type == SGRT_TYPE_DOUBLE))
        d = strtod(spelling, NULL);
    bool has_digits = spelling && spelling[0] != '(';
    long long i = has_digits ? strtoll(spelling, NULL, 0) : (long long)d;
    unsigned long long u = has_digits ? strtoull(spelling, NULL, 0) : (unsigned long long)d;
    switch (type) {
    case SGRT_TYPE_BOOL: v.b = sgrt_json_true(number) || (number && d != 0.0); break;
    case SGRT_TYPE_CHAR: v.c = (int8_t)i; break;
    case SGRT_TYPE_UCHAR: v.uc = (uint8_t)u; break;
    case SGRT_TYPE_SHORT: v.s = (int16_t)i; break;
    case SGRT_TYPE_USHORT: v.us = (uint16_t)u; break;
    case SGRT_TYPE_INT: v.i = has_digits ? (int32_t)i : INT32_MIN; break;
    case SGRT_TYPE_UINT: v.ui = (uint32_t)u; break;
    case SGRT_TYPE_LONG: v.l = has_digits ? (int64_t)i : INT64_MIN; break;
    case SGRT_TYPE_ULONG: v.ul = (uint64_t)u; break;
    case SGRT_TYPE_FLOAT: v.f = spelling ? strtof(spelling, NULL) : (float)d; break;
    case SGRT_TYPE_DOUBLE: v.d = d; break;
    default: break;
    }
    if (type == SGRT_TYPE_FLOAT && spelling && strchr(spelling, '/'))
        v.f = (float)d;
    return v;
}

static bool read_specs(SgrtArena *arena, const SgrtJson *list, sgrt_module_desc *m)
{
    size_t n = list && list->kind == SGRT_JSON_ARRAY ? list->count : 0;
    sgrt_spec_desc *specs = n ? sgrt_arena_alloc(arena, n * sizeof *specs) : NULL;
    if (n && !specs)
        return false;
    for (size_t i = 0; i < n; i++) {
        const SgrtJson *s = &list->items[i];
        const SgrtJson *id = sgrt_json_get(s, "id");
        specs[i].name = sgrt_json_string(sgrt_json_get(s, "name"));
        specs[i].id = id ? (uint32_t)id->number : 0;
        specs[i].type = type_named(sgrt_json_string(sgrt_json_get(s, "type")));
        specs[i].required = sgrt_json_true(sgrt_json_get(s, "required"));
        if (!specs[i].name || specs[i].type == SGRT_TYPE_NONE)
            return false;
        if (!specs[i].required)
            specs[i].default_value = spec_default(specs[i].type, s);
    }
    m->specs = specs;
    m->spec_count = (uint32_t)n;
    return true;
}

static bool read_params(SgrtArena *arena, const SgrtJson *list, sgrt_kernel_desc *k)
{
    static const char *const kinds[] = {"global", "constant", "local", "scalar"};
    size_t n = list && list->kind == SGRT_JSON_ARRAY ? list->count : 0;
    sgrt_param_desc *params = n ? sgrt_arena_alloc(arena, n * sizeof *params) : NULL;
    if (n && !params)
        return false;
    for (size_t i = 0; i < n; i++) {
        const SgrtJson *p = &list->items[i];
        const char *kind = sgrt_json_string(sgrt_json_get(p, "kind"));
        const SgrtJson *size = sgrt_json_get(p, "size");
        size_t j = 0;
        while (j < 4 && (!kind || strcmp(kind, kinds[j]) != 0))
            j++;
        if (j == 4 || !size)
            return false;
        params[i].name = sgrt_json_string(sgrt_json_get(p, "name"));
        params[i].kind = (sgrt_param_kind)j;
        params[i].type = type_named(sgrt_json_string(sgrt_json_get(p, "type")));
        params[i].size = (size_t)size->number;
    }
    k->params = params;
    k->param_count = (uint32_t)n;
    return true;
}

/* A work-group size that depends on a spec constant is 0, as in the
 * generated header: known only at build time. */
static void read_kernel_sizes(const SgrtJson *kernel, sgrt_kernel_desc *k)
{
    const SgrtJson *wg = sgrt_json_get(kernel, "reqd_work_group_size");
    const SgrtJson *sg = sgrt_json_get(kernel, "reqd_sub_group_size");
    bool fixed = wg && wg->kind == SGRT_JSON_ARRAY && wg->count == 3;
    for (size_t d = 0; fixed && d < 3; d++)
        fixed = wg->items[d].kind == SGRT_JSON_NUMBER;
    for (size_t d = 0; fixed && d < 3; d++)
        k->reqd_work_group_size[d] = (uint32_t)wg->items[d].number;
    k->reqd_sub_group_size = sg && sg->kind == SGRT_JSON_NUMBER ? (uint32_t)sg->number : 0;
}

static bool read_kernels(SgrtArena *arena, const SgrtJson *list, sgrt_module_desc *m)
{
    size_t n = list && list->kind == SGRT_JSON_ARRAY ? list->count : 0;
    sgrt_kernel_desc *kernels = n ? sgrt_arena_alloc(arena, n * sizeof *kernels) : NULL;
    if (n && !kernels)
        return false;
    for (size_t i = 0; i < n; i++) {
        const SgrtJson *k = &list->items[i];
        const SgrtJson *req = sgrt_json_get(k, "requires");
        kernels[i].name = sgrt_json_string(sgrt_json_get(k, "name"));
        if (!kernels[i].name || !read_params(arena, sgrt_json_get(k, "params"), &kernels[i]))
            return false;
        read_kernel_sizes(k, &kernels[i]);
        kernels[i].needs_sub_groups = sgrt_json_true(sgrt_json_get(req, "sub_groups"));
        kernels[i].needs_split_barriers = sgrt_json_true(sgrt_json_get(req, "split_barriers"));
        kernels[i].needs_non_uniform_groups =
            sgrt_json_true(sgrt_json_get(req, "non_uniform_groups"));
        for (int b = 0; b < SGRT_BACKEND_COUNT; b++) {
            const SgrtJson *be = sgrt_json_get(sgrt_json_get(k, "backends"),
                                               sgrt_backend_by_id((sgrt_backend)b)->name);
            if (be && !sgrt_json_true(sgrt_json_get(be, "supported"))) {
                const char *why = sgrt_json_string(sgrt_json_get(be, "reason"));
                kernels[i].unsupported[b] = why ? why : "not supported by this backend";
            }
        }
    }
    m->kernels = kernels;
    m->kernel_count = (uint32_t)n;
    return true;
}

/* The descriptor of `t` (whose strings move into the arena). */
static sgrt_status build_module(const Translation *t, sgrt_backend backend, SgrtOwnedModule **out)
{
    SgrtOwnedModule *om = calloc(1, sizeof *om);
    if (!om)
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory describing a module");
    sgrt_module_desc *m = &om->desc;
    const SgrtJson *root = sgrt_json_parse(&om->arena, t->json);
    char *source = sgrt_arena_strdup(&om->arena, t->source);
    bool ok = root && source;
    if (ok) {
        m->abi = SGRT_MODULE_ABI;
        m->name = sgrt_json_string(sgrt_json_get(root, "module"));
        m->source_file = sgrt_json_string(sgrt_json_get(root, "source_file"));
        m->sources[backend] = source;
        m->needs_fp64 = sgrt_json_true(sgrt_json_get(sgrt_json_get(root, "requires"), "fp64"));
        ok = m->name && read_specs(&om->arena, sgrt_json_get(root, "spec_constants"), m) &&
             read_kernels(&om->arena, sgrt_json_get(root, "kernels"), m);
    }
    if (!ok) {
        sgrt_owned_module_free(om);
        free(om);
        return sgrt_fail(SGRT_ERROR_BACKEND,
                         "the module description libsgcc wrote could not be read (a libsgcc "
                         "of another version?)");
    }
    *out = om;
    return SGRT_SUCCESS;
}

/* ---- the public calls ----------------------------------------------- */

static sgrt_status create_from_text(sgrt_context *context, const char *name, const char *text,
                                    size_t length, const char *options, sgrt_program **program)
{
    sgrt_backend backend = context->device->info.backend;
    const SgrtBackend *be = sgrt_backend_of(context->device);
    sgcc_options *opt = sgcc_options_create();
    if (!opt)
        return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory creating SGC options");
    sgrt_status status = parse_options(opt, options);
    /* A string without a name makes module "source". */
    if (status == SGRT_SUCCESS && name[0] == '<' && sgcc_options_set_module_name(opt, "source"))
        status = sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory setting SGC options");
    if (status == SGRT_SUCCESS && (sgcc_options_set_targets(opt, be->sgcc_target) ||
                                   sgcc_options_set_module_json(opt, 1)))
        status = sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory setting SGC options");
    Translation t = {0};
    if (status == SGRT_SUCCESS) {
        char *body = malloc(length + 1);
        if (!body)
            status = sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory copying the source");
        else {
            memcpy(body, text, length);
            body[length] = '\0';
            const char *parts[] = {"sgrt-translation-2", sgcc_version(), be->name, name, body,
                                   options ? options : ""};
            SgrtCacheKey key = sgrt_cache_key(parts, sizeof parts / sizeof *parts);
            if (!cached_translation(key, &t))
                status = translate(opt, name, text, length, be, key, &t);
            free(body);
        }
    }
    sgcc_options_destroy(opt);
    SgrtOwnedModule *om = NULL;
    if (status == SGRT_SUCCESS)
        status = build_module(&t, backend, &om);
    translation_free(&t);
    if (status == SGRT_SUCCESS && (status = sgrt_program_create(context, &om->desc, program)) ==
                                      SGRT_SUCCESS)
        (*program)->owned_module = om;
    else if (om) {
        sgrt_owned_module_free(om);
        free(om);
    }
    return status;
}

sgrt_status sgrt_program_create_from_source(sgrt_context *context, const char *source,
                                            const char *name, const char *options,
                                            sgrt_program **program)
{
    if (!context || !source || !program)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_program_create_from_source: NULL argument");
    return create_from_text(context, name ? name : "<string>", source, strlen(source), options,
                            program);
}

/* The source file, refused unless a regular file of at most
 * SGRT_SOURCE_FILE_MAX bytes (a FIFO would block, /dev/zero never ends). */
static sgrt_status read_source(const char *path, unsigned char **text, size_t *length)
{
    switch (sgrt_read_regular_file(path, SGRT_SOURCE_FILE_MAX, text, length)) {
    case SGRT_READ_OK: return SGRT_SUCCESS;
    case SGRT_READ_CANNOT_OPEN:
        return sgrt_fail(SGRT_ERROR_IO, "cannot open '%s': %s", path, strerror(errno));
    case SGRT_READ_NOT_REGULAR:
        return sgrt_fail(SGRT_ERROR_NOT_REGULAR_FILE,
                         "'%s' is not a regular file (a FIFO, device, directory or socket)",
                         path);
    case SGRT_READ_TOO_LARGE:
        return sgrt_fail(SGRT_ERROR_FILE_TOO_LARGE,
                         "'%s' is larger than %zu MiB, the most sgrt reads as a source", path,
                         SGRT_SOURCE_FILE_MAX >> 20);
    case SGRT_READ_FAILED:
        return sgrt_fail(SGRT_ERROR_IO, "cannot read '%s': %s", path, strerror(errno));
    case SGRT_READ_OUT_OF_MEMORY: break;
    }
    return sgrt_fail(SGRT_ERROR_OUT_OF_MEMORY, "out of memory reading '%s'", path);
}

sgrt_status sgrt_program_create_from_file(sgrt_context *context, const char *path,
                                          const char *options, sgrt_program **program)
{
    if (!context || !path || !program)
        return sgrt_fail(SGRT_ERROR_INVALID_ARGUMENT,
                         "sgrt_program_create_from_file: NULL argument");
    unsigned char *text = NULL;
    size_t length = 0;
    sgrt_status status = read_source(path, &text, &length);
    if (status == SGRT_SUCCESS)
        status = create_from_text(context, path, (const char *)text, length, options, program);
    free(text);
    return status;
}
