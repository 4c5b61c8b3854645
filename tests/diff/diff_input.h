/* diff_input.h — the input every generated kernel reads (in[i]), shared by
 * the device driver (diffrun.c) and the oracle (ref_main.c). */
#ifndef DIFF_INPUT_H
#define DIFF_INPUT_H
#include <stdint.h>

static inline int32_t diff_input(uint32_t i)
{
    uint32_t x = i * 2654435761u + 0x9e3779b9u;
    x ^= x >> 15;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    /* mostly small values, some extreme ones */
    switch (x % 8) {
    case 0: return (int32_t)x;
    case 1: return (int32_t)(x % 7) - 3;
    case 2: return x & 1 ? INT32_MAX : INT32_MIN;
    default: return (int32_t)(x % 2001) - 1000;
    }
}
#endif
