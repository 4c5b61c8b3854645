/* emit.c — the shared C printer behind both emitters, and the target table.
 *
 * Both outputs are C (OpenCL C is C99-based, CUDA C is C++), so one printer
 * handles declarations, expressions and statements; a target answers through
 * its EmitHooks (emit_internal.h) wherever the spelling differs.
 *
 * Design points:
 *   - types are printed from sema's Type, cdecl style (base specifiers, then
 *     a declarator built inside-out), keeping user typedef names;
 *   - parentheses are those precedence requires, plus a few that compilers
 *     warn about when missing (&& in ||, mixed bitwise, + inside <<);
 *   - implicit conversions inserted by sema are printed only where the target
 *     would otherwise convert differently or reject the code;
 *   - the body is printed first into its own buffer so that the prelude can
 *     contain exactly the pieces the body used;
 *   - nothing depends on pointer values or hash order: output is a function
 *     of the tree alone. */
#include "emit/emit_internal.h"
#include "emit/emit_lowering.h"
#include "emit/emit_spelling.h"
#include "base/literal.h"
#include "base/mem.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ===================================================================== */
/* Output buffer                                                          */
/* ===================================================================== */

void emit_buffer_init(EmitBuffer *buf)
{
    buf->data = NULL;
    buf->len = buf->capacity = 0;
}

void emit_buffer_free(EmitBuffer *buf)
{
    free(buf->data);
    emit_buffer_init(buf);
}

static void buffer_reserve(EmitBuffer *buf, size_t extra)
{
    if (buf->len + extra + 1 <= buf->capacity)
        return;
    size_t cap = buf->capacity ? buf->capacity : 256;
    while (cap < buf->len + extra + 1)
        cap *= 2;
    buf->data = mem_realloc(buf->data, cap);
    buf->capacity = cap;
    buf->data[buf->len] = '\0'; /* data is always a C string */
}

void emit_write(EmitBuffer *buf, const char *s, size_t len)
{
    buffer_reserve(buf, len);
    memcpy(buf->data + buf->len, s, len);
    buf->len += len;
    buf->data[buf->len] = '\0';
}

/* Appends the decimal digits of v (and a '-' when negative). */
static void write_decimal(EmitBuffer *buf, unsigned long long v, bool negative)
{
    char digits[24];
    char *p = digits + sizeof digits;
    do
        *--p = (char)('0' + v % 10);
    while (v /= 10);
    if (negative)
        *--p = '-';
    emit_write(buf, p, (size_t)(digits + sizeof digits - p));
}

/* The conversions the emitters use on their hot paths, without flags, width
 * or precision: %s %c %d %i %u %ld %lu %lld %llu %zu %%.  Returns the length
 * modifier count (0..2, 'z' counts 1) of the spec at fmt (just after '%'),
 * or -1 when the spec is anything else. */
static int simple_spec(const char *fmt, char *conv)
{
    int mods = 0;
    if (fmt[0] == 'z') {
        mods = 1;
    } else {
        while (mods < 2 && fmt[mods] == 'l')
            mods++;
    }
    char c = fmt[mods];
    if (mods == 0 && (c == 's' || c == 'c' || c == '%')) {
        *conv = c;
        return 0;
    }
    if (fmt[0] == 'z' ? c == 'u' : (c == 'd' || c == 'i' || c == 'u')) {
        *conv = c;
        return mods;
    }
    return -1;
}

/* emit_printf's engine.  Formatting was nearly half of sgcc's instructions,
 * so the common formats (literal text, %s, %d ...) are written directly; any
 * other conversion goes to vsnprintf, formatting straight into the buffer. */
static void emit_vprintf(EmitBuffer *buf, const char *fmt, va_list ap)
{
    bool simple = true;
    for (const char *p = strchr(fmt, '%'); p; p = strchr(p + 1, '%')) {
        char conv = 's';
        int mods = simple_spec(p + 1, &conv);
        if (mods < 0) {
            simple = false;
            break;
        }
        p += 1 + mods; /* p at the conversion character */
    }
    if (simple) {
        const char *p = fmt;
        for (;;) {
            const char *pct = strchr(p, '%');
            size_t lit = pct ? (size_t)(pct - p) : strlen(p);
            if (lit)
                emit_write(buf, p, lit);
            if (!pct)
                return;
            char conv = 's';
            int mods = simple_spec(pct + 1, &conv);
            p = pct + 2 + mods;
            switch (conv) {
            case '%': emit_write(buf, "%", 1); break;
            case 's': {
                const char *s = va_arg(ap, const char *);
                emit_write(buf, s, strlen(s));
                break;
            }
            case 'c': {
                char ch = (char)va_arg(ap, int);
                emit_write(buf, &ch, 1);
                break;
            }
            case 'u':
                if (pct[1] == 'z')
                    write_decimal(buf, va_arg(ap, size_t), false);
                else if (mods == 2)
                    write_decimal(buf, va_arg(ap, unsigned long long), false);
                else if (mods == 1)
                    write_decimal(buf, va_arg(ap, unsigned long), false);
                else
                    write_decimal(buf, va_arg(ap, unsigned), false);
                break;
            default: { /* d, i */
                long long v = mods == 2 ? va_arg(ap, long long)
                            : mods == 1 ? va_arg(ap, long) : va_arg(ap, int);
                write_decimal(buf, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, v < 0);
                break;
            }
            }
        }
    }
    buffer_reserve(buf, 64);
    size_t room = buf->capacity - buf->len;
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(buf->data + buf->len, room, fmt, copy);
    va_end(copy);
    if (n <= 0) {
        buf->data[buf->len] = '\0';
        return;
    }
    if ((size_t)n >= room) {
        buffer_reserve(buf, (size_t)n);
        vsnprintf(buf->data + buf->len, (size_t)n + 1, fmt, ap);
    }
    buf->len += (size_t)n;
}

void emit_printf(EmitBuffer *buf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit_vprintf(buf, fmt, ap);
    va_end(ap);
}

/* ===================================================================== */
/* Context helpers                                                        */
/* ===================================================================== */

void emit_out(EmitCtx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit_vprintf(ctx->out, fmt, ap);
    va_end(ap);
}

static void out_str(EmitCtx *ctx, const char *s)
{
    emit_write(ctx->out, s, strlen(s));
}

void emit_error(EmitCtx *ctx, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_report(ctx->diag, DIAG_ERROR, loc, fmt, ap);
    va_end(ap);
    ctx->failed = true;
}

/* A group or split-barrier construct on a target without a lowering table
 * (EmitHooks.lowering): a located error, and `placeholder` printed so that
 * the rest of the unit still prints. */
static void report_group_unimplemented(EmitCtx *ctx, SrcLoc loc, const char *placeholder)
{
    emit_error(ctx, loc, "group lowering for %s not implemented yet", ctx->hooks->target_name);
    out_str(ctx, placeholder);
}

void emit_use(EmitCtx *ctx, EmitUse use)
{
    ctx->uses[use] = true;
}

void emit_prelude_piece(EmitCtx *ctx, const char *key, const char *text)
{
    for (int i = 0; i < ctx->piece_keys.count; i++)
        if (strcmp(ctx->piece_keys.items[i], key) == 0)
            return;
    VEC_PUSH(&ctx->piece_keys, mem_strdup(key));
    emit_write(&ctx->pieces, text, strlen(text));
}

const char *emit_file_name(const EmitCtx *ctx, uint32_t file)
{
    const SourceFile *f = file ? srcmgr_file(ctx->sources, file) : NULL;
    if (f && f->name)
        return f->name;
    return ctx->tu->main_file ? ctx->tu->main_file : "<input>";
}

/* Counts the newlines written since the last look, so line_next stays the
 * source line of the output line being started. */
static void line_sync(EmitCtx *ctx, EmitBuffer *body)
{
    if (!body->data)
        return;
    const char *p = body->data + ctx->line_scan, *end = body->data + body->len;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        ctx->line_next++;
        p++;
    }
    ctx->line_scan = body->len;
}

static void print_quoted(EmitCtx *ctx, const char *s)
{
    out_str(ctx, "\"");
    for (;;) {
        size_t plain = strcspn(s, "\"\\");
        emit_write(ctx->out, s, plain);
        s += plain;
        if (!*s)
            break;
        emit_write(ctx->out, "\\", 1);
        emit_write(ctx->out, s++, 1);
    }
    out_str(ctx, "\"");
}

static void line_directive_for(EmitCtx *ctx, uint32_t file, unsigned line)
{
    emit_out(ctx, "#line %u ", line);
    print_quoted(ctx, emit_file_name(ctx, file));
    out_str(ctx, "\n");
    ctx->line_scan = ctx->out->len;
    ctx->line_file = file;
    ctx->line_next = line;
}

void emit_line_directive(EmitCtx *ctx, SrcLoc loc)
{
    if (!ctx->options->line_directives || loc.file == 0)
        return;
    unsigned line, col;
    srcmgr_line_col(ctx->sources, loc, &line, &col);
    line_directive_for(ctx, loc.file, line);
}

/* A statement on a line the device compiler would attribute to another
 * source line gets a #line; a one-line gap (a blank line in the source) is
 * filled with a blank line instead, which reads better and maps the same. */
static void line_track(EmitCtx *ctx, SrcLoc loc)
{
    line_sync(ctx, ctx->out);
    if (!ctx->options->line_directives || loc.file == 0)
        return;
    unsigned line, col;
    srcmgr_line_col(ctx->sources, loc, &line, &col);
    if (loc.file == ctx->line_file && line == ctx->line_next)
        return;
    if (loc.file == ctx->line_file && line == ctx->line_next + 1) {
        while (ctx->line_next < line)
            out_str(ctx, "\n"), ctx->line_next++;
        ctx->line_scan = ctx->out->len;
        return;
    }
    line_directive_for(ctx, loc.file, line);
}

void emit_line_begin(EmitCtx *ctx, SrcLoc loc)
{
    if (loc.file)
        ctx->loc = loc;
    line_track(ctx, loc);
    for (int i = 0; i < ctx->indent; i++)
        out_str(ctx, "    ");
}

void emit_line_end(EmitCtx *ctx)
{
    out_str(ctx, "\n");
}

/* ===================================================================== */
/* Types                                                                  */
/* ===================================================================== */

const Type *emit_canonical(const Type *ty)
{
    while (ty && ty->origin && ty->origin != ty)
        ty = ty->origin;
    return ty;
}

static TypeKind kind_of(const Type *ty)
{
    return ty ? ty->kind : TY_VOID;
}

bool emit_type_is_64bit_int(const Type *ty)
{
    TypeKind k = kind_of(ty);
    return k == TY_LONG || k == TY_ULONG || k == TY_SIZE_T;
}

static bool is_int_kind(TypeKind k)
{
    return (k >= TY_BOOL && k <= TY_SIZE_T) || k == TY_ENUM;
}

static bool is_float_kind(TypeKind k)
{
    return k == TY_FLOAT || k == TY_DOUBLE;
}

static bool is_arith_kind(TypeKind k)
{
    return is_int_kind(k) || is_float_kind(k);
}

static bool is_group_kind(TypeKind k)
{
    return k == TY_GROUP || k == TY_ASYNC_BARRIER || k == TY_ARRIVAL_TOKEN;
}

/* Structural type identity: pointer and array types are rebuilt by sema at
 * each use, records and enums are identified by their canonical object. */
static bool same_type(const Type *a, const Type *b)
{
    a = emit_canonical(a);
    b = emit_canonical(b);
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind)
        return false;
    switch (a->kind) {
    case TY_PTR:
        return same_type(a->base, b->base);
    case TY_ARRAY:
        return a->array_len == b->array_len && same_type(a->base, b->base);
    case TY_STRUCT: case TY_UNION: case TY_ENUM: case TY_FUNC:
        return false;
    case TY_GROUP:
        return a->group == b->group;
    default:
        return true;
    }
}

