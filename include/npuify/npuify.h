/*
 * libnpuify: the public API, the one installed header.
 *
 * A small surface for programs that embed the migration (editor plugins,
 * pre-commit hooks, CI gates): load the rule catalogue, convert a tree or a
 * file, read the findings and write the report files. Everything a caller
 * holds is an opaque handle made and freed by this API; results are read
 * through *_info copies whose strings live as long as the handle they came
 * from. The rest of the library (front end, passes, report renderers,
 * profiler reader) is internal: its headers live in src/<module>/ and the
 * shared library (built with -fvisibility=hidden) exports only what is
 * marked NFY_API here.
 *
 * Stability: the enums only grow at their end; structs the caller fills
 * (nfy_convert_opts) must be zero-initialised, so a field added later
 * (always at the end) keeps its default for old callers.
 * Allocation failure aborts; every other error comes back as nfy_status.
 * Nothing keeps global state: separate handles may be used from separate
 * threads; one handle is one thread's at a time, reads included (reading a
 * finding's edit id may add that id to its report).
 */
#ifndef NPUIFY_NPUIFY_H
#define NPUIFY_NPUIFY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#    define NFY_API          __attribute__((visibility("default")))
#    define NFY_NODISCARD    __attribute__((warn_unused_result))
#    define NFY_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#    define NFY_API
#    define NFY_NODISCARD
#    define NFY_PRINTF(a, b)
#endif

#define NPUIFY_VERSION "0.1.0"

/** The library's version, NPUIFY_VERSION of the build. */
NFY_API const char *nfy_version(void);

/* ---- Status ------------------------------------------------------------ */

#define NFY_STATUS_MAP(X)                                                      \
    X(OK, "success")                                                           \
    X(ENOMEM, "out of memory")                                                 \
    X(EIO, "input/output error")                                               \
    X(ENOENT, "no such file or directory")                                     \
    X(EEXIST, "already exists")                                                \
    X(ESYNTAX, "syntax error")                                                 \
    X(ERULE, "invalid rule")                                                   \
    X(ELIMIT, "size or depth limit exceeded")                                  \
    X(EUSAGE, "invalid usage")                                                 \
    X(EINTERNAL, "internal error")                                             \
    X(EACCES, "permission denied")                                             \
    X(ENOSPC, "no space left on device")                                       \
    X(EROFS, "read-only file system")                                          \
    X(ENOTDIR, "not a directory")                                              \
    X(EISDIR, "is a directory")                                                \
    X(ENAMETOOLONG, "file name too long")                                      \
    X(ESYMLINK, "a symbolic link is in the way (never followed)")              \
    X(ENOTREG, "not a regular file (FIFO, socket or device)")                  \
    X(EBUSY, "device or resource busy")

typedef enum {
#define NFY_STATUS_ENUM(name, text) NFY_##name,
    NFY_STATUS_MAP(NFY_STATUS_ENUM)
#undef NFY_STATUS_ENUM
} nfy_status;

/** Short symbolic name ("ENOMEM") of a status; never NULL. */
NFY_API const char *nfy_status_name(nfy_status st);
/** Human-readable text of a status; never NULL. */
NFY_API const char *nfy_status_str(nfy_status st);

/* ---- Handles ----------------------------------------------------------- */

typedef struct nfy_diags nfy_diags;       /* diagnostics of a run */
typedef struct nfy_buf nfy_buf;           /* bytes (the unified diff) */
typedef struct nfy_rule_set nfy_rule_set; /* the rule catalogue */
typedef struct nfy_report nfy_report;     /* files and findings of a run */

/* ---- Diagnostics ------------------------------------------------------- */

typedef enum { NFY_SEV_NOTE, NFY_SEV_WARNING, NFY_SEV_ERROR } nfy_severity;

/** "note", "warning", "error". */
NFY_API const char *nfy_severity_name(nfy_severity sev);

/** One diagnostic, read from an nfy_diags; strings owned by it. */
typedef struct {
    nfy_severity severity;
    const char *code;    /* "lex-unterminated", "convert-write", a rule */
    const char *file;    /* NULL for messages about no file */
    uint32_t line;       /* 1-based; 0 when unknown */
    uint32_t col;        /* 0-based code points */
    const char *message; /* the reason, errno text included */
} nfy_diag_info;

NFY_NODISCARD NFY_API nfy_diags *nfy_diags_new(void);
NFY_API void nfy_diags_free(nfy_diags *d);
/** How many diagnostics of at least min_sev were recorded. */
NFY_API size_t nfy_diags_count(const nfy_diags *d, nfy_severity min_sev);
/** The i-th diagnostic (all severities, in order); false past the end. */
NFY_API bool nfy_diags_get(const nfy_diags *d, size_t i, nfy_diag_info *out);

