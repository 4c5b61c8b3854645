/* parse_bridge.c — between the preprocessor and the bison parser.
 *
 * yylex() pulls expanded tokens from the preprocessor and gives the parser
 * its token codes: keywords (keywords.def), typedef names (looked up in the
 * parser's scopes), punctuators, literals and #pragma lines.  This file also
 * turns literal spellings into values and accumulates declaration
 * specifiers, reporting the purely syntactic misuses (`long long long`,
 * two storage classes) where they are written. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/parse_internal.h"
#include "base/hash.h"
#include "base/literal.h"
#include "base/mem.h"
#include "parse.tab.h"

/* ---- keywords ---------------------------------------------------------- */

static void keywords_init(ParseContext *ctx)
{
    static const struct { const char *spelling; int token; } list[] = {
#define KEYWORD(token, spelling) {spelling, KW_##token},
#include "lex/keywords.def"
#undef KEYWORD
    };
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) {
        unsigned len = (unsigned)strlen(list[i].spelling);
        unsigned slot = hash_bytes(list[i].spelling, len) % KEYWORD_BUCKETS;
        while (ctx->keywords[slot].spelling)
            slot = (slot + 1) % KEYWORD_BUCKETS;
        ctx->keywords[slot] = (KeywordEntry){list[i].spelling, len, list[i].token};
    }
}

int parse_keyword_token(const ParseContext *ctx, const char *text, size_t len)
{
    unsigned slot = hash_bytes(text, len) % KEYWORD_BUCKETS;
    while (ctx->keywords[slot].spelling) {
        const KeywordEntry *k = &ctx->keywords[slot];
        if (k->len == len && memcmp(k->spelling, text, len) == 0)
            return k->token;
        slot = (slot + 1) % KEYWORD_BUCKETS;
    }
    return 0;
}

static int keyword_token(const ParseContext *ctx, const Token *tok)
{
    return parse_keyword_token(ctx, tok->text, tok->len);
}

void parse_context_init(ParseContext *ctx, Arena *arena, Diag *diag, Preprocessor *pp)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->arena = arena;
    ctx->diag = diag;
    ctx->pp = pp;
    keywords_init(ctx);
}

void parse_context_free(ParseContext *ctx)
{
    free(ctx->interned);
    ctx->interned = NULL;
    ctx->intern_capacity = ctx->intern_count = 0;
}

/* ---- interned spellings ------------------------------------------------ */

static size_t intern_slot(const ParseContext *ctx, const char *text, size_t len, unsigned hash)
{
    size_t mask = ctx->intern_capacity - 1;
    size_t i = hash & mask;
    for (const char *s; (s = ctx->interned[i]); i = (i + 1) & mask)
        if (strncmp(s, text, len) == 0 && s[len] == '\0')
            break;
    return i;
}

const char *parse_intern(ParseContext *ctx, const char *text, size_t len)
{
    if ((ctx->intern_count + 1) * 2 > ctx->intern_capacity) {
        size_t capacity = ctx->intern_capacity ? ctx->intern_capacity * 2 : 1024;
        const char **old = ctx->interned;
        size_t old_capacity = ctx->intern_capacity;
        ctx->interned = mem_zalloc(capacity, sizeof *ctx->interned);
        ctx->intern_capacity = capacity;
        for (size_t i = 0; i < old_capacity; i++)
            if (old[i]) {
                size_t n = strlen(old[i]);
                ctx->interned[intern_slot(ctx, old[i], n, hash_bytes(old[i], n))] = old[i];
            }
        free(old);
    }
    size_t i = intern_slot(ctx, text, len, hash_bytes(text, len));
    if (!ctx->interned[i]) {
        ctx->interned[i] = arena_strndup(ctx->arena, text, len);
        ctx->intern_count++;
    }
    return ctx->interned[i];
}

/* ---- scopes ------------------------------------------------------------ */

void parse_scope_push(ParseContext *ctx)
{
    Scope *scope = ctx->free_scopes;
    if (scope)
        ctx->free_scopes = scope->outer;
    else
        scope = ARENA_NEW(ctx->arena, Scope);
    scope->names = NULL;
    scope->outer = ctx->scope;
    ctx->scope = scope;
}

