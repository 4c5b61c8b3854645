/* path_set.h — a set of paths that keeps the order they were added in:
 * the include search's probes that found no file (pp_absent_includes).
 * Adding is O(1) on average (open addressing over the paths' hashes), so
 * that many includes times many -I directories stay linear.  The set owns
 * copies of its strings; zero-initialised is empty. */
#ifndef SGCC_PATH_SET_H
#define SGCC_PATH_SET_H

typedef struct PathSet {
    char **paths;        /* in the order added, each once */
    int count, capacity;
    int *slots;          /* index + 1 into paths; 0: an empty slot */
    int slot_count;      /* 0 or a power of two above 2 * count */
} PathSet;

/* Adds a copy of `path` unless the set holds it already. */
void path_set_add(PathSet *set, const char *path);
void path_set_free(PathSet *set);

#endif
