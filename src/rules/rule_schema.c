/*
 * Our rule-file schema ("npuify-rules/1", data/rules/README.md): a table of
 * fields drives the conversion of each JSON rule object into an nfy_rule;
 * unknown fields, wrong types and bad enum values are errors located at the
 * key or value. Semantic checks shared with the msFmkTransplt converter
 * (kind/match fit, regexes, versions, contexts) are here too.
 */
#include <ctype.h>
#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rules/rules_internal.h"

typedef enum {
    T_STR,  /* string or null, stored at off */
    T_BOOL, /* sets (or, for "default", clears) a flag */
    T_INT,  /* arg_pos */
    T_KIND,
    T_MATCH,
    T_SAFETY,
    T_SEVERITY,
    T_CTX,
    T_MAP,
    T_COMMENT /* any string; ignored */
} field_type;

typedef struct {
    const char *name;
    field_type type;
    size_t off;    /* T_STR: offset of the const char * in nfy_rule */
    unsigned flag; /* T_BOOL: the flag */
    bool required;
} field;

#define F_STR(n, m, req)                                                       \
    {                                                                          \
        n, T_STR, offsetof(nfy_rule, m), 0, req                                \
    }
#define F_BOOL(n, f)                                                           \
    {                                                                          \
        n, T_BOOL, 0, f, false                                                 \
    }
#define F_OTHER(n, t, req)                                                     \
    {                                                                          \
        n, t, 0, 0, req                                                        \
    }

static const field fields[] = {
    F_STR("id", id, true),
    F_OTHER("kind", T_KIND, true),
    F_OTHER("match", T_MATCH, true),
    F_STR("pattern", pattern, true),
    F_STR("message", message, true),
    F_STR("replacement", replacement, false),
    F_OTHER("safety", T_SAFETY, false),
    F_OTHER("severity", T_SEVERITY, false),
    F_STR("hint", hint, false),
    F_STR("before", before, false),
    F_STR("after", after, false),
    F_STR("fix", fix, false),
    F_OTHER("arg_pos", T_INT, false),
    F_STR("arg_kw", arg_kw, false),
    F_STR("arg_match", arg_match, false),
    F_STR("arg_value", arg_value, false),
    F_STR("skip", skip, false),
    F_STR("fallback", fallback, false),
    F_STR("option", option, false),
    F_STR("min_torch", min_torch, false),
    F_STR("max_torch", max_torch, false),
    F_STR("tags", tags, false),
    F_BOOL("delete", NFY_RULE_F_DELETE),
    F_BOOL("device_form", NFY_RULE_F_DEVICE_FORM),
    F_BOOL("substring", NFY_RULE_F_SUBSTRING),
    F_BOOL("apidb", NFY_RULE_F_APIDB),
    F_BOOL("default", NFY_RULE_F_OFF),
    F_OTHER("ctx", T_CTX, false),
    F_OTHER("map", T_MAP, false),
    F_OTHER("comment", T_COMMENT, false),
};

#define NFIELDS (sizeof fields / sizeof fields[0])

static const field *find_field(const char *name)
{
    for (size_t i = 0; i < NFIELDS; i++)
        if (!strcmp(fields[i].name, name))
            return &fields[i];
    return NULL;
}

/* ---- Contexts ------------------------------------------------------------ */

static const char *ctx_arg(rules_loader *ld, const char *spec, nfy_rule_ctx *c)
{
    /* CALLEE[@POS][=KW] */
    const char *at = strchr(spec, '@');
    const char *eq = strchr(spec, '=');
    const char *end = at ? at : (eq ? eq : spec + strlen(spec));
    if (end == spec)
        return "arg: needs a callee (arg:CALLEE@POS=KW)";
    c->name = nfy_arena_strndup(&ld->set->arena, spec, (size_t)(end - spec));
    if (at) {
        const char *p = at + 1;
        long pos = 0;
        if (!isdigit((unsigned char)*p))
            return "arg: position after '@' must be a number";
        while (isdigit((unsigned char)*p) && pos < 1000)
            pos = pos * 10 + (*p++ - '0');
        if (p != (eq ? eq : at + strlen(at)))
            return "arg: position after '@' must be a number";
        c->pos = (int)pos;
    }
    if (eq) {
        if (!eq[1])
            return "arg: keyword after '=' is empty";
        c->kw = nfy_arena_strndup(&ld->set->arena, eq + 1, strlen(eq + 1));
    }
    return NULL;
}

