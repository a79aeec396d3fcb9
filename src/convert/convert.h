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

#include "core/core.h"
#include "report/report.h"
#include "rules/rules.h"

/* nfy_convert_opts, nfy_convert_stats, nfy_convert_run and
 * nfy_convert_buffer are public: include/npuify/npuify.h. */

struct nfy_migrate_observer; /* migrate/migrate.h */
struct nfy_decisions;        /* review/review.h */

/*
 * What a command adds to a run beyond the public options: the observer
 * the migration shows each resolved Python file to (analyse's rows; the
 * npuify command passes it, convert knows no assessment) and a review's
 * decisions. Both may be NULL.
 */
typedef struct {
    const struct nfy_migrate_observer *observer;
    const struct nfy_decisions *decisions; /* NULL: every edit applies */
} nfy_convert_hooks;

/** nfy_convert_run with hooks (NULL: none, not even torch-API rows). */
NFY_NODISCARD nfy_status nfy_convert_run_with(const nfy_convert_opts *opts,
                                              const nfy_convert_hooks *hooks,
                                              nfy_report *rep,
                                              nfy_buf *diff_out,
                                              nfy_convert_stats *stats,
                                              nfy_diags *diags);
/** nfy_convert_buffer with hooks (NULL: none). */
NFY_NODISCARD nfy_status nfy_convert_buffer_with(const nfy_convert_opts *opts,
                                                 const nfy_convert_hooks *hooks,
                                                 const char *rel,
                                                 const char *bytes, size_t len,
                                                 nfy_report *rep, nfy_buf *out,
                                                 nfy_diags *diags);

#endif
