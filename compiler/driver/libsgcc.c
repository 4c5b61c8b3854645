/* libsgcc.c — the compiler as a library (sgcc.h): options, one compilation
 * from text to every output in memory, and the result object.
 *
 * A compilation is the pipeline of docs/DESIGN.md over state that lives on
 * this call's stack and heap only (source manager, arenas, preprocessor,
 * tree): load, preprocess, parse, sema, emit each requested output, then
 * the result keeps copies of the outputs, the diagnostics and the
 * dependency list, and everything else is freed.  Diagnostics reach the
 * result through the Diag sink (diag.h) as records; each one's text form is
 * rendered at once with the same printer the command uses, so the text a
 * library user sees is what `sgcc --color=never` prints.
 *
 * Memory: the library's own allocations are checked and become
 * SGCC_ERROR_OUT_OF_MEMORY; so do failures of the compiler's big
 * allocators (arenas, emit buffers, source files), which unwind here
 * through mem_out_of_memory (a longjmp to this call's handler). */
#include "driver/sgcc.h"
#include "base/mem.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module/emit_header.h"
#include "module/emit_json.h"
#include "driver/libsgcc_internal.h"
#include "parse/parse.h"
#include "pp/preprocess.h"
#include "sema/sema.h"

#ifndef SGCC_VERSION
#define SGCC_VERSION "0.1.0"
#endif

/* ---- options ------------------------------------------------------------ */

typedef struct StringList {
    char **items;
    bool *flags; /* per item: for the macro list, "is a -U" */
    int count, capacity;
} StringList;

struct sgcc_options {
    StringList macros;       /* -D and -U in order (flags marks -U) */
    StringList include_dirs; /* -I */
    unsigned targets;        /* sgcc_target mask */
    bool header, module_json, preprocess_only;
    char *module_name;       /* NULL: from the source name */
    unsigned max_errors;     /* -fmax-errors (0: no limit) */
    bool werror, no_warnings;
    bool warning_enabled[WARN_COUNT];
    signed char warning_error[WARN_COUNT];
    SgccHooks hooks;
};

static sgcc_status list_add(StringList *list, const char *text, bool flag)
{
    if (list->count == list->capacity) {
        int capacity = list->capacity ? list->capacity * 2 : 8;
        char **items = realloc(list->items, sizeof *items * (size_t)capacity);
        if (!items)
            return SGCC_ERROR_OUT_OF_MEMORY;
        list->items = items;
        bool *flags = realloc(list->flags, sizeof *flags * (size_t)capacity);
        if (!flags)
            return SGCC_ERROR_OUT_OF_MEMORY;
        list->flags = flags;
        list->capacity = capacity;
    }
    char *copy = strdup(text);
    if (!copy)
        return SGCC_ERROR_OUT_OF_MEMORY;
    list->flags[list->count] = flag;
    list->items[list->count++] = copy;
    return SGCC_OK;
}

static void list_free(StringList *list)
{
    for (int i = 0; i < list->count; i++)
        free(list->items[i]);
    free(list->items);
    free(list->flags);
}

sgcc_options *sgcc_options_create(void)
{
    sgcc_options *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->targets = SGCC_TARGET_ALL;
    o->max_errors = SGCC_DEFAULT_MAX_ERRORS;
    for (int w = 1; w < WARN_COUNT; w++)
        o->warning_enabled[w] = diag_warnings[w].default_on;
    return o;
}

void sgcc_options_destroy(sgcc_options *o)
{
    if (!o)
        return;
    list_free(&o->macros);
    list_free(&o->include_dirs);
    free(o->module_name);
    free(o);
}

sgcc_status sgcc_options_add_define(sgcc_options *o, const char *definition)
{
    if (!o || !definition || !*definition || *definition == '=')
        return SGCC_ERROR_INVALID_ARGUMENT;
    return list_add(&o->macros, definition, false);
}

sgcc_status sgcc_options_add_undefine(sgcc_options *o, const char *name)
{
    if (!o || !name || !*name)
        return SGCC_ERROR_INVALID_ARGUMENT;
    return list_add(&o->macros, name, true);
}

sgcc_status sgcc_options_add_include_dir(sgcc_options *o, const char *dir)
{
    if (!o || !dir || !*dir)
        return SGCC_ERROR_INVALID_ARGUMENT;
    return list_add(&o->include_dirs, dir, false);
}

