/*
 * One rank's profiler tables: the SEP / HEADER / SEP / ROW* / SEP state
 * machine of profiler_formats.md section 2, fed one normalised line at a
 * time. Rows of a table are buffered (arena copies) until it closes, because
 * only the whole table tells whether it lists raw events (each ProfilerStep*
 * row then opens a step) or aggregates (the table is one step, as Huawei's
 * extract_ops_by_step counts). A table larger than ROW_BUFFER_MAX is
 * decided early and streamed, so memory stays bounded.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "proflog/text_internal.h"

#define ROW_BUFFER_MAX ((size_t)16 << 20)
#define MAX_JUNK_LINES 64
#define PENDING_MAX    4096

/* S_HDR_NOSEP: a header line seen without the SEP above it (excerpts that
 * begin at the header); the SEP below it then opens the table. */
typedef enum {
    S_IDLE,
    S_SEP1,
    S_HEADER,
    S_HDR_NOSEP,
    S_TABLE,
    S_CLOSING
} stream_state;

typedef NFY_VEC(nfy_prof_row) row_vec;

struct nfy_prof_stream {
    int32_t rank;
    stream_state state;
    bool comment; /* lines of this table carry a "# " prefix */
    uint32_t widths[NFY_PROF_MAX_COLS];
    size_t nwidths;
    nfy_prof_layout lay;
    int32_t table_no;
    int32_t next_step; /* next step number to hand out */
    uint32_t junk;     /* consecutive non-row lines inside the table */
    row_vec rows;      /* buffered rows of the open table */
    nfy_arena arena;   /* their strings */
    size_t buffered;   /* bytes copied into arena */
    bool decided;      /* streaming after an early decision */
    bool raw;          /* decided: raw-event table */
    int32_t cur_step;  /* decided: step of the next streamed row */
    bool saw_marker;
    char header[PENDING_MAX]; /* S_HDR_NOSEP: the header line */
    size_t header_len;
    char pending[PENDING_MAX]; /* last unparsed line (split-row head) */
    size_t pending_len;
    uint32_t pending_line;
};

nfy_prof_stream *nfy_prof__stream_new(int32_t rank)
{
    nfy_prof_stream *s = calloc(1, sizeof *s);
    if (!s) {
        fputs("npuify: out of memory\n", stderr);
        abort();
    }
    s->rank = rank;
    s->next_step = 1;
    nfy_arena_init(&s->arena);
    return s;
}

int32_t nfy_prof__stream_rank(const nfy_prof_stream *s)
{
    return s->rank;
}

void nfy_prof__stream_free(nfy_prof_stream *s)
{
    if (!s)
        return;
    nfy_vec_free(&s->rows);
    nfy_arena_release(&s->arena);
    free(s);
}

static bool is_step_marker(nfy_str name)
{
    return nfy_str_starts_with(name, NFY_STR_LIT("ProfilerStep"));
}

static void emit(nfy_prof_stream *s, nfy_prof_ctx *ctx, nfy_prof_row *row)
{
    if (ctx->stopped)
        return;
    row->rank = s->rank;
    ctx->stats->rows++;
    if (ctx->opts->sink && ctx->opts->sink(ctx->opts->ctx, row))
        ctx->stopped = true;
}

