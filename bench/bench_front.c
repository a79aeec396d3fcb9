/*
 * bench_front: front-end throughput. Loads every file named on the command
 * line (or listed, one path a line, in the file given with -l) into memory
 * first, then times, best of N rounds (default 3), only the work:
 *   scan       count newlines with memchr (a memory-bandwidth baseline)
 *   tokenize   nfy_lex_lex on every file
 *   structure  nfy_lex_lex + nfy_pysyn_parse on every file (arena per file)
 *   pysyn      nfy_pysyn_parse alone, on tokens made beforehand (nfy_lex_lex
 *              also makes the token summary pysyn's first pass reads)
 * (-p: only pysyn, -s: only structure, -t: only tokenize; for profilers)
 * and prints one line per measurement:
 *   "NAME FILES BYTES CPU_SECONDS CPU_MB/S WALL_SECONDS WALL_MB/S"
 * Single-threaded, so the numbers are per core; CPU time (this process's)
 * is the main figure because it is less disturbed by other load.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "pylex/pylex.h"
#include "pysyn/pysyn.h"

typedef NFY_VEC(nfy_source) source_vec;

static double now_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void load(source_vec *v, const char *path, size_t *bytes)
{
    nfy_source src;
    if (nfy_source_load(&src, path, 0) != NFY_OK) {
        fprintf(stderr, "bench_front: cannot read %s\n", path);
        return;
    }
    *bytes += src.len;
    nfy_vec_push(v, src);
}

static void load_list(source_vec *v, const char *list, size_t *bytes)
{
    FILE *f = fopen(list, "r");
    if (!f) {
        fprintf(stderr, "bench_front: cannot open %s\n", list);
        exit(2);
    }
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0])
            load(v, line, bytes);
    }
    fclose(f);
}

/* Sink so the compiler keeps the work. */
typedef struct {
    size_t value;
} sink;

static void run_scan(const source_vec *v, sink *k)
{
    for (size_t i = 0; i < v->len; i++) {
        const char *p = v->items[i].data, *end = p + v->items[i].len;
        while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
            k->value++;
            p++;
        }
    }
}

/* Both keep the front end's buffers between files in one scratch, as a
   converter thread does. */
static void run_lex(const source_vec *v, sink *k)
{
    nfy_lex_scratch sc;
    nfy_lex_scratch_init(&sc);
    nfy_tokens toks;
    nfy_lex_tokens_init(&toks);
    for (size_t i = 0; i < v->len; i++) {
        if (nfy_lex_reuse(&v->items[i], &toks, NULL, &sc) == NFY_OK)
            k->value += toks.toks.len;
        nfy_lex_tokens_recycle(&toks, &sc);
    }
    nfy_lex_scratch_release(&sc);
}

static void run_syn(const source_vec *v, sink *k)
{
    nfy_front_scratch sc;
    nfy_pysyn_front_scratch_init(&sc);
    nfy_tokens toks;
    nfy_lex_tokens_init(&toks);
    nfy_arena arena = NFY_ARENA_INIT;
    for (size_t i = 0; i < v->len; i++) {
        nfy_pysyn *m = NULL;
        if (nfy_lex_reuse(&v->items[i], &toks, NULL, &sc.lex) == NFY_OK &&
            nfy_pysyn_parse_reuse(&v->items[i], &toks, &arena, NULL, &sc,
                                  &m) == NFY_OK)
            k->value += m->nstmts + m->ncalls;
        nfy_arena_release(&arena);
        nfy_lex_tokens_recycle(&toks, &sc.lex);
    }
    nfy_pysyn_front_scratch_release(&sc);
}

typedef NFY_VEC(nfy_tokens) tokens_vec;

/* Tokens of every file, made once for the pysyn-only measurement. */
static void run_pysyn_only(const source_vec *v, const tokens_vec *tv, sink *k)
{
    nfy_arena arena = NFY_ARENA_INIT;
    for (size_t i = 0; i < v->len; i++) {
        nfy_pysyn *m = NULL;
        if (nfy_pysyn_parse(&v->items[i], &tv->items[i], &arena, NULL, &m) ==
            NFY_OK)
            k->value += m->nstmts + m->ncalls;
        nfy_arena_release(&arena);
    }
}

