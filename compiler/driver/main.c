/* main.c — the sgcc command (docs/CLI.md): options, output paths, and the
 * writing of outputs around libsgcc (sgcc.h), which does the compiling.
 *
 * Options are one X-macro table that drives both the parser and --help, so
 * the two cannot disagree (docs/sgcc.1.scd lists the same rows; tests/cli
 * checks it).  Each input is one libsgcc compilation; its diagnostics are
 * printed from the result's records (text, colour or JSON), --verify and
 * --stats hook into the compilation through libsgcc_internal.h.
 *
 * Output policy (why: docs/CLI.md "Writing outputs", "on any error no output file is created and an
 * existing one is left untouched"): every output of an input — code, header,
 * JSON, depfile — is first written to a temporary beside its destination
 * (mkstemp, fsync; links followed, devices and FIFOs written in place at
 * commit instead: output.c), and only when the input compiled and all
 * temporaries were written are they renamed into place, in a row.  No two
 * outputs of the run may name one file (check_distinct_files).  Inputs are independent, as
 * with gcc: an error in one leaves its outputs unwritten and the others go
 * on.  A rename can still fail half-way; then the outputs already renamed
 * stay, the rest are unlinked and sgcc exits 3.  Outputs never go next to an
 * input that is not a regular file (standard input, /dev/stdin, a pipe):
 * those need -o.
 *
 * Exit status: 0 ok, 1 errors in the input, 2 bad usage, 3 I/O or internal
 * error; with several inputs, the highest.  Only this file decides it. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver/driver.h"
#include "driver/output.h"
#include "module/emit_header.h"
#include "driver/libsgcc_internal.h"
#include "base/suggest.h"
#include "driver/verify.h"

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
 * how --help shows the argument after the spelling; every option with an
 * argument also accepts it as the next word, and long ones as "--opt=value",
 * short ones glued on ("-Idir", "-DNAME=1", "-MFfile").  A short spelling
 * ending in '=' takes its argument glued only ("-std=c17"). */
#define OPTIONS(X)                                                                      \
    X(TARGET, "-t", "--target", " ", "opencl|cuda|all", "languages to emit (default: all)") \
    X(OUTPUT, "-o", NULL, " ", "PATH",                                                  \
      "output file (one target), base name (PATH.cl, PATH.cu), DIR/, or - (stdout)")    \
    X(HEADER, NULL, "--header", " ", "PATH", "also write the host header for sgrt")     \
    X(EMIT_JSON, NULL, "--emit-json", " ", "PATH",                                      \
      "also write the module description (JSON, docs/module.schema.json)")              \
    X(INCLUDE, "-I", NULL, " ", "DIR", "add DIR to the #include search path")          \
    X(DEFINE, "-D", NULL, " ", "NAME[=VAL]", "define a macro (VAL defaults to 1)")     \
    X(UNDEFINE, "-U", NULL, " ", "NAME", "undefine a macro")                           \
    X(STD, "-std=", NULL, "", "sgc|c17|c18|gnu17|gnu18", "the language: SGC over C17 (the only one)") \
    X(PREPROCESS, "-E", NULL, " ", NULL, "print the preprocessed source (stdout or -o FILE)") \
    X(SYNTAX_ONLY, "-fsyntax-only", NULL, " ", NULL, "check the input; write nothing")  \
    X(DEPS_ONLY, "-M", NULL, " ", NULL, "print make dependencies to stdout; write no output") \
    X(DEPS_ONLY_USER, "-MM", NULL, " ", NULL, "the same as -M (sgcc has no system headers)") \
    X(DEPS_MD, "-MD", NULL, " ", NULL, "also write a depfile (default: output base + .d)") \
    X(DEPS_MMD, "-MMD", NULL, " ", NULL, "the same as -MD (sgcc has no system headers)") \
    X(DEPS_FILE, "-MF", NULL, " ", "FILE", "write the dependencies to FILE")           \
    X(DEPS_TARGET, "-MT", NULL, " ", "TARGET",                                          \
      "target of the dependency rule (default: every output); repeatable")              \
    X(DEPS_QUOTED, "-MQ", NULL, " ", "TARGET", "like -MT, with characters special to make quoted") \
    X(DEPS_PHONY, "-MP", NULL, " ", NULL, "add a phony target for each included file")  \
    X(VERIFY, NULL, "--verify", " ", NULL,                                              \
      "compile the output with libclang (OpenCL C) and NVRTC (CUDA C)")                \
    X(WERROR, "-Werror", NULL, " ", NULL, "treat warnings as errors")                  \
    X(WARNING, "-W", NULL, "", "[no-][error=]NAME",                                     \
      "turn warning NAME on, off, or into an error (-Wall and -Wextra are accepted)")    \
    X(NO_WARNINGS, "-w", NULL, " ", NULL, "suppress warnings")                         \
    X(MAX_ERRORS, "-fmax-errors=", NULL, "", "N",                                       \
      "stop an input after N errors (default 20; 0: no limit)")                        \
    X(COLOR, NULL, "--color", "=", "auto|always|never", "colour diagnostics (default: auto)") \
    X(DIAG_COLOR, "-fdiagnostics-color=", NULL, "", "auto|always|never", "the same as --color") \
    X(DIAG_FORMAT, NULL, "--diagnostics-format", "=", "text|json",                      \
      "diagnostics as text (default) or as a JSON array")                              \
    X(DIAG_FORMAT_F, "-fdiagnostics-format=", NULL, "", "text|json", "the same as --diagnostics-format") \
    X(STATS, NULL, "--stats", " ", NULL,                                                \
      "print per target what the tangle-mask lowering emitted (stderr)")               \
    X(VERBOSE, "-v", "--verbose", " ", NULL, "print the version, the search path and each file written") \
    X(VERSION, NULL, "--version", " ", NULL, "print the version and exit")             \
    X(HELP, "-h", "--help", " ", NULL, "print this help and exit")

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
    const char **inputs;        /* in command-line order ("-" is stdin) */
    int input_count;
    bool target[TARGET_COUNT];  /* languages to write */
    const char *output;         /* -o, or NULL */
    const char *header;         /* --header, or NULL */
    const char *emit_json;      /* --emit-json, or NULL */
    sgcc_options *lib;          /* -I -D -U -W... as libsgcc options */
    const char **include_dirs;  /* -I again, for -v */
    int include_dir_count;
    bool preprocess, syntax_only;
    bool deps_only, deps_md, deps_phony; /* -M, -MD, -MP */
    const char *deps_file;      /* -MF */
    char **deps_targets;        /* -MT and -MQ, -MQ ones already quoted */
    int deps_target_count;
    bool verify, stats, verbose;
    ColorMode color;
    DiagFormat format;
} DriverOptions;

