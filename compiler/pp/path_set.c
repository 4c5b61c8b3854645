/* path_set.c — an insertion-ordered set of paths (path_set.h). */
#include "pp/path_set.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/mem.h"

/* The slot that holds `path`, or the empty one where it would go. */
static int *find_slot(const PathSet *set, const char *path)
{
    unsigned mask = (unsigned)set->slot_count - 1;
    for (unsigned i = hash_string(path) & mask;; i = (i + 1) & mask) {
        int *slot = &set->slots[i];
        if (*slot == 0 || strcmp(set->paths[*slot - 1], path) == 0)
            return slot;
    }
}

static void rehash(PathSet *set)
{
    free(set->slots);
    set->slot_count = set->slot_count ? 2 * set->slot_count : 64;
    set->slots = mem_zalloc((size_t)set->slot_count, sizeof *set->slots);
    for (int i = 0; i < set->count; i++)
        *find_slot(set, set->paths[i]) = i + 1;
}

void path_set_add(PathSet *set, const char *path)
{
    if (2 * (set->count + 1) >= set->slot_count)
        rehash(set);
    int *slot = find_slot(set, path);
    if (*slot)
        return;
    if (set->capacity < set->count + 1)
        set->paths = vec_grow(set->paths, &set->capacity, set->count + 1, sizeof *set->paths);
    set->paths[set->count] = mem_strdup(path);
    *slot = ++set->count;
}

void path_set_free(PathSet *set)
{
    for (int i = 0; i < set->count; i++)
        free(set->paths[i]);
    free(set->paths);
    free(set->slots);
    *set = (PathSet){0};
}
