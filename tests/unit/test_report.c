/*
 * Unit tests for the report model and writers: CSV headers and escaping,
 * deterministic order whatever the order of addition, report.json and
 * report.sarif parsed back with jansson, records made from edit sets, merge,
 * the console summary, the Markdown escaping, the log format and the atomic
 * writing of every file.
 */
/* cmocka.h needs these first, in this order. */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
/* clang-format on */

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/report.h"
#include "report/report_internal.h"

static nfy_finding mk(const char *file, uint32_t line, uint32_t col,
                      const char *rule, nfy_finding_cat cat, nfy_op_type op,
                      const char *msg)
{
    nfy_finding f = {0};
    f.file = file;
    f.start_line = f.end_line = line;
    f.start_col = col;
    f.end_col = col + 4;
    f.rule = rule;
    f.cat = cat;
    f.op = op;
    f.message = msg;
    f.safety =
        op == NFY_OPTYPE_UNSUPPORTED ? NFY_SAFETY_MANUAL : NFY_SAFETY_SAFE;
    return f;
}

/* A fixed set of findings covering every category, in a scrambled order. */
static void sample(nfy_finding *v, size_t *n)
{
    size_t k = 0;
    v[k] = mk("train.py", 12, 4, "NPU201", NFY_CAT_CHANGE, NFY_OPTYPE_MODIFY,
              "torch.cuda.set_device -> torch.npu.set_device");
    v[k].before = "torch.cuda.set_device";
    v[k++].after = "torch.npu.set_device";
    v[k++] = mk("a/model.py", 3, 0, "NPU001", NFY_CAT_CHANGE, NFY_OPTYPE_INSERT,
                "insert import torch_npu");
    v[k] = mk("train.py", 40, 8, "NPU503", NFY_CAT_UNSUPPORTED_API,
              NFY_OPTYPE_UNSUPPORTED,
              "nn.DataParallel is not supported, "
              "use \"DDP\"\nsee docs");
    v[k++].api = "torch.nn.DataParallel";
    v[k] = mk("train.py", 2, 0, "NPU601", NFY_CAT_UNKNOWN_API, NFY_OPTYPE_NONE,
              NULL);
    v[k++].api = "mylib.fancy";
    v[k] = mk("train.py", 7, 2, "NPU205", NFY_CAT_CUDA_OP, NFY_OPTYPE_NONE,
              "cuda api");
    v[k++].api = "torch.cuda.nvtx.range_push";
    v[k] = mk("a/model.py", 9, 1, "NPU610", NFY_CAT_AFFINITY_API,
              NFY_OPTYPE_NONE, "fused");
    v[k].api = "torch.nn.functional.gelu";
    v[k].api_type = "function";
    v[k++].npu_api = "torch_npu.fast_gelu";
    v[k] = mk(NULL, 0, 0, "NPU401", NFY_CAT_PERFORMANCE_ADVICE, NFY_OPTYPE_NONE,
              "no AMP: add torch.npu.amp");
    v[k++].api = "amp";
    v[k] = mk("a/model.py", 5, 0, "NPU620", NFY_CAT_PRECISION_ADVICE,
              NFY_OPTYPE_NONE, "fp64 runs as fp32");
    v[k++].api = "torch.Tensor.double";
    v[k] = mk("train.py", 30, 10, "NPU190", NFY_CAT_LEFT_UNCHANGED,
              NFY_OPTYPE_NONE, "log message, not a device");
    v[k++].before = "\"using cuda\"";
    *n = k;
}

static void fill(nfy_report *rep, const size_t *order)
{
    nfy_finding v[16];
    size_t n;
    sample(v, &n);
    nfy_report_init(rep);
    nfy_report_meta meta = {"0.1.0", "convert", "proj", "2.1", NULL, "proj"};
    nfy_report_set_meta(rep, &meta);
    nfy_report_add_file(rep, "train.py", NFY_FILE_CONVERTED, NULL);
    nfy_report_add_file(rep, "a/model.py", NFY_FILE_CONVERTED, NULL);
    nfy_report_add_file(rep, "README.md", NFY_FILE_COPIED, NULL);
    nfy_report_add_file(rep, "bad.py", NFY_FILE_ERROR, "invalid UTF-8");
    for (size_t i = 0; i < n; i++)
        nfy_report_add_finding(rep, &v[order ? order[i] : i]);
}

static char *render(const nfy_report *rep,
                    void (*fn)(const nfy_report *, nfy_buf *))
{
    nfy_buf b = NFY_BUF_INIT;
    fn(rep, &b);
    assert_int_equal(b.status, NFY_OK);
    nfy_buf_add(&b, "", 0);
    return nfy_buf_take(&b, NULL);
}

static char *render_csv(const nfy_report *rep, nfy_csv_kind k)
{
    nfy_buf b = NFY_BUF_INIT;
    nfy_report_render_csv(rep, k, &b);
    return nfy_buf_take(&b, NULL);
}

