/*
 * Code actions: a quick fix per edit of the last conversion (with the
 * import edits it relies on, so a fix never leaves torch_npu unimported),
 * the hint of a manual finding as an action without an edit, and one
 * action that applies every safe edit of the file.
 */
#include <string.h>

#include "lsp/lsp_internal.h"

static bool pos_of(json_t *p, json_int_t *l, json_int_t *c)
{
    json_t *lj = json_object_get(p, "line"),
           *cj = json_object_get(p, "character");
    if (!json_is_integer(lj) || !json_is_integer(cj))
        return false;
    *l = json_integer_value(lj);
    *c = json_integer_value(cj);
    return true;
}

static int cmp_pos(json_t *a, json_t *b)
{
    json_int_t al = 0, ac = 0, bl = 0, bc = 0;
    pos_of(a, &al, &ac);
    pos_of(b, &bl, &bc);
    return al != bl ? (al < bl ? -1 : 1) : ac != bc ? (ac < bc ? -1 : 1) : 0;
}

/* Ranges meet (touching counts: a cursor at a span's end asks for it). */
static bool ranges_meet(json_t *a, json_t *b)
{
    return cmp_pos(json_object_get(a, "start"), json_object_get(b, "end")) <=
               0 &&
           cmp_pos(json_object_get(b, "start"), json_object_get(a, "end")) <= 0;
}

static json_t *text_edit(const nfy__lsp_finding *k)
{
    return json_pack("{s:o,s:o}", "range",
                     nfy__lsp_range_json(k->start, k->end), "newText",
                     nfy__lsp_string(k->after));
}

/* Append the import edits of d (not k) to changes under d's URI. */
static void add_imports(json_t *changes, const nfy__lsp_doc *d,
                        const nfy__lsp_finding *k)
{
    for (size_t i = 0; i < d->findings.len; i++) {
        const nfy__lsp_finding *o = &d->findings.items[i];
        if (!o->import || o == k)
            continue;
        json_t *edits = json_object_get(changes, d->uri);
        if (!edits) {
            edits = json_array();
            json_object_set_new(changes, d->uri, edits);
        }
        json_array_append_new(edits, text_edit(o));
    }
}

/* k's edit plus the import edits it needs: of its file, or of every cell
 * of its notebook (the cells are one module). */
static json_t *edits_for(nfy__lsp_server *s, const nfy__lsp_doc *doc,
                         const nfy__lsp_finding *k)
{
    json_t *changes = json_object();
    for (size_t i = 0; !k->import && i < s->docs.docs.len; i++) {
        const nfy__lsp_doc *d = s->docs.docs.items[i];
        if (d == doc || (doc->notebook && d->notebook &&
                         !strcmp(d->notebook, doc->notebook)))
            add_imports(changes, d, k);
    }
    json_t *own = json_object_get(changes, doc->uri);
    if (!own) {
        own = json_array();
        json_object_set_new(changes, doc->uri, own);
    }
    json_array_append_new(own, text_edit(k));
    return json_pack("{s:o}", "changes", changes);
}

static json_t *workspace_edit(const nfy__lsp_doc *doc, json_t *edits)
{
    json_t *changes = json_object();
    json_object_set_new(changes, doc->uri, edits);
    return json_pack("{s:o}", "changes", changes);
}

/* Whether kind passes the client's context.only filter. */
static bool kind_wanted(json_t *only, const char *kind)
{
    if (!json_is_array(only))
        return true;
    size_t i;
    json_t *v;
    json_array_foreach(only, i, v)
    {
        const char *o = json_string_value(v);
        size_t n = o ? strlen(o) : 0;
        if (o && !strncmp(kind, o, n) && (kind[n] == '\0' || kind[n] == '.'))
            return true;
    }
    return false;
}

static json_t *one_diag(nfy__lsp_server *s, const nfy__lsp_doc *doc, size_t i)
{
    return json_pack("[o]", nfy__lsp_finding_diagnostic(s, doc, i));
}

static json_t *finding_action(nfy__lsp_server *s, const nfy__lsp_doc *doc,
                              size_t i)
{
    const nfy__lsp_finding *k = &doc->findings.items[i];
    char title[200];
    if (k->change) {
        snprintf(title, sizeof title, "npuify %s: %.150s", k->rule, k->message);
        return json_pack("{s:s,s:s,s:o,s:b,s:o}", "title", title, "kind",
                         "quickfix", "diagnostics", one_diag(s, doc, i),
                         "isPreferred", k->safety == NFY_SAFETY_SAFE, "edit",
                         edits_for(s, doc, k));
    }
    snprintf(title, sizeof title, "npuify %s (by hand): %.150s", k->rule,
             k->hint ? k->hint : k->message);
    return json_pack("{s:s,s:s,s:o}", "title", title, "kind", "quickfix",
                     "diagnostics", one_diag(s, doc, i));
}

static json_t *fix_all(const nfy__lsp_doc *doc)
{
    json_t *edits = json_array();
    for (size_t i = 0; i < doc->findings.len; i++) {
        const nfy__lsp_finding *k = &doc->findings.items[i];
        if (k->change && k->safety == NFY_SAFETY_SAFE)
            json_array_append_new(edits, text_edit(k));
    }
    if (!json_array_size(edits)) {
        json_decref(edits);
        return NULL;
    }
    return json_pack(
        "{s:s,s:s,s:o}", "title", "npuify: fix all safe edits in this file",
        "kind", "source.fixAll.npuify", "edit", workspace_edit(doc, edits));
}

json_t *nfy__lsp_code_actions(nfy__lsp_server *s, nfy__lsp_doc *doc,
                              json_t *params)
{
    if (doc->dirty)
        nfy__lsp_diagnose(s, doc);
    json_t *range = json_object_get(params, "range");
    json_t *only = json_object_get(json_object_get(params, "context"), "only");
    json_t *out = json_array();
    bool quick = kind_wanted(only, "quickfix");
    for (size_t i = 0; quick && range && i < doc->findings.len; i++) {
        const nfy__lsp_finding *k = &doc->findings.items[i];
        json_t *kr = nfy__lsp_range_json(k->start, k->end);
        bool meet = k->severity != 4 && ranges_meet(kr, range);
        json_decref(kr);
        if (meet)
            json_array_append_new(out, finding_action(s, doc, i));
    }
    json_t *all =
        kind_wanted(only, "source.fixAll.npuify") ? fix_all(doc) : NULL;
    if (all)
        json_array_append_new(out, all);
    return out;
}
