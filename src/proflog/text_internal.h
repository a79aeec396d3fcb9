/*
 * Internals of the profiler text reader, shared by its files:
 * text_cells.c (cell grammars), text_columns.c (header titles -> column
 * kinds, row matching), text_stream.c (per-rank table state machine,
 * row buffering and steps), text_reader.c (bytes -> normalised lines).
 */
#ifndef NPUIFY_PROFLOG_TEXT_INTERNAL_H
#define NPUIFY_PROFLOG_TEXT_INTERNAL_H

#include "proflog/proflog.h"

/* Extra cell grammars (the public ones are in proflog.h). */
bool nfy_prof__parse_int(nfy_str c, int64_t *out);
bool nfy_prof__parse_flops(nfy_str c, double *out);
/** Shape cell grammar; *cut set when its brackets do not balance. */
bool nfy_prof__is_shapes(nfy_str c, bool *cut);

/* What a column holds. */
typedef enum {
    NFY_COL_NAME,
    NFY_COL_OVERLOAD,
    NFY_COL_PCT,
    NFY_COL_TIME,
    NFY_COL_MEM,
    NFY_COL_CALLS,
    NFY_COL_INT,
    NFY_COL_SHAPES,
    NFY_COL_SRCLOC,
    NFY_COL_FLOPS,
    NFY_COL_ANY
} nfy_col_kind;

/* Which row field a column fills. */
typedef enum {
    NFY_FLD_NONE,
    NFY_FLD_SELF_PCT,
    NFY_FLD_SELF_TIME,
    NFY_FLD_TOTAL_TIME,
    NFY_FLD_MEM,
    NFY_FLD_SELF_MEM
} nfy_col_field;

typedef struct {
    nfy_col_kind kind;
    nfy_col_field field;
    nfy_prof_dev dev;
    double scale;   /* FLOPs unit (1e3 for KFLOPs) */
    uint32_t width; /* dash count of its SEP group (code points) */
} nfy_col;

#define NFY_PROF_MAX_COLS 32

typedef struct {
    nfy_col cols[NFY_PROF_MAX_COLS];
    size_t ncols;
    size_t noptional; /* columns a row may leave empty (shapes, stack, ?) */
    char accel[16];   /* device name from "Self XXX" titles */
    size_t accel_len;
    uint32_t srcloc_start; /* code-point column of Source Location, or 0 */
    bool has_shapes;
    bool has_srcloc;
    bool old_layout; /* <= 1.6 titles ("Self CPU total %") */
} nfy_prof_layout;

/** Split text on runs of >= 2 blanks; at most max pieces (the last piece
 *  keeps the rest). Returns the count. Leading/trailing blanks dropped. */
size_t nfy_prof__split2(nfy_str text, nfy_str *out, size_t max);

/** SEP line (^-+(  -+)*\s*$): fills widths, returns the count, 0 if not. */
size_t nfy_prof__sep_widths(nfy_str line, uint32_t *widths, size_t max);

/** Build a layout from HEADER titles and SEP widths. False: not a header. */
bool nfy_prof__layout_from_header(nfy_str header, const uint32_t *widths,
                                  size_t nwidths, nfy_prof_layout *lay);

/* Outcome of matching one line against a layout. */
typedef enum {
    NFY_ROW_OK,
    NFY_ROW_NO,    /* not a row at all */
    NFY_ROW_NONAME /* all value cells matched, but nothing left for Name */
} nfy_row_match;

/**
 * Match a (normalised) line against lay; on OK fill row's name, overload,
 * shapes, source_loc and numbers (other fields untouched). When the value
 * cells match but fewer than all, *matched_from_right says how many
 * value columns (from the right) did match, for split-row repair.
 */
nfy_row_match nfy_prof__match_row(const nfy_prof_layout *lay, nfy_str line,
                                  nfy_prof_row *row, size_t *matched_right);

/**
 * Repair a row split by interleaved output: head holds Name and the first
 * value cells followed by foreign text, tail the remaining value cells.
 * missing = number of value columns the tail lacks. OK fills row.
 */
bool nfy_prof__join_split_row(const nfy_prof_layout *lay, nfy_str head,
                              nfy_str tail, size_t missing, nfy_prof_row *row);

/** Reset row to "all absent". */
void nfy_prof__row_clear(nfy_prof_row *row);

/* ---- Per-rank table streams (text_stream.c) ---- */

/* What a stream needs from its reader. */
typedef struct {
    const nfy_proflog_opts *opts;
    nfy_proflog_stats *stats;
    bool stopped; /* the sink asked to stop */
} nfy_prof_ctx;

typedef struct nfy_prof_stream nfy_prof_stream;

nfy_prof_stream *nfy_prof__stream_new(int32_t rank);
int32_t nfy_prof__stream_rank(const nfy_prof_stream *s);
/** One normalised line (no line end, prefix removed) of this rank. */
void nfy_prof__stream_line(nfy_prof_stream *s, nfy_prof_ctx *ctx, nfy_str line,
                           uint32_t lineno, uint64_t offset);
/** End of input: an open table is closed (and flagged as cut). */
void nfy_prof__stream_finish(nfy_prof_stream *s, nfy_prof_ctx *ctx);
void nfy_prof__stream_free(nfy_prof_stream *s);

#endif
