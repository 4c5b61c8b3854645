/* preprocess.h — the C preprocessor of SGC (docs/REFERENCE.md "Declarations, functions and statements": #include, object- and
 * function-like macros, #if, -I/-D/-U).
 *
 * Works on Token lists from lex_file().  Expanded tokens keep the location
 * a user recognises: tokens from a macro body carry the location of the
 * macro invocation; tokens from an included file carry their own file and
 * offset, so diagnostics always point into real source text. */
#ifndef SGCC_PREPROCESS_H
#define SGCC_PREPROCESS_H

#include <stdbool.h>

#include "lex/token.h"

typedef struct Preprocessor Preprocessor;

typedef struct PPOptions {
    const char **include_dirs;    /* -I, searched in order after the includer's dir */
    int include_dir_count;
    const char **defines;         /* -D NAME[=VALUE] and -U NAME, in command-line */
    bool *define_is_undef;        /* order; define_is_undef[i] marks a -U */
    int define_count;
} PPOptions;

/* Creates a preprocessor over the main file `main_file` (already loaded in
 * diag->sources).  Predefines __SGC__ (=1), __SGC_VERSION__, __FILE__,
 * __LINE__, __STDC__, __STDC_VERSION__ (201710L), __COUNTER__, NULL,
 * CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE. */
Preprocessor *pp_new(Arena *arena, Diag *diag, uint32_t main_file, const PPOptions *options);

/* The next fully expanded token; TK_EOF at the end (repeatedly).
 * `#pragma` lines are returned as one TK_OTHER token whose text starts with
 * "#pragma" (the parser turns them into ND_PRAGMA or ignores them). */
Token *pp_next(Preprocessor *pp);

/* Called as pp_next enters an #include'd file (entering: `file` is the
 * header) and as it goes back to the includer (`file` is the includer);
 * `include` is the '#' of the #include line either way.  Also for a file
 * that yields no token (a header of macros only), so that -E can mark it. */
typedef void (*PPFileHook)(void *ctx, bool entering, uint32_t file, SrcLoc include);
void pp_set_file_hook(Preprocessor *pp, PPFileHook hook, void *ctx);

/* Files read so far, main file first, each once, in the order opened: the
 * dependency list for -M/-MD. */
const char **pp_dependencies(Preprocessor *pp, int *count);

/* The paths the include search (#include and __has_include) looked at and
 * found no regular file at, each once, in the order looked at: a file
 * created at one of them later would change the translation, so a cache
 * of it depends on their absence as on the files above. */
const char *const *pp_absent_includes(Preprocessor *pp, int *count);

/* `sgcc -E` (pp_print.c): every remaining token of `pp` as text with GCC
 * linemarkers (# LINE "FILE" FLAG), starting with main_file's. */
struct EmitBuffer;
void pp_print(Preprocessor *pp, const SourceManager *sources, uint32_t main_file,
              struct EmitBuffer *out);

/* The line and file name `loc` has after the #line directives read so far
 * (the physical ones when there are none): what __LINE__ and __FILE__ say
 * there, and what `sgcc -E` prints in its linemarkers. */
void pp_presumed_location(Preprocessor *pp, SrcLoc loc, unsigned *line, const char **name);

void pp_free(Preprocessor *pp); /* frees non-arena state (the arena owns tokens) */

#endif