sgcc_status sgcc_options_set_targets(sgcc_options *o, unsigned targets)
{
    if (!o || targets == 0 || (targets & ~(unsigned)SGCC_TARGET_ALL))
        return SGCC_ERROR_INVALID_ARGUMENT;
    o->targets = targets;
    return SGCC_OK;
}

#define DEFINE_FLAG_SETTER(fn, field)                  \
    sgcc_status fn(sgcc_options *o, int enabled)       \
    {                                                  \
        if (!o)                                        \
            return SGCC_ERROR_INVALID_ARGUMENT;        \
        o->field = enabled != 0;                       \
        return SGCC_OK;                                \
    }
DEFINE_FLAG_SETTER(sgcc_options_set_header, header)
DEFINE_FLAG_SETTER(sgcc_options_set_module_json, module_json)
DEFINE_FLAG_SETTER(sgcc_options_set_preprocess_only, preprocess_only)

sgcc_status sgcc_options_set_module_name(sgcc_options *o, const char *name)
{
    if (!o)
        return SGCC_ERROR_INVALID_ARGUMENT;
    char *copy = NULL;
    if (name && !(copy = strdup(name)))
        return SGCC_ERROR_OUT_OF_MEMORY;
    free(o->module_name);
    o->module_name = copy;
    return SGCC_OK;
}

sgcc_status sgcc_options_set_max_errors(sgcc_options *o, unsigned max_errors)
{
    if (!o)
        return SGCC_ERROR_INVALID_ARGUMENT;
    o->max_errors = max_errors;
    return SGCC_OK;
}

/* The GCC forms: -w, -Werror, -Wall, -Wextra, -W[no-][error=]name. */
sgcc_status sgcc_options_add_warning_flag(sgcc_options *o, const char *flag)
{
    if (!o || !flag || strncmp(flag, "-W", 2) != 0) {
        if (o && flag && strcmp(flag, "-w") == 0) {
            o->no_warnings = true;
            return SGCC_OK;
        }
        return SGCC_ERROR_INVALID_ARGUMENT;
    }
    const char *name = flag + 2;
    bool negate = strncmp(name, "no-", 3) == 0;
    name += negate ? 3 : 0;
    if (strcmp(name, "error") == 0) {
        o->werror = !negate;
        return SGCC_OK;
    }
    bool error_form = strncmp(name, "error=", 6) == 0;
    name += error_form ? 6 : 0;
    if (!error_form && (strcmp(name, "all") == 0 || strcmp(name, "extra") == 0)) {
        /* Every sgcc warning is on by default: -Wall/-Wextra add nothing,
         * and -Wno-all/-Wno-extra turn off nothing, as in GCC where no
         * default warning belongs to them. */
        return SGCC_OK;
    }
    DiagWarning w = diag_warning_find(name);
    if (w == WARN_NONE)
        return negate ? SGCC_OK : SGCC_ERROR_INVALID_ARGUMENT;
    if (error_form) {
        o->warning_error[w] = negate ? -1 : 1;
        if (!negate)
            o->warning_enabled[w] = true; /* GCC: -Werror=name implies -Wname */
    } else {
        o->warning_enabled[w] = !negate;
    }
    return SGCC_OK;
}

void sgcc_options_set_hooks(sgcc_options *o, const SgccHooks *hooks)
{
    if (o)
        o->hooks = hooks ? *hooks : (SgccHooks){0};
}

/* ---- the result --------------------------------------------------------- */

typedef struct Text {
    char *data;
    size_t len;
} Text;

struct sgcc_result {
    sgcc_status status;
    bool has[SGCC_OUTPUT_COUNT];
    Text output[SGCC_OUTPUT_COUNT];
    sgcc_diagnostic *diagnostics;
    size_t diagnostic_count, diagnostic_capacity;
    char *diagnostics_text;  /* all texts, built on first request */
    unsigned error_count, warning_count;
    char **dependencies;
    size_t dependency_count;
    char **absent_includes;  /* pp_absent_includes */
    size_t absent_include_count;
    bool stats_valid[TARGET_COUNT];
    EmitStats stats[TARGET_COUNT];
    bool out_of_memory;      /* a copy into the result failed */
};

