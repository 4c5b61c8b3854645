/* sema_types.c — Types of SGC: construction, the C17 specifier combinations,
 * declarator chains (ast.h: walked from the head towards DECL_NAME, wrapping
 * once per derivation), struct/union layout, enums, conversions' type rules
 * (promotions, usual arithmetic conversions) and Clang-style type names.
 *
 * Every Type is allocated in the unit's arena.  Qualified and typedef'd
 * types are copies that point back at their `origin`, so identity of
 * structs and enums is always decided on the origin. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "sema/sema_int.h"

/* ---- construction ------------------------------------------------------- */

Type *type_new(Sema *s, TypeKind kind, int size, int align)
{
    Type *ty = ARENA_NEW(s->arena, Type);
    ty->kind = kind;
    ty->size = size;
    ty->align = align;
    return ty;
}

/* Sizes of docs/REFERENCE.md "Types" (long and size_t are 64-bit on every target). */
static const int basic_sizes[TY_DOUBLE + 1] = {
    [TY_VOID] = -1, [TY_BOOL] = 1, [TY_CHAR] = 1, [TY_SCHAR] = 1, [TY_UCHAR] = 1,
    [TY_SHORT] = 2, [TY_USHORT] = 2, [TY_INT] = 4, [TY_UINT] = 4, [TY_LONG] = 8,
    [TY_ULONG] = 8, [TY_SIZE_T] = 8, [TY_FLOAT] = 4, [TY_DOUBLE] = 8,
};

void types_init(Sema *s)
{
    for (int k = 0; k <= TY_DOUBLE; k++) {
        int size = basic_sizes[k];
        s->basic[k] = type_new(s, (TypeKind)k, size, size > 0 ? size : 1);
    }
    s->t_err = type_new(s, TY_INT, 4, 4);
    s->t_void_ptr = type_ptr(s, s->basic[TY_VOID]);
}

Type *type_basic(Sema *s, TypeKind kind) { return s->basic[kind]; }

/* Pointer and qualified types are interned (issue 24's memory goal): each
 * `global const float *p` would otherwise make two new types, and each use of
 * an array (its decay) or of `&x` one.  A type is never changed once made, so
 * sharing it is sound; the key is the type it is made from and a tag of the
 * derivation and its qualifiers. */
typedef struct TypeEntry {
    struct TypeEntry *next;
    const Type *from;
    unsigned tag;
    Type *ty;
} TypeEntry;

enum { TAG_PTR = 1u << 8, TAG_QUALS = 2u << 8 };

static unsigned quals_tag(bool is_const, bool is_volatile, bool is_restrict, AddrSpace as)
{
    return (unsigned)is_const | (unsigned)is_volatile << 1 | (unsigned)is_restrict << 2 |
           (unsigned)as << 3;
}

static size_t type_hash(const Type *from, unsigned tag, size_t buckets)
{
    uint64_t h = ((uint64_t)(uintptr_t)from >> 3 ^ (uint64_t)tag << 40) * 0x9E3779B97F4A7C15u;
    return (size_t)(h >> 32) & (buckets - 1);
}

static void types_grow(Sema *s)
{
    size_t buckets = s->type_buckets ? s->type_buckets * 2 : 1024;
    TypeEntry **table = ARENA_NEW_ARRAY(s->arena, TypeEntry *, buckets);
    for (size_t i = 0; i < s->type_buckets; i++) {
        for (TypeEntry *e = s->types[i], *next; e; e = next) {
            next = e->next;
            size_t h = type_hash(e->from, e->tag, buckets);
            e->next = table[h];
            table[h] = e;
        }
    }
    s->types = table;
    s->type_buckets = buckets;
}

/* The interned type made from `from` by `tag`, or NULL. */
static Type *type_interned(Sema *s, const Type *from, unsigned tag)
{
    if (!s->type_buckets)
        return NULL;
    for (TypeEntry *e = s->types[type_hash(from, tag, s->type_buckets)]; e; e = e->next)
        if (e->from == from && e->tag == tag)
            return e->ty;
    return NULL;
}

static Type *type_intern(Sema *s, const Type *from, unsigned tag, Type *ty)
{
    if (s->type_count >= s->type_buckets)
        types_grow(s);
    TypeEntry *e = ARENA_NEW(s->arena, TypeEntry);
    size_t h = type_hash(from, tag, s->type_buckets);
    *e = (TypeEntry){s->types[h], from, tag, ty};
    s->types[h] = e;
    s->type_count++;
    return ty;
}

Type *type_copy(Sema *s, const Type *ty)
{
    Type *copy = ARENA_NEW(s->arena, Type);
    *copy = *ty;
    copy->origin = ty->origin ? ty->origin : (Type *)ty;
    return copy;
}

/* A new copy of ty with the qualifiers added.  A record, union, enum or
 * array copy is made anew each time: its original may be completed later,
 * and the copy takes what it has when made. */
