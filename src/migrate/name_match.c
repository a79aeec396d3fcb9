/*
 * Matching rules against qualified names (torch.cuda.synchronize) and the
 * component arithmetic of renames: which dotted components of a name change
 * when a rule's `from` is replaced by its `to`, so that an edit touches only
 * the differing tokens (th.cuda.X -> th.npu.X keeps the alias `th`).
 */
#include "migrate/name_match.h"

#include <string.h>

nfy_str nfy__mig_comp(nfy_str q, uint32_t i)
{
    size_t start = 0;
    for (size_t p = 0; p <= q.len; p++) {
        if (p == q.len || q.ptr[p] == '.') {
            if (i == 0)
                return nfy_str_slice(q, start, p);
            i--;
            start = p + 1;
        }
    }
    return nfy_str_slice(q, q.len, q.len);
}

/* Does q equal f or lie below it (f + "." prefix)? */
bool nfy__mig_q_under(nfy_str q, nfy_str f)
{
    if (f.len == 0 || !nfy_str_starts_with(q, f))
        return false;
    return q.len == f.len || q.ptr[f.len] == '.';
}

/*
 * Does q start with the C string s (NULL: "")? *n gets strlen(s) when it
 * does. One pass, no strlen: most rules fail on the first byte.
 */
static inline bool cstr_prefix(nfy_str q, const char *s, size_t *n)
{
    size_t i = 0;
    if (s != NULL) {
        for (; s[i]; i++) {
            if (i >= q.len || q.ptr[i] != s[i])
                return false;
        }
    }
    *n = i;
    return true;
}

/* from_fits with the pattern as a C string; *n gets its length on a fit. */
static bool from_fits(const nfy_rule *r, nfy_str q, const char *from,
                      bool is_call, size_t *n)
{
    switch (r->match) {
    case NFY_MATCH_NAME:
    case NFY_MATCH_MODULE: /* nfy__mig_q_under */
        return cstr_prefix(q, from, n) && *n > 0 &&
               (q.len == *n || q.ptr[*n] == '.');
    case NFY_MATCH_CALL:
        return is_call && cstr_prefix(q, from, n) && *n == q.len;
    default:
        return false;
    }
}

bool nfy__mig_q_under_cstr(nfy_str q, const char *f)
{
    size_t n;
    return cstr_prefix(q, f, &n) && n > 0 && (q.len == n || q.ptr[n] == '.');
}

bool nfy__mig_qmatch_rule(const nfy_rule *r, nfy_str q, bool is_call,
                          mig_qmatch *out)
{
    size_t n = 0;
    if (r->nmap == 0) {
        if (!from_fits(r, q, r->pattern, is_call, &n))
            return false;
        *out =
            (mig_qmatch){r, NULL, (nfy_str){r->pattern, n}, r->replacement, 0};
    } else {
        if (r->pattern != NULL && r->pattern[0] != '\0' &&
            !cstr_prefix(q, r->pattern, &n))
            return false;
        const nfy_rule_pair *best = NULL;
        size_t best_len = 0;
        for (size_t i = 0; i < r->nmap; i++) {
            size_t f = 0;
            if (from_fits(r, q, r->map[i].from, is_call, &f) &&
                (best == NULL || f > best_len)) {
                best = &r->map[i];
                best_len = f;
            }
        }
        if (best == NULL)
            return false;
        *out =
            (mig_qmatch){r, best, (nfy_str){best->from, best_len}, best->to, 0};
    }
    out->score = (int)out->from.len * 2 + (r->match != NFY_MATCH_MODULE);
    return true;
}

/* ---- renames as component ranges ----------------------------------------- */

static bool comp_eq(nfy_str a, uint32_t i, nfy_str b, uint32_t j)
{
    return nfy_str_eq(nfy__mig_comp(a, i), nfy__mig_comp(b, j));
}