/* What one declaration is printing (see print_decl). */
typedef struct DeclInfo {
    EmitAsRole role;
    const Node *record_spec;  /* ND_RECORD_SPEC/ND_ENUM_SPEC being defined here */
    const Type *spec_type;    /* the type those specifiers denote */
    const Symbol *fn;         /* set for the outermost declarator of a function */
    bool keep_name;           /* a kernel: printed exactly as written */
    const char *typedef_self; /* name a typedef declares (not used as spelling) */
    bool member_scope;        /* a member whose specifiers define its record:
                                 the body is printed there (nested) */
    SrcLoc loc;
} DeclInfo;

static bool has_typedef_spelling(const Type *ty, const DeclInfo *di)
{
    return ty->typedef_name && !(di && di->typedef_self &&
                                 strcmp(ty->typedef_name, di->typedef_self) == 0);
}

static bool is_derived(const Type *ty, const DeclInfo *di)
{
    if (!ty || has_typedef_spelling(ty, di))
        return false;
    return ty->kind == TY_PTR || ty->kind == TY_ARRAY || ty->kind == TY_FUNC;
}

static bool record_defined(const EmitCtx *ctx, const Type *ty)
{
    ty = emit_canonical(ty);
    for (int i = 0; i < ctx->defined_records.count; i++)
        if (ctx->defined_records.items[i] == ty)
            return true;
    return false;
}

static void mark_record_defined(EmitCtx *ctx, const Type *ty)
{
    VEC_PUSH(&ctx->defined_records, emit_canonical(ty));
}

static void print_decl(EmitCtx *ctx, const Type *ty, const char *name, const DeclInfo *di);

static void print_struct_body(EmitCtx *ctx, const Type *ty)
{
    out_str(ctx, "{\n");
    ctx->indent++;
    /* Members and enumerators get no #line of their own: they are not
     * statements, and members written on one line print one per line. */
    for (const Member *m = ty->members; m; m = m->next) {
        emit_line_begin(ctx, (SrcLoc){0, 0});
        DeclInfo di = {.role = AS_ROLE_OTHER, .member_scope = m->defines_record, .loc = m->loc};
        print_decl(ctx, m->ty, m->name, &di);
        out_str(ctx, ";");
        emit_line_end(ctx);
    }
    ctx->indent--;
    emit_line_begin(ctx, (SrcLoc){0, 0});
    out_str(ctx, "}");
}

static void print_enum_body(EmitCtx *ctx, const Node *spec)
{
    out_str(ctx, "{\n");
    ctx->indent++;
    for (const Node *e = spec->items.head; e; e = e->next) {
        emit_line_begin(ctx, (SrcLoc){0, 0});
        emit_name(ctx, e->name);
        if (e->lhs) {
            out_str(ctx, " = ");
            emit_expr(ctx, e->lhs);
        }
        out_str(ctx, e->next ? "," : "");
        emit_line_end(ctx);
    }
    ctx->indent--;
    emit_line_begin(ctx, (SrcLoc){0, 0});
    out_str(ctx, "}");
}

/* `struct tag`, or the whole definition where this declaration defines it
 * (or where a member declares a record not defined before). */
static void print_record_base(EmitCtx *ctx, const Type *ty, const DeclInfo *di)
{
    const char *keyword = ty->kind == TY_STRUCT ? "struct" : ty->kind == TY_UNION ? "union" : "enum";
    const Type *canon = emit_canonical(ty);
    bool here = di && di->record_spec && di->record_spec->has_body &&
                (!di->spec_type || emit_canonical(di->spec_type) == canon);
    bool nested = di && di->member_scope && ty->kind != TY_ENUM && canon->is_complete &&
                  !record_defined(ctx, canon);
    if (ty->kind == TY_ENUM && !here && (!ty->tag || ctx->hooks->is_cxx)) {
        /* An anonymous enum's objects, and in C++ every enum's, are printed
         * with the integer type C makes them compatible with: C++ would
         * reject assigning an int to an enum object, or ++ on one. */
        out_str(ctx, ctx->hooks->scalar_type(canon->enum_has_negative ? TY_INT : TY_UINT));
        return;
    }
    out_str(ctx, keyword);
    if (ty->tag) {
        out_str(ctx, " ");
        emit_name(ctx, ty->tag);
    }
    if ((here || nested || !ty->tag) && !record_defined(ctx, canon)) {
        /* Marked before the body: a member `struct node *next` inside it
         * then prints the tag alone instead of the body again. */
        if (ty->tag)
            mark_record_defined(ctx, canon);
        out_str(ctx, " ");
        if (ty->kind == TY_ENUM)
            print_enum_body(ctx, di->record_spec);
        else
            print_struct_body(ctx, canon);
    }
}

/* Specifiers of the innermost non-derived type: qualifiers and spelling. */
static void print_base(EmitCtx *ctx, const Type *base, bool quals_const, bool quals_volatile,
                       const DeclInfo *di)
{
    if (quals_const)
        out_str(ctx, "const ");
    if (quals_volatile)
        out_str(ctx, "volatile ");
    if (has_typedef_spelling(base, di)) {
        emit_name(ctx, base->typedef_name);
        return;
    }
    switch (base->kind) {
    case TY_STRUCT: case TY_UNION: case TY_ENUM:
        print_record_base(ctx, base, di);
        return;
    case TY_GROUP: case TY_ASYNC_BARRIER: case TY_ARRIVAL_TOKEN:
        if (ctx->hooks->lowering)
            emit_group_type(ctx, base);
        else
            report_group_unimplemented(ctx, ctx->loc, "int");
        return;
    case TY_DOUBLE:
        emit_use(ctx, USE_FP64);
        break;
    case TY_PTR: case TY_ARRAY: case TY_FUNC:
        out_str(ctx, "void"); /* unreachable: derived types never reach here */
        return;
    default:
        break;
    }
    out_str(ctx, ctx->hooks->scalar_type(base->kind));
}

/* Prepends `s` to the declarator text being built. */
static void buf_prepend(EmitBuffer *buf, const char *s)
{
    size_t n = strlen(s);
    buffer_reserve(buf, n);
    memmove(buf->data + n, buf->data, buf->len + 1);
    memcpy(buf->data, s, n);
    buf->len += n;
}

static void print_params(EmitCtx *ctx, const Type *fnty, const Symbol *fn)
{
    out_str(ctx, "(");
    bool first = true;
    for (const Param *p = fnty->params; p; p = p->next) {
        if (!first)
            out_str(ctx, ", ");
        first = false;
        if (fn && ctx->hooks->param && ctx->hooks->param(ctx, fn, p))
            continue;
        DeclInfo di = {.role = AS_ROLE_PARAM, .loc = p->loc};
        print_decl(ctx, p->ty, p->name, &di);
    }
    if (fnty->is_variadic)
        out_str(ctx, first ? "..." : ", ...");
    if (fn && ctx->hooks->extra_params) {
        size_t before = ctx->out->len;
        ctx->hooks->extra_params(ctx, fn, first);
        first = first && ctx->out->len == before;
    }
    if (fn && ctx->hooks->group_params) {
        size_t before = ctx->out->len;
        ctx->hooks->group_params(ctx, fn, first);
        first = first && ctx->out->len == before;
    }
    if (first && fnty->has_prototype && !fnty->is_variadic)
        out_str(ctx, "void");
    out_str(ctx, ")");
}

/* Pointer-level qualifiers, printed after the `*`. */
static void ptr_quals(EmitCtx *ctx, const Type *ptr, bool outermost, EmitBuffer *text)
{
    EmitBuffer *saved = ctx->out;
    ctx->out = text;
    if (!outermost && ptr->addr_space != AS_NONE)
        ctx->hooks->addr_space(ctx, ptr->addr_space, AS_ROLE_POINTEE);
    if (ptr->is_const)
        out_str(ctx, "const ");
    if (ptr->is_volatile)
        out_str(ctx, "volatile ");
    if (ptr->is_restrict)
        emit_out(ctx, "%s ", ctx->hooks->restrict_kw);
    ctx->out = saved;
}

/* The declarator part, inside-out: `*(*name)[4]` ... written into `text`. */
static void build_declarator(EmitCtx *ctx, const Type *ty, const char *name,
                             const DeclInfo *di, EmitBuffer *text)
{
    EmitBuffer *saved = ctx->out;
    if (name) {
        ctx->out = text;
        if (di && di->keep_name)
            out_str(ctx, name);
        else
            emit_name(ctx, name);
        ctx->out = saved;
    }
    /* is_derived() is false for NULL.  clang's analyzer, past its inlining
     * depth when it reaches here from print_converted, does not see that. */
    for (const Type *t = ty; is_derived(t, di); t = t->base) {
        if (t->kind == TY_PTR) { /* NOLINT(clang-analyzer-core.NullDereference) */
            if (t->base && t->base->kind == TY_FUNC && !ctx->hooks->has_function_pointers)
                emit_error(ctx, di ? di->loc : ctx->loc,
                           "function pointers are not supported in %s", ctx->hooks->target_name);
            EmitBuffer quals;
            emit_buffer_init(&quals);
            ptr_quals(ctx, t, t == ty, &quals);
            if (quals.len && !text->len) /* abstract: no space before nothing */
                quals.data[--quals.len] = '\0';
            if (quals.len)
                buf_prepend(text, quals.data);
            buf_prepend(text, "*");
            emit_buffer_free(&quals);
            /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
            if (is_derived(t->base, di) && (t->base->kind == TY_ARRAY || t->base->kind == TY_FUNC)) {
                buf_prepend(text, "(");
                emit_write(text, ")", 1);
            }
        } else if (t->kind == TY_ARRAY) {
            ctx->out = text;
            out_str(ctx, "[");
            if (t->array_len_expr)
                emit_expr(ctx, t->array_len_expr);
            else if (t->array_len >= 0)
                emit_out(ctx, "%" PRId64, t->array_len);
            out_str(ctx, "]");
            ctx->out = saved;
        } else {
            ctx->out = text;
            print_params(ctx, t, t == ty && di ? di->fn : NULL);
            ctx->out = saved;
        }
    }
}

/* The object's own address space: on the object type, or for an array on
 * the first array level or element that has one. */
static AddrSpace object_addr_space(const Type *ty, const DeclInfo *di)
{
    for (const Type *t = ty; t; t = t->base) {
        if (t->addr_space != AS_NONE)
            return t->addr_space;
        if (t->kind != TY_ARRAY || has_typedef_spelling(t, di))
            break;
    }
    return AS_NONE;
}

static void print_decl(EmitCtx *ctx, const Type *ty, const char *name, const DeclInfo *di)
{
    if (!ty) {
        out_str(ctx, "int");
        return;
    }
    const Type *base = ty;
    bool has_ptr = false, array_const = false, array_volatile = false;
    while (is_derived(base, di)) {
        if (base->kind == TY_PTR) {
            has_ptr = true;
            array_const = array_volatile = false;
        } else if (base->kind == TY_ARRAY) {
            array_const |= base->is_const;
            array_volatile |= base->is_volatile;
        }
        base = base->base;
    }
    if (!base) {
        out_str(ctx, "int");
        return;
    }
    EmitAsRole role = di ? di->role : AS_ROLE_OTHER;
    if (di && di->loc.file)
        ctx->loc = di->loc;
    if (!has_ptr) {
        AddrSpace as = object_addr_space(ty, di);
        if (as != AS_NONE || role == AS_ROLE_FILE_OBJECT)
            ctx->hooks->addr_space(ctx, as, role);
    } else {
        if (ty->kind == TY_PTR && ty->addr_space != AS_NONE && ty->addr_space != AS_PRIVATE &&
            (role == AS_ROLE_BLOCK_OBJECT || role == AS_ROLE_FILE_OBJECT))
            emit_error(ctx, di->loc, "a pointer object in %s memory is not supported",
                       ty->addr_space == AS_LOCAL ? "local" : "non-private");
        if (role == AS_ROLE_FILE_OBJECT)
            ctx->hooks->addr_space(ctx, AS_NONE, role);
        if (base->addr_space != AS_NONE)
            ctx->hooks->addr_space(ctx, base->addr_space, AS_ROLE_POINTEE);
    }
    print_base(ctx, base, base->is_const || array_const, base->is_volatile || array_volatile, di);
    EmitBuffer text;
    emit_buffer_init(&text);
    build_declarator(ctx, ty, name, di, &text);
    if (text.len) {
        /* `int *p`, `int (*)[4]`, but `int[4]` and `int(void)` */
        bool tight = text.data[0] == '[' || (text.data[0] == '(' && text.data[1] != '*');
        out_str(ctx, tight ? "" : " ");
        emit_write(ctx->out, text.data, text.len);
    }
    emit_buffer_free(&text);
}

