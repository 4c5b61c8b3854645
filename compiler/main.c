/* main.c — the sgcc command (SPEC §3): options, the pipeline, the outputs.
 *
 * Options are one X-macro table that drives both the parser and --help, so
 * the two cannot disagree (docs/sgcc.1.scd lists the same rows; tests/cli checks
 * it).  The pipeline is the one of docs/DESIGN.md: load, preprocess, parse,
 * sema, emit each target into memory, optionally the host header and
 * --verify, and only then write.
 *
 * Output policy (why: SPEC §3, "on any error no output file is created and an
 * existing one is left untouched"): every output — code, header, depfile — is
 * first written to a temporary beside its destination (mkstemp, fsync), and
 * only when all stages and all temporaries succeeded are they renamed into
 * place, in a row.  A rename can still fail half-way (say, the second
 * directory vanished); then the outputs already renamed stay, the rest are
 * unlinked and sgcc exits 3.
 *
 * Exit status: 0 ok, 1 errors in the input, 2 bad usage, 3 I/O or internal
 * error.  Only this file decides it; the library reports to the Diag sink. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"
#include "emit.h"
#include "emit_header.h"
#include "parse.h"
#include "preprocess.h"
#include "sema.h"
#include "verify.h"

#ifndef SGCC_VERSION
#define SGCC_VERSION "0.1.0"
#endif

typedef enum ExitStatus {
    STATUS_OK = 0,
    STATUS_INPUT_ERROR = 1,
    STATUS_USAGE = 2,
    STATUS_IO_ERROR = 3,
} ExitStatus;

/* ---- the option table -------------------------------------------------- */

/* X(id, short spelling, long spelling, joiner, argument, help).  `joiner` is
 * how --help shows the argument after the long spelling; every option with an
 * argument also accepts it as the next word, and long ones as "--opt=value",
 * short ones glued on ("-Idir", "-DNAME=1", "-MFfile"). */
#define OPTIONS(X)                                                                      \
    X(TARGET, "-t", "--target", " ", "opencl|cuda|all", "languages to emit (default: all)") \
    X(OUTPUT, "-o", NULL, " ", "PATH",                                                  \
      "output file (one target) or base name (all: PATH.cl, PATH.cu); - is stdout")    \
    X(HEADER, NULL, "--header", " ", "PATH", "also write the host header for sgrt")     \
    X(INCLUDE, "-I", NULL, " ", "DIR", "add DIR to the #include search path")          \
    X(DEFINE, "-D", NULL, " ", "NAME[=VAL]", "define a macro (VAL defaults to 1)")     \
    X(UNDEFINE, "-U", NULL, " ", "NAME", "undefine a macro")                           \
    X(DEPS_ONLY, "-M", NULL, " ", NULL, "print make dependencies to stdout; write no output") \
    X(DEPS_MD, "-MD", NULL, " ", NULL, "also write a depfile (default: output base + .d)") \
    X(DEPS_FILE, "-MF", NULL, " ", "FILE", "write the dependencies to FILE")           \
    X(DEPS_TARGET, "-MT", NULL, " ", "TARGET",                                          \
      "target of the dependency rule (default: the first output)")                     \
    X(VERIFY, NULL, "--verify", " ", NULL,                                              \
      "compile the output with libclang (OpenCL C) and NVRTC (CUDA C)")                \
    X(WERROR, "-Werror", NULL, " ", NULL, "treat warnings as errors")                  \
    X(NO_WARNINGS, "-w", NULL, " ", NULL, "suppress warnings")                         \
    X(COLOR, NULL, "--color", "=", "auto|always|never", "colour diagnostics (default: auto)") \
    X(DIAG_FORMAT, NULL, "--diagnostics-format", "=", "text|json",                      \
      "diagnostics as text (default) or as a JSON array")                              \
    X(STATS, NULL, "--stats", " ", NULL,                                                \
      "print per target what the tangle-mask lowering emitted (stderr)")               \
    X(VERSION, NULL, "--version", " ", NULL, "print the version and exit")             \
    X(HELP, NULL, "--help", " ", NULL, "print this help and exit")

