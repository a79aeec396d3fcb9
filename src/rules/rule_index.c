/*
 * Name lookup for the passes. Patterns and map rows of name-like rules are
 * sorted by (space, key); each run of equal keys gets a slot in an
 * open-addressing hash table. A dotted qualified name is looked up once per
 * prefix, and FNV-1a is computed incrementally, so all prefix hashes come
 * from one pass over the name. STRING, ENV and FILE rules (few, matched by
 * value or glob) are scanned. Results are ranked best first without
 * allocating: the caller's array is kept sorted and only the best `max`
 * hits are stored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/htab.h"
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

/*
 * Index one rule: its pattern, or its map rows when it has a map. Insert
 * rules are left out: their pattern is a trigger for the whole file, found
 * by iterating kind INSERT_IMPORT, not something matched at a place.
 */
static void index_rule(nfy_rule_set *set, const nfy_rule *r)
{
    nfy_lookup_space space;
    bool prefix = false;
    if (r->kind == NFY_RULE_INSERT_IMPORT)
        return;
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

/* ---- Hashing --------------------------------------------------------- */

/* The slot hash of (space, key) from FNV-1a over the key's bytes. */
static uint64_t key_hash(nfy_lookup_space space, uint64_t fnv)
{
    uint64_t h = fnv ^ ((uint64_t)space + 1) * NFY_HASH_GOLDEN;
    return h ^ (h >> 29);
}

static void build_slots(nfy_rule_set *set)
{
    size_t runs = 0;
    for (size_t i = 0; i < set->index.len; i++)
        runs += i == 0 || entry_cmp_key(set->index.items[i].space,
                                        set->index.items[i].key,
                                        &set->index.items[i - 1]) != 0;
    size_t n = 16;
    while (n < runs * 2)
        n *= 2;
    free(set->slots);
    set->slots = calloc(n, sizeof *set->slots);
    if (!set->slots) {
        fputs("npuify: out of memory\n", stderr);
        abort();
    }
    set->nslots = n;
    for (size_t i = 0; i < set->index.len;) {
        const rules_entry *e = &set->index.items[i];
        size_t j = i + 1;
        while (j < set->index.len &&
               entry_cmp_key(e->space, e->key, &set->index.items[j]) == 0)
            j++;
        uint64_t h = key_hash(e->space, nfy_str_hash(e->key));
        size_t k = (size_t)h & (n - 1);
        while (set->slots[k].count)
            k = (k + 1) & (n - 1);
        set->slots[k] = (rules_slot){h, (uint32_t)i, (uint32_t)(j - i)};
        i = j;
    }
}

/* The per-kind chains of set's rules (see nfy_rule_set); none when the
 * set is too large for 32-bit positions. */
static void build_kind_chains(nfy_rule_set *set)
{
    size_t n = set->rules.len;
    free(set->kind_next);
    set->kind_next = NULL;
    set->kind_count = 0;
    if (n >= UINT32_MAX)
        return;
    set->kind_next = malloc((n + 1) * sizeof *set->kind_next);
    if (set->kind_next == NULL)
        return; /* iteration scans every rule instead */
    for (int k = 0; k < NFY_RULE_KIND_COUNT; k++)
        set->kind_first[k] = (uint32_t)n;
    for (size_t i = n; i-- > 0;) {
        unsigned k = (unsigned)set->rules.items[i]->kind;
        if (k >= NFY_RULE_KIND_COUNT) {
            free(set->kind_next);
            set->kind_next = NULL;
            return;
        }
        set->kind_next[i] = set->kind_first[k];
        set->kind_first[k] = (uint32_t)i;
    }
    set->kind_count = n;
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
    build_slots(set);
    nfy__rules_ids_build(set);
    build_kind_chains(set);
}

void nfy__rules_index_free(nfy_rule_set *set)
{
    nfy_vec_free(&set->index);
    free(set->slots);
    set->slots = NULL;
    set->nslots = 0;
    nfy__rules_ids_free(set);
    free(set->kind_next);
    set->kind_next = NULL;
    set->kind_count = 0;
}

/* ---- Ranking ------------------------------------------------------------- */

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

#define SEEN_MAX 16

/*
 * Keys are visited longest first, so a rule's first hit is its best one:
 * later hits of the same rule (a shorter map row, a catch-all row) are
 * dropped. Past SEEN_MAX distinct rules there is no deduplication.
 */
typedef struct {
    nfy_rule_hit *hits;
    size_t max;
    size_t stored;
    size_t total;
    const nfy_rule *seen[SEEN_MAX];
    size_t nseen;
} hit_list;

static bool seen_before(hit_list *hl, const nfy_rule *r)
{
    for (size_t i = 0; i < hl->nseen; i++)
        if (hl->seen[i] == r)
            return true;
    if (hl->nseen < SEEN_MAX)
        hl->seen[hl->nseen++] = r;
    return false;
}

static void hit_add(hit_list *hl, const nfy_rule *r, const nfy_rule_pair *p,
                    size_t len)
{
    if (!r->enabled || seen_before(hl, r))
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

/* ---- Indexed spaces ------------------------------------------------------ */

/* The run of index entries with (space, key), or NULL. */
static const rules_slot *find_run(const nfy_rule_set *set,
                                  nfy_lookup_space space, nfy_str key,
                                  uint64_t fnv)
{
    if (set->nslots == 0)
        return NULL;
    uint64_t h = key_hash(space, fnv);
    size_t mask = set->nslots - 1;
    for (size_t k = (size_t)h & mask; set->slots[k].count; k = (k + 1) & mask) {
        const rules_slot *sl = &set->slots[k];
        if (sl->hash == h &&
            entry_cmp_key(space, key, &set->index.items[sl->first]) == 0)
            return sl;
    }
    return NULL;
}

static void add_key_hits(const nfy_rule_set *set, nfy_lookup_space space,
                         nfy_str key, uint64_t fnv, bool whole, hit_list *hl)
{
    const rules_slot *sl = find_run(set, space, key, fnv);
    for (uint32_t i = 0; sl && i < sl->count; i++) {
        const rules_entry *e = &set->index.items[sl->first + i];
        if (whole || e->prefix)
            hit_add(hl, e->rule, e->pair, key.len);
    }
}

/* Bare-name CALL patterns ("set_device") match the callee's last name. */
static void add_last_name_hits(const nfy_rule_set *set, nfy_str qname,
                               size_t last_dot, hit_list *hl)
{
    nfy_str last = nfy_str_slice(qname, last_dot + 1, qname.len);
    const rules_slot *sl =
        find_run(set, NFY_LOOKUP_QUALNAME, last, nfy_str_hash(last));
    for (uint32_t i = 0; sl && i < sl->count; i++) {
        const rules_entry *e = &set->index.items[sl->first + i];
        if (e->rule->match == NFY_MATCH_CALL)
            hit_add(hl, e->rule, e->pair, last.len);
    }
}

#define PREFIX_MAX 32

/*
 * The whole name, then each dotted prefix, longest first (so a rule's first
 * hit is its best), then the last name for bare CALL patterns. Names with
 * more than PREFIX_MAX dots only have their first PREFIX_MAX prefixes tried.
 */
static void lookup_qualname(const nfy_rule_set *set, nfy_str qname,
                            hit_list *hl)
{
    size_t dots[PREFIX_MAX];
    uint64_t fnvs[PREFIX_MAX];
    size_t ndots = 0, last_dot = 0;
    bool any_dot = false;
    uint64_t h = NFY_STR_HASH_SEED;
    for (size_t i = 0; i < qname.len; i++) {
        if (qname.ptr[i] == '.') {
            if (ndots < PREFIX_MAX && i > 0) {
                dots[ndots] = i;
                fnvs[ndots++] = h;
            }
            last_dot = i;
            any_dot = true;
        }
        h = nfy_str_hash_step(h, (unsigned char)qname.ptr[i]);
    }
    add_key_hits(set, NFY_LOOKUP_QUALNAME, qname, h, true, hl);
    while (ndots-- > 0)
        add_key_hits(set, NFY_LOOKUP_QUALNAME,
                     nfy_str_slice(qname, 0, dots[ndots]), fnvs[ndots], false,
                     hl);
    if (any_dot)
        add_last_name_hits(set, qname, last_dot, hl);
}

/* ---- Scanned spaces
 * ---------------------------------------------------------- */

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
    const nfy_rule_pair *p = nfy_rules_map_find(r, name);
    if (p)
        hit_add(hl, r, p, name.len);
    else if (nfy_rules_glob(r->pattern, name))
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
                 nfy_rules_glob(r->pattern, key))
            hit_add(hl, r, NULL, key.len);
    }
}

size_t nfy_rules_set_lookup(const nfy_rule_set *set, nfy_lookup_space space,
                            nfy_str key, nfy_rule_hit *hits, size_t max)
{
    hit_list hl = {.hits = hits, .max = hits ? max : 0};
    if (!set || !key.ptr)
        return 0;
    switch (space) {
    case NFY_LOOKUP_QUALNAME:
        lookup_qualname(set, key, &hl);
        break;
    case NFY_LOOKUP_MEMBER:
    case NFY_LOOKUP_KEYWORD:
        add_key_hits(set, space, key, nfy_str_hash(key), true, &hl);
        break;
    default:
        lookup_scanned(set, space, key, &hl);
        break;
    }
    return hl.total;
}