static Type *type_qualified_copy(Sema *s, Type *ty, bool is_const, bool is_volatile, AddrSpace as)
{
    Type *copy = type_copy(s, ty);
    copy->is_const |= is_const;
    copy->is_volatile |= is_volatile;
    if (as != AS_NONE)
        copy->addr_space = as;
    return copy;
}

Type *type_with_quals(Sema *s, Type *ty, bool is_const, bool is_volatile, AddrSpace as)
{
    if (ty == s->t_err)
        return ty;
    if ((!is_const || ty->is_const) && (!is_volatile || ty->is_volatile) &&
        (as == AS_NONE || as == ty->addr_space))
        return ty;
    if (ty->kind > TY_DOUBLE && ty->kind != TY_PTR)
        return type_qualified_copy(s, ty, is_const, is_volatile, as);
    /* a scalar or a pointer: complete once made, so a copy can be shared */
    unsigned tag = TAG_QUALS | quals_tag(is_const, is_volatile, false, as);
    Type *known = type_interned(s, ty, tag);
    if (known)
        return known;
    return type_intern(s, ty, tag, type_qualified_copy(s, ty, is_const, is_volatile, as));
}

/* A pointer to `base`, with the pointer's own qualifiers (`* const p`). */
static Type *type_ptr_quals(Sema *s, Type *base, unsigned quals)
{
    Type *known = type_interned(s, base, TAG_PTR | quals);
    if (known)
        return known;
    Type *ty = type_new(s, TY_PTR, 8, 8);
    ty->base = base;
    ty->is_const = quals & 1;
    ty->is_volatile = quals >> 1 & 1;
    ty->is_restrict = quals >> 2 & 1;
    ty->addr_space = (AddrSpace)(quals >> 3);
    return type_intern(s, base, TAG_PTR | quals, ty);
}

Type *type_ptr(Sema *s, Type *base) { return type_ptr_quals(s, base, 0); }

/* Elements carry the array's address space (`local float tile[64]`). */
Type *type_array(Sema *s, Type *elem, int64_t len, Node *len_expr)
{
    int size = len >= 0 && elem->size >= 0 ? (int)(len * elem->size) : -1;
    Type *ty = type_new(s, TY_ARRAY, size, elem->align);
    ty->base = elem;
    ty->array_len = len;
    ty->array_len_expr = len_expr;
    ty->addr_space = elem->addr_space;
    return ty;
}

Type *type_group(Sema *s, GroupKind kind, Node *size_expr, int64_t size)
{
    Type *ty = type_new(s, TY_GROUP, 8, 8);
    ty->group = kind;
    ty->group_size_expr = size_expr;
    ty->group_size = size;
    return ty;
}

/* An array's qualifiers and address space belong to its elements: a member
 * array reached through a `global` or `const` struct decays to a pointer to
 * global (const) elements, although the member's own element type has none. */
Type *type_decay(Sema *s, Type *ty)
{
    if (ty->kind == TY_ARRAY)
        return type_ptr(s, type_with_quals(s, ty->base, ty->is_const, ty->is_volatile, ty->addr_space));
    if (ty->kind == TY_FUNC)
        return type_ptr(s, ty);
    return ty;
}

AddrSpace type_space(const Type *ty)
{
    return ty->addr_space == AS_NONE ? AS_PRIVATE : ty->addr_space;
}

bool type_has_spec_len(const Type *ty)
{
    for (; ty && ty->kind == TY_ARRAY; ty = ty->base)
        if (ty->array_len_expr && ty->array_len_expr->depends_on_spec_const)
            return true;
    return false;
}

/* ---- classification (sema.h) ------------------------------------------- */

bool type_is_integer(const Type *ty)
{
    return ty->kind >= TY_BOOL && (ty->kind <= TY_SIZE_T || ty->kind == TY_ENUM);
}

bool type_is_float(const Type *ty) { return ty->kind == TY_FLOAT || ty->kind == TY_DOUBLE; }
bool type_is_arith(const Type *ty) { return type_is_integer(ty) || type_is_float(ty); }
bool type_is_scalar(const Type *ty) { return type_is_arith(ty) || ty->kind == TY_PTR; }

bool type_is_unsigned(const Type *ty)
{
    switch (ty->kind) {
    case TY_BOOL: case TY_UCHAR: case TY_USHORT: case TY_UINT: case TY_ULONG: case TY_SIZE_T:
        return true;
    default:
        return false;
    }
}

const Type *type_unqualified(const Type *ty) { return ty->origin ? ty->origin : ty; }

int type_size(const Type *ty)
{
    const Type *u = type_unqualified(ty);
    return (u->kind == TY_STRUCT || u->kind == TY_UNION) ? u->size : ty->size;
}

bool type_is_complete(const Type *ty)
{
    const Type *u = type_unqualified(ty);
    if (u->kind == TY_STRUCT || u->kind == TY_UNION || u->kind == TY_ENUM)
        return u->is_complete;
    if (ty->kind == TY_ARRAY)
        return ty->array_len >= 0 && type_is_complete(ty->base);
    return ty->kind != TY_VOID && ty->kind != TY_FUNC;
}

