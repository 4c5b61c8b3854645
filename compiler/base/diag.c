/* diag.c — source files, line maps and diagnostic printing (text like
 * GCC/Clang, or a JSON array). */
#include "base/diag.h"
#include "base/mem.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- source manager ---------------------------------------------------- */

void srcmgr_init(SourceManager *sm)
{
    sm->files = mem_zalloc(8, sizeof(SourceFile *));
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
    f->line_starts = mem_alloc(sizeof(uint32_t) * lines);
    f->line_count = 0;
    f->line_starts[f->line_count++] = 0;
    for (size_t i = 0; i < f->size; i++)
        if (f->text[i] == '\n')
            f->line_starts[f->line_count++] = (uint32_t)(i + 1);
}

uint32_t srcmgr_add(SourceManager *sm, const char *name, const char *text, size_t size)
{
    /* A UTF-8 byte-order mark is no part of the source (GCC and Clang skip
     * it): dropping it here keeps every offset, and so the columns of the
     * first line, counted from after it, as Clang counts them. */
    if (size >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        text += 3;
        size -= 3;
    }
    if (sm->count == sm->capacity) {
        sm->capacity *= 2;
        sm->files = mem_realloc(sm->files, sizeof(SourceFile *) * sm->capacity);
    }
    SourceFile *f = mem_zalloc(1, sizeof(SourceFile));
    f->name = mem_strdup(name);
    f->text = mem_alloc(size + 1);
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
            buf = mem_realloc(buf, cap);
        }
        size_t want = cap - len, n = fread(buf + len, 1, want, fp);
        len += n;
        if (n < want) /* end of file or an error: no read after either */
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

/* ---- warning names ----------------------------------------------------- */

const DiagWarningInfo diag_warnings[WARN_COUNT] = {
    [WARN_NONE] = {NULL, false, NULL},
#define X(id, name, on, what) [WARN_##id] = {name, on, what},
    DIAG_WARNINGS(X)
#undef X
};

DiagWarning diag_warning_find(const char *name)
{
    for (int w = 1; w < WARN_COUNT; w++)
        if (strcmp(diag_warnings[w].name, name) == 0)
            return (DiagWarning)w;
    return WARN_NONE;
}

const char *diag_option_text(const DiagRecord *r, char *buf, size_t size)
{
    if (r->warning == WARN_NONE)
        snprintf(buf, size, "%s", "");
    else
        snprintf(buf, size, "-W%s%s", r->level >= DIAG_ERROR ? "error=" : "",
                 diag_warnings[r->warning].name);
    return buf;
}

/* ---- diagnostics ------------------------------------------------------- */

void diag_init(Diag *d, SourceManager *sources, FILE *out)
{
    memset(d, 0, sizeof *d);
    d->sources = sources;
    d->out = out;
    /* GCC's defaults (GCC_COLORS in gcc(1)). */
    strcpy(d->sgr[DIAG_COLOR_ERROR], "01;31");
    strcpy(d->sgr[DIAG_COLOR_WARNING], "01;35");
    strcpy(d->sgr[DIAG_COLOR_NOTE], "01;36");
    strcpy(d->sgr[DIAG_COLOR_LOCUS], "01");
    strcpy(d->sgr[DIAG_COLOR_QUOTE], "01");
    for (int w = 1; w < WARN_COUNT; w++)
        d->warning_enabled[w] = diag_warnings[w].default_on;
}

void diag_set_colors(Diag *d, const char *spec)
{
    static const char *const keys[DIAG_COLOR_COUNT] = {"error", "warning", "note", "locus",
                                                       "quote"};
    for (const char *p = spec; p && *p;) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (eq) {
            size_t key_len = (size_t)(eq - p), value_len = len - key_len - 1;
            bool valid = value_len < sizeof d->sgr[0];
            for (size_t i = 0; valid && i < value_len; i++)
                valid = (eq[1 + i] >= '0' && eq[1 + i] <= '9') || eq[1 + i] == ';';
            for (int k = 0; valid && k < DIAG_COLOR_COUNT; k++)
                if (strlen(keys[k]) == key_len && memcmp(p, keys[k], key_len) == 0) {
                    memcpy(d->sgr[k], eq + 1, value_len);
                    d->sgr[k][value_len] = '\0';
                }
        }
        p = end ? end + 1 : p + len;
    }
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

static DiagColorPart level_color(DiagLevel level)
{
    switch (level) {
    case DIAG_NOTE: return DIAG_COLOR_NOTE;
    case DIAG_WARNING: return DIAG_COLOR_WARNING;
    default: return DIAG_COLOR_ERROR;
    }
}

/* Colour on and off the way GCC writes them: SGR, then "erase to the end of
 * the line" so that a background colour does not bleed (GCC's \33[K). */
