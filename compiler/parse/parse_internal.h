/* parse_internal.h — state shared by the bison grammar (compiler/parse/parse.y) and
 * its token bridge (parse_bridge.c).  Not part of the front end's interface:
 * other layers include parse.h. */
#ifndef SGCC_PARSE_INTERNAL_H
#define SGCC_PARSE_INTERNAL_H

#include "ast/ast.h"
#include "pp/preprocess.h"

/* One name declared in a scope.  The parser only needs to know whether it
 * names a type (the classic typedef-name problem of C grammars).  Entries
 * live in a hash table (innermost declaration first in each chain) and in
 * their scope's list, so that leaving a scope removes them. */
typedef struct ScopeName {
    struct ScopeName *hash_next;   /* next entry in the same hash bucket */
    struct ScopeName *scope_next;  /* next entry declared in the same scope */
    const char *name;
    unsigned hash;
    bool is_typedef;
} ScopeName;

typedef struct Scope {
    struct Scope *outer;
    ScopeName *names;
} Scope;

enum { NAME_BUCKETS = 4096, KEYWORD_BUCKETS = 256 };

typedef struct KeywordEntry {
    const char *spelling;
    unsigned len;
    int token;                     /* bison token code */
} KeywordEntry;

/* An open bracket, for "expected ')' to close '(' at line N". */
typedef struct OpenBracket {
    int punct;
    SrcLoc loc;
} OpenBracket;

enum { MAX_OPEN_BRACKETS = 256 };

typedef struct ParseContext {
    Arena *arena;
    Diag *diag;
    Preprocessor *pp;
    Node *root;                    /* ND_TRANSLATION_UNIT being built */
    Scope *scope;                  /* innermost scope */
    Scope *free_scopes;            /* popped scopes, reused */
    ScopeName *free_names;         /* entries of popped scopes, reused (linked by
                                      scope_next): block-scope names do not pile
                                      up in the arena */
    ScopeName *buckets[NAME_BUCKETS];
    KeywordEntry keywords[KEYWORD_BUCKETS]; /* open-addressed keyword table */
    DeclSpecs *specs_stack[64];    /* declaration specifiers of the declarations
                                      being parsed, innermost last */
    int specs_depth;
    DeclSpecs *spare_specs[8];     /* specifiers merged into their list's first
                                      (parse_specs_merge), reused by parse_specs_new */
    int spare_count;
    int last_token;                /* bison code of the previous token */
    Token *last_tok;               /* the previous token itself */
    Token *prev_tok;               /* the token before last_tok */
    OpenBracket brackets[MAX_OPEN_BRACKETS];
    int bracket_depth;
    unsigned syntax_errors;        /* reported syntax errors */
    bool recovering;               /* after a syntax error, until a recovery rule
                                      matched: tokens yylex hands out are being
                                      discarded, so a '{' discarded takes its whole
                                      balanced block with it (parse_bridge.c) */
    bool lost_shape;               /* an error rule skipped to a '}' (parse.y) */
    NodeList dropped_names;        /* ND_IDENT: names whose declarations error
                                      recovery dropped (ND_TRANSLATION_UNIT.args) */
    SrcLoc last_error_loc;         /* avoid two messages at one token */
    Node *growing_string;          /* the literal parse_append_string builds: */
    char *string_text;             /* its text (arena), string_length of */
    size_t string_length, string_room; /* string_room bytes; doubles when full */
    int string_tail;               /* escape its text ends in (StringTail) */
    const char **interned;         /* open-addressed set of spellings (parse_intern) */
    size_t intern_capacity, intern_count; /* capacity: a power of two, or 0 */
} ParseContext;

void parse_context_init(ParseContext *ctx, Arena *arena, Diag *diag, Preprocessor *pp);
/* Frees what the context holds outside the arena. */
void parse_context_free(ParseContext *ctx);
/* The arena copy of text[0..len), one per distinct spelling: a unit names
 * the same few identifiers over and over, and the tree keeps them all. */
const char *parse_intern(ParseContext *ctx, const char *text, size_t len);
void parse_scope_push(ParseContext *ctx);
void parse_scope_pop(ParseContext *ctx);
void parse_declare(ParseContext *ctx, const char *name, bool is_typedef);
/* Error recovery dropped a declarator (or declarations): remember the names
 * so that sema does not report their uses as undeclared (a cascade). */
void parse_drop_declarator(ParseContext *ctx, const Declarator *d);
void parse_drop_name(ParseContext *ctx, const char *text, size_t len, SrcLoc loc);
bool parse_is_typedef_name(ParseContext *ctx, const char *name);
/* Declares every name of an init-declarator list according to `specs`. */
void parse_declare_declarator(ParseContext *ctx, const DeclSpecs *specs, const Declarator *d);
/* Declares the parameters of a function definition in the body's scope. */
void parse_declare_params(ParseContext *ctx, const Declarator *d);

/* Literal conversion (parse_bridge.c). */
Node *parse_number(ParseContext *ctx, const Token *tok);
Node *parse_char(ParseContext *ctx, const Token *tok);
Node *parse_string(ParseContext *ctx, const Token *tok);
void parse_append_string(ParseContext *ctx, Node *str, const Token *tok);

/* Specifier accumulation (parse_bridge.c), with duplicate/conflict checks. */
DeclSpecs *parse_specs_new(ParseContext *ctx, SrcLoc loc);
void parse_specs_type_bit(ParseContext *ctx, DeclSpecs *s, TypeSpecBit bit, SrcLoc loc);
void parse_specs_storage(ParseContext *ctx, DeclSpecs *s, StorageClass sc, SrcLoc loc);
void parse_specs_addr_space(ParseContext *ctx, DeclSpecs *s, AddrSpace as, SrcLoc loc);
/* Merges `from` into `into` and takes `from` for reuse: the caller drops it. */
void parse_specs_merge(ParseContext *ctx, DeclSpecs *into, DeclSpecs *from);

/* Attaches `inner` at the innermost end of the derivation chain `outer`. */
Declarator *parse_declarator_wrap(Declarator *outer, Declarator *inner);

/* The bison token of keyword `text` (keywords.def), 0 for an identifier. */
int parse_keyword_token(const ParseContext *ctx, const char *text, size_t len);

#endif
