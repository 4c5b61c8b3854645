/* parse.y — the SGC grammar: C17 (ISO/IEC 9899:2018 §6.5-§6.9) plus the SGC
 * additions of docs/REFERENCE.md (kernel, address spaces, group types, spec_const,
 * attributes, method calls, get_fixed_size_group<N>(...)).
 *
 * A pure parser with locations.  Actions only build syntax (ast.h); names,
 * types and every rule beyond the grammar are checked afterwards by sema.c.
 * The one piece of semantics here is the typedef-name problem of C: the
 * bridge (parse_bridge.c) returns TYPEDEF_NAME for identifiers declared as
 * typedefs in an enclosing scope, so this grammar keeps scopes of names. */

%define api.pure full
%define parse.error custom
%locations
%expect 0
%param {ParseContext *ctx}

%code requires {
#include "parse/parse_internal.h"
#include "parse/parse.h"
#define YYLTYPE SrcLoc
#define YYLTYPE_IS_DECLARED 1
#define YYLTYPE_IS_TRIVIAL 0
/* A rule's location is that of its first token (or, for an empty rule, the
 * end of the previous one): exactly what diagnostics point at. */
#define YYLLOC_DEFAULT(Current, Rhs, N)                              \
    do {                                                             \
        (Current) = (N) ? YYRHSLOC(Rhs, 1) : YYRHSLOC(Rhs, 0);       \
    } while (0)
}

%code provides {
int yylex(YYSTYPE *lval, YYLTYPE *lloc, ParseContext *ctx);
}

%code {
#include <string.h>

#define NEW(kind, loc) ast_new(ctx->arena, (kind), (loc))

/* Only reached for "memory exhausted"; syntax errors go through
 * yyreport_syntax_error below. */
static void yyerror(const SrcLoc *loc, ParseContext *ctx, const char *message)
{
    diag_error(ctx->diag, *loc, "%s (nesting too deep?)", message);
}

static Node *make_binary(ParseContext *ctx, OpKind op, Node *lhs, Node *rhs, SrcLoc loc)
{
    return ast_binary(ctx->arena, op, lhs, rhs, loc);
}

static Node *make_unary(ParseContext *ctx, OpKind op, Node *operand, SrcLoc loc)
{
    return ast_unary(ctx->arena, ND_UNARY, op, operand, loc);
}

static Node *make_ident(ParseContext *ctx, Token *tok)
{
    Node *n = NEW(ND_IDENT, tok->loc);
    n->name = parse_intern(ctx, tok->text, tok->len);
    return n;
}

static const char *tok_name(ParseContext *ctx, Token *tok)
{
    return parse_intern(ctx, tok->text, tok->len);
}

static Node *make_decl(ParseContext *ctx, DeclSpecs *specs, NodeList list, SrcLoc loc)
{
    Node *n = NEW(ND_DECL, loc);
    n->decl_specs = specs;
    n->items = list;
    return n;
}

static void push_specs(ParseContext *ctx, DeclSpecs *specs)
{
    if (ctx->specs_depth < (int)(sizeof ctx->specs_stack / sizeof ctx->specs_stack[0]))
        ctx->specs_stack[ctx->specs_depth] = specs;
    ctx->specs_depth++;
}

static void pop_specs(ParseContext *ctx)
{
    if (ctx->specs_depth > 0)
        ctx->specs_depth--;
}

static DeclSpecs *current_specs(ParseContext *ctx)
{
    int i = ctx->specs_depth - 1;
    if (i < 0 || i >= (int)(sizeof ctx->specs_stack / sizeof ctx->specs_stack[0]))
        return NULL;
    return ctx->specs_stack[i];
}

static void drop_init_declarators(ParseContext *ctx, const NodeList *list)
{
    for (const Node *n = list->head; n; n = n->next)
        if (n->kind == ND_INIT_DECLARATOR)
            parse_drop_declarator(ctx, n->declarator);
}

/* An error rule matched: parsing resumes normally from here, and the next
 * mistake is reported at once (yyerrok). */
#define RECOVERED()                   \
    do {                              \
        yyerrok;                      \
        ctx->recovering = false;      \
    } while (0)

/* An error rule that skipped to a '}' or across declarations: what the
 * tree still holds may be mis-nested (a nested function's body read as the
 * rest of the kernel), so sema would only add a cascade (parse_tree_checkable). */
#define RECOVERED_LOSING_SHAPE()      \
    do {                              \
        RECOVERED();                  \
        ctx->lost_shape = true;       \
    } while (0)

/* A missing ';' before the next statement: resumes there, unless that is a
 * '{' (`int f(void) { ... }` in a block), which would be read as a block. */
#define RECOVERED_AT_NEXT()           \
    do {                              \
        if (yychar == '{')            \
            RECOVERED_LOSING_SHAPE(); \
        else                          \
            RECOVERED();              \
    } while (0)

static Attribute *append_attrs(Attribute *list, Attribute *more)
{
    if (!list)
        return more;
    Attribute *a = list;
    while (a->next)
        a = a->next;
    a->next = more;
    return list;
}
}

/* Symbols that error recovery pops or discards: the names of dropped
 * declarators are remembered, so that sema stays quiet about their uses. */
%destructor { parse_drop_declarator(ctx, $$); } <decl>
%destructor { parse_drop_name(ctx, $$->text, $$->len, $$->loc); } IDENTIFIER
%destructor { drop_init_declarators(ctx, &$$); } <list>
%destructor { if ($$ && $$->kind == ND_INIT_DECLARATOR) parse_drop_declarator(ctx, $$->declarator); } <node>

%union {
    Token *tok;
    Node *node;
    NodeList list;
    DeclSpecs *specs;
    Declarator *decl;
    Attribute *attr;
    OpKind op;
}

%token <tok> IDENTIFIER TYPEDEF_NAME PPNUMBER CHAR_CONST STRING_LITERAL PRAGMA
%token <tok> BAD_TOKEN

/* keywords: ORDER keywords.def */
%token <tok> KW_AUTO KW_BREAK KW_CASE KW_CHAR KW_CONST KW_CONTINUE KW_DEFAULT KW_DO
%token <tok> KW_DOUBLE KW_ELSE KW_ENUM KW_EXTERN KW_FLOAT KW_FOR KW_GOTO KW_IF KW_INLINE
%token <tok> KW_INT KW_LONG KW_REGISTER KW_RESTRICT KW_RETURN KW_SHORT KW_SIGNED
%token <tok> KW_SIZEOF KW_STATIC KW_STRUCT KW_SWITCH KW_TYPEDEF KW_UNION KW_UNSIGNED
%token <tok> KW_VOID KW_VOLATILE KW_WHILE KW_ALIGNAS KW_ALIGNOF KW_BOOL KW_STATIC_ASSERT
%token <tok> KW_NORETURN KW_GENERIC KW_ATOMIC KW_THREAD_LOCAL KW_COMPLEX KW_ASM
%token <tok> KW_ATTRIBUTE
%token <tok> KW_BOOL2 KW_TRUE KW_FALSE KW_STATIC_ASSERT2 KW_ALIGNOF2 KW_ALIGNAS2
%token <tok> KW_UCHAR KW_USHORT KW_UINT KW_ULONG KW_SIZE_T
%token <tok> KW_KERNEL KW_KERNEL2 KW_GLOBAL KW_GLOBAL2 KW_LOCAL KW_LOCAL2
%token <tok> KW_CONSTANT KW_CONSTANT2 KW_PRIVATE KW_PRIVATE2
%token <tok> KW_SPEC_CONST KW_WORK_GROUP KW_SUB_GROUP KW_BALLOT_GROUP KW_FIXED_SIZE_GROUP
%token <tok> KW_TANGLE_GROUP KW_OPPORTUNISTIC_GROUP KW_GET_FIXED_SIZE_GROUP
%token <tok> KW_ASYNC_BARRIER KW_ARRIVAL_TOKEN

