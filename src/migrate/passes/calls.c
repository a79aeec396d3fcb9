/*
 * Passes over attributes and calls:
 *  - members: method and attribute rules on receivers that are not torch
 *    modules (`x.cuda()` -> `x.npu()`, `t.is_cuda` -> `t.is_npu`,
 *    `.double()` flagged); `torch.cuda` itself is never such a receiver;
 *  - args: rewrite-argument rules on calls (template or deletion of an
 *    argument, e.g. experimental_config= of torch.profiler.profile);
 *  - keyword flags (use_cuda= of the profiler).
 * Also the shared "does this call / argument match a context" tests.
 */
#include <regex.h>
#include <string.h>

#include "migrate/ctxmatch.h"
#include "migrate/name_match.h"
#include "migrate/run.h"
#include "migrate/valset.h"

/* ---- members ----------------------------------------------------------------
 */

/* An attribute device test (`x.is_cuda`) kept because it guards
 * CUDA-only code; the other tests of x in the same def stay with it, so
 * `assert x.is_cuda` and `elif not x.is_cuda: raise` keep agreeing. */
typedef struct {
    uint32_t tok, def;
    nfy_str recv;
    const char *why;
} kept_test;

typedef NFY_VEC(kept_test) kept_list;

static const kept_test *kept_with(const mig_ctx *c, const kept_list *k,
                                  uint32_t tok)
{
    nfy_str recv = nfy__mig_receiver_text(c, tok);
    uint32_t def = nfy__mig_def_of(c, tok);
    for (size_t i = 0; i < k->len; i++) {
        if (k->items[i].tok == tok ||
            (recv.len && def != NFY_NONE && k->items[i].def == def &&
             nfy_str_eq(k->items[i].recv, recv)))
            return &k->items[i];
    }
    return NULL;
}

static void find_kept(mig_ctx *c, const nfy_rule *r, uint32_t tok, mig_guard *g,
                      kept_list *k)
{
    const char *why = NULL;
    if (r->match == NFY_MATCH_ATTR && r->kind == NFY_RULE_RENAME &&
        nfy__mig_guards_cuda_only(c, g, tok, tok + 1, &why))
        nfy_vec_push(k, ((kept_test){tok, nfy__mig_def_of(c, tok),
                                     nfy__mig_receiver_text(c, tok), why}));
}

static void member_rule(mig_ctx *c, const kept_list *k, const nfy_rule *r,
                        uint32_t tok, bool called)
{
    if (r->match == NFY_MATCH_METHOD && !called)
        return;
    nfy_span sp = nfy__mig_tok_span(c, tok);
    const kept_test *kt =
        r->match == NFY_MATCH_ATTR ? kept_with(c, k, tok) : NULL;
    if (kt != NULL) { /* `if x.is_cuda: plugin(x)`: the other branch runs */
        nfy__mig_note_guard(
            c, sp, nfy_mig_fmt(c, ".%s", r->pattern),
            kt->tok == tok
                ? kt->why
                : nfy_mig_fmt(c, "what the test of line %u guards, %s",
                              c->m->toks[kt->tok].line, kt->why));
        return;
    }
    if (r->kind == NFY_RULE_FLAG) {
        nfy__mig_flag(c, r, sp, nfy_mig_fmt(c, ".%s", r->pattern), NULL);
        return;
    }
    if (r->kind != NFY_RULE_RENAME || r->replacement == NULL)
        return;
    nfy__mig_edit(c, r, tok, tok + 1, sp.start, sp.end, r->replacement,
                  nfy_mig_fmt(c, ".%s -> .%s", r->pattern, r->replacement));
}

static bool member_match(const nfy_rule *r)
{
    return r->match == NFY_MATCH_METHOD || r->match == NFY_MATCH_ATTR;
}

/* The run's member rules, listed once a run. */
static const mig_member_rules *member_rules(mig_ctx *c)
{
    mig_member_rules *mr = &c->p->run->members;
    if (mr->built)
        return mr;
    nfy_arena *a = &c->p->run->arena;
    size_t n = 0;
    nfy_rule_iter it;
    nfy_rules_iter_init(&it, c->rules, -1, -1);
    for (const nfy_rule *r; (r = nfy_rules_iter_next(&it));)
        n += member_match(r) && nfy__mig_rule_on(c, r);
    mr->rules = nfy_arena_alloc(a, (n + 1) * sizeof *mr->rules);
    mr->plen = nfy_arena_alloc(a, (n + 1) * sizeof *mr->plen);
    nfy_rules_iter_init(&it, c->rules, -1, -1);
    for (const nfy_rule *r; (r = nfy_rules_iter_next(&it));) {
        if (!member_match(r) || !nfy__mig_rule_on(c, r))
            continue;
        mr->rules[mr->len] = r;
        mr->plen[mr->len++] = r->pattern ? strlen(r->pattern) : 0;
    }
    mr->bucketed = mr->len <= 64;
    for (size_t k = 0; mr->bucketed && k < mr->len; k++) {
        if (mr->plen[k] < MIG_MEMBER_LENS)
            mr->by_len[mr->plen[k]] |= 1ull << k;
        else
            mr->long_rules |= 1ull << k;
    }
    mr->built = true;
    return mr;
}