static void diagnostic_free(sgcc_diagnostic *d)
{
    free((char *)d->file);
    free((char *)d->message);
    free((char *)d->option);
    free((char *)d->source_line);
    free((char *)d->text);
}

void sgcc_result_destroy(sgcc_result *r)
{
    if (!r)
        return;
    for (int i = 0; i < SGCC_OUTPUT_COUNT; i++)
        free(r->output[i].data);
    for (size_t i = 0; i < r->diagnostic_count; i++)
        diagnostic_free(&r->diagnostics[i]);
    free(r->diagnostics);
    free(r->diagnostics_text);
    for (size_t i = 0; i < r->dependency_count; i++)
        free(r->dependencies[i]);
    free(r->dependencies);
    for (size_t i = 0; i < r->absent_include_count; i++)
        free(r->absent_includes[i]);
    free(r->absent_includes);
    free(r);
}

/* The text form of one record: what `sgcc --color=never` prints for it. */
static char *render_text(const DiagRecord *record)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return NULL;
    Diag printer;
    diag_init(&printer, NULL, out);
    diag_print(&printer, record);
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* A copy of len bytes (NUL bytes included) plus a terminating NUL. */
static char *dup_or_null(const char *s, size_t len, bool *failed)
{
    if (!s)
        return NULL;
    char *copy = malloc(len + 1);
    if (copy) {
        memcpy(copy, s, len);
        copy[len] = '\0';
    }
    *failed |= !copy;
    return copy;
}

/* Diag sink: keeps a copy of every record. */
static void keep_record(void *ctx, const DiagRecord *record)
{
    sgcc_result *r = ctx;
    if (r->diagnostic_count == r->diagnostic_capacity) {
        size_t capacity = r->diagnostic_capacity ? r->diagnostic_capacity * 2 : 16;
        sgcc_diagnostic *grown = realloc(r->diagnostics, sizeof *grown * capacity);
        if (!grown) {
            r->out_of_memory = true;
            return;
        }
        r->diagnostics = grown;
        r->diagnostic_capacity = capacity;
    }
    char option[64];
    bool failed = false;
    sgcc_diagnostic d = {
        .severity = (sgcc_severity)record->level,
        .line = record->line,
        .column = record->column,
        .file = dup_or_null(record->file, strlen(record->file), &failed),
        .message = dup_or_null(record->message, strlen(record->message), &failed),
        .source_line = dup_or_null(record->source_line, record->source_line_len, &failed),
        .source_line_length = record->source_line ? record->source_line_len : 0,
        .text = render_text(record),
    };
    diag_option_text(record, option, sizeof option);
    if (*option)
        d.option = dup_or_null(option, strlen(option), &failed);
    if (failed || !d.text) {
        diagnostic_free(&d);
        r->out_of_memory = true;
        return;
    }
    r->diagnostics[r->diagnostic_count++] = d;
}

sgcc_status sgcc_result_get_status(const sgcc_result *r)
{
    return r ? r->status : SGCC_ERROR_INVALID_ARGUMENT;
}

const char *sgcc_result_get_output(const sgcc_result *r, sgcc_output output, size_t *length)
{
    bool present = r && (unsigned)output < SGCC_OUTPUT_COUNT && r->has[output];
    if (length)
        *length = present ? r->output[output].len : 0;
    return present ? r->output[output].data : NULL;
}

size_t sgcc_result_get_diagnostic_count(const sgcc_result *r)
{
    return r ? r->diagnostic_count : 0;
}

const sgcc_diagnostic *sgcc_result_get_diagnostic(const sgcc_result *r, size_t index)
{
    return r && index < r->diagnostic_count ? &r->diagnostics[index] : NULL;
}

const char *sgcc_result_get_diagnostics_text(const sgcc_result *r)
{
    if (!r)
        return "";
    if (!r->diagnostics_text) {
        size_t len = 0;
        for (size_t i = 0; i < r->diagnostic_count; i++)
            len += strlen(r->diagnostics[i].text);
        char *text = malloc(len + 1);
        if (!text)
            return "";
        text[0] = '\0';
        for (size_t i = 0, at = 0; i < r->diagnostic_count; i++) {
            size_t n = strlen(r->diagnostics[i].text);
            memcpy(text + at, r->diagnostics[i].text, n + 1);
            at += n;
        }
        ((sgcc_result *)r)->diagnostics_text = text; /* a cache: logically const */
    }
    return r->diagnostics_text;
}

