/* Unit tests for core's child runner (src/core/spawn.c): exit codes and
 * signals, captured stdout, a program that cannot run, an explicit program
 * and environment with the child's hook, and a process group of its own
 * with its timeout. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/core.h"
#include "core/spawn.h"

/* sh -c script; its status, and its stdout in out when out is not NULL. */
static nfy_spawn_result sh(const char *script, nfy_buf *out)
{
    char *const argv[] = {(char *)"sh", (char *)"-c", (char *)script, NULL};
    nfy_spawn_opts o = {.argv = argv,
                        .output = out ? NFY_SPAWN_CAPTURE : NFY_SPAWN_DISCARD};
    nfy_spawn_result r;
    nfy_spawn(&o, out, &r);
    return r;
}

static void test_spawn_status(void **state)
{
    (void)state;
    nfy_spawn_result r = sh("echo noise; echo more >&2; exit 7", NULL);
    assert_true(r.started);
    assert_int_equal(r.status, 7);
    r = sh("kill -TERM $$", NULL);
    assert_int_equal(r.status, 128 + SIGTERM);
    assert_false(r.timed_out);
    assert_int_equal(r.stopped_by, 0);
}

static void test_spawn_capture(void **state)
{
    (void)state;
    nfy_buf b = NFY_BUF_INIT;
    /* more than a pipe holds: read while it runs, not after */
    nfy_spawn_result r = sh("i=0; while [ $i -lt 20000 ]; do echo line$i; "
                            "i=$((i+1)); done; printf end",
                            &b);
    assert_int_equal(r.status, 0);
    assert_true(b.len > 65536);
    assert_memory_equal(b.data + b.len - 3, "end", 3);
    assert_memory_equal(b.data, "line0\n", 6);
    nfy_buf_release(&b);
}

static void test_spawn_cannot_run(void **state)
{
    (void)state;
    char *const argv[] = {(char *)"/nonexistent/npuify-test", NULL};
    nfy_spawn_opts o = {.argv = argv,
                        .exec_error = "%s: error[run]: cannot run",
                        .exec_error_errno = true};
    nfy_spawn_result r;
    nfy_spawn(&o, NULL, &r);
    assert_true(r.started); /* fork worked; exec did not */
    assert_int_equal(r.status, 127);
}

static void to_root(void *ctx)
{
    (void)ctx;
    if (chdir("/") != 0)
        _exit(99);
}

static void test_spawn_exe_env_hook(void **state)
{
    (void)state;
    char *const argv[] = {(char *)"sh", (char *)"-c",
                          (char *)"printf '%s:' \"$NFY_T\"; pwd", NULL};
    char *const envp[] = {(char *)"NFY_T=42", NULL};
    nfy_spawn_opts o = {.argv = argv,
                        .exe = "/bin/sh",
                        .envp = envp,
                        .output = NFY_SPAWN_CAPTURE,
                        .leave_interrupts = true,
                        .in_child = to_root};
    nfy_buf b = NFY_BUF_INIT;
    nfy_spawn_result r;
    nfy_spawn(&o, &b, &r);
    assert_int_equal(r.status, 0);
    assert_string_equal(nfy_buf_cstr(&b), "42:/\n");
    nfy_buf_release(&b);
    /* our SIGINT disposition is back as it was */
    struct sigaction now;
    sigaction(SIGINT, NULL, &now);
    assert_true(now.sa_handler == SIG_DFL);
}

static void unblock_forwarded(void)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGHUP);
    sigaddset(&s, SIGQUIT);
    sigaddset(&s, SIGCHLD);
    sigprocmask(SIG_UNBLOCK, &s, NULL);
}

static void test_spawn_group(void **state)
{
    (void)state;
    /* field 5 of /proc/PID/stat is the process group */
    char *const own[] = {(char *)"sh", (char *)"-c",
                         (char *)"read a b c d e rest </proc/$$/stat; "
                                 "[ \"$e\" = \"$$\" ]",
                         NULL};
    nfy_spawn_opts o = {.argv = own, .own_group = true};
    nfy_spawn_result r;
    nfy_spawn(&o, NULL, &r);
    assert_int_equal(r.status, 0);
    assert_false(r.timed_out);
    char *const slow[] = {(char *)"sh", (char *)"-c", (char *)"sleep 30", NULL};
    o = (nfy_spawn_opts){.argv = slow, .own_group = true, .timeout_s = 1};
    nfy_spawn(&o, NULL, &r);
    assert_true(r.timed_out);
    assert_int_equal(r.status, 128 + SIGTERM);
    assert_int_equal(r.stopped_by, 0);
    /* the forwarded signals are left blocked for the caller */
    sigset_t now;
    sigprocmask(SIG_BLOCK, NULL, &now);
    assert_true(sigismember(&now, SIGTERM));
    unblock_forwarded();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spawn_status),
        cmocka_unit_test(test_spawn_capture),
        cmocka_unit_test(test_spawn_cannot_run),
        cmocka_unit_test(test_spawn_exe_env_hook),
        cmocka_unit_test(test_spawn_group),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
