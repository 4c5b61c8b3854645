/* emit_header.h — `sgcc --header`: the host header that describes a module
 * to the sgrt runtime (runtime/sgrt.h): embedded OpenCL C and CUDA C
 * sources, the sgrt_module_desc descriptor, spec-constant IDs, and typed
 * setters and launchers. */
#ifndef SGCC_EMIT_HEADER_H
#define SGCC_EMIT_HEADER_H

#include <stdbool.h>
#include <stddef.h>

#include "ast.h"
#include "diag.h"
#include "emit.h"

/* Writes the header for `tu` into `out`.  `module_name` prefixes every
 * generated name; NULL derives it from tu->main_file (see
 * emit_header_module_name).  Either source may be NULL (the descriptor then
 * holds NULL and sgrt refuses that backend).  Returns false after reporting
 * to `diag` when a kernel signature cannot be described. */
bool emit_header(const TranslationUnit *tu, const char *module_name, const char *opencl_src,
                 size_t ocl_len, const char *cuda_src, size_t cuda_len, Diag *diag,
                 EmitBuffer *out);

/* The module name for a .sgc path: its basename without the extension,
 * every character other than [A-Za-z0-9_] replaced by '_', and '_'
 * prepended when it would start with a digit ("dir/mat-mul.sgc" ->
 * "mat_mul").  Writes at most `cap` bytes including the NUL. */
void emit_header_module_name(const char *path, char *buf, size_t cap);

#endif