unsigned sgcc_result_get_error_count(const sgcc_result *r)
{
    return r ? r->error_count : 0;
}

unsigned sgcc_result_get_warning_count(const sgcc_result *r)
{
    return r ? r->warning_count : 0;
}

size_t sgcc_result_get_dependency_count(const sgcc_result *r)
{
    return r ? r->dependency_count : 0;
}

const char *sgcc_result_get_dependency(const sgcc_result *r, size_t index)
{
    return r && index < r->dependency_count ? r->dependencies[index] : NULL;
}

size_t sgcc_result_get_absent_include_count(const sgcc_result *r)
{
    return r ? r->absent_include_count : 0;
}

const char *sgcc_result_get_absent_include(const sgcc_result *r, size_t index)
{
    return r && index < r->absent_include_count ? r->absent_includes[index] : NULL;
}

const EmitStats *sgcc_result_get_stats(const sgcc_result *r, EmitTargetKind t)
{
    return r && (unsigned)t < TARGET_COUNT && r->stats_valid[t] ? &r->stats[t] : NULL;
}

const char *sgcc_status_to_string(sgcc_status status)
{
    switch (status) {
    case SGCC_OK: return "ok";
    case SGCC_ERROR_COMPILE: return "errors in the input";
    case SGCC_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case SGCC_ERROR_IO: return "cannot read the input";
    case SGCC_ERROR_OUT_OF_MEMORY: return "out of memory";
    }
    return "unknown status";
}

const char *sgcc_version(void)
{
    return SGCC_VERSION;
}

/* ---- one compilation ---------------------------------------------------- */

typedef struct Compilation {
    const sgcc_options *opt;
    sgcc_result *result;
    SourceManager sources;
    Diag diag;
    Arena arena;
    Arena pp_arena;          /* tokens and macros: freed once parsed */
    PPOptions pp_options;
    Preprocessor *pp;
    TranslationUnit tu;
    EmitBuffer buffer[SGCC_OUTPUT_COUNT];
    bool emitted[SGCC_OUTPUT_COUNT];
} Compilation;

static void compilation_init(Compilation *c, const sgcc_options *opt, sgcc_result *result)
{
    memset(c, 0, sizeof *c);
    c->opt = opt;
    c->result = result;
    srcmgr_init(&c->sources);
    diag_init(&c->diag, &c->sources, NULL);
    c->diag.sink = keep_record;
    c->diag.sink_ctx = result;
    c->diag.warnings_as_errors = opt->werror;
    c->diag.suppress_warnings = opt->no_warnings;
    c->diag.max_errors = opt->max_errors;
    memcpy(c->diag.warning_enabled, opt->warning_enabled, sizeof opt->warning_enabled);
    memcpy(c->diag.warning_error, opt->warning_error, sizeof opt->warning_error);
    arena_init(&c->arena);
    arena_init(&c->pp_arena);
    for (int i = 0; i < SGCC_OUTPUT_COUNT; i++)
        emit_buffer_init(&c->buffer[i]);
    PPOptions *pp = &c->pp_options;
    pp->include_dirs = (const char **)opt->include_dirs.items;
    pp->include_dir_count = opt->include_dirs.count;
    pp->defines = (const char **)opt->macros.items;
    pp->define_is_undef = opt->macros.flags;
    pp->define_count = opt->macros.count;
}

static void compilation_free(Compilation *c)
{
    for (int i = 0; i < SGCC_OUTPUT_COUNT; i++)
        emit_buffer_free(&c->buffer[i]);
    if (c->pp)
        pp_free(c->pp);
    arena_free(&c->pp_arena);
    arena_free(&c->arena);
    srcmgr_free(&c->sources);
}

static void internal_error(Compilation *c, const char *what)
{
    if (!diag_has_errors(&c->diag))
        diag_report_at(&c->diag, DIAG_ERROR, "sgcc", 0, 0, what);
}

/* Each selected target, then the header and the JSON (both need every
 * target, so sema checked for all). */
