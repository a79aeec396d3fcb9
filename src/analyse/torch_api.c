/*
 * NPU701/NPU702: every torch API the file uses, judged for the target
 * version. Three kinds of use are certain enough to judge:
 *  - a dotted name that resolves through imports to torch.* (calls,
 *    attributes, base classes, decorators alike);
 *  - a call or .forward of a local built by a torch class constructor
 *    (`m = nn.MaxPool2d(2)`, then `m(x)`): the class itself, and methods
 *    the lists name for that class (an inherited one is not guessed);
 *  - a method of a local that is surely a tensor (nfy__analyse_binding_type),
 * which also gets Huawei's precision advice (NPU703) the name rules cannot give
 * it. torch.ops.* (operators, see custom_ops.c), torch.cuda.* names no list
 * knows (convert's CUDA rules own them) and private names (a component
 * starting with '_') get no NPU702; dtype constants, the classes of an
 * isinstance/issubclass test and type annotations get no verdict.
 */
#include <string.h>

#include "analyse/an_internal.h"

/* dtype, layout and memory-format constants: values, not APIs. */
static bool is_dtype(nfy_str q)
{
    static const char *const dtypes[] = {"bfloat16",
                                         "bool",
                                         "cdouble",
                                         "cfloat",
                                         "chalf",
                                         "complex128",
                                         "complex32",
                                         "complex64",
                                         "double",
                                         "float",
                                         "float16",
                                         "float32",
                                         "float64",
                                         "float8_e4m3fn",
                                         "float8_e5m2",
                                         "half",
                                         "int",
                                         "int16",
                                         "int32",
                                         "int64",
                                         "int8",
                                         "long",
                                         "qint32",
                                         "qint8",
                                         "quint4x2",
                                         "quint8",
                                         "short",
                                         "uint8",
                                         "uint16",
                                         "uint32",
                                         "uint64",
                                         "preserve_format",
                                         "contiguous_format",
                                         "strided",
                                         "sparse_coo",
                                         "sparse_csr",
                                         "jagged"};
    if (!AN_STARTS(q, "torch."))
        return false;
    nfy_str tail = {q.ptr + 6, q.len - 6};
    if (memchr(tail.ptr, '.', tail.len) != NULL)
        return false; /* no constant has a dot: most names end here */
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
        if (nfy_str_eq_cstr(tail, dtypes[i]))
            return true;
    return false;
}

/* A component starting with '_': no support list covers private APIs. */
static bool is_private(nfy_str q)
{
    for (size_t i = 0; i + 1 < q.len; i++)
        if (q.ptr[i] == '.' && q.ptr[i + 1] == '_')
            return true;
    return false;
}

static bool owned_elsewhere(nfy_str q)
{
    return AN_STARTS(q, "torch.ops.") || AN_STARTS(q, "torch.cuda.") ||
           AN_STR_IS(q, "torch.cuda") || AN_STARTS(q, "torch.backends.cudnn");
}

/* The aten operator named like a function API ("cdist", "_cdist" for
 * torch.cdist) when torch_npu registers an NPU kernel for it, or NULL: the
 * operator tables then disagree with an "unsupported" list entry, which
 * the reader should know (the list may concern some arguments only). */
static const char *kernel_of(an_ctx *c, nfy_str api)
{
    size_t i = api.len;
    while (i > 0 && api.ptr[i - 1] != '.')
        i--;
    nfy_str last = {api.ptr + i, api.len - i};
    if (last.len == 0 || !(last.ptr[0] >= 'a' && last.ptr[0] <= 'z'))
        return NULL; /* a class: no operator of that name */
    const char *names[2] = {
        nfy_arena_strndup(c->arena, last.ptr, last.len),
        nfy_arena_fmt(c->arena, "_%.*s", (int)last.len, last.ptr)};
    for (int k = 0; k < 2; k++) {
        nfy_op_info info;
        if (nfy_apidb_op_status(c->v, nfy_str_from_cstr(names[k]), &info) ==
                NFY_OP_SUPPORTED &&
            info.listed && !info.custom)
            return names[k];
    }
    return NULL;
}

