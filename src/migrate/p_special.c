/*
 * Dedicated report-only passes, each named by a rule with match "pass":
 *  - amp-used: the first AMP use of the file (also sets info.uses_amp);
 *    autocast(enabled=False) is AMP switched off, not a use;
 *  - nccl-compare: a "nccl" string compared (backend == "nccl");
 *  - device-capability: get_device_capability() and
 *    get_device_properties(...).major/.minor (directly or via a variable);
 *  - dataloader-pin-memory: DataLoader without pin_memory=True;
 *  - affinity-user: user functions/classes that torch_npu has fused
 *    versions of.
 */
#include <string.h>

#include "migrate/ctxmatch.h"
#include "migrate/qmatch.h"

/* ---- AMP --------------------------------------------------------------------
 */

/* autocast(enabled=False) / GradScaler(enabled=False): AMP switched off,
 * not in use. */
static bool amp_disabled(const mig_ctx *c, uint32_t u)
{
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        if (c->m->calls[k].use != u)
            continue;
        uint32_t a = nfy_pysyn_kwarg(c->m, k, "enabled");
        return a != NFY_NONE &&
               c->m->args[a].value_end == c->m->args[a].value_first + 1 &&
               mig_tok_is(c, c->m->args[a].value_first, "False");
    }
    return false;
}

void mig_pass_amp_used(mig_ctx *c)
{
    const nfy_rule *r = mig_pass_rule_of(c, NFY_PASS_AMP_USED);
    if (r == NULL)
        r = mig_pass_rule_of(c, NFY_PASS_AMP_MISSING);
    if (r == NULL)
        return;
    /* a use is an AMP use when a map row is its qual or a dotted prefix of
     * it: the rows hashed, the quals' prefixes looked up */
    const nfy_rule *one[1] = {r};
    mig_rule_list rl = {.items = one, .len = 1, .cap = 1};
    mig_rule_index rows;
    uint32_t hit[1];
    mig_rindex_build_rows(&rows, &rl, c->arena);
    for (uint32_t u = 0; u < c->m->nuses; u++) {
        nfy_str q = nfy_resolve_use(c->r, u)->qual;
        if (q.len == 0 || r->nmap == 0 || mig_rindex_find(&rows, q, hit) == 0)
            continue;
        const nfy_name_use *use = &c->m->uses[u];
        if (amp_disabled(c, u))
            continue;
        c->info->uses_amp = true;
        c->info->amp_line = c->m->toks[use->tok].line;
        if (r->pass == NFY_PASS_AMP_USED) {
            nfy_span sp = {c->m->toks[use->tok].start,
                           c->m->toks[use->chain_end].end};
            mig_note_add(c, r, sp, MIG_CAT_PERFORMANCE, MIG_OP_NONE,
                         mig_strdup(c, q), NULL);
        }
        return;
    }
}

/* ---- nccl comparisons
 * ---------------------------------------------------------- */

void mig_pass_nccl_compare(mig_ctx *c)
{
    const nfy_rule *r = mig_pass_rule_of(c, NFY_PASS_NCCL_COMPARE);
    nfy_rule_ctx cmp = {NFY_CTX_COMPARE, NULL, -1, NULL};
    for (uint32_t i = 0; r != NULL && i < c->m->nstrings; i++) {
        const nfy_strlit *s = &c->m->strings[i];
        uint32_t off;
        nfy_str body = mig_string_body(c, s->first, &off);
        if ((mig_str_is(body, "nccl") || mig_str_is(body, "NCCL")) &&
            mig_expr_in_ctx(c, s->first, s->end, i, &cmp))
            mig_flag(c, r, s->span, "nccl", NULL);
    }
}

/* ---- device capability
 * ---------------------------------------------------------- */

static bool is_cuda_api(nfy_str q, const char *tail)
{
    size_t n = strlen(tail);
    return (nfy_str_starts_with(q, NFY_STR_LIT("torch.cuda.")) ||
            nfy_str_starts_with(q, NFY_STR_LIT("torch.npu."))) &&
           q.len > n && memcmp(q.ptr + q.len - n, tail, n) == 0 &&
           q.ptr[q.len - n - 1] == '.';
}

