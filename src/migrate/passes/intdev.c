/*
 * Integer device indices (pass "int-device"): on torch_npu an int given as a
 * device (`.to(0)`, `device=local_rank`, `map_location=rank`, DDP
 * `device_ids=[rank]`) still means a CUDA device, so it must become
 * "npu:N". A literal becomes "npu:0"; an expression known to be an int
 * (int(...), an argparse option declared type=int, a variable assigned one
 * of those, dist.get_rank()...) gets wrapped as f"npu:{x}". Names that only
 * look like an index (args.gpu, rank) are reported under the
 * "int-device-runtime" rule and left alone: no conditional is ever written.
 * `.cuda(i)` and `torch.cuda.set_device(i)` take ints on NPU too and are not
 * touched here.
 */
#include <ctype.h>
#include <string.h>

#include "migrate/ctxmatch.h"
#include "migrate/run.h"

typedef NFY_VEC(nfy_str) str_vec;

typedef struct {
    mig_ctx *c;
    const nfy_rule *rule;     /* int-device */
    const nfy_rule *doubtful; /* int-device-runtime, may be NULL */
    str_vec int_opts;         /* argparse dests declared type=int */
    const mig_ctx_tails *tx;  /* the rule's contexts by callee tail */
} intdev;

/* ---- argparse type=int options ---------------------------------------------
 */

static nfy_str dest_of(mig_ctx *c, uint32_t k)
{
    uint32_t off;
    uint32_t a = nfy_pysyn_kwarg(c->m, k, "dest");
    if (a == NFY_NONE) {
        for (uint32_t p = 0; p < 2; p++) {
            uint32_t b = nfy_pysyn_posarg(c->m, k, p);
            if (b == NFY_NONE)
                break;
            nfy_str s = nfy_mig_string_body(c, c->m->args[b].value_first, &off);
            if (nfy_str_starts_with(s, NFY_STR_LIT("--")))
                a = b;
        }
    }
    if (a == NFY_NONE)
        return nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    nfy_str s = nfy_mig_string_body(c, c->m->args[a].value_first, &off);
    while (s.len > 0 && s.ptr[0] == '-')
        s = nfy_str_slice(s, 1, s.len);
    char *d = nfy_mig_strdup(c, s);
    for (char *p = d; *p; p++)
        *p = *p == '-' ? '_' : *p;
    return nfy_str_from_cstr(d);
}

static void collect_int_opts(intdev *ix)
{
    mig_ctx *c = ix->c;
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        if (!mig_str_is(mig_callee_attr(c, k), "add_argument"))
            continue;
        uint32_t a = nfy_pysyn_kwarg(c->m, k, "type");
        if (a == NFY_NONE ||
            c->m->args[a].value_end != c->m->args[a].value_first + 1 ||
            !mig_tok_is(c, c->m->args[a].value_first, "int"))
            continue;
        nfy_str d = dest_of(c, k);
        if (d.len > 0)
            nfy_vec_push(&ix->int_opts, d);
    }
}

/* ---- is an expression an int?
 * ------------------------------------------------ */

static bool int_function(nfy_str name)
{
    static const char *const fns[] = {"int",
                                      "get_rank",
                                      "get_local_rank",
                                      "get_world_size",
                                      "current_device",
                                      "get_node_local_rank",
                                      "len"};
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
        if (mig_str_is(name, fns[i]))
            return true;
    }
    return false;
}

/* End of a NAME ('.' NAME)* chain starting at t, or NFY_NONE. */
static uint32_t chain_end(const mig_ctx *c, uint32_t t, uint32_t end,
                          uint32_t *nparts)
{
    *nparts = 0;
    if (t >= end || c->m->toks[t].kind != NFY_TOK_NAME)
        return NFY_NONE;
    for (;;) {
        (*nparts)++;
        uint32_t dot = t + 1;
        if (dot + 1 >= end || !nfy_mig_tok_op(c, dot, NFY_OP_DOT) ||
            c->m->toks[dot + 1].kind != NFY_TOK_NAME)
            return t;
        t = dot + 1;
    }
}