/* multi-character punctuators: ORDER token.h PUNCTUATORS */
%token <tok> PT_ARROW "->" PT_INC "++" PT_DEC "--" PT_SHL "<<" PT_SHR ">>"
%token <tok> PT_LE "<=" PT_GE ">=" PT_EQ "==" PT_NE "!=" PT_LOGAND "&&" PT_LOGOR "||"
%token <tok> PT_MUL_ASSIGN "*=" PT_DIV_ASSIGN "/=" PT_MOD_ASSIGN "%=" PT_ADD_ASSIGN "+="
%token <tok> PT_SUB_ASSIGN "-=" PT_SHL_ASSIGN "<<=" PT_SHR_ASSIGN ">>=" PT_AND_ASSIGN "&="
%token <tok> PT_XOR_ASSIGN "^=" PT_OR_ASSIGN "|=" PT_ELLIPSIS "..." PT_HASHHASH "##"
%token <tok> '(' ')' '[' ']' '{' '}' '.' '&' '*' '+' '-' '~' '!' '/' '%' '<' '>'
%token <tok> '^' '|' '?' ':' ';' '=' ',' '#'

%precedence LOWER_THAN_ELSE
%precedence KW_ELSE
%precedence LOWER_THAN_PAREN
%precedence '('
/* Binary operators, loosest first (C17 6.5.5 to 6.5.14): one
 * binary_expression rule per operator instead of a ten-level chain. */
%left PT_LOGOR
%left PT_LOGAND
%left '|'
%left '^'
%left '&'
%left PT_EQ PT_NE
%left '<' '>' PT_LE PT_GE
%left PT_SHL PT_SHR
%left '+' '-'
%left '*' '/' '%'

%type <node> primary_expression postfix_expression unary_expression cast_expression
%type <node> multiplicative_expression additive_expression shift_expression
%type <node> binary_expression conditional_expression assignment_expression
%type <node> expression expression_opt constant_expression string_literal
%type <node> generic_selection generic_assoc_list generic_association
%type <list> argument_expression_list argument_expression_list_opt
%type <op> unary_operator assignment_operator

%type <node> declaration static_assert_declaration init_declarator
%type <decl> init_declarator_head
%type <list> init_declarator_list
%type <specs> declaration_specifiers decl_specs_push specifier_qualifier_list
%type <specs> declaration_specifier type_specifier type_qualifier
%type <specs> storage_class_specifier function_specifier alignment_specifier
%type <specs> sgc_type_specifier
%type <node> struct_or_union_specifier enum_specifier struct_declaration
%type <list> struct_declaration_list struct_declarator_list enumerator_list
%type <node> struct_declarator enumerator
%type <decl> declarator direct_declarator pointer abstract_declarator
%type <decl> direct_abstract_declarator
%type <specs> type_qualifier_list
%type <list> parameter_list identifier_list
%type <node> parameter_declaration type_name
%type <node> initializer designation_initializer designator
%type <list> initializer_list designator_list
%type <attr> attribute_specifier attribute_list attribute
%type <tok> any_identifier attribute_name

%type <node> statement labeled_statement compound_statement expression_statement
%type <node> selection_statement iteration_statement jump_statement block_item
%type <node> for_init pragma_statement
%type <list> block_item_list
%type <node> external_declaration function_definition function_head

%start translation_unit

%%

/* ---- §6.9 external definitions ---------------------------------------- */

/* translation-unit: external-declaration+ */
translation_unit
    : %empty
    | translation_unit external_declaration   { nodelist_append(&ctx->root->items, $2); }
    ;

/* external-declaration: function-definition | declaration */
external_declaration
    : function_definition                     { $$ = $1; }
    | declaration                             { $$ = $1; }
    | pragma_statement                        { $$ = $1; }
    | ';'                                     { $$ = NULL; /* stray ';' at file scope */ }
    | error ';'                               { $$ = NULL; ctx->specs_depth = 0; RECOVERED_LOSING_SHAPE(); }
    | error '}'                               { $$ = NULL; ctx->specs_depth = 0; RECOVERED_LOSING_SHAPE(); }
    ;

/* function-definition: declaration-specifiers declarator compound-statement */
function_head
    : decl_specs_push declarator
        {
            $$ = NEW(ND_FUNC_DEF, $2->loc);
            $$->decl_specs = $1;
            $$->declarator = $2;
            parse_declare_declarator(ctx, $1, $2);
            pop_specs(ctx);
            parse_scope_push(ctx);
            parse_declare_params(ctx, $2);
        }
    ;

function_definition
    : function_head compound_statement
        {
            $$ = $1;
            $$->body = $2;
            parse_scope_pop(ctx);
        }
    ;

decl_specs_push
    : declaration_specifiers                  { $$ = $1; push_specs(ctx, $1); }
    ;

/* ---- §6.7 declarations ------------------------------------------------- */

/* declaration: declaration-specifiers init-declarator-list? ';'
 *            | static_assert-declaration */
declaration
    : decl_specs_push ';'                     { $$ = make_decl(ctx, $1, (NodeList){0}, $1->loc); pop_specs(ctx); }
    | decl_specs_push init_declarator_list ';' { $$ = make_decl(ctx, $1, $2, $1->loc); pop_specs(ctx); }
    /* A missing ';' (reported): the declaration is kept, the next token
     * starts the next statement or declaration, as GCC and Clang recover. */
    | decl_specs_push init_declarator_list error
        { $$ = make_decl(ctx, $1, $2, $1->loc); pop_specs(ctx); RECOVERED_AT_NEXT(); }
    | static_assert_declaration               { $$ = $1; }
    ;

static_assert_declaration
    : static_assert_kw '(' constant_expression ',' string_literal ')' ';'
        { $$ = NEW(ND_STATIC_ASSERT, @1); $$->cond = $3; $$->text = $5->text; }
    | static_assert_kw '(' constant_expression ')' ';'
        { $$ = NEW(ND_STATIC_ASSERT, @1); $$->cond = $3; }
    ;

static_assert_kw : KW_STATIC_ASSERT | KW_STATIC_ASSERT2 ;

declaration_specifiers
    : declaration_specifier                   { $$ = $1; }
    | declaration_specifiers declaration_specifier
        { $$ = $1; parse_specs_merge(ctx, $1, $2); }
    ;

declaration_specifier
    : storage_class_specifier
    | type_specifier
    | type_qualifier
    | function_specifier
    | alignment_specifier
    | attribute_specifier
        { $$ = parse_specs_new(ctx, @1); $$->attrs = $1; /* [[]] is NULL */ }
    ;

