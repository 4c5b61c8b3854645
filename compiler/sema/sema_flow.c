/* sema_flow.c — whole-unit analyses that need every function body first:
 *
 *  - the call graph: calls to functions never defined, recursion (direct
 *    or through any cycle, an error naming the cycle), and the transitive
 *    flags uses_sub_groups / needs_tangle_mask / uses_async_barrier;
 *  - tangle groups need their callers: get_tangle_group is an error in a
 *    function that may be reached through a function pointer (docs/REFERENCE.md "Groups");
 *  - uniformity (Node.is_uniform, docs/DESIGN.md "Tangle masks"): a flow-insensitive fixed point
 *    over each function.  A local is uniform while every assignment to it
 *    is uniform and happens in control flow no more divergent than at its
 *    declaration (so a counter declared inside a divergent branch is
 *    uniform for that branch's tangle, which is all the tangle lowering
 *    asks); control flow becomes divergent under a non-uniform condition,
 *    and a loop containing a divergent break/continue/return is divergent
 *    as a whole.  The right side of && and || and the arms of ?: are
 *    control flow too: under a non-uniform left side or condition, only
 *    some work-items evaluate them;
 *  - creators (Node.creators_may_diverge): whether every work-item that
 *    made a fixed-size group reaches a group algorithm called on it.  When
 *    the emitters know so, the device library may use a fact it saw at the
 *    group's creation (the whole warp made it) instead of testing the
 *    active lanes at every call (docs/GROUPS.md "Creation facts"). */
#include <stdio.h>
#include <stdlib.h>

#include "sema/sema_int.h"

/* ---- call graph --------------------------------------------------------- */

typedef struct Graph {
    Sema *s;
    int n;
    char *color;        /* 0 unvisited, 1 on the DFS path, 2 done */
    Symbol **path;
    int depth;
    bool *reported_undefined;
} Graph;

static void report_cycle(Graph *g, Symbol *callee, Node *call)
{
    char buf[1024];
    size_t used = 0;
    int start = g->depth - 1;
    while (start > 0 && g->path[start] != callee)
        start--;
    for (int i = start; i < g->depth && used < sizeof buf; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s -> ", g->path[i]->name);
    if (used < sizeof buf)
        snprintf(buf + used, sizeof buf - used, "%s", callee->name);
    diag_error(g->s->diag, call->loc, "recursion is not allowed: %s", buf);
}

static void visit(Graph *g, Symbol *fn)
{
    g->color[fn->index] = 1;
    g->path[g->depth++] = fn;
    for (CallEdge *e = fn->calls; e; e = e->next) {
        Symbol *callee = e->callee;
        if (!callee->def) {
            if (!g->reported_undefined[callee->index])
                diag_error(g->s->diag, e->call->loc, "function '%s' is used but never defined", callee->name);
            g->reported_undefined[callee->index] = true;
            continue;
        }
        if (g->color[callee->index] == 1)
            report_cycle(g, callee, e->call);
        else if (g->color[callee->index] == 0)
            visit(g, callee);
    }
    g->depth--;
    g->color[fn->index] = 2;
}

static bool merge_flags(Symbol *to, const Symbol *from, bool with_tangle)
{
    bool sg = to->uses_sub_groups || from->uses_sub_groups;
    bool nu = to->uses_non_uniform_groups || from->uses_non_uniform_groups;
    bool ab = to->uses_async_barrier || from->uses_async_barrier;
    bool tm = to->needs_tangle_mask || (with_tangle && from->needs_tangle_mask);
    bool changed = sg != to->uses_sub_groups || nu != to->uses_non_uniform_groups ||
                   ab != to->uses_async_barrier || tm != to->needs_tangle_mask;
    if (from->widest_fixed_group > to->widest_fixed_group && !from->is_kernel) {
        to->widest_fixed_group = from->widest_fixed_group; /* a callee's group */
        changed = true;
    }
    to->uses_sub_groups = sg;
    to->uses_non_uniform_groups = nu;
    to->uses_async_barrier = ab;
    to->needs_tangle_mask = tm;
    return changed;
}

/* One round of callee-to-caller propagation; an indirect call may reach
 * any function whose address is taken. */
static bool propagate_flags(Sema *s)
{
    bool changed = false;
    for (int i = 0; i < s->declared_funcs.count; i++) {
        Symbol *fn = s->declared_funcs.items[i];
        for (CallEdge *e = fn->calls; e; e = e->next)
            changed |= merge_flags(fn, e->callee, true);
        for (int j = 0; j < s->declared_funcs.count && fn->has_indirect_calls; j++) {
            Symbol *target = s->declared_funcs.items[j];
            if (target->address_taken)
                changed |= merge_flags(fn, target, false);
        }
    }
    return changed;
}

/* Functions whose callers are unknown: address taken, and (transitively)
 * everything they call. */
static void unknown_callers(Sema *s, bool *unknown)
{
    int n = s->declared_funcs.count;
    for (int i = 0; i < n; i++)
        unknown[i] = ((Symbol *)s->declared_funcs.items[i])->address_taken;
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < n; i++) {
            if (!unknown[i])
                continue;
            for (CallEdge *e = ((Symbol *)s->declared_funcs.items[i])->calls; e; e = e->next)
                if (!unknown[e->callee->index])
                    unknown[e->callee->index] = changed = true;
        }
    }
}

