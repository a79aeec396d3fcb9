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
bool nfy_verify_find(nfy_arena *a, nfy_verify_paths *out);

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
void nfy_verify_report(const char *events, const nfy_rule_set *rules,
                       const char *torch_version, nfy_verify_summary *sum);

#endif
