/*
 * Unit tests for the file I/O of convert: reads and copies sized by fstat
 * (one call for a whole file) still take a file that grew or shrank since
 * whole, and convert -o puts every file of a tree where files and
 * subdirectories alternate, deeper than the kept output directories go,
 * in its own place, with -j 1 and -j 3.
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

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert/convert.h"
#include "core/core.h"

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static char *make_dir(void)
{
    static char dir[64];
    snprintf(dir, sizeof dir, "/tmp/npuify_fsio_XXXXXX");
    assert_non_null(mkdtemp(dir));
    return dir;
}

static void remove_dir(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A text of n bytes that differs at every offset modulo 251. */
static char *pattern(size_t n)
{
    char *p = malloc(n + 1);
    assert_non_null(p);
    for (size_t i = 0; i < n; i++)
        p[i] = (char)('!' + i % 251 % 90);
    p[n] = '\0';
    return p;
}

/* Read path with the size hint given (what an earlier fstat said). */
static nfy_status read_hinted(const char *path, off_t hint, size_t max,
                              nfy_buf *out)
{
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    nfy_status st = nfy_file_read_sized(fd, hint, max, out);
    close(fd);
    return st;
}

static void test_read_sized(void **state)
{
    (void)state;
    char *dir = make_dir();
    char path[96];
    snprintf(path, sizeof path, "%s/f", dir);
    size_t sizes[] = {0, 1, 11, 65535, 65536, 65537, 200000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        char *text = pattern(n);
        write_file(path, text, n);
        /* Right, smaller (the file grew), larger (it shrank), unknown. */
        off_t hints[] = {(off_t)n, (off_t)n / 2, (off_t)n + 7, -1};
        for (size_t h = 0; h < 4; h++) {
            nfy_buf b = NFY_BUF_INIT;
            assert_int_equal(read_hinted(path, hints[h], n + 1, &b), NFY_OK);
            assert_int_equal(b.len, n);
            assert_true(n == 0 || !memcmp(b.data, text, n));
            nfy_buf_release(&b);
        }
        if (n > 1) { /* over the cap, whatever the hint */
            nfy_buf b = NFY_BUF_INIT;
            assert_int_equal(read_hinted(path, (off_t)n, n - 1, &b),
                             NFY_ELIMIT);
            nfy_buf_release(&b);
            b = (nfy_buf)NFY_BUF_INIT;
            assert_int_equal(read_hinted(path, 1, n - 1, &b), NFY_ELIMIT);
            nfy_buf_release(&b);
        }
        free(text);
    }
    /* A file whose size says nothing (procfs) is read whole. */
    nfy_buf b = NFY_BUF_INIT;
    assert_int_equal(read_hinted("/proc/self/status", 0, 1 << 20, &b), NFY_OK);
    assert_non_null(strstr(nfy_buf_cstr(&b), "\nUmask:"));
    nfy_buf_release(&b);
    remove_dir(dir);
}

/* Copy src into dst_dir with stats whose size is off (the file changed
 * since): the whole file, new or over an existing one. */
static void copy_checked(const char *src, const char *dst_dir, const char *text,
                         size_t n)
{
    int dfd = open(dst_dir, O_RDONLY | O_DIRECTORY);
    assert_true(dfd >= 0);
    off_t sizes[] = {(off_t)n, (off_t)n / 3, (off_t)n + 100, 0};
    for (size_t k = 0; k < 4; k++) {
        for (unsigned flags = 0; flags <= NFY_WRITE_NEW;
             flags += NFY_WRITE_NEW) {
            int in = -1;
            struct stat st;
            assert_int_equal(nfy_file_open_read(src, &in, &st), NFY_OK);
            st.st_size = sizes[k];
            nfy_write_opts w = {.mode = 0644, .flags = flags};
            assert_int_equal(nfy_file_copy_fd_at(in, &st, dfd, "dst", &w),
                             NFY_OK);
            close(in);
            char dst[128];
            snprintf(dst, sizeof dst, "%s/dst", dst_dir);
            nfy_buf b = NFY_BUF_INIT;
            assert_int_equal(nfy_file_read(dst, n + 1, &b), NFY_OK);
            assert_int_equal(b.len, n);
            assert_memory_equal(b.data, text, n);
            nfy_buf_release(&b);
        }
    }
    close(dfd);
}