static void test_csv_headers_and_rows(void **state)
{
    (void)state;
    nfy_report rep;
    fill(&rep, NULL);
    char *s = render_csv(&rep, NFY_CSV_CHANGE_LIST);
    assert_string_equal(
        s, "File,Start Line,End Line,Operation Type,Message,Rule,Start Col,"
           "End Col,Safety\n"
           "a/model.py,3,3,INSERT,insert import torch_npu,NPU001,0,4,safe\n"
           "train.py,12,12,MODIFY,torch.cuda.set_device -> "
           "torch.npu.set_device,NPU201,4,8,safe\n"
           "train.py,40,40,UNSUPPORTED,\"nn.DataParallel is not supported, "
           "use \"\"DDP\"\"\nsee docs\",NPU503,8,12,manual\n");
    free(s);
    s = render_csv(&rep, NFY_CSV_UNSUPPORTED_API);
    assert_string_equal(s, "File,Start Line,End Line,OP,Tips\n"
                           "train.py,40,40,torch.nn.DataParallel,\"nn."
                           "DataParallel is not supported, use \"\"DDP\"\"\n"
                           "see docs\"\n");
    free(s);
    s = render_csv(&rep, NFY_CSV_UNKNOWN_API);
    assert_string_equal(s, "File,Start Line,End Line,OP,Tips\n"
                           "train.py,2,2,mylib.fancy,\n");
    free(s);
    s = render_csv(&rep, NFY_CSV_PERFORMANCE_ADVICE);
    assert_string_equal(s, "File,Start Line,End Line,OP,Tips\n"
                           "NA,NA,NA,amp,no AMP: add torch.npu.amp\n");
    free(s);
    s = render_csv(&rep, NFY_CSV_PRECISION_ADVICE);
    assert_non_null(strstr(s, "a/model.py,5,5,torch.Tensor.double,fp64"));
    free(s);
    s = render_csv(&rep, NFY_CSV_CUDA_OP_LIST);
    assert_string_equal(s, "File,Api\ntrain.py,torch.cuda.nvtx.range_push\n");
    free(s);
    s = render_csv(&rep, NFY_CSV_AFFINITY_API);
    assert_string_equal(s, "File,Start Line,End Line,Api Type,Api Call Name,"
                           "Affinity Api Name\na/model.py,9,9,function,"
                           "torch.nn.functional.gelu,torch_npu.fast_gelu\n");
    free(s);
    assert_string_equal(nfy_report_csv_file_name(NFY_CSV_AFFINITY_API),
                        "affinity_api_call.csv");
    nfy_report_release(&rep);
}

