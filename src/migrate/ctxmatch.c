/*
 * Context tests for string-in-context and device-argument rules: where an
 * expression (a string literal, possibly formatted with %, .format() or +,
 * or a plain variable) stands. "Reaching" an argument means being its whole
 * value, or one branch of a conditional expression that is.
 */
#include "migrate/ctxmatch.h"

#include <string.h>

static bool tok_word(const mig_ctx *c, uint32_t t, const char *w)
{
    return t != NFY_NONE && c->m->toks[t].kind == NFY_TOK_NAME &&
           mig_tok_is(c, t, w);
}

static bool is_cmp(const mig_ctx *c, uint32_t t)
{
    return nfy_mig_tok_op(c, t, NFY_OP_EQEQUAL) ||
           nfy_mig_tok_op(c, t, NFY_OP_NOTEQUAL) || tok_word(c, t, "in");
}

/* Does the source text s name a device ("device", any case)? */
static bool names_device(nfy_str s)
{
    for (size_t i = 0; i + 6 <= s.len; i++) {
        size_t k = 0;
        while (k < 6 && (s.ptr[i + k] | 0x20) == "device"[k])
            k++;
        if (k == 6)
            return true;
    }
    return false;
}

/*
 * `device.startswith("cuda")`, `str(args.device).startswith("cuda:")`,
 * `str(device).replace("cuda:", "")`: a prefix test or the parsing of
 * something that names a device is a comparison with a device string.
 * [head, end) must be the whole first argument.
 */
static bool device_prefix_test(const mig_ctx *c, uint32_t head, uint32_t end)
{
    uint32_t a = c->tok_arg[head];
    if (a == NFY_NONE)
        return false;
    const nfy_arg *arg = &c->m->args[a];
    const nfy_call *call = &c->m->calls[arg->call];
    if (arg->kind != NFY_ARG_POS || arg->pos != 0 || arg->value_first != head ||
        arg->value_end != end || call->attr_tok == NFY_NONE ||
        !(mig_tok_is(c, call->attr_tok, "startswith") ||
          mig_tok_is(c, call->attr_tok, "replace") ||
          mig_tok_is(c, call->attr_tok, "removeprefix") ||
          mig_tok_is(c, call->attr_tok, "lstrip")))
        return false;
    uint32_t recv_end = c->m->toks[call->attr_tok].start;
    uint32_t recv_start = c->m->toks[call->callee_first].start;
    return names_device(
        (nfy_str){c->src->data + recv_start, recv_end - recv_start});
}

/* Source text of the primary expression starting at token t: a name or
 * literal followed by any `.name`, call and subscript trailers. */
static nfy_str primary_text(const mig_ctx *c, uint32_t t)
{
    nfy_str none = {"", 0};
    if (t == NFY_NONE)
        return none;
    uint32_t last = t;
    /* a parenthesized operand (a closing bracket's match lies before it) */
    if (c->m->match[t] != NFY_NONE && c->m->match[t] > t)
        last = c->m->match[t];
    for (;;) {
        uint32_t n = nfy__mig_next_sig(c, last);
        if (nfy_mig_tok_op(c, n, NFY_OP_DOT) &&
            c->m->toks[nfy__mig_next_sig(c, n)].kind == NFY_TOK_NAME)
            last = nfy__mig_next_sig(c, n);
        else if ((nfy_mig_tok_op(c, n, NFY_OP_LPAR) ||
                  nfy_mig_tok_op(c, n, NFY_OP_LSQB)) &&
                 c->m->match[n] != NFY_NONE && c->m->match[n] > n)
            last = c->m->match[n];
        else
            break;
    }
    uint32_t b = c->m->toks[t].start, e = c->m->toks[last].end;
    return (nfy_str){c->src->data + b, e - b};
}

/*
 * `"cuda" in str(device)`, `"cuda" not in args.device`: a membership test
 * is a device test only when its container names a device. `"cuda" in
 * tokens` or `in sys.argv` is about other text, and a device *name*
 * (get_device_name(): "NVIDIA A100", "Ascend910B") is not a device type.
 * Returns 1 (device test), 0 (not one), -1 (no membership test here).
 */
static int device_membership(const mig_ctx *c, uint32_t end)
{
    uint32_t op = nfy__mig_next_sig(c, end - 1);
    if (tok_word(c, op, "not"))
        op = nfy__mig_next_sig(c, op);
    if (!tok_word(c, op, "in"))
        return -1;
    nfy_str box = primary_text(c, nfy__mig_next_sig(c, op));
    if (nfy_str_contains(box, NFY_STR_LIT("device_name")))
        return 0;
    return names_device(box) ? 1 : 0;
}

static bool is_open(const mig_ctx *c, uint32_t t)
{
    return nfy_mig_tok_op(c, t, NFY_OP_LPAR) ||
           nfy_mig_tok_op(c, t, NFY_OP_LSQB) ||
           nfy_mig_tok_op(c, t, NFY_OP_LBRACE);
}

