/*
 * Columns of a profiler table: header titles -> column kinds, and matching
 * a data row against them from the RIGHT (profiler_formats.md 2.4). Every
 * value column has a strict grammar, so whatever is left on the left once
 * they all matched is the Name (which may contain single or even double
 * spaces, any UTF-8). Cells are separated by runs of >= 2 blanks: values
 * wider than their column are never cut, and the format puts two spaces
 * between cells, so this holds for overflowing cells and both alignments.
 */
#include <math.h>
#include <string.h>

#include "proflog/text_internal.h"

#define MAX_TOKENS 64

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Index of the first non-blank at or after i (8 blanks at a time: right-
 * aligned tables are mostly padding). */
static size_t skip_blanks(const char *p, size_t i, size_t n)
{
    const uint64_t eight = 0x2020202020202020ULL;
    uint64_t w;
    while (i + 8 <= n && (memcpy(&w, p + i, 8), w == eight))
        i += 8;
    while (i < n && is_blank(p[i]))
        i++;
    return i;
}

/* Index of the first blank at or after i. Eight bytes at a time where
 * the byte order allows: cells are mostly digits, units and brackets. */
static size_t next_blank(const char *p, size_t i, size_t n)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) &&                            \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    while (i + 8 <= n) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        uint64_t sp = w ^ (ones * ' '), tb = w ^ (ones * '\t');
        uint64_t hit =
            ((sp - ones) & ~sp & highs) | ((tb - ones) & ~tb & highs);
        if (hit)
            return i + (size_t)(__builtin_ctzll(hit) >> 3);
        i += 8;
    }
#endif
    while (i < n && !is_blank(p[i]))
        i++;
    return i;
}

size_t nfy_prof__split2(nfy_str t, nfy_str *out, size_t max)
{
    /* One forward pass collecting pieces; when there are more than max,
     * the leftmost ones are merged into one (rows are matched from the
     * right, and the name is what is left over). */
    size_t n = 0, i = skip_blanks(t.ptr, 0, t.len);
    if (max > MAX_TOKENS)
        max = MAX_TOKENS;
    if (!max)
        return 0;
    const char *p = t.ptr;
    while (i < t.len) {
        size_t start = i, end = i;
        for (;;) {
            size_t stop = next_blank(p, end, t.len);
            if (stop >= t.len) {
                end = t.len;
                break;
            }
            size_t next = stop + 1;
            if (next < t.len && is_blank(p[next]))
                next = skip_blanks(p, next, t.len);
            if (next - stop >= 2 || next >= t.len) {
                end = stop;
                i = next;
                break;
            }
            end = next; /* a single blank inside the piece */
        }
        if (end == t.len)
            i = t.len;
        if (n == max && max == 1) { /* grow the only piece */
            out[0].len = end - (size_t)(out[0].ptr - p);
            continue;
        }
        if (n == max) { /* merge the two leftmost pieces */
            out[0].len = (size_t)(out[1].ptr + out[1].len - out[0].ptr);
            memmove(out + 1, out + 2, (max - 2) * sizeof *out);
            n--;
        }
        out[n++] = (nfy_str){p + start, end - start};
    }
    return n;
}

size_t nfy_prof__sep_widths(nfy_str line, uint32_t *widths, size_t max)
{
    size_t i = 0, n = 0;
    while (i < line.len && is_blank(line.ptr[i]))
        i++;
    if (i >= line.len || line.ptr[i] != '-')
        return 0;
    while (i < line.len) {
        size_t start = i;
        while (i < line.len && line.ptr[i] == '-')
            i++;
        if (i == start)
            return 0;
        if (n < max)
            widths[n] = (uint32_t)(i - start);
        n++;
        size_t blanks = 0;
        while (i < line.len && is_blank(line.ptr[i])) {
            i++;
            blanks++;
        }
        if (i < line.len && (blanks < 2 || line.ptr[i] != '-'))
            return 0;
    }
    /* A lone short dash run ("--", "---") is a markdown rule, not a SEP. */
    if (n == 1 && widths[0] < 8)
        return 0;
    return n < max ? n : max;
}