/* "torch 2.1, msFmkTransplt list 2.1[: note]": which list said so. */
static const char *detail_of(an_ctx *c, const nfy_analyse_verdict *d)
{
    return d->note
               ? nfy_arena_fmt(c->arena, "torch %s, %s: %s", c->v->name,
                               d->source, d->note)
               : nfy_arena_fmt(c->arena, "torch %s, %s", c->v->name, d->source);
}

/* An "unsupported" entry whose same-named aten operator has an NPU kernel:
 * the lists and the kernels disagree, so the finding is a check (NPU702's
 * category: not blocking) with both facts, or NULL. */
static const char *disagreement(an_ctx *c, const nfy_analyse_verdict *d)
{
    const char *op = d->status == NFY_API_UNSUPPORTED
                         ? kernel_of(c, nfy_str_from_cstr(d->api))
                         : NULL;
    if (op == NULL)
        return NULL;
    return nfy_arena_fmt(c->arena,
                         "check on the device: the lists and the kernels "
                         "disagree: %s says unsupported, but torch_npu %s "
                         "registers an NPU kernel for aten::%s (the entry may "
                         "concern some arguments or dtypes only)",
                         detail_of(c, d), c->v->name, op);
}

/* The backend operators of ops ("a,b,c") without an NPU kernel in c's
 * version, "aten::a (cpu-fallback), ..." (at most 3 named, then a count),
 * or NULL when every one has a kernel (or decomposes); fallback_ok: an
 * operator torch_npu runs on the CPU counts as running (the code that
 * reaches it is read over every branch, so it may never run it). */
static const char *ops_without_kernel(an_ctx *c, const char *ops,
                                      bool fallback_ok)
{
    const char *out = NULL;
    unsigned missing = 0;
    for (const char *p = ops; p != NULL && *p != '\0';) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        nfy_op_status st = nfy_apidb_op_status(c->v, (nfy_str){p, n}, NULL);
        if (st != NFY_OP_SUPPORTED && st != NFY_OP_COMPOSITE &&
            !(fallback_ok && st == NFY_OP_CPU_FALLBACK)) {
            if (++missing <= 3)
                out = nfy_arena_fmt(c->arena, "%s%saten::%.*s (%s)",
                                    out ? out : "", out ? ", " : "", (int)n, p,
                                    nfy_apidb_op_status_name(st));
        }
        p = comma ? comma + 1 : NULL;
    }
    if (missing > 3)
        out = nfy_arena_fmt(c->arena, "%s and %u more", out, missing - 3);
    return out;
}

/* For a name no list knows: NULL when torch's own inventory shows it is
 * device-neutral (a constant, a class or function whose code reaches no
 * backend kernel, or only kernels torch_npu registers), else what the
 * inventory says, for the NPU702 text. */
static const char *inventory_detail(an_ctx *c, nfy_str api)
{
    nfy_torch_entry e;
    bool found = nfy_apidb_torch_inventory(api, &e);
    /* a member the inventory lists under another path of its class (an
     * alias, an inherited method, an enum value) is judged by its class or
     * value */
    for (uint32_t n = nfy_resolve_dotted_count(api) - 1; !found && n >= 3;
         n--) {
        if (!nfy_apidb_torch_inventory(nfy_resolve_dotted_head(api, n), &e))
            continue;
        if (e.kind != NFY_TORCH_CLASS && e.kind != NFY_TORCH_CONST)
            break; /* a module's or function's member: not its own */
        found = true;
    }
    if (!found)
        return nfy_arena_fmt(c->arena,
                             "not in torch %s's public API either (newer "
                             "than it, or not public)",
                             e.torch_version ? e.torch_version : "-");
    if (e.kind == NFY_TORCH_MODULE)
        return NULL;
    const char *missing = ops_without_kernel(c, e.ops, e.kind != NFY_TORCH_OP);
    if (missing == NULL)
        return NULL;
    if (e.kind == NFY_TORCH_OP) /* the operator is the API itself */
        return nfy_arena_fmt(c->arena,
                             "torch %s's inventory: it binds %s in "
                             "torch_npu %s, no NPU kernel",
                             e.torch_version, missing, c->v->name);
    return nfy_arena_fmt(c->arena,
                         "torch %s's inventory: a %s whose code reaches %s "
                         "in torch_npu %s, no NPU kernel and no CPU fallback",
                         e.torch_version, nfy_apidb_torch_kind_name(e.kind),
                         missing, c->v->name);
}