static bool is_int_expr(intdev *ix, uint32_t first, uint32_t end, int depth);

static bool name_is_int(intdev *ix, uint32_t first, uint32_t last,
                        uint32_t nparts, int depth)
{
    mig_ctx *c = ix->c;
    if (nparts == 2) {
        nfy_str attr = mig_tok(c, last);
        for (size_t i = 0; i < ix->int_opts.len; i++) {
            if (nfy_str_eq(attr, ix->int_opts.items[i]))
                return true;
        }
        return false;
    }
    if (nparts != 1 || depth > 4)
        return false;
    uint32_t u = nfy_pysyn_use_at(c->m, first);
    uint32_t b = u == NFY_NONE ? NFY_NONE : nfy_resolve_use(c->r, u)->binding;
    if (b == NFY_NONE)
        return false;
    const nfy_binding *bd = &c->m->bindings[b];
    if (bd->kind != NFY_BIND_ASSIGN || bd->value_first == NFY_NONE)
        return false;
    return is_int_expr(ix, bd->value_first, bd->value_end, depth + 1);
}

static bool is_int_expr(intdev *ix, uint32_t first, uint32_t end, int depth)
{
    mig_ctx *c = ix->c;
    if (end == first + 1 && c->m->toks[first].kind == NFY_TOK_NUMBER)
        return isdigit((unsigned char)mig_tok(c, first).ptr[0]) &&
               nfy_str_find_char(mig_tok(c, first), '.') < 0;
    uint32_t nparts;
    uint32_t last = chain_end(c, first, end, &nparts);
    if (last == NFY_NONE)
        return false;
    if (last + 1 == end)
        return name_is_int(ix, first, last, nparts, depth);
    uint32_t lpar = last + 1;
    if (!nfy_mig_tok_op(c, lpar, NFY_OP_LPAR) || c->m->match[lpar] != end - 1)
        return false;
    return int_function(mig_tok(c, last));
}

static bool looks_like_index(nfy_str name)
{
    static const char *const parts[] = {"rank",  "gpu",  "_id",  "idx",
                                        "index", "card", "local"};
    char low[64];
    size_t n = name.len < sizeof low - 1 ? name.len : sizeof low - 1;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)name.ptr[i]);
    low[n] = '\0';
    if (strcmp(low, "i") == 0 || strcmp(low, "id") == 0)
        return true;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (strstr(low, parts[i]) != NULL)
            return true;
    }
    return false;
}

/* ---- rewriting
 * ---------------------------------------------------------------- */

static void rewrite_value(intdev *ix, uint32_t first, uint32_t end)
{
    mig_ctx *c = ix->c;
    if (first >= end)
        return;
    nfy_span sp = nfy_pysyn_range_span(c->m, first, end);
    nfy_str text = nfy_pysyn_span_text(c->m, sp);
    const nfy_rule *r = ix->rule;
    if (end == first + 1 && c->m->toks[first].kind == NFY_TOK_NUMBER &&
        is_int_expr(ix, first, end, 0) && !nfy__mig_claimed(c, first, end)) {
        nfy__mig_edit(c, r, first, end, sp.start, sp.end,
                      nfy_mig_fmt(c, "\"npu:%.*s\"", NFY_STR_FMT(text)),
                      nfy_mig_fmt(c, "int device %.*s -> \"npu:%.*s\"",
                                  NFY_STR_FMT(text), NFY_STR_FMT(text)));
        return;
    }
    bool dq = nfy_str_find_char(text, '"') >= 0;
    bool sq = nfy_str_find_char(text, '\'') >= 0;
    if (is_int_expr(ix, first, end, 0) && !(dq && sq) &&
        nfy_str_find_char(text, '\n') < 0) {
        const char *q = dq ? "'" : "\"";
        const char *note =
            nfy_mig_fmt(c, "int device %.*s -> f%snpu:{%.*s}%s",
                        NFY_STR_FMT(text), q, NFY_STR_FMT(text), q);
        if (!nfy__mig_claimed(c, first, end)) { /* one readable replacement */
            nfy__mig_edit(
                c, r, first, end, sp.start, sp.end,
                nfy_mig_fmt(c, "f%snpu:{%.*s}%s", q, NFY_STR_FMT(text), q),
                note);
            return;
        }
        /* a rename inside (torch.cuda.current_device()): wrap around it */
        if (nfy__mig_edit(c, r, 0, 0, sp.start, sp.start,
                          nfy_mig_fmt(c, "f%snpu:{", q), note))
            nfy__mig_edit(c, r, 0, 0, sp.end, sp.end, nfy_mig_fmt(c, "}%s", q),
                          note);
        return;
    }
    uint32_t nparts;
    uint32_t last = chain_end(c, first, end, &nparts);
    if (ix->doubtful == NULL || last == NFY_NONE || last + 1 != end ||
        !looks_like_index(mig_tok(c, last)))
        return;
    nfy__mig_note_add(
        c, ix->doubtful, sp, NFY_CAT_UNKNOWN_API, NFY_OPTYPE_NONE,
        nfy_mig_strdup(c, text),
        nfy_mig_fmt(c,
                    "%.*s may be an int device index: on NPU an int "
                    "device means CUDA; if it is one, write "
                    "f\"npu:{%.*s}\" (left unchanged)",
                    NFY_STR_FMT(text), NFY_STR_FMT(text)));
}

