/*
 * npuify verify's parts: where the installed NPU emulator is, and what the
 * run reported (npuify_verify.py's JSON-lines events).
 */
#ifndef NPUIFY_CLI_VERIFY_H
#define NPUIFY_CLI_VERIFY_H

#include "core/core.h"
#include "rules/rules.h"

typedef struct {
    const char *emu;  /* directory holding torch_npu/ and npuify_verify.py */
    const char *data; /* npuify's API lists (data/npu, share/npuify/npu) */
} nfy_verify_paths;

/*
 * The emulator installed with this binary: ../share/npuify of the
 * executable's real path, or, run from the build tree (build/MODE/npuify),
 * the source tree's tools/npu_emu and data/npu. False when neither exists.
 */
bool nfy_cli_verify_find(nfy_arena *a, nfy_verify_paths *out);

typedef struct {
    size_t problems;  /* CUDA calls, invented and unemulated names */
    size_t processes; /* processes that reached their exit handler */
    unsigned long steps, backward;
} nfy_verify_summary;

/*
 * Read the events file, print each distinct problem as "file:line: ..."
 * (files relative to the working directory when inside it) with the rule
 * that should have handled it, and sum the exit records.
 */
void nfy_cli_verify_report(const char *events, const nfy_rule_set *rules,
                           const char *torch_version, nfy_verify_summary *sum);

typedef struct {
    int status;     /* the script's exit code, or 128 + its signal */
    bool timed_out; /* it ran past the timeout and its group was stopped */
    int stopped_by; /* the signal npuify got and sent on; 0: none */
} nfy_verify_child;

/*
 * Run argv in its own process group and wait for it: SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT are sent on to the group; past timeout_s (0: no
 * limit) the group gets SIGTERM, then SIGKILL 5 s later. Those signals
 * stay blocked in npuify when it returns (the caller cleans up and exits).
 */
void nfy_cli_verify_run_child(char **argv, unsigned timeout_s,
                              nfy_verify_child *out);

#endif
