/*
 * Open documents: their text as the client last sent it (full or
 * incremental sync) and the findings of their last conversion.
 */
#include <stdlib.h>
#include <string.h>

#include "lsp/lsp_internal.h"

nfy__lsp_doc *nfy__lsp_doc_find(nfy__lsp_docs *d, const char *uri)
{
    for (size_t i = 0; i < d->docs.len; i++)
        if (!strcmp(d->docs.items[i]->uri, uri))
            return d->docs.items[i];
    return NULL;
}

void nfy__lsp_doc_clear_findings(nfy__lsp_doc *doc)
{
    doc->findings.len = 0;
    nfy_arena_release(&doc->arena);
}

static void doc_free(nfy__lsp_doc *doc)
{
    nfy__lsp_doc_clear_findings(doc);
    nfy_vec_free(&doc->findings);
    nfy_buf_release(&doc->text);
    free(doc->uri);
    free(doc->rel);
    free(doc->notebook);
    free(doc);
}

nfy__lsp_doc *nfy__lsp_doc_open(nfy__lsp_docs *d, const char *uri,
                                const char *rel, const char *text, size_t len,
                                int64_t version)
{
    nfy__lsp_doc_close(d, uri);
    nfy__lsp_doc *doc = calloc(1, sizeof *doc);
    if (!doc)
        abort();
    doc->uri = strdup(uri);
    doc->rel = strdup(rel);
    if (!doc->uri || !doc->rel)
        abort();
    doc->text = (nfy_buf)NFY_BUF_INIT;
    nfy_buf_add(&doc->text, text, len);
    doc->version = version;
    doc->dirty = true;
    nfy_vec_push(&d->docs, doc);
    return doc;
}

void nfy__lsp_doc_close(nfy__lsp_docs *d, const char *uri)
{
    for (size_t i = 0; i < d->docs.len; i++)
        if (!strcmp(d->docs.items[i]->uri, uri)) {
            doc_free(d->docs.items[i]);
            d->docs.items[i] = d->docs.items[--d->docs.len];
            return;
        }
}

void nfy__lsp_docs_release(nfy__lsp_docs *d)
{
    for (size_t i = 0; i < d->docs.len; i++)
        doc_free(d->docs.items[i]);
    nfy_vec_free(&d->docs);
}

static bool read_pos(json_t *pos, uint32_t *line, uint32_t *ch)
{
    json_t *l = json_object_get(pos, "line");
    json_t *c = json_object_get(pos, "character");
    if (!json_is_integer(l) || !json_is_integer(c) ||
        json_integer_value(l) < 0 || json_integer_value(c) < 0 ||
        json_integer_value(l) > UINT32_MAX ||
        json_integer_value(c) > UINT32_MAX)
        return false;
    *line = (uint32_t)json_integer_value(l);
    *ch = (uint32_t)json_integer_value(c);
    return true;
}

/* Replace text[from, to) by repl. */
static void splice(nfy_buf *t, size_t from, size_t to, const char *repl,
                   size_t n)
{
    nfy_buf out = NFY_BUF_INIT;
    nfy_buf_add(&out, t->data ? t->data : "", from);
    nfy_buf_add(&out, repl, n);
    nfy_buf_add(&out, t->data + to, t->len - to);
    nfy_buf_release(t);
    *t = out;
}

bool nfy__lsp_doc_change(nfy__lsp_doc *doc, json_t *change)
{
    json_t *text = json_object_get(change, "text");
    if (!json_is_string(text))
        return false;
    const char *s = json_string_value(text);
    size_t n = json_string_length(text);
    json_t *range = json_object_get(change, "range");
    doc->dirty = true;
    if (!range) {
        doc->text.len = 0;
        nfy_buf_add(&doc->text, s, n);
        return true;
    }
    uint32_t l0, c0, l1, c1;
    if (!read_pos(json_object_get(range, "start"), &l0, &c0) ||
        !read_pos(json_object_get(range, "end"), &l1, &c1))
        return false;
    const char *t = doc->text.data ? doc->text.data : "";
    size_t from = nfy__lsp_offset(t, doc->text.len, l0, c0);
    size_t to = nfy__lsp_offset(t, doc->text.len, l1, c1);
    if (to < from)
        return false;
    splice(&doc->text, from, to, s, n);
    return true;
}
