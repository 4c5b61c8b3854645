/* emit_json.h — `sgcc --emit-json`: the module description, one JSON
 * document with every fact the host header (emit_header.h) knows: spec
 * constants, kernels and their parameters, what each kernel needs, which
 * backend can run it, and the build options each backend needs.  The shape
 * is fixed by docs/module.schema.json (format "sgcc-module", version 1) and
 * described in docs/CLI.md.  The sgcc command and libsgcc both call it. */
#ifndef SGCC_EMIT_JSON_H
#define SGCC_EMIT_JSON_H

#include <stdbool.h>

#include "ast/ast.h"
#include "base/diag.h"
#include "emit/emit.h"

/* The description's format_version; bumped when a key changes meaning or
 * goes away (new keys may appear without a bump). */
enum { EMIT_JSON_FORMAT_VERSION = 1 };

/* Writes the description of `tu` (after sema) into `out`.  `module_name`
 * is as for emit_header (NULL: from tu->main_file); `sgcc_version` goes into
 * "sgcc_version" (NULL: null); the `absent_count` paths of `absent_includes`
 * (pp_absent_includes) into "absent_includes".  Deterministic: the output
 * depends only on the tree and these arguments.  Returns false after reporting to `diag`
 * when something cannot be described (the header refuses the same
 * inputs: a non-scalar spec constant, a parameter no host can pass). */
bool emit_module_json(const TranslationUnit *tu, const char *module_name,
                      const char *sgcc_version, const char *const *absent_includes,
                      int absent_count, Diag *diag, EmitBuffer *out);

#endif
