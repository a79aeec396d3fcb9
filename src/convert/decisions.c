/*
 * Decisions files (review.h): read as a stream (only one entry is held as
 * JSON at a time, each parsed by jansson with its own line), checked
 * against SRC as it is now, and the lookup convert uses to keep only
 * accepted edits.
 */
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "review/review.h"

#define SCHEMA "npuify-decisions/2"
enum {
    ENTRY_MAX = 4 << 20, /* bytes of one entry (its anchor lines included) */
    KEY_MAX = 64,
    SCALAR_MAX = 64 << 10, /* schema and source */
};

struct nfy_decisions {
    nfy_arena arena;
    const char **accepted; /* sorted ids */
    size_t naccepted;
    const char **known; /* every id of the file, sorted */
    size_t count;
};

typedef struct {
    const char *id, *file, *rule, *before, *anchor;
    bool accept, create, bad;
    uint32_t line; /* the edit's line in its file */
    uint32_t at;   /* the entry's line in the decisions file */
    size_t index;  /* in the edits array */
} entry;

/* The file being read, the problems found so far (a few are printed). */
typedef struct {
    FILE *f;
    const char *path;
    uint32_t line, col;
    nfy_diags *diags;
    size_t errors;
    nfy_arena *a;
    NFY_VEC(entry) entries;
    const char *schema, *source;
    uint32_t source_at;
} reader;

static void problem(reader *r, const char *file, uint32_t line, uint32_t col,
                    const char *fmt, ...) NFY_PRINTF(5, 6);
static void problem(reader *r, const char *file, uint32_t line, uint32_t col,
                    const char *fmt, ...)
{
    if (r->errors++ >= NFY_DECISIONS_MAX_ERRORS)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *msg = nfy_arena_vfmt(r->a, fmt, ap);
    va_end(ap);
    nfy_diag_add_at(r->diags, NFY_SEV_ERROR,
                    file == r->path ? "decisions" : "decisions-stale", file,
                    line, col, "%s", msg);
}

/* ---- the stream: characters with their line and column ---------------- */

static int next(reader *r)
{
    int c = getc_unlocked(r->f);
    if (c == '\n') {
        r->line++;
        r->col = 0;
    } else if (c != EOF) {
        r->col++;
    }
    return c;
}

static void back(reader *r, int c)
{
    if (c == EOF)
        return;
    ungetc(c, r->f);
    if (c == '\n')
        r->line--; /* read again at once by next(), which sets col to 0 */
    else
        r->col--;
}

static int skip_ws(reader *r)
{
    int c;
    while ((c = next(r)) == ' ' || c == '\t' || c == '\n' || c == '\r')
        ;
    return c;
}

static bool keep_byte(nfy_buf *out, size_t max, int c)
{
    if (!out)
        return true;
    if (out->len >= max)
        return false;
    return nfy_buf_addch(out, (char)c) == NFY_OK;
}

/* The rest of a string whose '"' was read (kept raw, escapes as they are). */
static bool string_rest(reader *r, nfy_buf *out, size_t max)
{
    for (int c; (c = next(r)) != EOF;) {
        if (!keep_byte(out, max, c))
            return false;
        if (c == '"')
            return true;
        if (c == '\\') {
            c = next(r);
            if (c == EOF || !keep_byte(out, max, c))
                return false;
        }
    }
    return false;
}

/*
 * One value starting with c, its raw text into out (NULL: skipped) up to
 * max bytes. Brackets are only counted: what is kept is parsed by jansson.
 */
