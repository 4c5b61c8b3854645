/* ast.h — the data model of an SGC translation unit.
 *
 * The umbrella of three headers, one per layer:
 *   - syntax.h: the parser (compiler/parse/parse.y) builds *syntax*: Node
 *     trees for statements and expressions, and declarations as DeclSpecs +
 *     Declarator chains, with no types resolved;
 *   - types.h and symbols.h: sema resolves names to Symbols, builds Types
 *     from the syntax, inserts implicit conversions and annotates every
 *     expression with its Type;
 *   - the emitters (compiler/emit/) read the annotated tree.
 * Everything here is allocated in the translation unit's Arena (arena.h) and
 * is never freed individually.  Every node carries the SrcLoc of its first
 * token (for binary operators: of the operator). */
#ifndef SGCC_AST_H
#define SGCC_AST_H

#include "base/arena.h"
#include "ast/types.h"   /* Type, TypeKind, address spaces, group kinds */
#include "ast/syntax.h"  /* Node, NodeKind, declarations as written */
#include "ast/symbols.h" /* Symbol, TranslationUnit */

/* Construction helpers (ast.c). */
/* Allocates `size` bytes of a record of `full` bytes sized by its kind (a
 * node, a symbol).  Built with -DSGCC_NODE_POISON it allocates all `full`
 * and fills the tail with 0xA5, so that reading a field the kind does not
 * have crashes or changes the output (how the sizes were checked). */
void *ast_alloc_sized(Arena *arena, size_t size, size_t full);
/* Bytes a node of this kind is allocated with (its header and the payload
 * slots the kind uses; at most sizeof(Node)). */
size_t ast_node_size(NodeKind kind);
Node *ast_new(Arena *arena, NodeKind kind, SrcLoc loc);
Node *ast_binary(Arena *arena, OpKind op, Node *lhs, Node *rhs, SrcLoc loc);
Node *ast_unary(Arena *arena, NodeKind kind, OpKind op, Node *operand, SrcLoc loc);
Declarator *ast_declarator(Arena *arena, DeclaratorKind kind, SrcLoc loc);
/* Innermost DECL_NAME of a declarator chain (NULL for an abstract one). */
const Declarator *ast_declarator_name(const Declarator *d);
const char *ast_node_kind_name(NodeKind kind);

#endif
