/*
 * The name a string literal meets, which keys its value set (valset.h):
 * `def f(impl="cuda")` and `f(impl="cuda")` meet `impl`, `impl in ["ref",
 * "cuda"]` and `self.impl == "cuda"` too; `x.device.type == "cuda"` meets
 * `device.type`; `add_argument("--dist-backend", default="nccl")` meets
 * `dist_backend`; `cfg = {"impl": "cuda"}` meets `impl`.
 */
#include <stdlib.h>
#include <string.h>

#include "migrate/ctxmatch.h"
#include "migrate/valset.h"

static bool is_name(const mig_ctx *c, uint32_t t)
{
    return t != NFY_NONE && c->m->toks[t].kind == NFY_TOK_NAME;
}

static bool is_keyword(nfy_str s)
{
    static const char *const kw[] = {
        "and",    "or",     "not",   "in",     "is",    "if",  "else", "elif",
        "return", "assert", "while", "lambda", "yield", "for", "await"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++) {
        if (mig_str_is(s, kw[i]))
            return true;
    }
    return false;
}

/* Calls that only convert or normalise their operand: the name is inside. */
static bool is_wrapper(nfy_str s)
{
    static const char *const w[] = {"str",   "repr",  "lower",
                                    "upper", "strip", "casefold"};
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        if (mig_str_is(s, w[i]))
            return true;
    }
    return false;
}

static bool is_close(const mig_ctx *c, uint32_t t)
{
    return nfy_mig_tok_op(c, t, NFY_OP_RPAR) ||
           nfy_mig_tok_op(c, t, NFY_OP_RSQB);
}

/* First token of the primary expression that ends at token t. */
static uint32_t primary_start(const mig_ctx *c, uint32_t t)
{
    uint32_t start = t;
    while (t != NFY_NONE) {
        if (is_close(c, t) && c->m->match[t] != NFY_NONE) {
            start = c->m->match[t];
            uint32_t p = nfy__mig_prev_sig(c, start);
            if (is_close(c, p) || (is_name(c, p) && !is_keyword(mig_tok(c, p))))
                t = p;
            else
                break;
        } else if (is_name(c, t) && !is_keyword(mig_tok(c, t))) {
            start = t;
            uint32_t p = nfy__mig_prev_sig(c, t);
            if (!nfy_mig_tok_op(c, p, NFY_OP_DOT))
                break;
            t = nfy__mig_prev_sig(c, p);
        } else {
            break;
        }
    }
    return start;
}

/* One past the last token of the primary expression starting at t. */
static uint32_t primary_end(const mig_ctx *c, uint32_t t)
{
    if (t == NFY_NONE)
        return t;
    uint32_t last = t;
    if (c->m->match[t] != NFY_NONE)
        last = c->m->match[t];
    for (;;) {
        uint32_t n = nfy__mig_next_sig(c, last);
        if (nfy_mig_tok_op(c, n, NFY_OP_DOT) &&
            is_name(c, nfy__mig_next_sig(c, n)))
            last = nfy__mig_next_sig(c, n);
        else if ((nfy_mig_tok_op(c, n, NFY_OP_LPAR) ||
                  nfy_mig_tok_op(c, n, NFY_OP_LSQB)) &&
                 c->m->match[n] != NFY_NONE)
            last = c->m->match[n];
        else
            break;
    }
    return last + 1;
}

/*
 * The name an operand [a, b) stands for: its last name outside brackets
 * (`args.impl` -> impl, `dist.get_backend(g)` -> get_backend), looking
 * inside str(...)/repr(...), and `X.type` kept whole (`x.device.type` ->
 * device.type, `torch.device(d).type` -> device.type).
 */
