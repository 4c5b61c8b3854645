/* pp_print.c — `sgcc -E`: the preprocessed source as text, the way GCC
 * writes it, so that other tools and people can read what the parser sees.
 *
 * Tokens come from pp_next with their locations (a macro expansion carries
 * the location of its invocation).  Line structure is rebuilt from those
 * locations: a token first on its source line starts a new output line
 * indented to its column; small gaps become blank lines; a jump to another
 * file or far ahead becomes a GCC linemarker `# LINE "FILE" [FLAG]`, flag 1
 * entering an #include, 2 returning from one.  Lines and names are the
 * presumed ones: after `#line 100 "x.sgc"` the output says so.  Between
 * tokens that were adjacent in no source (macro juxtaposition) a space is
 * added where gluing them would scan as another token ("+" "+" is not
 * "++"). */
#include <string.h>

#include "emit/emit.h"
#include "pp/preprocess.h"

typedef struct Printer {
    Preprocessor *pp;
    const SourceManager *sources;
    EmitBuffer *out;
    uint32_t file;     /* file of the current output line, 0 before the first */
    const char *name;  /* its presumed name (#line may change it) */
    long delta;        /* presumed line - physical line in it (#line) */
    unsigned line;     /* the current output line's presumed line */
    bool line_empty;   /* nothing printed on the current output line yet */
    const Token *prev; /* last token printed on this line */
} Printer;

/* Blank lines cheaper than a linemarker (GCC uses 8). */
enum { MAX_BLANK_LINES = 8 };

static void print_marker(Printer *p, unsigned line, uint32_t file, const char *name, int flag)
{
    if (!p->line_empty)
        emit_write(p->out, "\n", 1);
    emit_printf(p->out, "# %u \"", line);
    for (const char *s = name; *s; s++) {
        if (*s == '"' || *s == '\\')
            emit_write(p->out, "\\", 1);
        emit_write(p->out, s, 1);
    }
    emit_write(p->out, "\"", 1);
    if (flag)
        emit_printf(p->out, " %d", flag);
    emit_write(p->out, "\n", 1);
    p->file = file;
    p->name = name;
    p->line = line;
    p->line_empty = true;
    p->prev = NULL;
}

/* 1 when `to` was #include'd from the current file, 2 when the current
 * file was #include'd from `to`, else 0. */
static int marker_flag(const Printer *p, uint32_t to)
{
    const SourceFile *from = srcmgr_file(p->sources, p->file);
    const SourceFile *target = srcmgr_file(p->sources, to);
    if (target->included_from.file && target->included_from.file == p->file)
        return 1;
    if (from && from->included_from.file == to)
        return 2;
    return 0;
}

/* Moves the output to presumed line `line` of `file` (called `name`, with
 * `delta` from #line).  As GCC: entering an #include marks its line 1,
 * returning marks the line after the #include, a #line directive gets a
 * plain marker, and blank lines (or a plain marker) take it on from there. */
static void move_to(Printer *p, uint32_t file, unsigned line, const char *name, long delta)
{
    bool renumbered = file == p->file && (delta != p->delta || strcmp(name, p->name) != 0);
    p->delta = delta;
    if (file != p->file) {
        int flag = p->file ? marker_flag(p, file) : 0;
        unsigned start = line;
        if (flag == 1) {
            start = 1;
        } else if (flag == 2) {
            unsigned col;
            srcmgr_line_col(p->sources, srcmgr_file(p->sources, p->file)->included_from, &start,
                            &col);
            start = (unsigned)((long)start + 1 + delta);
            start = start <= line ? start : line;
        }
        print_marker(p, start, file, name, flag);
    } else if (renumbered) {
        print_marker(p, line, file, name, 0);
        return;
    }
    if (line <= p->line)
        return;
    if (line - p->line > MAX_BLANK_LINES) {
        print_marker(p, line, file, name, 0);
        return;
    }
    if (!p->line_empty)
        emit_write(p->out, "\n", 1);
    for (unsigned i = p->line + (p->line_empty ? 0 : 1); i < line; i++)
        emit_write(p->out, "\n", 1);
    p->line = line;
    p->line_empty = true;
    p->prev = NULL;
}