/* Every writer gives the same bytes whatever order findings came in. */
static void test_deterministic_order(void **state)
{
    (void)state;
    size_t order[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    nfy_report ref;
    fill(&ref, NULL);
    char *json = render(&ref, nfy_report_render_json);
    char *md = render(&ref, nfy_report_render_md);
    char *sarif = render(&ref, nfy_report_render_sarif);
    char *log = render(&ref, nfy_report_render_log);
    char *html = render(&ref, nfy_report_render_html);
    uint32_t seed = 7;
    for (int round = 0; round < 20; round++) {
        for (size_t i = 8; i > 0; i--) {
            seed = seed * 1103515245u + 12345u;
            size_t j = (seed >> 16) % (i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        nfy_report rep;
        fill(&rep, order);
        char *s = render(&rep, nfy_report_render_json);
        assert_string_equal(s, json);
        free(s);
        s = render(&rep, nfy_report_render_md);
        assert_string_equal(s, md);
        free(s);
        s = render(&rep, nfy_report_render_sarif);
        assert_string_equal(s, sarif);
        free(s);
        s = render(&rep, nfy_report_render_log);
        assert_string_equal(s, log);
        free(s);
        s = render(&rep, nfy_report_render_html);
        assert_string_equal(s, html);
        free(s);
        nfy_report_release(&rep);
    }
    /* And the order is by file, then position. */
    const char *a = strstr(json, "\"a/model.py\", \"start\": {\"line\": 3");
    const char *b = strstr(json, "\"a/model.py\", \"start\": {\"line\": 5");
    const char *c = strstr(json, "\"train.py\", \"start\": {\"line\": 2");
    assert_true(a && b && c && a < b && b < c);
    free(json);
    free(md);
    free(sarif);
    free(log);
    free(html);
    nfy_report_release(&ref);
}

static json_t *parse(const char *text)
{
    json_error_t err;
    json_t *j = json_loads(text, 0, &err);
    if (!j)
        fail_msg("invalid JSON at line %d: %s", err.line, err.text);
    return j;
}

static void test_json_parses_back(void **state)
{
    (void)state;
    nfy_report rep;
    fill(&rep, NULL);
    nfy_finding odd = mk("we\"ird\\name\x01.py", 1, 0, "NPU999",
                         NFY_CAT_UNKNOWN_API, NFY_OPTYPE_NONE, "bad \xff byte");
    nfy_report_add_finding(&rep, &odd);
    char *s = render(&rep, nfy_report_render_json);
    json_t *j = parse(s);
    assert_string_equal(json_string_value(json_object_get(j, "schema")),
                        "npuify-report/1");
    json_t *sum = json_object_get(j, "summary");
    assert_int_equal(json_integer_value(json_object_get(sum, "files_total")),
                     4);
    assert_int_equal(json_integer_value(json_object_get(sum, "files_scanned")),
                     3);
    assert_int_equal(json_integer_value(json_object_get(sum, "files_changed")),
                     2);
    assert_int_equal(json_integer_value(json_object_get(sum, "edits")), 2);
    assert_int_equal(json_integer_value(json_object_get(sum, "manual")), 1);
    json_t *by_rule = json_object_get(sum, "by_rule");
    assert_int_equal(json_integer_value(json_object_get(by_rule, "NPU201")), 1);
    json_t *findings = json_object_get(j, "findings");
    json_t *left = json_object_get(j, "left_unchanged");
    assert_int_equal(json_array_size(findings), 9);
    assert_int_equal(json_array_size(left), 1);
    json_t *l0 = json_array_get(left, 0);
    assert_string_equal(json_string_value(json_object_get(l0, "before")),
                        "\"using cuda\"");
    assert_true(json_is_null(json_object_get(l0, "op")));
    json_t *f0 = json_array_get(findings, 0);
    assert_true(json_is_null(json_object_get(f0, "file")));
    size_t idx;
    json_t *f;
    bool found = false;
    json_array_foreach(findings, idx, f)
    {
        const char *file = json_string_value(json_object_get(f, "file"));
        /* the name escaped reversibly: '\' doubled, the control as \x01 */
        if (file && !strcmp(file, "we\"ird\\\\name\\x01.py")) {
            found = true;
            assert_string_equal(
                json_string_value(json_object_get(f, "message")),
                "bad \xEF\xBF\xBD byte");
        }
    }
    assert_true(found);
    json_t *files = json_object_get(j, "files");
    assert_int_equal(json_array_size(files), 4);
    json_t *first = json_array_get(files, 0);
    assert_string_equal(json_string_value(json_object_get(first, "path")),
                        "README.md");
    json_t *tr = json_array_get(files, 3);
    assert_string_equal(json_string_value(json_object_get(tr, "path")),
                        "train.py");
    assert_int_equal(json_integer_value(json_object_get(tr, "edits")), 1);
    assert_int_equal(json_integer_value(json_object_get(tr, "findings")), 4);
    json_decref(j);
    free(s);
    nfy_report_release(&rep);
}

static const char *desc(void *ctx, const char *id)
{
    (void)ctx;
    return strcmp(id, "NPU201") ? NULL : "torch.cuda API to torch.npu";
}

static void test_sarif_parses_back(void **state)
{
    (void)state;
    nfy_report rep;
    fill(&rep, NULL);
    nfy_finding sp = mk("dir with space/é.py", 1, 0, "NPU201", NFY_CAT_CHANGE,
                        NFY_OPTYPE_DELETE, "drop");
    sp.before = "x";
    nfy_report_add_finding(&rep, &sp);
    rep.rule_desc = desc;
    char *s = render(&rep, nfy_report_render_sarif);
    json_t *j = parse(s);
    assert_string_equal(json_string_value(json_object_get(j, "version")),
                        "2.1.0");
    json_t *runs = json_object_get(j, "runs");
    assert_int_equal(json_array_size(runs), 1);
    json_t *run = json_array_get(runs, 0);
    json_t *rules = json_object_get(
        json_object_get(json_object_get(run, "tool"), "driver"), "rules");
    json_t *results = json_object_get(run, "results");
    assert_int_equal(json_array_size(results), 10);
    assert_int_equal(json_array_size(rules), 9); /* NPU201 twice */
    size_t i;
    json_t *r;
    json_array_foreach(results, i, r)
    {
        size_t ri = (size_t)json_integer_value(json_object_get(r, "ruleIndex"));
        json_t *rule = json_array_get(rules, ri);
        assert_string_equal(json_string_value(json_object_get(rule, "id")),
                            json_string_value(json_object_get(r, "ruleId")));
    }
    json_t *r0 = json_array_get(results, 1); /* a/model.py:3:0 insert */
    json_t *region = json_object_get(
        json_object_get(json_array_get(json_object_get(r0, "locations"), 0),
                        "physicalLocation"),
        "region");
    assert_int_equal(json_integer_value(json_object_get(region, "startLine")),
                     3);
    assert_int_equal(json_integer_value(json_object_get(region, "startColumn")),
                     1);
    assert_non_null(json_object_get(r0, "fixes"));
    assert_non_null(strstr(s, "\"proj/dir%20with%20space/%C3%A9.py\""));
    assert_non_null(strstr(s, "\"torch.cuda API to torch.npu\""));
    json_decref(j);
    free(s);
    nfy_report_release(&rep);
}

static void test_add_edits_and_merge(void **state)
{
    (void)state;
    const char *text = "import torch\nx.cuda()\ny = 1  # del\n";
    nfy_source src;
    assert_int_equal(nfy_source_from_mem(&src, "m.py", text, strlen(text)),
                     NFY_OK);
    nfy_edit_set set;
    nfy_edit_set_init(&set, &src);
    assert_int_equal(nfy_edit_set_add(&set, 15, 19, NFY_STR_LIT("npu"),
                                      "NPU101", ".cuda() -> .npu()", NULL),
                     NFY_OK);
    assert_int_equal(nfy_edit_set_insert(&set, 13,
                                         NFY_STR_LIT("import torch_npu\n"),
                                         "NPU001", "import", NULL),
                     NFY_OK);
    assert_int_equal(
        nfy_edit_set_add(&set, 29, 34, NFY_STR_LIT(""), "NPUX", NULL, NULL),
        NFY_OK);
    nfy_report part, whole;
    nfy_report_init(&part);
    nfy_report_init(&whole);
    nfy_report_add_edits(&part, "pkg/m.py", &set, NFY_SAFETY_SAFE);
    nfy_report_logf(&part, "pkg/m.py", "converted with %d edits", 3);
    nfy_edit_set_release(&set);
    nfy_source_release(&src);
    assert_int_equal(part.open_findings.len, 3);
    const nfy_finding *f = &part.open_findings.items[1];
    assert_int_equal(f->op, NFY_OPTYPE_MODIFY);
    assert_int_equal(f->start_line, 2);
    assert_int_equal(f->start_col, 2);
    assert_string_equal(f->before, "cuda");
    assert_string_equal(f->after, "npu");
    assert_int_equal(part.open_findings.items[0].op, NFY_OPTYPE_INSERT);
    assert_int_equal(part.open_findings.items[2].op, NFY_OPTYPE_DELETE);
    nfy_report_meta meta = {"0.1.0", "convert", NULL, NULL, NULL, NULL};
    nfy_report_set_meta(&whole, &meta);
    nfy_report_add_file(&whole, "pkg/m.py", NFY_FILE_CONVERTED, NULL);
    nfy_report_merge(&whole, &part);
    nfy_report_release(&part); /* whole must own its copies */
    char *csv = render_csv(&whole, NFY_CSV_CHANGE_LIST);
    assert_non_null(strstr(csv, "pkg/m.py,2,2,MODIFY,.cuda() -> .npu(),"
                                "NPU101,2,6,safe\n"));
    assert_non_null(strstr(csv, "pkg/m.py,3,3,DELETE,\"# del -> \",NPUX"));
    free(csv);
    char *log = render(&whole, nfy_report_render_log);
    assert_non_null(strstr(log, "== pkg/m.py: converted\n"
                                "line: 2 ~ 2   Operation Type: INSERT"));
    assert_non_null(strstr(log, "\nconverted with 3 edits\n"));
    free(log);
    nfy_report_release(&whole);
}

static void test_console_summary(void **state)
{
    (void)state;
    nfy_report rep;
    fill(&rep, NULL);
    for (uint32_t i = 0; i < 5; i++) {
        nfy_finding m = mk("z.py", 10 + i, 0, "NPU510", NFY_CAT_UNSUPPORTED_API,
                           NFY_OPTYPE_UNSUPPORTED, "custom CUDA extension");
        nfy_report_add_finding(&rep, &m);
    }
    nfy_buf b = NFY_BUF_INIT;
    nfy_report_render_console(&rep, &(nfy_console_opts){3, false, NULL}, &b);
    const char *s = nfy_buf_cstr(&b);
    assert_non_null(strstr(s, "npuify convert: 3 files scanned, 2 changed, "
                              "1 copied, 0 skipped, 1 error\n"));
    assert_non_null(strstr(s, "edits: 2 (NPU001 x1, NPU201 x1)\n"));
    assert_non_null(
        strstr(s, "manual work: 6 findings\n"
                  "  proj/train.py:40:9: NPU503 nn.DataParallel is not "
                  "supported, use \"DDP\" see docs\n"));
    assert_non_null(strstr(s, "  proj/z.py:10:1: NPU510 custom CUDA extension\n"
                              "  proj/z.py:11:1: NPU510 custom CUDA extension\n"
                              "  ... and 3 more"));
    assert_null(strchr(s, '\033'));
    nfy_buf_reset(&b);
    nfy_report_render_console(&rep, &(nfy_console_opts){3, true, NULL}, &b);
    assert_non_null(strchr(nfy_buf_cstr(&b), '\033'));
    nfy_buf_release(&b);
    nfy_report_release(&rep);
}

static void test_markdown_escapes_cells(void **state)
{
    (void)state;
    nfy_report rep;
    fill(&rep, NULL);
    nfy_finding p =
        mk("p.py", 1, 0, "NPU201", NFY_CAT_CHANGE, NFY_OPTYPE_MODIFY, "a|b\nc");
    p.before = "x | y";
    p.after = "`z`";
    nfy_report_add_finding(&rep, &p);
    char *md = render(&rep, nfy_report_render_md);
    assert_non_null(strstr(md, "# npuify migration report\n"));
    assert_non_null(strstr(md, "| 4 | 3 | 2 | 1 | 0 | 1 | 3 | 1 |\n"));
    assert_non_null(strstr(md, "| a\\|b c |"));
    assert_non_null(strstr(md, "| `x \\| y` |"));
    assert_non_null(strstr(md, "| `z` |"));
    assert_non_null(strstr(md, "## Left unchanged (with the reason)\n\n|"));
    free(md);
    nfy_report_release(&rep);
}

static void test_html_escapes_and_is_self_contained(void **state)
{
    (void)state;
    nfy_report rep;
    fill(&rep, NULL);
    nfy_finding x = mk("x.py", 1, 0, "NPU201", NFY_CAT_CHANGE,
                       NFY_OPTYPE_MODIFY, "<script>alert('x')</script> & co");
    nfy_report_add_finding(&rep, &x);
    char *html = render(&rep, nfy_report_render_html);
    assert_non_null(strstr(html, "<!DOCTYPE html>"));
    /* one script, the page's own (table sorting, #test facts) */
    const char *script = strstr(html, "<script");
    assert_non_null(script);
    assert_null(strstr(script + 1, "<script"));
    assert_null(strstr(html, "http"));
    assert_non_null(strstr(html, "&lt;script&gt;alert(&#39;x&#39;)"
                                 "&lt;/script&gt; &amp; co"));
    /* NPU201 has 2 edits, the most: a full-width bar; NPU001 half; both
     * bars start at the same x. */
    assert_non_null(strstr(html, "NPU201</text><rect x=\"520\" y=\"4\" "
                                 "width=\"560\""));
    assert_non_null(strstr(html, "NPU001</text><rect x=\"520\" y=\"24\" "
                                 "width=\"280\""));
    assert_true(strlen(html) > 0 && html[strlen(html) - 1] == '\n');
    free(html);
    nfy_report_release(&rep);
}

static void test_formats_parse(void **state)
{
    (void)state;
    unsigned m;
    assert_int_equal(
        nfy_report_formats_parse(NFY_REPORT_KIND_TREE, "csv, json,html", &m),
        NFY_OK);
    assert_int_equal(m, NFY_REPORT_CSV | NFY_REPORT_JSON | NFY_REPORT_HTML);
    assert_int_equal(nfy_report_formats_parse(NFY_REPORT_KIND_TREE, "all", &m),
                     NFY_OK);
    assert_int_equal(m, NFY_REPORT_ALL);
    assert_int_equal(
        nfy_report_formats_parse(NFY_REPORT_KIND_TREE, "csv,pdf", &m),
        NFY_EUSAGE);
}

/* ops has every format but the log; its "all" leaves SARIF out; both take
 * the names the help lists, which come from the same table. */
/* Open findings are reached by a mark; a change left unchanged says why,
 * and sealing closes them. */
static void test_open_findings(void **state)
{
    (void)state;
    nfy_report rep;
    nfy_report_init(&rep);
    nfy_finding f = {.file = "a.py",
                     .rule = "NPU201",
                     .cat = NFY_CAT_CHANGE,
                     .op = NFY_OPTYPE_MODIFY,
                     .message = "renamed"};
    nfy_report_add_finding(&rep, &f);
    size_t mark = nfy_report_open_mark(&rep), n;
    assert_int_equal(mark, 1);
    assert_null(nfy_report_open_since(&rep, mark, &n));
    assert_int_equal(n, 0);
    f.start_line = 2;
    nfy_report_add_finding(&rep, &f);
    nfy_finding *open = nfy_report_open_since(&rep, mark, &n);
    assert_int_equal(n, 1);
    assert_int_equal(open[0].start_line, 2);
    char why[] = "not applied: a test";
    nfy_report_leave_unchanged(&rep, &open[0], why);
    why[0] = 'X'; /* copied */
    nfy_finding got;
    nfy_report_finding_read(&rep, 1, &got);
    assert_int_equal(got.cat, NFY_CAT_LEFT_UNCHANGED);
    assert_int_equal(got.op, NFY_OPTYPE_NONE);
    assert_string_equal(got.message, "not applied: a test");
    nfy_report_finding_read(&rep, 0, &got);
    assert_int_equal(got.cat, NFY_CAT_CHANGE);
    nfy_report_seal(&rep);
    assert_int_equal(nfy_report_open_mark(&rep), 0);
    assert_null(nfy_report_open_since(&rep, 0, &n));
    assert_int_equal(nfy_report_finding_count(&rep), 2);
    nfy_report_release(&rep);
}

static void test_formats_parse_ops(void **state)
{
    (void)state;
    unsigned m;
    assert_int_equal(nfy_report_formats_parse(NFY_REPORT_KIND_OPS, "log", &m),
                     NFY_EUSAGE);
    assert_int_equal(nfy_report_formats_parse(NFY_REPORT_KIND_OPS, "all", &m),
                     NFY_OK);
    assert_int_equal(m, NFY_REPORT_CSV | NFY_REPORT_JSON | NFY_REPORT_MD |
                            NFY_REPORT_HTML);
    assert_int_equal(
        nfy_report_formats_parse(NFY_REPORT_KIND_OPS, "sarif,markdown", &m),
        NFY_OK);
    assert_int_equal(m, NFY_REPORT_SARIF | NFY_REPORT_MD);
    assert_int_equal(nfy_report_formats_of(NFY_REPORT_KIND_TREE),
                     NFY_REPORT_ALL);
    assert_int_equal(NFY_REPORT_ALL, 0x3f);
    assert_string_equal(NFY_REPORT_TREE_FORMAT_NAMES,
                        "csv,log,json,md,sarif,html,");
    assert_string_equal(NFY_REPORT_OPS_FORMAT_NAMES, "csv,json,md,sarif,html,");
}

static void remove_tree(const char *dir)
{
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void read_all(const char *dir, const char *name, nfy_buf *b)
{
    nfy_buf path = NFY_BUF_INIT;
    nfy_buf_addf(&path, "%s/%s", dir, name);
    nfy_buf_reset(b);
    assert_int_equal(nfy_file_read(nfy_buf_cstr(&path), 1 << 24, b), NFY_OK);
    nfy_buf_release(&path);
}

static void test_write_all_files(void **state)
{
    (void)state;
    static const char *const names[] = {"change_list.csv",
                                        "unsupported_api.csv",
                                        "unknown_api.csv",
                                        "api_precision_advice.csv",
                                        "api_performance_advice.csv",
                                        "cuda_op_list.csv",
                                        "affinity_api_call.csv",
                                        "npuify.log",
                                        "report.json",
                                        "summary.md",
                                        "report.sarif"};
    char tmp[] = "/tmp/nfy_test_report_XXXXXX";
    assert_non_null(mkdtemp(tmp));
    nfy_buf dirb = NFY_BUF_INIT, blockedb = NFY_BUF_INIT;
    nfy_buf_addf(&dirb, "%s/out/report", tmp);
    const char *dir = nfy_buf_cstr(&dirb);
    nfy_report rep;
    fill(&rep, NULL);
    nfy_diags d;
    nfy_diags_init(&d);
    assert_int_equal(nfy_report_write(&rep, dir, NFY_REPORT_ALL, &d), NFY_OK);
    nfy_buf first = NFY_BUF_INIT, again = NFY_BUF_INIT;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        read_all(dir, names[i], &first);
        assert_true(first.len > 0);
    }
    read_all(dir, "report.json", &first);
    char *json = render(&rep, nfy_report_render_json);
    assert_string_equal(nfy_buf_cstr(&first), json);
    free(json);
    assert_int_equal(nfy_report_write(&rep, dir, NFY_REPORT_JSON, &d), NFY_OK);
    read_all(dir, "report.json", &again);
    assert_string_equal(nfy_buf_cstr(&first), nfy_buf_cstr(&again));
    /* A file where the directory should be: an error, with a diagnostic. */
    nfy_buf_addf(&blockedb, "%s/report.json/x", dir);
    assert_int_not_equal(
        nfy_report_write(&rep, nfy_buf_cstr(&blockedb), NFY_REPORT_ALL, &d),
        NFY_OK);
    nfy_buf_release(&blockedb);
    nfy_buf_release(&dirb);
    assert_true(nfy_diags_count(&d, NFY_SEV_ERROR) >= 1);
    nfy_buf_release(&first);
    nfy_buf_release(&again);
    nfy_diags_release(&d);
    nfy_report_release(&rep);
    remove_tree(tmp);
}

/* Every writer's bytes for rep. */
static char *render_all(const nfy_report *rep)
{
    nfy_buf b = NFY_BUF_INIT;
    for (int k = 0; k < NFY_CSV_COUNT; k++)
        nfy_report_render_csv(rep, (nfy_csv_kind)k, &b);
    nfy_report_render_log(rep, &b);
    nfy_report_render_json(rep, &b);
    nfy_report_render_md(rep, &b);
    nfy_report_render_sarif(rep, &b);
    nfy_report_render_html(rep, &b);
    nfy_report_render_console(rep, &(nfy_console_opts){(size_t)-1, false, NULL},
                              &b);
    nfy_buf_add(&b, "", 0);
    return nfy_buf_take(&b, NULL);
}

/* Sealed findings read back as they were added, and write the same. */
static void test_seal_keeps_everything(void **state)
{
    (void)state;
    nfy_report open, sealed;
    fill(&open, NULL);
    fill(&sealed, NULL);
    nfy_finding extra = mk("train.py", 50, 0, "NPU201", NFY_CAT_CHANGE,
                           NFY_OPTYPE_MODIFY, "again");
    extra.value_set_id = "vs1.2";
    extra.value_set = "impl";
    extra.edit_id = "e-1";
    extra.code_before = "x.cuda()";
    extra.code_after = "x.npu()";
    extra.rule_severity = NFY_SEV_WARNING;
    nfy_report_seal(&sealed);
    assert_int_equal(sealed.open_findings.len, 0);
    nfy_report_add_finding(&open, &extra);
    nfy_report_add_finding(&sealed, &extra); /* stays open */
    size_t n = nfy_report_finding_count(&open);
    assert_int_equal(n, nfy_report_finding_count(&sealed));
    assert_int_equal(sealed.nrows, n - 1);
    nfy_finding last;
    nfy_report_finding_read(&sealed, n - 1, &last);
    assert_string_equal(last.message, "again");
    nfy_report_seal(&sealed);
    nfy_report_finding_read(&sealed, n - 1, &last);
    assert_string_equal(last.value_set_id, "vs1.2");
    assert_string_equal(last.value_set, "impl");
    assert_string_equal(last.edit_id, "e-1");
    assert_false(last.edit_id_in_file);
    assert_string_equal(last.code_before, "x.cuda()");
    assert_string_equal(last.code_after, "x.npu()");
    assert_int_equal(last.rule_severity, NFY_SEV_WARNING);
    assert_int_equal(last.end_col, 4);
    assert_null(last.api);
    char *a = render_all(&open), *b = render_all(&sealed);
    assert_string_equal(a, b);
    free(a);
    free(b);
    nfy_report_release(&open);
    nfy_report_release(&sealed);
}

/* Findings drawn from tiny value sets, so most keys tie: the sealed rows'
 * order (compared on ids first) must be the open findings' order. */
static void random_finding(uint32_t *seed, nfy_finding *f)
{
    static const char *const files[] = {NULL, "a.py", "b/c.py"};
    static const char *const rules[] = {"NPU101", "NPU201", "NPU701"};
    static const char *const texts[] = {NULL, "x", "y"};
    uint32_t r[12];
    for (size_t i = 0; i < 12; i++) {
        *seed = *seed * 1103515245u + 12345u;
        r[i] = (*seed >> 16) % 3;
    }
    *f = (nfy_finding){.file = files[r[0]],
                       .start_line = r[1],
                       .start_col = r[2],
                       .end_line = r[1],
                       .end_col = r[2] + 1,
                       .rule = rules[r[3]],
                       .op = (nfy_op_type)(r[4] % 2),
                       .safety = (nfy_safety)r[5],
                       .cat = (nfy_finding_cat)r[6],
                       .message = texts[r[7]],
                       .api = texts[r[8]],
                       .before = texts[r[9]],
                       .after = texts[r[10]],
                       .npu_api = texts[r[11]],
                       .api_type = texts[(r[11] + r[10]) % 3]};
}

/* An edit id kept without its file reads back whole, sealed or open, and
 * copies of a file share one tuple. */
static void test_edit_id_in_file(void **state)
{
    (void)state;
    nfy_report rep;
    nfy_report_init(&rep);
    const char *files[] = {"a/x.py", "b/x.py"};
    for (int k = 0; k < 2; k++) {
        nfy_finding f = mk(files[k], 3, 1, "NPU201", NFY_CAT_CHANGE,
                           NFY_OPTYPE_MODIFY, "m");
        f.edit_id = "17:NPU201:0123abcd";
        f.edit_id_in_file = true;
        nfy_report_add_finding(&rep, &f);
        if (k == 0)
            nfy_report_seal(&rep);
    }
    nfy_buf b = NFY_BUF_INIT;
    nfy_finding f;
    nfy_report_finding_read(&rep, 0, &f);
    assert_true(f.edit_id_in_file);
    assert_string_equal(nfy_report_finding_edit_id(&f, &b),
                        "a/x.py:17:NPU201:0123abcd");
    nfy_report_finding_read(&rep, 1, &f);
    assert_string_equal(nfy_report_finding_edit_id(&f, &b),
                        "b/x.py:17:NPU201:0123abcd");
    nfy_report_seal(&rep);
    assert_int_equal(nfy__report_row(&rep, 0)->extra,
                     nfy__report_row(&rep, 1)->extra);
    nfy_finding_info i0, i1;
    assert_true(nfy_report_finding_get(&rep, 0, &i0));
    assert_true(nfy_report_finding_get(&rep, 1, &i1));
    assert_string_equal(i0.edit_id, "a/x.py:17:NPU201:0123abcd");
    assert_string_equal(i1.edit_id, "b/x.py:17:NPU201:0123abcd");
    f.edit_id = NULL;
    assert_null(nfy_report_finding_edit_id(&f, &b));
    nfy_buf_release(&b);
    nfy_report_release(&rep);
}

static void test_sealed_order_is_open_order(void **state)
{
    (void)state;
    nfy_report open, sealed;
    nfy_report_init(&open);
    nfy_report_init(&sealed);
    uint32_t seed = 7;
    for (size_t i = 0; i < 600; i++) {
        nfy_finding f;
        random_finding(&seed, &f);
        nfy_report_add_finding(&open, &f);
        nfy_report_add_finding(&sealed, &f);
        if (i % 7 == 6)
            nfy_report_seal(&sealed); /* sealed in batches, as per file */
    }
    nfy_report_seal(&sealed);
    assert_int_equal(sealed.open_findings.len, 0);
    assert_int_equal(open.open_findings.len, 600);
    char *a = render_all(&open), *b = render_all(&sealed);
    assert_string_equal(a, b);
    free(a);
    free(b);
    nfy_report_release(&open);
    nfy_report_release(&sealed);
}

/* nfy_report_write sorts once for every file; each file is still what its
 * renderer (which sorts for itself) makes, over sealed and open findings,
 * and the heads the filters see are the rows' own fields. */
static void test_write_matches_renderers(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        void (*fn)(const nfy_report *, nfy_buf *);
    } files[] = {{"npuify.log", nfy_report_render_log},
                 {"report.json", nfy_report_render_json},
                 {"summary.md", nfy_report_render_md},
                 {"report.sarif", nfy_report_render_sarif},
                 {"report.html", nfy_report_render_html}};
    nfy_report rep;
    nfy_report_init(&rep);
    uint32_t seed = 11;
    for (size_t i = 0; i < 400; i++) {
        nfy_finding f;
        random_finding(&seed, &f);
        nfy_report_add_finding(&rep, &f);
        if (i % 9 == 8)
            nfy_report_seal(&rep);
    }
    assert_true(rep.nrows > 0 && rep.open_findings.len > 0);
    for (size_t i = 0; i < nfy_report_finding_count(&rep); i++) {
        nfy_finding whole, buf;
        nfy_report_finding_read(&rep, i, &whole);
        const nfy_finding *h = nfy__report_finding_head(&rep, i, &buf);
        assert_ptr_equal(h->file, whole.file);
        assert_ptr_equal(h->rule, whole.rule);
        assert_int_equal(h->start_line, whole.start_line);
        assert_int_equal(h->end_col, whole.end_col);
        assert_int_equal(h->cat, whole.cat);
        assert_int_equal(h->op, whole.op);
        assert_int_equal(h->safety, whole.safety);
        if (i < rep.nrows)
            assert_null(h->message);
        else
            assert_ptr_equal(h->message, whole.message);
    }
    static const unsigned jobs[] = {1, 4}; /* one thread, and threads */
    for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++) {
        char tmp[] = "/tmp/nfy_test_report_XXXXXX";
        assert_non_null(mkdtemp(tmp));
        nfy_diags d;
        nfy_diags_init(&d);
        assert_int_equal(
            nfy_report_write_jobs(&rep, tmp, NFY_REPORT_ALL, jobs[j], &d),
            NFY_OK);
        assert_int_equal(d.items.len, 0);
        nfy_buf got = NFY_BUF_INIT;
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
            read_all(tmp, files[i].name, &got);
            char *want = render(&rep, files[i].fn);
            assert_string_equal(nfy_buf_cstr(&got), want);
            free(want);
        }
        for (int k = 0; k < NFY_CSV_COUNT; k++) {
            read_all(tmp, nfy_report_csv_file_name((nfy_csv_kind)k), &got);
            char *want = render_csv(&rep, (nfy_csv_kind)k);
            assert_string_equal(nfy_buf_cstr(&got), want);
            free(want);
        }
        nfy_buf_release(&got);
        nfy_diags_release(&d);
        remove_tree(tmp);
    }
    nfy_report_release(&rep);
}

