/*
 * Unit tests for `npuify ops` report documents: report.html (sections in
 * order, counts per status, dynamic-shape tables, diagnostics with
 * input:line, tags balanced, every text from the log escaped: names,
 * overloads, shapes and paths with <script>, &, quotes and control
 * characters) and report.json's fields for cut names (cut_from_known,
 * cut_candidates, could_be), parsed back with jansson.
 */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
/* cmocka.h (included last) needs the standard headers above */
#include <cmocka.h>

#include "proflog/proflog.h"
#include "report/ops.h"

/* 2.6: the first cut name resolves to one known operator (a CPU fallback),
 * the second has two candidates (see test_proflog_cut.c) */
#define CUT_UNIQUE  "aten::_scaled_dot_product_flash_attention_for_cpu_ba..."
#define FULL_UNIQUE "aten::_scaled_dot_product_flash_attention_for_cpu_backward"
#define CUT_TWO     "aten::_scaled_dot_product_fused_attention_overrideab..."
#define HOSTILE_OVL "<script>alert(1)</script>"
#define HOSTILE_LBL "Label<img src=x onerror=alert(2)>&amp;\"'"
#define HOSTILE_SHP "[[1], \"<b>&'\"]"

static const nfy_apidb_version *V(const char *name)
{
    const nfy_apidb_version *v = NULL;
    assert_int_equal(nfy_apidb_version_parse(nfy_str_from_cstr(name), &v),
                     NFY_OK);
    return v;
}

typedef struct {
    const char *name, *overload, *shapes;
    int step;
    double self_us;
    uint32_t flags;
} row_spec;

static void add(nfy_prof_table *t, const row_spec *s)
{
    nfy_prof_row r;
    memset(&r, 0, sizeof r);
    r.step = s->step;
    r.calls = 2;
    r.rank = NFY_PROF_RANK_NONE;
    r.table = s->step;
    for (int d = 0; d < NFY_PDEV__COUNT; d++)
        r.self_us[d] = r.total_us[d] = NAN;
    r.self_us[NFY_PDEV_CPU] = s->self_us;
    r.name = nfy_str_from_cstr(s->name);
    r.overload = nfy_str_from_cstr(s->overload ? s->overload : "");
    r.shapes = nfy_str_from_cstr(s->shapes ? s->shapes : "[]");
    r.flags = s->flags | NFY_PROW_HAS_SHAPES;
    nfy_prof_table_add(t, &r);
}