void emit_type(EmitCtx *ctx, const Type *ty, const char *name, EmitAsRole role)
{
    DeclInfo di = {.role = role};
    print_decl(ctx, ty, name, &di);
}

void emit_type_internal(EmitCtx *ctx, const Type *ty, const char *name, EmitAsRole role)
{
    DeclInfo di = {.role = role, .keep_name = true};
    print_decl(ctx, ty, name, &di);
}

void emit_name(EmitCtx *ctx, const char *name)
{
    if (!name)
        return;
    out_str(ctx, name);
    if (emit_name_is_renamed(ctx, name))
        out_str(ctx, "_");
}

/* ===================================================================== */
/* Literals                                                               */
/* ===================================================================== */

void emit_int_literal(EmitCtx *ctx, const Type *ty, uint64_t v)
{
    TypeKind k = kind_of(emit_canonical(ty));
    const char *suffix = ctx->hooks->int_suffix(k);
    bool is_signed = !(k == TY_BOOL || k == TY_UCHAR || k == TY_USHORT || k == TY_UINT ||
                       k == TY_ULONG || k == TY_SIZE_T);
    if (k == TY_BOOL) {
        out_str(ctx, v ? "true" : "false");
    } else if (is_signed && (int64_t)v == INT64_MIN) {
        emit_out(ctx, "(-9223372036854775807%s - 1)", suffix);
    } else if (is_signed && (int64_t)v < 0) {
        emit_out(ctx, "-%" PRIu64 "%s", (uint64_t)-(int64_t)v, suffix);
    } else {
        emit_out(ctx, "%" PRIu64 "%s", v, suffix);
    }
}

/* Shortest decimal that reads back as exactly the same value. */
static void format_float(char *buf, size_t size, double value, bool is_float)
{
    int max_digits = is_float ? 9 : 17;
    for (int digits = 1; digits <= max_digits; digits++) {
        snprintf(buf, size, "%.*g", digits, value);
        if (is_float ? strtof(buf, NULL) == (float)value : strtod(buf, NULL) == value)
            break;
    }
    if (!strpbrk(buf, ".eEn"))
        strncat(buf, ".0", size - strlen(buf) - 1);
    if (is_float)
        strncat(buf, "f", size - strlen(buf) - 1);
}

void emit_float_literal(EmitCtx *ctx, double value, bool is_float)
{
    if (isinf(value) || isnan(value)) {
        if (value < 0)
            out_str(ctx, "-");
        ctx->hooks->float_special(ctx, fabs(value), !is_float);
        return;
    }
    if (!is_float)
        emit_use(ctx, USE_FP64);
    char buf[64];
    format_float(buf, sizeof buf, is_float ? (double)(float)value : value, is_float);
    out_str(ctx, buf);
}

/* Integer literals keep the source digits (hex stays hex) but get the suffix
 * of sema's type for this target. */
static void print_int_lit(EmitCtx *ctx, const Node *n, const Type *as_type)
{
    const char *t = n->text;
    bool plain = t && !strchr(t, '\'') && !(t[0] == '0' && (t[1] == 'b' || t[1] == 'B'));
    if (!plain || as_type != n->ty) {
        emit_int_literal(ctx, as_type, n->int_value);
        return;
    }
    size_t len = strlen(t);
    while (len && strchr("uUlL", t[len - 1]))
        len--;
    emit_write(ctx->out, t, len);
    out_str(ctx, ctx->hooks->int_suffix(kind_of(emit_canonical(as_type))));
}

/* A double literal printed where a float is wanted: the same text with `f`
 * when that is exactly the float the conversion gives, else the shortest
 * float spelling of the converted value.  Never leaves a double constant in
 * a float expression (devices without fp64 reject or warn about those). */
static void print_float_lit_as_float(EmitCtx *ctx, const Node *lit)
{
    float f = (float)lit->float_value;
    const char *t = lit->text;
    if (lit->is_float_suffix && t) {
        out_str(ctx, t);
    } else if (t && (double)f == lit->float_value && !strpbrk(t, "fFlL")) {
        emit_out(ctx, "%sf", t);
    } else {
        emit_float_literal(ctx, f, true);
    }
}

static void print_float_lit(EmitCtx *ctx, const Node *n)
{
    if (n->is_float_suffix || kind_of(n->ty) == TY_FLOAT) {
        print_float_lit_as_float(ctx, n);
        return;
    }
    emit_use(ctx, USE_FP64);
    if (n->text && !strpbrk(n->text, "lL"))
        out_str(ctx, n->text);
    else
        emit_float_literal(ctx, n->float_value, false);
}

/* ===================================================================== */
/* Expressions                                                            */
/* ===================================================================== */

static EmitPrec binary_prec(OpKind op)
{
    switch (op) {
    case OP_MUL: case OP_DIV: case OP_MOD: return PREC_MULTIPLICATIVE;
    case OP_ADD: case OP_SUB: return PREC_ADDITIVE;
    case OP_SHL: case OP_SHR: return PREC_SHIFT;
    case OP_LT: case OP_GT: case OP_LE: case OP_GE: return PREC_RELATIONAL;
    case OP_EQ: case OP_NE: return PREC_EQUALITY;
    case OP_BITAND: return PREC_BITAND;
    case OP_BITXOR: return PREC_BITXOR;
    case OP_BITOR: return PREC_BITOR;
    case OP_LOGAND: return PREC_LOGAND;
    case OP_LOGOR: return PREC_LOGOR;
    default: return PREC_ASSIGN;
    }
}

typedef enum CastMode { CAST_HIDDEN, CAST_LITERAL, CAST_SHOWN } CastMode;

static bool is_literal(const Node *n)
{
    return n->kind == ND_INT_LIT || n->kind == ND_FLOAT_LIT || n->kind == ND_CHAR_LIT ||
           n->kind == ND_BOOL_LIT;
}

/* Whether an implicit conversion sema inserted must be written out.  `strict`
 * marks places where the target resolves overloads on the argument types
 * (OpenCL built-ins) or rejects narrowing (C++ brace initialisers). */
static CastMode implicit_cast_mode(const EmitCtx *ctx, const Node *cast, bool strict)
{
    const Type *to = emit_canonical(cast->ty);
    const Node *from_node = cast->lhs;
    const Type *from = from_node ? emit_canonical(from_node->ty) : NULL;
    if (!to || !from || to->kind == TY_VOID)
        return CAST_HIDDEN;
    if (from->kind == TY_ARRAY || from->kind == TY_FUNC || is_group_kind(to->kind) ||
        is_group_kind(from->kind))
        return CAST_HIDDEN;
    if (is_arith_kind(to->kind) && is_arith_kind(from->kind)) {
        if (same_type(to, from))
            return CAST_HIDDEN;
        if (is_literal(from_node) && to->kind != TY_BOOL && from->kind != TY_BOOL) {
            if (from_node->kind == ND_FLOAT_LIT && to->kind == TY_FLOAT)
                return CAST_LITERAL;
            if (strict && from_node->kind != ND_CHAR_LIT && to->kind != TY_ENUM)
                return CAST_LITERAL;
        }
        if (strict && !(from_node->is_const_expr && is_int_kind(from->kind) &&
                        is_int_kind(to->kind) && ctx->in_init_list))
            return CAST_SHOWN;
        return CAST_HIDDEN;
    }
    if (ctx->hooks->is_cxx && to->kind == TY_PTR) {
        if (from->kind == TY_PTR)
            return same_type(to->base, from->base) ? CAST_HIDDEN : CAST_SHOWN;
        if (is_int_kind(from->kind) && !(from_node->is_const_expr && from_node->const_value == 0))
            return CAST_SHOWN;
    }
    return CAST_HIDDEN;
}

static void print_folded_literal(EmitCtx *ctx, const Node *lit, const Type *to)
{
    TypeKind k = kind_of(emit_canonical(to));
    if (lit->kind == ND_FLOAT_LIT) {
        if (k == TY_FLOAT)
            print_float_lit_as_float(ctx, lit);
        else if (k == TY_DOUBLE)
            print_float_lit(ctx, lit);
        else
            emit_int_literal(ctx, to, (uint64_t)(int64_t)lit->float_value);
    } else if (is_float_kind(k)) {
        double v = kind_of(emit_canonical(lit->ty)) == TY_ULONG || kind_of(lit->ty) == TY_UINT
                   ? (double)lit->int_value : (double)(int64_t)lit->int_value;
        emit_float_literal(ctx, v, k == TY_FLOAT);
    } else if (lit->kind == ND_INT_LIT) {
        print_int_lit(ctx, lit, to);
    } else {
        emit_int_literal(ctx, to, lit->int_value);
    }
}

static void print_cast_to(EmitCtx *ctx, const Type *to, const Node *operand)
{
    out_str(ctx, "(");
    DeclInfo di = {.role = AS_ROLE_OTHER, .loc = operand ? operand->loc : (SrcLoc){0, 0}};
    print_decl(ctx, to, NULL, &di);
    out_str(ctx, ")");
    if (operand && operand->kind == ND_FLOAT_LIT && kind_of(emit_canonical(to)) == TY_FLOAT)
        print_float_lit_as_float(ctx, operand);
    else
        emit_expr_prec(ctx, operand, PREC_UNARY);
}

/* Prints `n` (which may be an implicit conversion) in a position needing
 * precedence `prec`; `strict` as for implicit_cast_mode. */
static void print_converted(EmitCtx *ctx, const Node *n, EmitPrec prec, bool strict)
{
    if (n && n->kind == ND_CAST && n->is_implicit) {
        switch (implicit_cast_mode(ctx, n, strict)) {
        case CAST_HIDDEN:
            print_converted(ctx, n->lhs, prec, false);
            return;
        case CAST_LITERAL:
            print_folded_literal(ctx, n->lhs, n->ty);
            return;
        case CAST_SHOWN:
            if (prec > PREC_UNARY)
                out_str(ctx, "(");
            print_cast_to(ctx, n->ty, n->lhs);
            if (prec > PREC_UNARY)
                out_str(ctx, ")");
            return;
        }
    }
    emit_expr_prec(ctx, n, prec);
}

/* The node that will actually be printed for `n` (implicit casts that stay
 * hidden are looked through), for precedence decisions. */
static const Node *printed_node(const EmitCtx *ctx, const Node *n)
{
    while (n && n->kind == ND_CAST && n->is_implicit &&
           implicit_cast_mode(ctx, n, false) == CAST_HIDDEN)
        n = n->lhs;
    return n;
}

static EmitPrec node_prec(const EmitCtx *ctx, const Node *n)
{
    n = printed_node(ctx, n);
    if (!n)
        return PREC_PRIMARY;
    switch (n->kind) {
    case ND_UNARY: case ND_CAST: case ND_SIZEOF: case ND_ALIGNOF: return PREC_UNARY;
    case ND_POSTFIX: case ND_CALL: case ND_INDEX: case ND_MEMBER: case ND_COMPOUND_LIT:
        return PREC_POSTFIX;
    case ND_BINARY: return binary_prec(n->op);
    case ND_ASSIGN: return PREC_ASSIGN;
    case ND_COND: return PREC_COND;
    case ND_COMMA: return PREC_COMMA;
    default: return PREC_PRIMARY;
    }
}

/* Parentheses C does not need but compilers warn about, added so that the
 * device compiler's build log stays clean and readers need no table. */