void sema_call_graph(Sema *s)
{
    int n = s->declared_funcs.count;
    if (n == 0)
        return;
    Graph g = {.s = s, .n = n};
    g.color = mem_zalloc((size_t)n, 1);
    g.path = mem_zalloc((size_t)n + 1, sizeof(Symbol *));
    g.reported_undefined = mem_zalloc((size_t)n, sizeof(bool));
    bool *unknown = mem_zalloc((size_t)n, sizeof(bool));
    for (int i = 0; i < n; i++) {
        Symbol *fn = s->declared_funcs.items[i];
        if (fn->def && g.color[i] == 0)
            visit(&g, fn);
    }
    while (propagate_flags(s))
        ;
    unknown_callers(s, unknown);
    for (int i = 0; i < s->tangle_calls.count; i++) {
        Symbol *owner = s->tangle_owner.items[i];
        Node *call = s->tangle_calls.items[i];
        if (unknown[owner->index])
            diag_error(s->diag, call->loc,
                       "get_tangle_group cannot be used in '%s': its callers cannot be analysed "
                       "(it may be called through a function pointer)", owner->name);
    }
    free(g.color);
    free(g.path);
    free(g.reported_undefined);
    free(unknown);
}

/* ---- uniformity --------------------------------------------------------- */

typedef struct Uni {
    bool changed;
    int divergent;      /* nesting of non-uniform conditions */
    bool diverged;      /* a divergent return/goto happened earlier in the function */
    bool loop_jump;     /* a divergent break/continue/return inside the current loop */
    int jumps;          /* divergent break/continue/return/goto seen so far, in order */
    bool gotos;         /* the function has a goto: no creator facts */
} Uni;

static bool u_expr(Uni *u, Node *n);

static bool divergent_now(const Uni *u) { return u->divergent > 0 || u->diverged; }

/* Whether an assignment to `sym` here happens in control flow that is
 * divergent relative to its declaration.  A local declared inside a
 * divergent branch lives only there (C scoping), so writes at the same
 * nesting are made by every work-item of that branch's tangle. */
static bool divergent_for(const Uni *u, const Symbol *sym)
{
    int base = sym && sym->kind == SYM_VAR && !sym->is_global ? sym->decl_divergence : 0;
    return u->divergent > base || u->diverged;
}

static void make_nonuniform(Uni *u, Symbol *sym)
{
    if (sym && sym->kind == SYM_VAR && !sym->is_global && sym->is_uniform) {
        sym->is_uniform = false;
        u->changed = true;
    }
}

