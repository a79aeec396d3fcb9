/*
 * npuify capture: run a user's training command with the PyTorch profiler
 * switched on from outside, with no edit to the user's files
 * (`npuify ops --capture [-o DIR] -- python train.py ARGS`).
 *
 * How: a sitecustomize.py (tools/capture/sitecustomize.py, embedded into
 * the binary at build time) is written into a fresh private temporary
 * directory that is put first on PYTHONPATH for the child. Python imports
 * it at start-up; it chains to the sitecustomize it shadows and, once the
 * script's own "import torch" has run (a one-shot import hook: nothing
 * changes before that), starts the profiler (record_shapes=True;
 * torch.profiler where kineto exists, else the autograd profiler). At exit
 * it writes into out_dir:
 *   npuify_trace.json          kineto-style trace with "Input Dims" and one
 *                              ProfilerStep#N window per optimizer step,
 *                              readable by nfy_prof_read_trace;
 *   npuify_key_averages.txt    key_averages(group_by_input_shape=True)
 *                              table, readable by the text reader;
 *   npuify_kineto_trace.json   the profiler's own trace (kineto builds only).
 * Only the process npuify starts profiles itself (children that re-run
 * Python do not), unless all_processes is set (torchrun and other
 * launchers): then every Python process that starts writes files suffixed
 * with its pid ("npuify_trace_1234.json").
 *
 * The temporary directory is removed afterwards. While the child runs,
 * SIGINT and SIGQUIT are ignored by npuify (as system() does), so Ctrl-C
 * reaches the script, whose atexit handler still writes the trace.
 */
#ifndef NPUIFY_CAPTURE_H
#define NPUIFY_CAPTURE_H

#include "core/core.h"

typedef struct {
    const char *out_dir;    /* created if missing (mkdir -p); required */
    char *const *argv;      /* command, NULL-terminated; argv[0] is looked
                               up on PATH (e.g. "python3") */
    unsigned every_n_steps; /* keep only steps 0, N, 2N... (0/1: all) */
    bool all_processes;     /* profile every Python process (launchers) */
    nfy_diags *diags;       /* may be NULL */
} nfy_capture_opts;

typedef struct {
    char **trace_paths; /* every out_dir/npuify_trace*.json written, sorted
                           (one unless all_processes); owned */
    size_t n_traces;
    const char *trace_path; /* trace_paths[0] or NULL; not separately owned */
    char *table_path;       /* out_dir/npuify_key_averages.txt if written */
    int exit_code;          /* the command's exit status; 128+N if killed by
                               signal N; 127 if it could not be started */
} nfy_capture_result;

/**
 * Run opts->argv under the profiler and wait for it. NFY_OK when the trace
 * was written (whatever the command's exit code, which is in res); NFY_ENOENT
 * with a diagnostic when the command wrote no trace (not Python, no torch,
 * killed by a signal, os._exit); NFY_EUSAGE for an empty argv or no out_dir;
 * NFY_EIO when the temporary directory or out_dir cannot be made. res is
 * always initialised; release it with nfy_prof_capture_result_release.
 */
NFY_NODISCARD nfy_status nfy_prof_ops_capture(const nfy_capture_opts *opts,
                                              nfy_capture_result *res);
void nfy_prof_capture_result_release(nfy_capture_result *res);

/** The embedded sitecustomize.py template (for tests and --print). */
nfy_str nfy_prof_capture_template(void);

#endif
