/* --verbose lines (verbose.h). */
#include "cli/verbose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nfy_cli_verbose_files(const nfy_report *rep, const char *changed,
                           nfy_buf *out)
{
    for (size_t i = 0; i < rep->files.len; i++) {
        const nfy_report_file *f = &rep->files.items[i];
        if (f->status == NFY_FILE_CONVERTED)
            nfy_buf_addf(out, "%s: %s\n", changed, f->file);
        else if (f->status == NFY_FILE_ERROR)
            nfy_buf_addf(out, "error: %s%s%s\n", f->file, f->note ? ": " : "",
                         f->note ? f->note : "");
    }
}

typedef struct {
    const char *rule;
    size_t count;
} rule_count;

static int by_rule(const void *a, const void *b)
{
    return strcmp(((const rule_count *)a)->rule, ((const rule_count *)b)->rule);
}

static int by_count(const void *a, const void *b)
{
    const rule_count *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->rule, y->rule);
}

void nfy_cli_verbose_rules(const nfy_report *rep, nfy_buf *out)
{
    size_t n = 0, total = nfy_report_finding_count(rep);
    rule_count *rc = calloc(total + 1, sizeof *rc);
    if (!rc)
        abort();
    for (size_t i = 0; i < total; i++) {
        nfy_finding f; /* sealed or open: its strings are the report's */
        nfy_report_finding_read(rep, i, &f);
        if (f.cat == NFY_CAT_CHANGE)
            rc[n++] = (rule_count){f.rule, 1};
    }
    /* Sort by ID to add up equal IDs, then by count for the line. */
    qsort(rc, n, sizeof *rc, by_rule);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && !strcmp(rc[m - 1].rule, rc[i].rule))
            rc[m - 1].count++;
        else
            rc[m++] = rc[i];
    }
    qsort(rc, m, sizeof *rc, by_count);
    nfy_buf_addstr(out, "rules:");
    for (size_t i = 0; i < m; i++)
        nfy_buf_addf(out, "%s %s x%zu", i ? "," : "", rc[i].rule, rc[i].count);
    nfy_buf_addstr(out, m ? "\n" : " none\n");
    free(rc);
}

void nfy_cli_verbose_print(const nfy_report *rep, const char *changed)
{
    nfy_buf v = NFY_BUF_INIT;
    nfy_cli_verbose_files(rep, changed, &v);
    nfy_cli_verbose_rules(rep, &v);
    fputs(nfy_buf_cstr(&v), stdout);
    nfy_buf_release(&v);
}