static bool value(reader *r, int c, nfy_buf *out, size_t max)
{
    size_t depth = 0;
    for (;; c = next(r)) {
        if (c == EOF)
            return false;
        if (depth == 0 && (c == ',' || c == '}' || c == ']' || c == ' ' ||
                           c == '\t' || c == '\n' || c == '\r')) {
            back(r, c);
            return true;
        }
        if (!keep_byte(out, max, c))
            return false;
        if (c == '"') {
            if (!string_rest(r, out, max))
                return false;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (depth-- == 0)
                return false;
        }
        if (depth == 0 && (c == '"' || c == '}' || c == ']'))
            return true;
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* ---- one entry -------------------------------------------------------- */

static void read_entry(reader *r, const nfy_buf *raw, uint32_t at, size_t i)
{
    entry e = {.at = at, .index = i, .bad = true};
    json_error_t err;
    json_t *j = json_loadb(raw->data, raw->len, 0, &err);
    const char *id, *file, *rule, *before, *decision, *anchor = NULL;
    json_int_t line;
    int create = 0;
    if (!j) { /* said here, not again as a bad entry */
        problem(r, r->path, at + (uint32_t)(err.line > 0 ? err.line - 1 : 0), 0,
                "edits[%zu]: %s", i, err.text);
        return;
    }
    if (json_unpack(j, "{s:s, s:s, s:I, s:s, s:s, s?s, s:s, s?b}", "id", &id,
                    "file", &file, "line", &line, "rule", &rule, "before",
                    &before, "anchor", &anchor, "decision", &decision, "create",
                    &create) == 0 &&
        (!strcmp(decision, "accept") || !strcmp(decision, "reject")) &&
        line >= 0 && line <= UINT32_MAX &&
        (create ? !before[0] && !anchor : anchor != NULL)) {
        e = (entry){nfy_arena_strdup(r->a, id),
                    nfy_arena_strdup(r->a, file),
                    nfy_arena_strdup(r->a, rule),
                    nfy_arena_strdup(r->a, before),
                    anchor ? nfy_arena_strdup(r->a, anchor) : NULL,
                    !strcmp(decision, "accept"),
                    create != 0,
                    false,
                    (uint32_t)line,
                    at,
                    i};
    }
    json_decref(j);
    nfy_vec_push(&r->entries, e);
}

/* The edits array, its '[' read. */
static bool edits(reader *r)
{
    nfy_buf raw = NFY_BUF_INIT;
    int c = skip_ws(r);
    bool ok = true;
    for (size_t i = 0; c != ']'; i++) {
        uint32_t at = r->line;
        nfy_buf_reset(&raw);
        if (c != '{' || !value(r, c, &raw, ENTRY_MAX)) {
            problem(r, r->path, r->line, r->col,
                    raw.len >= ENTRY_MAX
                        ? "edits[%zu]: an entry over 4 MiB"
                        : "edits[%zu]: not an object, or the file ends in it",
                    i);
            ok = false;
            break;
        }
        read_entry(r, &raw, at, i);
        c = skip_ws(r);
        if (c == ',')
            c = skip_ws(r);
        else if (c != ']') {
            problem(r, r->path, r->line, r->col,
                    "expected ',' or ']' after edits[%zu]", i);
            ok = false;
            break;
        }
    }
    nfy_buf_release(&raw);
    return ok;
}

/* A string value (schema, source) decoded by jansson, or NULL. */
static const char *string_value(reader *r, int c)
{
    nfy_buf raw = NFY_BUF_INIT;
    const char *s = NULL;
    if (value(r, c, &raw, SCALAR_MAX)) {
        json_t *j = json_loadb(raw.data, raw.len, JSON_DECODE_ANY, NULL);
        if (json_is_string(j))
            s = nfy_arena_strdup(r->a, json_string_value(j));
        json_decref(j);
    }
    nfy_buf_release(&raw);
    return s;
}

/* {"schema": ..., "source": ..., "edits": [...]}, other keys skipped. */
static bool document(reader *r, bool *have_edits)
{
    nfy_buf key = NFY_BUF_INIT;
    bool ok = false;
    int c = skip_ws(r);
    if (c != '{')
        goto out;
    c = skip_ws(r);
    while (c != '}') {
        nfy_buf_reset(&key);
        if (c != '"' || !string_rest(r, &key, KEY_MAX) || skip_ws(r) != ':')
            goto out;
        const char *k = nfy_buf_cstr(&key);
        c = skip_ws(r);
        if (!strcmp(k, "edits\"")) {
            if (c != '[' || !edits(r))
                goto out;
            *have_edits = true;
        } else if (!strcmp(k, "schema\"")) {
            r->schema = string_value(r, c);
        } else if (!strcmp(k, "source\"")) {
            r->source_at = r->line;
            r->source = string_value(r, c);
        } else if (!value(r, c, NULL, 0)) {
            goto out;
        }
        c = skip_ws(r);
        if (c == ',')
            c = skip_ws(r);
        else if (c != '}')
            goto out;
    }
    ok = skip_ws(r) == EOF;
out:
    nfy_buf_release(&key);
    return ok;
}

/* ---- checks against SRC ----------------------------------------------- */

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* A path under SRC: relative, no ".." part. */
static bool inside(const char *file)
{
    if (!*file || *file == '/')
        return false;
    for (const char *p = file; p; p = strchr(p, '/'), p = p ? p + 1 : p)
        if (!strncmp(p, "..", 2) && (p[2] == '/' || !p[2]))
            return false;
    return true;
}

/* Does the entry's id name its file: "FILE:RULE:HASH" (FILE:0:... made)? */
static bool id_of_file(const entry *e)
{
    size_t n = strlen(e->file);
    if (strncmp(e->id, e->file, n) || e->id[n] != ':')
        return false;
    const char *rest = e->id + n + 1;
    if (e->create)
        return true;
    const char *colon = strchr(rest, ':');
    return colon && !strchr(colon + 1, ':');
}

/* The id's own file: everything before its last two ':' parts. */
static const char *file_of_id(nfy_arena *a, const char *id)
{
    const char *h = strrchr(id, ':');
    const char *r = h ? h : id;
    while (r > id && r[-1] != ':')
        r--;
    return r > id ? nfy_arena_strndup(a, id, (size_t)(r - 1 - id)) : "";
}

/* (A review of one file names it as given; only SRC itself is read.) */
static void check_entries(reader *r, bool root_is_file)
{
    for (size_t i = 0; i < r->entries.len; i++) {
        const entry *e = &r->entries.items[i];
        if (e->bad)
            problem(r, r->path, e->at, 0,
                    "edits[%zu]: needs id, file, line, rule, before, anchor "
                    "and decision (accept or reject); create: before empty, "
                    "no anchor",
                    e->index);
        else if (!root_is_file && !inside(e->file))
            problem(r, r->path, e->at, 0,
                    "edits[%zu]: file \"%s\" is not a path under the source",
                    e->index, e->file);
        else if (!id_of_file(e))
            problem(r, r->path, e->at, 0,
                    "edits[%zu]: edit %s is of %s, but the entry says file "
                    "\"%s\"",
                    e->index, e->id, file_of_id(r->a, e->id), e->file);
    }
}

static int cmp_by_id(const void *pa, const void *pb)
{
    const entry *a = *(const entry *const *)pa, *b = *(const entry *const *)pb;
    int c = strcmp(a->id, b->id);
    return c ? c : (a->at > b->at) - (a->at < b->at);
}

static int cmp_by_file(const void *pa, const void *pb)
{
    const entry *a = *(const entry *const *)pa, *b = *(const entry *const *)pb;
    int c = strcmp(a->file, b->file);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* One id decided twice: the same way is once; both ways is refused. */
static void check_twice(reader *r, const entry **v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_by_id);
    for (size_t i = 1; i < n; i++)
        if (!strcmp(v[i - 1]->id, v[i]->id) && v[i - 1]->accept != v[i]->accept)
            problem(r, r->path, v[i]->at, 0,
                    "edit %s is %s here but %s at line %u: decide it once",
                    v[i]->id, v[i]->accept ? "accepted" : "rejected",
                    v[i - 1]->accept ? "accepted" : "rejected", v[i - 1]->at);
}

/* A file's lines sorted by their text, to find where an anchor starts. */
typedef struct {
    nfy_str text;
    uint32_t line;
} line_key;

static int cmp_text(nfy_str a, nfy_str b)
{
    int c = memcmp(a.ptr, b.ptr, a.len < b.len ? a.len : b.len);
    return c ? c : (a.len > b.len) - (a.len < b.len);
}

static int cmp_key(const void *pa, const void *pb)
{
    const line_key *a = pa, *b = pb;
    int c = cmp_text(a->text, b->text);
    return c ? c : (a->line > b->line) - (a->line < b->line);
}

static line_key *index_lines(const nfy_source *src)
{
    line_key *v = malloc((src->nlines ? src->nlines : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (uint32_t l = 1; l <= src->nlines; l++)
        v[l - 1] = (line_key){nfy_source_line(src, l), l};
    qsort(v, src->nlines, sizeof *v, cmp_key);
    return v;
}

/* Do the lines from l on read as the rest of an anchor, p (after a '\n')? */
static bool rest_matches(const nfy_source *src, uint32_t l, const char *p)
{
    for (; p; l++) {
        const char *q = strchr(p, '\n');
        nfy_str want = {p, q ? (size_t)(q - p) : strlen(p)};
        if (l > src->nlines || cmp_text(nfy_source_line(src, l), want))
            return false;
        p = q ? q + 1 : NULL;
    }
    return true;
}

/* Does src hold the lines of anchor ('\n' between them) one after another? */
static bool holds_anchor(const nfy_source *src, const line_key *v,
                         const char *anchor)
{
    const char *nl = strchr(anchor, '\n');
    nfy_str head = {anchor, nl ? (size_t)(nl - anchor) : strlen(anchor)};
    size_t lo = 0, hi = src->nlines; /* the first line not below head */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_text(v[mid].text, head) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < src->nlines && !cmp_text(v[lo].text, head); lo++)
        if (!nl || rest_matches(src, v[lo].line + 1, nl + 1))
            return true;
    return false;
}

/* The file an entry names: src_root itself when the review was of a file.
 * The page names it as reports do (nfy_name_escape): its raw bytes back. */
static const char *entry_path(nfy_arena *a, const char *src_root,
                              bool root_is_file, const char *file)
{
    if (root_is_file)
        return src_root;
    nfy_buf raw = NFY_BUF_INIT;
    if (nfy_name_unescape(&raw, file, strlen(file)))
        file = nfy_arena_strndup(a, raw.data ? raw.data : "", raw.len);
    nfy_buf_release(&raw);
    return nfy_path_join(a, src_root, file);
}

/* Every edit's anchor still in its file (each file read once); else stale. */
static void check_stale(reader *r, const char *src_root, bool root_is_file,
                        const entry **v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_by_file);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && !strcmp(v[j]->file, v[i]->file))
            j++;
        nfy_source src = {0};
        const char *path = entry_path(r->a, src_root, root_is_file, v[i]->file);
        nfy_status rc = nfy_source_load(&src, path, 0);
        line_key *keys = rc == NFY_OK ? index_lines(&src) : NULL;
        for (size_t k = i; k < j; k++) {
            const entry *e = v[k];
            /* named as the user opens it: SRC as given, then the file */
            if (!keys)
                problem(r, path, e->line, 0,
                        "edit %s: the file cannot be read any more (%s); "
                        "run npuify review again",
                        e->id, nfy_status_str(rc ? rc : NFY_ENOMEM));
            else if (!holds_anchor(&src, keys, e->anchor))
                problem(r, path, e->line, 0,
                        "edit %s (%s) no longer matches the source: the "
                        "review saw \"%s\" in the line \"%.120s\"; run npuify "
                        "review again",
                        e->id, e->rule, e->before, e->anchor);
        }
        free(keys);
        if (rc == NFY_OK)
            nfy_source_release(&src);
        i = j;
    }
}