static void print_help(FILE *out)
{
    fputs("usage: sgcc [options] input.sgc...\n"
          "Translates SGC source files to OpenCL C and/or CUDA C.\n\noptions:\n", out);
    for (int i = 0; i < OPT_COUNT; i++) {
        const OptionSpec *o = &option_specs[i];
        const char *joiner = o->long_name ? o->joiner : (o->joiner[0] ? " " : "");
        char spelling[64];
        snprintf(spelling, sizeof spelling, "%s%s%s%s%s", o->short_name ? o->short_name : "",
                 o->short_name && o->long_name ? ", " : "", o->long_name ? o->long_name : "",
                 o->arg ? joiner : "", o->arg ? o->arg : "");
        fprintf(out, "  %-34s %s\n", spelling, o->help);
    }
    fputs("\nOutputs go next to the input (dir/x.sgc -> dir/x.cl, dir/x.cu) unless -o is given;\n"
          "an input that is not a regular file (- is standard input) needs -o.\n"
          "warnings (-Wname):", out);
    int column = 18;
    for (int w = 1; w < WARN_COUNT; w++) {
        int len = (int)strlen(diag_warnings[w].name) + 1;
        if (column + len > 80) {
            fputs("\n ", out);
            column = 1;
        }
        fprintf(out, " %s", diag_warnings[w].name);
        column += len;
    }
    fputs("\nexit status: 0 ok, 1 errors in the input, 2 bad usage, 3 I/O or internal error\n",
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

/* "unknown option '--targt'; did you mean '--target'?" */
static int unknown_option(const char *word)
{
    const char *candidates[2 * OPT_COUNT];
    size_t n = 0;
    for (int i = 0; i < OPT_COUNT; i++) {
        if (option_specs[i].short_name && strlen(option_specs[i].short_name) > 2)
            candidates[n++] = option_specs[i].short_name;
        if (option_specs[i].long_name)
            candidates[n++] = option_specs[i].long_name;
    }
    int len = (int)strcspn(word, "=");
    char *name = strndup(word, (size_t)len);
    const char *hint = name ? suggest_closest(name, candidates, n) : NULL;
    free(name);
    if (hint)
        return usage_error("unknown option '%.*s'; did you mean '%s'?", len, word, hint);
    return usage_error("unknown option '%.*s'", len, word);
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
        return usage_error("invalid argument '%s' to '%.*s' (expected %s)", value,
                           (int)strcspn(spelling, "="), spelling, option_specs[id].arg);
    switch (id) {
    case OPT_TARGET:
        /* Every choice option takes an argument (option_specs), so
         * parse_one_option passes one; the analyzer does not read the table. */
        for (int t = 0; t < TARGET_COUNT; t++)
            /* NOLINTNEXTLINE(clang-analyzer-core.NonNullParamChecker) */
            opt->target[t] = strcmp(value, "all") == 0 || strcmp(value, emit_targets[t].name) == 0;
        break;
    case OPT_COLOR:
    case OPT_DIAG_COLOR: opt->color = (ColorMode)index; break;
    case OPT_DIAG_FORMAT:
    case OPT_DIAG_FORMAT_F: opt->format = index == 0 ? DIAG_FORMAT_TEXT : DIAG_FORMAT_JSON; break;
    default: break; /* -std: every accepted value is the same dialect */
    }
    return -1;
}

/* -Wname and its GCC forms, through libsgcc; unknown names get a hint. */
static int apply_warning(DriverOptions *opt, const char *word)
{
    sgcc_status status = sgcc_options_add_warning_flag(opt->lib, word);
    if (status == SGCC_OK)
        return -1;
    if (status == SGCC_ERROR_OUT_OF_MEMORY)
        return usage_error("out of memory");
    const char *name = word + 2;
    name += strncmp(name, "error=", 6) == 0 ? 6 : 0;
    const char *names[WARN_COUNT + 2] = {"all", "extra", "error"};
    for (int w = 1; w < WARN_COUNT; w++)
        names[w + 2] = diag_warnings[w].name;
    const char *hint = suggest_closest(name, names, WARN_COUNT + 2);
    if (hint)
        return usage_error("unknown warning option '%s'; did you mean '-W%s'?", word, hint);
    return usage_error("unknown warning option '%s'", word);
}

static int add_deps_target(DriverOptions *opt, const char *target, bool quote)
{
    EmitBuffer quoted;
    emit_buffer_init(&quoted);
    if (quote)
        depfile_escape(&quoted, target);
    else
        emit_write(&quoted, target, strlen(target));
    emit_write(&quoted, "", 1);
    opt->deps_targets[opt->deps_target_count++] = quoted.data;
    return -1;
}

static int add_to_library(sgcc_status status)
{
    return status == SGCC_OK ? -1 : usage_error("%s", sgcc_status_to_string(status));
}

/* -fmax-errors=N: a decimal count (0: no limit). */
static int apply_max_errors(DriverOptions *opt, const char *value)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(value, &end, 10);
    if (*end || value[0] < '0' || value[0] > '9' || errno || n > 0xffffffffUL)
        return usage_error("invalid argument '%s' to '-fmax-errors=' (expected a count, "
                           "0 for no limit)", value);
    return add_to_library(sgcc_options_set_max_errors(opt->lib, (unsigned)n));
}

/* Applies one option; returns an exit status to stop with, or -1. */
static int apply_option(DriverOptions *opt, OptionId id, const char *spelling, const char *value)
{
    switch (id) {
    case OPT_TARGET:
    case OPT_STD:
    case OPT_COLOR:
    case OPT_DIAG_COLOR:
    case OPT_DIAG_FORMAT:
    case OPT_DIAG_FORMAT_F: return apply_choice(opt, id, spelling, value);
    case OPT_OUTPUT: opt->output = value; break;
    case OPT_HEADER: opt->header = value; break;
    case OPT_EMIT_JSON: opt->emit_json = value; break;
    case OPT_INCLUDE:
        opt->include_dirs[opt->include_dir_count++] = value;
        return add_to_library(sgcc_options_add_include_dir(opt->lib, value));
    case OPT_DEFINE: return add_to_library(sgcc_options_add_define(opt->lib, value));
    case OPT_UNDEFINE: return add_to_library(sgcc_options_add_undefine(opt->lib, value));
    case OPT_PREPROCESS: opt->preprocess = true; break;
    case OPT_SYNTAX_ONLY: opt->syntax_only = true; break;
    case OPT_DEPS_ONLY:
    case OPT_DEPS_ONLY_USER: opt->deps_only = true; break;
    case OPT_DEPS_MD:
    case OPT_DEPS_MMD: opt->deps_md = true; break;
    case OPT_DEPS_FILE: opt->deps_file = value; break;
    case OPT_DEPS_TARGET: return add_deps_target(opt, value, false);
    case OPT_DEPS_QUOTED: return add_deps_target(opt, value, true);
    case OPT_DEPS_PHONY: opt->deps_phony = true; break;
    case OPT_VERIFY: opt->verify = true; break;
    case OPT_STATS: opt->stats = true; break;
    case OPT_WERROR:
    case OPT_NO_WARNINGS: return add_to_library(sgcc_options_add_warning_flag(opt->lib, spelling));
    case OPT_WARNING: return apply_warning(opt, spelling);
    case OPT_MAX_ERRORS: return apply_max_errors(opt, value);
    case OPT_VERBOSE: opt->verbose = true; break;
    case OPT_VERSION: printf("sgcc %s\n", SGCC_VERSION); return STATUS_OK;
    case OPT_HELP: print_help(stdout); return STATUS_OK;
    case OPT_COUNT: break;
    }
    return -1;
}

/* GCC's spellings without an argument: -fdiagnostics-color (always) and
 * -fno-diagnostics-color (never).  Returns true when `word` was one. */
static bool apply_bare_color(DriverOptions *opt, const char *word)
{
    if (strcmp(word, "-fdiagnostics-color") == 0)
        opt->color = COLOR_ALWAYS;
    else if (strcmp(word, "-fno-diagnostics-color") == 0)
        opt->color = COLOR_NEVER;
    else
        return false;
    return true;
}

/* Reads the option at argv[*i] (and its argument); returns a status or -1. */
static int parse_one_option(DriverOptions *opt, int argc, char **argv, int *i)
{
    const char *word = argv[*i], *value;
    if (apply_bare_color(opt, word))
        return -1;
    int id = find_option(word, &value);
    if (id < 0)
        return unknown_option(word);
    const OptionSpec *spec = &option_specs[id];
    if (id == OPT_WARNING) {
        if (!value || !*value)
            return usage_error("'-W' needs a warning name (-Wname)");
        return apply_warning(opt, word);
    }
    if (!spec->arg && value)
        return usage_error("option '%s' takes no argument", spec->long_name);
    bool glued_only = spec->short_name && spec->short_name[strlen(spec->short_name) - 1] == '=';
    if (spec->arg && !value && !glued_only) {
        if (*i + 1 >= argc)
            return usage_error("missing argument to '%s'", word);
        value = argv[++*i];
    }
    if (spec->arg && (!value || !*value))
        return usage_error("empty argument to '%s'", word);
    return apply_option(opt, (OptionId)id, word, value);
}

static int parse_options(DriverOptions *opt, int argc, char **argv)
{
    bool only_inputs = false;
    int stdin_count = 0;
    for (int i = 1; i < argc; i++) {
        const char *word = argv[i];
        if (!only_inputs && strcmp(word, "--") == 0) {
            only_inputs = true;
        } else if (!only_inputs && word[0] == '-' && word[1]) {
            int status = parse_one_option(opt, argc, argv, &i);
            if (status >= 0)
                return status;
        } else {
            stdin_count += strcmp(word, "-") == 0;
            opt->inputs[opt->input_count++] = word;
        }
    }
    if (opt->input_count == 0) {
        if (opt->verbose) { /* gcc -v: the version alone */
            fprintf(stderr, "sgcc version %s\n", SGCC_VERSION);
            return STATUS_OK;
        }
        return usage_error("no input file");
    }
    if (stdin_count > 1)
        return usage_error("standard input ('-') given more than once");
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

static bool is_stdin(const char *input)
{
    return input && strcmp(input, "-") == 0;
}

/* "DIR/" or an existing directory: outputs go inside, named after inputs. */
static bool names_directory(const char *path)
{
    struct stat st;
    return path && strcmp(path, "-") != 0
           && (ends_with(path, "/") || (stat(path, &st) == 0 && S_ISDIR(st.st_mode)));
}

static char *concat(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    char *s = malloc(n + m + 1);
    if (s) {
        memcpy(s, a, n);
        memcpy(s + n, b, m + 1);
    }
    return s;
}

/* "dir/x.sgc" -> "x" */
static char *stem(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    const char *dot = strrchr(name, '.');
    return strndup(name, dot && dot != name ? (size_t)(dot - name) : strlen(name));
}

/* DIR + "/" + stem(input) + suffix */
static char *inside(const char *dir, const char *input, const char *suffix)
{
    char *name = stem(input);
    char *path = NULL;
    if (asprintf(&path, "%s%s%s%s", dir, ends_with(dir, "/") ? "" : "/", name, suffix) < 0)
        path = NULL;
    free(name);
    return path;
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b)
        return false;
    return strcmp(a, b) == 0
           || (stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev
               && sa.st_ino == sb.st_ino);
}

enum { MAX_OUTPUTS_PER_JOB = TARGET_COUNT + 4 }; /* code, header, JSON, depfile, -E */

/* Where one input's outputs go. */
typedef struct Job {
    const char *input;          /* as given; "-" is stdin */
    const char *name;           /* in diagnostics: the input, or "<stdin>" */
    char *base;                 /* outputs are base + extension; NULL if none may be */
    char *path[TARGET_COUNT];   /* each selected target ("-": stdout) */
    char *header, *json, *deps; /* or NULL */
    char *preprocessed;         /* -E: "-" or -o FILE */
    char *rule_target[TARGET_COUNT]; /* the depfile rule's targets when no file is named */
} Job;

static void job_free(Job *job)
{
    free(job->base);
    for (int t = 0; t < TARGET_COUNT; t++) {
        free(job->path[t]);
        free(job->rule_target[t]);
    }
    free(job->header);
    free(job->json);
    free(job->deps);
    free(job->preprocessed);
}

/* True for an input in /dev, /proc or /sys: /dev/stdin redirected from a
 * file is a regular file through its links, but nothing may be written
 * beside it. */
static bool in_system_directory(const char *input)
{
    const char *slash = strrchr(input, '/');
    char *dir = slash ? strndup(input, (size_t)(slash - input) + 1) : strdup(".");
    char *real = dir ? realpath(dir, NULL) : NULL;
    bool system = false;
    static const char *const roots[] = {"/dev", "/proc", "/sys"};
    for (int i = 0; real && i < 3; i++) {
        size_t n = strlen(roots[i]);
        system |= strncmp(real, roots[i], n) == 0 && (real[n] == '/' || real[n] == '\0');
    }
    free(real);
    free(dir);
    return system;
}

/* The path outputs are named after: -o minus a .cl/.cu suffix, DIR/stem
 * for -o DIR/, or the input minus its extension (so outputs land next to
 * the input) — only for a regular file.  NULL with *why set otherwise. */
static char *output_base(const DriverOptions *opt, const char *input, const char **why)
{
    *why = NULL;
    if (opt->output && names_directory(opt->output)) {
        if (is_stdin(input))
            *why = "standard input has no name to put in a directory";
        return is_stdin(input) ? NULL : inside(opt->output, input, "");
    }
    if (opt->output && strcmp(opt->output, "-") != 0) {
        size_t n = strlen(opt->output);
        for (int t = 0; t < TARGET_COUNT; t++)
            if (ends_with(opt->output, emit_targets[t].extension))
                n -= strlen(emit_targets[t].extension);
        return strndup(opt->output, n);
    }
    struct stat st;
    if (is_stdin(input)) {
        *why = "reading standard input";
        return NULL;
    }
    if ((stat(input, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        || in_system_directory(input)) {
        *why = "is not a regular file";
        return NULL;
    }
    const char *slash = strrchr(input, '/');
    const char *name = slash ? slash + 1 : input;
    const char *dot = strrchr(name, '.');
    return strndup(input, dot && dot != name ? (size_t)(dot - input) : strlen(input));
}

/* A --header/--emit-json PATH: as given for one input; with several, a
 * directory holding one file per input. */
static char *side_output(const DriverOptions *opt, const char *path, const char *input,
                         const char *suffix)
{
    if (!path)
        return NULL;
    if (opt->input_count > 1 || (names_directory(path) && !is_stdin(input)))
        return inside(path, input, suffix);
    return strdup(path);
}

static bool writes_code(const DriverOptions *opt)
{
    return !opt->preprocess && !opt->syntax_only && !opt->deps_only;
}

/* "'/dev/stdin' is not a regular file: name the depfile with -MF": why
 * there is no name to derive an output's from, and the option that names
 * the one needed. */
static int base_needed(const Job *job, const char *why, const char *remedy)
{
    if (is_stdin(job->input))
        return usage_error("%s: %s", why, remedy);
    return usage_error("'%s' %s: %s", job->input, why, remedy);
}

static bool names_a_file(const char *path)
{
    return path && strcmp(path, "-") != 0;
}

/* Without -MT/-MQ the rule names every file the input writes; when it
 * writes none by name (-o - and no --header/--emit-json file), the files
 * its code would have gone to without -o (dir/x.sgc: dir/x.cl), so that a
 * target is never "-" and never the input itself. */
static int plan_rule_targets(const DriverOptions *opt, Job *job, const char *why)
{
    bool named = names_a_file(job->header) || names_a_file(job->json);
    for (int t = 0; t < TARGET_COUNT; t++)
        named |= names_a_file(job->path[t]);
    if (named || opt->deps_target_count > 0)
        return -1;
    if (!job->base)
        return base_needed(job, why, "name the target of the depfile's rule with -MT");
    for (int t = 0; t < TARGET_COUNT; t++) {
        if (!opt->target[t])
            continue;
        job->rule_target[t] = concat(job->base, emit_targets[t].extension);
        if (job->rule_target[t] && same_file(job->rule_target[t], job->input))
            return usage_error("the depfile's rule would name the input '%s' as its target: "
                               "name the target with -MT", job->input);
    }
    return -1;
}

/* Fills the paths of one input; returns a status or -1. */
static int plan_job(const DriverOptions *opt, Job *job)
{
    const char *why;
    int selected = selected_target_count(opt);
    bool to_stdout = opt->output && strcmp(opt->output, "-") == 0;
    job->name = is_stdin(job->input) ? "<stdin>" : job->input;
    job->base = output_base(opt, job->input, &why);
    if (opt->preprocess) {
        job->preprocessed = strdup(opt->output ? opt->output : "-");
        return -1;
    }
    if (opt->syntax_only)
        return -1;
    bool named_by_deps = opt->deps_target_count > 0;
    bool deps_file = opt->deps_md || opt->deps_file || (named_by_deps && !opt->deps_only);
    bool code_needs_base = writes_code(opt) && !(to_stdout || (opt->output && selected == 1));
    if (code_needs_base && !job->base)
        return base_needed(job, why,
                           is_stdin(job->input) ? "name the outputs with -o (-o - for one target)"
                                                : "name the outputs with -o");
    if (deps_file && !opt->deps_file && !job->base)
        return base_needed(job, why, "name the depfile with -MF");
    for (int t = 0; t < TARGET_COUNT; t++) {
        if (!opt->target[t])
            continue;
        if (opt->output && selected == 1 && !names_directory(opt->output))
            job->path[t] = strdup(opt->output);
        else if (job->base)
            job->path[t] = concat(job->base, emit_targets[t].extension);
    }
    job->header = side_output(opt, opt->header, job->input, ".h");
    job->json = side_output(opt, opt->emit_json, job->input, ".json");
    if (opt->deps_file)
        job->deps = strdup(opt->deps_file);
    else if (opt->deps_only)
        job->deps = strdup("-");
    else if (deps_file) /* -MD, -MMD, or -MT/-MQ alone */
        job->deps = concat(job->base, ".d");
    const char *outputs[] = {job->path[0], job->path[1], job->header, job->json, job->deps};
    for (size_t i = 0; i < sizeof outputs / sizeof *outputs; i++)
        if (outputs[i] && !is_stdin(job->input) && same_file(outputs[i], job->input))
            return usage_error("output '%s' would overwrite the input", outputs[i]);
    return job->deps ? plan_rule_targets(opt, job, why) : -1;
}

/* ---- one file, one output -------------------------------------------------- */

/* A file some input of the run will write. */
typedef struct PlannedFile {
    OutputIdentity id;
    const char *path;  /* as spelled */
    const char *role;  /* the option that names it, for the message */
    int job, order;    /* order: position in the run (a stable sort) */
} PlannedFile;

static int compare_planned(const void *pa, const void *pb)
{
    const PlannedFile *a = pa, *b = pb;
    if (a->id.exists != b->id.exists)
        return a->id.exists ? -1 : 1;
    int c = 0;
    if (a->id.exists)
        c = a->id.dev != b->id.dev ? (a->id.dev < b->id.dev ? -1 : 1)
            : a->id.ino != b->id.ino ? (a->id.ino < b->id.ino ? -1 : 1) : 0;
    else
        c = strcmp(a->id.name, b->id.name);
    return c ? c : a->order - b->order;
}

/* The files job `j` writes, with the option that names each. */
static int planned_files(const DriverOptions *opt, const Job *job, int j, PlannedFile *out)
{
    const char *code_role = opt->output ? "-o" : "output";
    struct {
        const char *path, *role;
    } files[] = {
        {writes_code(opt) ? job->path[0] : NULL, code_role},
        {writes_code(opt) ? job->path[1] : NULL, code_role},
        {writes_code(opt) ? job->header : NULL, "--header"},
        {writes_code(opt) ? job->json : NULL, "--emit-json"},
        {job->deps, opt->deps_file ? "-MF" : "-MD"},
        {job->preprocessed, "-E -o"},
    };
    _Static_assert(TARGET_COUNT == 2, "one row per target above");
    int n = 0;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        if (names_a_file(files[i].path))
            out[n++] = (PlannedFile){.path = files[i].path, .role = files[i].role, .job = j};
    return n;
}

static int report_shared_file(const Job *jobs, const PlannedFile *a, const PlannedFile *b)
{
    if (a->job == b->job)
        return usage_error("two outputs on one file: '%s' (%s) and '%s' (%s); give each its "
                           "own name", a->path, a->role, b->path, b->role);
    return usage_error("inputs '%s' and '%s' would both write '%s': compile them one at a "
                       "time or into different directories", jobs[a->job].input,
                       jobs[b->job].input, b->path);
}

/* Two outputs on one file — by any spelling, link or hard link — would
 * leave only the last: a usage error before anything is written.  A
 * character device (/dev/null) may take several; so may one input given
 * twice, whose outputs are the same bytes. */
static int check_distinct_files(const DriverOptions *opt, const Job *jobs)
{
    size_t cap = (size_t)opt->input_count * MAX_OUTPUTS_PER_JOB, n = 0;
    PlannedFile *files = calloc(cap, sizeof *files);
    if (!files)
        return usage_error("out of memory");
    int status = -1;
    for (int j = 0; j < opt->input_count; j++)
        n += (size_t)planned_files(opt, &jobs[j], j, files + n);
    for (size_t i = 0; i < n && status < 0; i++) {
        files[i].order = (int)i;
        if (!output_identity(files[i].path, &files[i].id))
            status = usage_error("out of memory");
    }
    if (status < 0)
        qsort(files, n, sizeof *files, compare_planned);
    for (size_t i = 1; i < n && status < 0; i++) {
        const PlannedFile *a = &files[i - 1], *b = &files[i];
        if (!output_identity_equal(&a->id, &b->id) || a->id.shareable)
            continue;
        if (a->job != b->job && !is_stdin(jobs[a->job].input)
            && same_file(jobs[a->job].input, jobs[b->job].input))
            continue;
        status = report_shared_file(jobs, a, b);
    }
    for (size_t i = 0; i < n; i++)
        output_identity_free(&files[i].id);
    free(files);
    return status;
}

/* Usage checks that concern the set of inputs and outputs. */
static int check_outputs(const DriverOptions *opt)
{
    int selected = selected_target_count(opt);
    bool several = opt->input_count > 1;
    bool to_dir = names_directory(opt->output);
    if (opt->output && strcmp(opt->output, "-") == 0 && !opt->preprocess && !opt->deps_only
        && !opt->syntax_only && selected != 1)
        return usage_error("'-o -' writes one target to stdout: add -t opencl or -t cuda");
    if (several && opt->output && !to_dir && !opt->syntax_only && !(opt->preprocess && strcmp(opt->output, "-") == 0))
        return usage_error("-o '%s' with %d inputs: name a directory (-o DIR/) or compile "
                           "one input at a time", opt->output, opt->input_count);
    if (opt->preprocess && to_dir)
        return usage_error("-E writes to stdout or to one file (-o FILE)");
    if (several && opt->deps_file && !opt->syntax_only && !opt->preprocess)
        return usage_error("-MF names one depfile: with %d inputs use -MD alone",
                           opt->input_count);
    const char *stdout_users[] = {opt->output, opt->header, opt->emit_json, opt->deps_file};
    int to_stdout = 0;
    for (int i = 0; i < 4; i++)
        to_stdout += stdout_users[i] && strcmp(stdout_users[i], "-") == 0;
    if (to_stdout > 1 && writes_code(opt))
        return usage_error("only one output can go to standard output ('-')");
    const char *side[] = {opt->header, opt->emit_json};
    for (int i = 0; i < 2; i++)
        if (several && side[i] && !names_directory(side[i]) && writes_code(opt))
            return usage_error("%s '%s' with %d inputs: name a directory (DIR/)",
                               i == 0 ? "--header" : "--emit-json", side[i], opt->input_count);
    return -1;
}

/* ---- writing ------------------------------------------------------------- */

/* A file to produce (output.h: a temporary renamed at commit, or written
 * in place at commit). */
typedef struct Output {
    OutputFile file;     /* file.path "-" means stdout */
    const char *data;
    size_t len;
} Output;

enum { MAX_OUTPUTS = MAX_OUTPUTS_PER_JOB };
_Static_assert((int)MAX_OUTPUTS <= (int)OUTPUT_MAX_TEMPS, "a temporary slot per output");

typedef struct Writer {
    Output outputs[MAX_OUTPUTS];
    int count;
    EmitBuffer deps;     /* the depfile's text */
    bool failed;         /* an I/O error: exit 3 */
    Diag *diag;          /* where I/O errors go */
    bool verbose;
} Writer;

static void io_error(Writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void io_error(Writer *w, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    DiagRecord r = {.level = DIAG_ERROR, .file = "sgcc", .message = message};
    diag_print(w->diag, &r);
    fflush(w->diag->out);
    w->failed = true;
}

static void add_output(Writer *w, const char *path, const char *data, size_t len)
{
    w->outputs[w->count++] = (Output){.file = {.path = path, .slot = -1},
                                      .data = data ? data : "", .len = len};
}

static bool is_stdout(const Output *o)
{
    return strcmp(o->file.path, "-") == 0;
}

/* Writes o's text to a temporary beside its destination, or notes that it
 * is written in place (a device, a FIFO). */
static bool stage_output(Writer *w, Output *o, mode_t mode)
{
    if (is_stdout(o))
        return true; /* stdout is written at commit */
    const char *step;
    if (output_stage(&o->file, o->data, o->len, mode, &step))
        return true;
    io_error(w, "cannot %s '%s': %s", step, o->file.path, strerror(errno));
    return false;
}

static void wrote(const Writer *w, const Output *o)
{
    if (w->verbose && !is_stdout(o))
        fprintf(stderr, "sgcc: wrote '%s'\n", o->file.path);
}

/* Stdout and files written in place: what cannot be undone, so it goes
 * before any rename (a full /dev/full then leaves every file as it was). */
static bool commit_in_place(Writer *w, const Output *o)
{
    if (is_stdout(o)) {
        if (fwrite(o->data, 1, o->len, stdout) != o->len || fflush(stdout) != 0) {
            io_error(w, "cannot write to stdout: %s", strerror(errno));
            return false;
        }
        return true;
    }
    if (!output_write_in_place(&o->file, o->data, o->len)) {
        io_error(w, "cannot write '%s': %s", o->file.path, strerror(errno));
        return false;
    }
    wrote(w, o);
    return true;
}

static bool commit_rename(Writer *w, Output *o)
{
    const char *temp = output_temp_name(&o->file);
    if (!output_rename(&o->file)) {
        io_error(w, "cannot rename '%s' to '%s': %s", temp, o->file.dest, strerror(errno));
        return false;
    }
    wrote(w, o);
    return true;
}

/* mkdir -p for a directory the user named with a trailing slash ("-o
 * build/"): that spelling says "a directory", so it is made, as the
 * outputs are about to be written (never when the input has errors). */
static void make_named_directory(Writer *w, const char *dir)
{
    if (!dir || !ends_with(dir, "/"))
        return;
    char *path = strdup(dir);
    for (char *p = path ? path + 1 : NULL; p && *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            io_error(w, "cannot create directory '%s': %s", path, strerror(errno));
        *p = '/';
    }
    free(path);
}

/* Stages every output, then commits them: first what is written in place,
 * then the renames; nothing is committed unless every output was staged. */
static void write_outputs(Writer *w, const DriverOptions *opt)
{
    mode_t mask = umask(0);
    umask(mask);
    if (writes_code(opt)) {
        make_named_directory(w, opt->output);
        make_named_directory(w, opt->header);
        make_named_directory(w, opt->emit_json);
    }
    for (int i = 0; i < w->count && !w->failed; i++)
        if (!stage_output(w, &w->outputs[i], 0666 & ~mask))
            return;
    for (int i = 0; i < w->count; i++) {
        Output *o = &w->outputs[i];
        if ((is_stdout(o) || o->file.in_place) && !commit_in_place(w, o))
            return;
    }
    for (int i = 0; i < w->count; i++) {
        Output *o = &w->outputs[i];
        if (!is_stdout(o) && !o->file.in_place && !commit_rename(w, o))
            return;
    }
}

static void writer_free(Writer *w)
{
    for (int i = 0; i < w->count; i++)
        output_discard(&w->outputs[i].file);
    emit_buffer_free(&w->deps);
}

/* ---- depfiles ------------------------------------------------------------- */

/* The rule's targets: -MT/-MQ, else every file this input writes (code,
 * header, JSON), else the files its code would have had without -o -
 * (plan_rule_targets). */
static void format_deps(const DriverOptions *opt, const Job *job, const sgcc_result *result,
                        EmitBuffer *out)
{
    const char *targets[MAX_OUTPUTS];
    int target_count = 0;
    for (int i = 0; i < opt->deps_target_count; i++)
        targets[target_count++] = opt->deps_targets[i];
    bool quote[MAX_OUTPUTS] = {false};
    if (target_count == 0) {
        const char *written[] = {job->path[0], job->path[1], job->header, job->json};
        for (size_t i = 0; i < sizeof written / sizeof *written; i++)
            if (written[i] && strcmp(written[i], "-") != 0) {
                quote[target_count] = true;
                targets[target_count++] = written[i];
            }
    }
    bool named = target_count > 0;
    for (int t = 0; t < TARGET_COUNT && !named; t++) {
        if (job->rule_target[t]) { /* plan_rule_targets: no file is named */
            quote[target_count] = true;
            targets[target_count++] = job->rule_target[t];
        }
    }
    size_t count = sgcc_result_get_dependency_count(result);
    const char **deps = calloc(count + 1, sizeof *deps);
    size_t n = 0;
    for (size_t i = 0; deps && i < count; i++) {
        const char *dep = sgcc_result_get_dependency(result, i);
        if (!(i == 0 && is_stdin(job->input))) /* standard input is no file make knows */
            deps[n++] = dep;
    }
    depfile_format(out, targets, quote, target_count, deps, (int)n, opt->deps_phony);
    free(deps);
}

/* ---- one input ----------------------------------------------------------- */

typedef struct VerifyContext {
    const Job *job;
    bool enabled;
} VerifyContext;

/* libsgcc hook: --verify compiles the emitted code while the tree exists. */
static void verify_hook(void *ctx, const TranslationUnit *tu, const EmitBuffer *code[TARGET_COUNT],
                        Diag *diag)
{
    const VerifyContext *v = ctx;
    for (int t = 0; t < TARGET_COUNT && v->enabled; t++) {
        if (!code[t] || !v->job->path[t])
            continue;
        const char *path = v->job->path[t];
        const char *name = strcmp(path, "-") == 0 ? emit_targets[t].extension : path;
        verify_output(emit_targets[t].kind, tu, name, code[t], diag);
    }
}

/* --stats: one line per target, for tuning and for the uniformity figures
 * of bench/RESULTS.md. */
static void print_stats(const char *input, const sgcc_result *result)
{
    for (int t = 0; t < TARGET_COUNT; t++) {
        const EmitStats *s = sgcc_result_get_stats(result, (EmitTargetKind)t);
        if (s)
            fprintf(stderr,
                    "%s: %s: tangle-mask functions %d, ballots emitted %d, "
                    "uniform branches without a ballot %d, fixed-size group algorithms with "
                    "creation facts %d of %d\n",
                    input, emit_targets[t].name, s->tangle_functions, s->ballots,
                    s->uniform_branches, s->creator_facts, s->fixed_group_calls);
    }
}

static void print_diagnostics(Diag *printer, const sgcc_result *result)
{
    for (size_t i = 0; i < sgcc_result_get_diagnostic_count(result); i++) {
        const sgcc_diagnostic *d = sgcc_result_get_diagnostic(result, i);
        DiagRecord r = {.level = (DiagLevel)d->severity,
                        .file = d->file,
                        .line = d->line,
                        .column = d->column,
                        .message = d->message,
                        .source_line = d->source_line,
                        .source_line_len = d->source_line_length};
        /* The option text is "-Wname" or "-Werror=name"; the record wants the id. */
        if (d->option) {
            const char *name = d->option + 2;
            name += strncmp(name, "error=", 6) == 0 ? 6 : 0;
            r.warning = diag_warning_find(name);
        }
        diag_print(printer, &r);
        fflush(printer->out); /* one write(2) per diagnostic (stderr is buffered: main) */
    }
}

/* Reads all of standard input; NULL (errno set) on failure. */
static char *read_stdin(size_t *len)
{
    size_t cap = 65536;
    char *buf = malloc(cap);
    *len = 0;
    while (buf) {
        size_t want = cap - *len, n = fread(buf + *len, 1, want, stdin);
        *len += n;
        if (n < want) /* end of file or an error: no read after either */
            break;
        if (cap - *len < 4096) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown)
                free(buf);
            buf = grown;
        }
    }
    if (buf && ferror(stdin)) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void print_search_list(const DriverOptions *opt, const Job *job)
{
    fprintf(stderr, "sgcc: compiling '%s' (targets:", job->name);
    for (int t = 0; t < TARGET_COUNT; t++)
        if (opt->target[t])
            fprintf(stderr, " %s", emit_targets[t].name);
    fputs(")\n#include \"...\" search starts here:\n #include's own directory\n"
          "#include <...> search starts here:\n",
          stderr);
    for (int i = 0; i < opt->include_dir_count; i++)
        fprintf(stderr, " %s\n", opt->include_dirs[i]);
    fputs("End of search list.\n", stderr);
}

/* The libsgcc options of one input (a copy of the shared ones, plus what
 * depends on this input). */
static sgcc_status configure(const DriverOptions *opt, const Job *job, VerifyContext *verify)
{
    sgcc_options *lib = opt->lib;
    unsigned targets = 0;
    for (int t = 0; t < TARGET_COUNT; t++)
        targets |= opt->target[t] ? sgcc_target_bit(t) : 0;
    sgcc_status s = sgcc_options_set_targets(lib, targets);
    if (s == SGCC_OK)
        s = sgcc_options_set_header(lib, job->header != NULL);
    if (s == SGCC_OK)
        s = sgcc_options_set_module_json(lib, job->json != NULL);
    if (s == SGCC_OK)
        s = sgcc_options_set_preprocess_only(lib, opt->preprocess || opt->deps_only);
    if (s == SGCC_OK && is_stdin(job->input)) {
        /* The header's and JSON's module name: from -o, else "stdin". */
        char module[256];
        emit_header_module_name(job->base ? job->base : "stdin", module, sizeof module);
        s = sgcc_options_set_module_name(lib, module);
    }
    verify->job = job;
    verify->enabled = opt->verify && writes_code(opt);
    SgccHooks hooks = {.after_emit = verify_hook, .ctx = verify, .stats = opt->stats};
    sgcc_options_set_hooks(lib, &hooks);
    return s;
}

static sgcc_status compile_job(const DriverOptions *opt, const Job *job, sgcc_result **result)
{
    VerifyContext verify;
    sgcc_status s = configure(opt, job, &verify);
    if (s != SGCC_OK)
        return s;
    if (!is_stdin(job->input))
        return sgcc_compile_file(opt->lib, job->input, result);
    size_t len;
    char *text = read_stdin(&len);
    if (!text) {
        *result = NULL;
        return SGCC_ERROR_IO;
    }
    s = sgcc_compile_string(opt->lib, "<stdin>", text, len, result);
    free(text);
    return s;
}

static void collect_outputs(const DriverOptions *opt, const Job *job, const sgcc_result *result,
                            Writer *w)
{
    size_t len;
    const char *text;
    if (opt->preprocess) {
        text = sgcc_result_get_output(result, SGCC_OUTPUT_PREPROCESSED, &len);
        add_output(w, job->preprocessed, text, len);
        return;
    }
    if (opt->syntax_only)
        return;
    if (!opt->deps_only) {
        for (int t = 0; t < TARGET_COUNT; t++) {
            if (!job->path[t])
                continue;
            text = sgcc_result_get_output(result, sgcc_target_output(t), &len);
            add_output(w, job->path[t], text, len);
        }
        if (job->header) {
            text = sgcc_result_get_output(result, SGCC_OUTPUT_HEADER, &len);
            add_output(w, job->header, text, len);
        }
        if (job->json) {
            text = sgcc_result_get_output(result, SGCC_OUTPUT_MODULE_JSON, &len);
            add_output(w, job->json, text, len);
        }
    }
    if (job->deps) {
        format_deps(opt, job, result, &w->deps);
        add_output(w, job->deps, w->deps.data, w->deps.len);
    }
}

static int run_job(const DriverOptions *opt, const Job *job, Diag *printer)
{
    if (opt->verbose)
        print_search_list(opt, job);
    sgcc_result *result = NULL;
    sgcc_status status = compile_job(opt, job, &result);
    Writer w = {.diag = printer, .verbose = opt->verbose};
    emit_buffer_init(&w.deps);
    if (result)
        print_diagnostics(printer, result);
    if (result && opt->stats)
        print_stats(job->name, result);
    if (status == SGCC_OK) {
        collect_outputs(opt, job, result, &w);
        write_outputs(&w, opt);
    } else if (!result) {
        io_error(&w, status == SGCC_ERROR_IO ? "cannot read standard input: %s" : "%s",
                 status == SGCC_ERROR_IO ? strerror(errno) : sgcc_status_to_string(status));
    }
    int exit_status = w.failed || status == SGCC_ERROR_IO || status == SGCC_ERROR_OUT_OF_MEMORY
                          ? STATUS_IO_ERROR
                      : status == SGCC_OK ? STATUS_OK
                                          : STATUS_INPUT_ERROR;
    writer_free(&w);
    sgcc_result_destroy(result);
    return exit_status;
}

/* ---- main ------------------------------------------------------------------ */

static bool color_wanted(ColorMode mode)
{
    if (mode != COLOR_AUTO)
        return mode == COLOR_ALWAYS;
    const char *term = getenv("TERM");
    return isatty(STDERR_FILENO) && !getenv("NO_COLOR") && !(term && strcmp(term, "dumb") == 0);
}

/* The printer of every diagnostic of the run (one JSON array for all). */
static void printer_init(Diag *printer, const DriverOptions *opt)
{
    diag_init(printer, NULL, stderr);
    printer->format = opt->format;
    printer->color = opt->format == DIAG_FORMAT_TEXT && color_wanted(opt->color);
    /* GCC_COLORS picks the colours; set but empty, it turns auto colour off
     * (as for GCC).  --color=always still colours, with GCC's defaults. */
    const char *gcc_colors = getenv("GCC_COLORS");
    if (gcc_colors && !*gcc_colors && opt->color == COLOR_AUTO)
        printer->color = false;
    diag_set_colors(printer, gcc_colors);
}

static int run_jobs(const DriverOptions *opt)
{
    int status = check_outputs(opt);
    if (status >= 0)
        return status;
    /* At least one input: parse_options stops at "no input file" (through
     * usage_error, which is variadic, so the analyzer does not follow it). */
    /* NOLINTNEXTLINE(clang-analyzer-optin.portability.UnixAPI) */
    Job *jobs = calloc((size_t)opt->input_count, sizeof *jobs);
    if (!jobs)
        return usage_error("out of memory");
    for (int i = 0; i < opt->input_count && status < 0; i++) {
        jobs[i].input = opt->inputs[i];
        status = plan_job(opt, &jobs[i]);
    }
    if (status < 0)
        status = check_distinct_files(opt, jobs);
    if (status < 0) {
        if (opt->verbose)
            fprintf(stderr, "sgcc version %s\n", SGCC_VERSION);
        Diag printer;
        printer_init(&printer, opt);
        status = STATUS_OK;
        for (int i = 0; i < opt->input_count; i++) {
            int s = run_job(opt, &jobs[i], &printer);
            status = s > status ? s : status;
        }
        diag_finish(&printer);
    }
    for (int i = 0; i < opt->input_count; i++)
        job_free(&jobs[i]);
    free(jobs);
    return status;
}

int main(int argc, char **argv)
{
    DriverOptions opt = {.target = {true, true}, .color = COLOR_AUTO};
    size_t n = (size_t)argc + 1;
    opt.inputs = calloc(n, sizeof *opt.inputs);
    opt.include_dirs = calloc(n, sizeof *opt.include_dirs);
    opt.deps_targets = calloc(n, sizeof *opt.deps_targets);
    opt.lib = sgcc_options_create();
    /* stderr is unbuffered by default: a diagnostic would cost a write(2)
     * per character.  Fully buffered, flushed after each diagnostic and at
     * exit. */
    static char stderr_buffer[1 << 16];
    setvbuf(stderr, stderr_buffer, _IOFBF, sizeof stderr_buffer);
    output_install_signal_handlers();
    int status;
    if (!opt.inputs || !opt.include_dirs || !opt.deps_targets || !opt.lib) {
        fputs("sgcc: error: out of memory\n", stderr);
        status = STATUS_IO_ERROR;
    } else {
        status = parse_options(&opt, argc, argv);
        if (status < 0)
            status = run_jobs(&opt);
    }
    for (int i = 0; i < opt.deps_target_count; i++)
        free(opt.deps_targets[i]);
    free(opt.deps_targets);
    free(opt.inputs);
    free(opt.include_dirs);
    sgcc_options_destroy(opt.lib);
    return status;
}
