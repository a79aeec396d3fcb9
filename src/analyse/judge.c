/*
 * The verdict on one torch API for a version, from the shipped lists only:
 * msFmkTransplt's supported/unsupported lists and Huawei's native-API list.
 * A list made for the target version itself decides first; the nearest
 * older msFmkTransplt list next; a name in no list is "unknown". A private
 * or dunder tail is judged by its owner (torch.nn.Module.__init__ by
 * torch.nn.Module), any other name by itself; a module or class whose
 * members the lists name is no API of its own and gets no verdict.
 */
#include <string.h>

#include "analyse/an_internal.h"

/* Whether a list's version label ("2.1", "2.7.1") is for v itself. */
static bool label_is(const char *label, const nfy_apidb_version *v)
{
    size_t n = strlen(v->name);
    return label != NULL && strncmp(label, v->name, n) == 0 &&
           (label[n] == '\0' || label[n] == '.');
}

typedef struct {
    bool listed;
    nfy_api_status st;
    const char *note;
    const char *source; /* "msFmkTransplt 2.1", "native-API list 2.7.1" */
    bool exact;
} verdict;

static verdict from_msft(const nfy_apidb_version *v, nfy_str q, nfy_arena *a)
{
    nfy_api_info info;
    nfy_api_status st = nfy_apidb_torch_api(v, q, &info);
    verdict out = {st != NFY_API_UNKNOWN, st, info.note, NULL,
                   label_is(info.data_version, v)};
    out.source = nfy_arena_fmt(a, "msFmkTransplt list %s",
                               info.data_version ? info.data_version : "-");
    return out;
}

static verdict from_native(const nfy_apidb_version *v, nfy_str q, nfy_arena *a)
{
    nfy_native_api n;
    verdict out = {false, NFY_API_UNKNOWN, NULL, NULL, false};
    bool found = nfy_apidb_native_api(v, q, &n);
    out.exact = label_is(n.data_version, v);
    out.source = nfy_arena_fmt(a, "Huawei native-API list %s",
                               n.data_version ? n.data_version : "-");
    if (!found || n.supported == '?')
        return out;
    out.listed = true;
    out.st = n.supported == 'Y' ? NFY_API_SUPPORTED : NFY_API_UNSUPPORTED;
    out.note = n.products && n.note
                   ? nfy_arena_fmt(a, "%s; %s", n.products, n.note)
                   : (n.products ? n.products : n.note);
    return out;
}

static verdict judge_exact(const nfy_apidb_version *v, nfy_str q, nfy_arena *a)
{
    verdict m = from_msft(v, q, a), n = from_native(v, q, a);
    if (m.listed && m.exact)
        return m;
    if (n.listed && n.exact)
        return n;
    return m;
}

int nfy_analyse_judge(const char *torch_version, nfy_str qual, nfy_arena *arena,
                      nfy_analyse_verdict *out)
{
    const nfy_apidb_version *v = NULL;
    if (torch_version == NULL ||
        nfy_apidb_version_parse(nfy_str_from_cstr(torch_version), &v) != NFY_OK)
        v = nfy_apidb_version_default();
    memset(out, 0, sizeof *out);
    out->judged = false;
    if (!nfy_str_starts_with(qual, NFY_STR_LIT("torch.")))
        return NFY_API_UNKNOWN;
    uint32_t parts = nfy_dotted_count(qual);
    for (uint32_t n = parts; n >= 2; n--) {
        nfy_str head = nfy_dotted_head(qual, n);
        if (n < parts && head.ptr[head.len + 1] != '_')
            break; /* only dunder/private tails go to their owner */
        verdict d = judge_exact(v, head, arena);
        if (!d.listed)
            continue;
        out->judged = true;
        out->api = nfy_arena_strndup(arena, head.ptr, head.len);
        out->note = d.note;
        out->source = d.source;
        return out->status = d.st;
    }
    if (nfy_apidb_torch_api_namespace(v, qual))
        return NFY_API_UNKNOWN; /* a module or class: its members count */
    verdict m = from_msft(v, qual, arena), n = from_native(v, qual, arena);
    out->judged = true;
    out->api = nfy_arena_strndup(arena, qual.ptr, qual.len);
    out->source = nfy_arena_fmt(arena, "%s, %s", m.source, n.source);
    return out->status = NFY_API_UNKNOWN;
}
