/*
 * Name lookup for the passes. Patterns and map rows of name-like rules go
 * into one array sorted by (space, key), searched by binary search: an exact
 * key is one search, a dotted qualified name one search per prefix. STRING,
 * ENV and FILE rules (few, matched by value or glob) are scanned. Results
 * are ranked best first without allocating: the caller's array is kept
 * sorted and only the best `max` hits are stored.
 */
#include <stdlib.h>
#include <string.h>

#include "rules/rules_internal.h"

static int entry_cmp_key(nfy_lookup_space space, nfy_str key,
                         const rules_entry *e)
{
    if (space != e->space)
        return space < e->space ? -1 : 1;
    return nfy_str_cmp(key, e->key);
}

static int entry_cmp(const void *a, const void *b)
{
    const rules_entry *x = a;
    const rules_entry *y = b;
    int c = entry_cmp_key(x->space, x->key, y);
    if (c)
        return c;
    return strcmp(x->rule->id, y->rule->id);
}

static void add_entry(nfy_rule_set *set, nfy_lookup_space space,
                      const char *key, const nfy_rule *r,
                      const nfy_rule_pair *pair, bool prefix)
{
    rules_entry e = {space, nfy_str_from_cstr(key), r, pair, prefix};
    nfy_vec_push(&set->index, e);
}

/* Index one rule: its pattern, or its map rows when it has a map. */
static void index_rule(nfy_rule_set *set, const nfy_rule *r)
{
    nfy_lookup_space space;
    bool prefix = false;
    switch (r->match) {
    case NFY_MATCH_MODULE:
    case NFY_MATCH_IMPORT:
        prefix = true;
        /* fall through */
    case NFY_MATCH_NAME:
    case NFY_MATCH_CALL:
        space = NFY_LOOKUP_QUALNAME;
        break;
    case NFY_MATCH_METHOD:
    case NFY_MATCH_ATTR:
        space = NFY_LOOKUP_MEMBER;
        break;
    case NFY_MATCH_KEYWORD:
        space = NFY_LOOKUP_KEYWORD;
        break;
    case NFY_MATCH_STRING:
    case NFY_MATCH_ENV:
    case NFY_MATCH_FILE:
        nfy_vec_push(&set->scanned, (nfy_rule *)r);
        return;
    default:
        return; /* PASS rules are found by ID or iteration */
    }
    if (r->nmap == 0) {
        add_entry(set, space, r->pattern, r, NULL, prefix);
        return;
    }
    for (size_t i = 0; i < r->nmap; i++)
        add_entry(set, space, r->map[i].from, r, &r->map[i], prefix);
}

void nfy__rules_reindex(nfy_rule_set *set)
{
    set->index.len = 0;
    set->scanned.len = 0;
    for (size_t i = 0; i < set->rules.len; i++)
        index_rule(set, set->rules.items[i]);
    if (set->index.len > 1)
        qsort(set->index.items, set->index.len, sizeof *set->index.items,
              entry_cmp);
}

/* ---- Ranking -------------------------------------------------------------- */

static int hit_rank(const nfy_rule_hit *a, const nfy_rule_hit *b)
{
    if (a->matched_len != b->matched_len)
        return a->matched_len > b->matched_len ? -1 : 1;
    bool fa = a->rule->kind == NFY_RULE_FLAG;
    bool fb = b->rule->kind == NFY_RULE_FLAG;
    if (fa != fb)
        return fa ? 1 : -1;
    return strcmp(a->rule->id, b->rule->id);
}

typedef struct {
    nfy_rule_hit *hits;
    size_t max;
    size_t stored;
    size_t total;
} hit_list;

static void hit_add(hit_list *hl, const nfy_rule *r, const nfy_rule_pair *p,
                    size_t len)
{
    if (!r->enabled)
        return;
    nfy_rule_hit h = {r, p, len};
    hl->total++;
    if (hl->max == 0)
        return;
    size_t pos = hl->stored;
    if (hl->stored == hl->max) {
        if (hit_rank(&h, &hl->hits[hl->max - 1]) >= 0)
            return;
        pos = hl->max - 1; /* the worst one falls out */
    } else {
        hl->stored++;
    }
    while (pos > 0 && hit_rank(&h, &hl->hits[pos - 1]) < 0) {
        hl->hits[pos] = hl->hits[pos - 1];
        pos--;
    }
    hl->hits[pos] = h;
}

/* ---- Indexed spaces --------------------------------------------------------- */

