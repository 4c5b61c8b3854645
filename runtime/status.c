/* status.c — the error convention: status names, the per-thread last-error
 * message, the scalar type table, and small string helpers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgrt_internal.h"

/* One message per thread, so that concurrent failures do not mix. */
static _Thread_local char last_error[2048];

static const char *const status_names[SGRT_STATUS_COUNT] = {
#define X(name, text) "SGRT_" #name,
    SGRT_STATUSES(X)
#undef X
};

const char *sgrt_status_name(sgrt_status status)
{
    if ((unsigned)status >= SGRT_STATUS_COUNT)
        return "SGRT_UNKNOWN_STATUS";
    return status_names[status];
}

const char *sgrt_last_error(void) { return last_error; }

void sgrt_set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
}

/* Success leaves the last message alone, like errno: it describes the
 * most recent failure on this thread. */
sgrt_status sgrt_ok(void) { return SGRT_SUCCESS; }

static const struct {
    const char *name;
    size_t size;
} type_table[SGRT_TYPE_COUNT] = {
    {"none", 0},
#define X(NAME, name, ctype, member) {#name, sizeof(ctype)},
    SGRT_TYPES(X)
#undef X
};

const char *sgrt_type_name(sgrt_type type)
{
    return (unsigned)type < SGRT_TYPE_COUNT ? type_table[type].name : "invalid";
}

/* Device sizes equal the host <stdint.h> sizes, except bool: OpenCL C and
 * CUDA both store it in one byte, like the C17 hosts we support. */
size_t sgrt_type_size(sgrt_type type)
{
    return (unsigned)type < SGRT_TYPE_COUNT ? type_table[type].size : 0;
}

char *sgrt_strdup(const char *s)
{
    size_t len = strlen(s) + 1;
    char *copy = malloc(len);
    if (copy)
        memcpy(copy, s, len);
    return copy;
}

bool sgrt_contains_word(const char *list, const char *word)
{
    size_t len = strlen(word);
    for (const char *p = list; p && (p = strstr(p, word)) != NULL; p += len) {
        bool starts = p == list || p[-1] == ' ';
        bool ends = p[len] == '\0' || p[len] == ' ';
        if (starts && ends)
            return true;
    }
    return false;
}
