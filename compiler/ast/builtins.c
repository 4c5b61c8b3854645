/* builtins.c — lookup tables generated from the lists in builtins.h. */
#include "ast/builtins.h"

#include <string.h>

const BuiltinInfo builtin_info[BI_COUNT] = {
    [BI_NONE] = {"", BK_WORKITEM, 0, 0},
#define X(name, spelling, kind, min, max) [BI_##name] = {spelling, kind, min, max},
    BUILTINS(X)
#undef X
};

const MethodInfo method_info[METHOD_COUNT] = {
    [METHOD_NONE] = {"", RECV_GROUP, 0},
#define X(name, spelling, recv, nargs) [METHOD_##name] = {spelling, recv, nargs},
    METHODS(X)
#undef X
};

const char *const group_op_names[GOP_COUNT] = {
    [GOP_NONE] = "",
#define GROUP_OP(kind, spelling, expr, identity, integer_only, logical, idempotent, khr) [GOP_##kind] = spelling,
#include "ast/group_ops.def"
#undef GROUP_OP
};

const GroupOpInfo group_op_info[GOP_COUNT] = {
    [GOP_NONE] = {"", GOP_ID_ZERO, false, false, false, ""},
#define GROUP_OP(kind, spelling, expr, identity, integer_only, logical, idempotent, khr) \
    [GOP_##kind] = {expr, GOP_ID_##identity, integer_only, logical, idempotent, khr},
#include "ast/group_ops.def"
#undef GROUP_OP
};

/* The tables are small (under 100 entries) and lookups happen once per call
 * site, so a linear scan is plenty. */
Builtin builtin_lookup(const char *name)
{
    for (int i = 1; i < BI_COUNT; i++)
        if (strcmp(builtin_info[i].name, name) == 0)
            return (Builtin)i;
    return BI_NONE;
}

typedef struct ArgRoles {
    int name, init;
} ArgRoles;

static ArgRoles roles_of(Builtin bi)
{
    switch (bi) {
#define X(b, name, init) case BI_##b: return (ArgRoles){name, init};
    BUILTIN_ROLES(X)
#undef X
    default: return (ArgRoles){ARG_NONE, ARG_NONE};
    }
}

int builtin_name_arg(Builtin bi, int n)
{
    int at = roles_of(bi).name;
    return at == ARG_LAST ? n - 1 : at == ARG_NONE ? -1 : at;
}

int builtin_init_arg(Builtin bi, int n)
{
    int at = roles_of(bi).init;
    return at >= 0 && bi > BI_NONE && bi < BI_COUNT && n == builtin_info[bi].max_args ? at : -1;
}

Method method_lookup(const char *name)
{
    for (int i = 1; i < METHOD_COUNT; i++)
        if (strcmp(method_info[i].name, name) == 0)
            return (Method)i;
    return METHOD_NONE;
}

GroupOp group_op_lookup(const char *name)
{
    for (int i = 1; i < GOP_COUNT; i++)
        if (strcmp(group_op_names[i], name) == 0)
            return (GroupOp)i;
    return GOP_NONE;
}

/* Node keeps these in narrow bit-fields (syntax.h). */
_Static_assert(BI_COUNT <= 1 << 16, "Node.builtin is 16 bits");
_Static_assert(GOP_COUNT <= 1 << 8, "Node.group_op is 8 bits");
_Static_assert(METHOD_COUNT <= 1 << 8, "Node.method is 8 bits");
