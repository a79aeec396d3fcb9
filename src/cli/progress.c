/* convert's progress line on a terminal (progress.h). */
#include "cli/progress.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_util.h"

enum { MAX_PATH_SHOWN = 60 };

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int count_entry(void *ctx, const nfy_walk_entry *e)
{
    (void)e;
    ++*(size_t *)ctx;
    return 0;
}

static void draw(void *user, const char *rel)
{
    nfy_cli_progress *p = user;
    p->done++;
    if (p->done > p->total) /* an entry the count did not see */
        p->total = p->done;
    double t = now_seconds();
    if (p->last_draw > 0 && t - p->last_draw < 0.1 && p->done < p->total)
        return;
    p->last_draw = t;
    /* The tail of a long path says more than its head; the line stays
     * within one terminal row so \r can redraw it. */
    size_t n = strlen(rel);
    const char *shown = n > MAX_PATH_SHOWN ? rel + n - MAX_PATH_SHOWN : rel;
    fprintf(p->out, "\r\033[K[%zu/%zu] %s%s", p->done, p->total,
            shown == rel ? "" : "...", shown);
    fflush(p->out);
}

void nfy_cli_progress_start(nfy_cli_progress *p, nfy_convert_opts *o, FILE *out,
                            bool quiet)
{
    memset(p, 0, sizeof *p);
    p->out = out;
    if (quiet || !isatty(fileno(out)) || !nfy_cli_is_dir(o->src))
        return;
    /* The walk convert makes (its skip names and output), only counted:
     * directory listings, no file read. */
    static const char *const skip_names[] = {".git", "__pycache__", NULL};
    nfy_walk_opts wo = {skip_names,
                        o->action == NFY_CONVERT_WRITE ? o->dst : NULL};
    if (nfy_walk(o->src, &wo, count_entry, &p->total, NULL) != NFY_OK ||
        p->total < NFY_CLI_PROGRESS_MIN)
        return;
    o->progress = draw;
    o->progress_user = p;
}

void nfy_cli_progress_end(nfy_cli_progress *p)
{
    if (p->last_draw > 0) {
        fputs("\r\033[K", p->out);
        fflush(p->out);
    }
}
