/*
 * The review page: the report's findings as one JSON document inside the
 * page (every '<', '>' and '&' written as \u escapes, so no text from the
 * project can close the script element), and a script that builds the view
 * from it with textContent only: nothing from user content becomes markup.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "review/review.h"
#include "review/review_internal.h"

enum { CONTEXT_LINES = 3 };

static const char *or_empty(const char *s)
{
    return s ? s : "";
}

/* JSON string that is also safe inside <script>. */
static void js_str(nfy_buf *out, const char *s, size_t n)
{
    nfy_buf tmp = NFY_BUF_INIT;
    nfy_json_escape(&tmp, s ? s : "", s ? n : 0);
    for (size_t i = 0; i < tmp.len; i++) {
        char c = tmp.data[i];
        if (c == '<' || c == '>' || c == '&')
            nfy_buf_addf(out, "\\u%04x", (unsigned)c);
        else
            nfy_buf_addch(out, c);
    }
    nfy_buf_release(&tmp);
}

static void js_cstr(nfy_buf *out, const char *s)
{
    js_str(out, s, s ? strlen(s) : 0);
}

static void js_key(nfy_buf *out, const char *key, const char *val)
{
    nfy_buf_addf(out, ",\"%s\":", key);
    js_cstr(out, val);
}

static uint32_t line_start(const nfy_source *src, uint32_t line)
{
    return line <= src->nlines ? src->line_starts[line - 1]
                               : (uint32_t)src->len;
}

/* Lines of text [a, b) as a JSON array, line endings dropped. */
static void lines_array(nfy_buf *out, const char *a, const char *b)
{
    nfy_buf_addch(out, '[');
    const char *p = a;
    bool first = true;
    while (p < b) {
        const char *nl = memchr(p, '\n', (size_t)(b - p));
        const char *e = nl ? nl : b;
        size_t n = (size_t)(e - p);
        if (n && p[n - 1] == '\r')
            n--;
        if (!first)
            nfy_buf_addch(out, ',');
        /* shown, not compared: a bidi control becomes a visible mark */
        nfy_buf shown = NFY_BUF_INIT;
        nfy_bidi_visible(&shown, p, n);
        js_str(out, shown.data, shown.len);
        nfy_buf_release(&shown);
        first = false;
        p = nl ? nl + 1 : b;
    }
    nfy_buf_addch(out, ']');
}

/* Context lines of f before, and for an edit after, the change. */
static void context(nfy_buf *out, const nfy_source *src, const nfy_finding *f)
{
    uint32_t sl = f->start_line ? f->start_line : 1;
    uint32_t el = f->end_line >= sl ? f->end_line : sl;
    if (f->end_col == 0 && el > sl)
        el--; /* the span ends at a line start: that line is untouched */
    uint32_t a = sl > CONTEXT_LINES ? sl - CONTEXT_LINES : 1;
    uint32_t b = el + CONTEXT_LINES;
    if (b > src->nlines)
        b = (uint32_t)src->nlines;
    uint32_t rs = line_start(src, a), re = line_start(src, b + 1);
    nfy_buf_addf(out, ",\"first\":%u,\"before\":", a);
    lines_array(out, src->data + rs, src->data + re);
    if (f->cat != NFY_CAT_CHANGE)
        return;
    uint32_t s = nfy_source_offset(src, f->start_line, f->start_col);
    uint32_t e = s + (uint32_t)strlen(or_empty(f->before));
    if (e > src->len || s < rs || e > re)
        return;
    nfy_buf after = NFY_BUF_INIT;
    nfy_buf_add(&after, src->data + rs, s - rs);
    nfy_buf_addstr(&after, or_empty(f->after));
    nfy_buf_add(&after, src->data + e, re - e);
    nfy_buf_addstr(out, ",\"after\":");
    lines_array(out, after.data, after.data + after.len);
    nfy_buf_addf(out, ",\"start\":%u,\"end\":%u", s, e);
    nfy_buf_release(&after);
    uint32_t al, ae;
    nfy_review_edit_anchor_lines(src, s, e, &al, &ae);
    nfy_buf anchor = NFY_BUF_INIT;
    nfy_review_edit_anchor_text(src, al, ae, &anchor);
    nfy_buf_addstr(out, ",\"anchor\":");
    js_str(out, anchor.data, anchor.len);
    nfy_buf_release(&anchor);
}

