/* sema_expr.c — typing of expressions (C17 6.5): names, operators,
 * lvalues, the usual arithmetic conversions, assignment conversions with
 * Clang's wording, and integer constant folding.
 *
 * Conversions that change an arithmetic value's type are materialised as
 * ND_CAST nodes with is_implicit set, so emitters see every conversion
 * (and may skip printing them).  Every folded integer lives in
 * Node.const_value, already truncated to the node's type; a value that
 * comes from a spec constant's default also has depends_on_spec_const, so
 * emitters print the expression rather than the number.  An erroneous
 * expression gets s->t_err, which every check accepts silently. */
#include <stdio.h>
#include <string.h>

#include "sema/sema_int.h"

bool sema_is_err(Sema *s, const Type *ty) { return !ty || ty == s->t_err; }

/* ---- constants ---------------------------------------------------------- */

/* C conversion of an integer value to `ty` (6.3.1.3, wrapping). */
static int64_t wrap_to(int64_t v, const Type *ty)
{
    if (ty->kind == TY_BOOL)
        return v != 0;
    bool u = type_is_unsigned(ty);
    switch (ty->size) {
    case 1: return u ? (int64_t)(uint8_t)v : (int64_t)(int8_t)v;
    case 2: return u ? (int64_t)(uint16_t)v : (int64_t)(int16_t)v;
    case 4: return u ? (int64_t)(uint32_t)v : (int64_t)(int32_t)v;
    default: return v;
    }
}

void sema_fold_cast(Node *n, const Type *to)
{
    if (n->is_const_expr && type_is_integer(to))
        n->const_value = wrap_to(n->const_value, to);
    else
        n->is_const_expr = false;
}

bool sema_int_const(Sema *s, Node *n, int64_t *value, const char *what)
{
    Type *ty = sema_expr(s, n);
    if (sema_is_err(s, ty))
        return false;
    if (!type_is_integer(ty) || !n->is_const_expr) {
        diag_error(s->diag, n->loc, "%s is not an integer constant expression", what);
        return false;
    }
    *value = n->const_value;
    return true;
}

bool sema_is_null_ptr_const(const Node *n)
{
    if (n->kind == ND_CAST && n->ty && n->ty->kind == TY_PTR && n->ty->base->kind == TY_VOID)
        n = n->lhs;
    return n->ty && type_is_integer(n->ty) && n->is_const_expr && n->const_value == 0 &&
           !n->depends_on_spec_const;
}

/* The value of one floating constant node, its operands through
 * sema_float_const. */
static bool float_const_value(const Node *n, double *out)
{
    double a, b;
    switch (n->kind) {
    case ND_FLOAT_LIT:
        *out = n->float_value;
        return true;
    case ND_UNARY:
        if ((n->op != OP_NEG && n->op != OP_PLUS) || !sema_float_const(n->lhs, &a))
            return false;
        *out = n->op == OP_NEG ? -a : a;
        return true;
    case ND_BINARY:
        if (!sema_float_const(n->lhs, &a) || !sema_float_const(n->rhs, &b))
            return false;
        switch (n->op) {
        case OP_ADD: *out = a + b; return true;
        case OP_SUB: *out = a - b; return true;
        case OP_MUL: *out = a * b; return true;
        case OP_DIV: *out = a / b; return true;
        default: return false;
        }
    case ND_CAST:
        if (!sema_float_const(n->lhs, &a))
            return false;
        *out = n->ty && n->ty->kind == TY_FLOAT ? (double)(float)a
               : n->ty && type_is_integer(n->ty) ? (double)(int64_t)a : a;
        return true;
    default:
        if (!n->is_const_expr || !n->ty || !type_is_integer(n->ty))
            return false;
        *out = type_is_unsigned(n->ty) ? (double)(uint64_t)n->const_value : (double)n->const_value;
        return true;
    }
}

/* Floating constant evaluation, for spec-constant defaults: every node in
 * its own type, as C evaluates it (FLT_EVAL_METHOD 0): `0.1f` is the float
 * nearest 0.1 and `0.1f + 0.2f` a float sum, also where a double is made
 * from them.  One double operation rounded to float is the float operation
 * (a double has more than twice a float's precision). */
bool sema_float_const(const Node *n, double *out)
{
    if (!float_const_value(n, out))
        return false;
    if (n->ty && n->ty->kind == TY_FLOAT)
        *out = (double)(float)*out;
    return true;
}

