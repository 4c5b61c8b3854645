/* emit_tangle.c — tangle masks maintained through control flow (docs/LOWERING.md "Tangle masks",
 * docs/DESIGN.md "Tangle masks", docs/LOWERING.md "Tangle masks").
 *
 * Only functions with Symbol.needs_tangle_mask are rewritten; every other
 * function is printed exactly as without this file.  In such a function:
 *   - the mask is a hidden trailing parameter `sgc_tangle_in` (kernels start
 *     from the lanes of the sub-group that exist) copied to `sgc_tangle`;
 *   - each region of structured control flow has its own const mask variable
 *     (sgc_tangle_then_1, sgc_tangle_rest_4 ...); the current one is a name
 *     kept while printing, so emit_tangle_print_mask just prints it;
 *   - a non-uniform condition is evaluated once and split by a ballot over
 *     the current mask; uniform ones (Node.is_uniform) cost nothing;
 *   - an exit (break/continue/return) that would leave lanes of its target's
 *     tangle behind becomes a flag; the statements after it are guarded and
 *     run with `ballot(mask, !flags)`, computed by every lane of the mask
 *     (all still present, since nothing left early);
 *   - loops become `for (;;)` with the continuation ballotted every
 *     iteration over the lanes still iterating; a non-uniform switch becomes
 *     a chain of guarded case segments (fall-through kept by a flag).
 * Whether an exit becomes a flag is decided twice, by the analysis
 * (exits_of) and while printing; both read the same Div, so they agree.
 *
 * The whole body of a lowered function is printed when the printer asks for
 * its first statement (the later top-level statements are then skipped); the
 * printing state lives on the stack and is reached through EmitCtx.tangle
 * while the body is printed. */
#include "emit/emit_lowering.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Flags an exit may set: the innermost breakable's sgc_break_N, the
 * innermost loop's sgc_continue_N, the function's sgc_returned. */
enum { EX_BREAK = 1, EX_CONTINUE = 2, EX_RETURN = 4 };

/* Whether an exit of each kind, reached here, leaves some lanes of its
 * target's tangle behind (so it must become a flag). */
typedef struct Div {
    bool brk, cont, ret;
} Div;

static const Div all_divergent = {true, true, true};

/* How a loop or switch is printed: as written (uniform, no flags inside)
 * or restructured, and the Div its body is printed with. */
typedef struct Plan {
    bool restructured;
    Div body;
} Plan;

/* What changes with each region; saved and restored around it. */
typedef struct Scope {
    char mask[48];    /* the variable holding the current tangle mask */
    Div div;
    int break_id;     /* N of the sgc_break_N a converted break sets */
    int continue_id;  /* N of the sgc_continue_N a converted continue sets */
} Scope;

typedef struct Tangle {
    Scope scope;
    int counter;      /* numbers the constructs of the function, in order */
} Tangle;

/* ===================================================================== */
/* Analysis                                                               */
/* ===================================================================== */

static bool is_uniform(const Node *cond) { return !cond || cond->is_uniform; }

/* --stats: a condition printed without a ballot because it is uniform. */
static void count_uniform_branch(EmitCtx *ctx, const Node *cond)
{
    if (cond && ctx->options->stats)
        ctx->options->stats->uniform_branches++;
}

static unsigned exits_of(const Node *s, Div d);

/* After an item that may set a flag, the rest of the list runs guarded. */
static unsigned items_exits(const Node *item, Div d)
{
    unsigned acc = 0;
    for (; item; item = item->next) {
        acc |= exits_of(item, d);
        if (acc)
            d = all_divergent;
    }
    return acc;
}

static unsigned body_exits(const Node *body, Div d)
{
    if (body && body->kind == ND_BLOCK)
        return items_exits(body->items.head, d);
    return exits_of(body, d);
}

/* A loop is printed as written when its condition is uniform and nothing in
 * its body sets a flag.  Otherwise `for` and `do` continue at the bottom of
 * the rewritten loop, so a continue there is always a flag. */