static nfy_str operand_name(mig_ctx *c, uint32_t a, uint32_t b, uint32_t *at)
{
    nfy_str none = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    uint32_t last = NFY_NONE;
    for (uint32_t t = a; t < b && t != NFY_NONE; t = nfy__mig_next_sig(c, t)) {
        if (is_name(c, t) && !is_keyword(mig_tok(c, t)) &&
            !is_wrapper(mig_tok(c, t)))
            last = t;
        else if (is_name(c, t) && is_wrapper(mig_tok(c, t)) &&
                 last == NFY_NONE &&
                 nfy_mig_tok_op(c, nfy__mig_next_sig(c, t), NFY_OP_LPAR)) {
            uint32_t l = nfy__mig_next_sig(c, t), r = c->m->match[l];
            if (r != NFY_NONE && r < b)
                return operand_name(c, nfy__mig_next_sig(c, l), r, at);
        }
        if (c->m->match[t] != NFY_NONE && c->m->match[t] > t)
            t = c->m->match[t];
    }
    if (last == NFY_NONE)
        return none;
    *at = last;
    nfy_str name = mig_tok(c, last);
    uint32_t dot = nfy__mig_prev_sig(c, last);
    if (!mig_str_is(name, "type") || !nfy_mig_tok_op(c, dot, NFY_OP_DOT))
        return name;
    uint32_t base = nfy__mig_prev_sig(c, dot);
    if (nfy_mig_tok_op(c, base, NFY_OP_RPAR) && c->m->match[base] != NFY_NONE)
        base = nfy__mig_prev_sig(c, c->m->match[base]);
    if (!is_name(c, base))
        return name;
    return nfy_str_from_cstr(
        nfy_mig_fmt(c, "%.*s.type", NFY_STR_FMT(mig_tok(c, base))));
}

/* The operand on the other side of comparison operator op from [head,
 * end) (before it when op precedes head). */
static nfy_str compared_name(mig_ctx *c, uint32_t op, bool before, uint32_t *at)
{
    if (before) {
        uint32_t t = nfy__mig_prev_sig(c, op);
        if (mig_tok_is(c, op, "in") && mig_tok_is(c, t, "not"))
            t = nfy__mig_prev_sig(c, t);
        if (t == NFY_NONE)
            return nfy_str_slice(NFY_STR_LIT(""), 0, 0);
        return operand_name(c, primary_start(c, t), t + 1, at);
    }
    uint32_t t = nfy__mig_next_sig(c, op);
    if (mig_tok_is(c, op, "not"))
        t = nfy__mig_next_sig(c, t);
    return operand_name(c, t, primary_end(c, t), at);
}

/* Literal [head, end) compared: the operand's name. */
static nfy_str compare_name(mig_ctx *c, uint32_t head, uint32_t end,
                            uint32_t *at)
{
    nfy_str none = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    uint32_t disp = nfy__mig_compared_display(c, head, end);
    if (disp != NFY_NONE) {
        head = disp;
        end = c->m->match[disp] + 1;
    }
    uint32_t p = nfy__mig_prev_sig(c, head);
    if (mig_tok_is(c, p, "not") &&
        mig_tok_is(c, nfy__mig_next_sig(c, head), "in")) /* "x" not in y */
        p = NFY_NONE;
    uint32_t n = nfy__mig_next_sig(c, end - 1);
    if (mig_tok_is(c, n, "not"))
        n = nfy__mig_next_sig(c, n);
    if (p != NFY_NONE && nfy__mig_tok_is_cmp(c, p))
        return compared_name(c, p, true, at);
    if (n != NFY_NONE && nfy__mig_tok_is_cmp(c, n))
        return compared_name(c, n, false, at);
    return none;
}

bool nfy__mig_lit_compared(const mig_ctx *c, uint32_t lit)
{
    const nfy_strlit *s = &c->m->strings[lit];
    uint32_t head = s->first, end = s->end;
    uint32_t disp = nfy__mig_compared_display(c, head, end);
    if (disp != NFY_NONE)
        return true;
    uint32_t n = nfy__mig_next_sig(c, end - 1);
    if (mig_tok_is(c, n, "not"))
        n = nfy__mig_next_sig(c, n);
    return nfy__mig_tok_is_cmp(c, nfy__mig_prev_sig(c, head)) ||
           nfy__mig_tok_is_cmp(c, n);
}

