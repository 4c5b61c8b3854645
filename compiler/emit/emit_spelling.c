/* emit_spelling.c — exact spellings of values (see emit_spelling.h). */
#include "emit/emit_spelling.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void emit_spell_float(char *buf, size_t cap, double value, bool is_float)
{
    const char *suffix = is_float ? "f" : "";
    if (isnan(value))
        snprintf(buf, cap, "(0.0%s/0.0%s)", suffix, suffix);
    else if (isinf(value))
        snprintf(buf, cap, "(%s1.0%s/0.0%s)", value < 0 ? "-" : "", suffix, suffix);
    else
        snprintf(buf, cap, "%a%s", is_float ? (double)(float)value : value, suffix);
}

/* The lowest value of a signed type has no literal (its negation does not
 * fit): "(-2147483647-1)". */
static void spell_signed(char *buf, size_t cap, int64_t v, int64_t min, const char *suffix)
{
    if (v == min)
        snprintf(buf, cap, "(%" PRId64 "%s-1)", v + 1, suffix);
    else
        snprintf(buf, cap, "%" PRId64 "%s", v, suffix);
}

void emit_spell_spec_default(char *buf, size_t cap, const Symbol *sc)
{
    int64_t v = sc->spec_default_int;
    if (sc->spec_required) {
        snprintf(buf, cap, "%s", "");
        return;
    }
    switch (sc->ty->kind) {
    case TY_BOOL: snprintf(buf, cap, "%d", v ? 1 : 0); break;
    case TY_FLOAT: emit_spell_float(buf, cap, sc->spec_default_float, true); break;
    case TY_DOUBLE: emit_spell_float(buf, cap, sc->spec_default_float, false); break;
    case TY_UCHAR:
    case TY_USHORT: snprintf(buf, cap, "%" PRIu64, (uint64_t)v); break;
    case TY_UINT: snprintf(buf, cap, "%" PRIu32 "u", (uint32_t)v); break;
    case TY_LONG: spell_signed(buf, cap, v, INT64_MIN, "L"); break;
    case TY_ULONG:
    case TY_SIZE_T: snprintf(buf, cap, "%" PRIu64 "UL", (uint64_t)v); break;
    case TY_INT:
    case TY_ENUM: spell_signed(buf, cap, v, INT32_MIN, ""); break;
    case TY_CHAR: case TY_SCHAR: case TY_SHORT:
    case TY_VOID: /* not a spec constant's type (spec_type_ok) */
    CASE_TY_NOT_ARITHMETIC:
        snprintf(buf, cap, "%" PRId64, v);
        break;
    }
}

bool emit_spell_json_number(char *buf, size_t cap, double value)
{
    if (!isfinite(value)) {
        snprintf(buf, cap, "null");
        return false;
    }
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, cap, "%.*g", digits, value);
        if (strtod(buf, NULL) == value)
            break;
    }
    if (!strpbrk(buf, ".eE"))
        strncat(buf, ".0", cap - strlen(buf) - 1);
    return true;
}
