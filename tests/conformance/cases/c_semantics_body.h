/* c_semantics_body.h — one C17 text compiled three times: by sgcc inside
 * c_semantics.sgc (run on the OpenCL devices and, through the CUDA output,
 * on the GPU) and by gcc in cases.c as the host reference.  Every result is
 * a value where C and C++ differ (issue 25 items 8, 11) or a user name a
 * target reserves (item 12); both outputs must compute what C17 computes.
 * Plain C17 only: no SGC additions, no headers. */
#ifndef C_SEMANTICS_BODY_H
#define C_SEMANTICS_BODY_H

#ifndef __SGC__ /* gcc warns about ++ on a bool, which is what is tested */
#pragma GCC diagnostic ignored "-Wbool-operation"
#endif

enum color { RED, GREEN, BLUE };
enum sign { NEG = -1, ZERO, POS };
typedef enum { LOW = 1, HIGH = 2 } level;

/* members named like words a target reserves */
struct pipe {
    int half;
    int template;
    int class;
};

union bits {
    int i;
    float f;
};

struct duo {
    int a, b;
};

struct outer { /* C puts `struct inner` at file scope, C++ inside outer */
    struct inner {
        int x;
    } in;
    int n;
};

/* user functions with the names of built-ins, with other meanings */
static int min(int a, int b) { return a > b ? a : b; }
static int max(int a, int b) { return a - b; }
static int half(int x) { return x / 2; }
static int dot(int a, int b) { return a * 10 + b; }
static int new(int this) { return this + 1; }
static int index(int v) { return v + 100; }
static int sgc_user(int x) { return x * 3; }
typedef int float4;

/* goto and switch past initialised declarations (valid C, not C++) */
static int jumps(int v)
{
    int r = 0;
    if (v > 0)
        goto positive;
    int twice = v * 2;
    r = twice;
positive:
    switch (v & 3) {
    case 0:
        r += 1;
        break;
    case 1:
        r += 10;
        int k = v + 5;
        r += k;
        break;
    case 2:
        k = 1;
        r += k * 1000;
        break;
    default:
        r -= 1;
        break;
    }
    return r;
}

#define C_SEMANTICS_COUNT 40

static void c_semantics(int *res, int v)
{
    int n = 0;
    /* sizeof: char constants and truth values are int in C (C17 6.4.4.4, 6.5.8-9, 6.5.13-14) */
    res[n++] = (int)sizeof('a');
    res[n++] = (int)sizeof(1 < 2);
    res[n++] = (int)sizeof(!v);
    res[n++] = (int)sizeof(v == 0);
    res[n++] = (int)sizeof(v && 1);
    res[n++] = (int)sizeof(v || 0);
    res[n++] = (int)sizeof(RED);
    res[n++] = (int)sizeof(v ? 'a' : 'b');
    res[n++] = (int)sizeof(v ? RED : GREEN);
    res[n++] = (int)sizeof((char)1 + (char)2);
    /* character constants in arithmetic */
    res[n++] = 'a' + v;
    res[n++] = '\xff';
    res[n++] = (v ? 'x' : 300) - v;
    /* ?: with mixed types: unsigned wins, so -1 becomes large */
    res[n++] = (v ? 2u : 1) - 2 > 5;
    res[n++] = (v < 0 ? (short)-2 : (unsigned char)200) < 0;
    /* enums: ints assigned, arithmetic, ++ */
    enum color c = 1;
    c = c + 1;
    c++;
    res[n++] = c;
    enum color c2 = RED;
    c2 += v & 3;
    res[n++] = c2;
    enum color wrap = (enum color)-1; /* compatible with unsigned int (GCC, Clang) */
    res[n++] = wrap > 0;
    enum sign s = NEG;
    res[n++] = s < 0;
    level lv = HIGH;
    res[n++] = lv * 3 + LOW;
    /* bool: ++ stores true, -- negates, promotions to int */
    _Bool b = 0;
    b++;
    res[n++] = b;
    b--;
    res[n++] = b;
    --b;
    res[n++] = b + b;
    res[n++] = (int)sizeof(b + 0);
    res[n++] = (_Bool)(v + 256);
    /* void * converts to any object pointer */
    int pair[2] = {5, 6};
    void *vp = pair;
    int *ip = vp;
    res[n++] = ip[1] + v;
    /* jumps past initialisers */
    res[n++] = jumps(v);
    res[n++] = jumps(v + 1);
    /* user names a target reserves */
    int pipe_count = min(v, 3) + max(v, 2);
    int half_value = half(v * 4);
    int class = dot(v, 2), template = new(v), this = index(v);
    float4 threadIdx = sgc_user(v);
    int length = 7, select = 8, y0 = 9, FLT_MAX = 10;
    struct pipe p = {half_value, class, template};
    res[n++] = pipe_count;
    res[n++] = p.half + p.template * 3 + p.class * 5;
    res[n++] = this + threadIdx;
    res[n++] = length * select + y0 * FLT_MAX;
    /* truth values and character constants as values */
    res[n++] = (v < 3) + (v == 0) * 2 + !v * 4;
    res[n++] = 'z' - 'a';
    /* compound literals and a union initialised through a later member */
    res[n++] = ((struct duo){v, 2}).b * 10 + ((struct duo){.b = v}).a;
    union bits ub = {.f = 1.0f};
    res[n++] = ub.i;
    /* a nested struct tag used outside, a string without room for its NUL */
    struct inner inn = {v};
    struct outer ou = {{2}, 3};
    char word[3] = "abc";
    res[n++] = inn.x + ou.in.x * 10 + ou.n * 100 + word[2] * 1000;
    while (n < C_SEMANTICS_COUNT)
        res[n++] = -1;
}

#endif