void parse_scope_pop(ParseContext *ctx)
{
    Scope *scope = ctx->scope;
    if (!scope)
        return;
    /* Entries of the innermost scope sit before any outer entry in their
     * bucket, so each removal stops early. */
    ScopeName *next;
    for (ScopeName *n = scope->names; n; n = next) {
        ScopeName **link = &ctx->buckets[n->hash % NAME_BUCKETS];
        while (*link && *link != n)
            link = &(*link)->hash_next;
        if (*link)
            *link = n->hash_next;
        next = n->scope_next;
        n->scope_next = ctx->free_names;
        ctx->free_names = n;
    }
    ctx->scope = scope->outer;
    scope->outer = ctx->free_scopes;
    ctx->free_scopes = scope;
}

void parse_declare(ParseContext *ctx, const char *name, bool is_typedef)
{
    if (!ctx->scope || !name)
        return;
    ScopeName *n = ctx->free_names;
    if (n)
        ctx->free_names = n->scope_next;
    else
        n = ARENA_NEW(ctx->arena, ScopeName);
    n->name = name;
    n->hash = hash_bytes(name, strlen(name));
    n->is_typedef = is_typedef;
    n->scope_next = ctx->scope->names;
    ctx->scope->names = n;
    n->hash_next = ctx->buckets[n->hash % NAME_BUCKETS];
    ctx->buckets[n->hash % NAME_BUCKETS] = n;
}

static bool lookup_typedef(const ParseContext *ctx, const char *text, unsigned len)
{
    unsigned hash = hash_bytes(text, len);
    for (const ScopeName *n = ctx->buckets[hash % NAME_BUCKETS]; n; n = n->hash_next)
        if (n->hash == hash && strncmp(n->name, text, len) == 0 && n->name[len] == '\0')
            return n->is_typedef;
    return false;
}

bool parse_is_typedef_name(ParseContext *ctx, const char *name)
{
    return lookup_typedef(ctx, name, (unsigned)strlen(name));
}

void parse_declare_declarator(ParseContext *ctx, const DeclSpecs *specs, const Declarator *d)
{
    const Declarator *name = ast_declarator_name(d);
    if (name && name->name)
        parse_declare(ctx, name->name, specs && specs->storage == SC_TYPEDEF);
}

void parse_declare_params(ParseContext *ctx, const Declarator *d)
{
    /* The parameter list of a definition is the function derivation closest
     * to the name: `int (*f(int a))(float)` declares `a`, not the float. */
    const Declarator *func = NULL;
    for (; d && d->kind != DECL_NAME; d = d->inner)
        if (d->kind == DECL_FUNC)
            func = d;
    if (!func)
        return;
    for (const Node *p = func->params.head; p; p = p->next) {
        if (p->declarator)
            parse_declare_declarator(ctx, NULL, p->declarator);
        else if (p->name)
            parse_declare(ctx, p->name, false);
    }
}

Declarator *parse_declarator_wrap(Declarator *outer, Declarator *inner)
{
    Declarator *tail = outer;
    while (tail->inner)
        tail = tail->inner;
    tail->inner = inner;
    return outer;
}

/* ---- yylex ------------------------------------------------------------- */

static int punct_token(int punct)
{
    static const int multi[] = {
#define X(name, spelling) [P_##name - PUNCT_FIRST - 1] = PT_##name,
        PUNCTUATORS(X)
#undef X
    };
    if (punct > PUNCT_FIRST && punct < PUNCT_END)
        return multi[punct - PUNCT_FIRST - 1];
    if (punct > 0 && punct < 128 && strchr("()[]{}.&*+-~!/%<>^|?:;=,#", punct))
        return punct;
    return BAD_TOKEN;
}

/* After a type specifier (or '*', '.', '->', struct/union/enum) a name that
 * is also a typedef name must be the declared identifier, a member or a tag:
 * `typedef int T; void f(void) { float T; }` declares a float named T. */
