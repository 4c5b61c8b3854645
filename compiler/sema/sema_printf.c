/* sema_printf.c — typing of printf calls (docs/REFERENCE.md "Atomics and printf"): the format
 * is a string literal, read here conversion by conversion, and each
 * argument is checked against its conversion and converted to the type the
 * conversion reads, as a prototype would: `%d` of a short passes an int,
 * `%lu` of a size_t a ulong (OpenCL has no `z`, and size_t may be 32 bits
 * there).  Floating arguments keep their type: OpenCL does not promote a
 * float to double (a device may lack fp64). */
#include <stdio.h>
#include <string.h>

#include "sema/sema_int.h"

/* What a conversion reads. */
typedef enum FormatArg {
    FA_INT, FA_UINT, FA_LONG, FA_ULONG, FA_FLOATING, FA_STRING, FA_POINTER,
} FormatArg;

typedef struct Conversion {
    FormatArg want;
    char spelling[24]; /* "%-08.3ld", for messages */
} Conversion;

/* The conversions of one format, in order. */
typedef struct Format {
    Conversion conv[PRINTF_MAX_ARGS];
    int count;
} Format;

/* Marks an escape sequence's character in the decoded format: it is never
 * part of a conversion. */
enum { ESCAPED = 1 };

/* The value of the escape at p (just past the backslash); *end is set past
 * it.  Only what can spell '%' matters: \x and octal escapes are decoded,
 * every other escape is not a '%'. */
static unsigned escape_value(const char *p, const char **end)
{
    unsigned v = 0;
    if (*p == 'x') {
        for (p++; strchr("0123456789abcdefABCDEF", *p) && *p; p++)
            v = v * 16 + (unsigned)(*p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10);
    } else if (*p >= '0' && *p <= '7') {
        for (int k = 0; k < 3 && *p >= '0' && *p <= '7'; k++, p++)
            v = v * 8 + (unsigned)(*p - '0');
    } else {
        v = ESCAPED;
        p++;
    }
    *end = p;
    return v;
}

/* The literal's characters (adjacent literals joined) into out, escapes as
 * ESCAPED.  False when an escape spells '%': the device would see a
 * conversion that this check did not. */