static Plan plan_loop(const Node *loop, Div d)
{
    Plan plain = {false, {false, false, d.ret}};
    if (is_uniform(loop->cond) && body_exits(loop->body, plain.body) == 0)
        return plain;
    return (Plan){true, {false, loop->kind != ND_WHILE, true}};
}

/* A restructured switch is no C switch: every break in it is a flag. */
static Plan plan_switch(const Node *sw, Div d)
{
    Plan plain = {false, {false, d.cont, d.ret}};
    if (is_uniform(sw->cond) && body_exits(sw->body, plain.body) == 0)
        return plain;
    return (Plan){true, all_divergent};
}

/* The flags `s` may set that escape it, when reached with `d`. */
static unsigned exits_of(const Node *s, Div d)
{
    if (!s)
        return 0;
    switch (s->kind) {
    case ND_BREAK: return d.brk ? EX_BREAK : 0;
    case ND_CONTINUE: return d.cont ? EX_CONTINUE : 0;
    case ND_RETURN: return d.ret ? EX_RETURN : 0;
    case ND_IF:
        if (!is_uniform(s->cond))
            d = all_divergent;
        return body_exits(s->then, d) | body_exits(s->els, d);
    case ND_BLOCK: return items_exits(s->items.head, d);
    case ND_CASE: case ND_DEFAULT: case ND_LABEL: return exits_of(s->body, d);
    case ND_SWITCH: return body_exits(s->body, plan_switch(s, d).body) & ~(unsigned)EX_BREAK;
    case ND_WHILE: case ND_DO: case ND_FOR:
        return body_exits(s->body, plan_loop(s, d).body) & EX_RETURN;
    default: return 0;
    }
}

/* ===================================================================== */
/* Printing helpers                                                       */
/* ===================================================================== */

static Tangle *current(const EmitCtx *ctx)
{
    const Symbol *fn = ctx->function;
    return fn && fn->needs_tangle_mask && fn->def && fn->def == ctx->tangle_def ? ctx->tangle
                                                                                : NULL;
}

static const char *mask_type(const EmitCtx *ctx) { return ctx->hooks->lowering->mask_type; }

