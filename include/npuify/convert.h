/*
 * convert: migrate a whole project tree (or one file) from CUDA to Ascend
 * NPU. Walks SRC in sorted order; Python files go through the migration
 * passes and get minimal edits, launcher shell scripts get their CUDA/NCCL
 * environment names renamed, every other file is copied byte for byte, and
 * the findings go into an nfy_report that the caller writes out.
 *
 * Actions:
 *  - WRITE: write the converted tree to dst (src and dst must not overlap
 *    either way, by real path; dst must be empty or absent unless force).
 *    Each file is written atomically (temporary file + rename); no
 *    symbolic link inside dst is ever followed.
 *  - DIFF: write nothing; append a unified diff of every change to diff_out.
 *  - CHECK: write nothing; count the files that would change.
 *  - IN_PLACE: rewrite changed files of src atomically, keeping the original
 *    as FILE.orig unless backup is false (a file whose backup cannot be
 *    written is not rewritten); mode, owner and group are kept. Stale
 *    npuify temporaries in src are removed.
 * Only regular files are read: FIFOs, sockets and devices are reported
 * (a single src that is one is refused with NFY_EUSAGE). With opts.stop
 * set the run stops between files.
 * Bad files (unreadable, too large, not UTF-8 decodable, syntax errors) are
 * reported as diagnostics with file:line:col and copied unchanged; the rest
 * of the tree is still processed.
 *
 * With jobs > 1 the walk still runs in the calling thread and lists the
 * entries; worker threads convert the files, each into its own report,
 * diagnostics and diff, and these are merged in walk order, so reports,
 * diagnostics, diff and stats are identical to a run with jobs = 1. The
 * rule set must not change during the run (it is only read). A diags with
 * a cap (max) makes the run sequential, as the cap's effect on later files
 * depends on the order of work.
 */
#ifndef NPUIFY_CONVERT_H
#define NPUIFY_CONVERT_H

#include <signal.h>

#include "npuify/core.h"
#include "npuify/report.h"
#include "npuify/rules.h"

NFY_API_BEGIN

typedef enum {
    NFY_CONVERT_WRITE,
    NFY_CONVERT_DIFF,
    NFY_CONVERT_CHECK,
    NFY_CONVERT_IN_PLACE
} nfy_convert_action;

typedef enum {
    NFY_CONVERT_MODE_MANUAL, /* the full rule-based migration (default) */
    NFY_CONVERT_MODE_AUTO    /* only add torch_npu + transfer_to_npu imports */
} nfy_convert_mode;

typedef struct {
    const char *src;
    const char *dst; /* WRITE only */
    nfy_convert_action action;
    nfy_convert_mode mode;
    bool force;                  /* WRITE into a non-empty dst */
    bool backup;                 /* IN_PLACE: keep FILE.orig */
    bool unsafe;                 /* also apply rules of safety "unsafe" */
    bool amp;                    /* insert AMP where the project has none */
    bool amp_apex;               /* --amp=apex: apex.amp, as Ascend's ports */
    bool distributed;            /* --distributed: single card -> DDP */
    const char *model;           /* --model NAME: the model variable */
    const char *torch_version;   /* NULL: newest shipped */
    const nfy_rule_set *rules;   /* built-in + custom rules */
    const char *const *skip_rel; /* NULL-terminated relative paths to skip
                                    (e.g. the report dir), may be NULL */
    unsigned jobs; /* worker threads; 0 or 1: all in the calling thread.
                      Every output is the same for any value. */
    const char *const *main_files; /* --mode auto: entry scripts named by
                                      the user (--main), paths relative to
                                      src or below it; NULL-terminated, may
                                      be NULL */
    /* Set (e.g. by a signal handler) to stop: the file being written is
     * finished or not begun, no other is started. May be NULL. */
    const volatile sig_atomic_t *stop;
    /* The assessment run on each Python file (npuify/analyse.h); NULL: the
       torch-API rows (NPU701/NPU702) for torch_version with rules. */
    const struct nfy_analyse_opts *analyse;
    const struct nfy_decisions *decisions; /* review.h: apply only the edits
                                              it accepts; NULL: all */
    /* Called in the calling thread once per entry of the walk (files,
     * links, directories; not the skipped ones) when it is done, in walk
     * order for any jobs; rel as in the report. For a progress display;
     * it must not touch the run. May be NULL. */
    void (*progress)(void *user, const char *rel);
    void *progress_user; /* passed to progress */
} nfy_convert_opts;

typedef struct {
    size_t files_seen;
    size_t files_scanned; /* Python files and shell scripts */
    size_t files_changed; /* would change / changed */
    size_t files_error;
} nfy_convert_stats;

/**
 * Run a conversion. rep receives every file and finding (paths relative to
 * src); diff_out (DIFF only, may be NULL otherwise) the unified diff; diags
 * the problems with input files. Returns NFY_EUSAGE for a bad src/dst pair
 * (with a diagnostic saying why), NFY_EIO when some output could not be
 * written, NFY_OK otherwise (even when input files had errors: see stats).
 */
NFY_NODISCARD nfy_status nfy_convert_run(const nfy_convert_opts *opts,
                                         nfy_report *rep, nfy_buf *diff_out,
                                         nfy_convert_stats *stats,
                                         nfy_diags *diags);

NFY_API_END

#endif