static bool fold_binary(OpKind op, int64_t a, int64_t b, const Type *ty, int64_t *out)
{
    bool u = type_is_unsigned(ty);
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    int bits = ty->size * 8;
    switch (op) {
    case OP_ADD: *out = (int64_t)(ua + ub); break;
    case OP_SUB: *out = (int64_t)(ua - ub); break;
    case OP_MUL: *out = (int64_t)(ua * ub); break;
    case OP_DIV: case OP_MOD:
        if (b == 0 || (!u && a == INT64_MIN && b == -1))
            return false;
        if (op == OP_DIV)
            *out = u ? (int64_t)(ua / ub) : a / b;
        else
            *out = u ? (int64_t)(ua % ub) : a % b;
        break;
    case OP_SHL: case OP_SHR:
        if (b < 0 || b >= bits)
            return false;
        *out = op == OP_SHL ? (int64_t)(ua << b) : u ? (int64_t)(ua >> b) : a >> b;
        break;
    case OP_BITAND: *out = a & b; break;
    case OP_BITOR: *out = a | b; break;
    case OP_BITXOR: *out = a ^ b; break;
    case OP_LT: *out = u ? ua < ub : a < b; return true;
    case OP_GT: *out = u ? ua > ub : a > b; return true;
    case OP_LE: *out = u ? ua <= ub : a <= b; return true;
    case OP_GE: *out = u ? ua >= ub : a >= b; return true;
    case OP_EQ: *out = a == b; return true;
    case OP_NE: *out = a != b; return true;
    case OP_LOGAND: *out = a && b; return true;
    case OP_LOGOR: *out = a || b; return true;
    default: return false;
    }
    *out = wrap_to(*out, ty);
    return true;
}

/* ---- conversions -------------------------------------------------------- */

static TypeKind arith_kind(const Type *ty)
{
    return ty->kind == TY_ENUM ? type_enum_compatible_kind(ty) : ty->kind;
}

Node *sema_implicit_cast(Sema *s, Node *n, Type *to)
{
    if (sema_is_err(s, n->ty) || sema_is_err(s, to) || !type_is_arith(n->ty) || !type_is_arith(to) ||
        arith_kind(n->ty) == arith_kind(to))
        return n;
    Node *c = ast_new(s->arena, ND_CAST, n->loc);
    c->lhs = n;
    c->next = n->next;
    n->next = NULL;
    c->ty = s->basic[arith_kind(to)];
    c->is_implicit = true;
    c->is_const_expr = n->is_const_expr && type_is_integer(n->ty);
    c->const_value = n->const_value;
    c->depends_on_spec_const = n->depends_on_spec_const;
    c->is_uniform = n->is_uniform;
    sema_fold_cast(c, c->ty);
    return c;
}

/* Array-to-pointer (and function-to-pointer) conversion made explicit in
 * the tree, for the built-ins whose lowering reads the pointer type of an
 * argument (joint_* names its helpers after the address spaces).  Emitters
 * print such a cast as the bare operand. */
Node *sema_decay_node(Sema *s, Node *n)
{
    if (!n->ty || sema_is_err(s, n->ty) || (n->ty->kind != TY_ARRAY && n->ty->kind != TY_FUNC))
        return n;
    Node *c = ast_new(s->arena, ND_CAST, n->loc);
    c->lhs = n;
    c->next = n->next;
    n->next = NULL;
    c->ty = type_decay(s, n->ty);
    c->is_implicit = true;
    c->is_uniform = n->is_uniform;
    return c;
}

/* Wording per context, as Clang words it: [0] incompatible types, [1] the
 * phrase used by the pointer-specific messages. */
static void conv_error(Sema *s, SrcLoc loc, ConvContext ctx, const char *kind, Type *to, Type *from)
{
    const char *t = fmt_type(s, to), *f = fmt_type(s, from);
    if (!kind) {
        switch (ctx) {
        case CONV_ASSIGN: diag_error(s->diag, loc, "assigning to '%s' from incompatible type '%s'", t, f); break;
        case CONV_INIT:
            diag_error(s->diag, loc, "initializing '%s' with an expression of incompatible type '%s'", t, f);
            break;
        case CONV_ARG: diag_error(s->diag, loc, "passing '%s' to parameter of incompatible type '%s'", f, t); break;
        case CONV_RETURN:
            diag_error(s->diag, loc, "returning '%s' from a function with incompatible result type '%s'", f, t);
            break;
        }
        return;
    }
    switch (ctx) {
    case CONV_ASSIGN: diag_error(s->diag, loc, "%s assigning to '%s' from '%s'", kind, t, f); break;
    case CONV_INIT: diag_error(s->diag, loc, "%s initializing '%s' with an expression of type '%s'", kind, t, f); break;
    case CONV_ARG: diag_error(s->diag, loc, "%s passing '%s' to parameter of type '%s'", kind, f, t); break;
    case CONV_RETURN:
        diag_error(s->diag, loc, "%s returning '%s' from a function with result type '%s'", kind, f, t);
        break;
    }
}