static bool typedef_name_is_shadowed_here(int previous)
{
    switch (previous) {
    case KW_VOID: case KW_CHAR: case KW_SHORT: case KW_INT: case KW_LONG: case KW_FLOAT:
    case KW_DOUBLE: case KW_SIGNED: case KW_UNSIGNED: case KW_BOOL: case KW_BOOL2:
    case KW_UCHAR: case KW_USHORT: case KW_UINT: case KW_ULONG: case KW_SIZE_T:
    case KW_STRUCT: case KW_UNION: case KW_ENUM: case TYPEDEF_NAME:
    case KW_WORK_GROUP: case KW_SUB_GROUP: case KW_BALLOT_GROUP: case KW_TANGLE_GROUP:
    case KW_OPPORTUNISTIC_GROUP: case KW_ASYNC_BARRIER: case KW_ARRIVAL_TOKEN:
    case '*': case '.': case PT_ARROW: case KW_GOTO:
        return true;
    default:
        return false;
    }
}

static void track_brackets(ParseContext *ctx, const Token *tok)
{
    if (tok->kind != TK_PUNCT)
        return;
    int p = tok->punct;
    if (p == '(' || p == '[' || p == '{') {
        if (ctx->bracket_depth < MAX_OPEN_BRACKETS)
            ctx->brackets[ctx->bracket_depth] = (OpenBracket){p, tok->loc};
        ctx->bracket_depth++;
    } else if ((p == ')' || p == ']' || p == '}') && ctx->bracket_depth > 0) {
        ctx->bracket_depth--;
    }
}

static int classify(ParseContext *ctx, const Token *tok)
{
    switch (tok->kind) {
    case TK_EOF:
        return YYEOF;
    case TK_IDENT: {
        int kw = keyword_token(ctx, tok);
        if (kw)
            return kw;
        if (!typedef_name_is_shadowed_here(ctx->last_token) &&
            lookup_typedef(ctx, tok->text, tok->len))
            return TYPEDEF_NAME;
        return IDENTIFIER;
    }
    case TK_PUNCT:
        return punct_token(tok->punct);
    case TK_PPNUMBER:
        return PPNUMBER;
    case TK_CHAR:
        return CHAR_CONST;
    case TK_STRING:
        return STRING_LITERAL;
    case TK_OTHER:
        if (tok->len >= 7 && memcmp(tok->text, "#pragma", 7) == 0)
            return PRAGMA;
        return BAD_TOKEN;
    }
    return BAD_TOKEN;
}

/* Error recovery is discarding tokens up to a ';' or '}' it can resume at
 * (parse.y): a '{' among them must take its balanced block along, or the
 * block's '}' would end the enclosing function and the rest of the body
 * would be read as file-scope declarations, a cascade of nonsense. */
static void skip_discarded_block(ParseContext *ctx)
{
    const Token *last = ctx->last_tok;
    if (!ctx->recovering || !last || last->kind != TK_PUNCT || last->punct != '{')
        return;
    for (int depth = 1; depth > 0;) {
        Token *tok = pp_next(ctx->pp);
        if (tok->kind == TK_EOF)
            return; /* pp_next keeps answering EOF */
        track_brackets(ctx, tok);
        if (tok->kind == TK_PUNCT)
            depth += tok->punct == '{' ? 1 : tok->punct == '}' ? -1 : 0;
    }
}

void parse_drop_name(ParseContext *ctx, const char *text, size_t len, SrcLoc loc)
{
    Node *n = ast_new(ctx->arena, ND_IDENT, loc);
    n->name = parse_intern(ctx, text, len);
    nodelist_append(&ctx->dropped_names, n);
}

void parse_drop_declarator(ParseContext *ctx, const Declarator *d)
{
    const Declarator *name = d ? ast_declarator_name(d) : NULL;
    if (name && name->name)
        parse_drop_name(ctx, name->name, strlen(name->name), name->loc);
}

int yylex(YYSTYPE *lval, YYLTYPE *lloc, ParseContext *ctx)
{
    skip_discarded_block(ctx);
    Token *tok = pp_next(ctx->pp);
    int code = classify(ctx, tok);
    /* Stray characters were reported by the scanner; skipping them here
     * keeps one mistake from becoming a cascade of syntax errors. */
    while (code == BAD_TOKEN && tok->kind == TK_OTHER) {
        tok = pp_next(ctx->pp);
        code = classify(ctx, tok);
    }
    if (code == BAD_TOKEN)
        diag_error(ctx->diag, tok->loc, "unexpected '%.*s' in program",
                   (int)(tok->len > 20 ? 20 : tok->len), tok->text);
    track_brackets(ctx, tok);
    lval->tok = tok;
    *lloc = tok->loc;
    ctx->last_token = code;
    ctx->prev_tok = ctx->last_tok;
    ctx->last_tok = tok;
    return code;
}

