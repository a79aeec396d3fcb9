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
 * "cuda:N", where it is compared.
 */
#include <string.h>

#include "migrate/ctxmatch.h"
#include "migrate/qmatch.h"

static const char *with_note(mig_ctx *c, const nfy_rule *r,
                             const nfy_rule_pair *row)
{
    const char *msg =
        row->note ? mig_fmt(c, "%s: %s", r->message, row->note) : r->message;
    return mig_with_hint(c, msg, r->hint);
}

static void flag(mig_ctx *c, const nfy_rule *r, const nfy_rule_pair *row,
                 nfy_span sp, const char *api)
{
    mig_cat cat;
    mig_op op;
    mig_flag_class(r, &cat, &op);
    mig_note_add(c, r, sp, cat, op, api, with_note(c, r, row));
}

static void module_row(mig_ctx *c, const nfy_rule *r, const nfy_rule_pair *row)
{
    for (uint32_t i = 0; i < c->m->nimport_names; i++) {
        const nfy_import_name *in = &c->m->import_names[i];
        const nfy_import *imp = &c->m->imports[in->import];
        nfy_str mod = (imp->flags & NFY_IMPF_FROM) ? imp->module : in->name;
        if (imp->level == 0 && mig_q_under_cstr(mod, row->from))
            flag(c, r, row, c->m->stmts[imp->stmt].span, row->from);
    }
    for (uint32_t u = 0; u < c->m->nuses; u++) {
        const nfy_name_use *use = &c->m->uses[u];
        nfy_str q = nfy_resolve_use(c->r, u)->qual;
        if (use->ctx != NFY_CTX_LOAD || !mig_q_under_cstr(q, row->from))
            continue;
        nfy_span sp = {c->m->toks[use->tok].start,
                       c->m->toks[use->chain_end].end};
        flag(c, r, row, sp, mig_strdup(c, q));
    }
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
        nfy_str body = mig_string_body(c, s->first, &off);
        bool dev = nfy_str_eq(body, want) ||
                   (nfy_str_starts_with(body, want) && body.len > want.len &&
                    body.ptr[want.len] == ':');
        if (dev && mig_expr_in_ctx(c, s->first, s->end, i, &cmp))
            flag(c, r, row, s->span, mig_strdup(c, body));
    }
}

void mig_pass_auto_unhandled(mig_ctx *c)
{
    const nfy_rule *r = mig_find_pass(c, NFY_RULE_FLAG, "auto-unhandled");
    for (size_t k = 0; r != NULL && k < r->nmap; k++) {
        const nfy_rule_pair *row = &r->map[k];
        if (row->from[0] == '"')
            compared_string_row(c, r, row);
        else
            module_row(c, r, row);
    }
}
