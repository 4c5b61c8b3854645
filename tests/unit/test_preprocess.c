/* test_preprocess.c — unit tests of the preprocessor (compiler/pp/preprocess.c).
 *
 * Each test preprocesses a snippet (and, for #include, files written to a
 * temporary directory) and compares the expanded token spellings joined by
 * one space, selected line:col locations and the captured diagnostics with
 * expected values written from the C17 standard (6.10, the examples of
 * 6.10.3.5) and checked against GCC's behaviour. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pp/preprocess.h"

typedef struct Run {
    SourceManager sm;
    Diag diag;
    Arena arena;
    Preprocessor *pp;
    Token *tokens[512];
    int count;
    char out[8192];
    char diags[4096];
} Run;

static Run R;
static char tmpdir[PATH_MAX];

/* Diagnostics as "file:line:col: level: message", file only when it is not
 * the main file (basename). */
static void capture(void *ctx, DiagLevel level, SrcLoc loc, const char *message)
{
    Run *r = ctx;
    unsigned line, col;
    srcmgr_line_col(&r->sm, loc, &line, &col);
    const SourceFile *f = srcmgr_file(&r->sm, loc.file);
    const char *name = "";
    if (f && loc.file != 1) {
        name = strrchr(f->name, '/') ? strrchr(f->name, '/') + 1 : f->name;
    }
    size_t used = strlen(r->diags);
    snprintf(r->diags + used, sizeof r->diags - used, "%s%s%u:%u: %s: %s\n", name, *name ? ":" : "",
             line, col, level == DIAG_ERROR ? "error" : level == DIAG_WARNING ? "warning" : "note",
             message);
}

static void run_done(void)
{
    pp_free(R.pp);
    arena_free(&R.arena);
    srcmgr_free(&R.sm);
    R.pp = NULL;
}

static void write_file(const char *name, const char *text)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    mkdir(path, 0700);
    *slash = '/';
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Preprocesses `src` as <tmpdir>/main.sgc with options; returns the output. */
static const char *pp_opts(const char *src, const PPOptions *opt)
{
    if (R.pp)
        run_done();
    memset(&R, 0, sizeof R);
    srcmgr_init(&R.sm);
    diag_init(&R.diag, &R.sm, stderr);
    R.diag.capture = capture;
    R.diag.capture_ctx = &R;
    arena_init(&R.arena);
    char name[PATH_MAX + 16];
    snprintf(name, sizeof name, "%s/main.sgc", tmpdir);
    uint32_t id = srcmgr_add(&R.sm, name, src, strlen(src));
    R.pp = pp_new(&R.arena, &R.diag, id, opt);
    size_t used = 0;
    for (Token *t; (t = pp_next(R.pp))->kind != TK_EOF;) {
        if (R.count < 512)
            R.tokens[R.count++] = t;
        used += (size_t)snprintf(R.out + used, sizeof R.out - used, "%s%.*s", used ? " " : "",
                                 (int)t->len, t->text);
    }
    ck_assert_int_eq(pp_next(R.pp)->kind, TK_EOF); /* EOF again */
    return R.out;
}

static const char *pp(const char *src) { return pp_opts(src, NULL); }

static const char *loc_of(int n)
{
    static char buf[32];
    unsigned line, col;
    ck_assert_int_lt(n, R.count);
    srcmgr_line_col(&R.sm, R.tokens[n]->loc, &line, &col);
    snprintf(buf, sizeof buf, "%u:%u", line, col);
    return buf;
}

/* The value of an #if expression: "1" or "0" (or "" if neither group ran). */
static const char *if_value(const char *expr)
{
    static char src[1024];
    snprintf(src, sizeof src, "#define ONE 1\n#if %s\n1\n#else\n0\n#endif\n", expr);
    return pp(src);
}

static void setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/sgcc-pp-test-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    if (R.pp)
        run_done();
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
}

/* ---- macros ------------------------------------------------------------- */

START_TEST(object_like)
{
    ck_assert_str_eq(pp("#define N 16\n#define EMPTY\nint a[N]; x EMPTY y N"),
                     "int a [ 16 ] ; x y 16");
    ck_assert_str_eq(R.diags, "");
}
END_TEST

START_TEST(function_like)
{
    ck_assert_str_eq(pp("#define MAX(a, b) ((a) > (b) ? (a) : (b))\nMAX(x, y+1)"),
                     "( ( x ) > ( y + 1 ) ? ( x ) : ( y + 1 ) )");
    ck_assert_str_eq(pp("#define F(x) [x]\nF((a,b)) F() F( ( ) )"), "[ ( a , b ) ] [ ] [ ( ) ]");
    ck_assert_str_eq(pp("#define Z() zero\nZ() Z( )"), "zero zero");
}
END_TEST

