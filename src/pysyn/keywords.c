/*
 * Keyword recognition and the name tables of the public enums. Keywords are
 * found by length and then a short compare, which is cheaper than a hash
 * for Python's 35 keywords plus the soft ones pysyn cares about.
 */
#include <string.h>

#include "pysyn/syn_internal.h"

typedef struct {
    const char *text;
    uint8_t id;
} kw_entry;

static const kw_entry kw_table[] = {
    {"as", KW_AS},           {"if", KW_IF},         {"in", KW_IN},
    {"is", KW_IS},           {"or", KW_OR},         {"and", KW_AND},
    {"def", KW_DEF},         {"del", KW_DEL},       {"for", KW_FOR},
    {"not", KW_NOT},         {"try", KW_TRY},       {"None", KW_NONE},
    {"True", KW_TRUE},       {"elif", KW_ELIF},     {"else", KW_ELSE},
    {"from", KW_FROM},       {"pass", KW_PASS},     {"with", KW_WITH},
    {"case", KW_CASE},       {"type", KW_TYPE},     {"False", KW_FALSE},
    {"async", KW_ASYNC},     {"await", KW_AWAIT},   {"break", KW_BREAK},
    {"class", KW_CLASS},     {"raise", KW_RAISE},   {"while", KW_WHILE},
    {"yield", KW_YIELD},     {"match", KW_MATCH},   {"assert", KW_ASSERT},
    {"except", KW_EXCEPT},   {"global", KW_GLOBAL}, {"import", KW_IMPORT},
    {"lambda", KW_LAMBDA},   {"return", KW_RETURN}, {"finally", KW_FINALLY},
    {"continue", KW_CONTINUE}, {"nonlocal", KW_NONLOCAL},
};

uint8_t syn_keyword(const char *s, size_t n)
{
    /* kw_table is sorted by length: first entry of each length 2..8. */
    static const uint8_t by_len[] = {0, 0, 0, 5, 11, 20, 29, 35, 36, 38};
    if (n < 2 || n > 8)
        return KW_NOTKW;
    for (unsigned i = by_len[n]; i < by_len[n + 1]; i++)
        if (kw_table[i].text[0] == s[0] && !memcmp(kw_table[i].text, s, n))
            return kw_table[i].id;
    return KW_NOTKW;
}

const char *nfy_stmt_kind_name(nfy_stmt_kind kind)
{
    static const char *const names[] = {
#define NFY_STMT_NAME(name, text) text,
        NFY_STMT_KIND_MAP(NFY_STMT_NAME)
#undef NFY_STMT_NAME
    };
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind]
                                                           : "?";
}

const char *nfy_bind_kind_name(nfy_bind_kind kind)
{
    static const char *const names[] = {
#define NFY_BIND_NAME(name, text) text,
        NFY_BIND_KIND_MAP(NFY_BIND_NAME)
#undef NFY_BIND_NAME
    };
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind]
                                                           : "?";
}

const char *nfy_scope_kind_name(nfy_scope_kind kind)
{
    static const char *const names[] = {"module", "function", "lambda",
                                        "class", "comprehension"};
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind]
                                                           : "?";
}

const char *nfy_arg_kind_name(nfy_arg_kind kind)
{
    static const char *const names[] = {"pos", "kw", "star", "dstar"};
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind]
                                                           : "?";
}

const char *nfy_str_ctx_name(nfy_str_ctx ctx)
{
    static const char *const names[] = {
        "other",     "docstring", "arg",      "in_arg",     "compare", "assign",
        "default",   "subscript", "dict_key", "dict_value", "operand"};
    return (unsigned)ctx < sizeof names / sizeof names[0] ? names[ctx] : "?";
}
