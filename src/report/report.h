/*
 * report: the migration report model and its writers.
 *
 * A report collects, for one run (convert / analyse), the files seen and the
 * findings made. A finding is one located record: an edit that was applied
 * (category NFY_CAT_CHANGE), or something the user must know (unsupported or
 * unknown API, CUDA-only API, precision / performance advice, a fused
 * "affinity" NPU API, a "cuda" text deliberately left alone and why).
 *
 * Writers (all deterministic: rows sorted by file, then start line, start
 * column, end, rule, message; no timestamps; absolute paths only where the
 * caller put them in the metadata):
 *   change_list.csv        File, Start Line, End Line, Operation Type, Message,
 *                          Rule, Start Col, End Col, Safety
 *                          (every NFY_CAT_CHANGE finding and every finding
 *                           whose op is NFY_OPTYPE_UNSUPPORTED)
 *   unsupported_api.csv    File, Start Line, End Line, OP, Tips
 *   unknown_api.csv        same columns
 *   api_precision_advice.csv, api_performance_advice.csv   same columns
 *   cuda_op_list.csv       File, Api
 *   affinity_api_call.csv  File, Start Line, End Line, Api Type,
 *                          Api Call Name, Affinity Api Name
 *   npuify.log             plain text, per file: status, then one line per
 *                          change ("line: a ~ b   Operation Type: X
 *                          Message: ..." as msFmkTransplt prints), then the
 *                          caller's log lines
 *   report.json            {"schema": "npuify-report/1", "tool": {...},
 *                          "run": {...}, "summary": {...}, "files": [...],
 *                          "findings": [...], "left_unchanged": [...]}
 *   summary.md             counts, edits by rule, manual work, per-line table
 *   report.sarif           SARIF 2.1.0, one run, rules from the rule ids
 *   report.html            self-contained page: totals, bar charts per rule
 *                          and category, the summary.md tables
 * Column conventions: lines are 1-based, columns 0-based code points (as
 * Python's tokenize counts; SARIF gets them +1 as its format requires). A
 * finding about the whole project has file NULL, written as "NA" in the
 * CSV files like msFmkTransplt's global advice rows, as "project" where a
 * person reads it (console, summary.md, report.html).
 *
 * Ownership: the report owns copies of every string it is given (one arena),
 * so callers may free their per-file memory right after adding. Not
 * thread-safe: parallel workers fill one report each and the caller merges
 * them with nfy_report_merge (order of merging does not matter: writers sort).
 * The library never prints; console output is rendered into an nfy_buf.
 */
#ifndef NPUIFY_REPORT_H
#define NPUIFY_REPORT_H

#include "core/core.h"
#include "core/htab.h"
#include "edit/edit.h"
#include "rules/rules.h"

/* Operation type, msFmkTransplt's enum plus NONE for non-change findings.
 * (NFY_OPTYPE_*: pylex.h owns NFY_OP_* for operators.) */
typedef enum {
    NFY_OPTYPE_NONE,   /* advice, unknown API, left unchanged: no operation */
    NFY_OPTYPE_INSERT, /* code added */
    NFY_OPTYPE_MODIFY, /* code replaced */
    NFY_OPTYPE_DELETE, /* code removed */
    NFY_OPTYPE_UNSUPPORTED /* needs manual migration; listed in change_list too
                            */
} nfy_op_type;

/* Safety levels are the rule catalogue's (rules.h): SAFE, UNSAFE, MANUAL. */
typedef nfy_rule_safety nfy_safety;

/** "INSERT", "MODIFY", "DELETE", "UNSUPPORTED", "" for NONE. */
const char *nfy_report_op_type_name(nfy_op_type op);
/** "safe", "unsafe", "manual". */
const char *nfy_report_safety_name(nfy_safety s);

/**
 * One finding or change record. All strings are NUL-terminated; every one may
 * be NULL (written as empty) except rule. When added to a report they are
 * copied, so the caller's copies may be temporary.
 */
