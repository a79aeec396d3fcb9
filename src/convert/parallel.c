/*
 * convert --jobs N: the same conversion on N threads, with the same output.
 *
 * The calling thread is one of the N: it walks (the walk decides the
 * order) and lists the entries as it goes, creating directories right
 * there, so they exist before any file is written into them; N - 1 workers
 * take the next listed entry and convert it with the ordinary per-entry
 * code, but into the entry's own report, diagnostics, diff and stats (and
 * their own project facts). Once the walk is a window ahead, the calling
 * thread merges the finished entries strictly in walk order and, while the
 * next one in order is not finished, converts an entry itself rather than
 * wait, so N threads stay busy on N cores. The merged report, the
 * diagnostics (walk diagnostics included, at the place where the walk
 * issued them), the diff and the stats are exactly those of the sequential
 * walk. Scripts of LARGE_BYTES or more are the calling thread's: a worker
 * goes on past one, and while the calling thread converts it (the merge
 * and the walk waiting for it) the workers may take all that is listed.
 * Each thread keeps one converter for the run (the umask, the output
 * directories along its path open); merged chunks of entries are freed,
 * so memory holds a window of entries, not the tree. Nothing here is
 * global: the shared state is one job_list under one mutex.
 */
#include <pthread.h>
#ifdef __GLIBC__
#    include <malloc.h>
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "convert/convert_internal.h"

/* How many entries each worker may be ahead of the in-order merge. */
enum { AHEAD_PER_JOB = 64 };
/* A script at least this large leaves enough freed memory to hand back;
 * each trim makes every thread fault its free pages in again, so smaller
 * ones would cost more than they return. */
enum { TRIM_AFTER_BYTES = 1 << 20 };
/* A script this large is converted by the calling thread only. Its
 * front-end state is some 17 times its size, and a thread's freed memory
 * stays with that thread: on a worker it would stay the worker's for the
 * rest of the run, on the calling thread it holds the report as it grows.
 * So two large files are never converted at once either. */
enum { LARGE_BYTES = 256 << 10 };
/* Entries are kept in chunks, so an entry never moves once listed; a chunk
 * is freed once all its entries are merged, so the run holds only the
 * window's entries, not the whole tree's. */
enum { CHUNK = 256 };

/* One walk entry and, once converted, what it produced. */
typedef struct {
    nfy_walk_entry e;  /* path and rel live in the list's arena */
    size_t walk_diags; /* walk diagnostics issued before this entry */
    nfy_report rep;
    nfy_diags diags;
    nfy_buf diff;
    nfy_convert_stats stats;
    nfy_status write_rc;
    bool large; /* a script for the calling thread only */
    bool taken; /* large: the calling thread has it (under mu) */
    bool done;  /* under mu once listed */
} job_item;

typedef struct {
    job_item items[CHUNK];
    nfy_arena names; /* paths of its entries */
} job_chunk;

typedef struct {
    nfy__converter *main;        /* the run's converter: the merge target */
    NFY_VEC(job_chunk *) chunks; /* resized under mu; merged ones NULL */
    nfy_diags walk_diags;        /* the walk's own diagnostics */
    size_t walk_flushed;         /* how many of them are merged */
    pthread_mutex_t mu;
    pthread_cond_t work_cv; /* more entries listed, or the merge went on */
    pthread_cond_t done_cv; /* an entry finished: the merge may go on */
    size_t listed;          /* entries listed so far */
    bool walk_done;         /* no more entries will come */
    size_t next;            /* next entry to take */
    size_t merged;          /* entries merged so far */
    size_t ahead;           /* how far next may run past merged */
    bool large_busy;        /* the calling thread converts a large one */
    size_t large_left;      /* large ones the workers went past, not taken */
    nfy__converter self;    /* the calling thread's, over main's passes */
} job_list;

typedef struct {
    job_list *jl;
    nfy__converter c;          /* kept across its entries */
    nfy_convert_passes passes; /* own project facts, merged at the end */
    pthread_t tid;
} worker;

/* Entry i; the chunk table may be resized, so under mu or by the walker. */
static job_item *item_at(const job_list *jl, size_t i)
{
    return &jl->chunks.items[i / CHUNK]->items[i % CHUNK];
}

static job_chunk *chunk_of(const job_list *jl, size_t i)
{
    return jl->chunks.items[i / CHUNK];
}

/* A thread's converter for the whole run: the main one's output root and
 * umask (modes given at creation), and its own kept output directories. */
