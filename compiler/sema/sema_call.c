/* sema_call.c — typing of calls: user functions (with call-graph edges),
 * calls through function pointers, the built-ins of builtins.h (work-item
 * functions, atomics, math), group constructors, group functions and
 * algorithms (docs/REFERENCE.md "Groups"), and member functions of groups and split
 * barriers (docs/REFERENCE.md "Split barriers").
 *
 * Built-in arguments are gathered into an array, typed, converted to the
 * parameter types the rule chooses, and written back as the call's list.
 * The OP argument of a group algorithm and the predicate of a joint_*
 * algorithm are names, not values: they are resolved here and never typed
 * as ordinary identifiers. */
#include <stdio.h>
#include <string.h>

#include "sema/sema_int.h"
#include "base/suggest.h"

enum { MAX_BUILTIN_ARGS = 8 };

typedef struct Args {
    Node *call;
    const char *name;
    Node *a[MAX_BUILTIN_ARGS];
    Type *t[MAX_BUILTIN_ARGS];
    int n;
} Args;

void sema_mark_sub_groups(Sema *s)
{
    if (s->func)
        s->func->uses_sub_groups = true;
}

/* Ballot, tangle and opportunistic groups exist to be used in divergent
 * control flow: the device must run sub-group operations there. */
static void mark_non_uniform_groups(Sema *s)
{
    sema_mark_sub_groups(s);
    if (s->func)
        s->func->uses_non_uniform_groups = true;
}

void sema_mark_async(Sema *s)
{
    if (s->func)
        s->func->uses_async_barrier = true;
}

/* A work-group collective in the current function: the OpenCL emitter
 * gives such functions the work-group scratch (emit_groups.c). */
static void note_work_group_call(Sema *s, const Type *group)
{
    if (s->func && group && group->kind == TY_GROUP && group->group == GROUP_WORK_GROUP)
        s->func->has_work_group_calls = true;
}

static void store_args(Args *A)
{
    NodeList out = {0};
    for (int i = 0; i < A->n; i++)
        nodelist_append(&out, A->a[i]);
    A->call->args = out;
}

static void convert(Sema *s, Args *A, int i, Type *to)
{
    A->a[i] = sema_convert(s, A->a[i], to, CONV_ARG, NULL);
}

static bool count_ok(Sema *s, Node *call, int have, int min, int max)
{
    if (have >= min && have <= max)
        return true;
    const char *qual = min == max ? "" : have < min ? "at least " : "at most ";
    diag_error(s->diag, call->loc, "too %s arguments to function call, expected %s%d, have %d",
               have < min ? "few" : "many", qual, have < min ? min : max, have);
    return false;
}

/* Types the arguments of a call that failed, for their own diagnostics;
 * an argument naming a group operation is left alone (its call is the
 * mistake, already reported). */
static void type_rest(Sema *s, Node *call)
{
    for (Node *a = call->args.head; a; a = a->next)
        if (a->kind != ND_IDENT || group_op_lookup(a->name) == GOP_NONE || sema_lookup(s, a->name))
            sema_expr(s, a);
}

/* ---- user functions ----------------------------------------------------- */

static void add_edge(Sema *s, Symbol *callee, Node *call)
{
    if (!s->func || s->in_sizeof)
        return;
    CallEdge *e = ARENA_NEW(s->arena, CallEdge);
    e->callee = callee;
    e->call = call;
    e->next = s->func->calls;
    s->func->calls = e;
}

static Type *user_call(Sema *s, Node *n, Type *fn)
{
    int nparams = 0;
    for (const Param *p = fn->params; p; p = p->next)
        nparams++;
    bool count = count_ok(s, n, n->args.count, nparams, nparams);
    NodeList out = {0};
    bool bad = false;
    const Param *p = fn->params;
    for (Node *a = n->args.head, *next; a; a = next) {
        next = a->next;
        Type *ty = sema_expr(s, a);
        bad |= sema_is_err(s, ty);
        Node *converted = a;
        if (p && count && !sema_is_err(s, ty))
            converted = sema_convert(s, a, p->ty, CONV_ARG, NULL);
        nodelist_append(&out, converted);
        if (p)
            p = p->next;
    }
    n->args = out;
    return count && !bad ? fn->base : s->t_err;
}