/* SGC: kernel and spec_const are written where storage classes go. */
storage_class_specifier
    : KW_TYPEDEF      { $$ = parse_specs_new(ctx, @1); parse_specs_storage(ctx, $$, SC_TYPEDEF, @1); }
    | KW_EXTERN       { $$ = parse_specs_new(ctx, @1); parse_specs_storage(ctx, $$, SC_EXTERN, @1); }
    | KW_STATIC       { $$ = parse_specs_new(ctx, @1); parse_specs_storage(ctx, $$, SC_STATIC, @1); }
    | KW_AUTO         { $$ = parse_specs_new(ctx, @1); parse_specs_storage(ctx, $$, SC_AUTO, @1); }
    | KW_REGISTER     { $$ = parse_specs_new(ctx, @1); parse_specs_storage(ctx, $$, SC_REGISTER, @1); }
    | KW_THREAD_LOCAL { $$ = parse_specs_new(ctx, @1); $$->is_thread_local = true; }
    | KW_KERNEL       { $$ = parse_specs_new(ctx, @1); $$->is_kernel = true; }
    | KW_KERNEL2      { $$ = parse_specs_new(ctx, @1); $$->is_kernel = true; }
    | KW_SPEC_CONST %prec LOWER_THAN_PAREN
        { $$ = parse_specs_new(ctx, @1); $$->is_spec_const = true; }
    | KW_SPEC_CONST '(' constant_expression ')'
        { $$ = parse_specs_new(ctx, @1); $$->is_spec_const = true; $$->spec_const_id = $3; }
    ;

type_specifier
    : KW_VOID         { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_VOID, @1); }
    | KW_CHAR         { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_CHAR, @1); }
    | KW_SHORT        { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_SHORT, @1); }
    | KW_INT          { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_INT, @1); }
    | KW_LONG         { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_LONG, @1); }
    | KW_FLOAT        { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_FLOAT, @1); }
    | KW_DOUBLE       { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_DOUBLE, @1); }
    | KW_SIGNED       { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_SIGNED, @1); }
    | KW_UNSIGNED     { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_UNSIGNED, @1); }
    | KW_BOOL         { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_BOOL, @1); }
    | KW_BOOL2        { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_BOOL, @1); }
    | KW_COMPLEX      { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_COMPLEX, @1); }
    | KW_UCHAR        { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_UCHAR, @1); }
    | KW_USHORT       { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_USHORT, @1); }
    | KW_UINT         { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_UINT, @1); }
    | KW_ULONG        { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_ULONG, @1); }
    | KW_SIZE_T       { $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_SIZE_T, @1); }
    | KW_ATOMIC '(' type_name ')'
        { (void)$3; $$ = parse_specs_new(ctx, @1); parse_specs_type_bit(ctx, $$, TS_ATOMIC, @1); }
    | struct_or_union_specifier
        { $$ = parse_specs_new(ctx, $1->loc); $$->record = $1; $$->type_spec_count = 1; }
    | enum_specifier
        { $$ = parse_specs_new(ctx, $1->loc); $$->record = $1; $$->type_spec_count = 1; }
    | TYPEDEF_NAME
        {
            $$ = parse_specs_new(ctx, @1);
            $$->typedef_name = tok_name(ctx, $1);
            $$->type_spec_count = 1;
        }
    | sgc_type_specifier
    ;

/* docs/REFERENCE.md "Groups", "Split barriers": group, barrier and token types. */
sgc_type_specifier
    : KW_WORK_GROUP   { $$ = parse_specs_new(ctx, @1); $$->is_group = true; $$->group = GROUP_WORK_GROUP; $$->type_spec_count = 1; }
    | KW_SUB_GROUP    { $$ = parse_specs_new(ctx, @1); $$->is_group = true; $$->group = GROUP_SUB_GROUP; $$->type_spec_count = 1; }
    | KW_BALLOT_GROUP { $$ = parse_specs_new(ctx, @1); $$->is_group = true; $$->group = GROUP_BALLOT_GROUP; $$->type_spec_count = 1; }
    | KW_TANGLE_GROUP { $$ = parse_specs_new(ctx, @1); $$->is_group = true; $$->group = GROUP_TANGLE_GROUP; $$->type_spec_count = 1; }
    | KW_OPPORTUNISTIC_GROUP
        { $$ = parse_specs_new(ctx, @1); $$->is_group = true; $$->group = GROUP_OPPORTUNISTIC_GROUP; $$->type_spec_count = 1; }
    | KW_FIXED_SIZE_GROUP '<' shift_expression '>'
        {
            $$ = parse_specs_new(ctx, @1);
            $$->is_group = true;
            $$->group = GROUP_FIXED_SIZE_GROUP;
            $$->group_size_expr = $3;
            $$->type_spec_count = 1;
        }
    | KW_ASYNC_BARRIER { $$ = parse_specs_new(ctx, @1); $$->is_async_barrier = true; $$->type_spec_count = 1; }
    | KW_ARRIVAL_TOKEN { $$ = parse_specs_new(ctx, @1); $$->is_arrival_token = true; $$->type_spec_count = 1; }
    ;

any_identifier : IDENTIFIER | TYPEDEF_NAME ;

/* struct-or-union-specifier:
 *     struct-or-union identifier? '{' struct-declaration-list '}'
 *     struct-or-union identifier */
struct_or_union_specifier
    : struct_or_union '{' struct_declaration_list '}'
        { $$ = NEW(ND_RECORD_SPEC, @1); $$->is_union = $<tok>1->text[0] == 'u'; $$->items = $3; $$->has_body = true; }
    | struct_or_union any_identifier '{' struct_declaration_list '}'
        { $$ = NEW(ND_RECORD_SPEC, @1); $$->is_union = $<tok>1->text[0] == 'u'; $$->name = tok_name(ctx, $2); $$->items = $4; $$->has_body = true; }
    | struct_or_union any_identifier
        { $$ = NEW(ND_RECORD_SPEC, @1); $$->is_union = $<tok>1->text[0] == 'u'; $$->name = tok_name(ctx, $2); }
    ;

struct_or_union
    : KW_STRUCT { $<tok>$ = $1; }
    | KW_UNION  { $<tok>$ = $1; }
    ;

struct_declaration_list
    : %empty                                    { $$ = (NodeList){0}; }
    | struct_declaration_list struct_declaration { $$ = $1; nodelist_append(&$$, $2); }
    ;

/* struct-declaration: specifier-qualifier-list struct-declarator-list? ';' */
struct_declaration
    : specifier_qualifier_list struct_declarator_list ';'
        { $$ = make_decl(ctx, $1, $2, $1->loc); }
    | specifier_qualifier_list ';'
        { $$ = make_decl(ctx, $1, (NodeList){0}, $1->loc); }
    | static_assert_declaration
        { $$ = $1; }
    ;

specifier_qualifier_list
    : type_specifier                            { $$ = $1; }
    | type_qualifier                            { $$ = $1; }
    | attribute_specifier                       { $$ = parse_specs_new(ctx, $1->loc); $$->attrs = $1; }
    | specifier_qualifier_list type_specifier   { $$ = $1; parse_specs_merge(ctx, $1, $2); }
    | specifier_qualifier_list type_qualifier   { $$ = $1; parse_specs_merge(ctx, $1, $2); }
    ;

struct_declarator_list
    : struct_declarator                             { $$ = (NodeList){0}; nodelist_append(&$$, $1); }
    | struct_declarator_list ',' struct_declarator  { $$ = $1; nodelist_append(&$$, $3); }
    ;

/* struct-declarator: declarator | declarator? ':' constant-expression.
 * Bit-fields are parsed (lhs = width) so that sema can reject them clearly. */
struct_declarator
    : declarator
        { $$ = NEW(ND_INIT_DECLARATOR, $1->loc); $$->declarator = $1; }
    | declarator ':' constant_expression
        { $$ = NEW(ND_INIT_DECLARATOR, $1->loc); $$->declarator = $1; $$->lhs = $3; }
    | ':' constant_expression
        { $$ = NEW(ND_INIT_DECLARATOR, @1); $$->lhs = $2; }
    ;

