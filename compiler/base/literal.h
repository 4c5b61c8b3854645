/* literal.h — the one decoder of C's character escapes, shared by the
 * preprocessor (#if character constants), the parser (character constants'
 * values) and the printer (string initialisers it spells as character
 * lists).  C17 6.4.4.4: simple escapes (\n \t \r \a \b \f \v \\ \' \" \?),
 * GNU's \e (27), octal (one to three digits), hexadecimal (any number of
 * digits).  The decoder gives a sequence's whole value; narrowing it to the
 * literal's character type is the caller's (a character constant:
 * literal_char_constant). */
#ifndef SGCC_LITERAL_H
#define SGCC_LITERAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What was wrong with an escape sequence, as bits (LiteralChar.problems). */
enum {
    LITERAL_UNKNOWN_ESCAPE = 1u << 0, /* `\q`: the value is the character after the backslash */
    LITERAL_EMPTY_HEX = 1u << 1,      /* `\x` with no hex digit: the value is 0 */
    LITERAL_HEX_OVER_32_BITS = 1u << 2, /* more than 32 bits of hex digits: wrapped */
};

typedef struct LiteralChar {
    uint32_t value;
    unsigned problems;    /* LITERAL_* bits */
    char unknown_escape;  /* the character after `\` of an unknown escape */
} LiteralChar;

/* Decodes the character or escape sequence at *p (p < end) and advances *p
 * past it.  A backslash that ends the text is itself. */
LiteralChar literal_decode_char(const char **p, const char *end);

/* A character constant's value (C17 6.4.4.4 and what GCC and Clang do):
 * text..text+len is the whole token, prefix and quotes included.  A plain
 * one of one character has the value of a (signed) char; of several, the
 * bytes in order, most significant first, truncated to a 32-bit int; a
 * prefixed one (L u U u8) the value of its last character.  Returns false
 * when there is no character between the quotes (or no quotes). */
typedef struct LiteralConstant {
    int64_t value;
    int count;            /* characters between the quotes */
    unsigned problems;    /* every LITERAL_* bit its escapes had */
    char unknown_escape;  /* the first unknown escape's character */
} LiteralConstant;

bool literal_char_constant(const char *text, size_t len, LiteralConstant *out);

#endif
