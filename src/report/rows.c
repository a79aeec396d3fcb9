/*
 * Sealed findings: a finding whose file is done is kept as a 32-byte row of
 * string ids instead of a 136-byte nfy_finding, so the report of a large
 * tree stays small. The strings other than file and rule go into one
 * interned tuple of ids, shared by every finding with the same text (an
 * edit id is kept without its file, so copies of a file share theirs).
 */
#include <stdlib.h>
#include <string.h>

#include "core/fatal.h"
#include "report/report_internal.h"

/* The strings of a finding behind its row's extra id, in this order. */
enum {
    X_API,
    X_MESSAGE,
    X_BEFORE,
    X_AFTER,
    X_API_TYPE,
    X_NPU_API,
    X_VALUE_SET_ID,
    X_VALUE_SET,
    X_EDIT_ID,
    X_EDIT_ID_IN_FILE, /* 1: the edit id leaves out "file:" */
    X_CODE_BEFORE,
    X_CODE_AFTER,
    X_COUNT
};

static uint32_t extra_of(nfy_report *rep, const nfy_finding *f)
{
    const char *const s[X_COUNT] = {
        [X_API] = f->api,
        [X_MESSAGE] = f->message,
        [X_BEFORE] = f->before,
        [X_AFTER] = f->after,
        [X_API_TYPE] = f->api_type,
        [X_NPU_API] = f->npu_api,
        [X_VALUE_SET_ID] = f->value_set_id,
        [X_VALUE_SET] = f->value_set,
        [X_EDIT_ID] = f->edit_id,
        [X_CODE_BEFORE] = f->code_before,
        [X_CODE_AFTER] = f->code_after,
    };
    uint32_t ids[X_COUNT];
    for (int k = 0; k < X_COUNT; k++)
        ids[k] = nfy__report_intern_cstr_id(rep, s[k]);
    ids[X_EDIT_ID_IN_FILE] = f->edit_id_in_file;
    return nfy__report_intern_id(rep, (const char *)ids, sizeof ids);
}

static nfy_report_row row_of(nfy_report *rep, const nfy_finding *f)
{
    return (nfy_report_row){
        .file = nfy__report_intern_cstr_id(rep, f->file),
        .rule = nfy__report_intern_cstr_id(rep, f->rule),
        .extra = extra_of(rep, f),
        .start_line = f->start_line,
        .start_col = f->start_col,
        .end_line = f->end_line,
        .end_col = f->end_col,
        .op = (uint8_t)f->op,
        .safety = (uint8_t)f->safety,
        .cat = (uint8_t)f->cat,
        .rule_severity = (uint8_t)f->rule_severity,
    };
}

void nfy__report_row_extra(const nfy_report *rep, const nfy_report_row *r,
                           nfy_finding *f)
{
    uint32_t ids[X_COUNT];
    memcpy(ids, nfy__report_string(rep, r->extra), sizeof ids);
    f->api = nfy__report_string(rep, ids[X_API]);
    f->message = nfy__report_string(rep, ids[X_MESSAGE]);
    f->before = nfy__report_string(rep, ids[X_BEFORE]);
    f->after = nfy__report_string(rep, ids[X_AFTER]);
    f->api_type = nfy__report_string(rep, ids[X_API_TYPE]);
    f->npu_api = nfy__report_string(rep, ids[X_NPU_API]);
    f->value_set_id = nfy__report_string(rep, ids[X_VALUE_SET_ID]);
    f->value_set = nfy__report_string(rep, ids[X_VALUE_SET]);
    f->edit_id = nfy__report_string(rep, ids[X_EDIT_ID]);
    f->edit_id_in_file = ids[X_EDIT_ID_IN_FILE] != 0;
    f->code_before = nfy__report_string(rep, ids[X_CODE_BEFORE]);
    f->code_after = nfy__report_string(rep, ids[X_CODE_AFTER]);
}

/* The fields of r itself; its other strings stay NULL. */
static void row_head(const nfy_report *rep, const nfy_report_row *r,
                     nfy_finding *f)
{
    *f = (nfy_finding){
        .file = nfy__report_string(rep, r->file),
        .rule = nfy__report_string(rep, r->rule),
        .start_line = r->start_line,
        .start_col = r->start_col,
        .end_line = r->end_line,
        .end_col = r->end_col,
        .op = (nfy_op_type)r->op,
        .safety = (nfy_safety)r->safety,
        .cat = (nfy_finding_cat)r->cat,
        .rule_severity = (nfy_severity)r->rule_severity,
    };
}

static void row_decode(const nfy_report *rep, const nfy_report_row *r,
                       nfy_finding *f)
{
    row_head(rep, r, f);
    nfy__report_row_extra(rep, r, f);
}

/* Open findings of a file are few; a huge file's array is not kept. */
enum { KEEP_OPEN_CAP = 4096 };

static void add_row(nfy_report *rep, nfy_report_row r)
{
    if (rep->nrows % NFY_REPORT_ROW_CHUNK == 0) {
        nfy_report_row *chunk = malloc(NFY_REPORT_ROW_CHUNK * sizeof *chunk);
        if (!chunk)
            nfy__fatal("out of memory");
        nfy_vec_push(&rep->row_chunks, chunk);
    }
    rep->row_chunks.items[rep->nrows / NFY_REPORT_ROW_CHUNK]
                         [rep->nrows % NFY_REPORT_ROW_CHUNK] = r;
    rep->nrows++;
}

void nfy_report_seal(nfy_report *rep)
{
    for (size_t i = 0; i < rep->open_findings.len; i++)
        add_row(rep, row_of(rep, &rep->open_findings.items[i]));
    if (rep->open_findings.cap > KEEP_OPEN_CAP)
        nfy_vec_free(&rep->open_findings);
    rep->open_findings.len = 0;
}

void nfy__report_rows_release(nfy_report *rep)
{
    for (size_t k = 0; k < rep->row_chunks.len; k++)
        free(rep->row_chunks.items[k]);
    nfy_vec_free(&rep->row_chunks);
    rep->nrows = 0;
}

size_t nfy_report_finding_count(const nfy_report *rep)
{
    return rep->nrows + rep->open_findings.len;
}

void nfy_report_finding_read(const nfy_report *rep, size_t i, nfy_finding *out)
{
    if (i < rep->nrows)
        row_decode(rep, nfy__report_row(rep, i), out);
    else
        *out = rep->open_findings.items[i - rep->nrows];
}

const nfy_finding *nfy__report_finding_head(const nfy_report *rep, size_t i,
                                            nfy_finding *buf)
{
    if (i >= rep->nrows)
        return &rep->open_findings.items[i - rep->nrows];
    row_head(rep, nfy__report_row(rep, i), buf);
    return buf;
}
