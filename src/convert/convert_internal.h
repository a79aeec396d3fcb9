/* Internal to src/convert: shared helpers of the convert driver. */
#ifndef NPUIFY_CONVERT_INTERNAL_H
#define NPUIFY_CONVERT_INTERNAL_H

#include "convert/convert.h"
#include "migrate/migrate.h"
#include "migrate/scripts.h"

/* Absolute symlink-free path, also for a path whose tail does not exist. */
char *nfy__convert_abspath(nfy_arena *a, const char *path);
/* True when inner equals outer or lies below it (both absolute). */
bool nfy__convert_path_is_inside(const char *inner, const char *outer);
/* Validate src/dst for the action; diagnostics say what is wrong. */
nfy_status nfy__convert_check_paths(const nfy_convert_opts *o, nfy_arena *a,
                                    nfy_diags *diags);

/* Larger scripts are reported and copied, not converted. */
enum { NFY__MAX_SCRIPT_BYTES = 32 << 20 };

/* For a single input file, where -o puts it (-o may name a directory). */
const char *nfy__convert_single_dst(nfy_arena *a, const nfy_convert_opts *o);

/*
 * A file whose every line ends with a lone CR: view gets a copy with LFs
 * instead (same offsets) and true; false for any other file. Turn a result
 * made from the view back with nfy__convert_cr_restore.
 */
bool nfy__convert_cr_view(const nfy_source *src, nfy_source *view);
void nfy__convert_cr_restore(nfy_buf *result);

/* What a file is, for conversion purposes. */
typedef enum {
    NFY_FILE_KIND_OTHER, /* copied byte for byte */
    NFY_FILE_KIND_PYTHON,
    NFY_FILE_KIND_SHELL,
    NFY_FILE_KIND_DOCKERFILE, /* scanned for findings, never edited */
    NFY_FILE_KIND_NOTEBOOK    /* .ipynb: code cells, edited in the JSON */
} nfy_file_kind;

/* The kind cannot be told from the name alone: the head decides. */
bool nfy__convert_kind_needs_head(const char *name);
/* Classify by name, then by a "#!" line in the first bytes. */
nfy_file_kind nfy__convert_classify(const char *name, const char *head,
                                    size_t head_len);

/*
 * Produce the edits for one text file (Python or shell) into set and the
 * findings into rep. The set is over src.
 */
typedef struct {
    const nfy_convert_opts *o;
    nfy_convert_hooks hooks; /* the caller's, or none */
    nfy_migrate_opts mo;
    nfy_rule_env env; /* of mo: which rules are active, for every file kind */
    nfy_migrate_project proj;
} nfy_convert_passes;

/* The passes of a run, with the caller's hooks (hooks may be NULL). */
typedef struct {
    nfy_convert_passes passes;
} nfy__convert_setup;

void nfy__convert_setup_init(nfy__convert_setup *s, const nfy_convert_opts *o,
                             const nfy_convert_hooks *hooks);

/*
 * One file's whole conversion in memory: the passes over in (edits into
 * set, findings into rep), their edits applied into result, and a Python
 * file that no longer parses given back as it was (its changes become
 * left-unchanged rows; *unparsed says so). *changed: result differs from
 * in. NFY_ELIMIT when the edits do not fit the size limit.
 */
nfy_status nfy__convert_file(nfy_convert_passes *p, nfy_file_kind kind,
                             const nfy_source *in, const char *rel,
                             nfy_edit_set *set, nfy_report *rep,
                             nfy_diags *diags, nfy_buf *result, bool *changed,
                             const char **unparsed);

nfy_status nfy__convert_edits(nfy_convert_passes *p, nfy_file_kind kind,
                              const nfy_source *src, const char *rel,
                              nfy_edit_set *set, nfy_report *rep,
                              nfy_diags *diags);

/*
 * After the passes of one file: give each finding recorded since index
 * first its code line (and a one-line change the line after it), each
 * change its edit id, and with --decisions take out of set the edits not
 * accepted (their findings become left-unchanged rows saying so), except
 * a rejected import an accepted edit needs (kept, a warning in diags).
 */
void nfy__convert_review(const nfy_convert_passes *p, const nfy_source *src,
                         const char *rel, nfy_edit_set *set, nfy_report *rep,
                         size_t first, nfy_diags *diags);

/* A notebook's edits (over its JSON) and findings (notebook.c). */
nfy_status nfy__convert_notebook_edits(nfy_convert_passes *p,
                                       const nfy_source *src, const char *rel,
                                       nfy_edit_set *set, nfy_report *rep,
                                       nfy_diags *diags);

/*
 * Lexes and parses text (named name) alone, with the passes' front end,
 * adding its diagnostics to d; *tree_errors says whether the tree holds
 * syntax errors. Not NFY_OK when the text could not be read (nothing
 * said), or lexing or parsing stopped (NFY_ELIMIT: past the token limit).
 */
nfy_status nfy__convert_parse_check(const char *name, const char *text,
                                    size_t len, nfy_diags *d,
                                    bool *tree_errors);
/*
 * Does result (set applied to in, a Python file) still parse? When not, an
 * error "convert-reparse" at the edit nearest the first syntax error names
 * its rule (reparse.c).
 */
bool nfy__convert_reparses(nfy_diags *diags, const nfy_source *in,
                           const char *rel, const nfy_edit_set *set,
                           const nfy_buf *result);