/* "CPU" -> CPU, anything else is the accelerator (copied to accel). */
static nfy_prof_dev device_of(nfy_str d, nfy_prof_layout *lay)
{
    if (nfy_str_eq_cstr(d, "CPU"))
        return NFY_PDEV_CPU;
    if (!lay->accel[0] && d.len && d.len < sizeof lay->accel) {
        memcpy(lay->accel, d.ptr, d.len);
        lay->accel[d.len] = '\0';
        lay->accel_len = d.len;
    }
    return NFY_PDEV_ACCEL;
}

static bool strip_suffix(nfy_str *s, const char *suf)
{
    nfy_str x = nfy_str_from_cstr(suf);
    if (!nfy_str_ends_with(*s, x) || s->len == x.len)
        return false;
    s->len -= x.len;
    return true;
}

static bool one_word(nfy_str s)
{
    if (!s.len)
        return false;
    for (size_t i = 0; i < s.len; i++)
        if (s.ptr[i] == ' ')
            return false;
    return true;
}

static double flops_scale(nfy_str t)
{
    static const char units[] = " KMGTP";
    nfy_str pre = NFY_STR_LIT("Total ");
    if (!nfy_str_starts_with(t, pre) ||
        !nfy_str_ends_with(t, NFY_STR_LIT("FLOPs")))
        return 0;
    size_t ulen = t.len - pre.len - 5;
    if (ulen == 0)
        return 1;
    if (ulen != 1)
        return 0;
    const char *u = strchr(units + 1, t.ptr[pre.len]);
    return u ? pow(1e3, (double)(u - units)) : 0;
}

static nfy_col col_of_title(nfy_str t, nfy_prof_layout *lay)
{
    nfy_col c = {NFY_COL_ANY, NFY_FLD_NONE, NFY_PDEV_CPU, 1, 0};
    nfy_str s = t;
    if (nfy_str_eq_cstr(t, "Name"))
        c.kind = NFY_COL_NAME;
    else if (nfy_str_eq_cstr(t, "Overload Name"))
        c.kind = NFY_COL_OVERLOAD;
    else if (nfy_str_eq_cstr(t, "# of Calls") ||
             nfy_str_eq_cstr(t, "Number of Calls"))
        c.kind = NFY_COL_CALLS;
    else if (nfy_str_eq_cstr(t, "Node ID"))
        c.kind = NFY_COL_INT;
    else if (nfy_str_eq_cstr(t, "Input Shapes"))
        c.kind = NFY_COL_SHAPES;
    else if (nfy_str_eq_cstr(t, "Source Location"))
        c.kind = NFY_COL_SRCLOC;
    else if ((c.scale = flops_scale(t)) > 0)
        c.kind = NFY_COL_FLOPS;
    else if (strip_suffix(&s, " %")) {
        c.kind = NFY_COL_PCT;
        c.scale = 1;
        if (strip_suffix(&s, " total"))
            lay->old_layout = true;
        if (nfy_str_starts_with(s, NFY_STR_LIT("Self "))) {
            c.field = NFY_FLD_SELF_PCT;
            c.dev = device_of(nfy_str_slice(s, 5, s.len), lay);
        }
    } else if (strip_suffix(&s, " Mem")) {
        c.kind = NFY_COL_MEM;
        c.scale = 1;
        c.field = NFY_FLD_MEM;
        if (nfy_str_starts_with(s, NFY_STR_LIT("Self "))) {
            c.field = NFY_FLD_SELF_MEM;
            s = nfy_str_slice(s, 5, s.len);
        }
        c.dev = device_of(s, lay);
    } else if (strip_suffix(&s, " time avg")) {
        c.kind = NFY_COL_TIME;
        c.scale = 1;
        (void)device_of(s, lay);
    } else if (nfy_str_starts_with(s, NFY_STR_LIT("Self "))) {
        s = nfy_str_slice(s, 5, s.len);
        (void)strip_suffix(&s, " total"); /* <= 1.6: "Self CPU total" */
        if (one_word(s)) {
            c.kind = NFY_COL_TIME;
            c.scale = 1;
            c.field = NFY_FLD_SELF_TIME;
            c.dev = device_of(s, lay);
        }
    } else if (strip_suffix(&s, " total") && one_word(s)) {
        c.kind = NFY_COL_TIME;
        c.scale = 1;
        c.field = NFY_FLD_TOTAL_TIME;
        c.dev = device_of(s, lay);
    }
    return c;
}

