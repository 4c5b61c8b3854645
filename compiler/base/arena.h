/* arena.h — bump allocator that owns every AST node, type and string of one
 * translation unit.
 *
 * Policy (the one place it is written down): everything the front end builds
 * for a translation unit lives in that unit's Arena and is released by one
 * arena_free() at the end of the compile.  Nothing inside an arena is freed
 * individually, so AST code never calls free().  Allocation failure is fatal
 * for the whole compile and is reported by the driver as an internal error
 * (exit 3): arena_alloc() returns zeroed memory or aborts through the arena's
 * out-of-memory hook, never NULL. */
#ifndef SGCC_ARENA_H
#define SGCC_ARENA_H

#include <stddef.h>

typedef struct ArenaBlock ArenaBlock;

typedef struct Arena {
    ArenaBlock *head;      /* most recent block; older ones chain behind it */
    size_t bytes_in_use;   /* total bytes handed out, for statistics/bench */
} Arena;

void arena_init(Arena *arena);
void arena_free(Arena *arena);

/* Zeroed memory aligned to 8 bytes: enough for every object the front end
 * keeps here (pointers, 64-bit integers, doubles; no long double). */
void *arena_alloc(Arena *arena, size_t size);
/* Copy of s[0..len) with a terminating NUL. */
char *arena_strndup(Arena *arena, const char *s, size_t len);
char *arena_strdup(Arena *arena, const char *s);
/* printf into arena memory. */
char *arena_printf(Arena *arena, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#define ARENA_NEW(arena, T) ((T *)arena_alloc((arena), sizeof(T)))
#define ARENA_NEW_ARRAY(arena, T, n) ((T *)arena_alloc((arena), sizeof(T) * (size_t)(n)))

#endif
