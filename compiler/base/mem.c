/* mem.c — checked allocation (mem.h states the policy). */
#include "base/mem.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per thread, so that concurrent libsgcc calls each unwind to their own. */
static _Thread_local jmp_buf *oom_handler;

void *mem_set_oom_handler(void *handler)
{
    jmp_buf *previous = oom_handler;
    oom_handler = handler;
    return previous;
}

_Noreturn void mem_out_of_memory(void)
{
    if (oom_handler)
        longjmp(*oom_handler, 1);
    fputs("sgcc: fatal error: out of memory\n", stderr);
    abort();
}

static void *checked(void *p)
{
    if (!p)
        mem_out_of_memory();
    return p;
}

void *mem_alloc(size_t size) { return checked(malloc(size ? size : 1)); }
void *mem_zalloc(size_t count, size_t size) { return checked(calloc(count ? count : 1, size ? size : 1)); }
void *mem_realloc(void *p, size_t size) { return checked(realloc(p, size ? size : 1)); }

char *mem_strndup(const char *s, size_t len)
{
    char *copy = mem_alloc(len + 1);
    memcpy(copy, s, len);
    copy[len] = '\0';
    return copy;
}

char *mem_strdup(const char *s) { return mem_strndup(s, strlen(s)); }

void *vec_grow(void *items, int *capacity, int needed, size_t size)
{
    int grown = *capacity ? *capacity : 16;
    while (grown < needed)
        grown *= 2;
    items = mem_realloc(items, size * (size_t)grown);
    *capacity = grown;
    return items;
}
