/* test_literal.c — unit tests of the literal decoder (compiler/base/literal.c)
 * that the preprocessor, the parser and the printer share.
 *
 * Expected values are written out by hand from C17 6.4.4.4 (escape values:
 * the ASCII codes, octal and hex read as numbers) and from GCC's documented
 * rules for multi-character constants ("Implementation-defined behavior",
 * Characters: shifted in by 8 bits, the result an int). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/literal.h"

/* Decodes the whole of `text` (a literal's body) one character at a time
 * into values[]; returns the count and ORs every problem into *problems. */
static int decode_all(const char *text, uint32_t *values, int cap, unsigned *problems)
{
    const char *p = text, *end = text + strlen(text);
    int n = 0;
    *problems = 0;
    while (p < end && n < cap) {
        LiteralChar ch = literal_decode_char(&p, end);
        values[n++] = ch.value;
        *problems |= ch.problems;
    }
    return n;
}

static uint32_t one(const char *text, unsigned *problems)
{
    uint32_t v[8];
    ck_assert_int_eq(decode_all(text, v, 8, problems), 1);
    return v[0];
}

START_TEST(plain_characters)
{
    unsigned problems;
    uint32_t v[4];
    ck_assert_int_eq(decode_all("aZ ~", v, 4, &problems), 4);
    ck_assert_uint_eq(v[0], 97);
    ck_assert_uint_eq(v[1], 90);
    ck_assert_uint_eq(v[2], 32);
    ck_assert_uint_eq(v[3], 126);
    ck_assert_uint_eq(problems, 0);
    ck_assert_uint_eq(one("\xe9", &problems), 0xe9); /* a byte >= 0x80 stays unsigned */
}
END_TEST

START_TEST(simple_escapes)
{
    static const struct { const char *text; uint32_t value; } cases[] = {
        {"\\n", 10}, {"\\t", 9}, {"\\r", 13}, {"\\a", 7}, {"\\b", 8}, {"\\f", 12},
        {"\\v", 11}, {"\\\\", 92}, {"\\'", 39}, {"\\\"", 34}, {"\\?", 63},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned problems;
        ck_assert_msg(one(cases[i].text, &problems) == cases[i].value, "%s", cases[i].text);
        ck_assert_uint_eq(problems, 0);
    }
}
END_TEST

START_TEST(gnu_escape_e)
{
    unsigned problems;
    uint32_t v[2];
    ck_assert_int_eq(decode_all("\\e\\e", v, 2, &problems), 2); /* issue 34, item 3 */
    ck_assert_uint_eq(v[0], 27);
    ck_assert_uint_eq(v[1], 27);
    ck_assert_uint_eq(problems, 0);
}
END_TEST

START_TEST(octal_escapes)
{
    unsigned problems;
    ck_assert_uint_eq(one("\\0", &problems), 0);
    ck_assert_uint_eq(one("\\7", &problems), 7);
    ck_assert_uint_eq(one("\\12", &problems), 10);
    ck_assert_uint_eq(one("\\101", &problems), 65);
    ck_assert_uint_eq(problems, 0);
    uint32_t v[4];
    /* At most three digits: "\1234" is \123 then '4'; '8' is no octal digit. */
    ck_assert_int_eq(decode_all("\\1234", v, 4, &problems), 2);
    ck_assert_uint_eq(v[0], 83);
    ck_assert_uint_eq(v[1], '4');
    ck_assert_int_eq(decode_all("\\18", v, 4, &problems), 2);
    ck_assert_uint_eq(v[0], 1);
    ck_assert_uint_eq(v[1], '8');
    /* Out of a char's range: the whole value, the caller narrows it. */
    ck_assert_uint_eq(one("\\777", &problems), 511);
    ck_assert_uint_eq(problems, 0);
}
END_TEST

START_TEST(hex_escapes)
{
    unsigned problems;
    ck_assert_uint_eq(one("\\x41", &problems), 65);
    ck_assert_uint_eq(one("\\xfF", &problems), 255);
    ck_assert_uint_eq(one("\\x0000041", &problems), 65); /* any number of digits */
    ck_assert_uint_eq(problems, 0);
    ck_assert_uint_eq(one("\\x1ff", &problems), 0x1ff); /* out of a char's range: whole */
    ck_assert_uint_eq(problems, 0);
    ck_assert_uint_eq(one("\\xdeadbeef", &problems), 0xdeadbeefu);
    ck_assert_uint_eq(problems, 0);
    /* Past 32 bits: flagged, the low 32 bits kept. */
    ck_assert_uint_eq(one("\\x123456789", &problems), 0x23456789u);
    ck_assert_uint_eq(problems, LITERAL_HEX_OVER_32_BITS);
    uint32_t v[4];
    ck_assert_int_eq(decode_all("\\x41g", v, 4, &problems), 2); /* 'g' ends it */
    ck_assert_uint_eq(v[0], 65);
    ck_assert_uint_eq(v[1], 'g');
}
END_TEST

