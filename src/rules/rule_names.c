/*
 * Names of the rule enumerations and the small pure helpers around them:
 * category from ID, report operation type, torch version comparison and
 * bounds, option gates, and the glob matcher used for ENV/FILE/ASSIGN.
 */
#include <ctype.h>
#include <string.h>

#include "rules/rules_internal.h"

#define NAME_TEXT(name, text) text,

static const char *const kind_names[] = {NFY_RULE_KIND_MAP(NAME_TEXT)};
static const char *const match_names[] = {NFY_MATCH_MAP(NAME_TEXT)};
static const char *const safety_names[] = {NFY_SAFETY_MAP(NAME_TEXT)};
static const char *const cat_names[] = {NFY_RULE_CAT_MAP(NAME_TEXT)};
static const char *const ctx_names[] = {NFY_CTX_MAP(NAME_TEXT)};

#undef NAME_TEXT

static const char *name_at(const char *const *names, size_t n, int i)
{
    return i >= 0 && (size_t)i < n ? names[i] : "?";
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const char *nfy_rules_kind_name(nfy_rule_kind k)
{
    return name_at(kind_names, COUNT(kind_names), (int)k);
}

const char *nfy_rules_match_kind_name(nfy_match_kind m)
{
    return name_at(match_names, COUNT(match_names), (int)m);
}

const char *nfy_rules_safety_name(nfy_rule_safety s)
{
    return name_at(safety_names, COUNT(safety_names), (int)s);
}

const char *nfy_rules_category_name(nfy_rule_category c)
{
    return name_at(cat_names, COUNT(cat_names), (int)c);
}

const char *nfy_rules_ctx_kind_name(nfy_rule_ctx_kind k)
{
    return name_at(ctx_names, COUNT(ctx_names), (int)k);
}

static bool parse_name(const char *const *names, size_t n, nfy_str s, int *out)
{
    for (size_t i = 0; i < n; i++) {
        if (nfy_str_eq_cstr(s, names[i])) {
            *out = (int)i;
            return true;
        }
    }
    return false;
}

bool nfy_rules_kind_parse(nfy_str s, nfy_rule_kind *out)
{
    int v;
    if (!parse_name(kind_names, COUNT(kind_names), s, &v))
        return false;
    *out = (nfy_rule_kind)v;
    return true;
}

bool nfy_rules_match_kind_parse(nfy_str s, nfy_match_kind *out)
{
    int v;
    if (!parse_name(match_names, COUNT(match_names), s, &v))
        return false;
    *out = (nfy_match_kind)v;
    return true;
}

bool nfy_rules_safety_parse(nfy_str s, nfy_rule_safety *out)
{
    int v;
    if (!parse_name(safety_names, COUNT(safety_names), s, &v))
        return false;
    *out = (nfy_rule_safety)v;
    return true;
}

nfy_rule_category nfy_rules_category_of_id(const char *id)
{
    if (!id || strncmp(id, "NPU", 3) != 0 || strlen(id) != 6)
        return NFY_RULE_CAT_CUSTOM;
    for (int i = 3; i < 6; i++)
        if (!isdigit((unsigned char)id[i]))
            return NFY_RULE_CAT_CUSTOM;
    int digit = id[3] - '0';
    if (digit > 7)
        return NFY_RULE_CAT_CUSTOM;
    return (nfy_rule_category)(NFY_RULE_CAT_IMPORT + digit);
}

const char *nfy_rules_operation(const nfy_rule *r)
{
    switch (r->kind) {
    case NFY_RULE_INSERT_IMPORT:
        return "INSERT";
    case NFY_RULE_REMOVE_IMPORT:
        return "DELETE";
    case NFY_RULE_FLAG:
        return "UNSUPPORTED";
    default:
        return (r->flags & NFY_RULE_F_DELETE) ? "DELETE" : "MODIFY";
    }
}

/* Next numeric component of a dotted version; *p advances past it. */
static long version_part(const char **p, bool *present)
{
    const char *s = *p;
    long v = 0;
    *present = isdigit((unsigned char)*s) != 0;
    while (isdigit((unsigned char)*s)) {
        if (v < 100000000)
            v = v * 10 + (*s - '0');
        s++;
    }
    while (*s && *s != '.')
        s++; /* ignore suffixes such as "rc1" or "+cpu" */
    if (*s == '.')
        s++;
    *p = s;
    return v;
}

int nfy_rules_version_cmp(const char *a, const char *b)
{
    a = a ? a : "";
    b = b ? b : "";
    while (*a || *b) {
        bool pa, pb;
        long va = version_part(&a, &pa);
        long vb = version_part(&b, &pb);
        if (va != vb)
            return va < vb ? -1 : 1;
        if (!pa && !pb && !*a && !*b)
            break;
    }
    return 0;
}

/* Compare ver to bound on the bound's precision: "2.1.0" is within "2.1". */
static int version_cmp_prefix(const char *ver, const char *bound)
{
    size_t parts = 1;
    for (const char *p = bound; *p; p++)
        parts += *p == '.';
    const char *v = ver;
    const char *b = bound;
    for (size_t i = 0; i < parts; i++) {
        bool pv, pb;
        long vv = version_part(&v, &pv);
        long vb = version_part(&b, &pb);
        if (vv != vb)
            return vv < vb ? -1 : 1;
    }
    return 0;
}

bool nfy_rules_applies_to_torch(const nfy_rule *r, const char *ver)
{
    if (!ver || !*ver)
        return r->max_torch == NULL;
    if (r->min_torch && version_cmp_prefix(ver, r->min_torch) < 0)
        return false;
    if (r->max_torch && version_cmp_prefix(ver, r->max_torch) > 0)
        return false;
    return true;
}

bool nfy_rules_option_on(const nfy_rule *r, const char *const *options)
{
    if (!r->option || !*r->option)
        return true;
    if (!options)
        return false;
    const char *p = r->option;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        for (const char *const *o = options; *o; o++)
            if (strlen(*o) == n && !strncmp(*o, p, n))
                return true;
        p += n + (end ? 1 : 0);
    }
    return false;
}

