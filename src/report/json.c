/*
 * report.json: our versioned schema ("npuify-report/1"). One object with the
 * run metadata, totals, one entry per file and one per finding; findings of
 * category left_unchanged go to their own array. Written by hand (not with
 * jansson) so the layout is fixed: two-space indentation, one finding per
 * line, keys in a fixed order, missing strings as null.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

static void jstr(nfy_buf *out, const char *s)
{
    if (!s)
        nfy_buf_addstr(out, "null");
    else
        nfy_json_escape(out, s, strlen(s));
}

static void jkey(nfy_buf *out, const char *key)
{
    nfy_json_escape(out, key, strlen(key));
    nfy_buf_addstr(out, ": ");
}

/* A key that needs no escaping, quoted and with its colon, for the keys
 * written for every finding. */
#define QKEY(k) "\"" k "\": "

static void jkv_str(nfy_buf *out, const char *qkey, const char *v, bool comma)
{
    nfy_buf_addstr(out, qkey);
    jstr(out, v);
    if (comma)
        nfy_buf_addstr(out, ", ");
}

/* A file name: escaped reversibly first (nfy_name_escape). */
static void jname(nfy_buf *out, const char *qkey, const char *file, bool comma)
{
    nfy_buf tmp = NFY_BUF_INIT;
    jkv_str(out, qkey, nfy_name_shown(&tmp, file), comma);
    nfy_buf_release(&tmp);
}

static void jkv_num(nfy_buf *out, const char *key, size_t v, bool comma)
{
    jkey(out, key);
    nfy_buf_addf(out, "%zu", v);
    if (comma)
        nfy_buf_addstr(out, ", ");
}

static void write_head(nfy_buf *out, const nfy_report *rep)
{
    const nfy_report_meta *m = &rep->meta;
    nfy_buf_addstr(out, "{\n  \"schema\": \"npuify-report/1\",\n  ");
    nfy_buf_addstr(out, "\"tool\": {\"name\": \"npuify\", ");
    jkv_str(out, QKEY("version"), m->tool_version, false);
    nfy_buf_addstr(out, "},\n  \"run\": {");
    jkv_str(out, QKEY("command"), m->command, true);
    jkv_str(out, QKEY("source"), m->source, true);
    jkv_str(out, QKEY("torch_version"), m->torch_version, true);
    jkv_str(out, QKEY("mode"), m->mode, false);
    nfy_buf_addstr(out, "},\n");
}

static void write_counts(nfy_buf *out, const nfy_report *rep)
{
    nfy__rule_count_vec rc = {0};
    nfy__report_rule_counts(rep, nfy__report_any_finding, &rc);
    nfy_buf_addstr(out, "    \"by_rule\": {");
    for (size_t i = 0; i < rc.len; i++)
        jkv_num(out, rc.items[i].rule, rc.items[i].count, i + 1 < rc.len);
    nfy_buf_addstr(out, "}\n");
    nfy_vec_free(&rc);
}

static void write_summary(nfy_buf *out, const nfy_report *rep)
{
    nfy_report_totals t;
    nfy_report_totals_get(rep, &t);
    nfy_buf_addstr(out, "  \"summary\": {\n    ");
    jkv_num(out, "files_total", t.files_total, true);
    jkv_num(out, "files_scanned", t.files_scanned, true);
    jkv_num(out, "files_changed", t.files_changed, true);
    jkv_num(out, "files_copied", t.files_copied, true);
    jkv_num(out, "files_skipped", t.files_skipped, true);
    jkv_num(out, "files_error", t.files_error, false);
    nfy_buf_addstr(out, ",\n    ");
    jkv_num(out, "findings", nfy_report_finding_count(rep), true);
    jkv_num(out, "edits", t.edits, true);
    jkv_num(out, "manual", t.manual, false);
    nfy_buf_addstr(out, ",\n    \"by_category\": {");
    for (int c = 0; c < NFY_CAT_COUNT; c++)
        jkv_num(out, nfy_finding_cat_name((nfy_finding_cat)c), t.by_cat[c],
                c + 1 < NFY_CAT_COUNT);
    nfy_buf_addstr(out, "},\n");
    write_counts(out, rep);
    nfy_buf_addstr(out, "  },\n");
}

static void write_files(nfy_buf *out, const nfy_report *rep,
                        const nfy__sorted *v)
{
    const nfy_report_file **files;
    size_t nf = nfy__report_sorted_files(rep, &files);
    nfy_buf_addstr(out, "  \"files\": [");
    for (size_t i = 0; i < nf; i++) {
        nfy__file_counts c = nfy__report_file_counts(v, files[i]->file);
        nfy_buf_addstr(out, i ? ",\n    {" : "\n    {");
        jname(out, QKEY("path"), files[i]->file, true);
        jkv_str(out, QKEY("status"),
                nfy_report_file_status_name(files[i]->status), true);
        jkv_num(out, "edits", c.edits, true);
        jkv_num(out, "findings", c.findings, true);
        jkv_str(out, QKEY("note"), files[i]->note, false);
        nfy_buf_addch(out, '}');
    }
    nfy_buf_addstr(out, nf ? "\n  ],\n" : "],\n");
    free(files);
}

