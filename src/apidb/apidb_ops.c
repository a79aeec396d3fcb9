/*
 * Operator status: is an aten (or npu::) operator runnable on the NPU for a
 * torch_npu version, and how. The evidence, strongest first: an NPU kernel
 * in torch_npu/op-plugin's yaml; the 'tocpu' and 'unsupported' sections
 * (1.11 and 2.0 only); PyTorch's native_functions.yaml, which says whether
 * the op is composite (decomposes into other ops, or has one
 * CompositeExplicitAutograd kernel for every backend, so needs no NPU
 * kernel) or a plain aten op without an NPU kernel (CPU fallback from 2.1
 * on, an error before). The native_functions table is the one of the PyTorch
 * version the torch_npu line targets, or the nearest older one (1.13
 * for 1.11-2.1), and an operator it lacks is looked up in the older tables in
 * turn.
 */
#include <string.h>

#include "apidb/apidb_data.h"

typedef enum { NS_NONE, NS_ATEN, NS_NPU, NS_OTHER } op_ns;

typedef struct {
    op_ns ns;
    nfy_str base;      /* "add" */
    nfy_str full;      /* "add.Tensor", or "add" for the default overload */
    bool has_overload; /* an overload was named (".default" included) */
} op_name;

static nfy_str trim_blanks(nfy_str s)
{
    while (s.len && (s.ptr[0] == ' ' || s.ptr[0] == '\t')) {
        s.ptr++;
        s.len--;
    }
    while (s.len && (s.ptr[s.len - 1] == ' ' || s.ptr[s.len - 1] == '\t' ||
                     s.ptr[s.len - 1] == '\n' || s.ptr[s.len - 1] == '\r'))
        s.len--;
    return s;
}

static op_name parse_op(nfy_str s)
{
    op_name op = {NS_NONE, {NULL, 0}, {NULL, 0}, false};
    s = trim_blanks(s);
    if (nfy_str_consume(&s, "aten::") || nfy_str_consume(&s, "torch.ops.aten."))
        op.ns = NS_ATEN;
    else if (nfy_str_consume(&s, "npu::") ||
             nfy_str_consume(&s, "torch.ops.npu.") ||
             nfy_str_consume(&s, "torch_npu."))
        op.ns = NS_NPU;
    else if (nfy_str_contains(s, NFY_STR_LIT("::")))
        op.ns = NS_OTHER;
    size_t dot = 0;
    while (dot < s.len && s.ptr[dot] != '.')
        dot++;
    op.base = (nfy_str){s.ptr, dot};
    op.full = s;
    op.has_overload = dot < s.len;
    if (op.has_overload && s.len - dot - 1 == 7 &&
        memcmp(s.ptr + dot + 1, "default", 7) == 0)
        op.full = op.base;
    return op;
}

const char *nfy_apidb_op_status_name(nfy_op_status st)
{
    switch (st) {
    case NFY_OP_SUPPORTED:
        return "supported";
    case NFY_OP_CPU_FALLBACK:
        return "cpu-fallback";
    case NFY_OP_UNSUPPORTED:
        return "unsupported";
    case NFY_OP_COMPOSITE:
        return "composite";
    case NFY_OP_UNKNOWN:
        break;
    }
    return "unknown";
}

/* The row for op in family f at label: exact overload, or any overload. */
static const nfy__apidb_row *find_op(nfy__apidb_fam_id fam, const op_name *op,
                                     int label)
{
    const nfy__apidb_family *f = nfy__apidb_fam(fam);
    if (label < 0 || op->base.len == 0)
        return NULL;
    if (op->has_overload)
        return nfy__apidb_find_in(f, op->full, label);
    return nfy__apidb_find_base(f, op->base, label);
}

static int kind_rank(const char *kind)
{
    if (!kind)
        return 0;
    if (strcmp(kind, "implicit") == 0)
        return 2;
    if (strcmp(kind, "explicit") == 0)
        return 1;
    return 0;
}

/*
 * PyTorch's entry for op: the exact overload when one was named, else the
 * default overload, else the most composite of its overloads (a profiler
 * name without overload cannot tell them apart; the children of a
 * composite op are checked in their own right).
 */
