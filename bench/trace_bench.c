/*
 * trace_bench FILE...: time nfy_prof_read_trace over each file with a
 * sink that only counts rows (the reader alone, no aggregation) and print
 * one line per file: bytes, rows, wall and CPU seconds and MB/s (CPU time
 * is the steadier number on a shared machine). Used by bench/trace.sh.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "proflog/proflog.h"

typedef struct {
    unsigned long long rows;
    double self_sum;
} counts;

static int count_row(void *ctx, const nfy_prof_row *row)
{
    counts *c = ctx;
    c->rows++;
    c->self_sum += row->self_us[NFY_PDEV_CPU];
    return 0;
}

static double now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            return 1;
        }
        counts c = {0, 0};
        nfy_diags diags;
        nfy_diags_init(&diags);
        nfy_proflog_opts o = {argv[i], &diags, count_row, &c, 0};
        double t0 = now(CLOCK_MONOTONIC);
        double c0 = now(CLOCK_PROCESS_CPUTIME_ID);
        nfy_status s = nfy_prof_read_trace(argv[i], &o);
        double dt = now(CLOCK_MONOTONIC) - t0;
        double dc = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
        double mb = (double)st.st_size / 1e6;
        printf("%s: %lld bytes, %llu rows, %zu diagnostics, %.3f s wall "
               "%.1f MB/s, %.3f s cpu %.1f MB/s (%s)\n",
               argv[i], (long long)st.st_size, c.rows,
               nfy_diags_count(&diags, NFY_SEV_NOTE), dt,
               mb / (dt > 0 ? dt : 1e-9), dc, mb / (dc > 0 ? dc : 1e-9),
               nfy_status_name(s));
        if (s != NFY_OK)
            rc = 1;
        nfy_diags_release(&diags);
    }
    return rc;
}