/* ---- Bytes ------------------------------------------------------------- */

NFY_NODISCARD NFY_API nfy_buf *nfy_buf_new(void);
NFY_API void nfy_buf_free(nfy_buf *b);
/** The bytes held (not NUL-terminated when *len is 0: then ""). */
NFY_API const char *nfy_buf_bytes(const nfy_buf *b, size_t *len);

/* ---- Rules ------------------------------------------------------------- */

/** A rule of the catalogue; strings owned by the set. */
typedef struct {
    const char *id;      /* stable id, "NPU101" */
    const char *safety;  /* "safe", "unsafe", "manual" */
    const char *message; /* one line, shown with every finding */
    const char *hint;    /* how to fix by hand, or NULL */
    bool preview;        /* listed, never fires yet */
} nfy_rule_info;

/**
 * A set holding the built-in catalogue. Fails only if the embedded catalogue
 * is invalid (a build bug, reported in diags); returns NULL then.
 */
NFY_NODISCARD NFY_API nfy_rule_set *nfy_rule_set_new(nfy_diags *diags);
NFY_API void nfy_rule_set_free(nfy_rule_set *set);
/**
 * Add the rules of a JSON rule file (data/rules/README.md). On any error
 * no rule of the file is added, diags says where (file:line:col) and
 * NFY_ERULE, NFY_ESYNTAX, NFY_ENOENT or NFY_EIO is returned.
 */
NFY_NODISCARD NFY_API nfy_status nfy_rules_load_file(nfy_rule_set *set,
                                                     const char *path,
                                                     nfy_diags *diags);
NFY_API size_t nfy_rule_set_count(const nfy_rule_set *set);
/** The i-th rule (built-ins first, by id); false past the end. */
NFY_API bool nfy_rule_set_get(const nfy_rule_set *set, size_t i,
                              nfy_rule_info *out);

/* ---- Report ------------------------------------------------------------ */

/* Which report file a finding belongs to (besides report.json/md/sarif). */
typedef enum {
    NFY_CAT_CHANGE,             /* an applied edit -> change_list.csv */
    NFY_CAT_UNSUPPORTED_API,    /* -> unsupported_api.csv */
    NFY_CAT_UNKNOWN_API,        /* -> unknown_api.csv */
    NFY_CAT_CUDA_OP,            /* -> cuda_op_list.csv */
    NFY_CAT_PRECISION_ADVICE,   /* -> api_precision_advice.csv */
    NFY_CAT_PERFORMANCE_ADVICE, /* -> api_performance_advice.csv */
    NFY_CAT_AFFINITY_API,       /* -> affinity_api_call.csv */
    NFY_CAT_LEFT_UNCHANGED,     /* -> report.json "left_unchanged" */
    NFY_CAT_COUNT
} nfy_finding_cat;

/** "change", "unsupported_api", ..., "left_unchanged". */
NFY_API const char *nfy_finding_cat_name(nfy_finding_cat c);

/** One finding or edit, read from a report; strings owned by it. */
typedef struct {
    const char *file; /* relative to SRC, '/'-separated; NULL: the project */
    uint32_t start_line, start_col; /* 1-based line, 0-based code points */
    uint32_t end_line, end_col;     /* exclusive end */
    const char *rule;               /* "NPU201" */
    nfy_finding_cat cat;
    bool manual;         /* needs a human (counted in totals.manual) */
    const char *api;     /* the API or operator, or NULL */
    const char *message; /* for LEFT_UNCHANGED: the reason */
    const char *before;  /* the source text of the span, or NULL */
    const char *after;   /* an edit's replacement text, or NULL */
    const char *edit_id; /* an edit's stable id (review), or NULL */
} nfy_finding_info;

typedef struct {
    size_t files_total;   /* every file recorded */
    size_t files_scanned; /* converted + unchanged + error */
    size_t files_changed; /* converted */
    size_t files_copied;
    size_t files_skipped;
    size_t files_error;
    size_t edits;  /* NFY_CAT_CHANGE findings */
    size_t manual; /* findings needing manual work: op UNSUPPORTED,
                      safety manual, category unsupported API, or advice
                      whose rule is a warning or an error */
    size_t by_cat[NFY_CAT_COUNT];
} nfy_report_totals;

/*
 * Report files: the one table of report formats, a row per --format name
 * (id, name, and Y when `npuify ops` writes it too, N when not); rows only
 * grow at the end. nfy_report_write takes a mask of NFY_REPORT_<id>:
 *   CSV    the seven CSV files          LOG    npuify.log
 *   JSON   report.json                  MD     summary.md
 *   SARIF  report.sarif                 HTML   report.html
 */
