/* literal.c — see literal.h. */
#include "base/literal.h"

#include <string.h>

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static uint32_t simple_escape(char c, bool *known)
{
    static const char letters[] = "ntrabfve\\'\"?";
    static const unsigned char values[] = {'\n', '\t', '\r', '\a', '\b', '\f', '\v', 27,
                                           '\\', '\'', '"', '?'};
    const char *at = c ? strchr(letters, c) : NULL;
    *known = at != NULL;
    return at ? values[at - letters] : (unsigned char)c;
}

static LiteralChar hex_escape(const char **p, const char *end)
{
    LiteralChar ch = {0};
    const char *s = *p;
    if (s >= end || hex_digit(*s) < 0)
        ch.problems |= LITERAL_EMPTY_HEX;
    for (; s < end && hex_digit(*s) >= 0; s++) {
        if (ch.value > UINT32_MAX >> 4)
            ch.problems |= LITERAL_HEX_OVER_32_BITS;
        ch.value = ch.value << 4 | (uint32_t)hex_digit(*s);
    }
    *p = s;
    return ch;
}

LiteralChar literal_decode_char(const char **p, const char *end)
{
    const char *s = *p;
    LiteralChar ch = {0};
    if (*s != '\\' || s + 1 >= end) {
        ch.value = (unsigned char)*s;
        *p = s + 1;
        return ch;
    }
    s++;
    if (*s == 'x') {
        *p = s + 1;
        return hex_escape(p, end);
    }
    if (*s >= '0' && *s <= '7') {
        for (int k = 0; k < 3 && s < end && *s >= '0' && *s <= '7'; k++)
            ch.value = ch.value * 8 + (uint32_t)(*s++ - '0');
        *p = s;
        return ch;
    }
    bool known;
    ch.value = simple_escape(*s, &known);
    if (!known) {
        ch.problems |= LITERAL_UNKNOWN_ESCAPE;
        ch.unknown_escape = *s;
    }
    *p = s + 1;
    return ch;
}

bool literal_char_constant(const char *text, size_t len, LiteralConstant *out)
{
    *out = (LiteralConstant){0};
    const char *open = memchr(text, '\'', len);
    const char *end = text + len - 1; /* the closing quote */
    if (!open || end <= open + 1 || *end != '\'')
        return false;
    bool prefixed = open != text;
    uint32_t bytes = 0;
    for (const char *p = open + 1; p < end; out->count++) {
        LiteralChar ch = literal_decode_char(&p, end);
        if ((ch.problems & LITERAL_UNKNOWN_ESCAPE) && !(out->problems & LITERAL_UNKNOWN_ESCAPE))
            out->unknown_escape = ch.unknown_escape;
        out->problems |= ch.problems;
        bytes = prefixed ? ch.value : bytes << 8 | (ch.value & 0xff);
    }
    if (prefixed)
        out->value = bytes;
    else
        out->value = out->count == 1 ? (int64_t)(signed char)(bytes & 0xff) : (int64_t)(int32_t)bytes;
    return true;
}