static bool pointer_ok(Sema *s, Node *n, Type *to, Type *from, ConvContext ctx)
{
    Type *tb = to->base, *fb = from->base;
    if (type_space(tb) != type_space(fb)) {
        conv_error(s, n->loc, ctx, "address space mismatch:", to, from);
        return false;
    }
    if (tb->kind != TY_VOID && fb->kind != TY_VOID && !type_compatible(tb, fb)) {
        conv_error(s, n->loc, ctx, "incompatible pointer types", to, from);
        return false;
    }
    if ((fb->is_const && !tb->is_const) || (fb->is_volatile && !tb->is_volatile)) {
        char tbuf[256], fbuf[256];
        diag_warning(s->diag, WARN_DISCARDED_QUALIFIERS, n->loc,
                     "conversion from '%s' to '%s' discards qualifiers",
                     type_name(from, fbuf, sizeof fbuf), type_name(to, tbuf, sizeof tbuf));
    }
    return true;
}

Node *sema_convert(Sema *s, Node *n, Type *to, ConvContext ctx, const char *what)
{
    (void)what;
    Type *from = n->ty;
    if (sema_is_err(s, from) || sema_is_err(s, to))
        return n;
    from = type_decay(s, from);
    if (type_is_arith(to) && type_is_arith(from))
        return sema_implicit_cast(s, n, to);
    if (to->kind == TY_BOOL && from->kind == TY_PTR)
        return n;
    if (to->kind == TY_PTR) {
        if (from->kind == TY_PTR)
            pointer_ok(s, n, to, from, ctx);
        else if (type_is_integer(from) && sema_is_null_ptr_const(n))
            ;
        else if (type_is_integer(from))
            conv_error(s, n->loc, ctx, "incompatible integer to pointer conversion", to, from);
        else
            conv_error(s, n->loc, ctx, NULL, to, from);
        return n;
    }
    if (type_is_integer(to) && from->kind == TY_PTR) {
        conv_error(s, n->loc, ctx, "incompatible pointer to integer conversion", to, from);
        return n;
    }
    if (to->kind == from->kind && !type_is_arith(to) && to->kind != TY_VOID && type_compatible(to, from))
        return n;
    conv_error(s, n->loc, ctx, NULL, to, from);
    return n;
}

/* ---- names -------------------------------------------------------------- */

static Type *ident(Sema *s, Node *n)
{
    Symbol *sym = sema_lookup(s, n->name);
    const char *close;
    if (!sym) {
        if (sema_name_was_dropped(s, n->name))
            ; /* its declaration had a syntax error, already reported */
        else if (group_op_lookup(n->name) != GOP_NONE)
            diag_error(s->diag, n->loc,
                       "'%s' can only be used as the operation of a group algorithm", n->name);
        else if ((close = sema_suggest_name(s, n->name)) != NULL)
            diag_error(s->diag, n->loc, "use of undeclared identifier '%s'; did you mean '%s'?", n->name, close);
        else
            diag_error(s->diag, n->loc, "use of undeclared identifier '%s'", n->name);
        return s->t_err;
    }
    n->sym = sym;
    switch (sym->kind) {
    case SYM_VAR:
        return sym->ty ? sym->ty : s->t_err;
    case SYM_FUNC:
        sym->address_taken = true; /* callees are resolved by sema_call, not here */
        return sym->ty;
    case SYM_ENUM_CONST:
        n->is_const_expr = true;
        n->const_value = sym->enum_value;
        return s->basic[TY_INT];
    case SYM_SPEC_CONST:
        n->depends_on_spec_const = true;
        n->is_const_expr = type_is_integer(sym->ty);
        n->const_value = sym->spec_default_int;
        return sym->ty;
    case SYM_TYPEDEF:
        diag_error(s->diag, n->loc, "unexpected type name '%s': expected expression", n->name);
        return s->t_err;
    case SYM_BUILTIN:
        diag_error(s->diag, n->loc, "built-in function '%s' must be called", n->name);
        return s->t_err;
    }
    return s->t_err;
}

const char *expr_spelling(Sema *s, const Node *n)
{
    switch (n->kind) {
    case ND_IDENT:
        return n->name;
    case ND_INDEX:
        if (n->rhs->is_const_expr)
            return arena_printf(s->arena, "%s[%lld]", expr_spelling(s, n->lhs), (long long)n->rhs->const_value);
        return arena_printf(s->arena, "%s[...]", expr_spelling(s, n->lhs));
    case ND_MEMBER:
        return arena_printf(s->arena, "%s%s%s", expr_spelling(s, n->lhs), n->is_arrow ? "->" : ".", n->name);
    case ND_UNARY:
        if (n->op == OP_DEREF)
            return arena_printf(s->arena, "*%s", expr_spelling(s, n->lhs));
        return "expression";
    default:
        return "expression";
    }
}

/* Block depth at which a group value was made (docs/REFERENCE.md "Groups", escape rule). */
int group_origin_depth(Sema *s, const Node *n)
{
    switch (n->kind) {
    case ND_IDENT:
        return n->sym && n->sym->kind == SYM_VAR ? n->sym->scope_depth : s->scope->depth;
    case ND_COND: {
        int a = group_origin_depth(s, n->then), b = group_origin_depth(s, n->els);
        return a > b ? a : b;
    }
    case ND_COMMA:
        return group_origin_depth(s, n->rhs);
    case ND_CAST:
        return group_origin_depth(s, n->lhs);
    default:
        return s->scope->depth;
    }
}