typedef enum OptionId {
#define X(id, s, l, j, arg, help) OPT_##id,
    OPTIONS(X)
#undef X
    OPT_COUNT
} OptionId;

typedef struct OptionSpec {
    const char *short_name, *long_name, *joiner, *arg, *help;
} OptionSpec;

static const OptionSpec option_specs[OPT_COUNT] = {
#define X(id, s, l, j, arg, help) {s, l, j, arg, help},
    OPTIONS(X)
#undef X
};

/* ---- parsed options ---------------------------------------------------- */

typedef enum ColorMode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } ColorMode;

typedef struct DriverOptions {
    const char *input;
    bool target[TARGET_COUNT];  /* languages to write */
    const char *output;         /* -o, or NULL */
    const char *header;         /* --header, or NULL */
    PPOptions pp;               /* -I, -D, -U (arrays sized by argc) */
    bool deps_only, deps_md;    /* -M, -MD */
    const char *deps_file, *deps_target;
    bool verify, werror, no_warnings, stats;
    bool warning_enabled[WARN_COUNT];      /* -Wname / -Wno-name */
    signed char warning_error[WARN_COUNT]; /* -Werror=name / -Wno-error=name */
    ColorMode color;
    DiagFormat format;
} DriverOptions;

static void print_help(FILE *out)
{
    fputs("usage: sgcc [options] input.sgc\n"
          "Translates an SGC source file to OpenCL C and/or CUDA C.\n\noptions:\n", out);
    for (int i = 0; i < OPT_COUNT; i++) {
        const OptionSpec *o = &option_specs[i];
        char spelling[64];
        snprintf(spelling, sizeof spelling, "%s%s%s%s%s", o->short_name ? o->short_name : "",
                 o->short_name && o->long_name ? ", " : "", o->long_name ? o->long_name : "",
                 o->arg ? (o->long_name ? o->joiner : " ") : "", o->arg ? o->arg : "");
        fprintf(out, "  %-34s %s\n", spelling, o->help);
    }
    fputs("\nOutputs go next to the input (dir/x.sgc -> dir/x.cl, dir/x.cu) unless -o is given.\n"
          "exit status: 0 ok, 1 errors in the input, 2 bad usage, 3 I/O or internal error\n",
          out);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("sgcc: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\nTry 'sgcc --help' for more information.\n", stderr);
    va_end(ap);
    return STATUS_USAGE;
}

/* Finds the option `word` names; sets *value for a glued or "=" argument. */
static int find_option(const char *word, const char **value)
{
    *value = NULL;
    if (word[1] == '-') {
        size_t len = strcspn(word, "=");
        for (int i = 0; i < OPT_COUNT; i++) {
            const char *name = option_specs[i].long_name;
            if (name && strlen(name) == len && strncmp(word, name, len) == 0) {
                *value = word[len] == '=' ? word + len + 1 : NULL;
                return i;
            }
        }
        return -1;
    }
    int best = -1;
    size_t best_len = 0;
    for (int i = 0; i < OPT_COUNT; i++) {
        const char *name = option_specs[i].short_name;
        if (!name)
            continue;
        size_t len = strlen(name);
        if (strcmp(word, name) == 0)
            return i;
        if (option_specs[i].arg && strncmp(word, name, len) == 0 && len > best_len)
            best = i, best_len = len;
    }
    if (best >= 0)
        *value = word + best_len;
    return best;
}

/* Matches `value` against "a|b|c"; returns the index or -1. */
static int choice_index(const char *choices, const char *value)
{
    size_t len = strlen(value);
    int index = 0;
    for (const char *p = choices; *p; index++) {
        size_t n = strcspn(p, "|");
        if (n == len && strncmp(p, value, n) == 0)
            return index;
        p += n + (p[n] == '|');
    }
    return -1;
}

