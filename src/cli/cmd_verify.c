/*
 * npuify verify: run the converted project (as `npuify run` does) on the
 * emulated NPU installed with npuify, with every CUDA call left in user
 * code caught and mapped back to the original file:line, and the API names
 * real torch_npu lacks refused. Prints "verify: ok" with the steps seen, or
 * the problems and "verify: FAILED".
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apidb/apidb.h"
#include "cli/commands.h"
#include "cli/run_common.h"
#include "cli/verify.h"

static const char synopsis[] =
    "usage: npuify verify [options] [--] python SCRIPT.py ARGS...\n"
    "       npuify verify --print-path\n";

static const char about[] =
    "Convert SCRIPT's project as `npuify run` does and run it on the NPU\n"
    "emulator installed with npuify (torch_npu over CPU PyTorch). Fails,\n"
    "naming the original file:line and the rule, when a CUDA call is left,\n"
    "or when the code uses a torch.npu / torch_npu name the target\n"
    "torch_npu lacks; prints 'verify: ok' and the steps seen otherwise.\n"
    "The script runs in its own process group: a signal to npuify is sent\n"
    "on to it, and past --timeout (default 1h) the group is stopped\n"
    "(SIGTERM, SIGKILL 5 s later); no temporary is left.\n";

typedef struct {
    nfy_verify_paths paths;
    const nfy_apidb_version *version;
    const char *module_list; /* torch.npu names for the version */
    const char *events;
} verify_setup;

static bool set_env(nfy_arena *a, const verify_setup *s,
                    const nfy_run_plan *plan)
{
    const char *path = nfy_arena_fmt(a, "%s/verify:%s:%s", s->paths.emu,
                                     s->paths.emu, plan->pythonpath);
    return !setenv("PYTHONPATH", path, 1) &&
           !setenv("NPUIFY_VERIFY_OUT", s->events, 1) &&
           !setenv("NPUIFY_VERIFY_TREE", plan->entry.tree, 1) &&
           !setenv("NPUIFY_VERIFY_PROJECT", plan->entry.project, 1) &&
           !setenv("NPUIFY_VERIFY_NPU_API", s->module_list, 1) &&
           !setenv("NPUIFY_EMU_DATA", s->paths.data, 1) &&
           !setenv("NPUIFY_EMU_NPU_MODULE", s->module_list, 1) &&
           !setenv("NPUIFY_EMU_TORCH_VERSION", s->version->name, 1);
}

static int conclude(const nfy_verify_child *child, unsigned timeout_s,
                    const verify_setup *s, const nfy_verify_summary *sum,
                    bool quiet)
{
    if (child->stopped_by) {
        fprintf(stderr,
                "verify: stopped by %s (sent on to the script's process "
                "group)\n",
                strsignal(child->stopped_by));
        return 128 + child->stopped_by;
    }
    if (child->timed_out) {
        printf("verify: FAILED (the script ran past --timeout %us and its "
               "process group was stopped; %zu problem%s)\n",
               timeout_s, sum->problems, sum->problems == 1 ? "" : "s");
        return NFY_EXIT_FINDINGS;
    }
    if (sum->problems == 0 && child->status == 0) {
        if (quiet)
            return NFY_EXIT_OK;
        printf("verify: ok (%lu optimizer steps, %lu backward calls, %zu "
               "process%s; emulated torch_npu %s)\n",
               sum->steps, sum->backward, sum->processes,
               sum->processes == 1 ? "" : "es", s->version->name);
        return NFY_EXIT_OK;
    }
    printf("verify: FAILED (%zu problem%s; the script exited %d)\n",
           sum->problems, sum->problems == 1 ? "" : "s", child->status);
    return NFY_EXIT_FINDINGS;
}

static int setup(nfy_arena *a, const nfy_run_args *args, verify_setup *s)
{
    if (!nfy_cli_verify_find(a, &s->paths)) {
        fprintf(stderr, "npuify verify: error[internal]: the NPU emulator is "
                        "not installed next to this binary "
                        "(share/npuify/npu_emu)\n");
        return NFY_EXIT_INTERNAL;
    }
    if (args->print_path) {
        printf("%s\n", s->paths.emu);
        return NFY_EXIT_OK;
    }
    if (!args->c.conv.torch_version ||
        nfy_apidb_version_parse(nfy_str_from_cstr(args->c.conv.torch_version),
                                &s->version))
        s->version = nfy_apidb_version_default();
    const char *file_version = NULL;
    (void)nfy_apidb_npu_module_has(s->version, NFY_STR_LIT("synchronize"),
                                   &file_version);
    s->module_list = nfy_arena_fmt(a, "%s/torch_npu_npu_module_v%s.txt",
                                   s->paths.data, file_version);
    return -1;
}

static int verify(const nfy_run_args *args, nfy_arena *a)
{
    verify_setup s = {0};
    int rc = setup(a, args, &s);
    if (rc >= 0)
        return rc;
    nfy_run_plan plan;
    rc = nfy_cli_run_prepare("verify", args, a, &plan);
    if (rc >= 0)
        return rc;
    const char *tmp = getenv("TMPDIR");
    char *events =
        nfy_arena_fmt(a, "%s/npuify-verify-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(events);
    if (fd < 0) {
        fprintf(stderr, "%s: error[verify]: cannot create: %s\n", events,
                strerror(errno));
        return NFY_EXIT_INPUT;
    }
    close(fd);
    s.events = events;
    if (!set_env(a, &s, &plan)) {
        unlink(events);
        return NFY_EXIT_INTERNAL;
    }
    if (nfy_cli_run_python_lacks(plan.argv, "torch")) {
        unlink(events);
        fprintf(stderr,
                "%s: error[verify-no-torch]: this Python has no torch "
                "(import torch fails): the emulated NPU runs on CPU PyTorch; "
                "install torch for it, or name a Python that has it\n",
                plan.argv[0]);
        printf("verify: FAILED (%s has no torch: nothing was run)\n",
               plan.argv[0]);
        return NFY_EXIT_FINDINGS;
    }
    nfy_verify_child child;
    nfy_cli_verify_run_child(plan.argv, args->timeout_s, &child);
    nfy_diags diags;
    nfy_diags_init(&diags);
    nfy_rule_set *rules = nfy_rule_set_new(&diags);
    nfy_diags_release(&diags);
    nfy_verify_summary sum;
    nfy_cli_verify_report(events, rules, s.version->name, &sum);
    nfy_rule_set_free(rules);
    unlink(events);
    return conclude(&child, args->timeout_s, &s, &sum, args->c.quiet);
}

int nfy_cli_cmd_verify(int argc, char **argv)
{
    nfy_run_args args;
    int rc = nfy_cli_run_parse(argc, argv, synopsis, about, true, &args);
    if (rc >= 0)
        return rc;
    if (args.ncmd == 0 && !args.print_path)
        return nfy_cli_run_cache_only("verify", &args);
    nfy_arena a = NFY_ARENA_INIT;
    rc = verify(&args, &a);
    nfy_arena_release(&a);
    return rc;
}
