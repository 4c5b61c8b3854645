/* suggest.h — "did you mean ...?" for misspelt names (group operations,
 * command-line options, ...), the way Clang and GCC suggest them: the
 * closest candidate by edit distance, when it is close enough to be a
 * likely typo rather than a different word. */
#ifndef SGCC_SUGGEST_H
#define SGCC_SUGGEST_H

#include <stddef.h>

/* Levenshtein distance (insertions, deletions, substitutions, each 1) with
 * an adjacent transposition also counting 1 ("plsu" -> "plus"); compares
 * bytes, case-sensitively.  Stops counting above `limit` (returns limit + 1). */
size_t suggest_distance(const char *a, const char *b, size_t limit);

/* The candidate closest to `word`, or NULL when none is close enough: the
 * distance must be at most a third of the word's length, rounded down (so
 * "plux" finds "plus", "a" finds nothing, and "max" does not find
 * "minimum").  Candidates equal
 * to `word` are skipped; ties go to the first in the list; NULL entries are
 * ignored. */
const char *suggest_closest(const char *word, const char *const *candidates, size_t count);

#endif