void nfy__mig_rename_plan(nfy_str from, nfy_str to, mig_rplan *p)
{
    uint32_t k = nfy_resolve_dotted_count(from),
             n = nfy_resolve_dotted_count(to);
    uint32_t d = 0, e = 0;
    while (d < k && d < n && comp_eq(from, d, to, d))
        d++;
    while (e < k - d && e < n - d && comp_eq(from, k - 1 - e, to, n - 1 - e))
        e++;
    *p = (mig_rplan){k, n, d, e};
}

char *nfy__mig_join_comps(nfy_arena *a, nfy_str q, uint32_t first, uint32_t end)
{
    nfy_buf b = NFY_BUF_INIT;
    for (uint32_t i = first; i < end; i++) {
        if (i > first)
            (void)nfy_buf_addch(&b, '.');
        (void)nfy_buf_addview(&b, nfy__mig_comp(q, i));
    }
    char *s = nfy_arena_strndup(a, nfy_buf_cstr(&b), b.len);
    nfy_buf_release(&b);
    return s;
}

nfy_str nfy__mig_concat_tail(nfy_arena *a, const char *to, nfy_str q,
                             uint32_t k)
{
    uint32_t n = nfy_resolve_dotted_count(q);
    nfy_buf b = NFY_BUF_INIT;
    (void)nfy_buf_addstr(&b, to);
    for (uint32_t i = k; i < n; i++) {
        (void)nfy_buf_addch(&b, '.');
        (void)nfy_buf_addview(&b, nfy__mig_comp(q, i));
    }
    nfy_str s = nfy_arena_str(a, nfy_buf_view(&b));
    nfy_buf_release(&b);
    return s;
}

/* ---- an index of a rule list by its `from` strings ----------------------- */

/* FNV-1a step. */
static inline uint32_t fnv_step(uint32_t h, unsigned char ch)
{
    return (h ^ ch) * 16777619u;
}

#define FNV_SEED 2166136261u

static void rindex_build(mig_rule_index *ix, const mig_rule_list *rl,
                         nfy_arena *arena, bool any_match);

static void prefix_set(mig_rule_index *ix, uint32_t h)
{
    uint32_t b = h & ix->prefix_mask;
    ix->prefix_bits[b / 64] |= 1ull << (b % 64);
}

static bool prefix_has(const mig_rule_index *ix, uint32_t h)
{
    uint32_t b = h & ix->prefix_mask;
    return (ix->prefix_bits[b / 64] >> (b % 64)) & 1;
}

static void rindex_add(mig_rule_index *ix, uint32_t rule, const char *from)
{
    if (from == NULL || from[0] == '\0')
        return; /* fits no non-empty name; empty names scan everything */
    uint32_t h = FNV_SEED;
    size_t n = 0;
    for (; from[n]; n++) {
        if (from[n] == '.')
            prefix_set(ix, h);
        h = fnv_step(h, (unsigned char)from[n]);
    }
    prefix_set(ix, h);
    unsigned char b0 = (unsigned char)from[0];
    ix->first_byte[b0 / 64] |= 1ull << (b0 % 64);
    uint32_t i = h & ix->mask;
    while (ix->slots[i].from != NULL)
        i = (i + 1) & ix->mask;
    ix->slots[i] = (mig_rindex_entry){from, n, h, rule};
    if (n > ix->max_len)
        ix->max_len = n;
}

void nfy__mig_rindex_build(mig_rule_index *ix, const mig_rule_list *rl,
                           nfy_arena *arena)
{
    rindex_build(ix, rl, arena, false);
}

void nfy__mig_rindex_build_rows(mig_rule_index *ix, const mig_rule_list *rl,
                                nfy_arena *arena)
{
    rindex_build(ix, rl, arena, true);
}

