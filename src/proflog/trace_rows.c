/*
 * From trace events to sink rows: step assignment and self time.
 *
 * Steps: the first pass collects every ProfilerStep#N window; an op belongs
 * to the window on its own thread that contains its ts, else to a window
 * of its process that does (autograd runs backward ops on another thread
 * than the one that opened the step), else to none.
 *
 * Self time is duration minus the durations of direct children on the same
 * thread. Writers emit each thread's events in start order (parents before
 * children), so a per-thread stack of open events suffices: an event is
 * complete, and goes to the sink, once a later event on its thread starts
 * after its end, or at the end of input. Memory is the nesting depth, not
 * the trace. A thread whose events go back in time is flushed and from then
 * on its rows carry self = total (the only safe upper bound).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "proflog/trace_internal.h"

/* Deeper nesting than this on one thread is taken as unsorted input. */
#define MAX_STACK 256
/* How many earlier windows a lookup walks back over. */
#define WINDOW_SCAN 64

void nfy__prof_trace_rows_init(nfy_trace_rows *r, const nfy_proflog_opts *opts,
                               size_t cap)
{
    memset(r, 0, sizeof *r);
    r->opts = opts;
    r->cap = cap;
    r->rank = NFY_PROF_RANK_NONE;
}

static void pending_release(nfy_trace_pending *p)
{
    nfy_buf_release(&p->name);
    nfy_buf_release(&p->shapes);
    nfy_buf_release(&p->site);
}

void nfy__prof_trace_rows_release(nfy_trace_rows *r)
{
    for (size_t i = 0; i < r->threads.len; i++) {
        nfy_trace_thread *t = &r->threads.items[i];
        for (size_t j = 0; j < t->cap; j++)
            pending_release(&t->stack[j]);
        free(t->stack);
    }
    nfy_vec_free(&r->threads);
    nfy_vec_free(&r->windows);
    nfy__prof_trace_devmap_release(&r->dev);
}

void nfy__prof_trace_rows_device(nfy_trace_rows *r, const nfy_trace_event *ev)
{
    if (ev->has_ext && ev->has_dur)
        nfy__prof_trace_devmap_add(&r->dev, ev->ext_id, ev->dur);
}

void nfy__prof_trace_rows_window(nfy_trace_rows *r, const nfy_trace_event *ev)
{
    int32_t n = nfy__prof_trace_step_number(nfy_buf_view(&ev->name));
    if (n < 0 || !ev->has_ts)
        return;
    nfy_trace_window w = {nfy__prof_trace_thread_key(ev),
                          nfy__prof_trace_pid_key(ev), ev->ts,
                          ev->ts + (ev->has_dur ? ev->dur : 0), n};
    /* Writers emit steps in order: appending keeps the vector sorted and
     * spares the single-pass mode a sort per step. */
    bool in_order =
        r->windows.len == 0 ||
        (r->windows_sorted && nfy_vec_last(&r->windows)->start <= w.start);
    nfy_vec_push(&r->windows, w);
    r->windows_sorted = in_order;
}

static int window_cmp(const void *a, const void *b)
{
    double x = ((const nfy_trace_window *)a)->start;
    double y = ((const nfy_trace_window *)b)->start;
    return (x > y) - (x < y);
}