static void check_source(reader *r, const char *src_root)
{
    if (!r->schema || strcmp(r->schema, SCHEMA)) {
        problem(r, r->path, 1, 0, "%s",
                r->schema && !strcmp(r->schema, "npuify-decisions/1")
                    ? "made by an older npuify (its edit ids were byte "
                      "offsets): run npuify review again"
                    : "not a decisions file (schema " SCHEMA
                      " with an edits array)");
        return;
    }
    if (!r->source || !same_file(r->source, src_root))
        problem(r, r->path, r->source_at ? r->source_at : 1, 0,
                "the review was of \"%s\", not of %s: run npuify review %s",
                r->source ? r->source : "(no source)", src_root, src_root);
}

/* ---- loading ---------------------------------------------------------- */

static nfy_status open_stream(reader *r, nfy_diags *diags)
{
    int fd;
    struct stat st;
    nfy_status rc = nfy_file_open_read(r->path, &fd, &st);
    if (rc) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "decisions", r->path, 0, 0,
                        "cannot read: %s", nfy_status_str(rc));
        return NFY_EIO;
    }
    if ((size_t)st.st_size > NFY_DECISIONS_MAX_BYTES) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "decisions", r->path, 0, 0,
                        "%lld bytes, over the %zu MiB a decisions file may "
                        "have",
                        (long long)st.st_size, NFY_DECISIONS_MAX_BYTES >> 20);
        close(fd);
        return NFY_ELIMIT;
    }
    r->f = fdopen(fd, "rb");
    if (!r->f) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "decisions", r->path, 0, 0,
                        "cannot read: %s", strerror(errno));
        close(fd);
        return NFY_EIO;
    }
    return NFY_OK;
}

