/* depfile.c — make-style dependency rules for -M / -MD (SPEC §3).
 *
 * The rule names one target (ninja reads only one) and lists the files the
 * preprocessor opened, main file first.  Escaping follows GCC's -MD output,
 * which is what both GNU make and ninja's depfile parser understand:
 * "\ " for a space, "\#" for '#', "$$" for '$'. */
#include "driver.h"

#include <string.h>

void depfile_escape(EmitBuffer *out, const char *path)
{
    for (const char *p = path; *p; p++) {
        switch (*p) {
        case ' ':
        case '\t':
        case '#':
            emit_write(out, "\\", 1);
            emit_write(out, p, 1);
            break;
        case '$':
            emit_write(out, "$$", 2);
            break;
        default:
            emit_write(out, p, 1);
        }
    }
}

void depfile_format(EmitBuffer *out, const char *target, const char *const *deps, int count)
{
    depfile_escape(out, target);
    emit_write(out, ":", 1);
    for (int i = 0; i < count; i++) {
        /* One dependency per line keeps long include lists readable. */
        emit_write(out, i == 0 ? " " : " \\\n  ", i == 0 ? 1 : 5);
        depfile_escape(out, deps[i]);
    }
    emit_write(out, "\n", 1);
}
