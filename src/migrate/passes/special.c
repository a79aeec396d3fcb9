/*
 * Dedicated report-only passes, each named by a rule with match "pass":
 *  - amp-used: the first AMP use of the file (also sets info.uses_amp);
 *    autocast(enabled=False) is AMP switched off, not a use;
 *  - nccl-compare: a "nccl" string compared with something that is no
 *    backend (a backend, `dist.get_backend() == "nccl"`, is rewritten by
 *    the string pass);
 *  - device-capability: get_device_capability() and
 *    get_device_properties(...).major/.minor (directly or via a variable);
 *  - dataloader-pin-memory: DataLoader without pin_memory=True;
 *  - affinity-user: user functions/classes that torch_npu has fused
 *    versions of.
 */
#include <string.h>

#include "migrate/ctxmatch.h"
#include "migrate/name_match.h"
#include "migrate/run.h"
#include "migrate/valset.h"

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

void nfy__mig_pass_amp_used(mig_ctx *c)
{
    const nfy_rule *r = nfy__mig_pass_rule_of(c, NFY_PASS_AMP_USED);
    if (r == NULL)
        r = nfy__mig_pass_rule_of(c, NFY_PASS_AMP_MISSING);
    if (r == NULL)
        return;
    /* a use is an AMP use when a map row is its qual or a dotted prefix of
     * it: the rows hashed, the quals' prefixes looked up */
    mig_amp_rows *ar = &c->p->run->amp;
    if (ar->rule != r) { /* once a run */
        ar->one[0] = r;
        ar->rl = (mig_rule_list){.items = ar->one, .len = 1, .cap = 1};
        nfy__mig_rindex_build_rows(&ar->rows, &ar->rl, &c->p->run->arena);
        ar->rule = r;
    }
    uint32_t hit[1];
    for (uint32_t u = 0; u < c->m->nuses; u++) {
        nfy_str q = nfy_resolve_use(c->r, u)->qual;
        if (q.len == 0 || r->nmap == 0 ||
            nfy__mig_rindex_find(&ar->rows, q, hit) == 0)
            continue;
        const nfy_name_use *use = &c->m->uses[u];
        if (amp_disabled(c, u))
            continue;
        c->info->uses_amp = true;
        c->info->amp_line = c->m->toks[use->tok].line;
        if (r->pass == NFY_PASS_AMP_USED) {
            nfy_span sp = {c->m->toks[use->tok].start,
                           c->m->toks[use->chain_end].end};
            nfy__mig_note_add(c, r, sp, NFY_CAT_PERFORMANCE_ADVICE,
                              NFY_OPTYPE_NONE, nfy_mig_strdup(c, q), NULL);
        }
        return;
    }
}

/* ---- nccl comparisons
 * ---------------------------------------------------------- */

void nfy__mig_pass_nccl_compare(mig_ctx *c)
{
    const nfy_rule *r = nfy__mig_pass_rule_of(c, NFY_PASS_NCCL_COMPARE);
    nfy_rule_ctx cmp = {NFY_CTX_COMPARE, NULL, -1, NULL};
    for (uint32_t i = 0; r != NULL && i < c->m->nstrings; i++) {
        const nfy_strlit *s = &c->m->strings[i];
        nfy_str body = c->lit_body[i];
        mig_lit_key key;
        if ((mig_str_is(body, "nccl") || mig_str_is(body, "NCCL")) &&
            nfy__mig_expr_in_ctx(c, s->first, s->end, i, &cmp) &&
            !nfy__mig_name_is_device(nfy__mig_lit_name(c, i, &key)))
            nfy__mig_flag(c, r, s->span, "nccl", NULL);
    }
}

/* ---- device capability
 * ---------------------------------------------------------- */

static inline bool is_cuda_api(nfy_str q, const char *tail)
{
    size_t n = strlen(tail); /* inlined: a literal's length, no call */
    return q.len > n && q.ptr[q.len - n - 1] == '.' &&
           memcmp(q.ptr + q.len - n, tail, n) == 0 &&
           (nfy_str_starts_with(q, NFY_STR_LIT("torch.cuda.")) ||
            nfy_str_starts_with(q, NFY_STR_LIT("torch.npu.")));
}

