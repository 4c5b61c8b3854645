/* driver.h — pieces of the sgcc command that live outside main.c.
 *
 * main.c owns option parsing, output paths and the atomic writing of every
 * output around libsgcc; depfile.c formats the make-style dependency rule
 * for -M/-MD so that the escaping rules sit in one small, unit-testable
 * place. */
#ifndef SGCC_DRIVER_H
#define SGCC_DRIVER_H

#include "emit/emit.h"

/* Appends one make rule "t1 t2 ...: dep1 dep2 ..." (continuation lines,
 * final newline) to `out`.  targets[i] is escaped as below when quote[i]
 * (-MT targets are written as given, as GCC does).  Several targets are
 * fine for make and for ninja since 1.10 (an edge's outputs in any order).
 * With `phony`, each dependency after the first gets an empty rule of its
 * own (-MP), so that make does not fail when a header is deleted. */
void depfile_format(EmitBuffer *out, const char *const *targets, const bool *quote,
                    int target_count, const char *const *deps, int count, bool phony);

/* Appends `path` escaped as above (exposed for tests). */
void depfile_escape(EmitBuffer *out, const char *path);

#endif