static uint64_t row_key(const nfy_prof_row *r)
{
    uint64_t h = nfy_str_hash(r->name);
    return h * 1099511628211ULL ^ nfy_str_hash(r->shapes) ^
           (nfy_str_hash(r->overload) << 1);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Raw events: every row is one call and some (name, shapes) repeats, or
 * several ProfilerStep* rows; aggregated tables have unique keys. */
static bool looks_raw(const row_vec *rows)
{
    size_t markers = 0;
    for (size_t i = 0; i < rows->len; i++) {
        if (rows->items[i].calls > 1)
            return false;
        markers += is_step_marker(rows->items[i].name);
    }
    if (markers >= 2)
        return true;
    if (rows->len < 2)
        return false;
    uint64_t *keys = malloc(rows->len * sizeof *keys);
    if (!keys)
        abort();
    for (size_t i = 0; i < rows->len; i++)
        keys[i] = row_key(&rows->items[i]);
    qsort(keys, rows->len, sizeof *keys, cmp_u64);
    bool dup = false;
    for (size_t i = 1; i < rows->len && !dup; i++)
        dup = keys[i] == keys[i - 1];
    free(keys);
    return dup;
}

static bool any_marker(const row_vec *rows)
{
    for (size_t i = 0; i < rows->len; i++)
        if (is_step_marker(rows->items[i].name))
            return true;
    return false;
}

/* Fix the table's mode from the rows buffered so far. A raw table with
 * ProfilerStep* rows starts outside any step; any other table is one step. */
static void decide(nfy_prof_stream *s)
{
    s->decided = true;
    s->saw_marker = false;
    s->raw = looks_raw(&s->rows);
    if (s->raw && any_marker(&s->rows))
        s->cur_step = NFY_PROF_STEP_NONE;
    else
        s->cur_step = s->next_step++;
}

static void emit_decided(nfy_prof_stream *s, nfy_prof_ctx *ctx,
                         nfy_prof_row *row)
{
    bool marker = is_step_marker(row->name);
    if (s->raw && marker && row->calls <= 1 &&
        (s->cur_step == NFY_PROF_STEP_NONE || s->saw_marker)) {
        s->cur_step = s->next_step++;
        s->saw_marker = true;
    }
    row->step = s->cur_step;
    if (s->raw)
        row->flags |= NFY_PROW_RAW_EVENT;
    if (marker)
        row->flags |= NFY_PROW_STEP_MARKER;
    emit(s, ctx, row);
}

static void flush_rows(nfy_prof_stream *s, nfy_prof_ctx *ctx, bool cut)
{
    if (!s->decided)
        decide(s);
    for (size_t i = 0; i < s->rows.len; i++) {
        nfy_prof_row *r = &s->rows.items[i];
        if (cut)
            r->flags |= NFY_PROW_TABLE_CUT;
        emit_decided(s, ctx, r);
    }
    s->rows.len = 0;
    nfy_arena_release(&s->arena);
    s->buffered = 0;
}

static void close_table(nfy_prof_stream *s, nfy_prof_ctx *ctx, bool cut,
                        uint32_t lineno)
{
    if (cut && ctx->opts->diags)
        nfy_diag_add_at(ctx->opts->diags, NFY_SEV_WARNING, "prof-table-cut",
                        ctx->opts->path, lineno, 0,
                        "profiler table %d ends without its closing dashes "
                        "line (log cut or process killed); its rows are kept",
                        (int)s->table_no);
    flush_rows(s, ctx, cut);
    s->decided = false;
    s->state = S_IDLE;
    s->comment = false;
    s->pending_len = 0;
}

static nfy_str copy_view(nfy_prof_stream *s, nfy_str v)
{
    if (!v.len)
        return (nfy_str){"", 0};
    s->buffered += v.len + 1;
    return nfy_arena_str(&s->arena, v);
}

static void add_row(nfy_prof_stream *s, nfy_prof_ctx *ctx, nfy_prof_row *row,
                    uint32_t lineno, uint64_t offset)
{
    const nfy_prof_layout *lay = &s->lay;
    row->line = lineno;
    row->offset = offset;
    row->table = s->table_no;
    row->accel_name = (nfy_str){lay->accel, lay->accel_len};
    if (lay->has_shapes)
        row->flags |= NFY_PROW_HAS_SHAPES; /* SHAPES_TRUNCATED: take_cell */
    uint32_t w = lay->cols[0].width;
    if (w >= 4 && nfy_str_ends_with(row->name, NFY_STR_LIT("...")) &&
        nfy_utf8_count(row->name.ptr, row->name.len) >= w)
        row->flags |= NFY_PROW_NAME_TRUNCATED;
    if (s->decided) {
        if (!lay->has_srcloc) {
            emit_decided(s, ctx, row);
            return;
        }
        /* with_stack: a row is held until its frames (the continuation
         * lines) are read; the previous one is complete now */
        flush_rows(s, ctx, false);
    }
    row->name = copy_view(s, row->name);
    row->overload = copy_view(s, row->overload);
    row->shapes = copy_view(s, row->shapes);
    row->source_loc = copy_view(s, row->source_loc);
    row->accel_name = copy_view(s, row->accel_name);
    nfy_vec_push(&s->rows, *row);
    s->buffered += sizeof *row;
    if (!s->decided && s->buffered > ROW_BUFFER_MAX)
        flush_rows(s, ctx, false), s->decided = true;
}

/* A Source Location continuation line: until the last row has a frame in
 * the user's code, the first such frame becomes its source_loc. */
static void take_frame(nfy_prof_stream *s, nfy_str frame)
{
    if (!s->rows.len)
        return;
    nfy_prof_row *r = nfy_vec_last(&s->rows);
    if (nfy_prof_frame_is_user(r->source_loc))
        return;
    nfy_str user = nfy_prof_first_user_frame(frame, '\n');
    if (user.len)
        r->source_loc = copy_view(s, user);
}

static void note_skipped(nfy_prof_ctx *ctx, uint32_t lineno, const char *why)
{
    ctx->stats->bad_rows++;
    if (ctx->opts->diags)
        nfy_diag_add_at(ctx->opts->diags, NFY_SEV_NOTE, "prof-skip",
                        ctx->opts->path, lineno, 0, "%s", why);
}

static size_t leading_blanks(nfy_str l)
{
    const uint64_t eight = 0x2020202020202020ULL;
    uint64_t w;
    size_t i = 0;
    while (i + 8 <= l.len && (memcpy(&w, l.ptr + i, 8), w == eight))
        i += 8;
    while (i < l.len && (l.ptr[i] == ' ' || l.ptr[i] == '\t'))
        i++;
    return i;
}

static void table_line(nfy_prof_stream *s, nfy_prof_ctx *ctx, nfy_str line,
                       uint32_t lineno, uint64_t offset)
{
    size_t lb = leading_blanks(line);
    if (lb == line.len) { /* blank: ends a with_stack block */
        if (!s->lay.has_srcloc && ++s->junk > MAX_JUNK_LINES)
            close_table(s, ctx, true, lineno);
        return;
    }
    if (s->lay.has_srcloc && s->lay.srcloc_start > 0 &&
        lb >= s->lay.srcloc_start) {
        take_frame(s, nfy_str_slice(line, lb, line.len));
        return;
    }
    nfy_prof_row row;
    nfy_prof__row_clear(&row);
    size_t matched = 0;
    nfy_row_match m = nfy_prof__match_row(&s->lay, line, &row, &matched);
    if (m == NFY_ROW_OK) {
        s->junk = 0;
        s->pending_len = 0;
        add_row(s, ctx, &row, lineno, offset);
        return;
    }
    size_t nvalues = s->lay.ncols - 1;
    if (m == NFY_ROW_NONAME && s->pending_len && matched < nvalues &&
        nfy_prof__join_split_row(&s->lay, (nfy_str){s->pending, s->pending_len},
                                 line, nvalues - matched, &row)) {
        if (ctx->opts->diags)
            nfy_diag_add_at(ctx->opts->diags, NFY_SEV_WARNING, "prof-split-row",
                            ctx->opts->path, s->pending_line, 0,
                            "table row split by other output (continued on "
                            "line %u); joined, the foreign text is dropped",
                            (unsigned)lineno);
        s->junk = 0;
        s->pending_len = 0; /* the name still points into pending: add_row
                               copies it or emits it before it changes */
        add_row(s, ctx, &row, s->pending_line, offset);
        return;
    }
    if (line.len < PENDING_MAX) {
        memcpy(s->pending, line.ptr, line.len);
        s->pending_len = line.len;
        s->pending_line = lineno;
    }
    note_skipped(ctx, lineno,
                 "line inside a profiler table is not a row of "
                 "it (interleaved output?); skipped");
    if (++s->junk > MAX_JUNK_LINES)
        close_table(s, ctx, true, lineno);
}

/* First non-blank byte (8 blanks at a time), or 0. */
static char first_nonblank(nfy_str l)
{
    size_t i = leading_blanks(l);
    return i < l.len ? l.ptr[i] : '\0';
}

static bool strip_comment(nfy_str *line)
{
    if (nfy_str_starts_with(*line, NFY_STR_LIT("# "))) {
        *line = nfy_str_slice(*line, 2, line->len);
        return true;
    }
    if (line->len == 1 && line->ptr[0] == '#') {
        *line = nfy_str_slice(*line, 1, 1);
        return true;
    }
    return false;
}

/* Cheap pre-check: "Name" as the first word, then two blanks. */
static bool looks_like_header(nfy_str l)
{
    size_t i = 0;
    while (i < l.len && l.ptr[i] == ' ')
        i++;
    return l.len < PENDING_MAX && l.len - i > 6 &&
           !memcmp(l.ptr + i, "Name  ", 6);
}

static void open_table(nfy_prof_stream *s, nfy_prof_ctx *ctx)
{
    s->state = S_TABLE;
    s->table_no++;
    s->junk = 0;
    s->pending_len = 0;
    s->decided = false;
    ctx->stats->tables++;
}

void nfy_prof__stream_line(nfy_prof_stream *s, nfy_prof_ctx *ctx, nfy_str line,
                           uint32_t lineno, uint64_t offset)
{
    bool had_comment = false;
    if (s->state == S_IDLE)
        had_comment = strip_comment(&line);
    else if (s->comment)
        (void)strip_comment(&line);
    uint32_t w[NFY_PROF_MAX_COLS];
    size_t nw = 0;
    if (line.len && first_nonblank(line) == '-')
        nw = nfy_prof__sep_widths(line, w, NFY_PROF_MAX_COLS);
    switch (s->state) {
    case S_CLOSING: {
        nfy_prof_layout lay;
        if (nfy_prof__layout_from_header(line, s->widths, s->nwidths, &lay)) {
            close_table(s, ctx, true, lineno);
            s->lay = lay;
            s->state = S_HEADER;
            return;
        }
        bool comment = s->comment;
        close_table(s, ctx, false, lineno);
        if (comment)
            had_comment = true;
        break; /* reprocess as IDLE below */
    }
    case S_TABLE:
        if (nw) {
            memcpy(s->widths, w, nw * sizeof *w);
            s->nwidths = nw;
            s->state = S_CLOSING;
        } else {
            table_line(s, ctx, line, lineno, offset);
        }
        return;
    case S_HDR_NOSEP:
        s->state = S_IDLE;
        if (nw && nfy_prof__layout_from_header(
                      (nfy_str){s->header, s->header_len}, w, nw, &s->lay)) {
            open_table(s, ctx);
            return;
        }
        break;
    case S_HEADER:
        if (nw) {
            open_table(s, ctx);
            return;
        }
        s->state = S_IDLE;
        break;
    case S_SEP1:
        if (nw) {
            memcpy(s->widths, w, nw * sizeof *w);
            s->nwidths = nw;
            return;
        }
        if (nfy_prof__layout_from_header(line, s->widths, s->nwidths,
                                         &s->lay)) {
            s->state = S_HEADER;
            return;
        }
        s->state = S_IDLE;
        s->comment = false;
        return;
    case S_IDLE:
        break;
    }
    if (s->state != S_IDLE)
        return;
    if (nw) {
        memcpy(s->widths, w, nw * sizeof *w);
        s->nwidths = nw;
        s->state = S_SEP1;
        s->comment = had_comment;
    } else if (looks_like_header(line)) {
        memcpy(s->header, line.ptr, line.len);
        s->header_len = line.len;
        s->state = S_HDR_NOSEP;
        s->comment = had_comment;
    }
}

void nfy_prof__stream_finish(nfy_prof_stream *s, nfy_prof_ctx *ctx)
{
    if (s->state == S_TABLE)
        close_table(s, ctx, true, 0);
    else if (s->state == S_CLOSING)
        close_table(s, ctx, false, 0);
}
