/*
 * amp-manual-fp16 (NPU407): a file that trains in fp16 by hand, which is
 * not AMP: apex.fp16_utils / FP16_Optimizer, or a `.half()` model together
 * with a loss scaled by hand before `.backward()` (`(loss * scale)`,
 * `loss.mul(s)`, a `*loss_scale*` name). Sets info.fp16_line, so that the
 * project-level NPU402 can say "fp16 by hand" instead of "no AMP found".
 */
#include <string.h>

#include "migrate/name_match.h"
#include "migrate/pass.h"

static bool scale_name(nfy_str t)
{
    for (size_t i = 0; i + 5 <= t.len; i++)
        if (nfy_str_starts_with(nfy_str_slice(t, i, t.len),
                                NFY_STR_LIT("scale")))
            return true;
    return false;
}

/* `.scale(` at token t: a GradScaler scaling the loss, which is AMP. */
static bool scaler_scale(const mig_ctx *c, uint32_t t)
{
    return t > 0 && t + 1 < c->m->ntoks && mig_tok_is(c, t, "scale") &&
           mig_tok_is(c, t - 1, ".") && mig_tok_is(c, t + 1, "(");
}

/* Tokens [first, end) multiply or scale: `*`, `.mul(`, a *scale* name. */
static bool scales(const mig_ctx *c, uint32_t first, uint32_t end)
{
    for (uint32_t t = first; t < end; t++)
        if (scaler_scale(c, t))
            return false; /* scaler.scale(loss): AMP's loss scaling */
    for (uint32_t t = first; t < end; t++) {
        if (nfy_mig_tok_op(c, t, NFY_OP_STAR) || mig_tok_is(c, t, "mul") ||
            mig_tok_is(c, t, "mul_") ||
            (c->m->toks[t].kind == NFY_TOK_NAME && scale_name(mig_tok(c, t))))
            return true;
    }
    return false;
}

/* `R.backward(...)` with R scaled, directly or through the variable R. */
static bool scaled_backward(const mig_ctx *c, uint32_t k)
{
    const nfy_call *call = &c->m->calls[k];
    if (call->attr_tok == NFY_NONE ||
        !mig_tok_is(c, call->attr_tok, "backward"))
        return false;
    uint32_t recv_end = call->attr_tok - 1; /* the '.' */
    if (scales(c, call->callee_first, recv_end))
        return true;
    uint32_t u = nfy_pysyn_use_at(c->m, call->callee_first);
    if (u == NFY_NONE || recv_end != call->callee_first + 1)
        return false;
    uint32_t b = nfy_resolve_use(c->r, u)->binding;
    return b != NFY_NONE && c->m->bindings[b].value_first != NFY_NONE &&
           scales(c, c->m->bindings[b].value_first,
                  c->m->bindings[b].value_end);
}

/* `.half()` that leaves the model in fp16: not `x.half().float()`, which
 * rounds the values and goes back to fp32 (yolov5's anchor precision). */
static bool is_half_call(const mig_ctx *c, uint32_t k)
{
    const nfy_call *call = &c->m->calls[k];
    uint32_t r = call->rpar;
    bool back_to_fp32 =
        r != NFY_NONE && r + 3 < c->m->ntoks && mig_tok_is(c, r + 1, ".") &&
        mig_tok_is(c, r + 2, "float") && mig_tok_is(c, r + 3, "(");
    return call->attr_tok != NFY_NONE && call->nargs == 0 &&
           mig_tok_is(c, call->attr_tok, "half") &&
           !nfy_mig_attr_on_module(c, call->attr_tok) && !back_to_fp32;
}

/* Is q apex.fp16_utils or below it, or does it end in FP16_Optimizer?
 * (nfy__mig_q_under_cstr and nfy_str_ends_with, the lengths known here) */
static bool apex_fp16_qual(nfy_str q)
{
    static const char head[] = "apex.fp16_utils", tail[] = "FP16_Optimizer";
    const size_t h = sizeof head - 1, t = sizeof tail - 1;
    return (q.len >= h && memcmp(q.ptr, head, h) == 0 &&
            (q.len == h || q.ptr[h] == '.')) ||
           (q.len >= t && memcmp(q.ptr + q.len - t, tail, t) == 0);
}

/* The first apex.fp16_utils / FP16_Optimizer use, else NFY_NONE. */
static uint32_t apex_fp16_use(const mig_ctx *c)
{
    for (uint32_t u = 0; u < c->m->nuses; u++) {
        if (apex_fp16_qual(nfy_resolve_use(c->r, u)->qual))
            return u;
    }
    return NFY_NONE;
}

void nfy__mig_pass_fp16(mig_ctx *c)
{
    const nfy_rule *r = nfy__mig_pass_rule_of(c, NFY_PASS_AMP_MANUAL_FP16);
    if (r == NULL)
        return;
    uint32_t u = apex_fp16_use(c);
    nfy_span at;
    const char *api;
    if (u != NFY_NONE) {
        const nfy_name_use *use = &c->m->uses[u];
        at = (nfy_span){c->m->toks[use->tok].start,
                        c->m->toks[use->chain_end].end};
        api = nfy_mig_strdup(c, nfy_resolve_use(c->r, u)->qual);
    } else {
        uint32_t half = NFY_NONE;
        bool scaled = false;
        for (uint32_t k = 0; k < c->m->ncalls; k++) {
            if (half == NFY_NONE && is_half_call(c, k))
                half = k;
            scaled = scaled || scaled_backward(c, k);
        }
        if (half == NFY_NONE || !scaled)
            return;
        at = c->m->calls[half].span;
        api = ".half() + manual loss scaling";
    }
    uint32_t col;
    nfy_source_linecol(c->src, at.start, &c->info->fp16_line, &col);
    nfy__mig_flag(c, r, at, api, NULL);
}
