/*
 * Python API surfaces: the torch.npu module, msFmkTransplt's supported /
 * unsupported torch API lists, Huawei's native-API support list, the
 * documented torch_npu APIs and transfer_to_npu's device-rewriting white
 * lists. Each data set has files for a few versions; the label chosen for a
 * version is reported back so a report can name the list it used.
 */
#include <string.h>

#include "apidb/apidb_data.h"

static const char *label_name(const nfy__apidb_family *f, int label)
{
    return label >= 0 ? nfy__apidb_str(f->labels[label]) : NULL;
}

/* Lookup in a versioned family at the label serving v. */
static const nfy__apidb_row *find_nearest(nfy__apidb_fam_id fam,
                                          const nfy_apidb_version *v,
                                          nfy_str key, const char **label)
{
    const nfy__apidb_family *f = nfy__apidb_fam(fam);
    int l = nfy__apidb_label_nearest(f, nfy__apidb_or_default(v));
    if (label)
        *label = label_name(f, l);
    return nfy__apidb_find_in(f, key, l);
}

bool nfy_apidb_npu_module_has(const nfy_apidb_version *v, nfy_str attr,
                              const char **data_version)
{
    if (!(nfy_str_consume(&attr, "torch.npu.") ||
          nfy_str_consume(&attr, "torch.cuda.")))
        (void)nfy_str_consume(&attr, "torch_npu.npu.");
    size_t n = 0;
    while (n < attr.len && attr.ptr[n] != '.')
        n++;
    attr.len = n;
    return find_nearest(NFY__FAM_NPU_MODULE, v, attr, data_version) != NULL;
}

nfy_api_status nfy_apidb_torch_api(const nfy_apidb_version *v, nfy_str qualname,
                                   nfy_api_info *info)
{
    nfy_api_info local;
    if (!info)
        info = &local;
    memset(info, 0, sizeof *info);
    const char *label;
    const nfy__apidb_row *r =
        find_nearest(NFY__FAM_API_UNSUPPORTED, v, qualname, &label);
    if (r) {
        info->data_version = label;
        return info->status = NFY_API_UNSUPPORTED;
    }
    r = find_nearest(NFY__FAM_API_SUPPORTED, v, qualname, &label);
    info->data_version = label;
    if (!r)
        return info->status = NFY_API_UNKNOWN;
    info->note = nfy__apidb_field_opt(r, 0);
    return info->status = NFY_API_SUPPORTED;
}

bool nfy__apidb_native_of(const nfy__apidb_row *r, const char *label,
                          nfy_native_api *out)
{
    memset(out, 0, sizeof *out);
    out->data_version = label;
    if (!r)
        return false;
    const char *flag = nfy__apidb_field(r, NFY__NATIVE_FLAG);
    out->api = nfy__apidb_str(r->key);
    out->npu_name = nfy__apidb_field_opt(r, NFY__NATIVE_NPU_NAME);
    out->products = nfy__apidb_field_opt(r, NFY__NATIVE_PRODUCTS);
    out->supported = flag && (flag[0] == 'Y' || flag[0] == 'N') ? flag[0] : '?';
    out->note = nfy__apidb_field_opt(r, NFY__NATIVE_NOTE);
    out->is_class = nfy__apidb_field_opt(r, NFY__NATIVE_IS_CLASS) != NULL;
    return true;
}

bool nfy_apidb_native_api(const nfy_apidb_version *v, nfy_str qualname,
                          nfy_native_api *out)
{
    const char *label;
    const nfy__apidb_row *r =
        find_nearest(NFY__FAM_NATIVE_API, v, qualname, &label);
    if (!out)
        return r != NULL;
    return nfy__apidb_native_of(r, label, out);
}

bool nfy_apidb_npu_api_documented(nfy_str qualname, bool *beta)
{
    bool found = nfy__apidb_find_in(nfy__apidb_fam(NFY__FAM_NPU_APIS), qualname,
                                    0) != NULL;
    if (beta)
        *beta =
            found && nfy__apidb_find_in(nfy__apidb_fam(NFY__FAM_NPU_APIS_BETA),
                                        qualname, 0) != NULL;
    return found;
}

bool nfy_apidb_transfer_wrapped(const nfy_apidb_version *v, nfy_str qualname,
                                const char **data_version)
{
    return find_nearest(NFY__FAM_TRANSFER, v, qualname, data_version) != NULL;
}
