/* sema.c — semantic analysis driver: scopes and symbols, declarations at
 * every scope, function definitions, kernel rules and attributes, spec
 * constants and their IDs (docs/REFERENCE.md "Specialization constants"), and the TranslationUnit tables.
 *
 * One pass over the tree in source order resolves names and types (the
 * other sema_*.c files, see sema_int.h); whole-unit properties that need
 * every function first (recursion, transitive sub-group use, tangle masks,
 * uniformity) are computed afterwards in sema_flow.c. */
#include <stdlib.h>
#include <string.h>

#include "sema/sema_int.h"
#include "base/hash.h"
#include "base/suggest.h"

const char *fmt_type(Sema *s, const Type *ty)
{
    char buf[512];
    if (ty == s->t_err)
        return "<error>";
    return arena_strdup(s->arena, type_name(ty, buf, sizeof buf));
}

/* A value's type as the user wrote it, without the address space and
 * qualifiers of the object it was read from: a typedef's name, else the
 * unqualified type ('short' for an element of a `global const short *`). */
const char *fmt_value_type(Sema *s, const Type *ty)
{
    if (ty != s->t_err && ty->typedef_name)
        return ty->typedef_name;
    return fmt_type(s, ty == s->t_err ? ty : type_unqualified(ty));
}

/* ---- scopes ------------------------------------------------------------- */

static unsigned name_hash(const char *name) { return hash_string(name); }

/* A popped scope is never looked at again (symbols keep only its depth), so
 * block scopes are recycled: a unit then holds as many bucket arrays as its
 * deepest nesting, not one pair per block. */
void sema_push_scope(Sema *s)
{
    int depth = s->scope ? s->scope->depth + 1 : 0;
    Scope *scope = s->free_scopes;
    if (depth != 0 && scope) {
        s->free_scopes = scope->parent;
        scope->buckets = SCOPE_BUCKETS;
        memset(scope->names, 0, sizeof(ScopeEntry *) * scope->buckets);
        memset(scope->tags, 0, sizeof(ScopeEntry *) * scope->buckets);
    } else {
        scope = ARENA_NEW(s->arena, Scope);
        scope->buckets = scope->capacity = depth == 0 ? FILE_SCOPE_BUCKETS : SCOPE_BUCKETS;
        scope->names = ARENA_NEW_ARRAY(s->arena, ScopeEntry *, scope->buckets);
        scope->tags = ARENA_NEW_ARRAY(s->arena, ScopeEntry *, scope->buckets);
    }
    scope->entries = 0;
    scope->parent = s->scope;
    scope->depth = depth;
    s->scope = scope;
}

/* The entries of a popped scope go to s->free_entries for insert_in to reuse
 * (issue 24: one per local symbol piled up in the arena). */
static void free_entries(Sema *s, ScopeEntry **buckets, unsigned count)
{
    for (unsigned b = 0; b < count; b++) {
        for (ScopeEntry *e = buckets[b], *next; e; e = next) {
            next = e->next;
            e->next = s->free_entries;
            s->free_entries = e;
        }
    }
}

void sema_pop_scope(Sema *s)
{
    Scope *scope = s->scope;
    s->scope = scope->parent;
    if (scope->depth != 0) {
        free_entries(s, scope->names, scope->buckets);
        free_entries(s, scope->tags, scope->buckets);
        scope->parent = s->free_scopes;
        s->free_scopes = scope;
    }
}

static ScopeEntry *find_in(ScopeEntry *const *buckets, unsigned count, const char *name)
{
    for (ScopeEntry *e = buckets[name_hash(name) & (count - 1)]; e; e = e->next)
        if (strcmp(e->name, name) == 0)
            return e;
    return NULL;
}

/* Moves the entries of old[0..old_count) into the empty fresh[0..count);
 * each chain keeps its order (the newest declaration of a name first). */
static void rehash_into(ScopeEntry **fresh, unsigned count, ScopeEntry **old, unsigned old_count)
{
    for (unsigned b = 0; b < old_count; b++) {
        ScopeEntry *reversed = NULL;
        for (ScopeEntry *e = old[b], *next; e; e = next) {
            next = e->next;
            e->next = reversed;
            reversed = e;
        }
        for (ScopeEntry *e = reversed, *next; e; e = next) {
            next = e->next;
            unsigned h = name_hash(e->name) & (count - 1);
            e->next = fresh[h];
            fresh[h] = e;
        }
    }
}

/* A block with thousands of locals (generated code) doubles its tables, so
 * that lookups stay short; the bigger arrays stay with the recycled scope. */