/* ---- literals ---------------------------------------------------------- */

static bool parse_float_literal(ParseContext *ctx, Node *n, const char *text, size_t len)
{
    char buf[256];
    size_t body = len;
    /* strtod takes "0x1.8" but C17 §6.4.4.2 requires the binary exponent
     * (and without it a trailing 'f' would be read as a hex digit). */
    if (len > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X') &&
        !memchr(text, 'p', len) && !memchr(text, 'P', len)) {
        diag_error(ctx->diag, n->loc, "hexadecimal floating constant requires an exponent");
        return false;
    }
    if (body > 0 && (text[body - 1] == 'f' || text[body - 1] == 'F')) {
        n->is_float_suffix = true;
        body--;
    } else if (body > 0 && (text[body - 1] == 'l' || text[body - 1] == 'L')) {
        diag_error(ctx->diag, n->loc, "'long double' is not supported in device code");
        body--;
    }
    if (body >= sizeof buf) {
        diag_error(ctx->diag, n->loc, "floating constant is too long");
        return false;
    }
    memcpy(buf, text, body);
    buf[body] = '\0';
    char *end;
    errno = 0;
    n->float_value = strtod(buf, &end);
    if (*end != '\0') {
        diag_error(ctx->diag, n->loc, "invalid suffix '%s' on floating constant", end);
        return false;
    }
    return true;
}

/* Integer suffix: any order of one u/U and one of l/L/ll/LL (C17 §6.4.4.1). */
static bool parse_int_suffix(const char *s, size_t len, unsigned *suffix)
{
    *suffix = 0;
    size_t i = 0;
    while (i < len) {
        if ((s[i] == 'u' || s[i] == 'U') && !(*suffix & 1)) {
            *suffix |= 1;
            i++;
        } else if ((s[i] == 'l' || s[i] == 'L') && !(*suffix & 6)) {
            if (i + 1 < len && s[i + 1] == s[i]) {
                *suffix |= 4;
                i += 2;
            } else {
                *suffix |= 2;
                i++;
            }
        } else {
            return false;
        }
    }
    return true;
}

static bool parse_int_literal(ParseContext *ctx, Node *n, const char *text, size_t len)
{
    size_t i = 0;
    unsigned base = 10;
    if (len > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        i = 2;
    } else if (len > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
        base = 2;
        i = 2;
    } else if (len > 1 && text[0] == '0') {
        base = 8;
        i = 1;
    }
    uint64_t value = 0;
    bool overflow = false;
    size_t digits_start = i;
    for (; i < len; i++) {
        int c = (unsigned char)text[i];
        unsigned digit;
        if (isdigit(c))
            digit = (unsigned)(c - '0');
        else if (base == 16 && isxdigit(c))
            digit = (unsigned)(tolower(c) - 'a' + 10);
        else
            break;
        if (digit >= base) {
            diag_error(ctx->diag, n->loc, "invalid digit '%c' in %s constant", c,
                       base == 8 ? "octal" : "binary");
            return false;
        }
        if (value > (UINT64_MAX - digit) / base)
            overflow = true;
        value = value * base + digit;
    }
    if (i == digits_start && base != 8) {
        diag_error(ctx->diag, n->loc, "invalid integer constant '%.*s'", (int)len, text);
        return false;
    }
    unsigned suffix = 0;
    bool suffix_ok = parse_int_suffix(text + i, len - i, &suffix);
    n->int_suffix = suffix;
    if (!suffix_ok) {
        diag_error(ctx->diag, n->loc, "invalid suffix '%.*s' on integer constant",
                   (int)(len - i), text + i);
        return false;
    }
    if (overflow) {
        diag_error(ctx->diag, n->loc,
                   "integer literal is too large to be represented in any integer type");
        return false;
    }
    n->int_value = value;
    return true;
}

