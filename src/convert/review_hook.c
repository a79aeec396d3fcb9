/*
 * The review hook of convert: edit ids on the change findings, and the
 * decisions of a review applied to the edit set before it is applied.
 */
#include <stdlib.h>
#include <string.h>

#include "convert/convert_internal.h"
#include "review/review.h"

/* The change findings of rel recorded since first, in edit order. */
static size_t change_findings(nfy_report *rep, const char *rel, size_t first,
                              nfy_finding **out, size_t max)
{
    size_t n = 0, nopen;
    nfy_finding *open = nfy_report_open_since(rep, first, &nopen);
    for (size_t i = 0; i < nopen; i++) {
        nfy_finding *f = &open[i];
        if (f->cat != NFY_CAT_CHANGE || !f->file || strcmp(f->file, rel))
            continue;
        if (n < max)
            out[n] = f;
        n++;
    }
    return n;
}

/* f's edit id id, without its first part (shown, the escaped f->file) and
 * ':'; nfy_report_finding_edit_id puts them back. */
static void set_edit_id(nfy_report *rep, nfy_finding *f, const char *shown,
                        const char *id)
{
    size_t skip = strlen(shown) + 1;
    f->edit_id = nfy_report_strndup(rep, id + skip, strlen(id + skip));
    f->edit_id_in_file = true;
}

/* A change the review did not accept stays, named with the reason. */
static void mark_not_accepted(nfy_report *rep, nfy_finding *f, bool reviewed)
{
    nfy_report_leave_unchanged(
        rep, f,
        reviewed ? "not applied: not accepted in the review "
                   "(rejected in --decisions)"
                 : "not applied: not accepted in the review (new "
                   "since the review: not in --decisions)");
}

enum { CODE_MAX = 240 }; /* bytes of a code line kept in the report */

static const char *cut_line(nfy_report *rep, const char *s, size_t n)
{
    return nfy_report_strndup(rep, s, n > CODE_MAX ? CODE_MAX : n);
}

/* The byte offset of (line, col), resumed from the last one asked on the
 * same line when col is not before it: a line's findings come in order,
 * so a line with many of them is walked once, not once each. */
typedef struct {
    uint32_t line, col, off;
} offset_memo;

static uint32_t offset_at(const nfy_source *src, offset_memo *m, uint32_t line,
                          uint32_t col)
{
    if (src->cp_counts == NULL) /* ASCII: a code point is a byte */
        return nfy_source_offset(src, line, col);
    if (m->line != line || col < m->col) {
        m->line = line;
        m->col = 0;
        m->off = nfy_source_offset(src, line, 0);
    }
    for (; m->col < col && m->off < src->len; m->col++) {
        uint32_t cp;
        size_t k = nfy_utf8_decode(src->data + m->off, src->len - m->off, &cp);
        m->off += k ? (uint32_t)k : 1;
    }
    return m->off;
}

/* Append to b what fits of s[0, n) below CODE_MAX bytes. */
static void add_capped(char *b, size_t *len, const char *s, size_t n)
{
    size_t room = CODE_MAX - *len;
    n = n < room ? n : room;
    memcpy(b + *len, s, n);
    *len += n;
}

static void add_code(nfy_report *rep, const nfy_source *src, nfy_finding *f,
                     offset_memo *m)
{
    if (f->code_before || !f->start_line || f->start_line > src->nlines)
        return;
    nfy_str line = nfy_source_line(src, f->start_line);
    f->code_before = cut_line(rep, line.ptr, line.len);
    if (f->cat != NFY_CAT_CHANGE || f->end_line != f->start_line)
        return;
    uint32_t ls = src->line_starts[f->start_line - 1];
    uint32_t s = offset_at(src, m, f->start_line, f->start_col);
    uint32_t e = offset_at(src, m, f->end_line, f->end_col);
    const char *after = f->after ? f->after : "";
    if (s < ls || e < s || e > ls + line.len || strchr(after, '\n'))
        return;
    /* only the kept head of the line is put together: O(CODE_MAX) */
    char b[CODE_MAX];
    size_t n = 0;
    add_capped(b, &n, line.ptr, s - ls);
    add_capped(b, &n, after, strlen(after));
    add_capped(b, &n, src->data + e, ls + line.len - e);
    f->code_after = nfy_report_strndup(rep, b, n);
}

/* Accepted edits of set that need the import stmt; the first lines in
 * lines. */