/*
 * `device.type in {"cuda", "mps"}`, `dev in ("cuda", "cuda:0")`: [head,
 * end) is a whole element of a tuple, list or set display that is an
 * operand of ==, != or in (also `for d in ("cuda", "cpu")`). Returns the
 * display's opening bracket, or NFY_NONE.
 */
uint32_t nfy__mig_compared_display(const mig_ctx *c, uint32_t head,
                                   uint32_t end)
{
    uint32_t after = nfy__mig_next_sig(c, end - 1);
    if (after == NFY_NONE || (!nfy_mig_tok_op(c, after, NFY_OP_COMMA) &&
                              c->m->match[after] == NFY_NONE))
        return NFY_NONE;
    uint32_t stmt = c->m->tok_stmt[head];
    for (uint32_t t = nfy__mig_prev_sig(c, head); t != NFY_NONE;
         t = nfy__mig_prev_sig(c, t)) {
        if (c->m->tok_stmt[t] != stmt)
            return NFY_NONE;
        if (is_open(c, t)) {
            uint32_t close = c->m->match[t];
            bool cmp =
                close != NFY_NONE && (is_cmp(c, nfy__mig_prev_sig(c, t)) ||
                                      is_cmp(c, nfy__mig_next_sig(c, close)));
            return cmp ? t : NFY_NONE;
        }
        if (c->m->match[t] != NFY_NONE) /* a nested closed group */
            t = c->m->match[t];
        else if (!nfy_mig_tok_op(c, t, NFY_OP_COMMA) &&
                 c->m->toks[t].kind != NFY_TOK_STRING)
            return NFY_NONE; /* only literals may come before it */
    }
    return NFY_NONE;
}

bool nfy__mig_tok_is_cmp(const mig_ctx *c, uint32_t t)
{
    return is_cmp(c, t);
}

/*
 * [head, end) covers the whole of [vfirst, vend) up to a trailing
 * formatting (% x, .format(...), + x) or conditional (x if c else y).
 */
bool nfy__mig_expr_whole(const mig_ctx *c, uint32_t head, uint32_t end,
                         uint32_t vfirst, uint32_t vend)
{
    if (head < vfirst || end > vend)
        return false;
    /* backend=("nccl" if cuda else "gloo"): the parentheses are no operator */
    while (vfirst < head && nfy_mig_tok_op(c, vfirst, NFY_OP_LPAR) &&
           c->m->match[vfirst] != NFY_NONE && c->m->match[vfirst] < vend &&
           nfy__mig_next_sig(c, c->m->match[vfirst]) >= vend) {
        vend = c->m->match[vfirst];
        vfirst = nfy__mig_next_sig(c, vfirst);
    }
    uint32_t prev = nfy__mig_prev_sig(c, head);
    if (head != vfirst && !tok_word(c, prev, "else"))
        return false;
    uint32_t next = nfy__mig_next_sig(c, end - 1);
    if (next == NFY_NONE || next >= vend)
        return true;
    if (nfy_mig_tok_op(c, next, NFY_OP_PERCENT) ||
        nfy_mig_tok_op(c, next, NFY_OP_PLUS))
        return true;
    if (tok_word(c, next, "if"))
        return true;
    return nfy_mig_tok_op(c, next, NFY_OP_DOT) &&
           mig_tok_is(c, nfy__mig_next_sig(c, next), "format");
}

nfy_str nfy__mig_chain_qual_ending(const mig_ctx *c, uint32_t t)
{
    nfy_str none = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    if (t == NFY_NONE || c->m->toks[t].kind != NFY_TOK_NAME)
        return none;
    uint32_t n = 1;
    for (;;) {
        uint32_t dot = nfy__mig_prev_sig(c, t);
        if (!nfy_mig_tok_op(c, dot, NFY_OP_DOT))
            break;
        uint32_t nm = nfy__mig_prev_sig(c, dot);
        if (nm == NFY_NONE || c->m->toks[nm].kind != NFY_TOK_NAME)
            return none;
        t = nm;
        n++;
    }
    uint32_t u = nfy_pysyn_use_at(c->m, t);
    return u == NFY_NONE ? none : nfy_resolve_prefix(c->r, u, n);
}

/*
 * The token before `=` (the annotated target of `x: T = v`) of the
 * assignment whose whole value is [head, end); not for call arguments.
 */
uint32_t nfy__mig_assign_target(const mig_ctx *c, uint32_t head, uint32_t end)
{
    uint32_t s = c->m->tok_stmt[head];
    if (s == NFY_NONE || c->tok_arg[head] != NFY_NONE)
        return NFY_NONE;
    const nfy_stmt *st = &c->m->stmts[s];
    if ((st->kind != NFY_STMT_ASSIGN && st->kind != NFY_STMT_ANNASSIGN) ||
        st->value_first == NFY_NONE ||
        !nfy__mig_expr_whole(c, head, end, st->value_first, st->value_end))
        return NFY_NONE;
    if (st->kind == NFY_STMT_ANNASSIGN)
        return st->first;
    return nfy__mig_prev_sig(c, nfy__mig_prev_sig(c, st->value_first));
}

