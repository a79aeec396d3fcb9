/*
 * auto-unhandled (NPU532, --mode auto): what torch_npu's transfer_to_npu
 * does not patch at run time, so the automatic migration leaves it broken.
 * transfer_to_npu (Ascend/pytorch torch_npu/contrib/transfer_to_npu.py)
 * swaps the torch.cuda module for torch_npu.npu, .cuda()/is_cuda, device
 * arguments of a fixed list of calls and the nccl backend; it does not
 * touch imports of CUDA-only modules, torch.cuda submodules torch_npu.npu
 * lacks, or string comparisons. The rule's map says which: a row naming a
 * module ("amp_C", "torch.cuda.nvtx") matches imports and uses of it and
 * below; a quoted row ("\"cuda\"") matches that device string, also as
 * "cuda:N", where it is compared with a device object (x.device.type,
 * str(x.device), t.device): a string the user made (device = "cuda",
 * args.device) compares the same under transfer_to_npu.
 */
#include <string.h>

#include "migrate/ctxmatch.h"
#include "migrate/name_match.h"

static const char *with_note(mig_ctx *c, const nfy_rule *r,
                             const nfy_rule_pair *row)
{
    const char *msg = row->note
                          ? nfy_mig_fmt(c, "%s: %s", r->message, row->note)
                          : r->message;
    return nfy__mig_with_hint(c, msg, r->hint);
}

static void flag(mig_ctx *c, const nfy_rule *r, const nfy_rule_pair *row,
                 nfy_span sp, const char *api)
{
    nfy_finding_cat cat;
    nfy_op_type op;
    nfy__mig_flag_class(r, &cat, &op);
    nfy__mig_note_add(c, r, sp, cat, op, api, with_note(c, r, row));
}

static void module_row(mig_ctx *c, const nfy_rule *r, const nfy_rule_pair *row)
{
    for (uint32_t i = 0; i < c->m->nimport_names; i++) {
        const nfy_import_name *in = &c->m->import_names[i];
        const nfy_import *imp = &c->m->imports[in->import];
        nfy_str mod = (imp->flags & NFY_IMPF_FROM) ? imp->module : in->name;
        if (imp->level == 0 && nfy__mig_q_under_cstr(mod, row->from))
            flag(c, r, row, c->m->stmts[imp->stmt].span, row->from);
    }
    for (uint32_t u = 0; u < c->m->nuses; u++) {
        const nfy_name_use *use = &c->m->uses[u];
        nfy_str q = nfy_resolve_use(c->r, u)->qual;
        if (use->ctx != NFY_CTX_LOAD || !nfy__mig_q_under_cstr(q, row->from))
            continue;
        nfy_span sp = {c->m->toks[use->tok].start,
                       c->m->toks[use->chain_end].end};
        flag(c, r, row, sp, nfy_mig_strdup(c, q));
    }
}

static bool boundary(const mig_ctx *c, uint32_t t)
{
    static const char *const words[] = {"and",  "or",     "not",    "if",
                                        "elif", "while",  "return", "assert",
                                        "else", "lambda", "in",     "is"};
    const nfy_token *tk = &c->m->toks[t];
    if (tk->kind == NFY_TOK_NAME) {
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
            if (mig_tok_is(c, t, words[i]))
                return true;
        return false;
    }
    return nfy_mig_tok_op(c, t, NFY_OP_COMMA) ||
           nfy_mig_tok_op(c, t, NFY_OP_EQUAL) ||
           nfy_mig_tok_op(c, t, NFY_OP_COLON) ||
           nfy_mig_tok_op(c, t, NFY_OP_EQEQUAL) ||
           nfy_mig_tok_op(c, t, NFY_OP_NOTEQUAL) || tk->kind == NFY_TOK_NEWLINE;
}

static bool opens(const mig_ctx *c, uint32_t t)
{
    return nfy_mig_tok_op(c, t, NFY_OP_LPAR) ||
           nfy_mig_tok_op(c, t, NFY_OP_LSQB);
}

static bool closes(const mig_ctx *c, uint32_t t)
{
    return nfy_mig_tok_op(c, t, NFY_OP_RPAR) ||
           nfy_mig_tok_op(c, t, NFY_OP_RSQB);
}

/* The operand that ends at token last: its first token. */
static uint32_t operand_start(const mig_ctx *c, uint32_t last, uint32_t lo)
{
    int depth = 0;
    uint32_t t = last;
    for (;;) {
        if (closes(c, t))
            depth++;
        else if (opens(c, t) && depth-- == 0)
            return t + 1;
        else if (depth == 0 && boundary(c, t))
            return t + 1;
        uint32_t p = nfy__mig_prev_sig(c, t);
        if (p == NFY_NONE || p < lo)
            return t;
        t = p;
    }
}