typedef struct {
    void (*plain)(const source_vec *, sink *);
    void (*with_tokens)(const source_vec *, const tokens_vec *, sink *);
    const tokens_vec *tv;
} work;

static void run_work(const work *w, const source_vec *v, sink *k)
{
    if (w->plain)
        w->plain(v, k);
    else
        w->with_tokens(v, w->tv, k);
}

static void measure(const char *name, work w, const source_vec *v, size_t bytes,
                    int rounds)
{
    double best = 0, best_wall = 0;
    sink k = {0};
    for (int r = 0; r < rounds; r++) {
        double c0 = now_seconds(CLOCK_PROCESS_CPUTIME_ID);
        double w0 = now_seconds(CLOCK_MONOTONIC);
        run_work(&w, v, &k);
        double dt = now_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
        double dw = now_seconds(CLOCK_MONOTONIC) - w0;
        if (r == 0 || dt < best)
            best = dt;
        if (r == 0 || dw < best_wall)
            best_wall = dw;
    }
    double mb = (double)bytes / 1e6;
    printf("%s %zu %zu %.6f %.1f %.6f %.1f\n", name, v->len, bytes, best,
           best > 0 ? mb / best : 0.0, best_wall,
           best_wall > 0 ? mb / best_wall : 0.0);
    if (k.value == 1)
        fputc('\n', stderr); /* keeps k alive */
}

int main(int argc, char **argv)
{
    source_vec v = {0};
    size_t bytes = 0;
    int rounds = 3;
    bool only_pysyn = false; /* -p: only the pysyn measurement (profiling) */
    bool only_structure = false; /* -s: only tokenize+structure (profiling) */
    bool only_tokenize = false;  /* -t: only tokenize (profiling) */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-l") && i + 1 < argc)
            load_list(&v, argv[++i], &bytes);
        else if (!strcmp(argv[i], "-p"))
            only_pysyn = true;
        else if (!strcmp(argv[i], "-s"))
            only_structure = true;
        else if (!strcmp(argv[i], "-t"))
            only_tokenize = true;
        else if (!strcmp(argv[i], "-n") && i + 1 < argc)
            rounds = (int)strtol(argv[++i], NULL, 10);
        else
            load(&v, argv[i], &bytes);
    }
    if (!v.len || rounds < 1) {
        fprintf(stderr,
                "usage: bench_front [-p|-s|-t] [-n ROUNDS] [-l LIST] FILE...\n");
        return 2;
    }
    if (only_tokenize) {
        measure("tokenize", (work){run_lex, NULL, NULL}, &v, bytes, rounds);
        for (size_t i = 0; i < v.len; i++)
            nfy_source_release(&v.items[i]);
        nfy_vec_free(&v);
        return 0;
    }
    if (only_structure)
        measure("structure", (work){run_syn, NULL, NULL}, &v, bytes, rounds);
    else if (!only_pysyn) {
        measure("scan", (work){run_scan, NULL, NULL}, &v, bytes, rounds);
        measure("tokenize", (work){run_lex, NULL, NULL}, &v, bytes, rounds);
        measure("structure", (work){run_syn, NULL, NULL}, &v, bytes, rounds);
    }
    tokens_vec tv = {0};
    if (!only_structure)
        nfy_vec_reserve(&tv, v.len);
    for (size_t i = 0; i < v.len && !only_structure; i++) {
        nfy_lex_tokens_init(&tv.items[i]);
        (void)nfy_lex_lex(&v.items[i], &tv.items[i], NULL); /* never fails */
        tv.len++;
    }
    if (!only_structure)
        measure("pysyn", (work){NULL, run_pysyn_only, &tv}, &v, bytes, rounds);
    for (size_t i = 0; i < tv.len; i++)
        nfy_lex_tokens_release(&tv.items[i]);
    nfy_vec_free(&tv);
    for (size_t i = 0; i < v.len; i++)
        nfy_source_release(&v.items[i]);
    nfy_vec_free(&v);
    return 0;
}