static bool clarity_parens(EmitPrec parent, OpKind parent_op, const Node *child)
{
    if (!child || child->kind != ND_BINARY)
        return false;
    EmitPrec c = binary_prec(child->op);
    if (parent_op == OP_LOGOR && child->op == OP_LOGAND)
        return true;
    if ((parent == PREC_BITAND || parent == PREC_BITOR || parent == PREC_BITXOR) &&
        c != parent && c > PREC_LOGAND)
        return true;
    if (parent == PREC_SHIFT && c != PREC_SHIFT && c > PREC_LOGAND)
        return true;
    if ((parent == PREC_EQUALITY || parent == PREC_RELATIONAL) && c >= PREC_BITOR && c <= PREC_BITAND)
        return true;
    /* `(a > b) <= c`: Intel's OpenCL compiler rejects the unparenthesised
     * chain ("chained comparison ... does not behave the same as a
     * mathematical expression"), found by tests/diff (case
     * chained_comparison). */
    if ((parent == PREC_EQUALITY || parent == PREC_RELATIONAL)
        && (c == PREC_EQUALITY || c == PREC_RELATIONAL))
        return true;
    return false;
}

static void print_operand(EmitCtx *ctx, const Node *n, EmitPrec prec, bool force_parens)
{
    if (force_parens) {
        out_str(ctx, "(");
        print_converted(ctx, n, PREC_COMMA, false);
        out_str(ctx, ")");
    } else {
        print_converted(ctx, n, prec, false);
    }
}

/* ---- C++ (CUDA C) where it gives C's text another meaning ------------- */

/* A comparison, logical operator or `!`: int in C, bool in C++. */
static bool is_truth_valued(const Node *n)
{
    if (n->kind == ND_UNARY)
        return n->op == OP_NOT;
    if (n->kind != ND_BINARY)
        return false;
    switch (n->op) {
    case OP_LT: case OP_GT: case OP_LE: case OP_GE: case OP_EQ: case OP_NE:
    case OP_LOGAND: case OP_LOGOR:
        return true;
    default:
        return false;
    }
}

/* The kinds (bit 1 << TypeKind) of the operands that decide the C type of
 * the expression printed for `n`: arithmetic operators convert their
 * operands (a shift only its left one), a conditional its two arms, a comma
 * has its right operand's type; anything else, comparisons and logical
 * operators included, is an operand of its own type.  Sema's type of such
 * an expression can differ from the device compiler's when these kinds
 * include an enum (int for sema, the compatible type for C) or mix size_t
 * with long (distinct ranks in C++). */
_Static_assert(TY_ARRIVAL_TOKEN < 32, "TypeKind bits fit in 32");
static uint32_t operand_kinds(const EmitCtx *ctx, const Node *n)
{
    n = printed_node(ctx, n);
    if (!n)
        return 0;
    switch (n->kind) {
    case ND_BINARY:
        if (is_truth_valued(n))
            break;
        if (n->op == OP_SHL || n->op == OP_SHR)
            return operand_kinds(ctx, n->lhs);
        return operand_kinds(ctx, n->lhs) | operand_kinds(ctx, n->rhs);
    case ND_UNARY:
        if (n->op == OP_PLUS || n->op == OP_NEG || n->op == OP_BITNOT)
            return operand_kinds(ctx, n->lhs);
        break;
    case ND_COND:
        return operand_kinds(ctx, n->then) | operand_kinds(ctx, n->els);
    case ND_COMMA:
        return operand_kinds(ctx, n->rhs);
    default:
        break;
    }
    return 1u << kind_of(emit_canonical(n->ty));
}

bool emit_cxx_type_differs(const EmitCtx *ctx, const Node *n)
{
    if (!ctx->hooks->is_cxx)
        return false;
    n = printed_node(ctx, n);
    if (!n)
        return false;
    /* C++ spells SGC's size_t `size_t` (unsigned long) but long and ulong
     * `long long` and `unsigned long long`: arithmetic or a conditional
     * mixing them has a C++ type of another rank than sema's (size_t | long
     * is size_t in SGC, unsigned long long in C++). */
    uint32_t kinds = operand_kinds(ctx, n);
    if ((kinds & 1u << TY_SIZE_T) && (kinds & (1u << TY_LONG | 1u << TY_ULONG)))
        return true;
    switch (n->kind) {
    case ND_CHAR_LIT: return true;                     /* char in C++ */
    case ND_BINARY: case ND_UNARY:
        if (is_truth_valued(n))
            return true;
        break;
    case ND_IDENT:
        if (n->sym && n->sym->kind == SYM_ENUM_CONST)
            return true;                               /* the enum type in C++ */
        break;
    case ND_COND:
        return emit_cxx_type_differs(ctx, n->then) || emit_cxx_type_differs(ctx, n->els);
    case ND_COMMA:
        return emit_cxx_type_differs(ctx, n->rhs);
    default:
        break;
    }
    return kind_of(emit_canonical(n->ty)) == TY_ENUM; /* printed as an integer */
}

void emit_expr_c_typed(EmitCtx *ctx, const Node *n, EmitPrec prec)
{
    if (!emit_cxx_type_differs(ctx, n)) {
        print_converted(ctx, n, prec, false);
        return;
    }
    /* Sema types enum values as int (SPEC: enums have underlying int). */
    static const Type int_type = {.kind = TY_INT, .size = 4, .align = 4};
    const Type *c_type = kind_of(emit_canonical(n->ty)) == TY_ENUM ? &int_type : n->ty;
    if (prec > PREC_UNARY)
        out_str(ctx, "(");
    print_cast_to(ctx, c_type, n);
    if (prec > PREC_UNARY)
        out_str(ctx, ")");
}

/* C++ rejects some conversions C makes at an assignment, an initialiser, an
 * argument or a return: `void *` to another object pointer, a string
 * literal (const char[] in C++) to `char *`, a pointer that drops const,
 * pointers to an enum and to its integer type.  True when `value`, converted
 * to `to`, needs the cast written out. */
static bool cxx_needs_pointer_cast(const EmitCtx *ctx, const Type *to, const Node *value)
{
    if (!ctx->hooks->is_cxx || !to || !value || emit_canonical(to)->kind != TY_PTR)
        return false;
    const Type *tb = emit_canonical(to)->base ? to->base : NULL;
    const Type *from = value->ty;
    const Type *canon = emit_canonical(from);
    if (!tb || !canon)
        return false;
    const Type *fb = canon->kind == TY_PTR || canon->kind == TY_ARRAY ? from->base
                   : canon->kind == TY_FUNC ? from : NULL;
    if (!fb)
        return false;
    bool drops = (fb->is_const && !tb->is_const) || (fb->is_volatile && !tb->is_volatile);
    if (value->kind == ND_STRING_LIT)
        return !tb->is_const;
    if (drops)
        return true;
    if (kind_of(emit_canonical(tb)) == TY_VOID)
        return false;
    return !same_type(tb, fb);
}

/* `value` converted as by assignment to `dest` (NULL: no conversion). */
static void print_assigned(EmitCtx *ctx, const Node *value, const Type *dest, EmitPrec prec)
{
    if (!cxx_needs_pointer_cast(ctx, dest, value)) {
        print_converted(ctx, value, prec, false);
        return;
    }
    if (prec > PREC_UNARY)
        out_str(ctx, "(");
    print_cast_to(ctx, dest, value);
    if (prec > PREC_UNARY)
        out_str(ctx, ")");
}

/* C: `++b` and `b++` on a bool store true, `--b` and `b--` negate it
 * (b - 1 is 0 or -1); C++17 has no ++ and never had -- on bool.  One
 * prelude helper per form used: X(name, new value, result). */
#define CXX_BOOL_STEPS(X)                                 \
    X(OP_PRE_INC, "pre_inc", "true", "*p")                \
    X(OP_PRE_DEC, "pre_dec", "!old", "*p")                \
    X(OP_INC, "post_inc", "true", "old")                  \
    X(OP_DEC, "post_dec", "!old", "old")

static bool print_cxx_bool_step(EmitCtx *ctx, const Node *n)
{
    if (!ctx->hooks->is_cxx || kind_of(emit_canonical(n->lhs ? n->lhs->ty : NULL)) != TY_BOOL)
        return false;
    const char *name = NULL, *value = NULL, *result = NULL;
    switch (n->op) {
#define X(op, stem, v, r) case op: name = stem; value = v; result = r; break;
    CXX_BOOL_STEPS(X)
#undef X
    default: return false;
    }
    char key[32], text[320];
    snprintf(key, sizeof key, "bool_%s", name);
    snprintf(text, sizeof text,
             "\n/* %s on a bool as C defines it (C++17 has no ++ or -- on bool). */\n"
             "static __device__ __forceinline__ bool sgc_bool_%s(bool *p)\n"
             "{\n    bool old = *p;\n    *p = %s;\n    return %s;\n}\n",
             op_spellings[n->op], name, value, result);
    if (!strstr(value, "old") && !strstr(result, "old"))
        snprintf(text, sizeof text,
                 "\n/* %s on a bool as C defines it (C++17 has no ++ or -- on bool). */\n"
                 "static __device__ __forceinline__ bool sgc_bool_%s(bool *p)\n"
                 "{\n    return *p = %s;\n}\n", op_spellings[n->op], name, value);
    emit_prelude_piece(ctx, key, text);
    emit_out(ctx, "sgc_bool_%s(&", name);
    print_converted(ctx, n->lhs, PREC_UNARY, false);
    out_str(ctx, ")");
    return true;
}

/* A double literal exactly representable as float (`2.0`, `0.5`). */
static bool is_float_exact_double_lit(const Node *n)
{
    return n && n->kind == ND_FLOAT_LIT && !n->is_float_suffix && kind_of(n->ty) == TY_DOUBLE &&
           (double)(float)n->float_value == n->float_value;
}

/* `x * 2.0` with float x: C computes in double because of the literal, which
 * on a GPU is almost never meant and fails or crawls without fp64.  When the
 * literal is exactly a float, the operation is printed in float (`x * 2.0f`,
 * the float operand without its promotion) — what OpenCL C itself does on
 * devices without fp64.  Returns the float operand, or NULL. */
static const Node *float_operand_of_demotable(const Node *promoted, const Node *other)
{
    if (!is_float_exact_double_lit(other) || !promoted || promoted->kind != ND_CAST ||
        !promoted->is_implicit || kind_of(promoted->ty) != TY_DOUBLE || !promoted->lhs ||
        kind_of(emit_canonical(promoted->lhs->ty)) != TY_FLOAT)
        return NULL;
    return promoted->lhs;
}

static bool is_demotable_op(OpKind op)
{
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_LT: case OP_GT: case OP_LE:
    case OP_GE: case OP_EQ: case OP_NE:
        return true;
    default:
        return false;
    }
}

static void print_binary(EmitCtx *ctx, const Node *n)
{
    EmitPrec p = binary_prec(n->op);
    const Node *lhs = n->lhs, *rhs = n->rhs;
    const Node *fl = is_demotable_op(n->op) ? float_operand_of_demotable(lhs, rhs) : NULL;
    const Node *fr = is_demotable_op(n->op) ? float_operand_of_demotable(rhs, lhs) : NULL;
    if (fl)
        lhs = fl;
    if (fr)
        rhs = fr;
    const Node *l = printed_node(ctx, lhs), *r = printed_node(ctx, rhs);
    if (fr) {
        print_float_lit_as_float(ctx, lhs);
    } else {
        print_operand(ctx, lhs, p, clarity_parens(p, n->op, l));
    }
    emit_out(ctx, " %s ", op_spellings[n->op]);
    if (fl)
        print_float_lit_as_float(ctx, rhs);
    else
        print_operand(ctx, rhs, (EmitPrec)(p + 1), clarity_parens(p, n->op, r));
}

static void print_unary(EmitCtx *ctx, const Node *n)
{
    if (print_cxx_bool_step(ctx, n))
        return;
    const Node *operand = printed_node(ctx, n->lhs);
    out_str(ctx, op_spellings[n->op]);
    /* `- -x`, `+ ++x`, `& &x` would lex differently: parenthesise. */
    bool clash = operand && operand->kind == ND_UNARY &&
                 op_spellings[operand->op][0] == op_spellings[n->op][0];
    print_operand(ctx, n->lhs, PREC_UNARY, clash);
}

