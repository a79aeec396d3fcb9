/*
 * cpp-extension-cu (NPU502): a call that JIT-builds CUDA code, whatever the
 * loader is called. torch.utils.cpp_extension.load/load_inline, and any
 * project wrapper around them (custom_ops.get_plugin(...)), show it by their
 * arguments: sources= naming .cu/.cuh files (a literal, a glob of "*.cu", or
 * a variable bound to one), cuda_sources=, or extra_cuda_cflags= given
 * directly or inside a **kwargs dict. The build-time classes of
 * cpp_extension (CUDAExtension, BuildExtension) are NPU501's.
 */
#include <string.h>

#include "migrate/pass.h"

enum { JIT_FOLLOW_DEPTH = 4 };

static bool names_cu_file(nfy_str body)
{
    return nfy_str_ends_with(body, NFY_STR_LIT(".cu")) ||
           nfy_str_ends_with(body, NFY_STR_LIT(".cuh"));
}

/* The value bound to the name use at token t, as a token range. */
static bool bound_value(const mig_ctx *c, uint32_t t, uint32_t *first,
                        uint32_t *end)
{
    uint32_t u = nfy_pysyn_use_at(c->m, t);
    if (u == NFY_NONE || c->m->uses[u].ctx != NFY_CTX_LOAD)
        return false;
    uint32_t b = nfy_resolve_use(c->r, u)->binding;
    if (b == NFY_NONE || c->m->bindings[b].value_first == NFY_NONE)
        return false;
    *first = c->m->bindings[b].value_first;
    *end = c->m->bindings[b].value_end;
    return true;
}

/*
 * Does [first, end) name a CUDA source: a string ending in .cu/.cuh, or a
 * variable whose assigned value does (followed a few levels)?
 */
static bool mentions_cu(mig_ctx *c, uint32_t first, uint32_t end, int depth)
{
    for (uint32_t t = first; t < end; t++) {
        uint32_t off, vf, ve;
        if (names_cu_file(nfy_mig_string_body(c, t, &off)))
            return true;
        if (depth > 0 && bound_value(c, t, &vf, &ve) &&
            mentions_cu(c, vf, ve, depth - 1))
            return true;
    }
    return false;
}

/* Does [first, end) hold the key or keyword extra_cuda_cflags/cuda_sources
 * (a dict literal, dict(...), or a variable bound to one)? */
static bool has_cuda_key(mig_ctx *c, uint32_t first, uint32_t end, int depth)
{
    for (uint32_t t = first; t < end; t++) {
        uint32_t off, vf, ve;
        nfy_str b = nfy_mig_string_body(c, t, &off);
        if (mig_str_is(b, "extra_cuda_cflags") ||
            mig_str_is(b, "cuda_sources") ||
            mig_tok_is(c, t, "extra_cuda_cflags") ||
            mig_tok_is(c, t, "cuda_sources"))
            return true;
        if (depth > 0 && bound_value(c, t, &vf, &ve) &&
            has_cuda_key(c, vf, ve, depth - 1))
            return true;
    }
    return false;
}

static bool jit_builds_cuda(mig_ctx *c, uint32_t k)
{
    const nfy_call *call = &c->m->calls[k];
    for (uint32_t i = 0; i < call->nargs; i++) {
        const nfy_arg *a = &c->m->args[call->args_first + i];
        if (a->kind == NFY_ARG_KEYWORD) {
            if (mig_tok_is(c, a->name_tok, "extra_cuda_cflags") ||
                mig_tok_is(c, a->name_tok, "cuda_sources"))
                return true;
            if (mig_tok_is(c, a->name_tok, "sources") &&
                mentions_cu(c, a->value_first, a->value_end, JIT_FOLLOW_DEPTH))
                return true;
        } else if (a->kind == NFY_ARG_DSTAR &&
                   has_cuda_key(c, a->value_first, a->value_end,
                                JIT_FOLLOW_DEPTH)) {
            return true;
        }
    }
    return false;
}

/* cpp_extension.load(name, sources): sources may be positional. */
static bool load_positional_cu(mig_ctx *c, uint32_t k, nfy_str q)
{
    if (!mig_str_is(q, "torch.utils.cpp_extension.load"))
        return false;
    uint32_t a = nfy_pysyn_posarg(c->m, k, 1);
    return a != NFY_NONE &&
           mentions_cu(c, c->m->args[a].value_first, c->m->args[a].value_end,
                       JIT_FOLLOW_DEPTH);
}

/* Not loaders: cpp_extension's build-time classes, and dict(...), whose
 * keywords reach a loader through **kwargs and are reported there. */
static bool is_not_loader(const mig_ctx *c, uint32_t k, nfy_str q)
{
    if (mig_str_is(q, "dict") || mig_str_is(q, "builtins.dict") ||
        (q.len == 0 && mig_str_is(c->m->calls[k].dotted, "dict")))
        return true;
    return nfy_str_starts_with(q, NFY_STR_LIT("torch.utils.cpp_extension.")) &&
           !mig_str_is(q, "torch.utils.cpp_extension.load") &&
           !mig_str_is(q, "torch.utils.cpp_extension.load_inline");
}

void nfy__mig_pass_jit_ext(mig_ctx *c)
{
    const nfy_rule *r = nfy__mig_pass_rule_of(c, NFY_PASS_CPP_EXTENSION_CU);
    for (uint32_t k = 0; r != NULL && k < c->m->ncalls; k++) {
        if (c->m->calls[k].flags &
            (NFY_CALLF_CLASS_BASES | NFY_CALLF_DECORATOR))
            continue;
        nfy_str q = mig_callee_qual(c, k);
        if (is_not_loader(c, k, q))
            continue;
        if (!load_positional_cu(c, k, q) && !jit_builds_cuda(c, k))
            continue;
        const nfy_call *call = &c->m->calls[k];
        nfy_str callee = nfy_pysyn_span_text(
            c->m, nfy_pysyn_range_span(c->m, call->callee_first, call->lpar));
        nfy__mig_flag(c, r, call->span, nfy_mig_strdup(c, q.len ? q : callee),
                      NULL);
    }
}
