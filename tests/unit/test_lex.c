/* test_lex.c — unit tests of the scanner (compiler/lex/scan.l, lex_file()).
 *
 * Each test scans a snippet and compares the token spellings (joined by one
 * space), kinds, flags, line:col locations and the captured diagnostics with
 * values written out by hand from C17 6.4. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lex/token.h"

typedef struct Scan {
    SourceManager sm;
    Diag diag;
    Arena arena;
    uint32_t file;
    Token *tokens;
    char spelled[4096];
    char diags[4096];
} Scan;

static Scan S;

static void capture(void *ctx, DiagLevel level, SrcLoc loc, const char *message)
{
    Scan *s = ctx;
    unsigned line, col;
    srcmgr_line_col(&s->sm, loc, &line, &col);
    size_t used = strlen(s->diags);
    snprintf(s->diags + used, sizeof s->diags - used, "%u:%u: %s: %s\n", line, col,
             level == DIAG_ERROR ? "error" : level == DIAG_WARNING ? "warning" : "note", message);
}

static void scan_done(void)
{
    arena_free(&S.arena);
    srcmgr_free(&S.sm);
}

/* Scans src[0..size) and returns the spellings joined by single spaces. */
static const char *scan_n(const char *src, size_t size)
{
    if (S.sm.files)
        scan_done();
    memset(&S, 0, sizeof S);
    srcmgr_init(&S.sm);
    diag_init(&S.diag, &S.sm, stderr);
    S.diag.capture = capture;
    S.diag.capture_ctx = &S;
    arena_init(&S.arena);
    S.file = srcmgr_add(&S.sm, "test.sgc", src, size);
    const SourceFile *f = srcmgr_file(&S.sm, S.file);
    S.tokens = lex_file(&S.arena, &S.diag, S.file, f->text, f->size);
    size_t used = 0;
    for (Token *t = S.tokens; t->kind != TK_EOF; t = t->next)
        used += (size_t)snprintf(S.spelled + used, sizeof S.spelled - used, "%s%.*s",
                                 used ? " " : "", (int)t->len, t->text);
    return S.spelled;
}

static const char *scan(const char *src) { return scan_n(src, strlen(src)); }

static Token *nth(int n)
{
    Token *t = S.tokens;
    while (n-- > 0 && t->kind != TK_EOF)
        t = t->next;
    return t;
}

static const char *loc_of(int n)
{
    static char buf[32];
    unsigned line, col;
    srcmgr_line_col(&S.sm, nth(n)->loc, &line, &col);
    snprintf(buf, sizeof buf, "%u:%u", line, col);
    return buf;
}

START_TEST(identifiers_and_numbers)
{
    ck_assert_str_eq(scan("int x_1 = _y2+3;"), "int x_1 = _y2 + 3 ;");
    ck_assert_int_eq(nth(0)->kind, TK_IDENT);
    ck_assert_int_eq(nth(3)->kind, TK_IDENT);
    ck_assert_int_eq(nth(5)->kind, TK_PPNUMBER);
    ck_assert_str_eq(S.diags, "");
}
END_TEST

START_TEST(pp_numbers)
{
    ck_assert_str_eq(scan("0x1.4p+1f 1e+5 .5 1..2 12uLL 0b101 1.0e-3f 0xe+1 1p-2 9abc"),
                     "0x1.4p+1f 1e+5 .5 1..2 12uLL 0b101 1.0e-3f 0xe+1 1p-2 9abc");
    for (int i = 0; i < 10; i++)
        ck_assert_int_eq(nth(i)->kind, TK_PPNUMBER);
    /* a sign only continues a number after e/E/p/P */
    ck_assert_str_eq(scan("1+2 0x1f-1"), "1 + 2 0x1f - 1");
}
END_TEST

START_TEST(string_and_char_literals)
{
    ck_assert_str_eq(scan("u8\"a\" u\"b\" U\"c\" L\"d\" \"e\\\"f\" 'x' L'y' u8'z' '\\''"),
                     "u8\"a\" u\"b\" U\"c\" L\"d\" \"e\\\"f\" 'x' L'y' u8'z' '\\''");
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(nth(i)->kind, TK_STRING);
    for (int i = 5; i < 9; i++)
        ck_assert_int_eq(nth(i)->kind, TK_CHAR);
    /* a prefix-looking identifier not followed by a quote stays one */
    ck_assert_str_eq(scan("u8 L x"), "u8 L x");
    ck_assert_int_eq(nth(0)->kind, TK_IDENT);
}
END_TEST