static int apply_choice(DriverOptions *opt, OptionId id, const char *spelling, const char *value)
{
    int index = choice_index(option_specs[id].arg, value);
    if (index < 0)
        return usage_error("invalid argument '%s' to '%s' (expected %s)", value, spelling,
                           option_specs[id].arg);
    switch (id) {
    case OPT_TARGET:
        for (int t = 0; t < TARGET_COUNT; t++)
            opt->target[t] = strcmp(value, "all") == 0 || strcmp(value, emit_targets[t].name) == 0;
        break;
    case OPT_COLOR: opt->color = (ColorMode)index; break;
    case OPT_DIAG_FORMAT: opt->format = index == 0 ? DIAG_FORMAT_TEXT : DIAG_FORMAT_JSON; break;
    default: break;
    }
    return -1;
}

/* Applies one option; returns an exit status to stop with, or -1. */
static int apply_option(DriverOptions *opt, OptionId id, const char *spelling, const char *value)
{
    PPOptions *pp = &opt->pp;
    switch (id) {
    case OPT_TARGET:
    case OPT_COLOR:
    case OPT_DIAG_FORMAT: return apply_choice(opt, id, spelling, value);
    case OPT_OUTPUT: opt->output = value; break;
    case OPT_HEADER: opt->header = value; break;
    case OPT_INCLUDE: pp->include_dirs[pp->include_dir_count++] = value; break;
    case OPT_DEFINE:
    case OPT_UNDEFINE:
        pp->define_is_undef[pp->define_count] = id == OPT_UNDEFINE;
        pp->defines[pp->define_count++] = value;
        break;
    case OPT_DEPS_ONLY: opt->deps_only = true; break;
    case OPT_DEPS_MD: opt->deps_md = true; break;
    case OPT_DEPS_FILE: opt->deps_file = value; break;
    case OPT_DEPS_TARGET: opt->deps_target = value; break;
    case OPT_VERIFY: opt->verify = true; break;
    case OPT_STATS: opt->stats = true; break;
    case OPT_WERROR: opt->werror = true; break;
    case OPT_NO_WARNINGS: opt->no_warnings = true; break;
    case OPT_VERSION: printf("sgcc %s\n", SGCC_VERSION); return STATUS_OK;
    case OPT_HELP: print_help(stdout); return STATUS_OK;
    case OPT_COUNT: break;
    }
    return -1;
}

/* -Wname, -Wno-name, -Werror=name, -Wno-error=name, -Wall, -Wextra (GCC's
 * forms); returns a status to stop with, or -1. */
static int apply_warning_option(DriverOptions *opt, const char *word)
{
    const char *name = word + 2;
    bool negate = strncmp(name, "no-", 3) == 0;
    if (negate)
        name += 3;
    bool error_form = strncmp(name, "error=", 6) == 0;
    if (error_form)
        name += 6;
    if (!error_form && !negate && (strcmp(name, "all") == 0 || strcmp(name, "extra") == 0))
        return -1; /* every sgcc warning is on by default */
    DiagWarning w = diag_warning_find(name);
    if (w == WARN_NONE) {
        if (negate)
            return -1; /* as GCC: -Wno-unknown is ignored, for newer build files */
        return usage_error("unknown warning option '%s'", word);
    }
    if (error_form)
        opt->warning_error[w] = negate ? -1 : 1;
    if (!error_form || !negate)
        opt->warning_enabled[w] = !negate;
    return -1;
}

/* Reads the option at argv[*i] (and its argument); returns a status or -1. */
static int parse_one_option(DriverOptions *opt, int argc, char **argv, int *i)
{
    const char *word = argv[*i], *value;
    if (strncmp(word, "-W", 2) == 0 && strcmp(word, "-Werror") != 0)
        return apply_warning_option(opt, word);
    int id = find_option(word, &value);
    if (id < 0)
        return usage_error("unknown option '%.*s'", (int)strcspn(word, "="), word);
    const OptionSpec *spec = &option_specs[id];
    if (!spec->arg && value)
        return usage_error("option '%s' takes no argument", spec->long_name);
    if (spec->arg && !value) {
        if (*i + 1 >= argc)
            return usage_error("missing argument to '%s'", word);
        value = argv[++*i];
    }
    if (spec->arg && !*value)
        return usage_error("empty argument to '%s'", word);
    return apply_option(opt, (OptionId)id, word, value);
}