/* Same type, ignoring top-level qualifiers; pointee qualifiers and address
 * spaces count. */
bool type_compatible(const Type *a, const Type *b)
{
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case TY_STRUCT: case TY_UNION: case TY_ENUM:
        return type_unqualified(a) == type_unqualified(b);
    case TY_PTR:
        return a->base->is_const == b->base->is_const &&
               a->base->is_volatile == b->base->is_volatile &&
               type_space(a->base) == type_space(b->base) && type_compatible(a->base, b->base);
    case TY_ARRAY:
        return (a->array_len < 0 || b->array_len < 0 || a->array_len == b->array_len) &&
               type_compatible(a->base, b->base);
    case TY_FUNC: {
        if (!type_compatible(a->base, b->base) || a->is_variadic != b->is_variadic)
            return false;
        const Param *p = a->params, *q = b->params;
        for (; p && q; p = p->next, q = q->next)
            if (!type_compatible(p->ty, q->ty))
                return false;
        return !p && !q;
    }
    case TY_GROUP:
        if (a->group != b->group)
            return false;
        if (a->group != GROUP_FIXED_SIZE_GROUP)
            return true;
        if (a->group_size && b->group_size)
            return a->group_size == b->group_size;
        /* spec-constant sizes: the same constant on both sides */
        return !a->group_size_expr || !b->group_size_expr ||
               a->group_size_expr->kind != ND_IDENT || b->group_size_expr->kind != ND_IDENT ||
               a->group_size_expr->sym == b->group_size_expr->sym;
    default:
        return true;
    }
}

/* ---- conversions -------------------------------------------------------- */

static int int_rank(TypeKind k)
{
    switch (k) {
    case TY_LONG: case TY_ULONG: case TY_SIZE_T: return 2;
    default: return 1;
    }
}

/* C17 6.7.2.2: an enum type is compatible with an integer type the
 * implementation picks.  gcc and clang, hence OpenCL C, pick unsigned int
 * unless an enumerator is negative, and the CUDA output declares enum
 * objects with that type (docs/REFERENCE.md), so arithmetic on an enum
 * object is unsigned there: sema must agree, or the casts sgcc writes from
 * its types (built-in arguments) change values.  Enumerators are int. */
TypeKind type_enum_compatible_kind(const Type *ty)
{
    return type_unqualified(ty)->enum_has_negative ? TY_INT : TY_UINT;
}

/* C17 6.3.1.1: everything narrower than int becomes int; an enum becomes
 * its compatible type (int or unsigned int, both of int's rank). */
Type *type_promote(Sema *s, Type *ty)
{
    switch (ty->kind) {
    case TY_BOOL: case TY_CHAR: case TY_SCHAR: case TY_UCHAR: case TY_SHORT: case TY_USHORT:
        return s->basic[TY_INT];
    case TY_ENUM:
        return s->basic[type_enum_compatible_kind(ty)];
    default:
        return ty;
    }
}

Type *type_to_unsigned(Sema *s, Type *ty)
{
    switch (ty->kind) {
    case TY_INT: return s->basic[TY_UINT];
    case TY_LONG: return s->basic[TY_ULONG];
    default: return ty;
    }
}

/* C17 6.3.1.8, the usual arithmetic conversions.  Results are the shared
 * unqualified basic types. */
Type *type_common_arith(Sema *s, Type *a, Type *b)
{
    if (a->kind == TY_DOUBLE || b->kind == TY_DOUBLE)
        return s->basic[TY_DOUBLE];
    if (a->kind == TY_FLOAT || b->kind == TY_FLOAT)
        return s->basic[TY_FLOAT];
    a = s->basic[type_promote(s, a)->kind];
    b = s->basic[type_promote(s, b)->kind];
    if (a->kind == b->kind)
        return a;
    bool ua = type_is_unsigned(a), ub = type_is_unsigned(b);
    int ra = int_rank(a->kind), rb = int_rank(b->kind);
    if (ua == ub) {
        if (ra != rb)
            return ra > rb ? a : b;
        return s->basic[TY_ULONG]; /* size_t meets ulong */
    }
    Type *u = ua ? a : b, *sg = ua ? b : a;
    int ru = ua ? ra : rb, rs = ua ? rb : ra;
    if (ru >= rs)
        return u;
    if (sg->size > u->size)
        return sg;
    return type_to_unsigned(s, sg);
}

/* ---- names for diagnostics (Clang's spelling: 'int *', 'int [4]') -------- */

static const char *basic_name(const Type *ty)
{
    if (type_kind_is_scalar(ty->kind))
        return scalar_types[ty->kind].spelling;
    switch (ty->kind) {
    case TY_ASYNC_BARRIER: return "async_barrier";
    case TY_ARRIVAL_TOKEN: return "arrival_token";
    default: return NULL;
    }
}