START_TEST(name_without_parens_is_not_invoked)
{
    ck_assert_str_eq(pp("#define F(x) <x>\nint F; F\n(1) F"), "int F ; < 1 > F");
    ck_assert_str_eq(pp("#define F (x) x\nF"), "( x ) x"); /* space: object-like */
}
END_TEST

START_TEST(nested_expansion)
{
    ck_assert_str_eq(pp("#define A B+1\n#define B C*2\n#define C 3\nA"), "3 * 2 + 1");
    ck_assert_str_eq(pp("#define SQ(x) ((x)*(x))\n#define TWICE(x) SQ(x)+SQ(x)\nTWICE(SQ(2))"),
                     "( ( ( ( 2 ) * ( 2 ) ) ) * ( ( ( 2 ) * ( 2 ) ) ) ) + "
                     "( ( ( ( 2 ) * ( 2 ) ) ) * ( ( ( 2 ) * ( 2 ) ) ) )");
}
END_TEST

START_TEST(self_reference)
{
    ck_assert_str_eq(pp("#define foo foo\nfoo"), "foo");
    ck_assert_str_eq(pp("#define foo a foo b\nfoo"), "a foo b");
    ck_assert_str_eq(pp("#define a b\n#define b a\na b"), "a b");
    ck_assert_str_eq(pp("#define f(x) f(x)+x\nf(f(1))"), "f ( f ( 1 ) + 1 ) + f ( 1 ) + 1");
    ck_assert_str_eq(R.diags, "");
}
END_TEST

/* C17 6.10.3.5 EXAMPLE 3 */
START_TEST(standard_example_3)
{
    const char *defs = "#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n"
                       "#define g f\n#define z z[0]\n#define h g(~\n#define m(a) a(w)\n"
                       "#define w 0,1\n#define t(a) a\n#define p() int\n#define q(x) x\n"
                       "#define r(x,y) x ## y\n#define str(x) # x\n";
    char src[1024];
    snprintf(src, sizeof src, "%sf(y+1) + f(f(z)) %% t(t(g)(0) + t)(1);\n", defs);
    ck_assert_str_eq(pp(src), "f ( 2 * ( y + 1 ) ) + f ( 2 * ( f ( 2 * ( z [ 0 ] ) ) ) ) % "
                              "f ( 2 * ( 0 ) ) + t ( 1 ) ;");
    snprintf(src, sizeof src, "%sg(x+(3,4)-w) | h 5) & m\n(f)^m(m);\n", defs);
    ck_assert_str_eq(pp(src), "f ( 2 * ( 2 + ( 3 , 4 ) - 0 , 1 ) ) | f ( 2 * ( ~ 5 ) ) & "
                              "f ( 2 * ( 0 , 1 ) ) ^ m ( 0 , 1 ) ;");
    snprintf(src, sizeof src, "%sp() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };\n", defs);
    ck_assert_str_eq(pp(src), "int i [ ] = { 1 , 23 , 4 , 5 , } ;");
    snprintf(src, sizeof src, "%schar c[2][6] = { str(hello), str() };\n", defs);
    ck_assert_str_eq(pp(src), "char c [ 2 ] [ 6 ] = { \"hello\" , \"\" } ;");
    ck_assert_str_eq(R.diags, "");
}
END_TEST

/* C17 6.10.3.5 EXAMPLE 4 (the "@\n" of the original are stray characters
 * for sgcc, so that argument is ": x" here). */
START_TEST(standard_example_4)
{
    write_file("vers2.h", "int vers2;\n");
    const char *src =
        "#define str(s) # s\n#define xstr(s) str(s)\n"
        "#define debug(s, t) printf(\"x\" # s \"= %d, x\" # t \"= %s\", \\\n x ## s, x ## t)\n"
        "#define INCFILE(n) vers ## n\n#define glue(a, b) a ## b\n"
        "#define xglue(a, b) glue(a, b)\n#define HIGHLOW \"hello\"\n"
        "#define LOW LOW \", world\"\n"
        "debug(1, 2);\n"
        "fputs(str(strncmp(\"abc\\0d\", \"abc\", '\\4') // this goes away\n == 0) str(: x), s);\n"
        "#include xstr(INCFILE(2).h)\n"
        "glue(HIGH, LOW);\nxglue(HIGH, LOW)\n";
    ck_assert_str_eq(pp(src),
                     "printf ( \"x\" \"1\" \"= %d, x\" \"2\" \"= %s\" , x1 , x2 ) ; "
                     "fputs ( \"strncmp(\\\"abc\\\\0d\\\", \\\"abc\\\", '\\\\4') == 0\" \": x\" , s ) ; "
                     "int vers2 ; \"hello\" ; \"hello\" \", world\"");
    ck_assert_str_eq(R.diags, "");
}
END_TEST