bool nfy__rules_parse_ctx(rules_loader *ld, const char *text, nfy_rule_ctx *c,
                          const char **why)
{
    *c = (nfy_rule_ctx){NFY_CTX_ANY, NULL, -1, NULL};
    const char *colon = strchr(text, ':');
    size_t head = colon ? (size_t)(colon - text) : strlen(text);
    int kind = -1;
    for (int k = 0; k < NFY_CTX_COUNT; k++) {
        const char *name = nfy_rules_ctx_kind_name((nfy_rule_ctx_kind)k);
        if (strlen(name) == head && !strncmp(name, text, head))
            kind = k;
    }
    if (kind < 0) {
        *why = "unknown context (arg: kw: compare argparse assign: "
               "subscript: shell any dockerfile)";
        return false;
    }
    c->kind = (nfy_rule_ctx_kind)kind;
    bool wants_arg = c->kind == NFY_CTX_ARG || c->kind == NFY_CTX_KEYWORD ||
                     c->kind == NFY_CTX_ASSIGN || c->kind == NFY_CTX_SUBSCRIPT;
    if (wants_arg != (colon != NULL) || (colon && !colon[1])) {
        *why = wants_arg ? "this context needs ':NAME'"
                         : "this context takes no ':NAME'";
        return false;
    }
    if (c->kind == NFY_CTX_ARG) {
        *why = ctx_arg(ld, colon + 1, c);
        return *why == NULL;
    }
    if (colon)
        c->name =
            nfy_arena_strndup(&ld->set->arena, colon + 1, strlen(colon + 1));
    return true;
}

static void load_ctx(rules_loader *ld, nfy_rule *r, json_t *v)
{
    if (!json_is_array(v)) {
        nfy__rules_error(ld, false, "ctx must be an array of strings");
        return;
    }
    size_t n = json_array_size(v);
    nfy_rule_ctx *ctx =
        nfy_arena_calloc(&ld->set->arena, n ? n : 1, sizeof *ctx);
    for (size_t i = 0; i < n; i++) {
        json_t *item = json_array_get(v, i);
        const char *why = "must be a string";
        nfy__rules_push_index(ld, i);
        if (!json_is_string(item) ||
            !nfy__rules_parse_ctx(ld, json_string_value(item), &ctx[i], &why))
            nfy__rules_error(ld, false, "bad context: %s", why);
        nfy__rules_pop(ld);
    }
    r->ctx = ctx;
    r->nctx = n;
}

/* ---- Maps ---------------------------------------------------------------- */

static bool load_pair(rules_loader *ld, json_t *row, nfy_rule_pair *p)
{
    size_t n = json_array_size(row);
    if (!json_is_array(row) || n < 2 || n > 3)
        return false;
    json_t *from = json_array_get(row, 0);
    json_t *to = json_array_get(row, 1);
    json_t *note = n == 3 ? json_array_get(row, 2) : NULL;
    if (!json_is_string(from) || json_string_length(from) == 0 ||
        !json_is_string(to) ||
        (note && !json_is_string(note) && !json_is_null(note)))
        return false;
    p->from = nfy__rules_dup(ld, from);
    p->to = nfy__rules_dup(ld, to);
    p->note = json_is_string(note) ? nfy__rules_dup(ld, note) : NULL;
    return true;
}