static void grow_scope(Sema *s, Scope *scope)
{
    unsigned count = scope->buckets * 2;
    ScopeEntry **names = scope->names, **tags = scope->tags;
    if (count > scope->capacity) {
        scope->names = ARENA_NEW_ARRAY(s->arena, ScopeEntry *, count);
        scope->tags = ARENA_NEW_ARRAY(s->arena, ScopeEntry *, count);
        scope->capacity = count;
        rehash_into(scope->names, count, names, scope->buckets);
        rehash_into(scope->tags, count, tags, scope->buckets);
    } else {
        /* the spare half is unused: move what the used half holds */
        ScopeEntry **saved = mem_alloc(sizeof *saved * scope->buckets);
        for (int which = 0; which < 2; which++) {
            ScopeEntry **table = which ? tags : names;
            memcpy(saved, table, sizeof *saved * scope->buckets);
            memset(table, 0, sizeof *table * count);
            rehash_into(table, count, saved, scope->buckets);
        }
        free(saved);
    }
    scope->buckets = count;
}

static void insert_in(Sema *s, ScopeEntry **buckets, unsigned count, const char *name,
                      Symbol *sym, Type *tag)
{
    ScopeEntry *e = s->free_entries;
    if (e)
        s->free_entries = e->next;
    else
        e = ARENA_NEW(s->arena, ScopeEntry);
    unsigned h = name_hash(name) & (count - 1);
    e->name = name;
    e->sym = sym;
    e->tag = tag;
    e->next = buckets[h];
    buckets[h] = e;
}

/* Ordinary identifiers; built-in functions resolve when nothing user-declared
 * has the name. */
Symbol *sema_lookup(Sema *s, const char *name)
{
    for (Scope *sc = s->scope; sc; sc = sc->parent) {
        ScopeEntry *e = find_in(sc->names, sc->buckets, name);
        if (e)
            return e->sym;
    }
    Builtin bi = builtin_lookup(name);
    if (bi == BI_NONE)
        return NULL;
    if (!s->builtin_syms[bi]) {
        Symbol *sym = ARENA_NEW(s->arena, Symbol);
        sym->kind = SYM_BUILTIN;
        sym->name = builtin_info[bi].name;
        sym->builtin = bi;
        sym->is_global = true;
        s->builtin_syms[bi] = sym;
    }
    return s->builtin_syms[bi];
}

/* The visible name (variables, functions, constants, built-in functions)
 * closest to a misspelt `word`, for "did you mean" (suggest.h); NULL when
 * none is close.  Only called on an error, so it may walk every scope. */
const char *sema_suggest_name(Sema *s, const char *word)
{
    PtrVec names = {0};
    for (Scope *sc = s->scope; sc; sc = sc->parent)
        for (unsigned b = 0; b < sc->buckets; b++)
            for (ScopeEntry *e = sc->names[b]; e; e = e->next)
                if (e->sym && e->sym->kind != SYM_TYPEDEF && e->sym->ty != s->t_err)
                    vec_push(&names, (void *)e->name);
    for (int bi = BI_NONE + 1; bi < BI_COUNT; bi++)
        vec_push(&names, (void *)builtin_info[bi].name);
    const char *best = suggest_closest(word, (const char *const *)names.items, (size_t)names.count);
    vec_free(&names);
    return best;
}

/* Whether syntax-error recovery dropped a declaration of `name`
 * (ND_TRANSLATION_UNIT.dropped_names, parse.y): its uses are not reported
 * again. */
bool sema_name_was_dropped(Sema *s, const char *name)
{
    const NodeList *dropped = s->tu->root ? s->tu->root->dropped_names : NULL;
    for (const Node *n = dropped ? dropped->head : NULL; n; n = n->next)
        if (strcmp(n->name, name) == 0)
            return true;
    return false;
}

static Symbol *lookup_current(Sema *s, const char *name)
{
    ScopeEntry *e = find_in(s->scope->names, s->scope->buckets, name);
    return e ? e->sym : NULL;
}

Type *sema_lookup_tag(Sema *s, const char *name, bool current_only)
{
    for (Scope *sc = s->scope; sc; sc = current_only ? NULL : sc->parent) {
        ScopeEntry *e = find_in(sc->tags, sc->buckets, name);
        if (e)
            return e->tag;
    }
    return NULL;
}

/* Makes room for one more name or tag in the current scope. */
static void count_entry(Sema *s)
{
    if (++s->scope->entries > 2 * s->scope->buckets)
        grow_scope(s, s->scope);
}

void sema_declare_tag(Sema *s, const char *name, Type *ty)
{
    count_entry(s);
    insert_in(s, s->scope->tags, s->scope->buckets, name, NULL, ty);
}

/* Declares a new symbol in the current scope, reporting a redefinition
 * (the new symbol still shadows the old one so that later uses type-check). */
Symbol *sema_new_symbol(Sema *s, SymbolKind kind, const char *name, Type *ty, SrcLoc loc)
{
    Symbol *prev = lookup_current(s, name);
    if (!prev && s->scope->depth == 2 && s->scope->parent) { /* body vs parameters */
        ScopeEntry *e = find_in(s->scope->parent->names, s->scope->parent->buckets, name);
        prev = e ? e->sym : NULL;
    }
    if (prev) {
        diag_error(s->diag, loc, "redefinition of '%s'", name);
        diag_note(s->diag, prev->loc, "previous definition is here");
    }
    Symbol *sym = ast_alloc_sized(s->arena, symbol_size(kind), sizeof(Symbol)); /* symbols.h */
    sym->kind = kind;
    sym->name = name;
    sym->ty = ty;
    sym->loc = loc;
    sym->scope_depth = s->scope->depth;
    sym->is_global = s->scope->depth == 0;
    sym->is_uniform = true;
    count_entry(s);
    insert_in(s, s->scope->names, s->scope->buckets, name, sym, NULL);
    return sym;
}