static void thread_converter(const nfy__converter *m, nfy_convert_passes *p,
                             nfy__converter *tc)
{
    *tc = (nfy__converter){.o = m->o,
                           .passes = p,
                           .dst = m->dst,
                           .root_fd = m->root_fd,
                           .umask_known = m->umask_known,
                           .umask = m->umask,
                           .cache_dirs = true,
                           .kept_max = m->kept_max};
}

/* Convert one entry with the thread's converter into its own results. */
static void run_item(job_list *jl, nfy__converter *tc, job_item *it)
{
    tc->rep = &it->rep;
    tc->diff_out = jl->main->diff_out ? &it->diff : NULL;
    tc->stats = &it->stats;
    tc->diags = &it->diags;
    tc->write_rc = NFY_OK;
    /* Asked to stop: entries not begun stay untouched (and unreported). */
    if (!nfy__convert_stopping(tc))
        nfy__convert_entry(tc, &it->e);
    it->write_rc = tc->write_rc;
#ifdef __GLIBC__
    /* glibc keeps a thread's freed blocks in its arena: without this each
     * thread would hold the peak of the largest file it ever converted. */
    if (it->stats.files_scanned && it->e.size >= TRIM_AFTER_BYTES)
        malloc_trim(0);
#endif
}

/* A fresh slot for entry jl->listed, not yet visible to the workers. */
static job_item *new_slot(job_list *jl)
{
    if (jl->listed % CHUNK == 0) {
        job_chunk *chunk = calloc(1, sizeof *chunk);
        if (!chunk)
            abort();
        nfy_arena_init(&chunk->names);
        pthread_mutex_lock(&jl->mu);
        nfy_vec_push(&jl->chunks, chunk);
        pthread_mutex_unlock(&jl->mu);
    }
    return item_at(jl, jl->listed);
}

static void drain(job_list *jl, size_t keep);

/* A file that may be a script (by its name) and is large. */
static bool is_large(const nfy_walk_entry *e)
{
    if (e->kind != NFY_WALK_FILE || e->size < LARGE_BYTES ||
        e->size > NFY__MAX_SCRIPT_BYTES)
        return false;
    const char *slash = strrchr(e->rel, '/');
    const char *base = slash ? slash + 1 : e->rel;
    return nfy__convert_kind_needs_head(base) ||
           nfy__convert_classify(base, "", 0) != NFY_FILE_KIND_OTHER;
}

static int list_entry(void *ctx, const nfy_walk_entry *e)
{
    job_list *jl = ctx;
    if (nfy__convert_stopping(jl->main))
        return 1;
    if (nfy__convert_skipped(jl->main, e->rel))
        return 0;
    job_item *it = new_slot(jl);
    nfy_arena *names = &chunk_of(jl, jl->listed)->names;
    it->e = *e;
    it->e.path = nfy_arena_strdup(names, e->path);
    it->e.rel = nfy_arena_strdup(names, e->rel);
    it->walk_diags = jl->walk_diags.items.len;
    it->large = is_large(e);
    nfy_report_init(&it->rep);
    nfy_diags_init(&it->diags);
    nfy_buf_init(&it->diff, jl->main->diff_out ? jl->main->diff_out->max : 0);
    /* Parents before children: create directories during the walk. */
    bool is_dir = e->kind == NFY_WALK_DIR;
    if (is_dir)
        run_item(jl, &jl->self, it);
    pthread_mutex_lock(&jl->mu);
    it->done = is_dir;
    jl->listed++;
    if (!is_dir)
        pthread_cond_signal(&jl->work_cv);
    pthread_mutex_unlock(&jl->mu);
    /* The walk lists no further than a window past the merge, so a slow
     * conversion never lets it list the whole tree in memory. */
    drain(jl, jl->ahead + CHUNK);
    return 0;
}

/* Whether entry next may be taken now by the calling thread (caller) or
 * a worker, past directories (converted, and perhaps merged and freed,
 * during the walk). Under mu. */
static bool next_ready(job_list *jl, bool caller)
{
    if (jl->next < jl->merged)
        jl->next = jl->merged;
    /* While the calling thread converts a large script, neither the merge
     * nor the walk goes on: the workers may take all that is listed (the
     * walk's window bounds it), rather than wait at the merge's. */
    size_t limit = jl->large_busy ? jl->listed : jl->merged + jl->ahead;
    while (jl->next < jl->listed && jl->next < limit) {
        const job_item *it = item_at(jl, jl->next);
        if (it->e.kind != NFY_WALK_DIR && (caller || !it->large))
            return true;
        /* A large one is left for the calling thread (try_take): a worker
         * goes on past it rather than wait. */
        jl->large_left += it->e.kind != NFY_WALK_DIR;
        jl->next++;
    }
    return false;
}

