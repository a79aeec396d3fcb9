/*
 * Small helpers for the report writers: counting findings per rule,
 * locating a file's findings in the sorted order and printing locations.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/htab.h"
#include "report/report_internal.h"

bool nfy__report_is_change(const nfy_finding *f)
{
    return f->cat == NFY_CAT_CHANGE;
}

bool nfy__report_any_finding(const nfy_finding *f)
{
    (void)f;
    return true;
}

bool nfy__report_is_manual_finding(const nfy_finding *f)
{
    return f->cat != NFY_CAT_CHANGE && nfy_report_finding_is_manual(f);
}

bool nfy__report_is_other_finding(const nfy_finding *f)
{
    return f->cat != NFY_CAT_CHANGE && f->cat != NFY_CAT_LEFT_UNCHANGED &&
           !nfy_report_finding_is_manual(f);
}

bool nfy__report_is_left_unchanged(const nfy_finding *f)
{
    return f->cat == NFY_CAT_LEFT_UNCHANGED;
}

const char *nfy__report_empty(const char *s)
{
    return s ? s : "";
}

/* Does c end a run of nfy__report_add_oneline (a line break or the NUL)? */
static bool ends_line_run(char c)
{
    return (unsigned char)c <= '\r' && (c == '\0' || c == '\n' || c == '\r');
}

void nfy__report_add_oneline(nfy_buf *out, const char *s)
{
    s = nfy__report_empty(s);
    for (;;) {
        const char *run = s;
        while (!ends_line_run(*s))
            s++;
        if (s > run)
            nfy_buf_add(out, run, (size_t)(s - run));
        if (!*s)
            return;
        if (*s == '\r' && s[1] == '\n') /* CRLF is one break */
            s++;
        nfy_buf_addch(out, ' ');
        s++;
    }
}

/* Count per rule string pointer: findings share their report's interned
 * rules, so a few slots hold them all; equal strings behind different
 * pointers (open findings) are merged after sorting. */
typedef struct {
    nfy__rule_count *slots;
    size_t cap, used;
} rule_table;

static nfy__rule_count *rule_slot(nfy__rule_count *slots, size_t cap,
                                  const char *rule)
{
    size_t i = nfy_hash_ptr(rule) & (cap - 1);
    while (slots[i].rule && slots[i].rule != rule)
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

static void rule_table_count(rule_table *t, const char *rule)
{
    if ((t->used + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        nfy__rule_count *slots = calloc(cap, sizeof *slots);
        if (!slots)
            abort();
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i].rule)
                *rule_slot(slots, cap, t->slots[i].rule) = t->slots[i];
        free(t->slots);
        t->slots = slots;
        t->cap = cap;
    }
    nfy__rule_count *s = rule_slot(t->slots, t->cap, rule);
    if (!s->rule) {
        s->rule = rule;
        t->used++;
    }
    s->count++;
}

static int cmp_rule_count(const void *pa, const void *pb)
{
    const nfy__rule_count *a = pa, *b = pb;
    return strcmp(a->rule, b->rule);
}

void nfy__report_rule_counts(const nfy_report *rep, nfy__finding_pred pred,
                             nfy__rule_count_vec *out)
{
    rule_table t = {0};
    size_t count = nfy_report_finding_count(rep);
    for (size_t i = 0; i < count; i++) {
        nfy_finding buf;
        const nfy_finding *f = nfy__report_finding_head(rep, i, &buf);
        if (pred(f))
            rule_table_count(&t, nfy__report_empty(f->rule));
    }
    size_t n = 0;
    for (size_t i = 0; i < t.cap; i++)
        if (t.slots[i].rule)
            t.slots[n++] = t.slots[i];
    if (n > 1)
        qsort(t.slots, n, sizeof *t.slots, cmp_rule_count);
    for (size_t i = 0; i < n; i++) {
        if (out->len && !strcmp(nfy_vec_last(out)->rule, t.slots[i].rule))
            nfy_vec_last(out)->count += t.slots[i].count;
        else
            nfy_vec_push(out, t.slots[i]);
    }
    free(t.slots);
}

static int cmp_by_count(const void *pa, const void *pb)
{
    const nfy__rule_count *a = pa;
    const nfy__rule_count *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return strcmp(a->rule, b->rule);
}

void nfy__report_rule_counts_by_count(nfy__rule_count_vec *v)
{
    if (v->len > 1)
        qsort(v->items, v->len, sizeof *v->items, cmp_by_count);
}

void nfy__report_add_path_in(nfy_buf *out, const char *root, const char *file)
{
    size_t n = root ? strlen(root) : 0;
    while (n > 1 && root[n - 1] == '/')
        n--;
    if (n)
        nfy_buf_add(out, root, n);
    if (n && file && !(n == 1 && root[0] == '/'))
        nfy_buf_addch(out, '/');
    if (file)
        nfy_buf_addstr(out, file);
}

void nfy__report_add_location(nfy_buf *out, const nfy_finding *f)
{
    nfy__report_add_location_in(out, NULL, f);
}

void nfy__report_add_location_in(nfy_buf *out, const char *root,
                                 const nfy_finding *f)
{
    if (!f->file) {
        nfy_buf_addstr(out, "project");
        return;
    }
    nfy_buf path = NFY_BUF_INIT;
    nfy__report_add_path_in(&path, root, f->file);
    nfy_name_escape(out, path.data ? path.data : "", path.len);
    nfy_buf_release(&path);
    if (f->start_line) {
        nfy_buf_addch(out, ':');
        nfy_buf_addu(out, f->start_line);
        nfy_buf_addch(out, ':');
        nfy_buf_addu(out, (unsigned)(f->start_col + 1));
    }
}

void nfy__report_file_range(const nfy__sorted *v, const char *file,
                            size_t *first, size_t *end)
{
    size_t lo = 0, hi = v->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (nfy__report_strcmp(nfy__report_sorted_file(v, mid), file) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    while (lo < v->n &&
           !nfy__report_strcmp(nfy__report_sorted_file(v, lo), file))
        lo++;
    *end = lo;
}

nfy__file_counts nfy__report_file_counts(const nfy__sorted *v, const char *file)
{
    size_t first, end;
    nfy__file_counts c = {0, 0};
    nfy__report_file_range(v, file, &first, &end);
    for (size_t k = first; k < end; k++) {
        nfy_finding buf;
        c.edits += nfy__report_sorted_head(v, k, &buf)->cat == NFY_CAT_CHANGE;
    }
    c.findings = end - first - c.edits;
    return c;
}

nfy_status nfy__report_mkdir_out(const char *dir, const char *rule,
                                 const char *what, nfy_diags *diags)
{
    nfy_status st = nfy_mkdirs(dir, 0755);
    if (st && diags)
        nfy_diag_add_at(diags, NFY_SEV_ERROR, rule, dir, 0, 0,
                        "cannot create the %s directory: %s", what,
                        nfy_status_str(st));
    return st;
}