/* ---- attributes (docs/REFERENCE.md "Kernels, address spaces and attributes") --- */

/* The most work-items reqd_work_group_size may ask for (the product of
 * its dimensions; each dimension is at most this too, attr_positive): no
 * device runs larger work-groups (CUDA 1024 threads a block, OpenCL CPU
 * runtimes 4096-8192), and the product then fits every int the emitters
 * and the module description print it in.  docs/REFERENCE.md "Limits". */
#define SEMA_MAX_WORK_GROUP_ITEMS (1 << 20)
/* The widest reqd_sub_group_size: the 64-bit lane masks of the OpenCL
 * library (the widest sub-group of any device). */
#define SEMA_MAX_SUB_GROUP_SIZE 64

/* Folds an attribute argument into *out.  With `spec_ok`, an argument that
 * depends on a spec constant is accepted (docs/REFERENCE.md "Specialization constants"): *out is then 0, the
 * value being known only when the device program is built. */
static bool attr_positive(Sema *s, Attribute *a, Node *arg, int *out, bool spec_ok)
{
    int64_t v;
    if (!sema_int_const(s, arg, &v, "attribute argument"))
        return false;
    if (arg->depends_on_spec_const && spec_ok) {
        *out = 0;
        return true;
    }
    if (v > SEMA_MAX_WORK_GROUP_ITEMS && !arg->depends_on_spec_const) {
        diag_error(s->diag, arg->loc, "'%s' attribute argument must be at most %d", a->name,
                   SEMA_MAX_WORK_GROUP_ITEMS);
        return false;
    }
    if (v <= 0 || arg->depends_on_spec_const) {
        diag_error(s->diag, arg->loc, "'%s' attribute requires a positive integer constant%s", a->name,
                   arg->depends_on_spec_const ? ", not one that depends on a spec constant" : "");
        return false;
    }
    *out = (int)v;
    return true;
}

/* reqd_work_group_size(x, y, z), an argument of which may be a spec
 * constant: kept as an expression for the emitters. */
static void reqd_work_group_size_arg(Symbol *fn, int dim, Node *arg, int value)
{
    fn->reqd_work_group_size[dim] = value;
    if (!arg->depends_on_spec_const)
        return;
    fn->reqd_work_group_size_expr[dim] = arg;
    Node *bare = arg;
    while (bare->kind == ND_CAST && bare->is_implicit)
        bare = bare->lhs;
    if (bare->kind == ND_IDENT && bare->sym && bare->sym->kind == SYM_SPEC_CONST)
        fn->reqd_work_group_size_spec[dim] = bare->sym;
}

/* The product of reqd_work_group_size's known dimensions (one given by a
 * spec constant is not known here: it counts as 1). */
static void check_work_group_items(Sema *s, const Attribute *a, const Symbol *fn)
{
    int64_t items = 1;
    for (int d = 0; d < 3; d++)
        if (fn->reqd_work_group_size[d] > 0)
            items *= fn->reqd_work_group_size[d];
    if (items > SEMA_MAX_WORK_GROUP_ITEMS)
        diag_error(s->diag, a->loc, "'reqd_work_group_size' asks for %lld work-items; a "
                   "work-group holds at most %d", (long long)items, SEMA_MAX_WORK_GROUP_ITEMS);
}

