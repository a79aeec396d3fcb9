/*
 * String literals in context: "cuda"/"cuda:N"/f"cuda:{i}"/"cuda:%d" % i ->
 * "npu...", "nccl" -> "hccl" and the like, only where the literal reaches a
 * context of its rule (a device argument, a backend keyword, a comparison,
 * an argparse default, an assignment to a device-like name), directly or
 * through a variable it is assigned to and that later reaches one. Only
 * the leading pattern inside the quotes changes; prefixes, quotes and the
 * rest stay. Every other "cuda" (or "cudnn", "nccl") in a string or a
 * comment is left alone and recorded as left unchanged, with the reason.
 */
#include <string.h>

#include "migrate/ctxmatch.h"

/* Does s[i..] start with the lowercase ASCII word w, ignoring case? (|0x20
 * folds exactly the ASCII letters onto lowercase, and w is all letters.) */
static bool ci_at(nfy_str s, size_t i, const char *w, size_t n)
{
    if (s.len - i < n)
        return false;
    for (size_t k = 1; k < n; k++) {
        if (((unsigned char)s.ptr[i + k] | 0x20) != (unsigned char)w[k])
            return false;
    }
    return true;
}

/* Does one of cuda, cudnn, cublas (any case) start at s[i], or nccl? */
static bool cuda_word_at(nfy_str s, size_t i)
{
    unsigned ch = (unsigned char)s.ptr[i] | 0x20;
    if (ch == 'c')
        return ci_at(s, i, "cuda", 4) || ci_at(s, i, "cudnn", 5) ||
               ci_at(s, i, "cublas", 6);
    return ch == 'n' && ci_at(s, i, "nccl", 4);
}

/* Does a word start in the 8 bytes at p (p[0..9) readable)? Only "cu" or
 * "nc" (any case) can start one: the zero-byte test on x ^ 'c' | y ^ 'u',
 * y being the bytes one further, finds a byte pair that is both, exactly
 * as to whether there is one. */
static inline bool word_has_start(const char *p)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    const uint64_t fold = 0x2020202020202020ull;
    uint64_t x, y;
    memcpy(&x, p, sizeof x);
    memcpy(&y, p + 1, sizeof y);
    x |= fold;
    y |= fold;
    uint64_t a = (x ^ 0x6363636363636363ull) | (y ^ 0x7575757575757575ull);
    uint64_t b = (x ^ 0x6e6e6e6e6e6e6e6eull) | (y ^ 0x6363636363636363ull);
    return (((a - ones) & ~a) | ((b - ones) & ~b)) & highs;
}

/* CUDA-stack text worth listing when left alone: cuda, cuDNN, NCCL,
 * cuBLAS (any case). Skips 8 bytes at a time while no "cu" or "nc"
 * starts there. */
static bool cuda_text(nfy_str s)
{
    size_t i = 0;
    for (; i + 9 <= s.len; i += 8) {
        if (!word_has_start(s.ptr + i))
            continue;
        for (size_t k = i; k < i + 8; k++) {
            if (cuda_word_at(s, k))
                return true;
        }
    }
    for (; i < s.len; i++) {
        if (cuda_word_at(s, i))
            return true;
    }
    return false;
}

/* Does the literal's text match r's pattern (see rules.h STRING)? */
static bool value_fits(const nfy_rule *r, nfy_str pat, nfy_str body)
{
    if (r->flags & NFY_RULE_F_SUBSTRING)
        return nfy_str_contains(body, pat);
    if (body.len == pat.len &&
        (pat.len == 0 || !memcmp(body.ptr, pat.ptr, pat.len)))
        return true;
    return (r->flags & NFY_RULE_F_DEVICE_FORM) && body.len > pat.len &&
           nfy_str_starts_with(body, pat) && body.ptr[pat.len] == ':';
}

/* The binding a literal is assigned to (x = "cuda", or a branch), or NONE. */
static uint32_t literal_binding(const mig_ctx *c, uint32_t lit)
{
    const nfy_strlit *s = &c->m->strings[lit];
    if (s->binding != NFY_NONE)
        return s->binding;
    uint32_t st = s->stmt;
    if (st == NFY_NONE || c->m->stmts[st].kind != NFY_STMT_ASSIGN ||
        c->m->stmts[st].value_first == NFY_NONE ||
        c->tok_arg[s->first] != NFY_NONE ||
        !mig_expr_whole(c, s->first, s->end, c->m->stmts[st].value_first,
                        c->m->stmts[st].value_end))
        return NFY_NONE;
    /* "cuda:{}".format(i), "cuda:%d" % i, or a branch of x if c else y */
    for (uint32_t b = 0; b < c->m->nbindings; b++) {
        if (c->m->bindings[b].stmt == st &&
            c->m->bindings[b].kind == NFY_BIND_ASSIGN &&
            c->m->bindings[b].value_first != NFY_NONE)
            return b;
    }
    return NFY_NONE;
}

/* Is binding x the same variable as b: the same name in the same scope?
 * (`if ...: arg = "cuda:0" else: arg = "cpu"` and then `torch.device(arg)`:
 * the use resolves to the last assignment, the literal is in another.) */