/* The rules (as bits k) a member name of length len may fit, when the
 * list is bucketed. */
static uint64_t member_candidates(const mig_member_rules *mr, size_t len)
{
    if (!mr->bucketed)
        return 0;
    return len < MIG_MEMBER_LENS ? mr->by_len[len] : mr->long_rules;
}

/* The first rule from k on to compare with the name: the next candidate,
 * or k itself when the list is not bucketed (mr->len: none left). */
static size_t next_candidate(const mig_member_rules *mr, uint64_t cand,
                             size_t k)
{
    if (!mr->bucketed)
        return k;
    uint64_t rest = k < 64 ? cand & (~0ull << k) : 0;
    return rest ? (size_t)__builtin_ctzll(rest) : mr->len;
}

void nfy__mig_pass_members(mig_ctx *c)
{
    const mig_member_rules *mr = member_rules(c);
    mig_guard g = {0};
    kept_list kept = {0};
    for (int phase = 0; phase < 2; phase++) {
        for (uint32_t i = 0; i < c->m->nattrs && mr->len > 0; i++) {
            uint32_t tok = c->m->attrs[i].name_tok;
            nfy_str name = mig_tok(c, tok);
            bool checked = false, on_module = false;
            uint64_t cand = member_candidates(mr, name.len);
            for (size_t k = next_candidate(mr, cand, 0); k < mr->len;
                 k = next_candidate(mr, cand, k + 1)) {
                const nfy_rule *r = mr->rules[k];
                if (name.len != mr->plen[k] ||
                    (name.len > 0 && name.ptr[0] != r->pattern[0]) ||
                    !mig_str_is(name, r->pattern))
                    continue;
                if (!checked) {
                    on_module = nfy_mig_attr_on_module(c, tok);
                    checked = true;
                }
                if (on_module)
                    continue;
                if (phase == 0)
                    find_kept(c, r, tok, &g, &kept);
                else
                    member_rule(c, &kept, r, tok,
                                nfy_mig_tok_op(c, nfy__mig_next_sig(c, tok),
                                               NFY_OP_LPAR));
            }
        }
    }
    nfy_vec_free(&kept);
    nfy__mig_guard_free(&g);
}

/* ---- contexts
 * ------------------------------------------------------------------ */

bool nfy__mig_call_fits(const mig_ctx *c, uint32_t k, const char *callee)
{
    if (callee == NULL || callee[0] == '\0')
        return true;
    if (callee[0] == '.') {
        const nfy_call *call = &c->m->calls[k];
        return call->attr_tok != NFY_NONE &&
               mig_str_is(mig_tok(c, call->attr_tok), callee + 1) &&
               !nfy_mig_attr_on_module(c, call->attr_tok);
    }
    nfy_str q = mig_callee_qual(c, k);
    if (mig_str_is(q, callee))
        return true;
    /* a second run sees torch.cuda.X already spelled torch.npu.X */
    if (nfy_str_starts_with(q, NFY_STR_LIT("torch.npu.")) &&
        strncmp(callee, "torch.cuda.", 11) == 0)
        return mig_str_is(nfy_str_slice(q, 10, q.len), callee + 11);
    return false;
}

bool nfy__mig_arg_slot_fits(const mig_ctx *c, uint32_t a, const nfy_rule_ctx *x)
{
    const nfy_arg *arg = &c->m->args[a];
    if (x->pos < 0 && x->kw == NULL)
        return true;
    if (arg->kind == NFY_ARG_POS)
        return x->pos >= 0 && arg->pos == (uint32_t)x->pos;
    return arg->kind == NFY_ARG_KEYWORD && x->kw != NULL &&
           mig_tok_is(c, arg->name_tok, x->kw);
}