static bool decode_format(const char *text, char *out, size_t cap)
{
    size_t n = 0;
    bool in = false;
    for (const char *p = text; p && *p && n + 1 < cap;) {
        if (*p == '"') {
            in = !in;
            p++;
        } else if (!in) {
            p++;
        } else if (*p == '\\' && p[1]) {
            if (escape_value(p + 1, &p) == '%')
                return false;
            out[n++] = ESCAPED;
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = '\0';
    return true;
}

/* What conversion `c` with length modifier `len` ("", "h", "hh", "l")
 * reads, or -1 when the pair is not supported. */
static int conversion_arg(char c, const char *len)
{
    bool l = strcmp(len, "l") == 0, h = len[0] == 'h';
    if (strchr("di", c))
        return l ? FA_LONG : FA_INT;
    if (strchr("ouxX", c))
        return l ? FA_ULONG : FA_UINT;
    if (h)
        return -1; /* h and hh are for integer conversions */
    if (strchr("fFeEgGaA", c))
        return FA_FLOATING; /* %lf is %f, as in C99 */
    if (l)
        return -1;
    return c == 'c' ? FA_INT : c == 's' ? FA_STRING : c == 'p' ? FA_POINTER : -1;
}

/* Reads the conversion starting at f[*i] (the '%'); false, with the
 * problem reported, when it is not one OpenCL and CUDA printf share. */
static bool read_conversion(Sema *s, SrcLoc loc, const char *f, size_t *i, Format *fmt)
{
    size_t start = *i, j = start + 1;
    j += strspn(f + j, "-+ #0");
    j += strspn(f + j, "0123456789");
    if (f[j] == '.') {
        j++;
        j += strspn(f + j, "0123456789");
    }
    char len[3] = "";
    if (f[j] == 'h' || f[j] == 'l') {
        size_t n = f[j + 1] == f[j] ? 2 : 1;
        memcpy(len, f + j, n);
        j += n;
    }
    char c = f[j];
    int want = c ? conversion_arg(c, len) : -1;
    int shown = (int)(j - start + (c ? 1 : 0));
    if (want < 0 || strcmp(len, "ll") == 0) {
        if (c == '*')
            diag_error(s->diag, loc, "printf format: '*' widths and precisions are not supported; "
                       "write the number in the format");
        else if (c == '\0')
            diag_error(s->diag, loc, "printf format ends inside a conversion ('%.*s')", shown, f + start);
        else
            diag_error(s->diag, loc, "printf format: conversion '%.*s' is not supported (conversions: "
                       "d i o u x X c s f F e E g G a A p, length modifiers hh h l; 'l' is 64 bits)",
                       shown, f + start);
        return false;
    }
    if (fmt->count == PRINTF_MAX_ARGS - 1) {
        diag_error(s->diag, loc, "printf format has more than %d conversions (CUDA's limit)",
                   PRINTF_MAX_ARGS - 1);
        return false;
    }
    Conversion *conv = &fmt->conv[fmt->count++];
    conv->want = (FormatArg)want;
    snprintf(conv->spelling, sizeof conv->spelling, "%.*s", shown, f + start);
    *i = j + 1;
    return true;
}

static bool parse_format(Sema *s, const Node *lit, Format *fmt)
{
    char f[4096];
    if (!decode_format(lit->text, f, sizeof f)) {
        diag_error(s->diag, lit->loc, "printf format: a '%%' written as an escape sequence is not "
                   "supported; write '%%' itself");
        return false;
    }
    for (size_t i = 0; f[i];) {
        if (f[i] != '%') {
            i++;
        } else if (f[i + 1] == '%') {
            i += 2;
        } else if (!read_conversion(s, lit->loc, f, &i, fmt)) {
            return false;
        }
    }
    return true;
}

static const char *const wanted_names[] = {
    [FA_INT] = "int", [FA_UINT] = "uint", [FA_LONG] = "long", [FA_ULONG] = "ulong",
    [FA_FLOATING] = "float' or 'double", [FA_STRING] = "string literal", [FA_POINTER] = "pointer",
};

static bool fits(const Conversion *conv, const Node *written, const Type *ty)
{
    switch (conv->want) {
    case FA_INT: case FA_UINT: return type_is_integer(ty) && ty->size <= 4;
    case FA_LONG: case FA_ULONG: return type_is_integer(ty);
    case FA_FLOATING: return ty->kind == TY_FLOAT || ty->kind == TY_DOUBLE;
    case FA_STRING: return written->kind == ND_STRING_LIT;
    case FA_POINTER: return ty->kind == TY_PTR;
    }
    return false;
}

/* Checks argument `a` (as written: `written`) against its conversion and
 * converts it to what the conversion reads; NULL after an error. */
static Node *check_argument(Sema *s, const Conversion *conv, Node *written, Node *a, Type *ty)
{
    if (!fits(conv, written, ty)) {
        if (conv->want == FA_STRING)
            diag_error(s->diag, written->loc, "printf format: '%s' takes a string literal only, have "
                       "'%s'", conv->spelling, fmt_value_type(s, ty));
        else
            diag_error(s->diag, written->loc, "printf format: '%s' expects an argument of type '%s', "
                       "have '%s'", conv->spelling, wanted_names[conv->want], fmt_value_type(s, ty));
        return NULL;
    }
    static const TypeKind as_kind[] = {[FA_INT] = TY_INT, [FA_UINT] = TY_UINT,
                                       [FA_LONG] = TY_LONG, [FA_ULONG] = TY_ULONG};
    if (conv->want <= FA_ULONG)
        return sema_implicit_cast(s, a, s->basic[as_kind[conv->want]]);
    return a;
}

/* printf(format, args...): returns int, as OpenCL's and CUDA's do. */
Type *sema_printf(Sema *s, Node *call)
{
    Node *args[PRINTF_MAX_ARGS];
    Type *types[PRINTF_MAX_ARGS];
    int n = 0;
    bool bad = false;
    /* sema_call has checked the count: 1 to PRINTF_MAX_ARGS arguments. */
    for (Node *a = call->args.head; a && n < PRINTF_MAX_ARGS; a = a->next) {
        types[n] = type_decay(s, sema_expr(s, a));
        bad |= sema_is_err(s, types[n]);
        args[n++] = a;
    }
    if (bad || n == 0)
        return s->t_err;
    Node *lit = args[0];
    if (lit->kind != ND_STRING_LIT) {
        diag_error(s->diag, lit->loc, "the format of printf must be a string literal");
        return s->t_err;
    }
    Format fmt = {0};
    if (!parse_format(s, lit, &fmt))
        return s->t_err;
    if (fmt.count != n - 1) {
        diag_error(s->diag, n - 1 > fmt.count ? args[fmt.count + 1]->loc : call->loc,
                   "too %s arguments for the printf format: it has %d conversion%s, the call %d "
                   "argument%s after it", n - 1 > fmt.count ? "many" : "few", fmt.count,
                   fmt.count == 1 ? "" : "s", n - 1, n == 2 ? "" : "s");
        return s->t_err;
    }
    NodeList out = {0};
    nodelist_append(&out, lit);
    for (int i = 1; i < n; i++) {
        Node *a = check_argument(s, &fmt.conv[i - 1], args[i], sema_decay_node(s, args[i]), types[i]);
        if (!a)
            return s->t_err;
        nodelist_append(&out, a);
    }
    call->args = out;
    return s->basic[TY_INT];
}