static bool same_variable(const mig_ctx *c, uint32_t x, uint32_t b)
{
    if (x == b)
        return true;
    if (x == NFY_NONE || x >= c->m->nbindings)
        return false;
    const nfy_binding *bx = &c->m->bindings[x], *bb = &c->m->bindings[b];
    return bx->scope == bb->scope && bx->kind == NFY_BIND_ASSIGN &&
           nfy_str_eq(mig_tok(c, bx->tok), mig_tok(c, bb->tok));
}

/* Does a variable holding the literal later stand in one of r's contexts? */
static bool flows_to_ctx(const mig_ctx *c, uint32_t lit, const nfy_rule *r)
{
    uint32_t b = literal_binding(c, lit);
    if (b == NFY_NONE || r->nctx == 0)
        return false;
    for (uint32_t u = 0; u < c->m->nuses; u++) {
        const nfy_name_use *use = &c->m->uses[u];
        if (use->nparts != 1 || use->ctx != NFY_CTX_LOAD ||
            !same_variable(c, nfy_resolve_use(c->r, u)->binding, b))
            continue;
        for (size_t i = 0; i < r->nctx; i++) {
            if (r->ctx[i].kind != NFY_CTX_ASSIGN &&
                mig_expr_in_ctx(c, use->tok, use->tok + 1, NFY_NONE,
                                &r->ctx[i]))
                return true;
        }
    }
    return false;
}

static void rewrite_literal(mig_ctx *c, const nfy_rule *r, uint32_t t,
                            nfy_str body, uint32_t off)
{
    nfy_str pat = nfy_str_from_cstr(r->pattern);
    const char *rep = r->replacement ? r->replacement : "";
    const char *note = mig_fmt(c, "\"%.*s\" -> \"%s\"", NFY_STR_FMT(pat), rep);
    const char *api = mig_snippet(c, body);
    if (!(r->flags & NFY_RULE_F_SUBSTRING)) {
        mig_edit_api(c, r, t, t + 1, off, off + (uint32_t)pat.len, rep, note,
                     api);
        return;
    }
    if (c->claimed[t] != CLAIM_NONE)
        return; /* a whole-token rewrite would undo edits inside it */
    nfy_buf b = NFY_BUF_INIT;
    nfy_str tok = mig_tok(c, t);
    size_t head = off - c->m->toks[t].start;
    (void)nfy_buf_add(&b, tok.ptr, head);
    for (size_t i = 0; i < body.len;) {
        if (i + pat.len <= body.len &&
            memcmp(body.ptr + i, pat.ptr, pat.len) == 0) {
            (void)nfy_buf_addstr(&b, rep);
            i += pat.len;
        } else {
            (void)nfy_buf_addch(&b, body.ptr[i++]);
        }
    }
    (void)nfy_buf_add(&b, tok.ptr + head + body.len, tok.len - head - body.len);
    mig_edit_api(c, r, t, t + 1, c->m->toks[t].start, c->m->toks[t].end,
                 mig_strdup(c, nfy_buf_view(&b)), note, api);
    nfy_buf_release(&b);
}

/* ---- left unchanged -------------------------------------------------------
 */

static bool callee_is_message(const mig_ctx *c, uint32_t k)
{
    static const char *const words[] = {"print",
                                        "info",
                                        "warning",
                                        "warn",
                                        "debug",
                                        "error",
                                        "critical",
                                        "exception",
                                        "log",
                                        "write",
                                        "fatal",
                                        "echo",
                                        "RuntimeError",
                                        "ValueError",
                                        "NotImplementedError",
                                        "AssertionError",
                                        "Exception",
                                        "TypeError",
                                        "UserWarning",
                                        "DeprecationWarning"};
    nfy_str name = mig_callee_attr(c, k);
    if (name.len == 0)
        name = c->m->calls[k].dotted;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (mig_str_is(name, words[i]))
            return true;
    }
    return false;
}

static const char *unchanged_reason(const mig_ctx *c, uint32_t lit,
                                    bool device_like)
{
    const nfy_strlit *s = &c->m->strings[lit];
    if (s->ctx == NFY_STR_DOCSTRING)
        return "docstring text";
    for (uint32_t a = s->arg; a != NFY_NONE;) {
        const nfy_arg *arg = &c->m->args[a];
        if (arg->kind == NFY_ARG_KEYWORD &&
            mig_tok_is(c, arg->name_tok, "help"))
            return "help text";
        if (callee_is_message(c, arg->call))
            return "log or message text";
        a = c->m->calls[arg->call].parent_arg;
    }
    if (s->flags & NFY_TOKF_BYTES)
        return "bytes literal";
    if (s->ctx == NFY_STR_DICT_KEY)
        return "dictionary key";
    if (device_like)
        return "device string that does not reach a device argument "
               "(check by hand)";
    return "text that names CUDA, not a device or backend argument";
}

