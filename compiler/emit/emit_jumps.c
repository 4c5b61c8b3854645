/* emit_jumps.c — C++ targets (CUDA C): the block-scope declarations a jump
 * crosses.
 *
 * C lets a `goto` or a `switch` jump past a declaration with an initialiser
 * (the object exists, its value is indeterminate); C++ does not ([stmt.dcl]:
 * "transfer of control bypasses initialization"), and nvcc rejects it.  Targets whose
 * language is C++ (EmitHooks.is_cxx) get the repair.  The
 * printer writes such a declaration as a declaration without initialiser
 * followed by an assignment (docs/LOWERING.md "Jumps past initialisers"),
 * which is what C means and what C++ accepts.  Only declarations a jump
 * really crosses are rewritten, so ordinary code keeps its initialisers.
 *
 * The scan numbers statements in source order.  A declaration at position p
 * in a block whose last statement has position e is in scope over (p, e].
 * A jump crosses it when its target (a label, or a case/default label) lies
 * in that range and the jump itself (the goto, or the switch head) does not. */
#include "emit/emit_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct JumpSite {
    const char *label;    /* goto / label name; NULL for a case label */
    int pos;              /* position of the goto, label or case */
    int from;             /* case: position of its switch */
} JumpSite;

typedef struct ScopedDecl {
    const Node *decl;
    int pos, end;
} ScopedDecl;

typedef VEC(JumpSite) JumpSites;

typedef struct JumpScan {
    int pos;
    JumpSites labels, gotos, cases;
    VEC(ScopedDecl) decls;
} JumpScan;

static void add_site(JumpSites *sites, const char *label, int pos, int from)
{
    VEC_PUSH(sites, ((JumpSite){label, pos, from}));
}

/* A block-scope object declaration with an initialiser C++ could bypass. */
static bool has_bypassable_init(const Node *decl)
{
    const DeclSpecs *ds = decl->decl_specs;
    if (!ds || ds->storage == SC_TYPEDEF || ds->storage == SC_STATIC || ds->storage == SC_EXTERN ||
        ds->is_spec_const)
        return false;
    for (const Node *d = decl->items.head; d; d = d->next)
        if (d->init)
            return true;
    return false;
}

static void scan_stmt(JumpScan *js, const Node *n, int switch_pos);

static void scan_block(JumpScan *js, const Node *block, int switch_pos)
{
    int first = js->decls.count;
    for (const Node *s = block->items.head; s; s = s->next) {
        if (s->kind == ND_DECL && has_bypassable_init(s)) {
            VEC_PUSH(&js->decls, ((ScopedDecl){s, js->pos + 1, 0}));
        }
        scan_stmt(js, s, switch_pos);
    }
    for (int i = first; i < js->decls.count; i++)
        if (js->decls.items[i].end == 0)
            js->decls.items[i].end = js->pos;
}

static void scan_stmt(JumpScan *js, const Node *n, int switch_pos)
{
    if (!n)
        return;
    int pos = ++js->pos;
    switch (n->kind) {
    case ND_BLOCK: scan_block(js, n, switch_pos); break;
    case ND_IF:
        scan_stmt(js, n->then, switch_pos);
        scan_stmt(js, n->els, switch_pos);
        break;
    case ND_SWITCH: scan_stmt(js, n->body, pos); break;
    case ND_CASE: case ND_DEFAULT:
        add_site(&js->cases, NULL, pos, switch_pos);
        scan_stmt(js, n->body, switch_pos);
        break;
    case ND_LABEL:
        add_site(&js->labels, n->name, pos, 0);
        scan_stmt(js, n->body, switch_pos);
        break;
    case ND_GOTO: add_site(&js->gotos, n->name, pos, 0); break;
    case ND_WHILE: case ND_DO: case ND_FOR: scan_stmt(js, n->body, switch_pos); break;
    default: break;
    }
}

static bool in_scope(const ScopedDecl *d, int pos)
{
    return pos > d->pos && pos <= d->end;
}

static bool is_crossed(const JumpScan *js, const ScopedDecl *d)
{
    for (int i = 0; i < js->cases.count; i++)
        if (in_scope(d, js->cases.items[i].pos) && !in_scope(d, js->cases.items[i].from))
            return true;
    for (int i = 0; i < js->labels.count; i++) {
        if (!in_scope(d, js->labels.items[i].pos))
            continue;
        for (int j = 0; j < js->gotos.count; j++)
            if (strcmp(js->gotos.items[j].label, js->labels.items[i].label) == 0 &&
                !in_scope(d, js->gotos.items[j].pos))
                return true;
    }
    return false;
}

void emit_find_crossed_decls(EmitCtx *ctx, const Node *body)
{
    ctx->split_decls.count = 0;
    if (!ctx->hooks->is_cxx || !body)
        return;
    JumpScan js = {0};
    scan_stmt(&js, body, 0);
    for (int i = 0; i < js.decls.count; i++) {
        if (!is_crossed(&js, &js.decls.items[i]))
            continue;
        VEC_PUSH(&ctx->split_decls, js.decls.items[i].decl);
    }
    free(js.labels.items);
    free(js.gotos.items);
    free(js.cases.items);
    free(js.decls.items);
}

bool emit_decl_is_crossed(const EmitCtx *ctx, const Node *decl)
{
    for (int i = 0; i < ctx->split_decls.count; i++)
        if (ctx->split_decls.items[i] == decl)
            return true;
    return false;
}