/* dest of an add_argument call: dest=, else the first "--long" option. */
static nfy_str argparse_dest(mig_ctx *c, uint32_t k, uint32_t *at)
{
    nfy_str none = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    const nfy_call *call = &c->m->calls[k];
    nfy_str best = none;
    for (uint32_t i = 0; i < call->nargs; i++) {
        const nfy_arg *a = &c->m->args[call->args_first + i];
        uint32_t off, v = a->value_first;
        if (v == NFY_NONE || v + 1 != a->value_end)
            continue;
        nfy_str b = nfy_mig_string_body(c, v, &off);
        if (a->kind == NFY_ARG_KEYWORD && mig_tok_is(c, a->name_tok, "dest")) {
            *at = v;
            return b;
        }
        if (a->kind == NFY_ARG_POS && best.len == 0 &&
            nfy_str_starts_with(b, NFY_STR_LIT("--")) && b.len > 2) {
            best = nfy_str_slice(b, 2, b.len);
            *at = v;
        } else if (a->kind == NFY_ARG_POS && i == 0 && b.len > 0 &&
                   b.ptr[0] != '-') {
            best = b; /* a positional argument */
            *at = v;
        }
    }
    if (best.len == 0)
        return none;
    char *d = nfy_mig_strdup(c, best);
    for (char *p = d; *p; p++)
        *p = *p == '-' ? '_' : *p;
    return nfy_str_from_cstr(d);
}

/* `backend: str = field(default="nccl")`: the field's name. */
static nfy_str field_target(mig_ctx *c, uint32_t k, uint32_t *at)
{
    nfy_str none = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    uint32_t s = c->m->calls[k].stmt;
    if (s == NFY_NONE || c->m->calls[k].parent_call != NFY_NONE)
        return none;
    const nfy_stmt *st = &c->m->stmts[s];
    if ((st->kind != NFY_STMT_ASSIGN && st->kind != NFY_STMT_ANNASSIGN) ||
        st->value_first != c->m->calls[k].callee_first)
        return none;
    uint32_t tgt =
        st->kind == NFY_STMT_ANNASSIGN
            ? st->first
            : nfy__mig_prev_sig(c, nfy__mig_prev_sig(c, st->value_first));
    if (!is_name(c, tgt))
        return none;
    *at = tgt;
    return mig_tok(c, tgt);
}

/* The literal is the value of an argument: its keyword (or dest). */
static nfy_str arg_name(mig_ctx *c, uint32_t head, uint32_t end, uint32_t *at)
{
    nfy_str none = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    uint32_t a = c->tok_arg[head];
    if (a == NFY_NONE)
        return none;
    const nfy_arg *arg = &c->m->args[a];
    if (arg->kind != NFY_ARG_KEYWORD)
        return none;
    bool whole =
        nfy__mig_expr_whole(c, head, end, arg->value_first, arg->value_end);
    if (mig_str_is(mig_callee_attr(c, arg->call), "add_argument") &&
        (mig_tok_is(c, arg->name_tok, "choices") ||
         (whole && mig_tok_is(c, arg->name_tok, "default"))))
        return argparse_dest(c, arg->call, at);
    if (!whole)
        return none;
    if (mig_tok_is(c, arg->name_tok, "default"))
        return field_target(c, arg->call, at);
    *at = arg->name_tok;
    return mig_tok(c, arg->name_tok);
}

/* `x = "cuda"`, `self.device = "cuda" if ok else "cpu"`: the target. */
static nfy_str assign_name(mig_ctx *c, uint32_t head, uint32_t end,
                           uint32_t *at)
{
    nfy_str none = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    uint32_t last = nfy__mig_assign_target(c, head, end);
    if (!is_name(c, last) ||
        primary_start(c, last) != c->m->stmts[c->m->tok_stmt[head]].first)
        return none;
    *at = last;
    return mig_tok(c, last);
}

