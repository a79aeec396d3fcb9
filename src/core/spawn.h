/*
 * One way to run a child process and wait for it, for every command that
 * runs one (profile capture, run's probe of the Python, verify's script,
 * analyse --deps' finder): stdout as ours, to /dev/null or read into a
 * buffer; interrupts left to the child; or the child in a process group of
 * its own, the terminal's foreground while it runs, with npuify's SIGINT,
 * SIGTERM, SIGHUP and SIGQUIT sent on to the group and a timeout that
 * stops the group (SIGTERM, SIGKILL after a grace).
 */
#ifndef NPUIFY_CORE_SPAWN_H
#define NPUIFY_CORE_SPAWN_H

#include <stdbool.h>

#include "core/core.h"

typedef enum {
    NFY_SPAWN_INHERIT, /* the child's stdout is ours */
    NFY_SPAWN_DISCARD, /* its stdout and stderr go to /dev/null */
    NFY_SPAWN_CAPTURE  /* its stdout is read into the caller's buffer */
} nfy_spawn_output;

typedef struct {
    char *const *argv;
    /* The program: NULL looks argv[0] up on PATH (execvp); else this path
     * is run with envp (NULL: our environment). */
    const char *exe;
    char *const *envp;
    nfy_spawn_output output;
    /* SIGINT and SIGQUIT are ignored here while the child runs (the
     * terminal sends them to the child, which gets their defaults). */
    bool leave_interrupts;
    /* The child leads a process group of its own; see the top. Signals
     * npuify gets meanwhile are forwarded, and stay blocked on return (one
     * that came is in stopped_by) so that the caller can clean up first. */
    bool own_group;
    unsigned timeout_s; /* own_group only; 0: none */
    /* Written to stderr when the program cannot be run: %s is argv[0],
     * followed by ": " and the reason when with_errno. NULL: nothing. */
    const char *exec_error;
    bool exec_error_errno;
    /* Called in the child just before exec (async-signal-safe calls only). */
    void (*in_child)(void *ctx);
    void *ctx;
} nfy_spawn_opts;

typedef struct {
    bool started;   /* false: fork (or the pipe) failed, err says why */
    int err;        /* errno of that failure */
    int status;     /* exit code, 128 + the signal that ended it, or 127 */
    bool timed_out; /* it ran past timeout_s and its group was stopped */
    int stopped_by; /* the signal npuify got and sent on; 0: none */
} nfy_spawn_result;

/* Run o->argv and wait for it; out receives its stdout with
 * NFY_SPAWN_CAPTURE (else NULL). */
void nfy_spawn(const nfy_spawn_opts *o, nfy_buf *out, nfy_spawn_result *r);

#endif