/* enum-specifier: enum identifier? '{' enumerator-list ','? '}' | enum identifier */
enum_specifier
    : KW_ENUM '{' enumerator_list comma_opt '}'
        { $$ = NEW(ND_ENUM_SPEC, @1); $$->items = $3; $$->has_body = true; }
    | KW_ENUM any_identifier '{' enumerator_list comma_opt '}'
        { $$ = NEW(ND_ENUM_SPEC, @1); $$->name = tok_name(ctx, $2); $$->items = $4; $$->has_body = true; }
    | KW_ENUM any_identifier
        { $$ = NEW(ND_ENUM_SPEC, @1); $$->name = tok_name(ctx, $2); }
    ;

comma_opt : %empty | ',' ;

enumerator_list
    : enumerator                        { $$ = (NodeList){0}; nodelist_append(&$$, $1); }
    | enumerator_list ',' enumerator    { $$ = $1; nodelist_append(&$$, $3); }
    ;

enumerator
    : IDENTIFIER
        { $$ = NEW(ND_ENUMERATOR, @1); $$->name = tok_name(ctx, $1); parse_declare(ctx, $$->name, false); }
    | IDENTIFIER '=' constant_expression
        { $$ = NEW(ND_ENUMERATOR, @1); $$->name = tok_name(ctx, $1); $$->lhs = $3; parse_declare(ctx, $$->name, false); }
    ;

type_qualifier
    : KW_CONST       { $$ = parse_specs_new(ctx, @1); $$->is_const = true; }
    | KW_RESTRICT    { $$ = parse_specs_new(ctx, @1); $$->is_restrict = true; }
    | KW_VOLATILE    { $$ = parse_specs_new(ctx, @1); $$->is_volatile = true; }
    | KW_GLOBAL      { $$ = parse_specs_new(ctx, @1); parse_specs_addr_space(ctx, $$, AS_GLOBAL, @1); }
    | KW_GLOBAL2     { $$ = parse_specs_new(ctx, @1); parse_specs_addr_space(ctx, $$, AS_GLOBAL, @1); }
    | KW_LOCAL       { $$ = parse_specs_new(ctx, @1); parse_specs_addr_space(ctx, $$, AS_LOCAL, @1); }
    | KW_LOCAL2      { $$ = parse_specs_new(ctx, @1); parse_specs_addr_space(ctx, $$, AS_LOCAL, @1); }
    | KW_CONSTANT    { $$ = parse_specs_new(ctx, @1); parse_specs_addr_space(ctx, $$, AS_CONSTANT, @1); }
    | KW_CONSTANT2   { $$ = parse_specs_new(ctx, @1); parse_specs_addr_space(ctx, $$, AS_CONSTANT, @1); }
    | KW_PRIVATE     { $$ = parse_specs_new(ctx, @1); parse_specs_addr_space(ctx, $$, AS_PRIVATE, @1); }
    | KW_PRIVATE2    { $$ = parse_specs_new(ctx, @1); parse_specs_addr_space(ctx, $$, AS_PRIVATE, @1); }
    ;

function_specifier
    : KW_INLINE      { $$ = parse_specs_new(ctx, @1); $$->is_inline = true; }
    | KW_NORETURN    { $$ = parse_specs_new(ctx, @1); $$->is_noreturn = true; }
    ;

alignment_specifier
    : alignas_kw '(' type_name ')'
        { $$ = parse_specs_new(ctx, @1); $$->alignas_expr = NEW(ND_ALIGNOF, @1); $$->alignas_expr->type_name = $3; }
    | alignas_kw '(' constant_expression ')'
        { $$ = parse_specs_new(ctx, @1); $$->alignas_expr = $3; }
    ;

alignas_kw : KW_ALIGNAS | KW_ALIGNAS2 ;

/* docs/REFERENCE.md "Kernels, address spaces and attributes": [[reqd_work_group_size(x,y,z)]] and [[reqd_sub_group_size(n)]];
 * GCC's __attribute__((...)) spelling is accepted too, as OpenCL code uses it. */
attribute_specifier
    : '[' '[' attribute_list ']' ']'                { $$ = $3; }
    | KW_ATTRIBUTE '(' '(' attribute_list ')' ')'   { $$ = $4; }
    ;

attribute_list
    : %empty                          { $$ = NULL; }
    | attribute                       { $$ = $1; }
    | attribute_list ',' attribute    { $$ = append_attrs($1, $3); }
    | attribute_list ','              { $$ = $1; }
    ;

attribute
    : attribute_name
        { $$ = ARENA_NEW(ctx->arena, Attribute); $$->name = tok_name(ctx, $1); $$->loc = $1->loc; }
    | attribute_name '(' argument_expression_list_opt ')'
        { $$ = ARENA_NEW(ctx->arena, Attribute); $$->name = tok_name(ctx, $1); $$->loc = $1->loc; $$->args = $3; }
    ;

/* `sgc::name` namespaces are accepted and dropped. */
attribute_name
    : any_identifier                        { $$ = $1; }
    | any_identifier ':' ':' any_identifier { $$ = $4; }
    ;

/* ---- declarators ------------------------------------------------------- */

init_declarator_list
    : init_declarator                           { $$ = (NodeList){0}; nodelist_append(&$$, $1); }
    | init_declarator_list ',' init_declarator  { $$ = $1; nodelist_append(&$$, $3); }
    ;

/* init-declarator: declarator | declarator '=' initializer.
 * The name is declared before its initialiser, as in C (§6.2.1p7). */
init_declarator
    : declarator
        {
            $$ = NEW(ND_INIT_DECLARATOR, $1->loc);
            $$->declarator = $1;
            parse_declare_declarator(ctx, current_specs(ctx), $1);
        }
    | init_declarator_head initializer
        {
            $$ = NEW(ND_INIT_DECLARATOR, $1->loc);
            $$->declarator = $1;
            $$->init = $2;
        }
    /* A broken initialiser (reported): the variable stays declared, without it. */
    | init_declarator_head error
        {
            $$ = NEW(ND_INIT_DECLARATOR, $1->loc);
            $$->declarator = $1;
            RECOVERED();
        }
    ;

init_declarator_head
    : declarator '='  { $$ = $1; parse_declare_declarator(ctx, current_specs(ctx), $1); }
    ;

/* declarator: pointer? direct-declarator */
declarator
    : direct_declarator                 { $$ = $1; }
    | pointer direct_declarator         { $$ = parse_declarator_wrap($1, $2); }
    ;

direct_declarator
    : IDENTIFIER
        { $$ = ast_declarator(ctx->arena, DECL_NAME, @1); $$->name = tok_name(ctx, $1); }
    | '(' declarator ')'
        { $$ = $2; }
    | direct_declarator '[' ']'
        { $$ = ast_declarator(ctx->arena, DECL_ARRAY, @2); $$->inner = $1; }
    | direct_declarator '[' assignment_expression ']'
        { $$ = ast_declarator(ctx->arena, DECL_ARRAY, @2); $$->inner = $1; $$->array_len = $3; }
    | direct_declarator '[' KW_STATIC assignment_expression ']'
        { $$ = ast_declarator(ctx->arena, DECL_ARRAY, @2); $$->inner = $1; $$->array_len = $4; $$->array_static = true; }
    | direct_declarator '[' '*' ']'
        { $$ = ast_declarator(ctx->arena, DECL_ARRAY, @2); $$->inner = $1; $$->array_len = NEW(ND_NULL_STMT, @3); }
    | direct_declarator '(' parameter_list ')'
        { $$ = ast_declarator(ctx->arena, DECL_FUNC, @2); $$->inner = $1; $$->params = $3; }
    | direct_declarator '(' parameter_list ',' PT_ELLIPSIS ')'
        { $$ = ast_declarator(ctx->arena, DECL_FUNC, @2); $$->inner = $1; $$->params = $3; $$->is_variadic = true; }
    | direct_declarator '(' ')'
        { $$ = ast_declarator(ctx->arena, DECL_FUNC, @2); $$->inner = $1; }
    | direct_declarator '(' identifier_list ')'
        { $$ = ast_declarator(ctx->arena, DECL_FUNC, @2); $$->inner = $1; $$->params = $3; }
    ;

