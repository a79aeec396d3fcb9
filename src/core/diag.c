/*
 * Diagnostics are data: the library records them, the CLI renders them as
 * "file:line:col: severity[code]: message" with the source line and a caret
 * underline (like jq's locfile_locate), or as JSON. Each diagnostic keeps a
 * copy of its source line so it can be rendered after the source is gone.
 */
#include <stdio.h>
#include <string.h>

#include "core/core.h"

/* Bytes of a source line kept on each side of the column: a diagnostic on
 * a line of megabytes shows a window, not the line. */
enum { LINE_CONTEXT = 80 };

static bool utf8_continuation(char ch)
{
    return ((unsigned char)ch & 0xC0) == 0x80;
}

static uint32_t count_code_points(const char *p, size_t n)
{
    uint32_t cols = 0;
    for (size_t i = 0; i < n; i++)
        cols += !utf8_continuation(p[i]);
    return cols;
}

/* Keep the window of line around byte pos (on UTF-8 boundaries). */
static void keep_line(nfy_diags *d, nfy_diag *dg, nfy_str line, size_t pos)
{
    if (pos > line.len)
        pos = line.len;
    size_t from = pos > LINE_CONTEXT ? pos - LINE_CONTEXT : 0;
    size_t to = line.len - pos > LINE_CONTEXT ? pos + LINE_CONTEXT : line.len;
    while (from > 0 && utf8_continuation(line.ptr[from]))
        from--;
    while (to < line.len && utf8_continuation(line.ptr[to]))
        to++;
    if (from == 0 && to == line.len) {
        dg->line_text = nfy_arena_str(&d->arena, line);
        dg->text_col = dg->col;
        return;
    }
    nfy_buf b = NFY_BUF_INIT;
    if (from)
        nfy_buf_addstr(&b, "...");
    nfy_buf_add(&b, line.ptr + from, to - from);
    if (to < line.len)
        nfy_buf_addstr(&b, "...");
    dg->line_text = nfy_arena_str(&d->arena, (nfy_str){b.data, b.len});
    dg->text_col =
        (from ? 3 : 0) + count_code_points(line.ptr + from, pos - from);
    uint32_t room = count_code_points(line.ptr + pos, to - pos);
    if (dg->width > room)
        dg->width = room ? room : 1;
    nfy_buf_release(&b);
}

void nfy_diags_init(nfy_diags *d)
{
    memset(d, 0, sizeof *d);
    nfy_arena_init(&d->arena);
}

void nfy_diags_release(nfy_diags *d)
{
    nfy_vec_free(&d->items);
    nfy_arena_release(&d->arena);
    d->dropped = 0;
}

const char *nfy_severity_name(nfy_severity sev)
{
    switch (sev) {
    case NFY_SEV_NOTE:
        return "note";
    case NFY_SEV_WARNING:
        return "warning";
    case NFY_SEV_ERROR:
        return "error";
    }
    return "error";
}

size_t nfy_diags_count(const nfy_diags *d, nfy_severity min_sev)
{
    size_t n = 0;
    for (size_t i = 0; i < d->items.len; i++)
        n += d->items.items[i].sev >= min_sev;
    return n;
}

/* Reserve the next slot, or NULL when the cap is reached. */
static nfy_diag *next_slot(nfy_diags *d)
{
    if (d->max && d->items.len >= d->max) {
        d->dropped++;
        return NULL;
    }
    nfy_vec_reserve(&d->items, 1);
    nfy_diag *dg = &d->items.items[d->items.len++];
    memset(dg, 0, sizeof *dg);
    dg->width = 1;
    return dg;
}

/* The next slot with its severity and code, or NULL (cap reached). */
static nfy_diag *new_diag(nfy_diags *d, nfy_severity sev, const char *code)
{
    nfy_diag *dg = next_slot(d);
    if (dg) {
        dg->sev = sev;
        dg->code = nfy_arena_strndup(&d->arena, code, strlen(code));
    }
    return dg;
}

void nfy_diag_add(nfy_diags *d, nfy_severity sev, const char *code,
                  const nfy_source *src, uint32_t offset, uint32_t len,
                  const char *fmt, ...)
{
    nfy_diag *dg = new_diag(d, sev, code);
    if (!dg)
        return;
    dg->offset = offset;
    if (src) {
        dg->file = nfy_arena_strndup(&d->arena, src->path, strlen(src->path));
        nfy_source_linecol(src, offset, &dg->line, &dg->col);
        uint32_t end = offset + len;
        if (end > src->len)
            end = (uint32_t)src->len;
        uint32_t eline, ecol;
        nfy_source_linecol(src, end, &eline, &ecol);
        if (eline == dg->line && ecol > dg->col)
            dg->width = ecol - dg->col;
        nfy_str line = nfy_source_line(src, dg->line);
        bool inside = line.ptr >= src->data && line.ptr <= src->data + src->len;
        size_t start = inside ? (size_t)(line.ptr - src->data) : offset;
        keep_line(d, dg, line, offset > start ? offset - start : 0);
    }
    va_list ap;
    va_start(ap, fmt);
    dg->msg = nfy_arena_vfmt(&d->arena, fmt, ap);
    va_end(ap);
}

