/* preprocess.c — the C preprocessor (C17 6.10) over lex_file() token lists.
 *
 * Design:
 *  - Pull model: pp_next() hands out one expanded token at a time.  The input
 *    is one linked list of tokens, pp->tok; a macro expansion is a list of
 *    fresh copies spliced in front of it, so rescanning is just reading on.
 *    Tokens made by lex_file() are never modified (cached include lists are
 *    reused), only copies are.
 *  - Rescanning follows Prosser's algorithm (as in chibicc): every token
 *    carries a hideset, the macros that must not expand it again.  Hidesets
 *    point at interned macro names (Name), so #undef/#define keep identity.
 *  - Only tokens straight from a file can start a directive: copies made by
 *    an expansion always have at_bol cleared.
 *  - A token copied from a macro body gets the location of the outermost
 *    invocation (the macro name the user wrote); argument tokens keep their
 *    own location, which is also real text.
 *  - Files form a stack of frames; each remembers where the includer goes on
 *    and how deep the #if stack was, so an unterminated #if is reported at
 *    the end of the file that opened it.
 *  - Every file read is cached by real path with its tokens, its #pragma once
 *    flag and its include guard, so a guarded header is opened and scanned
 *    once.
 *  - Predefined macros and -D/-U are ordinary #define/#undef lines in
 *    synthetic "<built-in>" and "<command line>" sources, read before the
 *    main file; __FILE__, __LINE__, __COUNTER__ are computed by handlers.
 *  - No global state; malloc'd tables are freed by pp_free(), tokens,
 *    macros and hidesets live in the arena. */
#include "pp/preprocess.h"
#include "pp/path_set.h"
#include "base/hash.h"
#include "base/literal.h"
#include "base/mem.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { MAX_INCLUDE_DEPTH = 200, PARAM_NONE = -1, PARAM_VA_OPT = -2 };

/* Macro expansion can grow exponentially (each level of `#define D1(x)
 * D0(x) D0(x)` doubles), so a few hundred bytes could ask for billions of
 * tokens.  Past this many copies (about 300 MB with their hidesets; the
 * samples make a few thousand at most) the unit stops with a fatal error
 * at the expansion that crossed it. */
#define MAX_EXPANDED_TOKENS ((size_t)4 * 1024 * 1024)

/* Expansions running inside one another: a macro's arguments are expanded
 * while it is, so F(F(F(...))) nests one level per F (recursion through
 * expand_macro, subst_range and expand_list).  Past this, a fatal error at
 * the invocation that would go deeper. */
enum { MAX_MACRO_NESTING = 4096 };

/* The time rescanning costs: each token's hideset (the macros it may not
 * expand again) is a list, as long as the chain of macros that made it, and
 * each expansion walks it.  `#define A1 A0 A0` ... 5,000 levels deep makes
 * few tokens per level but walks 5,000 names per token.  Past this many
 * steps (a few seconds) the unit stops with a fatal error. */
#define MAX_HIDESET_STEPS ((size_t)1 << 28)

#define DIRECTIVES(X)                                                        \
    X(include) X(define) X(undef) X(if) X(ifdef) X(ifndef) X(elif)           \
    X(elifdef) X(elifndef) X(else) X(endif) X(line) X(error) X(warning)      \
    X(pragma)

typedef enum Directive {
#define X(name) DIR_##name,
    DIRECTIVES(X)
#undef X
    DIR_UNKNOWN
} Directive;

static const char *const directive_names[] = {
#define X(name) #name,
    DIRECTIVES(X)
#undef X
};

typedef struct Macro Macro;
typedef Token *MacroHandler(Preprocessor *pp, Token *site);

/* An interned identifier that is or was a macro name. */
typedef struct Name {
    const char *text;
    unsigned len;
    uint32_t hash;
    Macro *macro;          /* current definition, NULL when undefined */
    struct Name *chain;    /* next in the hash bucket */
} Name;

struct Hideset {
    Name *name;
    Hideset *next;
};

typedef struct Param {
    const char *text;
    unsigned len;
} Param;

struct Macro {
    Name *name;
    bool function_like, variadic;
    int param_count;       /* including __VA_ARGS__ */
    Param *params;
    Token *body;           /* body_len tokens, a copy of the #define line */
    int body_len;
    short *param_of;       /* per body token: parameter index, PARAM_NONE or PARAM_VA_OPT */
    MacroHandler *handler; /* dynamic macros (__LINE__ ...) */
    SrcLoc loc;            /* the definition's name, for "previous definition" */
};

typedef struct MacroArg {
    Token *raw;            /* as written, EOF-terminated */
    Token *expanded;       /* fully macro-expanded, computed on first use */
} MacroArg;

/* A file read through #include (or the main file). */
typedef struct FileEntry {
    char *real_path;       /* realpath(), the cache key; NULL if unknown */
    uint32_t file;
    Token *tokens;
    bool once;             /* #pragma once seen */
    Name *guard;           /* include guard macro, if the whole file is one #ifndef */
} FileEntry;

typedef struct Frame {
    uint32_t file;
    int entry;             /* index into pp->entries, -1 for synthetic sources */
    Token *first;          /* the file's first token (include-guard detection) */
    Token *resume;         /* where the includer goes on */
    int cond_base;         /* pp->cond_count when the file was entered */
    int depth;             /* include depth, main file = 1 */
    long line_delta;       /* from #line: reported line - physical line */
    const char *line_name; /* from #line "name", or NULL */
    SrcLoc included_at;    /* the '#' of the #include that entered it (depth > 1) */
} Frame;

typedef enum CondContext { IN_THEN, IN_ELIF, IN_ELSE } CondContext;

typedef struct Cond {
    Token *directive;      /* the directive name token (#if, #ifdef...) */
    CondContext ctx;
    bool included;         /* some group of this #if was taken */
    Name *guard;           /* #ifndef X as the first line of a file */
} Cond;

struct Preprocessor {
    Arena *arena;
    Diag *diag;
    SourceManager *sources;
    Token *tok;            /* the input: next token to read */
    Name **buckets;
    uint32_t bucket_count, name_count;
    Frame *frames;
    int frame_count, frame_capacity;
    Cond *conds;
    int cond_count, cond_capacity;
    FileEntry *entries;
    int entry_count, entry_capacity;
    const char **deps;
    int dep_count, dep_capacity;
    PathSet absent;        /* include-search probes that found no file */
    PPOptions options;     /* -I directories (the -D/-U ones are read at start) */
    unsigned counter;      /* __COUNTER__ */
    size_t copied_tokens;  /* made by macro expansion so far (MAX_EXPANDED_TOKENS) */
    Token *expanding;      /* the innermost macro being expanded, or NULL */
    size_t hideset_steps;  /* walked by hideset_contains (MAX_HIDESET_STEPS) */
    int expansion_depth;   /* expansions running inside each other (MAX_MACRO_NESTING) */
    Token *stop;           /* after a fatal error: the EOF pp_next returns */
    bool in_if;            /* expanding an #if line: `defined X` is left alone */
    bool finished;         /* end of the main file reached and checked */
    PPFileHook file_hook;  /* told about entering and leaving #include'd files */
    void *file_hook_ctx;
};

#define GROW(ptr, count, capacity)                                          \
    do {                                                                    \
        if ((count) == (capacity)) {                                        \
            (capacity) = (capacity) ? 2 * (capacity) : 16;                  \
            (ptr) = mem_realloc((ptr), sizeof *(ptr) * (size_t)(capacity)); \
        }                                                                   \
    } while (0)

/* ---- small token helpers ------------------------------------------------ */

static bool is_punct(const Token *t, int punct) { return t->kind == TK_PUNCT && t->punct == punct; }
static bool at_eol(const Token *t) { return t->at_bol || t->kind == TK_EOF; }

static bool same_text(const Token *t, const char *s, unsigned len)
{
    return t->len == len && memcmp(t->text, s, len) == 0;
}

/* A token made here (a copy, a built one) has room for a hideset; a token
 * straight from lex_file() has none (Token.has_hideset false), so that the
 * many file tokens stay small. */
typedef struct PPToken {
    Token tok;             /* first: a Token * to it is a PPToken * */
    Hideset *hideset;
} PPToken;

static Hideset *hideset_of(const Token *t)
{
    return t->has_hideset ? ((const PPToken *)t)->hideset : NULL;
}

static void set_hideset(Token *t, Hideset *hs)
{
    assert(t->has_hideset); /* every token an expansion lists is a PPToken */
    ((PPToken *)t)->hideset = hs;
}

static Token *new_pp_token(Preprocessor *pp)
{
    PPToken *p = ARENA_NEW(pp->arena, PPToken);
    p->tok.has_hideset = true;
    return &p->tok;
}

static void expansion_too_big(Preprocessor *pp, const Token *t);

static Token *copy_token(Preprocessor *pp, const Token *t)
{
    /* checked at each copy, so that nested expansions (the arguments of
     * F(F(F(...))) are copied again at each level) stop as soon as they
     * cross it, not when the outermost one is done */
    if (++pp->copied_tokens > MAX_EXPANDED_TOKENS && !pp->stop)
        expansion_too_big(pp, t);
    Token *copy = new_pp_token(pp);
    *copy = *t;
    copy->has_hideset = true;
    set_hideset(copy, hideset_of(t));
    copy->at_bol = false;
    copy->next = NULL;
    return copy;
}

static Token *new_eof(Preprocessor *pp, SrcLoc loc)
{
    Token *t = new_pp_token(pp);
    t->kind = TK_EOF;
    t->text = "";
    t->loc = loc;
    return t;
}

static Token *new_token(Preprocessor *pp, TokenKind kind, const char *text, SrcLoc loc)
{
    Token *t = new_pp_token(pp);
    t->kind = kind;
    t->text = text;
    t->len = (unsigned)strlen(text);
    t->loc = loc;
    return t;
}

/* A growing arena-free string for spellings we build (stringize, #pragma). */
typedef struct Buf {
    char *data;
    size_t len, cap;
} Buf;