/* ---- lvalues ------------------------------------------------------------ */

static bool is_lvalue(const Node *n)
{
    switch (n->kind) {
    case ND_IDENT: return n->sym && n->sym->kind == SYM_VAR;
    case ND_UNARY: return n->op == OP_DEREF;
    case ND_INDEX: case ND_COMPOUND_LIT: case ND_STRING_LIT: return true;
    case ND_MEMBER: return n->is_arrow || is_lvalue(n->lhs);
    default: return false;
    }
}

static bool assignable(Sema *s, Node *lhs)
{
    Type *ty = lhs->ty;
    if (sema_is_err(s, ty))
        return false;
    if (lhs->kind == ND_IDENT && lhs->sym && lhs->sym->kind == SYM_SPEC_CONST) {
        diag_error(s->diag, lhs->loc, "cannot assign to spec constant '%s'", lhs->name);
        return false;
    }
    if (!is_lvalue(lhs)) {
        diag_error(s->diag, lhs->loc, "expression is not assignable");
        return false;
    }
    if (ty->kind == TY_ARRAY) {
        diag_error(s->diag, lhs->loc, "array type '%s' is not assignable", fmt_type(s, ty));
        return false;
    }
    if (ty->kind == TY_ASYNC_BARRIER) {
        diag_error(s->diag, lhs->loc, "an async_barrier cannot be assigned");
        return false;
    }
    if (ty->addr_space == AS_CONSTANT) {
        const char *what = expr_spelling(s, lhs);
        if (strstr(what, "expression"))
            diag_error(s->diag, lhs->loc, "cannot write to constant memory, which is read-only");
        else
            diag_error(s->diag, lhs->loc, "cannot write to '%s': it is in constant memory, which is read-only",
                       what);
        return false;
    }
    if (ty->is_const) {
        if (lhs->kind == ND_IDENT)
            diag_error(s->diag, lhs->loc, "cannot assign to variable '%s' with const-qualified type '%s'",
                       lhs->name, fmt_type(s, ty));
        else
            diag_error(s->diag, lhs->loc, "read-only variable is not assignable");
        return false;
    }
    return true;
}

/* ---- operators ---------------------------------------------------------- */

static Type *value_of(Sema *s, Node *n) { return type_decay(s, sema_expr(s, n)); }

static Type *invalid_operands(Sema *s, Node *n, Type *l, Type *r)
{
    diag_error(s->diag, n->loc, "invalid operands to binary expression ('%s' and '%s')", fmt_type(s, l),
               fmt_type(s, r));
    return s->t_err;
}

static bool pointee_complete(Sema *s, Node *n, Type *ptr)
{
    if (ptr->base->kind != TY_FUNC && type_is_complete(ptr->base))
        return true;
    diag_error(s->diag, n->loc, "arithmetic on a pointer to an incomplete type '%s'", fmt_type(s, ptr->base));
    return false;
}

static void fold_into(Node *n, Node *a, Node *b, const Type *operand_ty)
{
    int64_t v;
    n->depends_on_spec_const = a->depends_on_spec_const || b->depends_on_spec_const;
    if (a->is_const_expr && b->is_const_expr && fold_binary(n->op, a->const_value, b->const_value, operand_ty, &v)) {
        n->is_const_expr = true;
        n->const_value = v;
    }
}

static Type *arith_binary(Sema *s, Node *n, Type *common)
{
    n->lhs = sema_implicit_cast(s, n->lhs, common);
    n->rhs = sema_implicit_cast(s, n->rhs, common);
    fold_into(n, n->lhs, n->rhs, common);
    return common;
}

