/*
 * `convert --distributed` writes run_distributed_npu.sh at the root of the
 * converted tree (rule NPU310): torchrun with one process per NPU, or the
 * per-device loop Ascend's own scripts use (RANK_SIZE, RANK_ID). It never
 * replaces a file of that name the project already has, and is written only
 * when the conversion inserted DDP somewhere. It is an item of
 * the review (npuify review --distributed): with --decisions it is written
 * only when the review accepted exactly this text.
 */
#include <string.h>
#include <sys/stat.h>

#include "convert/convert_internal.h"
#include "migrate/migrate.h"
#include "review/review.h"

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

/* The launcher's note (rule NPU310); the finding added, or NULL. */
static nfy_finding *launcher_finding(const nfy_convert_opts *o, nfy_report *rep,
                                     const char *what)
{
    size_t before = nfy_report_open_mark(rep), n;
    nfy_migrate_opts mo = {
        o->rules, o->torch_version, NFY_MIGRATE_DISTRIBUTED, NULL, NULL, NULL,
        NULL};
    nfy_mig_launcher_note(&mo, rep, what);
    return nfy_report_open_since(rep, before, &n);
}

/*
 * The id of a file convert creates, in the shape of an edit id (review.h)
 * for an insertion at byte 0 of an empty file: "NAME:0:RULE:HASH", the
 * hash over its whole text, so a review's decision holds for exactly the
 * text the review showed.
 */
static const char *created_file_id(nfy_arena *a, const char *name,
                                   const char *rule, const char *text)
{
    nfy_sha256 h;
    nfy_sha256_init(&h);
    nfy_sha256_add(&h, "", 1);
    nfy_sha256_add(&h, text, strlen(text));
    uint8_t digest[NFY_SHA256_BYTES];
    nfy_sha256_finish(&h, digest);
    char hex[2 * NFY_SHA256_BYTES + 1];
    nfy_sha256_hex(digest, hex);
    hex[8] = '\0';
    return nfy_arena_fmt(a, "%s:0:%s:%s", name, rule, hex);
}

/*
 * Make the note a review item: its edit id, and the text the file gets in
 * code_after (report files show code_after only for changes, so they are
 * as before; the review page shows it as the new file).
 */
static void reviewable(nfy_report *rep, nfy_finding *f, const char *id,
                       const char *text)
{
    if (!f || !id)
        return;
    f->edit_id = nfy_arena_strdup(&rep->arena, id); /* whole: no file */
    f->edit_id_in_file = false;
    f->code_after = nfy_arena_strdup(&rep->arena, text);
}

/* --decisions kept the launcher out: a left-unchanged row says why. */
static void not_accepted(const nfy_convert_opts *o,
                         const nfy_decisions *decisions, nfy_report *rep,
                         const char *rule, const char *id)
{
    (void)launcher_finding(o, rep, "not written (not accepted in the review)");
    nfy_finding f = {0};
    f.rule = rule;
    f.op = NFY_OPTYPE_NONE;
    f.safety = NFY_SAFETY_MANUAL;
    f.cat = NFY_CAT_LEFT_UNCHANGED;
    f.api = LAUNCHER;
    f.edit_id = id;
    f.message = nfy_convert_decisions_knows(decisions, id)
                    ? "not applied: not accepted in the review (rejected in "
                      "--decisions): " LAUNCHER " not written"
                    : "not applied: not accepted in the review (new since the "
                      "review: not in --decisions): " LAUNCHER " not written";
    nfy_report_add_finding(rep, &f);
}

/* Write the launcher; its note, or NULL when it could not be written. */
static nfy_finding *write_it(const nfy_convert_opts *o, nfy_report *rep,
                             nfy_diags *d, nfy_arena *a, const char *path,
                             const char *text, const char *script)
{
    nfy_status s = nfy_file_write_atomic(path, text, strlen(text), 0755);
    if (s != NFY_OK) {
        nfy_diag_add_at(d, NFY_SEV_ERROR, "convert-write", path, 0, 0,
                        "cannot write the launcher");
        return NULL;
    }
    return launcher_finding(
        o, rep,
        nfy_arena_fmt(a,
                      LAUNCHER " at the output root runs %s (torchrun; "
                               "LAUNCH=loop: RANK_SIZE processes with RANK_ID)",
                      *script ? script : "the script given as $1"));
}

/* The project's own launcher: in DST after the walk, else in SRC. */
static bool project_has_one(nfy_arena *a, const nfy_convert_opts *o)
{
    struct stat st;
    const char *root = o->action == NFY_CONVERT_WRITE ? o->dst : o->src;
    return stat(nfy_arena_fmt(a, "%s/" LAUNCHER, root), &st) == 0;
}

/* The launcher rule's id (NPU310 in the built-in set), or NULL. */
static const char *launcher_rule(const nfy_rule_set *rules)
{
    for (size_t i = 0; rules && i < nfy_rule_set_count(rules); i++) {
        const nfy_rule *r = nfy_rules_set_at(rules, i);
        if (r->pass == NFY_PASS_LAUNCHER)
            return r->id;
    }
    return NULL;
}

/* Whether the conversion made something distributed: a change of the DDP
 * pass (process-group init, a DDP wrap, DataParallel -> DDP). */
static bool ddp_inserted(const nfy_rule_set *rules, const nfy_report *rep)
{
    const char *ddp = NULL;
    for (size_t i = 0; rules && i < nfy_rule_set_count(rules) && !ddp; i++)
        if (nfy_rules_set_at(rules, i)->pass == NFY_PASS_DDP_REWRITE)
            ddp = nfy_rules_set_at(rules, i)->id;
    size_t n = ddp ? nfy_report_finding_count(rep) : 0;
    for (size_t i = 0; i < n; i++) {
        nfy_finding f;
        nfy_report_finding_read(rep, i, &f);
        if (f.cat == NFY_CAT_CHANGE && f.rule && !strcmp(f.rule, ddp))
            return true;
    }
    return false;
}

void nfy__convert_write_launcher(const nfy_convert_opts *o,
                                 const nfy_decisions *decisions,
                                 nfy_report *rep, nfy_diags *d)
{
    if (!ddp_inserted(o->rules, rep)) {
        (void)launcher_finding(o, rep,
                               "not written: nothing was made distributed "
                               "(no DDP inserted; see the --distributed "
                               "findings)");
        return;
    }
    nfy_arena a;
    nfy_arena_init(&a);
    const char *script = main_script(&a, o);
    const char *text =
        nfy_arena_fmt(&a, "%sSCRIPT=${SCRIPT:-%s}\n%s", head, script, body);
    const char *rule = launcher_rule(o->rules);
    const char *id = rule ? created_file_id(&a, LAUNCHER, rule, text) : NULL;
    if (project_has_one(&a, o))
        (void)launcher_finding(o, rep,
                               "the project has its own " LAUNCHER ": kept");
    else if (o->action != NFY_CONVERT_WRITE)
        reviewable(rep,
                   launcher_finding(o, rep, "not written (no output tree)"), id,
                   text);
    else if (decisions && id && !nfy_convert_decisions_accepts(decisions, id))
        not_accepted(o, decisions, rep, rule, id);
    else
        reviewable(rep,
                   write_it(o, rep, d, &a,
                            nfy_arena_fmt(&a, "%s/" LAUNCHER, o->dst), text,
                            script),
                   id, text);
    nfy_arena_release(&a);
}