/* Files that cannot be written are reported in the same order, with the
 * same first status, whether the files are rendered on one thread or on
 * several: CSVs, then log, JSON, md, SARIF, HTML. */
static void test_write_jobs_diag_order(void **state)
{
    (void)state;
    nfy_report rep;
    nfy_report_init(&rep);
    nfy_finding f =
        mk("a.py", 1, 0, "NPU101", NFY_CAT_CHANGE, NFY_OPTYPE_MODIFY, "m");
    nfy_report_add_finding(&rep, &f);
    const char *blocked[] = {"report.html", "summary.md",
                             nfy_report_csv_file_name((nfy_csv_kind)1),
                             "report.json"};
    const char *want[] = {nfy_report_csv_file_name((nfy_csv_kind)1),
                          "report.json", "summary.md", "report.html"};
    static const unsigned jobs[] = {1, 2, 8};
    nfy_status first = NFY_OK;
    for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++) {
        char tmp[] = "/tmp/nfy_test_report_XXXXXX";
        assert_non_null(mkdtemp(tmp));
        char path[256];
        for (size_t i = 0; i < 4; i++) { /* a directory in a file's place */
            snprintf(path, sizeof path, "%s/%s", tmp, blocked[i]);
            assert_int_equal(mkdir(path, 0755), 0);
            snprintf(path, sizeof path, "%s/%s/keep", tmp, blocked[i]);
            FILE *fp = fopen(path, "w");
            assert_non_null(fp);
            fclose(fp);
        }
        nfy_diags d;
        nfy_diags_init(&d);
        nfy_status st =
            nfy_report_write_jobs(&rep, tmp, NFY_REPORT_ALL, jobs[j], &d);
        assert_int_not_equal(st, NFY_OK);
        if (j == 0)
            first = st;
        assert_int_equal(st, first);
        assert_int_equal(d.items.len, 4);
        for (size_t i = 0; i < 4; i++) {
            snprintf(path, sizeof path, "%s/%s", tmp, want[i]);
            assert_string_equal(d.items.items[i].file, path);
        }
        nfy_buf got = NFY_BUF_INIT;
        read_all(tmp, "npuify.log", &got); /* the others are still written */
        assert_true(got.len > 0);
        nfy_buf_release(&got);
        nfy_diags_release(&d);
        remove_tree(tmp);
    }
    nfy_report_release(&rep);
}