/* `{"impl": "cuda"}`: the key. */
static nfy_str dict_name(mig_ctx *c, uint32_t head, uint32_t end, uint32_t *at)
{
    nfy_str none = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    uint32_t colon = nfy__mig_prev_sig(c, head);
    uint32_t after = nfy__mig_next_sig(c, end - 1);
    if (!nfy_mig_tok_op(c, colon, NFY_OP_COLON) ||
        !(nfy_mig_tok_op(c, after, NFY_OP_COMMA) ||
          nfy_mig_tok_op(c, after, NFY_OP_RBRACE)))
        return none;
    uint32_t key = nfy__mig_prev_sig(c, colon), off;
    if (key == NFY_NONE || c->m->toks[key].kind != NFY_TOK_STRING)
        return none;
    nfy_str b = nfy_mig_string_body(c, key, &off);
    if (b.len == 0)
        return none;
    *at = key;
    return b;
}

/* The binding behind a plain variable name at token t (a use, a store or
 * a parameter), or NONE for an attribute, a keyword or a dict key. */
/* The first binding whose token is t, or NONE: a table built on first use. */
static uint32_t binding_at(mig_ctx *c, uint32_t t)
{
    if (t >= c->m->ntoks)
        return NFY_NONE;
    if (c->bind_at == NULL) {
        uint32_t *at =
            nfy_arena_alloc(c->arena, (c->m->ntoks + 1) * sizeof *at);
        memset(at, 0xff, (c->m->ntoks + 1) * sizeof *at); /* NFY_NONE */
        for (uint32_t b = c->m->nbindings; b-- > 0;) {
            if (c->m->bindings[b].tok < c->m->ntoks)
                at[c->m->bindings[b].tok] = b;
        }
        c->bind_at = at;
    }
    return c->bind_at[t];
}

static uint32_t variable_binding(mig_ctx *c, uint32_t t)
{
    if (!is_name(c, t) ||
        nfy_mig_tok_op(c, nfy__mig_prev_sig(c, t), NFY_OP_DOT) ||
        nfy_mig_tok_op(c, nfy__mig_next_sig(c, t), NFY_OP_DOT))
        return NFY_NONE;
    uint32_t u = nfy_pysyn_use_at(c->m, t);
    if (u != NFY_NONE)
        return c->m->uses[u].ctx == NFY_CTX_LOAD
                   ? nfy_resolve_use(c->r, u)->binding
                   : c->m->uses[u].binding;
    return binding_at(c, t); /* a parameter */
}

nfy_str nfy__mig_lit_name(mig_ctx *c, uint32_t lit, mig_lit_key *key)
{
    const nfy_strlit *s = &c->m->strings[lit];
    uint32_t at = NFY_NONE;
    nfy_str n = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    if (s->ctx == NFY_STR_DEFAULT && s->param_tok != NFY_NONE) {
        at = s->param_tok;
        n = mig_tok(c, s->param_tok);
    }
    if (n.len == 0)
        n = compare_name(c, s->first, s->end, &at);
    if (n.len == 0)
        n = arg_name(c, s->first, s->end, &at);
    if (n.len == 0)
        n = assign_name(c, s->first, s->end, &at);
    if (n.len == 0)
        n = dict_name(c, s->first, s->end, &at);
    key->name_tok = at;
    key->scope = NFY_NONE;
    key->param = false;
    uint32_t b = n.len ? variable_binding(c, at) : NFY_NONE;
    if (b != NFY_NONE) {
        key->scope = c->m->bindings[b].scope;
        key->param = c->m->bindings[b].kind == NFY_BIND_PARAM;
    }
    return n;
}

/* ---- device names -------------------------------------------------------
 */

static bool word_in(nfy_str w, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (mig_str_is(w, list[i]))
            return true;
    }
    return false;
}