static int parse_options(DriverOptions *opt, int argc, char **argv)
{
    bool only_inputs = false;
    for (int i = 1; i < argc; i++) {
        const char *word = argv[i];
        if (!only_inputs && strcmp(word, "--") == 0) {
            only_inputs = true;
        } else if (!only_inputs && word[0] == '-' && word[1]) {
            int status = parse_one_option(opt, argc, argv, &i);
            if (status >= 0)
                return status;
        } else if (opt->input) {
            return usage_error("more than one input file ('%s' and '%s')", opt->input, word);
        } else {
            opt->input = word;
        }
    }
    if (!opt->input)
        return usage_error("no input file");
    return -1;
}

/* ---- output names ------------------------------------------------------- */

static int selected_target_count(const DriverOptions *opt)
{
    int n = 0;
    for (int t = 0; t < TARGET_COUNT; t++)
        n += opt->target[t];
    return n;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The path outputs are named after: -o minus a .cl/.cu suffix, or the input
 * minus its extension (so outputs land next to the input). */
static char *output_base(const DriverOptions *opt)
{
    if (opt->output && strcmp(opt->output, "-") != 0) {
        size_t n = strlen(opt->output);
        for (int t = 0; t < TARGET_COUNT; t++)
            if (ends_with(opt->output, emit_targets[t].extension))
                n -= strlen(emit_targets[t].extension);
        return strndup(opt->output, n);
    }
    const char *slash = strrchr(opt->input, '/');
    const char *dot = strrchr(slash ? slash + 1 : opt->input, '.');
    size_t n = dot && dot != (slash ? slash + 1 : opt->input) ? (size_t)(dot - opt->input)
                                                              : strlen(opt->input);
    return strndup(opt->input, n);
}

static char *concat(const char *a, const char *b)
{
    char *s = malloc(strlen(a) + strlen(b) + 1);
    strcpy(s, a);
    strcat(s, b);
    return s;
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return strcmp(a, b) == 0
           || (stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev
               && sa.st_ino == sb.st_ino);
}

/* Fills paths[t] for each selected target; returns a status or -1. */
static int output_paths(const DriverOptions *opt, char *paths[TARGET_COUNT])
{
    int selected = selected_target_count(opt);
    if (opt->output && strcmp(opt->output, "-") == 0 && selected != 1)
        return usage_error("'-o -' writes one target to stdout: add -t opencl or -t cuda");
    char *base = output_base(opt);
    for (int t = 0; t < TARGET_COUNT; t++) {
        if (!opt->target[t])
            paths[t] = NULL;
        else if (opt->output && selected == 1)
            paths[t] = strdup(opt->output);
        else
            paths[t] = concat(base, emit_targets[t].extension);
    }
    free(base);
    for (int t = 0; t < TARGET_COUNT; t++)
        if (paths[t] && same_file(paths[t], opt->input))
            return usage_error("output '%s' would overwrite the input", paths[t]);
    return -1;
}

/* ---- one compilation ---------------------------------------------------- */

/* A file to produce: written to `temp` first, renamed to `path` at commit. */
typedef struct Output {
    const char *path;    /* "-" means stdout */
    const EmitBuffer *text;
    char *temp;          /* the staged temporary, or NULL */
} Output;

enum { MAX_OUTPUTS = TARGET_COUNT + 2 }; /* code, header, depfile */

typedef struct Compilation {
    const DriverOptions *opt;
    SourceManager sources;
    Diag diag;
    Arena arena;
    Arena pp_arena;                /* tokens and macros: freed once parsed */
    Preprocessor *pp;
    TranslationUnit tu;
    char *path[TARGET_COUNT];      /* where each selected target goes */
    bool emitted[TARGET_COUNT];
    EmitBuffer code[TARGET_COUNT];
    EmitBuffer header, deps;
    char *deps_path;               /* default depfile name, when computed */
    Output outputs[MAX_OUTPUTS];
    int output_count;
    bool io_failed;                /* exit 3 rather than 1 */
} Compilation;

static void io_error(Compilation *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void io_error(Compilation *c, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    diag_report_at(&c->diag, DIAG_ERROR, "sgcc", 0, 0, message);
    c->io_failed = true;
}

static bool color_wanted(ColorMode mode)
{
    if (mode != COLOR_AUTO)
        return mode == COLOR_ALWAYS;
    const char *term = getenv("TERM");
    return isatty(STDERR_FILENO) && !getenv("NO_COLOR") && !(term && strcmp(term, "dumb") == 0);
}

static void compilation_init(Compilation *c, const DriverOptions *opt)
{
    memset(c, 0, sizeof *c);
    c->opt = opt;
    srcmgr_init(&c->sources);
    diag_init(&c->diag, &c->sources, stderr);
    c->diag.format = opt->format;
    c->diag.color = opt->format == DIAG_FORMAT_TEXT && color_wanted(opt->color);
    /* GCC_COLORS picks the colours; set but empty, it turns auto colour off
     * (as for GCC).  --color=always still colours, with GCC's defaults. */
    const char *gcc_colors = getenv("GCC_COLORS");
    if (gcc_colors && !*gcc_colors && opt->color == COLOR_AUTO)
        c->diag.color = false;
    diag_set_colors(&c->diag, gcc_colors);
    c->diag.warnings_as_errors = opt->werror;
    c->diag.suppress_warnings = opt->no_warnings;
    memcpy(c->diag.warning_enabled, opt->warning_enabled, sizeof opt->warning_enabled);
    memcpy(c->diag.warning_error, opt->warning_error, sizeof opt->warning_error);
    arena_init(&c->arena);
    arena_init(&c->pp_arena);
    for (int t = 0; t < TARGET_COUNT; t++)
        emit_buffer_init(&c->code[t]);
    emit_buffer_init(&c->header);
    emit_buffer_init(&c->deps);
}

static void compilation_free(Compilation *c)
{
    for (int i = 0; i < c->output_count; i++) {
        if (c->outputs[i].temp)
            unlink(c->outputs[i].temp);
        free(c->outputs[i].temp);
    }
    for (int t = 0; t < TARGET_COUNT; t++) {
        emit_buffer_free(&c->code[t]);
        free(c->path[t]);
    }
    emit_buffer_free(&c->header);
    emit_buffer_free(&c->deps);
    free(c->deps_path);
    if (c->pp)
        pp_free(c->pp);
    arena_free(&c->pp_arena);
    arena_free(&c->arena);
    srcmgr_free(&c->sources);
}

/* --stats: one line per target, for tuning and for the uniformity figures
 * of bench/RESULTS.md. */
static void print_stats(const char *input, const char *target, const EmitStats *stats)
{
    fprintf(stderr,
            "%s: %s: tangle-mask functions %d, ballots emitted %d, "
            "uniform branches without a ballot %d, fixed-size group algorithms with creation facts %d of %d\n",
            input, target, stats->tangle_functions, stats->ballots, stats->uniform_branches,
            stats->creator_facts, stats->fixed_group_calls);
}

/* Parse, check and emit every target the outputs need. */
static void translate(Compilation *c)
{
    const DriverOptions *opt = c->opt;
    Node *root = parse_translation_unit(&c->arena, &c->diag, c->pp);
    /* The tree holds copies of every spelling it keeps, so the tokens and
     * macros (a sixth of the memory of a large unit) go before sema and the
     * emitters allocate theirs.  The preprocessor's own tables are malloc'ed
     * and still answer pp_dependencies for the depfile. */
    arena_free(&c->pp_arena);
    if (diag_has_errors(&c->diag))
        return; /* sema on a broken tree would only add a cascade */
    /* The header embeds both sources, so it needs both targets. */
    bool need[TARGET_COUNT];
    for (int t = 0; t < TARGET_COUNT; t++)
        need[t] = opt->target[t] || opt->header;
    SemaOptions sema = {.max_sub_group_size = 64,
                        .target_opencl = need[TARGET_OPENCL],
                        .target_cuda = need[TARGET_CUDA]};
    c->tu.main_file = opt->input;
    sema_run(&c->arena, &c->diag, root, &sema, &c->tu);
    if (diag_has_errors(&c->diag))
        return;
    EmitOptions emit = {.line_directives = true, .sgcc_version = SGCC_VERSION};
    for (int t = 0; t < TARGET_COUNT && !diag_has_errors(&c->diag); t++) {
        if (!need[t])
            continue;
        EmitStats stats = {0};
        emit.stats = opt->stats ? &stats : NULL;
        c->emitted[t] = emit_targets[t].emit_unit(&c->tu, &c->sources, &emit, &c->diag,
                                                  &c->code[t]);
        if (opt->stats && c->emitted[t])
            print_stats(opt->input, emit_targets[t].name, &stats);
        if (!c->emitted[t] && !diag_has_errors(&c->diag))
            io_error(c, "internal error: the %s emitter failed without a diagnostic",
                     emit_targets[t].name);
    }
    if (opt->header && !diag_has_errors(&c->diag)
        && !emit_header(&c->tu, NULL, c->code[TARGET_OPENCL].data, c->code[TARGET_OPENCL].len,
                        c->code[TARGET_CUDA].data, c->code[TARGET_CUDA].len, &c->diag,
                        &c->header)
        && !diag_has_errors(&c->diag))
        io_error(c, "internal error: the header emitter failed without a diagnostic");
}

static void verify(Compilation *c)
{
    for (int t = 0; t < TARGET_COUNT; t++) {
        if (!c->opt->target[t] || !c->emitted[t])
            continue;
        const char *name = strcmp(c->path[t], "-") == 0 ? emit_targets[t].extension : c->path[t];
        verify_output(emit_targets[t].kind, &c->tu, name, &c->code[t], &c->diag);
    }
}

/* The depfile rule: -MT, else the first output written to a file. */
static void format_deps(Compilation *c)
{
    const char *target = c->opt->deps_target;
    for (int t = 0; t < TARGET_COUNT && !target; t++)
        if (c->path[t] && strcmp(c->path[t], "-") != 0)
            target = c->path[t];
    if (!target)
        target = c->opt->header ? c->opt->header : c->opt->input;
    int count = 0;
    const char **deps = pp_dependencies(c->pp, &count);
    depfile_format(&c->deps, target, deps, count);
}

static void add_output(Compilation *c, const char *path, const EmitBuffer *text)
{
    c->outputs[c->output_count++] = (Output){.path = path, .text = text};
}

/* ---- atomic writing ----------------------------------------------------- */

static bool write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        len -= (size_t)n;
    }
    return true;
}