bool nfy__mig_arg_fits(const mig_ctx *c, uint32_t a, const nfy_rule_ctx *x)
{
    return nfy__mig_arg_slot_fits(c, a, x) &&
           nfy__mig_call_fits(c, c->m->args[a].call, x->name);
}

/* ---- rewrite-argument (generic)
 * ---------------------------------------------- */

/* The argument of call k that rule r addresses, or NFY_NONE. */
static uint32_t rule_arg(const mig_ctx *c, const nfy_rule *r, uint32_t k)
{
    if (r->arg_kw != NULL) {
        uint32_t a = nfy_pysyn_kwarg(c->m, k, r->arg_kw);
        if (a != NFY_NONE)
            return a;
    }
    if (r->arg_pos >= 0)
        return nfy_pysyn_posarg(c->m, k, (uint32_t)r->arg_pos);
    return NFY_NONE;
}

bool nfy__mig_skip_match(const char *skip, nfy_str text)
{
    if (skip == NULL || skip[0] == '\0')
        return false;
    regex_t re;
    if (regcomp(&re, skip, REG_EXTENDED | REG_ICASE | REG_NOSUB) != 0)
        return false;
    char buf[512];
    size_t n = text.len < sizeof buf - 1 ? text.len : sizeof buf - 1;
    memcpy(buf, text.ptr, n);
    buf[n] = '\0';
    bool hit = regexec(&re, buf, 0, NULL, 0) == 0;
    regfree(&re);
    return hit;
}

static void delete_arg(mig_ctx *c, const nfy_rule *r, uint32_t k, uint32_t a)
{
    const nfy_call *call = &c->m->calls[k];
    const nfy_arg *arg = &c->m->args[a];
    uint32_t idx = a - call->args_first;
    uint32_t start = arg->span.start, end = arg->span.end;
    uint32_t t1 = arg->first, t2 = arg->end;
    if (idx + 1 < call->nargs) {
        end = c->m->args[a + 1].span.start;
        t2 = c->m->args[a + 1].first;
    } else if (idx > 0) {
        start = c->m->args[a - 1].span.end;
        t1 = c->m->args[a - 1].end;
    } else {
        uint32_t comma = nfy__mig_next_sig(c, arg->end - 1);
        if (nfy_mig_tok_op(c, comma, NFY_OP_COMMA)) {
            end = c->m->toks[comma].end;
            t2 = comma + 1;
        }
    }
    nfy__mig_edit(
        c, r, t1, t2, start, end, "",
        nfy_mig_fmt(c, "drop argument %.*s",
                    NFY_STR_FMT(nfy_pysyn_span_text(c->m, arg->span))));
}

static char *fill_template(mig_ctx *c, const char *tpl, nfy_str arg)
{
    nfy_buf b = NFY_BUF_INIT;
    for (const char *p = tpl; *p;) {
        if (strncmp(p, "$ARG", 4) == 0) {
            (void)nfy_buf_addview(&b, arg);
            p += 4;
        } else {
            (void)nfy_buf_addch(&b, *p++);
        }
    }
    char *s = nfy_mig_strdup(c, nfy_buf_view(&b));
    nfy_buf_release(&b);
    return s;
}

static void arg_rule(mig_ctx *c, const nfy_rule *r, uint32_t k)
{
    uint32_t a = rule_arg(c, r, k);
    if (a == NFY_NONE)
        return;
    const nfy_arg *arg = &c->m->args[a];
    nfy_str text = nfy_pysyn_span_text(c->m, arg->value_span);
    if (nfy__mig_skip_match(r->skip, text))
        return;
    if (r->arg_value != NULL) {
        uint32_t off;
        nfy_str body = arg->value_end == arg->value_first + 1
                           ? nfy_mig_string_body(c, arg->value_first, &off)
                           : nfy_str_slice(text, 0, 0);
        if (!mig_str_is(body, r->arg_value))
            return;
    }
    if (r->flags & NFY_RULE_F_DELETE) {
        delete_arg(c, r, k, a);
        return;
    }
    if (r->replacement == NULL)
        return;
    char *rep = fill_template(c, r->replacement, text);
    if (strcmp(rep, nfy_mig_strdup(c, text)) == 0)
        return;
    nfy__mig_edit(c, r, arg->value_first, arg->value_end, arg->value_span.start,
                  arg->value_span.end, rep, NULL);
}

static inline bool call_may_fit(const mig_ctx *c, uint32_t k,
                                const char *callee, size_t len);

