/* token.h — preprocessing tokens.
 *
 * The flex scanner (compiler/lex/scan.l) turns one file's text into a list of
 * Tokens; the preprocessor (preprocess.c) expands macros and directives over
 * those lists; the parser's yylex (parse_bridge.c) pulls expanded tokens,
 * turning identifiers into keywords and typedef names. */
#ifndef SGCC_TOKEN_H
#define SGCC_TOKEN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"

typedef enum TokenKind {
    TK_IDENT,    /* identifier or keyword (keywords are told apart after expansion) */
    TK_PUNCT,    /* punctuator; Token.punct holds the parser's token code */
    TK_PPNUMBER, /* preprocessing number: integer or floating literal */
    TK_CHAR,     /* character constant, text includes the quotes */
    TK_STRING,   /* string literal, text includes the quotes */
    TK_OTHER,    /* a stray character the grammar has no use for */
    TK_EOF,
} TokenKind;

/* Multi-character punctuators, written once: PUNCT(name, spelling).  A
 * single-character punctuator is represented by its character code; these
 * get codes from PUNCT_FIRST upwards.  Digraphs (<: :> <% %> %: %:%:) are
 * scanned as their ordinary equivalents. */
#define PUNCTUATORS(X)                                                       \
    X(ARROW, "->") X(INC, "++") X(DEC, "--") X(SHL, "<<") X(SHR, ">>")        \
    X(LE, "<=") X(GE, ">=") X(EQ, "==") X(NE, "!=") X(LOGAND, "&&")          \
    X(LOGOR, "||") X(MUL_ASSIGN, "*=") X(DIV_ASSIGN, "/=")                   \
    X(MOD_ASSIGN, "%=") X(ADD_ASSIGN, "+=") X(SUB_ASSIGN, "-=")              \
    X(SHL_ASSIGN, "<<=") X(SHR_ASSIGN, ">>=") X(AND_ASSIGN, "&=")            \
    X(XOR_ASSIGN, "^=") X(OR_ASSIGN, "|=") X(ELLIPSIS, "...")                \
    X(HASHHASH, "##")

enum {
    PUNCT_FIRST = 256,
#define X(name, spelling) P_##name,
    PUNCTUATORS(X)
#undef X
    PUNCT_END
};
_Static_assert(PUNCT_END < 1 << 15, "Token.punct is 16 bits");

typedef struct Hideset Hideset; /* macros that must not expand this token (preprocess.c) */

/* 32 bytes: a unit keeps every token of its files alive until the end of
 * parsing (issue 24).  The hideset of a token made by macro expansion lives
 * beside it, in preprocess.c's PPToken; tokens straight from a file have
 * none and no room for one. */
typedef struct Token {
    const char *text;      /* spelling, not NUL-terminated; points into the source or arena */
    struct Token *next;
    SrcLoc loc;            /* where the user sees it: macro expansions carry the
                              location of the macro invocation */
    unsigned len;          /* length of the spelling */
    TokenKind kind : 8;
    int punct : 16;        /* TK_PUNCT: the character ('(' ...) or a P_* code */
    bool at_bol : 1;       /* first token on its line (directives start here) */
    bool has_space : 1;    /* whitespace precedes it (for stringizing) */
    bool has_hideset : 1;  /* preprocess.c: this is a PPToken's, with a hideset */
} Token;

/* Scans src[0..size) of file `file` into a TK_EOF-terminated list allocated in
 * `arena`.  Lexical errors (unterminated comment or literal, stray character)
 * are reported to `diag`; the scanner still returns a usable list. */
Token *lex_file(Arena *arena, Diag *diag, uint32_t file, const char *src, size_t size);

static inline bool tok_is(const Token *t, const char *s)
{
    size_t n = 0;
    while (s[n]) n++;
    return t->len == n && __builtin_memcmp(t->text, s, n) == 0;
}

#endif
