/* diag.h — source files and the diagnostics sink.
 *
 * Every token and AST node carries a SrcLoc: a file id and a byte offset in
 * that file's text.  Line and column are computed only when a diagnostic is
 * printed.  Library code reports through a Diag sink and never exits; the
 * driver turns the error count into the process exit status. */
#ifndef SGCC_DIAG_H
#define SGCC_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* A location in the original sources.  file == 0 means "no location"
 * (command line, internal). */
typedef struct SrcLoc {
    uint32_t file;    /* index into SourceManager.files, 1-based */
    uint32_t offset;  /* byte offset into that file's text */
} SrcLoc;

typedef struct SourceFile {
    char *name;            /* path as given / as found on the include path */
    char *text;            /* whole contents, NUL-terminated (owned) */
    size_t size;           /* bytes in text, excluding the NUL */
    uint32_t *line_starts; /* offset of the first byte of each line (owned) */
    uint32_t line_count;
    SrcLoc included_from;  /* location of the #include, or file 0 */
} SourceFile;

typedef struct SourceManager {
    SourceFile **files;    /* files[0] unused so that file id 0 means "none" */
    uint32_t count, capacity;
} SourceManager;

void srcmgr_init(SourceManager *sm);
void srcmgr_free(SourceManager *sm);
/* Reads a file; returns its id, or 0 with errno set. */
uint32_t srcmgr_load(SourceManager *sm, const char *path);
/* Adds in-memory text (tests, <command-line>); copies the text, less a
 * leading UTF-8 byte-order mark (srcmgr_load goes through here too). */
uint32_t srcmgr_add(SourceManager *sm, const char *name, const char *text, size_t size);
const SourceFile *srcmgr_file(const SourceManager *sm, uint32_t id);
/* 1-based line and column (column counts bytes, tabs count as 1). */
void srcmgr_line_col(const SourceManager *sm, SrcLoc loc, unsigned *line, unsigned *col);
/* The text of the line containing loc, without its newline. */
const char *srcmgr_line_text(const SourceManager *sm, SrcLoc loc, size_t *len);

typedef enum DiagLevel { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR, DIAG_FATAL } DiagLevel;

/* Every warning sgcc gives, written once: X(id, name, on by default, what).
 * `name` is the option spelling without "-W" (GCC's or Clang's name for the
 * same warning where they have one): a warning prints "[-Wname]", and
 * -Wname / -Wno-name / -Werror=name select it.  docs/CLI.md lists the same
 * rows (tests/cli checks it). */
#define DIAG_WARNINGS(X)                                                                   \
    X(UNKNOWN_ATTRIBUTES, "unknown-attributes", true, "an attribute sgcc does not know")    \
    X(IGNORED_ATTRIBUTES, "ignored-attributes", true,                                       \
      "a kernel attribute on a function that is not a kernel")                              \
    X(MISSING_DECLARATIONS, "missing-declarations", true,                                   \
      "a declaration that declares nothing")                                                \
    X(DISCARDED_QUALIFIERS, "discarded-qualifiers", true,                                   \
      "a pointer conversion that drops const or volatile")                                  \
    X(EXTRA_TOKENS, "extra-tokens", true, "tokens after the end of a directive")            \
    X(MACRO_REDEFINED, "macro-redefined", true, "a macro defined again with another body")  \
    X(IMPLICITLY_UNSIGNED_LITERAL, "implicitly-unsigned-literal", true,                     \
      "a decimal constant in #if too large for intmax_t")                                   \
    X(CPP, "cpp", true, "#warning")                                                         \
    X(UNKNOWN_ESCAPE_SEQUENCE, "unknown-escape-sequence", true,                             \
      "an unknown escape sequence in a character constant or string")                       \
    X(MULTICHAR, "multichar", true, "a character constant with several characters")         \
    X(VERIFY, "verify", true, "--verify cannot reach a device compiler (NVRTC missing)")    \
    X(TARGET_UNSUPPORTED, "target-unsupported", true,                                       \
      "a kernel left out of one target's output because that target cannot run it")

typedef enum DiagWarning {
    WARN_NONE, /* an error or a note: no option controls it */
#define X(id, name, on, what) WARN_##id,
    DIAG_WARNINGS(X)
#undef X
    WARN_COUNT
} DiagWarning;

typedef struct DiagWarningInfo {
    const char *name;  /* without "-W" */
    bool default_on;
    const char *what;  /* for --help=warnings and the docs */
} DiagWarningInfo;

/* Indexed by DiagWarning; entry WARN_NONE is {NULL}. */
extern const DiagWarningInfo diag_warnings[WARN_COUNT];

