/*
 * migrate: the migration passes of `npuify convert` (DESIGN.md section 3).
 *
 * One call migrates one file: it tokenizes and structures the source
 * (pylex, pysyn), resolves names (resolve), matches the enabled rules of a
 * rule set against the resolved code and produces
 *  - edits (nfy_edit_set over the source, each with its rule id and a note),
 *  - findings in an nfy_report: every kept edit as a change record
 *    (NFY_CAT_CHANGE, with its safety), plus unsupported / unknown / CUDA-only
 *    APIs, advice, and each "cuda" text deliberately left unchanged with the
 *    reason,
 *  - per-file facts (nfy_migrate_info) that project-level rules need.
 * The generic rule kinds of rules.h are interpreted straight from the set
 * (so custom rule files work); a few rules name a dedicated pass (match
 * "pass"). Every pass is a row of the pass table (rules/pass_table.h): its
 * name, rule kind, run order, modes and host. Passes marked preview there are
 * not built: their rules are never active. The NPU7xx passes and "cuda-ops" are
 * src/analyse's, fed by the observer below. FILE rules such as *.cu are
 * convert's. Whether a rule is active is nfy_rules_activity_in over
 * nfy_mig_rule_env, for every file kind.
 *
 * Guarantees: edits are minimal (a token, a string's leading "cuda", one
 * inserted line) and never overlap; running the passes on their own output
 * yields no edit (idempotence); every edit and finding carries file, line,
 * column and rule id. A file with syntax errors still gets findings, but its
 * edits are withheld (left empty) unless NFY_MIGRATE_FORCE is set, so a
 * broken file is never made worse.
 *
 * Usage (per file, then once per project):
 *
 *     nfy_migrate_opts mo = {.rules = set, .torch_version = "2.1"};
 *     nfy_migrate_project proj;
 *     nfy_mig_project_init(&proj);
 *     for each file F (relative path rel, loaded into src):
 *         nfy_edit_set es;
 *         nfy_migrate_info info;
 *         nfy_edit_set_init(&es, &src);
 *         if (nfy_mig_file(&mo, &src, rel, &es, rep, &info, diags)
 *                 == NFY_OK && es.edits.len > 0)
 *             nfy_edit_set_apply(&es, diags, &out);  (write out, else copy)
 *         nfy_mig_project_add(&proj, rel, &info);
 *         nfy_edit_set_release(&es);
 *     nfy_mig_project_finish(&proj, &mo, rep);
 *     nfy_mig_project_release(&proj);
 *
 * Shell scripts and Dockerfiles go through migrate/scripts.h. Do not call
 * nfy_report_add_edits for these edits: nfy_mig_file has already
 * recorded them with the right safety.
 *
 * Thread safety: nfy_mig_file only reads opts and the rule set; use
 * one nfy_report and one nfy_migrate_project per worker and merge them.
 * A driver of many files calls nfy_mig_project_file instead, which
 * keeps the run state (nfy_migrate_run) in the worker's project.
 */
#ifndef NPUIFY_MIGRATE_H
#define NPUIFY_MIGRATE_H

#include "core/core.h"
#include "edit/edit.h"
#include "pysyn/pysyn.h"
#include "report/report.h"
#include "resolve/resolve.h"

struct nfy_rule_set; /* npuify/rules.h */
struct nfy_rule_env; /* npuify/rules.h */

/*
 * What an observer keeps from one file to the next of a run on one thread
 * (a cache of answers that depend on the options only): state starts NULL,
 * the observer fills it and sets free_fn, which runs when the run ends.
 */
typedef struct {
    void *state;
    void (*free_fn)(void *state);
} nfy_migrate_keep;

/*
 * Sees each scanned Python file's resolved structure after the passes, so
 * an assessment (src/analyse) works on the same parse instead of a second
 * one. fn records its findings into report (NULL when the caller passed
 * none); it must only read ctx (files may be migrated on several threads);
 * keep is this thread's (never NULL).
 */
typedef struct nfy_migrate_observer {
    void (*fn)(void *ctx, const nfy_source *src, const char *relpath,
               const nfy_pysyn *syn, const nfy_resolution *res,
               nfy_report *report, nfy_migrate_keep *keep);
    void *ctx;
} nfy_migrate_observer;

