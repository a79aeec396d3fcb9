/*
 * kernel-language (NPU509): kernels written in a GPU kernel language other
 * than CUDA C and Triton, each named where it is defined or built:
 * decorated defs (@tilelang.jit, @T.prim_func, @cute.kernel, @cute.jit,
 * @cuda.jit of numba, @wp.kernel of NVIDIA Warp, @cupyx.jit.rawkernel)
 * and kernel objects built from source (cupy.RawKernel/ElementwiseKernel/
 * ReductionKernel/RawModule, pycuda's SourceModule, torch.cuda.jiterator).
 * The rule's map is the registry: [qualified name, "", language]; rows
 * "kernel-name:WORD" give the torch_npu fused API for a kernel whose name
 * holds WORD (attention -> torch_npu.npu_fusion_attention).
 */
#include <string.h>

#include "migrate/pass.h"

/* The map row of qualified name q (not the kernel-name rows). */
static const nfy_rule_pair *kernel_row(const nfy_rule *r, nfy_str q)
{
    if (q.len == 0)
        return NULL;
    for (size_t i = 0; i < r->nmap; i++)
        if (mig_str_is(q, r->map[i].from))
            return &r->map[i];
    return NULL;
}

/* The fused torch_npu API for a kernel called name, or NULL. */
static const char *fused_api(const nfy_rule *r, nfy_str name)
{
    static const char prefix[] = "kernel-name:";
    for (size_t i = 0; i < r->nmap; i++) {
        const char *from = r->map[i].from;
        if (strncmp(from, prefix, sizeof prefix - 1))
            continue;
        nfy_str word = nfy_str_from_cstr(from + sizeof prefix - 1);
        for (size_t k = 0; word.len && k + word.len <= name.len; k++) {
            size_t j = 0;
            while (j < word.len &&
                   (name.ptr[k + j] | 0x20) == (word.ptr[j] | 0x20))
                j++;
            if (j == word.len)
                return r->map[i].note;
        }
    }
    return NULL;
}

static const char *language(const nfy_rule_pair *p)
{
    return p->note && *p->note ? p->note : "GPU kernel language";
}

/* The map row of the first decorator of def s that is a kernel language. */
static const nfy_rule_pair *decorated(const mig_ctx *c, const nfy_rule *r,
                                      const nfy_stmt *s)
{
    for (uint32_t d = 0; d < s->ndecos; d++) {
        const nfy_stmt *ds = &c->m->stmts[s->deco_first + d];
        uint32_t u = nfy_pysyn_use_at(c->m, ds->first + 1);
        if (u == NFY_NONE)
            continue;
        const nfy_rule_pair *p = kernel_row(r, nfy_resolve_use(c->r, u)->qual);
        if (p)
            return p;
    }
    return NULL;
}

static void flag_kernel(mig_ctx *c, const nfy_rule *r, nfy_span span,
                        const nfy_rule_pair *p, nfy_str name)
{
    const char *fused = fused_api(r, name);
    const char *msg =
        fused
            ? nfy_mig_fmt(c,
                          "%s kernel %.*s: does not run on NPU; torch_npu has "
                          "a fused API for it: %s",
                          language(p), NFY_STR_FMT(name), fused)
            : nfy_mig_fmt(c, "%s kernel %.*s: does not run on NPU", language(p),
                          NFY_STR_FMT(name));
    nfy__mig_note_add(c, r, span, NFY_CAT_CUDA_OP, NFY_OPTYPE_UNSUPPORTED,
                      nfy_mig_fmt(c, "%s %.*s", p->from, NFY_STR_FMT(name)),
                      nfy__mig_with_hint(c, msg, r->hint));
}

/* What a kernel built by call k is called: the name it is assigned to
 * (add = cp.RawKernel(...)), else the callee's last name. */
static nfy_str built_name(const mig_ctx *c, uint32_t k)
{
    uint32_t st = c->m->calls[k].stmt;
    if (st != NFY_NONE && c->m->stmts[st].kind == NFY_STMT_ASSIGN &&
        c->m->stmts[st].value_first == c->m->calls[k].callee_first) {
        nfy_str t = mig_tok(c, c->m->stmts[st].first);
        if (t.len && (t.ptr[0] == '_' || (t.ptr[0] | 0x20) >= 'a'))
            return t;
    }
    nfy_str q = mig_callee_qual(c, k);
    ptrdiff_t dot;
    while ((dot = nfy_str_find_char(q, '.')) >= 0)
        q = nfy_str_slice(q, (size_t)dot + 1, q.len);
    return q;
}

void nfy__mig_pass_kernels(mig_ctx *c)
{
    const nfy_rule *r = nfy__mig_pass_rule_of(c, NFY_PASS_KERNEL_LANGUAGE);
    if (r == NULL)
        return;
    for (uint32_t i = 0; i < c->m->nstmts; i++) {
        const nfy_stmt *s = &c->m->stmts[i];
        if (s->name_tok == NFY_NONE || s->ndecos == 0 ||
            s->deco_first == NFY_NONE)
            continue;
        const nfy_rule_pair *p = decorated(c, r, s);
        if (p)
            flag_kernel(c, r, s->span, p, mig_tok(c, s->name_tok));
    }
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        const nfy_rule_pair *p = kernel_row(r, mig_callee_qual(c, k));
        uint32_t st = c->m->calls[k].stmt;
        /* a decorator call (@cuda.jit(device=True)) is named with its def */
        if (p &&
            !(st != NFY_NONE && c->m->stmts[st].kind == NFY_STMT_DECORATOR))
            flag_kernel(c, r, c->m->calls[k].span, p, built_name(c, k));
    }
}
