/*
 * The verified script as a child in its own process group (the terminal's
 * foreground group while it runs, so Ctrl-C and reads of the terminal are
 * its own): core's spawn with own_group, which sends npuify's SIGINT,
 * SIGTERM, SIGHUP and SIGQUIT on to the whole group, stops the group at
 * --timeout (SIGTERM, SIGKILL after a grace), and leaves those signals
 * blocked so that npuify removes its temporaries before it is killed.
 */
#include "cli/verify.h"
#include "core/spawn.h"

void nfy_cli_verify_run_child(char **argv, unsigned timeout_s,
                              nfy_verify_child *out)
{
    nfy_spawn_opts o = {.argv = argv,
                        .own_group = true,
                        .timeout_s = timeout_s,
                        .exec_error = "%s: error[run]: cannot run",
                        .exec_error_errno = true};
    nfy_spawn_result r;
    nfy_spawn(&o, NULL, &r);
    *out = (nfy_verify_child){.status = r.status,
                              .timed_out = r.timed_out,
                              .stopped_by = r.stopped_by};
}
