/*
 * Device tests that guard CUDA-only code: `if impl == "cuda" and
 * x.device.type == "cuda" and _init(): return _plugin_fn(x)` takes the
 * portable path on any other device. Rewritten to "npu", it would send NPU
 * tensors into a CUDA extension; kept, the portable branch runs on NPU.
 *
 * CUDA-only code is a call into a custom extension (a name bound to a JIT
 * loader's result, a module imported as `*_cuda` or from cpp_extension),
 * a JIT loader itself (a call with .cu sources or extra_cuda_cflags), a
 * Triton kernel, cupy, numba.cuda, pycuda or a cuDNN-only op, reached
 * directly or through functions and classes defined in the same file.
 */
#include <string.h>

#include "migrate/valset.h"

enum { DEF_UNKNOWN, DEF_BUSY, DEF_YES, DEF_NO };
enum { MAX_DEPTH = 4 };

static bool ends_with_cu(nfy_str b)
{
    return nfy_str_ends_with(b, NFY_STR_LIT(".cu")) ||
           nfy_str_ends_with(b, NFY_STR_LIT(".cuh"));
}

/* A JIT extension loader: .cu sources or CUDA compiler flags. */
static bool is_cuda_loader(const mig_ctx *c, uint32_t k)
{
    const nfy_call *call = &c->m->calls[k];
    nfy_str q = mig_callee_qual(c, k);
    if (nfy_str_starts_with(q, NFY_STR_LIT("torch.utils.cpp_extension.load")))
        return true;
    for (uint32_t i = 0; i < call->nargs; i++) {
        const nfy_arg *a = &c->m->args[call->args_first + i];
        if (a->kind == NFY_ARG_KEYWORD &&
            (MIG_IS_LIT(mig_tok(c, a->name_tok), "extra_cuda_cflags") ||
             MIG_IS_LIT(mig_tok(c, a->name_tok), "cuda_sources")))
            return true;
        for (uint32_t t = a->value_first; t < a->value_end; t++) {
            uint32_t off;
            if (c->m->toks[t].kind == NFY_TOK_STRING &&
                ends_with_cu(nfy_mig_string_body(c, t, &off)))
                return true;
        }
    }
    return false;
}

static bool cuda_only_qual(nfy_str q)
{
#define HEAD(lit)                                                              \
    {                                                                          \
        (lit), sizeof(lit) - 1                                                 \
    }
    static const nfy_str heads[] = {HEAD("triton"),
                                    HEAD("cupy"),
                                    HEAD("numba.cuda"),
                                    HEAD("pycuda"),
                                    HEAD("torch.cudnn_"),
                                    HEAD("torch._C._cudnn"),
                                    HEAD("torch.ops.cuda"),
                                    HEAD("cuda_ext"),
                                    HEAD("torch.utils.cpp_extension")};
#undef HEAD
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        if (nfy_str_starts_with(q, heads[i]))
            return true;
    }
    /* a module imported as *_cuda (upfirdn2d_cuda.forward(...)) */
    for (size_t i = 0; i + 5 <= q.len; i++) {
        if (memcmp(q.ptr + i, "_cuda", 5) == 0 &&
            (i + 5 == q.len || q.ptr[i + 5] == '.'))
            return true;
    }
    return false;
}

/* Names bound to a JIT loader's result: `_plugin = load(...)` (the
 * loaders are marked at their callee by then). */
static void collect_plugins(mig_ctx *c, mig_guard *g)
{
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        const nfy_call *call = &c->m->calls[k];
        uint32_t s = call->stmt;
        if (s == NFY_NONE || c->m->stmts[s].kind != NFY_STMT_ASSIGN ||
            c->m->stmts[s].value_first != call->callee_first ||
            !(call->callee_first < c->m->ntoks
                  ? g->loader_at[call->callee_first] != 0
                  : is_cuda_loader(c, k)))
            continue;
        uint32_t eq = nfy__mig_prev_sig(c, c->m->stmts[s].value_first);
        uint32_t tgt = nfy__mig_prev_sig(c, eq);
        if (tgt != NFY_NONE && c->m->toks[tgt].kind == NFY_TOK_NAME)
            nfy_vec_push(&g->plugins, mig_tok(c, tgt));
    }
}