/* pointer: '*' type-qualifier-list? pointer? — the first '*' is the
 * outermost derivation (see ast.h). */
pointer
    : '*'
        { $$ = ast_declarator(ctx->arena, DECL_PTR, @1); }
    | '*' type_qualifier_list
        {
            $$ = ast_declarator(ctx->arena, DECL_PTR, @1);
            $$->is_const = $2->is_const; $$->is_volatile = $2->is_volatile;
            $$->is_restrict = $2->is_restrict; $$->addr_space = $2->addr_space;
        }
    | '*' pointer
        { $$ = ast_declarator(ctx->arena, DECL_PTR, @1); $$->inner = $2; }
    | '*' type_qualifier_list pointer
        {
            $$ = ast_declarator(ctx->arena, DECL_PTR, @1);
            $$->is_const = $2->is_const; $$->is_volatile = $2->is_volatile;
            $$->is_restrict = $2->is_restrict; $$->addr_space = $2->addr_space;
            $$->inner = $3;
        }
    ;

type_qualifier_list
    : type_qualifier                        { $$ = $1; }
    | type_qualifier_list type_qualifier    { $$ = $1; parse_specs_merge(ctx, $1, $2); }
    ;

parameter_list
    : parameter_declaration                     { $$ = (NodeList){0}; nodelist_append(&$$, $1); }
    | parameter_list ',' parameter_declaration  { $$ = $1; nodelist_append(&$$, $3); }
    ;

/* parameter-declaration: declaration-specifiers (declarator | abstract-declarator?) */
parameter_declaration
    : declaration_specifiers declarator
        { $$ = NEW(ND_PARAM, $2->loc); $$->decl_specs = $1; $$->declarator = $2; }
    | declaration_specifiers abstract_declarator
        { $$ = NEW(ND_PARAM, $2->loc); $$->decl_specs = $1; $$->declarator = $2; }
    | declaration_specifiers
        { $$ = NEW(ND_PARAM, $1->loc); $$->decl_specs = $1; }
    ;

/* K&R identifier lists are parsed so that sema can reject them by name. */
identifier_list
    : IDENTIFIER
        { $$ = (NodeList){0}; Node *p = NEW(ND_PARAM, @1); p->name = tok_name(ctx, $1); nodelist_append(&$$, p); }
    | identifier_list ',' IDENTIFIER
        { $$ = $1; Node *p = NEW(ND_PARAM, @3); p->name = tok_name(ctx, $3); nodelist_append(&$$, p); }
    ;

/* type-name: specifier-qualifier-list abstract-declarator? */
type_name
    : specifier_qualifier_list
        { $$ = NEW(ND_TYPE_NAME, $1->loc); $$->decl_specs = $1; }
    | specifier_qualifier_list abstract_declarator
        { $$ = NEW(ND_TYPE_NAME, $1->loc); $$->decl_specs = $1; $$->declarator = $2; }
    ;

abstract_declarator
    : pointer                               { $$ = $1; }
    | direct_abstract_declarator            { $$ = $1; }
    | pointer direct_abstract_declarator    { $$ = parse_declarator_wrap($1, $2); }
    ;

direct_abstract_declarator
    : '(' abstract_declarator ')'
        { $$ = $2; }
    | '[' ']'
        { $$ = ast_declarator(ctx->arena, DECL_ARRAY, @1); }
    | '[' assignment_expression ']'
        { $$ = ast_declarator(ctx->arena, DECL_ARRAY, @1); $$->array_len = $2; }
    | direct_abstract_declarator '[' ']'
        { $$ = ast_declarator(ctx->arena, DECL_ARRAY, @2); $$->inner = $1; }
    | direct_abstract_declarator '[' assignment_expression ']'
        { $$ = ast_declarator(ctx->arena, DECL_ARRAY, @2); $$->inner = $1; $$->array_len = $3; }
    | '(' ')'
        { $$ = ast_declarator(ctx->arena, DECL_FUNC, @1); }
    | '(' parameter_list ')'
        { $$ = ast_declarator(ctx->arena, DECL_FUNC, @1); $$->params = $2; }
    | '(' parameter_list ',' PT_ELLIPSIS ')'
        { $$ = ast_declarator(ctx->arena, DECL_FUNC, @1); $$->params = $2; $$->is_variadic = true; }
    | direct_abstract_declarator '(' ')'
        { $$ = ast_declarator(ctx->arena, DECL_FUNC, @2); $$->inner = $1; }
    | direct_abstract_declarator '(' parameter_list ')'
        { $$ = ast_declarator(ctx->arena, DECL_FUNC, @2); $$->inner = $1; $$->params = $3; }
    ;

/* ---- initialisers (§6.7.9) --------------------------------------------- */

initializer
    : assignment_expression                 { $$ = $1; }
    | '{' '}'                               { $$ = NEW(ND_INIT_LIST, @1); }
    | '{' initializer_list comma_opt '}'    { $$ = NEW(ND_INIT_LIST, @1); $$->items = $2; }
    ;

initializer_list
    : designation_initializer                       { $$ = (NodeList){0}; nodelist_append(&$$, $1); }
    | initializer_list ',' designation_initializer  { $$ = $1; nodelist_append(&$$, $3); }
    ;

designation_initializer
    : initializer                           { $$ = $1; }
    | designator_list '=' initializer
        { $$ = NEW(ND_DESIG_INIT, $1.head->loc); $$->items = $1; $$->lhs = $3; }
    ;

designator_list
    : designator                    { $$ = (NodeList){0}; nodelist_append(&$$, $1); }
    | designator_list designator    { $$ = $1; nodelist_append(&$$, $2); }
    ;

designator
    : '[' constant_expression ']'   { $$ = NEW(ND_DESIGNATOR, @1); $$->lhs = $2; }
    | '.' any_identifier            { $$ = NEW(ND_DESIGNATOR, @1); $$->name = tok_name(ctx, $2); }
    ;

/* ---- §6.8 statements --------------------------------------------------- */

statement
    : labeled_statement
    | compound_statement
    | expression_statement
    | selection_statement
    | iteration_statement
    | jump_statement
    | pragma_statement
    ;

pragma_statement
    : PRAGMA
        { $$ = NEW(ND_PRAGMA, @1); $$->text = arena_strndup(ctx->arena, $1->text, $1->len); }
    ;

labeled_statement
    : IDENTIFIER ':' statement
        { $$ = NEW(ND_LABEL, @1); $$->name = tok_name(ctx, $1); $$->body = $3; }
    | KW_CASE constant_expression ':' statement
        { $$ = NEW(ND_CASE, @1); $$->lhs = $2; $$->body = $4; }
    | KW_DEFAULT ':' statement
        { $$ = NEW(ND_DEFAULT, @1); $$->body = $3; }
    ;

/* compound-statement: '{' block-item-list? '}' — each opens a scope. */
compound_statement
    : block_open block_item_list '}'
        { $$ = NEW(ND_BLOCK, @1); $$->items = $2; parse_scope_pop(ctx); }
    | block_open block_item_list error '}'
        { $$ = NEW(ND_BLOCK, @1); $$->items = $2; parse_scope_pop(ctx); RECOVERED_LOSING_SHAPE(); }
    ;