/* The first large entry the workers went past, not yet taken. Under mu. */
static job_item *left_large(job_list *jl)
{
    for (size_t i = jl->merged; jl->large_left && i < jl->next; i++) {
        job_item *it = item_at(jl, i);
        if (it->large && !it->taken) {
            jl->large_left--;
            return it;
        }
    }
    return NULL;
}

/* Mark the entry a thread converted as finished. Under mu. */
static void finish_item(job_list *jl, job_item *it)
{
    it->done = true;
    pthread_cond_signal(&jl->done_cv);
}

/* Finish the worker's last entry and take its next one, in one round trip,
 * waiting for one; NULL when all are taken. */
static job_item *swap_item(job_list *jl, job_item *finished)
{
    pthread_mutex_lock(&jl->mu);
    if (finished)
        finish_item(jl, finished);
    for (;;) {
        if (next_ready(jl, false))
            break;
        if (jl->walk_done && jl->next >= jl->listed) {
            pthread_mutex_unlock(&jl->mu);
            return NULL;
        }
        pthread_cond_wait(&jl->work_cv, &jl->mu);
    }
    job_item *it = item_at(jl, jl->next++);
    pthread_mutex_unlock(&jl->mu);
    return it;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    job_list *jl = w->jl;
    job_item *it = NULL;
    while ((it = swap_item(jl, it)))
        run_item(jl, &w->c, it);
    nfy__convert_forget_dir(&w->c);
    return NULL;
}

static void stats_add(nfy_convert_stats *dst, const nfy_convert_stats *src)
{
    dst->files_seen += src->files_seen;
    dst->files_scanned += src->files_scanned;
    dst->files_changed += src->files_changed;
    dst->files_error += src->files_error;
}

/* Fold one finished entry into the run, then free its results. */
static void merge_item(job_list *jl, job_item *it)
{
    nfy__converter *m = jl->main;
    nfy_diags_append(m->diags, &jl->walk_diags, jl->walk_flushed,
                     it->walk_diags);
    jl->walk_flushed = it->walk_diags;
    nfy_report_merge(m->rep, &it->rep);
    nfy_report_seal(m->rep);
    nfy_diags_append(m->diags, &it->diags, 0, it->diags.items.len);
    m->diags->dropped += it->diags.dropped;
    if (m->diff_out && it->diff.len &&
        nfy_buf_add(m->diff_out, it->diff.data, it->diff.len) &&
        !it->write_rc) {
        /* Past the cap only together: say so where the serial run would. */
        nfy_diag_add_at(m->diags, NFY_SEV_ERROR, "convert-write", "(diff)", 0,
                        0, "cannot write: %s", nfy_status_str(NFY_ELIMIT));
        it->write_rc = NFY_EIO;
    }
    stats_add(m->stats, &it->stats);
    if (it->write_rc && !m->write_rc)
        m->write_rc = it->write_rc;
    nfy_report_release(&it->rep);
    nfy_diags_release(&it->diags);
    nfy_buf_release(&it->diff);
    if (m->o->progress)
        m->o->progress(m->o->progress_user, it->e.rel);
}

static void free_chunk(job_chunk *chunk)
{
    if (!chunk)
        return;
    nfy_arena_release(&chunk->names);
    free(chunk);
}

/* Free chunk k once every entry in it is merged (workers never touch an
 * entry after marking it done, and the merge is past it). */
static void retire_chunk(job_list *jl, size_t k)
{
    pthread_mutex_lock(&jl->mu);
    job_chunk *chunk = jl->chunks.items[k];
    jl->chunks.items[k] = NULL;
    pthread_mutex_unlock(&jl->mu);
    free_chunk(chunk);
}

/* How many entries from the merge point on are finished, in a row; with
 * wait, waits until there is at least one. */
static size_t finished_run(job_list *jl, bool wait)
{
    pthread_mutex_lock(&jl->mu);
    while (wait && !item_at(jl, jl->merged)->done)
        pthread_cond_wait(&jl->done_cv, &jl->mu);
    size_t n = 0;
    while (jl->merged + n < jl->listed && item_at(jl, jl->merged + n)->done)
        n++;
    pthread_mutex_unlock(&jl->mu);
    return n;
}