/* C17 6.10.3.5 EXAMPLE 5 (placemarkers) and the hash_hash example of 6.10.3.3 */
START_TEST(placemarkers_and_hash_hash)
{
    ck_assert_str_eq(pp("#define t(x,y,z) x ## y ## z\n"
                        "int j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),\n"
                        " t(10,,), t(,11,), t(,,12), t(,,) };"),
                     "int j [ ] = { 123 , 45 , 67 , 89 , 10 , 11 , 12 , } ;");
    ck_assert_str_eq(pp("#define hash_hash # ## #\n#define mkstr(a) # a\n"
                        "#define in_between(a) mkstr(a)\n"
                        "#define join(c, d) in_between(c hash_hash d)\nchar p[] = join(x, y);"),
                     "char p [ ] = \"x ## y\" ;");
    ck_assert_str_eq(pp("#define CAT(a, b) a ## b\nCAT(x, 1) CAT(+, =) CAT(<<, =) CAT(1, .5e) CAT(,)"),
                     "x1 += <<= 1.5e");
    ck_assert_int_eq(R.tokens[1]->punct, P_ADD_ASSIGN);
    ck_assert_int_eq(R.tokens[2]->punct, P_SHL_ASSIGN);
}
END_TEST

/* C17 6.10.3.5 EXAMPLE 7 */
START_TEST(variadic_macros)
{
    ck_assert_str_eq(pp("#define debug(...) fprintf(stderr, __VA_ARGS__)\n"
                        "#define showlist(...) puts(#__VA_ARGS__)\n"
                        "#define report(test, ...) ((test)?puts(#test):\\\n printf(__VA_ARGS__))\n"
                        "debug(\"Flag\");\ndebug(\"X = %d\\n\", x);\n"
                        "showlist(The first, second, and third items.);\n"
                        "report(x>y, \"x is %d but y is %d\", x, y);"),
                     "fprintf ( stderr , \"Flag\" ) ; fprintf ( stderr , \"X = %d\\n\" , x ) ; "
                     "puts ( \"The first, second, and third items.\" ) ; "
                     "( ( x > y ) ? puts ( \"x>y\" ) : printf ( \"x is %d but y is %d\" , x , y ) ) ;");
    ck_assert_str_eq(pp("#define V(a, ...) [a|__VA_ARGS__]\nV(1) V(1,) V(1,2,3)"),
                     "[ 1 | ] [ 1 | ] [ 1 | 2 , 3 ]");
    ck_assert_str_eq(pp("#define N(args...) f(args)\nN(1, 2)"), "f ( 1 , 2 )");
}
END_TEST

START_TEST(va_opt)
{
    ck_assert_str_eq(pp("#define F(a, ...) f(a __VA_OPT__(,) __VA_ARGS__)\nF(1) F(1,2,3) F()"),
                     "f ( 1 ) f ( 1 , 2 , 3 ) f ( )");
    ck_assert_str_eq(pp("#define G(X, ...) X __VA_OPT__(- X ## __VA_ARGS__ -) end\nG(a) G(a,b) G(a,)"),
                     "a end a - ab - end a end");
    ck_assert_str_eq(R.diags, "");
}
END_TEST

START_TEST(stringize)
{
    ck_assert_str_eq(pp("#define S(x) #x\nS(  a   +  b  ) S(\"q\\\"\" '\\'') S(a\n b) S(f(1 ,2))"),
                     "\"a + b\" \"\\\"q\\\\\\\"\\\" '\\\\''\" \"a b\" \"f(1 ,2)\"");
    ck_assert_str_eq(pp("#define S(x) #x\n#define X(x) S(x)\n#define V 1 + 2\nS(V) X(V)"),
                     "\"V\" \"1 + 2\"");
}
END_TEST

START_TEST(invalid_paste)
{
    ck_assert_str_eq(pp("#define CAT(a, b) a ## b\nCAT(+, -) x"), "+ - x");
    ck_assert_str_eq(R.diags, "2:1: error: pasting \"+\" and \"-\" does not give a valid "
                              "preprocessing token\n");
    pp("#define CAT(a, b) a ## b\nCAT(/, /)");
    ck_assert_str_eq(R.diags, "2:1: error: pasting \"/\" and \"/\" does not give a valid "
                              "preprocessing token\n");
}
END_TEST