static void note_unchanged(mig_ctx *c, nfy_span sp, const char *reason,
                           const char *api)
{
    if (!c->lu_looked) {
        c->lu_rule = mig_pass_rule_of(c, NFY_PASS_LEFT_UNCHANGED);
        c->lu_looked = true;
    }
    const nfy_rule *lu = c->lu_rule;
    if (lu == NULL)
        return;
    mig_note_add(c, lu, sp, MIG_CAT_LEFT_UNCHANGED, MIG_OP_NONE, api,
                 mig_fmt(c, "left unchanged: %s", reason));
}

/* ---- the pass -------------------------------------------------------------
 */

/* Does the literal text of f-string token t (its fields aside) name CUDA? */
static bool fstring_literal_cuda(const mig_ctx *c, uint32_t t)
{
    nfy_fstring_parts parts = {0};
    bool found = false;
    if (nfy_fstring_split(c->src, &c->m->toks[t], &parts)) {
        for (size_t i = 0; i < parts.len && !found; i++) {
            found = !parts.items[i].is_expr &&
                    cuda_text(nfy_pysyn_span_text(c->m, parts.items[i].span));
        }
    }
    nfy_vec_free(&parts);
    return found;
}

/* Does the literal, as left in the output, still name CUDA? A string edited
 * inside (CLAIM_INSIDE: an f-string whose fields were rewritten) still
 * counts by its literal text; a rewritten one (CLAIM_WHOLE) does not. */
static bool unchanged_cuda_text(const mig_ctx *c, const nfy_strlit *s)
{
    if (c->claimed[s->first] == CLAIM_NONE)
        return cuda_text(nfy_pysyn_span_text(c->m, s->span));
    return c->claimed[s->first] == CLAIM_INSIDE &&
           fstring_literal_cuda(c, s->first);
}

/* Has a finding (a flag such as nccl-compare) already explained sp? */
static bool noted(const mig_ctx *c, nfy_span sp)
{
    for (size_t i = 0; i < c->notes->len; i++) {
        if (c->notes->items[i].span.start == sp.start)
            return true;
    }
    return false;
}

static bool string_rule(const nfy_rule *r)
{
    return r->match == NFY_MATCH_STRING &&
           (r->kind == NFY_RULE_REWRITE_STRING || r->kind == NFY_RULE_FLAG);
}

/*
 * Try every string rule on literal lit: flags all report; of the rewrite
 * rules the one with the most specific matching context wins (so
 * custom_fwd(device_type=...) beats the generic device_type= keyword).
 * True when the literal was rewritten.
 */
typedef struct {
    const nfy_rule *r;
    nfy_str pat; /* r->pattern, measured once per file */
} str_rule;

typedef NFY_VEC(str_rule) rule_list;

static bool try_rules(mig_ctx *c, const rule_list *rl, uint32_t lit,
                      nfy_str body, uint32_t off, bool *device_like)
{
    const nfy_strlit *s = &c->m->strings[lit];
    bool single = s->end == s->first + 1;
    const nfy_rule *best = NULL;
    int best_spec = -1;
    for (size_t i = 0; i < rl->len; i++) {
        const nfy_rule *r = rl->items[i].r;
        if (!value_fits(r, rl->items[i].pat, body))
            continue;
        *device_like |= (r->flags & NFY_RULE_F_DEVICE_FORM) != 0;
        int spec = mig_expr_rule_spec(c, s->first, s->end, lit, r);
        if (spec < 0 && flows_to_ctx(c, lit, r))
            spec = 1;
        if (spec < 0)
            continue;
        if (r->kind == NFY_RULE_FLAG)
            mig_flag(c, r, s->span, mig_snippet(c, body), NULL);
        else if (spec > best_spec)
            best = r, best_spec = spec;
    }
    if (best == NULL || !single || (s->flags & NFY_TOKF_BYTES))
        return false;
    rewrite_literal(c, best, s->first, body, off);
    /* an unsafe rule that was not applied still explains the literal */
    return true;
}

void mig_pass_strings(mig_ctx *c)
{
    rule_list rl = {0};
    nfy_rule_iter it;
    nfy_rule_iter_init(&it, c->rules, -1, NFY_MATCH_STRING);
    for (const nfy_rule *r; (r = nfy_rule_iter_next(&it));) {
        if (string_rule(r) && mig_rule_on(c, r))
            nfy_vec_push(&rl, ((str_rule){r, nfy_str_from_cstr(r->pattern)}));
    }
    for (uint32_t i = 0; i < c->m->nstrings; i++) {
        const nfy_strlit *s = &c->m->strings[i];
        uint32_t off = 0;
        nfy_str body = mig_string_body(c, s->first, &off);
        if (body.len == 0)
            continue;
        bool device_like = false;
        bool done = try_rules(c, &rl, i, body, off, &device_like);
        if (done || !unchanged_cuda_text(c, s) || noted(c, s->span))
            continue;
        note_unchanged(c, s->span, unchanged_reason(c, i, device_like),
                       mig_snippet(c, body));
    }
    nfy_vec_free(&rl);
}

void mig_pass_comments(mig_ctx *c)
{
    for (uint32_t t = 0; t < c->m->ntoks; t++) {
        if (c->m->toks[t].kind == NFY_TOK_COMMENT && cuda_text(mig_tok(c, t)))
            note_unchanged(c, mig_tok_span(c, t), "comment", NULL);
    }
}
