/*
 * Small helpers for the report writers: counting findings per rule,
 * locating a file's findings in the sorted order and printing locations.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

bool nfy__is_change(const nfy_finding *f)
{
    return f->cat == NFY_CAT_CHANGE;
}

bool nfy__any_finding(const nfy_finding *f)
{
    (void)f;
    return true;
}

bool nfy__is_manual_finding(const nfy_finding *f)
{
    return f->cat != NFY_CAT_CHANGE && nfy_finding_is_manual(f);
}

bool nfy__is_other_finding(const nfy_finding *f)
{
    return f->cat != NFY_CAT_CHANGE && f->cat != NFY_CAT_LEFT_UNCHANGED &&
           !nfy_finding_is_manual(f);
}

bool nfy__is_left_unchanged(const nfy_finding *f)
{
    return f->cat == NFY_CAT_LEFT_UNCHANGED;
}

const char *nfy__or_empty(const char *s)
{
    return s ? s : "";
}

/* Does c end a run of nfy__add_oneline (a line break or the NUL)? */
static bool ends_line_run(char c)
{
    return (unsigned char)c <= '\r' && (c == '\0' || c == '\n' || c == '\r');
}

void nfy__add_oneline(nfy_buf *out, const char *s)
{
    s = nfy__or_empty(s);
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

static int cmp_rule_name(const void *pa, const void *pb)
{
    const char *const *a = pa;
    const char *const *b = pb;
    return strcmp(*a, *b);
}

void nfy__rule_counts(const nfy_report *rep, nfy__finding_pred pred,
                      nfy__rule_count_vec *out)
{
    size_t n = 0;
    size_t count = nfy_report_finding_count(rep);
    const char **ids = calloc(count + 1, sizeof *ids);
    if (!ids)
        abort();
    for (size_t i = 0; i < count; i++) {
        nfy_finding buf;
        const nfy_finding *f = nfy__report_finding_head(rep, i, &buf);
        if (pred(f))
            ids[n++] = nfy__or_empty(f->rule);
    }
    if (n > 1)
        qsort(ids, n, sizeof *ids, cmp_rule_name);
    for (size_t i = 0; i < n; i++) {
        if (out->len && !strcmp(nfy_vec_last(out)->rule, ids[i])) {
            nfy_vec_last(out)->count++;
        } else {
            nfy__rule_count rc = {ids[i], 1};
            nfy_vec_push(out, rc);
        }
    }
    free(ids);
}

static int cmp_by_count(const void *pa, const void *pb)
{
    const nfy__rule_count *a = pa;
    const nfy__rule_count *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return strcmp(a->rule, b->rule);
}

void nfy__rule_counts_by_count(nfy__rule_count_vec *v)
{
    if (v->len > 1)
        qsort(v->items, v->len, sizeof *v->items, cmp_by_count);
}

void nfy__add_location(nfy_buf *out, const nfy_finding *f)
{
    if (!f->file) {
        nfy_buf_addstr(out, "NA");
        return;
    }
    nfy_buf_addstr(out, f->file);
    if (f->start_line) {
        nfy_buf_addch(out, ':');
        nfy_buf_addu(out, f->start_line);
        nfy_buf_addch(out, ':');
        nfy_buf_addu(out, (unsigned)(f->start_col + 1));
    }
}

void nfy__file_range(const nfy__sorted *v, const char *file, size_t *first,
                     size_t *end)
{
    size_t lo = 0, hi = v->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (nfy__report_strcmp(nfy__sorted_file(v, mid), file) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    while (lo < v->n && !nfy__report_strcmp(nfy__sorted_file(v, lo), file))
        lo++;
    *end = lo;
}
