/* json.c — a small JSON reader for the module description libsgcc writes
 * (docs/module.schema.json), so that a program compiled at run time gets
 * the same sgrt_module_desc a generated header would give it.
 *
 * Reads the whole text into a tree of SgrtJson values allocated from one
 * arena (freed at once with the module).  Accepts RFC 8259 JSON; \u escapes
 * become UTF-8 (surrogate pairs included).  Depth is limited so that a
 * hostile document cannot exhaust the stack. */
#include <stdlib.h>
#include <string.h>

#include "sgrt_json.h"

enum { MAX_DEPTH = 64, ARENA_BLOCK = 16384 };

typedef struct ArenaBlock {
    struct ArenaBlock *next;
    size_t used, cap;
    _Alignas(max_align_t) unsigned char data[];
} ArenaBlock;

void *sgrt_arena_alloc(SgrtArena *arena, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    ArenaBlock *b = arena->head;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > ARENA_BLOCK ? size : ARENA_BLOCK;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->next = arena->head;
        b->used = 0;
        b->cap = cap;
        arena->head = b;
    }
    void *p = b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *sgrt_arena_strdup(SgrtArena *arena, const char *s)
{
    size_t len = strlen(s) + 1;
    char *copy = sgrt_arena_alloc(arena, len);
    if (copy)
        memcpy(copy, s, len);
    return copy;
}

void sgrt_arena_free(SgrtArena *arena)
{
    for (ArenaBlock *b = arena->head, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    arena->head = NULL;
}

typedef struct Reader {
    const char *p;
    SgrtArena *arena;
    int depth;
} Reader;

static void skip_space(Reader *r)
{
    while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
        r->p++;
}

static bool literal(Reader *r, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(r->p, word, n) != 0)
        return false;
    r->p += n;
    return true;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

static bool read_hex4(Reader *r, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int d = hex_digit(r->p[i]);
        if (d < 0)
            return false;
        v = v * 16 + (unsigned)d;
    }
    r->p += 4;
    *out = v;
    return true;
}

static char *put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        *o++ = (char)cp;
    } else if (cp < 0x800) {
        *o++ = (char)(0xC0 | cp >> 6);
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *o++ = (char)(0xE0 | cp >> 12);
        *o++ = (char)(0x80 | (cp >> 6 & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *o++ = (char)(0xF0 | cp >> 18);
        *o++ = (char)(0x80 | (cp >> 12 & 0x3F));
        *o++ = (char)(0x80 | (cp >> 6 & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    }
    return o;
}

/* One escape after the backslash; false on a malformed one. */
static bool read_escape(Reader *r, char **o)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *hit = *r->p ? strchr(from, *r->p) : NULL;
    if (hit) {
        *(*o)++ = to[hit - from];
        r->p++;
        return true;
    }
    unsigned cp = 0, low = 0;
    if (*r->p++ != 'u' || !read_hex4(r, &cp))
        return false;
    if (cp >= 0xD800 && cp < 0xDC00) {
        if (r->p[0] != '\\' || r->p[1] != 'u')
            return false;
        r->p += 2;
        if (!read_hex4(r, &low) || low < 0xDC00 || low >= 0xE000)
            return false;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    } else if (cp >= 0xDC00 && cp < 0xE000) {
        return false;
    }
    *o = put_utf8(*o, cp);
    return true;
}

/* A string after its opening quote; the result is at most as long as the
 * text (escapes only shrink). */
static char *read_string(Reader *r)
{
    const char *end = r->p;
    while (*end && *end != '"')
        end += *end == '\\' && end[1] ? 2 : 1;
    if (*end != '"')
        return NULL;
    char *out = sgrt_arena_alloc(r->arena, (size_t)(end - r->p) + 1), *o = out;
    if (!out)
        return NULL;
    while (r->p < end) {
        if ((unsigned char)*r->p < 0x20)
            return NULL;
        if (*r->p != '\\')
            *o++ = *r->p++;
        else if (r->p++, !read_escape(r, &o))
            return NULL;
    }
    *o = '\0';
    r->p = end + 1;
    return out;
}

static bool read_value(Reader *r, SgrtJson *v);

/* Items of an array or members of an object, into a growing heap array
 * copied to the arena at the end. */
static bool read_items(Reader *r, SgrtJson *v, bool object)
{
    char close = object ? '}' : ']';
    size_t cap = 8, count = 0;
    SgrtJson *items = malloc(cap * sizeof *items);
    bool ok = items != NULL;
    skip_space(r);
    if (ok && *r->p == close) {
        r->p++;
        goto done;
    }
    while (ok) {
        if (count == cap) {
            SgrtJson *grown = realloc(items, 2 * cap * sizeof *items);
            if (!(ok = grown != NULL))
                break;
            items = grown;
            cap *= 2;
        }
        SgrtJson *item = &items[count];
        memset(item, 0, sizeof *item);
        skip_space(r);
        if (object) {
            ok = *r->p++ == '"' && (item->key = read_string(r)) != NULL;
            skip_space(r);
            ok = ok && *r->p++ == ':';
        }
        ok = ok && read_value(r, item);
        count += ok;
        skip_space(r);
        if (ok && *r->p == close) {
            r->p++;
            break;
        }
        ok = ok && *r->p++ == ',';
    }
done:
    v->count = count;
    if (ok && count) {
        v->items = sgrt_arena_alloc(r->arena, count * sizeof *items);
        ok = v->items != NULL;
        if (ok)
            memcpy(v->items, items, count * sizeof *items);
    }
    free(items);
    return ok;
}

static bool read_value(Reader *r, SgrtJson *v)
{
    skip_space(r);
    char c = *r->p;
    if (c == '{' || c == '[') {
        if (++r->depth > MAX_DEPTH)
            return false;
        r->p++;
        v->kind = c == '{' ? SGRT_JSON_OBJECT : SGRT_JSON_ARRAY;
        bool ok = read_items(r, v, c == '{');
        r->depth--;
        return ok;
    }
    if (c == '"') {
        r->p++;
        v->kind = SGRT_JSON_STRING;
        return (v->string = read_string(r)) != NULL;
    }
    if (literal(r, "true") || literal(r, "false")) {
        v->kind = SGRT_JSON_BOOL;
        v->boolean = r->p[-1] == 'e' && r->p[-2] == 'u';
        return true;
    }
    if (literal(r, "null")) {
        v->kind = SGRT_JSON_NULL;
        return true;
    }
    char *end = NULL;
    v->number = strtod(r->p, &end);
    if (end == r->p || !(c == '-' || (c >= '0' && c <= '9')))
        return false;
    v->kind = SGRT_JSON_NUMBER;
    r->p = end;
    return true;
}

const SgrtJson *sgrt_json_parse(SgrtArena *arena, const char *text)
{
    Reader r = {text, arena, 0};
    SgrtJson *root = sgrt_arena_alloc(arena, sizeof *root);
    if (!root || !read_value(&r, root))
        return NULL;
    skip_space(&r);
    return *r.p == '\0' ? root : NULL;
}

const SgrtJson *sgrt_json_get(const SgrtJson *object, const char *key)
{
    if (!object || object->kind != SGRT_JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < object->count; i++)
        if (strcmp(object->items[i].key, key) == 0)
            return &object->items[i];
    return NULL;
}

const char *sgrt_json_string(const SgrtJson *value)
{
    return value && value->kind == SGRT_JSON_STRING ? value->string : NULL;
}

bool sgrt_json_true(const SgrtJson *value)
{
    return value && value->kind == SGRT_JSON_BOOL && value->boolean;
}