static void color_start(Diag *d, DiagColorPart part)
{
    if (d->color && d->sgr[part][0])
        fprintf(d->out, "\033[%sm\033[K", d->sgr[part]);
}

static void color_end(Diag *d, DiagColorPart part)
{
    if (d->color && d->sgr[part][0])
        fputs("\033[m\033[K", d->out);
}

static bool is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The message; with colour, text in a pair of single quotes ('name') gets
 * the quote colour, the quotes themselves staying plain, as GCC does.  An
 * apostrophe inside a word ("can't") opens nothing. */
static void print_message(Diag *d, const char *message)
{
    if (!d->color || !d->sgr[DIAG_COLOR_QUOTE][0]) {
        fputs(message, d->out);
        return;
    }
    for (const char *p = message; *p;) {
        const char *close = NULL;
        if (*p == '\'' && (p == message || !is_word_char(p[-1])))
            for (const char *q = p + 1; *q && !close; q++)
                if (*q == '\'' && q > p + 1 && !is_word_char(q[1]))
                    close = q;
        if (!close) {
            fputc(*p++, d->out);
            continue;
        }
        fputc('\'', d->out);
        color_start(d, DIAG_COLOR_QUOTE);
        fwrite(p + 1, 1, (size_t)(close - p - 1), d->out);
        color_end(d, DIAG_COLOR_QUOTE);
        fputc('\'', d->out);
        p = close + 1;
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

static void print_json(Diag *d, const DiagRecord *r)
{
    fputs(d->json_started ? ",\n  {" : "[\n  {", d->out);
    d->json_started = true;
    fputs("\"file\": ", d->out);
    json_string(d->out, r->file);
    fprintf(d->out, ", \"line\": %u, \"column\": %u, \"severity\": ", r->line, r->column);
    json_string(d->out, level_name(r->level));
    fputs(", \"message\": ", d->out);
    json_string(d->out, r->message);
    if (r->warning != WARN_NONE) {
        char option[64];
        fputs(", \"option\": ", d->out);
        json_string(d->out, diag_option_text(r, option, sizeof option));
    }
    fputc('}', d->out);
}

/* The source line and a caret under the column.  With colour, the caret and
 * the token it points at (an identifier or number, else one character) get
 * the colour of the diagnostic's level, as GCC colours its range. */
static void print_caret_line(Diag *d, DiagLevel level, const char *text, size_t len, unsigned col)
{
    size_t at = col > 0 ? col - 1 : 0, token_end = at;
    if (d->color && at < len) {
        token_end = at + 1;
        while (is_word_char(text[at]) && token_end < len && is_word_char(text[token_end]))
            token_end++;
    }
    if (token_end > at) {
        fwrite(text, 1, at, d->out);
        color_start(d, level_color(level));
        fwrite(text + at, 1, token_end - at, d->out);
        color_end(d, level_color(level));
        fprintf(d->out, "%.*s\n", (int)(len - token_end), text + token_end);
    } else {
        fprintf(d->out, "%.*s\n", (int)len, text);
    }
    /* Keep tabs so that the caret lines up under the same column. */
    for (unsigned i = 1; i < col && i - 1 < len; i++)
        fputc(text[i - 1] == '\t' ? '\t' : ' ', d->out);
    color_start(d, level_color(level));
    fputc('^', d->out);
    color_end(d, level_color(level));
    fputc('\n', d->out);
}

/* GCC's layout: "file:line:col: error: message", colour codes around the
 * locus and the level only, so that the text without them is unchanged. */
static void print_text(Diag *d, const DiagRecord *r)
{
    DiagLevel level = r->level;
    color_start(d, DIAG_COLOR_LOCUS);
    if (r->line > 0)
        fprintf(d->out, "%s:%u:%u:", r->file, r->line, r->column);
    else
        fprintf(d->out, "%s:", r->file);
    color_end(d, DIAG_COLOR_LOCUS);
    fputc(' ', d->out);
    color_start(d, level_color(level));
    fprintf(d->out, "%s: ", level_name(level));
    color_end(d, level_color(level));
    print_message(d, r->message);
    if (r->warning != WARN_NONE) {
        /* GCC's "[-Wname]", the name in the level's colour. */
        char option[64];
        fputs(" [", d->out);
        color_start(d, level_color(level));
        fputs(diag_option_text(r, option, sizeof option), d->out);
        color_end(d, level_color(level));
        fputc(']', d->out);
    }
    fputc('\n', d->out);
    if (r->source_line)
        print_caret_line(d, level, r->source_line, r->source_line_len, r->column);
}

void diag_print(Diag *d, const DiagRecord *r)
{
    if (d->format == DIAG_FORMAT_JSON)
        print_json(d, r);
    else
        print_text(d, r);
}

/* What becomes of one report. */
typedef enum Verdict {
    VERDICT_DROP,    /* filtered out, or after the stop */
    VERDICT_DELIVER, /* printed or handed to the sink */
    VERDICT_LIMIT,   /* one error too many: the "too many errors" record instead */
} Verdict;

/* The message that takes the place of the first error past max_errors
 * (Clang's wording, GCC's option name). */
static const char too_many_errors[] = "too many errors emitted, stopping now [-fmax-errors=]";

static Verdict count_and_filter(Diag *d, DiagLevel *level, DiagWarning warning)
{
    if (d->stopped)
        return VERDICT_DROP; /* after a fatal error: nothing more (no cascade) */
    if (*level == DIAG_FATAL)
        d->stopped = true;
    if (*level == DIAG_WARNING) {
        if (d->suppress_warnings || (warning != WARN_NONE && !d->warning_enabled[warning]))
            return VERDICT_DROP;
        signed char as_error = warning != WARN_NONE ? d->warning_error[warning] : 0;
        if (as_error > 0 || (as_error == 0 && d->warnings_as_errors))
            *level = DIAG_ERROR;
    }
    if (*level >= DIAG_ERROR) {
        bool over = d->max_errors && d->error_count >= d->max_errors;
        d->error_count++;
        if (over) {
            *level = DIAG_FATAL;
            d->stopped = true;
            return VERDICT_LIMIT;
        }
    } else if (*level == DIAG_WARNING) {
        d->warning_count++;
    }
    return VERDICT_DELIVER;
}

/* Hands a counted record to the sink, or prints it. */
static void deliver(Diag *d, const DiagRecord *r)
{
    if (d->sink)
        d->sink(d->sink_ctx, r);
    else
        diag_print(d, r);
}

static void report_at(Diag *d, DiagLevel level, DiagWarning warning, const char *file,
                      unsigned line, unsigned col, const char *message)
{
    Verdict verdict = count_and_filter(d, &level, warning);
    if (verdict == VERDICT_DROP)
        return;
    if (verdict == VERDICT_LIMIT)
        message = too_many_errors;
    if (d->capture) {
        d->capture(d->capture_ctx, level, (SrcLoc){0, 0}, message);
        return;
    }
    DiagRecord r = {.level = level, .warning = warning, .file = file, .line = line,
                    .column = col, .message = message};
    deliver(d, &r);
}

void diag_report_at(Diag *d, DiagLevel level, const char *file, unsigned line, unsigned col,
                    const char *message)
{
    report_at(d, level, WARN_NONE, file, line, col, message);
}

void diag_warning_at(Diag *d, DiagWarning warning, const char *file, unsigned line,
                     unsigned col, const char *message)
{
    report_at(d, DIAG_WARNING, warning, file, line, col, message);
}

static void report(Diag *d, DiagLevel level, DiagWarning warning, SrcLoc loc, const char *fmt,
                   va_list ap)
{
    if (d->stopped)
        return; /* cheap: a flood of errors after the stop costs no formatting */
    char message[1024];
    Verdict verdict = count_and_filter(d, &level, warning);
    if (verdict == VERDICT_DROP)
        return;
    if (verdict == VERDICT_LIMIT)
        snprintf(message, sizeof message, "%s", too_many_errors);
    else
        vsnprintf(message, sizeof message, fmt, ap);
    if (d->capture) {
        d->capture(d->capture_ctx, level, loc, message);
        return;
    }
    const SourceFile *f = srcmgr_file(d->sources, loc.file);
    DiagRecord r = {.level = level, .warning = warning, .file = f ? f->name : "sgcc",
                    .message = message};
    if (f) {
        srcmgr_line_col(d->sources, loc, &r.line, &r.column);
        r.source_line = srcmgr_line_text(d->sources, loc, &r.source_line_len);
    }
    deliver(d, &r);
}

void diag_report(Diag *d, DiagLevel level, SrcLoc loc, const char *fmt, va_list ap)
{
    report(d, level, WARN_NONE, loc, fmt, ap);
}

void diag_warning(Diag *d, DiagWarning warning, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, DIAG_WARNING, warning, loc, fmt, ap);
    va_end(ap);
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
DEFINE_DIAG_FN(diag_fatal, DIAG_FATAL)
DEFINE_DIAG_FN(diag_note, DIAG_NOTE)

void diag_finish(Diag *d)
{
    if (d->sink || !d->out)
        return; /* the sink's owner prints */
    if (d->format == DIAG_FORMAT_JSON && !d->capture) {
        fputs(d->json_started ? "\n]\n" : "[]\n", d->out);
        d->json_started = false;
    }
    fflush(d->out);
}