static void load_map(rules_loader *ld, nfy_rule *r, json_t *v)
{
    if (!json_is_array(v)) {
        nfy__rules_error(ld, false,
                         "map must be an array of "
                         "[from, to] or [from, to, note] arrays");
        return;
    }
    size_t n = json_array_size(v);
    nfy_rule_pair *map =
        nfy_arena_calloc(&ld->set->arena, n ? n : 1, sizeof *map);
    for (size_t i = 0; i < n; i++) {
        nfy__rules_push_index(ld, i);
        if (!load_pair(ld, json_array_get(v, i), &map[i]))
            nfy__rules_error(ld, false,
                             "a map row is [\"from\", \"to\"] or "
                             "[\"from\", \"to\", \"note\"] with a "
                             "non-empty from");
        nfy__rules_pop(ld);
    }
    r->map = map;
    r->nmap = n;
}

/* ---- Fields
 * ------------------------------------------------------------------ */

static bool parse_severity(const char *s, nfy_severity *out)
{
    static const char *const names[] = {"note", "warning", "error"};
    for (int i = 0; i < 3; i++) {
        if (!strcmp(s, names[i])) {
            *out = (nfy_severity)i;
            return true;
        }
    }
    return false;
}

static void load_enum(rules_loader *ld, nfy_rule *r, const field *f, json_t *v,
                      bool *safety_set)
{
    nfy_str s =
        nfy_str_from_cstr(json_is_string(v) ? json_string_value(v) : "");
    bool ok = json_is_string(v);
    if (f->type == T_KIND)
        ok = ok && nfy_rules_kind_parse(s, &r->kind);
    else if (f->type == T_MATCH)
        ok = ok && nfy_rules_match_kind_parse(s, &r->match);
    else if (f->type == T_SAFETY) {
        ok = ok && nfy_rules_safety_parse(s, &r->safety);
        *safety_set = ok;
    } else
        ok = ok && parse_severity(s.ptr, &r->severity);
    if (!ok)
        nfy__rules_error(ld, false, "bad %s value%s%.*s%s", f->name,
                         json_is_string(v) ? " '" : "", NFY_STR_FMT(s),
                         json_is_string(v) ? "'" : "");
}

static void load_field(rules_loader *ld, nfy_rule *r, const field *f, json_t *v,
                       bool *safety_set)
{
    switch (f->type) {
    case T_STR:
        if (json_is_string(v))
            *(const char **)((char *)r + f->off) = nfy__rules_dup(ld, v);
        else if (!json_is_null(v) || f->required)
            nfy__rules_error(ld, false, "%s must be a string", f->name);
        break;
    case T_BOOL:
        if (!json_is_boolean(v))
            nfy__rules_error(ld, false, "%s must be true or false", f->name);
        else if (json_is_true(v) != (f->flag == NFY_RULE_F_OFF))
            r->flags |= f->flag;
        break;
    case T_INT:
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            json_integer_value(v) > 1000)
            nfy__rules_error(ld, false, "arg_pos must be an integer 0..1000");
        else
            r->arg_pos = (int)json_integer_value(v);
        break;
    case T_CTX:
        load_ctx(ld, r, v);
        break;
    case T_MAP:
        load_map(ld, r, v);
        break;
    case T_COMMENT:
        if (!json_is_string(v))
            nfy__rules_error(ld, false, "comment must be a string");
        break;
    default:
        load_enum(ld, r, f, v, safety_set);
        break;
    }
}

static void load_rule(rules_loader *ld, json_t *obj)
{
    if (!json_is_object(obj)) {
        nfy__rules_error(ld, false, "a rule is a JSON object");
        return;
    }
    size_t errors_before = ld->errors;
    nfy_rule *r = nfy__rules_new_rule(ld);
    bool safety_set = false;
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        const field *f = find_field(key);
        nfy__rules_push_key(ld, key);
        if (!f)
            nfy__rules_error(ld, true, "unknown field '%s'", key);
        else
            load_field(ld, r, f, v, &safety_set);
        nfy__rules_pop(ld);
    }
    for (size_t i = 0; i < NFIELDS; i++)
        if (fields[i].required && !json_object_get(obj, fields[i].name))
            nfy__rules_error(ld, false, "missing required field '%s'",
                             fields[i].name);
    if (ld->errors != errors_before)
        return;
    if (!safety_set)
        r->safety =
            r->kind == NFY_RULE_FLAG ? NFY_SAFETY_MANUAL : NFY_SAFETY_SAFE;
    r->enabled = !(r->flags & NFY_RULE_F_OFF);
    r->category = nfy_rules_category_of_id(r->id);
    if (r->match == NFY_MATCH_PASS)
        r->pass = nfy_rules_pass_parse(nfy_str_from_cstr(r->pattern));
    nfy__rules_check_rule(ld, r);
    if (ld->errors == errors_before)
        nfy_vec_push(&ld->out, r);
}

