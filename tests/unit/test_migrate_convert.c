/*
 * Unit tests for the convert driver around the migration passes: a single
 * input file is named as the user gave it (diagnostics, report records,
 * diff headers), not by its base name; a tree keeps paths relative to it.
 */
/* cmocka needs these headers first. */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
/* clang-format on */

#include <sys/stat.h>
#include <unistd.h>

#include "convert/convert.h"

/* A syntax error on line 3 and a CUDA call on line 2. */
static const char BAD_PY[] = "import torch\n"
                             "torch.cuda.synchronize()\n"
                             "def f(:\n";

typedef struct {
    char dir[64];
    char cwd[4096];
} tmp_tree;

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    assert_int_equal(fclose(f), 0);
}

/* A temporary directory holding sub/bad.py; the test runs inside it. */
static void tree_make(tmp_tree *t)
{
    snprintf(t->dir, sizeof t->dir, "/tmp/npuify_conv_XXXXXX");
    assert_non_null(mkdtemp(t->dir));
    assert_non_null(getcwd(t->cwd, sizeof t->cwd));
    assert_int_equal(chdir(t->dir), 0);
    assert_int_equal(mkdir("sub", 0755), 0);
    write_file("sub/bad.py", BAD_PY);
}

static void tree_drop(tmp_tree *t)
{
    (void)unlink("sub/bad.py");
    (void)unlink("out.py");
    (void)rmdir("sub");
    assert_int_equal(chdir(t->cwd), 0);
    (void)rmdir(t->dir);
}

typedef struct {
    nfy_report rep;
    nfy_diags diags;
    nfy_buf diff;
    nfy_rule_set *rules;
} run_out;

static void convert(const char *src, nfy_convert_action action, run_out *o)
{
    nfy_diags_init(&o->diags);
    o->rules = nfy_rule_set_new(&o->diags);
    assert_non_null(o->rules);
    nfy_report_init(&o->rep);
    o->diff = (nfy_buf)NFY_BUF_INIT;
    nfy_convert_opts opts = {.src = src,
                             .dst = "out.py",
                             .action = action,
                             .force = true,
                             .rules = o->rules};
    nfy_convert_stats stats;
    assert_int_equal(
        nfy_convert_run(&opts, &o->rep, &o->diff, &stats, &o->diags), NFY_OK);
    assert_int_equal(stats.files_scanned, 1);
}

static void run_release(run_out *o)
{
    nfy_buf_release(&o->diff);
    nfy_report_release(&o->rep);
    nfy_rule_set_free(o->rules);
    nfy_diags_release(&o->diags);
}

/* Every error diagnostic names diag_want (the file as opened from the
 * current directory), every finding want (relative to the source). */
static void expect_paths2(const run_out *o, const char *diag_want,
                          const char *want)
{
    size_t errors = 0, findings = 0;
    for (size_t i = 0; i < o->diags.items.len; i++) {
        const nfy_diag *d = &o->diags.items.items[i];
        if (d->sev != NFY_SEV_ERROR)
            continue;
        errors++;
        if (d->file == NULL || strcmp(d->file, diag_want) != 0)
            fail_msg("diagnostic %s names '%s', want '%s'", d->code,
                     d->file ? d->file : "(none)", diag_want);
    }
    for (size_t i = 0; i < nfy_report_finding_count(&o->rep); i++) {
        nfy_finding buf;
        const nfy_finding *f = &buf;
        nfy_report_finding_read(&o->rep, i, &buf);
        if (f->file == NULL)
            continue; /* project-level advice */
        findings++;
        if (strcmp(f->file, want) != 0)
            fail_msg("finding %s names '%s', want '%s'", f->rule, f->file,
                     want);
    }
    assert_true(errors > 0);
    assert_true(findings > 0);
}

static void expect_paths(const run_out *o, const char *want)
{
    expect_paths2(o, want, want);
}

static void test_single_file_keeps_given_path(void **state)
{
    (void)state;
    tmp_tree t;
    tree_make(&t);
    run_out o;
    convert("sub/bad.py", NFY_CONVERT_WRITE, &o);
    expect_paths(&o, "sub/bad.py");
    run_release(&o);
    /* a leading ./ is dropped, the rest is kept as given */
    convert("./sub/../sub/bad.py", NFY_CONVERT_WRITE, &o);
    expect_paths(&o, "sub/../sub/bad.py");
    run_release(&o);
    tree_drop(&t);
}

static void test_single_file_diff_header(void **state)
{
    (void)state;
    tmp_tree t;
    tree_make(&t);
    write_file("sub/bad.py", "import torch\nx = torch.cuda.synchronize()\n");
    run_out o;
    convert("./sub/bad.py", NFY_CONVERT_DIFF, &o);
    const char *d = nfy_buf_cstr(&o.diff);
    if (strstr(d, "--- a/sub/bad.py\n+++ b/sub/bad.py\n") == NULL)
        fail_msg("diff headers:\n%s", d);
    run_release(&o);
    tree_drop(&t);
}

static void test_tree_paths_stay_relative(void **state)
{
    (void)state;
    tmp_tree t;
    tree_make(&t);
    run_out o;
    nfy_diags_init(&o.diags);
    o.rules = nfy_rule_set_new(&o.diags);
    nfy_report_init(&o.rep);
    o.diff = (nfy_buf)NFY_BUF_INIT;
    nfy_convert_opts opts = {
        .src = "sub", .action = NFY_CONVERT_CHECK, .rules = o.rules};
    nfy_convert_stats stats;
    assert_int_equal(nfy_convert_run(&opts, &o.rep, NULL, &stats, &o.diags),
                     NFY_OK);
    expect_paths2(&o, "sub/bad.py", "bad.py");
    run_release(&o);
    /* SRC as given: a trailing '/' is one separator, "./" is kept */
    nfy_diags_init(&o.diags);
    o.rules = nfy_rule_set_new(&o.diags);
    nfy_report_init(&o.rep);
    o.diff = (nfy_buf)NFY_BUF_INIT;
    opts.src = "./sub/";
    opts.rules = o.rules;
    assert_int_equal(nfy_convert_run(&opts, &o.rep, NULL, &stats, &o.diags),
                     NFY_OK);
    expect_paths2(&o, "./sub/bad.py", "bad.py");
    run_release(&o);
    tree_drop(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_file_keeps_given_path),
        cmocka_unit_test(test_single_file_diff_header),
        cmocka_unit_test(test_tree_paths_stay_relative),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