/* ---- built-in helpers --------------------------------------------------- */

/* The helpers and families below read the arguments A->a[i] and A->t[i]
 * for i below the built-in's min_args, which builtin_call checked against
 * builtin_info (count_ok).  clang's analyzer cannot see that table and
 * takes the slots past the arguments (NULL) as read. */
/* NOLINTBEGIN(clang-analyzer-core.NullDereference) */

static bool is_group_kind(const Type *ty, GroupKind kind) { return ty->kind == TY_GROUP && ty->group == kind; }

static bool need_group(Sema *s, Args *A, int i)
{
    if (A->t[i]->kind == TY_GROUP) {
        if (A->t[i]->group != GROUP_WORK_GROUP)
            sema_mark_sub_groups(s);
        return true;
    }
    diag_error(s->diag, A->a[i]->loc, "'%s' requires a group as its first argument, have '%s'", A->name,
               fmt_type(s, A->t[i]));
    return false;
}

static bool need_sub_group_parent(Sema *s, Args *A)
{
    if (is_group_kind(A->t[0], GROUP_SUB_GROUP))
        return true;
    diag_error(s->diag, A->a[0]->loc, "'%s' requires a sub_group as its parent, have '%s'", A->name,
               fmt_type(s, A->t[0]));
    return false;
}

static bool need_scalar(Sema *s, Args *A, int i, Type *to)
{
    if (!type_is_scalar(A->t[i])) {
        diag_error(s->diag, A->a[i]->loc, "'%s' requires a scalar argument, have '%s'", A->name,
                   fmt_type(s, A->t[i]));
        return false;
    }
    convert(s, A, i, to);
    return true;
}

/* Element types a group algorithm takes (docs/REFERENCE.md "Group algorithms and
 * operators"): every arithmetic type but bool in reductions and scans; `wide`
 * (broadcast/shift/select/permute) adds bool. */
static bool movable_type(const Type *ty, bool wide)
{
    switch (ty->kind) {
    case TY_CHAR: case TY_SCHAR: case TY_UCHAR: case TY_SHORT: case TY_USHORT:
    case TY_INT: case TY_UINT: case TY_LONG: case TY_ULONG: case TY_SIZE_T: case TY_FLOAT: case TY_DOUBLE:
        return true;
    case TY_BOOL:
        return wide;
    case TY_VOID: case TY_ENUM:
    CASE_TY_NOT_ARITHMETIC:
        break;
    }
    return false;
}

static Type *element(Sema *s, Args *A, const Type *ty, bool wide)
{
    if (ty->kind == TY_ENUM)
        ty = s->basic[TY_INT];
    if (!movable_type(ty, wide)) {
        /* The element's type as written, without the address space and
         * qualifiers of the range it came from (issue 34 item 14). */
        diag_error(s->diag, A->call->loc, "group algorithm '%s' does not support type '%s'", A->name,
                   fmt_value_type(s, ty));
        return NULL;
    }
    return s->basic[ty->kind];
}

/* The operation a misspelt or foreign name most likely means: by edit
 * distance ("plux"), else the names other APIs use for the same operation:
 * OpenCL's stems (work_group_reduce_add/min/max, group_op_info's khr) and a
 * few more ("sum", "product"...). */
static const char *group_op_suggest(const char *name)
{
    static const struct { const char *alias; GroupOp op; } aliases[] = {
        {"sum", GOP_PLUS}, {"multiply", GOP_MULTIPLIES}, {"product", GOP_MULTIPLIES},
        {"logical_xor", GOP_BIT_XOR},
    };
    const char *close = suggest_closest(name, group_op_names + 1, GOP_COUNT - 1); /* [0] is GOP_NONE */
    if (close)
        return close;
    for (int op = GOP_NONE + 1; op < GOP_COUNT; op++)
        if (strcmp(group_op_info[op].khr, name) == 0)
            return group_op_names[op];
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(aliases[i].alias, name) == 0)
            return group_op_names[aliases[i].op];
    return NULL;
}