void nfy__rules_load_ours(rules_loader *ld, json_t *root)
{
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v)
    {
        nfy__rules_push_key(ld, key);
        if (!strcmp(key, "schema")) {
            if (!json_is_string(v) ||
                strcmp(json_string_value(v), "npuify-rules/1"))
                nfy__rules_error(ld, false,
                                 "schema must be \"npuify-rules/1\"");
        } else if (strcmp(key, "comment") && strcmp(key, "rules")) {
            nfy__rules_error(ld, true, "unknown field '%s'", key);
        }
        nfy__rules_pop(ld);
    }
    json_t *rules = json_object_get(root, "rules");
    nfy__rules_push_key(ld, "rules");
    if (!json_is_array(rules)) {
        nfy__rules_error(ld, !rules, "%s",
                         rules ? "rules must be an array"
                               : "missing field 'rules'");
        nfy__rules_pop(ld);
        return;
    }
    for (size_t i = 0; i < json_array_size(rules); i++) {
        nfy__rules_push_index(ld, i);
        load_rule(ld, json_array_get(rules, i));
        nfy__rules_pop(ld);
    }
    nfy__rules_pop(ld);
}

/* ---- Semantic checks
 * ---------------------------------------------------------- */

static void field_error(rules_loader *ld, const char *field_name,
                        const char *msg)
{
    nfy__rules_push_key(ld, field_name);
    nfy__rules_error(ld, false, "%s", msg);
    nfy__rules_pop(ld);
}

static bool valid_id(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n > 32 || !isalpha((unsigned char)id[0]))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)id[i]) && !strchr("_.-", id[i]))
            return false;
    return true;
}

static bool valid_version(const char *v)
{
    if (!isdigit((unsigned char)v[0]))
        return false;
    for (const char *p = v; *p; p++)
        if (!isdigit((unsigned char)*p) &&
            !(*p == '.' && isdigit((unsigned char)p[1])))
            return false;
    return true;
}

/* The end of the bracket expression opening at re[i] ('[', a leading ']'
 * or "^]" literal, "[:alpha:]"-style classes inside). */
static size_t bracket_end(const char *re, size_t i)
{
    i++;
    if (re[i] == '^')
        i++;
    if (re[i] == ']')
        i++;
    while (re[i] && re[i] != ']') {
        if (re[i] == '[' && re[i + 1] && strchr(":.=", re[i + 1])) {
            const char *close = strchr(re + i + 2, re[i + 1]);
            i = close && close[1] == ']' ? (size_t)(close - re) + 2 : i + 1;
        } else {
            i++;
        }
    }
    return re[i] ? i : i - 1;
}

/* Where the first back-reference (\1 to \9) of the ERE re is, or
 * SIZE_MAX: glibc matches those by backtracking, exponential in the line
 * ("(a*)*\1\1\1b" on 90 characters: 25 s), so a rule may not use them. */
static size_t backref_at(const char *re)
{
    for (size_t i = 0; re[i]; i++) {
        if (re[i] == '[')
            i = bracket_end(re, i);
        else if (re[i] == '\\' && re[i + 1] >= '1' && re[i + 1] <= '9')
            return i;
        else if (re[i] == '\\' && re[i + 1])
            i++;
    }
    return SIZE_MAX;
}

