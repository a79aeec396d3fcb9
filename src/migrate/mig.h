/*
 * Internal to src/migrate: the boundary between the public driver
 * (migrate.c, which speaks report.h) and the passes (which speak pylex,
 * pysyn, resolve and rules). The passes record findings as mig_note values
 * with mirror enums, so no translation unit needs report.h together with
 * pylex.h, rules.h or apidb.h. migrate.c maps the mirrors onto report.h.
 */
#ifndef NPUIFY_MIGRATE_MIG_H
#define NPUIFY_MIGRATE_MIG_H

#include "core/core.h"
#include "edit/edit.h"
#include "migrate/migrate.h"
#include "rules/rules.h"

/* Mirrors of nfy_op_type, nfy_safety and nfy_finding_cat (same order). */
typedef enum {
    MIG_OP_NONE,
    MIG_OP_INSERT,
    MIG_OP_MODIFY,
    MIG_OP_DELETE,
    MIG_OP_UNSUPPORTED
} mig_op;

typedef enum { MIG_SAFE, MIG_UNSAFE, MIG_MANUAL } mig_safety;

typedef enum {
    MIG_CAT_CHANGE,
    MIG_CAT_UNSUPPORTED,
    MIG_CAT_UNKNOWN,
    MIG_CAT_CUDA_OP,
    MIG_CAT_PRECISION,
    MIG_CAT_PERFORMANCE,
    MIG_CAT_AFFINITY,
    MIG_CAT_LEFT_UNCHANGED
} mig_cat;

/* Mirror of enum nfy_migrate_flags (checked in migrate.c). */
enum {
    MIG_F_UNSAFE = 1u << 0,
    MIG_F_AUTO = 1u << 1,
    MIG_F_AMP = 1u << 2,
    MIG_F_DISTRIBUTED = 1u << 3,
    MIG_F_MSFT = 1u << 4,
    MIG_F_FORCE = 1u << 5,
    MIG_F_AMP_APEX = 1u << 6,
    MIG_F_AMP_BF16 = 1u << 7
};

/** A non-change finding; strings live in the per-file arena. */
typedef struct {
    nfy_span span;
    const char *rule;
    uint8_t op, safety, cat;
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

/** Mirror of nfy_migrate_info. */
typedef struct {
    bool scanned, syntax_error, uses_torch, uses_cuda, uses_amp, has_main;
    uint32_t amp_line, first_torch_line;
    uint32_t fp16_line; /* fp16 trained by hand (NPU407), 0 when not */
    bool amp_inserted;  /* --amp put a training step under AMP */
} mig_info;

typedef struct {
    const nfy_rule_set *rules;
    const char *version; /* canonical apidb version name, e.g. "2.8" */
    unsigned flags;      /* MIG_F_* */
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

/** Kind of api in msFmkTransplt's affinity table ("function", "class",
 * "torch"), or NULL (apiq.c). */
const char *mig_affinity_kind(const char *api);

/* ---- passes (ctx.c) ---- */
/**
 * Run every pass over one Python file: edits into edits (not normalized),
 * findings into notes, the value sets of rewritten literals into vtags;
 * strings in arena.
 */
nfy_status mig_python(const mig_params *p, const nfy_source *src,
                      nfy_edit_set *edits, mig_note_vec *notes,
                      mig_vtag_vec *vtags, mig_info *info, nfy_arena *arena,
                      nfy_diags *diags);

/* ---- rules (ruleq.c) ---- */
/** hint without the sentences that advise an option of env already in
 * force ("'convert --amp' inserts them." under --amp): advice never names
 * the option just used. hint itself when nothing is dropped. */
const char *mig_hint_in_env(nfy_arena *a, const nfy_rule_env *env,
                            const char *hint);
/** The rule environment of flags (MIG_F_*) and a canonical version. */
void mig_rule_env(unsigned flags, const char *version, nfy_rule_env *out);
/** Safety of rule id (MIG_SAFE when unknown), and whether it exists. */
mig_safety mig_rule_safety(const nfy_rule_set *set, const char *id);

/** The first active rule of a dedicated pass, or NULL. */
const nfy_rule *mig_pass_rule_in(const nfy_rule_set *set,
                                 const nfy_rule_env *env, nfy_pass_id pass);
/** The same rule's id, message, hint. */
bool mig_pass_rule(const nfy_rule_set *set, const nfy_rule_env *env,
                   nfy_pass_id pass, const char **id, const char **message,
                   const char **hint);
/** Row i of that rule's map (false past the end or without the rule). */
bool mig_pass_rule_row(const nfy_rule_set *set, const nfy_rule_env *env,
                       nfy_pass_id pass, size_t i, const char **from,
                       const char **note);

/* ---- apidb (apiq.c) ---- */
/** Canonical version name for text (NULL: default); NULL if unknown. */
const char *mig_version_canon(const char *text, nfy_status *st);
/** Whether torch.npu has the attribute named by a qualified name. */
bool mig_npu_has(const char *ver, nfy_str qual);

#endif