/* The insert-import edits of one file: what the file's other edits need. */
enum { MAX_IMPORTS = 8 };
typedef struct {
    const char *id[MAX_IMPORTS];
    const char *stmt[MAX_IMPORTS]; /* the rule's "import torch_npu" */
    size_t n;
    nfy_arena arena;
} file_imports;

static void find_imports(const nfy_finding **v, size_t i, size_t n,
                         const nfy_rule_set *rules, file_imports *fi)
{
    fi->n = 0;
    for (size_t j = i; j < n && v[j]->file && !strcmp(v[j]->file, v[i]->file);
         j++) {
        const nfy_finding *f = v[j];
        const nfy_rule *r = nfy_review_edit_is_import(rules, f->rule)
                                ? nfy_rules_set_find(rules, f->rule)
                                : NULL;
        if (!r || !r->replacement || f->cat != NFY_CAT_CHANGE || !f->edit_id ||
            fi->n == MAX_IMPORTS)
            continue;
        nfy_buf id = NFY_BUF_INIT;
        fi->id[fi->n] =
            nfy_arena_strdup(&fi->arena, nfy_report_finding_edit_id(f, &id));
        fi->stmt[fi->n++] = r->replacement;
        nfy_buf_release(&id);
    }
}

/* "needs": the ids of the imports an edit's new text needs. */
static void needs(nfy_buf *out, const nfy_finding *f, const file_imports *fi,
                  const nfy_rule_set *rules)
{
    if (!fi || nfy_review_edit_is_import(rules, f->rule) || !f->after)
        return;
    bool any = false;
    for (size_t k = 0; k < fi->n; k++) {
        if (!nfy_review_edit_needs_import(fi->stmt[k], f->after,
                                          strlen(f->after)))
            continue;
        nfy_buf_addstr(out, any ? "," : ",\"needs\":[");
        js_cstr(out, fi->id[k]);
        any = true;
    }
    if (any)
        nfy_buf_addch(out, ']');
}

/*
 * A file convert creates (the --distributed launcher): a note that carries
 * an edit id and the file's text in code_after. Its item is an edit that
 * adds every line of a file SRC does not have; api names the file.
 */
static bool is_created_file(const nfy_finding *f)
{
    return f->edit_id && f->code_after && f->api && f->cat != NFY_CAT_CHANGE &&
           f->cat != NFY_CAT_LEFT_UNCHANGED;
}

static void created_file(nfy_buf *out, const nfy_finding *f)
{
    const char *text = f->code_after;
    nfy_buf_addstr(out, ",\"create\":true,\"first\":1,\"before\":[],"
                        "\"after\":");
    lines_array(out, text, text + strlen(text));
    nfy_buf_addstr(out, ",\"start\":0,\"end\":0");
    nfy_buf id = NFY_BUF_INIT;
    js_key(out, "id", nfy_report_finding_edit_id(f, &id));
    nfy_buf_release(&id);
    js_key(out, "old", "");
}

static void item(nfy_buf *out, const nfy_finding *f, const nfy_source *src,
                 const nfy_rule_set *rules, const file_imports *fi)
{
    const nfy_rule *r = rules ? nfy_rules_set_find(rules, f->rule) : NULL;
    bool created = is_created_file(f);
    bool edit = (f->cat == NFY_CAT_CHANGE && f->edit_id) || created;
    nfy_buf_addf(out, "{\"kind\":\"%s\",\"line\":%u,\"col\":%u",
                 edit ? "edit" : "finding", f->start_line, f->start_col + 1);
    nfy_buf name = NFY_BUF_INIT; /* as reports and ids name it */
    js_key(out, "file", nfy_name_shown(&name, created ? f->api : f->file));
    nfy_buf_release(&name);
    js_key(out, "rule", f->rule);
    js_key(out, "name", r ? r->message : NULL);
    js_key(out, "hint", r ? r->hint : NULL);
    /* the note says what --check did (nothing); the page asks whether
     * convert -o may create the file */
    js_key(out, "message",
           created ? "a new file convert -o DST writes at the root of DST"
                   : f->message);
    js_key(out, "category", nfy_finding_cat_name(f->cat));
    js_key(out, "safety", nfy_report_safety_name(f->safety));
    nfy_buf_addf(out, ",\"manual\":%s",
                 nfy_report_finding_is_manual(f) ? "true" : "false");
    if (created) {
        created_file(out, f);
    } else if (edit) {
        nfy_buf id = NFY_BUF_INIT;
        js_key(out, "id", nfy_report_finding_edit_id(f, &id));
        nfy_buf_release(&id);
        js_key(out, "old", f->before);
        js_key(out, "new", f->after);
        needs(out, f, fi, rules);
    }
    if (src && f->start_line)
        context(out, src, f);
    nfy_buf_addch(out, '}');
}