static void print_init_list(EmitCtx *ctx, const Node *list);

/* The type of element `index` of a braced list of type `list_ty`, or NULL. */
static const Type *slot_type(const Type *list_ty, int64_t index)
{
    const Type *ty = emit_canonical(list_ty);
    if (!ty)
        return NULL;
    if (ty->kind == TY_ARRAY)
        return ty->base;
    if (ty->kind == TY_UNION)
        return index == 0 && ty->members ? ty->members->ty : NULL;
    if (ty->kind != TY_STRUCT)
        return NULL;
    const Member *m = ty->members;
    while (m && index-- > 0)
        m = m->next;
    return m ? m->ty : NULL;
}

/* One element of a braced list, going into a slot of type `dest` (NULL:
 * unknown).  C++ rejects narrowing in braces: a non-constant int into an
 * enum slot (printed as its unsigned integer) is cast, as are the pointer
 * conversions print_assigned casts. */
static void print_init_value(EmitCtx *ctx, const Node *value, const Type *dest)
{
    if (value && value->kind == ND_INIT_LIST) {
        print_init_list(ctx, value);
        return;
    }
    const Node *shown = printed_node(ctx, value);
    bool enum_narrowing = ctx->hooks->is_cxx && dest && shown && !shown->is_const_expr &&
                          kind_of(emit_canonical(dest)) == TY_ENUM &&
                          kind_of(emit_canonical(shown->ty)) != TY_ENUM;
    if (enum_narrowing || cxx_needs_pointer_cast(ctx, dest, value))
        print_cast_to(ctx, dest, value);
    else
        print_converted(ctx, value, PREC_ASSIGN, ctx->hooks->is_cxx);
}

/* The most `{}` a designated list may need filled in when printed
 * positionally for C++ (print_init_list_positional). */
enum { CXX_MAX_FILLED_SLOTS = 1 << 16 };

/* Position of a single designator in an array or struct list, or -1. */
static int64_t designator_position(const Type *ty, const Node *d)
{
    if (ty->kind == TY_ARRAY)
        return d->lhs && d->lhs->is_const_expr ? d->lhs->const_value : -1;
    int64_t i = 0;
    for (const Member *m = emit_canonical(ty)->members; m; m = m->next, i++)
        if (m->name && d->name && strcmp(m->name, d->name) == 0)
            return i;
    return -1;
}

/* C++ (CUDA C under NVRTC) has no array designators and only in-order
 * member designators: a designated list of an array or struct is printed
 * positionally, `{}` (value-initialisation, C's zero) filling the gaps and a
 * later designator overriding an earlier one as in C.  Returns false when
 * the list cannot be rewritten (unions, nested designators). */
static bool print_init_list_positional(EmitCtx *ctx, const Node *list)
{
    const Type *ty = emit_canonical(list->ty);
    if (!ty || (ty->kind != TY_ARRAY && ty->kind != TY_STRUCT))
        return false;
    int64_t count = 0, pos = 0, listed = 0;
    const Node *furthest = NULL;
    for (const Node *e = list->items.head; e; e = e->next, pos++, listed++) {
        if (e->kind == ND_DESIG_INIT) {
            if (e->items.count != 1 || (pos = designator_position(ty, e->items.head)) < 0)
                return false;
        }
        if (pos + 1 > count) {
            count = pos + 1;
            furthest = e;
        }
    }
    /* Each gap is printed: `{[100000000] = 1}` would be 400 MB of `{}, `.
     * At least count - listed slots are gaps; past the limit that is an
     * error (docs/REFERENCE.md "Limits"), before anything is allocated. */
    if (count - listed > CXX_MAX_FILLED_SLOTS) {
        emit_error(ctx, furthest->loc,
                   "designated initializer leaves %" PRId64 " elements to fill in %s, which has no "
                   "array designators (at most %d): assign the elements in statements instead",
                   count - listed, ctx->hooks->target_name, CXX_MAX_FILLED_SLOTS);
        return true;
    }
    const Node **slots = mem_zalloc((size_t)count, sizeof *slots);
    pos = 0;
    for (const Node *e = list->items.head; e; e = e->next, pos++) {
        if (e->kind == ND_DESIG_INIT)
            pos = designator_position(ty, e->items.head);
        slots[pos] = e->kind == ND_DESIG_INIT ? e->lhs : e;
    }
    out_str(ctx, "{");
    for (int64_t i = 0; i < count; i++) {
        out_str(ctx, i ? ", " : "");
        if (slots[i])
            print_init_value(ctx, slots[i], slot_type(ty, i));
        else
            out_str(ctx, "{}");
    }
    out_str(ctx, "}");
    free(slots);
    return true;
}

/* C++ (CUDA C under NVRTC) has no compound literals: a struct, union or
 * scalar one becomes a call of a prelude template that returns its
 * argument, copy-list-initialised from the same braces.  The result is a
 * value, not C's lvalue (taking its address does not compile); an array
 * compound literal has no such form and is reported. */
static void print_cxx_compound_literal(EmitCtx *ctx, const Node *n)
{
    if (kind_of(emit_canonical(n->ty)) == TY_ARRAY) {
        emit_error(ctx, n->loc, "array compound literals are not supported in %s: declare "
                                "an array instead", ctx->hooks->target_name);
        return;
    }
    emit_prelude_piece(ctx, "cxx_compound_literal",
        "\n/* A C compound literal (T){...}: C++ has none (issue 25). */\n"
        "template <class T> static __device__ __forceinline__ T sgc_literal(T value) "
        "{ return value; }\n");
    out_str(ctx, "sgc_literal<");
    emit_type(ctx, n->ty, NULL, AS_ROLE_OTHER);
    out_str(ctx, ">(");
    print_init_list(ctx, n->init ? n->init : n->lhs);
    out_str(ctx, ")");
}

/* C++17 has no designated initialisers, and a union's braces initialise
 * its first member: `{.f = x}` of a union becomes `{x}` when f is the
 * first member, else a lambda that zeroes the union and assigns the member
 * (what C's initialisation does: the named member is the active one). */
static bool print_cxx_union_designated(EmitCtx *ctx, const Node *list)
{
    const Type *ty = emit_canonical(list->ty);
    const Node *e = list->items.head;
    if (!ty || ty->kind != TY_UNION || !e || e->next || e->kind != ND_DESIG_INIT ||
        e->items.count != 1 || !e->items.head->name || !ty->members)
        return false;
    const Node *value = e->lhs ? e->lhs : e->init;
    if (ty->members->name && strcmp(ty->members->name, e->items.head->name) == 0) {
        out_str(ctx, "{");
        print_init_value(ctx, value, ty->members->ty);
        out_str(ctx, "}");
        return true;
    }
    out_str(ctx, "[&] { ");
    emit_type_internal(ctx, list->ty, "sgc_union", AS_ROLE_OTHER);
    out_str(ctx, " = {}; sgc_union.");
    emit_name(ctx, e->items.head->name);
    out_str(ctx, " = ");
    print_init_value(ctx, value, NULL);
    out_str(ctx, "; return sgc_union; }()");
    return true;
}

static bool has_designators(const Node *list)
{
    for (const Node *e = list->items.head; e; e = e->next)
        if (e->kind == ND_DESIG_INIT)
            return true;
    return false;
}

static void print_init_list(EmitCtx *ctx, const Node *list)
{
    bool saved = ctx->in_init_list;
    ctx->in_init_list = true;
    if (ctx->hooks->is_cxx && has_designators(list) &&
        (print_init_list_positional(ctx, list) || print_cxx_union_designated(ctx, list))) {
        ctx->in_init_list = saved;
        return;
    }
    out_str(ctx, "{");
    bool positional = !has_designators(list);
    int64_t index = 0;
    for (const Node *e = list->items.head; e; e = e->next, index++) {
        out_str(ctx, e == list->items.head ? "" : ", ");
        const Node *value = e;
        if (e->kind == ND_DESIG_INIT) {
            for (const Node *d = e->items.head; d; d = d->next) {
                if (d->name) {
                    out_str(ctx, ".");
                    emit_name(ctx, d->name);
                } else {
                    out_str(ctx, "[");
                    emit_expr(ctx, d->lhs);
                    out_str(ctx, "]");
                }
            }
            out_str(ctx, " = ");
            value = e->lhs ? e->lhs : e->init;
        }
        print_init_value(ctx, value, positional ? slot_type(list->ty, index) : NULL);
    }
    out_str(ctx, "}");
    ctx->in_init_list = saved;
}

const Node *emit_call_arg(const Node *call, int n)
{
    const Node *a = call->args.head;
    while (a && n-- > 0)
        a = a->next;
    return a;
}

void emit_call_arg_value(EmitCtx *ctx, const Node *a, bool strict)
{
    /* Arguments are not elements of a brace list around the call: their
     * conversions follow the call's rules, not C++'s narrowing ones (a
     * constant argument of an overloaded built-in keeps its cast there). */
    bool in_init_list = ctx->in_init_list;
    ctx->in_init_list = false;
    bool shown = a->kind == ND_CAST && a->is_implicit &&
                 implicit_cast_mode(ctx, a, strict) != CAST_HIDDEN;
    if (strict && !shown && !ctx->hooks->is_cxx && (operand_kinds(ctx, a) & 1u << TY_ENUM)) {
        /* The overload the device compiler picks must be sema's: with an
         * enum among the operands that type it, the argument's C type may
         * differ (sema takes an enum as int, OpenCL C as its compatible
         * type, unsigned int when no enumerator is negative: max(e, x),
         * max(x & e, y) are ambiguous), so it gets sema's type written out.
         * C++ targets: emit_expr_c_typed. */
        static const Type int_type = {.kind = TY_INT, .size = 4, .align = 4};
        print_cast_to(ctx, kind_of(emit_canonical(a->ty)) == TY_ENUM ? &int_type : a->ty, a);
    } else if (strict && !shown) {
        emit_expr_c_typed(ctx, a, PREC_ASSIGN); /* overloads see C's types */
    } else {
        print_converted(ctx, a, PREC_ASSIGN, strict);
    }
    ctx->in_init_list = in_init_list;
}

void emit_call_args(EmitCtx *ctx, const Node *call, bool strict)
{
    out_str(ctx, "(");
    for (const Node *a = call->args.head; a; a = a->next) {
        out_str(ctx, a == call->args.head ? "" : ", ");
        emit_call_arg_value(ctx, a, strict);
    }
    out_str(ctx, ")");
}