static void emit_outputs(Compilation *c, const bool need[TARGET_COUNT])
{
    const sgcc_options *opt = c->opt;
    EmitOptions emit = {.line_directives = true, .sgcc_version = SGCC_VERSION};
    for (int t = 0; t < TARGET_COUNT && !diag_has_errors(&c->diag); t++) {
        if (!need[t])
            continue;
        sgcc_output o = sgcc_target_output(t);
        emit.stats = opt->hooks.stats ? &c->result->stats[t] : NULL;
        c->emitted[o] = emit_targets[t].emit_unit(&c->tu, &c->sources, &emit, &c->diag,
                                                  &c->buffer[o]);
        c->result->stats_valid[t] = opt->hooks.stats && c->emitted[o];
        if (!c->emitted[o])
            internal_error(c, "internal error: an emitter failed without a diagnostic");
    }
    if (opt->header && !diag_has_errors(&c->diag)) {
        const EmitBuffer *code[TARGET_COUNT];
        for (int t = 0; t < TARGET_COUNT; t++)
            code[t] = c->buffer[sgcc_target_output(t)].data ? &c->buffer[sgcc_target_output(t)] : NULL;
        c->emitted[SGCC_OUTPUT_HEADER] =
            emit_header(&c->tu, opt->module_name, code, &c->diag, &c->buffer[SGCC_OUTPUT_HEADER]);
        if (!c->emitted[SGCC_OUTPUT_HEADER])
            internal_error(c, "internal error: the header emitter failed without a diagnostic");
    }
    if (opt->module_json && !diag_has_errors(&c->diag)) {
        int absent_count = 0;
        const char *const *absent = pp_absent_includes(c->pp, &absent_count);
        c->emitted[SGCC_OUTPUT_MODULE_JSON] =
            emit_module_json(&c->tu, opt->module_name, SGCC_VERSION, absent, absent_count,
                             &c->diag, &c->buffer[SGCC_OUTPUT_MODULE_JSON]);
        if (!c->emitted[SGCC_OUTPUT_MODULE_JSON])
            internal_error(c, "internal error: the JSON emitter failed without a diagnostic");
    }
}

/* A kernel one target cannot run is left out of that target's output with
 * a warning (emit.c), so that it does not take the other kernels and
 * targets down.  Only when that target is the one output asked for and no
 * kernel is left for it is that an error: the output would be empty. */
static void check_single_target(Compilation *c, const bool need[TARGET_COUNT])
{
    int only = -1;
    for (int t = 0; t < TARGET_COUNT; t++) {
        if (!need[t])
            continue;
        if (only >= 0)
            return;
        only = t;
    }
    const TranslationUnit *tu = &c->tu;
    char why[200];
    if (only < 0 || tu->kernel_count == 0)
        return;
    for (int i = 0; i < tu->kernel_count; i++)
        if (!emit_target_unsupported(&emit_targets[only], tu->kernels[i], why, sizeof why))
            return;
    for (int i = 0; i < tu->kernel_count; i++) {
        emit_target_unsupported(&emit_targets[only], tu->kernels[i], why, sizeof why);
        diag_error(&c->diag, tu->kernels[i]->loc, "kernel '%s' cannot run on %s: %s",
                   tu->kernels[i]->name, emit_targets[only].api, why);
    }
}

/* Parse, check and emit every output the options ask for. */
static void translate(Compilation *c, const char *main_name)
{
    const sgcc_options *opt = c->opt;
    Node *root = parse_translation_unit(&c->arena, &c->diag, c->pp);
    /* The tree holds copies of every spelling it keeps, so the tokens and
     * macros (a sixth of the memory of a large unit) go before sema and the
     * emitters allocate theirs.  The preprocessor's own tables are malloc'ed
     * and still answer pp_dependencies. */
    arena_free(&c->pp_arena);
    /* After syntax errors sema still runs on what recovery kept, when that
     * is sound (parse_tree_checkable), so that later mistakes are reported
     * too; otherwise it would only add a cascade.  Nothing is emitted. */
    if (diag_has_errors(&c->diag) && (c->diag.stopped || !parse_tree_checkable(root)))
        return;
    bool all = opt->header || opt->module_json;
    bool need[TARGET_COUNT];
    SemaOptions sema = {.max_sub_group_size = 64};
    for (int t = 0; t < TARGET_COUNT; t++) {
        need[t] = (opt->targets & sgcc_target_bit(t)) || all;
        int widest = emit_target_sub_group_max(&emit_targets[t]);
        if (need[t] && widest < sema.max_sub_group_size &&
            (!sema.narrowest_sub_group_size || widest < sema.narrowest_sub_group_size))
            sema.narrowest_sub_group_size = widest;
    }
    c->tu.main_file = main_name;
    sema_run(&c->arena, &c->diag, root, &sema, &c->tu);
    check_single_target(c, need);
    if (diag_has_errors(&c->diag))
        return;
    emit_outputs(c, need);
    if (opt->hooks.after_emit && !diag_has_errors(&c->diag)) {
        const EmitBuffer *code[TARGET_COUNT];
        for (int t = 0; t < TARGET_COUNT; t++)
            code[t] = c->emitted[sgcc_target_output(t)] ? &c->buffer[sgcc_target_output(t)] : NULL;
        opt->hooks.after_emit(opt->hooks.ctx, &c->tu, code, &c->diag);
    }
}

