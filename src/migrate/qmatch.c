/*
 * Matching rules against qualified names (torch.cuda.synchronize) and the
 * component arithmetic of renames: which dotted components of a name change
 * when a rule's `from` is replaced by its `to`, so that an edit touches only
 * the differing tokens (th.cuda.X -> th.npu.X keeps the alias `th`).
 */
#include "migrate/qmatch.h"

#include <string.h>

nfy_str mig_comp(nfy_str q, uint32_t i)
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
bool mig_q_under(nfy_str q, nfy_str f)
{
    if (f.len == 0 || !nfy_str_starts_with(q, f))
        return false;
    return q.len == f.len || q.ptr[f.len] == '.';
}

static bool from_fits(const nfy_rule *r, nfy_str q, nfy_str from, bool is_call)
{
    switch (r->match) {
    case NFY_MATCH_NAME:
    case NFY_MATCH_MODULE:
        return mig_q_under(q, from);
    case NFY_MATCH_CALL:
        return is_call && nfy_str_eq(q, from);
    default:
        return false;
    }
}

bool mig_qmatch_rule(const nfy_rule *r, nfy_str q, bool is_call,
                     mig_qmatch *out)
{
    nfy_str pat = nfy_str_from_cstr(r->pattern);
    if (r->nmap == 0) {
        if (!from_fits(r, q, pat, is_call))
            return false;
        *out = (mig_qmatch){r, NULL, pat, r->replacement, 0};
    } else {
        if (pat.len > 0 && !nfy_str_starts_with(q, pat))
            return false;
        const nfy_rule_pair *best = NULL;
        for (size_t i = 0; i < r->nmap; i++) {
            nfy_str f = nfy_str_from_cstr(r->map[i].from);
            if (from_fits(r, q, f, is_call) &&
                (best == NULL || f.len > strlen(best->from)))
                best = &r->map[i];
        }
        if (best == NULL)
            return false;
        *out =
            (mig_qmatch){r, best, nfy_str_from_cstr(best->from), best->to, 0};
    }
    out->score = (int)out->from.len * 2 + (r->match != NFY_MATCH_MODULE);
    return true;
}

/* ---- renames as component ranges ----------------------------------------- */

static bool comp_eq(nfy_str a, uint32_t i, nfy_str b, uint32_t j)
{
    return nfy_str_eq(mig_comp(a, i), mig_comp(b, j));
}

void mig_rename_plan(nfy_str from, nfy_str to, mig_rplan *p)
{
    uint32_t k = nfy_dotted_count(from), n = nfy_dotted_count(to);
    uint32_t d = 0, e = 0;
    while (d < k && d < n && comp_eq(from, d, to, d))
        d++;
    while (e < k - d && e < n - d && comp_eq(from, k - 1 - e, to, n - 1 - e))
        e++;
    *p = (mig_rplan){k, n, d, e};
}

char *mig_join_comps(nfy_arena *a, nfy_str q, uint32_t first, uint32_t end)
{
    nfy_buf b = NFY_BUF_INIT;
    for (uint32_t i = first; i < end; i++) {
        if (i > first)
            (void)nfy_buf_addch(&b, '.');
        (void)nfy_buf_addview(&b, mig_comp(q, i));
    }
    char *s = nfy_arena_strndup(a, nfy_buf_cstr(&b), b.len);
    nfy_buf_release(&b);
    return s;
}

nfy_str mig_concat_tail(nfy_arena *a, const char *to, nfy_str q, uint32_t k)
{
    uint32_t n = nfy_dotted_count(q);
    nfy_buf b = NFY_BUF_INIT;
    (void)nfy_buf_addstr(&b, to);
    for (uint32_t i = k; i < n; i++) {
        (void)nfy_buf_addch(&b, '.');
        (void)nfy_buf_addview(&b, mig_comp(q, i));
    }
    nfy_str s = nfy_arena_str(a, nfy_buf_view(&b));
    nfy_buf_release(&b);
    return s;
}