static void write_pos(nfy_buf *out, const char *qkey, uint32_t line,
                      uint32_t col)
{
    nfy_buf_addstr(out, qkey);
    nfy_buf_addstr(out, "{\"line\": ");
    nfy_buf_addu(out, line);
    nfy_buf_addstr(out, ", \"col\": ");
    nfy_buf_addu(out, col);
    nfy_buf_addstr(out, "}, ");
}

static void write_finding(nfy_buf *out, const nfy_finding *f)
{
    nfy_buf_addch(out, '{');
    jname(out, QKEY("file"), f->file, true);
    write_pos(out, QKEY("start"), f->start_line, f->start_col);
    write_pos(out, QKEY("end"), f->end_line, f->end_col);
    jkv_str(out, QKEY("rule"), f->rule, true);
    jkv_str(out, QKEY("category"), nfy_finding_cat_name(f->cat), true);
    jkv_str(out, QKEY("op"),
            f->op == NFY_OPTYPE_NONE ? NULL : nfy_report_op_type_name(f->op),
            true);
    jkv_str(out, QKEY("safety"), nfy_report_safety_name(f->safety), true);
    jkv_str(out, QKEY("api"), f->api, true);
    jkv_str(out, QKEY("message"), f->message, true);
    jkv_str(out, QKEY("before"), f->before, true);
    jkv_str(out, QKEY("after"), f->after, true);
    jkv_str(out, QKEY("api_type"), f->api_type, true);
    jkv_str(out, QKEY("npu_api"), f->npu_api, false);
    if (f->value_set_id != NULL) { /* only string literals have one */
        nfy_buf_addstr(out, ", ");
        jkey(out, "value_set");
        nfy_buf_addch(out, '{');
        jkv_str(out, QKEY("id"), f->value_set_id, true);
        jkv_str(out, QKEY("name"), f->value_set, false);
        nfy_buf_addch(out, '}');
    }
    nfy_buf_addch(out, '}');
}

static void write_findings(nfy_buf *out, const char *key, const nfy__sorted *v,
                           bool left, bool last)
{
    nfy_buf_addstr(out, "  ");
    jkey(out, key);
    nfy_buf_addch(out, '[');
    size_t written = 0;
    for (size_t i = 0; i < v->n; i++) {
        nfy_finding buf;
        if ((nfy__report_sorted_head(v, i, &buf)->cat ==
             NFY_CAT_LEFT_UNCHANGED) != left)
            continue;
        nfy_buf_addstr(out, written++ ? ",\n    " : "\n    ");
        write_finding(out, nfy__report_sorted_at(v, i, &buf));
    }
    nfy_buf_addstr(out, written ? "\n  ]" : "]");
    nfy_buf_addstr(out, last ? "\n" : ",\n");
}

/* "training": the training program of each script (file:line, kind,
 * text), by file and line whatever order the threads added them in. */
static void write_training(nfy_buf *out, const nfy_report *rep)
{
    const nfy_report_training_row **rows;
    size_t n = nfy_report_training_sorted(rep, &rows);
    nfy_buf_addstr(out, "  \"training\": [");
    for (size_t i = 0; i < n; i++) {
        nfy_buf_addstr(out, i ? ",\n    {" : "\n    {");
        jkv_str(out, QKEY("file"), rows[i]->file, true);
        jkv_num(out, "line", rows[i]->line, true);
        jkv_str(out, QKEY("kind"), rows[i]->kind, true);
        jkv_str(out, QKEY("text"), rows[i]->text, rows[i]->note != NULL);
        if (rows[i]->note != NULL)
            jkv_str(out, QKEY("how"), rows[i]->note, false);
        nfy_buf_addch(out, '}');
    }
    nfy_buf_addstr(out, "\n  ]\n");
    free(rows);
}

void nfy__report_render_json(const nfy__sorted *v, nfy_buf *out)
{
    const nfy_report *rep = v->rep;
    bool training = rep->training.len > 0;
    write_head(out, rep);
    write_summary(out, rep);
    write_files(out, rep, v);
    write_findings(out, "findings", v, false, false);
    write_findings(out, "left_unchanged", v, true, !training);
    if (training)
        write_training(out, rep);
    nfy_buf_addstr(out, "}\n");
}

void nfy_report_render_json(const nfy_report *rep, nfy_buf *out)
{
    nfy__report_render_sorted(rep, nfy__report_render_json, out);
}
