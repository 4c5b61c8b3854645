/* diag.c — source files, line maps and diagnostic printing (text like
 * GCC/Clang, or a JSON array). */
#include "diag.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- source manager ---------------------------------------------------- */

void srcmgr_init(SourceManager *sm)
{
    sm->files = calloc(8, sizeof(SourceFile *));
    sm->count = 1; /* id 0 is "no file" */
    sm->capacity = 8;
}

void srcmgr_free(SourceManager *sm)
{
    for (uint32_t i = 1; i < sm->count; i++) {
        free(sm->files[i]->name);
        free(sm->files[i]->text);
        free(sm->files[i]->line_starts);
        free(sm->files[i]);
    }
    free(sm->files);
    sm->files = NULL;
    sm->count = sm->capacity = 0;
}

static void compute_line_starts(SourceFile *f)
{
    uint32_t lines = 1;
    for (size_t i = 0; i < f->size; i++)
        if (f->text[i] == '\n')
            lines++;
    f->line_starts = malloc(sizeof(uint32_t) * lines);
    f->line_count = 0;
    f->line_starts[f->line_count++] = 0;
    for (size_t i = 0; i < f->size; i++)
        if (f->text[i] == '\n')
            f->line_starts[f->line_count++] = (uint32_t)(i + 1);
}

uint32_t srcmgr_add(SourceManager *sm, const char *name, const char *text, size_t size)
{
    if (sm->count == sm->capacity) {
        sm->capacity *= 2;
        sm->files = realloc(sm->files, sizeof(SourceFile *) * sm->capacity);
    }
    SourceFile *f = calloc(1, sizeof(SourceFile));
    f->name = strdup(name);
    f->text = malloc(size + 1);
    memcpy(f->text, text, size);
    f->text[size] = '\0';
    f->size = size;
    compute_line_starts(f);
    sm->files[sm->count] = f;
    return sm->count++;
}

uint32_t srcmgr_load(SourceManager *sm, const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return 0;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (cap - len < 65536) {
            cap = cap ? cap * 2 : 65536;
            buf = realloc(buf, cap);
        }
        size_t n = fread(buf + len, 1, cap - len, fp);
        len += n;
        if (n == 0)
            break;
    }
    int failed = ferror(fp);
    int saved_errno = errno;
    fclose(fp);
    if (failed) {
        free(buf);
        errno = saved_errno ? saved_errno : EIO;
        return 0;
    }
    uint32_t id = srcmgr_add(sm, path, buf ? buf : "", len);
    free(buf);
    return id;
}

const SourceFile *srcmgr_file(const SourceManager *sm, uint32_t id)
{
    return (id > 0 && id < sm->count) ? sm->files[id] : NULL;
}