/* Writes o->text to a fresh temporary in o->path's directory. */
static bool stage_output(Compilation *c, Output *o, mode_t mode)
{
    if (strcmp(o->path, "-") == 0)
        return true; /* stdout is written at commit */
    const char *slash = strrchr(o->path, '/');
    int dir_len = slash ? (int)(slash - o->path) + 1 : 0;
    if (asprintf(&o->temp, "%.*s.%s.sgcc-XXXXXX", dir_len, o->path,
                 slash ? slash + 1 : o->path) < 0) {
        o->temp = NULL;
        io_error(c, "out of memory");
        return false;
    }
    int fd = mkstemp(o->temp);
    if (fd < 0) {
        io_error(c, "cannot create '%s': %s", o->path, strerror(errno));
        free(o->temp);
        o->temp = NULL;
        return false;
    }
    bool ok = fchmod(fd, mode) == 0 && write_all(fd, o->text->data, o->text->len)
              && fsync(fd) == 0;
    int saved = errno;
    ok = close(fd) == 0 && ok;
    if (!ok)
        io_error(c, "cannot write '%s': %s", o->path, strerror(saved ? saved : errno));
    return ok;
}

static bool commit_output(Compilation *c, Output *o)
{
    if (strcmp(o->path, "-") == 0) {
        if (fwrite(o->text->data ? o->text->data : "", 1, o->text->len, stdout) != o->text->len
            || fflush(stdout) != 0) {
            io_error(c, "cannot write to stdout: %s", strerror(errno));
            return false;
        }
        return true;
    }
    if (rename(o->temp, o->path) != 0) {
        io_error(c, "cannot rename '%s' to '%s': %s", o->temp, o->path, strerror(errno));
        return false;
    }
    free(o->temp);
    o->temp = NULL;
    return true;
}