/* The changes of rel recorded since index first were not applied: they
 * become left-unchanged rows with the reason why. */
void nfy__convert_unapply(nfy_report *rep, const char *rel, size_t first,
                          const char *why);

/* --mode auto: entry scripts named by --main or run by a launcher in the
 * tree, NULL-terminated relpaths in a (entries.c). */
const char *const *nfy__convert_auto_entries(const nfy_convert_opts *o,
                                             nfy_arena *a);
/** The modules SRC's .py files make importable (a tree; out initialised),
 * finished (src/convert/modules.c). */
void nfy__convert_project_modules(const nfy_convert_opts *o,
                                  nfy_migrate_modules *out);

/* An output directory kept open: its descriptor and its path below the
 * output root (malloc). */
typedef struct {
    int fd;
    char *rel;
} nfy__kept_dir;

/* How deep the kept directories go; below, directories are opened from
 * the deepest kept one for each entry. */
enum { NFY__KEPT_DIRS = 16 };

/*
 * One conversion's state. The sequential walk uses one for the whole run;
 * parallel workers use one per file, pointing at that file's own report,
 * diagnostics, diff and stats, which are merged in walk order afterwards.
 */
typedef struct {
    const nfy_convert_opts *o;
    nfy_convert_passes *passes;
    nfy_report *rep;
    nfy_buf *diff_out;
    nfy_convert_stats *stats;
    nfy_diags *diags;
    bool single_file;    /* src is one file */
    const char *dst;     /* output root (dir), or output file path */
    nfy_status write_rc; /* first output error */
    const char *target;  /* single file in place: the file a link names */
    int root_fd;         /* the output root (DST, or SRC in place), or -1 */
    bool umask_known;    /* umask is the process's (mode given at creation) */
    mode_t umask;
    /* One converter for the whole run (the walk, or one -j thread): the
     * output directories along the path last written stay open, so the
     * entries after a subdirectory find their own still open. */
    bool cache_dirs;
    nfy__kept_dir kept[NFY__KEPT_DIRS]; /* outermost first */
    size_t kept_len;
    size_t kept_max; /* this converter's share of the descriptor limit */
} nfy__converter;

/* How many output directories each of `threads` converters may keep open:
 * NFY__KEPT_DIRS, or less, so that with the few each converter opens for
 * an entry (input, output, a directory) all of them stay within half the
 * process's descriptor limit; none when even that is tight. */
size_t nfy__convert_kept_budget(unsigned threads);

/* ---- Output (output.c); each failure said once, on its path. ---- */
/* An error on one side of one file ("what: reason"). */
void nfy__convert_error(nfy__converter *c, const char *code, const char *path,
                        const char *what, nfy_status st);
/* A write error; the run's result becomes NFY_EIO. */
void nfy__convert_output_error(nfy__converter *c, const char *path,
                               nfy_status st);
/* "what: reason", for a report note. */
const char *nfy__convert_note(nfy_arena *a, const char *what, nfy_status st);
/* Write data as e's output (WRITE). */
nfy_status nfy__convert_write_out(nfy__converter *c, const nfy_walk_entry *e,
                                  nfy_arena *a, const char *data, size_t len,
                                  const char **note);
/* Close the output directories kept open by cache_dirs. */
void nfy__convert_forget_dir(nfy__converter *c);
/* Copy e byte for byte to its output, from in (open, its stat st) or, when
 * in is -1, from e->path; false (said, *note) on failure. */
bool nfy__convert_copy_out(nfy__converter *c, const nfy_walk_entry *e, int in,
                           const struct stat *st, nfy_arena *a,
                           const char **note);
/* Rewrite e in place behind its FILE.orig: no backup, no rewrite. */
nfy_status nfy__convert_rewrite(nfy__converter *c, const nfy_walk_entry *e,
                                nfy_arena *a, const nfy_buf *result,
                                const char **note);
/* The directory e in the output; an existing link there is refused. */
void nfy__convert_make_dir(nfy__converter *c, const nfy_walk_entry *e,
                           nfy_arena *a);
/* The link e, recreated as a link (WRITE) and reported. */
void nfy__convert_copy_link(nfy__converter *c, const nfy_walk_entry *e,
                            nfy_arena *a);
/* True for an npuify temporary (removed in place, never converted); one
 * file in place: the temporaries beside it are removed. */
bool nfy__convert_stale_temp(nfy__converter *c, const nfy_walk_entry *e);

/* True once the run was asked to stop (opts->stop): no new file begins. */
bool nfy__convert_stopping(const nfy__converter *c);

/* True when rel is one of the paths the options say to skip. */
bool nfy__convert_skipped(const nfy__converter *c, const char *rel);
/* Convert, copy or create one walk entry (a file, link or directory). */
void nfy__convert_entry(nfy__converter *c, const nfy_walk_entry *e);

/*
 * Walk src (sequentially), convert its entries on `jobs` threads, and merge
 * every result into c in walk order, so the outcome is byte for byte that
 * of the sequential walk. Returns the walk's status.
 */
nfy_status nfy__convert_parallel(nfy__converter *c, const nfy_walk_opts *wo,
                                 unsigned jobs);

/** --distributed: run_distributed_npu.sh at the output root (launcher.c). */
void nfy__convert_write_launcher(const nfy_convert_opts *o,
                                 const struct nfy_decisions *decisions,
                                 nfy_report *rep, nfy_diags *d);

#endif
