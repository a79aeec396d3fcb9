/* Unit tests for src/runcache: root lookup, content keys, reuse, atomic
 * publish (no temporary directory left), cleaning; whose cache it is,
 * entries changed after their build, stale temporaries, links, FIFOs. */
#define _GNU_SOURCE 1 /* nftw's FTW_DEPTH/FTW_PHYS */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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

static int remove_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    chmod(path, 0700);
    return remove(path) != 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    assert_int_equal(nftw(fx->root, remove_one, 16, FTW_DEPTH | FTW_PHYS), 0);
    nfy_rule_set_free(fx->rules);
    nfy_arena_release(&fx->a);
    free(fx);
    return 0;
}

/* prepare, expecting want; the code of the first diagnostic (or NULL)
 * into *code (arena). */
static nfy_status prepare_code(fixture *fx, nfy_runcache_entry *e,
                               const char **code)
{
    nfy_runcache_opts o = {fx->project, fx->cache, NFY_CONVERT_MODE_MANUAL,
                           NULL,        fx->rules, "test"};
    nfy_diags d;
    nfy_diags_init(&d);
    nfy_status st = nfy_runcache_prepare(&o, &fx->a, e, &d);
    nfy_diag_info info;
    *code = nfy_diags_get(&d, 0, &info) ? nfy_arena_strdup(&fx->a, info.code)
                                        : NULL;
    nfy_diags_release(&d);
    return st;
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

static void test_root_writable_by_others_refused(void **state)
{
    fixture *fx = *state;
    nfy_runcache_entry e, refused;
    const char *code;
    prepare(fx, NFY_CONVERT_MODE_MANUAL, &e);
    struct stat st;
    assert_int_equal(stat(fx->cache, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700); /* created 0700 */
    assert_int_equal(chmod(fx->cache, 0777), 0);
    assert_int_equal(prepare_code(fx, &refused, &code), NFY_EACCES);
    assert_string_equal(code, "cache-unsafe");
    assert_int_equal(chmod(fx->cache, 0700), 0);
    assert_int_equal(chmod(e.tree, 0775), 0); /* an entry's directory */
    assert_int_equal(prepare_code(fx, &refused, &code), NFY_EACCES);
    assert_string_equal(code, "cache-unsafe");
}

static void test_root_of_another_user_refused(void **state)
{
    fixture *fx = *state;
    if (geteuid() != 0) {
        skip();
        return;
    }
    nfy_runcache_entry e, refused;
    const char *code;
    prepare(fx, NFY_CONVERT_MODE_MANUAL, &e);
    assert_int_equal(chown(fx->cache, 65534, 65534), 0);
    assert_int_equal(prepare_code(fx, &refused, &code), NFY_EACCES);
    assert_string_equal(code, "cache-unsafe");
    assert_int_equal(chown(fx->cache, 0, 0), 0);
    assert_int_equal(chown(e.entry, 65534, 65534), 0);
    assert_int_equal(prepare_code(fx, &refused, &code), NFY_EACCES);
    assert_string_equal(code, "cache-unsafe");
}

static void test_changed_entry_rebuilt(void **state)
{
    fixture *fx = *state;
    nfy_runcache_entry e1, e2, e3;
    const char *code;
    prepare(fx, NFY_CONVERT_MODE_MANUAL, &e1);
    const char *py = nfy_path_join(&fx->a, e1.tree, "train.py");
    FILE *f = fopen(py, "a");
    assert_non_null(f);
    fputs("print('TAMPERED')\n", f);
    fclose(f);
    assert_int_equal(prepare_code(fx, &e2, &code), NFY_OK);
    assert_false(e2.reused);
    assert_string_equal(code, "cache-changed");
    assert_string_equal(e1.key, e2.key);
    char *text = read_text(py);
    assert_null(strstr(text, "TAMPERED"));
    free(text);
    /* new stamps, same bytes: the hash says it is as built */
    assert_int_equal(utimensat(AT_FDCWD, py, NULL, 0), 0);
    assert_int_equal(prepare_code(fx, &e3, &code), NFY_OK);
    assert_true(e3.reused);
    assert_null(code);
    /* the tree replaced by a link to another directory */
    const char *old = nfy_path_join(&fx->a, e3.entry, "old");
    assert_int_equal(rename(e3.tree, old), 0);
    assert_int_equal(symlink(fx->project, e3.tree), 0);
    assert_int_equal(prepare_code(fx, &e3, &code), NFY_OK);
    assert_false(e3.reused);
    assert_string_equal(code, "cache-changed");
    struct stat st;
    assert_int_equal(lstat(e3.tree, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(count_entries(fx->cache, ".tmp-"), 0);
}

static void test_stale_temporaries_removed(void **state)
{
    fixture *fx = *state;
    nfy_runcache_entry e;
    prepare(fx, NFY_CONVERT_MODE_MANUAL, &e);
    const char *dead = nfy_path_join(&fx->a, fx->cache, ".tmp-Dead01");
    const char *live = nfy_path_join(&fx->a, fx->cache, ".tmp-Live01");
    const char *fresh = nfy_path_join(&fx->a, fx->cache, ".tmp-Fresh1");
    assert_int_equal(nfy_mkdirs(nfy_path_join(&fx->a, dead, "tree/x"), 0700),
                     NFY_OK);
    assert_int_equal(mkdir(live, 0700), 0);
    assert_int_equal(mkdir(fresh, 0700), 0);
    struct timespec old[2] = {{0, UTIME_OMIT}, {1000000000, 0}};
    assert_int_equal(utimensat(AT_FDCWD, dead, old, 0), 0);
    assert_int_equal(utimensat(AT_FDCWD, live, old, 0), 0);
    int held = open(live, O_RDONLY | O_DIRECTORY);
    assert_true(held >= 0);
    assert_int_equal(flock(held, LOCK_EX), 0); /* a builder still at work */
    prepare(fx, NFY_CONVERT_MODE_MANUAL, &e);
    struct stat st;
    assert_int_not_equal(lstat(dead, &st), 0);
    assert_int_equal(lstat(live, &st), 0);
    assert_int_equal(lstat(fresh, &st), 0); /* may not be locked yet */
    close(held);
}

static void test_clean_through_link(void **state)
{
    fixture *fx = *state;
    nfy_runcache_entry e;
    prepare(fx, NFY_CONVERT_MODE_MANUAL, &e);
    const char *link = nfy_path_join(&fx->a, fx->root, "linked");
    assert_int_equal(symlink(fx->cache, link), 0);
    write_file(nfy_path_join(&fx->a, fx->cache, "keep.txt"), "mine\n");
    nfy_diags d;
    nfy_diags_init(&d);
    assert_int_equal(nfy_runcache_clean(link, &d), NFY_OK);
    nfy_diags_release(&d);
    assert_int_equal(count_entries(fx->cache, ""), 1); /* keep.txt */
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
}

static void test_links_as_python_sees_them(void **state)
{
    fixture *fx = *state;
    const char *outside = nfy_path_join(&fx->a, fx->root, "lib.py");
    write_file(outside, "X = 1\n");
    assert_int_equal(
        symlink("../lib.py", nfy_path_join(&fx->a, fx->project, "rel.py")), 0);
    assert_int_equal(symlink(nfy_path_join(&fx->a, fx->project, "train.py"),
                             nfy_path_join(&fx->a, fx->project, "abs.py")),
                     0);
    assert_int_equal(mkfifo(nfy_path_join(&fx->a, fx->project, "p.fifo"), 0600),
                     0);
    nfy_runcache_entry e;
    const char *code;
    assert_int_equal(prepare_code(fx, &e, &code), NFY_OK);
    assert_string_equal(code, "cache-special"); /* the FIFO, named */
    char target[4096];
    ssize_t n = readlink(nfy_path_join(&fx->a, e.tree, "rel.py"), target,
                         sizeof target - 1);
    assert_true(n > 0);
    target[n] = '\0';
    char real[4096];
    assert_non_null(realpath(outside, real));
    assert_string_equal(target, real);
    n = readlink(nfy_path_join(&fx->a, e.tree, "abs.py"), target,
                 sizeof target - 1);
    assert_true(n > 0);
    target[n] = '\0';
    assert_string_equal(target, "train.py"); /* the converted copy */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_build_then_reuse, setup, teardown),
        cmocka_unit_test_setup_teardown(test_key_follows_content_and_mode,
                                        setup, teardown),
        cmocka_unit_test(test_root),
        cmocka_unit_test_setup_teardown(test_missing_project, setup, teardown),
        cmocka_unit_test_setup_teardown(test_root_writable_by_others_refused,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_root_of_another_user_refused,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_changed_entry_rebuilt, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_stale_temporaries_removed, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_clean_through_link, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_links_as_python_sees_them, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