/* The local variable an lvalue writes into, if it is not memory reached
 * through a pointer. */
static Symbol *written_var(Node *lhs)
{
    while (lhs) {
        if (lhs->kind == ND_IDENT)
            return lhs->sym;
        if (lhs->kind == ND_MEMBER && !lhs->is_arrow)
            lhs = lhs->lhs;
        else if (lhs->kind == ND_INDEX && lhs->lhs->ty && lhs->lhs->ty->kind == TY_ARRAY)
            lhs = lhs->lhs;
        else
            return NULL;
    }
    return NULL;
}

/* A group variable written after its declaration no longer holds the
 * group made there. */
static void note_group_write(Symbol *sym)
{
    if (sym && sym->kind == SYM_VAR && sym->ty && sym->ty->kind == TY_GROUP)
        sym->group_rewritten = true;
}

static bool u_assign(Uni *u, Node *target, bool value_uniform)
{
    Symbol *sym = written_var(target);
    note_group_write(sym);
    if (!value_uniform || divergent_for(u, sym))
        make_nonuniform(u, sym);
    return value_uniform;
}

static bool u_method(Uni *u, Node *n)
{
    u_expr(u, n->callee->lhs);
    for (Node *a = n->args.head; a; a = a->next)
        u_expr(u, a);
    const Type *g = n->callee->lhs->ty;
    switch ((Method)n->method) {
    case METHOD_GET_GROUP_LINEAR_RANGE: case METHOD_GET_LOCAL_LINEAR_RANGE:
        return true;
    case METHOD_GET_GROUP_LINEAR_ID:
        return g && g->kind == TY_GROUP && g->group != GROUP_BALLOT_GROUP && g->group != GROUP_FIXED_SIZE_GROUP;
    case METHOD_GET_LOCAL_LINEAR_ID: case METHOD_LEADER: case METHOD_INITIALIZE: case METHOD_INVALIDATE:
    case METHOD_ARRIVE: case METHOD_ARRIVE_AND_DROP: case METHOD_ARRIVE_NO_COMPLETE:
    case METHOD_ARRIVE_AND_DROP_NO_COMPLETE: case METHOD_ARRIVE_COPY_ASYNC: case METHOD_ARRIVE_COPY_ASYNC_NO_INC:
    case METHOD_WAIT: case METHOD_TEST_WAIT: case METHOD_ARRIVE_AND_WAIT: case METHOD_BARRIER_MAX:
    case METHOD_NONE: case METHOD_COUNT:
        break;
    }
    return false;
}

static bool u_builtin(Uni *u, Node *n, bool args_uniform)
{
    const Node *g = n->args.head;
    bool whole = g && g->ty && g->ty->kind == TY_GROUP &&
                 (g->ty->group == GROUP_WORK_GROUP || g->ty->group == GROUP_SUB_GROUP);
    (void)u;
    switch ((Builtin)n->builtin) {
    case BI_GET_GROUP_ID: case BI_GET_NUM_GROUPS: case BI_GET_LOCAL_SIZE: case BI_GET_GLOBAL_SIZE:
    case BI_GET_WORK_DIM:
        return args_uniform;
    case BI_GET_WORK_GROUP: case BI_GET_SUB_GROUP:
        return true;
    case BI_GROUP_BROADCAST: case BI_ANY_OF_GROUP: case BI_ALL_OF_GROUP: case BI_NONE_OF_GROUP:
    case BI_REDUCE_OVER_GROUP: case BI_JOINT_REDUCE: case BI_JOINT_ANY_OF: case BI_JOINT_ALL_OF:
    case BI_JOINT_NONE_OF:
        return whole;
    default:
        switch (builtin_info[n->builtin].kind) {
        case BK_MATH: case BK_MATH_INT: return args_uniform;
        case BK_WORKITEM: case BK_SYNC: case BK_ATOMIC: case BK_GROUP_CTOR: case BK_GROUP_FN:
        case BK_GROUP_ALGO: case BK_JOINT: case BK_ASYNC_COPY: case BK_PRINTF:
            break;
        }
        return false;
    }
}

