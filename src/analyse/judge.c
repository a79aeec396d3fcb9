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

/* Whether a list's verdict on a name: its text parts are kept unformatted
 * (most lookups are discarded, or repeat one already made in the file). */
typedef struct {
    bool listed;
    nfy_api_status st;
    const char *note, *note2; /* note2: joined to note with "; " */
    an_list list;
    const char *label; /* the list's data version, or NULL */
    bool exact;
} verdict;

static verdict from_msft(const nfy_apidb_api_lists *l, const nfy_api_info *info)
{
    verdict out = {info->status != NFY_API_UNKNOWN,
                   info->status,
                   info->note,
                   NULL,
                   AN_LIST_MSFT,
                   info->data_version,
                   label_is(info->data_version, l->v)};
    return out;
}

static verdict from_native(const nfy_apidb_api_lists *l, bool found,
                           const nfy_native_api *n)
{
    verdict out = {false, NFY_API_UNKNOWN, NULL, NULL, AN_LIST_NATIVE, NULL,
                   false};
    out.exact = label_is(n->data_version, l->v);
    out.label = n->data_version;
    if (!found || n->supported == '?')
        return out;
    out.listed = true;
    out.st = n->supported == 'Y' ? NFY_API_SUPPORTED : NFY_API_UNSUPPORTED;
    if (n->products && n->note)
        out.note = n->products, out.note2 = n->note;
    else
        out.note = n->products ? n->products : n->note;
    return out;
}

/* Both lists' verdicts on one name (and whether it has members, when
 * asked). */
typedef struct {
    verdict m, n;
    bool has_members;
} asked;

/* The verdict on q: a list made for the target itself first (msFmkTransplt
 * before the native list), else msFmkTransplt's. */
static verdict judge_exact(const nfy_apidb_api_lists *l, nfy_str q,
                           bool members, asked *a)
{
    nfy_apidb_api_answer ans;
    nfy_apidb_api_ask(l, q, members, &ans);
    a->m = from_msft(l, &ans.msft);
    a->n = from_native(l, ans.native_found, &ans.native);
    a->has_members = ans.has_members;
    if (a->m.listed && a->m.exact)
        return a->m;
    if (a->n.listed && a->n.exact)
        return a->n;
    return a->m;
}

static void take_source(an_judgement *out, const verdict *d)
{
    out->list[out->nsources] = d->list;
    out->label[out->nsources] = d->label;
    out->nsources++;
}

void nfy__analyse_judge_in(const nfy_apidb_api_lists *l, nfy_str qual,
                           an_judgement *out)
{
    memset(out, 0, sizeof *out);
    out->status = NFY_API_UNKNOWN;
    if (!nfy_str_starts_with(qual, NFY_STR_LIT("torch.")))
        return;
    uint32_t parts = nfy_resolve_dotted_count(qual);
    asked whole = {0}; /* the lists on qual itself (n == parts comes first) */
    for (uint32_t n = parts; n >= 2; n--) {
        nfy_str head = nfy_resolve_dotted_head(qual, n);
        if (n < parts && head.ptr[head.len + 1] != '_')
            break; /* only dunder/private tails go to their owner */
        asked a;
        verdict d = judge_exact(l, head, n == parts, &a);
        if (n == parts)
            whole = a;
        if (!d.listed)
            continue;
        out->judged = true;
        out->api = head;
        out->note = d.note;
        out->note2 = d.note2;
        take_source(out, &d);
        out->status = d.st;
        return;
    }
    if (whole.has_members)
        return; /* a module or class: its members count */
    out->judged = true;
    out->api = qual;
    take_source(out, &whole.m);
    take_source(out, &whole.n);
}

static const char *source_text(an_list list, const char *label, nfy_arena *a)
{
    return nfy_arena_fmt(a,
                         list == AN_LIST_MSFT ? "msFmkTransplt list %s"
                                              : "Huawei native-API list %s",
                         label ? label : "-");
}

/* A list's note in English with the original beside it: product codes
 * in words, restriction texts through the shipped table
 * (data/npu/restriction_notes_en.tsv). */
static const char *english(const char *note, nfy_arena *a)
{
    if (note == NULL)
        return NULL;
    if (strchr(note, '=') != NULL && strchr(note, ' ') == NULL) {
        char buf[256];
        return nfy_arena_fmt(a, "%s (%s)",
                             nfy_apidb_products_english(note, buf, sizeof buf),
                             note);
    }
    const char *en = nfy_apidb_note_english(nfy_str_from_cstr(note), NULL);
    return en && strcmp(en, note) != 0
               ? nfy_arena_fmt(a, "%s (original: %s)", en, note)
               : note;
}

void nfy__analyse_verdict_of(const an_judgement *j, nfy_arena *arena,
                             nfy_analyse_verdict *out)
{
    memset(out, 0, sizeof *out);
    out->status = j->status;
    out->judged = j->judged;
    if (!j->judged)
        return;
    out->api = nfy_arena_strndup(arena, j->api.ptr, j->api.len);
    const char *note = english(j->note, arena);
    out->note = j->note2 ? nfy_arena_fmt(arena, "%s; %s", note,
                                         english(j->note2, arena))
                         : note;
    const char *first = source_text(j->list[0], j->label[0], arena);
    out->source =
        j->nsources == 2
            ? nfy_arena_fmt(arena, "%s, %s", first,
                            source_text(j->list[1], j->label[1], arena))
            : first;
}

int nfy_analyse_judge(const char *torch_version, nfy_str qual, nfy_arena *arena,
                      nfy_analyse_verdict *out)
{
    const nfy_apidb_version *v = NULL;
    if (torch_version == NULL ||
        nfy_apidb_version_parse(nfy_str_from_cstr(torch_version), &v) != NFY_OK)
        v = nfy_apidb_version_default();
    nfy_apidb_api_lists l;
    nfy_apidb_api_lists_init(&l, v);
    an_judgement j;
    nfy__analyse_judge_in(&l, qual, &j);
    nfy__analyse_verdict_of(&j, arena, out);
    return out->status;
}
