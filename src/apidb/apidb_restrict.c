/*
 * What a restriction of Huawei's lists means for renaming a torch.cuda API
 * to torch.npu: the list's note (native-API list first, then
 * msFmkTransplt's supported list) read through the shipped effects table
 * (data/npu/restriction_effects.tsv). Only an API with a row there has an
 * effect: the others keep their rule's safety.
 */
#include <string.h>

#include "apidb/apidb.h"
#include "apidb/apidb_data.h"

static bool is_note(const char *s)
{
    return s != NULL && s[0] != '\0' && strcmp(s, "-") != 0;
}

/* The list note on qualname for v, and the list it came from. */
static const char *list_note(const nfy_apidb_version *v, nfy_str qualname,
                             const char **list)
{
    nfy_native_api nat;
    if (nfy_apidb_native_api(v, qualname, &nat) && is_note(nat.note)) {
        *list = nat.data_version;
        return nat.note;
    }
    nfy_api_info info = {0};
    if (nfy_apidb_torch_api(v, qualname, &info) == NFY_API_SUPPORTED &&
        is_note(info.note)) {
        *list = info.data_version;
        return info.note;
    }
    return NULL;
}

static nfy_restrict_effect effect_named(const char *s)
{
    if (s != NULL && strcmp(s, "advice") == 0)
        return NFY_RESTRICT_ADVICE;
    if (s != NULL && strcmp(s, "attrs") == 0)
        return NFY_RESTRICT_ATTRS;
    return NFY_RESTRICT_MANUAL;
}

bool nfy_apidb_api_restriction(const nfy_apidb_version *v, nfy_str qualname,
                               nfy_api_restriction *out)
{
    memset(out, 0, sizeof *out);
    const char *note = list_note(v, qualname, &out->list);
    if (note == NULL)
        return false;
    out->note = note;
    out->english = nfy_apidb_note_english(nfy_str_from_cstr(note), NULL);
    const nfy__apidb_row *r =
        nfy__apidb_find_in(nfy__apidb_fam(NFY__FAM_EFFECTS), qualname, 0);
    if (r == NULL)
        return false;
    out->effect = effect_named(nfy__apidb_field(r, 0));
    out->condition = nfy__apidb_field_opt(r, 1);
    out->why = nfy__apidb_field_opt(r, 2);
    return true;
}

bool nfy_apidb_restriction_allows(const nfy_api_restriction *rs, nfy_str attr)
{
    if (rs->effect == NFY_RESTRICT_ADVICE)
        return true;
    if (rs->effect != NFY_RESTRICT_ATTRS || rs->condition == NULL ||
        attr.len == 0)
        return false;
    const char *p = rs->condition;
    while (*p) {
        size_t n = strcspn(p, ",");
        if (n == attr.len && memcmp(p, attr.ptr, n) == 0)
            return true;
        p += n + (p[n] == ',');
    }
    return false;
}