static void check_regex(rules_loader *ld, const char *field_name,
                        const char *re)
{
    if (!re)
        return;
    size_t br = backref_at(re);
    if (br != SIZE_MAX) {
        nfy__rules_push_key(ld, field_name);
        nfy__rules_error_in(ld, br,
                            "back-reference \\%c in a regular expression: "
                            "not supported (matching it can take "
                            "exponential time)",
                            re[br + 1]);
        nfy__rules_pop(ld);
        return;
    }
    regex_t rx;
    int rc = regcomp(&rx, re, REG_EXTENDED | REG_ICASE | REG_NOSUB);
    if (rc != 0) {
        char buf[128];
        regerror(rc, &rx, buf, sizeof buf);
        nfy__rules_push_key(ld, field_name);
        nfy__rules_error(ld, false, "invalid regular expression: %s", buf);
        nfy__rules_pop(ld);
        return;
    }
    regfree(&rx);
}

#define BIT(m) (1u << (m))

/* Which match kinds each rule kind accepts. */
static unsigned allowed_matches(nfy_rule_kind k)
{
    switch (k) {
    case NFY_RULE_RENAME:
        return BIT(NFY_MATCH_NAME) | BIT(NFY_MATCH_MODULE) |
               BIT(NFY_MATCH_METHOD) | BIT(NFY_MATCH_ATTR);
    case NFY_RULE_REWRITE_ARG:
        return BIT(NFY_MATCH_CALL) | BIT(NFY_MATCH_METHOD) |
               BIT(NFY_MATCH_PASS);
    case NFY_RULE_REWRITE_STRING:
        return BIT(NFY_MATCH_STRING) | BIT(NFY_MATCH_ENV);
    case NFY_RULE_INSERT_IMPORT:
    case NFY_RULE_REMOVE_IMPORT:
        return BIT(NFY_MATCH_IMPORT);
    default:
        return ~0u;
    }
}

/* A replacement that lands inside a statement (a rename, an argument, a
 * string) may not hold a line break: it would split the statement. */
static void check_inline_replacement(rules_loader *ld, const nfy_rule *r)
{
    if (!r->replacement ||
        (r->kind != NFY_RULE_RENAME && r->kind != NFY_RULE_REWRITE_ARG &&
         r->kind != NFY_RULE_REWRITE_STRING))
        return;
    size_t at = strcspn(r->replacement, "\r\n");
    if (!r->replacement[at])
        return;
    nfy__rules_push_key(ld, "replacement");
    nfy__rules_error_in(ld, at,
                        "a line break in the replacement would split the "
                        "statement it lands in");
    nfy__rules_pop(ld);
}

static void check_kind_data(rules_loader *ld, const nfy_rule *r)
{
    bool has_repl = r->replacement && *r->replacement;
    check_inline_replacement(ld, r);
    switch (r->kind) {
    case NFY_RULE_RENAME:
        if (!has_repl && r->nmap == 0)
            field_error(ld, "replacement",
                        "a rename needs a replacement "
                        "or a map");
        break;
    case NFY_RULE_REWRITE_ARG:
        if (r->match != NFY_MATCH_PASS && r->arg_pos < 0 && !r->arg_kw &&
            r->nctx == 0)
            field_error(ld, "arg_pos",
                        "rewrite-argument needs arg_pos, "
                        "arg_kw or ctx");
        if (r->match != NFY_MATCH_PASS && !r->replacement &&
            !(r->flags & NFY_RULE_F_DELETE))
            field_error(ld, "replacement",
                        "rewrite-argument needs a "
                        "replacement or delete: true");
        break;
    case NFY_RULE_REWRITE_STRING:
        if (!r->replacement && r->nmap == 0)
            field_error(ld, "replacement",
                        "a string rewrite needs a "
                        "replacement (or, for env, a map)");
        if (r->match == NFY_MATCH_STRING && r->nctx == 0)
            field_error(ld, "ctx", "a string rewrite needs contexts");
        break;
    case NFY_RULE_INSERT_IMPORT:
        if (!has_repl)
            field_error(ld, "replacement",
                        "insert-import needs the "
                        "statement as replacement");
        break;
    case NFY_RULE_FLAG:
        if (r->safety != NFY_SAFETY_MANUAL)
            field_error(ld, "safety",
                        "a flag rule only reports: safety "
                        "must be manual");
        break;
    default:
        break;
    }
}

