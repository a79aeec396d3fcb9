/*
 * Operators by name prefix. The profiler's text tables cut long names to
 * 52 characters + "...", and a cut name that the log never prints in full
 * can still be recognised when a single known operator starts with it.
 * Known means: PyTorch's native_functions table serving the torch_npu line
 * plus that line's NPU kernels (aten namespace), or the line's custom
 * operators (npu namespace). Overloads of one operator count once.
 */
#include <string.h>

#include "apidb/apidb_data.h"

typedef struct {
    size_t count;
    nfy_str first; /* the first operator found */
} prefix_hits;

/* "add" of "add.Tensor". */
static nfy_str base_of(const char *key)
{
    const char *dot = strchr(key, '.');
    return (nfy_str){key, dot ? (size_t)(dot - key) : strlen(key)};
}

/*
 * Count the operators of f at label whose name starts with prefix. Rows of
 * one operator are adjacent ('.' sorts before every name character). An
 * operator that family seen already has at seen_label was counted there.
 */
static void scan(const nfy__apidb_family *f, int label, nfy_str prefix,
                 const nfy__apidb_family *seen, int seen_label, prefix_hits *h)
{
    if (label < 0)
        return;
    nfy_str last = {NULL, 0};
    for (uint32_t i = nfy__apidb_lower_bound(f, prefix); i < f->nrows; i++) {
        const nfy__apidb_row *r = &nfy__apidb_rows[f->first_row + i];
        const char *key = nfy__apidb_str(r->key);
        if (strncmp(key, prefix.ptr, prefix.len) != 0)
            break;
        nfy_str base = base_of(key);
        if (base.len < prefix.len || !nfy__apidb_has_label(r, label) ||
            nfy_str_eq(base, last))
            continue;
        last = base;
        if (seen && nfy__apidb_find_base(seen, base, seen_label))
            continue;
        if (h->count++ == 0)
            h->first = base;
    }
}

size_t nfy_apidb_op_prefix(const nfy_apidb_version *v, nfy_str prefix,
                           nfy_str *match)
{
    prefix_hits h = {0, {NULL, 0}};
    v = nfy__apidb_or_default(v);
    if (nfy_str_consume(&prefix, "npu::")) {
        const nfy__apidb_family *cf = nfy__apidb_fam(NFY__FAM_NPU_CUSTOM);
        if (prefix.len)
            scan(cf, nfy__apidb_label_exact(cf, v), prefix, NULL, -1, &h);
    } else if ((nfy_str_consume(&prefix, "aten::") ||
                !nfy_str_contains(prefix, NFY_STR_LIT("::"))) &&
               prefix.len) {
        const nfy__apidb_family *tf = nfy__apidb_fam(NFY__FAM_TORCH_OPS);
        const nfy__apidb_family *af = nfy__apidb_fam(NFY__FAM_ATEN_OPS);
        int tl = nfy__apidb_label_nearest(tf, v);
        scan(tf, tl, prefix, NULL, -1, &h);
        scan(af, nfy__apidb_label_exact(af, v), prefix, tf, tl, &h);
    }
    if (match)
        *match = h.count == 1 ? h.first : (nfy_str){NULL, 0};
    return h.count;
}