static Type *binary(Sema *s, Node *n)
{
    Type *l = value_of(s, n->lhs), *r = value_of(s, n->rhs);
    if (sema_is_err(s, l) || sema_is_err(s, r))
        return s->t_err;
    bool la = type_is_arith(l), ra = type_is_arith(r);
    bool li = type_is_integer(l), ri = type_is_integer(r);
    switch (n->op) {
    case OP_MUL: case OP_DIV:
        return la && ra ? arith_binary(s, n, type_common_arith(s, l, r)) : invalid_operands(s, n, l, r);
    case OP_MOD: case OP_BITAND: case OP_BITOR: case OP_BITXOR:
        return li && ri ? arith_binary(s, n, type_common_arith(s, l, r)) : invalid_operands(s, n, l, r);
    case OP_ADD:
        if (la && ra)
            return arith_binary(s, n, type_common_arith(s, l, r));
        if (l->kind == TY_PTR && ri)
            return pointee_complete(s, n, l) ? l : s->t_err;
        if (li && r->kind == TY_PTR)
            return pointee_complete(s, n, r) ? r : s->t_err;
        return invalid_operands(s, n, l, r);
    case OP_SUB:
        if (la && ra)
            return arith_binary(s, n, type_common_arith(s, l, r));
        if (l->kind == TY_PTR && ri)
            return pointee_complete(s, n, l) ? l : s->t_err;
        if (l->kind == TY_PTR && r->kind == TY_PTR && type_compatible(l->base, r->base))
            return s->basic[TY_LONG];
        return invalid_operands(s, n, l, r);
    case OP_SHL: case OP_SHR: {
        if (!li || !ri)
            return invalid_operands(s, n, l, r);
        Type *pl = type_promote(s, s->basic[arith_kind(l)]);
        n->lhs = sema_implicit_cast(s, n->lhs, pl);
        n->rhs = sema_implicit_cast(s, n->rhs, type_promote(s, s->basic[arith_kind(r)]));
        fold_into(n, n->lhs, n->rhs, pl);
        return pl;
    }
    case OP_LT: case OP_GT: case OP_LE: case OP_GE: case OP_EQ: case OP_NE:
        if (la && ra) {
            arith_binary(s, n, type_common_arith(s, l, r));
            return s->basic[TY_INT];
        }
        if ((l->kind == TY_PTR && r->kind == TY_PTR &&
             (type_compatible(l->base, r->base) || l->base->kind == TY_VOID || r->base->kind == TY_VOID)) ||
            (l->kind == TY_PTR && sema_is_null_ptr_const(n->rhs)) ||
            (r->kind == TY_PTR && sema_is_null_ptr_const(n->lhs)))
            return s->basic[TY_INT];
        return invalid_operands(s, n, l, r);
    case OP_LOGAND: case OP_LOGOR:
        if (!type_is_scalar(l) || !type_is_scalar(r))
            return invalid_operands(s, n, l, r);
        fold_into(n, n->lhs, n->rhs, s->basic[TY_LONG]);
        return s->basic[TY_INT];
    default:
        return invalid_operands(s, n, l, r);
    }
}

static Type *incdec(Sema *s, Node *n)
{
    Type *ty = sema_expr(s, n->lhs);
    if (sema_is_err(s, ty) || !assignable(s, n->lhs))
        return s->t_err;
    if (!type_is_arith(ty) && ty->kind != TY_PTR) {
        diag_error(s->diag, n->loc, "cannot increment or decrement value of type '%s'", fmt_type(s, ty));
        return s->t_err;
    }
    return ty;
}

static Type *address_of(Sema *s, Node *n)
{
    Node *e = n->lhs;
    Type *ty = sema_expr(s, e);
    if (sema_is_err(s, ty))
        return s->t_err;
    if (e->kind == ND_IDENT && e->sym && e->sym->kind == SYM_SPEC_CONST) {
        diag_error(s->diag, n->loc, "cannot take the address of spec constant '%s'", e->name);
        return s->t_err;
    }
    if (ty->kind == TY_GROUP) {
        diag_error(s->diag, n->loc, "group value cannot escape the scope where it was created");
        return s->t_err;
    }
    if (ty->kind != TY_FUNC && !is_lvalue(e)) {
        diag_error(s->diag, n->loc, "cannot take the address of an rvalue of type '%s'", fmt_type(s, ty));
        return s->t_err;
    }
    return type_ptr(s, ty);
}

static Type *unary(Sema *s, Node *n)
{
    switch (n->op) {
    case OP_ADDR:
        return address_of(s, n);
    case OP_PRE_INC: case OP_PRE_DEC:
        return incdec(s, n);
    default:
        break;
    }
    Type *ty = value_of(s, n->lhs);
    if (sema_is_err(s, ty))
        return s->t_err;
    Node *e = n->lhs;
    n->depends_on_spec_const = e->depends_on_spec_const;
    switch (n->op) {
    case OP_PLUS: case OP_NEG: case OP_BITNOT: {
        if (n->op == OP_BITNOT ? !type_is_integer(ty) : !type_is_arith(ty))
            break;
        Type *p = type_promote(s, s->basic[arith_kind(ty)]);
        n->lhs = e = sema_implicit_cast(s, e, p);
        n->is_const_expr = e->is_const_expr;
        int64_t v = e->const_value;
        n->const_value = n->op == OP_PLUS ? v : n->op == OP_NEG ? (int64_t)(0 - (uint64_t)v) : ~v;
        sema_fold_cast(n, p);
        return p;
    }
    case OP_NOT:
        if (!type_is_scalar(ty))
            break;
        n->is_const_expr = e->is_const_expr;
        n->const_value = !e->const_value;
        return s->basic[TY_INT];
    case OP_DEREF:
        if (ty->kind != TY_PTR) {
            diag_error(s->diag, n->loc, "indirection requires pointer operand ('%s' invalid)", fmt_type(s, ty));
            return s->t_err;
        }
        if (ty->base->kind == TY_VOID) {
            diag_error(s->diag, n->loc, "indirection of a 'void *' pointer is not allowed");
            return s->t_err;
        }
        n->depends_on_spec_const = false;
        return ty->base;
    default:
        break;
    }
    diag_error(s->diag, n->loc, "invalid argument type '%s' to unary expression", fmt_type(s, ty));
    return s->t_err;
}