/* Source text of tokens [a, b]. */
static nfy_str text_of(const mig_ctx *c, uint32_t a, uint32_t b)
{
    uint32_t s = c->m->toks[a].start, e = c->m->toks[b].end;
    return (nfy_str){c->src->data + s, e - s};
}

/* The idx-th top-level comma-separated part of [a, b) as [*pa, *pb]. */
static bool nth_part(const mig_ctx *c, uint32_t a, uint32_t b, uint32_t idx,
                     uint32_t *pa, uint32_t *pb)
{
    uint32_t part = 0, first = a, last = NFY_NONE;
    for (uint32_t t = a; t < b && t != NFY_NONE; t = nfy__mig_next_sig(c, t)) {
        if (nfy_mig_tok_op(c, t, NFY_OP_COMMA)) {
            if (part == idx)
                break;
            part++;
            first = nfy__mig_next_sig(c, t);
            continue;
        }
        if (c->m->match[t] != NFY_NONE && c->m->match[t] > t)
            t = c->m->match[t];
        if (part == idx)
            last = t;
    }
    if (part != idx || last == NFY_NONE)
        return false;
    *pa = first;
    *pb = last;
    return true;
}

/* Which top-level part of [a, b) starts at token t, or NONE. */
static uint32_t part_starting(const mig_ctx *c, uint32_t a, uint32_t b,
                              uint32_t t)
{
    uint32_t part = 0;
    bool at_start = true;
    for (uint32_t x = a; x < b && x != NFY_NONE; x = nfy__mig_next_sig(c, x)) {
        if (at_start && x == t)
            return part;
        at_start = false;
        if (nfy_mig_tok_op(c, x, NFY_OP_COMMA)) {
            part++;
            at_start = true;
        } else if (c->m->match[x] != NFY_NONE && c->m->match[x] > x) {
            x = c->m->match[x];
        }
    }
    return NFY_NONE;
}

typedef NFY_VEC(nfy_str) holder_list;

/* Targets that hold a get_device_properties(...) result: `props = ...`,
 * `self.props = ...`, `name, props = get_name(d), get_properties(d)`. */
static void props_holders(const mig_ctx *c, holder_list *out)
{
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        const nfy_call *call = &c->m->calls[k];
        if (call->stmt == NFY_NONE || call->parent_call != NFY_NONE ||
            !is_cuda_api(mig_callee_qual(c, k), "get_device_properties"))
            continue;
        const nfy_stmt *st = &c->m->stmts[call->stmt];
        if (st->kind != NFY_STMT_ASSIGN || st->value_first == NFY_NONE)
            continue;
        uint32_t idx = part_starting(c, st->value_first, st->value_end,
                                     call->callee_first);
        uint32_t eq = nfy__mig_prev_sig(c, st->value_first), ta, tb;
        if (idx != NFY_NONE && nth_part(c, st->first, eq, idx, &ta, &tb))
            nfy_vec_push(out, text_of(c, ta, tb));
    }
}

static bool held(const holder_list *h, nfy_str text)
{
    for (size_t i = 0; i < h->len; i++) {
        if (text.len && nfy_str_eq(h->items[i], text))
            return true;
    }
    return false;
}

/* Is the receiver of attr i a get_device_properties(...) result? */
static bool props_receiver(const mig_ctx *c, uint32_t i, const holder_list *h)
{
    const nfy_attr *at = &c->m->attrs[i];
    if (at->base_call != NFY_NONE)
        return is_cuda_api(mig_callee_qual(c, at->base_call),
                           "get_device_properties");
    return held(h, nfy__mig_receiver_text(c, at->name_tok));
}

/* CUDA's compute capability and SM count, ROCm's architecture name: none
 * is a property of an NPU. */
static const mig_word capability_attrs[] = {
    MIG_WORD("major"), MIG_WORD("minor"), MIG_WORD("multi_processor_count"),
    MIG_WORD("gcnArchName")};
enum {
    CAPABILITY_ATTRS = sizeof capability_attrs / sizeof capability_attrs[0]
};