static void check_flags(rules_loader *ld, const nfy_rule *r)
{
    if ((r->flags & NFY_RULE_F_DELETE) && r->kind != NFY_RULE_REWRITE_ARG)
        field_error(ld, "delete", "delete applies to rewrite-argument only");
    if ((r->flags & (NFY_RULE_F_DEVICE_FORM | NFY_RULE_F_SUBSTRING)) &&
        r->match != NFY_MATCH_STRING)
        field_error(
            ld, (r->flags & NFY_RULE_F_SUBSTRING) ? "substring" : "device_form",
            "applies to match \"string\" only");
    if ((r->flags & NFY_RULE_F_APIDB) && r->kind != NFY_RULE_RENAME)
        field_error(ld, "apidb", "apidb applies to renames only");
}

/* A pass rule names a registered pass and has the kind that pass takes. */
static void check_pass(rules_loader *ld, const nfy_rule *r)
{
    if (r->match != NFY_MATCH_PASS)
        return;
    const nfy_pass_info *p = nfy_rules_pass_info_of(r->pass);
    if (p == NULL) {
        nfy__rules_push_key(ld, "pattern");
        nfy__rules_error(ld, false, "unknown pass '%s'", r->pattern);
        nfy__rules_pop(ld);
    } else if (p->kind != (int)r->kind) {
        nfy__rules_push_key(ld, "kind");
        nfy__rules_error(ld, false, "pass '%s' takes kind \"%s\"", p->name,
                         nfy_rules_kind_name((nfy_rule_kind)p->kind));
        nfy__rules_pop(ld);
    }
}

/* Our schema names registered options only (msFmkTransplt's feature
 * switches may be anything; theirs simply never turn on). */
static void check_option(rules_loader *ld, const nfy_rule *r)
{
    if (!ld->ours || r->option == NULL)
        return;
    nfy_str rest = nfy_str_from_cstr(r->option);
    while (rest.len > 0) {
        ptrdiff_t comma = nfy_str_find_char(rest, ',');
        size_t n = comma < 0 ? rest.len : (size_t)comma;
        nfy_str one = nfy_str_slice(rest, 0, n);
        if (!nfy_rules_option_known(one, NULL)) {
            nfy__rules_push_key(ld, "option");
            nfy__rules_error(ld, false, "unknown option '%.*s'", (int)one.len,
                             one.ptr);
            nfy__rules_pop(ld);
        }
        rest = nfy_str_slice(rest, comma < 0 ? rest.len : n + 1, rest.len);
    }
}

void nfy__rules_check_rule(rules_loader *ld, const nfy_rule *r)
{
    if (!valid_id(r->id))
        field_error(ld, "id",
                    "an id is a letter then up to 31 letters, "
                    "digits, '_', '.' or '-'");
    if (!(allowed_matches(r->kind) & BIT(r->match))) {
        nfy__rules_push_key(ld, "match");
        nfy__rules_error(ld, false, "match \"%s\" does not fit kind \"%s\"",
                         nfy_rules_match_kind_name(r->match),
                         nfy_rules_kind_name(r->kind));
        nfy__rules_pop(ld);
    }
    if (!*r->pattern && r->nmap == 0)
        field_error(ld, "pattern", "pattern is empty");
    if (!*r->message)
        field_error(ld, "message", "message is empty");
    check_kind_data(ld, r);
    check_pass(ld, r);
    check_option(ld, r);
    check_flags(ld, r);
    check_regex(ld, "arg_match", r->arg_match);
    if (r->match == NFY_MATCH_LINE)
        check_regex(ld, "pattern", r->pattern);
    check_regex(ld, "skip", r->skip);
    if (r->min_torch && !valid_version(r->min_torch))
        field_error(ld, "min_torch", "a version is like \"2.1\"");
    if (r->max_torch && !valid_version(r->max_torch))
        field_error(ld, "max_torch", "a version is like \"2.1\"");
}
