/*
 * Passes over resolved names: rename rules (torch.cuda.X -> torch.npu.X,
 * torch.profiler.* -> torch_npu.profiler.*, is_nccl_available ->
 * is_hccl_available ...) and flag rules (DataParallel, cudnn, float64 ...)
 * matched against the qualified name of every name use.
 *
 * A use only edits the part of its chain that it spells itself: with
 * `import torch as th`, `th.cuda.X` becomes `th.npu.X`; when the renamed
 * part lies inside an import target (`from torch.cuda import amp as A;
 * A.autocast`), the import statement is rewritten instead (passes/imports.c)
 * and the use is left alone. When the root module changes and the alias
 * cannot be kept, the new name is written in full (torch_npu.profiler...).
 * Rules with the apidb flag rename only what torch.npu has for the target
 * version; the rest is reported under the rule's fallback.
 */
#include <stdlib.h>
#include <string.h>

#include "migrate/name_match.h"
#include "migrate/pass.h"
#include "migrate/run.h"

typedef NFY_VEC(const char *) id_list;

static int id_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Rules named as some rule's fallback fire only as fallbacks: the ids that
 * are some rule's fallback, gathered once per collection, sorted for
 * binary search (hundreds of rules ask). */
static void fallback_ids(const nfy_rule_set *set, id_list *out)
{
    size_t n = nfy_rule_set_count(set);
    for (size_t i = 0; i < n; i++) {
        const nfy_rule *r = nfy_rules_set_at(set, i);
        if (r->fallback != NULL)
            nfy_vec_push(out, r->fallback);
    }
    if (out->len > 1)
        qsort(out->items, out->len, sizeof *out->items, id_cmp);
}

static bool is_fallback_id(const id_list *fb, const char *id)
{
    return fb->len > 0 &&
           bsearch(&id, fb->items, fb->len, sizeof *fb->items, id_cmp) != NULL;
}

static bool name_rule(const nfy_rule_env *env, const id_list *fb,
                      const nfy_rule *r)
{
    if (r->kind != NFY_RULE_RENAME && r->kind != NFY_RULE_FLAG)
        return false;
    if (r->match != NFY_MATCH_NAME && r->match != NFY_MATCH_MODULE &&
        r->match != NFY_MATCH_CALL)
        return false;
    if (nfy_rules_activity_in(r, env) == NFY_RULE_INACTIVE)
        return false;
    return r->kind != NFY_RULE_FLAG || !is_fallback_id(fb, r->id);
}

void nfy__mig_rules_collect(const nfy_rule_set *set, const nfy_rule_env *env,
                            mig_rule_list *out)
{
    out->len = 0;
    id_list fb = {0};
    fallback_ids(set, &fb);
    size_t n = nfy_rule_set_count(set);
    for (size_t i = 0; i < n; i++) {
        const nfy_rule *r = nfy_rules_set_at(set, i);
        if (name_rule(env, &fb, r))
            nfy_vec_push(out, r);
    }
    nfy_vec_free(&fb);
}

/* nfy__mig_best_rename over the candidates cand[0..n) of rl only. */
static bool best_rename_of(const mig_rule_list *rl, const uint32_t *cand,
                           uint32_t n, nfy_str q, bool is_call,
                           mig_qmatch *best)
{
    bool found = false;
    for (uint32_t i = 0; i < n; i++) {
        mig_qmatch m;
        const nfy_rule *r = rl->items[cand[i]];
        if (r->kind != NFY_RULE_RENAME ||
            !nfy__mig_qmatch_rule(r, q, is_call, &m))
            continue;
        if (!found || m.score > best->score) {
            *best = m;
            found = true;
        }
    }
    return found;
}

/* Best rename (highest score, the first of equals) among the run's name
 * rules, flags aside: only the candidates the index finds can fit. */
bool nfy__mig_best_rename(const mig_ctx *c, nfy_str q, bool is_call,
                          mig_qmatch *best)
{
    nfy_migrate_run *run = c->p->run;
    uint32_t n = nfy__mig_rindex_find(&run->names_ix, q, run->cand);
    return best_rename_of(&run->names, run->cand, n, q, is_call, best);
}

