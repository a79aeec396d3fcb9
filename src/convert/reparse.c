/*
 * The last check before a rewritten Python file is written: it must still
 * parse (pylex + pysyn, the front end the passes used). A built-in rule
 * never breaks the syntax, but a custom rule's replacement can ("((" for
 * "(", a line break in the middle of a statement); such a file is an error
 * naming the edit nearest the first syntax error, and is left unchanged.
 */
#include <string.h>

#include "convert/convert_internal.h"
#include "pylex/pylex.h"
#include "pysyn/pysyn.h"

nfy_status nfy__convert_parse_check(const char *name, const char *text,
                                    size_t len, nfy_diags *d, bool *tree_errors)
{
    *tree_errors = false;
    nfy_source src;
    nfy_status st = nfy_source_from_mem(&src, name, text, len);
    if (st != NFY_OK)
        return st;
    nfy_arena a = NFY_ARENA_INIT;
    nfy_tokens toks;
    nfy_lex_tokens_init(&toks);
    nfy_pysyn *m = NULL;
    st = nfy_lex_lex(&src, &toks, d);
    if (st == NFY_OK)
        st = nfy_pysyn_parse(&src, &toks, &a, d, &m);
    *tree_errors = m && m->nerrors;
    nfy_lex_tokens_release(&toks);
    nfy_arena_release(&a);
    nfy_source_release(&src);
    return st;
}

/* The first syntax error in text (its byte offset), or false when the
 * text parses. */
static bool first_syntax_error(const char *name, const char *text, size_t len,
                               uint32_t *offset)
{
    nfy_diags d;
    nfy_diags_init(&d);
    bool tree_errors;
    nfy_status st = nfy__convert_parse_check(name, text, len, &d, &tree_errors);
    bool bad = nfy_diags_count(&d, NFY_SEV_ERROR) > 0 || tree_errors;
    *offset = 0;
    for (size_t i = 0; i < d.items.len; i++)
        if (d.items.items[i].sev == NFY_SEV_ERROR) {
            *offset = d.items.items[i].offset;
            break;
        }
    nfy_diags_release(&d);
    return bad && st != NFY_ELIMIT;
}

/* The edit whose output lies at or last before result offset off. */
static const nfy_edit *edit_near(const nfy_edit_set *set, uint32_t off)
{
    const nfy_edit *best = NULL;
    int64_t shift = 0; /* output offset minus input offset so far */
    for (size_t i = 0; i < set->edits.len; i++) {
        const nfy_edit *e = &set->edits.items[i];
        if ((int64_t)e->span.start + shift > (int64_t)off && best)
            break;
        best = e;
        shift += (int64_t)e->text.len - (int64_t)(e->span.end - e->span.start);
    }
    return best;
}

/* Do the edits of rule alone break the syntax of in? */
static bool rule_breaks(const nfy_source *in, const nfy_edit_set *set,
                        const char *rule)
{
    nfy_edit_set sub;
    nfy_edit_set_init(&sub, in);
    bool ok = true;
    for (size_t i = 0; i < set->edits.len && ok; i++) {
        const nfy_edit *e = &set->edits.items[i];
        if (!strcmp(e->rule, rule))
            ok = nfy_edit_set_add(&sub, e->span.start, e->span.end, e->text,
                                  e->rule, e->note, NULL) == NFY_OK;
    }
    nfy_buf out = NFY_BUF_INIT;
    uint32_t off;
    bool bad =
        ok && nfy_edit_set_apply(&sub, NULL, &out) == NFY_OK &&
        first_syntax_error(in->path, out.data ? out.data : "", out.len, &off);
    nfy_buf_release(&out);
    nfy_edit_set_release(&sub);
    return bad;
}

/*
 * The edit to blame: the first of the first rule whose edits alone break
 * the file (a file that fails to parse is rare: one parse per rule then),
 * else the one nearest the syntax error (rules that only break together).
 */
static const nfy_edit *culprit(const nfy_source *in, const nfy_edit_set *set,
                               uint32_t off)
{
    for (size_t i = 0; i < set->edits.len; i++) {
        const char *rule = set->edits.items[i].rule;
        bool tried = false;
        for (size_t k = 0; k < i && !tried; k++)
            tried = !strcmp(set->edits.items[k].rule, rule);
        if (!tried && rule_breaks(in, set, rule))
            return &set->edits.items[i];
    }
    return edit_near(set, off);
}

bool nfy__convert_reparses(nfy_diags *diags, const nfy_source *in,
                           const char *rel, const nfy_edit_set *set,
                           const nfy_buf *result)
{
    uint32_t off;
    if (!first_syntax_error(rel, result->data ? result->data : "", result->len,
                            &off))
        return true;
    const nfy_edit *e = culprit(in, set, off);
    uint32_t line = 0, col = 0;
    if (e)
        nfy_source_linecol(in, e->span.start, &line, &col);
    enum { SHOWN = 60 }; /* bytes of each side quoted */
    size_t was = e ? e->span.end - e->span.start : 0;
    size_t now = e ? e->text.len : 0;
    nfy_diag_add_at(diags, NFY_SEV_ERROR, "convert-reparse", rel, line, col,
                    "rule %s: the rewritten file no longer parses ('%.*s' "
                    "replaced by '%.*s'); left unchanged",
                    e && *e->rule ? e->rule : "(unknown)",
                    (int)(was < SHOWN ? was : SHOWN),
                    e ? in->data + e->span.start : "",
                    (int)(now < SHOWN ? now : SHOWN), e ? e->text.ptr : "");
    return false;
}

void nfy__convert_unapply(nfy_report *rep, const char *rel, size_t first,
                          const char *why)
{
    size_t n;
    nfy_finding *open = nfy_report_open_since(rep, first, &n);
    for (size_t i = 0; i < n; i++)
        if (open[i].cat == NFY_CAT_CHANGE && open[i].file &&
            !strcmp(open[i].file, rel))
            nfy_report_leave_unchanged(rep, &open[i], why);
}
