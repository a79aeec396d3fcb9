/*
 * Unit tests for convert --jobs (nfy_convert_opts.jobs): a run on several
 * threads leaves exactly the report (files, findings and log lines in the
 * same order, every field), the diagnostics (same order, every field), the
 * diff, the stats and the status of the sequential run, on a tree with
 * changes, findings, syntax errors, undecodable bytes and shell launchers,
 * and with write errors.
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

enum { NFILES = 60, NLARGE = 4 };

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

/* The body of file i: a mix of clean, changed, broken and odd files. */
static void file_text(size_t i, char *buf, size_t cap)
{
    switch (i % 5) {
    case 0:
        snprintf(buf, cap,
                 "import torch\nx = torch.zeros(%zu).cuda()\n"
                 "torch.cuda.synchronize()\n",
                 i);
        break;
    case 1:
        snprintf(buf, cap, "import torch\ndef f(:\n    return 'cuda:%zu'\n", i);
        break;
    case 2:
        snprintf(buf, cap, "x = %zu\ns = '\377'\nimport torch\n", i);
        break;
    case 3:
        snprintf(buf, cap,
                 "import torch\nm = torch.nn.DataParallel(None)\n"
                 "d = torch.device('cuda:%zu')\n",
                 i % 8);
        break;
    default:
        snprintf(buf, cap, "print(%zu)\n", i);
        break;
    }
}

/* A script large enough for the calling thread only (parallel.c): mostly
 * comments, with a change every few hundred lines. */
static void write_large(const char *path, size_t i)
{
    size_t cap = 300 << 10, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    for (size_t line = 0; len + 128 < cap; line++)
        len +=
            (size_t)snprintf(text + len, cap - len,
                             line % 300 ? "# padding line %zu of a large file\n"
                                        : "y%zu = torch.ones(2).cuda()\n",
                             line + i);
    write_file(path, text);
    free(text);
}

static void tree_make(tmp_tree *t)
{
    snprintf(t->dir, sizeof t->dir, "/tmp/npuify_jobs_XXXXXX");
    assert_non_null(mkdtemp(t->dir));
    assert_non_null(getcwd(t->cwd, sizeof t->cwd));
    assert_int_equal(chdir(t->dir), 0);
    assert_int_equal(mkdir("src", 0755), 0);
    assert_int_equal(mkdir("src/a", 0755), 0);
    assert_int_equal(mkdir("src/b", 0755), 0);
    char path[64], text[256];
    for (size_t i = 0; i < NFILES; i++) {
        snprintf(path, sizeof path, "src/%s/f%02zu.py", i % 2 ? "a" : "b", i);
        file_text(i, text, sizeof text);
        write_file(path, text);
        if (i % 25 == 7) { /* between small ones, and two in a row */
            snprintf(path, sizeof path, "src/%s/g%02zu.py", i % 2 ? "a" : "b",
                     i);
            write_large(path, i);
            if (i < 25) {
                snprintf(path, sizeof path, "src/%s/g%02zu_2.py",
                         i % 2 ? "a" : "b", i);
                write_large(path, i + 1);
            }
        }
    }
    write_file("src/run.sh", "export NCCL_DEBUG=INFO\nCUDA_VISIBLE_DEVICES=0 "
                             "python a/f01.py\n");
    write_file("src/notes.txt", "cuda\n");
}

static void tree_drop(tmp_tree *t)
{
    assert_int_equal(chdir(t->cwd), 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->dir);
    assert_int_equal(system(cmd), 0);
}

typedef struct {
    nfy_report rep;
    nfy_diags diags;
    nfy_buf diff;
    nfy_convert_stats stats;
    nfy_status st;
} run_out;

static void run(const nfy_rule_set *rules, nfy_convert_action action,
                const char *dst, unsigned jobs, run_out *o)
{
    nfy_diags_init(&o->diags);
    nfy_report_init(&o->rep);
    o->diff = (nfy_buf)NFY_BUF_INIT;
    nfy_convert_opts opts = {.src = "src",
                             .dst = dst,
                             .action = action,
                             .force = true,
                             .rules = rules,
                             .jobs = jobs};
    o->st = nfy_convert_run(&opts, &o->rep, &o->diff, &o->stats, &o->diags);
}

static void run_release(run_out *o)
{
    nfy_buf_release(&o->diff);
    nfy_report_release(&o->rep);
    nfy_diags_release(&o->diags);
}