static bool is_plugin(const mig_guard *g, nfy_str name)
{
    for (size_t i = 0; i < g->plugins.len; i++) {
        if (nfy_str_eq(g->plugins.items[i], name))
            return true;
    }
    return false;
}

static bool range_reaches(mig_ctx *c, mig_guard *g, uint32_t a, uint32_t b,
                          int depth, const char **why);

/* `_jit_get_operation("aten::cudnn_convolution_backward_weight")`: a
 * cuDNN-only operator named in a string. */
static bool cudnn_op_name(mig_ctx *c, uint32_t t, const char **why)
{
    uint32_t off;
    if (c->m->toks[t].kind != NFY_TOK_STRING ||
        !nfy_str_contains(nfy_mig_string_body(c, t, &off),
                          NFY_STR_LIT("aten::cudnn_")))
        return false;
    *why = "a cuDNN-only operator";
    return true;
}

static uint32_t name_hash(nfy_str s)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < s.len; i++)
        h = (h ^ (unsigned char)s.ptr[i]) * 16777619u;
    return h;
}

/* Index the file's def/class statements by name (the last one wins). */
static void index_defs(mig_ctx *c, mig_guard *g)
{
    uint32_t n = 16;
    while (n < 2 * c->m->nstmts + 16)
        n *= 2;
    g->ndefs = n;
    g->defs = nfy_arena_alloc(c->arena, n * sizeof *g->defs);
    for (uint32_t i = 0; i < n; i++)
        g->defs[i] = NFY_NONE;
    for (uint32_t s = 0; s < c->m->nstmts; s++) {
        const nfy_stmt *st = &c->m->stmts[s];
        if ((st->kind != NFY_STMT_DEF && st->kind != NFY_STMT_CLASS) ||
            st->name_tok == NFY_NONE)
            continue;
        nfy_str name = mig_tok(c, st->name_tok);
        uint32_t h = name_hash(name) & (n - 1);
        while (g->defs[h] != NFY_NONE &&
               !nfy_str_eq(mig_tok(c, c->m->stmts[g->defs[h]].name_tok), name))
            h = (h + 1) & (n - 1);
        g->defs[h] = s;
    }
}

/* The def/class statement named name (the last one), or NONE. */
static uint32_t local_def(const mig_ctx *c, const mig_guard *g, nfy_str name)
{
    uint32_t h = name_hash(name) & (g->ndefs - 1);
    while (g->defs[h] != NFY_NONE) {
        if (nfy_str_eq(mig_tok(c, c->m->stmts[g->defs[h]].name_tok), name))
            return g->defs[h];
        h = (h + 1) & (g->ndefs - 1);
    }
    return NFY_NONE;
}

/* A kernel: a def decorated with @triton.jit (or any triton decorator). */
static bool triton_kernel(const mig_ctx *c, uint32_t s)
{
    const nfy_stmt *st = &c->m->stmts[s];
    for (uint32_t d = 0; st->deco_first != NFY_NONE && d < st->ndecos; d++) {
        const nfy_stmt *ds = &c->m->stmts[st->deco_first + d];
        for (uint32_t t = ds->first; t < ds->end; t++) {
            uint32_t u = nfy_pysyn_use_at(c->m, t);
            if (u != NFY_NONE &&
                nfy_str_starts_with(nfy_resolve_use(c->r, u)->qual,
                                    NFY_STR_LIT("triton")))
                return true;
        }
    }
    return false;
}