START_TEST(argument_count_errors)
{
    pp("#define F(a, b) a b\nx F(1) y");
    ck_assert_str_eq(R.diags, "2:3: error: macro 'F' requires 2 arguments, but only 1 given\n");
    ck_assert_str_eq(R.out, "x y");
    pp("#define F(a, b) a b\nF(1, 2, 3)");
    ck_assert_str_eq(R.diags, "2:1: error: macro 'F' passed 3 arguments, but takes just 2\n");
    pp("#define G(a, b, ...) a\nG(1)");
    ck_assert_str_eq(R.diags, "2:1: error: macro 'G' requires at least 2 arguments, but only 1 given\n");
    pp("#define Z() z\nZ(1)");
    ck_assert_str_eq(R.diags, "2:1: error: macro 'Z' passed 1 arguments, but takes just 0\n");
}
END_TEST

START_TEST(unterminated_argument_list)
{
    pp("#define F(a) a\nint F(1, (2)\n");
    ck_assert_str_eq(R.diags, "2:5: error: unterminated argument list invoking macro 'F'\n");
}
END_TEST

START_TEST(bad_definitions)
{
    pp("#define F(x) # y\nF(1)");
    ck_assert_str_eq(R.diags, "1:14: error: '#' is not followed by a macro parameter\n");
    ck_assert_str_eq(R.out, "F ( 1 )"); /* not defined */
    pp("#define A ## x\n#define B(x) x ##\n");
    ck_assert_str_eq(R.diags, "1:11: error: '##' cannot appear at either end of a macro expansion\n"
                              "2:16: error: '##' cannot appear at either end of a macro expansion\n");
    pp("#define 3 x\n#define\n#define defined 1\n#define F(a, a) a\n#define G(a b) a");
    ck_assert_str_eq(R.diags, "1:9: error: macro names must be identifiers\n"
                              "2:2: error: no macro name given in #define directive\n"
                              "3:9: error: 'defined' cannot be used as a macro name\n"
                              "4:14: error: duplicate macro parameter 'a'\n"
                              "5:13: error: expected ',' or ')' in macro parameter list\n");
    /* '#' in an object-like macro is an ordinary token */
    ck_assert_str_eq(pp("#define H # x\nH"), "# x");
}
END_TEST

START_TEST(redefinition)
{
    pp("#define A 1 + 2\n#define A 1 /* c */ +  2\n#define F(x) x\n#define F(x) x\n");
    ck_assert_str_eq(R.diags, ""); /* the same definition */
    ck_assert_str_eq(pp("#define A 1\n#define A 2\nA"), "2");
    ck_assert_str_eq(R.diags, "2:9: warning: 'A' macro redefined\n1:9: note: previous definition is here\n");
    pp("#define A 1+2\n#define A 1 + 2\n#define F(x) x\n#define F(y) y\n");
    ck_assert_int_eq(R.diag.warning_count, 2);
}
END_TEST

START_TEST(undef)
{
    ck_assert_str_eq(pp("#define A 1\nA\n#undef A\nA\n#undef NEVER\n"), "1 A");
    ck_assert_str_eq(R.diags, "");
}
END_TEST

START_TEST(multi_line_invocation)
{
    ck_assert_str_eq(pp("#define F(a, b) a + b\nF(1,\n\n  2)\n__LINE__ F(\n__LINE__, x)"),
                     "1 + 2 5 6 + x");
}
END_TEST

/* ---- locations ---------------------------------------------------------- */

START_TEST(expansion_locations)
{
    pp("#define ONE 1\n#define F(x) (x + ONE)\n  F(y)\n\tF(ONE)");
    ck_assert_str_eq(R.out, "( y + 1 ) ( 1 + 1 )");
    ck_assert_str_eq(loc_of(0), "3:3"); /* '(' from F's body: at the invocation */
    ck_assert_str_eq(loc_of(1), "3:5"); /* y: the argument as written */
    ck_assert_str_eq(loc_of(3), "3:3"); /* ONE in F's body: outermost site */
    ck_assert_str_eq(loc_of(6), "4:4"); /* ONE in the argument */
    ck_assert_str_eq(loc_of(8), "4:2");
    pp("#define A B\n#define B C C\nx A");
    ck_assert_str_eq(loc_of(1), "3:3");
    ck_assert_str_eq(loc_of(2), "3:3");
}
END_TEST

