/*
 * The training program rows of a report (src/train adds them): their one
 * order (file, line, kind), and the short console view analyse prints so a
 * person sees what the tool understood of each script.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

static int training_order(const void *a, const void *b)
{
    const nfy_report_training_row *x =
        *(const nfy_report_training_row *const *)a;
    const nfy_report_training_row *y =
        *(const nfy_report_training_row *const *)b;
    int c = strcmp(x->file, y->file);
    if (c == 0)
        c = (x->line > y->line) - (x->line < y->line);
    return c ? c : strcmp(x->kind, y->kind);
}

size_t nfy_report_training_sorted(const nfy_report *rep,
                                  const nfy_report_training_row ***out)
{
    size_t n = rep->training.len;
    const nfy_report_training_row **rows = malloc((n + 1) * sizeof *rows);
    if (rows == NULL)
        abort();
    for (size_t i = 0; i < n; i++)
        rows[i] = &rep->training.items[i];
    qsort(rows, n, sizeof *rows, training_order);
    *out = rows;
    return n;
}

/* What the console shows of a script, in this order: what --distributed
 * and --amp act on; the other kinds are counted (report.json and
 * summary.md list them). */
static const char *const shown[] = {"module",       "optimizer",   "scheduler",
                                    "train_loader", "eval_loader", "epoch_loop",
                                    "step",         "clip"};
enum { NSHOWN = sizeof shown / sizeof shown[0] };

static bool is_shown(const char *kind)
{
    for (size_t i = 0; i < NSHOWN; i++)
        if (strcmp(kind, shown[i]) == 0)
            return true;
    return false;
}

static void console_row(nfy_buf *out, const nfy_report_training_row *r)
{
    nfy_buf_addf(out, "  %-12s %s:%u  %s", r->kind, r->file, (unsigned)r->line,
                 r->text);
    if (r->note != NULL)
        nfy_buf_addf(out, "  (%s)", r->note);
    nfy_buf_addch(out, '\n');
}

/* The console lines of one file's rows [i, j), kind by kind. */
static void file_rows(nfy_buf *out, const nfy_report_training_row **r, size_t i,
                      size_t j)
{
    size_t others = 0;
    nfy_buf_addf(out, "training program of %s:\n", r[i]->file);
    for (size_t s = 0; s < NSHOWN; s++)
        for (size_t k = i; k < j; k++)
            if (strcmp(r[k]->kind, shown[s]) == 0)
                console_row(out, r[k]);
    for (size_t k = i; k < j; k++)
        others += !is_shown(r[k]->kind);
    if (others > 0)
        nfy_buf_addf(out,
                     "  and %zu logging, checkpoint, progress-bar and seeding "
                     "%s (report.json \"training\")\n",
                     others, others == 1 ? "site" : "sites");
}

void nfy_report_render_training(const nfy_report *rep, nfy_buf *out)
{
    const nfy_report_training_row **rows;
    size_t n = nfy_report_training_sorted(rep, &rows);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && strcmp(rows[j]->file, rows[i]->file) == 0;)
            j++;
        file_rows(out, rows, i, j);
    }
    free(rows);
}
