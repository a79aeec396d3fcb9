/*
 * The public API (npuify/npuify.h) through its handles only: a diff run on
 * a one-file tree, findings and diagnostics read through *_info copies,
 * every getter false past the end. Includes nothing but npuify.h, so the
 * public header is proven to be enough.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "npuify/npuify.h"

static char *make_tree(const char *text)
{
    char tmpl[] = "/tmp/nfy_api_XXXXXX";
    char *dir = mkdtemp(tmpl);
    assert_non_null(dir);
    char path[256];
    snprintf(path, sizeof path, "%s/train.py", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return strdup(dir);
}

static void remove_tree(char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/train.py", dir);
    unlink(path);
    rmdir(dir);
    free(dir);
}

static void test_diff_run(void **state)
{
    (void)state;
    char *dir = make_tree("import torch\nx = torch.zeros(2).cuda()\n"
                          "def f(:\n");
    nfy_diags *diags = nfy_diags_new();
    nfy_rule_set *rules = nfy_rule_set_new(diags);
    assert_non_null(rules);
    nfy_report *rep = nfy_report_new();
    nfy_buf *diff = nfy_buf_new();
    nfy_convert_opts o = {0};
    o.src = dir;
    o.action = NFY_CONVERT_DIFF;
    o.rules = rules;
    nfy_convert_stats stats;
    assert_int_equal(nfy_convert_run(&o, rep, diff, &stats, diags), NFY_OK);
    /* the syntax error: the file is reported, not converted */
    assert_int_equal(stats.files_error, 1);
    nfy_diag_info d;
    assert_true(nfy_diags_get(diags, 0, &d));
    assert_int_equal(d.severity, NFY_SEV_ERROR);
    assert_non_null(strstr(d.file, "train.py"));
    assert_int_equal(d.line, 3);
    assert_false(
        nfy_diags_get(diags, nfy_diags_count(diags, NFY_SEV_NOTE), &d));
    size_t len;
    nfy_buf_bytes(diff, &len);
    assert_int_equal(len, 0);
    nfy_report_free(rep);
    nfy_buf_free(diff);
    nfy_rule_set_free(rules);
    nfy_diags_free(diags);
    remove_tree(dir);
}

static void test_findings(void **state)
{
    (void)state;
    char *dir = make_tree("import torch\nx = torch.zeros(2).cuda()\n");
    nfy_diags *diags = nfy_diags_new();
    nfy_rule_set *rules = nfy_rule_set_new(diags);
    nfy_report *rep = nfy_report_new();
    nfy_buf *diff = nfy_buf_new();
    nfy_convert_opts o = {
        .src = dir, .action = NFY_CONVERT_DIFF, .rules = rules};
    nfy_convert_stats stats;
    assert_int_equal(nfy_convert_run(&o, rep, diff, &stats, diags), NFY_OK);
    size_t len;
    const char *bytes = nfy_buf_bytes(diff, &len);
    assert_true(len > 0);
    char *text = strndup(bytes, len);
    assert_non_null(strstr(text, "\n+x = torch.zeros(2).npu()\n"));
    free(text);
    nfy_report_totals t;
    nfy_report_totals_get(rep, &t);
    size_t n = nfy_report_finding_count(rep), changes = 0;
    nfy_finding_info f;
    for (size_t i = 0; i < n; i++) {
        assert_true(nfy_report_finding_get(rep, i, &f));
        assert_non_null(f.rule);
        if (f.cat != NFY_CAT_CHANGE || strcmp(f.before, "cuda"))
            continue;
        changes++;
        assert_string_equal(f.file, "train.py");
        assert_int_equal(f.start_line, 2);
        assert_string_equal(f.after, "npu");
        assert_non_null(f.edit_id);
        /* the whole id, the same string on every read */
        assert_true(strncmp(f.edit_id, "train.py:", 9) == 0);
        nfy_finding_info again;
        assert_true(nfy_report_finding_get(rep, i, &again));
        assert_ptr_equal(again.edit_id, f.edit_id);
    }
    assert_int_equal(changes, 1);
    assert_true(t.edits >= 1);
    assert_false(nfy_report_finding_get(rep, n, &f));
    nfy_rule_info r;
    size_t nrules = nfy_rule_set_count(rules);
    assert_true(nfy_rule_set_get(rules, nrules - 1, &r));
    assert_non_null(r.id);
    assert_non_null(r.message);
    assert_false(nfy_rule_set_get(rules, nrules, &r));
    assert_string_equal(nfy_version(), NPUIFY_VERSION);
    assert_string_equal(nfy_status_name(NFY_ENOSPC), "ENOSPC");
    nfy_report_free(rep);
    nfy_buf_free(diff);
    nfy_rule_set_free(rules);
    nfy_diags_free(diags);
    remove_tree(dir);
}

/* An editor's buffer: the same edits and ids as the file in a tree. */
static void test_buffer(void **state)
{
    (void)state;
    static const char text[] = "import torch\nx = torch.zeros(2).cuda()\n";
    nfy_diags *diags = nfy_diags_new();
    nfy_rule_set *rules = nfy_rule_set_new(diags);
    nfy_report *rep = nfy_report_new();
    nfy_buf *out = nfy_buf_new();
    nfy_convert_opts o = {.rules = rules};
    assert_int_equal(nfy_convert_buffer(&o, "pkg/train.py", text,
                                        sizeof text - 1, rep, out, diags),
                     NFY_OK);
    size_t len;
    const char *bytes = nfy_buf_bytes(out, &len);
    char *got = strndup(bytes, len);
    assert_string_equal(got, "import torch\nimport torch_npu\n"
                             "x = torch.zeros(2).npu()\n");
    free(got);
    size_t changes = 0;
    nfy_finding_info f;
    for (size_t i = 0; nfy_report_finding_get(rep, i, &f); i++)
        if (f.cat == NFY_CAT_CHANGE) {
            changes++;
            assert_string_equal(f.file, "pkg/train.py");
            assert_true(strncmp(f.edit_id, "pkg/train.py:", 13) == 0);
        }
    assert_int_equal(changes, 2);
    /* a kind that is not migrated comes back as it was, with no finding */
    nfy_report *rep2 = nfy_report_new();
    nfy_buf *out2 = nfy_buf_new();
    assert_int_equal(nfy_convert_buffer(&o, "notes.txt", text, sizeof text - 1,
                                        rep2, out2, diags),
                     NFY_OK);
    nfy_buf_bytes(out2, &len);
    assert_int_equal(len, sizeof text - 1);
    assert_int_equal(nfy_report_finding_count(rep2), 0);
    assert_int_equal(nfy_convert_buffer(&o, NULL, text, 1, rep2, out2, diags),
                     NFY_EUSAGE);
    assert_int_equal(nfy_convert_buffer(&o, "a.py", NULL, 1, rep2, out2, diags),
                     NFY_EUSAGE);
    nfy_report_free(rep2);
    nfy_buf_free(out2);
    nfy_report_free(rep);
    nfy_buf_free(out);
    nfy_rule_set_free(rules);
    nfy_diags_free(diags);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_diff_run),
                                       cmocka_unit_test(test_findings),
                                       cmocka_unit_test(test_buffer)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
