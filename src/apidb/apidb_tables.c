/*
 * Version-independent migration tables from msFmkTransplt and the torch_npu
 * docs: function renames, affinity (fused NPU API) suggestions, the flattened
 * built-in common rules and the C++ API correspondence. Small tables, read
 * by index or by a short search.
 */
#include <string.h>

#include "apidb/apidb_data.h"

static const nfy__apidb_row *table_row(nfy__apidb_fam_id fam, size_t i)
{
    const nfy__apidb_family *f = nfy__apidb_fam(fam);
    return i < f->nrows ? &nfy__apidb_rows[f->first_row + i] : NULL;
}

bool nfy_apidb_msft_rename_at(size_t i, nfy_apidb_pair *out)
{
    const nfy__apidb_row *r = table_row(NFY__FAM_MSFT_RENAME, i);
    if (!r)
        return false;
    out->from = nfy__apidb_str(r->key);
    out->to = nfy__apidb_field_opt(r, 0);
    return true;
}

const char *nfy_apidb_msft_rename(nfy_str old_name)
{
    const nfy__apidb_row *r =
        nfy__apidb_find_in(nfy__apidb_fam(NFY__FAM_MSFT_RENAME), old_name, 0);
    return r ? nfy__apidb_field_opt(r, 0) : NULL;
}

static void affinity_fill(const nfy__apidb_row *r, nfy_apidb_affinity *out)
{
    out->kind = nfy__apidb_str(r->key);
    out->name = nfy__apidb_field(r, 0);
    out->replacement = nfy__apidb_field(r, 1);
}

bool nfy_apidb_affinity_at(size_t i, nfy_apidb_affinity *out)
{
    const nfy__apidb_row *r = table_row(NFY__FAM_AFFINITY, i);
    if (!r || r->nfields < 2)
        return false;
    affinity_fill(r, out);
    return true;
}

bool nfy_apidb_affinity_find(nfy_str name, nfy_apidb_affinity *out)
{
    const nfy__apidb_row *r;
    for (size_t i = 0; (r = table_row(NFY__FAM_AFFINITY, i)) != NULL; i++) {
        const char *n = nfy__apidb_field(r, 0);
        if (n && strlen(n) == name.len && memcmp(n, name.ptr, name.len) == 0) {
            affinity_fill(r, out);
            return true;
        }
    }
    return false;
}

bool nfy_apidb_msft_rule_at(size_t i, nfy_apidb_msft_rule *out)
{
    const nfy__apidb_row *r = table_row(NFY__FAM_MSFT_RULES, i);
    if (!r)
        return false;
    memset(out, 0, sizeof *out);
    out->kind = nfy__apidb_str(r->key);
    for (uint32_t k = 0; k < r->nfields && k < NFY_APIDB_RULE_MAX_FIELDS; k++)
        out->fields[out->nfields++] = nfy__apidb_field(r, k);
    return true;
}

bool nfy_apidb_cpp_api_at(size_t i, nfy_apidb_pair *out)
{
    const nfy__apidb_row *r = table_row(NFY__FAM_CPP_APIS, i);
    if (!r)
        return false;
    out->from = nfy__apidb_str(r->key);
    out->to = nfy__apidb_field_opt(r, 0);
    return true;
}

const char *nfy_apidb_cpp_npu_equivalent(nfy_str cuda_api)
{
    const nfy__apidb_row *r;
    for (size_t i = 0; (r = table_row(NFY__FAM_CPP_APIS, i)) != NULL; i++) {
        const char *c = nfy__apidb_field_opt(r, 0);
        if (c && strlen(c) == cuda_api.len &&
            memcmp(c, cuda_api.ptr, cuda_api.len) == 0)
            return nfy__apidb_str(r->key);
    }
    return NULL;
}
