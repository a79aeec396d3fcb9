/*
 * Internal to src/migrate: the boundary between the public driver
 * (migrate.c, which turns notes into report findings) and the passes (which
 * speak pylex, pysyn, resolve and rules). The passes record findings as
 * mig_note values in report.h's own enums, with strings in the file's arena.
 */
#ifndef NPUIFY_MIGRATE_MIG_H
#define NPUIFY_MIGRATE_MIG_H

#include "apidb/apidb.h"
#include "core/core.h"
#include "edit/edit.h"
#include "migrate/migrate.h"
#include "rules/rules.h"

/** A non-change finding; strings live in the per-file arena. */
typedef struct {
    nfy_span span;
    const char *rule;
    nfy_op_type op;
    nfy_safety safety;
    nfy_finding_cat cat;
    const char *api;
    const char *message;
    const char *after;     /* suggested replacement text, or NULL */
    const char *npu_api;   /* suggested NPU API, or NULL */
    const char *vset_id;   /* value set of the literal (valset.h), or NULL */
    const char *vset_name; /* the name its members meet */
} mig_note;

typedef NFY_VEC(mig_note) mig_note_vec;

/** The value set of a rewritten string literal: edit at span.start. */
typedef struct {
    uint32_t start;
    const char *id, *name;
} mig_vtag;

typedef NFY_VEC(mig_vtag) mig_vtag_vec;

typedef struct {
    const nfy_rule_set *rules;
    const char *version; /* canonical apidb version name, e.g. "2.8" */
    unsigned flags;      /* NFY_MIGRATE_* */
    nfy_rule_env env;    /* the rules' activation environment */
    bool listed_entry;   /* --mode auto: the file is a named entry script */
    const char *relpath; /* the file as the report names it, or NULL */
    /* the resolved file goes to this observer (nfy_migrate_opts) */
    const nfy_migrate_observer *observer; /* may be NULL */
    nfy_report *report;
    bool entries_named;          /* some entry script is named (--main ...) */
    const char *model;           /* --distributed --model NAME, or NULL */
    struct nfy_migrate_run *run; /* what the options decide (run.h) */
} mig_params;

/* ---- passes (ctx.c) ---- */
/**
 * Run every pass over one Python file: edits into edits (not normalized),
 * findings into notes, the value sets of rewritten literals into vtags;
 * strings in arena.
 */
nfy_status nfy__mig_python(const mig_params *p, const nfy_source *src,
                           nfy_edit_set *edits, mig_note_vec *notes,
                           mig_vtag_vec *vtags, nfy_migrate_info *info,
                           nfy_arena *arena, nfy_diags *diags);

/* ---- rules (rule_lookup.c) ---- */
/** hint without the sentences that advise an option of env already in
 * force ("'convert --amp' inserts them." under --amp): advice never names
 * the option just used. hint itself when nothing is dropped. */
const char *nfy__mig_hint_in_env(nfy_arena *a, const nfy_rule_env *env,
                                 const char *hint);
/** The rule environment of flags (NFY_MIGRATE_*) and a canonical version. */
void nfy__mig_rule_env(unsigned flags, const char *version, nfy_rule_env *out);
/** Safety of rule id (NFY_SAFETY_SAFE when unknown), and whether it exists. */
nfy_safety nfy__mig_rule_safety(const nfy_rule_set *set, const char *id);

/** The first active rule of a dedicated pass, or NULL. */
const nfy_rule *nfy__mig_pass_rule_in(const nfy_rule_set *set,
                                      const nfy_rule_env *env,
                                      nfy_pass_id pass);
/** The same rule's id, message, hint. */
bool nfy__mig_pass_rule(const nfy_rule_set *set, const nfy_rule_env *env,
                        nfy_pass_id pass, const char **id, const char **message,
                        const char **hint);
/** Row i of that rule's map (false past the end or without the rule). */
bool nfy__mig_pass_rule_row(const nfy_rule_set *set, const nfy_rule_env *env,
                            nfy_pass_id pass, size_t i, const char **from,
                            const char **note);

/* ---- apidb questions (run.c) ---- */
/** Canonical version name for text (NULL: default); NULL if unknown. */
const char *nfy__mig_version_canon(const char *text, nfy_status *st);
/** Whether torch.npu has the attribute named by a qualified name. */
bool nfy__mig_npu_has(const char *ver, nfy_str qual);
/** The restriction Huawei's lists put on qual for ver (apidb.h). */
bool nfy__mig_restriction(const char *ver, nfy_str qual,
                          nfy_api_restriction *out);

#endif