static void ddp_args(intdev *ix, uint32_t k)
{
    mig_ctx *c = ix->c;
    nfy_str q = mig_callee_qual(c, k);
    if (!MIG_IS_LIT(q, "torch.nn.parallel.DistributedDataParallel") &&
        !MIG_IS_LIT(q, "torch.nn.parallel.distributed."
                       "DistributedDataParallel"))
        return;
    uint32_t a = nfy_pysyn_kwarg(c->m, k, "output_device");
    if (a != NFY_NONE)
        rewrite_value(ix, c->m->args[a].value_first, c->m->args[a].value_end);
    a = nfy_pysyn_kwarg(c->m, k, "device_ids");
    if (a == NFY_NONE)
        return;
    uint32_t f = c->m->args[a].value_first, e = c->m->args[a].value_end;
    if (e >= f + 3 && nfy_mig_tok_op(c, f, NFY_OP_LSQB) &&
        c->m->match[f] == e - 1) {
        uint32_t start = f + 1;
        for (uint32_t t = f + 1; t < e; t++) {
            bool sep = nfy_mig_tok_op(c, t, NFY_OP_COMMA) || t == e - 1;
            if (sep && t > start)
                rewrite_value(ix, start, t);
            if (sep)
                start = t + 1;
            else if (c->m->match[t] != NFY_NONE && c->m->match[t] > t)
                t = c->m->match[t];
        }
    }
}

/*
 * Devices the rule's list leaves out: torch.load(map_location=rank) and
 * torch.device(rank) with a single argument (torch.device("cuda", rank)
 * names the type and is handled by the string rules).
 */
static void extra_args(intdev *ix, uint32_t k)
{
    mig_ctx *c = ix->c;
    nfy_str q = mig_callee_qual(c, k);
    uint32_t a = NFY_NONE;
    if (MIG_IS_LIT(q, "torch.load"))
        a = nfy_pysyn_kwarg(c->m, k, "map_location");
    else if (MIG_IS_LIT(q, "torch.device") && c->m->calls[k].nargs == 1)
        a = nfy_pysyn_posarg(c->m, k, 0);
    if (a != NFY_NONE)
        rewrite_value(ix, c->m->args[a].value_first, c->m->args[a].value_end);
}

/* Last dotted component of a context callee (".to" -> "to"). */
static nfy_str callee_tail(const char *callee)
{
    nfy_str s = nfy_str_from_cstr(callee ? callee : "");
    for (size_t i = s.len; i > 0; i--) {
        if (s.ptr[i - 1] == '.')
            return nfy_str_slice(s, i, s.len);
    }
    return s;
}

/* Last component of call k's callee: its method name or dotted tail (the
 * tail up to a NUL, as a C-string copy of the dotted name would give). */