/* One past the operand that starts at token first. */
static uint32_t operand_end(const mig_ctx *c, uint32_t first, uint32_t hi)
{
    int depth = 0;
    for (uint32_t t = first; t < hi; t = nfy__mig_next_sig(c, t)) {
        if (opens(c, t))
            depth++;
        else if (closes(c, t) && depth-- == 0)
            return t;
        else if (depth == 0 && boundary(c, t))
            return t;
        if (nfy__mig_next_sig(c, t) == NFY_NONE)
            return t + 1;
    }
    return hi;
}

static bool options_object(nfy_str name)
{
    static const char *const names[] = {"args",   "opt",     "opts",   "cfg",
                                        "config", "hparams", "params", "FLAGS"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (mig_str_is(name, names[i]))
            return true;
    return false;
}

/* Does [first, end) hold a device object: `x.device.type`, `t.type`,
 * `str(x.device)`, or `x.device` on something that is not an options
 * namespace (args.device is the user's own string)? */
static bool device_object(const mig_ctx *c, uint32_t first, uint32_t end)
{
    bool in_str = false;
    for (uint32_t t = first; t < end && t < c->m->ntoks; t++) {
        if (mig_tok_is(c, t, "str") && t + 1 < end &&
            nfy_mig_tok_op(c, t + 1, NFY_OP_LPAR))
            in_str = true;
        if (t == first || !nfy_mig_tok_op(c, t - 1, NFY_OP_DOT))
            continue;
        if (mig_tok_is(c, t, "type"))
            return true;
        if (mig_tok_is(c, t, "device") &&
            (in_str || t < 2 || !options_object(mig_tok(c, t - 2))))
            return true;
    }
    return false;
}

/* The literal [lit, lit_end) is compared with a device object (either side
 * of ==/!=/in, or the receiver of .startswith(...)). */
static bool compared_with_device(const mig_ctx *c, uint32_t lit,
                                 uint32_t lit_end)
{
    uint32_t st = c->m->tok_stmt[lit];
    if (st == NFY_NONE)
        return false;
    uint32_t lo = c->m->stmts[st].first, hi = c->m->stmts[st].end;
    uint32_t prev = nfy__mig_prev_sig(c, lit);
    if (prev != NFY_NONE && prev >= lo) {
        uint32_t last = NFY_NONE;
        if (nfy_mig_tok_op(c, prev, NFY_OP_EQEQUAL) ||
            nfy_mig_tok_op(c, prev, NFY_OP_NOTEQUAL))
            last = nfy__mig_prev_sig(c, prev);
        else if (nfy_mig_tok_op(c, prev, NFY_OP_LPAR)) {
            uint32_t m = nfy__mig_prev_sig(c, prev);
            uint32_t dot = m != NFY_NONE ? nfy__mig_prev_sig(c, m) : NFY_NONE;
            if (dot != NFY_NONE && nfy_mig_tok_op(c, dot, NFY_OP_DOT))
                last = nfy__mig_prev_sig(c, dot);
        }
        if (last != NFY_NONE && last >= lo &&
            device_object(c, operand_start(c, last, lo), last + 1))
            return true;
    }
    uint32_t next = nfy__mig_next_sig(c, lit_end - 1);
    if (next == NFY_NONE || next >= hi)
        return false;
    if (mig_tok_is(c, next, "not"))
        next = nfy__mig_next_sig(c, next);
    if (next == NFY_NONE || !(nfy_mig_tok_op(c, next, NFY_OP_EQEQUAL) ||
                              nfy_mig_tok_op(c, next, NFY_OP_NOTEQUAL) ||
                              mig_tok_is(c, next, "in")))
        return false;
    uint32_t first = nfy__mig_next_sig(c, next);
    return first != NFY_NONE && first < hi &&
           device_object(c, first, operand_end(c, first, hi));
}

static void compared_string_row(mig_ctx *c, const nfy_rule *r,
                                const nfy_rule_pair *row)
{
    nfy_str want = nfy_str_from_cstr(row->from);
    want = nfy_str_slice(want, 1, want.len > 1 ? want.len - 1 : 1);
    nfy_rule_ctx cmp = {NFY_CTX_COMPARE, NULL, -1, NULL};
    for (uint32_t i = 0; i < c->m->nstrings; i++) {
        const nfy_strlit *s = &c->m->strings[i];
        uint32_t off;
        nfy_str body = nfy_mig_string_body(c, s->first, &off);
        bool dev = nfy_str_eq(body, want) ||
                   (nfy_str_starts_with(body, want) && body.len > want.len &&
                    body.ptr[want.len] == ':');
        if (dev && nfy__mig_expr_in_ctx(c, s->first, s->end, i, &cmp) &&
            compared_with_device(c, s->first, s->end))
            flag(c, r, row, s->span, nfy_mig_strdup(c, body));
    }
}

void nfy__mig_pass_auto_unhandled(mig_ctx *c)
{
    const nfy_rule *r = nfy__mig_pass_rule_of(c, NFY_PASS_AUTO_UNHANDLED);
    for (size_t k = 0; r != NULL && k < r->nmap; k++) {
        const nfy_rule_pair *row = &r->map[k];
        if (row->from[0] == '"')
            compared_string_row(c, r, row);
        else
            module_row(c, r, row);
    }
}