/* Moves what the options asked for into the result. */
static void keep_outputs(Compilation *c)
{
    const sgcc_options *opt = c->opt;
    bool wanted[SGCC_OUTPUT_COUNT] = {
        [SGCC_OUTPUT_HEADER] = opt->header && !opt->preprocess_only,
        [SGCC_OUTPUT_MODULE_JSON] = opt->module_json && !opt->preprocess_only,
        [SGCC_OUTPUT_PREPROCESSED] = opt->preprocess_only,
    };
    for (int t = 0; t < TARGET_COUNT; t++)
        wanted[sgcc_target_output(t)] = (opt->targets & sgcc_target_bit(t)) && !opt->preprocess_only;
    for (int i = 0; i < SGCC_OUTPUT_COUNT; i++) {
        if (!wanted[i] || !c->emitted[i])
            continue;
        EmitBuffer *b = &c->buffer[i];
        emit_write(b, "", 0); /* makes sure data exists */
        Text *t = &c->result->output[i];
        t->data = b->data ? b->data : strdup("");
        t->len = b->len;
        b->data = NULL;
        b->len = b->capacity = 0;
        if (!t->data)
            c->result->out_of_memory = true;
        else
            c->result->has[i] = true;
    }
}

/* Copies `count` paths into the result's *list (malloc'ed, as the result
 * frees them); *kept counts the copies made. */
static void keep_paths(sgcc_result *r, const char *const *paths, int count, char ***list,
                       size_t *kept)
{
    if (count == 0)
        return;
    *list = calloc((size_t)count, sizeof **list);
    if (!*list) {
        r->out_of_memory = true;
        return;
    }
    for (int i = 0; i < count; i++) {
        (*list)[i] = strdup(paths[i]);
        if (!(*list)[i]) {
            r->out_of_memory = true;
            return;
        }
        ++*kept;
    }
}

static void keep_dependencies(Compilation *c)
{
    if (!c->pp)
        return;
    sgcc_result *r = c->result;
    int count = 0;
    const char **deps = pp_dependencies(c->pp, &count);
    keep_paths(r, deps, count, &r->dependencies, &r->dependency_count);
    const char *const *absent = pp_absent_includes(c->pp, &count);
    keep_paths(r, absent, count, &r->absent_includes, &r->absent_include_count);
}

/* Runs the pipeline over file `main_file` of c->sources. */
static void run(Compilation *c, uint32_t main_file)
{
    const char *name = srcmgr_file(&c->sources, main_file)->name;
    c->pp = pp_new(&c->pp_arena, &c->diag, main_file, &c->pp_options);
    if (c->opt->preprocess_only) {
        pp_print(c->pp, &c->sources, main_file, &c->buffer[SGCC_OUTPUT_PREPROCESSED]);
        c->emitted[SGCC_OUTPUT_PREPROCESSED] = true;
    } else {
        translate(c, name);
    }
    keep_dependencies(c);
    if (!diag_has_errors(&c->diag))
        keep_outputs(c);
}

/* One compilation into a fresh result: *out gets the result (NULL when
 * out of memory).  Kept apart from compile() so that nothing but `r` and
 * the saved handler lives across the setjmp. */
