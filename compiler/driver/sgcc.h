/* sgcc.h — libsgcc, the SGC compiler as a C library (docs/LIBSGCC.md).
 *
 * One call turns SGC source (a string or a file) into OpenCL C, CUDA C, the
 * host header, the module description (JSON) and structured diagnostics.
 * The sgcc command is a thin layer of options, paths and file writing
 * around these calls, so both produce the same bytes.
 *
 *     sgcc_options *opt = sgcc_options_create();
 *     sgcc_options_add_define(opt, "BLOCK=64");
 *     sgcc_result *res = NULL;
 *     sgcc_status st = sgcc_compile_string(opt, "k.sgc", text, strlen(text), &res);
 *     if (st == SGCC_OK)
 *         use(sgcc_result_get_output(res, SGCC_OUTPUT_OPENCL, NULL));
 *     else if (res)
 *         fputs(sgcc_result_get_diagnostics_text(res), stderr);
 *     sgcc_result_destroy(res);
 *     sgcc_options_destroy(opt);
 *
 * Conventions.  Every object is opaque and owned by the caller who created
 * it; each has one destroy function that accepts NULL.  Strings returned by
 * a result live as long as the result.  No function exits, prints or keeps
 * global state: separate calls may run at the same time on different
 * threads; one options object may be shared by concurrent compilations as
 * long as nobody changes it meanwhile.  Failure is a status code, never a
 * crash; out of memory is SGCC_ERROR_OUT_OF_MEMORY.
 *
 * At run time the library needs only the C library (no flex, bison, libclang
 * or NVRTC: --verify stays in the command). */
#ifndef SGCC_H
#define SGCC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped when a declaration below changes incompatibly. */
#define SGCC_API_VERSION 1

typedef enum sgcc_status {
    SGCC_OK = 0,
    SGCC_ERROR_COMPILE = 1,          /* errors in the input: see the diagnostics */
    SGCC_ERROR_INVALID_ARGUMENT = 2, /* NULL where an object is needed, a bad option */
    SGCC_ERROR_IO = 3,               /* a file could not be read */
    SGCC_ERROR_OUT_OF_MEMORY = 4,
} sgcc_status;

/* Languages to emit, a bit mask for sgcc_options_set_targets. */
typedef enum sgcc_target {
    SGCC_TARGET_OPENCL = 1u << 0,
    SGCC_TARGET_CUDA = 1u << 1,
    SGCC_TARGET_ALL = SGCC_TARGET_OPENCL | SGCC_TARGET_CUDA,
} sgcc_target;

/* What a result can hold (sgcc_result_get_output).  The numbers stay: new
 * kinds (a later target's code) are only ever added before
 * SGCC_OUTPUT_COUNT. */
typedef enum sgcc_output {
    SGCC_OUTPUT_OPENCL,       /* OpenCL C (when the OpenCL target is selected) */
    SGCC_OUTPUT_CUDA,         /* CUDA C (when the CUDA target is selected) */
    SGCC_OUTPUT_HEADER,       /* the host header for sgrt (sgcc_options_set_header) */
    SGCC_OUTPUT_MODULE_JSON,  /* the module description (sgcc_options_set_module_json) */
    SGCC_OUTPUT_PREPROCESSED, /* preprocessed source, as sgcc -E (sgcc_options_set_preprocess_only) */
    SGCC_OUTPUT_COUNT
} sgcc_output;

typedef enum sgcc_severity {
    SGCC_SEVERITY_NOTE,
    SGCC_SEVERITY_WARNING,
    SGCC_SEVERITY_ERROR,
    SGCC_SEVERITY_FATAL,
} sgcc_severity;

/* One diagnostic, owned by its result.  New fields are only ever added at
 * the end, and the library allocates the struct, so code compiled against
 * an older sgcc.h keeps working. */
typedef struct sgcc_diagnostic {
    sgcc_severity severity;  /* after -Werror */
    const char *file;        /* as named on input or by #include; "sgcc" for none */
    unsigned line, column;   /* 1-based; 0 when there is no location */
    const char *message;     /* one line, without the "[-Wname]" */
    const char *option;      /* "-Wname" / "-Werror=name" for a warning, else NULL */
    const char *source_line; /* the line at the location, without newline, or NULL */
    const char *text;        /* all of it as sgcc prints it (locus, message, line, caret) */
    size_t source_line_length; /* bytes of source_line (it may hold a NUL byte) */
} sgcc_diagnostic;

typedef struct sgcc_options sgcc_options;
typedef struct sgcc_result sgcc_result;

/* ---- options ------------------------------------------------------------ */

/* Defaults: both targets, no header, no JSON, warnings as sgcc's defaults.
 * NULL when out of memory. */
sgcc_options *sgcc_options_create(void);
void sgcc_options_destroy(sgcc_options *options);

