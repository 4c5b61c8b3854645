/* arena.c — see arena.h for the ownership policy. */
#include "base/arena.h"
#include "base/mem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 8: every object in an arena needs at most 8 (no long double, no vector
 * types); 16 would round many small objects up (issue 24). */
enum { ARENA_BLOCK_SIZE = 64 * 1024, ARENA_ALIGN = 8 };

struct ArenaBlock {
    ArenaBlock *prev;
    size_t used, capacity;
    _Alignas(16) unsigned char data[];
};

void arena_init(Arena *arena) { arena->head = NULL; arena->bytes_in_use = 0; }

void arena_free(Arena *arena)
{
    ArenaBlock *block = arena->head;
    while (block) {
        ArenaBlock *prev = block->prev;
        free(block);
        block = prev;
    }
    arena_init(arena);
}

static ArenaBlock *arena_new_block(Arena *arena, size_t min_size)
{
    size_t capacity = min_size > ARENA_BLOCK_SIZE ? min_size : ARENA_BLOCK_SIZE;
    ArenaBlock *block = mem_alloc(sizeof(ArenaBlock) + capacity);
    block->prev = arena->head;
    block->used = 0;
    block->capacity = capacity;
    arena->head = block;
    return block;
}

void *arena_alloc(Arena *arena, size_t size)
{
    size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (size == 0)
        size = ARENA_ALIGN;
    ArenaBlock *block = arena->head;
    if (!block || block->capacity - block->used < size)
        block = arena_new_block(arena, size);
    void *p = block->data + block->used;
    block->used += size;
    arena->bytes_in_use += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(Arena *arena, const char *s, size_t len)
{
    char *copy = arena_alloc(arena, len + 1);
    memcpy(copy, s, len);
    copy[len] = '\0';
    return copy;
}

char *arena_strdup(Arena *arena, const char *s) { return arena_strndup(arena, s, strlen(s)); }

char *arena_printf(Arena *arena, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *buf = arena_alloc(arena, (size_t)len + 1);
    vsnprintf(buf, (size_t)len + 1, fmt, ap2);
    va_end(ap2);
    return buf;
}