START_TEST(bad_escapes)
{
    unsigned problems;
    uint32_t v[4];
    ck_assert_int_eq(decode_all("\\xg", v, 4, &problems), 2);
    ck_assert_uint_eq(v[0], 0);
    ck_assert_uint_eq(v[1], 'g');
    ck_assert_uint_eq(problems, LITERAL_EMPTY_HEX);
    const char *text = "\\q", *p = text;
    LiteralChar ch = literal_decode_char(&p, text + 2);
    ck_assert_uint_eq(ch.value, 'q');
    ck_assert_uint_eq(ch.problems, LITERAL_UNKNOWN_ESCAPE);
    ck_assert_int_eq(ch.unknown_escape, 'q');
    ck_assert_ptr_eq(p, text + 2);
    /* A backslash at the very end is itself. */
    ck_assert_uint_eq(one("\\", &problems), '\\');
    ck_assert_uint_eq(problems, 0);
}
END_TEST

/* The decoder stops at `end` even inside an escape. */
START_TEST(stops_at_end)
{
    const char *text = "\\x4142", *p = text;
    LiteralChar ch = literal_decode_char(&p, text + 4);
    ck_assert_uint_eq(ch.value, 0x41);
    ck_assert_ptr_eq(p, text + 4);
    text = "\\1234";
    p = text;
    ch = literal_decode_char(&p, text + 3);
    ck_assert_uint_eq(ch.value, 012);
    ck_assert_ptr_eq(p, text + 3);
}
END_TEST

static LiteralConstant constant(const char *token)
{
    LiteralConstant c;
    ck_assert_msg(literal_char_constant(token, strlen(token), &c), "%s", token);
    return c;
}

START_TEST(character_constants)
{
    ck_assert_int_eq(constant("'a'").value, 97);
    ck_assert_int_eq(constant("'a'").count, 1);
    ck_assert_int_eq(constant("'\\e'").value, 27);
    ck_assert_int_eq(constant("'\\''").value, 39);
    ck_assert_int_eq(constant("'\"'").value, 34);
    /* One plain char: a signed char's value. */
    ck_assert_int_eq(constant("'\\xff'").value, -1);
    ck_assert_int_eq(constant("'\\200'").value, -128);
    ck_assert_int_eq(constant("'\\x1ff'").value, -1); /* narrowed to the low byte */
    /* Several: bytes shifted in, most significant first, an int. */
    LiteralConstant ab = constant("'ab'");
    ck_assert_int_eq(ab.value, 97 * 256 + 98);
    ck_assert_int_eq(ab.count, 2);
    ck_assert_int_eq(constant("'\\xffa'").value, 0xfa - 0x100); /* one escape: \xffa */
    ck_assert_int_eq(constant("'\\377a'").value, 0xff * 256 + 97);
    ck_assert_int_eq(constant("'abcd'").value, 0x61626364);
    ck_assert_int_eq(constant("'\\377bcd'").value, (int32_t)0xff626364u);
    ck_assert_int_eq(constant("'abcde'").value, 0x62636465); /* truncated to 32 bits */
    /* Prefixed: the last character's value, not sign-extended. */
    ck_assert_int_eq(constant("L'\\xff'").value, 255);
    ck_assert_int_eq(constant("u'\\x263a'").value, 0x263a);
    ck_assert_int_eq(constant("U'\\x1F600'").value, 0x1f600);
    ck_assert_int_eq(constant("u8'a'").value, 97);
}
END_TEST

START_TEST(character_constant_problems)
{
    LiteralConstant c = constant("'\\q\\w'");
    ck_assert_uint_eq(c.problems, LITERAL_UNKNOWN_ESCAPE);
    ck_assert_int_eq(c.unknown_escape, 'q'); /* the first */
    ck_assert_int_eq(c.value, 'q' * 256 + 'w');
    c = constant("'\\x'");
    ck_assert_uint_eq(c.problems, LITERAL_EMPTY_HEX);
    ck_assert_int_eq(c.value, 0);
    LiteralConstant none;
    ck_assert(!literal_char_constant("''", 2, &none));
    ck_assert(!literal_char_constant("L''", 3, &none));
    ck_assert(!literal_char_constant("abc", 3, &none));
}
END_TEST

static Suite *literal_suite(void)
{
    Suite *s = suite_create("literal");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, plain_characters);
    tcase_add_test(tc, simple_escapes);
    tcase_add_test(tc, gnu_escape_e);
    tcase_add_test(tc, octal_escapes);
    tcase_add_test(tc, hex_escapes);
    tcase_add_test(tc, bad_escapes);
    tcase_add_test(tc, stops_at_end);
    tcase_add_test(tc, character_constants);
    tcase_add_test(tc, character_constant_problems);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(literal_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