/* A group algorithm (or joint algorithm) on a fixed-size or ballot group
 * that its variable's declaration made: every work-item that made the group reaches
 * the call when no non-uniform condition encloses the call without
 * enclosing the declaration, and no divergent exit came in between.  The
 * counts only grow from one fixed-point round to the next, so a "may
 * diverge" once set stays right. */
static void note_creators(const Uni *u, Node *call)
{
    const Node *g = call->args.head;
    const Symbol *sym = g && g->kind == ND_IDENT ? g->sym : NULL;
    if (!sym || !(sym->made_fixed_group || sym->made_ballot_group))
        return;
    if (u->gotos || u->divergent != sym->decl_divergence || u->jumps != sym->decl_jumps)
        call->creators_may_diverge = true;
}

static bool u_call(Uni *u, Node *n)
{
    if (n->method)
        return u_method(u, n);
    bool all = true;
    if (n->builtin == 0)
        u_expr(u, n->callee);
    for (Node *a = n->args.head; a; a = a->next)
        all &= u_expr(u, a);
    if (n->builtin > 0 && n->builtin < BI_COUNT &&
        (builtin_info[n->builtin].kind == BK_GROUP_ALGO || builtin_info[n->builtin].kind == BK_JOINT))
        note_creators(u, n);
    return n->builtin ? u_builtin(u, n, all) : false;
}

static bool u_index(Uni *u, Node *n)
{
    bool l = u_expr(u, n->lhs), r = u_expr(u, n->rhs);
    const Type *base = n->lhs->ty;
    AddrSpace as = base ? type_space(base) : AS_GLOBAL;
    return base && base->kind == TY_ARRAY && (as == AS_PRIVATE || as == AS_CONSTANT) && l && r;
}

static bool u_ident(const Node *n)
{
    const Symbol *sym = n->sym;
    if (!sym)
        return true; /* group operation names */
    if (sym->kind != SYM_VAR)
        return true;
    if (sym->is_global)
        return type_space(sym->ty) == AS_CONSTANT;
    return sym->is_uniform && type_space(sym->ty) != AS_LOCAL;
}

/* An operand only some work-items evaluate when `divergent` (the right side
 * of && or || after a non-uniform left side, an arm of ?: after a
 * non-uniform condition). */
static bool u_conditional(Uni *u, Node *n, bool divergent)
{
    u->divergent += divergent;
    bool uniform = u_expr(u, n);
    u->divergent -= divergent;
    return uniform;
}

static bool u_expr_kind(Uni *u, Node *n)
{
    switch (n->kind) {
    case ND_INT_LIT: case ND_FLOAT_LIT: case ND_CHAR_LIT: case ND_STRING_LIT: case ND_BOOL_LIT:
    case ND_SIZEOF: case ND_ALIGNOF:
        return true;
    case ND_IDENT:
        return u_ident(n);
    case ND_UNARY:
        if (n->op == OP_ADDR) {
            u_expr(u, n->lhs);
            make_nonuniform(u, written_var(n->lhs));
            note_group_write(written_var(n->lhs));
            return false;
        }
        if (n->op == OP_PRE_INC || n->op == OP_PRE_DEC)
            return u_assign(u, n->lhs, u_expr(u, n->lhs));
        return u_expr(u, n->lhs) && n->op != OP_DEREF;
    case ND_POSTFIX:
        return u_assign(u, n->lhs, u_expr(u, n->lhs));
    case ND_BINARY: {
        bool l = u_expr(u, n->lhs);
        bool short_circuit = n->op == OP_LOGAND || n->op == OP_LOGOR;
        return u_conditional(u, n->rhs, short_circuit && !l) && l;
    }
    case ND_ASSIGN: {
        bool r = u_expr(u, n->rhs);
        bool l = u_expr(u, n->lhs);
        return u_assign(u, n->lhs, r && (n->op == OP_ASSIGN || l));
    }
    case ND_COND: {
        bool c = u_expr(u, n->cond), t = u_conditional(u, n->then, !c);
        return u_conditional(u, n->els, !c) && c && t;
    }
    case ND_COMMA:
        u_expr(u, n->lhs);
        return u_expr(u, n->rhs);
    case ND_CAST:
        return u_expr(u, n->lhs);
    case ND_CALL:
        return u_call(u, n);
    case ND_INDEX:
        return u_index(u, n);
    case ND_MEMBER:
        return u_expr(u, n->lhs) && !n->is_arrow;
    case ND_INIT_LIST: {
        bool all = true;
        for (Node *i = n->items.head; i; i = i->next)
            all &= u_expr(u, i);
        return all;
    }
    case ND_DESIG_INIT:
        return u_expr(u, n->lhs);
    case ND_COMPOUND_LIT:
        return n->init ? u_expr(u, n->init) : true;
    default:
        return false;
    }
}