/* f"{props.major}.{props.minor}": a holder's attribute in an f-string. */
static void fstring_capability(mig_ctx *c, const nfy_rule *r,
                               const holder_list *h)
{
    for (uint32_t t = 0; t < c->m->ntoks && h->len; t++) {
        if (c->m->toks[t].kind != NFY_TOK_STRING ||
            !(c->m->toks[t].flags & NFY_TOKF_FSTRING))
            continue;
        nfy_str tok = mig_tok(c, t);
        bool hit = false;
        for (size_t i = 0; i < h->len && !hit; i++) {
            for (size_t a = 0; a < CAPABILITY_ATTRS && !hit; a++) {
                char *pat = nfy_mig_fmt(c, "{%.*s.%s", NFY_STR_FMT(h->items[i]),
                                        capability_attrs[a].s);
                hit = nfy_str_contains(tok, nfy_str_from_cstr(pat));
            }
        }
        if (hit)
            nfy__mig_flag(c, r, nfy__mig_tok_span(c, t),
                          "torch.cuda.get_device_properties()", NULL);
    }
}

void nfy__mig_pass_capability(mig_ctx *c)
{
    const nfy_rule *r = nfy__mig_pass_rule_of(c, NFY_PASS_DEVICE_CAPABILITY);
    if (r == NULL)
        return;
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        if (is_cuda_api(mig_callee_qual(c, k), "get_device_capability"))
            nfy__mig_flag(c, r, c->m->calls[k].span,
                          "torch.cuda.get_device_capability", NULL);
    }
    holder_list h = {0};
    props_holders(c, &h);
    for (uint32_t i = 0; i < c->m->nattrs; i++) {
        nfy_str name = mig_tok(c, c->m->attrs[i].name_tok);
        if (mig_str_in(name, capability_attrs, CAPABILITY_ATTRS) &&
            props_receiver(c, i, &h))
            nfy__mig_flag(c, r, nfy__mig_tok_span(c, c->m->attrs[i].name_tok),
                          nfy_mig_fmt(c,
                                      "torch.cuda.get_device_properties().%.*s",
                                      NFY_STR_FMT(name)),
                          NULL);
    }
    fstring_capability(c, r, &h);
    nfy_vec_free(&h);
}

/* ---- advice
 * ---------------------------------------------------------------------- */

void nfy__mig_pass_pin_memory(mig_ctx *c)
{
    const nfy_rule *r = nfy__mig_pass_rule_of(c, NFY_PASS_PIN_MEMORY);
    for (uint32_t k = 0; r != NULL && k < c->m->ncalls; k++) {
        nfy_str q = mig_callee_qual(c, k);
        if (!MIG_IS_LIT(q, "torch.utils.data.DataLoader") &&
            !MIG_IS_LIT(q, "torch.utils.data.dataloader.DataLoader"))
            continue;
        uint32_t a = nfy_pysyn_kwarg(c->m, k, "pin_memory");
        if (a == NFY_NONE || !mig_tok_is(c, c->m->args[a].value_first, "True"))
            nfy__mig_flag(c, r, c->m->calls[k].span, nfy_mig_strdup(c, q),
                          NULL);
    }
}

/* nfy_rules_map_find, without a strlen per row: the first row whose from is
 * key. */
static const nfy_rule_pair *map_row(const nfy_rule *r, nfy_str key)
{
    for (size_t i = 0; i < r->nmap; i++) {
        if (mig_str_is(key, r->map[i].from))
            return &r->map[i];
    }
    return NULL;
}

void nfy__mig_pass_affinity_user(mig_ctx *c)
{
    const nfy_rule *r = nfy__mig_pass_rule_of(c, NFY_PASS_AFFINITY_USER);
    for (uint32_t s = 0; r != NULL && s < c->m->nstmts; s++) {
        const nfy_stmt *st = &c->m->stmts[s];
        if ((st->kind != NFY_STMT_DEF && st->kind != NFY_STMT_CLASS) ||
            st->name_tok == NFY_NONE)
            continue;
        const nfy_rule_pair *row = map_row(r, mig_tok(c, st->name_tok));
        if (row == NULL || row->from[strlen(row->from) - 1] == '*')
            continue;
        nfy__mig_flag(c, r, nfy__mig_tok_span(c, st->name_tok), row->from,
                      row->to && row->to[0] ? row->to : NULL);
        nfy_vec_last(c->notes)->cat = NFY_CAT_AFFINITY_API;
    }
}