/* Merge the n finished entries from the merge point on, in walk order. */
static void merge_run(job_list *jl, size_t n)
{
    size_t from = jl->merged;
    for (size_t i = 0; i < n; i++)
        merge_item(jl, item_at(jl, from + i));
    pthread_mutex_lock(&jl->mu);
    jl->merged = from + n;
    pthread_cond_broadcast(&jl->work_cv);
    pthread_mutex_unlock(&jl->mu);
    for (size_t k = from / CHUNK; k < (from + n) / CHUNK; k++)
        retire_chunk(jl, k);
}

/* An entry the calling thread may convert now, or NULL. */
static job_item *try_take(job_list *jl)
{
    pthread_mutex_lock(&jl->mu);
    /* A large one the workers went past first: the merge waits for it. */
    job_item *it = left_large(jl);
    if (!it && next_ready(jl, true))
        it = item_at(jl, jl->next++);
    /* The workers may go on through all that is listed meanwhile. */
    if (it && it->large) {
        it->taken = true;
        jl->large_busy = true;
        pthread_cond_broadcast(&jl->work_cv);
    }
    pthread_mutex_unlock(&jl->mu);
    return it;
}

/*
 * Merge the finished entries that come next in walk order; while more than
 * keep listed entries are unmerged (keep 0: all), convert one here, or,
 * when the workers have taken every one within reach, wait for the next
 * in order.
 */
static void drain(job_list *jl, size_t keep)
{
    for (;;) {
        size_t n = finished_run(jl, false);
        if (n)
            merge_run(jl, n);
        if (jl->listed - jl->merged <= keep)
            return;
        job_item *it = try_take(jl);
        if (it) {
            run_item(jl, &jl->self, it);
            pthread_mutex_lock(&jl->mu);
            it->done = true;
            jl->large_busy = false;
            pthread_mutex_unlock(&jl->mu);
        } else {
            merge_run(jl, finished_run(jl, true));
        }
    }
}

/* Up to n workers; with fewer (or none), the calling thread does more. */
static size_t start_workers(job_list *jl, worker *ws, size_t n)
{
    size_t started = 0;
    for (size_t i = 0; i < n; i++) {
        worker *w = &ws[started];
        w->jl = jl;
        w->passes = *jl->main->passes;
        nfy_mig_project_init(&w->passes.proj);
        thread_converter(jl->main, &w->passes, &w->c);
        if (pthread_create(&w->tid, NULL, worker_main, w) != 0) {
            nfy_mig_project_release(&w->passes.proj);
            break;
        }
        started++;
    }
    return started;
}

nfy_status nfy__convert_parallel(nfy__converter *c, const nfy_walk_opts *wo,
                                 unsigned jobs)
{
    job_list jl;
    memset(&jl, 0, sizeof jl);
    jl.main = c;
    thread_converter(c, c->passes, &jl.self);
    nfy_diags_init(&jl.walk_diags);
    pthread_mutex_init(&jl.mu, NULL);
    pthread_cond_init(&jl.work_cv, NULL);
    pthread_cond_init(&jl.done_cv, NULL);
    jl.ahead = (size_t)jobs * AHEAD_PER_JOB;
    size_t want = jobs > 1 ? jobs - 1 : 0;
    worker *ws = want ? calloc(want, sizeof *ws) : NULL;
    size_t nworkers = ws ? start_workers(&jl, ws, want) : 0;
    /* The workers convert while this thread walks, merges and converts. */
    nfy_status st = nfy_walk(c->o->src, wo, list_entry, &jl, &jl.walk_diags);
    pthread_mutex_lock(&jl.mu);
    jl.walk_done = true;
    pthread_cond_broadcast(&jl.work_cv);
    pthread_mutex_unlock(&jl.mu);
    drain(&jl, 0);
    nfy_diags_append(c->diags, &jl.walk_diags, jl.walk_flushed,
                     jl.walk_diags.items.len);
    for (size_t i = 0; i < nworkers; i++) {
        pthread_join(ws[i].tid, NULL);
        nfy_mig_project_merge(&c->passes->proj, &ws[i].passes.proj);
        nfy_mig_project_release(&ws[i].passes.proj);
    }
    free(ws);
    nfy__convert_forget_dir(&jl.self);
    for (size_t i = 0; i < jl.chunks.len; i++)
        free_chunk(jl.chunks.items[i]);
    nfy_vec_free(&jl.chunks);
    pthread_cond_destroy(&jl.done_cv);
    pthread_cond_destroy(&jl.work_cv);
    pthread_mutex_destroy(&jl.mu);
    nfy_diags_release(&jl.walk_diags);
    return st;
}