static uint32_t line_index(const SourceFile *f, uint32_t offset)
{
    uint32_t lo = 0, hi = f->line_count; /* invariant: line_starts[lo] <= offset */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (f->line_starts[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void srcmgr_line_col(const SourceManager *sm, SrcLoc loc, unsigned *line, unsigned *col)
{
    const SourceFile *f = srcmgr_file(sm, loc.file);
    if (!f) {
        *line = *col = 0;
        return;
    }
    uint32_t offset = loc.offset > f->size ? (uint32_t)f->size : loc.offset;
    uint32_t idx = line_index(f, offset);
    *line = idx + 1;
    *col = offset - f->line_starts[idx] + 1;
}

const char *srcmgr_line_text(const SourceManager *sm, SrcLoc loc, size_t *len)
{
    const SourceFile *f = srcmgr_file(sm, loc.file);
    if (!f) {
        *len = 0;
        return "";
    }
    uint32_t offset = loc.offset > f->size ? (uint32_t)f->size : loc.offset;
    uint32_t start = f->line_starts[line_index(f, offset)];
    const char *end = memchr(f->text + start, '\n', f->size - start);
    *len = end ? (size_t)(end - (f->text + start)) : f->size - start;
    if (*len > 0 && f->text[start + *len - 1] == '\r')
        (*len)--;
    return f->text + start;
}

/* ---- diagnostics ------------------------------------------------------- */

void diag_init(Diag *d, SourceManager *sources, FILE *out)
{
    memset(d, 0, sizeof *d);
    d->sources = sources;
    d->out = out;
}

static const char *level_name(DiagLevel level)
{
    switch (level) {
    case DIAG_NOTE: return "note";
    case DIAG_WARNING: return "warning";
    case DIAG_ERROR: return "error";
    case DIAG_FATAL: return "fatal error";
    }
    return "error";
}

static const char *level_color(DiagLevel level)
{
    switch (level) {
    case DIAG_NOTE: return "\033[1;36m";
    case DIAG_WARNING: return "\033[1;35m";
    default: return "\033[1;31m";
    }
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

static void print_json(Diag *d, DiagLevel level, const char *file, unsigned line,
                       unsigned col, const char *message)
{
    fputs(d->json_started ? ",\n  {" : "[\n  {", d->out);
    d->json_started = true;
    fputs("\"file\": ", d->out);
    json_string(d->out, file);
    fprintf(d->out, ", \"line\": %u, \"column\": %u, \"severity\": ", line, col);
    json_string(d->out, level_name(level));
    fputs(", \"message\": ", d->out);
    json_string(d->out, message);
    fputc('}', d->out);
}

static void print_caret_line(Diag *d, const char *text, size_t len, unsigned col)
{
    fprintf(d->out, "%.*s\n", (int)len, text);
    /* Keep tabs so that the caret lines up under the same column. */
    for (unsigned i = 1; i < col && i - 1 < len; i++)
        fputc(text[i - 1] == '\t' ? '\t' : ' ', d->out);
    fputs(d->color ? "\033[1;32m^\033[0m\n" : "^\n", d->out);
}

static void print_text(Diag *d, DiagLevel level, const char *file, unsigned line,
                       unsigned col, const char *message)
{
    const char *bold = d->color ? "\033[1m" : "", *reset = d->color ? "\033[0m" : "";
    if (line > 0)
        fprintf(d->out, "%s%s:%u:%u: ", bold, file, line, col);
    else
        fprintf(d->out, "%s%s: ", bold, file);
    fprintf(d->out, "%s%s:%s %s%s%s\n", d->color ? level_color(level) : "", level_name(level),
            reset, bold, message, reset);
}

static bool count_and_filter(Diag *d, DiagLevel *level)
{
    if (*level == DIAG_WARNING) {
        if (d->suppress_warnings)
            return false;
        if (d->warnings_as_errors)
            *level = DIAG_ERROR;
    }
    if (*level >= DIAG_ERROR) {
        d->error_count++;
        if (d->max_errors && d->error_count > d->max_errors)
            return false;
    } else if (*level == DIAG_WARNING) {
        d->warning_count++;
    }
    return true;
}

void diag_report_at(Diag *d, DiagLevel level, const char *file, unsigned line, unsigned col,
                    const char *message)
{
    if (!count_and_filter(d, &level))
        return;
    if (d->capture) {
        d->capture(d->capture_ctx, level, (SrcLoc){0, 0}, message);
        return;
    }
    if (d->format == DIAG_FORMAT_JSON)
        print_json(d, level, file, line, col, message);
    else
        print_text(d, level, file, line, col, message);
}

void diag_report(Diag *d, DiagLevel level, SrcLoc loc, const char *fmt, va_list ap)
{
    char message[1024];
    vsnprintf(message, sizeof message, fmt, ap);
    if (!count_and_filter(d, &level))
        return;
    if (d->capture) {
        d->capture(d->capture_ctx, level, loc, message);
        return;
    }
    const SourceFile *f = srcmgr_file(d->sources, loc.file);
    unsigned line = 0, col = 0;
    if (f)
        srcmgr_line_col(d->sources, loc, &line, &col);
    const char *name = f ? f->name : "sgcc";
    if (d->format == DIAG_FORMAT_JSON) {
        print_json(d, level, name, line, col, message);
        return;
    }
    print_text(d, level, name, line, col, message);
    if (f) {
        size_t len;
        const char *text = srcmgr_line_text(d->sources, loc, &len);
        print_caret_line(d, text, len, col);
    }
}

#define DEFINE_DIAG_FN(fn, level)                                   \
    void fn(Diag *d, SrcLoc loc, const char *fmt, ...)              \
    {                                                               \
        va_list ap;                                                 \
        va_start(ap, fmt);                                          \
        diag_report(d, level, loc, fmt, ap);                        \
        va_end(ap);                                                 \
    }
DEFINE_DIAG_FN(diag_error, DIAG_ERROR)
DEFINE_DIAG_FN(diag_warning, DIAG_WARNING)
DEFINE_DIAG_FN(diag_note, DIAG_NOTE)

void diag_finish(Diag *d)
{
    if (d->format == DIAG_FORMAT_JSON && !d->capture) {
        fputs(d->json_started ? "\n]\n" : "[]\n", d->out);
        d->json_started = false;
    }
    if (d->max_errors && d->error_count > d->max_errors && d->format == DIAG_FORMAT_TEXT)
        fprintf(d->out, "sgcc: note: %u more errors not shown\n", d->error_count - d->max_errors);
    fflush(d->out);
}
