/*
 * The verified script as a child in its own process group (the terminal's
 * foreground group while it runs, so Ctrl-C and reads of the terminal are
 * its own): npuify's SIGINT/SIGTERM/SIGHUP/SIGQUIT are sent on to the
 * whole group, --timeout stops the group (SIGTERM, SIGKILL after a grace),
 * and npuify itself is never killed before it removes its temporaries.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/verify.h"

/* How long a stopped group may take to end before it is killed. */
enum { GRACE_S = 5 };

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static bool is_forwarded(int sig)
{
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
        if (forwarded[i] == sig)
            return true;
    return false;
}

static void hand_terminal(pid_t pgrp)
{
    struct sigaction ign = {0}, old;
    ign.sa_handler = SIG_IGN;
    sigaction(SIGTTOU, &ign, &old);
    (void)tcsetpgrp(STDIN_FILENO, pgrp);
    sigaction(SIGTTOU, &old, NULL);
}

static void start_child(char **argv, bool fg, const sigset_t *mask)
{
    setpgid(0, 0);
    if (fg)
        hand_terminal(getpid());
    sigprocmask(SIG_SETMASK, mask, NULL);
    execvp(argv[0], argv);
    fprintf(stderr, "%s: error[run]: cannot run: %s\n", argv[0],
            strerror(errno));
    _exit(127);
}

/* Wait for pid, stopping its group at the deadline or on a signal. */
static void wait_group(pid_t pid, unsigned timeout_s, const sigset_t *set,
                       nfy_verify_child *out)
{
    double deadline = timeout_s ? now_s() + timeout_s : 0, kill_at = 0;
    for (;;) {
        int status;
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            out->status = WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                              : WEXITSTATUS(status);
            return;
        }
        if (r < 0 && errno != EINTR) {
            out->status = 127;
            return;
        }
        double t = now_s(), next = -1;
        if (deadline && !out->timed_out && !out->stopped_by) {
            if (t >= deadline) {
                out->timed_out = true;
                kill(-pid, SIGTERM);
                kill_at = t + GRACE_S;
                continue;
            }
            next = deadline;
        }
        if (kill_at > 0) {
            if (t >= kill_at) {
                kill(-pid, SIGKILL);
                kill_at = 0;
                continue;
            }
            next = next < 0 || kill_at < next ? kill_at : next;
        }
        struct timespec ts = {0, 0};
        if (next >= 0) {
            double left = next - t;
            ts.tv_sec = (time_t)left;
            ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
        }
        int sig = sigtimedwait(set, NULL, next >= 0 ? &ts : NULL);
        if (sig < 0 || !is_forwarded(sig))
            continue;
        /* a second signal: no more grace */
        kill(-pid, out->stopped_by ? SIGKILL : sig);
        if (!out->stopped_by)
            out->stopped_by = sig;
        if (kill_at == 0)
            kill_at = t + GRACE_S;
    }
}

void nfy_verify_run_child(char **argv, unsigned timeout_s,
                          nfy_verify_child *out)
{
    memset(out, 0, sizeof *out);
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
        sigaddset(&set, forwarded[i]);
    struct sigaction dfl = {0}, old_chld;
    dfl.sa_handler = SIG_DFL; /* an inherited SIG_IGN would reap it away */
    sigaction(SIGCHLD, &dfl, &old_chld);
    sigprocmask(SIG_BLOCK, &set, &old);
    bool fg = isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        start_child(argv, fg, &old);
    if (pid < 0) {
        out->status = 127;
    } else {
        setpgid(pid, pid); /* either side may be first */
        wait_group(pid, timeout_s, &set, out);
        if (out->timed_out || out->stopped_by)
            kill(-pid, SIGKILL); /* what is left of the group */
        if (fg)
            hand_terminal(getpgrp());
    }
    /* Signals stay blocked: one that comes now is noted, and the caller
     * removes its temporaries before it exits. */
    struct timespec zero = {0, 0};
    for (int sig; (sig = sigtimedwait(&set, NULL, &zero)) > 0;)
        if (is_forwarded(sig) && !out->stopped_by)
            out->stopped_by = sig;
    sigaction(SIGCHLD, &old_chld, NULL);
}