START_TEST(predefined_macros)
{
    ck_assert_str_eq(pp("__SGC__ __SGC_VERSION__ __STDC__ __STDC_VERSION__ NULL "
                        "CLK_LOCAL_MEM_FENCE CLK_GLOBAL_MEM_FENCE\n__LINE__"),
                     "1 \"0.1.0\" 1 201710L ( ( void * ) 0 ) 1 2 2");
    ck_assert_int_eq(R.tokens[1]->kind, TK_STRING);
    ck_assert_str_eq(loc_of(1), "1:9");
    char expect[PATH_MAX + 64];
    snprintf(expect, sizeof expect, "\"%s/main.sgc\"", tmpdir);
    ck_assert_str_eq(pp("__FILE__"), expect);
    ck_assert_str_eq(pp("__COUNTER__ __COUNTER__ __COUNTER__"), "0 1 2");
    ck_assert_str_eq(pp("#define L __LINE__\n\nL\n#line 100\n__LINE__ L\n"), "3 100 100");
    ck_assert_str_eq(pp("#line 7 \"other.sgc\"\n__LINE__ __FILE__"), "7 \"other.sgc\"");
}
END_TEST

START_TEST(command_line_defines)
{
    const char *defs[] = {"A", "B=2", "C=x y", "A", "B", "B=3", "F(x)=[x]", "C", "D"};
    bool undef[] = {false, false, false, true, true, false, false, true, false};
    PPOptions opt = {.defines = defs, .define_is_undef = undef, .define_count = 9};
    ck_assert_str_eq(pp_opts("A B C D F(1)", &opt), "A 3 C 1 [ 1 ]");
    ck_assert_str_eq(R.diags, "");
    const char *defs2[] = {"X=1", "X=2"};
    PPOptions opt2 = {.defines = defs2, .define_count = 2};
    ck_assert_str_eq(pp_opts("X", &opt2), "2");
    ck_assert_str_eq(R.diags, "<command line>:2:9: warning: 'X' macro redefined\n"
                              "<command line>:1:9: note: previous definition is here\n");
}
END_TEST

/* ---- #if ---------------------------------------------------------------- */

START_TEST(if_arithmetic)
{
    static const struct { const char *expr, *value; } cases[] = {
        {"1 + 2 * 3 == 7", "1"},
        {"(1 + 2) * 3 == 7", "0"},
        {"10 / 3 == 3 && 10 % 3 == 1", "1"},
        {"-7 / 2 == -3 && -7 % 2 == -1", "1"},
        {"-1 < 0", "1"},
        {"-1 < 0u", "0"},               /* usual arithmetic conversions */
        {"-1 > 0u", "1"},
        {"~0u == 18446744073709551615u", "1"},
        {"0xffffffffffffffff == -1", "1"},
        {"9223372036854775807 + 0 > 0", "1"},
        {"-9223372036854775807 - 1 < 0", "1"},
        {"1 << 62 > 0 && (1 << 63) < 0", "1"},
        {"-16 >> 2 == -4 && 16u >> 2 == 4", "1"},
        {"(0 ? 1 : -1) < 0", "1"},
        {"(1 ? -1 : 0u) > 0", "1"},     /* ?: converts both arms */
        {"2 || 1 / 0", "1"},            /* not evaluated: no error */
        {"0 && 1 / 0", "0"},
        {"1 ? 2 : 1 / 0", "1"},
        {"!0 == 1 && !5 == 0 && ~5 == -6 && -(-3) == 3 && +4 == 4", "1"},
        {"(5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6", "1"},
        {"1 < 2 == 1 && 2 <= 2 && 3 >= 4 == 0 && 1 != 2", "1"},
        {"0x10 == 16 && 010 == 8 && 0b101 == 5 && 10UL == 10 && 7ll == 7", "1"},
        {"'a' == 97 && '\\n' == 10 && '\\0' == 0 && '\\x41' == 65 && '\\101' == 65", "1"},
        {"'\\377' < 0 && '\\xff' == -1", "1"},   /* plain char is signed */
        {"'ab' == 24930", "1"},
        {"UNDEFINED_NAME == 0 && UNDEFINED_NAME + 1", "1"},
        {"ONE + ONE == 2", "1"},
        {"defined ONE && defined(ONE) && !defined NOPE && !defined(NOPE)", "1"},
        {"(2, 3) == 3", "1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_msg(strcmp(if_value(cases[i].expr), cases[i].value) == 0,
                      "#if %s gave '%s', expected %s", cases[i].expr, R.out, cases[i].value);
        ck_assert_msg(R.diag.error_count == 0, "#if %s: %s", cases[i].expr, R.diags);
    }
}
END_TEST

