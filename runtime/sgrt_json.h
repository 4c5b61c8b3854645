/* sgrt_json.h — the JSON reader (json.c) and the arena its trees live in;
 * private to the runtime (compile.c reads libsgcc's module description). */
#ifndef SGRT_JSON_H
#define SGRT_JSON_H

#include <stdbool.h>
#include <stddef.h>

/* Allocations freed together (zeroed, 16-byte aligned). */
typedef struct SgrtArena {
    struct ArenaBlock *head;
} SgrtArena;

void *sgrt_arena_alloc(SgrtArena *arena, size_t size);
char *sgrt_arena_strdup(SgrtArena *arena, const char *s);
void sgrt_arena_free(SgrtArena *arena);

typedef enum SgrtJsonKind {
    SGRT_JSON_NULL,
    SGRT_JSON_BOOL,
    SGRT_JSON_NUMBER,
    SGRT_JSON_STRING,
    SGRT_JSON_ARRAY,
    SGRT_JSON_OBJECT,
} SgrtJsonKind;

typedef struct SgrtJson {
    SgrtJsonKind kind;
    const char *key;          /* member name inside an object, else NULL */
    bool boolean;
    double number;
    const char *string;
    size_t count;             /* array items or object members */
    struct SgrtJson *items;
} SgrtJson;

/* The document's root, or NULL when `text` is not JSON (or out of memory). */
const SgrtJson *sgrt_json_parse(SgrtArena *arena, const char *text);
/* The member `key` of an object; NULL when absent or not an object. */
const SgrtJson *sgrt_json_get(const SgrtJson *object, const char *key);
/* The string, or NULL when `value` is not one. */
const char *sgrt_json_string(const SgrtJson *value);
/* Whether `value` is the literal true. */
bool sgrt_json_true(const SgrtJson *value);

#endif
