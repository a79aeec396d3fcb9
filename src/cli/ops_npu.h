/* `npuify ops NPU_DIR` and `npuify ops --compare GPU_PROFILE NPU_DIR`: the
 * Ascend profiler's output read by src/npuprof (cmd_ops.c hands over). */
#ifndef NPUIFY_CLI_OPS_NPU_H
#define NPUIFY_CLI_OPS_NPU_H

#include <stdbool.h>

typedef struct {
    const char *npu_dir;
    const char *gpu_profile; /* NULL without --compare */
    const char *out_dir;
    bool quiet, json_diags;
} nfy_cli_ops_npu_args;

/* Read, analyse, write the reports; an exit code. */
int nfy_cli_ops_npu(const nfy_cli_ops_npu_args *a);

#endif