static int cmp_finding(const void *pa, const void *pb)
{
    const nfy_finding *a = *(const nfy_finding *const *)pa;
    const nfy_finding *b = *(const nfy_finding *const *)pb;
    /* project-wide findings (no file) first */
    if (!a->file || !b->file)
        return (a->file != NULL) - (b->file != NULL);
    return 0;
}

static bool load_src(nfy_source *src, const char *root, const char *file,
                     bool root_is_file)
{
    nfy_arena a = NFY_ARENA_INIT;
    const char *path = root_is_file ? root : nfy_path_join(&a, root, file);
    bool ok = nfy_source_load(src, path, 0) == NFY_OK;
    nfy_arena_release(&a);
    return ok;
}

static void items(nfy_buf *out, const nfy_report *rep, const char *src_root,
                  const nfy_rule_set *rules)
{
    const nfy_finding **v;
    size_t n = nfy_report_sorted(rep, &v);
    /* stable: qsort is not, so only the NULL-file ones move (insertion) */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && cmp_finding(&v[j - 1], &v[j]) > 0; j--) {
            const nfy_finding *t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    struct stat st;
    bool root_is_file = stat(src_root, &st) == 0 && !S_ISDIR(st.st_mode);
    nfy_source src = {0};
    const char *loaded = NULL;
    bool have = false;
    file_imports fi = {.n = 0};
    nfy_arena_init(&fi.arena);
    nfy_buf_addstr(out, "[");
    for (size_t i = 0; i < n; i++) {
        const nfy_finding *f = v[i];
        if (f->file && (!loaded || strcmp(loaded, f->file))) {
            if (have)
                nfy_source_release(&src);
            have = load_src(&src, src_root, f->file, root_is_file);
            loaded = f->file;
            find_imports(v, i, n, rules, &fi);
        }
        if (i)
            nfy_buf_addstr(out, ",\n");
        item(out, f, f->file && have ? &src : NULL, rules,
             f->file ? &fi : NULL);
    }
    nfy_arena_release(&fi.arena);
    if (have)
        nfy_source_release(&src);
    nfy_buf_addstr(out, "]");
    free(v);
}

/* Each script's training program (report "training"): what the tool
 * understood, each element at its file:line. */
static void training(nfy_buf *out, const nfy_report *rep)
{
    const nfy_report_training_row **r;
    size_t n = nfy_report_training_sorted(rep, &r);
    nfy_buf_addstr(out, ",\"training\":[");
    for (size_t i = 0; i < n; i++) {
        nfy_buf_addstr(out, i ? ",\n{\"file\":" : "{\"file\":");
        js_cstr(out, r[i]->file);
        nfy_buf_addf(out, ",\"line\":%u", (unsigned)r[i]->line);
        js_key(out, "kind", r[i]->kind);
        js_key(out, "text", r[i]->text);
        if (r[i]->note != NULL)
            js_key(out, "how", r[i]->note);
        nfy_buf_addch(out, '}');
    }
    nfy_buf_addch(out, ']');
    free(r);
}

void nfy_review_render_html(const nfy_report *rep, const char *src_root,
                            const nfy_rule_set *rules, nfy_buf *out)
{
    nfy_buf_addf(out,
                 "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
                 "charset=\"utf-8\">\n<meta name=\"viewport\" "
                 "content=\"width=device-width\">\n"
                 "<title>npuify review</title>\n<style>%s</style></head>"
                 "<body>\n<div id=\"app\"></div>\n<pre id=\"out\" "
                 "hidden></pre>\n<script type=\"application/json\" "
                 "id=\"data\">{\"schema\":\"npuify-review/1\"",
                 nfy__review_css);
    /* the decisions file names SRC by its absolute path: convert checks it */
    char *abs = realpath(src_root, NULL);
    js_key(out, "source", abs ? abs : src_root);
    free(abs);
    js_key(out, "tool", rep->meta.tool_version);
    js_key(out, "torch", rep->meta.torch_version);
    training(out, rep);
    nfy_buf_addstr(out, ",\"items\":");
    items(out, rep, src_root, rules);
    nfy_buf_addf(out, "}</script>\n<script>%s</script>\n</body></html>\n",
                 nfy__review_js);
}