#define NFY_REPORT_FORMAT_MAP(X)                                               \
    X(CSV, "csv", Y)                                                           \
    X(LOG, "log", N)                                                           \
    X(JSON, "json", Y)                                                         \
    X(MD, "md", Y)                                                             \
    X(SARIF, "sarif", Y)                                                       \
    X(HTML, "html", Y)

/* The rows' positions; NFY_REPORT_FORMAT_COUNT is the number of rows. */
enum nfy_report_format_index {
#define NFY_REPORT_FORMAT_INDEX(id, name, ops) NFY_REPORT_INDEX_##id,
    NFY_REPORT_FORMAT_MAP(NFY_REPORT_FORMAT_INDEX)
#undef NFY_REPORT_FORMAT_INDEX
        NFY_REPORT_FORMAT_COUNT
};

enum nfy_report_formats {
#define NFY_REPORT_FORMAT_BIT(id, name, ops)                                   \
    NFY_REPORT_##id = 1u << NFY_REPORT_INDEX_##id,
    NFY_REPORT_FORMAT_MAP(NFY_REPORT_FORMAT_BIT)
#undef NFY_REPORT_FORMAT_BIT
        NFY_REPORT_ALL = (1u << NFY_REPORT_FORMAT_COUNT) - 1
};

NFY_NODISCARD NFY_API nfy_report *nfy_report_new(void);
NFY_API void nfy_report_free(nfy_report *rep);
NFY_API void nfy_report_totals_get(const nfy_report *rep, nfy_report_totals *t);
/** Findings and edits in the order they were found (walk order). */
NFY_API size_t nfy_report_finding_count(const nfy_report *rep);
/** The i-th of them; false past the end. */
NFY_API bool nfy_report_finding_get(const nfy_report *rep, size_t i,
                                    nfy_finding_info *out);
/**
 * Create dir (mkdir -p) and write the selected report files into it, each
 * atomically. A failure is recorded in diags (with the file name) and the
 * other files are still written; the first error status is returned.
 */
NFY_NODISCARD NFY_API nfy_status nfy_report_write(const nfy_report *rep,
                                                  const char *dir,
                                                  unsigned formats,
                                                  nfy_diags *diags);
/**
 * nfy_report_write with the files rendered on up to `jobs` threads (the
 * calling one included; 0 or 1: all in the calling thread). The files and
 * the diagnostics are the same for any jobs; rep must not change meanwhile.
 */
NFY_NODISCARD NFY_API nfy_status nfy_report_write_jobs(const nfy_report *rep,
                                                       const char *dir,
                                                       unsigned formats,
                                                       unsigned jobs,
                                                       nfy_diags *diags);

/* ---- Convert ----------------------------------------------------------- */

typedef enum {
    NFY_CONVERT_WRITE,   /* the converted tree into dst (new or empty) */
    NFY_CONVERT_DIFF,    /* nothing written: a unified diff into diff_out */
    NFY_CONVERT_CHECK,   /* nothing written: count what would change */
    NFY_CONVERT_IN_PLACE /* rewrite src's files, FILE.orig kept if backup */
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
    bool amp_bf16;               /* --amp=bf16: autocast bfloat16, no scaler */
    bool distributed;            /* --distributed: single card -> DDP */
    bool training;               /* report "training" without amp/distrib. */
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
 * Convert opts->src. rep receives every file and finding (paths relative
 * to src); diff_out (DIFF only, may be NULL otherwise) the unified diff;
 * diags the problems with input files (each file:line:col, the rest of the
 * tree is still processed). Returns NFY_EUSAGE for a bad src/dst pair,
 * NFY_EIO when some output could not be written, NFY_OK otherwise (even
 * when input files had errors: see stats). Output is written atomically,
 * never through a symbolic link, never outside dst (DESIGN.md section 6).
 */
NFY_NODISCARD NFY_API nfy_status nfy_convert_run(const nfy_convert_opts *opts,
                                                 nfy_report *rep,
                                                 nfy_buf *diff_out,
                                                 nfy_convert_stats *stats,
                                                 nfy_diags *diags);

/**
 * Convert one file held in memory (an editor's buffer) as convert would
 * convert it in a tree: rel (the path relative to the project, '/'
 * separated) decides the file kind and names the file in rep and diags;
 * opts->src, dst, action, jobs and skip_rel are not used. rep receives
 * the file's findings and edits (with their edit ids), out (may be NULL)
 * the converted bytes (the input itself for a file kind not migrated).
 * Returns NFY_EUSAGE for missing arguments, NFY_ELIMIT for a buffer over
 * the script size limit, NFY_OK otherwise (syntax errors are diagnostics).
 */
NFY_NODISCARD NFY_API nfy_status nfy_convert_buffer(
    const nfy_convert_opts *opts, const char *rel, const char *bytes,
    size_t len, nfy_report *rep, nfy_buf *out, nfy_diags *diags);

#ifdef __cplusplus
}
#endif

#endif
