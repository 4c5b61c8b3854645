/* emit_spelling.h — exact spellings of values, shared by every writer of
 * sgcc: the OpenCL and CUDA emitters (spec-constant defaults), the host
 * header (--header) and the module description (--emit-json).  One place
 * decides how a value is written so that all of them read back the same
 * bits (docs/REFERENCE.md "Specialization constants": "floating values are written so that they round-trip
 * exactly"). */
#ifndef SGCC_EMIT_SPELLING_H
#define SGCC_EMIT_SPELLING_H

#include <stdbool.h>
#include <stddef.h>

#include "ast/ast.h"

/* Large enough for any spelling below. */
enum { EMIT_SPELLING_MAX = 64 };

/* A finite floating value as a C99 hexadecimal literal ("%a") with the
 * type's suffix: 0.1f -> "0x1.99999ap-4f", -0.0 -> "-0x0p+0", 2.0f ->
 * "0x1p+1f".  Hex literals are exact in C, C++17, OpenCL C and CUDA C++
 * (no decimal rounding step).  NaN and infinities, which have no literal,
 * become constant divisions, "(0.0f/0.0f)", "(-1.0/0.0)", as sgrt writes
 * them in -DSGC_SPEC_N options.  `value` holds a float exactly when
 * is_float. */
void emit_spell_float(char *buf, size_t cap, double value, bool is_float);

/* The C spelling of a spec constant's default: what a host passes as
 * -DSGC_SPEC_N=<spelling> to get the default's exact value, in sgrt's
 * format (runtime/program.c format_spec_value): bool 0/1, integers in
 * decimal with "u", "L" or "UL" for unsigned int, long and ulong, the
 * lowest signed 64/32-bit values as an expression, floats as above.
 * Writes "" for a required constant. */
void emit_spell_spec_default(char *buf, size_t cap, const Symbol *sc);

/* The shortest decimal JSON number that reads back (as an IEEE double) as
 * exactly `value`; a float default is widened first, so a JSON reader gets
 * the float's exact value.  Always has a '.' or an exponent so that readers
 * type it as floating ("-0.0", "2.0", "0.10000000149011612").  Returns
 * false (and writes "null") for NaN and infinities, which JSON cannot hold. */
bool emit_spell_json_number(char *buf, size_t cap, double value);

#endif