static void buf_add(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->data = mem_realloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static char *buf_finish(Preprocessor *pp, Buf *b)
{
    char *s = arena_strndup(pp->arena, b->data ? b->data : "", b->len);
    free(b->data);
    return s;
}

/* Spellings of tokens up to the end of the line / list, one space where the
 * source had white space. */
static void buf_add_tokens(Buf *b, const Token *t, bool space_before_first)
{
    for (bool first = true; !at_eol(t); t = t->next, first = false) {
        if (first ? space_before_first : t->has_space)
            buf_add(b, " ", 1);
        buf_add(b, t->text, t->len);
    }
}

/* ---- macro names and hidesets ------------------------------------------- */

static uint32_t hash_text(const char *s, unsigned len) { return hash_bytes(s, len); }

static Name *find_name(Preprocessor *pp, const char *text, unsigned len)
{
    uint32_t h = hash_text(text, len);
    for (Name *n = pp->buckets[h & (pp->bucket_count - 1)]; n; n = n->chain)
        if (n->hash == h && n->len == len && memcmp(n->text, text, len) == 0)
            return n;
    return NULL;
}

static void rehash(Preprocessor *pp)
{
    uint32_t count = pp->bucket_count * 2;
    Name **buckets = mem_zalloc(count, sizeof *buckets);
    for (uint32_t i = 0; i < pp->bucket_count; i++) {
        for (Name *n = pp->buckets[i], *chain; n; n = chain) {
            chain = n->chain;
            n->chain = buckets[n->hash & (count - 1)];
            buckets[n->hash & (count - 1)] = n;
        }
    }
    free(pp->buckets);
    pp->buckets = buckets;
    pp->bucket_count = count;
}

static Name *intern_name(Preprocessor *pp, const char *text, unsigned len)
{
    Name *n = find_name(pp, text, len);
    if (n)
        return n;
    if (pp->name_count >= pp->bucket_count)
        rehash(pp);
    n = ARENA_NEW(pp->arena, Name);
    n->text = text;
    n->len = len;
    n->hash = hash_text(text, len);
    n->chain = pp->buckets[n->hash & (pp->bucket_count - 1)];
    pp->buckets[n->hash & (pp->bucket_count - 1)] = n;
    pp->name_count++;
    return n;
}

static Macro *find_macro(Preprocessor *pp, const Token *t)
{
    Name *n = find_name(pp, t->text, t->len);
    return n ? n->macro : NULL;
}

/* Each step is counted (MAX_HIDESET_STEPS): a chain of macros thousands
 * deep gives every token a hideset as long. */
static bool hideset_contains(Preprocessor *pp, const Hideset *hs, const Name *n)
{
    for (; hs; hs = hs->next) {
        pp->hideset_steps++;
        if (hs->name == n)
            return true;
    }
    return false;
}

/* a ∪ b; shares b. */
static Hideset *hideset_union(Preprocessor *pp, const Hideset *a, Hideset *b)
{
    Hideset head = {0}, *cur = &head;
    for (; a; a = a->next) {
        if (hideset_contains(pp, b, a->name))
            continue;
        cur = cur->next = ARENA_NEW(pp->arena, Hideset);
        cur->name = a->name;
    }
    cur->next = b;
    return head.next;
}

static Hideset *hideset_intersection(Preprocessor *pp, const Hideset *a, const Hideset *b)
{
    Hideset head = {0}, *cur = &head;
    for (; a; a = a->next) {
        if (!hideset_contains(pp, b, a->name))
            continue;
        cur = cur->next = ARENA_NEW(pp->arena, Hideset);
        cur->name = a->name;
    }
    return head.next;
}

/* hs ∪ {n}, sharing hs: one node, not a copy of hs (a chain of 128 macros
 * each made a copy of its caller's set for every expansion). */
static Hideset *hideset_add(Preprocessor *pp, Hideset *hs, Name *n)
{
    if (hideset_contains(pp, hs, n))
        return hs;
    Hideset *one = ARENA_NEW(pp->arena, Hideset);
    one->name = n;
    one->next = hs;
    return one;
}

/* ---- files and frames --------------------------------------------------- */

static Frame *current_frame(Preprocessor *pp) { return &pp->frames[pp->frame_count - 1]; }

static void push_frame(Preprocessor *pp, uint32_t file, int entry, Token *tokens, int depth)
{
    GROW(pp->frames, pp->frame_count, pp->frame_capacity);
    pp->frames[pp->frame_count++] = (Frame){
        .file = file, .entry = entry, .first = tokens, .resume = pp->tok,
        .cond_base = pp->cond_count, .depth = depth};
    pp->tok = tokens;
}

static void report_unterminated(Preprocessor *pp, int base)
{
    for (int i = base; i < pp->cond_count; i++) {
        Token *d = pp->conds[i].directive;
        diag_error(pp->diag, d->loc, "unterminated #%.*s", (int)d->len, d->text);
    }
    pp->cond_count = base;
}

/* At the end of a file: checks its #if stack and goes back to the includer.
 * Returns false at the end of the main file. */
static bool pop_frame(Preprocessor *pp)
{
    if (pp->finished)
        return false;
    Frame *f = current_frame(pp);
    report_unterminated(pp, f->cond_base);
    if (pp->frame_count == 1) {
        pp->finished = true;
        return false;
    }
    pp->tok = f->resume;
    pp->frame_count--;
    if (f->depth > 1 && pp->file_hook) /* back from an #include */
        pp->file_hook(pp->file_hook_ctx, false, f->included_at.file, f->included_at);
    return true;
}

static int add_entry(Preprocessor *pp, char *real_path, uint32_t file, Token *tokens)
{
    GROW(pp->entries, pp->entry_count, pp->entry_capacity);
    pp->entries[pp->entry_count] = (FileEntry){.real_path = real_path, .file = file, .tokens = tokens};
    GROW(pp->deps, pp->dep_count, pp->dep_capacity);
    pp->deps[pp->dep_count++] = srcmgr_file(pp->sources, file)->name;
    return pp->entry_count++;
}

static int find_entry(Preprocessor *pp, const char *real_path)
{
    for (int i = 0; i < pp->entry_count; i++)
        if (pp->entries[i].real_path && strcmp(pp->entries[i].real_path, real_path) == 0)
            return i;
    return -1;
}

static bool is_regular_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* One look of the include search: a path that is not a file is recorded,
 * since a file appearing there later would change what the search finds
 * (pp_absent_includes: what a translation cache must also check). */
static bool probe(Preprocessor *pp, const char *path)
{
    if (is_regular_file(path))
        return true;
    path_set_add(&pp->absent, path);
    return false;
}

static char *join_path(const char *dir, size_t dir_len, const char *name)
{
    size_t name_len = strlen(name);
    char *path = mem_alloc(dir_len + name_len + 2);
    memcpy(path, dir, dir_len);
    path[dir_len] = '/';
    memcpy(path + dir_len + 1, name, name_len + 1);
    return path;
}

/* Searches for an #include'd file: the includer's directory first for
 * "name", then the -I directories.  Returns a malloc'd path or NULL. */
static char *search_include(Preprocessor *pp, const char *name, bool quoted, uint32_t includer,
                            const PPOptions *opt)
{
    if (name[0] == '/')
        return probe(pp, name) ? strdup(name) : NULL;
    if (quoted) {
        const SourceFile *f = srcmgr_file(pp->sources, includer);
        const char *slash = f ? strrchr(f->name, '/') : NULL;
        char *path = slash ? join_path(f->name, (size_t)(slash - f->name), name) : strdup(name);
        if (probe(pp, path))
            return path;
        free(path);
    }
    for (int i = 0; opt && i < opt->include_dir_count; i++) {
        char *path = join_path(opt->include_dirs[i], strlen(opt->include_dirs[i]), name);
        if (probe(pp, path))
            return path;
        free(path);
    }
    return NULL;
}

/* ---- reading lines ------------------------------------------------------ */

/* Skips the rest of a directive line, warning about extra tokens. */
static void skip_line(Preprocessor *pp, const Token *directive)
{
    if (!at_eol(pp->tok) && directive)
        diag_warning(pp->diag, WARN_EXTRA_TOKENS, pp->tok->loc,
                     "extra tokens at end of #%.*s directive",
                     (int)directive->len, directive->text);
    while (!at_eol(pp->tok))
        pp->tok = pp->tok->next;
}

/* Copies the rest of the line into a fresh EOF-terminated list. */
static Token *copy_line(Preprocessor *pp)
{
    Token head = {0}, *cur = &head;
    for (; !at_eol(pp->tok); pp->tok = pp->tok->next)
        cur = cur->next = copy_token(pp, pp->tok);
    /* The end of the line is just after its last token, not the next line
     * (errors like "expected value" point there). */
    SrcLoc end = cur != &head ? (SrcLoc){cur->loc.file, cur->loc.offset + cur->len} : pp->tok->loc;
    cur->next = new_eof(pp, end);
    return head.next;
}

static Token *copy_list(Preprocessor *pp, const Token *t)
{
    Token head = {0}, *cur = &head;
    for (; t->kind != TK_EOF; t = t->next)
        cur = cur->next = copy_token(pp, t);
    cur->next = new_eof(pp, t->loc);
    return head.next;
}

/* ---- macro expansion ---------------------------------------------------- */

static bool expand_macro(Preprocessor *pp, Token *tok);

/* Expands an isolated EOF-terminated list (a macro argument, an #if line). */
static Token *expand_list(Preprocessor *pp, Token *list)
{
    Token *saved = pp->tok;
    Token head = {0}, *cur = &head;
    pp->tok = list;
    for (;;) {
        Token *t = pp->tok;
        if (t->kind == TK_EOF || pp->stop)
            break;
        pp->tok = t->next;
        if (pp->in_if && t->kind == TK_IDENT && same_text(t, "defined", 7)) {
            /* from a macro body: its operand must not be expanded (GCC) */
            cur = cur->next = t;
            int n = is_punct(pp->tok, '(') ? 3 : 1;
            for (; n > 0 && pp->tok->kind != TK_EOF; n--, pp->tok = pp->tok->next)
                cur = cur->next = pp->tok;
            continue;
        }
        if (t->kind == TK_IDENT && expand_macro(pp, t))
            continue;
        cur = cur->next = t; /* t is a fresh copy nobody else links to */
    }
    cur->next = pp->tok;
    pp->tok = saved;
    return head.next;
}

static bool needs_expansion(Preprocessor *pp, const Token *t)
{
    for (; t->kind != TK_EOF; t = t->next)
        if (t->kind == TK_IDENT && find_macro(pp, t))
            return true;
    return false;
}

static Token *expanded_arg(Preprocessor *pp, MacroArg *arg)
{
    if (!arg->expanded && pp->stop)
        return arg->raw; /* after the fatal error: nothing more is made */
    if (!arg->expanded)
        arg->expanded = needs_expansion(pp, arg->raw) ? expand_list(pp, copy_list(pp, arg->raw))
                                                      : arg->raw;
    return arg->expanded;
}

/* # operator: the spelling of the argument as a string literal. */
static Token *stringize(Preprocessor *pp, const Token *arg, SrcLoc loc)
{
    Buf b = {0};
    buf_add(&b, "\"", 1);
    for (const Token *t = arg; t->kind != TK_EOF; t = t->next) {
        if (t != arg && t->has_space)
            buf_add(&b, " ", 1);
        if (t->kind != TK_STRING && t->kind != TK_CHAR) {
            buf_add(&b, t->text, t->len);
            continue;
        }
        for (unsigned i = 0; i < t->len; i++) {
            if (t->text[i] == '"' || t->text[i] == '\\')
                buf_add(&b, "\\", 1);
            buf_add(&b, t->text + i, 1);
        }
    }
    buf_add(&b, "\"", 1);
    size_t len = b.len;
    Token *t = new_token(pp, TK_STRING, buf_finish(pp, &b), loc);
    t->len = (unsigned)len; /* not strlen: a NUL byte in the argument stays (the parser reports it) */
    return t;
}

static void count_capture(void *ctx, DiagLevel level, SrcLoc loc, const char *message)
{
    (void)level, (void)loc, (void)message;
    ++*(int *)ctx;
}

/* Scans text[0..len) as part of `file` without reporting anything; the
 * tokens go to the arena, *errors counts the lexical errors (stray byte,
 * unterminated literal or comment). */
static Token *lex_quietly(Preprocessor *pp, uint32_t file, const char *text, size_t len,
                          int *errors)
{
    *errors = 0;
    Diag quiet;
    diag_init(&quiet, pp->sources, NULL);
    quiet.capture = count_capture;
    quiet.capture_ctx = errors;
    return lex_file(pp->arena, &quiet, file, text, len);
}

/* ## operator: lhs and rhs spelled together must scan as one token; NULL
 * (after an error) when they do not. */
static Token *paste(Preprocessor *pp, const Token *lhs, const Token *rhs, SrcLoc site)
{
    char *text = arena_printf(pp->arena, "%.*s%.*s", (int)lhs->len, lhs->text, (int)rhs->len,
                              rhs->text);
    size_t len = lhs->len + rhs->len;
    int errors;
    Token *t = lex_quietly(pp, lhs->loc.file, text, len, &errors);
    if (errors || t->kind == TK_EOF || t->next->kind != TK_EOF || t->len != len) {
        diag_error(pp->diag, site, "pasting \"%.*s\" and \"%.*s\" does not give a valid preprocessing token",
                   (int)lhs->len, lhs->text, (int)rhs->len, rhs->text);
        return NULL;
    }
    t->loc = site;
    t->has_space = lhs->has_space;
    t->at_bol = false;
    /* no hideset of its own: the caller copies it over lhs (see
     * assign_pasted), which keeps lhs's */
    t->next = NULL;
    return t;
}

/* Overwrites our own copy `lhs` with the token pasting made of it and
 * what follows; lhs keeps its hideset, which is the pasted token's. */
static void assign_pasted(Token *lhs, const Token *pasted)
{
    bool had_hideset = lhs->has_hideset;
    *lhs = *pasted;
    lhs->has_hideset = had_hideset;
}

typedef struct Subst {
    Preprocessor *pp;
    Macro *m;
    MacroArg *args;
    Token *site;           /* the invocation's macro name */
    Token head, *cur;      /* the result being built */
} Subst;

static void subst_append(Subst *s, const Token *t, bool from_body)
{
    s->cur = s->cur->next = copy_token(s->pp, t);
    if (from_body)
        s->cur->loc = s->site->loc;
}

/* Appends copies of an EOF-terminated list; returns whether it was empty.
 * The first copy takes `space` (the parameter's white space). */
static bool subst_append_list(Subst *s, const Token *list, bool space)
{
    for (const Token *t = list; t->kind != TK_EOF; t = t->next) {
        subst_append(s, t, false);
        if (t == list)
            s->cur->has_space = space;
    }
    return list->kind == TK_EOF;
}

static void subst_range(Subst *s, int from, int to);

/* Index of the ')' closing the __VA_OPT__ at i (validated by #define). */
static int va_opt_end(const Macro *m, int i)
{
    int depth = 0;
    for (i += 1; i < m->body_len; i++) {
        if (is_punct(&m->body[i], '('))
            depth++;
        else if (is_punct(&m->body[i], ')') && --depth == 0)
            return i;
    }
    return m->body_len - 1;
}

static bool va_args_present(const Subst *s)
{
    return s->args[s->m->param_count - 1].raw->kind != TK_EOF;
}

/* __VA_OPT__(content) as a list: the substituted content or nothing. */
static Token *va_opt_list(Subst *s, int i, int end)
{
    if (!va_args_present(s))
        return new_eof(s->pp, s->site->loc);
    Subst inner = {.pp = s->pp, .m = s->m, .args = s->args, .site = s->site};
    inner.cur = &inner.head;
    subst_range(&inner, i + 2, end);
    inner.cur->next = new_eof(s->pp, s->site->loc);
    return inner.head.next;
}

/* What body[i] names: an index into s->args, PARAM_VA_OPT or PARAM_NONE.
 * Only a function-like macro has arguments, and analyse_body marks no
 * parameter in the body of any other. */
static int param_at(const Subst *s, int i)
{
    return s->args ? s->m->param_of[i] : PARAM_NONE;
}

/* The operand of # or ## at body index i, as a list of tokens; *next is set
 * to the index after it. */
static Token *operand_list(Subst *s, int i, int *next)
{
    int p = param_at(s, i);
    if (p >= 0 && s->args) {
        *next = i + 1;
        return s->args[p].raw;
    }
    if (p == PARAM_VA_OPT) {
        int end = va_opt_end(s->m, i);
        *next = end + 1;
        return va_opt_list(s, i, end);
    }
    *next = i + 1;
    return NULL;
}

/* Replaces parameters in body[from, to) (C17 6.10.3.1-6.10.3.3). */
static void subst_range(Subst *s, int from, int to)
{
    Macro *m = s->m;
    bool placemarker = true; /* the last operand expanded to nothing */
    for (int i = from; i < to && !s->pp->stop;) {
        Token *t = &m->body[i];
        int p = param_at(s, i);
        bool before_paste = i + 1 < to && is_punct(&m->body[i + 1], P_HASHHASH);

        if (m->function_like && is_punct(t, '#') && i + 1 < to && m->param_of[i + 1] != PARAM_NONE) {
            int next;
            Token *arg = operand_list(s, i + 1, &next);
            s->cur = s->cur->next = stringize(s->pp, arg, s->site->loc);
            s->cur->has_space = t->has_space;
            placemarker = false;
            i = next;
            continue;
        }
        if (is_punct(t, P_HASHHASH)) {
            int next;
            Token *rhs = operand_list(s, i + 1, &next);
            if (!rhs) {
                rhs = copy_token(s->pp, &m->body[i + 1]);
                rhs->loc = s->site->loc;
                rhs->next = new_eof(s->pp, s->site->loc);
            }
            if (rhs->kind != TK_EOF) {
                if (placemarker) {
                    subst_append_list(s, rhs, rhs->has_space);
                } else {
                    Token *pasted = paste(s->pp, s->cur, rhs, s->site->loc);
                    if (pasted) {
                        assign_pasted(s->cur, pasted);
                        rhs = rhs->next;
                    }
                    subst_append_list(s, rhs, pasted ? rhs->has_space : true);
                }
                placemarker = false;
            }
            i = next;
            continue;
        }
        if (p >= 0) {
            const Token *list = before_paste ? s->args[p].raw : expanded_arg(s->pp, &s->args[p]);
            placemarker = subst_append_list(s, list, t->has_space);
            i++;
            continue;
        }
        if (p == PARAM_VA_OPT) {
            int end = va_opt_end(m, i);
            placemarker = subst_append_list(s, va_opt_list(s, i, end), t->has_space);
            i = end + 1;
            continue;
        }
        subst_append(s, t, true);
        placemarker = false;
        i++;
    }
}

static Token *directive(Preprocessor *pp, Token *hash);
static Directive directive_kind(const Token *t);

/* A directive line inside the arguments of a macro invocation (`f(\n#ifdef
 * X\n a\n#else\n b\n#endif\n)`).  C17 6.10.3p11 leaves it undefined; GCC
 * and Clang process it, and so do we: conditionals, #define, #undef, #line,
 * #error and #warning act as anywhere else.  #include and #pragma would need
 * to splice tokens into the argument, so they are errors.  `hash` is the
 * line's '#'; returns the first token after the directive (and after any
 * group it skipped). */
static Token *directive_in_arguments(Preprocessor *pp, const Token *site, Token *hash)
{
    Token *name = hash->next;
    pp->tok = name;
    Directive kind = at_eol(name) ? DIR_UNKNOWN : directive_kind(name);
    if (kind == DIR_include || kind == DIR_pragma) {
        diag_error(pp->diag, name->loc, "#%.*s inside the arguments of macro '%.*s'",
                   (int)name->len, name->text, (int)site->len, site->text);
        pp->tok = name->next;
        skip_line(pp, NULL);
        return pp->tok;
    }
    directive(pp, hash);
    return pp->tok;
}

/* Reads the arguments of a function-like macro; pp->tok is at '('.  Returns
 * NULL after reporting an error. */
static MacroArg *collect_args(Preprocessor *pp, Macro *m, Token *site, Token **rparen)
{
    int capacity = m->param_count > 0 ? m->param_count : 1, count = 0;
    MacroArg *args = ARENA_NEW_ARRAY(pp->arena, MacroArg, capacity);
    Token *t = pp->tok->next;
    for (;;) {
        Token head = {0}, *cur = &head;
        int depth = 0;
        bool rest = m->variadic && count == m->param_count - 1;
        for (;; t = t->next) {
            /* Only tokens read from a file are at the beginning of a line:
             * copies made by expansions never are (copy_token). */
            while (t->at_bol && is_punct(t, '#'))
                t = directive_in_arguments(pp, site, t);
            if (pp->stop)
                return NULL; /* the expansion limit fired */
            if (t->kind == TK_EOF) {
                diag_error(pp->diag, site->loc, "unterminated argument list invoking macro '%.*s'",
                           (int)site->len, site->text);
                pp->tok = t;
                return NULL;
            }
            if (depth == 0 && (is_punct(t, ')') || (is_punct(t, ',') && !rest)))
                break;
            if (is_punct(t, '('))
                depth++;
            else if (is_punct(t, ')'))
                depth--;
            cur = cur->next = copy_token(pp, t);
        }
        cur->next = new_eof(pp, t->loc);
        if (count == capacity) {
            MacroArg *bigger = ARENA_NEW_ARRAY(pp->arena, MacroArg, capacity * 2);
            memcpy(bigger, args, sizeof *args * (size_t)capacity);
            args = bigger;
            capacity *= 2;
        }
        args[count++] = (MacroArg){.raw = head.next};
        if (is_punct(t, ')'))
            break;
        t = t->next;
    }
    *rparen = t;
    pp->tok = t->next;

    if (m->param_count == 0 && count == 1 && args[0].raw->kind == TK_EOF)
        count = 0;
    if (m->variadic && count == m->param_count - 1) {
        args[count++] = (MacroArg){.raw = new_eof(pp, t->loc)};
    }
    int required = m->variadic ? m->param_count - 1 : m->param_count;
    if (count < m->param_count) {
        diag_error(pp->diag, site->loc, "macro '%.*s' requires %s%d argument%s, but only %d given",
                   (int)site->len, site->text, m->variadic ? "at least " : "", required,
                   required == 1 ? "" : "s", count);
        return NULL;
    }
    if (count > m->param_count) {
        diag_error(pp->diag, site->loc, "macro '%.*s' passed %d arguments, but takes just %d",
                   (int)site->len, site->text, count, m->param_count);
        return NULL;
    }
    return args;
}

/* The fatal error of MAX_EXPANDED_TOKENS, at the expansion running when it
 * was crossed; every loop that copies tokens then stops at pp->stop. */
static void expansion_too_big(Preprocessor *pp, const Token *t)
{
    const Token *site = pp->expanding ? pp->expanding : t;
    diag_fatal(pp->diag, site->loc,
               "expanding macro '%.*s' makes more than %zu tokens (does its expansion double at each level?)",
               (int)site->len, site->text, MAX_EXPANDED_TOKENS);
    pp->stop = new_eof(pp, site->loc);
}

static bool substitute(Preprocessor *pp, Token *tok, Name *name);

/* If tok names a macro that may expand here, replaces it (and its
 * arguments) at the front of pp->tok and returns true.  An expansion
 * nests inside another while that one expands its arguments (F(F(F(x))));
 * the depth is bounded like the parser's, not by the stack. */
static bool expand_macro(Preprocessor *pp, Token *tok)
{
    Name *name = find_name(pp, tok->text, tok->len);
    if (pp->stop || !name || !name->macro || hideset_contains(pp, hideset_of(tok), name))
        return false;
    if (pp->hideset_steps > MAX_HIDESET_STEPS) {
        diag_fatal(pp->diag, tok->loc,
                   "expanding macro '%.*s' takes more than %zu steps through the macros it may not "
                   "expand again (a chain of macros thousands deep?)",
                   (int)tok->len, tok->text, MAX_HIDESET_STEPS);
        pp->stop = new_eof(pp, tok->loc);
        return false;
    }
    if (pp->expansion_depth >= MAX_MACRO_NESTING) {
        diag_fatal(pp->diag, tok->loc, "macro invocations nested too deeply (more than %d levels)",
                   MAX_MACRO_NESTING);
        pp->stop = new_eof(pp, tok->loc);
        return false;
    }
    Token *outer = pp->expanding;
    pp->expanding = tok;
    pp->expansion_depth++;
    bool expanded = substitute(pp, tok, name);
    pp->expansion_depth--;
    pp->expanding = outer;
    return expanded;
}

static bool substitute(Preprocessor *pp, Token *tok, Name *name)
{
    Macro *m = name->macro;
    if (m->handler) {
        Token *t = m->handler(pp, tok);
        t->has_space = tok->has_space;
        set_hideset(t, hideset_add(pp, hideset_of(tok), name));
        t->next = pp->tok;
        pp->tok = t;
        return true;
    }

    Subst s = {.pp = pp, .m = m, .site = tok};
    s.cur = &s.head;
    Hideset *hs;
    if (m->function_like) {
        if (!is_punct(pp->tok, '('))
            return false;
        Token *rparen;
        s.args = collect_args(pp, m, tok, &rparen);
        if (!s.args)
            return true;
        hs = hideset_add(pp, hideset_intersection(pp, hideset_of(tok), hideset_of(rparen)), name);
    } else {
        hs = hideset_add(pp, hideset_of(tok), name);
    }
    subst_range(&s, 0, m->body_len);
    if (pp->stop)
        return true;

    for (Token *t = s.head.next; t; t = t->next)
        set_hideset(t, hideset_of(t) ? hideset_union(pp, hideset_of(t), hs) : hs);
    if (s.head.next)
        s.head.next->has_space = tok->has_space;
    s.cur->next = pp->tok;
    pp->tok = s.head.next ? s.head.next : pp->tok;
    return true;
}

/* ---- dynamic macros ----------------------------------------------------- */

static unsigned logical_line(Preprocessor *pp, SrcLoc loc)
{
    unsigned line, col;
    srcmgr_line_col(pp->sources, loc, &line, &col);
    for (int i = pp->frame_count - 1; i >= 0; i--)
        if (pp->frames[i].file == loc.file)
            return (unsigned)((long)line + pp->frames[i].line_delta);
    return line;
}

static const char *logical_file(Preprocessor *pp, SrcLoc loc)
{
    for (int i = pp->frame_count - 1; i >= 0; i--)
        if (pp->frames[i].file == loc.file && pp->frames[i].line_name)
            return pp->frames[i].line_name;
    const SourceFile *f = srcmgr_file(pp->sources, loc.file);
    return f ? f->name : "<unknown>";
}

static Token *macro_file(Preprocessor *pp, Token *site)
{
    const char *name = logical_file(pp, site->loc);
    Buf b = {0};
    buf_add(&b, "\"", 1);
    for (const char *p = name; *p; p++) {
        if (*p == '"' || *p == '\\')
            buf_add(&b, "\\", 1);
        buf_add(&b, p, 1);
    }
    buf_add(&b, "\"", 1);
    return new_token(pp, TK_STRING, buf_finish(pp, &b), site->loc);
}

static Token *macro_line(Preprocessor *pp, Token *site)
{
    return new_token(pp, TK_PPNUMBER, arena_printf(pp->arena, "%u", logical_line(pp, site->loc)),
                     site->loc);
}

static Token *macro_counter(Preprocessor *pp, Token *site)
{
    return new_token(pp, TK_PPNUMBER, arena_printf(pp->arena, "%u", pp->counter++), site->loc);
}

/* ---- #define / #undef --------------------------------------------------- */

static int find_param(const Macro *m, const Token *t)
{
    for (int i = 0; i < m->param_count; i++)
        if (same_text(t, m->params[i].text, m->params[i].len))
            return i;
    return PARAM_NONE;
}

/* Reads "(a, b, ...)" after a function-like macro's name. */
static bool read_params(Preprocessor *pp, Macro *m)
{
    Param params[256];
    int count = 0;
    Token *t = pp->tok->next; /* after '(' */
    const Token *prev = pp->tok;
#define AT_LINE_END(tok) (at_eol(tok) ? (SrcLoc){prev->loc.file, prev->loc.offset + prev->len} : (tok)->loc)
    if (is_punct(t, ')') && !at_eol(t)) {
        pp->tok = t->next;
        return true;
    }
    for (;;) {
        if (at_eol(t)) {
            diag_error(pp->diag, AT_LINE_END(t), "missing ')' in macro parameter list");
            return false;
        }
        if (is_punct(t, P_ELLIPSIS)) {
            m->variadic = true;
            params[count++] = (Param){"__VA_ARGS__", 11};
            prev = t;
            t = t->next;
        } else if (t->kind == TK_IDENT) {
            for (int i = 0; i < count; i++)
                if (same_text(t, params[i].text, params[i].len)) {
                    diag_error(pp->diag, t->loc, "duplicate macro parameter '%.*s'", (int)t->len, t->text);
                    return false;
                }
            if (count == (int)(sizeof params / sizeof params[0])) {
                diag_error(pp->diag, t->loc, "too many macro parameters");
                return false;
            }
            params[count++] = (Param){t->text, t->len};
            prev = t;
            t = t->next;
            if (is_punct(t, P_ELLIPSIS) && !at_eol(t)) { /* GNU named variadic: args... */
                m->variadic = true;
                prev = t;
                t = t->next;
            }
        } else {
            diag_error(pp->diag, t->loc, "expected parameter name, found '%.*s'", (int)t->len, t->text);
            return false;
        }
        if (!at_eol(t) && is_punct(t, ')'))
            break;
        if (m->variadic || at_eol(t) || !is_punct(t, ',')) {
            diag_error(pp->diag, AT_LINE_END(t), "expected ',' or ')' in macro parameter list");
            return false;
        }
        prev = t;
        t = t->next;
    }
    pp->tok = t->next;
#undef AT_LINE_END
    m->param_count = count;
    m->params = ARENA_NEW_ARRAY(pp->arena, Param, count);
    memcpy(m->params, params, sizeof(Param) * (size_t)count);
    return true;
}

/* Marks parameters in the body and checks # / ## / __VA_OPT__ placement. */
static bool analyse_body(Preprocessor *pp, Macro *m)
{
    m->param_of = ARENA_NEW_ARRAY(pp->arena, short, m->body_len ? m->body_len : 1);
    for (int i = 0; i < m->body_len && !m->variadic; i++) {
        if (m->body[i].kind == TK_IDENT && same_text(&m->body[i], "__VA_ARGS__", 11)) {
            diag_error(pp->diag, m->body[i].loc,
                       "__VA_ARGS__ can only appear in the expansion of a variadic macro");
            return false;
        }
    }
    for (int i = 0; i < m->body_len; i++) {
        Token *t = &m->body[i];
        m->param_of[i] = PARAM_NONE;
        if (t->kind != TK_IDENT || !m->function_like)
            continue;
        if (m->variadic && same_text(t, "__VA_OPT__", 10)) {
            int depth = 0, j = i + 1;
            if (j >= m->body_len || !is_punct(&m->body[j], '(')) {
                diag_error(pp->diag, t->loc, "__VA_OPT__ must be followed by '('");
                return false;
            }
            for (; j < m->body_len; j++) {
                depth += is_punct(&m->body[j], '(') - is_punct(&m->body[j], ')');
                if (depth == 0)
                    break;
            }
            if (j == m->body_len) {
                diag_error(pp->diag, t->loc, "unterminated __VA_OPT__");
                return false;
            }
            m->param_of[i] = PARAM_VA_OPT;
            continue;
        }
        m->param_of[i] = (short)find_param(m, t);
    }
    if (m->body_len > 0 && is_punct(&m->body[0], P_HASHHASH)) {
        diag_error(pp->diag, m->body[0].loc, "'##' cannot appear at either end of a macro expansion");
        return false;
    }
    if (m->body_len > 0 && is_punct(&m->body[m->body_len - 1], P_HASHHASH)) {
        diag_error(pp->diag, m->body[m->body_len - 1].loc,
                   "'##' cannot appear at either end of a macro expansion");
        return false;
    }
    for (int i = 0; m->function_like && i < m->body_len; i++) {
        if (is_punct(&m->body[i], '#') &&
            (i + 1 == m->body_len || m->param_of[i + 1] == PARAM_NONE)) {
            diag_error(pp->diag, m->body[i].loc, "'#' is not followed by a macro parameter");
            return false;
        }
    }
    return true;
}

static bool same_definition(const Macro *a, const Macro *b)
{
    if (a->handler || b->handler || a->function_like != b->function_like ||
        a->variadic != b->variadic || a->param_count != b->param_count ||
        a->body_len != b->body_len)
        return false;
    for (int i = 0; i < a->param_count; i++)
        if (a->params[i].len != b->params[i].len ||
            memcmp(a->params[i].text, b->params[i].text, a->params[i].len) != 0)
            return false;
    for (int i = 0; i < a->body_len; i++) {
        const Token *x = &a->body[i], *y = &b->body[i];
        if (x->len != y->len || memcmp(x->text, y->text, x->len) != 0 ||
            (i > 0 && x->has_space != y->has_space))
            return false;
    }
    return true;
}

static void install_macro(Preprocessor *pp, Name *name, Macro *m)
{
    m->name = name;
    if (name->macro && !same_definition(name->macro, m)) {
        diag_warning(pp->diag, WARN_MACRO_REDEFINED, m->loc, "'%.*s' macro redefined",
                     (int)name->len, name->text);
        if (name->macro->loc.file)
            diag_note(pp->diag, name->macro->loc, "previous definition is here");
    }
    name->macro = m;
}

/* Reads a macro name for #define/#undef/#ifdef; NULL after an error. */
static Token *read_macro_name(Preprocessor *pp, const Token *directive)
{
    Token *t = pp->tok;
    if (at_eol(t)) {
        diag_error(pp->diag, directive->loc, "no macro name given in #%.*s directive",
                   (int)directive->len, directive->text);
        return NULL;
    }
    if (t->kind != TK_IDENT) {
        diag_error(pp->diag, t->loc, "macro names must be identifiers");
        skip_line(pp, NULL);
        return NULL;
    }
    pp->tok = t->next;
    return t;
}

static void read_define(Preprocessor *pp, Token *directive)
{
    Token *name = read_macro_name(pp, directive);
    if (!name)
        return;
    if (same_text(name, "defined", 7)) {
        diag_error(pp->diag, name->loc, "'defined' cannot be used as a macro name");
        skip_line(pp, NULL);
        return;
    }
    Macro *m = ARENA_NEW(pp->arena, Macro);
    m->loc = name->loc;
    if (!at_eol(pp->tok) && is_punct(pp->tok, '(') && !pp->tok->has_space) {
        m->function_like = true;
        if (!read_params(pp, m)) {
            skip_line(pp, NULL);
            return;
        }
    }
    for (Token *t = pp->tok; !at_eol(t); t = t->next)
        m->body_len++;
    m->body = ARENA_NEW_ARRAY(pp->arena, Token, m->body_len ? m->body_len : 1);
    for (int i = 0; i < m->body_len; i++, pp->tok = pp->tok->next) {
        m->body[i] = *pp->tok;
        m->body[i].has_hideset = false; /* an array of bare Tokens; copy_token
                                           gives each use its hideset */
        m->body[i].at_bol = false;
        m->body[i].next = NULL;
    }
    if (analyse_body(pp, m))
        install_macro(pp, intern_name(pp, name->text, name->len), m);
}

static void read_undef(Preprocessor *pp, Token *directive)
{
    Token *name = read_macro_name(pp, directive);
    if (!name)
        return;
    Name *n = find_name(pp, name->text, name->len);
    if (n)
        n->macro = NULL;
    skip_line(pp, directive);
}

static void define_handler(Preprocessor *pp, const char *name, MacroHandler *handler)
{
    Macro *m = ARENA_NEW(pp->arena, Macro);
    m->handler = handler;
    m->name = intern_name(pp, name, (unsigned)strlen(name));
    m->name->macro = m;
}

/* ---- #include ----------------------------------------------------------- */

/* Enters an #include'd file (its tokens) from the #include at `hash`. */
static void enter_include(Preprocessor *pp, Token *hash, uint32_t file, int entry, Token *tokens,
                          int depth)
{
    push_frame(pp, file, entry, tokens, depth);
    current_frame(pp)->included_at = hash->loc;
    if (pp->file_hook)
        pp->file_hook(pp->file_hook_ctx, true, file, hash->loc);
}

/* The file name of an #include line: "name" or <name>, after macro
 * expansion if it is neither.  Returns an arena string or NULL; *at gets
 * where the name starts (its '"' or '<'), where GCC and Clang point. */
static char *read_include_name(Preprocessor *pp, Token *directive, bool *quoted, SrcLoc *at)
{
    Token *t = pp->tok;
    if (!at_eol(t) && t->kind != TK_STRING && !is_punct(t, '<')) {
        Token *line = expand_list(pp, copy_line(pp));
        t = line;
    } else {
        t = copy_line(pp);
    }
    *at = t->kind == TK_EOF ? directive->loc : t->loc;
    char *name = NULL;
    if (t->kind == TK_STRING && t->text[0] == '"') {
        *quoted = true;
        name = arena_strndup(pp->arena, t->text + 1, t->len - 2);
        t = t->next;
    } else if (is_punct(t, '<')) {
        Buf b = {0};
        for (t = t->next; t->kind != TK_EOF && !is_punct(t, '>'); t = t->next) {
            if (b.len && t->has_space)
                buf_add(&b, " ", 1);
            buf_add(&b, t->text, t->len);
        }
        if (t->kind == TK_EOF) {
            free(b.data);
            diag_error(pp->diag, directive->loc, "missing terminating > character");
            return NULL;
        }
        *quoted = false;
        name = buf_finish(pp, &b);
        t = t->next;
    } else {
        diag_error(pp->diag, directive->loc, "#include expects \"FILENAME\" or <FILENAME>");
        return NULL;
    }
    if (t->kind != TK_EOF)
        diag_warning(pp->diag, WARN_EXTRA_TOKENS, t->loc,
                     "extra tokens at end of #include directive");
    if (!*name) {
        diag_error(pp->diag, directive->loc, "empty filename in #include");
        return NULL;
    }
    return name;
}

static void include_file(Preprocessor *pp, Token *hash, Token *directive)
{
    bool quoted = false;
    SrcLoc name_loc;
    char *name = read_include_name(pp, directive, &quoted, &name_loc);
    if (!name)
        return;
    Frame *f = current_frame(pp);
    char *path = search_include(pp, name, quoted, f->file, &pp->options);
    if (!path) {
        diag_error(pp->diag, name_loc, "'%s' file not found", name);
        return;
    }
    if (f->depth + 1 > MAX_INCLUDE_DEPTH) {
        diag_error(pp->diag, hash->loc, "#include nested depth %d exceeds maximum of %d",
                   f->depth + 1, MAX_INCLUDE_DEPTH);
        free(path);
        return;
    }
    char *real = realpath(path, NULL);
    int e = real ? find_entry(pp, real) : -1;
    if (e >= 0) {
        free(real);
        free(path);
        FileEntry *entry = &pp->entries[e];
        if (entry->once || (entry->guard && entry->guard->macro))
            return;
        enter_include(pp, hash, entry->file, e, entry->tokens, f->depth + 1);
        return;
    }
    uint32_t id = srcmgr_load(pp->sources, path);
    free(path);
    if (!id) {
        diag_error(pp->diag, name_loc, "cannot read '%s'", name);
        free(real);
        return;
    }
    const SourceFile *sf = srcmgr_file(pp->sources, id);
    ((SourceFile *)sf)->included_from = hash->loc;
    Token *tokens = lex_file(pp->arena, pp->diag, id, sf->text, sf->size);
    e = add_entry(pp, real, id, tokens);
    enter_include(pp, hash, id, e, tokens, f->depth + 1);
}

/* ---- #if expressions ---------------------------------------------------- */

typedef struct Value {
    uintmax_t bits;        /* two's complement bits of the value */
    bool is_unsigned;
} Value;

/* Parentheses and ?: nest the evaluation of an #if expression (recursive
 * descent); past this depth it stops with an error instead of running out
 * of stack.  Unary operators and chains of binary ones do not nest (an
 * iterative loop each). */
enum { MAX_IF_NESTING = 1 << 16 };

typedef struct Eval {
    Preprocessor *pp;
    Token *tok;
    int depth;             /* open parentheses and ?: (MAX_IF_NESTING) */
    bool live;             /* not in a short-circuited operand */
    bool failed;           /* an error was reported; stop */
} Eval;

static void eval_error(Eval *e, const Token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void eval_error(Eval *e, const Token *t, const char *fmt, ...)
{
    if (e->failed)
        return;
    e->failed = true;
    va_list ap;
    va_start(ap, fmt);
    diag_report(e->pp->diag, DIAG_ERROR, t->loc, fmt, ap);
    va_end(ap);
}

static Value signed_value(intmax_t v) { return (Value){(uintmax_t)v, false}; }
static intmax_t as_signed(Value v) { return (intmax_t)v.bits; }

static bool is_true(Value v) { return v.bits != 0; }

/* A character constant's value as an int (base/literal.h: plain char is
 * signed, a prefixed one is its last character's value). */
static Value char_value(const Token *t)
{
    LiteralConstant c;
    return signed_value(literal_char_constant(t->text, t->len, &c) ? (intmax_t)c.value : 0);
}

static bool number_value(Eval *e, const Token *t, Value *out)
{
    const char *s = t->text, *end = t->text + t->len;
    int base = 10;
    if (t->len > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    else if (t->len > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, s += 2;
    else if (s[0] == '0')
        base = 8;
    uintmax_t v = 0;
    bool overflow = false;
    const char *digits = s;
    for (; s < end; s++) {
        int d = *s >= '0' && *s <= '9' ? *s - '0'
              : (*s | 0x20) >= 'a' && (*s | 0x20) <= 'f' ? (*s | 0x20) - 'a' + 10 : 99;
        if (d >= base)
            break;
        if (v > (UINTMAX_MAX - (uintmax_t)d) / (uintmax_t)base)
            overflow = true;
        v = v * (uintmax_t)base + (uintmax_t)d;
    }
    bool is_unsigned = false;
    int longs = 0;
    const char *suffix = s;
    for (; s < end; s++) {
        if ((*s == 'u' || *s == 'U') && !is_unsigned)
            is_unsigned = true;
        else if ((*s == 'l' || *s == 'L') && longs == 0)
            longs = (s + 1 < end && s[1] == *s) ? 2 : 1, s += longs - 1;
        else
            break;
    }
    if (s != end || (digits == suffix && base != 8)) {
        bool floating = memchr(t->text, '.', t->len) ||
                        (base == 10 && (memchr(suffix, 'e', (size_t)(end - suffix)) ||
                                        memchr(suffix, 'E', (size_t)(end - suffix)))) ||
                        (base == 16 && (memchr(suffix, 'p', (size_t)(end - suffix)) ||
                                        memchr(suffix, 'P', (size_t)(end - suffix))));
        if (floating)
            eval_error(e, t, "floating constant in preprocessor expression");
        else
            eval_error(e, t, "invalid integer constant '%.*s' in #if", (int)t->len, t->text);
        return false;
    }
    if (overflow) {
        eval_error(e, t, "integer constant is too large for its type");
        return false;
    }
    if (v > (uintmax_t)INTMAX_MAX && !is_unsigned) {
        if (base == 10)
            diag_warning(e->pp->diag, WARN_IMPLICITLY_UNSIGNED_LITERAL, t->loc,
                         "integer constant is so large that it is unsigned");
        is_unsigned = true;
    }
    *out = (Value){v, is_unsigned};
    return true;
}

static Value eval_expr(Eval *e);
static Value eval_cond(Eval *e);

static bool eval_accept(Eval *e, int punct)
{
    if (!is_punct(e->tok, punct))
        return false;
    e->tok = e->tok->next;
    return true;
}

static void eval_expect(Eval *e, int punct, const Token *opener)
{
    if (eval_accept(e, punct))
        return;
    if (e->tok->kind == TK_EOF)
        eval_error(e, opener, "missing '%c' in expression", punct);
    else
        eval_error(e, e->tok, "expected '%c' in expression, found '%.*s'", punct,
                   (int)e->tok->len, e->tok->text);
}

static bool enter_nesting(Eval *e, const Token *t)
{
    if (e->depth >= MAX_IF_NESTING) {
        eval_error(e, t, "expression in #if too deeply nested (more than %d levels)", MAX_IF_NESTING);
        return false;
    }
    e->depth++;
    return true;
}

static Value eval_primary(Eval *e)
{
    Token *t = e->tok;
    if (e->failed)
        return signed_value(0);
    if (t->kind == TK_EOF) {
        eval_error(e, t, "expected value in expression");
        return signed_value(0);
    }
    e->tok = t->next;
    if (is_punct(t, '(')) {
        if (!enter_nesting(e, t))
            return signed_value(0);
        Value v = eval_expr(e);
        e->depth--;
        eval_expect(e, ')', t);
        return v;
    }
    if (t->kind == TK_PPNUMBER) {
        Value v = signed_value(0);
        number_value(e, t, &v);
        return v;
    }
    if (t->kind == TK_CHAR)
        return char_value(t);
    if (t->kind == TK_IDENT) {
        if (same_text(t, "defined", 7)) { /* only from a macro expansion */
            bool paren = eval_accept(e, '(');
            Token *name = e->tok;
            if (name->kind != TK_IDENT) {
                eval_error(e, t, "operator 'defined' requires an identifier");
                return signed_value(0);
            }
            e->tok = name->next;
            if (paren)
                eval_expect(e, ')', t);
            return signed_value(find_macro(e->pp, name) != NULL);
        }
        return signed_value(0); /* C17 6.10.1p4: remaining identifiers are 0 */
    }
    if (t->kind == TK_STRING)
        eval_error(e, t, "string literal in preprocessor expression");
    else
        eval_error(e, t, "token '%.*s' is not valid in preprocessor expressions", (int)t->len, t->text);
    return signed_value(0);
}

static bool is_unary_operator(const Token *t)
{
    return is_punct(t, '+') || is_punct(t, '-') || is_punct(t, '~') || is_punct(t, '!');
}

static Value apply_unary(int op, Value v)
{
    switch (op) {
    case '-': return (Value){0 - v.bits, v.is_unsigned};
    case '~': return (Value){~v.bits, v.is_unsigned};
    case '!': return signed_value(!is_true(v));
    default: return v;
    }
}

/* A run of prefix operators (`- - - ... 1` can be 200k long) is read in a
 * loop and applied innermost first, walking the tokens back. */
static Value eval_unary(Eval *e)
{
    Token *first = e->tok;
    int count = 0;
    while (is_unary_operator(e->tok)) {
        e->tok = e->tok->next;
        count++;
    }
    Value v = eval_primary(e);
    if (count == 0)
        return v;
    Token **ops = mem_alloc(sizeof *ops * (size_t)count);
    for (int i = 0; i < count; i++, first = first->next)
        ops[i] = first;
    for (int i = count - 1; i >= 0; i--)
        v = apply_unary(ops[i]->punct, v);
    free(ops);
    return v;
}

/* Binary operators by precedence (higher binds tighter). */
static int binary_precedence(const Token *t)
{
    if (t->kind != TK_PUNCT)
        return 0;
    switch (t->punct) {
    case P_LOGOR: return 1;
    case P_LOGAND: return 2;
    case '|': return 3;
    case '^': return 4;
    case '&': return 5;
    case P_EQ: case P_NE: return 6;
    case '<': case '>': case P_LE: case P_GE: return 7;
    case P_SHL: case P_SHR: return 8;
    case '+': case '-': return 9;
    case '*': case '/': case '%': return 10;
    default: return 0;
    }
}

static Value shift(Value l, Value r, bool left)
{
    intmax_t count = r.is_unsigned && r.bits > 64 ? 64 : as_signed(r);
    if (count < 0)
        count = -count, left = !left;
    if (count >= 64)
        return (Value){left || l.is_unsigned || as_signed(l) >= 0 ? 0 : UINTMAX_MAX, l.is_unsigned};
    if (left)
        return (Value){l.bits << count, l.is_unsigned};
    if (l.is_unsigned)
        return (Value){l.bits >> count, true};
    intmax_t v = as_signed(l);
    return signed_value(v < 0 ? ~(~v >> count) : v >> count);
}

static Value apply_binary(Eval *e, const Token *op, Value l, Value r)
{
    bool u = l.is_unsigned || r.is_unsigned;
    uintmax_t a = l.bits, b = r.bits;
    intmax_t sa = as_signed(l), sb = as_signed(r);
    switch (op->punct) {
    case '*': return (Value){a * b, u};
    case '+': return (Value){a + b, u};
    case '-': return (Value){a - b, u};
    case '/':
    case '%':
        if (b == 0) {
            if (e->live)
                eval_error(e, op, "division by zero in #if");
            return (Value){0, u};
        }
        if (u)
            return (Value){op->punct == '/' ? a / b : a % b, true};
        if (sa == INTMAX_MIN && sb == -1)
            return (Value){op->punct == '/' ? a : 0, false};
        return signed_value(op->punct == '/' ? sa / sb : sa % sb);
    case P_SHL: return shift(l, r, true);
    case P_SHR: return shift(l, r, false);
    case '<': return signed_value(u ? a < b : sa < sb);
    case '>': return signed_value(u ? a > b : sa > sb);
    case P_LE: return signed_value(u ? a <= b : sa <= sb);
    case P_GE: return signed_value(u ? a >= b : sa >= sb);
    case P_EQ: return signed_value(a == b);
    case P_NE: return signed_value(a != b);
    case '&': return (Value){a & b, u};
    case '^': return (Value){a ^ b, u};
    case '|': return (Value){a | b, u};
    default: return signed_value(0);
    }
}

/* Precedence climbing over the binary operators, with && and ||
 * short-circuiting evaluation errors (not parsing) of their right side. */
static Value eval_binary(Eval *e, int min_precedence)
{
    Value l = eval_unary(e);
    for (;;) {
        Token *op = e->tok;
        int prec = binary_precedence(op);
        if (prec == 0 || prec < min_precedence || e->failed)
            return l;
        e->tok = op->next;
        bool saved_live = e->live;
        if (op->punct == P_LOGAND && !is_true(l))
            e->live = false;
        if (op->punct == P_LOGOR && is_true(l))
            e->live = false;
        Value r = eval_binary(e, prec + 1);
        e->live = saved_live;
        if (op->punct == P_LOGAND)
            l = signed_value(is_true(l) && is_true(r));
        else if (op->punct == P_LOGOR)
            l = signed_value(is_true(l) || is_true(r));
        else
            l = apply_binary(e, op, l, r);
    }
}

static Value eval_cond(Eval *e)
{
    Value c = eval_binary(e, 1);
    Token *question = e->tok;
    if (!eval_accept(e, '?'))
        return c;
    if (!enter_nesting(e, question))
        return c;
    bool saved_live = e->live;
    e->live = saved_live && is_true(c);
    Value a = eval_expr(e);
    eval_expect(e, ':', question);
    e->live = saved_live && !is_true(c);
    Value b = eval_cond(e);
    e->live = saved_live;
    e->depth--;
    Value r = is_true(c) ? a : b;
    r.is_unsigned = a.is_unsigned || b.is_unsigned;
    return r;
}

static Value eval_expr(Eval *e)
{
    Value v = eval_cond(e);
    while (!e->failed && eval_accept(e, ','))
        v = eval_cond(e);
    return v;
}

static Token *number_token(Preprocessor *pp, bool value, SrcLoc loc)
{
    return new_token(pp, TK_PPNUMBER, value ? "1" : "0", loc);
}

/* __has_include("name") or (<name>); `t` is after the operator, *rest is
 * set after the ')'; *ok is false after an error. */
static bool has_include(Preprocessor *pp, Token **rest, Token *t, bool *ok)
{
    Token *op = *rest;
    *ok = false;
    if (!is_punct(t, '(')) {
        diag_error(pp->diag, op->loc, "missing '(' after __has_include");
        return false;
    }
    t = t->next;
    bool quoted = true;
    char *name = NULL;
    if (t->kind == TK_STRING && t->text[0] == '"') {
        name = arena_strndup(pp->arena, t->text + 1, t->len - 2);
        t = t->next;
    } else if (is_punct(t, '<')) {
        Buf b = {0};
        for (t = t->next; t->kind != TK_EOF && !is_punct(t, '>'); t = t->next) {
            if (b.len && t->has_space)
                buf_add(&b, " ", 1);
            buf_add(&b, t->text, t->len);
        }
        name = buf_finish(pp, &b);
        quoted = false;
        if (t->kind != TK_EOF)
            t = t->next;
    }
    if (!name || !is_punct(t, ')')) {
        diag_error(pp->diag, op->loc, "__has_include expects \"FILENAME\" or <FILENAME> in parentheses");
        return false;
    }
    *ok = true;
    *rest = t->next;
    char *path = search_include(pp, name, quoted, current_frame(pp)->file, &pp->options);
    bool found = path != NULL;
    free(path);
    return found;
}

/* `defined X`, `defined(X)` and __has_include(...) are resolved before
 * macro expansion, so that their operands are not expanded. */
static Token *resolve_defined(Preprocessor *pp, Token *line)
{
    Token head = {0}, *cur = &head, *t = line;
    while (t->kind != TK_EOF) {
        if (t->kind == TK_IDENT && same_text(t, "defined", 7)) {
            Token *name = t->next;
            bool paren = is_punct(name, '(');
            if (paren)
                name = name->next;
            if (name->kind != TK_IDENT) {
                diag_error(pp->diag, t->loc, "operator 'defined' requires an identifier");
                return NULL;
            }
            Token *after = name->next;
            if (paren && !is_punct(after, ')')) {
                diag_error(pp->diag, t->loc, "missing ')' after 'defined'");
                return NULL;
            }
            bool value = find_macro(pp, name) != NULL || same_text(name, "__has_include", 13);
            cur = cur->next = number_token(pp, value, t->loc);
            t = paren ? after->next : after;
            continue;
        }
        if (t->kind == TK_IDENT && same_text(t, "__has_include", 13)) {
            SrcLoc loc = t->loc;
            bool ok, value = has_include(pp, &t, t->next, &ok);
            if (!ok)
                return NULL;
            cur = cur->next = number_token(pp, value, loc);
            continue;
        }
        cur = cur->next = t;
        t = t->next;
    }
    cur->next = t;
    return head.next;
}

static bool eval_if_line(Preprocessor *pp, Token *directive)
{
    Token *line = copy_line(pp);
    if (line->kind == TK_EOF) {
        diag_error(pp->diag, directive->loc, "#%.*s with no expression", (int)directive->len,
                   directive->text);
        return false;
    }
    line = resolve_defined(pp, line);
    if (!line)
        return false;
    pp->in_if = true;
    line = expand_list(pp, line);
    pp->in_if = false;
    Eval e = {.pp = pp, .tok = line, .live = true};
    Value v = eval_expr(&e);
    if (!e.failed && e.tok->kind == TK_PUNCT && !is_punct(e.tok, '(') && !is_punct(e.tok, ')'))
        eval_error(&e, e.tok, "token '%.*s' is not valid in preprocessor expressions",
                   (int)e.tok->len, e.tok->text);
    else if (!e.failed && e.tok->kind != TK_EOF)
        eval_error(&e, e.tok, "missing binary operator before token '%.*s'", (int)e.tok->len,
                   e.tok->text);
    return !e.failed && is_true(v);
}

/* ---- conditional groups ------------------------------------------------- */

static Directive directive_kind(const Token *t)
{
    if (t->kind != TK_IDENT)
        return DIR_UNKNOWN;
    for (int i = 0; i < DIR_UNKNOWN; i++)
        if (same_text(t, directive_names[i], (unsigned)strlen(directive_names[i])))
            return (Directive)i;
    return DIR_UNKNOWN;
}

/* Skips a group whose condition is false, up to the #elif/#else/#endif
 * that ends it (left in pp->tok) or the end of the file. */
static void skip_group(Preprocessor *pp)
{
    int depth = 0;
    Token *t = pp->tok;
    for (; t->kind != TK_EOF; t = t->next) {
        if (!t->at_bol || !is_punct(t, '#') || at_eol(t->next))
            continue;
        Directive d = directive_kind(t->next);
        if (d == DIR_if || d == DIR_ifdef || d == DIR_ifndef) {
            depth++;
        } else if (d == DIR_endif) {
            if (depth-- == 0)
                break;
        } else if ((d == DIR_elif || d == DIR_elifdef || d == DIR_elifndef || d == DIR_else) && depth == 0) {
            break;
        }
    }
    pp->tok = t;
}

static void push_cond(Preprocessor *pp, Token *directive, bool value, Name *guard)
{
    GROW(pp->conds, pp->cond_count, pp->cond_capacity);
    pp->conds[pp->cond_count++] = (Cond){.directive = directive, .ctx = IN_THEN,
                                         .included = value, .guard = guard};
    if (!value)
        skip_group(pp);
}

static bool ifdef_value(Preprocessor *pp, Token *directive, Token **name_out)
{
    Token *name = read_macro_name(pp, directive);
    *name_out = name;
    if (!name)
        return false;
    skip_line(pp, directive);
    return find_macro(pp, name) != NULL || same_text(name, "__has_include", 13);
}

/* The innermost #if of the current file, or NULL (with an error). */
static Cond *current_cond(Preprocessor *pp, Token *directive)
{
    if (pp->cond_count <= current_frame(pp)->cond_base) {
        diag_error(pp->diag, directive->loc, "#%.*s without #if", (int)directive->len, directive->text);
        skip_line(pp, NULL);
        return NULL;
    }
    Cond *c = &pp->conds[pp->cond_count - 1];
    if (c->ctx == IN_ELSE) {
        diag_error(pp->diag, directive->loc, "#%.*s after #else", (int)directive->len, directive->text);
        skip_line(pp, NULL);
        return NULL;
    }
    return c;
}

static void do_elif(Preprocessor *pp, Token *directive, Directive kind)
{
    Cond *c = current_cond(pp, directive);
    if (!c)
        return;
    c->ctx = IN_ELIF;
    if (c->included) {
        skip_line(pp, NULL);
        skip_group(pp);
        return;
    }
    bool value;
    if (kind == DIR_elif) {
        value = eval_if_line(pp, directive);
    } else {
        Token *name;
        value = ifdef_value(pp, directive, &name) == (kind == DIR_elifdef);
        value = value && name;
    }
    c = &pp->conds[pp->cond_count - 1];
    c->included = value;
    if (!value)
        skip_group(pp);
}

static void do_else(Preprocessor *pp, Token *directive)
{
    Cond *c = current_cond(pp, directive);
    if (!c)
        return;
    skip_line(pp, directive);
    c->ctx = IN_ELSE;
    if (c->included)
        skip_group(pp);
    c->included = true;
}

static void do_endif(Preprocessor *pp, Token *directive)
{
    Frame *f = current_frame(pp);
    if (pp->cond_count <= f->cond_base) {
        diag_error(pp->diag, directive->loc, "#endif without #if");
        skip_line(pp, NULL);
        return;
    }
    skip_line(pp, directive);
    Cond *c = &pp->conds[--pp->cond_count];
    /* An include guard: the file's first #ifndef closes at its very end. */
    if (c->guard && c->ctx == IN_THEN && pp->tok->kind == TK_EOF && f->entry >= 0)
        pp->entries[f->entry].guard = c->guard;
}

/* ---- other directives --------------------------------------------------- */

static void do_line(Preprocessor *pp, Token *hash, Token *directive)
{
    Token *line = expand_list(pp, copy_line(pp));
    Token *num = line;
    bool digits = num->kind == TK_PPNUMBER;
    for (unsigned i = 0; digits && i < num->len; i++)
        digits = num->text[i] >= '0' && num->text[i] <= '9';
    if (!digits) {
        diag_error(pp->diag, num->kind == TK_EOF ? directive->loc : num->loc,
                   "#line directive requires a simple digit sequence");
        return;
    }
    /* C17 6.10.4p3: at most 2147483647, which keeps every presumed line
     * (and __LINE__) inside an unsigned int. */
    errno = 0;
    unsigned long value = strtoul(num->text, NULL, 10);
    if (errno == ERANGE || value > 2147483647ul) {
        diag_error(pp->diag, num->loc, "line number out of range (at most 2147483647)");
        return;
    }
    Frame *f = current_frame(pp);
    unsigned line_no, col;
    srcmgr_line_col(pp->sources, hash->loc, &line_no, &col);
    f->line_delta = (long)value - (long)(line_no + 1);
    Token *name = num->next;
    if (name->kind == TK_STRING && name->text[0] == '"') {
        f->line_name = arena_strndup(pp->arena, name->text + 1, name->len - 2);
        name = name->next;
    }
    if (name->kind != TK_EOF)
        diag_error(pp->diag, name->loc, "invalid filename in #line directive");
}

static void mark_once(Preprocessor *pp, uint32_t file)
{
    for (int i = 0; i < pp->entry_count; i++)
        if (pp->entries[i].file == file)
            pp->entries[i].once = true;
}

/* #pragma: `once` is handled here; any other becomes one TK_OTHER token. */
static Token *do_pragma(Preprocessor *pp, Token *hash)
{
    Token *first = pp->tok;
    if (!at_eol(first) && same_text(first, "once", 4)) {
        pp->tok = first->next;
        skip_line(pp, NULL);
        mark_once(pp, hash->loc.file);
        return NULL;
    }
    Buf b = {0};
    buf_add(&b, "#pragma", 7);
    buf_add_tokens(&b, first, true);
    skip_line(pp, NULL);
    Token *t = new_token(pp, TK_OTHER, buf_finish(pp, &b), hash->loc);
    t->at_bol = true;
    return t;
}

static void do_message(Preprocessor *pp, Token *directive, DiagLevel level)
{
    Buf b = {0};
    buf_add(&b, "#", 1);
    buf_add(&b, directive->text, directive->len);
    buf_add_tokens(&b, pp->tok, true);
    skip_line(pp, NULL);
    if (level == DIAG_ERROR)
        diag_error(pp->diag, directive->loc, "%s", b.data);
    else
        diag_warning(pp->diag, WARN_CPP, directive->loc, "%s", b.data);
    free(b.data);
}

/* Handles the directive whose '#' is `hash`; returns a token to hand out
 * (a #pragma) or NULL. */
static Token *directive(Preprocessor *pp, Token *hash)
{
    Token *name = pp->tok;
    if (at_eol(name))
        return NULL; /* null directive */
    pp->tok = name->next;
    Directive kind = directive_kind(name);
    if (name->kind == TK_PPNUMBER) { /* GNU line marker: # 12 "file" */
        pp->tok = name;
        do_line(pp, hash, name);
        return NULL;
    }
    switch (kind) {
    case DIR_include: include_file(pp, hash, name); break;
    case DIR_define: read_define(pp, name); break;
    case DIR_undef: read_undef(pp, name); break;
    case DIR_if: push_cond(pp, name, eval_if_line(pp, name), NULL); break;
    case DIR_ifdef:
    case DIR_ifndef: {
        Frame *f = current_frame(pp);
        Token *macro;
        bool value = ifdef_value(pp, name, &macro) == (kind == DIR_ifdef);
        bool first = hash == f->first && kind == DIR_ifndef && macro;
        push_cond(pp, name, value && macro, first ? intern_name(pp, macro->text, macro->len) : NULL);
        break;
    }
    case DIR_elif:
    case DIR_elifdef:
    case DIR_elifndef: do_elif(pp, name, kind); break;
    case DIR_else: do_else(pp, name); break;
    case DIR_endif: do_endif(pp, name); break;
    case DIR_line: do_line(pp, hash, name); break;
    case DIR_error: do_message(pp, name, DIAG_ERROR); break;
    case DIR_warning: do_message(pp, name, DIAG_WARNING); break;
    case DIR_pragma: return do_pragma(pp, hash);
    case DIR_UNKNOWN:
        diag_error(pp->diag, name->loc, "invalid preprocessing directive #%.*s", (int)name->len,
                   name->text);
        skip_line(pp, NULL);
        break;
    }
    return NULL;
}

/* _Pragma("text") (C17 6.10.9): the string, unescaped, as a #pragma. */
static Token *pragma_operator(Preprocessor *pp, Token *op)
{
    /* Checked one by one: at the end of the input a token has no next. */
    Token *lparen = pp->tok;
    Token *str = is_punct(lparen, '(') ? lparen->next : NULL;
    Token *rparen = str && str->kind == TK_STRING ? str->next : NULL;
    if (!rparen || !is_punct(rparen, ')')) {
        diag_error(pp->diag, op->loc, "_Pragma takes a parenthesized string literal");
        return NULL;
    }
    pp->tok = rparen->next;
    const char *p = memchr(str->text, '"', str->len);
    const char *end = str->text + str->len - 1;
    Buf b = {0};
    buf_add(&b, "#pragma ", 8);
    for (p++; p < end; p++) {
        if (*p == '\\' && p + 1 < end && (p[1] == '"' || p[1] == '\\'))
            p++;
        buf_add(&b, p, 1);
    }
    size_t len = b.len;
    char *text = buf_finish(pp, &b);
    int errors;
    lex_quietly(pp, op->loc.file, text + 8, len - 8, &errors);
    if (memchr(text, '\0', len) || errors) {
        diag_error(pp->diag, op->loc, "the string of _Pragma does not scan as preprocessing tokens");
        return NULL;
    }
    if (strcmp(text, "#pragma once") == 0) {
        mark_once(pp, op->loc.file);
        return NULL;
    }
    Token *t = new_token(pp, TK_OTHER, text, op->loc);
    t->at_bol = true;
    return t;
}

/* ---- the interface ------------------------------------------------------ */

Token *pp_next(Preprocessor *pp)
{
    for (;;) {
        if (!pp->stop && pp->diag->stopped) /* a fatal error or -fmax-errors */
            pp->stop = new_eof(pp, pp->tok->loc);
        if (pp->stop)
            return pp->stop;
        Token *tok = pp->tok;
        if (tok->kind == TK_EOF) {
            if (pop_frame(pp))
                continue;
            return tok;
        }
        pp->tok = tok->next;
        if (tok->at_bol && is_punct(tok, '#')) {
            Token *pragma = directive(pp, tok);
            if (pragma)
                return pragma;
            continue;
        }
        if (tok->kind == TK_IDENT) {
            if (expand_macro(pp, tok))
                continue;
            if (same_text(tok, "_Pragma", 7)) {
                Token *pragma = pragma_operator(pp, tok);
                if (pragma)
                    return pragma;
                continue;
            }
        }
        return tok;
    }
}

void pp_set_file_hook(Preprocessor *pp, PPFileHook hook, void *ctx)
{
    pp->file_hook = hook;
    pp->file_hook_ctx = ctx;
}

void pp_presumed_location(Preprocessor *pp, SrcLoc loc, unsigned *line, const char **name)
{
    *line = logical_line(pp, loc);
    *name = logical_file(pp, loc);
}

const char **pp_dependencies(Preprocessor *pp, int *count)
{
    *count = pp->dep_count;
    return pp->deps;
}

const char *const *pp_absent_includes(Preprocessor *pp, int *count)
{
    *count = pp->absent.count;
    return (const char *const *)pp->absent.paths;
}

static const char builtin_text[] =
    "#define __SGC__ 1\n"
    "#define __SGC_VERSION__ \"0.1.0\"\n"
    "#define __STDC__ 1\n"
    "#define __STDC_VERSION__ 201710L\n"
    "#define NULL ((void*)0)\n"
    "#define CLK_LOCAL_MEM_FENCE 1\n"
    "#define CLK_GLOBAL_MEM_FENCE 2\n";

/* -D/-U in command-line order as #define/#undef lines. */
static char *command_line_text(const PPOptions *opt)
{
    Buf b = {0};
    if (!opt || opt->define_count == 0)
        return NULL;
    for (int i = 0; i < opt->define_count; i++) {
        const char *def = opt->defines[i];
        if (opt->define_is_undef && opt->define_is_undef[i]) {
            buf_add(&b, "#undef ", 7);
            buf_add(&b, def, strlen(def));
        } else {
            const char *eq = strchr(def, '=');
            buf_add(&b, "#define ", 8);
            buf_add(&b, def, eq ? (size_t)(eq - def) : strlen(def));
            buf_add(&b, " ", 1);
            buf_add(&b, eq ? eq + 1 : "1", strlen(eq ? eq + 1 : "1"));
        }
        buf_add(&b, "\n", 1);
    }
    return b.data;
}

/* A synthetic source read before the main file, on top of the frame stack. */
static void push_synthetic(Preprocessor *pp, const char *name, const char *text)
{
    uint32_t id = srcmgr_add(pp->sources, name, text, strlen(text));
    const SourceFile *f = srcmgr_file(pp->sources, id);
    push_frame(pp, id, -1, lex_file(pp->arena, pp->diag, id, f->text, f->size), 1);
}

Preprocessor *pp_new(Arena *arena, Diag *diag, uint32_t main_file, const PPOptions *options)
{
    Preprocessor *pp = mem_zalloc(1, sizeof *pp);
    if (options)
        pp->options = *options;
    pp->arena = arena;
    pp->diag = diag;
    pp->sources = diag->sources;
    pp->bucket_count = 1024;
    pp->buckets = mem_zalloc(pp->bucket_count, sizeof *pp->buckets);
    define_handler(pp, "__FILE__", macro_file);
    define_handler(pp, "__LINE__", macro_line);
    define_handler(pp, "__COUNTER__", macro_counter);

    const SourceFile *f = srcmgr_file(pp->sources, main_file);
    Token *tokens = lex_file(arena, diag, main_file, f->text, f->size);
    int entry = add_entry(pp, realpath(f->name, NULL), main_file, tokens);
    push_frame(pp, main_file, entry, tokens, 1);

    char *command_line = command_line_text(options);
    if (command_line) {
        push_synthetic(pp, "<command line>", command_line);
        free(command_line);
    }
    push_synthetic(pp, "<built-in>", builtin_text);
    return pp;
}

void pp_free(Preprocessor *pp)
{
    if (!pp)
        return;
    for (int i = 0; i < pp->entry_count; i++)
        free(pp->entries[i].real_path);
    free(pp->entries);
    free(pp->buckets);
    free(pp->frames);
    free(pp->conds);
    free(pp->deps);
    path_set_free(&pp->absent);
    free(pp);
}
