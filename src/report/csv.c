/*
 * The CSV reports, with msFmkTransplt's file names and column headers (as
 * pandas writes them: comma-separated, no spaces, "\n" line ends) so users and
 * scripts that read Huawei's reports read ours. change_list.csv has our extra
 * columns after Huawei's. Rows follow the shared report order. Project-wide
 * rows have "NA" in File and the line columns, like Huawei's global advice.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

typedef struct {
    const char *file_name;
    const char *header;
} csv_info;

static const csv_info csv_table[NFY_CSV_COUNT] = {
    [NFY_CSV_CHANGE_LIST] = {"change_list.csv",
                             "File,Start Line,End Line,Operation Type,Message,"
                             "Rule,Start Col,End Col,Safety"},
    [NFY_CSV_UNSUPPORTED_API] = {"unsupported_api.csv",
                                 "File,Start Line,End Line,OP,Tips"},
    [NFY_CSV_UNKNOWN_API] = {"unknown_api.csv",
                             "File,Start Line,End Line,OP,Tips"},
    [NFY_CSV_PRECISION_ADVICE] = {"api_precision_advice.csv",
                                  "File,Start Line,End Line,OP,Tips"},
    [NFY_CSV_PERFORMANCE_ADVICE] = {"api_performance_advice.csv",
                                    "File,Start Line,End Line,OP,Tips"},
    [NFY_CSV_CUDA_OP_LIST] = {"cuda_op_list.csv", "File,Api"},
    [NFY_CSV_AFFINITY_API] = {"affinity_api_call.csv",
                              "File,Start Line,End Line,Api Type,"
                              "Api Call Name,Affinity Api Name"},
};

const char *nfy_report_csv_file_name(nfy_csv_kind kind)
{
    return (unsigned)kind < NFY_CSV_COUNT ? csv_table[kind].file_name : "";
}

/* Does finding f make a row of the CSV of this kind? */
static bool in_csv(nfy_csv_kind kind, const nfy_finding *f)
{
    switch (kind) {
    case NFY_CSV_CHANGE_LIST:
        return f->cat == NFY_CAT_CHANGE || f->op == NFY_OPTYPE_UNSUPPORTED;
    case NFY_CSV_UNSUPPORTED_API:
        return f->cat == NFY_CAT_UNSUPPORTED_API;
    case NFY_CSV_UNKNOWN_API:
        return f->cat == NFY_CAT_UNKNOWN_API;
    case NFY_CSV_PRECISION_ADVICE:
        return f->cat == NFY_CAT_PRECISION_ADVICE;
    case NFY_CSV_PERFORMANCE_ADVICE:
        return f->cat == NFY_CAT_PERFORMANCE_ADVICE;
    case NFY_CSV_CUDA_OP_LIST:
        return f->cat == NFY_CAT_CUDA_OP;
    case NFY_CSV_AFFINITY_API:
        return f->cat == NFY_CAT_AFFINITY_API;
    case NFY_CSV_COUNT:
        break;
    }
    return false;
}

static void field(nfy_buf *out, const char *s, bool last)
{
    s = nfy__report_empty(s);
    nfy_csv_escape(out, s, strlen(s));
    nfy_buf_addch(out, last ? '\n' : ',');
}

static void num_field(nfy_buf *out, const nfy_finding *f, uint32_t v)
{
    if (!f->file || !f->start_line)
        nfy_buf_addstr(out, "NA,");
    else {
        nfy_buf_addu(out, v);
        nfy_buf_addch(out, ',');
    }
}

/* The File column: the name escaped reversibly (nfy_name_escape). */
static void file_field(nfy_buf *out, const nfy_finding *f)
{
    nfy_buf tmp = NFY_BUF_INIT;
    field(out, f->file ? nfy_name_shown(&tmp, f->file) : "NA", false);
    nfy_buf_release(&tmp);
}

static void file_and_lines(nfy_buf *out, const nfy_finding *f)
{
    file_field(out, f);
    num_field(out, f, f->start_line);
    num_field(out, f, f->end_line);
}

/* The Message column of a change: the note, else "before -> after". */
static void change_message(nfy_buf *out, const nfy_finding *f)
{
    if (f->message && *f->message) {
        field(out, f->message, false);
        return;
    }
    nfy_buf msg = NFY_BUF_INIT;
    nfy_buf_addf(&msg, "%s -> %s", nfy__report_empty(f->before),
                 nfy__report_empty(f->after));
    field(out, nfy_buf_cstr(&msg), false);
    nfy_buf_release(&msg);
}

static void change_row(nfy_buf *out, const nfy_finding *f)
{
    file_and_lines(out, f);
    field(out,
          f->op == NFY_OPTYPE_NONE ? "UNSUPPORTED"
                                   : nfy_report_op_type_name(f->op),
          false);
    change_message(out, f);
    field(out, f->rule, false);
    num_field(out, f, f->start_col);
    num_field(out, f, f->end_col);
    field(out, nfy_report_safety_name(f->safety), true);
}

static void row(nfy_buf *out, nfy_csv_kind kind, const nfy_finding *f)
{
    switch (kind) {
    case NFY_CSV_CHANGE_LIST:
        change_row(out, f);
        break;
    case NFY_CSV_CUDA_OP_LIST:
        file_field(out, f);
        field(out, f->api, true);
        break;
    case NFY_CSV_AFFINITY_API:
        file_and_lines(out, f);
        field(out, f->api_type, false);
        field(out, f->api, false);
        field(out, f->npu_api, true);
        break;
    default:
        file_and_lines(out, f);
        field(out, f->api, false);
        field(out, f->message, true);
        break;
    }
}

void nfy__report_render_csv(const nfy__sorted *v, nfy_csv_kind kind,
                            nfy_buf *out)
{
    if ((unsigned)kind >= NFY_CSV_COUNT)
        return;
    nfy_buf_addstr(out, csv_table[kind].header);
    nfy_buf_addch(out, '\n');
    for (size_t i = 0; i < v->n; i++) {
        nfy_finding buf;
        if (in_csv(kind, nfy__report_sorted_head(v, i, &buf)))
            row(out, kind, nfy__report_sorted_at(v, i, &buf));
    }
}

void nfy_report_render_csv(const nfy_report *rep, nfy_csv_kind kind,
                           nfy_buf *out)
{
    if ((unsigned)kind >= NFY_CSV_COUNT)
        return;
    nfy__sorted v;
    nfy__report_sorted_init(&v, rep);
    nfy__report_render_csv(&v, kind, out);
    nfy__report_sorted_release(&v);
}