static GroupOp group_op_arg(Sema *s, Args *A, int i)
{
    Node *a = A->a[i];
    GroupOp op = a->kind == ND_IDENT ? group_op_lookup(a->name) : GOP_NONE;
    if (op == GOP_NONE) {
        const char *close = a->kind == ND_IDENT ? group_op_suggest(a->name) : NULL;
        if (close) {
            diag_error(s->diag, a->loc, "unknown group operation '%s' as argument %d of '%s'; did you mean '%s'?",
                       a->name, i + 1, A->name, close);
        } else {
            char all[200] = "";
            for (int k = GOP_NONE + 1; k < GOP_COUNT; k++)
                snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", k > GOP_NONE + 1 ? ", " : "",
                         group_op_names[k]);
            diag_error(s->diag, a->loc, "expected a group operation (%s) as argument %d of '%s'", all, i + 1,
                       A->name);
        }
        return GOP_NONE;
    }
    a->ty = s->basic[TY_VOID];
    a->is_uniform = true;
    A->call->group_op = op;
    return op;
}

static bool op_fits(Sema *s, Args *A, GroupOp op, Type *ty)
{
    if (group_op_info[op].integer_only && !type_is_integer(ty)) {
        diag_error(s->diag, A->call->loc, "group operation '%s' requires an integer type, have '%s'",
                   group_op_names[op], fmt_value_type(s, ty));
        return false;
    }
    return true;
}

/* ---- built-in families -------------------------------------------------- */

/* The atomics that take floating values too (docs/REFERENCE.md "Atomics and printf"). */
static bool atomic_takes_floating(Builtin bi)
{
    switch (bi) {
    case BI_ATOMIC_FETCH_ADD: case BI_ATOMIC_FETCH_SUB: case BI_ATOMIC_FETCH_MIN:
    case BI_ATOMIC_FETCH_MAX: case BI_ATOMIC_EXCHANGE: case BI_ATOMIC_LOAD: case BI_ATOMIC_STORE:
        return true;
    default:
        return false;
    }
}

static Type *atomic(Sema *s, Args *A, Builtin bi)
{
    Type *p = A->t[0];
    TypeKind k = p->kind == TY_PTR ? p->base->kind : TY_VOID;
    AddrSpace as = p->kind == TY_PTR ? p->base->addr_space : AS_NONE;
    bool integer = k == TY_INT || k == TY_UINT || k == TY_LONG || k == TY_ULONG;
    bool floating = k == TY_FLOAT || k == TY_DOUBLE;
    if (!(integer || floating) || (as != AS_GLOBAL && as != AS_LOCAL)) {
        diag_error(s->diag, A->a[0]->loc,
                   "atomic operation requires a pointer to int, uint, long, ulong, float or double in "
                   "global or local memory, have '%s'", fmt_type(s, p));
        return s->t_err;
    }
    if (floating && !atomic_takes_floating(bi)) {
        diag_error(s->diag, A->a[0]->loc, "'%s' requires a pointer to an integer type, have '%s'",
                   A->name, fmt_type(s, p));
        return s->t_err;
    }
    /* atomic_load only reads: a pointer to const is fine there. */
    if (p->base->is_const && bi != BI_ATOMIC_LOAD) {
        diag_error(s->diag, A->a[0]->loc, "atomic operation on a pointer to const '%s'", fmt_type(s, p));
        return s->t_err;
    }
    for (int i = 1; i < A->n; i++)
        convert(s, A, i, s->basic[k]);
    return bi == BI_ATOMIC_STORE ? s->basic[TY_VOID] : s->basic[k];
}

