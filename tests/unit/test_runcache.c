/* Unit tests for src/runcache: root lookup, content keys, reuse, atomic
 * publish (no temporary directory left), cleaning. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "rules/rules.h"
#include "runcache/runcache.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *read_text(const char *path)
{
    nfy_buf b = NFY_BUF_INIT;
    assert_int_equal(nfy_file_read(path, 1 << 20, &b), NFY_OK);
    size_t n;
    return nfy_buf_take(&b, &n);
}

typedef struct {
    char root[64];
    char *project, *cache;
    nfy_rule_set *rules;
    nfy_arena a;
} fixture;

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    snprintf(fx->root, sizeof fx->root, "/tmp/npuify-rc-XXXXXX");
    assert_non_null(mkdtemp(fx->root));
    nfy_arena_init(&fx->a);
    fx->project = nfy_path_join(&fx->a, fx->root, "proj");
    fx->cache = nfy_path_join(&fx->a, fx->root, "cache");
    assert_int_equal(nfy_mkdirs(fx->project, 0755), NFY_OK);
    write_file(nfy_path_join(&fx->a, fx->project, "train.py"),
               "import torch\nx = torch.zeros(1).cuda()\n");
    write_file(nfy_path_join(&fx->a, fx->project, "notes.txt"), "cuda\n");
    nfy_diags d;
    nfy_diags_init(&d);
    fx->rules = nfy_rule_set_new(&d);
    nfy_diags_release(&d);
    assert_non_null(fx->rules);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    nfy_diags d;
    nfy_diags_init(&d);
    assert_int_equal(nfy_runcache_clean(fx->root, &d), NFY_OK);
    nfy_diags_release(&d);
    nfy_rule_set_free(fx->rules);
    nfy_arena_release(&fx->a);
    free(fx);
    return 0;
}

static void prepare(fixture *fx, nfy_convert_mode mode, nfy_runcache_entry *e)
{
    nfy_runcache_opts o = {fx->project, fx->cache, mode,
                           NULL,        fx->rules, "test"};
    nfy_diags d;
    nfy_diags_init(&d);
    assert_int_equal(nfy_runcache_prepare(&o, &fx->a, e, &d), NFY_OK);
    nfy_diags_release(&d);
}

static size_t count_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (!strncmp(e->d_name, prefix, strlen(prefix)) &&
            strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static void test_build_then_reuse(void **state)
{
    fixture *fx = *state;
    nfy_runcache_entry e1, e2;
    prepare(fx, NFY_CONVERT_MODE_MANUAL, &e1);
    assert_false(e1.reused);
    assert_int_equal(strlen(e1.key), 64);
    char *py = read_text(nfy_path_join(&fx->a, e1.tree, "train.py"));
    assert_non_null(strstr(py, "import torch_npu\n"));
    assert_non_null(strstr(py, ".npu()"));
    free(py);
    char *orig = read_text(nfy_path_join(&fx->a, fx->project, "train.py"));
    assert_null(strstr(orig, "npu"));
    free(orig);
    char *proj = read_text(nfy_path_join(&fx->a, e1.entry, "project"));
    assert_string_equal(proj, e1.project);
    free(proj);
    prepare(fx, NFY_CONVERT_MODE_MANUAL, &e2);
    assert_true(e2.reused);
    assert_string_equal(e1.key, e2.key);
    assert_int_equal(count_entries(fx->cache, ".tmp-"), 0);
    assert_int_equal(count_entries(fx->cache, ""), 1);
}

static void test_key_follows_content_and_mode(void **state)
{
    fixture *fx = *state;
    nfy_runcache_entry base, auto_mode, edited, same_again;
    prepare(fx, NFY_CONVERT_MODE_MANUAL, &base);
    prepare(fx, NFY_CONVERT_MODE_AUTO, &auto_mode);
    assert_string_not_equal(base.key, auto_mode.key);
    /* a non-Python file is part of the project too */
    write_file(nfy_path_join(&fx->a, fx->project, "notes.txt"), "cudA\n");
    prepare(fx, NFY_CONVERT_MODE_MANUAL, &edited);
    assert_false(edited.reused);
    assert_string_not_equal(base.key, edited.key);
    write_file(nfy_path_join(&fx->a, fx->project, "notes.txt"), "cuda\n");
    prepare(fx, NFY_CONVERT_MODE_MANUAL, &same_again);
    assert_true(same_again.reused);
    assert_string_equal(base.key, same_again.key);
    char *manifest =
        read_text(nfy_path_join(&fx->a, base.entry, "manifest.tsv"));
    /* sha256("cuda\n"), as sha256sum prints it */
    assert_non_null(strstr(manifest, "539be99efc0da5a245f1b9782a7a1496e3034d1"
                                     "b7427def6162a705e380d4370\tnotes.txt\n"));
    free(manifest);
}

static void test_root(void **state)
{
    (void)state;
    nfy_arena a = NFY_ARENA_INIT;
    const char *root;
    char *old_xdg =
        getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
    char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    assert_int_equal(nfy_runcache_root(&a, "/x/y", &root, NULL), NFY_OK);
    assert_string_equal(root, "/x/y");
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    assert_int_equal(nfy_runcache_root(&a, NULL, &root, NULL), NFY_OK);
    assert_string_equal(root, "/xdg/npuify");
    setenv("XDG_CACHE_HOME", "relative", 1); /* ignored, as the spec says */
    setenv("HOME", "/home/u", 1);
    assert_int_equal(nfy_runcache_root(&a, NULL, &root, NULL), NFY_OK);
    assert_string_equal(root, "/home/u/.cache/npuify");
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    nfy_diags d;
    nfy_diags_init(&d);
    assert_int_equal(nfy_runcache_root(&a, NULL, &root, &d), NFY_EUSAGE);
    assert_int_equal(nfy_diags_count(&d, NFY_SEV_ERROR), 1);
    nfy_diags_release(&d);
    if (old_xdg)
        setenv("XDG_CACHE_HOME", old_xdg, 1);
    if (old_home)
        setenv("HOME", old_home, 1);
    free(old_xdg);
    free(old_home);
    nfy_arena_release(&a);
}

static void test_missing_project(void **state)
{
    fixture *fx = *state;
    nfy_runcache_opts o = {"/nonexistent/npuify",
                           fx->cache,
                           NFY_CONVERT_MODE_MANUAL,
                           NULL,
                           fx->rules,
                           "t"};
    nfy_runcache_entry e;
    nfy_diags d;
    nfy_diags_init(&d);
    assert_int_equal(nfy_runcache_prepare(&o, &fx->a, &e, &d), NFY_ENOENT);
    assert_int_equal(nfy_diags_count(&d, NFY_SEV_ERROR), 1);
    nfy_diags_release(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_build_then_reuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_key_follows_content_and_mode,
                                        setup, teardown),
        cmocka_unit_test(test_root),
        cmocka_unit_test_setup_teardown(test_missing_project, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
