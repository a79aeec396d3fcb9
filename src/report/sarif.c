/*
 * report.sarif: SARIF 2.1.0 with one run. The driver's rules are the distinct
 * rule ids of the findings (sorted), each result points at its rule by id and
 * index. Columns are code points ("columnKind": "unicodeCodePoints") and
 * 1-based as SARIF requires. Changes carry a fix (deleted region plus
 * inserted text), so SARIF viewers can show or apply them. Every result
 * has a location, as code-scanning uploads require: a project-wide finding
 * points at the source root itself, and the run names SRCROOT in
 * originalUriBaseIds: for a source given as an absolute path its file: URI
 * (uris relative to it), else the directory npuify ran in, and each uri is
 * the path from there, as the diagnostics name the file (SRC/train.py).
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

static void jstr(nfy_buf *out, const char *s)
{
    s = nfy__report_empty(s);
    nfy_json_escape(out, s, strlen(s));
}

/* Bytes a URI keeps as they are: unreserved ones and '/'. */
static bool uri_plain(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
           c == '~' || c == '/';
}

/* Percent-encode a path into u; '/' stays. */
static void uri_encode(nfy_buf *u, const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *p = (const unsigned char *)path;
    for (;;) {
        const unsigned char *run = p;
        while (*p && uri_plain(*p))
            p++;
        if (p > run)
            nfy_buf_add(u, run, (size_t)(p - run));
        if (!*p)
            return;
        char esc[3] = {'%', hex[*p >> 4], hex[*p & 15]};
        nfy_buf_add(u, esc, sizeof esc);
        p++;
    }
}

/* A relative path as a JSON URI reference string. */
static void uri_escape(nfy_buf *out, const char *path)
{
    nfy_buf u = NFY_BUF_INIT;
    uri_encode(&u, path);
    jstr(out, nfy_buf_cstr(&u));
    nfy_buf_release(&u);
}

static const char *level_of(const nfy_finding *f)
{
    if (f->cat == NFY_CAT_LEFT_UNCHANGED)
        return "none";
    if (nfy_report_finding_is_manual(f) || f->cat == NFY_CAT_UNKNOWN_API)
        return "warning";
    return "note";
}

static void write_region(nfy_buf *out, const nfy_finding *f)
{
    nfy_buf_addstr(out, "{\"startLine\": ");
    nfy_buf_addu(out, f->start_line);
    nfy_buf_addstr(out, ", \"startColumn\": ");
    nfy_buf_addu(out, (unsigned)(f->start_col + 1));
    nfy_buf_addstr(out, ", \"endLine\": ");
    nfy_buf_addu(out, f->end_line ? f->end_line : f->start_line);
    nfy_buf_addstr(out, ", \"endColumn\": ");
    nfy_buf_addu(out, (unsigned)(f->end_col + 1));
    nfy_buf_addch(out, '}');
}

/* A relative source: the file's path from the directory npuify ran in
 * (SRCROOT), as the text diagnostics name it; an absolute one: relative to
 * SRCROOT, the source's file: URI. */
static void write_artifact(nfy_buf *out, const char *root, const nfy_finding *f)
{
    nfy_buf path = NFY_BUF_INIT;
    if (root && root[0] != '/')
        nfy__report_add_path_in(&path, root, f->file);
    else if (f->file)
        nfy_buf_addstr(&path, f->file);
    size_t skip = 0; /* leading "./" */
    while (skip + 1 < path.len && path.data[skip] == '.' &&
           path.data[skip + 1] == '/')
        skip += 2;
    bool here =
        skip == path.len || (skip + 1 == path.len && path.data[skip] == '.');
    /* a project-wide finding: the source root, a directory */
    if (!f->file && !here && path.data[path.len - 1] != '/')
        nfy_buf_addch(&path, '/');
    nfy_buf_addstr(out, "{\"uri\": ");
    uri_escape(out, !f->file && here ? "./" : nfy_buf_cstr(&path) + skip);
    nfy_buf_addstr(out, ", \"uriBaseId\": \"SRCROOT\"}");
    nfy_buf_release(&path);
}

static void write_location(nfy_buf *out, const char *root, const nfy_finding *f)
{
    nfy_buf_addstr(out, ", \"locations\": [{\"physicalLocation\": "
                        "{\"artifactLocation\": ");
    write_artifact(out, root, f);
    if (f->start_line) {
        nfy_buf_addstr(out, ", \"region\": ");
        write_region(out, f);
    }
    nfy_buf_addstr(out, "}}]");
}

static void write_fix(nfy_buf *out, const char *root, const nfy_finding *f)
{
    nfy_buf_addstr(out, ", \"fixes\": [{\"description\": {\"text\": ");
    jstr(out, f->message);
    nfy_buf_addstr(out, "}, \"artifactChanges\": [{\"artifactLocation\": ");
    write_artifact(out, root, f);
    nfy_buf_addstr(out, ", \"replacements\": [{\"deletedRegion\": ");
    write_region(out, f);
    nfy_buf_addstr(out, ", \"insertedContent\": {\"text\": ");
    jstr(out, f->after);
    nfy_buf_addstr(out, "}}]}]}]");
}