/* Whether q turns a trained model into a file for another runtime: an
 * "unsupported" verdict there does not block training on NPU (NPU714). */
static bool export_api(nfy_str q)
{
    static const char *const heads[] = {"torch.utils.mobile_optimizer.",
                                        "torch.onnx.", "torch.export.",
                                        "torch.package."};
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
        if (nfy_str_starts_with(q, nfy_str_from_cstr(heads[i])))
            return true;
    return false;
}

/* The finding of name n (rule and texts), made once for the entry. */
static void make_finding(an_ctx *c, an_named *n, const an_judgement *j)
{
    nfy_analyse_verdict d;
    nfy_arena *keep = c->arena;
    c->arena = n->arena; /* the texts live as long as the entry */
    nfy__analyse_verdict_of(j, c->arena, &d);
    n->emit = 1;
    const char *inv = NULL;
    if (j->status == NFY_API_UNKNOWN &&
        (inv = inventory_detail(c, j->api)) == NULL) {
        c->arena = keep; /* device-neutral: no finding */
        return;
    }
    const char *check = disagreement(c, &d);
    bool unsupported = j->status == NFY_API_UNSUPPORTED && check == NULL;
    n->rule = nfy__analyse_rule(c, !unsupported         ? "NPU702"
                                   : export_api(j->api) ? "NPU714"
                                                        : "NPU701");
    if (n->rule != NULL && check != NULL) {
        n->api = d.api;
        n->message = check;
        n->emit = 2;
    } else if (n->rule != NULL) {
        n->api = d.api;
        n->message =
            inv ? nfy_arena_fmt(c->arena, "%s: %s; %s", n->rule->message,
                                detail_of(c, &d), inv)
                : nfy_arena_fmt(c->arena, "%s: %s", n->rule->message,
                                detail_of(c, &d));
        n->emit = 2;
    }
    c->arena = keep;
}

/* Whether an active convert rule that flags names (not advice) names q
 * itself (NPU306 torch.nn.DataParallel): its finding, at the same site,
 * is the one finding there, so the lists' verdict adds none. */
static bool flagged_by_convert(const an_ctx *c, nfy_str q)
{
    const nfy_rule *r;
    for (size_t i = 0; (r = nfy_rules_set_at(c->o->rules, i)) != NULL; i++)
        if (r->kind == NFY_RULE_FLAG && r->match == NFY_MATCH_NAME &&
            !nfy_rules_has_tag(r, "precision") &&
            !nfy_rules_has_tag(r, "performance") &&
            nfy_rules_map_find(r, q) != NULL &&
            nfy_rules_activity_in(r, &c->env) != NFY_RULE_INACTIVE)
            return true;
    return false;
}

/* Judge qual and emit at span; only_listed: stay silent on unknown. */
static void judge_at(an_ctx *c, nfy_str qual, nfy_span span, bool only_listed)
{
    an_named *n = nfy__analyse_name(c, qual);
    if (!n->tested) {
        n->dtype = is_dtype(qual);
        n->only_listed = owned_elsewhere(qual) || is_private(qual);
        n->flagged = flagged_by_convert(c, qual);
        n->tested = true;
    }
    if (n->dtype || n->flagged)
        return;
    const an_judgement *j = nfy__analyse_named_judgement(c, n);
    int st = j->status;
    if (!j->judged || st == NFY_API_SUPPORTED)
        return;
    if (st == NFY_API_UNKNOWN && (only_listed || n->only_listed))
        return;
    if (n->emit == 0)
        make_finding(c, n, j);
    if (n->emit == 2)
        nfy__analyse_emit_rule(
            c, n->rule, span,
            (an_extra){n->api, NULL, NULL, NULL, NULL, n->message});
}

static nfy_span tok_span(const an_ctx *c, uint32_t first, uint32_t last)
{
    return nfy_pysyn_range_span(c->m, first, last + 1);
}

/* The NAME token of part k (0-based) of use u's chain. */
static uint32_t part_tok(const nfy_name_use *u, uint32_t k)
{
    uint32_t t = u->tok;
    for (uint32_t i = 0; i < k && t < u->chain_end; i++)
        t += 2; /* NAME '.' NAME: the structure keeps chains contiguous */
    return t;
}