typedef struct {
    const char *file;    /* relative to the source root, '/'-separated;
                            NULL: project-wide */
    uint32_t start_line; /* 1-based; 0 when unknown (project-wide) */
    uint32_t start_col;  /* 0-based code points */
    uint32_t end_line;   /* end of the span (exclusive end position) */
    uint32_t end_col;
    const char *rule; /* stable rule id, e.g. "NPU201" */
    nfy_op_type op;
    nfy_safety safety;
    nfy_finding_cat cat;
    const char *api;      /* qualified API name ("torch.cuda.set_device") or
                             operator / CUDA API name; the OP/Api column */
    const char *message;  /* Message / Tips column; for LEFT_UNCHANGED the
                             reason */
    const char *before;   /* original source text of the span */
    const char *after;    /* replacement text (changes) */
    const char *api_type; /* affinity: "function", "class", "optimizer"... */
    const char *npu_api;  /* affinity / replacement NPU API name */
    const char *value_set_id;   /* string literals: the value set the literal
                                   belongs to ("vs14.47", unique within the
                                   file), or NULL */
    const char *value_set;      /* the name the set's members meet ("impl") */
    const char *edit_id;        /* changes made by convert: the stable edit id
                                   (review.h), or NULL */
    const char *code_before;    /* the source line of start_line, or NULL */
    const char *code_after;     /* a change within one line: that line after
                                   it, or NULL */
    nfy_severity rule_severity; /* the rule's severity, filled in by a report
                                   with rules (nfy_report_use_rules) */
    bool edit_id_in_file;       /* edit_id leaves out its first part, the
                                   file and ':' (nfy_report_finding_edit_id) */
} nfy_finding;

typedef NFY_VEC(nfy_finding) nfy_finding_vec;

/** The whole edit id of f, or NULL: f->edit_id itself, or put together in
 * *buf (valid until buf changes). */
const char *nfy_report_finding_edit_id(const nfy_finding *f, nfy_buf *buf);

/** Set start/end line and column of f from a byte span of src. */
void nfy_report_finding_locate(nfy_finding *f, const nfy_source *src,
                               nfy_span sp);

/* What happened to one input file. */
typedef enum {
    NFY_FILE_CONVERTED, /* rewritten: at least one edit applied */
    NFY_FILE_UNCHANGED, /* scanned (Python / shell), nothing to change */
    NFY_FILE_COPIED,    /* not scanned (other file type), copied verbatim */
    NFY_FILE_SKIPPED,   /* not copied (symlink, output dir, too large ...) */
    NFY_FILE_ERROR      /* could not be read or scanned; see note */
} nfy_file_status;

/** "converted", "unchanged", "copied", "skipped", "error". */
const char *nfy_report_file_status_name(nfy_file_status s);

typedef struct {
    const char *file; /* relative, '/'-separated */
    nfy_file_status status;
    const char *note; /* why skipped / the error; may be NULL */
} nfy_report_file;

typedef NFY_VEC(nfy_report_file) nfy_report_file_vec;

/* A caller-provided log line for npuify.log, attached to a file or NULL. */
typedef struct {
    const char *file;
    const char *text;
    uint32_t seq; /* order of addition, kept within one file */
} nfy_report_log_line;

typedef NFY_VEC(nfy_report_log_line) nfy_report_log_vec;

/** One element of a script's training program (src/train): report.json's
 *  "training" (kind: module, optimizer, step, train_loader ...). */
typedef struct {
    const char *file;
    const char *kind;
    uint32_t line;
    const char *text; /* the statement's first line */
    const char *note; /* how it was found, or NULL */
} nfy_report_training_row;

typedef NFY_VEC(nfy_report_training_row) nfy_report_training_vec;

/* Run metadata, written into report.json, summary.md and the SARIF run. */
typedef struct {
    const char *tool_version;  /* e.g. "0.1.0" */
    const char *command;       /* "convert", "analyse" */
    const char *source;        /* source root as the user gave it */
    const char *torch_version; /* target torch / torch_npu version, or NULL */
    const char *mode;          /* "manual", "auto", "distributed"..., or NULL */
    /* What makes a finding's file openable from the current directory
     * (the console summary, SARIF): SRC as given for a tree, NULL when
     * the files are named as given already (one file). */
    const char *file_root;
} nfy_report_meta;