/* Rule counts are per rule text, sorted by it, even when equal texts sit
 * behind different pointers. */
static void test_rule_counts_by_text(void **state)
{
    (void)state;
    nfy_report rep;
    nfy_report_init(&rep);
    char a[] = "NPU201", b[] = "NPU201", c[] = "NPU101";
    const char *rules[] = {a, c, b, "NPU301", b, a, ""};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        nfy_finding f = mk("x.py", (uint32_t)i + 1, 0, rules[i], NFY_CAT_CHANGE,
                           NFY_OPTYPE_MODIFY, "m");
        nfy_vec_push(&rep.open_findings, f); /* not interned */
    }
    nfy__rule_count_vec rc = {0};
    nfy__report_rule_counts(&rep, nfy__report_any_finding, &rc);
    assert_int_equal(rc.len, 4);
    assert_string_equal(rc.items[0].rule, "");
    assert_int_equal(rc.items[0].count, 1);
    assert_string_equal(rc.items[1].rule, "NPU101");
    assert_int_equal(rc.items[1].count, 1);
    assert_string_equal(rc.items[2].rule, "NPU201");
    assert_int_equal(rc.items[2].count, 4);
    assert_string_equal(rc.items[3].rule, "NPU301");
    nfy_vec_free(&rc);
    nfy_report_release(&rep);
}