static bool optional_col(nfy_col_kind k)
{
    return k == NFY_COL_SRCLOC || k == NFY_COL_SHAPES || k == NFY_COL_ANY;
}

bool nfy_prof__layout_from_header(nfy_str header, const uint32_t *widths,
                                  size_t nwidths, nfy_prof_layout *lay)
{
    nfy_str titles[NFY_PROF_MAX_COLS];
    size_t n = nfy_prof__split2(header, titles, NFY_PROF_MAX_COLS);
    memset(lay, 0, sizeof *lay);
    if (n < 2 || !nfy_str_eq_cstr(titles[0], "Name"))
        return false;
    uint32_t start = 0;
    for (size_t i = 0; i < n; i++) {
        nfy_col c = col_of_title(titles[i], lay);
        if (i > 0 && c.kind == NFY_COL_NAME)
            c.kind = NFY_COL_ANY;
        c.width = i < nwidths ? widths[i] : 0;
        if (c.kind == NFY_COL_SHAPES)
            lay->has_shapes = true;
        if (c.kind == NFY_COL_SRCLOC) {
            lay->has_srcloc = true;
            lay->srcloc_start = start;
        }
        start += c.width + 2;
        lay->noptional += i > 0 && optional_col(c.kind);
        lay->cols[lay->ncols++] = c;
    }
    return true;
}

void nfy_prof__row_clear(nfy_prof_row *row)
{
    memset(row, 0, sizeof *row);
    row->calls = -1;
    for (int d = 0; d < NFY_PDEV__COUNT; d++) {
        row->self_us[d] = NAN;
        row->total_us[d] = NAN;
        row->self_pct[d] = NAN;
        row->mem_bytes[d] = NAN;
        row->self_mem_bytes[d] = NAN;
    }
    row->flops = NAN;
    row->step = NFY_PROF_STEP_NONE;
    row->rank = NFY_PROF_RANK_NONE;
}

/* Validate one cell for column c and store it in row. */
static bool take_cell(const nfy_col *c, nfy_str v, nfy_prof_row *row)
{
    double x = NAN;
    int64_t k;
    switch (c->kind) {
    case NFY_COL_PCT:
        if (!nfy_prof_parse_pct(v, &x))
            return false;
        if (c->field == NFY_FLD_SELF_PCT)
            row->self_pct[c->dev] = x;
        return true;
    case NFY_COL_TIME:
        if (!nfy_prof_parse_time(v, &x))
            return false;
        if (c->field == NFY_FLD_SELF_TIME)
            row->self_us[c->dev] = x;
        else if (c->field == NFY_FLD_TOTAL_TIME)
            row->total_us[c->dev] = x;
        return true;
    case NFY_COL_MEM:
        if (!nfy_prof_parse_mem(v, &x))
            return false;
        if (c->field == NFY_FLD_SELF_MEM)
            row->self_mem_bytes[c->dev] = x;
        else
            row->mem_bytes[c->dev] = x;
        return true;
    case NFY_COL_CALLS:
        if (!nfy_prof__parse_int(v, &k) || k < 0)
            return false;
        row->calls = k;
        return true;
    case NFY_COL_INT:
        return nfy_prof__parse_int(v, &k);
    case NFY_COL_FLOPS:
        if (!nfy_prof__parse_flops(v, &x))
            return false;
        row->flops = x * c->scale;
        return true;
    case NFY_COL_SHAPES: {
        bool cut = false;
        if (!nfy_prof__is_shapes(v, &cut))
            return false;
        row->shapes = v;
        if (cut)
            row->flags |= NFY_PROW_SHAPES_TRUNCATED;
        else
            row->flags &= ~(uint32_t)NFY_PROW_SHAPES_TRUNCATED;
        return true;
    }
    case NFY_COL_SRCLOC:
        row->source_loc = v;
        return true;
    default:
        return true;
    }
}