static void print_call(EmitCtx *ctx, const Node *n)
{
    if (n->builtin > BI_NONE && n->builtin < BI_COUNT) {
        switch (builtin_info[n->builtin].kind) {
        case BK_WORKITEM: ctx->hooks->workitem_call(ctx, n); return;
        case BK_SYNC: ctx->hooks->sync_call(ctx, n); return;
        case BK_ATOMIC: ctx->hooks->atomic_call(ctx, n); return;
        case BK_MATH: case BK_MATH_INT: ctx->hooks->math_call(ctx, n); return;
        case BK_PRINTF:
            /* OpenCL C and CUDA C both have printf, with the format as
             * written (sema checked and converted the arguments). */
            if (ctx->hooks->printf_prelude)
                emit_prelude_piece(ctx, "printf", ctx->hooks->printf_prelude);
            out_str(ctx, "printf");
            emit_call_args(ctx, n, true);
            return;
        case BK_GROUP_CTOR: case BK_GROUP_FN: case BK_GROUP_ALGO: case BK_JOINT:
            if (ctx->hooks->lowering)
                emit_group_call(ctx, n);
            else
                report_group_unimplemented(ctx, n->loc, "0");
            return;
        case BK_ASYNC_COPY:
            if (ctx->hooks->lowering)
                emit_barrier_call(ctx, n, METHOD_NONE);
            else
                report_group_unimplemented(ctx, n->loc, "0");
            return;
        }
    }
    const Node *callee = n->callee;
    if (callee && callee->kind == ND_MEMBER && callee->lhs) {
        /* `p->m()` calls the member on the object p points to. */
        const Type *receiver = emit_canonical(callee->lhs->ty);
        if (callee->is_arrow && receiver && (receiver->kind == TY_PTR || receiver->kind == TY_ARRAY))
            receiver = emit_canonical(receiver->base);
        TypeKind recv = kind_of(receiver);
        if ((recv == TY_GROUP || recv == TY_ASYNC_BARRIER) && !ctx->hooks->lowering) {
            report_group_unimplemented(ctx, n->loc, "0");
            return;
        }
        if (recv == TY_GROUP) {
            emit_group_method(ctx, n, method_lookup(callee->name));
            return;
        }
        if (recv == TY_ASYNC_BARRIER) {
            emit_barrier_call(ctx, n, method_lookup(callee->name));
            return;
        }
    }
    print_converted(ctx, callee, PREC_POSTFIX, false);
    out_str(ctx, "(");
    const Type *fnty = emit_canonical(callee ? callee->ty : NULL);
    if (fnty && fnty->kind == TY_PTR)
        fnty = emit_canonical(fnty->base);
    const Param *param = fnty && fnty->kind == TY_FUNC ? fnty->params : NULL;
    for (const Node *a = n->args.head; a; a = a->next) {
        out_str(ctx, a == n->args.head ? "" : ", ");
        print_assigned(ctx, a, param ? param->ty : NULL, PREC_ASSIGN);
        param = param ? param->next : NULL;
    }
    const Node *id = printed_node(ctx, callee);
    if (id && id->kind == ND_IDENT && id->sym && id->sym->kind == SYM_FUNC) {
        size_t before = ctx->out->len;
        if (ctx->hooks->extra_args)
            ctx->hooks->extra_args(ctx, n, id->sym, n->args.head == NULL);
        if (ctx->hooks->group_args)
            ctx->hooks->group_args(ctx, n, id->sym, n->args.head == NULL && ctx->out->len == before);
    }
    out_str(ctx, ")");
}

static const Type *type_name_type(const Node *n)
{
    const Node *tn = n->type_name;
    if (tn && tn->ty)
        return tn->ty;
    if (tn && tn->decl_specs && tn->decl_specs->resolved && !tn->declarator)
        return tn->decl_specs->resolved;
    return n->kind == ND_CAST || n->kind == ND_COMPOUND_LIT ? n->ty : NULL;
}

static void print_ident(EmitCtx *ctx, const Node *n)
{
    const Symbol *sym = n->sym;
    if (sym && sym->kind == SYM_SPEC_CONST) {
        emit_out(ctx, "SGC_SC_%s", sym->name);
        return;
    }
    emit_name(ctx, sym ? sym->name : n->name);
}

void emit_expr_prec(EmitCtx *ctx, const Node *n, EmitPrec prec)
{
    if (!n)
        return;
    if (n->kind == ND_CAST && n->is_implicit) {
        print_converted(ctx, n, prec, false);
        return;
    }
    bool parens = node_prec(ctx, n) < prec;
    if (parens)
        out_str(ctx, "(");
    switch (n->kind) {
    case ND_INT_LIT: print_int_lit(ctx, n, n->ty); break;
    case ND_FLOAT_LIT: print_float_lit(ctx, n); break;
    case ND_CHAR_LIT:
        if (n->text)
            out_str(ctx, n->text);
        else
            emit_out(ctx, "%" PRIu64, n->int_value);
        break;
    case ND_STRING_LIT: out_str(ctx, n->text ? n->text : "\"\""); break;
    case ND_BOOL_LIT: out_str(ctx, n->int_value ? "true" : "false"); break;
    case ND_IDENT: print_ident(ctx, n); break;
    case ND_UNARY: print_unary(ctx, n); break;
    case ND_POSTFIX:
        if (print_cxx_bool_step(ctx, n))
            break;
        print_converted(ctx, n->lhs, PREC_POSTFIX, false);
        out_str(ctx, op_spellings[n->op]);
        break;
    case ND_BINARY: print_binary(ctx, n); break;
    case ND_ASSIGN:
        print_converted(ctx, n->lhs, PREC_UNARY, false);
        emit_out(ctx, " %s ", op_spellings[n->op]);
        if (n->op != OP_ASSIGN && kind_of(emit_canonical(n->lhs->ty)) == TY_FLOAT &&
            is_float_exact_double_lit(printed_node(ctx, n->rhs)))
            print_float_lit_as_float(ctx, printed_node(ctx, n->rhs)); /* `x *= 2.0f` */
        else
            print_assigned(ctx, n->rhs, n->op == OP_ASSIGN ? n->lhs->ty : NULL, PREC_ASSIGN);
        break;
    case ND_COND:
        print_operand(ctx, n->cond, PREC_LOGOR, false);
        out_str(ctx, " ? ");
        print_converted(ctx, n->then, PREC_ASSIGN, false);
        out_str(ctx, " : ");
        print_converted(ctx, n->els, PREC_COND, false);
        break;
    case ND_COMMA:
        print_converted(ctx, n->lhs, PREC_COMMA, false);
        out_str(ctx, ", ");
        print_converted(ctx, n->rhs, PREC_ASSIGN, false);
        break;
    case ND_CAST: print_cast_to(ctx, n->ty, n->lhs); break;
    case ND_SIZEOF:
        out_str(ctx, "sizeof(");
        if (n->lhs)
            emit_expr_c_typed(ctx, n->lhs, PREC_COMMA);
        else
            emit_type(ctx, type_name_type(n), NULL, AS_ROLE_OTHER);
        out_str(ctx, ")");
        break;
    case ND_ALIGNOF:
        out_str(ctx, "__alignof__(");
        emit_type(ctx, n->lhs ? n->lhs->ty : type_name_type(n), NULL, AS_ROLE_OTHER);
        out_str(ctx, ")");
        break;
    case ND_CALL: print_call(ctx, n); break;
    case ND_INDEX:
        print_converted(ctx, n->lhs, PREC_POSTFIX, false);
        out_str(ctx, "[");
        print_converted(ctx, n->rhs, PREC_COMMA, false);
        out_str(ctx, "]");
        break;
    case ND_MEMBER:
        print_converted(ctx, n->lhs, PREC_POSTFIX, false);
        out_str(ctx, n->is_arrow ? "->" : ".");
        emit_name(ctx, n->member && n->member->name ? n->member->name : n->name);
        break;
    case ND_INIT_LIST: print_init_list(ctx, n); break;
    case ND_COMPOUND_LIT:
        if (ctx->hooks->is_cxx) {
            print_cxx_compound_literal(ctx, n);
            break;
        }
        out_str(ctx, "(");
        emit_type(ctx, n->ty, NULL, AS_ROLE_OTHER);
        out_str(ctx, ")");
        print_init_list(ctx, n->init ? n->init : n->lhs);
        break;
    case ND_GENERIC:
        emit_error(ctx, n->loc, "_Generic is not supported");
        break;
    default:
        emit_error(ctx, n->loc, "internal error: %s node in an expression",
                   ast_node_kind_name(n->kind));
        break;
    }
    if (parens)
        out_str(ctx, ")");
}

void emit_expr(EmitCtx *ctx, const Node *node)
{
    print_converted(ctx, node, PREC_ASSIGN, false);
}

/* ===================================================================== */
/* Declarations                                                           */
/* ===================================================================== */

static const Type *declarator_type(const Node *init_decl)
{
    if (init_decl->ty)
        return init_decl->ty;
    return init_decl->sym ? init_decl->sym->ty : NULL;
}

static const char *declarator_name(const Node *init_decl)
{
    if (init_decl->sym)
        return init_decl->sym->name;
    const Declarator *d = ast_declarator_name(init_decl->declarator);
    return d ? d->name : init_decl->name;
}

static bool chain_has_ptr(const Type *ty)
{
    for (; ty && !ty->typedef_name && (ty->kind == TY_PTR || ty->kind == TY_ARRAY); ty = ty->base)
        if (ty->kind == TY_PTR)
            return true;
    return false;
}

static void print_storage(EmitCtx *ctx, const DeclSpecs *ds)
{
    switch (ds->storage) {
    case SC_TYPEDEF: out_str(ctx, "typedef "); break;
    case SC_EXTERN: out_str(ctx, "extern "); break;
    case SC_STATIC: out_str(ctx, "static "); break;
    default: break;
    }
}

/* The bytes of a string literal's spelling (one or more quoted pieces),
 * escapes decoded (base/literal.h); returns the count, or -1 for a spelling
 * it does not know (a prefix such as L or u8). */
static int decode_string(const char *text, unsigned char *bytes, int capacity)
{
    int n = 0;
    for (const char *p = text; *p;) {
        if (*p != '"') {
            if (*p == ' ' || *p == '\t' || *p == '\n') {
                p++;
                continue;
            }
            return -1;
        }
        const char *close = p + 1;
        while (*close && *close != '"')
            close += *close == '\\' && close[1] ? 2 : 1;
        for (p++; p < close; n++) {
            if (n >= capacity)
                return -1;
            bytes[n] = (unsigned char)literal_decode_char(&p, close).value;
        }
        if (*p == '"')
            p++;
    }
    return n;
}

/* C lets `char s[3] = "abc"` drop the terminating NUL; C++ does not.  CUDA
 * C spells such an initialiser as the list of its characters. */
static bool print_cxx_exact_string(EmitCtx *ctx, const Node *init, const Type *dest)
{
    const Type *arr = emit_canonical(dest);
    const Node *lit = printed_node(ctx, init);
    if (!ctx->hooks->is_cxx || !arr || arr->kind != TY_ARRAY || !lit ||
        lit->kind != ND_STRING_LIT || !lit->text || arr->array_len <= 0 || arr->array_len > 4096)
        return false;
    unsigned char bytes[4096];
    int n = decode_string(lit->text, bytes, (int)sizeof bytes);
    if (n != arr->array_len)
        return false;
    out_str(ctx, "{");
    for (int i = 0; i < n; i++) {
        int c = bytes[i];
        if (c >= ' ' && c <= '~' && c != '\'' && c != '\\')
            emit_out(ctx, "%s'%c'", i ? ", " : "", (char)c);
        else
            emit_out(ctx, "%s%d", i ? ", " : "", (int)(signed char)c);
    }
    out_str(ctx, "}");
    return true;
}

static void print_initializer(EmitCtx *ctx, const Node *init, const Type *dest)
{
    out_str(ctx, " = ");
    if (print_cxx_exact_string(ctx, init, dest))
        return;
    if (init->kind == ND_INIT_LIST)
        print_init_list(ctx, init);
    else
        print_assigned(ctx, init, dest, PREC_ASSIGN);
}

/* A copy of `ty` without const on the object (and on array elements), for
 * a declaration whose initialisation becomes an assignment.  `room` holds
 * the copies; deeper array nesting keeps its qualifiers. */
static const Type *writable_type(const Type *ty, Type *room, int count)
{
    if (!ty || count == 0 || ty->typedef_name || !(ty->is_const || ty->kind == TY_ARRAY))
        return ty;
    room[0] = *ty;
    room[0].is_const = false;
    if (ty->kind == TY_ARRAY)
        room[0].base = (Type *)writable_type(ty->base, room + 1, count - 1);
    return &room[0];
}

/* Prints the value a crossed declaration's initialiser gives `name`:
 * `name = value;`, or for an aggregate a block that initialises a
 * temporary the C way and copies it. */