/* One whole line of generated code (no #line of its own). */
static void line(EmitCtx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(EmitCtx *ctx, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    emit_line_begin(ctx, (SrcLoc){0, 0});
    emit_out(ctx, "%s", text);
    emit_line_end(ctx);
}

/* `const MASK name = ballot(mask, pred);` — the lanes of `mask` where
 * `pred` holds; every lane of `mask` executes it. */
static void ballot_line(EmitCtx *ctx, const char *name, const char *mask, const char *pred,
                        const char *why)
{
    if (ctx->options->stats)
        ctx->options->stats->ballots++;
    emit_line_begin(ctx, (SrcLoc){0, 0});
    if (name)
        emit_out(ctx, "const %s %s = ", mask_type(ctx), name);
    else
        emit_out(ctx, "%s = ", mask);
    emit_out(ctx, "%s(%s, %s);", ctx->hooks->lowering->ballot, mask, pred);
    if (why)
        emit_out(ctx, " /* %s */", why);
    emit_line_end(ctx);
}

/* The flags in `ex`, as `a || b` (an empty string for none). */
static void flag_test(const Tangle *t, unsigned ex, char *out, size_t size)
{
    int n = snprintf(out, size, "%s", "");
    if (ex & EX_BREAK)
        n += snprintf(out + n, size - (size_t)n, "%ssgc_break_%d", n ? " || " : "", t->scope.break_id);
    if (ex & EX_CONTINUE)
        n += snprintf(out + n, size - (size_t)n, "%ssgc_continue_%d", n ? " || " : "",
                      t->scope.continue_id);
    if (ex & EX_RETURN)
        snprintf(out + n, size - (size_t)n, "%ssgc_returned", n ? " || " : "");
}

/* `!flags`, parenthesised when there are several. */
static void not_flags(const Tangle *t, unsigned ex, char *out, size_t size)
{
    char test[160];
    flag_test(t, ex, test, sizeof test);
    bool several = strchr(test, '|') != NULL;
    snprintf(out, size, several ? "!(%s)" : "!%s", test);
}

static void print_items(EmitCtx *ctx, Tangle *t, const Node *item, const Node *end);

/* ` {`, the statements of `body` one level deeper, and `}` (line not ended). */
static void print_braced(EmitCtx *ctx, Tangle *t, const Node *body)
{
    emit_out(ctx, " {");
    emit_line_end(ctx);
    ctx->indent++;
    if (body && body->kind == ND_BLOCK)
        print_items(ctx, t, body->items.head, NULL);
    else if (body)
        emit_stmt(ctx, body);
    ctx->indent--;
    emit_line_begin(ctx, (SrcLoc){0, 0});
    emit_out(ctx, "}");
}

static void open_block(EmitCtx *ctx)
{
    line(ctx, "{");
    ctx->indent++;
}

static void close_block(EmitCtx *ctx)
{
    ctx->indent--;
    line(ctx, "}");
}

/* ===================================================================== */
/* Statement lists: the rest after an exit runs guarded                    */
/* ===================================================================== */

/* Opens the guard of the items after an exit: the work-items of the list's
 * mask (`entry`, all still present: nothing left early) that set none of the
 * flags in `left`, their own mask a ballot over the list's. */
static void open_rest_guard(EmitCtx *ctx, Tangle *t, const Scope *entry, unsigned left)
{
    char name[48], pred[200];
    snprintf(name, sizeof name, "sgc_tangle_rest_%d", ++t->counter);
    t->scope = *entry;
    not_flags(t, left, pred, sizeof pred);
    ballot_line(ctx, name, entry->mask, pred, "the work-items that did not leave");
    line(ctx, "if (%s) {", pred);
    snprintf(t->scope.mask, sizeof t->scope.mask, "%s", name);
    t->scope.div = all_divergent;
    ctx->indent++;
}

static void close_rest_guard(EmitCtx *ctx)
{
    ctx->indent--;
    line(ctx, "}");
}

/* Whether the guarded run of items from `item` (up to `end`, and up to the
 * first that may set a flag) declares something at its own level: a later
 * run, guarded apart, could not see it. */
static bool run_declares(const Node *item, const Node *end)
{
    for (; item && item != end; item = item->next) {
        if (item->kind == ND_DECL)
            return true;
        if (exits_of(item, all_divergent))
            return false;
    }
    return false;
}

/* `head`, then the items from `rest` up to `end` (NULL: the list's end).
 * After an item that may set a flag the next items run guarded, each run up
 * to the next such item in a guard of its own at this level (the flags only
 * accumulate, so each guard tests all of them so far), so that a function
 * with many divergent exits does not nest its output deeper at every exit
 * (issue 35, item 4).  A run that declares something holds the rest of the
 * list instead. */
static void print_list(EmitCtx *ctx, Tangle *t, const Node *head, const Node *rest,
                       const Node *end)
{
    Scope entry = t->scope;
    unsigned left = 0; /* the flags the items so far may set */
    bool guarded = false;
    for (;;) {
        emit_stmt(ctx, head);
        unsigned ex = exits_of(head, t->scope.div);
        if (rest == end)
            break;
        if (ex) {
            left |= ex;
            if (guarded)
                close_rest_guard(ctx);
            open_rest_guard(ctx, t, &entry, left);
            guarded = true;
            if (run_declares(rest, end)) {
                print_list(ctx, t, rest, rest->next, end);
                break;
            }
        }
        head = rest;
        rest = rest->next;
    }
    if (guarded)
        close_rest_guard(ctx);
    t->scope = entry;
}

static void print_items(EmitCtx *ctx, Tangle *t, const Node *item, const Node *end)
{
    if (item && item != end)
        print_list(ctx, t, item, item->next, end);
}

/* ===================================================================== */
/* if                                                                     */
/* ===================================================================== */

static void print_uniform_if(EmitCtx *ctx, Tangle *t, const Node *s)
{
    emit_line_begin(ctx, s->loc);
    emit_out(ctx, "if (");
    emit_expr_prec(ctx, s->cond, PREC_COMMA);
    emit_out(ctx, ")");
    print_braced(ctx, t, s->then);
    if (s->els) {
        emit_out(ctx, " else");
        print_braced(ctx, t, s->els);
    }
    emit_line_end(ctx);
}

/* The condition once, its ballot, each side with its part of the mask;
 * after the if the enclosing mask applies again. */
static void print_divergent_if(EmitCtx *ctx, Tangle *t, const Node *s)
{
    int id = ++t->counter;
    char cond[32], then_mask[48], pred[48];
    snprintf(cond, sizeof cond, "sgc_cond_%d", id);
    snprintf(then_mask, sizeof then_mask, "sgc_tangle_then_%d", id);
    open_block(ctx);
    emit_line_begin(ctx, s->loc);
    emit_out(ctx, "const bool %s = ", cond);
    emit_expr(ctx, s->cond);
    emit_out(ctx, ";");
    emit_line_end(ctx);
    ballot_line(ctx, then_mask, t->scope.mask, cond, "the tangle splits");
    Scope saved = t->scope;
    t->scope.div = all_divergent;
    snprintf(t->scope.mask, sizeof t->scope.mask, "%s", then_mask);
    line(ctx, "if (%s) {", cond);
    ctx->indent++;
    if (s->then && s->then->kind == ND_BLOCK)
        print_items(ctx, t, s->then->items.head, NULL);
    else
        emit_stmt(ctx, s->then);
    ctx->indent--;
    if (s->els) {
        line(ctx, "} else {");
        ctx->indent++;
        snprintf(pred, sizeof pred, "sgc_tangle_else_%d", id);
        /* The else side may need no mask at all; C++ would warn then. */
        line(ctx, "%sconst %s %s = %s & ~%s;", ctx->hooks->lowering->maybe_unused,
             mask_type(ctx), pred, saved.mask, then_mask);
        snprintf(t->scope.mask, sizeof t->scope.mask, "%s", pred);
        if (s->els->kind == ND_BLOCK)
            print_items(ctx, t, s->els->items.head, NULL);
        else
            emit_stmt(ctx, s->els);
        ctx->indent--;
    }
    t->scope = saved;
    line(ctx, "}");
    close_block(ctx);
}

/* ===================================================================== */
/* Loops                                                                  */
/* ===================================================================== */

/* `go = !flags && cond`, its ballot over the lanes still iterating, and the
 * exit of the lanes that stop (all of them leave together). */
static void print_continuation(EmitCtx *ctx, const Tangle *t, const Node *loop, int id,
                               unsigned stop)
{
    char go[32], mask[48];
    snprintf(go, sizeof go, "sgc_go_%d", id);
    snprintf(mask, sizeof mask, "sgc_tangle_loop_%d", id);
    emit_line_begin(ctx, loop->cond ? loop->cond->loc : loop->loc);
    emit_out(ctx, "const bool %s = ", go);
    if (stop) {
        char pred[200];
        not_flags(t, stop, pred, sizeof pred);
        emit_out(ctx, "%s", pred);
        if (loop->cond) {
            emit_out(ctx, " && ");
            emit_expr_prec(ctx, loop->cond, PREC_BITOR);
        }
    } else if (loop->cond) {
        emit_expr(ctx, loop->cond);
    } else {
        emit_out(ctx, "true");
    }
    emit_out(ctx, ";");
    emit_line_end(ctx);
    ballot_line(ctx, NULL, mask, go, "the work-items still iterating");
    line(ctx, "if (!%s)", go);
    ctx->indent++;
    line(ctx, "break;");
    ctx->indent--;
}

static void print_for_init(EmitCtx *ctx, const Node *init)
{
    if (!init || init->kind == ND_NULL_STMT)
        return;
    if (init->kind == ND_DECL || init->kind == ND_EXPR_STMT) {
        emit_stmt(ctx, init);
        return;
    }
    emit_line_begin(ctx, init->loc);
    emit_expr_prec(ctx, init, PREC_COMMA);
    emit_out(ctx, ";");
    emit_line_end(ctx);
}

static void print_restructured_loop(EmitCtx *ctx, Tangle *t, const Node *s, Plan plan)
{
    int id = ++t->counter;
    unsigned ex = body_exits(s->body, plan.body);
    unsigned stop = ex & (EX_BREAK | EX_RETURN);
    open_block(ctx);
    if (s->kind == ND_FOR)
        print_for_init(ctx, s->init);
    bool has_init = s->kind == ND_FOR && s->init && s->init->kind != ND_NULL_STMT;
    emit_line_begin(ctx, has_init ? (SrcLoc){0, 0} : s->loc);
    emit_out(ctx, "%s sgc_tangle_loop_%d = %s; /* the work-items still iterating */",
             mask_type(ctx), id, t->scope.mask);
    emit_line_end(ctx);
    if (ex & EX_BREAK)
        line(ctx, "bool sgc_break_%d = false;", id);
    line(ctx, "for (;;) {");
    ctx->indent++;
    Scope saved = t->scope;
    t->scope.break_id = t->scope.continue_id = id;
    if (s->kind != ND_DO)
        print_continuation(ctx, t, s, id, stop);
    if (ex & EX_CONTINUE)
        line(ctx, "bool sgc_continue_%d = false;", id);
    snprintf(t->scope.mask, sizeof t->scope.mask, "sgc_tangle_loop_%d", id);
    t->scope.div = plan.body;
    if (s->body && s->body->kind == ND_BLOCK)
        print_items(ctx, t, s->body->items.head, NULL);
    else
        emit_stmt(ctx, s->body);
    t->scope.div = saved.div;
    if (s->kind == ND_FOR && s->inc) {
        char pred[200] = "";
        if (stop)
            not_flags(t, stop, pred, sizeof pred);
        emit_line_begin(ctx, s->inc->loc);
        if (stop)
            emit_out(ctx, "if (%s) ", pred);
        emit_expr_prec(ctx, s->inc, PREC_COMMA);
        emit_out(ctx, ";");
        emit_line_end(ctx);
    }
    if (s->kind == ND_DO)
        print_continuation(ctx, t, s, id, stop);
    t->scope = saved;
    ctx->indent--;
    line(ctx, "}");
    close_block(ctx);
}

static void print_loop(EmitCtx *ctx, Tangle *t, const Node *s)
{
    Plan plan = plan_loop(s, t->scope.div);
    if (plan.restructured) {
        print_restructured_loop(ctx, t, s, plan);
        return;
    }
    /* Uniform, no flags: as written; the statements inside are lowered. */
    count_uniform_branch(ctx, s->cond);
    Scope saved = t->scope;
    t->scope.div = plan.body;
    emit_stmt_default(ctx, s);
    t->scope = saved;
}

/* ===================================================================== */
/* switch                                                                 */
/* ===================================================================== */

static bool is_label(const Node *s) { return s && (s->kind == ND_CASE || s->kind == ND_DEFAULT); }

/* A case label inside a nested statement (Duff's device) cannot be reached
 * by the segment chain. */
static const Node *nested_label(const Node *s)
{
    if (!s)
        return NULL;
    switch (s->kind) {
    case ND_CASE: case ND_DEFAULT: return s;
    case ND_LABEL: return nested_label(s->body);
    case ND_IF: {
        const Node *l = nested_label(s->then);
        return l ? l : nested_label(s->els);
    }
    case ND_WHILE: case ND_DO: case ND_FOR: return nested_label(s->body);
    case ND_BLOCK:
        for (const Node *i = s->items.head; i; i = i->next)
            if (nested_label(i))
                return nested_label(i);
        return NULL;
    default: return NULL;
    }
}

/* `sgc_switch_N == v || ...` for the label chain starting at `label`;
 * `default` is "equal to none of the switch's case values". */
static void print_label_test(EmitCtx *ctx, const Node *label, const Node *items, int id)
{
    bool first = true;
    for (const Node *l = label; is_label(l); l = l->body, first = false) {
        emit_out(ctx, first ? "" : " || ");
        if (l->kind == ND_CASE) {
            emit_out(ctx, "sgc_switch_%d == ", id);
            emit_expr_prec(ctx, l->lhs, PREC_RELATIONAL);
            continue;
        }
        bool any = false;
        for (const Node *i = items; i; i = i->next)
            for (const Node *c = i; is_label(c); c = c->body)
                if (c->kind == ND_CASE) {
                    emit_out(ctx, any ? " && " : "(");
                    emit_out(ctx, "sgc_switch_%d != ", id);
                    emit_expr_prec(ctx, c->lhs, PREC_RELATIONAL);
                    any = true;
                }
        emit_out(ctx, any ? ")" : "true");
    }
}

/* The flags a segment may set: `head`, then the items up to `end`. */
static unsigned list_exits(const Node *head, const Node *rest, const Node *end, Div d)
{
    unsigned acc = exits_of(head, d);
    for (const Node *i = rest; i != end; i = i->next)
        acc |= exits_of(i, acc ? all_divergent : d);
    return acc;
}

/* One segment: the labels at `label`, the statement they label, and the
 * items up to the next label (returned).  A work-item runs it once it has
 * reached a case (fall-through included) and set no flag. */
static const Node *print_segment(EmitCtx *ctx, Tangle *t, const Node *label, const Node *items,
                                 int id, unsigned *exited)
{
    const Node *head = label;
    while (is_label(head))
        head = head->body;
    const Node *end = label->next;
    while (end && !is_label(end))
        end = end->next;
    emit_line_begin(ctx, label->loc);
    emit_out(ctx, "sgc_in_%d = sgc_in_%d || ", id, id);
    print_label_test(ctx, label, items, id);
    emit_out(ctx, ";");
    emit_line_end(ctx);

    char mask[48], live[240] = "";
    snprintf(mask, sizeof mask, "sgc_tangle_case_%d_%d", id, ++t->counter);
    if (*exited) {
        char flags[200];
        not_flags(t, *exited, flags, sizeof flags);
        snprintf(live, sizeof live, "sgc_in_%d && %s", id, flags);
    } else {
        snprintf(live, sizeof live, "sgc_in_%d", id);
    }
    ballot_line(ctx, mask, t->scope.mask, live, NULL);
    line(ctx, "if (%s) {", live);
    Scope saved = t->scope;
    snprintf(t->scope.mask, sizeof t->scope.mask, "%s", mask);
    ctx->indent++;
    *exited |= list_exits(head, label->next, end, t->scope.div);
    if (head)
        print_list(ctx, t, head, label->next, end);
    else
        print_items(ctx, t, label->next, end);
    ctx->indent--;
    t->scope = saved;
    line(ctx, "}");
    return end;
}

static void print_restructured_switch(EmitCtx *ctx, Tangle *t, const Node *s, Plan plan)
{
    const Node *items = s->body && s->body->kind == ND_BLOCK ? s->body->items.head : s->body;
    for (const Node *i = items; i; i = i->next) {
        const Node *l = is_label(i) ? i : NULL;
        while (is_label(l))
            l = l->body;
        const Node *bad = nested_label(is_label(i) ? l : i);
        if (bad) {
            emit_error(ctx, bad->loc, "a case label inside a nested statement is not supported "
                                      "in a function that uses tangle groups");
            return;
        }
    }
    int id = ++t->counter;
    open_block(ctx);
    emit_line_begin(ctx, s->loc);
    char value[32];
    snprintf(value, sizeof value, "sgc_switch_%d", id);
    emit_out(ctx, "const ");
    emit_type_internal(ctx, s->cond->ty, value, AS_ROLE_BLOCK_OBJECT);
    emit_out(ctx, " = ");
    emit_expr(ctx, s->cond);
    emit_out(ctx, ";");
    emit_line_end(ctx);
    line(ctx, "bool sgc_in_%d = false; /* a case of this switch was reached */", id);
    Scope saved = t->scope;
    t->scope.break_id = id;
    t->scope.div = plan.body;
    if (body_exits(s->body, plan.body) & EX_BREAK)
        line(ctx, "bool sgc_break_%d = false;", id);
    unsigned exited = 0;
    for (const Node *i = items; i;) {
        if (!is_label(i)) {
            if (i->kind == ND_DECL)
                emit_stmt(ctx, i); /* before the first label: only declarations matter */
            i = i->next;
            continue;
        }
        i = print_segment(ctx, t, i, items, id, &exited);
    }
    t->scope = saved;
    close_block(ctx);
}

static void print_switch(EmitCtx *ctx, Tangle *t, const Node *s)
{
    Plan plan = plan_switch(s, t->scope.div);
    if (plan.restructured) {
        print_restructured_switch(ctx, t, s, plan);
        return;
    }
    count_uniform_branch(ctx, s->cond);
    Scope saved = t->scope;
    t->scope.div = plan.body;
    emit_stmt_default(ctx, s);
    t->scope = saved;
}

/* ===================================================================== */
/* Exits, labels, blocks                                                  */
/* ===================================================================== */

static bool returns_void(const Symbol *fn)
{
    const Type *ret = fn->ty ? emit_canonical(fn->ty->base) : NULL;
    return !ret || ret->kind == TY_VOID;
}

static void print_return_flag(EmitCtx *ctx, const Node *s)
{
    if (s->lhs) {
        emit_line_begin(ctx, s->loc);
        if (!returns_void(ctx->function))
            emit_out(ctx, "sgc_result = ");
        emit_expr(ctx, s->lhs);
        emit_out(ctx, ";");
        emit_line_end(ctx);
        line(ctx, "sgc_returned = true;");
        return;
    }
    emit_line_begin(ctx, s->loc);
    emit_out(ctx, "sgc_returned = true;");
    emit_line_end(ctx);
}

/* Every construct that declares temporaries opens a block of its own
 * (open_block): a case label of a switch printed as written may follow, and
 * C++ forbids jumping over an initialised declaration. */
static bool lower_stmt(EmitCtx *ctx, Tangle *t, const Node *s)
{
    switch (s->kind) {
    case ND_IF:
        if (is_uniform(s->cond)) {
            count_uniform_branch(ctx, s->cond);
            print_uniform_if(ctx, t, s);
        } else {
            print_divergent_if(ctx, t, s);
        }
        return true;
    case ND_WHILE: case ND_DO: case ND_FOR: print_loop(ctx, t, s); return true;
    case ND_SWITCH: print_switch(ctx, t, s); return true;
    case ND_BLOCK:
        emit_line_begin(ctx, s->loc);
        emit_out(ctx, "{");
        emit_line_end(ctx);
        ctx->indent++;
        print_items(ctx, t, s->items.head, NULL);
        ctx->indent--;
        line(ctx, "}");
        return true;
    case ND_BREAK:
    case ND_CONTINUE:
        if (!exits_of(s, t->scope.div))
            return false;
        emit_line_begin(ctx, s->loc);
        emit_out(ctx, "sgc_%s_%d = true;", s->kind == ND_BREAK ? "break" : "continue",
                 s->kind == ND_BREAK ? t->scope.break_id : t->scope.continue_id);
        emit_line_end(ctx);
        return true;
    case ND_RETURN:
        if (!exits_of(s, t->scope.div))
            return false;
        print_return_flag(ctx, s);
        return true;
    case ND_GOTO: case ND_LABEL:
        emit_error(ctx, s->loc, "'goto' and labels are not supported in a function that uses "
                                "tangle groups");
        return true;
    default:
        return false;
    }
}

/* The whole body, when the printer asks for its first statement. */
static void print_function_body(EmitCtx *ctx, const Symbol *fn)
{
    Tangle t = {.scope = {.mask = "sgc_tangle"}};
    if (ctx->options->stats)
        ctx->options->stats->tangle_functions++;
    const Node *items = fn->def->body->items.head;
    unsigned ex = items_exits(items, t.scope.div);
    if (ex & EX_RETURN) {
        line(ctx, "bool sgc_returned = false; /* set by a return, which must not leave early */");
        if (!returns_void(fn)) {
            emit_line_begin(ctx, (SrcLoc){0, 0});
            emit_type_internal(ctx, fn->ty->base, "sgc_result", AS_ROLE_BLOCK_OBJECT);
            emit_out(ctx, ";");
            emit_line_end(ctx);
        }
    }
    void *outer = ctx->tangle;
    const Node *outer_def = ctx->tangle_def;
    ctx->tangle = &t;
    ctx->tangle_def = fn->def;
    print_items(ctx, &t, items, NULL);
    ctx->tangle = outer;
    ctx->tangle_def = outer_def;
    if ((ex & EX_RETURN) && !returns_void(fn))
        line(ctx, "return sgc_result;");
}

/* ===================================================================== */
/* Hooks                                                                  */
/* ===================================================================== */

bool emit_tangle_stmt_override(EmitCtx *ctx, const Node *stmt)
{
    const Symbol *fn = ctx->function;
    if (!fn || !fn->needs_tangle_mask || !fn->def || !fn->def->body)
        return false;
    Tangle *t = current(ctx);
    if (t)
        return lower_stmt(ctx, t, stmt);
    if (stmt == fn->def->body->items.head)
        print_function_body(ctx, fn);
    return true; /* later top-level statements were printed with the first */
}

void emit_tangle_extra_params(EmitCtx *ctx, const Symbol *fn, bool first)
{
    if (!fn || !fn->needs_tangle_mask || fn->is_kernel)
        return;
    emit_out(ctx, "%s%s sgc_tangle_in", first ? "" : ", ", mask_type(ctx));
}

void emit_tangle_extra_args(EmitCtx *ctx, const Node *call, const Symbol *callee, bool first)
{
    (void)call;
    if (!callee || !callee->needs_tangle_mask || callee->is_kernel)
        return;
    emit_out(ctx, "%s", first ? "" : ", ");
    emit_tangle_print_mask(ctx);
}

void emit_tangle_prologue(EmitCtx *ctx, const Symbol *fn)
{
    if (!fn || !fn->needs_tangle_mask)
        return;
    const char *type = mask_type(ctx);
    const char *ns = ctx->hooks->lowering->ns;
    if (fn->is_kernel && emit_has_only_full_warps(fn))
        line(ctx, "const %s sgc_tangle = %sget_sub_group_of_full_warps().mask; /* the whole sub-group */",
             type, ns);
    else if (fn->is_kernel)
        line(ctx, "const %s sgc_tangle = %ssub_group_mask(); /* the work-items of this sub-group that exist */",
             type, ns);
    else
        line(ctx, "const %s sgc_tangle = sgc_tangle_in; /* the caller's tangle */", type);
}

void emit_tangle_print_mask(EmitCtx *ctx)
{
    const Tangle *t = current(ctx);
    emit_out(ctx, "%s", t ? t->scope.mask : "sgc_tangle");
}