Node *parse_number(ParseContext *ctx, const Token *tok)
{
    const char *text = tok->text;
    size_t len = tok->len;
    bool hex = len > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    bool is_float = memchr(text, '.', len) != NULL ||
                    (hex ? (memchr(text, 'p', len) || memchr(text, 'P', len))
                         : (memchr(text, 'e', len) || memchr(text, 'E', len)));
    Node *n = ast_new(ctx->arena, is_float ? ND_FLOAT_LIT : ND_INT_LIT, tok->loc);
    n->text = parse_intern(ctx, text, len);
    if (is_float)
        parse_float_literal(ctx, n, text, len);
    else
        parse_int_literal(ctx, n, text, len);
    return n;
}

/* The text is kept NUL-terminated, so a raw NUL byte inside a literal
 * (found by fuzzing) would silently cut it: an error instead.  `what`
 * names the literal. */
static bool literal_has_nul(ParseContext *ctx, const Token *tok, const char *what)
{
    if (!memchr(tok->text, '\0', tok->len))
        return false;
    diag_error(ctx->diag, tok->loc, "null character in %s", what);
    return true;
}

Node *parse_char(ParseContext *ctx, const Token *tok)
{
    Node *n = ast_new(ctx->arena, ND_CHAR_LIT, tok->loc);
    if (literal_has_nul(ctx, tok, "character constant")) {
        n->text = "'\\0'"; /* the text would end at the NUL (issue 35, item 10) */
        return n;
    }
    n->text = arena_strndup(ctx->arena, tok->text, tok->len);
    const char *open = memchr(tok->text, '\'', tok->len);
    if (!open || tok->text + tok->len - 1 <= open) {
        diag_error(ctx->diag, tok->loc, "malformed character constant");
        return n;
    }
    LiteralConstant c;
    if (!literal_char_constant(tok->text, tok->len, &c)) {
        diag_error(ctx->diag, tok->loc, "empty character constant");
        return n;
    }
    if (c.problems & LITERAL_EMPTY_HEX)
        diag_error(ctx->diag, tok->loc, "\\x used with no following hex digits");
    if (c.problems & LITERAL_UNKNOWN_ESCAPE)
        diag_warning(ctx->diag, WARN_UNKNOWN_ESCAPE_SEQUENCE, tok->loc,
                     "unknown escape sequence '\\%c'", c.unknown_escape);
    if (c.count > 1)
        diag_warning(ctx->diag, WARN_MULTICHAR, tok->loc, "multi-character character constant");
    n->int_value = (uint64_t)c.value;
    return n;
}

static bool string_has_nul(ParseContext *ctx, const Token *tok)
{
    return literal_has_nul(ctx, tok, "string literal");
}

Node *parse_string(ParseContext *ctx, const Token *tok)
{
    Node *n = ast_new(ctx->arena, ND_STRING_LIT, tok->loc);
    n->text = string_has_nul(ctx, tok) ? "\"\"" : arena_strndup(ctx->arena, tok->text, tok->len);
    return n;
}

/* "ab" "cd" -> "abcd" (prefix of the first piece kept).  The text grows in
 * place in a buffer that doubles (ctx->string_text), so that a run of 100k
 * pieces costs linear time and memory, not a copy of the whole per piece. */
/* Adjacent literals are joined as source text, so an escape at the end of
 * one piece must not swallow the first character of the next: "\x63" "d"
 * is the bytes 'c' 'd', not '\x63d'.  A piece ends in an escape that may
 * go on when its last escape is a hex one, or an octal one of fewer than
 * three digits; each piece is a whole literal, so one scan of it says. */
typedef enum { TAIL_CLOSED, TAIL_HEX, TAIL_OCTAL } StringTail;

static StringTail string_tail(const char *text, size_t len)
{
    StringTail tail = TAIL_CLOSED;
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '\\' || i + 1 == len) {
            bool goes_on = (tail == TAIL_HEX && isxdigit((unsigned char)text[i])) ||
                           (tail == TAIL_OCTAL && text[i] >= '0' && text[i] <= '7');
            if (!goes_on)
                tail = TAIL_CLOSED;
            continue;
        }
        char e = text[++i];
        if (e == 'x') {
            tail = TAIL_HEX;
        } else if (e >= '0' && e <= '7') {
            size_t digits = 1;
            while (digits < 3 && i + 1 < len && text[i + 1] >= '0' && text[i + 1] <= '7')
                i++, digits++;
            tail = digits < 3 ? TAIL_OCTAL : TAIL_CLOSED;
        } else {
            tail = TAIL_CLOSED;
        }
    }
    return tail;
}