static const char *const space_names[] = {
    [AS_NONE] = "", [AS_PRIVATE] = "private ", [AS_GLOBAL] = "global ",
    [AS_LOCAL] = "local ", [AS_CONSTANT] = "constant ",
};

static void leaf_name(const Type *ty, char *out, size_t n)
{
    const Type *u = type_unqualified(ty);
    const char *kw = ty->kind == TY_STRUCT ? "struct" : ty->kind == TY_UNION ? "union" : "enum";
    if (ty->typedef_name)
        snprintf(out, n, "%s", ty->typedef_name);
    else if (basic_name(ty))
        snprintf(out, n, "%s", basic_name(ty));
    else if (ty->kind == TY_GROUP && ty->group == GROUP_FIXED_SIZE_GROUP && ty->group_size)
        snprintf(out, n, "fixed_size_group<%lld>", (long long)ty->group_size);
    else if (ty->kind == TY_GROUP && ty->group == GROUP_FIXED_SIZE_GROUP &&
             ty->group_size_expr && ty->group_size_expr->kind == ND_IDENT)
        snprintf(out, n, "fixed_size_group<%s>", ty->group_size_expr->name);
    else if (ty->kind == TY_GROUP)
        snprintf(out, n, "%s", group_kind_names[ty->group]);
    else
        snprintf(out, n, "%s %s", kw, u->tag ? u->tag : "(anonymous)");
}

static void name_with(const Type *ty, const char *inner, char *out, size_t n)
{
    char tmp[512];
    if (ty->typedef_name || (ty->kind != TY_PTR && ty->kind != TY_ARRAY && ty->kind != TY_FUNC)) {
        char leaf[256];
        leaf_name(ty, leaf, sizeof leaf);
        snprintf(out, n, "%s%s%s%s%s%s", ty->is_const ? "const " : "",
                 ty->is_volatile ? "volatile " : "", space_names[ty->addr_space], leaf,
                 *inner ? " " : "", inner);
        return;
    }
    switch (ty->kind) {
    case TY_PTR: {
        bool paren = ty->base->kind == TY_ARRAY || ty->base->kind == TY_FUNC;
        snprintf(tmp, sizeof tmp, "%s*%s%s%s%s%s", paren ? "(" : "", ty->is_const ? "const" : "",
                 ty->is_restrict ? "restrict" : "", (ty->is_const || ty->is_restrict) && *inner ? " " : "",
                 inner, paren ? ")" : "");
        break;
    }
    case TY_ARRAY:
        if (ty->array_len >= 0)
            snprintf(tmp, sizeof tmp, "%s[%lld]", inner, (long long)ty->array_len);
        else
            snprintf(tmp, sizeof tmp, "%s[]", inner);
        break;
    default: { /* TY_FUNC */
        char params[256] = "";
        size_t used = 0;
        for (const Param *p = ty->params; p; p = p->next) {
            char one[128];
            name_with(p->ty, "", one, sizeof one);
            used += (size_t)snprintf(params + used, sizeof params - used, "%s%s",
                                     p == ty->params ? "" : ", ", one);
            if (used >= sizeof params)
                break;
        }
        if (!ty->params)
            snprintf(params, sizeof params, "void");
        snprintf(tmp, sizeof tmp, "%s(%s)", inner, params);
        break;
    }
    }
    name_with(ty->base, tmp, out, n);
}

const char *type_name(const Type *ty, char *buf, size_t size)
{
    name_with(ty, "", buf, size);
    return buf;
}

/* ---- specifiers --------------------------------------------------------- */

#define B(bit) (1u << TS_##bit)

/* Every valid combination of basic type-specifier keywords (C17 6.7.2p2
 * plus the OpenCL names); `long long` has TS_LONG and TS_LONG2. */
static const struct { unsigned bits; TypeKind kind; } spec_combos[] = {
    {B(VOID), TY_VOID}, {B(BOOL), TY_BOOL},
    {B(CHAR), TY_CHAR}, {B(SIGNED) | B(CHAR), TY_SCHAR},
    {B(UNSIGNED) | B(CHAR), TY_UCHAR}, {B(UCHAR), TY_UCHAR},
    {B(SHORT), TY_SHORT}, {B(SIGNED) | B(SHORT), TY_SHORT}, {B(SHORT) | B(INT), TY_SHORT},
    {B(SIGNED) | B(SHORT) | B(INT), TY_SHORT},
    {B(UNSIGNED) | B(SHORT), TY_USHORT}, {B(UNSIGNED) | B(SHORT) | B(INT), TY_USHORT},
    {B(USHORT), TY_USHORT},
    {B(INT), TY_INT}, {B(SIGNED), TY_INT}, {B(SIGNED) | B(INT), TY_INT},
    {B(UNSIGNED), TY_UINT}, {B(UNSIGNED) | B(INT), TY_UINT}, {B(UINT), TY_UINT},
    {B(LONG), TY_LONG}, {B(SIGNED) | B(LONG), TY_LONG}, {B(LONG) | B(INT), TY_LONG},
    {B(SIGNED) | B(LONG) | B(INT), TY_LONG}, {B(LONG) | B(LONG2), TY_LONG},
    {B(SIGNED) | B(LONG) | B(LONG2), TY_LONG}, {B(LONG) | B(LONG2) | B(INT), TY_LONG},
    {B(SIGNED) | B(LONG) | B(LONG2) | B(INT), TY_LONG},
    {B(UNSIGNED) | B(LONG), TY_ULONG}, {B(UNSIGNED) | B(LONG) | B(INT), TY_ULONG},
    {B(UNSIGNED) | B(LONG) | B(LONG2), TY_ULONG},
    {B(UNSIGNED) | B(LONG) | B(LONG2) | B(INT), TY_ULONG}, {B(ULONG), TY_ULONG},
    {B(SIZE_T), TY_SIZE_T}, {B(FLOAT), TY_FLOAT}, {B(DOUBLE), TY_DOUBLE},
};

