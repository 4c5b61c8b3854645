/* driver.h — pieces of the sgcc command that live outside main.c.
 *
 * main.c owns option parsing, the pipeline and the atomic writing of every
 * output; depfile.c formats the make-style dependency rule for -M/-MD so
 * that the escaping rules sit in one small, unit-testable place. */
#ifndef SGCC_DRIVER_H
#define SGCC_DRIVER_H

#include "emit.h"

/* Appends one make rule "target: dep1 dep2 ..." (continuation lines, final
 * newline) to `out`.  Only one target: ninja's depfile reader wants exactly
 * the edge's first output on the left.  Spaces and '#' are escaped with a
 * backslash and '$' is doubled, which both make and ninja read back. */
void depfile_format(EmitBuffer *out, const char *target, const char *const *deps, int count);

/* Appends `path` escaped as above (exposed for tests). */
void depfile_escape(EmitBuffer *out, const char *path);

#endif
