/*
 * Unified diff from known changed ranges, `diff -u` compatible.
 *
 * No general LCS: the caller knows which byte ranges differ, so each range is
 * widened to whole lines, neighbouring ranges on shared lines are merged into
 * blocks, and each block is trimmed of equal leading and trailing lines.
 * What remains are the changed line runs; runs closer than twice the context
 * share a hunk, as GNU diff does. Lines are split at '\n' only (a CR stays
 * part of its line, as diff and patch see it); a last line without '\n' gets
 * the "\ No newline at end of file" marker.
 */
#include <stdlib.h>
#include <string.h>

#include "edit/edit.h"

enum { CONTEXT = 3 };

/* A text with its '\n'-based line starts; starts[nlines] == len. */
typedef struct {
    const char *data;
    size_t len;
    NFY_VEC(size_t) starts;
    size_t nlines;
} line_table;

/* A changed run: old lines [o0, o1) became new lines [n0, n1). */
typedef struct {
    size_t o0, o1, n0, n1;
} change;

typedef NFY_VEC(change) change_vec;

static void lines_build(line_table *t, const char *data, size_t len)
{
    memset(t, 0, sizeof *t);
    t->data = data;
    t->len = len;
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (data[i] == '\n') {
            nfy_vec_push(&t->starts, start);
            start = i + 1;
        }
    }
    if (start < len)
        nfy_vec_push(&t->starts, start);
    t->nlines = t->starts.len;
    nfy_vec_push(&t->starts, len);
}

/* Index of the line holding byte pos; nlines for the end of a text whose
 * last line is complete (or that is empty). */
static size_t line_of(const line_table *t, size_t pos)
{
    if (pos >= t->len)
        return t->len && t->data[t->len - 1] != '\n' ? t->nlines - 1
                                                     : t->nlines;
    size_t lo = 0, hi = t->nlines;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->starts.items[mid + 1] <= pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static nfy_str line_text(const line_table *t, size_t i)
{
    nfy_str s = {t->data + t->starts.items[i],
                 t->starts.items[i + 1] - t->starts.items[i]};
    return s;
}

/* Turn one block of old lines [o0, o1) / new lines [n0, n1) into a change
 * after dropping the equal lines at both ends; false when nothing is left. */
static bool trim_block(const line_table *o, const line_table *n, change *c)
{
    while (c->o0 < c->o1 && c->n0 < c->n1 &&
           nfy_str_eq(line_text(o, c->o0), line_text(n, c->n0))) {
        c->o0++;
        c->n0++;
    }
    while (c->o0 < c->o1 && c->n0 < c->n1 &&
           nfy_str_eq(line_text(o, c->o1 - 1), line_text(n, c->n1 - 1))) {
        c->o1--;
        c->n1--;
    }
    return c->o0 < c->o1 || c->n0 < c->n1;
}

/* Bytes between ranges must be the same text in both. */
static bool same_gap(const line_table *o, size_t o0, size_t o1,
                     const line_table *n, size_t n0, size_t n1)
{
    if (o1 - o0 != n1 - n0)
        return false;
    return o1 == o0 || !memcmp(o->data + o0, n->data + n0, o1 - o0);
}

static bool ranges_valid(const line_table *o, const line_table *n,
                         const nfy_span *a, const nfy_span *b, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        if (a[i].start > a[i].end || a[i].end > o->len ||
            b[i].start > b[i].end || b[i].end > n->len)
            return false;
        if (i && (a[i].start < a[i - 1].end || b[i].start < b[i - 1].end))
            return false;
        /* Bytes between ranges are the same text, so the gaps must match. */
        size_t ofrom = i ? a[i - 1].end : 0, nfrom = i ? b[i - 1].end : 0;
        if (!same_gap(o, ofrom, a[i].start, n, nfrom, b[i].start))
            return false;
    }
    size_t ofrom = count ? a[count - 1].end : 0;
    size_t nfrom = count ? b[count - 1].end : 0;
    return same_gap(o, ofrom, o->len, n, nfrom, n->len);
}