static void print_crossed_init(EmitCtx *ctx, const Node *d, const Type *ty, const char *name)
{
    const Type *canon = emit_canonical(ty);
    bool array = canon && canon->kind == TY_ARRAY;
    if (d->init->kind != ND_INIT_LIST && !array) {
        emit_name(ctx, name);
        out_str(ctx, " = ");
        print_assigned(ctx, d->init, ty, PREC_ASSIGN);
        out_str(ctx, ";");
        emit_line_end(ctx);
        return;
    }
    out_str(ctx, "{");
    emit_line_end(ctx);
    ctx->indent++;
    emit_line_begin(ctx, (SrcLoc){0, 0});
    emit_type_internal(ctx, ty, "sgc_init", AS_ROLE_BLOCK_OBJECT);
    print_initializer(ctx, d->init, ty);
    out_str(ctx, ";");
    emit_line_end(ctx);
    emit_line_begin(ctx, (SrcLoc){0, 0});
    if (array) {
        out_str(ctx, "memcpy(");
        emit_name(ctx, name);
        out_str(ctx, ", sgc_init, sizeof sgc_init);");
    } else {
        emit_name(ctx, name);
        out_str(ctx, " = sgc_init;");
    }
    emit_line_end(ctx);
    ctx->indent--;
    emit_line_begin(ctx, (SrcLoc){0, 0});
    out_str(ctx, "}");
    emit_line_end(ctx);
}

/* CUDA C: a declaration a goto or case label jumps past (emit_jumps.c).
 * C++ forbids bypassing an initialisation, so each object is declared
 * without one and then assigned, in declaration order. */
static void print_crossed_declaration(EmitCtx *ctx, const Node *decl, const Node *record)
{
    const DeclSpecs *ds = decl->decl_specs;
    for (const Node *d = decl->items.head; d; d = d->next) {
        Type room[8];
        const Type *ty = writable_type(declarator_type(d), room, 8);
        emit_line_begin(ctx, d == decl->items.head ? decl->loc : d->loc);
        DeclInfo di = {.role = AS_ROLE_BLOCK_OBJECT, .record_spec = record,
                       .spec_type = ds->resolved, .loc = d->loc};
        print_decl(ctx, ty, declarator_name(d), &di);
        out_str(ctx, ";");
        emit_line_end(ctx);
    }
    for (const Node *d = decl->items.head; d; d = d->next) {
        if (!d->init)
            continue;
        emit_line_begin(ctx, d->loc);
        print_crossed_init(ctx, d, declarator_type(d), declarator_name(d));
    }
}

static void print_function_decl(EmitCtx *ctx, const Symbol *fn, const Type *ty, SrcLoc loc,
                                bool is_definition)
{
    ctx->hooks->function_prefix(ctx, fn, is_definition);
    if (fn->is_kernel && is_definition)
        emit_check_kernel_name(ctx, fn);
    DeclInfo di = {.role = AS_ROLE_OTHER, .fn = fn, .loc = loc, .keep_name = fn->is_kernel};
    print_decl(ctx, ty, fn->name, &di);
}

/* Prints the declarators of `decl` as one or more declarations; `inline_for`
 * prints them without line breaks or the final `;` (a for-init). */
/* C++ scopes a struct defined inside another struct to it (`struct A {
 * struct B {...} b; }` makes A::B, and a later `struct B` elsewhere is a new
 * incomplete type); C puts B in the enclosing scope.  CUDA C prints such
 * nested tagged definitions first, each on its own, innermost first. */
static void hoist_nested_records(EmitCtx *ctx, const Type *record)
{
    for (const Member *m = emit_canonical(record)->members; m; m = m->next) {
        if (!m->defines_record)
            continue; /* `struct b *p`: a reference, C++ declares b outside */
        const Type *t = m->ty;
        while (t && !t->typedef_name && (t->kind == TY_ARRAY || t->kind == TY_PTR))
            t = t->base;
        const Type *canon = emit_canonical(t);
        if (!canon || (canon->kind != TY_STRUCT && canon->kind != TY_UNION) || !m->name ||
            !canon->is_complete || record_defined(ctx, canon) || (t && t->typedef_name))
            continue;
        hoist_nested_records(ctx, canon);
        if (!canon->tag)
            continue; /* an unnamed type stays where it is written */
        emit_line_begin(ctx, (SrcLoc){0, 0});
        DeclInfo di = {.role = AS_ROLE_OTHER, .member_scope = true, .loc = m->loc};
        print_decl(ctx, canon, NULL, &di);
        out_str(ctx, ";");
        emit_line_end(ctx);
    }
}

static void print_declaration(EmitCtx *ctx, const Node *decl, bool file_scope, bool inline_for)
{
    const DeclSpecs *ds = decl->decl_specs;
    if (!ds || ds->is_spec_const)
        return; /* spec constants live in the SGC_SC_ block */
    EmitAsRole role = file_scope ? AS_ROLE_FILE_OBJECT : AS_ROLE_BLOCK_OBJECT;
    if (ds->storage == SC_TYPEDEF)
        role = AS_ROLE_OTHER;
    const Node *record = ds->record;
    if (ctx->hooks->is_cxx && !inline_for && record && record->kind == ND_RECORD_SPEC &&
        record->has_body && ds->resolved)
        hoist_nested_records(ctx, ds->resolved);
    bool cxx_enum = ctx->hooks->is_cxx && record && record->kind == ND_ENUM_SPEC &&
                    record->has_body;
    if (!decl->items.head || cxx_enum) {
        /* C++ prints an enum's objects as integers (print_record_base), so
         * a declaration that also defines the enum defines it on its own. */
        if (!record)
            return;
        if (!inline_for)
            emit_line_begin(ctx, decl->loc);
        DeclInfo di = {.role = AS_ROLE_OTHER, .record_spec = record,
                       .spec_type = ds->resolved, .loc = decl->loc};
        print_decl(ctx, ds->resolved, NULL, &di);
        out_str(ctx, inline_for ? "; " : ";");
        if (!inline_for)
            emit_line_end(ctx);
        if (!decl->items.head)
            return;
        record = NULL;
    }
    if (!file_scope && !inline_for && emit_decl_is_crossed(ctx, decl)) {
        print_crossed_declaration(ctx, decl, record);
        return;
    }
    bool group = true, first_ptr = chain_has_ptr(declarator_type(decl->items.head));
    for (const Node *d = decl->items.head; d; d = d->next) {
        const Type *ty = declarator_type(d);
        if ((ty && ty->kind == TY_FUNC && !ty->typedef_name) || chain_has_ptr(ty) != first_ptr)
            group = false;
    }
    for (const Node *d = decl->items.head; d; d = d->next) {
        const Type *ty = declarator_type(d);
        const char *name = declarator_name(d);
        bool starts = !group || d == decl->items.head;
        if (starts && !inline_for)
            emit_line_begin(ctx, d == decl->items.head ? decl->loc : d->loc);
        if (ty && ty->kind == TY_FUNC && !ty->typedef_name && d->sym && ds->storage != SC_TYPEDEF) {
            print_function_decl(ctx, d->sym, ty, d->loc, false);
        } else if (starts) {
            print_storage(ctx, ds);
            DeclInfo di = {.role = role, .record_spec = record, .spec_type = ds->resolved,
                           .typedef_self = ds->storage == SC_TYPEDEF ? name : NULL, .loc = d->loc};
            print_decl(ctx, ty, name, &di);
        } else {
            /* The shared specifiers are already printed: only the declarator. */
            EmitBuffer text;
            emit_buffer_init(&text);
            DeclInfo di = {.role = role, .loc = d->loc};
            build_declarator(ctx, ty, name, &di, &text);
            emit_out(ctx, ", %s", text.data ? text.data : "");
            emit_buffer_free(&text);
        }
        if (d->init)
            print_initializer(ctx, d->init, ty);
        bool ends = !group || !d->next;
        if (ends && !inline_for) {
            out_str(ctx, ";");
            emit_line_end(ctx);
        }
    }
}

/* ===================================================================== */
/* Statements                                                             */
/* ===================================================================== */

static bool is_hooked_stmt(NodeKind k)
{
    return k == ND_IF || k == ND_SWITCH || k == ND_WHILE || k == ND_DO || k == ND_FOR ||
           k == ND_RETURN || k == ND_BREAK || k == ND_CONTINUE;
}

static void print_block_items(EmitCtx *ctx, const Node *block)
{
    ctx->indent++;
    if (block && block->kind == ND_BLOCK) {
        for (const Node *s = block->items.head; s; s = s->next)
            emit_stmt(ctx, s);
    } else if (block) {
        emit_stmt(ctx, block);
    }
    ctx->indent--;
}

/* ` {`, the body's statements one level deeper, and the closing `}` line
 * start (the caller ends the line or continues with `else`/`while`).
 * Bodies are always braced, so that a lowering may add statements. */
static void print_body(EmitCtx *ctx, const Node *body)
{
    out_str(ctx, " {");
    emit_line_end(ctx);
    print_block_items(ctx, body);
    emit_line_begin(ctx, (SrcLoc){0, 0});
    out_str(ctx, "}");
}

static void print_cond(EmitCtx *ctx, const char *keyword, const Node *cond)
{
    emit_out(ctx, "%s (", keyword);
    print_converted(ctx, cond, PREC_COMMA, false);
    out_str(ctx, ")");
}

static void print_if(EmitCtx *ctx, const Node *n)
{
    print_cond(ctx, "if", n->cond);
    print_body(ctx, n->then);
    const Node *els = n->els;
    while (els && els->kind == ND_IF && !ctx->hooks->stmt_pre && !ctx->hooks->stmt_post) {
        out_str(ctx, " else ");
        print_cond(ctx, "if", els->cond);
        print_body(ctx, els->then);
        els = els->els;
    }
    if (els) {
        out_str(ctx, " else");
        print_body(ctx, els);
    }
    emit_line_end(ctx);
}

static void print_for(EmitCtx *ctx, const Node *n)
{
    out_str(ctx, "for (");
    if (n->init && n->init->kind == ND_DECL)
        print_declaration(ctx, n->init, false, true);
    else if (n->init && n->init->kind == ND_EXPR_STMT)
        print_converted(ctx, n->init->lhs, PREC_COMMA, false);
    else if (n->init && n->init->kind != ND_NULL_STMT)
        print_converted(ctx, n->init, PREC_COMMA, false);
    out_str(ctx, n->cond ? "; " : ";");
    print_converted(ctx, n->cond, PREC_COMMA, false);
    out_str(ctx, n->inc ? "; " : ";");
    print_converted(ctx, n->inc, PREC_COMMA, false);
    out_str(ctx, ")");
    print_body(ctx, n->body);
    emit_line_end(ctx);
}

/* A label one level out, then the statement it labels. */
static void print_labelled(EmitCtx *ctx, const Node *n)
{
    ctx->indent--;
    emit_line_begin(ctx, n->loc);
    if (n->kind == ND_CASE) {
        out_str(ctx, "case ");
        print_converted(ctx, n->lhs, PREC_COND, false);
        out_str(ctx, ":");
    } else if (n->kind == ND_DEFAULT) {
        out_str(ctx, "default:");
    } else {
        emit_name(ctx, n->name);
        out_str(ctx, ":");
    }
    ctx->indent++;
    if (!n->body) {
        out_str(ctx, ";");
        emit_line_end(ctx);
        return;
    }
    emit_line_end(ctx);
    emit_stmt(ctx, n->body);
}