/* Index one past the last window starting at or before ts. */
static size_t windows_upto(const nfy_trace_rows *r, double ts)
{
    size_t lo = 0, hi = r->windows.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->windows.items[mid].start <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int32_t find_step(nfy_trace_rows *r, const nfy_trace_event *ev)
{
    if (!r->windows.len)
        return NFY_PROF_STEP_NONE;
    if (!r->windows_sorted) {
        qsort(r->windows.items, r->windows.len, sizeof *r->windows.items,
              window_cmp);
        r->windows_sorted = true;
    }
    uint64_t thread = nfy__prof_trace_thread_key(ev),
             pid = nfy__prof_trace_pid_key(ev);
    size_t end = windows_upto(r, ev->ts);
    size_t stop = end > WINDOW_SCAN ? end - WINDOW_SCAN : 0;
    int32_t by_pid = NFY_PROF_STEP_NONE;
    for (size_t i = end; i > stop; i--) {
        const nfy_trace_window *w = &r->windows.items[i - 1];
        if (ev->ts >= w->end && ev->ts != w->start)
            continue;
        if (w->thread == thread)
            return w->step;
        if (w->pid == pid && by_pid == NFY_PROF_STEP_NONE)
            by_pid = w->step;
    }
    return by_pid;
}

static nfy_trace_thread *thread_of(nfy_trace_rows *r, uint64_t key)
{
    if (r->last_thread < r->threads.len &&
        r->threads.items[r->last_thread].key == key)
        return &r->threads.items[r->last_thread];
    for (size_t i = 0; i < r->threads.len; i++)
        if (r->threads.items[i].key == key) {
            r->last_thread = i;
            return &r->threads.items[i];
        }
    nfy_trace_thread t = {key, NULL, 0, 0, false};
    nfy_vec_push(&r->threads, t);
    r->last_thread = r->threads.len - 1;
    return nfy_vec_last(&r->threads);
}

static void emit(nfy_trace_rows *r, const nfy_trace_pending *p, double self)
{
    if (r->stopped || !r->opts->sink)
        return;
    nfy_prof_row row;
    memset(&row, 0, sizeof row);
    row.name = nfy_buf_view(&p->name);
    row.shapes = nfy_buf_view(&p->shapes);
    row.overload = row.accel_name = NFY_STR_LIT("");
    row.source_loc = nfy_buf_view(&p->site);
    row.calls = 1;
    for (int d = 0; d < NFY_PDEV__COUNT; d++) {
        row.self_us[d] = row.total_us[d] = row.self_pct[d] = NAN;
        row.mem_bytes[d] = row.self_mem_bytes[d] = NAN;
    }
    row.self_us[NFY_PDEV_CPU] = self < 0 ? 0 : self;
    row.total_us[NFY_PDEV_CPU] = p->dur;
    if (r->dev.keys.len) { /* the trace has device work: kineto names it CUDA */
        row.accel_name = NFY_STR_LIT("CUDA");
        row.self_us[NFY_PDEV_ACCEL] = p->dev_self;
        row.total_us[NFY_PDEV_ACCEL] = p->dev_self + p->dev_child;
    }
    row.flops = NAN;
    row.step = p->step;
    row.rank = r->rank;
    row.flags = p->flags;
    row.offset = p->offset;
    r->stopped = r->opts->sink(r->opts->ctx, &row);
}

static void pop(nfy_trace_rows *r, nfy_trace_thread *t)
{
    nfy_trace_pending *p = &t->stack[--t->depth];
    emit(r, p, p->dur - p->child_us);
    /* Device totals are known only once a child is complete. */
    if (t->depth)
        t->stack[t->depth - 1].dev_child += p->dev_self + p->dev_child;
}

static void fill_pending(nfy_trace_rows *r, nfy_trace_pending *p,
                         const nfy_trace_event *ev)
{
    if (!p->name.max)
        nfy_buf_init(&p->name, r->cap);
    if (!p->shapes.max)
        nfy_buf_init(&p->shapes, r->cap);
    nfy_buf_reset(&p->name);
    if (!p->site.max)
        nfy_buf_init(&p->site, r->cap);
    nfy_buf_reset(&p->shapes);
    nfy_buf_reset(&p->site);
    nfy_buf_addview(&p->site, nfy_buf_view(&ev->site));
    nfy_buf_addview(&p->name, nfy_buf_view(&ev->name));
    nfy_buf_addview(&p->shapes, nfy_buf_view(&ev->shapes));
    p->ts = ev->ts;
    p->dur = ev->has_dur && ev->dur > 0 ? ev->dur : 0;
    p->end = p->ts + p->dur;
    p->child_us = 0;
    p->dev_self = p->dev_child = 0;
    if (ev->has_ext)
        (void)nfy__prof_trace_devmap_get(&r->dev, ev->ext_id, &p->dev_self);
    p->offset = ev->offset;
    nfy_str name = nfy_buf_view(&ev->name);
    int32_t own = nfy__prof_trace_step_number(name);
    p->step = own >= 0 ? own : find_step(r, ev);
    p->flags = NFY_PROW_FROM_TRACE | NFY_PROW_RAW_EVENT;
    if (own >= 0)
        p->flags |= NFY_PROW_STEP_MARKER;
    if (ev->has_dims) {
        p->flags |= NFY_PROW_HAS_SHAPES;
        if (ev->shapes.status)
            p->flags |= NFY_PROW_SHAPES_TRUNCATED;
    }
}

static void push(nfy_trace_thread *t)
{
    if (t->depth == t->cap) {
        size_t old = t->cap;
        void *items = t->stack;
        nfy__vec_grow(&items, &t->cap, old + 1, sizeof *t->stack);
        t->stack = items;
        /* New slots hold no buffers yet (fill_pending initialises them). */
        memset(t->stack + old, 0, (t->cap - old) * sizeof *t->stack);
    }
    t->depth++;
}

static void flush_thread(nfy_trace_rows *r, nfy_trace_thread *t)
{
    while (t->depth)
        pop(r, t);
}

/* Step markers bypass the stacks: writers put them anywhere (often all
 * first), and a marker is no operator whose self time matters. */
static void emit_marker(nfy_trace_rows *r, const nfy_trace_event *ev)
{
    nfy_trace_pending p;
    memset(&p, 0, sizeof p);
    fill_pending(r, &p, ev);
    emit(r, &p, p.dur);
    pending_release(&p);
}

void nfy__prof_trace_rows_event(nfy_trace_rows *r, const nfy_trace_event *ev)
{
    if (nfy__prof_trace_step_number(nfy_buf_view(&ev->name)) >= 0) {
        emit_marker(r, ev);
        return;
    }
    nfy_trace_thread *t = thread_of(r, nfy__prof_trace_thread_key(ev));
    if (!t->unsorted && t->depth &&
        (ev->ts < t->stack[t->depth - 1].ts || t->depth >= MAX_STACK)) {
        flush_thread(r, t);
        t->unsorted = true;
        if (r->opts->diags)
            nfy_diag_add_at(r->opts->diags, NFY_SEV_NOTE, "trace-unsorted",
                            r->path, 0, 0,
                            "events of thread %.*s:%.*s are not in start "
                            "order (byte %llu); their self time is reported "
                            "as their total time",
                            NFY_STR_FMT(nfy_buf_view(&ev->pid)),
                            NFY_STR_FMT(nfy_buf_view(&ev->tid)),
                            (unsigned long long)ev->offset);
    }
    while (t->depth && ev->ts >= t->stack[t->depth - 1].end)
        pop(r, t);
    push(t);
    nfy_trace_pending *p = &t->stack[t->depth - 1];
    fill_pending(r, p, ev);
    if (t->depth > 1)
        t->stack[t->depth - 2].child_us += p->dur;
    if (t->unsorted)
        pop(r, t);
}

void nfy__prof_trace_rows_flush(nfy_trace_rows *r)
{
    for (size_t i = 0; i < r->threads.len; i++)
        flush_thread(r, &r->threads.items[i]);
}