/* First index entry with (space, key), or index.len. */
static size_t lower_bound(const nfy_rule_set *set, nfy_lookup_space space,
                          nfy_str key)
{
    size_t lo = 0, hi = set->index.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (entry_cmp_key(space, key, &set->index.items[mid]) > 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void add_key_hits(const nfy_rule_set *set, nfy_lookup_space space,
                         nfy_str key, bool whole, hit_list *hl)
{
    for (size_t i = lower_bound(set, space, key); i < set->index.len; i++) {
        const rules_entry *e = &set->index.items[i];
        if (entry_cmp_key(space, key, e) != 0)
            break;
        if (whole || e->prefix)
            hit_add(hl, e->rule, e->pair, key.len);
    }
}

/* Bare-name CALL patterns ("set_device") match the callee's last name. */
static void add_last_name_hits(const nfy_rule_set *set, nfy_str qname,
                               hit_list *hl)
{
    ptrdiff_t dot = -1;
    for (size_t i = 0; i < qname.len; i++)
        if (qname.ptr[i] == '.')
            dot = (ptrdiff_t)i;
    if (dot < 0)
        return;
    nfy_str last = nfy_str_slice(qname, (size_t)dot + 1, qname.len);
    for (size_t i = lower_bound(set, NFY_LOOKUP_QUALNAME, last);
         i < set->index.len; i++) {
        const rules_entry *e = &set->index.items[i];
        if (entry_cmp_key(NFY_LOOKUP_QUALNAME, last, e) != 0)
            break;
        if (e->rule->match == NFY_MATCH_CALL)
            hit_add(hl, e->rule, e->pair, last.len);
    }
}

static void lookup_qualname(const nfy_rule_set *set, nfy_str qname,
                            hit_list *hl)
{
    add_key_hits(set, NFY_LOOKUP_QUALNAME, qname, true, hl);
    for (size_t i = qname.len; i-- > 1;)
        if (qname.ptr[i] == '.')
            add_key_hits(set, NFY_LOOKUP_QUALNAME,
                         nfy_str_slice(qname, 0, i), false, hl);
    add_last_name_hits(set, qname, hl);
}

/* ---- Scanned spaces ---------------------------------------------------------- */

static bool str_contains(nfy_str hay, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0 || n > hay.len)
        return n == 0;
    for (size_t i = 0; i + n <= hay.len; i++)
        if (!memcmp(hay.ptr + i, needle, n))
            return true;
    return false;
}

static void scan_string(const nfy_rule *r, nfy_str v, hit_list *hl)
{
    nfy_str pat = nfy_str_from_cstr(r->pattern);
    if (nfy_str_eq(v, pat)) {
        hit_add(hl, r, NULL, pat.len);
    } else if ((r->flags & NFY_RULE_F_DEVICE_FORM) && v.len > pat.len &&
               nfy_str_starts_with(v, pat) && v.ptr[pat.len] == ':') {
        hit_add(hl, r, NULL, pat.len);
    } else if ((r->flags & NFY_RULE_F_SUBSTRING) &&
               str_contains(v, r->pattern)) {
        hit_add(hl, r, NULL, pat.len);
    }
}

static void scan_env(const nfy_rule *r, nfy_str name, hit_list *hl)
{
    const nfy_rule_pair *p = nfy_rule_map_find(r, name);
    if (p)
        hit_add(hl, r, p, name.len);
    else if (nfy_rule_glob(r->pattern, name))
        hit_add(hl, r, NULL, 0); /* glob only: no counterpart known */
}

static void lookup_scanned(const nfy_rule_set *set, nfy_lookup_space space,
                           nfy_str key, hit_list *hl)
{
    for (size_t i = 0; i < set->scanned.len; i++) {
        const nfy_rule *r = set->scanned.items[i];
        if (space == NFY_LOOKUP_STRING && r->match == NFY_MATCH_STRING)
            scan_string(r, key, hl);
        else if (space == NFY_LOOKUP_ENV && r->match == NFY_MATCH_ENV)
            scan_env(r, key, hl);
        else if (space == NFY_LOOKUP_FILE && r->match == NFY_MATCH_FILE &&
                 nfy_rule_glob(r->pattern, key))
            hit_add(hl, r, NULL, key.len);
    }
}

size_t nfy_rule_set_lookup(const nfy_rule_set *set, nfy_lookup_space space,
                           nfy_str key, nfy_rule_hit *hits, size_t max)
{
    hit_list hl = {hits, hits ? max : 0, 0, 0};
    if (!set || !key.ptr)
        return 0;
    switch (space) {
    case NFY_LOOKUP_QUALNAME:
        lookup_qualname(set, key, &hl);
        break;
    case NFY_LOOKUP_MEMBER:
    case NFY_LOOKUP_KEYWORD:
        add_key_hits(set, space, key, true, &hl);
        break;
    default:
        lookup_scanned(set, space, key, &hl);
        break;
    }
    return hl.total;
}
