/*
 * A small RFC 4180 CSV reader for the NPU profiler's tables: quoted cells
 * with "" escapes and embedded newlines, CRLF or LF, a UTF-8 BOM. Cells are
 * cut at max_field bytes and records at max_cells cells (a warning each,
 * once per file), so a hostile file costs bounded memory per record.
 */
#include <errno.h>

#include "npuprof/npuprof.h"

typedef struct {
    const nfy_npu_csv_opts *o;
    nfy_buf text;           /* the record's cells, back to back */
    NFY_VEC(size_t) starts; /* cell i: text[starts[i] .. ends[i]) */
    NFY_VEC(size_t) ends;
    size_t max_field, max_cells;
    uint32_t line, col; /* position of the next byte */
    uint32_t rec_line;  /* line where the record began */
    uint32_t quote_line, quote_col;
    size_t cell_len; /* bytes in the current cell */
    bool quoted, after_quote, pending_quote, cut_warned, many_warned;
    bool stopped, any_byte;
} csv_state;

static void csv_warn(csv_state *s, const char *code, const char *msg)
{
    nfy_diag_add_at(s->o->diags, NFY_SEV_WARNING, code, s->o->path, s->line,
                    s->col, "%s", msg);
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static void cell_begin(csv_state *s)
{
    s->cell_len = 0;
    s->quoted = s->after_quote = s->pending_quote = false;
    if (s->starts.len < s->max_cells)
        nfy_vec_push(&s->starts, s->text.len);
}

static void cell_add(csv_state *s, char c)
{
    if (s->starts.len > s->max_cells || s->starts.len == s->ends.len)
        return; /* a cell past max_cells: dropped */
    if (s->cell_len++ >= s->max_field) {
        if (!s->cut_warned)
            csv_warn(s, "npu-csv-long-cell", "cell longer than the limit; cut");
        s->cut_warned = true;
        return;
    }
    (void)nfy_buf_addch(&s->text, c);
}

static void cell_end(csv_state *s)
{
    if (s->ends.len < s->starts.len)
        nfy_vec_push(&s->ends, s->text.len);
    else if (!s->many_warned) {
        csv_warn(s, "npu-csv-many-cells",
                 "record has too many cells; the "
                 "rest are ignored");
        s->many_warned = true;
    }
}

static void record_end(csv_state *s)
{
    cell_end(s);
    nfy_str cells[64];
    nfy_str *v = s->ends.len <= 64 ? cells : malloc(s->ends.len * sizeof *v);
    if (!v)
        abort();
    const char *base = s->text.data ? s->text.data : "";
    for (size_t i = 0; i < s->ends.len; i++) {
        nfy_str c = {base + s->starts.items[i],
                     s->ends.items[i] - s->starts.items[i]};
        while (c.len && is_blank(c.ptr[0]))
            c.ptr++, c.len--;
        while (c.len && is_blank(c.ptr[c.len - 1]))
            c.len--;
        v[i] = c;
    }
    bool blank = s->ends.len == 1 && v[0].len == 0;
    if (!blank && s->o->row(s->o->ctx, v, s->ends.len, s->rec_line))
        s->stopped = true;
    if (v != cells)
        free(v);
    nfy_buf_reset(&s->text);
    s->starts.len = s->ends.len = 0;
    s->rec_line = s->line + 1; /* called at the '\n' ending this line */
    cell_begin(s);
}

/* One byte of a quoted cell. */
static void quoted_byte(csv_state *s, char c)
{
    if (s->pending_quote) { /* the byte after a quote inside quotes */
        s->pending_quote = false;
        if (c == '"') {
            cell_add(s, '"');
            return;
        }
        s->quoted = false;
        s->after_quote = true;
        return; /* caller handles c as an unquoted byte */
    }
    if (c == '"')
        s->pending_quote = true;
    else
        cell_add(s, c);
}

static void plain_byte(csv_state *s, char c)
{
    if (c == ',') {
        cell_end(s);
        cell_begin(s);
    } else if (c == '\n') {
        record_end(s);
    } else if (c == '"' && s->cell_len == 0 && !s->after_quote) {
        s->quoted = true;
        s->quote_line = s->line;
        s->quote_col = s->col;
    } else {
        if (s->after_quote && !is_blank(c)) {
            csv_warn(s, "npu-csv-quote", "text after a closing quote; kept");
            s->after_quote = false;
        }
        cell_add(s, c);
    }
}

static void feed_byte(csv_state *s, char c)
{
    if (s->quoted) {
        quoted_byte(s, c);
        if (s->quoted)
            goto advance;
    }
    plain_byte(s, c);
advance:
    if (c == '\n') {
        s->line++;
        s->col = 0;
    } else if (((unsigned char)c & 0xC0) != 0x80) {
        s->col++; /* columns count code points */
    }
}

static nfy_status csv_run(csv_state *s, const char *data, size_t len)
{
    size_t i = 0;
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
        i = 3;
    for (; i < len && !s->stopped; i++)
        feed_byte(s, data[i]);
    return NFY_OK;
}

static void csv_init(csv_state *s, const nfy_npu_csv_opts *o)
{
    memset(s, 0, sizeof *s);
    s->o = o;
    s->max_field = o->max_field ? o->max_field : (size_t)64 << 10;
    s->max_cells = o->max_cells ? o->max_cells : 512;
    s->line = s->rec_line = 1;
    cell_begin(s);
}

static nfy_status csv_finish(csv_state *s)
{
    nfy_status st = NFY_OK;
    if (s->quoted && !s->pending_quote && !s->stopped) {
        nfy_diag_add_at(s->o->diags, NFY_SEV_ERROR, "npu-csv-quote", s->o->path,
                        s->quote_line, s->quote_col,
                        "quoted cell never closed (file cut?); the record "
                        "from line %u is dropped",
                        (unsigned)s->rec_line);
        st = NFY_ESYNTAX;
    } else if (!s->stopped && (s->text.len || s->starts.len > 1)) {
        record_end(s); /* last record without a newline */
    }
    nfy_buf_release(&s->text);
    nfy_vec_free(&s->starts);
    nfy_vec_free(&s->ends);
    return st;
}

nfy_status nfy_npuprof_csv_read_mem(const char *data, size_t len,
                                    const nfy_npu_csv_opts *o)
{
    csv_state s;
    csv_init(&s, o);
    (void)csv_run(&s, data, len);
    return csv_finish(&s);
}

nfy_status nfy_npuprof_csv_read_file(const char *path,
                                     const nfy_npu_csv_opts *o)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        int err = errno;
        nfy_diag_add_at(o->diags, NFY_SEV_ERROR, "npu-io", path, 0, 0,
                        "cannot open: %s", strerror(err));
        return nfy_status_from_errno(err);
    }
    csv_state s;
    csv_init(&s, o);
    char buf[1 << 16];
    size_t n;
    bool first = true;
    while (!s.stopped && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        size_t skip =
            first && n >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3) ? 3 : 0;
        for (size_t i = skip; i < n && !s.stopped; i++)
            feed_byte(&s, buf[i]);
        first = false;
    }
    bool err = ferror(f);
    fclose(f);
    if (err)
        nfy_diag_add_at(o->diags, NFY_SEV_ERROR, "npu-io", path, 0, 0,
                        "read error");
    nfy_status st = csv_finish(&s);
    return err ? NFY_EIO : st;
}