static Type *record_type(Sema *s, Node *spec);

/* fixed_size_group<N>: N is a power of two no larger than the largest
 * sub-group any backend supports, or a spec constant (checked when the
 * device program is built). Returns the folded N, 0 when symbolic. */
int64_t sema_group_size(Sema *s, Node *expr)
{
    int64_t n;
    if (!sema_int_const(s, expr, &n, "fixed_size_group size"))
        return 1;
    if (expr->depends_on_spec_const)
        return 0;
    int limit = s->opt->max_sub_group_size > 0 ? s->opt->max_sub_group_size : 32;
    /* A size some target cannot run is recorded on the function (its
     * callers inherit it, sema_flow.c): such a target leaves them out
     * (EmitHooks.unsupported) rather than failing the whole unit.  Outside
     * a function there is nothing to leave out, so the narrowest target's
     * limit applies (CUDA's warp). */
    int narrowest = s->opt->narrowest_sub_group_size;
    if (n > 0 && !(n & (n - 1)) && n <= limit && s->func) {
        if (n > s->func->widest_fixed_group)
            s->func->widest_fixed_group = n;
    } else if (narrowest > 0 && limit > narrowest) {
        limit = narrowest;
    }
    if (n <= 0 || (n & (n - 1)) != 0) {
        diag_error(s->diag, expr->loc, "fixed_size_group size %lld is not a power of two", (long long)n);
        return 1;
    }
    if (n > limit) {
        diag_error(s->diag, expr->loc,
                   "fixed_size_group size %lld is larger than the maximum sub-group size %d",
                   (long long)n, limit);
        return 1;
    }
    return n;
}

static Type *basic_from_bits(Sema *s, DeclSpecs *ds)
{
    unsigned bits = ds->type_spec_bits;
    if (bits & B(LONG2))
        bits |= B(LONG);
    if (bits & B(COMPLEX)) {
        diag_error(s->diag, ds->loc, "_Complex types are not supported");
        return s->t_err;
    }
    if (bits & B(ATOMIC)) {
        diag_error(s->diag, ds->loc, "_Atomic types are not supported");
        return s->t_err;
    }
    if ((bits & B(DOUBLE)) && (bits & B(LONG))) {
        diag_error(s->diag, ds->loc, "'long double' is not supported");
        return s->t_err;
    }
    for (size_t i = 0; i < sizeof spec_combos / sizeof spec_combos[0]; i++)
        if (spec_combos[i].bits == bits)
            return s->basic[spec_combos[i].kind];
    diag_error(s->diag, ds->loc, "invalid combination of type specifiers");
    return s->t_err;
}

static Type *specs_base(Sema *s, DeclSpecs *ds)
{
    if (ds->typedef_name) {
        Symbol *sym = sema_lookup(s, ds->typedef_name);
        if (!sym || sym->kind != SYM_TYPEDEF) {
            diag_error(s->diag, ds->loc, "unknown type name '%s'", ds->typedef_name);
            return s->t_err;
        }
        return sym->ty;
    }
    if (ds->record)
        return record_type(s, ds->record);
    if (ds->is_group) {
        int64_t n = 0;
        if (ds->group == GROUP_FIXED_SIZE_GROUP && ds->group_size_expr)
            n = sema_group_size(s, ds->group_size_expr);
        return type_group(s, ds->group, ds->group_size_expr, n);
    }
    if (ds->is_async_barrier)
        return type_new(s, TY_ASYNC_BARRIER, 8, 8);
    if (ds->is_arrival_token)
        return type_new(s, TY_ARRIVAL_TOKEN, 8, 8);
    if (ds->type_spec_bits == 0) {
        if (ds->storage == SC_AUTO)
            return NULL;
        diag_error(s->diag, ds->loc,
                   "type specifier missing, defaults to 'int'; ISO C99 and later do not support implicit int");
        return s->basic[TY_INT];
    }
    return basic_from_bits(s, ds);
}