bool nfy__mig_name_is_device(nfy_str name)
{
    static const char *const yes[] = {"dev",      "devs",     "backend",
                                      "backends", "location", "accelerator",
                                      "gpu_type"};
    static const char *const no[] = {
        "impl",   "impls", "implementation", "kernel", "kernels", "label",
        "labels", "tag",   "name",           "names",  "op",      "ops",
        "plugin", "mode",  "compiler",       "lib",    "library", "arch",
        "version"};
    /* `d.type == "cuda"`: the type of a torch.device (tensor.type() is a
     * call, so `X.type` compared with a device string is a device's) */
    if (nfy_str_ends_with(name, NFY_STR_LIT(".type")))
        return true;
    char low[128];
    size_t n = name.len < sizeof low ? name.len : sizeof low - 1;
    for (size_t i = 0; i < n; i++) {
        char ch = name.ptr[i];
        low[i] = ch >= 'A' && ch <= 'Z' ? (char)(ch + 32) : ch;
    }
    low[n] = '\0';
    bool device = false;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && ((low[j] >= 'a' && low[j] <= 'z') ||
                         (low[j] >= '0' && low[j] <= '9')))
            j++;
        nfy_str w = {low + i, j - i};
        if (word_in(w, no, sizeof no / sizeof no[0]))
            return false;
        if (nfy_str_contains(w, NFY_STR_LIT("device")) ||
            word_in(w, yes, sizeof yes / sizeof yes[0]))
            device = true;
        i = j + 1;
    }
    return device;
}

/* ---- grouping -----------------------------------------------------------
 */

static uint32_t set_root(uint32_t *set, uint32_t i)
{
    while (set[i] != i)
        i = set[i] = set[set[i]];
    return i;
}

typedef struct {
    nfy_str name;
    uint32_t scope, idx;
} name_key;

static int key_order(const void *pa, const void *pb)
{
    const name_key *a = pa, *b = pb;
    size_t n = a->name.len < b->name.len ? a->name.len : b->name.len;
    int d = n ? memcmp(a->name.ptr, b->name.ptr, n) : 0;
    if (d != 0)
        return d;
    if (a->name.len != b->name.len)
        return a->name.len < b->name.len ? -1 : 1;
    if (a->scope != b->scope)
        return a->scope < b->scope ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static void join(uint32_t *set, uint32_t i, uint32_t j)
{
    uint32_t a = set_root(set, i), b = set_root(set, j);
    if (a != b)
        set[a > b ? a : b] = a < b ? a : b;
}

/* One name's run [k, e) of the sorted keys: the same scope joins, and a
 * file-wide member (a keyword at a call site) joins every parameter. */
static void join_run(const mig_set_key *lits, uint32_t *set,
                     const name_key *keys, size_t k, size_t e)
{
    uint32_t wide = NFY_NONE;
    for (size_t i = k; i < e; i++) {
        if (i > k && keys[i].scope == keys[i - 1].scope)
            join(set, keys[i - 1].idx, keys[i].idx);
        if (keys[i].scope == NFY_NONE && wide == NFY_NONE)
            wide = keys[i].idx;
    }
    for (size_t i = k; wide != NFY_NONE && i < e; i++) {
        if (lits[keys[i].idx].key.param)
            join(set, wide, keys[i].idx);
    }
}

void nfy__mig_group_sets(mig_ctx *c, const mig_set_key *lits, uint32_t n,
                         uint32_t *set, uint32_t *next)
{
    NFY_VEC(name_key) keys = {0};
    for (uint32_t i = 0; i < n; i++) {
        next[i] = NFY_NONE;
        set[i] = NFY_NONE;
        if (lits[i].name.len > 0) {
            set[i] = i;
            nfy_vec_push(&keys,
                         ((name_key){lits[i].name, lits[i].key.scope, i}));
        }
    }
    if (keys.len > 1) /* sorted by name and scope: each run in one sweep */
        qsort(keys.items, keys.len, sizeof *keys.items, key_order);
    for (size_t k = 0, e; k < keys.len; k = e) {
        for (e = k + 1;
             e < keys.len && nfy_str_eq(keys.items[e].name, keys.items[k].name);
             e++)
            ;
        join_run(lits, set, keys.items, k, e);
    }
    nfy_vec_free(&keys);
    uint32_t *tail = nfy_arena_alloc(c->arena, (n + 1) * sizeof *tail);
    for (uint32_t i = 0; i < n; i++) {
        if (lits[i].name.len == 0)
            continue;
        uint32_t r = set[i] = set_root(set, i);
        if (r != i)
            next[tail[r]] = i;
        tail[r] = i;
    }
}