/* The ids of the checked entries, sorted, into d. */
static void keep_ids(nfy_decisions *d, const entry *const *v, size_t n)
{
    d->accepted = nfy_arena_alloc(&d->arena, (n ? n : 1) * sizeof(char *));
    d->known = nfy_arena_alloc(&d->arena, (n ? n : 1) * sizeof(char *));
    for (size_t i = 0; i < n; i++) {
        d->known[d->count++] = v[i]->id;
        if (v[i]->accept)
            d->accepted[d->naccepted++] = v[i]->id;
    }
    qsort(d->accepted, d->naccepted, sizeof(char *), cmp_str);
    qsort(d->known, d->count, sizeof(char *), cmp_str);
}

static nfy_status check_all(reader *r, const char *src_root, bool have_edits,
                            nfy_decisions *d)
{
    size_t before = r->errors;
    if (!have_edits && !r->errors)
        problem(r, r->path, 1, 0,
                "not a decisions file (schema " SCHEMA " with an edits array)");
    check_source(r, src_root);
    if (r->errors > before)
        return NFY_ESYNTAX;
    struct stat sst;
    bool root_is_file = stat(src_root, &sst) == 0 && !S_ISDIR(sst.st_mode);
    check_entries(r, root_is_file);
    size_t n = r->entries.len;
    const entry **v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return NFY_ENOMEM;
    for (size_t i = 0; i < n; i++)
        v[i] = &r->entries.items[i];
    if (!r->errors)
        check_twice(r, v, n);
    nfy_status st = r->errors ? NFY_ESYNTAX : NFY_OK;
    /* a created file's id hashes its whole text: a text that changed
     * since the review is a new id, not applied, and not stale */
    size_t m = 0;
    for (size_t i = 0; !st && i < n; i++)
        if (!v[i]->create)
            v[m++] = v[i];
    if (!st) {
        check_stale(r, src_root, root_is_file, v, m);
        st = r->errors ? NFY_ERULE : NFY_OK;
    }
    if (!st) {
        for (size_t i = 0; i < n; i++)
            v[i] = &r->entries.items[i];
        keep_ids(d, v, n);
    }
    free(v);
    return st;
}