static bool continues_escape(StringTail tail, char c)
{
    return (tail == TAIL_HEX && isxdigit((unsigned char)c)) ||
           (tail == TAIL_OCTAL && c >= '0' && c <= '7');
}

/* The literal's text so far, in room for at least `need` more bytes. */
static void reserve_string(ParseContext *ctx, size_t keep, size_t need)
{
    if (keep + need + 1 <= ctx->string_room)
        return;
    ctx->string_room = 2 * (keep + need + 1);
    char *bigger = arena_alloc(ctx->arena, ctx->string_room);
    memcpy(bigger, ctx->string_text, keep);
    ctx->string_text = bigger;
}

void parse_append_string(ParseContext *ctx, Node *str, const Token *tok)
{
    const char *open = memchr(tok->text, '"', tok->len);
    if (!open || string_has_nul(ctx, tok))
        return;
    if (ctx->growing_string != str) {
        ctx->growing_string = str;
        ctx->string_text = (char *)str->text; /* arena memory of this literal's own */
        ctx->string_length = strlen(str->text);
        ctx->string_room = 0; /* the first piece appended moves it to a buffer */
        const char *first = strchr(str->text, '"');
        ctx->string_tail = first ? (int)string_tail(first + 1, ctx->string_length - 2 -
                                                    (size_t)(first - str->text))
                                 : TAIL_CLOSED;
    }
    size_t keep = ctx->string_length - 1; /* drop the closing quote */
    const char *piece = open + 1;
    size_t add = (size_t)(tok->text + tok->len - piece); /* with its closing quote */
    reserve_string(ctx, keep, add + 4);
    if (add > 1 && continues_escape((StringTail)ctx->string_tail, *piece)) {
        /* A three-digit octal escape ends by itself. */
        snprintf(ctx->string_text + keep, 5, "\\%03o", (unsigned char)*piece);
        keep += 4, piece++, add--;
    }
    memcpy(ctx->string_text + keep, piece, add);
    ctx->string_length = keep + add;
    ctx->string_text[ctx->string_length] = '\0';
    ctx->string_tail = (int)string_tail(piece, add - 1);
    str->text = ctx->string_text;
}

/* ---- declaration specifiers ------------------------------------------- */

static const char *const type_spec_names[TS_COUNT] = {
    [TS_VOID] = "void", [TS_BOOL] = "bool", [TS_CHAR] = "char", [TS_SHORT] = "short",
    [TS_INT] = "int", [TS_LONG] = "long", [TS_LONG2] = "long", [TS_SIGNED] = "signed",
    [TS_UNSIGNED] = "unsigned", [TS_FLOAT] = "float", [TS_DOUBLE] = "double",
    [TS_UCHAR] = "uchar", [TS_USHORT] = "ushort", [TS_UINT] = "uint", [TS_ULONG] = "ulong",
    [TS_SIZE_T] = "size_t", [TS_COMPLEX] = "_Complex", [TS_ATOMIC] = "_Atomic",
};

static const char *const storage_names[] = {
    [SC_NONE] = "", [SC_TYPEDEF] = "typedef", [SC_EXTERN] = "extern",
    [SC_STATIC] = "static", [SC_AUTO] = "auto", [SC_REGISTER] = "register",
};

static const char *const addr_space_names[] = {
    [AS_NONE] = "", [AS_PRIVATE] = "private", [AS_GLOBAL] = "global",
    [AS_LOCAL] = "local", [AS_CONSTANT] = "constant",
};

/* One DeclSpecs per specifier keyword, merged into the list's first: the
 * merged ones are reused (issue 24: two of three were garbage). */
DeclSpecs *parse_specs_new(ParseContext *ctx, SrcLoc loc)
{
    DeclSpecs *s = ctx->spare_count > 0 ? ctx->spare_specs[--ctx->spare_count]
                                        : ARENA_NEW(ctx->arena, DeclSpecs);
    s->loc = loc;
    return s;
}