/* Stages every output, then renames them all; nothing is renamed unless
 * every temporary was written.  Temporaries left over are unlinked by
 * compilation_free. */
static void write_outputs(Compilation *c)
{
    mode_t mask = umask(0);
    umask(mask);
    for (int i = 0; i < c->output_count; i++)
        if (!stage_output(c, &c->outputs[i], 0666 & ~mask))
            return;
    for (int i = 0; i < c->output_count; i++)
        if (!commit_output(c, &c->outputs[i]))
            return;
}

/* ---- the pipeline ------------------------------------------------------- */

static void collect_outputs(Compilation *c)
{
    const DriverOptions *opt = c->opt;
    if (opt->deps_only) {
        format_deps(c);
        add_output(c, opt->deps_file ? opt->deps_file : "-", &c->deps);
        return;
    }
    for (int t = 0; t < TARGET_COUNT; t++)
        if (opt->target[t])
            add_output(c, c->path[t], &c->code[t]);
    if (opt->header)
        add_output(c, opt->header, &c->header);
    if (opt->deps_md || opt->deps_file || opt->deps_target) {
        format_deps(c);
        if (!opt->deps_file) {
            char *base = output_base(opt);
            c->deps_path = concat(base, ".d");
            free(base);
        }
        add_output(c, opt->deps_file ? opt->deps_file : c->deps_path, &c->deps);
    }
}

