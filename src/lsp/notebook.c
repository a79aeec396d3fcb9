/*
 * Notebooks as the client syncs them (LSP 3.17 notebookDocument/...): each
 * cell is a text document of the store, tied to its notebook. The code
 * cells are converted together as one Python module, as convert converts
 * an .ipynb file, so `import torch_npu` inserted in the first cell serves
 * a quick fix in the fifth; each cell gets the findings of its own lines.
 * IPython lines (`!cmd`, `%magic`) are commented out for the conversion,
 * and a cell magic other than the timing and capture ones (`%%bash`,
 * `%%html`, ...) makes its cell blank: it is not Python.
 */
#include <stdlib.h>
#include <string.h>

#include "lsp/lsp_internal.h"

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        abort();
    return d;
}

static nfy__lsp_notebook *find(nfy__lsp_server *s, const char *uri, size_t *at)
{
    for (size_t i = 0; uri && i < s->notebooks.len; i++)
        if (!strcmp(s->notebooks.items[i]->uri, uri)) {
            if (at)
                *at = i;
            return s->notebooks.items[i];
        }
    return NULL;
}

static const char *nb_uri(json_t *params)
{
    return json_string_value(
        json_object_get(json_object_get(params, "notebookDocument"), "uri"));
}

static void open_cell_doc(nfy__lsp_server *s, const nfy__lsp_notebook *nb,
                          json_t *item)
{
    const char *uri = json_string_value(json_object_get(item, "uri"));
    json_t *text = json_object_get(item, "text");
    if (!uri || !json_is_string(text))
        return;
    nfy__lsp_doc *doc =
        nfy__lsp_doc_open(&s->docs, uri, nb->rel, json_string_value(text),
                          json_string_length(text),
                          json_integer_value(json_object_get(item, "version")));
    doc->notebook = xstrdup(nb->uri);
}

/* Insert the cells (NotebookCell[]) at position at. */
static void insert_cells(nfy__lsp_notebook *nb, size_t at, json_t *cells)
{
    size_t n = json_array_size(cells);
    for (size_t i = 0; i < n; i++) {
        json_t *c = json_array_get(cells, i);
        const char *uri = json_string_value(json_object_get(c, "document"));
        nfy_vec_push(&nb->cells, xstrdup(uri ? uri : ""));
        nfy_vec_push(&nb->code,
                     json_integer_value(json_object_get(c, "kind")) == 2);
    }
    /* rotate the new ones from the end into place */
    size_t total = nb->cells.len, pos = at > total - n ? total - n : at;
    for (size_t k = 0; k < n; k++)
        for (size_t j = total - n + k; j > pos + k; j--) {
            char *u = nb->cells.items[j];
            nb->cells.items[j] = nb->cells.items[j - 1];
            nb->cells.items[j - 1] = u;
            bool b = nb->code.items[j];
            nb->code.items[j] = nb->code.items[j - 1];
            nb->code.items[j - 1] = b;
        }
}

static void delete_cells(nfy__lsp_notebook *nb, size_t at, size_t n)
{
    if (at > nb->cells.len)
        return;
    if (n > nb->cells.len - at)
        n = nb->cells.len - at;
    for (size_t i = at; i < at + n; i++)
        free(nb->cells.items[i]);
    memmove(nb->cells.items + at, nb->cells.items + at + n,
            (nb->cells.len - at - n) * sizeof *nb->cells.items);
    memmove(nb->code.items + at, nb->code.items + at + n,
            (nb->code.len - at - n) * sizeof *nb->code.items);
    nb->cells.len -= n;
    nb->code.len -= n;
}

static void mark_dirty(nfy__lsp_server *s, const nfy__lsp_notebook *nb)
{
    for (size_t i = 0; i < nb->cells.len; i++) {
        nfy__lsp_doc *d = nfy__lsp_doc_find(&s->docs, nb->cells.items[i]);
        if (d)
            d->dirty = true;
    }
}

