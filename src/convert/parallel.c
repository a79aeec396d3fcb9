/*
 * convert --jobs N: the same conversion on N threads, with the same output.
 *
 * The walk stays sequential in the calling thread (it decides the order)
 * and lists the entries as it goes; directories are created right there,
 * so they exist before any worker writes a file into them. Workers take the
 * next listed entry from a shared index and convert it with the ordinary
 * per-entry code, but into the entry's own report, diagnostics, diff and
 * stats (and their own project facts). Between entries, and after the
 * walk, the calling thread merges the finished entries strictly in walk
 * order, so the merged report, the diagnostics (walk diagnostics included,
 * at the place where the walk issued them), the diff and the stats are
 * exactly those of the sequential walk. Workers, and the walk itself, run
 * at most a fixed window ahead of the merge, and merged chunks of entries
 * are freed, so memory holds a window of entries, not the tree. Nothing here is
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
/* A file at least this large leaves enough freed memory to hand back. */
enum { TRIM_AFTER_BYTES = 256 * 1024 };
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
    bool done; /* under mu once listed */
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
    size_t nworkers;             /* threads started; 0: the walker converts */
    pthread_mutex_t mu;
    pthread_cond_t work_cv; /* more entries listed, or the merge went on */
    pthread_cond_t done_cv; /* an entry finished: the merge may go on */
    size_t listed;          /* entries listed so far */
    bool walk_done;         /* no more entries will come */
    size_t next;            /* next entry to take */
    size_t merged;          /* entries merged so far */
    size_t ahead;           /* how far next may run past merged */
} job_list;

typedef struct {
    job_list *jl;
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

/* Convert one entry into its own results. */
static void run_item(job_list *jl, nfy_convert_passes *passes, job_item *it)
{
    const nfy__converter *m = jl->main;
    nfy__converter c = {.o = m->o,
                        .passes = passes,
                        .rep = &it->rep,
                        .diff_out = m->diff_out ? &it->diff : NULL,
                        .stats = &it->stats,
                        .diags = &it->diags,
                        .dst = m->dst,
                        .root_fd = m->root_fd};
    /* Asked to stop: entries not begun stay untouched (and unreported). */
    if (!nfy__convert_stopping(&c))
        nfy__convert_entry(&c, &it->e);
    it->write_rc = c.write_rc;
#ifdef __GLIBC__
    /* glibc keeps a thread's freed blocks in its arena: without this each
     * worker would hold the peak of the largest file it ever converted. */
    if (it->e.size >= TRIM_AFTER_BYTES)
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

static void merge_ready(job_list *jl, size_t keep);

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
    nfy_report_init(&it->rep);
    nfy_diags_init(&it->diags);
    nfy_buf_init(&it->diff, jl->main->diff_out ? jl->main->diff_out->max : 0);
    /* Parents before children: create directories during the walk. */
    bool is_dir = e->kind == NFY_WALK_DIR;
    if (is_dir)
        run_item(jl, jl->main->passes, it);
    pthread_mutex_lock(&jl->mu);
    it->done = is_dir;
    jl->listed++;
    pthread_cond_signal(&jl->work_cv);
    pthread_mutex_unlock(&jl->mu);
    /* The walk lists no further than a window past the merge, so a slow
     * conversion never lets it list the whole tree in memory. */
    merge_ready(jl, jl->ahead + CHUNK);
    return 0;
}

/* Whether entry next may be taken now, past directories (converted, and
 * perhaps merged and freed, during the walk). Under mu. */
static bool next_ready(job_list *jl)
{
    if (jl->next < jl->merged)
        jl->next = jl->merged;
    while (jl->next < jl->listed && jl->next < jl->merged + jl->ahead) {
        if (item_at(jl, jl->next)->e.kind != NFY_WALK_DIR)
            return true;
        jl->next++;
    }
    return false;
}

/* The next file entry to convert, waiting for one; NULL when all are
 * taken. */
static job_item *take_item(job_list *jl)
{
    pthread_mutex_lock(&jl->mu);
    for (;;) {
        if (next_ready(jl))
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
    job_item *it;
    while ((it = take_item(jl))) {
        run_item(jl, &w->passes, it);
        pthread_mutex_lock(&jl->mu);
        it->done = true;
        pthread_cond_signal(&jl->done_cv);
        pthread_mutex_unlock(&jl->mu);
    }
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

/*
 * Merge the finished entries that come next in walk order, waiting for the
 * workers while more than keep listed entries are unmerged (keep 0: all).
 * Without workers, convert here.
 */
static void merge_ready(job_list *jl, size_t keep)
{
    while (jl->merged < jl->listed) {
        job_item *it = item_at(jl, jl->merged);
        if (jl->nworkers == 0 && it->e.kind != NFY_WALK_DIR) {
            run_item(jl, jl->main->passes, it);
        } else {
            pthread_mutex_lock(&jl->mu);
            bool wait = jl->listed - jl->merged > keep;
            while (!it->done && wait)
                pthread_cond_wait(&jl->done_cv, &jl->mu);
            bool done = it->done;
            pthread_mutex_unlock(&jl->mu);
            if (!done)
                return;
        }
        merge_item(jl, it);
        pthread_mutex_lock(&jl->mu);
        size_t merged = ++jl->merged;
        pthread_cond_broadcast(&jl->work_cv);
        pthread_mutex_unlock(&jl->mu);
        if (merged % CHUNK == 0)
            retire_chunk(jl, merged / CHUNK - 1);
    }
}

static size_t start_workers(job_list *jl, worker *ws, unsigned jobs)
{
    size_t started = 0;
    for (unsigned i = 0; i < jobs; i++) {
        worker *w = &ws[started];
        w->jl = jl;
        w->passes = *jl->main->passes;
        nfy_migrate_project_init(&w->passes.proj);
        if (pthread_create(&w->tid, NULL, worker_main, w) != 0) {
            nfy_migrate_project_release(&w->passes.proj);
            break; /* fewer workers; with none, the walker converts */
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
    nfy_diags_init(&jl.walk_diags);
    pthread_mutex_init(&jl.mu, NULL);
    pthread_cond_init(&jl.work_cv, NULL);
    pthread_cond_init(&jl.done_cv, NULL);
    jl.ahead = (size_t)jobs * AHEAD_PER_JOB;
    worker *ws = calloc(jobs, sizeof *ws);
    jl.nworkers = ws ? start_workers(&jl, ws, jobs) : 0;
    /* The workers convert while the walk goes on and this thread merges. */
    nfy_status st = nfy_walk(c->o->src, wo, list_entry, &jl, &jl.walk_diags);
    pthread_mutex_lock(&jl.mu);
    jl.walk_done = true;
    pthread_cond_broadcast(&jl.work_cv);
    pthread_mutex_unlock(&jl.mu);
    merge_ready(&jl, 0);
    nfy_diags_append(c->diags, &jl.walk_diags, jl.walk_flushed,
                     jl.walk_diags.items.len);
    for (size_t i = 0; i < jl.nworkers; i++) {
        pthread_join(ws[i].tid, NULL);
        nfy_migrate_project_merge(&c->passes->proj, &ws[i].passes.proj);
        nfy_migrate_project_release(&ws[i].passes.proj);
    }
    free(ws);
    for (size_t i = 0; i < jl.chunks.len; i++)
        free_chunk(jl.chunks.items[i]);
    nfy_vec_free(&jl.chunks);
    pthread_cond_destroy(&jl.done_cv);
    pthread_cond_destroy(&jl.work_cv);
    pthread_mutex_destroy(&jl.mu);
    nfy_diags_release(&jl.walk_diags);
    return st;
}