/* Name assigned by the assignment statement whose value holds head. */
static nfy_str assign_target(const mig_ctx *c, uint32_t head, uint32_t end,
                             uint32_t lit)
{
    nfy_str none = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    if (lit != NFY_NONE && c->m->strings[lit].ctx == NFY_STR_DEFAULT &&
        c->m->strings[lit].param_tok != NFY_NONE)
        return mig_tok(c, c->m->strings[lit].param_tok);
    uint32_t tgt = nfy__mig_assign_target(c, head, end);
    if (tgt == NFY_NONE || c->m->toks[tgt].kind != NFY_TOK_NAME)
        return none;
    return mig_tok(c, tgt);
}

static bool in_subscript(const mig_ctx *c, uint32_t head, uint32_t end,
                         const char *name)
{
    uint32_t l = nfy__mig_prev_sig(c, head), r = nfy__mig_next_sig(c, end - 1);
    if (!nfy_mig_tok_op(c, l, NFY_OP_LSQB) ||
        !nfy_mig_tok_op(c, r, NFY_OP_RSQB))
        return false;
    nfy_str q = nfy__mig_chain_qual_ending(c, nfy__mig_prev_sig(c, l));
    return name == NULL || mig_str_is(q, name);
}

static bool argparse_fits(const mig_ctx *c, uint32_t a, uint32_t head,
                          uint32_t end)
{
    const nfy_arg *arg = &c->m->args[a];
    if (arg->kind != NFY_ARG_KEYWORD ||
        !mig_str_is(mig_callee_attr(c, arg->call), "add_argument"))
        return false;
    if (mig_tok_is(c, arg->name_tok, "choices"))
        return head >= arg->value_first && end <= arg->value_end;
    return mig_tok_is(c, arg->name_tok, "default") &&
           nfy__mig_expr_whole(c, head, end, arg->value_first, arg->value_end);
}

bool nfy__mig_expr_in_ctx(const mig_ctx *c, uint32_t head, uint32_t end,
                          uint32_t lit, const nfy_rule_ctx *x)
{
    uint32_t a = c->tok_arg[head];
    const nfy_arg *arg = a != NFY_NONE ? &c->m->args[a] : NULL;
    /* the cheap tests of the argument's position or keyword come first:
       most contexts fail on them, before the callee and the value */
    switch (x->kind) {
    case NFY_CTX_ARG:
        return arg != NULL && nfy__mig_arg_slot_fits(c, a, x) &&
               nfy__mig_call_fits(c, arg->call, x->name) &&
               nfy__mig_expr_whole(c, head, end, arg->value_first,
                                   arg->value_end);
    case NFY_CTX_KEYWORD:
        return arg != NULL && arg->kind == NFY_ARG_KEYWORD &&
               mig_tok_is(c, arg->name_tok, x->name) &&
               nfy__mig_expr_whole(c, head, end, arg->value_first,
                                   arg->value_end);
    case NFY_CTX_COMPARE: {
        int member = device_membership(c, end);
        if (member >= 0)
            return member == 1;
        if (lit != NFY_NONE && c->m->strings[lit].ctx == NFY_STR_COMPARE)
            return true;
        return is_cmp(c, nfy__mig_prev_sig(c, head)) ||
               is_cmp(c, nfy__mig_next_sig(c, end - 1)) ||
               device_prefix_test(c, head, end) ||
               nfy__mig_compared_display(c, head, end) != NFY_NONE;
    }
    case NFY_CTX_ARGPARSE:
        return arg != NULL && argparse_fits(c, a, head, end);
    case NFY_CTX_ASSIGN: {
        nfy_str t = assign_target(c, head, end, lit);
        return t.len > 0 && (x->name == NULL || nfy_rules_glob(x->name, t));
    }
    case NFY_CTX_SUBSCRIPT:
        return in_subscript(c, head, end, x->name);
    case NFY_CTX_ANY:
        return true;
    default:
        return false;
    }
}

static int ctx_specificity(const nfy_rule_ctx *x)
{
    switch (x->kind) {
    case NFY_CTX_ARG:
        return x->name != NULL && x->name[0] ? 3 : 1;
    case NFY_CTX_ARGPARSE:
        return 2;
    case NFY_CTX_ANY:
        return 0;
    default:
        return 1;
    }
}

int nfy__mig_expr_rule_spec(const mig_ctx *c, uint32_t head, uint32_t end,
                            uint32_t lit, const nfy_rule *r)
{
    if (r->nctx == 0)
        return 0;
    int best = -1;
    for (size_t i = 0; i < r->nctx; i++) {
        int sp = ctx_specificity(&r->ctx[i]);
        if (sp > best && nfy__mig_expr_in_ctx(c, head, end, lit, &r->ctx[i]))
            best = sp;
    }
    return best;
}

bool nfy__mig_expr_in_rule(const mig_ctx *c, uint32_t head, uint32_t end,
                           uint32_t lit, const nfy_rule *r)
{
    if (r->nctx == 0)
        return true;
    for (size_t i = 0; i < r->nctx; i++) {
        if (nfy__mig_expr_in_ctx(c, head, end, lit, &r->ctx[i]))
            return true;
    }
    return false;
}
