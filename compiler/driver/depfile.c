/* depfile.c — make-style dependency rules for -M / -MD (docs/CLI.md "Depfiles").
 *
 * The rule names every output (or the -MT/-MQ targets) and lists the files
 * the preprocessor opened, main file first; -MP adds an empty rule per
 * header.  Escaping follows GCC's -MD output,
 * which is what both GNU make and ninja's depfile parser understand:
 * "\ " for a space, "\#" for '#', "$$" for '$'. */
#include "driver/driver.h"

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

void depfile_format(EmitBuffer *out, const char *const *targets, const bool *quote,
                    int target_count, const char *const *deps, int count, bool phony)
{
    for (int i = 0; i < target_count; i++) {
        if (i > 0)
            emit_write(out, " ", 1);
        if (quote[i])
            depfile_escape(out, targets[i]);
        else
            emit_write(out, targets[i], strlen(targets[i]));
    }
    emit_write(out, ":", 1);
    for (int i = 0; i < count; i++) {
        /* One dependency per line keeps long include lists readable. */
        emit_write(out, i == 0 ? " " : " \\\n  ", i == 0 ? 1 : 5);
        depfile_escape(out, deps[i]);
    }
    emit_write(out, "\n", 1);
    for (int i = 1; phony && i < count; i++) {
        emit_write(out, "\n", 1);
        depfile_escape(out, deps[i]);
        emit_write(out, ":\n", 2);
    }
}