static bool def_reaches(mig_ctx *c, mig_guard *g, uint32_t s, int depth,
                        const char **why)
{
    if (triton_kernel(c, s)) {
        *why = nfy_mig_fmt(c, "a Triton kernel (%.*s)",
                           NFY_STR_FMT(mig_tok(c, c->m->stmts[s].name_tok)));
        return true;
    }
    if (g->def_state[s] == DEF_YES) {
        *why = g->def_why[s];
        return true;
    }
    if (g->def_state[s] == DEF_NO || g->def_state[s] == DEF_BUSY)
        return false;
    const nfy_stmt *st = &c->m->stmts[s];
    if (st->body_end <= s + 1 || depth >= MAX_DEPTH)
        return false;
    g->def_state[s] = DEF_BUSY;
    uint32_t a = c->m->stmts[s + 1].first;
    uint32_t b = c->m->stmts[st->body_end - 1].end;
    bool yes = range_reaches(c, g, a, b, depth + 1, why);
    g->def_state[s] = yes ? DEF_YES : DEF_NO;
    g->def_why[s] = yes ? *why : NULL;
    return yes;
}

/* `self._forward_cuda(x)`: the method of that name in the class around
 * token t (self or cls before the dot), or NONE. */
static uint32_t own_method(const mig_ctx *c, uint32_t t)
{
    uint32_t dot = nfy__mig_prev_sig(c, t), recv = nfy__mig_prev_sig(c, dot);
    if (!nfy_mig_tok_op(c, dot, NFY_OP_DOT) ||
        !(mig_tok_is(c, recv, "self") || mig_tok_is(c, recv, "cls")) ||
        nfy_mig_tok_op(c, nfy__mig_prev_sig(c, recv), NFY_OP_DOT))
        return NFY_NONE;
    uint32_t cls = c->m->tok_stmt[t];
    while (cls != NFY_NONE && c->m->stmts[cls].kind != NFY_STMT_CLASS)
        cls = c->m->stmts[cls].parent;
    if (cls == NFY_NONE)
        return NFY_NONE;
    nfy_str name = mig_tok(c, t);
    for (uint32_t s = cls + 1; s < c->m->stmts[cls].body_end; s++) {
        const nfy_stmt *st = &c->m->stmts[s];
        if (st->kind == NFY_STMT_DEF && st->parent == cls &&
            st->name_tok != NFY_NONE &&
            nfy_str_eq(mig_tok(c, st->name_tok), name))
            return s;
    }
    return NFY_NONE;
}

static bool tok_reaches(mig_ctx *c, mig_guard *g, uint32_t t, int depth,
                        const char **why)
{
    if (c->m->toks[t].kind != NFY_TOK_NAME)
        return false;
    uint32_t u = nfy_pysyn_use_at(c->m, t);
    if (u == NFY_NONE) {
        uint32_t m = own_method(c, t);
        return m != NFY_NONE && def_reaches(c, g, m, depth, why);
    }
    nfy_str name = mig_tok(c, t);
    nfy_str q = nfy_resolve_use(c->r, u)->qual;
    if (cuda_only_qual(q) || is_plugin(g, name)) {
        *why = nfy_mig_fmt(c, "CUDA-only code (%.*s)", NFY_STR_FMT(name));
        return true;
    }
    uint32_t s = local_def(c, g, name);
    if (s != NFY_NONE && def_reaches(c, g, s, depth, why))
        return true;
    return false;
}

static bool range_reaches(mig_ctx *c, mig_guard *g, uint32_t a, uint32_t b,
                          int depth, const char **why)
{
    for (uint32_t t = a; t < b && t < c->m->ntoks; t++) {
        if (g->loader_at[t]) {
            *why = "a CUDA extension loader (.cu sources)";
            return true;
        }
    }
    for (uint32_t t = a; t < b && t < c->m->ntoks; t++) {
        if (tok_reaches(c, g, t, depth, why) || cudnn_op_name(c, t, why))
            return true;
    }
    return false;
}