static bool next_is(const an_ctx *c, uint32_t t, const char *text)
{
    return t + 1 < c->m->ntoks && nfy_pysyn_tok_is(c->m, t + 1, text);
}

/* Huawei's precision list (NPU703's table) for a method the name rules
 * cannot see: its receiver's type is known here only. */
static void precision_advice(an_ctx *c, const char *api, nfy_span sp)
{
    const nfy_rule *r = nfy__analyse_rule(c, "NPU703");
    const nfy_rule_pair *row =
        r ? nfy_rules_map_find(r, nfy_str_from_cstr(api)) : NULL;
    if (row != NULL) /* worded as the name rule words its rows */
        nfy__analyse_emit_as(c, "NPU703", sp,
                             (an_extra){api, NULL, NULL, NULL, NULL,
                                        nfy_arena_fmt(c->arena, "%s (%s)",
                                                      r->message, row->note)});
}

static void typed_use(an_ctx *c, const nfy_name_use *u, const char *type)
{
    bool tensor = strcmp(type, "torch.Tensor") == 0;
    nfy_str t = nfy_str_from_cstr(type);
    if (u->nparts == 1) {
        if (!tensor && next_is(c, u->tok, "("))
            judge_at(c, t, tok_span(c, u->tok, u->tok), false);
        return;
    }
    uint32_t mt = part_tok(u, 1);
    nfy_str method = nfy_pysyn_tok_text(c->m, mt);
    nfy_span sp = tok_span(c, u->tok, mt);
    if (tensor && !next_is(c, mt, "("))
        return; /* x.shape, x.dtype: attributes no list judges */
    if (!tensor && nfy_str_eq_cstr(method, "forward")) {
        judge_at(c, t, sp, false);
        return;
    }
    char *q =
        nfy_arena_fmt(c->arena, "%s.%.*s", type, (int)method.len, method.ptr);
    judge_at(c, nfy_str_from_cstr(q), sp, !tensor);
    if (tensor)
        precision_advice(c, q, sp);
}

/* Per token: inside the class argument of isinstance/issubclass, where a
 * torch class is a type test (it runs on NPU), not a use of the API. */
static uint8_t *type_tests(an_ctx *c)
{
    const nfy_pysyn *m = c->m;
    uint8_t *in_test = nfy_arena_calloc(c->arena, m->ntoks + 1, 1);
    for (uint32_t i = 0; i < m->ncalls; i++) {
        const nfy_call *k = &m->calls[i];
        if (k->use == NFY_NONE ||
            (!AN_STR_IS(k->dotted, "isinstance") &&
             !AN_STR_IS(k->dotted, "issubclass")) ||
            nfy_resolve_use(c->r, k->use)->kind != NFY_RES_UNBOUND)
            continue;
        uint32_t a = nfy_pysyn_posarg(m, i, 1);
        if (a == NFY_NONE)
            continue;
        for (uint32_t t = m->args[a].first; t < m->args[a].end; t++)
            in_test[t] = 1;
    }
    return in_test;
}

void nfy__analyse_torch_apis(an_ctx *c)
{
    const nfy_pysyn *m = c->m;
    const uint8_t *in_test = type_tests(c);
    const uint8_t *in_ann = nfy__analyse_annotation_tokens(c);
    for (uint32_t i = 0; i < m->nuses; i++) {
        const nfy_name_use *u = &m->uses[i];
        if (u->ctx != NFY_CTX_LOAD || in_test[u->tok] || in_ann[u->tok])
            continue;
        const nfy_res *res = nfy_resolve_use(c->r, i);
        if ((res->kind == NFY_RES_IMPORT || res->kind == NFY_RES_ALIAS) &&
            !res->relative) {
            if (AN_STARTS(res->qual, "torch."))
                judge_at(c, res->qual, tok_span(c, u->tok, u->chain_end),
                         false);
            continue;
        }
        if (res->kind != NFY_RES_LOCAL || res->binding == NFY_NONE)
            continue;
        const char *type = nfy__analyse_binding_type(c, res->binding);
        if (type[0] != '\0')
            typed_use(c, u, type);
    }
}