static OpKind compound_base(OpKind op)
{
    switch (op) {
    case OP_ADD_ASSIGN: return OP_ADD;
    case OP_SUB_ASSIGN: return OP_SUB;
    case OP_MUL_ASSIGN: return OP_MUL;
    case OP_DIV_ASSIGN: return OP_DIV;
    case OP_MOD_ASSIGN: return OP_MOD;
    case OP_SHL_ASSIGN: return OP_SHL;
    case OP_SHR_ASSIGN: return OP_SHR;
    case OP_AND_ASSIGN: return OP_BITAND;
    case OP_OR_ASSIGN: return OP_BITOR;
    default: return OP_BITXOR;
    }
}

static Type *assign(Sema *s, Node *n)
{
    Type *l = sema_expr(s, n->lhs), *r = value_of(s, n->rhs);
    if (sema_is_err(s, l) || sema_is_err(s, r) || !assignable(s, n->lhs))
        return s->t_err;
    if (n->op == OP_ASSIGN) {
        if (l->kind == TY_GROUP && n->lhs->kind == ND_IDENT && n->lhs->sym &&
            group_origin_depth(s, n->rhs) > n->lhs->sym->scope_depth && r->kind == TY_GROUP) {
            diag_error(s->diag, n->loc, "group value cannot escape the scope where it was created");
            return s->t_err;
        }
        n->rhs = sema_convert(s, n->rhs, l, CONV_ASSIGN, NULL);
        return l;
    }
    OpKind op = compound_base(n->op);
    bool ok;
    if (op == OP_ADD || op == OP_SUB)
        ok = (type_is_arith(l) && type_is_arith(r)) || (l->kind == TY_PTR && type_is_integer(r));
    else if (op == OP_MUL || op == OP_DIV)
        ok = type_is_arith(l) && type_is_arith(r);
    else
        ok = type_is_integer(l) && type_is_integer(r);
    if (!ok)
        return invalid_operands(s, n, l, r);
    return l;
}

static Type *conditional(Sema *s, Node *n)
{
    Type *c = value_of(s, n->cond), *a = value_of(s, n->then), *b = value_of(s, n->els);
    if (sema_is_err(s, c) || sema_is_err(s, a) || sema_is_err(s, b))
        return s->t_err;
    if (!type_is_scalar(c)) {
        diag_error(s->diag, n->cond->loc, "used type '%s' where arithmetic or pointer type is required",
                   fmt_type(s, c));
        return s->t_err;
    }
    Type *ty = NULL;
    if (type_is_arith(a) && type_is_arith(b)) {
        ty = type_common_arith(s, a, b);
        n->then = sema_implicit_cast(s, n->then, ty);
        n->els = sema_implicit_cast(s, n->els, ty);
    } else if (a->kind == TY_VOID && b->kind == TY_VOID) {
        ty = a;
    } else if (a->kind == TY_PTR && b->kind == TY_PTR) {
        if (type_compatible(a->base, b->base))
            ty = a;
        else if (a->base->kind == TY_VOID || b->base->kind == TY_VOID)
            ty = a->base->kind == TY_VOID ? a : b;
    } else if (a->kind == TY_PTR && sema_is_null_ptr_const(n->els)) {
        ty = a;
    } else if (b->kind == TY_PTR && sema_is_null_ptr_const(n->then)) {
        ty = b;
    } else if (a->kind == b->kind && type_compatible(a, b)) {
        ty = a;
    }
    if (!ty) {
        diag_error(s->diag, n->loc, "incompatible operand types ('%s' and '%s')", fmt_type(s, a), fmt_type(s, b));
        return s->t_err;
    }
    Node *pick = n->cond->const_value ? n->then : n->els;
    n->depends_on_spec_const = n->cond->depends_on_spec_const || n->then->depends_on_spec_const ||
                               n->els->depends_on_spec_const;
    if (n->cond->is_const_expr && pick->is_const_expr && type_is_integer(ty)) {
        n->is_const_expr = true;
        n->const_value = pick->const_value;
    }
    return ty;
}

