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
/* Adds in-memory text (tests, <command-line>); copies the text. */
uint32_t srcmgr_add(SourceManager *sm, const char *name, const char *text, size_t size);
const SourceFile *srcmgr_file(const SourceManager *sm, uint32_t id);
/* 1-based line and column (column counts bytes, tabs count as 1). */
void srcmgr_line_col(const SourceManager *sm, SrcLoc loc, unsigned *line, unsigned *col);
/* The text of the line containing loc, without its newline. */
const char *srcmgr_line_text(const SourceManager *sm, SrcLoc loc, size_t *len);

typedef enum DiagLevel { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR, DIAG_FATAL } DiagLevel;
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
    unsigned error_count, warning_count;
    unsigned max_errors;     /* stop reporting after this many (0 = no limit) */
    bool json_started;       /* JSON: an array has been opened */
    /* Optional capture hook used by unit tests instead of printing. */
    void (*capture)(void *ctx, DiagLevel level, SrcLoc loc, const char *message);
    void *capture_ctx;
} Diag;

void diag_init(Diag *d, SourceManager *sources, FILE *out);
/* Overrides colours from a GCC_COLORS-style list, "error=01;31:locus=01";
 * keys GCC has and sgcc does not draw (range1, path, ...) are accepted and
 * ignored, as are values that are not SGR parameters (digits and ';'). */
void diag_set_colors(Diag *d, const char *spec);
/* Finishes output (closes the JSON array). */
void diag_finish(Diag *d);

void diag_error(Diag *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_warning(Diag *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_note(Diag *d, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_report(Diag *d, DiagLevel level, SrcLoc loc, const char *fmt, va_list ap);
/* Reports a diagnostic at an explicit file:line:col that is not in the
 * source manager (for example a problem the device compiler found, mapped
 * back through #line). */
void diag_report_at(Diag *d, DiagLevel level, const char *file, unsigned line, unsigned col,
                    const char *message);

static inline bool diag_has_errors(const Diag *d) { return d->error_count > 0; }

#endif
