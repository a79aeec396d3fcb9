/*
 * `convert --distributed` writes run_distributed_npu.sh at the root of the
 * converted tree (rule NPU310): torchrun with one process per NPU, or the
 * per-device loop Ascend's own scripts use (RANK_SIZE, RANK_ID). It never
 * replaces a file of that name the project already has.
 */
#include <string.h>
#include <sys/stat.h>

#include "convert/convert_internal.h"
#include "migrate/migrate.h"

#define LAUNCHER "run_distributed_npu.sh"

static const char head[] =
    "#!/bin/sh\n"
    "# Written by 'npuify convert --distributed': run the training script\n"
    "# on RANK_SIZE NPUs of this machine, one process per NPU, over HCCL.\n"
    "#   sh " LAUNCHER " [ARGS...]            torchrun (default)\n"
    "#   LAUNCH=loop sh " LAUNCHER " [ARGS...]  one process per device,\n"
    "#       as Ascend's scripts do (RANK_ID, logs in train_RANK_ID.log)\n"
    "# RANK_SIZE (default 8), MASTER_ADDR/MASTER_PORT, PYTHON (python3).\n"
    "set -eu\n";

static const char body[] =
    "cd \"$(dirname \"$0\")\"\n"
    "if [ -z \"$SCRIPT\" ]; then\n"
    "    [ $# -gt 0 ] || { echo \"usage: $0 SCRIPT [ARGS...]\" >&2; exit 2; }\n"
    "    SCRIPT=$1; shift\n"
    "fi\n"
    "RANK_SIZE=${RANK_SIZE:-8}\n"
    "export MASTER_ADDR=${MASTER_ADDR:-127.0.0.1}\n"
    "export MASTER_PORT=${MASTER_PORT:-29500}\n"
    "PYTHON=${PYTHON:-python3}\n"
    "if [ \"${LAUNCH:-torchrun}\" = torchrun ]; then\n"
    "    exec torchrun --nproc_per_node=\"$RANK_SIZE\" "
    "--master_addr=\"$MASTER_ADDR\" \\\n"
    "        --master_port=\"$MASTER_PORT\" \"$SCRIPT\" \"$@\"\n"
    "fi\n"
    "pids=\n"
    "RANK_ID=0\n"
    "while [ \"$RANK_ID\" -lt \"$RANK_SIZE\" ]; do\n"
    "    RANK=$RANK_ID LOCAL_RANK=$RANK_ID WORLD_SIZE=$RANK_SIZE \\\n"
    "        RANK_ID=$RANK_ID RANK_SIZE=$RANK_SIZE \\\n"
    "        \"$PYTHON\" \"$SCRIPT\" \"$@\" >\"train_$RANK_ID.log\" 2>&1 &\n"
    "    pids=\"$pids $!\"\n"
    "    RANK_ID=$((RANK_ID + 1))\n"
    "done\n"
    "rc=0\n"
    "for p in $pids; do wait \"$p\" || rc=1; done\n"
    "exit $rc\n";

/* The script named by --main, shell-quoted, or "" (then $1 names it). */
static const char *main_script(nfy_arena *a, const nfy_convert_opts *o)
{
    const char *m = o->main_files != NULL ? o->main_files[0] : NULL;
    if (m == NULL || strchr(m, '\'') != NULL)
        return "";
    size_t n = strlen(o->src);
    if (strncmp(m, o->src, n) == 0 && m[n] == '/')
        m += n + 1; /* given below SRC: the launcher sits at its root */
    return nfy_arena_fmt(a, "'%s'", m);
}

static void launcher_finding(const nfy_convert_opts *o, nfy_report *rep,
                             const char *what)
{
    nfy_migrate_opts mo = {
        o->rules, o->torch_version, NFY_MIGRATE_DISTRIBUTED, NULL, NULL, NULL};
    nfy_migrate_launcher_note(&mo, rep, what);
}

void nfy__write_launcher(const nfy_convert_opts *o, nfy_report *rep,
                         nfy_diags *d)
{
    nfy_arena a;
    nfy_arena_init(&a);
    struct stat st;
    const char *path = nfy_arena_fmt(&a, "%s/" LAUNCHER, o->dst);
    const char *script = main_script(&a, o);
    if (o->action != NFY_CONVERT_WRITE)
        launcher_finding(o, rep, "not written (no output tree)");
    else if (stat(path, &st) == 0)
        launcher_finding(o, rep, "the project has its own " LAUNCHER ": kept");
    else {
        const char *text =
            nfy_arena_fmt(&a, "%sSCRIPT=${SCRIPT:-%s}\n%s", head, script, body);
        nfy_status s = nfy_file_write_atomic(path, text, strlen(text), 0755);
        if (s != NFY_OK)
            nfy_diag_add_at(d, NFY_SEV_ERROR, "convert-write", path, 0, 0,
                            "cannot write the launcher");
        else
            launcher_finding(
                o, rep,
                nfy_arena_fmt(&a,
                              LAUNCHER " at the output root runs %s "
                                       "(torchrun; LAUNCH=loop: RANK_SIZE "
                                       "processes with RANK_ID)",
                              *script ? script : "the script given as $1"));
    }
    nfy_arena_release(&a);
}
