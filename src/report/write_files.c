/*
 * nfy_report_write: every selected report file rendered straight into its
 * temporary, a block at a time (a report of a huge tree is never held
 * whole), and put in place only once complete, so an interrupted run never
 * leaves a half-written report. The files are independent readers of one
 * sorted view, so with jobs > 1 they are rendered on that many threads;
 * each file's diagnostics are kept apart and appended in the files' fixed
 * order, so the outcome does not depend on the threads.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

/* The report's text files (one per format but CSV: log, JSON, md, SARIF,
 * HTML), then the CSVs. */
enum {
    TEXT_FILES = NFY_REPORT_FORMAT_COUNT - 1,
    MAX_TASKS = TEXT_FILES + NFY_CSV_COUNT
};

typedef struct {
    const char *name;
    nfy__render_fn fn; /* NULL for a CSV file */
    nfy_csv_kind k;    /* the CSV file's kind */
    int rank;          /* where its diagnostics go among the others' */
    nfy_status st;
    nfy_diags diags; /* this file's, appended to the caller's in order */
} report_task;

typedef struct {
    const nfy__sorted *v;
    const char *dir;
    report_task *tasks;
    size_t ntasks;
    size_t next; /* the next task to take, under lock */
    pthread_mutex_t lock;
} task_queue;

static nfy_status to_stream(void *ctx, const char *data, size_t len)
{
    return nfy_file_stream_write(ctx, data, len);
}

static void render_task(const nfy__sorted *v, const char *dir, report_task *t)
{
    nfy_arena a = NFY_ARENA_INIT;
    const char *path = nfy_path_join(&a, dir, t->name);
    nfy_file_stream fs;
    nfy_status st = nfy_file_stream_open(
        &fs, path, (nfy_write_opts){.mode = 0644, .flags = NFY_WRITE_SYNC});
    if (!st) {
        nfy_buf b = NFY_BUF_INIT;
        b.sink = to_stream;
        b.sink_ctx = &fs;
        if (t->fn)
            t->fn(v, &b);
        else
            nfy__report_render_csv(v, t->k, &b);
        st = nfy_buf_flush(&b);
        nfy_buf_release(&b);
        if (st)
            nfy_file_stream_abort(&fs);
        else
            st = nfy_file_stream_commit(&fs);
    }
    if (st)
        nfy_diag_add_at(&t->diags, NFY_SEV_ERROR, "report-write", path, 0, 0,
                        "cannot write report file: %s", nfy_status_str(st));
    t->st = st;
    nfy_arena_release(&a);
}

static void *render_tasks(void *arg)
{
    task_queue *q = arg;
    for (;;) {
        pthread_mutex_lock(&q->lock);
        size_t i = q->next < q->ntasks ? q->next++ : q->ntasks;
        pthread_mutex_unlock(&q->lock);
        if (i == q->ntasks)
            return NULL;
        render_task(q->v, q->dir, &q->tasks[i]);
    }
}

/* Run the queue on `threads` threads, the calling one included; where a
   thread cannot be started, the ones that did (at least the caller) take
   its share. */
static void run_queue(task_queue *q, unsigned threads)
{
    enum { MAX_HELPERS = 15 };
    pthread_t helpers[MAX_HELPERS];
    unsigned want = threads > 1 ? threads - 1 : 0, started = 0;
    if (want > MAX_HELPERS)
        want = MAX_HELPERS;
    if (want > q->ntasks)
        want = (unsigned)q->ntasks;
    while (started < want &&
           pthread_create(&helpers[started], NULL, render_tasks, q) == 0)
        started++;
    render_tasks(q);
    for (unsigned i = 0; i < started; i++)
        pthread_join(helpers[i], NULL);
}

/* The selected files, the largest renderers first so the threads finish
   close together. Their diagnostics keep the order the files were written
   in before they could run on threads: CSVs, then log, JSON, md, SARIF,
   HTML (rank). */
static size_t select_tasks(unsigned formats, report_task *tasks)
{
    static const struct {
        unsigned bit;
        const char *name;
        nfy__render_fn fn;
        int rank;
    } table[TEXT_FILES] = {
        {NFY_REPORT_MD, "summary.md", nfy__report_render_md, 2},
        {NFY_REPORT_HTML, "report.html", nfy__report_render_html, 4},
        {NFY_REPORT_JSON, "report.json", nfy__report_render_json, 1},
        {NFY_REPORT_SARIF, "report.sarif", nfy__report_render_sarif, 3},
        {NFY_REPORT_LOG, "npuify.log", nfy__report_render_log, 0}};
    size_t n = 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (formats & table[i].bit)
            tasks[n++] = (report_task){.name = table[i].name,
                                       .fn = table[i].fn,
                                       .rank = NFY_CSV_COUNT + table[i].rank};
    if (formats & NFY_REPORT_CSV)
        for (int k = 0; k < NFY_CSV_COUNT; k++)
            tasks[n++] =
                (report_task){.name = nfy_report_csv_file_name((nfy_csv_kind)k),
                              .k = (nfy_csv_kind)k,
                              .rank = k};
    for (size_t i = 0; i < n; i++)
        nfy_diags_init(&tasks[i].diags);
    return n;
}

static nfy_status gather(report_task *tasks, size_t n, nfy_diags *diags)
{
    const report_task *by_rank[MAX_TASKS] = {0};
    for (size_t i = 0; i < n; i++)
        by_rank[tasks[i].rank] = &tasks[i];
    nfy_status first = NFY_OK;
    for (int rank = 0; rank < MAX_TASKS; rank++) {
        const report_task *t = by_rank[rank];
        if (!t)
            continue;
        if (t->st && !first)
            first = t->st;
        if (diags)
            nfy_diags_append(diags, &t->diags, 0, t->diags.items.len);
    }
    for (size_t i = 0; i < n; i++)
        nfy_diags_release(&tasks[i].diags);
    return first;
}

nfy_status nfy_report_write_jobs(const nfy_report *rep, const char *dir,
                                 unsigned formats, unsigned jobs,
                                 nfy_diags *diags)
{
    nfy_status st = nfy__report_mkdir_out(dir, "report-write", "report", diags);
    if (st)
        return st;
    report_task tasks[MAX_TASKS];
    size_t n = select_tasks(formats, tasks);
    nfy__sorted v; /* one order for every file written */
    nfy__report_sorted_init(&v, rep);
    task_queue q = {.v = &v, .dir = dir, .tasks = tasks, .ntasks = n};
    pthread_mutex_init(&q.lock, NULL);
    run_queue(&q, jobs);
    pthread_mutex_destroy(&q.lock);
    nfy__report_sorted_release(&v);
    return gather(tasks, n, diags);
}

nfy_status nfy_report_write(const nfy_report *rep, const char *dir,
                            unsigned formats, nfy_diags *diags)
{
    return nfy_report_write_jobs(rep, dir, formats, 1, diags);
}
