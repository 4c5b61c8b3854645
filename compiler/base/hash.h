/* hash.h — the hash of the compiler's tables (keywords, interned spellings,
 * macro names, scopes): 32-bit FNV-1a, written once.  The runtime's cache
 * keys need 128 bits and have their own (runtime/cache.c). */
#ifndef SGCC_HASH_H
#define SGCC_HASH_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t hash_bytes(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static inline uint32_t hash_string(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

#endif