void nfy_diag_add_at(nfy_diags *d, nfy_severity sev, const char *code,
                     const char *file, uint32_t line, uint32_t col,
                     const char *fmt, ...)
{
    nfy_diag *dg = new_diag(d, sev, code);
    if (!dg)
        return;
    if (file)
        dg->file = nfy_arena_strndup(&d->arena, file, strlen(file));
    dg->line = line;
    dg->col = col;
    va_list ap;
    va_start(ap, fmt);
    dg->msg = nfy_arena_vfmt(&d->arena, fmt, ap);
    va_end(ap);
}

void nfy_diags_append(nfy_diags *dst, const nfy_diags *src, size_t from,
                      size_t to)
{
    for (size_t i = from; i < to; i++) {
        nfy_diag *dg = next_slot(dst);
        if (!dg)
            continue;
        *dg = src->items.items[i];
        dg->code = nfy_arena_strdup(&dst->arena, dg->code);
        dg->file = nfy_arena_strdup(&dst->arena, dg->file);
        dg->msg = nfy_arena_strdup(&dst->arena, dg->msg);
        /* A NULL line means "no source line" to the renderer: keep it. */
        if (dg->line_text.ptr)
            dg->line_text = nfy_arena_str(&dst->arena, dg->line_text);
    }
}

static const char *sev_color(nfy_severity sev)
{
    switch (sev) {
    case NFY_SEV_NOTE:
        return "\033[1;36m";
    case NFY_SEV_WARNING:
        return "\033[1;35m";
    case NFY_SEV_ERROR:
        return "\033[1;31m";
    }
    return "";
}

/* The caret line: tabs are kept so the caret lines up under the source. */
static void render_caret(const nfy_diag *dg, nfy_buf *out)
{
    nfy_buf_addch(out, ' ');
    const char *p = dg->line_text.ptr;
    size_t n = dg->line_text.len, i = 0;
    for (uint32_t c = 0; c < dg->text_col && i < n; c++) {
        uint32_t cp;
        size_t k = nfy_utf8_decode(p + i, n - i, &cp);
        nfy_buf_addch(out, p[i] == '\t' ? '\t' : ' ');
        i += k ? k : 1;
    }
    nfy_buf_addch(out, '^');
    for (uint32_t w = 1; w < dg->width; w++)
        nfy_buf_addch(out, '~');
    nfy_buf_addch(out, '\n');
}

void nfy_diag_render_text(const nfy_diag *dg, bool color, nfy_buf *out)
{
    if (dg->file) {
        nfy_buf_addstr(out, dg->file);
        if (dg->line)
            nfy_buf_addf(out, ":%u:%u", dg->line, dg->col + 1);
        nfy_buf_addstr(out, ": ");
    }
    if (color)
        nfy_buf_addstr(out, sev_color(dg->sev));
    nfy_buf_addf(out, "%s", nfy_severity_name(dg->sev));
    if (color)
        nfy_buf_addstr(out, "\033[0m");
    nfy_buf_addf(out, "[%s]: %s\n", dg->code, dg->msg);
    if (dg->line_text.ptr && dg->line) {
        nfy_buf_addch(out, ' ');
        nfy_buf_addview(out, dg->line_text);
        nfy_buf_addch(out, '\n');
        render_caret(dg, out);
    }
}

void nfy_diag_render_json(const nfy_diag *dg, nfy_buf *out)
{
    nfy_buf_addstr(out, "{\"file\": ");
    if (dg->file)
        nfy_json_escape(out, dg->file, strlen(dg->file));
    else
        nfy_buf_addstr(out, "null");
    nfy_buf_addf(out,
                 ", \"line\": %u, \"col\": %u, \"severity\": \"%s\", "
                 "\"code\": ",
                 dg->line, dg->col + (dg->line ? 1 : 0),
                 nfy_severity_name(dg->sev));
    nfy_json_escape(out, dg->code, strlen(dg->code));
    nfy_buf_addstr(out, ", \"message\": ");
    nfy_json_escape(out, dg->msg, strlen(dg->msg));
    nfy_buf_addch(out, '}');
}