static void print_stmt_body(EmitCtx *ctx, const Node *n)
{
    switch (n->kind) {
    case ND_BLOCK:
        out_str(ctx, "{");
        emit_line_end(ctx);
        print_block_items(ctx, n);
        emit_line_begin(ctx, (SrcLoc){0, 0});
        out_str(ctx, "}");
        emit_line_end(ctx);
        break;
    case ND_EXPR_STMT:
        print_converted(ctx, n->lhs, PREC_COMMA, false);
        out_str(ctx, ";");
        emit_line_end(ctx);
        break;
    case ND_NULL_STMT: out_str(ctx, ";"); emit_line_end(ctx); break;
    case ND_IF: print_if(ctx, n); break;
    case ND_SWITCH:
        print_cond(ctx, "switch", n->cond);
        print_body(ctx, n->body);
        emit_line_end(ctx);
        break;
    case ND_WHILE:
        print_cond(ctx, "while", n->cond);
        print_body(ctx, n->body);
        emit_line_end(ctx);
        break;
    case ND_DO:
        out_str(ctx, "do");
        print_body(ctx, n->body);
        out_str(ctx, " ");
        print_cond(ctx, "while", n->cond);
        out_str(ctx, ";");
        emit_line_end(ctx);
        break;
    case ND_FOR: print_for(ctx, n); break;
    case ND_BREAK: out_str(ctx, "break;"); emit_line_end(ctx); break;
    case ND_CONTINUE: out_str(ctx, "continue;"); emit_line_end(ctx); break;
    case ND_RETURN:
        out_str(ctx, n->lhs ? "return " : "return");
        if (n->lhs)
            print_assigned(ctx, n->lhs, ctx->function && ctx->function->ty
                                        ? ctx->function->ty->base : NULL, PREC_COMMA);
        out_str(ctx, ";");
        emit_line_end(ctx);
        break;
    case ND_GOTO:
        out_str(ctx, "goto ");
        emit_name(ctx, n->name);
        out_str(ctx, ";");
        emit_line_end(ctx);
        break;
    case ND_STATIC_ASSERT:
        emit_out(ctx, "%s(", ctx->hooks->static_assert_kw);
        print_converted(ctx, n->cond, PREC_ASSIGN, false);
        emit_out(ctx, ", %s);", n->text ? n->text : "\"\"");
        emit_line_end(ctx);
        break;
    default:
        emit_error(ctx, n->loc, "internal error: unexpected %s statement",
                   ast_node_kind_name(n->kind));
        emit_line_end(ctx);
        break;
    }
}

void emit_stmt(EmitCtx *ctx, const Node *n)
{
    if (n && ctx->hooks->stmt_override && ctx->hooks->stmt_override(ctx, n))
        return;
    emit_stmt_default(ctx, n);
}

void emit_stmt_default(EmitCtx *ctx, const Node *n)
{
    if (!n)
        return;
    switch (n->kind) {
    case ND_DECL:
        print_declaration(ctx, n, false, false);
        return;
    case ND_CASE: case ND_DEFAULT: case ND_LABEL:
        print_labelled(ctx, n);
        return;
    case ND_PRAGMA: {
        /* The parser may keep the whole line or only what follows #pragma. */
        const char *text = n->text ? n->text : "";
        while (*text == ' ' || *text == '\t')
            text++;
        bool whole = strncmp(text, "#", 1) == 0;
        line_track(ctx, n->loc);
        emit_out(ctx, "%s%s\n", whole ? "" : "#pragma ", text);
        return;
    }
    default:
        break;
    }
    bool hooked = is_hooked_stmt(n->kind);
    if (hooked && ctx->hooks->stmt_pre)
        ctx->hooks->stmt_pre(ctx, n);
    emit_line_begin(ctx, n->loc);
    print_stmt_body(ctx, n);
    if (hooked && ctx->hooks->stmt_post)
        ctx->hooks->stmt_post(ctx, n);
}

/* ===================================================================== */
/* Top level                                                              */
/* ===================================================================== */

static void print_function_def(EmitCtx *ctx, const Node *def)
{
    const Symbol *fn = def->sym;
    if (!fn)
        return;
    emit_line_directive(ctx, def->loc);
    ctx->function = fn;
    ctx->indent = 0;
    print_function_decl(ctx, fn, fn->ty, def->loc, true);
    out_str(ctx, " {");
    emit_line_end(ctx);
    ctx->indent = 1;
    emit_find_crossed_decls(ctx, def->body);
    if (ctx->hooks->group_prologue)
        ctx->hooks->group_prologue(ctx, fn);
    if (ctx->hooks->body_prologue)
        ctx->hooks->body_prologue(ctx, fn);
    if (def->body && def->body->kind == ND_BLOCK)
        for (const Node *s = def->body->items.head; s; s = s->next)
            emit_stmt(ctx, s);
    ctx->indent = 0;
    out_str(ctx, "}\n");
    ctx->function = NULL;
}

/* A definition the target cannot run (EmitHooks.unsupported) is left out;
 * its callers are too (sema propagates the reason), so nothing refers to
 * it.  Hosts learn it from the header and the module description. */
static bool left_out(EmitCtx *ctx, const Node *def)
{
    const Symbol *fn = def->sym;
    char why[200];
    if (!fn || !ctx->hooks->unsupported || !ctx->hooks->unsupported(fn, why, sizeof why))
        return false;
    if (fn->is_kernel) {
        emit_out(ctx, "\n/* kernel '%s' is left out of the %s output: %s */\n", fn->name,
                 ctx->hooks->target_name, why);
        diag_warning(ctx->diag, WARN_TARGET_UNSUPPORTED, fn->loc,
                     "kernel '%s' is left out of the %s output: %s", fn->name,
                     ctx->hooks->target_name, why);
    }
    return true;
}

static void print_top_level(EmitCtx *ctx, const Node *n)
{
    switch (n->kind) {
    case ND_FUNC_DEF:
        if (left_out(ctx, n))
            break;
        out_str(ctx, "\n");
        if (n->sym && ctx->hooks->definition_guard && ctx->hooks->definition_guard(ctx, n->sym)) {
            print_function_def(ctx, n);
            out_str(ctx, "#endif\n");
            break;
        }
        print_function_def(ctx, n);
        break;
    case ND_DECL:
        if (n->decl_specs && n->decl_specs->is_spec_const)
            break;
        out_str(ctx, "\n");
        emit_line_directive(ctx, n->loc);
        print_declaration(ctx, n, true, false);
        break;
    case ND_STATIC_ASSERT:
        out_str(ctx, "\n");
        emit_line_directive(ctx, n->loc);
        print_stmt_body(ctx, n);
        break;
    case ND_PRAGMA:
        emit_stmt(ctx, n);
        break;
    default:
        emit_error(ctx, n->loc, "internal error: unexpected %s at file scope",
                   ast_node_kind_name(n->kind));
        break;
    }
}

/* A floating default in the exact spelling hosts use for -DSGC_SPEC_N
 * (emit_spelling.h: hexadecimal, sign of zero kept), followed by the
 * shortest decimal for the reader; NaN and infinities in the target's own
 * spelling.  `after` closes the macro before the comment. */
static void print_spec_float_default(EmitCtx *ctx, double value, bool is_float,
                                     const char *after)
{
    char spelling[EMIT_SPELLING_MAX];
    if (!isfinite(value)) {
        emit_float_literal(ctx, value, is_float);
        out_str(ctx, after);
        return;
    }
    emit_spell_float(spelling, sizeof spelling, value, is_float);
    out_str(ctx, spelling);
    out_str(ctx, after);
    out_str(ctx, " /* ");
    emit_float_literal(ctx, value, is_float);   /* also asks for fp64 when double */
    out_str(ctx, " */");
}

/* The binding contract of docs/REFERENCE.md "Specialization constants": ID N is read from SGC_SPEC_N, with the
 * default (or #error) when the host did not define it. */
static void print_spec_const_block(EmitCtx *ctx)
{
    const TranslationUnit *tu = ctx->tu;
    if (tu->spec_const_count == 0)
        return;
    out_str(ctx, "\n/* Specialization constants: the host defines SGC_SPEC_<id> to bind one. */\n");
    for (int i = 0; i < tu->spec_const_count; i++) {
        const Symbol *sc = tu->spec_consts[i];
        TypeKind k = kind_of(emit_canonical(sc->ty));
        const char *spelling = ctx->hooks->scalar_type(k == TY_ENUM ? TY_INT : k);
        emit_out(ctx, "#ifdef SGC_SPEC_%" PRIu32 "\n", sc->spec_id);
        emit_out(ctx, "#define SGC_SC_%s ((%s)(SGC_SPEC_%" PRIu32 "))\n#else\n", sc->name,
                 spelling, sc->spec_id);
        if (sc->spec_required) {
            emit_out(ctx, "#error \"spec constant '%s' (ID %" PRIu32 ") has no value: "
                          "define SGC_SPEC_%" PRIu32 "\"\n", sc->name, sc->spec_id, sc->spec_id);
        } else {
            emit_out(ctx, "#define SGC_SC_%s ((%s)(", sc->name, spelling);
            if (k == TY_BOOL) {
                out_str(ctx, sc->spec_default_int ? "1))" : "0))");
            } else if (is_float_kind(k)) {
                print_spec_float_default(ctx, sc->spec_default_float, k == TY_FLOAT, "))");
            } else {
                emit_int_literal(ctx, sc->ty, (uint64_t)sc->spec_default_int);
                out_str(ctx, "))");
            }
            out_str(ctx, "\n");
        }
        out_str(ctx, "#endif\n");
    }
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

bool emit_unit_with(const EmitHooks *hooks, const TranslationUnit *tu,
                    const SourceManager *sources, const EmitOptions *options,
                    Diag *diag, EmitBuffer *out, void *target_data)
{
    EmitBuffer body, head;
    emit_buffer_init(&body);
    emit_buffer_init(&head);
    EmitCtx ctx = {.hooks = hooks, .tu = tu, .sources = sources, .options = options,
                   .diag = diag, .out = &body, .target_data = target_data};
    emit_buffer_init(&ctx.pieces);
    emit_collect_file_scope_names(&ctx);
    /* USE_FP64 comes from what is printed (a `double` spelled, a double
     * literal left double), not from sema's tu->uses_fp64: literals demoted
     * to float (print_binary) must not enable fp64. */
    if (tu->root)
        for (const Node *n = tu->root->items.head; n; n = n->next)
            print_top_level(&ctx, n);

    /* The spec-constant block goes into `head` first: defaults may use fp64. */
    ctx.out = &head;
    print_spec_const_block(&ctx);
    /* Everything before the body goes into `prefix`, which is then put in
     * front of the body in the body's own buffer: copying a large body into
     * `out` would hold the translated text twice at the peak. */
    EmitBuffer prefix;
    emit_buffer_init(&prefix);
    ctx.out = &prefix;
    emit_printf(&prefix, "/* Generated by sgcc %s from %s (%s). Do not edit. */\n",
                options->sgcc_version ? options->sgcc_version : "(unknown version)",
                base_name(tu->main_file ? tu->main_file : "<input>"), hooks->target_name);
    if (hooks->unit_prelude)
        hooks->unit_prelude(&ctx, &prefix);
    if (ctx.pieces.len)
        emit_write(&prefix, ctx.pieces.data, ctx.pieces.len);
    if (head.len)
        emit_write(&prefix, head.data, head.len);
    ctx.out = out;
    if (out->len == 0 && body.len) {
        buffer_reserve(&body, prefix.len);
        memmove(body.data + prefix.len, body.data, body.len + 1);
        memcpy(body.data, prefix.data, prefix.len);
        body.len += prefix.len;
        emit_buffer_free(out);
        *out = body;
        emit_buffer_init(&body);
    } else {
        emit_write(out, prefix.data, prefix.len);
        if (body.len)
            emit_write(out, body.data, body.len);
    }
    emit_buffer_free(&prefix);

    for (int i = 0; i < ctx.piece_keys.count; i++)
        free(ctx.piece_keys.items[i]);
    free(ctx.piece_keys.items);
    free(ctx.defined_records.items);
    free(ctx.file_scope_names.items);
    free(ctx.split_decls.items);
    emit_groups_free(&ctx);
    emit_buffer_free(&ctx.pieces);
    emit_buffer_free(&head);
    emit_buffer_free(&body);
    return !ctx.failed;
}

/* ===================================================================== */
/* Default hooks and the target table                                     */
/* ===================================================================== */

const EmitTarget emit_targets[TARGET_COUNT] = {
#define TARGET(kind, name, api, extension, sgcc_bit, sgcc_output) \
    [TARGET_##kind] = {TARGET_##kind, #name, api, extension, &emit_##name##_hooks, emit_##name##_unit},
#include "emit/targets.def"
#undef TARGET
};

bool emit_target_unsupported(const EmitTarget *target, const Symbol *fn, char *why, size_t cap)
{
    return target->hooks->unsupported && target->hooks->unsupported(fn, why, cap);
}

int emit_target_sub_group_max(const EmitTarget *target)
{
    return target->hooks->lowering ? target->hooks->lowering->sub_group_max : 64;
}
