/*
 * libFuzzer target for the profiler text-table reader: the input is fed in
 * two pieces split at a point chosen by its first byte, so chunk
 * boundaries land anywhere (inside a UTF-16 unit, a CRLF, a row). Build:
 * sh fuzz/run.sh proftext (seed corpus: fuzz/corpus_proftext/).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "proflog/proflog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check_row(void *ctx, const nfy_prof_row *row)
{
    size_t *rows = ctx;
    if ((row->name.len && !row->name.ptr) ||
        (row->shapes.len && !row->shapes.ptr) || row->name.len > 4096)
        abort();
    ++*rows;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t rows = 0;
    nfy_diags diags;
    nfy_diags_init(&diags);
    diags.max = 64;
    nfy_proflog_opts o = {"fuzz.log", &diags, check_row, &rows, 4096};
    nfy_proflog_text *r = nfy_prof_text_new(&o);
    size_t split = size ? data[0] % (size + 1) : 0;
    (void)nfy_prof_text_feed(r, data, split);
    (void)nfy_prof_text_feed(r, data + split, size - split);
    (void)nfy_prof_text_finish(r);
    nfy_prof_text_free(r);
    nfy_diags_release(&diags);
    return 0;
}