static bool u_expr(Uni *u, Node *n)
{
    if (!n)
        return true;
    n->is_uniform = u_expr_kind(u, n);
    return n->is_uniform;
}

static void u_stmt(Uni *u, Node *n);

static void u_loop_once(Uni *u, Node *n)
{
    bool c = n->cond ? u_expr(u, n->cond) : true;
    if (!c)
        u->divergent++;
    u_stmt(u, n->body);
    if (n->inc)
        u_expr(u, n->inc);
    if (n->kind == ND_DO && n->cond)
        u_expr(u, n->cond);
    if (!c)
        u->divergent--;
}

/* The jumps a walk of u_stmt meets under `n` (it visits what u_stmt
 * visits): whether there is a break/continue/return/goto, and a return. */
static void find_jumps(const Node *n, bool *jump, bool *ret)
{
    if (!n)
        return;
    switch (n->kind) {
    case ND_BLOCK:
        for (const Node *i = n->items.head; i; i = i->next)
            find_jumps(i, jump, ret);
        break;
    case ND_IF:
        find_jumps(n->then, jump, ret);
        find_jumps(n->els, jump, ret);
        break;
    case ND_SWITCH: case ND_WHILE: case ND_DO: case ND_FOR:
    case ND_LABEL: case ND_CASE: case ND_DEFAULT:
        find_jumps(n->body, jump, ret);
        break;
    case ND_RETURN:
        *ret = true;
        *jump = true;
        break;
    case ND_BREAK: case ND_CONTINUE: case ND_GOTO:
        *jump = true;
        break;
    default:
        break;
    }
}

/* A loop whose body has a divergent jump is analysed again one level more
 * divergent: some iterations end early for some work-items.  In control
 * flow that is divergent already, every jump in the body is divergent, so
 * that is known without the first pass, whose effects the second pass
 * covers (uniformity only ever decreases, and the creator facts only
 * gain "may diverge"); only a return of the first pass would have set
 * `diverged` for the second.  So a loop costs two passes only where
 * control flow is still uniform, and nesting stays linear there instead
 * of doubling at every level (issue 35, item 2). */
static void u_loop(Uni *u, Node *n)
{
    bool outer_jump = u->loop_jump;
    u->loop_jump = false;
    if (n->kind == ND_FOR && n->init)
        u_stmt(u, n->init);
    bool jump = false, ret = false;
    if (divergent_now(u))
        find_jumps(n->body, &jump, &ret);
    else
        u_loop_once(u, n);
    if (jump || u->loop_jump) {
        u->diverged |= ret;
        u->divergent++;
        u_loop_once(u, n);
        u->divergent--;
    } else if (divergent_now(u)) {
        u_loop_once(u, n); /* no jump: the one pass */
    }
    u->loop_jump = outer_jump || u->loop_jump;
}