/** Optional lookup of a rule's one-line description (for SARIF / summary). */
typedef const char *(*nfy_rule_desc_fn)(void *ctx, const char *rule_id);

/* One interned string of a report: its bytes live in the report's arena. */
typedef struct {
    const char *s;
    uint32_t len;
} nfy_report_string;

/*
 * A sealed finding (nfy_report_seal), a fifth of an nfy_finding: string ids
 * into the report's set (0: NULL); extra names the interned tuple of the
 * finding's other strings, which identical findings of copied files share.
 */
typedef struct {
    uint32_t file, rule, extra;
    uint32_t start_line, start_col, end_line, end_col;
    uint8_t op, safety, cat, rule_severity;
} nfy_report_row;

/* Sealed rows are kept in fixed chunks: no array of them is ever copied
 * to grow, nor holds unused room beyond one chunk. */
enum { NFY_REPORT_ROW_CHUNK = 8192 };

struct nfy_report {
    nfy_arena arena; /* owns every string below, each distinct one once */
    NFY_VEC(nfy_report_string) by_id; /* those strings; id - 1 -> string */
    nfy_htab strings;                 /* their ids - 1, by content */
    /* the same keyed by their strings' addresses: sealing a finding whose
     * strings are the report's own hashes none */
    nfy_htab by_ptr;
    nfy_report_meta meta;
    nfy_report_file_vec files;
    /* Findings 0 .. nrows - 1 are sealed, the rest are still open (and
     * may be edited in place); read both with nfy_report_finding_read. */
    NFY_VEC(nfy_report_row *) row_chunks;
    size_t nrows;
    /* The findings not sealed yet (the current file's, editable in place);
     * every finding, sealed or open: nfy_report_finding_read. */
    nfy_finding_vec open_findings;
    nfy_report_log_vec log;
    nfy_report_training_vec training;
    uint32_t next_seq;
    nfy_rule_desc_fn rule_desc; /* may be NULL */
    void *rule_desc_ctx;
    const nfy_rule_set *rules; /* borrowed; may be NULL */
};

void nfy_report_init(nfy_report *rep);
void nfy_report_release(nfy_report *rep);
/**
 * Describe rules from set (borrowed, must outlive the report): rule names in
 * summary.md, report.html and SARIF, and each finding's rule_severity (so
 * advice whose rule is a warning, such as no AMP at all, counts as manual
 * work). Findings added before the call keep theirs.
 */
void nfy_report_use_rules(nfy_report *rep, const nfy_rule_set *rules);
/** Copy the metadata strings into the report. */
void nfy_report_set_meta(nfy_report *rep, const nfy_report_meta *meta);
/** Record a file and what happened to it (note may be NULL). */
void nfy_report_add_file(nfy_report *rep, const char *file,
                         nfy_file_status status, const char *note);
/** Record a finding (all strings copied). A NULL rule becomes "". */
void nfy_report_add_finding(nfy_report *rep, const nfy_finding *f);
/**
 * Record every edit of a normalized set as a NFY_CAT_CHANGE finding on file:
 * op from the edit's shape (empty span: INSERT, empty text: DELETE, else
 * MODIFY), position from the set's source, before/after from the bytes,
 * rule and message from the edit's rule and note, the given safety.
 */
void nfy_report_add_edits(nfy_report *rep, const char *file, nfy_edit_set *set,
                          nfy_safety safety);
/** Add a line to npuify.log under file (NULL: a run-level line). */
void nfy_report_logf(nfy_report *rep, const char *file, const char *fmt, ...)
    NFY_PRINTF(3, 4);
/** Record an element of file's training program (strings copied). */
void nfy_report_add_training(nfy_report *rep, const char *file,
                             const char *kind, uint32_t line, const char *text,
                             const char *note);