static bool attr_ignored(const char *name)
{
    static const char *const names[] = {
        "maybe_unused", "unused", "nodiscard", "deprecated", "noreturn", "fallthrough",
        "always_inline", "noinline", "packed", "aligned", "const", "pure",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

static void check_attrs(Sema *s, Attribute *list, Symbol *fn)
{
    for (Attribute *a = list; a; a = a->next) {
        bool wgs = strcmp(a->name, "reqd_work_group_size") == 0;
        bool sgs = strcmp(a->name, "reqd_sub_group_size") == 0;
        if (!wgs && !sgs) {
            if (!attr_ignored(a->name))
                diag_warning(s->diag, WARN_UNKNOWN_ATTRIBUTES, a->loc,
                             "unknown attribute '%s' ignored", a->name);
            continue;
        }
        if (!fn || !fn->is_kernel) {
            diag_warning(s->diag, WARN_IGNORED_ATTRIBUTES, a->loc,
                         "'%s' attribute only applies to kernel functions", a->name);
            continue;
        }
        int want = wgs ? 3 : 1;
        if (a->args.count != want) {
            diag_error(s->diag, a->loc, "'%s' attribute requires exactly %d argument%s", a->name,
                       want, want == 1 ? "" : "s");
            continue;
        }
        int i = 0, v;
        for (Node *arg = a->args.head; arg; arg = arg->next, i++) {
            if (!attr_positive(s, a, arg, &v, wgs))
                continue;
            if (wgs)
                reqd_work_group_size_arg(fn, i, arg, v);
            else if (v & (v - 1))
                diag_error(s->diag, arg->loc, "'reqd_sub_group_size' must be a power of two");
            else if (v > SEMA_MAX_SUB_GROUP_SIZE)
                diag_error(s->diag, arg->loc, "'reqd_sub_group_size' must be at most %d",
                           SEMA_MAX_SUB_GROUP_SIZE);
            else
                fn->reqd_sub_group_size = v;
        }
        if (wgs)
            check_work_group_items(s, a, fn);
        fn->attrs = list;
    }
}

static Attribute *declarator_attrs(Sema *s, Attribute *spec_attrs, const Declarator *d)
{
    Attribute head = {0}, *tail = &head;
    for (Attribute *a = spec_attrs; a; a = a->next) {
        tail->next = ARENA_NEW(s->arena, Attribute);
        *tail->next = *a;
        tail = tail->next;
        tail->next = NULL;
    }
    for (; d; d = d->inner)
        for (Attribute *a = d->attrs; a; a = a->next) {
            tail->next = ARENA_NEW(s->arena, Attribute);
            *tail->next = *a;
            tail = tail->next;
            tail->next = NULL;
        }
    return head.next;
}

/* ---- functions ---------------------------------------------------------- */

static SrcLoc name_loc(const Declarator *d)
{
    const Declarator *nd = ast_declarator_name(d);
    return nd ? nd->loc : d->loc;
}

static const char *param_type_problem(Sema *s, const Type *ty)
{
    if (ty->kind == TY_BOOL || ty->kind == TY_SIZE_T || ty->kind == TY_GROUP ||
        ty->kind == TY_ASYNC_BARRIER || ty->kind == TY_ARRIVAL_TOKEN)
        return fmt_type(s, ty);
    return NULL;
}

/* OpenCL C kernel signature rules (docs/REFERENCE.md "Kernels, address spaces and attributes", OpenCL C 6.9). */
static void kernel_checks(Sema *s, Symbol *fn, Declarator *d)
{
    Type *ty = fn->ty;
    if (ty->base->kind != TY_VOID)
        diag_error(s->diag, name_loc(d), "kernel function '%s' must have void return type", fn->name);
    for (const Param *p = ty->params; p; p = p->next) {
        const char *bad = param_type_problem(s, p->ty);
        if (bad) {
            diag_error(s->diag, p->loc, "'%s' cannot be used as the type of a kernel parameter", bad);
            continue;
        }
        if (p->ty->kind != TY_PTR)
            continue;
        AddrSpace as = p->ty->base->addr_space;
        if (as != AS_GLOBAL && as != AS_CONSTANT && as != AS_LOCAL)
            diag_error(s->diag, p->loc,
                       "kernel pointer parameter '%s' must point to global, constant or local memory",
                       p->name ? p->name : "");
        else if (p->ty->base->kind == TY_PTR)
            diag_error(s->diag, p->loc, "kernel parameter '%s' cannot be a pointer to a pointer",
                       p->name ? p->name : "");
    }
}

static void return_type_checks(Sema *s, Type *fn, Declarator *d)
{
    if (fn->base->kind == TY_GROUP)
        diag_error(s->diag, name_loc(d), "group value cannot escape the scope where it was created");
    else if (fn->base->kind == TY_ASYNC_BARRIER)
        diag_error(s->diag, name_loc(d), "async_barrier must be declared in local memory");
    for (const Param *p = fn->params; p; p = p->next)
        if (p->ty->kind == TY_ASYNC_BARRIER)
            diag_error(s->diag, p->loc, "async_barrier must be declared in local memory");
}

static Symbol *func_declare(Sema *s, DeclSpecs *ds, Declarator *d, Type *ty, const char *name,
                            bool is_def)
{
    SrcLoc loc = name_loc(d);
    Symbol *prev = lookup_current(s, name);
    Symbol *sym = NULL;
    if (prev && prev->kind != SYM_FUNC) {
        diag_error(s->diag, loc, "redefinition of '%s' as different kind of symbol", name);
        diag_note(s->diag, prev->loc, "previous definition is here");
    } else if (prev && !type_compatible(prev->ty, ty)) {
        diag_error(s->diag, loc, "conflicting types for '%s'", name);
        diag_note(s->diag, prev->loc, "previous declaration is here");
    } else if (prev && is_def && prev->def) {
        diag_error(s->diag, loc, "redefinition of '%s'", name);
        diag_note(s->diag, prev->loc, "previous definition is here");
    } else if (prev) {
        sym = prev;
    }
    if (!sym) {
        sym = ARENA_NEW(s->arena, Symbol);
        sym->kind = SYM_FUNC;
        sym->name = name;
        sym->loc = loc;
        sym->is_global = true;
        sym->index = s->declared_funcs.count;
        vec_push(&s->declared_funcs, sym);
        if (!prev) { /* a conflicting one is not entered: the first one stays visible */
            count_entry(s);
            insert_in(s, s->scope->names, s->scope->buckets, name, sym, NULL);
        }
    }
    if (prev == sym && sym->is_kernel != ds->is_kernel && is_def)
        diag_error(s->diag, loc, "conflicting 'kernel' specifier for '%s'", name);
    sym->is_kernel |= ds->is_kernel;
    sym->storage = ds->storage;
    if (is_def || !sym->ty)
        sym->ty = ty;
    check_attrs(s, declarator_attrs(s, ds->attrs, d), sym);
    if (is_def || prev != sym) {
        return_type_checks(s, ty, d);
        if (sym->is_kernel)
            kernel_checks(s, sym, d);
    }
    return sym;
}

static void function_definition(Sema *s, Node *def)
{
    Type *base = sema_declspecs(s, def->decl_specs);
    if (!base) {
        diag_error(s->diag, def->loc, "'auto' return types are not supported");
        base = s->t_err;
    }
    Type *ty = sema_declarator(s, base, def->declarator, false);
    const Declarator *nd = ast_declarator_name(def->declarator);
    if (ty->kind != TY_FUNC || !nd) {
        diag_error(s->diag, def->loc, "expected a function declarator");
        return;
    }
    if (s->scope->depth != 0) {
        diag_error(s->diag, def->loc, "function definition is not allowed here");
        return;
    }
    def->ty = ty;
    Symbol *sym = func_declare(s, def->decl_specs, def->declarator, ty, nd->name, true);
    if (!sym->def)
        sym->def = def;
    def->sym = sym;
    vec_push(&s->functions, sym);
    sema_function_body(s, def);
}

/* ---- spec constants (docs/REFERENCE.md "Specialization constants") ------ */

static bool spec_type_ok(const Type *ty)
{
    switch (ty->kind) {
    case TY_BOOL: case TY_CHAR: case TY_SCHAR: case TY_UCHAR: case TY_SHORT: case TY_USHORT:
    case TY_INT: case TY_UINT: case TY_LONG: case TY_ULONG: case TY_FLOAT: case TY_DOUBLE:
        return true;
    case TY_VOID: case TY_SIZE_T: case TY_ENUM:
    CASE_TY_NOT_ARITHMETIC:
        break;
    }
    return false;
}

static void spec_default(Sema *s, Symbol *sym, Node *init)
{
    if (init->kind == ND_INIT_LIST) {
        diag_error(s->diag, init->loc, "default value of spec constant '%s' must be a constant expression",
                   sym->name);
        return;
    }
    Type *ty = sema_expr(s, init);
    if (sema_is_err(s, ty))
        return;
    sym->spec_default = init;
    if (type_is_integer(sym->ty)) {
        if (!type_is_integer(ty) || !init->is_const_expr || init->depends_on_spec_const) {
            diag_error(s->diag, init->loc,
                       "default value of spec constant '%s' must be an integer constant expression",
                       sym->name);
            return;
        }
        Node tmp = {.is_const_expr = true, .const_value = init->const_value};
        sema_fold_cast(&tmp, sym->ty);
        sym->spec_default_int = tmp.const_value;
        return;
    }
    double v;
    if (!type_is_arith(ty) || init->depends_on_spec_const || !sema_float_const(init, &v)) {
        diag_error(s->diag, init->loc,
                   "default value of spec constant '%s' must be a constant expression of type '%s'",
                   sym->name, fmt_type(s, sym->ty));
        return;
    }
    sym->spec_default_float = sym->ty->kind == TY_FLOAT ? (double)(float)v : v;
}

/* A rejected declaration still declares its name, with the error type, so
 * that every later use is silent: one mistake, one diagnostic. */
static void declare_rejected(Sema *s, Node *idecl, const char *name)
{
    if (!*name || lookup_current(s, name))
        return;
    Symbol *sym = sema_new_symbol(s, SYM_VAR, name, s->t_err, idecl->loc);
    sym->def = idecl;
    idecl->sym = sym;
    idecl->ty = s->t_err;
}

static void spec_const_decl(Sema *s, DeclSpecs *ds, Node *idecl, Type *ty, const char *name)
{
    if (s->scope->depth != 0) {
        diag_error(s->diag, idecl->loc, "spec constants must be declared at file scope");
        declare_rejected(s, idecl, name);
        return;
    }
    if (ty == s->t_err) {
        declare_rejected(s, idecl, name);
        return;
    }
    if (!spec_type_ok(ty)) {
        diag_error(s->diag, idecl->loc, "spec constant of type '%s' is not supported", fmt_type(s, ty));
        declare_rejected(s, idecl, name);
        return;
    }
    Symbol *sym = sema_new_symbol(s, SYM_SPEC_CONST, name, type_with_quals(s, ty, true, false, AS_NONE),
                                  idecl->loc);
    sym->index = s->spec_consts.count;
    idecl->sym = sym;
    idecl->ty = sym->ty;
    if (ds->spec_const_id) {
        int64_t id;
        if (sema_int_const(s, ds->spec_const_id, &id, "spec constant ID")) {
            if (id < 0 || id > (int64_t)UINT32_MAX || ds->spec_const_id->depends_on_spec_const)
                diag_error(s->diag, ds->spec_const_id->loc,
                           "spec constant ID must be a non-negative integer constant");
            else {
                sym->spec_id = (uint32_t)id;
                sym->spec_id_explicit = true;
            }
        }
    }
    if (idecl->init)
        spec_default(s, sym, idecl->init);
    else
        sym->spec_required = true;
    vec_push(&s->spec_consts, sym);
}

/* Orders explicit spec constants by ID, then by declaration order. */
static int compare_spec_ids(const void *pa, const void *pb)
{
    const Symbol *a = *(Symbol *const *)pa, *b = *(Symbol *const *)pb;
    if (a->spec_id != b->spec_id)
        return a->spec_id < b->spec_id ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* Explicit IDs are kept and reserved first; the others get the smallest
 * unused IDs in declaration order.  Sorting the explicit ones keeps this
 * linear-logarithmic for generated units with thousands of constants. */
static void assign_spec_ids(Sema *s)
{
    int count = s->spec_consts.count, explicit_count = 0;
    Symbol **sorted = mem_zalloc((size_t)count + 1, sizeof *sorted);
    for (int i = 0; i < count; i++) {
        Symbol *a = s->spec_consts.items[i];
        if (a->spec_id_explicit)
            sorted[explicit_count++] = a;
    }
    qsort(sorted, (size_t)explicit_count, sizeof *sorted, compare_spec_ids);
    for (int i = 1, run = 0; i < explicit_count; i++) {
        if (sorted[i]->spec_id != sorted[run]->spec_id) {
            run = i; /* the earliest declaration with this ID */
            continue;
        }
        Symbol *a = sorted[i], *first = sorted[run];
        diag_error(s->diag, a->loc, "spec constant ID %u is already used by '%s'",
                   (unsigned)a->spec_id, first->name);
        diag_note(s->diag, first->loc, "'%s' declared here", first->name);
    }
    /* implicit IDs increase, so walk the sorted explicit ones alongside */
    uint32_t next = 0;
    int reserved = 0;
    for (int i = 0; i < count; i++) {
        Symbol *a = s->spec_consts.items[i];
        if (a->spec_id_explicit)
            continue;
        while (reserved < explicit_count && sorted[reserved]->spec_id <= next) {
            if (sorted[reserved]->spec_id == next)
                next++;
            reserved++;
        }
        a->spec_id = next++;
    }
    free(sorted);
}

/* ---- variables ---------------------------------------------------------- */

static bool constant_init(const Node *n)
{
    if (!n)
        return true;
    switch (n->kind) {
    case ND_INT_LIT: case ND_FLOAT_LIT: case ND_CHAR_LIT: case ND_BOOL_LIT: case ND_STRING_LIT:
        return true;
    case ND_INIT_LIST:
        for (const Node *i = n->items.head; i; i = i->next)
            if (!constant_init(i))
                return false;
        return true;
    case ND_DESIG_INIT:
        return constant_init(n->lhs);
    case ND_IDENT:
        return n->sym && (n->sym->kind == SYM_ENUM_CONST || n->sym->kind == SYM_SPEC_CONST);
    case ND_UNARY:
        return n->op != OP_DEREF && n->op != OP_ADDR && n->op != OP_PRE_INC &&
               n->op != OP_PRE_DEC && constant_init(n->lhs);
    case ND_BINARY:
        return constant_init(n->lhs) && constant_init(n->rhs);
    case ND_COND:
        return constant_init(n->cond) && constant_init(n->then) && constant_init(n->els);
    case ND_CAST:
        return constant_init(n->lhs);
    case ND_SIZEOF: case ND_ALIGNOF:
        return true;
    default:
        return n->is_const_expr;
    }
}

static const Type *element_type(const Type *ty)
{
    while (ty->kind == TY_ARRAY)
        ty = ty->base;
    return ty;
}

static void file_scope_var(Sema *s, Node *idecl, Type *ty)
{
    AddrSpace as = ty->addr_space;
    if (element_type(ty)->kind == TY_GROUP)
        diag_error(s->diag, idecl->loc, "group value cannot escape the scope where it was created");
    else if (element_type(ty)->kind == TY_ASYNC_BARRIER)
        diag_error(s->diag, idecl->loc, "async_barrier must be declared in local memory");
    else if (as == AS_LOCAL)
        diag_error(s->diag, idecl->loc, "variables in the local address space can only be declared "
                                        "in the outermost scope of a kernel function");
    else if (as != AS_CONSTANT)
        diag_error(s->diag, idecl->loc, "program scope variable must reside in constant address space");
    else if (!idecl->init)
        diag_error(s->diag, idecl->loc, "variable in constant address space must be initialized");
    if (type_has_spec_len(ty))
        diag_error(s->diag, idecl->loc, "array size depending on a spec constant is only allowed for "
                                        "local or private arrays inside functions");
}

static void block_scope_var(Sema *s, DeclSpecs *ds, Node *idecl, Type *ty, const char *name)
{
    AddrSpace as = ty->addr_space;
    if (ds->storage == SC_STATIC || ds->storage == SC_EXTERN)
        diag_error(s->diag, idecl->loc, "%s variables inside functions are not supported",
                   ds->storage == SC_STATIC ? "static" : "extern");
    if (as == AS_LOCAL) {
        if (!s->func || !s->func->is_kernel || s->scope->depth != 2)
            diag_error(s->diag, idecl->loc, "variables in the local address space can only be "
                                            "declared in the outermost scope of a kernel function");
        else if (idecl->init)
            diag_error(s->diag, idecl->init->loc, "'local' variable cannot have an initializer");
    } else if (as == AS_CONSTANT) {
        diag_error(s->diag, idecl->loc, "variables in the constant address space can only be "
                                        "declared at file scope");
    } else if (as == AS_GLOBAL) {
        diag_error(s->diag, idecl->loc, "function scope variable cannot be declared in global address space");
    }
    const Type *elem = element_type(ty);
    if (elem->kind == TY_ASYNC_BARRIER) {
        if (as != AS_LOCAL)
            diag_error(s->diag, idecl->loc, "async_barrier must be declared in local memory");
        if (s->func)
            s->func->uses_async_barrier = true;
    }
    if (ty->kind == TY_GROUP && !idecl->init)
        diag_error(s->diag, idecl->loc, "group variable '%s' must be initialized", name);
}

static void variable(Sema *s, DeclSpecs *ds, Node *idecl, Type *ty, const char *name)
{
    bool file_scope = s->scope->depth == 0;
    if (file_scope)
        file_scope_var(s, idecl, ty);
    else
        block_scope_var(s, ds, idecl, ty, name);
    Symbol *sym = sema_new_symbol(s, SYM_VAR, name, ty, idecl->loc);
    sym->storage = ds->storage;
    sym->def = idecl;
    idecl->sym = sym;
    bool unsized_array = ty->kind == TY_ARRAY && ty->array_len < 0 && idecl->init;
    if (ty != s->t_err && !type_is_complete(ty) && !unsized_array && ds->storage != SC_EXTERN) {
        diag_error(s->diag, idecl->loc, "variable has incomplete type '%s'", fmt_type(s, ty));
        ty = sym->ty = s->t_err; /* the initialiser is still typed, silently */
    }
    if (idecl->init) {
        ty = sema_initializer(s, ty, &idecl->init);
        sym->ty = ty;
        if (file_scope && !constant_init(idecl->init))
            diag_error(s->diag, idecl->init->loc, "initializer element is not a compile-time constant");
    }
    idecl->ty = ty;
    if (ty->kind == TY_DOUBLE || element_type(ty)->kind == TY_DOUBLE)
        s->tu->uses_fp64 = true;
}

/* C23 `auto x = init;`: only groups, arrival tokens and scalars (docs/REFERENCE.md "Types"). */
static Type *infer_auto(Sema *s, Node *idecl, const char *name)
{
    if (idecl->declarator->kind != DECL_NAME) {
        diag_error(s->diag, idecl->loc, "'auto' requires a plain identifier as declarator");
        return s->t_err;
    }
    if (!idecl->init || idecl->init->kind == ND_INIT_LIST) {
        diag_error(s->diag, idecl->loc,
                   "declaration of variable '%s' with deduced type 'auto' requires an initializer", name);
        return s->t_err;
    }
    Type *ty = sema_expr(s, idecl->init);
    if (sema_is_err(s, ty))
        return s->t_err;
    ty = type_decay(s, ty);
    if (ty->kind == TY_GROUP || ty->kind == TY_ARRIVAL_TOKEN || type_is_scalar(ty)) {
        if (type_is_arith(ty))
            return s->basic[ty->kind];
        if (ty->kind == TY_PTR)
            return ty;
        Type *copy = type_copy(s, ty);
        copy->is_const = copy->is_volatile = false;
        copy->typedef_name = ty->typedef_name;
        return copy;
    }
    diag_error(s->diag, idecl->init->loc,
               "'auto' can only deduce a group, arrival_token or scalar type, not '%s'", fmt_type(s, ty));
    return s->t_err;
}

static void init_declarator(Sema *s, DeclSpecs *ds, Type *base, Node *idecl)
{
    const Declarator *nd = ast_declarator_name(idecl->declarator);
    const char *name = nd && nd->name ? nd->name : "";
    Type *ty = base ? sema_declarator(s, base, idecl->declarator, false) : infer_auto(s, idecl, name);
    idecl->ty = ty;
    if (ds->storage == SC_TYPEDEF) {
        if (idecl->init)
            diag_error(s->diag, idecl->init->loc, "illegal initializer: '%s' is a typedef", name);
        Type *copy = type_copy(s, ty);
        copy->typedef_name = name;
        copy->origin = ty->origin ? ty->origin : ty;
        if (ty->kind == TY_ARRAY || ty->kind == TY_PTR || ty->kind == TY_FUNC)
            copy->origin = NULL; /* derived types are structural; keep them self-contained */
        idecl->sym = sema_new_symbol(s, SYM_TYPEDEF, name, copy, idecl->loc);
        return;
    }
    if (ds->is_spec_const) {
        spec_const_decl(s, ds, idecl, ty, name);
        return;
    }
    if (ty->kind == TY_FUNC) {
        if (idecl->init)
            diag_error(s->diag, idecl->init->loc, "illegal initializer (only variables can be initialized)");
        idecl->sym = func_declare(s, ds, idecl->declarator, ty, name, false);
        return;
    }
    if (ty->kind == TY_VOID) {
        diag_error(s->diag, idecl->loc, "variable has incomplete type 'void'");
        ty = s->t_err;
    }
    check_attrs(s, declarator_attrs(s, NULL, idecl->declarator), NULL);
    if (!base && idecl->init) { /* already checked by infer_auto */
        Symbol *sym = sema_new_symbol(s, SYM_VAR, name, ty, idecl->loc);
        sym->def = idecl;
        idecl->sym = sym;
        if (ty != s->t_err)
            idecl->init = sema_convert(s, idecl->init, ty, CONV_INIT, NULL);
        return;
    }
    variable(s, ds, idecl, ty, name);
}

void sema_declaration(Sema *s, Node *decl)
{
    DeclSpecs *ds = decl->decl_specs;
    Type *base = sema_declspecs(s, ds);
    if (decl->items.count == 0) {
        if (ds->attrs)
            check_attrs(s, ds->attrs, NULL);
        if (!ds->record)
            diag_warning(s->diag, WARN_MISSING_DECLARATIONS, decl->loc,
                         "declaration does not declare anything");
        return;
    }
    if (!ds->is_kernel)
        check_attrs(s, ds->attrs, NULL);
    for (Node *idecl = decl->items.head; idecl; idecl = idecl->next)
        init_declarator(s, ds, base, idecl);
}

/* ---- the unit ----------------------------------------------------------- */

static Symbol **to_array(Sema *s, PtrVec *v, int *count)
{
    *count = v->count;
    Symbol **out = ARENA_NEW_ARRAY(s->arena, Symbol *, v->count > 0 ? v->count : 1);
    for (int i = 0; i < v->count; i++)
        out[i] = v->items[i];
    return out;
}

static void fill_unit(Sema *s, Node *root)
{
    TranslationUnit *tu = s->tu;
    tu->root = root;
    tu->spec_consts = to_array(s, &s->spec_consts, &tu->spec_const_count);
    tu->functions = to_array(s, &s->functions, &tu->function_count);
    for (int i = 0; i < s->declared_funcs.count; i++) {
        Symbol *fn = s->declared_funcs.items[i];
        if (fn->is_kernel && fn->def)
            vec_push(&s->kernels, fn);
    }
    tu->kernels = to_array(s, &s->kernels, &tu->kernel_count);
    for (int i = 0; i < tu->kernel_count; i++)
        tu->uses_sub_groups |= tu->kernels[i]->uses_sub_groups;
    for (int i = 0; i < tu->function_count; i++)
        tu->uses_async_barrier |= tu->functions[i]->uses_async_barrier;
    if (!tu->main_file && root->loc.file && s->diag->sources) {
        const SourceFile *f = srcmgr_file(s->diag->sources, root->loc.file);
        tu->main_file = f ? f->name : NULL;
    }
}

void sema_run(Arena *arena, Diag *diag, Node *root, const SemaOptions *options, TranslationUnit *tu)
{
    static const SemaOptions defaults = {.max_sub_group_size = 32, .narrowest_sub_group_size = 32};
    Sema s = {.arena = arena, .diag = diag, .opt = options ? options : &defaults, .tu = tu};
    tu->root = root; /* sema_name_was_dropped reads it during the walk */
    types_init(&s);
    sema_push_scope(&s);
    for (Node *item = root ? root->items.head : NULL; item; item = item->next) {
        switch (item->kind) {
        case ND_DECL: sema_declaration(&s, item); break;
        case ND_FUNC_DEF: function_definition(&s, item); break;
        case ND_STATIC_ASSERT: sema_stmt(&s, item); break;
        case ND_PRAGMA: break;
        default:
            diag_error(diag, item->loc, "expected a declaration at file scope");
            break;
        }
    }
    assign_spec_ids(&s);
    if (!s.too_deep) { /* the flow passes recurse over every expression */
        sema_call_graph(&s);
        for (int i = 0; i < s.functions.count; i++)
            sema_uniformity(&s, s.functions.items[i]);
    }
    if (root)
        fill_unit(&s, root);
    vec_free(&s.spec_consts);
    vec_free(&s.kernels);
    vec_free(&s.functions);
    vec_free(&s.declared_funcs);
    vec_free(&s.tangle_calls);
    vec_free(&s.tangle_owner);
    vec_free(&s.labels);
    vec_free(&s.gotos);
}