static void build(mig_ctx *c, mig_guard *g)
{
    g->loader_at = nfy_arena_calloc(c->arena, c->m->ntoks + 1, 1);
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        if (c->m->calls[k].callee_first < c->m->ntoks && is_cuda_loader(c, k))
            g->loader_at[c->m->calls[k].callee_first] = 1;
    }
    index_defs(c, g);
    g->def_state = nfy_arena_calloc(c->arena, c->m->nstmts + 1, 1);
    g->def_why =
        nfy_arena_calloc(c->arena, c->m->nstmts + 1, sizeof *g->def_why);
    collect_plugins(c, g);
    g->built = true;
}

/* Is the test negated (`!=`, `not in`, `not x.is_cuda`)? */
static bool negated(const mig_ctx *c, uint32_t head, uint32_t end)
{
    uint32_t p = nfy__mig_prev_sig(c, head), n = nfy__mig_next_sig(c, end - 1);
    while (
        nfy_mig_tok_op(c, p, NFY_OP_DOT)) /* x.is_cuda: from the chain's head */
        p = nfy__mig_prev_sig(c, nfy__mig_prev_sig(c, p));
    return nfy_mig_tok_op(c, p, NFY_OP_NOTEQUAL) ||
           nfy_mig_tok_op(c, n, NFY_OP_NOTEQUAL) || mig_tok_is(c, n, "not") ||
           mig_tok_is(c, p, "not");
}

/* The statement that holds token t. */
static uint32_t stmt_of(const mig_ctx *c, uint32_t t)
{
    return t < c->m->ntoks ? c->m->tok_stmt[t] : NFY_NONE;
}

/* One past the last token of statement s's block (its body and clauses). */
static uint32_t block_tok_end(const mig_ctx *c, uint32_t s)
{
    uint32_t parent = c->m->stmts[s].parent;
    uint32_t last =
        parent == NFY_NONE ? c->m->nstmts : c->m->stmts[parent].body_end;
    return last == 0 ? c->m->stmts[s].end : c->m->stmts[last - 1].end;
}

/* The def that statement s runs in, or NONE. */
static uint32_t enclosing_def(const mig_ctx *c, uint32_t s)
{
    for (uint32_t p = c->m->stmts[s].parent; p != NFY_NONE;
         p = c->m->stmts[p].parent) {
        if (c->m->stmts[p].kind == NFY_STMT_DEF)
            return p;
    }
    return NFY_NONE;
}

static bool has_return(const mig_ctx *c, uint32_t a, uint32_t b)
{
    for (uint32_t t = a; t < b && t < c->m->ntoks; t++) {
        if (c->m->toks[t].kind == NFY_TOK_NAME && mig_tok_is(c, t, "return") &&
            c->m->stmts[c->m->tok_stmt[t]].kind == NFY_STMT_RETURN)
            return true;
    }
    return false;
}

static bool guard_at(mig_ctx *c, mig_guard *g, uint32_t head, uint32_t end,
                     bool invert, int depth, const char **why);

static void guarded_range(const mig_ctx *c, uint32_t head, uint32_t end,
                          bool invert, uint32_t *a, uint32_t *b)
{
    uint32_t s = stmt_of(c, head);
    const nfy_stmt *st = &c->m->stmts[s];
    *a = st->first;
    *b = st->end;
    if (st->kind == NFY_STMT_IF || st->kind == NFY_STMT_ELIF ||
        st->kind == NFY_STMT_WHILE) {
        *a = end; /* the rest of the condition, then the guarded code */
        if (negated(c, head, end) != invert)
            *b = block_tok_end(c, s); /* else clauses and what follows */
        else if (st->body_end > s + 1)
            *b = c->m->stmts[st->body_end - 1].end;
    }
}

bool nfy__mig_guarded_tokens(const mig_ctx *c, uint32_t head, uint32_t end,
                             uint32_t *a, uint32_t *b)
{
    if (stmt_of(c, head) == NFY_NONE)
        return false;
    guarded_range(c, head, end, false, a, b);
    return true;
}

/*
 * `def _use_plugin(x): if x.device.type != "cuda": return False ...`: a
 * predicate decides for its callers; the test guards what
 * `if _use_plugin(x): ...` guards.
 */