block_open : '{' { parse_scope_push(ctx); } ;

block_item_list
    : %empty                            { $$ = (NodeList){0}; }
    | block_item_list block_item        { $$ = $1; nodelist_append(&$$, $2); }
    ;

block_item
    : declaration                       { $$ = $1; }
    | statement                         { $$ = $1; }
    | error ';'                         { $$ = NULL; ctx->specs_depth = 0; RECOVERED(); }
    ;

expression_statement
    : ';'                               { $$ = NEW(ND_NULL_STMT, @1); }
    | expression ';'                    { $$ = NEW(ND_EXPR_STMT, $1->loc); $$->lhs = $1; }
    /* A missing ';' (reported): the statement is kept. */
    | expression error                  { $$ = NEW(ND_EXPR_STMT, $1->loc); $$->lhs = $1; RECOVERED_AT_NEXT(); }
    ;

selection_statement
    : KW_IF '(' expression ')' statement %prec LOWER_THAN_ELSE
        { $$ = NEW(ND_IF, @1); $$->cond = $3; $$->then = $5; }
    | KW_IF '(' expression ')' statement KW_ELSE statement
        { $$ = NEW(ND_IF, @1); $$->cond = $3; $$->then = $5; $$->els = $7; }
    | KW_SWITCH '(' expression ')' statement
        { $$ = NEW(ND_SWITCH, @1); $$->cond = $3; $$->body = $5; }
    ;

/* A for loop's declaration lives in its own scope (§6.8.5p5). */
iteration_statement
    : KW_WHILE '(' expression ')' statement
        { $$ = NEW(ND_WHILE, @1); $$->cond = $3; $$->body = $5; }
    | KW_DO statement KW_WHILE '(' expression ')' ';'
        { $$ = NEW(ND_DO, @1); $$->body = $2; $$->cond = $5; }
    | KW_FOR '(' { parse_scope_push(ctx); } for_init expression_opt ';' expression_opt ')' statement
        {
            $$ = NEW(ND_FOR, @1);
            $$->init = $4; $$->cond = $5; $$->inc = $7; $$->body = $9;
            parse_scope_pop(ctx);
        }
    ;

for_init
    : expression_statement              { $$ = $1; }
    | declaration                       { $$ = $1; }
    ;

jump_statement
    : KW_GOTO any_identifier ';'        { $$ = NEW(ND_GOTO, @1); $$->name = tok_name(ctx, $2); }
    | KW_CONTINUE ';'                   { $$ = NEW(ND_CONTINUE, @1); }
    | KW_BREAK ';'                      { $$ = NEW(ND_BREAK, @1); }
    | KW_RETURN ';'                     { $$ = NEW(ND_RETURN, @1); }
    | KW_RETURN expression ';'          { $$ = NEW(ND_RETURN, @1); $$->lhs = $2; }
    | KW_RETURN expression error        { $$ = NEW(ND_RETURN, @1); $$->lhs = $2; RECOVERED_AT_NEXT(); }
    ;

/* ---- §6.5 expressions -------------------------------------------------- */

primary_expression
    : IDENTIFIER                        { $$ = make_ident(ctx, $1); }
    | PPNUMBER                          { $$ = parse_number(ctx, $1); }
    | CHAR_CONST                        { $$ = parse_char(ctx, $1); }
    | string_literal                    { $$ = $1; }
    | KW_TRUE                           { $$ = NEW(ND_BOOL_LIT, @1); $$->int_value = 1; }
    | KW_FALSE                          { $$ = NEW(ND_BOOL_LIT, @1); $$->int_value = 0; }
    | '(' expression ')'                { $$ = $2; }
    | generic_selection                 { $$ = $1; }
    /* docs/REFERENCE.md "Groups": get_fixed_size_group<N>(parent) */
    | KW_GET_FIXED_SIZE_GROUP '<' shift_expression '>' '(' argument_expression_list_opt ')'
        {
            $$ = NEW(ND_CALL, @1);
            $$->callee = NEW(ND_IDENT, @1);
            $$->callee->name = "get_fixed_size_group";
            $$->template_args = ARENA_NEW(ctx->arena, NodeList);
            nodelist_append($$->template_args, $3);
            $$->args = $6;
        }
    ;

string_literal
    : STRING_LITERAL                    { $$ = parse_string(ctx, $1); }
    | string_literal STRING_LITERAL     { $$ = $1; parse_append_string(ctx, $1, $2); }
    ;

/* _Generic is parsed only to be reported as unsupported by sema. */
generic_selection
    : KW_GENERIC '(' assignment_expression ',' generic_assoc_list ')'
        { $$ = NEW(ND_GENERIC, @1); $$->lhs = $3; (void)$5; }
    ;

generic_assoc_list
    : generic_association                           { $$ = $1; }
    | generic_assoc_list ',' generic_association    { $$ = $1; (void)$3; }
    ;

generic_association
    : type_name ':' assignment_expression           { $$ = $3; (void)$1; }
    | KW_DEFAULT ':' assignment_expression          { $$ = $3; }
    ;

postfix_expression
    : primary_expression
    | postfix_expression '[' expression ']'
        { $$ = NEW(ND_INDEX, @2); $$->lhs = $1; $$->rhs = $3; }
    | postfix_expression '(' argument_expression_list_opt ')'
        { $$ = NEW(ND_CALL, $1->loc); $$->callee = $1; $$->args = $3; }
    | postfix_expression '.' any_identifier
        { $$ = NEW(ND_MEMBER, @3); $$->lhs = $1; $$->name = tok_name(ctx, $3); }
    | postfix_expression PT_ARROW any_identifier
        { $$ = NEW(ND_MEMBER, @3); $$->lhs = $1; $$->name = tok_name(ctx, $3); $$->is_arrow = true; }
    | postfix_expression PT_INC
        { $$ = ast_unary(ctx->arena, ND_POSTFIX, OP_INC, $1, @2); }
    | postfix_expression PT_DEC
        { $$ = ast_unary(ctx->arena, ND_POSTFIX, OP_DEC, $1, @2); }
    | '(' type_name ')' '{' initializer_list comma_opt '}'
        { $$ = NEW(ND_COMPOUND_LIT, @1); $$->type_name = $2; $$->init = NEW(ND_INIT_LIST, @4); $$->init->items = $5; }
    | '(' type_name ')' '{' '}'
        { $$ = NEW(ND_COMPOUND_LIT, @1); $$->type_name = $2; $$->init = NEW(ND_INIT_LIST, @4); }
    ;

argument_expression_list_opt
    : %empty                            { $$ = (NodeList){0}; }
    | argument_expression_list          { $$ = $1; }
    ;

argument_expression_list
    : assignment_expression                                 { $$ = (NodeList){0}; nodelist_append(&$$, $1); }
    | argument_expression_list ',' assignment_expression    { $$ = $1; nodelist_append(&$$, $3); }
    ;

unary_expression
    : postfix_expression
    | PT_INC unary_expression           { $$ = ast_unary(ctx->arena, ND_UNARY, OP_PRE_INC, $2, @1); }
    | PT_DEC unary_expression           { $$ = ast_unary(ctx->arena, ND_UNARY, OP_PRE_DEC, $2, @1); }
    | unary_operator cast_expression    { $$ = make_unary(ctx, $1, $2, @1); }
    | KW_SIZEOF unary_expression        { $$ = NEW(ND_SIZEOF, @1); $$->lhs = $2; }
    | KW_SIZEOF '(' type_name ')'       { $$ = NEW(ND_SIZEOF, @1); $$->type_name = $3; }
    | alignof_kw '(' type_name ')'      { $$ = NEW(ND_ALIGNOF, @1); $$->type_name = $3; }
    ;