typedef struct {
    const nfy_prof_layout *lay;
    const nfy_str *tok;
    size_t first_value; /* index of the first value column */
    size_t best_right;  /* most value columns matched with tokens exhausted */
    nfy_prof_row *row;
    /* States (ci, ti) known to fail: whether a state matches depends on
     * (ci, ti) alone, so remembering failures keeps the search polynomial
     * when many optional columns could each be skipped (found by fuzzing:
     * a header of 30 optional columns took minutes per row). With at most
     * one optional column there is nothing to remember, and the table is
     * not even cleared (the common layouts, on the hot path). */
    bool memo;
    uint64_t failed[NFY_PROF_MAX_COLS + 1][(MAX_TOKENS + 64) / 64];
} matcher;

static bool known_failure(const matcher *m, size_t ci, size_t ti)
{
    return m->memo && (m->failed[ci][ti / 64] >> (ti % 64) & 1u);
}

static void mark_failure(matcher *m, size_t ci, size_t ti)
{
    if (m->memo)
        m->failed[ci][ti / 64] |= (uint64_t)1 << (ti % 64);
}

/* Columns [first_value, ci) remain, tokens [0, ti) remain. Returns the
 * number of tokens left for the name (>= 1), 0 when no match. */

/* Re-point a view into the scratch buffer at the same bytes of tail. */
static bool remap_into_tail(nfy_str *v, const char *buf, size_t off_tail,
                            nfy_str tail)
{
    if (!v->len)
        return true;
    if (v->ptr < buf || v->ptr > buf + off_tail + tail.len)
        return false;
    size_t off = (size_t)(v->ptr - buf);
    if (off < off_tail || off - off_tail + v->len > tail.len)
        return false;
    v->ptr = tail.ptr + (off - off_tail);
    return true;
}

static size_t match_from(matcher *m, size_t ci, size_t ti)
{
    if (ci == m->first_value)
        return ti;
    if (known_failure(m, ci, ti))
        return 0;
    const nfy_col *c = &m->lay->cols[ci - 1];
    if (ti > 0 && take_cell(c, m->tok[ti - 1], m->row)) {
        size_t r = match_from(m, ci - 1, ti - 1);
        if (r)
            return r;
    }
    if (optional_col(c->kind)) {
        if (c->kind == NFY_COL_SHAPES) {
            m->row->shapes = (nfy_str){"", 0};
            m->row->flags &= ~(uint32_t)NFY_PROW_SHAPES_TRUNCATED;
        }
        if (c->kind == NFY_COL_SRCLOC)
            m->row->source_loc = (nfy_str){"", 0};
        size_t r = match_from(m, ci - 1, ti);
        if (r)
            return r;
    }
    if (ti == 0) {
        size_t matched = m->lay->ncols - (ci - 1) - 1;
        if (matched > m->best_right)
            m->best_right = matched;
    }
    mark_failure(m, ci, ti);
    return 0;
}

