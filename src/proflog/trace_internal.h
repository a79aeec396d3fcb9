/*
 * Private pieces of the chrome-trace reader: one parsed event (reused for
 * every event, so the steady state allocates nothing), the step windows
 * found in a first pass, and the per-thread stacks that compute self time
 * (duration minus direct children) before a row goes to the sink.
 */
#ifndef NPUIFY_PROFLOG_TRACE_INTERNAL_H
#define NPUIFY_PROFLOG_TRACE_INTERNAL_H

#include "core/htab.h"
#include "core/json_lex.h"
#include "proflog/proflog.h"

/* One event object; every text field is capped (see trace_event_init). */
typedef struct {
    nfy_buf name, cat, ph, pid, tid, shapes;
    nfy_buf site; /* first user frame of args "Call stack", or empty */
    double ts, dur;
    int64_t ext_id; /* args "External id", links kernels to their op */
    bool has_ts, has_dur, has_dims, has_ext;
    bool cut;      /* some field was longer than its cap */
    bool repaired; /* invalid string content kept (legacy writer) */
    bool light;    /* step-window pass: only step markers are read fully */
    bool done;     /* the light pass skipped the rest of the object */
    uint64_t offset;
} nfy_trace_event;

void nfy__prof_trace_event_init(nfy_trace_event *ev, size_t cap);
void nfy__prof_trace_event_release(nfy_trace_event *ev);
void nfy__prof_trace_event_reset(nfy_trace_event *ev);
/**
 * Parse the object whose "{" was just read into ev. depth is the object's
 * nesting. False on a grammar error (lx->error, lx->tok_offset).
 */
bool nfy__prof_trace_event_parse(nfy_json_lex *lx, nfy_trace_event *ev,
                                 int depth);
/** Is it an operator-like event the sink wants (ph X, cat cpu_op...)? */
bool nfy__prof_trace_event_wanted(const nfy_trace_event *ev);
/** Is it device work (cat kernel, gpu_memcpy, gpu_memset, any case)? */
bool nfy__prof_trace_event_is_device(const nfy_trace_event *ev);
/** N of "ProfilerStep#N", or -1 when the name is not a step marker. */
int32_t nfy__prof_trace_step_number(nfy_str name);
/** 64-bit key of the event's (pid, tid) and of its pid alone. */
uint64_t nfy__prof_trace_thread_key(const nfy_trace_event *ev);
uint64_t nfy__prof_trace_pid_key(const nfy_trace_event *ev);

/* ---- Device time per External id (first pass; trace_device.c) ----------- */

/* A map from a CPU op's "External id" to the summed duration of the
 * kernels, copies and sets it launched (core's table over rows of ids and
 * sums). Memory grows with the number of ops that launch device work, not
 * with the trace. */
typedef struct {
    NFY_VEC(int64_t) keys;
    NFY_VEC(double) us;
    nfy_htab by_key; /* rows of keys and us */
} nfy_trace_devmap;

void nfy__prof_trace_devmap_add(nfy_trace_devmap *m, int64_t ext, double us);
/** Device time of ext; false when it launched nothing. */
bool nfy__prof_trace_devmap_get(const nfy_trace_devmap *m, int64_t ext,
                                double *us);
void nfy__prof_trace_devmap_release(nfy_trace_devmap *m);

/* ---- Step windows (first pass) and self-time stacks --------------------- */

typedef struct {
    uint64_t thread, pid;
    double start, end;
    int32_t step;
} nfy_trace_window;

typedef NFY_VEC(nfy_trace_window) nfy_trace_window_vec;

/* A row kept until its children are known; owns copies of its strings. */
typedef struct {
    nfy_buf name, shapes, site;
    double ts, end, dur, child_us;
    double dev_self, dev_child; /* device time: own kernels, children's */
    int32_t step;
    uint32_t flags;
    uint64_t offset;
} nfy_trace_pending;

typedef struct {
    uint64_t key;
    nfy_trace_pending *stack; /* open events, outermost first */
    size_t depth, cap;
    bool unsorted; /* events went back in time: no self time from here */
} nfy_trace_thread;

typedef NFY_VEC(nfy_trace_thread) nfy_trace_thread_vec;

typedef struct {
    nfy_trace_window_vec windows;
    nfy_trace_devmap dev; /* empty unless the trace has device events */
    nfy_trace_thread_vec threads;
    const nfy_proflog_opts *opts;
    const char *path; /* for diagnostics */
    bool windows_sorted;
    int32_t rank;
    size_t cap;         /* field cap for pending copies */
    size_t last_thread; /* index of the last thread used (cache) */
    int stopped;        /* the sink asked to stop */
} nfy_trace_rows;

void nfy__prof_trace_rows_init(nfy_trace_rows *r, const nfy_proflog_opts *opts,
                               size_t cap);
void nfy__prof_trace_rows_release(nfy_trace_rows *r);
/** First pass: remember a kernel's duration under its External id. */
void nfy__prof_trace_rows_device(nfy_trace_rows *r, const nfy_trace_event *ev);
/** First pass: remember a ProfilerStep#N window. */
void nfy__prof_trace_rows_window(nfy_trace_rows *r, const nfy_trace_event *ev);
/** Second pass: an operator event; rows reach the sink once complete. */
void nfy__prof_trace_rows_event(nfy_trace_rows *r, const nfy_trace_event *ev);
/** End of input: emit everything still open. */
void nfy__prof_trace_rows_flush(nfy_trace_rows *r);

/**
 * nfy_prof_read_trace over memory (tests and fuzzing). max_read > 0
 * hands the lexer at most that many bytes per read, so that every token
 * and every lookahead crosses refills; 0 reads normally.
 */
nfy_status nfy__prof_read_trace_mem(const void *data, size_t len,
                                    const nfy_proflog_opts *opts,
                                    size_t max_read);

#endif
