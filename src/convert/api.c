/*
 * The library's convert entry points (npuify.h): the driver with the one
 * observer a plain conversion has, analyse's torch-API rows (NPU701/702
 * in unsupported_api.csv / unknown_api.csv), so an embedder gets the
 * report `npuify convert` writes. The npuify command passes its own hooks
 * to nfy_convert_run_with.
 */
#include "analyse/analyse.h"
#include "convert/convert.h"

/* What opts's torch-API rows need; torch_rows must outlive the run. */
static nfy_convert_hooks torch_rows_hooks(const nfy_convert_opts *opts,
                                          nfy_analyse_opts *torch_rows,
                                          nfy_migrate_observer *observer)
{
    *torch_rows = (nfy_analyse_opts){opts->rules, opts->torch_version,
                                     NFY_ANALYSE_TORCH_APIS, NULL};
    *observer = nfy_analyse_observer(torch_rows);
    return (nfy_convert_hooks){observer, NULL};
}

nfy_status nfy_convert_run(const nfy_convert_opts *opts, nfy_report *rep,
                           nfy_buf *diff_out, nfy_convert_stats *stats,
                           nfy_diags *diags)
{
    if (!opts)
        return nfy_convert_run_with(opts, NULL, rep, diff_out, stats, diags);
    nfy_analyse_opts rows;
    nfy_migrate_observer observer;
    nfy_convert_hooks h = torch_rows_hooks(opts, &rows, &observer);
    return nfy_convert_run_with(opts, &h, rep, diff_out, stats, diags);
}

nfy_status nfy_convert_buffer(const nfy_convert_opts *opts, const char *rel,
                              const char *bytes, size_t len, nfy_report *rep,
                              nfy_buf *out, nfy_diags *diags)
{
    if (!opts)
        return nfy_convert_buffer_with(opts, NULL, rel, bytes, len, rep, out,
                                       diags);
    nfy_analyse_opts rows;
    nfy_migrate_observer observer;
    nfy_convert_hooks h = torch_rows_hooks(opts, &rows, &observer);
    return nfy_convert_buffer_with(opts, &h, rel, bytes, len, rep, out, diags);
}