static Type *math(Sema *s, Args *A, bool int_ok)
{
    bool all_int = true, any_double = false;
    for (int i = 0; i < A->n; i++) {
        if (!type_is_arith(A->t[i])) {
            diag_error(s->diag, A->a[i]->loc, "no matching built-in for call to '%s' with argument of type '%s'",
                       A->name, fmt_type(s, A->t[i]));
            return s->t_err;
        }
        all_int &= type_is_integer(A->t[i]);
        any_double |= A->t[i]->kind == TY_DOUBLE;
        /* An enum argument counts as int (docs/REFERENCE.md), not as the
         * enum's compatible type: it gets an int cast of its own, written
         * out like a cast in the source, before the common type's.
         * max(l, e) with a long l is max(l, (long)(int)e): (long)e would
         * widen the unsigned int the outputs declare e with, and an e
         * holding -1 would be 4294967295. */
        if (A->t[i]->kind == TY_ENUM) {
            Node *as_int = sema_implicit_cast(s, A->a[i], s->basic[TY_INT]);
            if (as_int != A->a[i])
                as_int->is_implicit = false;
            A->a[i] = as_int;
            A->t[i] = s->basic[TY_INT];
        }
    }
    Type *ty;
    if (int_ok && all_int) {
        ty = type_promote(s, A->t[0]);
        for (int i = 1; i < A->n; i++)
            ty = type_common_arith(s, ty, A->t[i]);
    } else {
        ty = s->basic[any_double ? TY_DOUBLE : TY_FLOAT];
    }
    for (int i = 0; i < A->n; i++)
        convert(s, A, i, ty);
    return ty;
}

static Type *group_ctor(Sema *s, Args *A, Builtin bi)
{
    Node *n = A->call;
    switch (bi) {
    case BI_GET_WORK_GROUP:
        return type_group(s, GROUP_WORK_GROUP, NULL, 0);
    case BI_GET_SUB_GROUP:
        sema_mark_sub_groups(s);
        return type_group(s, GROUP_SUB_GROUP, NULL, 0);
    case BI_GET_OPPORTUNISTIC_GROUP:
        mark_non_uniform_groups(s);
        return type_group(s, GROUP_OPPORTUNISTIC_GROUP, NULL, 0);
    case BI_GET_BALLOT_GROUP:
        if (!need_sub_group_parent(s, A) || !need_scalar(s, A, 1, s->basic[TY_BOOL]))
            return s->t_err;
        mark_non_uniform_groups(s);
        return type_group(s, GROUP_BALLOT_GROUP, NULL, 0);
    case BI_GET_TANGLE_GROUP:
        if (!need_sub_group_parent(s, A))
            return s->t_err;
        mark_non_uniform_groups(s);
        if (s->func) {
            s->func->needs_tangle_mask = true;
            vec_push(&s->tangle_calls, n);
            vec_push(&s->tangle_owner, s->func);
        }
        return type_group(s, GROUP_TANGLE_GROUP, NULL, 0);
    default: { /* BI_GET_FIXED_SIZE_GROUP */
        if (!n->template_args || n->template_args->count != 1) {
            diag_error(s->diag, n->loc, "'get_fixed_size_group' requires a size: get_fixed_size_group<N>(parent)");
            return s->t_err;
        }
        int64_t size = sema_group_size(s, n->template_args->head);
        if (!need_sub_group_parent(s, A))
            return s->t_err;
        sema_mark_sub_groups(s);
        return type_group(s, GROUP_FIXED_SIZE_GROUP, n->template_args->head, size);
    }
    }
}

static Type *group_fn(Sema *s, Args *A, Builtin bi)
{
    if (!need_group(s, A, 0))
        return s->t_err;
    switch (bi) {
    case BI_GROUP_BARRIER:
        return s->basic[TY_VOID];
    case BI_ANY_OF_GROUP: case BI_ALL_OF_GROUP: case BI_NONE_OF_GROUP:
        return need_scalar(s, A, 1, s->basic[TY_BOOL]) ? s->basic[TY_BOOL] : s->t_err;
    case BI_PERMUTE_GROUP_BY_XOR: case BI_SELECT_FROM_GROUP: case BI_GROUP_BROADCAST:
    case BI_SHIFT_GROUP_LEFT: case BI_SHIFT_GROUP_RIGHT: default: {
        Type *ty = element(s, A, A->t[1], true);
        if (!ty)
            return s->t_err;
        convert(s, A, 1, ty);
        if (A->n == 3 && !need_scalar(s, A, 2, s->basic[TY_UINT]))
            return s->t_err;
        return ty;
    }
    }
}