static Type *cast(Sema *s, Node *n)
{
    Type *to = sema_type_name(s, n->type_name);
    Type *from = value_of(s, n->lhs);
    if (sema_is_err(s, to) || sema_is_err(s, from))
        return s->t_err;
    n->depends_on_spec_const = n->lhs->depends_on_spec_const;
    if (to->kind == TY_VOID)
        return to;
    if (type_is_scalar(to) && type_is_scalar(from)) {
        if ((to->kind == TY_PTR && type_is_float(from)) || (from->kind == TY_PTR && type_is_float(to))) {
            diag_error(s->diag, n->loc, "cannot cast between pointer type and '%s'",
                       fmt_type(s, to->kind == TY_PTR ? from : to));
            return s->t_err;
        }
        double f;
        n->is_const_expr = n->lhs->is_const_expr && type_is_integer(from);
        n->const_value = n->lhs->const_value;
        if (!n->is_const_expr && type_is_float(from) && sema_float_const(n->lhs, &f) && type_is_integer(to)) {
            n->is_const_expr = true;
            n->const_value = (int64_t)f;
        }
        sema_fold_cast(n, to);
        return to;
    }
    if (to->kind == from->kind && type_compatible(to, from))
        return to;
    if (!type_is_scalar(to))
        diag_error(s->diag, n->loc, "used type '%s' where arithmetic or pointer type is required", fmt_type(s, to));
    else
        diag_error(s->diag, n->loc, "operand of type '%s' where arithmetic or pointer type is required",
                   fmt_type(s, from));
    return s->t_err;
}

static Type *size_or_align(Sema *s, Node *n)
{
    Type *ty;
    if (n->type_name) {
        ty = sema_type_name(s, n->type_name);
    } else {
        bool outer = s->in_sizeof;
        s->in_sizeof = true;
        ty = sema_expr(s, n->lhs);
        s->in_sizeof = outer;
    }
    if (sema_is_err(s, ty))
        return s->t_err;
    const char *what = n->kind == ND_SIZEOF ? "sizeof" : "alignof";
    if (ty->kind == TY_FUNC) {
        diag_error(s->diag, n->loc, "invalid application of '%s' to a function type", what);
        return s->t_err;
    }
    if (!type_is_complete(ty)) {
        diag_error(s->diag, n->loc, "invalid application of '%s' to an incomplete type '%s'", what, fmt_type(s, ty));
        return s->t_err;
    }
    n->is_const_expr = true;
    n->const_value = n->kind == ND_SIZEOF ? type_size(ty) : ty->align;
    n->depends_on_spec_const = n->kind == ND_SIZEOF && type_has_spec_len(ty);
    return s->basic[TY_SIZE_T];
}

static Type *index_expr(Sema *s, Node *n)
{
    Type *l = value_of(s, n->lhs), *r = value_of(s, n->rhs);
    if (sema_is_err(s, l) || sema_is_err(s, r))
        return s->t_err;
    Type *ptr = l->kind == TY_PTR ? l : r->kind == TY_PTR ? r : NULL;
    Type *idx = ptr == l ? r : l;
    if (!ptr) {
        diag_error(s->diag, n->loc, "subscripted value is not an array or pointer");
        return s->t_err;
    }
    if (!type_is_integer(idx)) {
        diag_error(s->diag, n->loc, "array subscript is not an integer");
        return s->t_err;
    }
    if (!type_is_complete(ptr->base) && ptr->base->kind != TY_ASYNC_BARRIER) {
        diag_error(s->diag, n->loc, "subscript of pointer to incomplete type '%s'", fmt_type(s, ptr->base));
        return s->t_err;
    }
    return ptr->base;
}

static Type *member(Sema *s, Node *n)
{
    Type *l = sema_expr(s, n->lhs);
    if (sema_is_err(s, l))
        return s->t_err;
    Type *rec = l;
    if (n->is_arrow) {
        l = type_decay(s, l);
        if (l->kind != TY_PTR) {
            diag_error(s->diag, n->loc, "member reference type '%s' is not a pointer; did you mean to use '.'?",
                       fmt_type(s, l));
            return s->t_err;
        }
        rec = l->base;
    } else if (l->kind == TY_PTR) {
        diag_error(s->diag, n->loc, "member reference type '%s' is a pointer; did you mean to use '->'?",
                   fmt_type(s, l));
        return s->t_err;
    }
    if ((rec->kind == TY_GROUP || rec->kind == TY_ASYNC_BARRIER) && method_lookup(n->name) != METHOD_NONE) {
        diag_error(s->diag, n->loc, "reference to member function '%s' must be called", n->name);
        return s->t_err;
    }
    if (rec->kind != TY_STRUCT && rec->kind != TY_UNION) {
        diag_error(s->diag, n->loc, "member reference base type '%s' is not a structure or union", fmt_type(s, rec));
        return s->t_err;
    }
    if (!type_is_complete(rec)) {
        diag_error(s->diag, n->loc, "incomplete definition of type '%s'", fmt_type(s, rec));
        return s->t_err;
    }
    const Member *m = type_find_member(rec, n->name, NULL);
    if (!m) {
        diag_error(s->diag, n->loc, "no member named '%s' in '%s'", n->name, fmt_type(s, rec));
        return s->t_err;
    }
    n->member = (Member *)m;
    return type_with_quals(s, m->ty, rec->is_const, rec->is_volatile, rec->addr_space);
}

/* Length of a string literal's value (escapes count once, adjacent
 * literals are concatenated), plus the terminating NUL. */