nfy_status nfy_convert_decisions_load(const char *path, const char *src_root,
                                      nfy_decisions **out, nfy_diags *diags)
{
    *out = NULL;
    nfy_decisions *d = calloc(1, sizeof *d);
    if (!d)
        return NFY_ENOMEM;
    nfy_arena_init(&d->arena);
    reader r = {.path = path, .line = 1, .diags = diags, .a = &d->arena};
    nfy_status st = open_stream(&r, diags);
    bool have_edits = false;
    if (!st && !document(&r, &have_edits)) {
        if (!r.errors)
            problem(&r, path, r.line, r.col, "%s",
                    ferror(r.f) ? strerror(errno)
                                : "not JSON here (a decisions file is one "
                                  "object: schema, source, edits)");
        st = NFY_ESYNTAX;
    }
    if (!st)
        st = check_all(&r, src_root, have_edits, d);
    if (r.errors > NFY_DECISIONS_MAX_ERRORS)
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "decisions", path, 0, 0,
                        "%zu more problems not shown",
                        r.errors - NFY_DECISIONS_MAX_ERRORS);
    if (r.f)
        fclose(r.f);
    nfy_vec_free(&r.entries);
    if (st) {
        nfy_convert_decisions_free(d);
        return st;
    }
    *out = d;
    return NFY_OK;
}

void nfy_convert_decisions_free(nfy_decisions *d)
{
    if (!d)
        return;
    nfy_arena_release(&d->arena);
    free(d);
}

bool nfy_convert_decisions_accepts(const nfy_decisions *d, const char *id)
{
    return d && id &&
           bsearch(&id, d->accepted, d->naccepted, sizeof(char *), cmp_str);
}

bool nfy_convert_decisions_knows(const nfy_decisions *d, const char *id)
{
    return d && id && bsearch(&id, d->known, d->count, sizeof(char *), cmp_str);
}

size_t nfy_convert_decisions_count(const nfy_decisions *d, size_t *accepted)
{
    if (accepted)
        *accepted = d ? d->naccepted : 0;
    return d ? d->count : 0;
}