void nfy__lsp_notebook_open(nfy__lsp_server *s, json_t *params)
{
    const char *uri = nb_uri(params);
    if (!uri)
        return;
    nfy__lsp_notebook_close(s, params); /* reopened: start afresh */
    nfy__lsp_notebook *nb = calloc(1, sizeof *nb);
    if (!nb)
        abort();
    nb->uri = xstrdup(uri);
    /* the cells convert as one module named after the notebook */
    char *path = nfy__lsp_uri_path(uri);
    const char *base = strrchr(path ? path : uri, '/');
    nfy_arena a = NFY_ARENA_INIT;
    nb->rel = xstrdup(nfy_arena_fmt(&a, "%s.py", base ? base + 1 : uri));
    nfy_arena_release(&a);
    free(path);
    insert_cells(
        nb, 0,
        json_object_get(json_object_get(params, "notebookDocument"), "cells"));
    nfy_vec_push(&s->notebooks, nb);
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(params, "cellTextDocuments"), i, item)
    {
        open_cell_doc(s, nb, item);
    }
    mark_dirty(s, nb);
}

static void apply_structure(nfy__lsp_server *s, nfy__lsp_notebook *nb,
                            json_t *structure)
{
    json_t *arr = json_object_get(structure, "array");
    json_int_t start = json_integer_value(json_object_get(arr, "start"));
    json_int_t del = json_integer_value(json_object_get(arr, "deleteCount"));
    if (arr && start >= 0 && del >= 0) {
        delete_cells(nb, (size_t)start, (size_t)del);
        insert_cells(nb, (size_t)start, json_object_get(arr, "cells"));
    }
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(structure, "didOpen"), i, item)
    {
        open_cell_doc(s, nb, item);
    }
    json_array_foreach(json_object_get(structure, "didClose"), i, item)
    {
        nfy__lsp_forget(s, json_string_value(json_object_get(item, "uri")));
    }
}

/* data: cells whose kind changed (markup <-> code). */
static void apply_data(nfy__lsp_notebook *nb, json_t *data)
{
    size_t i;
    json_t *c;
    json_array_foreach(data, i, c)
    {
        const char *uri = json_string_value(json_object_get(c, "document"));
        for (size_t k = 0; uri && k < nb->cells.len; k++)
            if (!strcmp(nb->cells.items[k], uri))
                nb->code.items[k] =
                    json_integer_value(json_object_get(c, "kind")) == 2;
    }
}

void nfy__lsp_notebook_change(nfy__lsp_server *s, json_t *params)
{
    nfy__lsp_notebook *nb = find(s, nb_uri(params), NULL);
    json_t *cells = json_object_get(json_object_get(params, "change"), "cells");
    if (!nb || !cells)
        return;
    apply_structure(s, nb, json_object_get(cells, "structure"));
    apply_data(nb, json_object_get(cells, "data"));
    size_t i;
    json_t *tc;
    json_array_foreach(json_object_get(cells, "textContent"), i, tc)
    {
        json_t *d = json_object_get(tc, "document");
        const char *uri = json_string_value(json_object_get(d, "uri"));
        nfy__lsp_doc *doc = uri ? nfy__lsp_doc_find(&s->docs, uri) : NULL;
        size_t k;
        json_t *ch;
        json_array_foreach(json_object_get(tc, "changes"), k, ch)
        {
            if (doc && !nfy__lsp_doc_change(doc, ch))
                break;
        }
        if (doc && json_is_integer(json_object_get(d, "version")))
            doc->version = json_integer_value(json_object_get(d, "version"));
    }
    mark_dirty(s, nb);
}

static void notebook_free(nfy__lsp_notebook *nb)
{
    for (size_t i = 0; i < nb->cells.len; i++)
        free(nb->cells.items[i]);
    nfy_vec_free(&nb->cells);
    nfy_vec_free(&nb->code);
    free(nb->uri);
    free(nb->rel);
    free(nb);
}

void nfy__lsp_notebook_close(nfy__lsp_server *s, json_t *params)
{
    size_t at;
    nfy__lsp_notebook *nb = find(s, nb_uri(params), &at);
    if (!nb)
        return;
    for (size_t i = 0; i < nb->cells.len; i++)
        nfy__lsp_forget(s, nb->cells.items[i]);
    s->notebooks.items[at] = s->notebooks.items[--s->notebooks.len];
    notebook_free(nb);
}

void nfy__lsp_notebooks_release(nfy__lsp_server *s)
{
    for (size_t i = 0; i < s->notebooks.len; i++)
        notebook_free(s->notebooks.items[i]);
    nfy_vec_free(&s->notebooks);
}