/* The preprocessor's file hook: GCC's markers on entering an #include
 * (`# 1 "h" 1`) and on returning (`# N "x.sgc" 2`, N the line after the
 * #include), printed even when the header yields no token. */
static void file_changed(void *ctx, bool entering, uint32_t file, SrcLoc include)
{
    Printer *p = ctx;
    if (entering) {
        p->delta = 0;
        print_marker(p, 1, file, srcmgr_file(p->sources, file)->name, 1);
        return;
    }
    unsigned line, col, presumed;
    const char *name;
    srcmgr_line_col(p->sources, include, &line, &col);
    pp_presumed_location(p->pp, include, &presumed, &name);
    p->delta = (long)presumed - (long)line;
    print_marker(p, presumed + 1, file, name, 2);
}

/* Would `a` immediately followed by `b` scan differently? */
static bool would_glue(const Token *a, const Token *b)
{
    static const char *const pairs[] = {"++", "--", "->", "<<", ">>", "<=", ">=", "==", "!=",
                                        "&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=",
                                        "|=", "##", "..", "/*", "//", "<:", ":>", "<%", "%>",
                                        "%:", "+.", "-.", "\"\""};
    char last = a->text[a->len - 1], first = b->text[0];
    bool a_word = a->kind == TK_IDENT || a->kind == TK_PPNUMBER;
    bool b_word = b->kind == TK_IDENT || b->kind == TK_PPNUMBER;
    if (a_word && (b_word || first == '.'))
        return true;
    if (a->kind == TK_IDENT && (b->kind == TK_STRING || b->kind == TK_CHAR))
        return true; /* L "x" is not L"x" */
    if (last == '.' && first >= '0' && first <= '9')
        return true; /* . 1 is not .1 */
    if (a->kind == TK_PPNUMBER && (first == '+' || first == '-'))
        return true; /* 1e + 5 */
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        if (pairs[i][0] == last && pairs[i][1] == first)
            return true;
    return false;
}

static void print_token(Printer *p, const Token *t)
{
    unsigned line, col, presumed;
    const char *name;
    srcmgr_line_col(p->sources, t->loc, &line, &col);
    bool pragma = t->kind == TK_OTHER && t->len >= 7 && memcmp(t->text, "#pragma", 7) == 0;
    if (t->loc.file) {
        pp_presumed_location(p->pp, t->loc, &presumed, &name);
        move_to(p, t->loc.file, presumed, name, (long)presumed - (long)line);
    }
    if (pragma && !p->line_empty) {
        emit_write(p->out, "\n", 1);
        p->line_empty = true;
    }
    if (p->line_empty) {
        for (unsigned i = 1; t->at_bol && i < col; i++)
            emit_write(p->out, " ", 1);
    } else if (t->has_space || (p->prev && would_glue(p->prev, t))) {
        emit_write(p->out, " ", 1);
    }
    emit_write(p->out, t->text, t->len);
    p->line_empty = false;
    p->prev = t;
    if (pragma) { /* a pragma owns its line */
        emit_write(p->out, "\n", 1);
        p->line++;
        p->line_empty = true;
        p->prev = NULL;
    }
}

void pp_print(Preprocessor *pp, const SourceManager *sources, uint32_t main_file,
              EmitBuffer *out)
{
    Printer p = {.pp = pp, .sources = sources, .out = out, .line_empty = true};
    print_marker(&p, 1, main_file, srcmgr_file(sources, main_file)->name, 0);
    pp_set_file_hook(pp, file_changed, &p);
    for (Token *t = pp_next(pp); t->kind != TK_EOF; t = pp_next(pp))
        print_token(&p, t);
    pp_set_file_hook(pp, NULL, NULL);
    if (!p.line_empty)
        emit_write(out, "\n", 1);
}