static int compile(const DriverOptions *opt, char *paths[TARGET_COUNT])
{
    Compilation c;
    compilation_init(&c, opt);
    memcpy(c.path, paths, sizeof c.path);
    uint32_t main_file = srcmgr_load(&c.sources, opt->input);
    if (!main_file) {
        io_error(&c, "cannot open '%s': %s", opt->input, strerror(errno));
    } else {
        c.pp = pp_new(&c.pp_arena, &c.diag, main_file, &opt->pp);
        if (opt->deps_only) {
            while (pp_next(c.pp)->kind != TK_EOF)
                ;
        } else {
            translate(&c);
            if (opt->verify && !diag_has_errors(&c.diag))
                verify(&c);
        }
        if (!diag_has_errors(&c.diag)) {
            collect_outputs(&c);
            write_outputs(&c);
        }
    }
    diag_finish(&c.diag);
    int status = c.io_failed                    ? STATUS_IO_ERROR
                 : diag_has_errors(&c.diag)     ? STATUS_INPUT_ERROR
                                                : STATUS_OK;
    compilation_free(&c);
    return status;
}

int main(int argc, char **argv)
{
    DriverOptions opt = {.target = {true, true}, .color = COLOR_AUTO};
    for (int w = 1; w < WARN_COUNT; w++)
        opt.warning_enabled[w] = diag_warnings[w].default_on;
    size_t n = (size_t)argc + 1;
    opt.pp.include_dirs = calloc(n, sizeof(char *));
    opt.pp.defines = calloc(n, sizeof(char *));
    opt.pp.define_is_undef = calloc(n, sizeof(bool));
    char *paths[TARGET_COUNT] = {0};
    int status = parse_options(&opt, argc, argv);
    if (status < 0)
        status = output_paths(&opt, paths);
    if (status < 0)
        status = compile(&opt, paths); /* takes ownership of paths */
    else
        for (int t = 0; t < TARGET_COUNT; t++)
            free(paths[t]);
    free(opt.pp.include_dirs);
    free(opt.pp.defines);
    free(opt.pp.define_is_undef);
    return status;
}
