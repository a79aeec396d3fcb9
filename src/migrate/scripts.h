/*
 * Shell scripts and Dockerfiles, the files migrate reads line by line:
 * CUDA/NCCL environment names renamed in shell scripts (ENV rules with
 * context "shell"), and the line rules (match "line", or literal "string"
 * with context "shell"/"dockerfile") reported over a copy of the file with
 * comments and line continuations blanked. The driver (convert) says which
 * files are which; the rules decide what is found.
 */
#ifndef NPUIFY_MIGRATE_SCRIPTS_H
#define NPUIFY_MIGRATE_SCRIPTS_H

#include "core/core.h"
#include "edit/edit.h"
#include "report/report.h"
#include "rules/rules.h"

/* The rules a script is migrated by: the set, and the run's environment
 * (nfy_mig_rule_env) that says which of them are active. */
typedef struct {
    const nfy_rule_set *rules;
    const nfy_rule_env *env;
} nfy_migrate_script_rules;

/* Rename CUDA/NCCL environment names in a shell script (ENV rules). */
nfy_status nfy_mig_shell_env_edits(const nfy_migrate_script_rules *ps,
                                   const nfy_source *src, const char *rel,
                                   nfy_edit_set *set, nfy_report *rep,
                                   nfy_diags *diags);
/*
 * Findings of the flag rules with match "line" (or literal "string") whose
 * contexts include `where` (NFY_CTX_SHELL or NFY_CTX_DOCKERFILE), over the
 * file's blanked text (line_rules.c).
 */
void nfy_mig_script_line_findings(const nfy_migrate_script_rules *ps,
                                  const nfy_source *src, const char *rel,
                                  nfy_rule_ctx_kind where, nfy_report *rep);
/* The blanked text (comments, continuations) of a shell script or a
 * Dockerfile, NUL-terminated (malloc; NULL: out of memory). */
char *nfy_mig_shell_text(const nfy_source *src);
char *nfy_mig_dockerfile_text(const nfy_source *src);
/* A manual finding of rule r at span sp of src (its text is the API). */
void nfy_mig_manual_finding(const nfy_source *src, const char *rel, nfy_span sp,
                            const nfy_rule *r, const char *message,
                            nfy_report *rep);

/* ---- shared by shell.c, dockerfile.c and line_rules.c ---- */
/* A NUL-terminated copy of src, NUL bytes as spaces (malloc; NULL: OOM). */
char *nfy__mig_text_copy(const nfy_source *src);
/* Blank shell comments, line continuations and CRs in b[0..n). */
void nfy__mig_shell_blank(char *b, size_t n);

#endif