static Type *group_algo(Sema *s, Args *A, Builtin bi)
{
    if (!need_group(s, A, 0))
        return s->t_err;
    int init_at = builtin_init_arg(bi, A->n);
    GroupOp op = group_op_arg(s, A, builtin_name_arg(bi, A->n));
    Type *ty = element(s, A, A->t[1], false);
    if (!ty || op == GOP_NONE || !op_fits(s, A, op, ty))
        return s->t_err;
    convert(s, A, 1, ty);
    if (init_at >= 0)
        convert(s, A, init_at, ty);
    return ty;
}

static bool range_args(Sema *s, Args *A, Type **elem)
{
    Type *f = A->t[1], *l = A->t[2];
    if (f->kind != TY_PTR || l->kind != TY_PTR || !type_compatible(f->base, l->base)) {
        diag_error(s->diag, A->a[1]->loc, "'%s' requires two pointers to the same type as its range, have '%s' and '%s'",
                   A->name, fmt_type(s, f), fmt_type(s, l));
        return false;
    }
    *elem = element(s, A, f->base, false);
    return *elem != NULL;
}

/* pred_fn of joint_any_of & co: a device function `bool f(T)` (docs/REFERENCE.md "Groups"),
 * T the range's element type exactly (an enum parameter counts as int, as
 * the elements do): the lowering calls it on each element unconverted, so a
 * `bool f(float)` on an `int` range is an error, not a silent conversion. */
static bool predicate_signature_ok(const Type *ft, const Type *elem)
{
    const Param *p = ft->params;
    if (ft->base->kind != TY_BOOL || !p || p->next || ft->is_variadic)
        return false;
    const Type *pt = type_unqualified(p->ty);
    TypeKind k = pt->kind == TY_ENUM ? TY_INT : pt->kind;
    return k == elem->kind;
}

static bool predicate(Sema *s, Args *A, Builtin bi, Type *elem)
{
    Node *a = A->a[builtin_name_arg(bi, A->n)];
    Symbol *fn = a->kind == ND_IDENT ? sema_lookup(s, a->name) : NULL;
    const Type *ft = fn && fn->kind == SYM_FUNC ? fn->ty : NULL;
    const char *want = fmt_type(s, elem);
    if (!ft || fn->is_kernel) {
        diag_error(s->diag, a->loc, "'%s' requires the name of a device function 'bool f(%s)' as its predicate",
                   A->name, want);
        if (fn && fn->is_kernel)
            diag_note(s->diag, fn->loc, "'%s' is a kernel", fn->name);
        return false;
    }
    if (!predicate_signature_ok(ft, elem)) {
        diag_error(s->diag, a->loc,
                   "'%s' requires the name of a device function 'bool f(%s)' as its predicate, "
                   "but '%s' has type '%s'", A->name, want, fn->name, fmt_type(s, ft));
        diag_note(s->diag, fn->loc, "'%s' declared here", fn->name);
        return false;
    }
    a->sym = fn;
    a->ty = fn->ty;
    add_edge(s, fn, A->call);
    return true;
}

static Type *joint(Sema *s, Args *A, Builtin bi)
{
    Type *elem;
    if (!need_group(s, A, 0) || !range_args(s, A, &elem))
        return s->t_err;
    switch (bi) {
    case BI_JOINT_ANY_OF: case BI_JOINT_ALL_OF: case BI_JOINT_NONE_OF:
        return predicate(s, A, bi, elem) ? s->basic[TY_BOOL] : s->t_err;
    case BI_JOINT_REDUCE: {
        GroupOp op = group_op_arg(s, A, builtin_name_arg(bi, A->n));
        if (op == GOP_NONE || !op_fits(s, A, op, elem))
            return s->t_err;
        if (builtin_init_arg(bi, A->n) >= 0)
            convert(s, A, builtin_init_arg(bi, A->n), elem);
        return elem;
    }
    default: { /* joint_exclusive_scan / joint_inclusive_scan (g, first, last, result, OP [, init]) */
        Type *r = A->t[3];
        if (r->kind != TY_PTR || !type_compatible(r->base, A->t[1]->base) || r->base->is_const ||
            r->base->addr_space == AS_CONSTANT) {
            diag_error(s->diag, A->a[3]->loc, "'%s' requires a writable pointer to '%s' as its result, have '%s'",
                       A->name, fmt_type(s, elem), fmt_type(s, r));
            return s->t_err;
        }
        GroupOp op = group_op_arg(s, A, builtin_name_arg(bi, A->n));
        if (op == GOP_NONE || !op_fits(s, A, op, elem))
            return s->t_err;
        if (builtin_init_arg(bi, A->n) >= 0)
            convert(s, A, builtin_init_arg(bi, A->n), elem);
        return s->basic[TY_VOID];
    }
    }
}