static void same_str(const char *a, const char *b)
{
    if (!a || !b)
        assert_ptr_equal(a, b);
    else
        assert_string_equal(a, b);
}

static void same_finding(const nfy_finding *a, const nfy_finding *b)
{
    same_str(a->file, b->file);
    assert_int_equal(a->start_line, b->start_line);
    assert_int_equal(a->start_col, b->start_col);
    assert_int_equal(a->end_line, b->end_line);
    assert_int_equal(a->end_col, b->end_col);
    same_str(a->rule, b->rule);
    assert_int_equal(a->op, b->op);
    assert_int_equal(a->safety, b->safety);
    assert_int_equal(a->cat, b->cat);
    same_str(a->api, b->api);
    same_str(a->message, b->message);
    same_str(a->before, b->before);
    same_str(a->after, b->after);
    same_str(a->api_type, b->api_type);
    same_str(a->npu_api, b->npu_api);
}

static void same_diag(const nfy_diag *a, const nfy_diag *b)
{
    assert_int_equal(a->sev, b->sev);
    same_str(a->code, b->code);
    same_str(a->file, b->file);
    assert_int_equal(a->line, b->line);
    assert_int_equal(a->col, b->col);
    assert_int_equal(a->offset, b->offset);
    assert_int_equal(a->width, b->width);
    same_str(a->msg, b->msg);
    assert_int_equal(a->line_text.ptr == NULL, b->line_text.ptr == NULL);
    assert_int_equal(a->line_text.len, b->line_text.len);
    assert_memory_equal(a->line_text.ptr, b->line_text.ptr, a->line_text.len);
}

/* Everything in the same order, field by field. */
static void same_run(const run_out *a, const run_out *b)
{
    assert_int_equal(a->st, b->st);
    assert_int_equal(a->stats.files_seen, b->stats.files_seen);
    assert_int_equal(a->stats.files_scanned, b->stats.files_scanned);
    assert_int_equal(a->stats.files_changed, b->stats.files_changed);
    assert_int_equal(a->stats.files_error, b->stats.files_error);
    assert_int_equal(a->rep.files.len, b->rep.files.len);
    for (size_t i = 0; i < a->rep.files.len; i++) {
        same_str(a->rep.files.items[i].file, b->rep.files.items[i].file);
        assert_int_equal(a->rep.files.items[i].status,
                         b->rep.files.items[i].status);
        same_str(a->rep.files.items[i].note, b->rep.files.items[i].note);
    }
    size_t nf = nfy_report_finding_count(&a->rep);
    assert_int_equal(nf, nfy_report_finding_count(&b->rep));
    for (size_t i = 0; i < nf; i++) {
        nfy_finding fa, fb;
        nfy_report_finding_read(&a->rep, i, &fa);
        nfy_report_finding_read(&b->rep, i, &fb);
        same_finding(&fa, &fb);
    }
    assert_int_equal(a->rep.log.len, b->rep.log.len);
    for (size_t i = 0; i < a->rep.log.len; i++) {
        same_str(a->rep.log.items[i].file, b->rep.log.items[i].file);
        same_str(a->rep.log.items[i].text, b->rep.log.items[i].text);
    }
    assert_int_equal(a->diags.items.len, b->diags.items.len);
    for (size_t i = 0; i < a->diags.items.len; i++)
        same_diag(&a->diags.items.items[i], &b->diags.items.items[i]);
    assert_int_equal(a->diags.dropped, b->diags.dropped);
    assert_int_equal(a->diff.len, b->diff.len);
    if (a->diff.len)
        assert_memory_equal(a->diff.data, b->diff.data, a->diff.len);
}

static void check_action(nfy_convert_action action, const char *dst)
{
    tmp_tree t;
    tree_make(&t);
    nfy_diags rd;
    nfy_diags_init(&rd);
    nfy_rule_set *rules = nfy_rule_set_new(&rd);
    assert_non_null(rules);
    run_out one;
    run(rules, action, dst, 1, &one);
    /* Not vacuous: the tree has work, findings and errors. */
    assert_int_equal(one.stats.files_scanned, NFILES + NLARGE + 1);
    assert_true(one.stats.files_changed > 0);
    assert_true(one.stats.files_error > 0);
    assert_true(nfy_report_finding_count(&one.rep) > NFILES / 2);
    assert_true(nfy_diags_count(&one.diags, NFY_SEV_ERROR) > 0);
    if (action == NFY_CONVERT_DIFF)
        assert_true(one.diff.len > 0);
    static const unsigned jobs[] = {2, 3, 7, 64};
    for (size_t k = 0; k < sizeof jobs / sizeof jobs[0]; k++) {
        run_out many;
        run(rules, action, dst, jobs[k], &many);
        same_run(&one, &many);
        run_release(&many);
    }
    run_release(&one);
    nfy_rule_set_free(rules);
    nfy_diags_release(&rd);
    tree_drop(&t);
}

