/*
 * runcache: a converted copy of a project, keyed by content, for
 * `npuify run` and `npuify verify` (convert on the fly, touch no user file).
 *
 * Key: SHA-256 over the tool version, the conversion mode and target, the
 * project's real path and, for every file of the project in walk order
 * (.git and __pycache__ skipped, as convert does), its relative path and
 * the SHA-256 of its bytes (a symbolic link: of its target). The same
 * project with the same bytes gives the same key, so the copy is reused;
 * any changed byte gives a new key.
 *
 * Layout under the cache root ($XDG_CACHE_HOME/npuify, else
 * ~/.cache/npuify; 0700, the user's alone: see DESIGN.md section 6):
 *   <key>/tree/          the converted project (nfy_convert_run, WRITE)
 *   <key>/tree.tsv       the tree's manifest: stamps and SHA-256 per entry,
 *                        checked before every run
 *   <key>/report/        report.json and summary.md of that conversion
 *   <key>/manifest.tsv   "sha256<TAB>relative path" per input file
 *   <key>/project        the project's real path (maps the copy back)
 *   .tmp-XXXXXX/         an entry being built (flock held by its builder;
 *                        src/ the snapshot of the project it converts)
 * Every diags argument must be a valid nfy_diags (failures are recorded).
 * Publishing: the entry is built in a fresh .tmp- directory and renamed to
 * <key> in one rename(2). A reader sees either no entry or a complete one,
 * so concurrent runs (torchrun's workers) never import a half-written file;
 * when two runs build the same key, the first rename wins and the loser
 * removes its copy and uses the winner's (same bytes).
 */
#ifndef NPUIFY_RUNCACHE_H
#define NPUIFY_RUNCACHE_H

#include "convert/convert.h"
#include "core/core.h"

typedef struct {
    const char *project;       /* directory to convert */
    const char *cache_root;    /* from nfy_runcache_root */
    nfy_convert_mode mode;     /* MANUAL (tool) or AUTO */
    const char *torch_version; /* NULL: the default target */
    const nfy_rule_set *rules; /* built-in rules (+ custom) */
    const char *tool_version;  /* part of the key */
} nfy_runcache_opts;

typedef struct {
    const char *project; /* real path of the project */
    const char *entry;   /* cache_root/<key> */
    const char *tree;    /* entry/tree */
    char key[NFY_SHA256_HEX];
    bool reused; /* the entry existed (or another run published it) */
    nfy_convert_stats stats; /* of this run's conversion (zero if reused) */
} nfy_runcache_entry;

/**
 * The cache root: override when not NULL, else $XDG_CACHE_HOME/npuify
 * (when set and absolute), else $HOME/.cache/npuify. NFY_EUSAGE with a
 * diagnostic when none can be found. The string lives in arena a.
 */
NFY_NODISCARD nfy_status nfy_runcache_root(nfy_arena *a, const char *override,
                                           const char **out, nfy_diags *diags);

/**
 * Find or build the converted copy of opts->project. Strings of *out live
 * in arena a. NFY_OK when out->tree holds a complete converted copy, just
 * checked against its manifest (warnings in diags: an entry rebuilt, a
 * FIFO left out, a file changed during the build); NFY_EACCES when the
 * cache is not the user's alone; NFY_EUSAGE / NFY_EIO / NFY_ENOENT with
 * diagnostics otherwise (nothing half-built is left under the key).
 */
NFY_NODISCARD nfy_status nfy_runcache_prepare(const nfy_runcache_opts *opts,
                                              nfy_arena *a,
                                              nfy_runcache_entry *out,
                                              nfy_diags *diags);

/** Remove the entries and temporaries of the cache root (through a link
 * too), and the root when it is a directory left empty. */
NFY_NODISCARD nfy_status nfy_runcache_clean(const char *cache_root,
                                            nfy_diags *diags);

#endif