START_TEST(if_errors)
{
    if_value("1 / 0");
    ck_assert_str_eq(R.diags, "2:7: error: division by zero in #if\n");
    ck_assert_str_eq(R.out, "0");
    if_value("1 % (ONE - 1)");
    ck_assert_str_eq(R.diags, "2:7: error: division by zero in #if\n");
    if_value("1.5 > 1");
    ck_assert_str_eq(R.diags, "2:5: error: floating constant in preprocessor expression\n");
    if_value("1 2");
    ck_assert_str_eq(R.diags, "2:7: error: missing binary operator before token '2'\n");
    if_value("(1");
    ck_assert_str_eq(R.diags, "2:5: error: missing ')' in expression\n");
    if_value("\"s\"");
    ck_assert_str_eq(R.diags, "2:5: error: string literal in preprocessor expression\n");
    if_value("x = 1");
    ck_assert_str_eq(R.diags, "2:7: error: token '=' is not valid in preprocessor expressions\n");
    pp("#if\n#endif\n");
    ck_assert_str_eq(R.diags, "1:2: error: #if with no expression\n");
    if_value("99999999999999999999");
    ck_assert_str_eq(R.diags, "2:5: error: integer constant is too large for its type\n");
    if_value("18446744073709551615 > 0");
    ck_assert_str_eq(R.diags, "2:5: warning: integer constant is so large that it is unsigned\n");
    ck_assert_str_eq(R.out, "1");
}
END_TEST

START_TEST(conditional_groups)
{
    ck_assert_str_eq(pp("#if 0\na\n#elif 1\nb\n#elif 1\nc\n#else\nd\n#endif\ne"), "b e");
    ck_assert_str_eq(pp("#if 0\na\n#elif 0\nb\n#else\nd\n#endif"), "d");
    ck_assert_str_eq(pp("#if 1\na\n#else\nb\n#endif"), "a");
    ck_assert_str_eq(pp("#define X\n#ifdef X\na\n#endif\n#ifndef X\nb\n#endif\n#ifdef Y\nc\n#else\nd\n#endif"),
                     "a d");
    ck_assert_str_eq(pp("#define X\n#if 0\n#elifdef X\na\n#endif\n#if 0\n#elifndef X\nb\n#else\nc\n#endif"),
                     "a c");
    /* nested groups inside a skipped one, garbage directives ignored there */
    ck_assert_str_eq(pp("#if 0\n#if 1\na\n#else\nb\n#endif\n#foo bar\n#error no\n#else\nc\n#endif"),
                     "c");
    ck_assert_str_eq(pp("#if 1\n#if 0\na\n#elif 1\nb\n#endif\n#else\nc\n#endif"), "b");
    ck_assert_str_eq(pp("#define D defined(ONE)\n#define ONE\n#if D\nyes\n#endif"), "yes");
    write_file("here.h", "");
    ck_assert_str_eq(pp("#ifdef __has_include\n#if __has_include(\"here.h\") && !__has_include(<nope.h>)\nok\n#endif\n#endif"),
                     "ok");
    ck_assert_str_eq(R.diags, "");
}
END_TEST

START_TEST(unterminated_if)
{
    pp("a\n  #if 1\nb\n");
    ck_assert_str_eq(R.diags, "2:4: error: unterminated #if\n");
    ck_assert_str_eq(R.out, "a b");
    pp("#ifdef X\n#if 1\n#endif\n");
    ck_assert_str_eq(R.diags, "1:2: error: unterminated #ifdef\n");
    write_file("open.h", "#if 1\nin\n");
    pp("#include \"open.h\"\n#endif\nout");
    ck_assert_str_eq(R.diags, "open.h:1:2: error: unterminated #if\n2:2: error: #endif without #if\n");
    ck_assert_str_eq(R.out, "in out");
}
END_TEST

START_TEST(unbalanced_conditionals)
{
    pp("#else\n#endif\n#elif 1\n#if 1\n#else\n#else\n#elif 1\n#endif\n");
    ck_assert_str_eq(R.diags, "1:2: error: #else without #if\n"
                              "2:2: error: #endif without #if\n"
                              "3:2: error: #elif without #if\n"
                              "6:2: error: #else after #else\n"
                              "7:2: error: #elif after #else\n");
}
END_TEST

/* ---- #include ----------------------------------------------------------- */