alignof_kw : KW_ALIGNOF | KW_ALIGNOF2 ;

unary_operator
    : '&'   { $$ = OP_ADDR; }
    | '*'   { $$ = OP_DEREF; }
    | '+'   { $$ = OP_PLUS; }
    | '-'   { $$ = OP_NEG; }
    | '~'   { $$ = OP_BITNOT; }
    | '!'   { $$ = OP_NOT; }
    ;

cast_expression
    : unary_expression
    | '(' type_name ')' cast_expression
        { $$ = NEW(ND_CAST, @1); $$->type_name = $2; $$->lhs = $4; }
    ;

multiplicative_expression
    : cast_expression
    | multiplicative_expression '*' cast_expression { $$ = make_binary(ctx, OP_MUL, $1, $3, @2); }
    | multiplicative_expression '/' cast_expression { $$ = make_binary(ctx, OP_DIV, $1, $3, @2); }
    | multiplicative_expression '%' cast_expression { $$ = make_binary(ctx, OP_MOD, $1, $3, @2); }
    ;

additive_expression
    : multiplicative_expression
    | additive_expression '+' multiplicative_expression { $$ = make_binary(ctx, OP_ADD, $1, $3, @2); }
    | additive_expression '-' multiplicative_expression { $$ = make_binary(ctx, OP_SUB, $1, $3, @2); }
    ;

shift_expression
    : additive_expression
    | shift_expression PT_SHL additive_expression { $$ = make_binary(ctx, OP_SHL, $1, $3, @2); }
    | shift_expression PT_SHR additive_expression { $$ = make_binary(ctx, OP_SHR, $1, $3, @2); }
    ;

/* multiplicative_expression .. shift_expression stay only for the size in
 * fixed_size_group<N>, where '>' must close the argument list. */
binary_expression
    : cast_expression
    | binary_expression '*' binary_expression       { $$ = make_binary(ctx, OP_MUL, $1, $3, @2); }
    | binary_expression '/' binary_expression       { $$ = make_binary(ctx, OP_DIV, $1, $3, @2); }
    | binary_expression '%' binary_expression       { $$ = make_binary(ctx, OP_MOD, $1, $3, @2); }
    | binary_expression '+' binary_expression       { $$ = make_binary(ctx, OP_ADD, $1, $3, @2); }
    | binary_expression '-' binary_expression       { $$ = make_binary(ctx, OP_SUB, $1, $3, @2); }
    | binary_expression PT_SHL binary_expression    { $$ = make_binary(ctx, OP_SHL, $1, $3, @2); }
    | binary_expression PT_SHR binary_expression    { $$ = make_binary(ctx, OP_SHR, $1, $3, @2); }
    | binary_expression '<' binary_expression       { $$ = make_binary(ctx, OP_LT, $1, $3, @2); }
    | binary_expression '>' binary_expression       { $$ = make_binary(ctx, OP_GT, $1, $3, @2); }
    | binary_expression PT_LE binary_expression     { $$ = make_binary(ctx, OP_LE, $1, $3, @2); }
    | binary_expression PT_GE binary_expression     { $$ = make_binary(ctx, OP_GE, $1, $3, @2); }
    | binary_expression PT_EQ binary_expression     { $$ = make_binary(ctx, OP_EQ, $1, $3, @2); }
    | binary_expression PT_NE binary_expression     { $$ = make_binary(ctx, OP_NE, $1, $3, @2); }
    | binary_expression '&' binary_expression       { $$ = make_binary(ctx, OP_BITAND, $1, $3, @2); }
    | binary_expression '^' binary_expression       { $$ = make_binary(ctx, OP_BITXOR, $1, $3, @2); }
    | binary_expression '|' binary_expression       { $$ = make_binary(ctx, OP_BITOR, $1, $3, @2); }
    | binary_expression PT_LOGAND binary_expression { $$ = make_binary(ctx, OP_LOGAND, $1, $3, @2); }
    | binary_expression PT_LOGOR binary_expression  { $$ = make_binary(ctx, OP_LOGOR, $1, $3, @2); }
    ;

conditional_expression
    : binary_expression
    | binary_expression '?' expression ':' conditional_expression
        { $$ = NEW(ND_COND, @2); $$->cond = $1; $$->then = $3; $$->els = $5; }
    ;

assignment_expression
    : conditional_expression
    | unary_expression assignment_operator assignment_expression
        { $$ = NEW(ND_ASSIGN, @2); $$->op = $2; $$->lhs = $1; $$->rhs = $3; }
    ;

assignment_operator
    : '='               { $$ = OP_ASSIGN; }
    | PT_MUL_ASSIGN     { $$ = OP_MUL_ASSIGN; }
    | PT_DIV_ASSIGN     { $$ = OP_DIV_ASSIGN; }
    | PT_MOD_ASSIGN     { $$ = OP_MOD_ASSIGN; }
    | PT_ADD_ASSIGN     { $$ = OP_ADD_ASSIGN; }
    | PT_SUB_ASSIGN     { $$ = OP_SUB_ASSIGN; }
    | PT_SHL_ASSIGN     { $$ = OP_SHL_ASSIGN; }
    | PT_SHR_ASSIGN     { $$ = OP_SHR_ASSIGN; }
    | PT_AND_ASSIGN     { $$ = OP_AND_ASSIGN; }
    | PT_XOR_ASSIGN     { $$ = OP_XOR_ASSIGN; }
    | PT_OR_ASSIGN      { $$ = OP_OR_ASSIGN; }
    ;

expression
    : assignment_expression
    | expression ',' assignment_expression
        { $$ = NEW(ND_COMMA, @2); $$->lhs = $1; $$->rhs = $3; }
    ;

expression_opt
    : %empty        { $$ = NULL; }
    | expression    { $$ = $1; }
    ;

constant_expression
    : conditional_expression
    ;

%%

/* Syntax errors: "expected X before Y" when bison knows a short list of
 * what it expected, pointing back to the opener of an unclosed bracket. */
/* Names an expected-token set too large to list by what it can start. */
static const char *describe_expected(const yysymbol_kind_t *expected, int n)
{
    bool declaration = false, expression = false;
    for (int i = 0; i < n; i++) {
        switch (expected[i]) {
        case YYSYMBOL_KW_INT: case YYSYMBOL_KW_TYPEDEF: declaration = true; break;
        case YYSYMBOL_PPNUMBER: case YYSYMBOL_IDENTIFIER: expression = true; break;
        default: break;
        }
    }
    if (declaration && expression)
        return "statement or declaration";
    if (declaration)
        return "declaration";
    return "expression";
}

