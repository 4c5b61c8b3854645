/* sema.h — semantic analysis: names, types, implicit conversions, constant
 * folding, and the static rules of docs/REFERENCE.md "What is checked before any output" (address spaces, recursion,
 * group rules, spec-constant IDs, split-barrier placement). */
#ifndef SGCC_SEMA_H
#define SGCC_SEMA_H

#include "ast/ast.h"

typedef struct SemaOptions {
    int max_sub_group_size;   /* largest sub-group size any target supports (64) */
    int narrowest_sub_group_size; /* the smallest largest-sub-group of the targets
                                 asked for (CUDA: 32), 0 when none is narrower:
                                 the limit of fixed_size_group<N> where no
                                 function can be left out of one target */
} SemaOptions;

/* The deepest expression sema accepts (docs/REFERENCE.md "Limits"): every
 * later walk (flow analysis, the emitters) recurses over the tree, so this
 * bounds their stack; libsgcc gives them a stack sized for it.  A chain like
 * `a + a + ... + a` is one level per operator: 100k-term sums of generated
 * code pass. */
enum { SEMA_MAX_EXPR_NESTING = 1 << 17 };

/* Annotates the tree in place and fills `tu`.  Reports errors to `diag`;
 * the emitters must not run when diag_has_errors(). */
void sema_run(Arena *arena, Diag *diag, Node *root, const SemaOptions *options,
              TranslationUnit *tu);

/* Type helpers shared with the emitters. */
bool type_is_integer(const Type *ty);
bool type_is_arith(const Type *ty);
bool type_is_float(const Type *ty);
bool type_is_unsigned(const Type *ty);
bool type_is_scalar(const Type *ty);
const Type *type_unqualified(const Type *ty);
/* Size in bytes (through the origin, so that a struct completed after a
 * typedef of it was made still has its size); -1 when incomplete. */
int type_size(const Type *ty);
bool type_is_complete(const Type *ty);
/* Same type ignoring top-level qualifiers (pointee qualifiers and address
 * spaces count). */
bool type_compatible(const Type *a, const Type *b);
/* Member `name` of a struct/union, looking through anonymous members;
 * adds its byte offset to *offset when offset is not NULL. */
const Member *type_find_member(const Type *rec, const char *name, int *offset);
/* Clang-style spelling for messages ('int *', 'global const float *',
 * 'int [4]', 'fixed_size_group<8>', typedef names kept); returns buf. */
const char *type_name(const Type *ty, char *buf, size_t size);

#endif