enum nfy_migrate_flags {
    NFY_MIGRATE_UNSAFE = 1u << 0, /* also apply edits of "unsafe" rules */
    NFY_MIGRATE_AUTO = 1u << 1,   /* --mode auto: only add `import torch_npu`
                                     and `from torch_npu.contrib import
                                     transfer_to_npu` to entry scripts (files
                                     with a __main__ guard, listed in
                                     entries, or with top-level training
                                     code; also those without a torch
                                     import); findings as usual */
    NFY_MIGRATE_AMP = 1u << 2,    /* --amp: rules gated by option "amp"
                                     (amp-insert) */
    NFY_MIGRATE_DISTRIBUTED = 1u << 3, /* ... by option "distributed" */
    NFY_MIGRATE_MSFT = 1u << 4,        /* ... by option "msfmktransplt" */
    NFY_MIGRATE_FORCE = 1u << 5,       /* edit files with syntax errors too */
    NFY_MIGRATE_AMP_APEX = 1u << 6,    /* --amp=apex: apex.amp, not torch.amp */
    NFY_MIGRATE_AMP_BF16 = 1u << 7, /* --amp=bf16: autocast bf16, no scaler */
    NFY_MIGRATE_TRAINING = 1u << 8  /* the training program into the report
                                       (also with AMP or DISTRIBUTED) */
};

/*
 * The project's own modules: the dotted names importable from the source
 * tree (src/migrate/modules.c). The import root is not known, so a file
 * a/b/c.py gives "a.b.c", and "b.c" unless a/ is a regular package (has an
 * __init__.py), "c" unless a/b/ is one; a/b/__init__.py gives the package
 * "a.b" likewise. An import of one of them is first-party, never a
 * third-party library.
 */
typedef struct {
    const char *name; /* "pkg.mod" */
    bool file;        /* a .py module (what it binds are its attributes), not
                         only a package directory */
} nfy_migrate_module;

typedef struct nfy_migrate_modules {
    nfy_arena arena;
    /* sorted by name, each once after nfy_mig_modules_finish */
    NFY_VEC(nfy_migrate_module) items;
    NFY_VEC(const char *) paths; /* the .py files added */
} nfy_migrate_modules;

void nfy_mig_modules_init(nfy_migrate_modules *m);
void nfy_mig_modules_release(nfy_migrate_modules *m);
/** Add .py file relpath ('/'-separated); other files add nothing. */
void nfy_mig_modules_add(nfy_migrate_modules *m, const char *relpath);
/** Name the modules of the added files (then nfy_mig_module_find
 * works). */
void nfy_mig_modules_finish(nfy_migrate_modules *m);
/** The module named q, or NULL (m may be NULL: none known). */
const nfy_migrate_module *nfy_mig_module_find(const nfy_migrate_modules *m,
                                              nfy_str q);

typedef struct {
    const struct nfy_rule_set *rules; /* required; built-in + custom rules */
    const char *torch_version;  /* "2.1" ... "2.8" ...; NULL: newest shipped */
    unsigned flags;             /* enum nfy_migrate_flags */
    const char *const *entries; /* --mode auto: more entry scripts (relpaths:
                                   --main files, scripts a launcher in the
                                   tree runs), NULL-terminated; may be NULL */
    const nfy_migrate_observer *observer; /* may be NULL */
    const char *model; /* --distributed: the model variable, NULL: found */
    const nfy_migrate_modules *modules; /* the tree's own modules (finished),
                                           or NULL: none known */
} nfy_migrate_opts;

/**
 * The rule environment of these options (canonical torch version, the
 * option names their flags turn on, --unsafe), for nfy_rules_activity_in:
 * what other file kinds (shell scripts, file-name rules) use to decide
 * rules exactly as the Python passes do. NFY_EUSAGE for an unknown
 * torch_version.
 */
NFY_NODISCARD nfy_status nfy_mig_rule_env(const nfy_migrate_opts *opts,
                                          struct nfy_rule_env *out);

/**
 * Whether some module runs pass `pass`: its row of the pass table
 * (rules/pass_table.h) names a host. True exactly for the passes marked built.
 */
bool nfy_mig_runs_pass(nfy_pass_id pass);

/** Per-file facts for project-level rules. */
typedef struct {
    bool scanned;      /* the passes ran */
    bool syntax_error; /* pylex/pysyn reported errors (edits withheld) */
    bool uses_torch;   /* imports torch (or a submodule) */
    bool uses_cuda;    /* something CUDA-specific was found */
    bool uses_amp;     /* torch.cuda.amp, torch.amp, torch.autocast,
                          apex.amp, torch.npu.amp ... */
    bool has_main;     /* has an `if __name__ == "__main__":` block */
    uint32_t amp_line; /* first AMP use (1-based), 0 when none */
    uint32_t first_torch_line; /* line of the first torch import, 0 none */
    size_t edits;              /* edits kept */
    size_t findings;           /* non-change findings recorded */
    uint32_t fp16_line; /* first sign of fp16 trained by hand (.half() with
                           manual loss scaling, apex.fp16_utils), 0 none */
    bool amp_inserted;  /* --amp put a training step under AMP: the file
                           uses AMP once converted */
} nfy_migrate_info;