/* Is the receiver of attr i a get_device_properties(...) result? */
static bool props_receiver(const mig_ctx *c, uint32_t i)
{
    const nfy_attr *at = &c->m->attrs[i];
    if (at->base_call != NFY_NONE)
        return is_cuda_api(mig_callee_qual(c, at->base_call),
                           "get_device_properties");
    if (at->use == NFY_NONE || c->m->uses[at->use].tok + 2 != at->name_tok)
        return false;
    uint32_t b = nfy_resolve_use(c->r, at->use)->binding;
    if (b == NFY_NONE || c->m->bindings[b].value_first == NFY_NONE)
        return false;
    uint32_t u = nfy_pysyn_use_at(c->m, c->m->bindings[b].value_first);
    return u != NFY_NONE &&
           is_cuda_api(nfy_resolve_use(c->r, u)->qual, "get_device_properties");
}

void mig_pass_capability(mig_ctx *c)
{
    const nfy_rule *r = mig_pass_rule_of(c, NFY_PASS_DEVICE_CAPABILITY);
    if (r == NULL)
        return;
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        if (is_cuda_api(mig_callee_qual(c, k), "get_device_capability"))
            mig_flag(c, r, c->m->calls[k].span,
                     "torch.cuda.get_device_capability", NULL);
    }
    for (uint32_t i = 0; i < c->m->nattrs; i++) {
        nfy_str name = mig_tok(c, c->m->attrs[i].name_tok);
        if ((mig_str_is(name, "major") || mig_str_is(name, "minor") ||
             mig_str_is(name, "multi_processor_count")) &&
            props_receiver(c, i))
            mig_flag(c, r, mig_tok_span(c, c->m->attrs[i].name_tok),
                     mig_fmt(c, "torch.cuda.get_device_properties().%.*s",
                             NFY_STR_FMT(name)),
                     NULL);
    }
}

/* ---- advice
 * ---------------------------------------------------------------------- */

void mig_pass_pin_memory(mig_ctx *c)
{
    const nfy_rule *r = mig_pass_rule_of(c, NFY_PASS_PIN_MEMORY);
    for (uint32_t k = 0; r != NULL && k < c->m->ncalls; k++) {
        nfy_str q = mig_callee_qual(c, k);
        if (!mig_str_is(q, "torch.utils.data.DataLoader") &&
            !mig_str_is(q, "torch.utils.data.dataloader.DataLoader"))
            continue;
        uint32_t a = nfy_pysyn_kwarg(c->m, k, "pin_memory");
        if (a == NFY_NONE || !mig_tok_is(c, c->m->args[a].value_first, "True"))
            mig_flag(c, r, c->m->calls[k].span, mig_strdup(c, q), NULL);
    }
}

/* nfy_rule_map_find, without a strlen per row: the first row whose from is
 * key. */
static const nfy_rule_pair *map_row(const nfy_rule *r, nfy_str key)
{
    for (size_t i = 0; i < r->nmap; i++) {
        if (mig_str_is(key, r->map[i].from))
            return &r->map[i];
    }
    return NULL;
}

void mig_pass_affinity_user(mig_ctx *c)
{
    const nfy_rule *r = mig_pass_rule_of(c, NFY_PASS_AFFINITY_USER);
    for (uint32_t s = 0; r != NULL && s < c->m->nstmts; s++) {
        const nfy_stmt *st = &c->m->stmts[s];
        if ((st->kind != NFY_STMT_DEF && st->kind != NFY_STMT_CLASS) ||
            st->name_tok == NFY_NONE)
            continue;
        const nfy_rule_pair *row = map_row(r, mig_tok(c, st->name_tok));
        if (row == NULL || row->from[strlen(row->from) - 1] == '*')
            continue;
        mig_flag(c, r, mig_tok_span(c, st->name_tok), row->from,
                 row->to && row->to[0] ? row->to : NULL);
        nfy_vec_last(c->notes)->cat = MIG_CAT_AFFINITY;
    }
}
