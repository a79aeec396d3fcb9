/*
 * Running a child and waiting for it (spawn.h). Everything the child needs
 * (its message, /dev/null, the pipe) is made before fork, so the child
 * only redirects, runs the caller's hook and calls exec.
 */
#include "core/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* How long a stopped group may take to end before it is killed. */
enum { GRACE_S = 5 };

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static int code_of(int status)
{
    return WIFEXITED(status)     ? WEXITSTATUS(status)
           : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
                                 : 127;
}

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

static void put(const char *s)
{
    if (write(STDERR_FILENO, s, strlen(s)) < 0)
        _exit(127);
}

/* What the child does after fork. fds: the pipe (CAPTURE) or /dev/null
 * twice (DISCARD), else -1. */
static _Noreturn void run_child(const nfy_spawn_opts *o, const int fds[2],
                                bool fg, const sigset_t *mask, const char *msg)
{
    if (o->own_group) {
        setpgid(0, 0);
        if (fg)
            hand_terminal(getpid());
        sigprocmask(SIG_SETMASK, mask, NULL);
    }
    if (o->leave_interrupts) {
        signal(SIGINT, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
    }
    if (o->output == NFY_SPAWN_CAPTURE) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
    } else if (o->output == NFY_SPAWN_DISCARD && fds[0] >= 0) {
        dup2(fds[0], STDOUT_FILENO);
        dup2(fds[0], STDERR_FILENO);
    }
    if (o->in_child)
        o->in_child(o->ctx);
    if (o->exe)
        execve(o->exe, o->argv, o->envp ? o->envp : environ);
    else
        execvp(o->argv[0], o->argv);
    if (msg) {
        int err = errno;
        put(msg);
        if (o->exec_error_errno) {
            put(": ");
            put(strerror(err));
        }
        put("\n");
    }
    _exit(127);
}

static void wait_plain(pid_t pid, nfy_spawn_result *r)
{
    int status;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    r->status = w == pid ? code_of(status) : 127;
}

static void read_all(int fd, nfy_buf *out)
{
    char chunk[4096];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        nfy_buf_add(out, chunk, (size_t)n);
    }
}

/* Wait for pid, stopping its group at the deadline or on a signal. */
static void wait_group(pid_t pid, unsigned timeout_s, const sigset_t *set,
                       nfy_spawn_result *r)
{
    double deadline = timeout_s ? now_s() + timeout_s : 0, kill_at = 0;
    for (;;) {
        int status;
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            r->status = code_of(status);
            return;
        }
        if (w < 0 && errno != EINTR) {
            r->status = 127;
            return;
        }
        double t = now_s(), next = -1;
        if (deadline && !r->timed_out && !r->stopped_by) {
            if (t >= deadline) {
                r->timed_out = true;
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
        kill(-pid, r->stopped_by ? SIGKILL : sig);
        if (!r->stopped_by)
            r->stopped_by = sig;
        if (kill_at == 0)
            kill_at = t + GRACE_S;
    }
}

/* The group case: see spawn.h. */
static void spawn_group(const nfy_spawn_opts *o, const int fds[2],
                        const char *msg, nfy_spawn_result *r)
{
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
        run_child(o, fds, fg, &old, msg);
    if (pid < 0) {
        r->err = errno;
        r->status = 127;
    } else {
        r->started = true;
        setpgid(pid, pid); /* either side may be first */
        wait_group(pid, o->timeout_s, &set, r);
        if (r->timed_out || r->stopped_by)
            kill(-pid, SIGKILL); /* what is left of the group */
        if (fg)
            hand_terminal(getpgrp());
    }
    /* Signals stay blocked: one that comes now is noted, and the caller
     * cleans up before it exits. */
    struct timespec zero = {0, 0};
    for (int sig; (sig = sigtimedwait(&set, NULL, &zero)) > 0;)
        if (is_forwarded(sig) && !r->stopped_by)
            r->stopped_by = sig;
    sigaction(SIGCHLD, &old_chld, NULL);
}

static void spawn_plain(const nfy_spawn_opts *o, int fds[2], nfy_buf *out,
                        const char *msg, nfy_spawn_result *r)
{
    struct sigaction ign = {0}, old_int, old_quit;
    if (o->leave_interrupts) {
        ign.sa_handler = SIG_IGN;
        sigemptyset(&ign.sa_mask);
        sigaction(SIGINT, &ign, &old_int);
        sigaction(SIGQUIT, &ign, &old_quit);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        run_child(o, fds, false, NULL, msg);
    if (pid < 0) {
        r->err = errno;
        r->status = 127;
    } else {
        r->started = true;
        if (o->output == NFY_SPAWN_CAPTURE) {
            close(fds[1]);
            fds[1] = -1;
            read_all(fds[0], out);
        }
        wait_plain(pid, r);
    }
    if (o->leave_interrupts) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
    }
}

/* The pipe or /dev/null the child's output goes to; false: no pipe. */
static bool open_output(const nfy_spawn_opts *o, int fds[2])
{
    fds[0] = fds[1] = -1;
    if (o->output == NFY_SPAWN_CAPTURE)
        return pipe(fds) == 0;
    if (o->output == NFY_SPAWN_DISCARD) /* none: the child's stay ours */
        fds[0] = open("/dev/null", O_RDWR | O_CLOEXEC);
    return true;
}

void nfy_spawn(const nfy_spawn_opts *o, nfy_buf *out, nfy_spawn_result *r)
{
    memset(r, 0, sizeof *r);
    int fds[2];
    if (!open_output(o, fds)) {
        r->err = errno;
        r->status = 127;
        return;
    }
    nfy_buf msg = NFY_BUF_INIT;
    if (o->exec_error)
        nfy_buf_addf(&msg, o->exec_error, o->argv[0]);
    const char *m = o->exec_error ? nfy_buf_cstr(&msg) : NULL;
    if (o->own_group)
        spawn_group(o, fds, m, r);
    else
        spawn_plain(o, fds, out, m, r);
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    nfy_buf_release(&msg);
}
