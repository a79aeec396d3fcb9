/*
 * torch's own public Python API (data/torch/api_inventory_v*.tsv, made by
 * tools/extract_api_inventory.py from an installed torch): what kind of
 * thing a name is and which backend aten operators its code can reach.
 * analyse uses it to tell a device-neutral name (a class, constant or
 * utility that dispatches no kernel, or only kernels torch_npu registers)
 * from one that is really unknown.
 */
#include <string.h>

#include "apidb/apidb_data.h"

static nfy_torch_kind kind_of(const char *s)
{
    static const struct {
        const char *name;
        nfy_torch_kind kind;
    } kinds[] = {{"module", NFY_TORCH_MODULE}, {"const", NFY_TORCH_CONST},
                 {"class", NFY_TORCH_CLASS},   {"op", NFY_TORCH_OP},
                 {"cfunc", NFY_TORCH_CFUNC},   {"func", NFY_TORCH_FUNC}};
    for (size_t i = 0; s != NULL && i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(s, kinds[i].name) == 0)
            return kinds[i].kind;
    return NFY_TORCH_NONE;
}

const char *nfy_apidb_torch_kind_name(nfy_torch_kind k)
{
    static const char *const names[] = {
        "not in torch's API", "module",
        "constant",           "class",
        "aten operator",      "C function (no aten operator)",
        "Python function"};
    return (unsigned)k <= NFY_TORCH_FUNC ? names[k] : names[0];
}

bool nfy_apidb_torch_inventory(nfy_str qualname, nfy_torch_entry *out)
{
    memset(out, 0, sizeof *out);
    const nfy__apidb_family *f = nfy__apidb_fam(NFY__FAM_TORCH_INVENTORY);
    if (f->nlabels == 0)
        return false;
    /* the newest inventory: names only grow (one file shipped now) */
    int label = (int)f->nlabels - 1;
    out->torch_version = nfy__apidb_str(f->labels[label]);
    const nfy__apidb_row *r = nfy__apidb_find_in(f, qualname, label);
    if (r == NULL)
        return false;
    out->kind = kind_of(nfy__apidb_field(r, 0));
    out->ops = nfy__apidb_field_opt(r, 1);
    return out->kind != NFY_TORCH_NONE;
}