void parse_specs_type_bit(ParseContext *ctx, DeclSpecs *s, TypeSpecBit bit, SrcLoc loc)
{
    unsigned mask = 1u << bit;
    if (bit == TS_LONG && (s->type_spec_bits & mask)) {
        if (s->type_spec_bits & (1u << TS_LONG2))
            diag_error(ctx->diag, loc, "'long long long' is too long");
        s->type_spec_bits |= 1u << TS_LONG2;
    } else if (s->type_spec_bits & mask) {
        diag_error(ctx->diag, loc, "duplicate '%s' declaration specifier", type_spec_names[bit]);
    }
    s->type_spec_bits |= mask;
    s->type_spec_count++;
}

void parse_specs_storage(ParseContext *ctx, DeclSpecs *s, StorageClass sc, SrcLoc loc)
{
    if (s->storage != SC_NONE) {
        if (s->storage == sc)
            diag_error(ctx->diag, loc, "duplicate '%s' declaration specifier", storage_names[sc]);
        else
            diag_error(ctx->diag, loc, "cannot combine '%s' with previous '%s' storage class",
                       storage_names[sc], storage_names[s->storage]);
        return;
    }
    s->storage = sc;
}

void parse_specs_addr_space(ParseContext *ctx, DeclSpecs *s, AddrSpace as, SrcLoc loc)
{
    if (s->addr_space != AS_NONE && s->addr_space != as) {
        diag_error(ctx->diag, loc, "multiple address spaces specified ('%s' and '%s')",
                   addr_space_names[s->addr_space], addr_space_names[as]);
        return;
    }
    s->addr_space = as;
}

static void merge_type_specifier(ParseContext *ctx, DeclSpecs *into, const DeclSpecs *from)
{
    bool into_has_named = into->typedef_name || into->record || into->is_group ||
                          into->is_async_barrier || into->is_arrival_token;
    bool from_has_named = from->typedef_name || from->record || from->is_group ||
                          from->is_async_barrier || from->is_arrival_token;
    if (from->type_spec_count > 0 && (into_has_named || (from_has_named && into->type_spec_count > 0))) {
        diag_error(ctx->diag, from->loc, "cannot combine with previous type specifier");
        return;
    }
    for (int bit = 0; bit < TS_COUNT; bit++)
        if (from->type_spec_bits & (1u << bit) && bit != TS_LONG2)
            parse_specs_type_bit(ctx, into, (TypeSpecBit)bit, from->loc);
    if (from_has_named) {
        into->typedef_name = from->typedef_name;
        into->record = from->record;
        into->is_group = from->is_group;
        into->group = from->group;
        into->group_size_expr = from->group_size_expr;
        into->is_async_barrier = from->is_async_barrier;
        into->is_arrival_token = from->is_arrival_token;
        into->type_spec_count += from->type_spec_count;
    }
}

void parse_specs_merge(ParseContext *ctx, DeclSpecs *into, DeclSpecs *from)
{
    if (from->storage != SC_NONE)
        parse_specs_storage(ctx, into, from->storage, from->loc);
    if (from->addr_space != AS_NONE)
        parse_specs_addr_space(ctx, into, from->addr_space, from->loc);
    merge_type_specifier(ctx, into, from);
    into->is_inline |= from->is_inline;
    into->is_noreturn |= from->is_noreturn;
    into->is_thread_local |= from->is_thread_local;
    into->is_const |= from->is_const;
    into->is_volatile |= from->is_volatile;
    into->is_restrict |= from->is_restrict;
    if (from->is_kernel) {
        if (into->is_kernel)
            diag_error(ctx->diag, from->loc, "duplicate 'kernel' specifier");
        into->is_kernel = true;
    }
    if (from->is_spec_const) {
        if (into->is_spec_const)
            diag_error(ctx->diag, from->loc, "duplicate 'spec_const' specifier");
        into->is_spec_const = true;
        into->spec_const_id = from->spec_const_id;
    }
    if (from->alignas_expr)
        into->alignas_expr = from->alignas_expr;
    if (from->attrs) {
        Attribute **tail = &into->attrs;
        while (*tail)
            tail = &(*tail)->next;
        *tail = from->attrs;
    }
    /* nothing keeps `from` (the grammar drops it): reuse it */
    if (ctx->spare_count < (int)(sizeof ctx->spare_specs / sizeof ctx->spare_specs[0])) {
        *from = (DeclSpecs){0};
        ctx->spare_specs[ctx->spare_count++] = from;
    }
}