static Type *async_copy(Sema *s, Args *A)
{
    Type *d = A->t[0], *src = A->t[1];
    if (d->kind != TY_PTR || d->base->addr_space != AS_LOCAL) {
        diag_error(s->diag, A->a[0]->loc, "'%s' requires a pointer to local memory as its destination, have '%s'",
                   A->name, fmt_type(s, d));
        return s->t_err;
    }
    if (src->kind != TY_PTR || src->base->addr_space != AS_GLOBAL) {
        diag_error(s->diag, A->a[1]->loc, "'%s' requires a pointer to global memory as its source, have '%s'",
                   A->name, fmt_type(s, src));
        return s->t_err;
    }
    if (!type_compatible(d->base, src->base)) {
        diag_error(s->diag, A->call->loc, "'%s' requires source and destination of the same type, have '%s' and '%s'",
                   A->name, fmt_type(s, d), fmt_type(s, src));
        return s->t_err;
    }
    if (!need_scalar(s, A, 2, s->basic[TY_SIZE_T]))
        return s->t_err;
    return s->basic[TY_VOID];
}

/* NOLINTEND(clang-analyzer-core.NullDereference) */

/* Which arguments are names rather than values. */
static bool is_name_arg(Builtin bi, int i, int n)
{
    return i == builtin_name_arg(bi, n);
}

static Type *builtin_call(Sema *s, Node *n, Builtin bi)
{
    const BuiltinInfo *info = &builtin_info[bi];
    Args A = {.call = n, .name = info->name, .n = n->args.count};
    n->builtin = bi;
    if (!count_ok(s, n, A.n, info->min_args, info->max_args) ||
        (A.n > MAX_BUILTIN_ARGS && bi != BI_PRINTF)) {
        for (Node *a = n->args.head; a; a = a->next)
            if (a->kind != ND_IDENT || group_op_lookup(a->name) == GOP_NONE)
                sema_expr(s, a);
        return s->t_err;
    }
    if (bi == BI_PRINTF)
        return sema_printf(s, n);
    int i = 0;
    bool bad = false;
    for (Node *a = n->args.head; a; a = a->next, i++) {
        A.a[i] = a;
        if (is_name_arg(bi, i, A.n)) {
            A.t[i] = s->basic[TY_VOID];
            continue;
        }
        int op_at = builtin_name_arg(bi, A.n);
        if (op_at >= 0 && a->kind == ND_IDENT && group_op_lookup(a->name) != GOP_NONE &&
            !sema_lookup(s, a->name)) {
            diag_error(s->diag, a->loc, "the operation '%s' must be argument %d of '%s', not %d",
                       a->name, op_at + 1, info->name, i + 1);
            A.t[i] = s->t_err;
            bad = true;
            continue;
        }
        A.t[i] = type_decay(s, sema_expr(s, a));
        A.a[i] = sema_decay_node(s, a);
        a = A.a[i];
        bad |= sema_is_err(s, A.t[i]);
    }
    if (bad) {
        store_args(&A);
        return s->t_err;
    }
    Type *ty;
    switch (info->kind) {
    case BK_WORKITEM:
        if (A.n == 1 && !need_scalar(s, &A, 0, s->basic[TY_UINT]))
            return s->t_err;
        /* The sub-group's maximum size is a sub-group query: its kernel
         * needs sub-groups, as get_sub_group() does (docs/REFERENCE.md "Work-item functions, barriers, math"). */
        if (bi == BI_GET_MAX_SUB_GROUP_SIZE)
            sema_mark_sub_groups(s);
        ty = s->basic[bi == BI_GET_WORK_DIM || bi == BI_GET_MAX_SUB_GROUP_SIZE ? TY_UINT : TY_SIZE_T];
        break;
    case BK_SYNC:
        ty = need_scalar(s, &A, 0, s->basic[TY_UINT]) ? s->basic[TY_VOID] : s->t_err;
        break;
    case BK_ATOMIC: ty = atomic(s, &A, bi); break;
    case BK_PRINTF: ty = s->t_err; break; /* typed before the arguments, above */
    case BK_MATH: ty = math(s, &A, false); break;
    case BK_MATH_INT: ty = math(s, &A, true); break;
    case BK_GROUP_CTOR: ty = group_ctor(s, &A, bi); break;
    case BK_GROUP_FN: ty = group_fn(s, &A, bi); break;
    case BK_GROUP_ALGO: ty = group_algo(s, &A, bi); break;
    case BK_JOINT: ty = joint(s, &A, bi); break;
    case BK_ASYNC_COPY:
        if (bi == BI_ASYNC_BARRIER_MAX) {
            sema_mark_async(s);
            ty = s->basic[TY_ULONG];
        } else {
            ty = async_copy(s, &A);
        }
        break;
    }
    if ((info->kind == BK_GROUP_FN || info->kind == BK_GROUP_ALGO || info->kind == BK_JOINT) &&
        bi != BI_GROUP_BARRIER)
        note_work_group_call(s, A.t[0]);
    store_args(&A);
    return ty;
}