static void test_empty_report(void **state)
{
    (void)state;
    nfy_report rep;
    nfy_report_init(&rep);
    char *s = render(&rep, nfy_report_render_json);
    json_t *j = parse(s);
    assert_int_equal(json_array_size(json_object_get(j, "findings")), 0);
    json_decref(j);
    free(s);
    s = render(&rep, nfy_report_render_sarif);
    j = parse(s);
    json_decref(j);
    free(s);
    s = render_csv(&rep, NFY_CSV_CHANGE_LIST);
    assert_string_equal(s, "File,Start Line,End Line,Operation Type,Message,"
                           "Rule,Start Col,End Col,Safety\n");
    free(s);
    nfy_report_release(&rep);
}

static nfy_finding site_finding(const char *rule, nfy_finding_cat cat,
                                nfy_op_type op, const char *api, uint32_t line,
                                const char *message)
{
    nfy_finding f = {.file = "a.py",
                     .start_line = line,
                     .start_col = 4,
                     .end_line = line,
                     .end_col = 9,
                     .rule = rule,
                     .op = op,
                     .safety = NFY_SAFETY_MANUAL,
                     .cat = cat,
                     .api = api,
                     .message = message};
    return f;
}

/* One finding per site and API: a convert rule's stays over an NPU7xx
 * verdict, a kernel over a list verdict, the others named as related;
 * advice of two kinds, edits and findings before first stay apart. */