static const nfy__apidb_row *torch_entry(const op_name *op, int label)
{
    const nfy__apidb_family *f = nfy__apidb_fam(NFY__FAM_TORCH_OPS);
    if (op->has_overload)
        return nfy__apidb_find_in(f, op->full, label);
    const nfy__apidb_row *r = nfy__apidb_find_in(f, op->base, label);
    if (r)
        return r;
    uint32_t i, end;
    const nfy__apidb_row *best = NULL;
    nfy__apidb_find(f, op->base, &i, &end); /* overloads sort after base */
    for (i = end; i < f->nrows; i++) {
        const nfy__apidb_row *c = &nfy__apidb_rows[f->first_row + i];
        const char *key = nfy__apidb_str(c->key);
        if (strncmp(key, op->base.ptr, op->base.len) != 0 ||
            key[op->base.len] != '.')
            break;
        if (((c->mask >> label) & 1u) &&
            (!best || kind_rank(nfy__apidb_field(c, 0)) >
                          kind_rank(nfy__apidb_field(best, 0))))
            best = c;
    }
    return best;
}

static nfy_op_status decide(nfy_op_info *info, nfy_op_status st, bool listed,
                            const nfy__apidb_row *r)
{
    info->status = st;
    info->listed = listed;
    info->matched = r ? nfy__apidb_str(r->key) : NULL;
    return st;
}

static nfy_op_status custom_status(const nfy_apidb_version *v,
                                   const op_name *op, nfy_op_info *info)
{
    const nfy__apidb_family *cf = nfy__apidb_fam(NFY__FAM_NPU_CUSTOM);
    const nfy__apidb_row *r =
        find_op(NFY__FAM_NPU_CUSTOM, op, nfy__apidb_label_exact(cf, v));
    if (!r)
        return NFY_OP_UNKNOWN;
    const nfy__apidb_family *pf = nfy__apidb_fam(NFY__FAM_NPU_PUBLIC);
    info->custom = true;
    info->is_public =
        nfy__apidb_find_in(pf, op->base, nfy__apidb_label_exact(pf, v)) != NULL;
    return decide(info, NFY_OP_SUPPORTED, true, r);
}

/* Operators of one backend's own library (cuDNN, MIOpen, oneDNN, NNPACK,
 * fused CUDA kernels): their kernels never serve the NPU, whatever
 * dispatch key native_functions.yaml files them under. */