/* Whether `init` is a call of the group constructor `maker`. */
static bool is_group_creation(const Node *init, Builtin maker)
{
    while (init && init->kind == ND_CAST && init->is_implicit)
        init = init->lhs;
    return init && init->kind == ND_CALL && init->builtin == (int)maker;
}

static void u_decl(Uni *u, Node *decl)
{
    for (Node *d = decl->items.head; d; d = d->next) {
        Symbol *sym = d->sym;
        if (!sym || sym->kind != SYM_VAR)
            continue;
        sym->decl_divergence = u->divergent;
        sym->decl_jumps = u->jumps;
        sym->made_fixed_group = is_group_creation(d->init, BI_GET_FIXED_SIZE_GROUP);
        sym->made_ballot_group = is_group_creation(d->init, BI_GET_BALLOT_GROUP);
        if (type_space(sym->ty) == AS_LOCAL)
            make_nonuniform(u, sym);
        if (d->init && (!u_expr(u, d->init) || divergent_for(u, sym)))
            make_nonuniform(u, sym);
    }
}

static void u_stmt(Uni *u, Node *n)
{
    if (!n)
        return;
    switch (n->kind) {
    case ND_BLOCK:
        for (Node *i = n->items.head; i; i = i->next)
            u_stmt(u, i);
        break;
    case ND_DECL: u_decl(u, n); break;
    case ND_EXPR_STMT: u_expr(u, n->lhs); break;
    case ND_IF: case ND_SWITCH: {
        bool c = u_expr(u, n->cond);
        if (!c)
            u->divergent++;
        u_stmt(u, n->kind == ND_IF ? n->then : n->body);
        if (n->kind == ND_IF) /* a switch has no els (nor its slot) */
            u_stmt(u, n->els);
        if (!c)
            u->divergent--;
        break;
    }
    case ND_WHILE: case ND_DO: case ND_FOR: u_loop(u, n); break;
    case ND_BREAK: case ND_CONTINUE:
        if (divergent_now(u)) {
            u->loop_jump = true;
            u->jumps++;
        }
        break;
    case ND_RETURN:
        u_expr(u, n->lhs);
        if (divergent_now(u)) {
            u->diverged = u->loop_jump = true;
            u->jumps++;
        }
        break;
    case ND_GOTO:
        u->diverged = u->loop_jump = true;
        u->jumps++;
        break;
    case ND_LABEL: case ND_CASE: case ND_DEFAULT:
        if (n->kind == ND_CASE)
            u_expr(u, n->lhs);
        u_stmt(u, n->body);
        break;
    default:
        break;
    }
}

static bool has_goto(const Node *n)
{
    if (!n)
        return false;
    switch (n->kind) {
    case ND_GOTO:
        return true;
    case ND_BLOCK:
        for (const Node *i = n->items.head; i; i = i->next)
            if (has_goto(i))
                return true;
        return false;
    case ND_IF:
        return has_goto(n->then) || has_goto(n->els);
    case ND_SWITCH: case ND_CASE: case ND_DEFAULT: case ND_WHILE: case ND_DO: case ND_FOR:
    case ND_LABEL: case ND_FUNC_DEF:
        return has_goto(n->body);
    default: /* expressions and declarations hold no statements */
        return false;
    }
}

void sema_uniformity(Sema *s, Symbol *fn)
{
    (void)s;
    Node *def = fn->def;
    if (!def || !def->body || def->sym != fn)
        return;
    /* Kernel arguments are the same for every work-item; a device
     * function's parameters are whatever its callers pass. */
    for (Declarator *d = def->declarator; d; d = d->inner)
        if (d->kind == DECL_FUNC)
            for (Node *p = d->params.head; p; p = p->next)
                if (p->sym)
                    p->sym->is_uniform = fn->is_kernel;
    bool gotos = has_goto(def->body);
    Uni u;
    do {
        u = (Uni){.diverged = gotos, .gotos = gotos};
        u_stmt(&u, def->body);
    } while (u.changed);
}