static size_t rule_index(const nfy__rule_count_vec *rules, const char *id)
{
    size_t lo = 0, hi = rules->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(rules->items[mid].rule, id) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void write_result(nfy_buf *out, const char *root, const nfy_finding *f,
                         const nfy__rule_count_vec *rules)
{
    const char *rule = nfy__report_empty(f->rule);
    nfy_buf_addstr(out, "{\"ruleId\": ");
    jstr(out, rule);
    nfy_buf_addstr(out, ", \"ruleIndex\": ");
    nfy_buf_addu(out, rule_index(rules, rule));
    nfy_buf_addstr(out, ", \"level\": \"");
    nfy_buf_addstr(out, level_of(f));
    nfy_buf_addch(out, '"');
    nfy_buf_addstr(out, ", \"message\": {\"text\": ");
    jstr(out, f->message && *f->message ? f->message : f->api);
    nfy_buf_addch(out, '}');
    write_location(out, root, f);
    if (f->file && f->start_line && f->cat == NFY_CAT_CHANGE)
        write_fix(out, root, f);
    nfy_buf_addstr(out, ", \"properties\": {\"category\": ");
    jstr(out, nfy_finding_cat_name(f->cat));
    nfy_buf_addstr(out, ", \"safety\": ");
    jstr(out, nfy_report_safety_name(f->safety));
    if (f->op != NFY_OPTYPE_NONE) {
        nfy_buf_addstr(out, ", \"operation\": ");
        jstr(out, nfy_report_op_type_name(f->op));
    }
    if (f->api) {
        nfy_buf_addstr(out, ", \"api\": ");
        jstr(out, f->api);
    }
    nfy_buf_addstr(out, "}}");
}

static void write_rules(nfy_buf *out, const nfy_report *rep,
                        const nfy__rule_count_vec *rules)
{
    nfy_buf_addstr(out, "\"rules\": [");
    for (size_t i = 0; i < rules->len; i++) {
        const char *id = rules->items[i].rule;
        const char *desc =
            rep->rule_desc ? rep->rule_desc(rep->rule_desc_ctx, id) : NULL;
        nfy_buf_addstr(out, i ? ",\n        {\"id\": " : "\n        {\"id\": ");
        jstr(out, id);
        if (desc) {
            nfy_buf_addstr(out, ", \"shortDescription\": {\"text\": ");
            jstr(out, desc);
            nfy_buf_addch(out, '}');
        }
        nfy_buf_addch(out, '}');
    }
    nfy_buf_addstr(out, rules->len ? "\n      ]" : "]");
}

static void write_base_ids(nfy_buf *out, const char *source)
{
    nfy_buf_addstr(out, "\"originalUriBaseIds\": {\"SRCROOT\": {");
    if (source && source[0] == '/') {
        nfy_buf uri = NFY_BUF_INIT;
        nfy_buf_addstr(&uri, "file://");
        uri_encode(&uri, source);
        if (uri.data[uri.len - 1] != '/')
            nfy_buf_addch(&uri, '/');
        nfy_buf_addstr(out, "\"uri\": ");
        jstr(out, nfy_buf_cstr(&uri));
        nfy_buf_release(&uri);
    } else {
        nfy_buf_addstr(out, "\"description\": {\"text\": ");
        nfy_buf text = NFY_BUF_INIT;
        nfy_buf_addf(&text,
                     "the directory npuify ran in (the source: %s as given); "
                     "every uri is the path from there",
                     source ? source : ".");
        jstr(out, nfy_buf_cstr(&text));
        nfy_buf_release(&text);
        nfy_buf_addch(out, '}');
    }
    nfy_buf_addstr(out, "}}");
}

void nfy__report_render_sarif(const nfy__sorted *v, nfy_buf *out)
{
    const nfy_report *rep = v->rep;
    nfy__rule_count_vec rules = {0};
    nfy__report_rule_counts(rep, nfy__report_any_finding, &rules);
    nfy_buf_addstr(out, "{\n  \"$schema\": "
                        "\"https://json.schemastore.org/sarif-2.1.0.json\",\n"
                        "  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
                        "    \"tool\": {\"driver\": {\"name\": \"npuify\", "
                        "\"version\": ");
    jstr(out, rep->meta.tool_version ? rep->meta.tool_version : "0");
    nfy_buf_addstr(out, ",\n      ");
    write_rules(out, rep, &rules);
    nfy_buf_addstr(out, "}},\n    ");
    write_base_ids(out, rep->meta.source);
    nfy_buf_addstr(out, ",\n    \"columnKind\": \"unicodeCodePoints\",\n"
                        "    \"results\": [");
    for (size_t i = 0; i < v->n; i++) {
        nfy_finding buf;
        nfy_buf_addstr(out, i ? ",\n      " : "\n      ");
        write_result(out, rep->meta.file_root,
                     nfy__report_sorted_at(v, i, &buf), &rules);
    }
    nfy_buf_addstr(out, v->n ? "\n    ]\n  }]\n}\n" : "]\n  }]\n}\n");
    nfy_vec_free(&rules);
}

void nfy_report_render_sarif(const nfy_report *rep, nfy_buf *out)
{
    nfy__report_render_sorted(rep, nfy__report_render_sarif, out);
}