static void test_merge_sites(void **state)
{
    (void)state;
    nfy_report rep;
    nfy_report_init(&rep);
    const char *dl = "torch.utils.data.DataLoader";
    nfy_finding v[] = {
        site_finding("NPU710", NFY_CAT_PERFORMANCE_ADVICE, NFY_OPTYPE_NONE, dl,
                     1, "dynamic shape"), /* before first */
        site_finding("NPU710", NFY_CAT_PERFORMANCE_ADVICE, NFY_OPTYPE_NONE, dl,
                     2, "dynamic shape"),
        site_finding("NPU602", NFY_CAT_PERFORMANCE_ADVICE, NFY_OPTYPE_NONE, dl,
                     2, "no pin_memory."),
        site_finding("NPU602", NFY_CAT_PERFORMANCE_ADVICE, NFY_OPTYPE_NONE, dl,
                     2, "no pin_memory."),
        site_finding("NPU604", NFY_CAT_AFFINITY_API, NFY_OPTYPE_NONE,
                     "torch.matmul", 3, "affinity"),
        site_finding("NPU703", NFY_CAT_PRECISION_ADVICE, NFY_OPTYPE_NONE,
                     "torch.matmul", 3, "precision"),
        site_finding("NPU701", NFY_CAT_UNSUPPORTED_API, NFY_OPTYPE_UNSUPPORTED,
                     "torch.utils.cpp_extension.load", 4, "not supported"),
        site_finding("NPU502", NFY_CAT_UNSUPPORTED_API, NFY_OPTYPE_UNSUPPORTED,
                     "torch.utils.cpp_extension.load", 4, "CUDA sources"),
        site_finding("NPU201", NFY_CAT_CHANGE, NFY_OPTYPE_MODIFY, dl, 2,
                     "an edit"),
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        nfy_report_add_finding(&rep, &v[i]);
    nfy_report_merge_sites(&rep, 1);
    const nfy_finding_vec *o = &rep.open_findings;
    assert_int_equal(o->len, 6);
    assert_string_equal(o->items[0].message, "dynamic shape");
    assert_string_equal(o->items[1].rule, "NPU602");
    assert_string_equal(o->items[1].message,
                        "no pin_memory; also NPU710: dynamic shape");
    assert_string_equal(o->items[2].rule, "NPU604");
    assert_string_equal(o->items[3].rule, "NPU703");
    assert_string_equal(o->items[4].rule, "NPU502");
    assert_string_equal(o->items[4].message,
                        "CUDA sources; also NPU701: not supported");
    assert_string_equal(o->items[5].rule, "NPU201");
    nfy_report_release(&rep);
}

/* The training program: kind by kind on the console (not in the order
 * added, nor by line), the other sites counted; one table in summary.md. */
static void test_training_views(void **state)
{
    (void)state;
    nfy_report rep;
    nfy_report_init(&rep);
    nfy_buf out = NFY_BUF_INIT;
    nfy_report_render_training(&rep, &out);
    assert_int_equal(out.len, 0); /* nothing without rows */
    nfy_report_add_training(&rep, "b.py", "step", 9, "loss.backward()",
                            "the loss: loss = f(x) (line 8)");
    nfy_report_add_training(&rep, "b.py", "log", 10, "print(loss)", NULL);
    nfy_report_add_training(&rep, "b.py", "module", 3, "net = Net()",
                            "net: its parameters reach the optimizer of "
                            "line 4");
    nfy_report_add_training(&rep, "a.py", "seed", 1, "torch.manual_seed(0)",
                            NULL);
    nfy_report_render_training(&rep, &out);
    assert_string_equal(
        nfy_buf_cstr(&out),
        "training program of a.py:\n"
        "  and 1 logging, checkpoint, progress-bar and seeding site "
        "(report.json \"training\")\n"
        "training program of b.py:\n"
        "  module       b.py:3  net = Net()  (net: its parameters reach the "
        "optimizer of line 4)\n"
        "  step         b.py:9  loss.backward()  (the loss: loss = f(x) "
        "(line 8))\n"
        "  and 1 logging, checkpoint, progress-bar and seeding site "
        "(report.json \"training\")\n");
    nfy_buf_reset(&out);
    nfy_report_render_md(&rep, &out);
    const char *md = nfy_buf_cstr(&out);
    const char *t = strstr(md, "## Training program\n");
    assert_non_null(t);
    assert_non_null(strstr(t, "| b.py:3 | module | `net = Net()` | net: "));
    assert_true(strstr(t, "| a.py:1 | seed |") < strstr(t, "| b.py:3 |"));
    nfy_buf_release(&out);
    nfy_report_release(&rep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_headers_and_rows),
        cmocka_unit_test(test_deterministic_order),
        cmocka_unit_test(test_json_parses_back),
        cmocka_unit_test(test_sarif_parses_back),
        cmocka_unit_test(test_add_edits_and_merge),
        cmocka_unit_test(test_console_summary),
        cmocka_unit_test(test_training_views),
        cmocka_unit_test(test_markdown_escapes_cells),
        cmocka_unit_test(test_html_escapes_and_is_self_contained),
        cmocka_unit_test(test_formats_parse),
        cmocka_unit_test(test_formats_parse_ops),
        cmocka_unit_test(test_open_findings),
        cmocka_unit_test(test_write_all_files),
        cmocka_unit_test(test_seal_keeps_everything),
        cmocka_unit_test(test_edit_id_in_file),
        cmocka_unit_test(test_sealed_order_is_open_order),
        cmocka_unit_test(test_write_matches_renderers),
        cmocka_unit_test(test_write_jobs_diag_order),
        cmocka_unit_test(test_rule_counts_by_text),
        cmocka_unit_test(test_empty_report),
        cmocka_unit_test(test_merge_sites),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