static sgcc_status compile_into(const sgcc_options *options, const char *name, const char *text,
                                size_t length, bool from_file, sgcc_result **out)
{
    sgcc_result *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r)
        return SGCC_ERROR_OUT_OF_MEMORY;
    /* An allocation that fails inside the compiler lands here (diag.h,
     * mem_out_of_memory).  What the compilation held is abandoned, not
     * freed: the structure being grown may be half-updated. */
    jmp_buf out_of_memory;
    void *outer_handler = mem_set_oom_handler(&out_of_memory);
    if (setjmp(out_of_memory) != 0) {
        mem_set_oom_handler(outer_handler);
        sgcc_result_destroy(r);
        return SGCC_ERROR_OUT_OF_MEMORY;
    }
    Compilation c;
    compilation_init(&c, options, r);
    uint32_t main_file = from_file ? srcmgr_load(&c.sources, name)
                                   : srcmgr_add(&c.sources, name ? name : "<string>",
                                                text ? text : "", length);
    bool io_failed = main_file == 0;
    if (io_failed) {
        char message[1024];
        snprintf(message, sizeof message, "cannot open '%s': %s", name, strerror(errno));
        diag_report_at(&c.diag, DIAG_ERROR, "sgcc", 0, 0, message);
    } else {
        run(&c, main_file);
    }
    r->error_count = c.diag.error_count;
    r->warning_count = c.diag.warning_count;
    r->status = r->out_of_memory           ? SGCC_ERROR_OUT_OF_MEMORY
                : io_failed                ? SGCC_ERROR_IO
                : diag_has_errors(&c.diag) ? SGCC_ERROR_COMPILE
                                           : SGCC_OK;
    compilation_free(&c);
    mem_set_oom_handler(outer_handler);
    sgcc_status status = r->status;
    if (status == SGCC_ERROR_OUT_OF_MEMORY)
        sgcc_result_destroy(r);
    else
        *out = r;
    return status;
}

/* The compiler's walks recurse over the tree (an expression `a + a + ...`
 * of N terms is N deep), bounded by the nesting limits of docs/REFERENCE.md
 * "Limits" (sema.h, preprocess.c).  So that those limits hold whatever
 * stack the caller has (sgrt compiles at run time on the application's
 * threads, which may have 256 KiB), a compilation runs on a thread of its
 * own with this stack, reserved address space of which only the pages a
 * deep input reaches are touched. */
enum { COMPILE_STACK_SIZE = 128 << 20 };

typedef struct CompileJob {
    const sgcc_options *options;
    const char *name, *text;
    size_t length;
    bool from_file;
    sgcc_result **result;
    sgcc_status status;
} CompileJob;

static void *compile_job(void *arg)
{
    CompileJob *job = arg;
    job->status = compile_into(job->options, job->name, job->text, job->length, job->from_file,
                               job->result);
    return NULL;
}

static sgcc_status compile_on_own_stack(CompileJob *job)
{
    pthread_attr_t attr;
    pthread_t thread;
    if (pthread_attr_init(&attr) != 0)
        return SGCC_ERROR_OUT_OF_MEMORY;
    bool started = pthread_attr_setstacksize(&attr, COMPILE_STACK_SIZE) == 0 &&
                   pthread_create(&thread, &attr, compile_job, job) == 0;
    pthread_attr_destroy(&attr);
    if (!started)
        return SGCC_ERROR_OUT_OF_MEMORY; /* no thread or no room for its stack */
    pthread_join(thread, NULL);
    return job->status;
}

/* Shared by both entry points: argument checks and default options. */
static sgcc_status compile(const sgcc_options *options, const char *name, const char *text,
                           size_t length, bool from_file, sgcc_result **result)
{
    if (!result)
        return SGCC_ERROR_INVALID_ARGUMENT;
    *result = NULL;
    if ((!from_file && !text && length > 0) || (from_file && !name))
        return SGCC_ERROR_INVALID_ARGUMENT;
    sgcc_options *defaults = NULL;
    if (!options && !(options = defaults = sgcc_options_create()))
        return SGCC_ERROR_OUT_OF_MEMORY;
    CompileJob job = {.options = options, .name = name, .text = text, .length = length,
                      .from_file = from_file, .result = result};
    sgcc_status status = compile_on_own_stack(&job);
    sgcc_options_destroy(defaults);
    return status;
}

sgcc_status sgcc_compile_string(const sgcc_options *options, const char *name, const char *text,
                                size_t length, sgcc_result **result)
{
    return compile(options, name, text, length, false, result);
}

sgcc_status sgcc_compile_file(const sgcc_options *options, const char *path,
                              sgcc_result **result)
{
    return compile(options, path, NULL, 0, true, result);
}
