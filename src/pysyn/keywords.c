/* The name tables of pysyn's public enums (keyword ids come from pylex). */
#include "pysyn/syn_internal.h"

const char *nfy_pysyn_stmt_kind_name(nfy_stmt_kind kind)
{
    static const char *const names[] = {
#define NFY_STMT_NAME(name, text) text,
        NFY_STMT_KIND_MAP(NFY_STMT_NAME)
#undef NFY_STMT_NAME
    };
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

const char *nfy_pysyn_bind_kind_name(nfy_bind_kind kind)
{
    static const char *const names[] = {
#define NFY_BIND_NAME(name, text) text,
        NFY_BIND_KIND_MAP(NFY_BIND_NAME)
#undef NFY_BIND_NAME
    };
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

const char *nfy_pysyn_scope_kind_name(nfy_scope_kind kind)
{
    static const char *const names[] = {"module", "function", "lambda", "class",
                                        "comprehension"};
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

const char *nfy_pysyn_arg_kind_name(nfy_arg_kind kind)
{
    static const char *const names[] = {"pos", "kw", "star", "dstar"};
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

const char *nfy_pysyn_str_ctx_name(nfy_str_ctx ctx)
{
    static const char *const names[] = {
        "other",   "docstring", "arg",      "in_arg",     "compare", "assign",
        "default", "subscript", "dict_key", "dict_value", "operand"};
    return (unsigned)ctx < sizeof names / sizeof names[0] ? names[ctx] : "?";
}