static void test_diff_same_for_any_jobs(void **state)
{
    (void)state;
    check_action(NFY_CONVERT_DIFF, NULL);
}

static void test_check_same_for_any_jobs(void **state)
{
    (void)state;
    check_action(NFY_CONVERT_CHECK, NULL);
}

static void test_write_same_for_any_jobs(void **state)
{
    (void)state;
    /* Every run writes over the same output (force). */
    check_action(NFY_CONVERT_WRITE, "out");
}

/* The converted tree of -j 5 equals the one of -j 1, file by file. */
static void test_written_tree_same(void **state)
{
    (void)state;
    tmp_tree t;
    tree_make(&t);
    nfy_diags rd;
    nfy_diags_init(&rd);
    nfy_rule_set *rules = nfy_rule_set_new(&rd);
    assert_non_null(rules);
    run_out a, b;
    run(rules, NFY_CONVERT_WRITE, "out1", 1, &a);
    run(rules, NFY_CONVERT_WRITE, "out5", 5, &b);
    assert_int_equal(a.st, NFY_OK);
    same_run(&a, &b);
    assert_int_equal(system("diff -r out1 out5 >/dev/null"), 0);
    /* ... and differs from the input where something changed. */
    assert_int_not_equal(system("diff -r src out1 >/dev/null"), 0);
    run_release(&a);
    run_release(&b);
    nfy_rule_set_free(rules);
    nfy_diags_release(&rd);
    tree_drop(&t);
}

/* Write errors (a file where a directory must go) in the same order. */
static void test_write_errors_same(void **state)
{
    (void)state;
    tmp_tree t;
    tree_make(&t);
    nfy_diags rd;
    nfy_diags_init(&rd);
    nfy_rule_set *rules = nfy_rule_set_new(&rd);
    assert_non_null(rules);
    assert_int_equal(mkdir("out", 0755), 0);
    write_file("out/a", "in the way\n");
    run_out a, b;
    run(rules, NFY_CONVERT_WRITE, "out", 1, &a);
    run(rules, NFY_CONVERT_WRITE, "out", 3, &b);
    assert_int_equal(a.st, NFY_EIO);
    assert_true(a.diags.items.len > NFILES / 2);
    same_run(&a, &b);
    run_release(&a);
    run_release(&b);
    nfy_rule_set_free(rules);
    nfy_diags_release(&rd);
    tree_drop(&t);
}

/* A capped diags runs sequentially: the same records and drops. */
static void test_capped_diags_same(void **state)
{
    (void)state;
    tmp_tree t;
    tree_make(&t);
    nfy_diags rd;
    nfy_diags_init(&rd);
    nfy_rule_set *rules = nfy_rule_set_new(&rd);
    assert_non_null(rules);
    run_out a, b;
    nfy_convert_opts opts = {
        .src = "src", .action = NFY_CONVERT_CHECK, .rules = rules, .jobs = 1};
    run_out *outs[2] = {&a, &b};
    for (int k = 0; k < 2; k++) {
        run_out *o = outs[k];
        nfy_diags_init(&o->diags);
        o->diags.max = 3;
        nfy_report_init(&o->rep);
        o->diff = (nfy_buf)NFY_BUF_INIT;
        opts.jobs = k ? 4 : 1;
        o->st = nfy_convert_run(&opts, &o->rep, &o->diff, &o->stats, &o->diags);
    }
    assert_true(a.diags.dropped > 0);
    same_run(&a, &b);
    run_release(&a);
    run_release(&b);
    nfy_rule_set_free(rules);
    nfy_diags_release(&rd);
    tree_drop(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diff_same_for_any_jobs),
        cmocka_unit_test(test_check_same_for_any_jobs),
        cmocka_unit_test(test_write_same_for_any_jobs),
        cmocka_unit_test(test_written_tree_same),
        cmocka_unit_test(test_write_errors_same),
        cmocka_unit_test(test_capped_diags_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