START_TEST(include_with_guard)
{
    write_file("inc/g.h", "#ifndef G_H\n#define G_H\nint g;\n#endif\n");
    write_file("inc/h.h", "#include \"g.h\"\nint h;\n");
    char dir[PATH_MAX + 8];
    snprintf(dir, sizeof dir, "%s/inc", tmpdir);
    const char *dirs[] = {dir};
    PPOptions opt = {.include_dirs = dirs, .include_dir_count = 1};
    ck_assert_str_eq(pp_opts("#include <g.h>\n#include \"inc/g.h\"\n#include <h.h>\nx", &opt),
                     "int g ; int h ; x");
    ck_assert_str_eq(R.diags, "");
    ck_assert_str_eq(loc_of(0), "3:1");
    int count;
    const char **deps = pp_dependencies(R.pp, &count);
    ck_assert_int_eq(count, 3);
    ck_assert(strstr(deps[0], "/main.sgc") != NULL);
    ck_assert_str_eq(strrchr(deps[1], '/'), "/g.h");
    ck_assert_str_eq(strrchr(deps[2], '/'), "/h.h");
}
END_TEST

START_TEST(pragma_once)
{
    write_file("once.h", "#pragma once\nint once;\n");
    write_file("oper.h", "_Pragma(\"once\") int oper;\n");
    ck_assert_str_eq(pp("#include \"once.h\"\n#include \"once.h\"\n#include \"oper.h\"\n#include \"oper.h\"\n"),
                     "int once ; int oper ;");
    ck_assert_str_eq(R.diags, "");
    /* without a guard a header is read every time */
    write_file("plain.h", "p\n");
    ck_assert_str_eq(pp("#include \"plain.h\"\n#include \"plain.h\""), "p p");
}
END_TEST

START_TEST(missing_include)
{
    ck_assert_str_eq(pp("a\n  #include \"foo.h\"\nb\n#include <main.sgc>\n"), "a b");
    /* at the name, as GCC and Clang: 2 spaces + "#include " before the '"' */
    ck_assert_str_eq(R.diags, "2:12: error: 'foo.h' file not found\n"
                              "4:10: error: 'main.sgc' file not found\n"); /* <> skips the includer's dir */
    pp("#include foo\n#include\n");
    ck_assert_str_eq(R.diags, "1:2: error: #include expects \"FILENAME\" or <FILENAME>\n"
                              "2:2: error: #include expects \"FILENAME\" or <FILENAME>\n");
}
END_TEST

START_TEST(include_search_order)
{
    write_file("sub/a.h", "#include \"b.h\"\n");
    write_file("sub/b.h", "sub_b\n");
    write_file("other/b.h", "other_b\n");
    write_file("other/c.h", "other_c\n");
    char dir[PATH_MAX + 8];
    snprintf(dir, sizeof dir, "%s/other", tmpdir);
    const char *dirs[] = {dir};
    PPOptions opt = {.include_dirs = dirs, .include_dir_count = 1};
    ck_assert_str_eq(pp_opts("#include \"sub/a.h\"\n#include <b.h>\n#define H <c.h>\n#include H\n", &opt),
                     "sub_b other_b other_c");
    ck_assert_str_eq(R.diags, "");
}
END_TEST

START_TEST(recursive_include)
{
    write_file("self.h", "x\n#include \"self.h\"\n");
    pp("#include \"self.h\"\n");
    ck_assert_str_eq(R.diags, "self.h:2:1: error: #include nested depth 201 exceeds maximum of 200\n");
    ck_assert_int_eq(R.count, 199);
}
END_TEST

START_TEST(include_token_locations)
{
    write_file("defs.h", "#define TWO 2\nint in_header;\n");
    pp("#include \"defs.h\"\nint y = TWO;");
    ck_assert_str_eq(R.out, "int in_header ; int y = 2 ;");
    ck_assert_str_eq(loc_of(1), "2:5");
    const char *header = srcmgr_file(&R.sm, R.tokens[1]->loc.file)->name;
    ck_assert_str_eq(strrchr(header, '/'), "/defs.h");
    ck_assert_str_eq(loc_of(6), "2:9");
}
END_TEST

/* ---- other directives ------------------------------------------------ */

START_TEST(error_and_warning_directives)
{
    ck_assert_str_eq(pp("#error this is   bad\n#warning careful \"x\"\nok"), "ok");
    ck_assert_str_eq(R.diags, "1:2: error: #error this is bad\n"
                              "2:2: warning: #warning careful \"x\"\n");
    ck_assert_int_eq(R.diag.error_count, 1);
}
END_TEST

START_TEST(unknown_and_null_directives)
{
    ck_assert_str_eq(pp("#\n# /* c */\n#foo bar\n  # elseif\nok"), "ok");
    ck_assert_str_eq(R.diags, "3:2: error: invalid preprocessing directive #foo\n"
                              "4:5: error: invalid preprocessing directive #elseif\n");
}
END_TEST