static nfy_str call_tail(const mig_ctx *c, uint32_t k)
{
    nfy_str a = mig_callee_attr(c, k);
    if (a.len > 0)
        return a;
    nfy_str d = c->m->calls[k].dotted;
    const char *nul = d.len ? memchr(d.ptr, '\0', d.len) : NULL;
    if (nul != NULL)
        d.len = (size_t)(nul - d.ptr);
    for (size_t i = d.len; i > 0; i--) {
        if (d.ptr[i - 1] == '.')
            return nfy_str_slice(d, i, d.len);
    }
    return d;
}

static inline bool same_text(nfy_str a, nfy_str b)
{
    return a.len == b.len && (a.len == 0 || !memcmp(a.ptr, b.ptr, a.len));
}

/* A cheap spread of tails over the buckets (the chains are compared in
 * full): length, first and last byte. */
static uint32_t tail_bucket(nfy_str s)
{
    if (s.len == 0)
        return 0;
    uint32_t h = (uint32_t)s.len * 7u + (unsigned char)s.ptr[0] * 3u +
                 (unsigned char)s.ptr[s.len - 1];
    return (h ^ (h >> 6)) & (MIG_TAIL_BUCKETS - 1);
}

/* Rule r's contexts by tail, once a run: chained backwards, so each chain
 * runs in context order (the first context that fits a call wins). */
static const mig_ctx_tails *ctx_tails(mig_ctx *c, const nfy_rule *r)
{
    mig_ctx_tails *tx = &c->p->run->intdev;
    if (tx->rule == r)
        return tx;
    nfy_arena *a = &c->p->run->arena;
    size_t n = r->nctx;
    tx->tails = nfy_arena_calloc(a, n + 1, sizeof *tx->tails);
    tx->next = nfy_arena_alloc(a, (n + 1) * sizeof *tx->next);
    for (size_t i = 0; i < n; i++)
        tx->tails[i] = callee_tail(r->ctx[i].name);
    for (size_t b = 0; b < MIG_TAIL_BUCKETS; b++)
        tx->bucket[b] = NFY_NONE;
    for (size_t i = n; i-- > 0;) {
        if (r->ctx[i].kind != NFY_CTX_ARG)
            continue;
        uint32_t b = tail_bucket(tx->tails[i]);
        tx->next[i] = tx->bucket[b];
        tx->bucket[b] = (uint32_t)i;
    }
    tx->rule = r;
    return tx;
}

static void ctx_args(intdev *ix, uint32_t k)
{
    mig_ctx *c = ix->c;
    nfy_str tail = mig_callee_attr(c, k);
    if (tail.len == 0 && c->m->calls[k].dotted.len > 0)
        tail = call_tail(c, k);
    if (tail.len == 0)
        return;
    for (uint32_t i = ix->tx->bucket[tail_bucket(tail)]; i != NFY_NONE;
         i = ix->tx->next[i]) {
        const nfy_rule_ctx *x = &ix->rule->ctx[i];
        if (x->kind != NFY_CTX_ARG || !same_text(ix->tx->tails[i], tail) ||
            !nfy__mig_call_fits(c, k, x->name))
            continue;
        uint32_t a = x->kw ? nfy_pysyn_kwarg(c->m, k, x->kw) : NFY_NONE;
        if (a == NFY_NONE && x->pos >= 0)
            a = nfy_pysyn_posarg(c->m, k, (uint32_t)x->pos);
        if (a != NFY_NONE)
            rewrite_value(ix, c->m->args[a].value_first,
                          c->m->args[a].value_end);
        return;
    }
}

void nfy__mig_pass_int_device(mig_ctx *c)
{
    intdev ix = {c,
                 nfy__mig_pass_rule_of(c, NFY_PASS_INT_DEVICE),
                 nfy__mig_pass_rule_of(c, NFY_PASS_INT_DEVICE_RUNTIME),
                 {0},
                 NULL};
    if (ix.rule == NULL)
        return;
    ix.tx = ctx_tails(c, ix.rule);
    collect_int_opts(&ix);
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        ctx_args(&ix, k);
        ddp_args(&ix, k);
        extra_args(&ix, k);
    }
    nfy_vec_free(&ix.int_opts);
}