nfy_row_match nfy_prof__match_row(const nfy_prof_layout *lay, nfy_str line,
                                  nfy_prof_row *row, size_t *matched_right)
{
    nfy_str tok[MAX_TOKENS];
    size_t nt = nfy_prof__split2(line, tok, MAX_TOKENS);
    size_t first = 1;
    if (lay->ncols > 1 && lay->cols[1].kind == NFY_COL_OVERLOAD)
        first = 2;
    matcher m;
    m.lay = lay;
    m.tok = tok;
    m.first_value = first;
    m.best_right = 0;
    m.row = row;
    m.memo = lay->noptional > 1;
    if (m.memo)
        memset(m.failed, 0, (lay->ncols + 1) * sizeof m.failed[0]);
    if (matched_right)
        *matched_right = 0;
    if (nt == 0)
        return NFY_ROW_NO;
    size_t left = match_from(&m, lay->ncols, nt);
    if (!left) {
        if (matched_right)
            *matched_right = m.best_right;
        return m.best_right ? NFY_ROW_NONAME : NFY_ROW_NO;
    }
    /* Name = from the first name token to the end of the last one; with an
     * Overload Name column and >= 2 tokens left, the last one is that. */
    size_t name_end = left;
    row->overload = (nfy_str){"", 0};
    if (first == 2 && left >= 2) {
        row->overload = tok[left - 1];
        name_end = left - 1;
    }
    const char *b = tok[0].ptr;
    const char *e = tok[name_end - 1].ptr + tok[name_end - 1].len;
    row->name = (nfy_str){b, (size_t)(e - b)};
    return NFY_ROW_OK;
}

bool nfy_prof__join_split_row(const nfy_prof_layout *lay, nfy_str head,
                              nfy_str tail, size_t missing, nfy_prof_row *row)
{
    nfy_str tok[MAX_TOKENS];
    size_t nt = nfy_prof__split2(head, tok, MAX_TOKENS);
    size_t first = 1;
    if (lay->ncols > 1 && lay->cols[1].kind == NFY_COL_OVERLOAD)
        return false; /* too ambiguous to repair */
    if (nt < 1 || missing == 0 || first + missing > lay->ncols)
        return false;
    /* Name is the first token; then one cell per missing column, each the
     * first word of a token (the foreign text follows the last one). */
    char buf[4096];
    size_t len = 0;
    if (tok[0].len + 2 > sizeof buf)
        return false;
    memcpy(buf, tok[0].ptr, tok[0].len);
    len = tok[0].len;
    for (size_t j = 0; j < missing; j++) {
        if (1 + j >= nt)
            return false;
        nfy_str v = tok[1 + j];
        ptrdiff_t sp = nfy_str_find_char(v, ' ');
        if (sp >= 0 && lay->cols[first + j].kind != NFY_COL_MEM)
            v.len = (size_t)sp;
        nfy_prof_row probe;
        nfy_prof__row_clear(&probe);
        if (!take_cell(&lay->cols[first + j], v, &probe))
            return false;
        if (len + v.len + 2 > sizeof buf)
            return false;
        memcpy(buf + len, "  ", 2);
        memcpy(buf + len + 2, v.ptr, v.len);
        len += v.len + 2;
    }
    if (len + tail.len + 2 > sizeof buf)
        return false;
    memcpy(buf + len, "  ", 2);
    memcpy(buf + len + 2, tail.ptr, tail.len);
    len += tail.len + 2;
    nfy_prof_row tmp;
    nfy_prof__row_clear(&tmp);
    if (nfy_prof__match_row(lay, (nfy_str){buf, len}, &tmp, NULL) != NFY_ROW_OK)
        return false;
    /* The views point into buf: re-point name into head, others into tail. */
    tmp.name = tok[0];
    size_t off_tail = len - tail.len;
    /* A view that does not lie in the tail would dangle: no repair then. */
    if (!remap_into_tail(&tmp.shapes, buf, off_tail, tail) ||
        !remap_into_tail(&tmp.source_loc, buf, off_tail, tail) ||
        !remap_into_tail(&tmp.overload, buf, off_tail, tail))
        return false;
    *row = tmp;
    return true;
}