static const char *pair_message(mig_ctx *c, const mig_qmatch *m)
{
    if (m->pair != NULL && m->pair->note != NULL && m->pair->note[0])
        return nfy_mig_fmt(c, "%s (%s)", m->rule->message, m->pair->note);
    return m->rule->message;
}

/* A rename row with no counterpart, or a failed apidb check. */
void nfy__mig_report_norename(mig_ctx *c, const mig_qmatch *m, nfy_span sp,
                              nfy_str q, bool apidb_failed)
{
    const nfy_rule *r = m->rule;
    const char *api = nfy_mig_strdup(c, q);
    if (apidb_failed && r->fallback != NULL) {
        const nfy_rule *fb = nfy_rules_set_find(c->rules, r->fallback);
        if (nfy__mig_rule_on(c, fb)) {
            nfy_finding_cat cat;
            nfy_op_type op;
            nfy__mig_flag_class(fb, &cat, &op);
            nfy__mig_note_add(
                c, fb, sp, cat, op, api,
                nfy_mig_fmt(c,
                            "%s: torch.npu has no counterpart of %s "
                            "for torch %s",
                            fb->message, api, c->p->version));
            return;
        }
    }
    nfy_finding_cat cat;
    nfy_op_type op;
    nfy__mig_flag_class(r, &cat, &op);
    if (cat == NFY_CAT_PERFORMANCE_ADVICE && op == NFY_OPTYPE_NONE) {
        cat = NFY_CAT_UNSUPPORTED_API;
        op = NFY_OPTYPE_UNSUPPORTED;
    }
    nfy__mig_note_add(c, r, sp, cat, op, api,
                      nfy_mig_fmt(c, "%s: no NPU counterpart for %s",
                                  pair_message(c, m), api));
    nfy_vec_last(c->notes)->safety = NFY_SAFETY_MANUAL;
}

/* The NAME tokens of use u's chain, in order (at most cap). */
static uint32_t chain_names(const mig_ctx *c, uint32_t u, uint32_t *out,
                            uint32_t cap)
{
    const nfy_name_use *use = &c->m->uses[u];
    uint32_t n = 0;
    for (uint32_t t = use->tok; t <= use->chain_end && n < cap; t++) {
        if (c->m->toks[t].kind == NFY_TOK_NAME)
            out[n++] = t;
    }
    return n;
}

#define CHAIN_MAX 64

/* The attribute read on the result of the call whose callee ends at
 * token last (`f(0).total_memory` -> "total_memory"), or "". */
static nfy_str attr_after_call(const mig_ctx *c, uint32_t last)
{
    nfy_str none = {"", 0};
    if (last == NFY_NONE)
        return none;
    uint32_t lpar = nfy__mig_next_sig(c, last);
    if (!nfy_mig_tok_op(c, lpar, NFY_OP_LPAR) || c->m->match[lpar] == NFY_NONE)
        return none;
    uint32_t dot = nfy__mig_next_sig(c, c->m->match[lpar]);
    if (!nfy_mig_tok_op(c, dot, NFY_OP_DOT))
        return none;
    uint32_t name = nfy__mig_next_sig(c, dot);
    if (name >= c->m->ntoks || c->m->toks[name].kind != NFY_TOK_NAME)
        return none;
    return mig_tok(c, name);
}

/*
 * Huawei's lists restrict q on the target version in a way that applies
 * here (data/npu/restriction_effects.tsv): the rename is not made, and the
 * site is named with the restriction for a person (true). An advice-only
 * restriction leaves the rename safe and comes back in *told.
 */