static int64_t string_length(const char *text)
{
    int64_t len = 0;
    bool in = false;
    for (const char *p = text; p && *p; p++) {
        if (*p == '"') {
            in = !in;
            continue;
        }
        if (!in)
            continue;
        if (*p == '\\' && p[1]) {
            p++;
            if (*p == 'x')
                while (strchr("0123456789abcdefABCDEF", p[1]) && p[1])
                    p++;
            else if (*p >= '0' && *p <= '7')
                for (int k = 0; k < 2 && p[1] >= '0' && p[1] <= '7'; k++)
                    p++;
        }
        len++;
    }
    return len + 1;
}

static Type *int_literal(Sema *s, Node *n)
{
    uint64_t v = n->int_value;
    bool decimal = !n->text || n->text[0] != '0' || n->text[1] == '\0';
    bool u = n->int_suffix & 1, l = (n->int_suffix & 6) != 0;
    static const TypeKind dec[] = {TY_INT, TY_LONG, TY_ULONG}, other[] = {TY_INT, TY_UINT, TY_LONG, TY_ULONG};
    static const TypeKind uns[] = {TY_UINT, TY_ULONG}, lng[] = {TY_LONG, TY_ULONG}, ul[] = {TY_ULONG};
    const TypeKind *cands = u && l ? ul : u ? uns : l ? lng : decimal ? dec : other;
    int count = u && l ? 1 : u || l ? 2 : decimal ? 3 : 4;
    TypeKind kind = TY_ULONG;
    for (int i = 0; i < count; i++) {
        TypeKind k = cands[i];
        if ((k == TY_INT && v <= INT32_MAX) || (k == TY_UINT && v <= UINT32_MAX) ||
            (k == TY_LONG && v <= INT64_MAX) || k == TY_ULONG) {
            kind = k;
            break;
        }
    }
    n->is_const_expr = true;
    n->const_value = (int64_t)v;
    return s->basic[kind];
}

static Type *expr_kind(Sema *s, Node *n)
{
    switch (n->kind) {
    case ND_INT_LIT:
        return int_literal(s, n);
    case ND_CHAR_LIT:
        n->is_const_expr = true;
        n->const_value = (int64_t)n->int_value;
        return s->basic[TY_INT];
    case ND_BOOL_LIT:
        n->is_const_expr = true;
        n->const_value = n->int_value != 0;
        return s->basic[TY_BOOL];
    case ND_FLOAT_LIT:
        return s->basic[n->is_float_suffix ? TY_FLOAT : TY_DOUBLE];
    case ND_STRING_LIT: {
        Type *ch = type_with_quals(s, s->basic[TY_CHAR], true, false, AS_CONSTANT);
        return type_array(s, ch, string_length(n->text), NULL);
    }
    case ND_IDENT:
        return ident(s, n);
    case ND_UNARY:
        return unary(s, n);
    case ND_POSTFIX:
        return incdec(s, n);
    case ND_BINARY:
        return binary(s, n);
    case ND_ASSIGN:
        return assign(s, n);
    case ND_COND:
        return conditional(s, n);
    case ND_COMMA:
        sema_expr(s, n->lhs);
        return value_of(s, n->rhs);
    case ND_CAST:
        return cast(s, n);
    case ND_SIZEOF: case ND_ALIGNOF:
        return size_or_align(s, n);
    case ND_CALL:
        return sema_call(s, n);
    case ND_INDEX:
        return index_expr(s, n);
    case ND_MEMBER:
        return member(s, n);
    case ND_COMPOUND_LIT: {
        Type *ty = sema_type_name(s, n->type_name);
        if (sema_is_err(s, ty))
            return ty;
        return sema_initializer(s, ty, n->init ? &n->init : &n->lhs);
    }
    case ND_GENERIC:
        diag_error(s->diag, n->loc, "_Generic selections are not supported");
        return s->t_err;
    case ND_INIT_LIST:
        diag_error(s->diag, n->loc, "initializer list cannot be used as an expression");
        return s->t_err;
    default:
        diag_error(s->diag, n->loc, "expected expression");
        return s->t_err;
    }
}

Type *sema_expr(Sema *s, Node *n)
{
    if (!n)
        return s->t_err; /* a hole left by syntax-error recovery */
    if (n->ty)
        return n->ty;
    if (s->expr_depth >= SEMA_MAX_EXPR_NESTING) {
        /* once per expression: its outer levels see an error operand */
        diag_error(s->diag, n->loc, "expression too deeply nested (more than %d levels)",
                   SEMA_MAX_EXPR_NESTING);
        s->too_deep = true;
        return n->ty = s->t_err;
    }
    s->expr_depth++;
    Type *ty = expr_kind(s, n);
    s->expr_depth--;
    n->ty = ty ? ty : s->t_err;
    if (n->ty != s->t_err && n->ty->kind == TY_DOUBLE && n->kind != ND_FLOAT_LIT)
        s->tu->uses_fp64 = true;
    return n->ty;
}