static size_t users_of(const nfy_convert_opts *o, const nfy_edit_set *set,
                       nfy_finding **fs, const bool *keep, const char *stmt,
                       nfy_buf *lines)
{
    size_t users = 0;
    for (size_t j = 0; j < set->edits.len; j++) {
        const nfy_edit *e = &set->edits.items[j];
        if (!keep[j] || nfy_review_edit_is_import(o->rules, e->rule) ||
            !nfy_review_edit_needs_import(stmt, e->text.ptr, e->text.len))
            continue;
        if (users < 5)
            nfy_buf_addf(lines, "%s%u", users ? ", " : "", fs[j]->start_line);
        users++;
    }
    return users;
}

/*
 * A rejected import an accepted edit of the file needs is kept: applying
 * the edit without it would leave a file that uses torch_npu without
 * importing it. A warning at the import's line names the edits.
 */
static void keep_needed_imports(const nfy_convert_opts *o, const char *rel,
                                const nfy_edit_set *set, nfy_finding **fs,
                                bool *keep, nfy_diags *diags)
{
    for (size_t k = 0; k < set->edits.len; k++) {
        const nfy_edit *imp = &set->edits.items[k];
        if (keep[k] || !nfy_review_edit_is_import(o->rules, imp->rule))
            continue;
        const nfy_rule *r = nfy_rules_set_find(o->rules, imp->rule);
        nfy_buf lines = NFY_BUF_INIT;
        size_t users = r->replacement
                           ? users_of(o, set, fs, keep, r->replacement, &lines)
                           : 0;
        if (users) {
            keep[k] = true;
            nfy_diag_add_at(
                diags, NFY_SEV_WARNING, "decisions-kept", rel,
                fs[k]->start_line, 0,
                "'%s' (%s) was rejected in the review but is kept: %zu "
                "accepted edit%s need%s it (line%s %s%s); reject them too to "
                "leave it out",
                r->replacement, imp->rule, users, users == 1 ? "" : "s",
                users == 1 ? "s" : "", users == 1 ? "" : "s",
                nfy_buf_cstr(&lines), users > 5 ? ", ..." : "");
            fs[k]->message = "kept although rejected in the review: accepted "
                             "edits need this import";
        }
        nfy_buf_release(&lines);
    }
}

void nfy__convert_review(const nfy_convert_passes *p, const nfy_source *src,
                         const char *rel, nfy_edit_set *set, nfy_report *rep,
                         size_t first, nfy_diags *diags)
{
    const nfy_convert_opts *o = p->o;
    const nfy_decisions *decisions = p->hooks.decisions;
    offset_memo memo = {0, 0, 0};
    size_t nopen;
    nfy_finding *open = nfy_report_open_since(rep, first, &nopen);
    for (size_t i = 0; i < nopen; i++)
        if (open[i].file && !strcmp(open[i].file, rel))
            add_code(rep, src, &open[i], &memo);
    (void)nfy_edit_set_normalize(set, NULL);
    size_t n = set->edits.len;
    if (n == 0)
        return;
    nfy_finding **fs = malloc(n * sizeof *fs);
    const char **ids = malloc(n * sizeof *ids);
    bool *keep = malloc(n * sizeof *keep);
    nfy_arena a;
    nfy_arena_init(&a);
    /* Edits and their findings correspond one to one, in order; anything
     * else (a pass recording changes of its own) gets no ids, and then
     * decisions cannot be applied safely: nothing is applied. */
    /* ids name the file as reports do: raw bytes escaped reversibly */
    nfy_buf name = NFY_BUF_INIT;
    const char *shown = nfy_name_shown(&name, rel);
    bool paired = fs && ids && keep &&
                  change_findings(rep, rel, first, fs, n) == n &&
                  nfy_review_edit_ids(shown, set, &a, ids) == NFY_OK;
    for (size_t k = 0; keep && k < n; k++) {
        if (paired) /* the file is the finding's own: kept once, there */
            set_edit_id(rep, fs[k], shown, ids[k]);
        keep[k] = !decisions ||
                  (paired && nfy_convert_decisions_accepts(decisions, ids[k]));
    }
    if (decisions && paired)
        keep_needed_imports(o, rel, set, fs, keep, diags);
    size_t kept = 0;
    for (size_t k = 0; k < n; k++) {
        if (keep ? keep[k] : !decisions)
            set->edits.items[kept++] = set->edits.items[k];
        else if (paired)
            mark_not_accepted(rep, fs[k],
                              nfy_convert_decisions_knows(decisions, ids[k]));
    }
    set->edits.len = kept;
    nfy_buf_release(&name);
    nfy_arena_release(&a);
    free(keep);
    free(ids);
    free(fs);
}