START_TEST(multi_char_punctuators)
{
    static const struct { const char *text; int punct; } cases[] = {
#define X(name, spelling) {spelling, P_##name},
        PUNCTUATORS(X)
#undef X
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_str_eq(scan(cases[i].text), cases[i].text);
        ck_assert_int_eq(nth(0)->kind, TK_PUNCT);
        ck_assert_int_eq(nth(0)->punct, cases[i].punct);
        ck_assert_int_eq(nth(1)->kind, TK_EOF);
    }
    ck_assert_int_eq(PUNCT_END - PUNCT_FIRST - 1, 23); /* the table has 23 entries */
}
END_TEST

START_TEST(single_char_punctuators)
{
    const char *chars = "[](){}.&*+-~!/%<>^|?:;=,#";
    char src[64];
    size_t n = 0;
    for (const char *c = chars; *c; c++) {
        src[n++] = *c;
        src[n++] = ' ';
    }
    src[n] = '\0';
    scan(src);
    for (size_t i = 0; i < strlen(chars); i++) {
        ck_assert_int_eq(nth((int)i)->kind, TK_PUNCT);
        ck_assert_int_eq(nth((int)i)->punct, chars[i]);
    }
    /* maximal munch */
    ck_assert_str_eq(scan("a+++++b x->y <<= >>= ..."), "a ++ ++ + b x -> y <<= >>= ...");
    ck_assert_str_eq(scan(".. ."), ". . .");
}
END_TEST

START_TEST(digraphs)
{
    ck_assert_str_eq(scan("<: :> <% %> %: %:%:"), "<: :> <% %> %: %:%:");
    int expect[] = {'[', ']', '{', '}', '#', P_HASHHASH};
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(nth(i)->kind, TK_PUNCT);
        ck_assert_int_eq(nth(i)->punct, expect[i]);
    }
    ck_assert_int_eq(scan("#") && nth(0)->punct == '#', 1);
    scan("##");
    ck_assert_int_eq(nth(0)->punct, P_HASHHASH);
}
END_TEST

START_TEST(comments_and_spacing)
{
    ck_assert_str_eq(scan("a/* x\n y */b // c\n  d//e\n/**/f"), "a b d f");
    ck_assert(!nth(0)->has_space && nth(0)->at_bol);
    ck_assert(nth(1)->has_space && !nth(1)->at_bol); /* a block comment is one space */
    ck_assert(nth(2)->at_bol && nth(2)->has_space);
    ck_assert(nth(3)->at_bol);
    ck_assert_str_eq(loc_of(2), "3:3");
    ck_assert_str_eq(loc_of(3), "4:5");
    ck_assert(nth(4)->kind == TK_EOF && nth(4)->at_bol);
    ck_assert_str_eq(scan("a/b /*/ c */ d"), "a / b d");
}
END_TEST

START_TEST(locations_are_byte_offsets)
{
    scan("int\n\tx = 42;\n  \"s\"");
    ck_assert_str_eq(loc_of(0), "1:1");
    ck_assert_str_eq(loc_of(1), "2:2");
    ck_assert_str_eq(loc_of(3), "2:6");
    ck_assert_str_eq(loc_of(5), "3:3");
    ck_assert_uint_eq(nth(3)->loc.offset, 9);
    ck_assert_ptr_eq(nth(3)->text, srcmgr_file(&S.sm, S.file)->text + 9); /* no copy */
}
END_TEST

START_TEST(line_splices)
{
    ck_assert_str_eq(scan("ab\\\ncd + x\\\n\\\ny z"), "abcd + xy z");
    ck_assert_str_eq(loc_of(0), "1:1");
    ck_assert_str_eq(loc_of(1), "2:4");
    ck_assert_str_eq(loc_of(2), "2:6");
    ck_assert_str_eq(loc_of(3), "4:3");
    ck_assert_uint_eq(nth(0)->len, 4);
    /* an untouched token still points into the source */
    ck_assert_ptr_eq(nth(1)->text, srcmgr_file(&S.sm, S.file)->text + 7);
    /* a splice between tokens is not white space; CRLF splices too */
    ck_assert_str_eq(scan("a\\\r\n+b"), "a + b");
    ck_assert(!nth(1)->has_space);
    ck_assert_str_eq(loc_of(1), "2:1");
    /* a // comment continues over a splice */
    ck_assert_str_eq(scan("x // c \\\n still comment\ny"), "x y");
    ck_assert_str_eq(loc_of(1), "3:1");
    ck_assert_str_eq(scan("\"ab\\\ncd\""), "\"abcd\"");
    ck_assert_int_eq(nth(0)->kind, TK_STRING);
    ck_assert_str_eq(S.diags, "");
}
END_TEST