Type *sema_declspecs(Sema *s, DeclSpecs *ds)
{
    if (ds->resolved)
        return ds->resolved;
    Type *ty = specs_base(s, ds);
    if (!ty)
        return NULL;
    if (ty->kind == TY_DOUBLE)
        s->tu->uses_fp64 = true;
    if (ds->alignas_expr) {
        int64_t a;
        if (ds->alignas_expr->kind == ND_ALIGNOF)
            sema_expr(s, ds->alignas_expr);
        else if (sema_int_const(s, ds->alignas_expr, &a, "alignment") && (a <= 0 || (a & (a - 1))))
            diag_error(s->diag, ds->alignas_expr->loc, "requested alignment is not a power of 2");
    }
    ty = type_with_quals(s, ty, ds->is_const, ds->is_volatile, ds->addr_space);
    ds->resolved = ty;
    return ty;
}

/* ---- declarators -------------------------------------------------------- */

static int64_t array_length(Sema *s, Declarator *d)
{
    Node *e = d->array_len;
    if (!e)
        return -1;
    if (e->kind == ND_NULL_STMT) {
        diag_error(s->diag, e->loc, "variable length arrays are not supported");
        return 1;
    }
    Type *ty = sema_expr(s, e);
    if (sema_is_err(s, ty))
        return 1;
    if (!type_is_integer(ty)) {
        diag_error(s->diag, e->loc, "size of array has non-integer type '%s'", fmt_type(s, ty));
        return 1;
    }
    if (!e->is_const_expr) {
        diag_error(s->diag, e->loc, "variable length arrays are not supported");
        return 1;
    }
    if (e->const_value <= 0 && !e->depends_on_spec_const) {
        diag_error(s->diag, e->loc, "array size must be greater than zero");
        return 1;
    }
    return e->const_value > 0 ? e->const_value : 1;
}

/* The parameters of a DECL_FUNC.  `f()` means `f(void)`, as in OpenCL C;
 * `(void)` is one unnamed void parameter. */
static void func_params(Sema *s, Type *fn, Declarator *d)
{
    Param head = {0}, *tail = &head;
    if (d->is_variadic)
        diag_error(s->diag, d->loc, "variadic functions are not supported");
    for (Node *p = d->params.head; p; p = p->next) {
        if (!p->decl_specs) {
            diag_error(s->diag, p->loc, "K&R-style parameter lists are not supported");
            break;
        }
        if (p->decl_specs->is_spec_const)
            diag_error(s->diag, p->decl_specs->loc,
                       "spec constants must be declared at file scope, not as parameters");
        Type *ty = sema_declspecs(s, p->decl_specs);
        if (!ty) {
            diag_error(s->diag, p->loc, "'auto' not allowed in function prototype");
            ty = s->t_err;
        }
        if (p->declarator)
            ty = sema_declarator(s, ty, p->declarator, true);
        const Declarator *name = ast_declarator_name(p->declarator);
        if (ty->kind == TY_VOID && !name && d->params.count == 1 && !ty->is_const)
            break; /* (void) */
        if (ty->kind == TY_VOID) {
            diag_error(s->diag, p->loc, "parameter has incomplete type 'void'");
            ty = s->t_err;
        }
        if (ty->kind == TY_ARRAY || ty->kind == TY_FUNC)
            ty = type_decay(s, ty);
        p->ty = ty;
        Param *param = ARENA_NEW(s->arena, Param);
        param->name = name ? name->name : NULL;
        param->ty = ty;
        param->loc = p->loc;
        tail->next = param;
        tail = param;
    }
    fn->params = head.next;
    fn->has_prototype = true;
}

/* Whether `len` elements of `elem` exceed TYPE_MAX_OBJECT_SIZE. */
static bool array_too_large(const Type *elem, int64_t len)
{
    int size = type_size(elem);
    return len > 0 && size > 0 && len > TYPE_MAX_OBJECT_SIZE / size;
}

static bool is_error_array(const Sema *s, const Type *ty)
{
    if (ty->kind != TY_ARRAY)
        return false;
    while (ty->kind == TY_ARRAY)
        ty = ty->base;
    return ty == s->t_err;
}

/* An array too large for an object: reported at the dimension that passes
 * the limit; the result is an array of the error type in the elements'
 * address space, which the outer dimensions keep as it is (derive) and the
 * declaration does not report again. */
static Type *too_large_array(Sema *s, Type *elem, int64_t len, Declarator *p)
{
    diag_error(s->diag, p->loc, "array is too large: %lld elements of %d bytes exceed the "
               "object size limit of %d bytes", (long long)len, type_size(elem),
               TYPE_MAX_OBJECT_SIZE);
    Type *err = type_array(s, s->t_err, 1, p->array_len);
    err->addr_space = elem->addr_space;
    return err;
}