static bool restricted(mig_ctx *c, const mig_qmatch *m, nfy_str q, nfy_str tail,
                       nfy_span sp, uint32_t last, const char *text,
                       const char **told)
{
    nfy_api_restriction rs;
    if (!nfy__mig_restriction(c->p->version, q, &rs))
        return false;
    const char *why = rs.why ? rs.why : rs.english ? rs.english : rs.note;
    if (nfy_apidb_restriction_allows(&rs, attr_after_call(c, last))) {
        if (rs.effect == NFY_RESTRICT_ADVICE)
            *told = why;
        return false;
    }
    nfy__mig_note_add(
        c, m->rule, sp, NFY_CAT_LEFT_UNCHANGED, NFY_OPTYPE_MODIFY,
        nfy_mig_strdup(c, q),
        nfy_mig_fmt(c,
                    "not applied: %.*s -> %.*s is restricted on torch_npu "
                    "(list %s): %s",
                    NFY_STR_FMT(q), NFY_STR_FMT(tail), rs.list ? rs.list : "?",
                    why));
    nfy_vec_last(c->notes)->safety = NFY_SAFETY_MANUAL;
    nfy_vec_last(c->notes)->after = text;
    return true;
}

/*
 * Rename the chain q (head_parts h) spelled by names[0..nn) (byte spans of
 * its NAME parts) per match m. Tokens [tfirst, tend) are claimed (none for
 * edits inside an f-string). Returns false when nothing applies.
 */
void nfy__mig_rename_chain(mig_ctx *c, const mig_qmatch *m, nfy_str q,
                           uint32_t h, const nfy_span *names, uint32_t nn,
                           const uint32_t *toks, bool flagged)
{
    nfy_span all = {names[0].start, names[nn - 1].end};
    if (m->to == NULL || m->to[0] == '\0') {
        nfy__mig_report_norename(c, m, all, q, false);
        return;
    }
    mig_rplan p;
    nfy__mig_rename_plan(m->from, nfy_str_from_cstr(m->to), &p);
    if (p.k <= h)
        return; /* the import statement carries the rename */
    uint32_t mend = p.k - p.e > h ? p.k - p.e : h; /* region [lo, mend) */
    uint32_t lo = p.d >= h ? p.d : 0;
    uint32_t j1 = p.d >= h ? p.d - h + 1 : 0;
    uint32_t j2 = mend - h; /* chain index of comp mend-1 */
    if (mend <= lo || j2 >= nn || j1 > j2)
        return;
    nfy_str tail = nfy__mig_concat_tail(c->arena, m->to, q, p.k);
    nfy_span sp = {names[j1].start, names[j2].end};
    if ((m->rule->flags & NFY_RULE_F_APIDB) &&
        nfy_resolve_dotted_count(q) > p.k &&
        !nfy__mig_npu_has(c->p->version, tail)) {
        if (!flagged) /* a specific flag already explains this use */
            nfy__mig_report_norename(c, m, sp, q, true);
        return;
    }
    uint32_t nend = p.n - (p.k - mend);
    char *text = nfy__mig_join_comps(c->arena, tail, lo, nend);
    const char *api = nfy_mig_strdup(c, q);
    const char *told = NULL; /* an advice restriction, said with the edit */
    if (restricted(c, m, q, tail, sp, toks ? toks[nn - 1] : NFY_NONE, text,
                   &told))
        return;
    uint32_t t1 = toks ? toks[j1] : 0, t2 = toks ? toks[j2] + 1 : 0;
    nfy__mig_edit_api(
        c, m->rule, t1, t2, sp.start, sp.end, text,
        told ? nfy_mig_fmt(c, "%s -> %s (torch_npu: %s)", api, tail.ptr, told)
             : nfy_mig_fmt(c, "%s -> %s", api, tail.ptr),
        api);
}

/* A chain self.attr.rest through a module-valued attribute (resolve.h:
 * an ALIAS whose binding is a parameter). */
static bool self_alias(const mig_ctx *c, const nfy_res *res)
{
    return res->kind == NFY_RES_ALIAS && res->binding < c->m->nbindings &&
           c->m->bindings[res->binding].kind == NFY_BIND_PARAM;
}

/* Through self.attr, the attribute name stands for the head components
 * [0, h): a rename that changes one of them (torch -> torch_npu) cannot be
 * spelled there, unless the assignment to the attribute carries it. */