/* ---- the cells as one module ---- */

static bool python_cell_magic(const char *t, size_t n)
{
    static const char *const python[] = {"%%time", "%%timeit", "%%capture",
                                         "%%prun"};
    for (size_t i = 0; i < sizeof python / sizeof *python; i++) {
        size_t k = strlen(python[i]);
        if (n >= k && !memcmp(t, python[i], k) &&
            (n == k || t[k] == ' ' || t[k] == '\n' || t[k] == '\r'))
            return true;
    }
    return false;
}

/* Append cell text to out as Python of the same lines; its line count. */
static uint32_t add_cell(nfy_buf *out, const char *t, size_t n)
{
    bool blank =
        n >= 2 && t[0] == '%' && t[1] == '%' && !python_cell_magic(t, n);
    uint32_t lines = 0;
    for (size_t i = 0; i < n;) {
        size_t e = i;
        while (e < n && t[e] != '\n')
            e++;
        size_t ws = i;
        while (ws < e && (t[ws] == ' ' || t[ws] == '\t'))
            ws++;
        if (blank) {
            /* nothing of it is Python */
        } else if (ws < e && (t[ws] == '!' || t[ws] == '%')) {
            nfy_buf_add(out, t + i, ws - i);
            nfy_buf_addch(out, '#');
            nfy_buf_add(out, t + ws + 1, e - ws - 1);
        } else {
            nfy_buf_add(out, t + i, e - i);
        }
        nfy_buf_addch(out, '\n');
        lines++;
        i = e + 1;
    }
    return lines ? lines : (nfy_buf_addch(out, '\n'), 1);
}

static void diagnose_notebook(nfy__lsp_server *s, nfy__lsp_notebook *nb)
{
    nfy_buf text = NFY_BUF_INIT;
    uint32_t *first = calloc(nb->cells.len + 1, sizeof *first);
    uint32_t *count = calloc(nb->cells.len + 1, sizeof *count);
    if (!first || !count)
        abort();
    uint32_t line = 0;
    for (size_t i = 0; i < nb->cells.len; i++) {
        nfy__lsp_doc *d = nfy__lsp_doc_find(&s->docs, nb->cells.items[i]);
        first[i] = line;
        if (d && nb->code.items[i])
            count[i] =
                add_cell(&text, d->text.data ? d->text.data : "", d->text.len);
        line += count[i];
    }
    nfy_report rep;
    nfy_diags diags;
    nfy__lsp_convert(s, nb->rel, text.data ? text.data : "", text.len, &rep,
                     &diags);
    nfy__lsp_lines lines = {0};
    nfy__lsp_lines_build(&lines, text.data ? text.data : "", text.len);
    for (size_t i = 0; i < nb->cells.len; i++) {
        nfy__lsp_doc *d = nfy__lsp_doc_find(&s->docs, nb->cells.items[i]);
        if (!d)
            continue;
        d->dirty = false;
        nfy__lsp_doc_clear_findings(d);
        for (size_t k = 0; count[i] && k < nfy_report_finding_count(&rep);
             k++) {
            nfy_finding f;
            nfy_report_finding_read(&rep, k, &f);
            if (f.file && !strcmp(f.file, nb->rel) && f.start_line &&
                f.start_line - 1 >= first[i] &&
                f.start_line - 1 < first[i] + count[i])
                nfy__lsp_keep_finding(s, d, &lines, first[i], &f);
        }
        nfy__lsp_publish(s, d, &lines, &diags, first[i], count[i]);
    }
    nfy__lsp_lines_release(&lines);
    nfy_diags_release(&diags);
    nfy_report_release(&rep);
    nfy_buf_release(&text);
    free(first);
    free(count);
}

void nfy__lsp_notebooks_diagnose(nfy__lsp_server *s)
{
    for (size_t i = 0; i < s->notebooks.len; i++) {
        nfy__lsp_notebook *nb = s->notebooks.items[i];
        bool dirty = false;
        for (size_t k = 0; k < nb->cells.len && !dirty; k++) {
            nfy__lsp_doc *d = nfy__lsp_doc_find(&s->docs, nb->cells.items[k]);
            dirty = d && d->dirty;
        }
        if (dirty)
            diagnose_notebook(s, nb);
    }
}