static Type *derive(Sema *s, Type *ty, Declarator *p)
{
    switch (p->kind) {
    case DECL_PTR: {
        if (ty->kind == TY_GROUP) {
            diag_error(s->diag, p->loc, "group value cannot escape the scope where it was created");
            return s->t_err;
        }
        return type_ptr_quals(s, ty, quals_tag(p->is_const, p->is_volatile, p->is_restrict,
                                               p->addr_space));
    }
    case DECL_ARRAY: {
        int64_t len = array_length(s, p);
        if (is_error_array(s, ty))
            return ty; /* too large already (too_large_array) */
        if (ty->kind == TY_FUNC) {
            diag_error(s->diag, p->loc, "array of functions is not allowed");
            return s->t_err;
        }
        if (ty != s->t_err && !type_is_complete(ty)) {
            diag_error(s->diag, p->loc, "array has incomplete element type '%s'", fmt_type(s, ty));
            return s->t_err;
        }
        if (ty->kind == TY_GROUP) {
            diag_error(s->diag, p->loc, "group value cannot escape the scope where it was created");
            return s->t_err;
        }
        if (array_too_large(ty, len))
            return too_large_array(s, ty, len, p);
        return type_array(s, ty, len, p->array_len);
    }
    case DECL_FUNC: {
        if (ty->kind == TY_ARRAY || ty->kind == TY_FUNC) {
            diag_error(s->diag, p->loc, "function cannot return %s type '%s'",
                       ty->kind == TY_ARRAY ? "array" : "function", fmt_type(s, ty));
            ty = s->t_err;
        }
        Type *fn = type_new(s, TY_FUNC, -1, 1);
        fn->base = ty;
        sema_push_scope(s); /* prototype scope: tags declared in parameters */
        func_params(s, fn, p);
        sema_pop_scope(s);
        return fn;
    }
    default:
        return ty;
    }
}

Type *sema_declarator(Sema *s, Type *base, Declarator *d, bool is_param)
{
    (void)is_param;
    Type *ty = base;
    for (Declarator *p = d; p && p->kind != DECL_NAME; p = p->inner)
        ty = derive(s, ty, p);
    return ty;
}

Type *sema_type_name(Sema *s, Node *tn)
{
    if (tn->ty)
        return tn->ty;
    Type *ty = sema_declspecs(s, tn->decl_specs);
    if (!ty) {
        diag_error(s->diag, tn->loc, "'auto' not allowed here");
        ty = s->t_err;
    }
    if (tn->declarator)
        ty = sema_declarator(s, ty, tn->declarator, false);
    tn->ty = ty;
    return ty;
}

/* ---- structs, unions, enums --------------------------------------------- */

static const Member *find_member_in(const Type *rec, const char *name)
{
    for (const Member *m = type_unqualified(rec)->members; m; m = m->next) {
        if (m->name && strcmp(m->name, name) == 0)
            return m;
        if (!m->name && find_member_in(m->ty, name))
            return m;
    }
    return NULL;
}

static bool member_type_ok(Sema *s, Type *ty, SrcLoc loc, const char *name)
{
    if (ty == s->t_err)
        return false;
    if (ty->kind == TY_ARRAY && ty->array_len < 0) {
        diag_error(s->diag, loc, "flexible array members are not supported");
        return false;
    }
    if (ty->kind == TY_FUNC) {
        diag_error(s->diag, loc, "field '%s' declared as a function", name ? name : "");
        return false;
    }
    if (!type_is_complete(ty)) {
        diag_error(s->diag, loc, "field has incomplete type '%s'", fmt_type(s, ty));
        return false;
    }
    if (ty->kind == TY_GROUP) {
        diag_error(s->diag, loc, "group value cannot escape the scope where it was created");
        return false;
    }
    if (ty->kind == TY_ASYNC_BARRIER) {
        diag_error(s->diag, loc, "async_barrier cannot be a member of a struct or union");
        return false;
    }
    if (type_has_spec_len(ty)) {
        diag_error(s->diag, loc, "array size depending on a spec constant is only allowed for "
                                 "local or private arrays inside functions");
        return false;
    }
    return true;
}

static Member *add_member(Sema *s, Type *rec, Member ***tail, const char *name, Type *ty,
                          SrcLoc loc)
{
    if (name && find_member_in(rec, name)) {
        diag_error(s->diag, loc, "duplicate member '%s'", name);
        return NULL;
    }
    Member *m = ARENA_NEW(s->arena, Member);
    m->name = name;
    m->ty = ty;
    m->loc = loc;
    int align = ty->align > 0 ? ty->align : 1;
    int size = type_size(ty);
    int64_t start = rec->kind == TY_UNION ? 0 : ((int64_t)rec->size + align - 1) / align * align;
    if (start + size > TYPE_MAX_OBJECT_SIZE - align) { /* room for the tail padding too */
        diag_error(s->diag, loc, "%s is too large: this member takes it past the object size "
                   "limit of %d bytes", rec->kind == TY_UNION ? "union" : "struct",
                   TYPE_MAX_OBJECT_SIZE);
        return NULL;
    }
    if (rec->kind == TY_UNION) {
        m->offset = 0;
        if (size > rec->size)
            rec->size = size;
    } else {
        m->offset = (rec->size + align - 1) / align * align;
        rec->size = m->offset + size;
    }
    if (align > rec->align)
        rec->align = align;
    **tail = m;
    *tail = &m->next;
    return m;
}

