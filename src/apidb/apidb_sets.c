/*
 * Whole data sets of one version, for `npuify db stats` / `db diff`, and the
 * namespace question the torch-API assessment asks ("is torch.nn a module
 * whose members the lists name, rather than an API of its own?").
 */
#include <string.h>

#include "apidb/apidb_data.h"

static const nfy__apidb_fam_id set_family[NFY_APIDB_SET_COUNT] = {
    NFY__FAM_ATEN_OPS,        NFY__FAM_NPU_CUSTOM, NFY__FAM_API_SUPPORTED,
    NFY__FAM_API_UNSUPPORTED, NFY__FAM_NATIVE_API,
};

const char *nfy_apidb_set_name(nfy_apidb_set s)
{
    static const char *const names[NFY_APIDB_SET_COUNT] = {
        "aten_ops", "npu_custom_ops", "torch_api_supported",
        "torch_api_unsupported", "native_api"};
    return (unsigned)s < NFY_APIDB_SET_COUNT ? names[s] : "";
}

/* The note column of a row of set s (NULL when none). */
static const char *row_note(nfy_apidb_set s, const nfy__apidb_row *r)
{
    if (s == NFY_APIDB_SET_API_SUPPORTED)
        return nfy__apidb_field_opt(r, 0);
    if (s == NFY_APIDB_SET_NATIVE_API)
        return nfy__apidb_field_opt(r, NFY__NATIVE_NOTE);
    return NULL;
}

size_t nfy_apidb_set_each(const nfy_apidb_version *v, nfy_apidb_set s,
                          nfy_apidb_row_fn fn, void *ctx,
                          const char **data_version)
{
    if (data_version)
        *data_version = NULL;
    if ((unsigned)s >= NFY_APIDB_SET_COUNT)
        return 0;
    const nfy__apidb_family *f = nfy__apidb_fam(set_family[s]);
    int label = nfy__apidb_label_nearest(f, nfy__apidb_or_default(v));
    if (label < 0)
        return 0;
    if (data_version)
        *data_version = nfy__apidb_str(f->labels[label]);
    size_t n = 0;
    const char *prev = NULL;
    for (uint32_t i = 0; i < f->nrows; i++) {
        const nfy__apidb_row *r = &nfy__apidb_rows[f->first_row + i];
        const char *key = nfy__apidb_str(r->key);
        if (!nfy__apidb_has_label(r, label) ||
            (prev != NULL && strcmp(prev, key) == 0))
            continue; /* one entry per name, as the lookups answer */
        prev = key;
        n++;
        if (fn)
            fn(ctx, key, row_note(s, r));
    }
    return n;
}

/* Whether some row of fam at the label serving v starts with qual + ".". */
static bool has_member(nfy__apidb_fam_id fam, const nfy_apidb_version *v,
                       nfy_str qual)
{
    const nfy__apidb_family *f = nfy__apidb_fam(fam);
    int label = nfy__apidb_label_nearest(f, nfy__apidb_or_default(v));
    uint32_t i = nfy__apidb_lower_bound(f, qual);
    for (; i < f->nrows; i++) {
        const nfy__apidb_row *r = &nfy__apidb_rows[f->first_row + i];
        const char *key = nfy__apidb_str(r->key);
        if (strncmp(key, qual.ptr, qual.len) != 0)
            return false;
        if (key[qual.len] == '.' && nfy__apidb_has_label(r, label))
            return true;
    }
    return false;
}

bool nfy_apidb_torch_api_namespace(const nfy_apidb_version *v, nfy_str qual)
{
    return qual.len > 0 && (has_member(NFY__FAM_API_SUPPORTED, v, qual) ||
                            has_member(NFY__FAM_API_UNSUPPORTED, v, qual) ||
                            has_member(NFY__FAM_NATIVE_API, v, qual));
}