static bool head_renamed(const mig_qmatch *m, uint32_t h)
{
    if (m->to == NULL || m->to[0] == '\0')
        return false;
    mig_rplan p;
    nfy__mig_rename_plan(m->from, nfy_str_from_cstr(m->to), &p);
    return p.k > h && p.d < h;
}

static void rename_use(mig_ctx *c, uint32_t u, const mig_qmatch *m,
                       bool flagged)
{
    const nfy_res *res = nfy_resolve_use(c->r, u);
    uint32_t names[CHAIN_MAX];
    nfy_span spans[CHAIN_MAX];
    uint32_t nn = chain_names(c, u, names, CHAIN_MAX);
    for (uint32_t i = 0; i < nn; i++)
        spans[i] = nfy__mig_tok_span(c, names[i]);
    uint32_t skip = 0, h = res->head_parts;
    if (self_alias(c, res) && nn >= 2) {
        skip = 1; /* `self` itself; attr then stands for h + 1 components */
        h++;
        if (head_renamed(m, h)) {
            nfy_span sp = {spans[0].start, spans[nn - 1].end};
            const char *api = nfy_mig_strdup(c, res->qual);
            nfy__mig_note_add(
                c, m->rule, sp, NFY_CAT_UNSUPPORTED_API, NFY_OPTYPE_UNSUPPORTED,
                api,
                nfy_mig_fmt(c,
                            "%s: %s is reached through the instance "
                            "attribute %.*s; rename it by hand",
                            m->rule->message, api,
                            NFY_STR_FMT(mig_tok(c, names[1]))));
            nfy_vec_last(c->notes)->safety = NFY_SAFETY_MANUAL;
            return;
        }
    }
    if (nn > skip)
        nfy__mig_rename_chain(c, m, res->qual, h, spans + skip, nn - skip,
                              names + skip, flagged);
}

static bool use_is_callee(const mig_ctx *c, uint32_t u)
{
    uint32_t after = nfy__mig_next_sig(c, c->m->uses[u].chain_end);
    return nfy_mig_tok_op(c, after, NFY_OP_LPAR);
}

static void flag_use(mig_ctx *c, uint32_t u, const mig_qmatch *m)
{
    nfy_span sp = nfy__mig_tok_span(c, c->m->uses[u].tok);
    sp.end = c->m->toks[c->m->uses[u].chain_end].end;
    const char *suggest = m->to != NULL && m->to[0] ? m->to : NULL;
    nfy__mig_flag(c, m->rule, sp,
                  nfy_mig_strdup(c, nfy_resolve_use(c->r, u)->qual), suggest);
    if (m->pair != NULL && m->pair->note != NULL && m->pair->note[0])
        nfy_vec_last(c->notes)->message = pair_message(c, m);
}

void nfy__mig_pass_names(mig_ctx *c)
{
    const mig_rule_list *rl = &c->p->run->names;
    const mig_rule_index *rx = &c->p->run->names_ix;
    /* its own buffer: nfy__mig_best_rename reuses the run's */
    uint32_t *cand = nfy_arena_alloc(c->arena, (rl->len + 1) * sizeof *cand);
    for (uint32_t u = 0; u < c->m->nuses && rl->len > 0; u++) {
        const nfy_res *res = nfy_resolve_use(c->r, u);
        if (res->qual.len == 0 || res->relative)
            continue;
        uint32_t ncand = nfy__mig_rindex_find(rx, res->qual, cand);
        if (ncand == 0)
            continue; /* no rule can fit: nothing below would happen */
        bool is_call = use_is_callee(c, u);
        bool flagged = false;
        for (uint32_t i = 0; i < ncand; i++) {
            mig_qmatch m;
            const nfy_rule *r = rl->items[cand[i]];
            if (r->kind == NFY_RULE_FLAG &&
                nfy__mig_qmatch_rule(r, res->qual, is_call, &m)) {
                flag_use(c, u, &m);
                flagged = true;
            }
        }
        mig_qmatch best;
        if (best_rename_of(rl, cand, ncand, res->qual, is_call, &best))
            rename_use(c, u, &best, flagged);
    }
}