/**
 * Migrate one Python file. src is the whole file; relpath ('/'-separated,
 * relative to the source root) names it in the report. edits must be
 * initialised over src (nfy_edit_set_init(edits, src)); edits are added and
 * the set is normalized. Findings and change records go to report (may be
 * NULL: then nothing is recorded). info (may be NULL) receives the facts.
 * Diagnostics (syntax problems, "migrate-*") go to diags (may be NULL).
 * Returns NFY_OK; NFY_EUSAGE for a bad torch_version or missing rules (with
 * a diagnostic), NFY_ELIMIT for files too large to tokenize.
 */
NFY_NODISCARD nfy_status nfy_mig_file(const nfy_migrate_opts *opts,
                                      const nfy_source *src,
                                      const char *relpath, nfy_edit_set *edits,
                                      nfy_report *report,
                                      nfy_migrate_info *info, nfy_diags *diags);

/**
 * What the options decide for every file (canonical version, rule
 * environment, the name rules and their index, each dedicated pass's rule)
 * and what the observer keeps: built once, used by one thread at a time.
 */
typedef struct nfy_migrate_run nfy_migrate_run;

/** Build the run state of opts (copied; its pointers must outlive the run).
 * NFY_EUSAGE (*out NULL) where nfy_mig_file would refuse opts. */
NFY_NODISCARD nfy_status nfy_mig_run_new(const nfy_migrate_opts *opts,
                                         nfy_migrate_run **out);
void nfy_mig_run_free(nfy_migrate_run *run);
/** nfy_mig_file with the options of run (same results). */
NFY_NODISCARD nfy_status
nfy_mig_file_in(nfy_migrate_run *run, const nfy_source *src,
                const char *relpath, nfy_edit_set *edits, nfy_report *report,
                nfy_migrate_info *info, nfy_diags *diags);

/** Project-level state: facts gathered from every file. */
typedef struct {
    nfy_arena arena;
    nfy_migrate_run *run;       /* of nfy_mig_project_file, or NULL */
    size_t files;               /* files added */
    size_t torch_files;         /* files that use torch */
    size_t amp_files;           /* files that use AMP */
    size_t cuda_files;          /* files with CUDA-specific code */
    const char *first_amp_file; /* smallest relpath with AMP, or NULL */
    uint32_t first_amp_line;
    const char *first_fp16_file; /* smallest relpath training fp16 by hand */
    uint32_t first_fp16_line;
    const char *first_torch_file; /* smallest relpath using torch, or NULL */
} nfy_migrate_project;

void nfy_mig_project_init(nfy_migrate_project *p);
void nfy_mig_project_release(nfy_migrate_project *p);
/** Record one file's facts (relpath is copied). */
void nfy_mig_project_add(nfy_migrate_project *p, const char *relpath,
                         const nfy_migrate_info *info);
/**
 * nfy_mig_file, then nfy_mig_project_add: the run state is built
 * on the first file and kept in p (one project per thread; the same opts
 * for every file), so what the options decide is decided once.
 */
NFY_NODISCARD nfy_status
nfy_mig_project_file(nfy_migrate_project *p, const nfy_migrate_opts *opts,
                     const nfy_source *src, const char *relpath,
                     nfy_edit_set *edits, nfy_report *report, nfy_diags *diags);
/** Add src's facts into dst (for parallel workers; src's run stays). */
void nfy_mig_project_merge(nfy_migrate_project *dst,
                           const nfy_migrate_project *src);
/**
 * Project-level findings into report (file NULL, written "NA"), only for a
 * project that uses torch: the run-time advice rows of the "global-advice"
 * rule, and, without AMP anywhere, one loud "amp-missing" finding.
 * Deterministic for any file order.
 */
void nfy_mig_project_finish(const nfy_migrate_project *p,
                            const nfy_migrate_opts *opts, nfy_report *report);

/**
 * --distributed: the launcher finding (rule of pass "launcher", NPU310)
 * with detail (what was written where, or why not); nothing when the rule
 * is off.
 */
void nfy_mig_launcher_note(const nfy_migrate_opts *opts, nfy_report *report,
                           const char *detail);

#endif
