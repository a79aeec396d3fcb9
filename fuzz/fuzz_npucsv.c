/*
 * libFuzzer target for the NPU profiler's CSV reader (src/npuprof/csv.c):
 * any bytes; every record handed over must respect the cell and record
 * caps, and each cell view must lie inside the record. Build: sh
 * fuzz/run.sh npucsv (seed corpus: fuzz/corpus_npucsv/).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "npuprof/npuprof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check_record(void *ctx, const nfy_str *cells, size_t n,
                        uint32_t line)
{
    size_t *records = ctx;
    if (n == 0 || n > 32 || line == 0)
        abort();
    for (size_t i = 0; i < n; i++)
        if (cells[i].len > 64 || (cells[i].len && !cells[i].ptr))
            abort();
    ++*records;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t records = 0;
    nfy_diags diags;
    nfy_diags_init(&diags);
    diags.max = 64;
    nfy_npu_csv_opts o = {"fuzz.csv", &diags, 64, 32, check_record, &records};
    (void)nfy_npuprof_csv_read_mem((const char *)data, size, &o);
    nfy_diags_release(&diags);
    return 0;
}