/* Old line block [first line of a[i], line after the line holding
 * a[i].end): widening past the end keeps a replaced '\n' inside the block. */
static void widen(const line_table *o, nfy_span r, size_t *l0, size_t *l1)
{
    *l0 = line_of(o, r.start);
    size_t last = line_of(o, r.end);
    *l1 = last < o->nlines ? last + 1 : o->nlines;
    if (*l0 > o->nlines)
        *l0 = o->nlines;
}

/* Adjacent changes (no equal line between them) become one, so that all
 * removed lines come before all added ones, as GNU diff prints them. */
static void push_change(change_vec *out, change c)
{
    if (out->len && nfy_vec_last(out)->o1 == c.o0) {
        nfy_vec_last(out)->o1 = c.o1;
        nfy_vec_last(out)->n1 = c.n1;
        return;
    }
    nfy_vec_push(out, c);
}

static void collect_changes(const line_table *o, const line_table *n,
                            const nfy_span *a, const nfy_span *b, size_t count,
                            change_vec *out)
{
    size_t i = 0;
    while (i < count) {
        size_t l0, l1, first = i;
        widen(o, a[i], &l0, &l1);
        while (i + 1 < count) {
            size_t m0, m1;
            widen(o, a[i + 1], &m0, &m1);
            if (m0 >= l1)
                break;
            l1 = m1 > l1 ? m1 : l1;
            i++;
        }
        /* Block bytes in old, and where they land in new: the bytes before
         * the first range and after the last are gap bytes, equal in both. */
        size_t x0 = o->starts.items[l0], x1 = o->starts.items[l1];
        size_t y0 = x0 + b[first].start - a[first].start;
        size_t y1 = x1 + b[i].end - a[i].end;
        change c = {l0, l1, line_of(n, y0), line_of(n, y1)};
        if (y1 == n->len)
            c.n1 = n->nlines;
        if (trim_block(o, n, &c))
            push_change(out, c);
        i++;
    }
}

static void emit_line(nfy_buf *out, char tag, nfy_str line)
{
    nfy_buf_addch(out, tag);
    nfy_buf_addview(out, line);
    if (!line.len || line.ptr[line.len - 1] != '\n')
        nfy_buf_addstr(out, "\n\\ No newline at end of file\n");
}

static void emit_range(nfy_buf *out, size_t start, size_t count)
{
    /* GNU diff: an empty range names the line before it; ",1" is implied. */
    if (count == 0)
        nfy_buf_addf(out, "%zu,0", start);
    else if (count == 1)
        nfy_buf_addf(out, "%zu", start + 1);
    else
        nfy_buf_addf(out, "%zu,%zu", start + 1, count);
}

/* "--- a/path": names with control characters, quotes or backslashes are
 * C-quoted, and names with spaces end with a tab, as git writes them, so
 * GNU patch reads the whole name. */
static void emit_label(nfy_buf *out, const char *prefix, const char *path)
{
    bool quote = false, space = false;
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        quote |= *p < 0x20 || *p == '"' || *p == '\\' || *p == 0x7f;
        space |= *p == ' ';
    }
    if (!quote) {
        nfy_buf_addf(out, "%s%s%s\n", prefix, path, space ? "\t" : "");
        return;
    }
    nfy_buf_add(out, prefix, 4);
    nfy_buf_addch(out, '"');
    nfy_buf_add(out, prefix + 4, 2);
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (*p == '"' || *p == '\\')
            nfy_buf_addch(out, '\\');
        if (*p < 0x20 || *p == 0x7f)
            nfy_buf_addf(out, "\\%03o", *p);
        else
            nfy_buf_addch(out, (char)*p);
    }
    nfy_buf_addstr(out, "\"\n");
}

