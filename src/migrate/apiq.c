/*
 * The migrate passes' questions to apidb, in a translation unit of their own
 * (apidb.h cannot share one with report.h).
 */
#include "apidb/apidb.h"
#include "migrate/mig.h"

const char *mig_version_canon(const char *text, nfy_status *st)
{
    const nfy_apidb_version *v = NULL;
    *st = NFY_OK;
    if (text == NULL || text[0] == '\0')
        v = nfy_apidb_version_default();
    else
        *st = nfy_apidb_version_parse(nfy_str_from_cstr(text), &v);
    if (*st != NFY_OK || v == NULL) {
        if (*st == NFY_OK)
            *st = NFY_EUSAGE;
        return NULL;
    }
    return v->name;
}

static const nfy_apidb_version *version_of(const char *ver)
{
    const nfy_apidb_version *v = NULL;
    if (ver == NULL ||
        nfy_apidb_version_parse(nfy_str_from_cstr(ver), &v) != NFY_OK)
        return nfy_apidb_version_default();
    return v;
}

bool mig_npu_has(const char *ver, nfy_str qual)
{
    return nfy_apidb_npu_module_has(version_of(ver), qual, NULL);
}

const char *mig_affinity_kind(const char *api)
{
    nfy_apidb_affinity a;
    return api != NULL && nfy_apidb_affinity_find(nfy_str_from_cstr(api), &a)
               ? a.kind
               : NULL;
}