static bool callers_guard(mig_ctx *c, mig_guard *g, uint32_t def, int depth,
                          const char **why)
{
    nfy_str name = mig_tok(c, c->m->stmts[def].name_tok);
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        const nfy_call *call = &c->m->calls[k];
        nfy_str callee = call->attr_tok != NFY_NONE ? mig_tok(c, call->attr_tok)
                                                    : call->dotted;
        if (call->rpar == NFY_NONE || !nfy_str_eq(callee, name) ||
            (call->stmt >= def && call->stmt < c->m->stmts[def].body_end))
            continue;
        if (guard_at(c, g, call->callee_first, call->rpar + 1, false, depth + 1,
                     why))
            return true;
    }
    return false;
}

static bool guard_at(mig_ctx *c, mig_guard *g, uint32_t head, uint32_t end,
                     bool invert, int depth, const char **why)
{
    uint32_t s = stmt_of(c, head), a, b;
    if (s == NFY_NONE || depth > 2)
        return false;
    guarded_range(c, head, end, invert, &a, &b);
    if (range_reaches(c, g, a, b, 0, why))
        return true;
    uint32_t def = enclosing_def(c, s);
    return def != NFY_NONE && has_return(c, a, b) &&
           callers_guard(c, g, def, depth, why);
}

bool nfy__mig_guards_cuda_only(mig_ctx *c, mig_guard *g, uint32_t head,
                               uint32_t end, const char **why)
{
    if (!g->built)
        build(c, g);
    return guard_at(c, g, head, end, false, 0, why);
}

bool nfy__mig_other_branch_cuda_only(mig_ctx *c, mig_guard *g, uint32_t head,
                                     uint32_t end, const char **why)
{
    if (!g->built)
        build(c, g);
    return guard_at(c, g, head, end, true, 0, why);
}

/* The receiver of attribute token name_tok: `self.props` of
 * `self.props.major`. */
nfy_str nfy__mig_receiver_text(const mig_ctx *c, uint32_t name_tok)
{
    nfy_str none = {"", 0};
    uint32_t dot = nfy__mig_prev_sig(c, name_tok);
    uint32_t end = nfy__mig_prev_sig(c, dot), start = end;
    if (end == NFY_NONE || c->m->toks[end].kind != NFY_TOK_NAME)
        return none;
    while (nfy_mig_tok_op(c, nfy__mig_prev_sig(c, start), NFY_OP_DOT) &&
           nfy__mig_prev_sig(c, nfy__mig_prev_sig(c, start)) != NFY_NONE &&
           c->m->toks[nfy__mig_prev_sig(c, nfy__mig_prev_sig(c, start))].kind ==
               NFY_TOK_NAME)
        start = nfy__mig_prev_sig(c, nfy__mig_prev_sig(c, start));
    uint32_t s = c->m->toks[start].start, e = c->m->toks[end].end;
    return (nfy_str){c->src->data + s, e - s};
}

uint32_t nfy__mig_def_of(const mig_ctx *c, uint32_t tok)
{
    uint32_t s = stmt_of(c, tok);
    return s == NFY_NONE ? NFY_NONE : enclosing_def(c, s);
}

bool nfy__mig_note_guard(mig_ctx *c, nfy_span span, const char *api,
                         const char *why)
{
    const nfy_rule *r = nfy__mig_pass_rule_of(c, NFY_PASS_CUDA_GUARD);
    if (r == NULL)
        return false;
    nfy__mig_note_add(
        c, r, span, NFY_CAT_UNSUPPORTED_API, NFY_OPTYPE_UNSUPPORTED, api,
        nfy_mig_fmt(c,
                    "%s: the test guards %s, so the portable branch "
                    "runs on NPU. %s",
                    r->message, why, r->hint ? r->hint : ""));
    return true;
}

void nfy__mig_guard_free(mig_guard *g)
{
    nfy_vec_free(&g->plugins);
}