/** The training rows by file, line and kind: *out (free it) holds n
 *  pointers into rep. */
size_t nfy_report_training_sorted(const nfy_report *rep,
                                  const nfy_report_training_row ***out);
/** Each script's training program, a few lines a file: modules,
 *  optimizers, schedulers, steps, loaders, epoch loop and clipping at
 *  file:line, the other sites counted (nothing without rows). */
void nfy_report_render_training(const nfy_report *rep, nfy_buf *out);
/** Move-copy everything of src into dst (src is left as it was). */
void nfy_report_merge(nfy_report *dst, const nfy_report *src);
/**
 * Seal the open findings: stored compactly from now on, so a tree's
 * report costs ~32 bytes a finding, not sizeof(nfy_finding). Call once a
 * file's findings are final; open findings past it are indexed afresh.
 */
void nfy_report_seal(nfy_report *rep);
/**
 * One finding per site among the open findings from index first (one
 * file's): those at the same start for the same API become the one that
 * weighs most for the effort, the others' rules named in its message as
 * related (src/report/merge_sites.c).
 */
void nfy_report_merge_sites(nfy_report *rep, size_t first);

/*
 * The open findings (open.c): a mark is how many there are now; those
 * added since a mark may be edited in place until the report is sealed
 * or another finding is added.
 */
size_t nfy_report_open_mark(const nfy_report *rep);
/** The findings opened since mark, *n of them (NULL when none). */
nfy_finding *nfy_report_open_since(nfy_report *rep, size_t mark, size_t *n);
/** An open change that was not applied becomes a left-unchanged row
 *  saying why (copied into the report). */
void nfy_report_leave_unchanged(nfy_report *rep, nfy_finding *f,
                                const char *why);
/** The report's one copy of the n bytes at s (NULL stays NULL): for
 *  strings set on open findings in place, which the report then owns. */
const char *nfy_report_strndup(nfy_report *rep, const char *s, size_t n);
/* nfy_report_finding_count (npuify.h) counts every finding, sealed and
 * open. */
/** Finding i (0 .. count - 1, sealed first) into *out; strings are the
 *  report's. */
void nfy_report_finding_read(const nfy_report *rep, size_t i, nfy_finding *out);

/* Totals derived from the model (what the summaries print). */

/** True when f needs a human (counted in totals.manual). */
bool nfy_report_finding_is_manual(const nfy_finding *f);

/* ---- Effort estimate (src/report/effort.c states the rule) ---- */
typedef enum {
    NFY_EFFORT_NONE,
    NFY_EFFORT_LOW,
    NFY_EFFORT_MEDIUM,
    NFY_EFFORT_HIGH
} nfy_effort;

typedef struct {
    size_t kernels;  /* custom kernels to port */
    size_t blocking; /* kernels, unsupported APIs, UNSUPPORTED operations */
    size_t manual;   /* other manual findings */
    size_t edits;    /* changes */
} nfy_effort_counts;

/** "none", "low", "medium", "high". */
const char *nfy_report_effort_name(nfy_effort e);
/** A custom kernel finding (CUDA source, extension build, op call, Triton). */
bool nfy_report_finding_is_kernel(const nfy_finding *f);
/** Blocks the port until a human acts: kernels and unsupported APIs. */
bool nfy_report_finding_is_blocking(const nfy_finding *f);
/** Count f into c (left-unchanged records do not count). */
void nfy_report_effort_add(nfy_effort_counts *c, const nfy_finding *f);
/** The level the counts give. */
nfy_effort nfy_report_effort_of(const nfy_effort_counts *c);
/**
 * Effort for one file (file non-NULL) or the project (NULL: every finding,
 * and never below its worst file); counts (may be NULL) receives the
 * totals behind it.
 */
nfy_effort nfy_report_effort(const nfy_report *rep, const char *file,
                             nfy_effort_counts *counts);

/* ---- Report formats (formats.c; the table: NFY_REPORT_FORMAT_MAP) ---- */

/* The two reports: a tree's (convert, analyse, review: nfy_report_write)
 * and the operators' (ops: nfy_report_prof_report_write, report/ops.h). */