START_TEST(crlf_line_endings)
{
    ck_assert_str_eq(scan("a\r\nb\r\n"), "a b");
    ck_assert(nth(1)->at_bol);
    ck_assert_str_eq(loc_of(1), "2:1");
}
END_TEST

START_TEST(unterminated_comment)
{
    ck_assert_str_eq(scan("a\n  /* never\nclosed * x"), "a");
    ck_assert_str_eq(S.diags, "2:3: error: unterminated comment\n");
}
END_TEST

START_TEST(unterminated_string)
{
    ck_assert_str_eq(scan("x = \"abc\ny;"), "x = y ;");
    ck_assert_str_eq(S.diags, "1:5: error: unterminated string literal\n");
    ck_assert_str_eq(scan("\"abc\\"), "");
    ck_assert_str_eq(S.diags, "1:1: error: unterminated string literal\n");
}
END_TEST

START_TEST(unterminated_char)
{
    ck_assert_str_eq(scan("c = 'a;\nd"), "c = d");
    ck_assert_str_eq(S.diags, "1:5: error: unterminated character constant\n");
    ck_assert_str_eq(scan("u8'\n"), "");
    ck_assert_str_eq(S.diags, "1:1: error: unterminated character constant\n");
}
END_TEST

START_TEST(empty_char)
{
    ck_assert_str_eq(scan(" '' x"), "x");
    ck_assert_str_eq(S.diags, "1:2: error: empty character constant\n");
}
END_TEST

START_TEST(stray_characters)
{
    ck_assert_str_eq(scan("a @ b`c $"), "a @ b ` c $");
    ck_assert_str_eq(S.diags, "1:3: error: stray '@' in program\n"
                              "1:6: error: stray '`' in program\n"
                              "1:9: error: stray '$' in program\n");
    ck_assert_int_eq(nth(1)->kind, TK_OTHER);
    ck_assert_int_eq(nth(2)->kind, TK_IDENT);
}
END_TEST

START_TEST(stray_bytes)
{
    scan_n("x\0y \xc3\xa9 z\x01", 9);
    ck_assert_str_eq(S.diags, "1:2: error: stray '\\x00' in program\n"
                              "1:5: error: stray '\\xc3' in program\n"
                              "1:9: error: stray '\\x01' in program\n");
    ck_assert_int_eq(nth(0)->kind, TK_IDENT);
    ck_assert_int_eq(nth(2)->kind, TK_IDENT);
    ck_assert_int_eq(nth(2)->len, 1);
    ck_assert_int_eq(nth(4)->kind, TK_IDENT); /* z */
    ck_assert_int_eq(nth(6)->kind, TK_EOF);
    /* bytes inside literals and comments are fine */
    ck_assert_str_eq(scan("\"\xc3\xa9\" /* \xff @ */ '@'"), "\"\xc3\xa9\" '@'");
    ck_assert_str_eq(S.diags, "");
}
END_TEST

START_TEST(empty_and_eof)
{
    ck_assert_str_eq(scan(""), "");
    ck_assert_int_eq(nth(0)->kind, TK_EOF);
    ck_assert_str_eq(scan("  \n// only\n"), "");
    ck_assert_uint_eq(nth(0)->loc.offset, 11);
}
END_TEST

static Suite *lex_suite(void)
{
    Suite *s = suite_create("lex");
    TCase *tc = tcase_create("scanner");
    tcase_add_test(tc, identifiers_and_numbers);
    tcase_add_test(tc, pp_numbers);
    tcase_add_test(tc, string_and_char_literals);
    tcase_add_test(tc, multi_char_punctuators);
    tcase_add_test(tc, single_char_punctuators);
    tcase_add_test(tc, digraphs);
    tcase_add_test(tc, comments_and_spacing);
    tcase_add_test(tc, locations_are_byte_offsets);
    tcase_add_test(tc, line_splices);
    tcase_add_test(tc, crlf_line_endings);
    tcase_add_test(tc, unterminated_comment);
    tcase_add_test(tc, unterminated_string);
    tcase_add_test(tc, unterminated_char);
    tcase_add_test(tc, empty_char);
    tcase_add_test(tc, stray_characters);
    tcase_add_test(tc, stray_bytes);
    tcase_add_test(tc, empty_and_eof);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(lex_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    if (S.sm.files)
        scan_done();
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
