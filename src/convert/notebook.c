/*
 * Notebooks (.ipynb): the code cells are converted as one Python module
 * (cells in order, so an import in the first cell resolves a call in the
 * fifth), IPython's `!cmd`, `%env`, `%%bash` lines as a shell script; both
 * views keep the byte offsets of the cells' decoded text. Their edits go
 * back into the JSON as replacements of the source strings they touch
 * (only those, re-encoded as Jupyter writes them; a string that gains a
 * line is split as Jupyter splits lines), so every other byte, the
 * outputs included, stays as it was. Findings name the JSON line and the
 * cell: "nb.ipynb:LINE:COL: ... cell N, line L: ...".
 */
#include "convert/notebook.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert/convert_internal.h"
#include "edit/edit.h"

typedef struct {
    const nfy_source *src; /* the notebook file */
    const char *rel;
    nfy_notebook nb;
    nfy_buf text; /* code cells' decoded text, each followed by "\n" */
    char *python; /* text with IPython-only lines blanked */
    char *shell;  /* only the shell commands of text, the rest blanked */
    bool has_shell;
} nb_view;

static const nfy_rule *not_scanned_rule(const nfy_convert_passes *p)
{
    return nfy_rules_set_find(p->o->rules, "NPU533");
}

/* A note that part of the notebook is not read, at JSON offset at. */
static void not_scanned(const nfy_convert_passes *p, nb_view *v, uint32_t at,
                        uint32_t end, const char *why, nfy_report *rep)
{
    const nfy_rule *r = not_scanned_rule(p);
    if (!r)
        return;
    nfy_mig_manual_finding(v->src, v->rel, (nfy_span){at, end}, r,
                           nfy_report_strndup(rep, why, strlen(why)), rep);
}

static void blank(char *s, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (s[i] != '\n' && s[i] != '\r')
            s[i] = ' ';
}