/* The table every test renders: one op of each interesting kind. */
static void build(nfy_prof_table *t)
{
    static const row_spec rows[] = {
        {"aten::mm", NULL, "[[2, 2], [2, 2]]", 1, 50, 0},
        {"aten::mm", NULL, "[[2, 2], [2, 2]]", 2, 50, 0},
        {"aten::add", HOSTILE_OVL, "[[3], [3]]", 1, 5, 0},
        {"aten::add", HOSTILE_OVL, HOSTILE_SHP, 2, 5, 0}, /* shape changed */
        {"aten::relu", NULL, "[[4]]", 2, 7, 0},           /* new later */
        {CUT_UNIQUE, NULL, "[[1]]", 1, 30, NFY_PROW_NAME_TRUNCATED},
        {CUT_TWO, NULL, "[[1]]", 1, 20, NFY_PROW_NAME_TRUNCATED},
        {HOSTILE_LBL, NULL, NULL, 1, 9, 0},
        {"ctl\x01x<y>", NULL, NULL, 1, 1, 0},
    };
    nfy_prof_table_init(t);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        add(t, &rows[i]);
    nfy_prof_table_dynamic(t, 1);
    nfy_prof_table_resolve_truncated(t);
    nfy_prof_table_check(t, V("2.6"), false);
    nfy_prof_table_sort(t);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

static void render_html(const nfy_prof_table *t, const nfy_diags *d,
                        nfy_buf *out)
{
    static const nfy_prof_input_info inputs[] = {
        {"logs/<in>&\"x\".log", "text", {9, 2, 12, 1, 100}, 0}};
    nfy_prof_report_meta m = {V("2.6"), inputs, 1, 1, false, 0, d};
    nfy_report_prof_render_html(t, &m, out);
    assert_int_equal(out->status, NFY_OK);
}

static void test_html_escapes_everything(void **state)
{
    (void)state;
    nfy_prof_table t;
    build(&t);
    nfy_buf out = NFY_BUF_INIT;
    render_html(&t, NULL, &out);
    const char *h = nfy_buf_cstr(&out);
    assert_null(strstr(h, "<script>alert"));
    assert_null(strstr(h, "<img"));
    assert_null(strstr(h, "\"<b>&"));
    assert_int_equal(count(h, "<script>"), 1); /* the sorter only */
    assert_non_null(strstr(h, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_non_null(strstr(
        h, "Label&lt;img src=x onerror=alert(2)&gt;&amp;amp;&quot;&#39;"));
    assert_non_null(strstr(h, "[[1], &quot;&lt;b&gt;&amp;&#39;&quot;]"));
    assert_non_null(strstr(h, "ctl&#xFFFD;x&lt;y&gt;"));
    assert_non_null(strstr(h, "logs/&lt;in&gt;&amp;&quot;x&quot;.log"));
    assert_null(strstr(h, "\x01"));
    /* nothing to fetch: no links, no CSS url(), no src attribute on a tag
     * (" src=" occurs only inside the escaped label) */
    assert_null(strstr(h, "<link"));
    assert_null(strstr(h, "href="));
    assert_null(strstr(h, "url("));
    assert_int_equal(count(h, " src="), 1); /* the label, in "other" */
    nfy_buf_release(&out);
    nfy_prof_table_release(&t);
}

static void test_html_sections_and_counts(void **state)
{
    (void)state;
    nfy_prof_table t;
    build(&t);
    nfy_prof_counts c;
    nfy_prof_table_counts(&t, &c);
    assert_int_equal(c.ops, 5);
    assert_int_equal(c.fallback, 1);
    assert_int_equal(c.unknown, 2); /* CUT_TWO and aten::add.<script> */
    nfy_buf out = NFY_BUF_INIT;
    render_html(&t, NULL, &out);
    const char *h = nfy_buf_cstr(&out);
    const char *ids[] = {"id=\"summary\"", "id=\"inputs\"",
                         "id=\"work\"",    "id=\"unknown\"",
                         "id=\"ops\"",     "id=\"dynamic\"",
                         "id=\"other\"",   "id=\"diagnostics\""};
    const char *prev = h;
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const char *p = strstr(h, ids[i]);
        assert_non_null(p);
        assert_true(p > prev);
        prev = p;
    }
    /* the "all operators" section: one row per operator, by status */
    const char *ops = strstr(h, "id=\"ops\"");
    const char *dyn = strstr(h, "id=\"dynamic\"");
    size_t per[3] = {0};
    const char *st[3] = {"<tr data-status=\"supported\"><td><code>",
                         "<tr data-status=\"cpu-fallback\"><td><code>",
                         "<tr data-status=\"unknown\"><td><code>"};
    for (int k = 0; k < 3; k++)
        for (const char *p = ops; (p = strstr(p, st[k])) && p < dyn; p++)
            per[k]++;
    assert_int_equal(per[0], c.supported);
    assert_int_equal(per[1], c.fallback);
    assert_int_equal(per[2], c.unknown);
    /* the resolved cut name is shown in full, in "work" and "all" */
    assert_int_equal(count(h, "<code>" FULL_UNIQUE "</code>"), 2);
    assert_int_equal(count(h, "data-dynamic=\"shape-changed\""), 1);
    assert_int_equal(count(h, "data-dynamic=\"new-in-later-step\""), 1);
    assert_non_null(strstr(h, " @2"));
    /* tags balance (thead/th counted apart from td/tr) */
    assert_int_equal(count(h, "<table"), count(h, "</table>"));
    assert_int_equal(count(h, "<tr"), count(h, "</tr>"));
    assert_int_equal(count(h, "<td"), count(h, "</td>"));
    assert_int_equal(count(h, "<th style="), count(h, "</th>"));
    assert_int_equal(count(h, "<code>"), count(h, "</code>"));
    assert_int_equal(count(h, "<div"), count(h, "</div>"));
    assert_non_null(strstr(h, "</body></html>\n"));
    nfy_buf_release(&out);
    nfy_prof_table_release(&t);
}

static void test_html_diagnostics(void **state)
{
    (void)state;
    nfy_prof_table t;
    build(&t);
    nfy_diags d;
    nfy_diags_init(&d);
    nfy_diag_add_at(&d, NFY_SEV_NOTE, "prof-skip", "a<b>.log", 3, 0, "note");
    nfy_diag_add_at(&d, NFY_SEV_WARNING, "prof-split-row", "a<b>.log", 7, 1,
                    "row <split> & joined");
    nfy_diag_add_at(&d, NFY_SEV_ERROR, "ops-empty", "none.log", 0, 0,
                    "no table");
    nfy_buf out = NFY_BUF_INIT;
    render_html(&t, &d, &out);
    const char *h = nfy_buf_cstr(&out);
    assert_non_null(strstr(h, "Diagnostics (3)"));
    const char *w = strstr(h, "<code>a&lt;b&gt;.log:7</code>");
    const char *n = strstr(h, "<code>a&lt;b&gt;.log:3</code>");
    const char *e = strstr(h, "<code>none.log</code>");
    assert_non_null(w);
    assert_non_null(n);
    assert_non_null(e);
    assert_true(w < n && e < n); /* warnings and errors before notes */
    assert_non_null(strstr(h, "row &lt;split&gt; &amp; joined"));
    assert_non_null(strstr(h, "class=\"sev-warning\">warning<"));
    nfy_buf_release(&out);
    nfy_diags_release(&d);
    nfy_prof_table_release(&t);
}

static json_t *find_op(json_t *root, const char *name)
{
    json_t *ops = json_object_get(root, "ops");
    size_t i;
    json_t *op;
    json_array_foreach(ops, i, op)
    {
        if (!strcmp(json_string_value(json_object_get(op, "printed")), name))
            return op;
    }
    fail_msg("no op %s in report.json", name);
    return NULL;
}

static void test_json_cut_fields(void **state)
{
    (void)state;
    nfy_prof_table t;
    build(&t);
    nfy_prof_input_info in = {"x.log", "text", {0, 0, 0, 0, 0}, 0};
    nfy_prof_report_meta m = {V("2.6"), &in, 1, 1, false, 0, NULL};
    nfy_buf out = NFY_BUF_INIT;
    nfy_report_prof_render_json(&t, &m, &out);
    json_error_t err;
    json_t *root = json_loads(nfy_buf_cstr(&out), 0, &err);
    assert_non_null(root);
    json_t *u = find_op(root, CUT_UNIQUE);
    assert_true(json_is_true(json_object_get(u, "cut_from_known")));
    assert_int_equal(json_integer_value(json_object_get(u, "cut_candidates")),
                     0);
    assert_string_equal(json_string_value(json_object_get(u, "name")),
                        FULL_UNIQUE);
    assert_string_equal(json_string_value(json_object_get(u, "status")),
                        "cpu-fallback");
    json_t *two = find_op(root, CUT_TWO);
    assert_true(json_is_false(json_object_get(two, "cut_from_known")));
    assert_int_equal(json_integer_value(json_object_get(two, "cut_candidates")),
                     2);
    assert_int_equal(json_array_size(json_object_get(two, "could_be")), 0);
    json_t *add = find_op(root, "aten::add");
    assert_string_equal(json_string_value(json_object_get(add, "overload")),
                        HOSTILE_OVL);
    json_decref(root);
    nfy_buf_release(&out);
    nfy_prof_table_release(&t);
}

/* A cut name with two full names in the input: could_be lists both. */
static void test_json_could_be(void **state)
{
    (void)state;
    static const row_spec rows[] = {
        {"aten::_scaled_dot_product_flash_attention_for_cpu_ba_1", NULL, NULL,
         1, 1, 0},
        {"aten::_scaled_dot_product_flash_attention_for_cpu_ba_2", NULL, NULL,
         1, 1, 0},
        {CUT_UNIQUE, NULL, NULL, 1, 1, NFY_PROW_NAME_TRUNCATED},
    };
    nfy_prof_table t;
    nfy_prof_table_init(&t);
    for (size_t i = 0; i < 3; i++)
        add(&t, &rows[i]);
    nfy_prof_table_resolve_truncated(&t);
    nfy_prof_table_check(&t, V("2.6"), false);
    nfy_prof_table_sort(&t);
    nfy_prof_report_meta m = {V("2.6"), NULL, 0, 1, false, 0, NULL};
    nfy_buf out = NFY_BUF_INIT;
    nfy_report_prof_render_json(&t, &m, &out);
    json_error_t err;
    json_t *root = json_loads(nfy_buf_cstr(&out), 0, &err);
    assert_non_null(root);
    json_t *cb = json_object_get(find_op(root, CUT_UNIQUE), "could_be");
    assert_int_equal(json_array_size(cb), 2);
    assert_string_equal(
        json_string_value(json_array_get(cb, 0)),
        "aten::_scaled_dot_product_flash_attention_for_cpu_ba_1");
    assert_string_equal(
        json_string_value(json_array_get(cb, 1)),
        "aten::_scaled_dot_product_flash_attention_for_cpu_ba_2");
    json_decref(root);
    nfy_buf_release(&out);
    nfy_prof_table_release(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_html_escapes_everything),
        cmocka_unit_test(test_html_sections_and_counts),
        cmocka_unit_test(test_html_diagnostics),
        cmocka_unit_test(test_json_cut_fields),
        cmocka_unit_test(test_json_could_be),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