START_TEST(pragmas)
{
    ck_assert_str_eq(pp("a\n  #  pragma OPENCL EXTENSION cl_khr_fp64 : enable\nb"),
                     "a #pragma OPENCL EXTENSION cl_khr_fp64 : enable b");
    ck_assert_int_eq(R.tokens[1]->kind, TK_OTHER);
    ck_assert_str_eq(loc_of(1), "2:3");
    ck_assert_str_eq(pp("#define P _Pragma(\"unroll \\\"4\\\"\") x\nP"), "#pragma unroll \"4\" x");
    ck_assert_int_eq(R.tokens[0]->kind, TK_OTHER);
    ck_assert_str_eq(loc_of(0), "2:1");
    ck_assert_str_eq(pp("#pragma\n"), "#pragma");
}
END_TEST

START_TEST(directive_only_at_line_start)
{
    /* a '#' produced by a macro does not start a directive */
    ck_assert_str_eq(pp("#define H #\n#define E\nH define X 1\nX E # x"), "# define X 1 X # x");
}
END_TEST

START_TEST(two_preprocessors_at_once)
{
    SourceManager sm;
    Diag diag;
    Arena arena;
    srcmgr_init(&sm);
    diag_init(&diag, &sm, stderr);
    arena_init(&arena);
    uint32_t a = srcmgr_add(&sm, "a.sgc", "#define X 1\nX X", 15);
    uint32_t b = srcmgr_add(&sm, "b.sgc", "#define X 2\nX X", 15);
    Preprocessor *pa = pp_new(&arena, &diag, a, NULL), *pb = pp_new(&arena, &diag, b, NULL);
    ck_assert(tok_is(pp_next(pa), "1"));
    ck_assert(tok_is(pp_next(pb), "2"));
    ck_assert(tok_is(pp_next(pa), "1"));
    ck_assert(tok_is(pp_next(pb), "2"));
    ck_assert_int_eq(pp_next(pa)->kind, TK_EOF);
    ck_assert_int_eq(pp_next(pb)->kind, TK_EOF);
    pp_free(pa);
    pp_free(pb);
    arena_free(&arena);
    srcmgr_free(&sm);
}
END_TEST

static Suite *preprocess_suite(void)
{
    Suite *s = suite_create("preprocess");
    TCase *macros = tcase_create("macros");
    tcase_add_checked_fixture(macros, setup, teardown);
    tcase_add_test(macros, object_like);
    tcase_add_test(macros, function_like);
    tcase_add_test(macros, name_without_parens_is_not_invoked);
    tcase_add_test(macros, nested_expansion);
    tcase_add_test(macros, self_reference);
    tcase_add_test(macros, standard_example_3);
    tcase_add_test(macros, standard_example_4);
    tcase_add_test(macros, placemarkers_and_hash_hash);
    tcase_add_test(macros, variadic_macros);
    tcase_add_test(macros, va_opt);
    tcase_add_test(macros, stringize);
    tcase_add_test(macros, invalid_paste);
    tcase_add_test(macros, argument_count_errors);
    tcase_add_test(macros, unterminated_argument_list);
    tcase_add_test(macros, bad_definitions);
    tcase_add_test(macros, redefinition);
    tcase_add_test(macros, undef);
    tcase_add_test(macros, multi_line_invocation);
    tcase_add_test(macros, expansion_locations);
    tcase_add_test(macros, predefined_macros);
    tcase_add_test(macros, command_line_defines);
    suite_add_tcase(s, macros);

    TCase *conds = tcase_create("conditionals");
    tcase_add_checked_fixture(conds, setup, teardown);
    tcase_add_test(conds, if_arithmetic);
    tcase_add_test(conds, if_errors);
    tcase_add_test(conds, conditional_groups);
    tcase_add_test(conds, unterminated_if);
    tcase_add_test(conds, unbalanced_conditionals);
    suite_add_tcase(s, conds);

    TCase *files = tcase_create("files");
    tcase_add_checked_fixture(files, setup, teardown);
    tcase_add_test(files, include_with_guard);
    tcase_add_test(files, pragma_once);
    tcase_add_test(files, missing_include);
    tcase_add_test(files, include_search_order);
    tcase_add_test(files, recursive_include);
    tcase_add_test(files, include_token_locations);
    suite_add_tcase(s, files);

    TCase *other = tcase_create("directives");
    tcase_add_checked_fixture(other, setup, teardown);
    tcase_add_test(other, error_and_warning_directives);
    tcase_add_test(other, unknown_and_null_directives);
    tcase_add_test(other, pragmas);
    tcase_add_test(other, directive_only_at_line_start);
    tcase_add_test(other, two_preprocessors_at_once);
    suite_add_tcase(s, other);
    return s;
}

int main(void)
{
    SRunner *runner = srunner_create(preprocess_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