static bool is_word(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/* The word after a magic's % or %% at s[i]: its end. */
static size_t word_end(const char *s, size_t i, size_t end)
{
    while (i < end && is_word(s[i]))
        i++;
    return i;
}

static bool word_is(const char *s, size_t from, size_t to, const char *w)
{
    return to - from == strlen(w) && !memcmp(s + from, w, to - from);
}

/* `x = !cmd` / `x = %sx cmd`: where the ! or % is, else 0. */
static size_t assigned_magic(const char *s, size_t i, size_t end)
{
    size_t k = word_end(s, i, end);
    if (k == i)
        return 0;
    while (k < end && s[k] == ' ')
        k++;
    if (k >= end || s[k] != '=' || (k + 1 < end && s[k + 1] == '='))
        return 0;
    k++;
    while (k < end && s[k] == ' ')
        k++;
    return k < end && (s[k] == '!' || s[k] == '%') ? k : 0;
}

/* One line [ls, le) of a code cell: IPython syntax leaves the Python
 * view; shell commands stay in the shell view. */
static void line_views(nb_view *v, size_t ls, size_t le)
{
    const char *s = v->text.data;
    size_t i = ls;
    while (i < le && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t mark =
        i < le && (s[i] == '!' || s[i] == '%') ? i : assigned_magic(s, i, le);
    bool help = le > ls && s[le - 1] == '?' && i < le && s[i] != '#';
    if (!mark && !(i < le && (s[i] == '!' || s[i] == '%'))) {
        if (help)
            blank(v->python, ls, le); /* obj? shows help */
        blank(v->shell, ls, le);
        return;
    }
    blank(v->python, ls, le);
    size_t cmd = mark + 1; /* the shell text starts after "!" */
    if (s[mark] == '%') {
        size_t we = word_end(s, mark + 1, le);
        bool shell_magic = word_is(s, mark + 1, we, "env") ||
                           word_is(s, mark + 1, we, "set_env") ||
                           word_is(s, mark + 1, we, "sx") ||
                           word_is(s, mark + 1, we, "system");
        cmd = shell_magic ? we : le;
    } else if (cmd < le && s[cmd] == '!') {
        cmd++; /* !!cmd */
    }
    blank(v->shell, ls, cmd);
    v->has_shell |= cmd < le;
}

/* A cell's first line %%name: how the rest is read. */
typedef enum { BODY_PYTHON, BODY_SHELL, BODY_NONE } body_kind;

static body_kind cell_magic(const char *s, size_t ls, size_t le)
{
    size_t we = word_end(s, ls + 2, le);
    static const char *const shells[] = {"bash", "sh", "script", "system",
                                         NULL};
    static const char *const pythons[] = {"time", "timeit", "capture", "prun",
                                          NULL};
    for (size_t k = 0; shells[k]; k++)
        if (word_is(s, ls + 2, we, shells[k]))
            return BODY_SHELL;
    for (size_t k = 0; pythons[k]; k++)
        if (word_is(s, ls + 2, we, pythons[k]))
            return BODY_PYTHON;
    /* %%writefile x.py writes Python */
    if (word_is(s, ls + 2, we, "writefile") && le - ls > 3 &&
        !memcmp(s + le - 3, ".py", 3))
        return BODY_PYTHON;
    return BODY_NONE;
}

static size_t line_end(const char *s, size_t i, size_t end)
{
    while (i < end && s[i] != '\n')
        i++;
    return i;
}

static void cell_views(const nfy_convert_passes *p, nb_view *v,
                       const nfy_nb_cell *c, nfy_report *rep)
{
    const char *s = v->text.data;
    size_t i = c->pos, end = c->pos + c->len;
    if (end - i >= 2 && s[i] == '%' && s[i + 1] == '%') {
        size_t le = line_end(s, i, end);
        body_kind k = cell_magic(s, i, le);
        blank(v->python, i, k == BODY_PYTHON ? le : end);
        blank(v->shell, i, k == BODY_SHELL ? le : end);
        v->has_shell |= k == BODY_SHELL;
        if (k == BODY_NONE) {
            const nfy_nb_str *first = &v->nb.strs.items[c->first];
            const nfy_nb_str *last = &v->nb.strs.items[c->first + c->n - 1];
            char why[160];
            snprintf(why, sizeof why,
                     "cell %u: a %.*s cell is not Python or shell: not "
                     "scanned",
                     c->index, (int)(le - i > 40 ? 40 : le - i), s + i);
            not_scanned(p, v, first->start, last->end, why, rep);
        }
        if (k != BODY_PYTHON)
            return;
        i = le < end ? le + 1 : end;
    }
    while (i < end) {
        size_t le = line_end(s, i, end);
        line_views(v, i, le);
        i = le + 1;
    }
}

/* Decode every code cell into v->text and make the two views. */
static nfy_status build_views(const nfy_convert_passes *p, nb_view *v,
                              nfy_report *rep)
{
    for (size_t ci = 0; ci < v->nb.cells.len; ci++) {
        nfy_nb_cell *c = &v->nb.cells.items[ci];
        if (!c->code)
            continue;
        c->pos = (uint32_t)v->text.len;
        for (size_t k = c->first; k < c->first + c->n; k++) {
            nfy_nb_str *st = &v->nb.strs.items[k];
            st->pos = (uint32_t)v->text.len;
            nfy__convert_nb_decode(v->src->data, *st, &v->text);
            st->len = (uint32_t)v->text.len - st->pos;
        }
        c->len = (uint32_t)v->text.len - c->pos;
        nfy_buf_addch(&v->text, '\n');
    }
    if (v->text.status)
        return v->text.status;
    if (v->text.len >= NFY__MAX_SCRIPT_BYTES)
        return NFY_ELIMIT;
    v->python = malloc(v->text.len + 1);
    v->shell = malloc(v->text.len + 1);
    if (!v->python || !v->shell)
        return NFY_ENOMEM;
    memcpy(v->python, nfy_buf_cstr(&v->text), v->text.len + 1);
    memcpy(v->shell, v->python, v->text.len + 1);
    for (size_t ci = 0; ci < v->nb.cells.len; ci++)
        if (v->nb.cells.items[ci].code)
            cell_views(p, v, &v->nb.cells.items[ci], rep);
    return NFY_OK;
}

/* ---- Positions: view offset -> cell, line, JSON byte ------------------ */

static const nfy_nb_cell *cell_at(const nb_view *v, uint32_t off)
{
    const nfy_nb_cell *hit = NULL;
    for (size_t ci = 0; ci < v->nb.cells.len; ci++) {
        const nfy_nb_cell *c = &v->nb.cells.items[ci];
        if (c->code && c->pos <= off)
            hit = c;
    }
    return hit;
}

/* The string of c that view offset off falls in (the last that starts at
 * or before it); SIZE_MAX when c has none. */
static size_t str_at(const nb_view *v, const nfy_nb_cell *c, uint32_t off)
{
    size_t hit = SIZE_MAX;
    for (size_t k = c->first; k < c->first + c->n; k++)
        if (v->nb.strs.items[k].pos <= off)
            hit = k;
    return hit;
}

static uint32_t json_offset(const nb_view *v, uint32_t off)
{
    const nfy_nb_cell *c = cell_at(v, off);
    size_t k = c ? str_at(v, c, off) : SIZE_MAX;
    if (k == SIZE_MAX)
        return c && c->code ? c->open : 0;
    const nfy_nb_str *st = &v->nb.strs.items[k];
    uint32_t in = off - st->pos;
    if (in > st->len)
        in = st->len;
    return nfy__convert_nb_raw_offset(v->src->data, *st, in);
}

/* json_offset for the end of a span: a span that ends where the next
 * string starts ends in its own string, after the last byte it covers. */
static uint32_t json_end_offset(const nb_view *v, uint32_t start, uint32_t end)
{
    if (end <= start)
        return json_offset(v, start);
    const nfy_nb_cell *c = cell_at(v, end - 1);
    size_t k = c ? str_at(v, c, end - 1) : SIZE_MAX;
    if (k == SIZE_MAX)
        return json_offset(v, end);
    const nfy_nb_str *st = &v->nb.strs.items[k];
    uint32_t in = end - st->pos;
    return nfy__convert_nb_raw_offset(v->src->data, *st,
                                      in > st->len ? st->len : in);
}

/* The cell of view offset off and the line within it (1-based). */
static void cell_line(const nb_view *v, uint32_t off, uint32_t *cell,
                      uint32_t *line)
{
    const nfy_nb_cell *c = cell_at(v, off);
    *cell = c ? c->index : 0;
    *line = 1;
    for (uint32_t i = c ? c->pos : 0; i < off && i < v->text.len; i++)
        *line += v->text.data[i] == '\n';
}

/* Findings [first, ..) of rel, located in view (the source the passes
 * saw): the JSON line and column, the cell and its line in the message. */
/* A change inside one source string: before as the JSON bytes it
 * replaces and after JSON-escaped (no quotes), so the review page and a
 * decisions file, which read the notebook's own bytes, agree with it. */
static void change_as_json(const nb_view *v, nfy_finding *f, uint32_t s,
                           uint32_t e, nfy_report *rep)
{
    const nfy_nb_cell *c = cell_at(v, s);
    size_t k = c ? str_at(v, c, s) : SIZE_MAX;
    if (k == SIZE_MAX)
        return;
    const nfy_nb_str *st = &v->nb.strs.items[k];
    if (e < s || e > st->pos + st->len)
        return;
    uint32_t rs = json_offset(v, s), re = json_end_offset(v, s, e);
    f->before = nfy_report_strndup(rep, v->src->data + rs, re - rs);
    if (!f->after)
        return;
    nfy_buf b = NFY_BUF_INIT;
    nfy__convert_nb_encode(&b, f->after, strlen(f->after), st->ascii);
    if (!b.status && b.len >= 2)
        f->after = nfy_report_strndup(rep, b.data + 1, b.len - 2);
    nfy_buf_release(&b);
}

static void relocate_findings(const nb_view *v, const nfy_source *view,
                              nfy_report *rep, size_t first)
{
    nfy_buf msg = NFY_BUF_INIT;
    size_t nopen;
    nfy_finding *open = nfy_report_open_since(rep, first, &nopen);
    for (size_t i = 0; i < nopen; i++) {
        nfy_finding *f = &open[i];
        if (!f->file || strcmp(f->file, v->rel) || !f->start_line)
            continue;
        uint32_t s = nfy_source_offset(view, f->start_line, f->start_col);
        uint32_t e = nfy_source_offset(view, f->end_line, f->end_col);
        uint32_t cell, line;
        cell_line(v, s, &cell, &line);
        if (f->cat == NFY_CAT_CHANGE)
            change_as_json(v, f, s, e, rep);
        nfy_source_linecol(v->src, json_offset(v, s), &f->start_line,
                           &f->start_col);
        nfy_source_linecol(v->src, json_end_offset(v, s, e), &f->end_line,
                           &f->end_col);
        nfy_buf_reset(&msg);
        nfy_buf_addf(&msg, "cell %u, line %u: %s", cell, line,
                     f->message ? f->message : "");
        f->message = nfy_report_strndup(rep, msg.data, msg.len);
    }
    nfy_buf_release(&msg);
}

/* Diagnostics [first, ..) of the passes over view, located likewise. */
static void relocate_diags(const nb_view *v, const nfy_source *view,
                           nfy_diags *diags, size_t first)
{
    for (size_t i = first; i < diags->items.len; i++) {
        nfy_diag *d = &diags->items.items[i];
        if (!d->file || strcmp(d->file, v->rel) || !d->line)
            continue;
        uint32_t s = nfy_source_offset(view, d->line, d->col);
        uint32_t cell, line;
        cell_line(v, s, &cell, &line);
        d->offset = json_offset(v, s);
        nfy_source_linecol(v->src, d->offset, &d->line, &d->col);
        d->msg = nfy_arena_fmt(&diags->arena, "cell %u, line %u: %s", cell,
                               line, d->msg ? d->msg : "");
    }
}

/* ---- Edits of the views -> edits of the JSON ---------------------------- */

/* An edit of a view with the strings [a, b] of its cell it touches. */
typedef struct {
    const nfy_edit *e;
    const nfy_nb_cell *cell;
    size_t a, b;
} nb_edit;

static bool place_edit(const nb_view *v, const nfy_edit *e, nb_edit *out)
{
    const nfy_nb_cell *c = cell_at(v, e->span.start);
    if (!c || e->span.end > c->pos + c->len || c->n == 0)
        return false;
    size_t a = str_at(v, c, e->span.start);
    size_t b = e->span.end > e->span.start ? str_at(v, c, e->span.end - 1) : a;
    for (size_t k = a; k <= b; k++)
        if (v->nb.strs.items[k].lossy)
            return false;
    *out = (nb_edit){e, c, a, b};
    return true;
}

/* What goes between two strings of c's list, as the notebook writes it. */
static nfy_str list_sep(const nb_view *v, const nfy_nb_cell *c, nfy_buf *tmp)
{
    const char *d = v->src->data;
    const nfy_nb_str *s = &v->nb.strs.items[c->first];
    if (c->n >= 2)
        return (nfy_str){d + s[0].end, s[1].start - s[0].end};
    nfy_buf_addch(tmp, ',');
    nfy_buf_add(tmp, d + c->open + 1, s[0].start - c->open - 1);
    return nfy_buf_view(tmp);
}

/* The strings [a, b] of c rewritten with the edits g[0..n): one JSON
 * edit over their tokens. */
static nfy_status emit_group(const nb_view *v, const nb_edit *g, size_t n,
                             size_t b, nfy_edit_set *set, nfy_diags *diags)
{
    const nfy_nb_cell *c = g[0].cell;
    const nfy_nb_str *strs = v->nb.strs.items;
    size_t a = g[0].a;
    uint32_t from = strs[a].pos, to = strs[b].pos + strs[b].len;
    nfy_buf text = NFY_BUF_INIT, json = NFY_BUF_INIT, tmp = NFY_BUF_INIT;
    uint32_t at = from;
    bool ascii = false;
    for (size_t k = a; k <= b; k++)
        ascii |= strs[k].ascii;
    for (size_t i = 0; i < n; i++) {
        nfy_buf_add(&text, v->text.data + at, g[i].e->span.start - at);
        nfy_buf_addview(&text, g[i].e->text);
        at = g[i].e->span.end;
    }
    nfy_buf_add(&text, v->text.data + at, to - at);
    uint32_t start = strs[a].start, end = strs[b].end;
    if (text.len == 0 && c->array) { /* the strings go, with a separator */
        if (b + 1 < c->first + c->n)
            end = strs[b + 1].start;
        else if (a > c->first)
            start = strs[a - 1].end;
    } else if (!c->array) {
        nfy__convert_nb_encode(&json, text.data, text.len, ascii);
    } else {
        nfy_str sep = list_sep(v, c, &tmp);
        for (size_t i = 0; i < text.len;) {
            size_t j = line_end(text.data, i, text.len);
            j += j < text.len;
            if (i)
                nfy_buf_addview(&json, sep);
            nfy__convert_nb_encode(&json, text.data + i, j - i, ascii);
            i = j;
        }
    }
    nfy_status st = text.status ? text.status : json.status;
    if (!st)
        st = nfy_edit_set_add(set, start, end, nfy_buf_view(&json),
                              g[0].e->rule, g[0].e->note, diags);
    nfy_buf_release(&text);
    nfy_buf_release(&json);
    nfy_buf_release(&tmp);
    return st;
}

static int by_start(const void *x, const void *y)
{
    const nb_edit *a = x, *b = y;
    if (a->e->span.start != b->e->span.start)
        return a->e->span.start < b->e->span.start ? -1 : 1;
    return a->e->seq < b->e->seq ? -1 : a->e->seq > b->e->seq;
}

/* Every kept edit of the views, as edits of the JSON in set. */
static nfy_status map_edits(const nb_view *v, nfy_edit_set *const *views,
                            size_t nviews, nfy_edit_set *set, nfy_diags *diags)
{
    NFY_VEC(nb_edit) all = {0};
    for (size_t s = 0; s < nviews; s++) {
        nfy_edit_set *vs = views[s];
        for (size_t i = 0; i < vs->edits.len; i++) {
            nb_edit ne;
            if (place_edit(v, &vs->edits.items[i], &ne)) {
                nfy_vec_push(&all, ne);
                continue;
            }
            nfy_diag_add(diags, NFY_SEV_WARNING, "convert-notebook", v->src,
                         json_offset(v, vs->edits.items[i].span.start), 1,
                         "an edit (%s) across cells or in an empty cell: "
                         "not applied",
                         vs->edits.items[i].rule);
        }
    }
    if (all.len)
        qsort(all.items, all.len, sizeof *all.items, by_start);
    nfy_status st = NFY_OK;
    for (size_t i = 0; i < all.len && !st;) {
        size_t j = i + 1, b = all.items[i].b;
        while (j < all.len && all.items[j].cell == all.items[i].cell &&
               all.items[j].a <= b) {
            if (all.items[j].b > b)
                b = all.items[j].b;
            j++;
        }
        st = emit_group(v, all.items + i, j - i, b, set, diags);
        i = j;
    }
    nfy_vec_free(&all);
    return st;
}

/* ---- The file ----------------------------------------------------------- */

/* A code cell that is not valid Python on its own (Jupyter runs each cell
 * alone) leaves the Python view, so the other cells still convert; its
 * errors are said at the JSON and the cell is reported as not converted. */
static void drop_broken_cell(const nfy_convert_passes *p, nb_view *v,
                             const nfy_nb_cell *c, nfy_report *rep,
                             nfy_diags *diags)
{
    nfy_diags d;
    nfy_diags_init(&d);
    bool tree_errors; /* a limit hit is said by the passes, not here */
    (void)nfy__convert_parse_check(v->rel, v->python + c->pos, c->len, &d,
                                   &tree_errors);
    size_t first = diags->items.len;
    bool broken = false;
    for (size_t i = 0; i < d.items.len; i++)
        broken |= d.items.items[i].sev == NFY_SEV_ERROR;
    if (broken) {
        nfy_diags_append(diags, &d, 0, d.items.len);
        for (size_t i = first; i < diags->items.len; i++) {
            nfy_diag *dg = &diags->items.items[i];
            uint32_t off = c->pos + (dg->offset < c->len ? dg->offset : c->len);
            dg->offset = json_offset(v, off);
            dg->msg = nfy_arena_fmt(&diags->arena, "cell %u, line %u: %s",
                                    c->index, dg->line, dg->msg);
            nfy_source_linecol(v->src, dg->offset, &dg->line, &dg->col);
        }
        char why[200];
        const nfy_diag *e0 = &d.items.items[0];
        snprintf(why, sizeof why,
                 "cell %u: not valid Python (line %u: %.80s): cell not "
                 "converted",
                 c->index, e0->line, e0->msg ? e0->msg : "");
        const nfy_nb_str *st = &v->nb.strs.items[c->first];
        not_scanned(p, v, st->start, st[c->n - 1].end, why, rep);
        blank(v->python, c->pos, c->pos + c->len);
    }
    nfy_diags_release(&d);
}

/* The passes of kind over view; its findings and diagnostics then name
 * the JSON. Their status is the file's (convert counts the errors said). */
static nfy_status view_edits(nfy_convert_passes *p, nb_view *v,
                             nfy_file_kind kind, const nfy_source *view,
                             nfy_edit_set *vset, nfy_report *rep,
                             nfy_diags *diags)
{
    size_t first = nfy_report_open_mark(rep), dfirst = diags->items.len;
    nfy_status st = nfy__convert_edits(p, kind, view, v->rel, vset, rep, diags);
    (void)nfy_edit_set_normalize(vset, diags);
    relocate_findings(v, view, rep, first);
    relocate_diags(v, view, diags, dfirst);
    return st;
}

static bool python_kernel(const nfy_notebook *nb)
{
    return !nb->language[0] || !strcmp(nb->language, "python") ||
           !strcmp(nb->language, "python3");
}

/* Whether the notebook is read at all; if not, the note says why. */
static bool readable(const nfy_convert_passes *p, nb_view *v, nfy_report *rep,
                     nfy_diags *diags)
{
    const nfy_notebook *nb = &v->nb;
    if (nb->error) {
        nfy_diag_add(diags, NFY_SEV_ERROR, "convert-notebook", v->src,
                     nb->error_at, 1,
                     "not a valid notebook (%s): not converted, copied "
                     "unchanged",
                     nb->error);
        return false;
    }
    char why[160];
    if (nb->nbformat && nb->nbformat < 4)
        snprintf(why, sizeof why,
                 "nbformat %ld notebook: not scanned (convert reads "
                 "nbformat 4; `jupyter nbconvert --to notebook` upgrades "
                 "it)",
                 nb->nbformat);
    else if (!python_kernel(nb))
        snprintf(why, sizeof why,
                 "the notebook's kernel language is %s: not scanned",
                 nb->language);
    else
        return true;
    not_scanned(p, v, 0, 0, why, rep);
    return false;
}

/* Both views through their passes, their edits into set. */
static nfy_status convert_views(nfy_convert_passes *p, nb_view *v,
                                nfy_edit_set *set, nfy_report *rep,
                                nfy_diags *diags)
{
    const char *texts[2] = {v->python, v->has_shell ? v->shell : NULL};
    const nfy_file_kind kinds[2] = {NFY_FILE_KIND_PYTHON, NFY_FILE_KIND_SHELL};
    nfy_source views[2];
    nfy_edit_set vsets[2];
    nfy_edit_set *used[2];
    size_t n = 0;
    nfy_status st = NFY_OK, pass_st = NFY_OK;
    for (size_t ci = 0; ci < v->nb.cells.len; ci++)
        if (v->nb.cells.items[ci].code && v->nb.cells.items[ci].n)
            drop_broken_cell(p, v, &v->nb.cells.items[ci], rep, diags);
    for (size_t i = 0; i < 2 && !st; i++) {
        if (!texts[i])
            continue;
        st = nfy_source_from_mem(&views[n], v->rel, texts[i], v->text.len);
        if (st)
            break;
        nfy_edit_set_init(&vsets[n], &views[n]);
        used[n] = &vsets[n];
        nfy_status ps =
            view_edits(p, v, kinds[i], &views[n], &vsets[n], rep, diags);
        if (!pass_st)
            pass_st = ps;
        n++;
    }
    if (!st)
        st = map_edits(v, used, n, set, diags);
    for (size_t i = 0; i < n; i++) {
        nfy_edit_set_release(&vsets[i]);
        nfy_source_release(&views[i]);
    }
    return st ? st : pass_st;
}

nfy_status nfy__convert_notebook_edits(nfy_convert_passes *p,
                                       const nfy_source *src, const char *rel,
                                       nfy_edit_set *set, nfy_report *rep,
                                       nfy_diags *diags)
{
    if (!p->o->rules)
        return NFY_OK;
    nb_view v = {.src = src, .rel = rel, .text = NFY_BUF_INIT};
    nfy__convert_nb_parse(&v.nb, src->data, src->len);
    nfy_status st = NFY_OK;
    if (readable(p, &v, rep, diags)) {
        st = build_views(p, &v, rep);
        if (!st)
            st = convert_views(p, &v, set, rep, diags);
    }
    free(v.python);
    free(v.shell);
    nfy_buf_release(&v.text);
    nfy__convert_nb_release(&v.nb);
    return st;
}