static void rindex_build(mig_rule_index *ix, const mig_rule_list *rl,
                         nfy_arena *arena, bool any_match)
{
    size_t n = 0;
    for (size_t i = 0; i < rl->len; i++)
        n += rl->items[i]->nmap + 1;
    size_t cap = 16;
    while (cap < 2 * n + 2)
        cap *= 2;
    ix->rl = rl;
    ix->max_len = 0;
    ix->mask = (uint32_t)cap - 1;
    ix->slots = nfy_arena_calloc(arena, cap, sizeof *ix->slots);
    ix->mark = nfy_arena_calloc(arena, rl->len + 1, 1);
    size_t bits = 64;
    while (bits < 16 * n)
        bits *= 2;
    ix->prefix_mask = (uint32_t)bits - 1;
    ix->prefix_bits = nfy_arena_calloc(arena, bits / 64, sizeof(uint64_t));
    memset(ix->first_byte, 0, sizeof ix->first_byte);
    for (size_t i = 0; i < rl->len; i++) {
        const nfy_rule *r = rl->items[i];
        if (!any_match && r->match != NFY_MATCH_NAME &&
            r->match != NFY_MATCH_MODULE && r->match != NFY_MATCH_CALL)
            continue; /* nfy__mig_qmatch_rule never fits them */
        if (r->nmap == 0)
            rindex_add(ix, (uint32_t)i, r->pattern);
        for (size_t k = 0; k < r->nmap; k++)
            rindex_add(ix, (uint32_t)i, r->map[k].from);
    }
}

/* Add to out (n so far) the rules with a `from` equal to q[0, len) that
 * are not there yet (mark says which are). */
static uint32_t rindex_mark(const mig_rule_index *ix, nfy_str q, size_t len,
                            uint32_t h, uint32_t *out, uint32_t n)
{
    for (uint32_t i = h & ix->mask; ix->slots[i].from != NULL;
         i = (i + 1) & ix->mask) {
        const mig_rindex_entry *e = &ix->slots[i];
        if (e->hash == h && e->len == len && !ix->mark[e->rule] &&
            memcmp(e->from, q.ptr, len) == 0) {
            ix->mark[e->rule] = 1;
            out[n++] = e->rule;
        }
    }
    return n;
}

/*
 * Every rule that nfy__mig_qmatch_rule can fit to q has a `from` (its pattern,
 * or a map row) that is q or a dotted prefix of q: only those are
 * candidates. They go to out (room for rl->len) in list order.
 */
uint32_t nfy__mig_rindex_find(const mig_rule_index *ix, nfy_str q,
                              uint32_t *out)
{
    uint32_t n = 0;
    if (q.len == 0) { /* only empty patterns could fit: no filter */
        for (size_t i = 0; i < ix->rl->len; i++)
            out[n++] = (uint32_t)i;
        return n;
    }
    unsigned char b0 = (unsigned char)q.ptr[0];
    if (!((ix->first_byte[b0 / 64] >> (b0 % 64)) & 1))
        return 0; /* no indexed string starts as q does */
    /* no indexed string is longer than max_len: no longer prefix fits */
    size_t upto = q.len < ix->max_len ? q.len : ix->max_len;
    /* a component at a time: i is the length hashed, and each length up
     * to upto that is q's or before a '.' is looked up */
    uint32_t h = FNV_SEED;
    const unsigned char *p = (const unsigned char *)q.ptr;
    for (size_t i = 0; i < upto;) {
        h = fnv_step(h, p[i++]);
        while (i < upto && p[i] != '.')
            h = fnv_step(h, p[i++]);
        if (i < q.len && p[i] != '.')
            break; /* i == upto: no longer prefix is indexed */
        if (!prefix_has(ix, h))
            break;
        n = rindex_mark(ix, q, i, h, out, n);
    }
    /* list order (a handful of rules: insertion sort); marks cleared */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = out[i], j = i;
        ix->mark[v] = 0;
        for (; j > 0 && out[j - 1] > v; j--)
            out[j] = out[j - 1];
        out[j] = v;
    }
    return n;
}