/* ---- member functions of groups and barriers ---------------------------- */

static Type *method_result(Sema *s, Method m)
{
    switch (m) {
    case METHOD_LEADER: case METHOD_TEST_WAIT:
        return s->basic[TY_BOOL];
    case METHOD_GET_GROUP_LINEAR_ID: case METHOD_GET_GROUP_LINEAR_RANGE:
    case METHOD_GET_LOCAL_LINEAR_ID: case METHOD_GET_LOCAL_LINEAR_RANGE:
        return s->basic[TY_UINT];
    case METHOD_ARRIVE: case METHOD_ARRIVE_AND_DROP: case METHOD_ARRIVE_NO_COMPLETE:
    case METHOD_ARRIVE_AND_DROP_NO_COMPLETE:
        return type_new(s, TY_ARRIVAL_TOKEN, 8, 8);
    case METHOD_BARRIER_MAX:
        return s->basic[TY_ULONG];
    case METHOD_INITIALIZE: case METHOD_INVALIDATE: case METHOD_ARRIVE_COPY_ASYNC:
    case METHOD_ARRIVE_COPY_ASYNC_NO_INC: case METHOD_WAIT: case METHOD_ARRIVE_AND_WAIT:
    case METHOD_NONE: case METHOD_COUNT:
        break;
    }
    return s->basic[TY_VOID];
}

static Type *method_arg_type(Sema *s, Method m)
{
    switch (m) {
    case METHOD_INITIALIZE: return s->basic[TY_UINT];
    case METHOD_ARRIVE_NO_COMPLETE: case METHOD_ARRIVE_AND_DROP_NO_COMPLETE: return s->basic[TY_INT];
    case METHOD_WAIT: case METHOD_TEST_WAIT:
        break;
    /* no argument (MethodInfo.nargs 0): never asked */
    case METHOD_GET_GROUP_LINEAR_ID: case METHOD_GET_GROUP_LINEAR_RANGE: case METHOD_GET_LOCAL_LINEAR_ID:
    case METHOD_GET_LOCAL_LINEAR_RANGE: case METHOD_LEADER: case METHOD_INVALIDATE: case METHOD_ARRIVE:
    case METHOD_ARRIVE_AND_DROP: case METHOD_ARRIVE_COPY_ASYNC: case METHOD_ARRIVE_COPY_ASYNC_NO_INC:
    case METHOD_ARRIVE_AND_WAIT: case METHOD_BARRIER_MAX: case METHOD_NONE: case METHOD_COUNT:
        break;
    }
    return type_new(s, TY_ARRIVAL_TOKEN, 8, 8);
}