/* -D NAME[=VALUE] (VALUE defaults to 1) and -U NAME, applied in call order. */
sgcc_status sgcc_options_add_define(sgcc_options *options, const char *definition);
sgcc_status sgcc_options_add_undefine(sgcc_options *options, const char *name);
/* -I DIR: searched in call order after the including file's directory. */
sgcc_status sgcc_options_add_include_dir(sgcc_options *options, const char *dir);
/* A non-empty mask of sgcc_target. */
sgcc_status sgcc_options_set_targets(sgcc_options *options, unsigned targets);
/* Also produce the host header / the module description (0 or 1).  Both
 * describe both backends, so they compile for both whatever the targets. */
sgcc_status sgcc_options_set_header(sgcc_options *options, int enabled);
sgcc_status sgcc_options_set_module_json(sgcc_options *options, int enabled);
/* Stop after preprocessing: the result holds SGCC_OUTPUT_PREPROCESSED (with
 * "# line" markers) and the dependency list, nothing else. */
sgcc_status sgcc_options_set_preprocess_only(sgcc_options *options, int enabled);
/* The module name the header and the JSON use; NULL (default): from the
 * source's name ("dir/mat-mul.sgc" -> "mat_mul"). */
sgcc_status sgcc_options_set_module_name(sgcc_options *options, const char *name);
/* -fmax-errors=N: after N errors the next one is replaced by a fatal "too
 * many errors emitted, stopping now [-fmax-errors=]" and the compilation
 * stops; 0 means no limit.  Default SGCC_DEFAULT_MAX_ERRORS. */
#define SGCC_DEFAULT_MAX_ERRORS 20
sgcc_status sgcc_options_set_max_errors(sgcc_options *options, unsigned max_errors);
/* A warning option spelled as for the command: "-Wname", "-Wno-name",
 * "-Werror", "-Werror=name", "-Wno-error=name", "-Wall", "-Wextra", "-w".
 * An unknown "-Wname" is SGCC_ERROR_INVALID_ARGUMENT; an unknown
 * "-Wno-name" is accepted and ignored, as GCC does. */
sgcc_status sgcc_options_add_warning_flag(sgcc_options *options, const char *flag);

/* ---- compiling ---------------------------------------------------------- */

/* Compiles `length` bytes of `text` (need not be NUL-terminated); `name`
 * is the file name diagnostics and __FILE__ show (NULL: "<string>"), and
 * the directory of quote includes.  `options` may be NULL for defaults.
 *
 * *result is set for SGCC_OK, SGCC_ERROR_COMPILE and SGCC_ERROR_IO (it
 * holds the diagnostics saying why) and must be destroyed; for other
 * statuses it is NULL. */
sgcc_status sgcc_compile_string(const sgcc_options *options, const char *name, const char *text,
                                size_t length, sgcc_result **result);
/* The same for a file, named in diagnostics as `path` is spelled. */
sgcc_status sgcc_compile_file(const sgcc_options *options, const char *path,
                              sgcc_result **result);

/* ---- results ------------------------------------------------------------ */

/* The status the compile call returned. */
sgcc_status sgcc_result_get_status(const sgcc_result *result);
/* An output's text (NUL-terminated; `length`, when not NULL, gets its
 * length), or NULL when it was not asked for or the input has errors. */
const char *sgcc_result_get_output(const sgcc_result *result, sgcc_output output,
                                   size_t *length);
size_t sgcc_result_get_diagnostic_count(const sgcc_result *result);
/* NULL when index is out of range. */
const sgcc_diagnostic *sgcc_result_get_diagnostic(const sgcc_result *result, size_t index);
/* Every diagnostic's text in order, "" when there are none. */
const char *sgcc_result_get_diagnostics_text(const sgcc_result *result);
/* Errors (warnings made errors included) and warnings reported. */
unsigned sgcc_result_get_error_count(const sgcc_result *result);
unsigned sgcc_result_get_warning_count(const sgcc_result *result);
/* The files the preprocessor read, main file first, each once: what a
 * make rule needs (sgcc -M). */
size_t sgcc_result_get_dependency_count(const sgcc_result *result);
const char *sgcc_result_get_dependency(const sgcc_result *result, size_t index);
/* The paths the include search (#include and __has_include) looked at and
 * found no regular file at, each once, in the order looked at (relative
 * ones to the working directory, as the dependencies): a file created at
 * one of them would change the translation, so a cache of the result
 * depends on their staying absent as on the dependencies' contents.
 * New after 0.1.0: version node SGCC_0.2 of the shared library. */
size_t sgcc_result_get_absent_include_count(const sgcc_result *result);
const char *sgcc_result_get_absent_include(const sgcc_result *result, size_t index);
void sgcc_result_destroy(sgcc_result *result);

/* ---- misc --------------------------------------------------------------- */

/* "ok", "errors in the input", ...; never NULL. */
const char *sgcc_status_to_string(sgcc_status status);
/* The library's version, "0.1.0". */
const char *sgcc_version(void);

#ifdef __cplusplus
}
#endif

#endif
