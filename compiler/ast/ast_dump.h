/* ast_dump.h — S-expression dump of the syntax tree (unit tests, debugging). */
#ifndef SGCC_AST_DUMP_H
#define SGCC_AST_DUMP_H

#include "ast/ast.h"
#include "emit/emit.h"

void ast_dump(EmitBuffer *out, const Node *node);

#endif