/* The warning named `name` (without "-W"), or WARN_NONE. */
DiagWarning diag_warning_find(const char *name);

/* One diagnostic as reported, before printing: what a sink receives. */
typedef struct DiagRecord {
    DiagLevel level;          /* after -Werror */
    DiagWarning warning;      /* WARN_NONE unless a warning (or one made an error) */
    const char *file;         /* file name, "sgcc" when it belongs to no file */
    unsigned line, column;    /* 1-based; 0 when there is no location */
    const char *message;      /* one line, no "[-Wname]" */
    const char *source_line;  /* the line of text at the location, or NULL */
    size_t source_line_len;   /* bytes of source_line, without its newline */
} DiagRecord;

/* The option a record names, "-Wname" or "-Werror=name" (for a warning
 * turned into an error), written to buf; "" when none. */
const char *diag_option_text(const DiagRecord *r, char *buf, size_t size);
typedef enum DiagFormat { DIAG_FORMAT_TEXT, DIAG_FORMAT_JSON } DiagFormat;

/* Parts of a coloured diagnostic, named as in GCC_COLORS; each holds the
 * SGR parameters ("01;31") of its colour, "" for none. */
typedef enum DiagColorPart {
    DIAG_COLOR_ERROR,   /* "error:" and "fatal error:", the caret and its token */
    DIAG_COLOR_WARNING, /* "warning:", ... */
    DIAG_COLOR_NOTE,    /* "note:", ... */
    DIAG_COLOR_LOCUS,   /* "file:line:col:" */
    DIAG_COLOR_QUOTE,   /* 'names' quoted in the message */
    DIAG_COLOR_COUNT
} DiagColorPart;

typedef struct Diag {
    SourceManager *sources;
    FILE *out;               /* where diagnostics go (stderr) */
    DiagFormat format;
    bool color;              /* ANSI colours in text format */
    char sgr[DIAG_COLOR_COUNT][32]; /* the colours; GCC's defaults */
    bool warnings_as_errors; /* -Werror */
    bool suppress_warnings;  /* -w */
    bool warning_enabled[WARN_COUNT]; /* -Wname / -Wno-name; table defaults */
    signed char warning_error[WARN_COUNT]; /* 1: -Werror=name, -1: -Wno-error=name, 0: -Werror decides */
    unsigned error_count, warning_count;
    /* -fmax-errors: the error after this many is replaced by a fatal "too
     * many errors emitted, stopping now" and the unit stops (0 = no limit). */
    unsigned max_errors;
    bool stopped;            /* a fatal error was reported: later ones are dropped,
                              * and the stages stop early (pp_next ends the input) */
    bool json_started;       /* JSON: an array has been opened */
    /* Optional capture hook used by unit tests instead of printing. */
    void (*capture)(void *ctx, DiagLevel level, SrcLoc loc, const char *message);
    void *capture_ctx;
    /* Optional sink for whole records (libsgcc keeps them in its result);
     * when set, nothing is printed.  The record lives for the call only. */
    void (*sink)(void *ctx, const DiagRecord *record);
    void *sink_ctx;
} Diag;

void diag_init(Diag *d, SourceManager *sources, FILE *out);
/* Overrides colours from a GCC_COLORS-style list, "error=01;31:locus=01";
 * keys GCC has and sgcc does not draw (range1, path, ...) are accepted and
 * ignored, as are values that are not SGR parameters (digits and ';'). */
void diag_set_colors(Diag *d, const char *spec);
/* Finishes output (closes the JSON array). */
void diag_finish(Diag *d);

void diag_error(Diag *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* An error after which the unit cannot be read on (a resource limit): it
 * counts as an error, and every diagnostic after it is dropped, since what
 * follows would only be its consequences. */
void diag_fatal(Diag *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_warning(Diag *d, DiagWarning warning, SrcLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void diag_note(Diag *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_report(Diag *d, DiagLevel level, SrcLoc loc, const char *fmt, va_list ap);
/* Reports a diagnostic at an explicit file:line:col that is not in the
 * source manager (for example a problem the device compiler found, mapped
 * back through #line). */
void diag_report_at(Diag *d, DiagLevel level, const char *file, unsigned line, unsigned col,
                    const char *message);
/* The same for a warning (level DIAG_WARNING, subject to -w/-Wno-name). */
void diag_warning_at(Diag *d, DiagWarning warning, const char *file, unsigned line,
                     unsigned col, const char *message);
/* Prints one record the way `d` is set up (text with or without colour,
 * or one element of the JSON array); the sgcc command prints libsgcc's
 * records with it. */
void diag_print(Diag *d, const DiagRecord *record);

static inline bool diag_has_errors(const Diag *d) { return d->error_count > 0; }

#endif