static Type *method_call(Sema *s, Node *n, Method m, Type *recv)
{
    Node *callee = n->callee;
    const MethodInfo *mi = &method_info[m];
    const char *who = expr_spelling(s, callee->lhs);
    callee->ty = s->basic[TY_VOID];
    if (mi->receiver == RECV_GROUP && recv->kind != TY_GROUP) {
        diag_error(s->diag, callee->loc, "member function '%s' requires a group, but '%s' has type '%s'", mi->name,
                   who, fmt_type(s, recv));
        type_rest(s, n);
        return s->t_err;
    }
    if (mi->receiver == RECV_BARRIER && recv->kind != TY_ASYNC_BARRIER) {
        diag_error(s->diag, callee->loc, "member function '%s' requires an async_barrier, but '%s' has type '%s'",
                   mi->name, who, fmt_type(s, recv));
        type_rest(s, n);
        return s->t_err;
    }
    n->method = m;
    if (!count_ok(s, n, n->args.count, mi->nargs, mi->nargs)) {
        type_rest(s, n);
        return s->t_err;
    }
    if (recv->kind == TY_GROUP) {
        if (recv->group != GROUP_WORK_GROUP)
            sema_mark_sub_groups(s);
        return method_result(s, m);
    }
    sema_mark_async(s);
    if (type_space(recv) != AS_LOCAL) {
        diag_error(s->diag, callee->loc, "async_barrier must be declared in local memory");
        return s->t_err;
    }
    if (mi->nargs == 1) {
        Node *a = n->args.head;
        Type *ty = sema_expr(s, a);
        if (sema_is_err(s, ty))
            return s->t_err;
        Node *c = sema_convert(s, a, method_arg_type(s, m), CONV_ARG, NULL);
        n->args = (NodeList){0};
        nodelist_append(&n->args, c);
    }
    return method_result(s, m);
}

/* ---- entry -------------------------------------------------------------- */

Type *sema_call(Sema *s, Node *n)
{
    Node *callee = n->callee;
    if (callee->kind == ND_MEMBER) {
        Method m = method_lookup(callee->name);
        Type *recv = sema_expr(s, callee->lhs);
        if (sema_is_err(s, recv)) {
            type_rest(s, n);
            return s->t_err;
        }
        if (callee->is_arrow && type_decay(s, recv)->kind == TY_PTR)
            recv = type_decay(s, recv)->base;
        bool special = recv->kind == TY_GROUP || recv->kind == TY_ASYNC_BARRIER;
        if (m != METHOD_NONE && (special || (recv->kind != TY_STRUCT && recv->kind != TY_UNION)))
            return method_call(s, n, m, recv);
        if (special) {
            diag_error(s->diag, callee->loc, "no member named '%s' in '%s'", callee->name, fmt_type(s, recv));
            type_rest(s, n);
            return s->t_err;
        }
    }
    if (callee->kind == ND_IDENT) {
        Symbol *sym = sema_lookup(s, callee->name);
        if (sym && sym->kind == SYM_BUILTIN) {
            callee->sym = sym;
            callee->ty = s->basic[TY_VOID];
            return builtin_call(s, n, (Builtin)sym->builtin);
        }
        if (sym && sym->kind == SYM_FUNC) {
            callee->sym = sym;
            callee->ty = sym->ty;
            if (sym->is_kernel)
                diag_error(s->diag, callee->loc, "kernel function '%s' cannot be called from device code",
                           sym->name);
            add_edge(s, sym, n);
            return user_call(s, n, sym->ty);
        }
    }
    Type *ft = type_decay(s, sema_expr(s, callee));
    if (sema_is_err(s, ft)) {
        type_rest(s, n);
        return s->t_err;
    }
    if (ft->kind != TY_PTR || ft->base->kind != TY_FUNC) {
        diag_error(s->diag, n->loc, "called object type '%s' is not a function or function pointer",
                   fmt_type(s, ft));
        type_rest(s, n);
        return s->t_err;
    }
    if (s->func)
        s->func->has_indirect_calls = true;
    return user_call(s, n, ft->base);
}
