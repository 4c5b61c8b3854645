/* suggest.c — edit distance and closest-candidate search for "did you
 * mean" notes (suggest.h).  Names are short (identifiers, options), so the
 * classic two-row dynamic programme is plenty. */
#include "base/suggest.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_SUGGEST_LEN = 128 };

size_t suggest_distance(const char *a, const char *b, size_t limit)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > MAX_SUGGEST_LEN || lb > MAX_SUGGEST_LEN)
        return limit + 1;
    if ((la > lb ? la - lb : lb - la) > limit)
        return limit + 1;
    /* Three rows: the one before the previous is needed for transpositions. */
    size_t rows[3][MAX_SUGGEST_LEN + 1];
    size_t *before = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        size_t row_min = cur[0];
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t best = prev[j - 1] + cost;
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && before[j - 2] + 1 < best)
                best = before[j - 2] + 1;
            cur[j] = best;
            if (best < row_min)
                row_min = best;
        }
        if (row_min > limit)
            return limit + 1;
        size_t *recycled = before;
        before = prev;
        prev = cur;
        cur = recycled;
    }
    return prev[lb] <= limit ? prev[lb] : limit + 1;
}

const char *suggest_closest(const char *word, const char *const *candidates, size_t count)
{
    size_t len = strlen(word);
    size_t limit = len / 3; /* none for one or two letters: any name is that close */
    const char *best = NULL;
    size_t best_distance = limit + 1;
    for (size_t i = 0; i < count; i++) {
        if (!candidates[i] || strcmp(candidates[i], word) == 0)
            continue;
        size_t d = suggest_distance(word, candidates[i], limit);
        if (d < best_distance) {
            best = candidates[i];
            best_distance = d;
        }
    }
    return best;
}