/* The same within one file system (copy_file_range) and, where /dev/shm
 * is another one, across two (copy_file_range refused: the buffer). */
static void test_copy_sized(void **state)
{
    (void)state;
    char *dir = make_dir();
    char src[96];
    snprintf(src, sizeof src, "%s/src", dir);
    size_t n = 150000;
    char *text = pattern(n);
    write_file(src, text, n);
    copy_checked(src, dir, text, n);
    struct stat here, shm;
    char other[] = "/dev/shm/npuify_fsio_XXXXXX";
    if (stat(dir, &here) == 0 && stat("/dev/shm", &shm) == 0 &&
        here.st_dev != shm.st_dev && mkdtemp(other)) {
        copy_checked(src, other, text, n);
        remove_dir(other);
    }
    free(text);
    remove_dir(dir);
}

enum { DEPTH = 20 }; /* deeper than NFY__KEPT_DIRS */

/* src/d0/d1/.../d19, each directory with files before and after its
 * subdirectory (by name) and a sibling d<N>x, each file's text its own
 * path. */
static void make_tree(void)
{
    char path[512] = "src";
    assert_int_equal(mkdir(path, 0755), 0);
    for (int d = 0; d <= DEPTH; d++) {
        static const char *const names[] = {"a.txt", "z.txt", "m.txt"};
        for (size_t k = 0; k < 3; k++) {
            char file[600];
            snprintf(file, sizeof file, "%s/%s", path, names[k]);
            write_file(file, file, strlen(file));
        }
        if (d == DEPTH)
            break;
        size_t len = strlen(path);
        snprintf(path + len, sizeof path - len, "/d%d", d);
        assert_int_equal(mkdir(path, 0755), 0);
        /* A sibling directory after it whose name it begins, with a file
         * of its own. */
        char sib[600];
        snprintf(sib, sizeof sib, "%sx", path);
        assert_int_equal(mkdir(sib, 0755), 0);
        char file[640];
        snprintf(file, sizeof file, "%s/f.txt", sib);
        write_file(file, file, strlen(file));
    }
}

static void test_tree_places(void **state)
{
    (void)state;
    char *dir = make_dir();
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    make_tree();
    nfy_diags rd;
    nfy_diags_init(&rd);
    nfy_rule_set *rules = nfy_rule_set_new(&rd);
    assert_non_null(rules);
    unsigned jobs[] = {1, 3};
    for (size_t k = 0; k < 2; k++) {
        nfy_report rep;
        nfy_report_init(&rep);
        nfy_diags diags;
        nfy_diags_init(&diags);
        nfy_buf diff = NFY_BUF_INIT;
        nfy_convert_stats stats;
        nfy_convert_opts opts = {.src = "src",
                                 .dst = "out",
                                 .action = NFY_CONVERT_WRITE,
                                 .force = true,
                                 .rules = rules,
                                 .jobs = jobs[k]};
        assert_int_equal(nfy_convert_run(&opts, &rep, &diff, &stats, &diags),
                         NFY_OK);
        assert_int_equal(stats.files_error, 0);
        assert_int_equal(system("cd src && find . | sort > ../in.list"), 0);
        assert_int_equal(system("cd out && find . | sort > ../out.list"), 0);
        assert_int_equal(system("cmp -s in.list out.list"), 0);
        assert_int_equal(system("diff -r src out >/dev/null"), 0);
        assert_int_equal(system("rm -rf out"), 0);
        nfy_buf_release(&diff);
        nfy_report_release(&rep);
        nfy_diags_release(&diags);
    }
    nfy_rule_set_free(rules);
    nfy_diags_release(&rd);
    assert_int_equal(chdir(cwd), 0);
    remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_sized),
        cmocka_unit_test(test_copy_sized),
        cmocka_unit_test(test_tree_places),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