static bool byte_eq(char a, char b, bool nocase)
{
    if (nocase)
        return tolower((unsigned char)a) == tolower((unsigned char)b);
    return a == b;
}

/* Iterative '*' matcher over one alternative [g, gend) (no recursion). */
static bool glob_one(const char *g, const char *gend, nfy_str s, bool nocase)
{
    size_t si = 0;
    const char *star = NULL;
    size_t star_si = 0;
    while (si < s.len) {
        if (g < gend && (*g == '?' || byte_eq(*g, s.ptr[si], nocase))) {
            g++;
            si++;
        } else if (g < gend && *g == '*') {
            star = g++;
            star_si = si;
        } else if (star) {
            g = star + 1;
            si = ++star_si;
        } else {
            return false;
        }
    }
    while (g < gend && *g == '*')
        g++;
    return g == gend;
}

static bool glob_any(const char *glob, nfy_str s, bool nocase)
{
    if (!glob)
        return false;
    const char *p = glob;
    for (;;) {
        const char *bar = strchr(p, '|');
        const char *end = bar ? bar : p + strlen(p);
        if (glob_one(p, end, s, nocase))
            return true;
        if (!bar)
            return false;
        p = bar + 1;
    }
}

bool nfy_rules_glob(const char *glob, nfy_str s)
{
    return glob_any(glob, s, false);
}

bool nfy_rules_glob_nocase(const char *glob, nfy_str s)
{
    return glob_any(glob, s, true);
}

const nfy_rule_pair *nfy_rules_map_find(const nfy_rule *r, nfy_str key)
{
    for (size_t i = 0; i < r->nmap; i++)
        if (nfy_str_eq_cstr(key, r->map[i].from))
            return &r->map[i];
    return NULL;
}

bool nfy_rules_has_tag(const nfy_rule *r, const char *tag)
{
    if (r->tags == NULL)
        return false;
    size_t n = strlen(tag);
    for (const char *p = r->tags; *p;) {
        while (*p == ',' || *p == ' ')
            p++;
        size_t len = strcspn(p, ", ");
        if (len == n && strncmp(p, tag, n) == 0)
            return true;
        p += len;
    }
    return false;
}