/* The spelling of keyword token KW_<token> (keywords.def). */
static const char *keyword_spelling(const char *token)
{
    static const struct { const char *token, *spelling; } table[] = {
#define KEYWORD(token, spelling) {#token, spelling},
#include "lex/keywords.def"
#undef KEYWORD
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (strcmp(table[i].token, token) == 0)
            return table[i].spelling;
    return token;
}

static bool is_keyword_text(const Token *tok)
{
    char text[32];
    if (tok->len >= sizeof text)
        return false;
    memcpy(text, tok->text, tok->len);
    text[tok->len] = '\0';
#define KEYWORD(token, spelling) if (strcmp(text, spelling) == 0) return true;
#include "lex/keywords.def"
#undef KEYWORD
    return false;
}

static void quote_symbol(yysymbol_kind_t sym, char *buf, size_t size)
{
    const char *name = yysymbol_name(sym);
    if (name[0] == '"' || name[0] == '\'')
        snprintf(buf, size, "'%.*s'", (int)strlen(name) - 2, name + 1);
    else if (sym == YYSYMBOL_IDENTIFIER)
        snprintf(buf, size, "identifier");
    else if (sym == YYSYMBOL_YYEOF)
        snprintf(buf, size, "end of file");
    else if (strncmp(name, "KW_", 3) == 0)
        snprintf(buf, size, "'%s'", keyword_spelling(name + 3));
    else
        snprintf(buf, size, "%s", name);
}

/* The innermost bracket still open before the lookahead token. */
static const OpenBracket *open_bracket(const ParseContext *ctx)
{
    int depth = ctx->bracket_depth;
    const Token *la = ctx->last_tok;
    if (la && la->kind == TK_PUNCT && (la->punct == '(' || la->punct == '[' || la->punct == '{'))
        depth--;
    if (depth <= 0 || depth > MAX_OPEN_BRACKETS)
        return NULL;
    return &ctx->brackets[depth - 1];
}

/* Syntax errors: "expected X before Y" like GCC, located at the token that
 * does not fit — or, for a missing ';', just after the token it should
 * follow — and pointing back to the opener of an unclosed bracket. */
static int yyreport_syntax_error(const yypcontext_t *pctx, ParseContext *ctx)
{
    enum { MAX_EXPECTED = YYNTOKENS, MAX_LISTED = 3 };
    yysymbol_kind_t expected[MAX_EXPECTED];
    int n = yypcontext_expected_tokens(pctx, expected, MAX_EXPECTED);
    SrcLoc loc = *yypcontext_location(pctx);
    yysymbol_kind_t lookahead = yypcontext_token(pctx);
    const Token *la = ctx->last_tok;
    ctx->recovering = true; /* until an error rule matches (RECOVERED) */

    /* A closer with nothing open after an earlier error is the echo of
     * that error (its opener was swallowed by recovery): stay quiet. */
    bool closer = la && la->kind == TK_PUNCT && (la->punct == '}' || la->punct == ')');
    if (ctx->syntax_errors > 0 && lookahead == YYSYMBOL_YYEOF)
        return 0;
    if (ctx->syntax_errors > 0 && closer &&
        (ctx->bracket_depth == 0 || strcmp(describe_expected(expected, n), "declaration") == 0))
        return 0;
    if (ctx->syntax_errors > 0 && loc.file == ctx->last_error_loc.file &&
        loc.offset == ctx->last_error_loc.offset)
        return 0;
    ctx->syntax_errors++;
    ctx->last_error_loc = loc;

    char seen[96];
    if (lookahead == YYSYMBOL_YYEOF || !la)
        snprintf(seen, sizeof seen, "end of file");
    else
        snprintf(seen, sizeof seen, "'%.*s'", (int)(la->len > 40 ? 40 : la->len), la->text);

    /* "vec4 v;": two identifiers in a row, the first not a type. */
    const Token *prev = ctx->prev_tok;
    if (lookahead == YYSYMBOL_IDENTIFIER && prev && prev->kind == TK_IDENT &&
        !is_keyword_text(prev) && !is_keyword_text(la)) {
        diag_error(ctx->diag, prev->loc, "unknown type name '%.*s'",
                   (int)(prev->len > 40 ? 40 : prev->len), prev->text);
        parse_drop_name(ctx, la->text, la->len, la->loc);     /* the variable being declared */
        parse_drop_name(ctx, prev->text, prev->len, prev->loc); /* and its type, if read as a name */
        return 0;
    }
    if (prev && prev->kind == TK_IDENT && prev->len == 7 && memcmp(prev->text, "_Atomic", 7) == 0) {
        diag_error(ctx->diag, prev->loc, "_Atomic types are not supported");
        return 0;
    }

    const OpenBracket *unclosed = open_bracket(ctx);
    if (lookahead == YYSYMBOL_YYEOF && unclosed) {
        char closer = unclosed->punct == '(' ? ')' : unclosed->punct == '[' ? ']' : '}';
        unsigned line, col;
        srcmgr_line_col(ctx->diag->sources, unclosed->loc, &line, &col);
        diag_error(ctx->diag, loc, "expected '%c' at end of file (to close '%c' at line %u)",
                   closer, unclosed->punct, line);
        return 0;
    }
    if (n <= 0 || n > MAX_LISTED) {
        diag_error(ctx->diag, loc, "expected %s before %s",
                   describe_expected(expected, n < 0 ? 0 : n), seen);
        return 0;
    }
    char want[256] = "";
    bool wants_semicolon = false;
    for (int i = 0; i < n; i++) {
        char quoted[64];
        quote_symbol(expected[i], quoted, sizeof quoted);
        wants_semicolon |= strcmp(yysymbol_name(expected[i]), "';'") == 0;
        if (i > 0)
            strncat(want, i == n - 1 ? " or " : ", ", sizeof want - strlen(want) - 1);
        strncat(want, quoted, sizeof want - strlen(want) - 1);
    }
    if (wants_semicolon)
        snprintf(want, sizeof want, "';'"); /* "';' or ','" reads worse than GCC's */
    else if (strstr(want, "'>'"))
        snprintf(want, sizeof want, "'>'"); /* fixed_size_group<N>: not "<<, >> or '>'" */
    if (wants_semicolon && ctx->prev_tok)
        loc = (SrcLoc){ctx->prev_tok->loc.file, ctx->prev_tok->loc.offset + ctx->prev_tok->len};
    const OpenBracket *open = open_bracket(ctx);
    if (open) {
        char closer = open->punct == '(' ? ')' : open->punct == '[' ? ']' : '}';
        char closer_name[8];
        snprintf(closer_name, sizeof closer_name, "'%c'", closer);
        if (strstr(want, closer_name)) {
            unsigned line, col;
            srcmgr_line_col(ctx->diag->sources, open->loc, &line, &col);
            diag_error(ctx->diag, loc, "expected %s before %s (to close '%c' at line %u)",
                       closer_name, seen, open->punct, line);
            return 0;
        }
    }
    diag_error(ctx->diag, loc, "expected %s before %s", want, seen);
    return 0;
}

Node *parse_translation_unit(Arena *arena, Diag *diag, Preprocessor *pp)
{
    /* The context holds the name and keyword tables (tens of KiB): keep it
     * in the arena rather than on the stack. */
    ParseContext *ctx = ARENA_NEW(arena, ParseContext);
    parse_context_init(ctx, arena, diag, pp);
    ctx->root = ast_new(arena, ND_TRANSLATION_UNIT, (SrcLoc){0, 0});
    parse_scope_push(ctx);
    unsigned errors_before = diag->error_count;
    int rc = yyparse(ctx);
    ctx->root->dropped_names = ARENA_NEW(arena, NodeList);
    *ctx->root->dropped_names = ctx->dropped_names;
    /* Only syntax errors, each recovered without losing the shape of the
     * code: sema may check the rest (parse_tree_checkable). */
    ctx->root->int_value = !ctx->lost_shape && rc == 0 && errors_before == 0 &&
                           diag->error_count == ctx->syntax_errors;
    while (ctx->scope)
        parse_scope_pop(ctx);
    parse_context_free(ctx);
    if (rc != 0 && !diag_has_errors(diag))
        diag_error(diag, ctx->last_error_loc, "cannot continue parsing after previous errors");
    return ctx->root;
}

bool parse_tree_checkable(const Node *root)
{
    return root && root->kind == ND_TRANSLATION_UNIT && root->int_value;
}