/* Emit changes [first, last] as one hunk with context. */
static void emit_hunk(nfy_buf *out, const line_table *o, const line_table *n,
                      const change *c, size_t first, size_t last)
{
    size_t lead = c[first].o0 < CONTEXT ? c[first].o0 : CONTEXT;
    size_t tail = o->nlines - c[last].o1;
    tail = tail < CONTEXT ? tail : CONTEXT;
    size_t os = c[first].o0 - lead, ns = c[first].n0 - lead;
    size_t oe = c[last].o1 + tail, ne = c[last].n1 + tail;
    nfy_buf_addstr(out, "@@ -");
    emit_range(out, os, oe - os);
    nfy_buf_addstr(out, " +");
    emit_range(out, ns, ne - ns);
    nfy_buf_addstr(out, " @@\n");
    size_t line = os;
    for (size_t k = first; k <= last; k++) {
        for (; line < c[k].o0; line++)
            emit_line(out, ' ', line_text(o, line));
        for (size_t j = c[k].o0; j < c[k].o1; j++)
            emit_line(out, '-', line_text(o, j));
        for (size_t j = c[k].n0; j < c[k].n1; j++)
            emit_line(out, '+', line_text(n, j));
        line = c[k].o1;
    }
    for (; line < oe; line++)
        emit_line(out, ' ', line_text(o, line));
}

static void emit_hunks(nfy_buf *out, const line_table *o, const line_table *n,
                       const change_vec *cv)
{
    size_t i = 0;
    while (i < cv->len) {
        size_t first = i;
        while (i + 1 < cv->len &&
               cv->items[i + 1].o0 - cv->items[i].o1 <= 2 * CONTEXT)
            i++;
        emit_hunk(out, o, n, cv->items, first, i);
        i++;
    }
}

nfy_status nfy_edit_diff_ranges(const char *path, const char *old_text,
                                size_t old_len, const char *new_text,
                                size_t new_len, const nfy_span *a,
                                const nfy_span *b, size_t n, nfy_buf *out)
{
    line_table ot, nt;
    lines_build(&ot, old_text, old_len);
    lines_build(&nt, new_text, new_len);
    nfy_status st = NFY_OK;
    change_vec cv = {0};
    if (!ranges_valid(&ot, &nt, a, b, n)) {
        st = NFY_EUSAGE;
        goto out;
    }
    collect_changes(&ot, &nt, a, b, n, &cv);
    if (cv.len) {
        emit_label(out, "--- a/", path);
        emit_label(out, "+++ b/", path);
        emit_hunks(out, &ot, &nt, &cv);
        st = out->status;
    }
out:
    nfy_vec_free(&cv);
    nfy_vec_free(&ot.starts);
    nfy_vec_free(&nt.starts);
    return st;
}

static bool text_equal(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen == blen && (alen == 0 || !memcmp(a, b, alen));
}

nfy_status nfy_edit_set_diff(nfy_edit_set *set, const char *path,
                             const char *edited, size_t edited_len,
                             nfy_buf *out)
{
    nfy_buf tmp = NFY_BUF_INIT;
    nfy_status st = NFY_OK;
    if (!edited) {
        st = nfy_edit_set_apply(set, NULL, &tmp);
        edited = nfy_buf_cstr(&tmp);
        edited_len = tmp.len;
    }
    (void)nfy_edit_set_normalize(set, NULL);
    size_t n = set->edits.len;
    nfy_span *a = calloc(n ? n : 1, sizeof *a);
    nfy_span *b = calloc(n ? n : 1, sizeof *b);
    if (!a || !b) {
        st = NFY_ENOMEM;
        goto out;
    }
    long long delta = 0;
    for (size_t i = 0; i < n; i++) {
        const nfy_edit *e = &set->edits.items[i];
        a[i] = e->span;
        b[i].start = (uint32_t)((long long)e->span.start + delta);
        b[i].end = b[i].start + (uint32_t)e->text.len;
        delta += (long long)e->text.len - (e->span.end - e->span.start);
    }
    /* Edits that cancel out (insert a line here, delete an equal one there)
     * leave the text as it was: no diff, as `diff -u` would print. */
    if (!st && !text_equal(set->src->data, set->src->len, edited, edited_len))
        st = nfy_edit_diff_ranges(path, set->src->data, set->src->len, edited,
                                  edited_len, a, b, n, out);
out:
    free(a);
    free(b);
    nfy_buf_release(&tmp);
    return st;
}
