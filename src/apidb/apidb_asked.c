/*
 * The torch API lists of one version asked about many names (the torch-API
 * judge): each list's file is chosen once, and each list is searched once
 * a name, its rows equal to the name and those of its members being
 * neighbours in the sorted table. The answers are those of
 * nfy_apidb_torch_api, nfy_apidb_native_api and
 * nfy_apidb_torch_api_namespace.
 */
#include <string.h>

#include "apidb/apidb_index.h"

void nfy_apidb_api_lists_init(nfy_apidb_api_lists *l,
                              const nfy_apidb_version *v)
{
    l->v = nfy__apidb_or_default(v);
    l->unsupported = nfy__apidb_label_nearest(
        nfy__apidb_fam(NFY__FAM_API_UNSUPPORTED), l->v);
    l->supported =
        nfy__apidb_label_nearest(nfy__apidb_fam(NFY__FAM_API_SUPPORTED), l->v);
    l->native =
        nfy__apidb_label_nearest(nfy__apidb_fam(NFY__FAM_NATIVE_API), l->v);
    l->index = NULL;
}

static const nfy__apidb_row *row_at(const nfy__apidb_family *f, uint32_t i)
{
    return &nfy__apidb_rows[f->first_row + i];
}

/* Whether a row from i on that starts with key + "." has label (the rows
 * starting with key follow one another from its lower bound). */
static bool members_from(const nfy__apidb_family *f, uint32_t i, nfy_str key,
                         int label)
{
    for (; i < f->nrows; i++) {
        const char *k = nfy__apidb_str(row_at(f, i)->key);
        if (strncmp(k, key.ptr, key.len) != 0)
            return false;
        if (k[key.len] == '.' && nfy__apidb_has_label(row_at(f, i), label))
            return true;
    }
    return false;
}

/* The first row of fam equal to key with label (NULL: none); *members (when
 * not NULL) whether key has members there. From the index when the lists
 * have one (idx: the list's table), else by search. */
static const nfy__apidb_row *ask_one(const nfy_apidb_api_lists *l, int idx,
                                     nfy__apidb_fam_id fam, nfy_str key,
                                     int label, bool *members)
{
    const nfy__apidb_family *f = nfy__apidb_fam(fam);
    const nfy__apidb_row *row;
    if (l->index != NULL &&
        nfy__apidb_index_find(&l->index->t[idx], f, key, &row, members))
        return row;
    uint32_t i, end;
    nfy__apidb_find(f, key, &i, &end);
    const nfy__apidb_row *hit = NULL;
    for (uint32_t k = i; k < end && hit == NULL; k++)
        if (nfy__apidb_has_label(row_at(f, k), label))
            hit = row_at(f, k);
    if (members != NULL)
        *members = members_from(
            f, f->sorted ? end : nfy__apidb_lower_bound(f, key), key, label);
    return hit;
}

static const char *label_name(nfy__apidb_fam_id fam, int label)
{
    const nfy__apidb_family *f = nfy__apidb_fam(fam);
    return label >= 0 ? nfy__apidb_str(f->labels[label]) : NULL;
}

/* nfy_apidb_torch_api's info; the supported list is not searched for a
 * name the unsupported one has, unless its members are asked. */
static void ask_msft(const nfy_apidb_api_lists *l, nfy_str q, bool *members,
                     nfy_api_info *info)
{
    memset(info, 0, sizeof *info);
    bool m_unsup = false, m_sup = false;
    const nfy__apidb_row *r =
        ask_one(l, NFY__IDX_UNSUPPORTED, NFY__FAM_API_UNSUPPORTED, q,
                l->unsupported, members ? &m_unsup : NULL);
    if (r) {
        info->data_version =
            label_name(NFY__FAM_API_UNSUPPORTED, l->unsupported);
        info->status = NFY_API_UNSUPPORTED;
        if (members)
            (void)ask_one(l, NFY__IDX_SUPPORTED, NFY__FAM_API_SUPPORTED, q,
                          l->supported, &m_sup);
    } else {
        r = ask_one(l, NFY__IDX_SUPPORTED, NFY__FAM_API_SUPPORTED, q,
                    l->supported, members ? &m_sup : NULL);
        info->data_version = label_name(NFY__FAM_API_SUPPORTED, l->supported);
        info->status = r ? NFY_API_SUPPORTED : NFY_API_UNKNOWN;
        info->note = r ? nfy__apidb_field_opt(r, 0) : NULL;
    }
    if (members)
        *members = m_unsup || m_sup;
}

void nfy_apidb_api_ask(const nfy_apidb_api_lists *l, nfy_str qualname,
                       bool members, nfy_apidb_api_answer *out)
{
    bool m_msft = false, m_native = false;
    ask_msft(l, qualname, members ? &m_msft : NULL, &out->msft);
    const nfy__apidb_row *r =
        ask_one(l, NFY__IDX_NATIVE, NFY__FAM_NATIVE_API, qualname, l->native,
                members ? &m_native : NULL);
    out->native_found = nfy__apidb_native_of(
        r, label_name(NFY__FAM_NATIVE_API, l->native), &out->native);
    out->has_members = members && qualname.len > 0 && (m_msft || m_native);
}