static bool backend_family(nfy_str base)
{
    static const char *const prefixes[] = {"cudnn_",  "_cudnn_",  "miopen_",
                                           "mkldnn_", "_mkldnn_", "_nnpack_",
                                           "_fused_"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (nfy_str_starts_with(base, nfy_str_from_cstr(prefixes[i])))
            return true;
    return false;
}

/* Steps after "no NPU kernel": explicit lists, then PyTorch's own data. */
static nfy_op_status aten_without_kernel(const nfy_apidb_version *v,
                                         const op_name *op, nfy_op_info *info)
{
    int cpu_label =
        nfy__apidb_label_exact(nfy__apidb_fam(NFY__FAM_ATEN_CPU), v);
    const nfy__apidb_row *r = find_op(NFY__FAM_ATEN_CPU, op, cpu_label);
    if (r)
        return decide(info, NFY_OP_CPU_FALLBACK, true, r);
    r = find_op(NFY__FAM_ATEN_UNSUP, op,
                nfy__apidb_label_exact(nfy__apidb_fam(NFY__FAM_ATEN_UNSUP), v));
    if (r)
        return decide(info, NFY_OP_UNSUPPORTED, true, r);
    const nfy__apidb_family *tf = nfy__apidb_fam(NFY__FAM_TORCH_OPS);
    int tl = nfy__apidb_label_nearest(tf, v);
    info->torch_version = tl >= 0 ? nfy__apidb_str(tf->labels[tl]) : NULL;
    /* the table serving v, then older ones: a log may show an operator
     * that newer PyTorch dropped or renamed */
    r = NULL;
    for (int l = op->base.len ? tl : -1; l >= 0 && !r; l--) {
        r = torch_entry(op, l);
        if (r)
            info->torch_version = nfy__apidb_str(tf->labels[l]);
    }
    if (!r)
        return decide(info, NFY_OP_UNKNOWN, false, NULL);
    /* CompositeImplicitAutograd decomposes for every backend; a
     * CompositeExplicitAutograd kernel is one kernel for every backend too
     * (views, factories, the _foreach_* slow paths), except on ops of a
     * backend's own family (mkldnn_convolution is registered so but calls
     * oneDNN), which need a kernel of their own. */
    int rank = kind_rank(nfy__apidb_field(r, 0));
    info->explicit_composite = rank == 1;
    if (rank == 2 || (rank == 1 && !backend_family(op->base)))
        return decide(info, NFY_OP_COMPOSITE, false, r);
    /* 1.11/2.0 have 'tocpu' lists and no generic fallback */
    return decide(info,
                  cpu_label >= 0 ? NFY_OP_UNSUPPORTED : NFY_OP_CPU_FALLBACK,
                  false, r);
}

static nfy_op_status op_status(const nfy_apidb_version *v, const op_name *op,
                               nfy_op_info *info);

/*
 * A kernel of one backend's own library (cudnn_convolution, _fused_adam_,
 * mkldnn_convolution on a CPU profile) never runs on NPU; what replaces it
 * there decides: supported or composite when the counterpart is, else
 * unsupported (never a CPU fallback of a cuDNN op).
 */
static nfy_op_status backend_op_status(const nfy_apidb_version *v,
                                       const op_name *op, nfy_op_info *info)
{
    const nfy__apidb_row *r =
        nfy__apidb_find_in(nfy__apidb_fam(NFY__FAM_BACKEND_OPS), op->base, 0);
    if (r == NULL || nfy__apidb_field_opt(r, 0) == NULL)
        return NFY_OP_UNKNOWN;
    const char *to = nfy__apidb_field_opt(r, 0);
    op_name cop = parse_op(nfy_str_from_cstr(to));
    nfy_op_info cinfo;
    memset(&cinfo, 0, sizeof cinfo);
    nfy_op_status st = cop.ns == NS_NPU ? custom_status(v, &cop, &cinfo)
                                        : op_status(v, &cop, &cinfo);
    memset(info, 0, sizeof *info);
    info->npu_counterpart = to;
    info->counterpart_note = nfy__apidb_field_opt(r, 1);
    info->torch_version = cinfo.torch_version;
    info->custom = cinfo.custom;
    if (st != NFY_OP_SUPPORTED && st != NFY_OP_COMPOSITE)
        st = NFY_OP_UNSUPPORTED;
    return decide(info, st, true, r);
}

nfy_op_status nfy_apidb_op_status(const nfy_apidb_version *v, nfy_str name,
                                  nfy_op_info *info)
{
    nfy_op_info local;
    if (!info)
        info = &local;
    memset(info, 0, sizeof *info);
    v = nfy__apidb_or_default(v);
    op_name op = parse_op(name);
    if (op.ns == NS_OTHER || op.base.len == 0)
        return decide(info, NFY_OP_UNKNOWN, false, NULL);
    if (op.ns == NS_NPU) {
        info->custom = true;
        return custom_status(v, &op, info);
    }
    nfy_op_status st = op_status(v, &op, info);
    if (st == NFY_OP_SUPPORTED)
        return st;
    nfy_op_info binfo;
    nfy_op_status bst = backend_op_status(v, &op, &binfo);
    if (bst != NFY_OP_UNKNOWN) {
        *info = binfo;
        return bst;
    }
    return st;
}

/* An aten (or bare) operator: NPU kernel, custom op, then the rest. */
static nfy_op_status op_status(const nfy_apidb_version *v, const op_name *op,
                               nfy_op_info *info)
{
    const nfy__apidb_row *r =
        find_op(NFY__FAM_ATEN_OPS, op,
                nfy__apidb_label_exact(nfy__apidb_fam(NFY__FAM_ATEN_OPS), v));
    if (r)
        return decide(info, NFY_OP_SUPPORTED, true, r);
    if (op->ns == NS_NONE && custom_status(v, op, info) == NFY_OP_SUPPORTED)
        return NFY_OP_SUPPORTED;
    return aten_without_kernel(v, op, info);
}

const nfy_apidb_version *nfy_apidb_op_first_supported(nfy_str name)
{
    return nfy_apidb_op_first_supported_after(NULL, name);
}

const nfy_apidb_version *
nfy_apidb_op_first_supported_after(const nfy_apidb_version *target,
                                   nfy_str name)
{
    bool past = target == NULL;
    for (size_t i = 0; i < nfy_apidb_version_count(); i++) {
        const nfy_apidb_version *v = nfy_apidb_version_at(i);
        if (!past) {
            past = v == target;
            continue;
        }
        if (nfy_apidb_op_status(v, name, NULL) == NFY_OP_SUPPORTED)
            return v;
    }
    return NULL;
}

bool nfy_apidb_npu_custom_op(const nfy_apidb_version *v, nfy_str name,
                             bool *is_public)
{
    nfy_op_info info;
    memset(&info, 0, sizeof info);
    v = nfy__apidb_or_default(v);
    op_name op = parse_op(name);
    bool found = op.ns != NS_ATEN && op.ns != NS_OTHER &&
                 custom_status(v, &op, &info) == NFY_OP_SUPPORTED;
    if (is_public)
        *is_public = found && info.is_public;
    return found;
}
