/* mem.h — checked allocation and growable arrays: the compiler's one
 * out-of-memory policy, written here once.
 *
 * Nothing in the compiler checks for NULL after allocating: a failed
 * allocation never returns.  It unwinds (longjmp) to the libsgcc call that
 * is running on this thread (mem_set_oom_handler), which returns
 * SGCC_ERROR_OUT_OF_MEMORY, and the sgcc command turns that into exit
 * status 3.  Outside a libsgcc call (a unit test, a fuzzer) it prints
 * "out of memory" and aborts.  Per-unit data lives in an Arena (arena.h);
 * these are for what grows while a unit is translated (tables, vectors). */
#ifndef SGCC_MEM_H
#define SGCC_MEM_H

#include <stddef.h>

void *mem_alloc(size_t size);                /* malloc */
void *mem_zalloc(size_t count, size_t size); /* calloc */
void *mem_realloc(void *p, size_t size);     /* realloc */
char *mem_strndup(const char *s, size_t len); /* the first len bytes of s, NUL-terminated */
char *mem_strdup(const char *s);

/* Installs `handler` (a jmp_buf *) for this thread and returns the previous
 * one; NULL removes it. */
void *mem_set_oom_handler(void *handler);
_Noreturn void mem_out_of_memory(void);

/* A growable array of T, zero-initialised empty:
 *     VEC(const Symbol *) seen = {0};
 *     VEC_PUSH(&seen, sym);  ...  seen.items[i] ...  free(seen.items);
 * The vector's owner frees `items`. */
#define VEC(T)                    \
    struct {                      \
        T *items;                 \
        int count, capacity;      \
    }
/* Room for `n` items. */
#define VEC_RESERVE(v, n)                                                              \
    ((v)->capacity < (n) ? (void)((v)->items = vec_grow((v)->items, &(v)->capacity, (n), \
                                                        sizeof *(v)->items))          \
                         : (void)0)
#define VEC_PUSH(v, x) (VEC_RESERVE((v), (v)->count + 1), (v)->items[(v)->count++] = (x))

/* items reallocated for at least `needed` items of `size` bytes (capacity
 * doubles, from 16); *capacity updated. */
void *vec_grow(void *items, int *capacity, int needed, size_t size);

#endif