typedef enum { NFY_REPORT_KIND_TREE, NFY_REPORT_KIND_OPS } nfy_report_kind;

/** The NFY_REPORT_* formats a kind of report has. */
unsigned nfy_report_formats_of(nfy_report_kind kind);
/** What "all" (and no --format) means: every format; for ops every one
 *  but SARIF. */
unsigned nfy_report_formats_default(nfy_report_kind kind);
/**
 * Parse a --format list ("csv, json,md", "all"; "markdown" is md) of the
 * formats kind has; any other name gives NFY_EUSAGE.
 */
NFY_NODISCARD nfy_status nfy_report_formats_parse(nfy_report_kind kind,
                                                  const char *list,
                                                  unsigned *mask);

/* The names --help lists, joined from the table at compile time, each
 * with a comma after it ("csv,log,json,md,sarif,html,"): the help text
 * ends the list with "all". */
#define NFY__FORMAT_HELP_Y(name) name ","
#define NFY__FORMAT_HELP_N(name)
#define NFY__FORMAT_HELP_TREE(id, name, ops) name ","
#define NFY__FORMAT_HELP_OPS(id, name, ops)  NFY__FORMAT_HELP_##ops(name)
#define NFY_REPORT_TREE_FORMAT_NAMES                                           \
    NFY_REPORT_FORMAT_MAP(NFY__FORMAT_HELP_TREE)
#define NFY_REPORT_OPS_FORMAT_NAMES NFY_REPORT_FORMAT_MAP(NFY__FORMAT_HELP_OPS)

/* Renderers behind nfy_report_write, appending to out (for tests, stdout). */
typedef enum {
    NFY_CSV_CHANGE_LIST,
    NFY_CSV_UNSUPPORTED_API,
    NFY_CSV_UNKNOWN_API,
    NFY_CSV_PRECISION_ADVICE,
    NFY_CSV_PERFORMANCE_ADVICE,
    NFY_CSV_CUDA_OP_LIST,
    NFY_CSV_AFFINITY_API,
    NFY_CSV_COUNT
} nfy_csv_kind;

/** File name of a CSV kind, e.g. "change_list.csv". */
const char *nfy_report_csv_file_name(nfy_csv_kind kind);
void nfy_report_render_csv(const nfy_report *rep, nfy_csv_kind kind,
                           nfy_buf *out);
void nfy_report_render_log(const nfy_report *rep, nfy_buf *out);
void nfy_report_render_json(const nfy_report *rep, nfy_buf *out);
void nfy_report_render_md(const nfy_report *rep, nfy_buf *out);
void nfy_report_render_sarif(const nfy_report *rep, nfy_buf *out);
/** Self-contained page: inline CSS bar charts, no script, no links out. */
void nfy_report_render_html(const nfy_report *rep, nfy_buf *out);

/**
 * The short console summary: files scanned / changed, edits by rule, and
 * findings needing manual work with the first top locations (sorted), e.g.
 *   npuify: 12 files scanned, 5 changed, 3 copied, 0 errors
 *   edits: 23 (NPU101 x8, NPU201 x6, ...)
 *   manual work: 4 findings
 *     train.py:42:8: NPU503 nn.DataParallel is not supported ...
 * color adds ANSI colours.
 */
typedef struct {
    size_t top; /* manual-work findings listed; (size_t)-1: all */
    bool color; /* ANSI colours */
    /* How to see the findings not listed ("-v lists them all"); NULL:
     * "see the report". */
    const char *more_hint;
} nfy_console_opts;
void nfy_report_render_console(const nfy_report *rep, const nfy_console_opts *o,
                               nfy_buf *out);

/**
 * Sorted copy: fills *out with pointers to copies of rep's findings in
 * report order (file, start line/col, end line/col, rule, message, api),
 * all in one block the caller frees with free(). The writers use a lighter
 * view of indices (report_internal.h).
 */
size_t nfy_report_sorted(const nfy_report *rep, const nfy_finding ***out);

#endif
