/* emit_header.h — `sgcc --header`: the host header that describes a module
 * to the sgrt runtime (runtime/sgrt.h): embedded OpenCL C and CUDA C
 * sources, the sgrt_module_desc descriptor, spec-constant IDs, and typed
 * setters and launchers. */
#ifndef SGCC_EMIT_HEADER_H
#define SGCC_EMIT_HEADER_H

#include <stdbool.h>
#include <stddef.h>

#include "ast/ast.h"
#include "base/diag.h"
#include "emit/emit.h"

/* Writes the header for `tu` into `out`.  `module_name` prefixes every
 * generated name; NULL derives it from tu->main_file (see
 * emit_header_module_name).  code[t] is target t's output, NULL when it was
 * not asked for (the descriptor then holds NULL and sgrt refuses that
 * backend).  Returns false after reporting to `diag` when a kernel
 * signature cannot be described. */
bool emit_header(const TranslationUnit *tu, const char *module_name,
                 const EmitBuffer *const code[TARGET_COUNT], Diag *diag, EmitBuffer *out);

/* Reports (to `diag`) what neither the header nor the module description
 * can describe: a spec constant that is not a scalar, a kernel parameter no
 * host can pass.  `what` names the option in the message ("--header"). */
bool emit_header_check(const TranslationUnit *tu, const char *what, Diag *diag);

/* The sgrt name of a scalar type ("bool", "char", "uchar", ..., "double";
 * size_t is "ulong", an enum "int"), NULL when not a scalar. */
const char *emit_header_scalar_name(const Type *ty);

/* How a host passes a kernel parameter (sgrt_param_desc). */
typedef enum EmitParamKind {
    EMIT_PARAM_GLOBAL, EMIT_PARAM_CONSTANT, EMIT_PARAM_LOCAL, EMIT_PARAM_SCALAR,
} EmitParamKind;

typedef struct EmitParamShape {
    EmitParamKind kind;
    const char *scalar_name; /* emit_header_scalar_name of the value or pointee; NULL: struct */
    int size;                /* by-value size, or element size for pointers */
    bool is_const;           /* pointers: the pointee is const; scalars: the parameter is */
} EmitParamShape;

/* False for a parameter type no host can pass (see emit_header_check). */
bool emit_header_param_shape(const Type *ty, EmitParamShape *shape);

/* The module name for a .sgc path: its basename without the extension,
 * every character other than [A-Za-z0-9_] replaced by '_', and '_'
 * prepended when it would start with a digit ("dir/mat-mul.sgc" ->
 * "mat_mul").  Writes at most `cap` bytes including the NUL. */
void emit_header_module_name(const char *path, char *buf, size_t cap);

#endif
