/* parse.h — entry point of the bison parser (compiler/parse/parse.y).
 * Builds the syntax tree of ast.h from the preprocessor's token stream;
 * syntax errors go to the Diag sink with the location of the offending token. */
#ifndef SGCC_PARSE_H
#define SGCC_PARSE_H

#include "ast/ast.h"
#include "pp/preprocess.h"

/* Returns the ND_TRANSLATION_UNIT (possibly partial after errors; check
 * diag_has_errors()). */
Node *parse_translation_unit(Arena *arena, Diag *diag, Preprocessor *pp);
/* Whether sema may check a tree parsed with errors: only syntax errors, each
 * recovered at a statement or declaration boundary (a missing ';', a broken
 * statement or initialiser), so that later mistakes are reported too without
 * a cascade.  True also for a tree without errors. */
bool parse_tree_checkable(const Node *root);

#endif
