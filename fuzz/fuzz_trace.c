/*
 * libFuzzer target for the chrome-trace reader: any bytes (plain or gzip)
 * through nfy_prof_read_trace's memory twin, with a tiny per-field cap so
 * the cut paths run too. Rows are checked for basic invariants. Build:
 * sh fuzz/run.sh trace (seed corpus: fuzz/corpus_trace/).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "proflog/proflog.h"
#include "proflog/trace_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check_row(void *ctx, const nfy_prof_row *row)
{
    size_t *rows = ctx;
    if (row->calls != 1 || !(row->flags & NFY_PROW_FROM_TRACE) ||
        (row->name.len && !row->name.ptr) || row->self_us[NFY_PDEV_CPU] < 0 ||
        row->self_us[NFY_PDEV_CPU] > row->total_us[NFY_PDEV_CPU] ||
        row->name.len > 300 || row->shapes.len > 300)
        abort();
    ++*rows;
    return *rows > 100000;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t rows = 0;
    nfy_diags diags;
    nfy_diags_init(&diags);
    diags.max = 64;
    nfy_proflog_opts o = {"fuzz.json", &diags, check_row, &rows, 300};
    /* Odd first bytes: reads of 1-16 bytes, so tokens cross refills. */
    size_t max_read = size && (data[0] & 1) ? 1 + data[0] % 16 : 0;
    (void)nfy__prof_read_trace_mem(data, size, &o, max_read);
    nfy_diags_release(&diags);
    return 0;
}
