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
#include "migrate/run.h"
#include "migrate/valset.h"

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

/* CUDA-stack text worth listing when left alone: cuda, cuDNN, NCCL,
 * cuBLAS (any case). Only "cu" or "nc" (any case) can start one. */
static bool cuda_text(const mig_ctx *c, nfy_str s)
{
    const mig_bigrams *starts = &c->p->run->strings.cuda_starts;
    for (size_t i = nfy__mig_bigram_find(starts, s.ptr, s.len, 0); i < s.len;
         i = nfy__mig_bigram_find(starts, s.ptr, s.len, i + 1)) {
        if (cuda_word_at(s, i))
            return true;
    }
    return false;
}

/* Does the literal's text match r's pattern (see rules.h STRING)? */
static bool value_fits(const nfy_rule *r, nfy_str pat, nfy_str body)
{
    /* every form needs the whole pattern; the whole-value forms start with
       it (most literals fail on these two tests) */
    if (body.len < pat.len)
        return false;
    if (!(r->flags & NFY_RULE_F_SUBSTRING) && pat.len > 0 &&
        body.ptr[0] != pat.ptr[0])
        return false;
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
        !nfy__mig_expr_whole(c, s->first, s->end, c->m->stmts[st].value_first,
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
                nfy__mig_expr_in_ctx(c, use->tok, use->tok + 1, NFY_NONE,
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
    const char *note =
        nfy_mig_fmt(c, "\"%.*s\" -> \"%s\"", NFY_STR_FMT(pat), rep);
    const char *api = nfy__mig_snippet(c, body);
    if (!(r->flags & NFY_RULE_F_SUBSTRING)) {
        nfy__mig_edit_api(c, r, t, t + 1, off, off + (uint32_t)pat.len, rep,
                          note, api);
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
    nfy__mig_edit_api(c, r, t, t + 1, c->m->toks[t].start, c->m->toks[t].end,
                      nfy_mig_strdup(c, nfy_buf_view(&b)), note, api);
    nfy_buf_release(&b);
}

/* ---- left unchanged -------------------------------------------------------
 */

static bool callee_is_message(const mig_ctx *c, uint32_t k)
{
    static const mig_word words[] = {MIG_WORD("print"),
                                     MIG_WORD("info"),
                                     MIG_WORD("warning"),
                                     MIG_WORD("warn"),
                                     MIG_WORD("debug"),
                                     MIG_WORD("error"),
                                     MIG_WORD("critical"),
                                     MIG_WORD("exception"),
                                     MIG_WORD("log"),
                                     MIG_WORD("write"),
                                     MIG_WORD("fatal"),
                                     MIG_WORD("echo"),
                                     MIG_WORD("RuntimeError"),
                                     MIG_WORD("ValueError"),
                                     MIG_WORD("NotImplementedError"),
                                     MIG_WORD("AssertionError"),
                                     MIG_WORD("Exception"),
                                     MIG_WORD("TypeError"),
                                     MIG_WORD("UserWarning"),
                                     MIG_WORD("DeprecationWarning")};
    nfy_str name = mig_callee_attr(c, k);
    if (name.len == 0)
        name = c->m->calls[k].dotted;
    return mig_str_in(name, words, sizeof words / sizeof words[0]);
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
        c->lu_rule = nfy__mig_pass_rule_of(c, NFY_PASS_LEFT_UNCHANGED);
        c->lu_looked = true;
    }
    const nfy_rule *lu = c->lu_rule;
    if (lu == NULL)
        return;
    nfy__mig_note_add(c, lu, sp, NFY_CAT_LEFT_UNCHANGED, NFY_OPTYPE_NONE, api,
                      nfy_mig_fmt(c, "left unchanged: %s", reason));
}

/* ---- the pass -------------------------------------------------------------
 */

/* Does the literal text of f-string token t (its fields aside) name CUDA? */
static bool fstring_literal_cuda(const mig_ctx *c, uint32_t t)
{
    nfy_fstring_parts parts = {0};
    bool found = false;
    if (nfy_lex_fstring_split(c->src, &c->m->toks[t], &parts)) {
        for (size_t i = 0; i < parts.len && !found; i++) {
            found =
                !parts.items[i].is_expr &&
                cuda_text(c, nfy_pysyn_span_text(c->m, parts.items[i].span));
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
        return cuda_text(c, nfy_pysyn_span_text(c->m, s->span));
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

/*
 * noted() for the closing loop over every literal, which asks once a
 * literal and adds notes as it goes: the note starts in a hash set (a
 * file with many CUDA literals has as many notes), topped up with the
 * notes appended since the last question (notes are only appended).
 * Built on the first question: most files never ask.
 */
typedef struct {
    uint32_t *slots; /* span starts; NOTE_FREE: empty */
    size_t cap, len, seen;
} note_starts;

#define NOTE_FREE UINT32_MAX /* no span starts there (offsets < 2^30) */

static uint32_t *note_slot(const note_starts *ns, uint32_t start)
{
    size_t i = (start * 0x9E3779B1u) & (ns->cap - 1);
    while (ns->slots[i] != NOTE_FREE && ns->slots[i] != start)
        i = (i + 1) & (ns->cap - 1);
    return &ns->slots[i];
}

static void note_starts_add(mig_ctx *c, note_starts *ns, uint32_t start)
{
    if (2 * (ns->len + 1) > ns->cap) {
        note_starts old = *ns;
        ns->cap = old.cap ? 2 * old.cap : 64;
        ns->slots = nfy_arena_alloc(c->arena, ns->cap * sizeof *ns->slots);
        for (size_t i = 0; i < ns->cap; i++)
            ns->slots[i] = NOTE_FREE;
        for (size_t i = 0; i < old.cap; i++)
            if (old.slots[i] != NOTE_FREE)
                *note_slot(ns, old.slots[i]) = old.slots[i];
    }
    uint32_t *s = note_slot(ns, start);
    if (*s == NOTE_FREE) {
        *s = start;
        ns->len++;
    }
}

static bool noted_in(mig_ctx *c, note_starts *ns, nfy_span sp)
{
    for (; ns->seen < c->notes->len; ns->seen++)
        note_starts_add(c, ns, c->notes->items[ns->seen].span.start);
    return ns->cap > 0 && *note_slot(ns, sp.start) == sp.start;
}

static bool string_rule(const nfy_rule *r)
{
    return r->match == NFY_MATCH_STRING &&
           (r->kind == NFY_RULE_REWRITE_STRING || r->kind == NFY_RULE_FLAG);
}

/*
 * Try every string rule on literal lit: flags all report; of the rewrite
 * rules the one with the most specific matching context is its candidate
 * (so custom_fwd(device_type=...) beats the generic device_type= keyword).
 * Whether it is rewritten is decided for its whole value set.
 */
typedef mig_str_rule_list rule_list;

/* a == b for C strings, NULL counting as "" */
static bool mig_str_is_cstr(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") == 0;
}

/* Contexts that nfy__mig_expr_in_ctx cannot tell apart. */
static bool same_ctx(const nfy_rule_ctx *a, const nfy_rule_ctx *b)
{
    return a->kind == b->kind && a->pos == b->pos &&
           (a->name == NULL) == (b->name == NULL) &&
           (a->kw == NULL) == (b->kw == NULL) &&
           mig_str_is_cstr(a->name, b->name) && mig_str_is_cstr(a->kw, b->kw);
}

static bool is_strong(const nfy_rule_ctx *x);

static void strong_ctxs(mig_str_rules *out, nfy_arena *arena)
{
    size_t n = 0;
    for (size_t i = 0; i < out->all.len; i++)
        n += out->all.items[i].r->nctx;
    out->strong = nfy_arena_alloc(arena, (n + 1) * sizeof *out->strong);
    for (size_t i = 0; i < out->all.len; i++) {
        const nfy_rule *r = out->all.items[i].r;
        for (size_t k = 0; r->kind != NFY_RULE_FLAG && k < r->nctx; k++) {
            const nfy_rule_ctx *x = &r->ctx[k];
            bool seen = !is_strong(x);
            for (uint32_t j = 0; !seen && j < out->nstrong; j++)
                seen = same_ctx(out->strong[j], x);
            if (!seen)
                out->strong[out->nstrong++] = x;
        }
    }
}

/* Could rule k fit a literal starting with byte b? (value_fits's first
 * test, asked once per run) */
static bool may_start(const mig_str_rule *k, unsigned char b)
{
    return (k->r->flags & NFY_RULE_F_SUBSTRING) || k->pat.len == 0 ||
           (unsigned char)k->pat.ptr[0] == b;
}

static void substring_scan_build(mig_str_rules *out)
{
    out->sub_min = SIZE_MAX;
    for (size_t i = 0; i < out->all.len && out->nsub < 32; i++) {
        mig_str_rule *k = &out->all.items[i];
        if (!(k->r->flags & NFY_RULE_F_SUBSTRING) || k->pat.len < 2 ||
            !nfy__mig_bigrams_add(&out->sub_pairs, (unsigned char)k->pat.ptr[0],
                                  (unsigned char)k->pat.ptr[1]))
            continue;
        uint32_t bit = out->nsub++;
        if (k->pat.len < out->sub_min)
            out->sub_min = k->pat.len;
        k->sub = (int)bit;
        out->sub_rule[bit] = (uint32_t)i;
        out->sub_first[(unsigned char)k->pat.ptr[0]] |= 1u << bit;
        out->sub_second[(unsigned char)k->pat.ptr[1]] |= 1u << bit;
    }
}

/* The substring rules (bits, see mig_str_rules) whose pattern body holds:
 * one pass over body for all of them. */
static uint32_t substring_hits(const mig_str_rules *sr, nfy_str body)
{
    uint32_t hits = 0;
    const unsigned char *b = (const unsigned char *)body.ptr;
    if (body.len < sr->sub_min)
        return 0; /* too short to hold any of their patterns */
    for (size_t i = nfy__mig_bigram_find(&sr->sub_pairs, body.ptr, body.len, 0);
         i < body.len;
         i = nfy__mig_bigram_find(&sr->sub_pairs, body.ptr, body.len, i + 1)) {
        uint32_t m = sr->sub_first[b[i]] & sr->sub_second[b[i + 1]] & ~hits;
        for (; m; m &= m - 1) {
            int bit = __builtin_ctz(m);
            nfy_str pat = sr->all.items[sr->sub_rule[bit]].pat;
            if (pat.len <= body.len - i && !memcmp(b + i, pat.ptr, pat.len))
                hits |= 1u << bit;
        }
    }
    return hits;
}

void nfy__mig_str_rules_build(const nfy_rule_set *set, const nfy_rule_env *env,
                              nfy_arena *arena, mig_str_rules *out)
{
    memset(out, 0, sizeof *out);
    nfy_rule_iter it;
    nfy_rules_iter_init(&it, set, -1, NFY_MATCH_STRING);
    for (const nfy_rule *r; (r = nfy_rules_iter_next(&it));) {
        if (string_rule(r) &&
            nfy_rules_activity_in(r, env) != NFY_RULE_INACTIVE)
            nfy_vec_push(&out->all, ((mig_str_rule){
                                        r, nfy_str_from_cstr(r->pattern), -1}));
    }
    substring_scan_build(out);
    nfy__mig_bigrams_fold(&out->cuda_starts);
    (void)nfy__mig_bigrams_add(&out->cuda_starts, 'c', 'u');
    (void)nfy__mig_bigrams_add(&out->cuda_starts, 'n', 'c');
    size_t total = 0;
    for (unsigned b = 0; b < 256; b++)
        for (size_t i = 0; i < out->all.len; i++)
            total += may_start(&out->all.items[i], (unsigned char)b);
    out->by_byte = nfy_arena_alloc(arena, (total + 1) * sizeof *out->by_byte);
    uint32_t n = 0;
    for (unsigned b = 0; b < 256; b++) {
        out->first[b] = n;
        for (size_t i = 0; i < out->all.len; i++)
            if (may_start(&out->all.items[i], (unsigned char)b))
                out->by_byte[n++] = (uint32_t)i;
    }
    out->first[256] = n;
    strong_ctxs(out, arena);
}

/* What the pass knows of one literal before deciding its value set. */
typedef struct lit_info_s {
    nfy_str body;
    uint32_t off;
    const nfy_rule *best; /* candidate rewrite rule, or NULL */
    const nfy_rule *rule; /* the rule its value set rewrites it with */
    int spec;
    bool fits;         /* some rewrite rule's value fits the text */
    bool strong;       /* directly a device/backend argument */
    bool device_like;  /* a device string ("cuda", "cuda:N") */
    bool other_device; /* "cpu", "mps", ...: its set holds devices */
    bool hccl_branch;  /* guarded by a backend test that becomes "hccl" */
    uint32_t lit;      /* its index */
    const char *why;   /* kept: the CUDA-only code its test guards */
    const struct lit_info_s *kept_with; /* a kept test of its set, same def */
    bool done;    /* rewritten, kept or reported: no left-unchanged */
    nfy_str name; /* the name it meets (its value set), or empty */
    mig_lit_key key;
    uint32_t set;  /* first member of its value set */
    uint32_t next; /* next member of that set, or NFY_NONE */
} lit_info;

/* A device argument or keyword context (not `default=`). */
static bool is_strong(const nfy_rule_ctx *x)
{
    return x->kind == NFY_CTX_ARG ||
           (x->kind == NFY_CTX_KEYWORD && !mig_str_is_cstr(x->name, "default"));
}

/* A literal directly in a device argument or keyword (not `default=`):
 * proof that the value set it belongs to is a device. */
static bool strong_ctx(const mig_ctx *c, uint32_t head, uint32_t end,
                       uint32_t lit, const nfy_rule *r)
{
    for (size_t i = 0; i < r->nctx; i++) {
        const nfy_rule_ctx *x = &r->ctx[i];
        if (is_strong(x) && nfy__mig_expr_in_ctx(c, head, end, lit, x))
            return true;
    }
    return false;
}

/* Mark the literals that a backend test which will read "hccl" guards:
 * "nccl" compared with a backend (`dist.get_backend(g) == "nccl"`). */
static void mark_hccl_branches(mig_ctx *c, lit_info *info)
{
    for (uint32_t i = 0; i < c->m->nstrings; i++) {
        const nfy_strlit *s = &c->m->strings[i];
        uint32_t a, b;
        mig_lit_key key;
        if (!mig_str_is(info[i].body, "nccl") || !nfy__mig_lit_compared(c, i) ||
            !nfy__mig_name_is_device(nfy__mig_lit_name(c, i, &key)) ||
            !nfy__mig_guarded_tokens(c, s->first, s->end, &a, &b))
            continue;
        for (uint32_t j = 0; j < c->m->nstrings; j++) {
            if (j != i && c->m->strings[j].first >= a &&
                c->m->strings[j].first < b)
                info[j].hccl_branch = true;
        }
    }
}

/* Another device type: a value set holding it holds devices. */
static bool other_device_word(nfy_str body)
{
    static const mig_word words[] = {
        MIG_WORD("cpu"), MIG_WORD("mps"), MIG_WORD("xpu"), MIG_WORD("meta"),
        MIG_WORD("hpu"), MIG_WORD("xla"), MIG_WORD("npu"), MIG_WORD("cpu:0")};
    if (body.len < 3 || body.len > 5)
        return false; /* the lengths of the words above */
    return mig_str_in(body, words, sizeof words / sizeof words[0]);
}

static void scan_literal(mig_ctx *c, const mig_str_rules *sr, uint32_t lit,
                         lit_info *li)
{
    const nfy_strlit *s = &c->m->strings[lit];
    const rule_list *rl = &sr->all;
    unsigned char b0 = (unsigned char)li->body.ptr[0];
    uint32_t hits = substring_hits(sr, li->body);
    for (uint32_t k = sr->first[b0]; k < sr->first[b0 + 1]; k++) {
        size_t i = sr->by_byte[k];
        const nfy_rule *r = rl->items[i].r;
        int sub = rl->items[i].sub;
        if (sub >= 0 ? !((hits >> sub) & 1)
                     : !value_fits(r, rl->items[i].pat, li->body))
            continue;
        li->device_like |= (r->flags & NFY_RULE_F_DEVICE_FORM) != 0;
        if (r->kind != NFY_RULE_FLAG)
            li->fits = true;
        int spec = nfy__mig_expr_rule_spec(c, s->first, s->end, lit, r);
        bool flows = spec < 0 && flows_to_ctx(c, lit, r);
        if (flows)
            spec = 1;
        if (spec < 0)
            continue;
        if (r->kind == NFY_RULE_FLAG) {
            nfy__mig_flag(c, r, s->span, nfy__mig_snippet(c, li->body), NULL);
            continue;
        }
        li->strong |= flows || strong_ctx(c, s->first, s->end, lit, r);
        if (spec > li->spec || li->best == NULL)
            li->best = r, li->spec = spec;
    }
    /* `"cuda" if dist.get_backend() == "nccl" else "cpu"`: once the test
     * reads "hccl", its branch runs on NPU and its device must be one */
    for (size_t i = 0; li->hccl_branch && li->best == NULL && i < rl->len;
         i++) {
        const nfy_rule *r = rl->items[i].r;
        if (r->kind != NFY_RULE_FLAG && (r->flags & NFY_RULE_F_DEVICE_FORM) &&
            r->nctx > 0 && value_fits(r, rl->items[i].pat, li->body))
            li->best = r, li->spec = 1, li->strong = true;
    }
    li->other_device = !li->fits && other_device_word(li->body);
    if (li->fits || li->other_device)
        li->name = nfy__mig_lit_name(c, lit, &li->key);
}

/* ---- value sets ------------------------------------------------------------
 */

/* The last name of a plain chain (`device`, `args.device`) from vf to ve,
 * else empty. */
static nfy_str chain_last(const mig_ctx *c, uint32_t vf, uint32_t ve)
{
    nfy_str none = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    for (uint32_t t = vf; t < ve; t = nfy__mig_next_sig(c, t)) {
        bool name = c->m->toks[t].kind == NFY_TOK_NAME;
        bool want_name = ((t - vf) % 2) == 0;
        if (name != want_name || (!name && !nfy_mig_tok_op(c, t, NFY_OP_DOT)))
            return none;
        if (nfy__mig_next_sig(c, t) >= ve ||
            nfy__mig_next_sig(c, t) == NFY_NONE)
            return name ? mig_tok(c, t) : none;
    }
    return none;
}

/* Is argument a's value a device: some rewrite rule's device context
 * (each distinct one asked)? */
static bool device_arg(const mig_ctx *c, const mig_str_rules *sr,
                       const nfy_arg *arg)
{
    for (uint32_t i = 0; i < sr->nstrong; i++) {
        if (nfy__mig_expr_in_ctx(c, arg->value_first, arg->value_end, NFY_NONE,
                                 sr->strong[i]))
            return true;
    }
    return false;
}

/* Per argument, the last name of its value when that is a plain chain
 * (`device`, `args.device`), and whether it is a device argument (asked
 * only of arguments whose last name is looked up), found on first use:
 * most files have no value set that asks. */
typedef struct {
    nfy_str *last;
    uint8_t *device; /* 0: not asked, 1: no, 2: yes */
} dev_names;

static bool listed(const mig_ctx *c, dev_names *dev, nfy_str name)
{
    uint32_t n = c->m->nargs;
    if (dev->last == NULL) {
        dev->last = nfy_arena_alloc(c->arena, (n + 1) * sizeof *dev->last);
        dev->device = nfy_arena_calloc(c->arena, n + 1, 1);
        for (uint32_t a = 0; a < n; a++) {
            const nfy_arg *arg = &c->m->args[a];
            dev->last[a] = (nfy_str){NULL, 0};
            if (arg->value_first != NFY_NONE && arg->value_end <= c->m->ntoks)
                dev->last[a] = chain_last(c, arg->value_first, arg->value_end);
        }
    }
    for (uint32_t a = 0; a < n; a++) {
        if (dev->last[a].len == 0 || !nfy_str_eq(dev->last[a], name))
            continue;
        if (dev->device[a] == 0)
            dev->device[a] =
                device_arg(c, &c->p->run->strings, &c->m->args[a]) ? 2 : 1;
        if (dev->device[a] == 2)
            return true;
    }
    return false;
}

/* Left unchanged, naming the value set s it belongs to (NONE: none). */
static void note_in_set(mig_ctx *c, uint32_t lit, const char *reason,
                        const lit_info *li, uint32_t s)
{
    size_t n0 = c->notes->len;
    note_unchanged(c, c->m->strings[lit].span, reason,
                   nfy__mig_snippet(c, li->body));
    if (s != NFY_NONE && c->notes->len > n0)
        nfy__mig_tag_last_note(c, nfy__mig_set_id(c, s), li->name);
}

static uint32_t lit_line(const mig_ctx *c, uint32_t lit)
{
    return c->m->toks[c->m->strings[lit].first].line;
}

/* "ops.py:14, ops.py:16" for every member of set s. */
static const char *member_lines(mig_ctx *c, const lit_info *info, uint32_t s)
{
    nfy_buf b = NFY_BUF_INIT;
    const char *file = c->p->relpath ? c->p->relpath : c->src->path;
    for (uint32_t i = s; i != NFY_NONE; i = info[i].next) {
        if (info[i].set != s || !info[i].fits)
            continue;
        (void)nfy_buf_addf(&b, "%s%s:%u", b.len ? ", " : "", file,
                           lit_line(c, i));
    }
    char *out = nfy_mig_strdup(c, nfy_buf_view(&b));
    nfy_buf_release(&b);
    return out;
}

static void note_set(mig_ctx *c, const lit_info *info, uint32_t s,
                     nfy_pass_id pass, const char *why)
{
    const nfy_rule *r = nfy__mig_pass_rule_of(c, pass);
    if (r == NULL)
        return;
    uint32_t at = s;
    while (at != NFY_NONE && !info[at].fits)
        at = info[at].next;
    size_t members = 0;
    for (uint32_t i = at; i != NFY_NONE; i = info[i].next)
        members += info[i].fits;
    if (at == NFY_NONE || (members == 1 && noted(c, c->m->strings[at].span)))
        return; /* a finding (nccl-compare) already names the one member */
    const char *msg =
        nfy_mig_fmt(c, "value set '%.*s' left unchanged: %s; members: %s",
                    NFY_STR_FMT(info[s].name), why, member_lines(c, info, s));
    nfy__mig_note_add(c, r, c->m->strings[at].span, NFY_CAT_UNSUPPORTED_API,
                      NFY_OPTYPE_UNSUPPORTED,
                      nfy__mig_snippet(c, info[at].body),
                      nfy__mig_with_hint(c, msg, r->hint));
    nfy__mig_tag_last_note(c, nfy__mig_set_id(c, s), info[s].name);
    /* every other member is left unchanged with its set named */
    const char *reason =
        nfy_mig_fmt(c, "member of value set '%.*s' (%s at line %u)",
                    NFY_STR_FMT(info[s].name), r->id, lit_line(c, at));
    for (uint32_t i = info[at].next; i != NFY_NONE; i = info[i].next) {
        if (!info[i].fits)
            continue;
        note_in_set(c, i, reason, &info[i], s);
    }
}

/* The rewrite rule for member i of a device set: its own candidate, else
 * the most specific candidate of another member whose value fits. */
static const char *set_rule_for(const mig_ctx *c, const rule_list *rl,
                                const lit_info *info, uint32_t s, uint32_t i,
                                const nfy_rule **out)
{
    *out = info[i].best;
    const nfy_strlit *lit = &c->m->strings[i];
    if (lit->end != lit->first + 1 || (lit->flags & NFY_TOKF_BYTES))
        return "a member is not one plain literal";
    int spec = -1;
    for (uint32_t j = s; *out == NULL && j != NFY_NONE; j = info[j].next) {
        if (info[j].set != s || info[j].best == NULL)
            continue;
        for (size_t k = 0; k < rl->len; k++) {
            if (rl->items[k].r == info[j].best &&
                value_fits(info[j].best, rl->items[k].pat, info[i].body) &&
                info[j].spec > spec)
                *out = info[j].best, spec = info[j].spec;
        }
    }
    if (*out == NULL)
        return "a member's value has no device rewrite";
    return NULL;
}

/* Keep a compared device string whose test guards CUDA-only code. */
static bool keep_guard(mig_ctx *c, mig_guard *g, uint32_t i, lit_info *li)
{
    const nfy_strlit *s = &c->m->strings[i];
    const char *why = NULL;
    if (!nfy__mig_lit_compared(c, i))
        return false;
    if (!nfy__mig_guards_cuda_only(c, g, s->first, s->end, &why)) {
        /* `assert x.device.type == "cuda"` beside the kept test of x */
        const lit_info *k = li->kept_with;
        if (k == NULL)
            return false;
        why = nfy_mig_fmt(c, "what the test of line %u guards, %s",
                          c->m->toks[c->m->strings[k->lit].first].line, k->why);
    } else {
        li->why = why;
    }
    if (nfy__mig_note_guard(c, s->span, nfy__mig_snippet(c, li->body), why) &&
        li->name.len)
        nfy__mig_tag_last_note(c, nfy__mig_set_id(c, li->set), li->name);
    return true;
}

/* `if x.device.type == "cpu": portable(x) else: plugin(x)`: every other
 * device, NPU included, takes the CUDA-only branch. */
static void check_cpu_test(mig_ctx *c, mig_guard *g, uint32_t i,
                           const lit_info *li)
{
    const nfy_strlit *s = &c->m->strings[i];
    const char *why = NULL;
    if (!mig_str_is(li->body, "cpu") || li->name.len == 0 ||
        !nfy__mig_name_is_device(li->name) || !nfy__mig_lit_compared(c, i) ||
        !nfy__mig_other_branch_cuda_only(c, g, s->first, s->end, &why))
        return;
    const nfy_rule *r = nfy__mig_pass_rule_of(c, NFY_PASS_CPU_TEST_CUDA_PATH);
    if (r != NULL)
        nfy__mig_note_add(c, r, s->span, NFY_CAT_UNSUPPORTED_API,
                          NFY_OPTYPE_UNSUPPORTED, nfy__mig_snippet(c, li->body),
                          nfy_mig_fmt(c, "%s: the other branch reaches %s. %s",
                                      r->message, why, r->hint ? r->hint : ""));
}

static void rewrite_member(mig_ctx *c, mig_guard *g, uint32_t i, lit_info *li,
                           const nfy_rule *r)
{
    li->done = true;
    if (keep_guard(c, g, i, li))
        return;
    size_t n0 = c->edits->edits.len;
    rewrite_literal(c, r, c->m->strings[i].first, li->body, li->off);
    if (li->name.len && c->edits->edits.len > n0)
        nfy__mig_tag_edit(c, c->edits->edits.items[n0].span,
                          nfy__mig_set_id(c, li->set), li->name);
}

/* Members of set s in the def of a member whose test guards CUDA-only code
 * stay with it (they test the same thing). */
static void link_kept(mig_ctx *c, mig_guard *g, lit_info *info, uint32_t s)
{
    for (uint32_t i = s; i != NFY_NONE; i = info[i].next) {
        const nfy_strlit *li = &c->m->strings[i];
        const char *why = NULL;
        if (info[i].set != s || !info[i].fits || !nfy__mig_lit_compared(c, i) ||
            !nfy__mig_guards_cuda_only(c, g, li->first, li->end, &why))
            continue;
        info[i].why = why;
        uint32_t def = nfy__mig_def_of(c, li->first);
        for (uint32_t j = s; def != NFY_NONE && j != NFY_NONE;
             j = info[j].next) {
            if (j != i && info[j].set == s && info[j].kept_with == NULL &&
                nfy__mig_def_of(c, c->m->strings[j].first) == def)
                info[j].kept_with = &info[i];
        }
    }
}

/* Decide value set s (its members have set == s) as a whole. */
static void decide_set(mig_ctx *c, const rule_list *rl, mig_guard *g,
                       lit_info *info, uint32_t s, dev_names *dev)
{
    bool device =
        nfy__mig_name_is_device(info[s].name) || listed(c, dev, info[s].name);
    /* text rewrites ("torch.cuda.FloatTensor") select no device */
    device |= info[s].best != NULL &&
              (info[s].best->flags & NFY_RULE_F_SUBSTRING) != 0;
    bool any_best = false;
    for (uint32_t i = s; i != NFY_NONE; i = info[i].next) {
        if (info[i].set == s) {
            device |= info[i].strong || info[i].other_device;
            any_best |= info[i].best != NULL;
            info[i].done = true;
        }
    }
    if (!any_best) {
        for (uint32_t i = s; i != NFY_NONE; i = info[i].next)
            info[i].done &= info[i].set != s; /* plain left-unchanged notes */
        return;
    }
    if (!device) {
        note_set(c, info, s, NFY_PASS_VALUE_SET,
                 any_best ? "its name is not a device, so no member is "
                            "rewritten (rewriting only some would break "
                            "the others)"
                          : "its name is not a device");
        return;
    }
    size_t edits = 0, held = 0;
    for (uint32_t i = s; i != NFY_NONE; i = info[i].next) {
        if (info[i].set != s || !info[i].fits)
            continue;
        const char *why = set_rule_for(c, rl, info, s, i, &info[i].rule);
        if (why != NULL) {
            note_set(c, info, s, NFY_PASS_VALUE_SET, why);
            return;
        }
        if (nfy__mig_rule_edits(c, info[i].rule))
            edits++;
        else
            held++;
    }
    if (edits > 0 && held > 0) {
        note_set(c, info, s, NFY_PASS_VALUE_SET,
                 "a member's rewrite is not applied (unsafe or manual)");
        return;
    }
    link_kept(c, g, info, s);
    for (uint32_t i = s; i != NFY_NONE; i = info[i].next) {
        if (info[i].set == s && info[i].fits)
            rewrite_member(c, g, i, &info[i], info[i].rule);
    }
}

/* Value sets of the named literals (ctxvalset.c), into set and next. */
static void group_sets(mig_ctx *c, lit_info *info)
{
    uint32_t n = c->m->nstrings;
    mig_set_key *keys = nfy_arena_alloc(c->arena, (n + 1) * sizeof *keys);
    uint32_t *set = nfy_arena_alloc(c->arena, (n + 1) * sizeof *set);
    uint32_t *next = nfy_arena_alloc(c->arena, (n + 1) * sizeof *next);
    for (uint32_t i = 0; i < n; i++)
        keys[i] = (mig_set_key){info[i].name, info[i].key};
    nfy__mig_group_sets(c, keys, n, set, next);
    for (uint32_t i = 0; i < n; i++) {
        info[i].set = set[i];
        info[i].next = next[i];
    }
}

void nfy__mig_pass_strings(mig_ctx *c)
{
    const mig_str_rules *sr = &c->p->run->strings;
    const rule_list *rl = &sr->all;
    uint32_t n = c->m->nstrings;
    mig_guard g = {0};
    /* each entry written whole (no calloc: most files hold many) */
    lit_info *info = nfy_arena_alloc(c->arena, (n + 1) * sizeof *info);
    for (uint32_t i = 0; i < n; i++)
        info[i] = (lit_info){.body = c->lit_body[i],
                             .off = c->lit_off[i],
                             .spec = -1,
                             .lit = i,
                             .set = NFY_NONE};
    info[n] = (lit_info){0};
    mark_hccl_branches(c, info);
    for (uint32_t i = 0; i < n; i++) {
        if (info[i].body.len > 0)
            scan_literal(c, sr, i, &info[i]);
    }
    for (uint32_t i = 0; i < n; i++) {
        if (info[i].other_device)
            check_cpu_test(c, &g, i, &info[i]);
    }
    group_sets(c, info);
    dev_names dev = {0};
    for (uint32_t i = 0; i < n; i++) {
        if (info[i].set == i)
            decide_set(c, rl, &g, info, i, &dev);
        else if (info[i].set == NFY_NONE && info[i].best != NULL &&
                 c->m->strings[i].end == c->m->strings[i].first + 1 &&
                 !(c->m->strings[i].flags & NFY_TOKF_BYTES))
            rewrite_member(c, &g, i, &info[i], info[i].best);
    }
    note_starts ns = {0};
    for (uint32_t i = 0; i < n; i++) {
        const nfy_strlit *s = &c->m->strings[i];
        if (info[i].body.len == 0 || info[i].done ||
            !unchanged_cuda_text(c, s) || noted_in(c, &ns, s->span))
            continue;
        note_in_set(c, i, unchanged_reason(c, i, info[i].device_like), &info[i],
                    info[i].set);
    }
    nfy__mig_guard_free(&g);
}

/* The token in [lo, ntoks) whose text holds byte pos, or NFY_NONE. */
static uint32_t token_at(const mig_ctx *c, uint32_t lo, uint32_t pos)
{
    uint32_t lo0 = lo, n = c->m->ntoks, step = 1;
    /* galloping from lo: the next '#' is most often a few tokens on */
    for (; lo + step < n && c->m->toks[lo + step].start <= pos; step *= 2)
        lo += step;
    uint32_t hi = step < n - lo ? lo + step + 1 : n; /* toks[lo+step] > pos */
    while (hi - lo > 1) { /* toks[lo].start <= pos once lo is a match */
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->m->toks[mid].start <= pos)
            lo = mid;
        else
            hi = mid;
    }
    /* an empty token (DEDENT) starting at pos may sort after its holder */
    while (lo > lo0 && lo < c->m->ntoks && c->m->toks[lo].end <= pos &&
           c->m->toks[lo - 1].start == c->m->toks[lo].start)
        lo--;
    if (lo >= c->m->ntoks || c->m->toks[lo].start > pos ||
        c->m->toks[lo].end <= pos)
        return NFY_NONE;
    return lo;
}

/* Every comment starts with '#': the '#'s found in the text, each looked
 * up among the tokens, cost far less than a walk of every token. */
void nfy__mig_pass_comments(mig_ctx *c)
{
    const char *text = c->m->src->data;
    size_t len = c->m->src->len;
    uint32_t lo = 0;
    for (size_t pos = 0; pos < len;) {
        const char *h = memchr(text + pos, '#', len - pos);
        if (h == NULL)
            break;
        uint32_t at = (uint32_t)(h - text);
        uint32_t t = token_at(c, lo, at);
        if (t == NFY_NONE) {
            pos = at + 1;
            continue;
        }
        if (c->m->toks[t].kind == NFY_TOK_COMMENT &&
            cuda_text(c, mig_tok(c, t)))
            note_unchanged(c, nfy__mig_tok_span(c, t), "comment", NULL);
        pos = c->m->toks[t].end;
        lo = t + 1;
    }
}