/* lens: the length of each context's callee name */
static void keyword_flag(mig_ctx *c, const nfy_rule *r, const size_t *lens,
                         uint32_t k)
{
    const nfy_call *call = &c->m->calls[k];
    bool fits = r->nctx == 0;
    for (size_t i = 0; i < r->nctx && !fits; i++)
        fits = r->ctx[i].kind == NFY_CTX_ARG &&
               (r->ctx[i].name == NULL ||
                call_may_fit(c, k, r->ctx[i].name, lens[i])) &&
               nfy__mig_call_fits(c, k, r->ctx[i].name);
    if (!fits)
        return;
    for (uint32_t i = 0; i < call->nargs; i++) {
        const nfy_arg *arg = &c->m->args[call->args_first + i];
        if (arg->kind == NFY_ARG_KEYWORD &&
            mig_tok_is(c, arg->name_tok, r->pattern))
            nfy__mig_flag(c, r, arg->span, nfy_mig_fmt(c, "%s=", r->pattern),
                          NULL);
    }
}

/* False only where nfy__mig_call_fits(c, k, callee) is (callee of len bytes):
 * a name of another length cannot be it. */
static inline bool call_may_fit(const mig_ctx *c, uint32_t k,
                                const char *callee, size_t len)
{
    if (len == 0)
        return true;
    if (callee[0] == '.') {
        uint32_t t = c->m->calls[k].attr_tok;
        return t != NFY_NONE && mig_tok(c, t).len + 1 == len;
    }
    size_t n = mig_callee_qual(c, k).len;
    return n == len || n + 1 == len; /* torch.npu.X for torch.cuda.X */
}

static bool is_arg_rewrite(const nfy_rule *r)
{
    return r->kind == NFY_RULE_REWRITE_ARG &&
           (r->match == NFY_MATCH_CALL || r->match == NFY_MATCH_METHOD);
}

static bool is_keyword_flag(const nfy_rule *r)
{
    return r->kind == NFY_RULE_FLAG && r->match == NFY_MATCH_KEYWORD;
}

/* The run's argument rules, listed once a run (not a walk over the whole
 * rule set per file). */
static const mig_arg_rules *arg_rules(mig_ctx *c)
{
    mig_arg_rules *ar = &c->p->run->args;
    if (ar->built)
        return ar;
    size_t n = 0;
    nfy_rule_iter it;
    nfy_rules_iter_init(&it, c->rules, -1, -1);
    for (const nfy_rule *r; (r = nfy_rules_iter_next(&it));)
        n +=
            (is_arg_rewrite(r) || is_keyword_flag(r)) && nfy__mig_rule_on(c, r);
    ar->rules = nfy_arena_alloc(&c->p->run->arena, (n + 1) * sizeof *ar->rules);
    nfy_rules_iter_init(&it, c->rules, -1, -1);
    for (const nfy_rule *r; (r = nfy_rules_iter_next(&it));) {
        if ((is_arg_rewrite(r) || is_keyword_flag(r)) && nfy__mig_rule_on(c, r))
            ar->rules[ar->len++] = r;
    }
    ar->built = true;
    return ar;
}

void nfy__mig_pass_args(mig_ctx *c)
{
    const mig_arg_rules *ar = arg_rules(c);
    for (size_t ri = 0; ri < ar->len; ri++) {
        const nfy_rule *r = ar->rules[ri];
        bool kwflag = is_keyword_flag(r);
        size_t *lens = NULL;
        if (kwflag) {
            lens = nfy_arena_alloc(c->arena, (r->nctx + 1) * sizeof *lens);
            for (size_t i = 0; i < r->nctx; i++)
                lens[i] = r->ctx[i].name ? strlen(r->ctx[i].name) : 0;
        }
        if (kwflag) {
            for (uint32_t k = 0; k < c->m->ncalls; k++)
                keyword_flag(c, r, lens, k);
            continue;
        }
        /* the callee a call must have: the pattern, or .pattern */
        const char *callee = r->pattern;
        char buf[256];
        if (r->match == NFY_MATCH_METHOD) {
            buf[0] = '.';
            size_t n = strlen(r->pattern);
            n = n < sizeof buf - 2 ? n : sizeof buf - 2;
            memcpy(buf + 1, r->pattern, n);
            buf[n + 1] = '\0';
            callee = buf;
        }
        size_t clen = strlen(callee);
        for (uint32_t k = 0; k < c->m->ncalls; k++) {
            if (call_may_fit(c, k, callee, clen) &&
                nfy__mig_call_fits(c, k, callee))
                arg_rule(c, r, k);
        }
    }
}