/* Whether a member declaration's specifiers hold a struct or union body. */
static bool specs_define_record(const DeclSpecs *ds)
{
    return ds->record && ds->record->kind == ND_RECORD_SPEC && ds->record->has_body;
}

static void layout_record(Sema *s, Type *rec, Node *spec)
{
    Member **tail = &rec->members;
    rec->size = 0;
    rec->align = 1;
    for (Node *d = spec->items.head; d; d = d->next) {
        if (d->kind == ND_STATIC_ASSERT) {
            sema_stmt(s, d);
            continue;
        }
        Type *base = sema_declspecs(s, d->decl_specs);
        if (!base) {
            diag_error(s->diag, d->loc, "'auto' not allowed in struct member declaration");
            continue;
        }
        if (d->items.count == 0) { /* anonymous struct/union member */
            if (member_type_ok(s, base, d->loc, NULL) &&
                (base->kind == TY_STRUCT || base->kind == TY_UNION)) {
                Member *added = add_member(s, rec, &tail, NULL, base, d->loc);
                if (added)
                    added->defines_record = specs_define_record(d->decl_specs);
            }
            continue;
        }
        for (Node *m = d->items.head; m; m = m->next) {
            const Declarator *nd = ast_declarator_name(m->declarator);
            if (m->lhs) {
                diag_error(s->diag, m->loc, "bit-fields are not supported");
                continue;
            }
            Type *ty = sema_declarator(s, base, m->declarator, false);
            m->ty = ty;
            Member *added = NULL;
            if (member_type_ok(s, ty, m->loc, nd ? nd->name : NULL))
                added = add_member(s, rec, &tail, nd ? nd->name : NULL, ty, m->loc);
            if (added)
                added->defines_record = specs_define_record(d->decl_specs);
        }
    }
    rec->size = (rec->size + rec->align - 1) / rec->align * rec->align;
    rec->is_complete = true;
}

static void enumerators(Sema *s, Type *ty, Node *spec)
{
    int64_t next = 0;
    for (Node *e = spec->items.head; e; e = e->next) {
        int64_t value = next;
        if (e->lhs && sema_int_const(s, e->lhs, &value, "enumerator value") &&
            e->lhs->depends_on_spec_const) {
            diag_error(s->diag, e->lhs->loc, "enumerator value cannot depend on a spec constant");
            value = next;
        }
        Symbol *sym = sema_new_symbol(s, SYM_ENUM_CONST, e->name, s->basic[TY_INT], e->loc);
        sym->enum_value = value;
        e->sym = sym;
        e->const_value = value;
        e->is_const_expr = true;
        ty->enum_has_negative |= value < 0;
        next = value + 1;
    }
    ty->is_complete = true;
}

static Type *new_record(Sema *s, TypeKind kind, const char *tag)
{
    Type *ty = type_new(s, kind, kind == TY_ENUM ? 4 : -1, 4);
    ty->tag = tag;
    if (tag)
        sema_declare_tag(s, tag, ty);
    return ty;
}

static Type *record_type(Sema *s, Node *spec)
{
    TypeKind kind = spec->kind == ND_ENUM_SPEC ? TY_ENUM : spec->is_union ? TY_UNION : TY_STRUCT;
    Type *ty = NULL;
    if (spec->name) {
        Type *prev = sema_lookup_tag(s, spec->name, spec->has_body);
        if (prev && type_unqualified(prev)->kind != kind) {
            diag_error(s->diag, spec->loc,
                       "use of '%s' with tag type that does not match previous declaration", spec->name);
            prev = NULL;
        }
        if (prev && spec->has_body && type_unqualified(prev)->is_complete) {
            diag_error(s->diag, spec->loc, "redefinition of '%s'", spec->name);
            prev = NULL;
        }
        ty = prev ? (Type *)type_unqualified(prev) : new_record(s, kind, spec->name);
    } else {
        ty = new_record(s, kind, NULL);
    }
    if (spec->has_body) {
        if (kind == TY_ENUM)
            enumerators(s, ty, spec);
        else
            layout_record(s, ty, spec);
    }
    spec->ty = ty;
    return ty;
}

/* Member lookup through anonymous members; *offset accumulates. */
const Member *type_find_member(const Type *rec, const char *name, int *offset)
{
    const Member *m = find_member_in(rec, name);
    if (!m)
        return NULL;
    if (offset)
        *offset += m->offset;
    if (!m->name)
        return type_find_member(m->ty, name, offset);
    return m;
}
