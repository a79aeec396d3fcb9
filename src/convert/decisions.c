/*
 * Decisions files (review.h): loading, the check against the source as it
 * is now, and the lookup convert uses to keep only accepted edits.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "review/review.h"

struct nfy_decisions {
    nfy_arena arena;
    const char **accepted; /* sorted ids */
    size_t naccepted;
    const char **known; /* every id of the file, sorted */
    size_t count;
};

typedef struct {
    const char *id, *file, *rule, *before, *decision;
    json_int_t line, start, end;
    int create; /* a file convert creates: nothing in SRC to check */
} entry;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool read_entry(json_t *j, entry *e)
{
    e->create = 0;
    return json_unpack(j, "{s:s, s:s, s:I, s:s, s:I, s:I, s:s, s:s, s?b}", "id",
                       &e->id, "file", &e->file, "line", &e->line, "rule",
                       &e->rule, "start", &e->start, "end", &e->end, "before",
                       &e->before, "decision", &e->decision, "create",
                       &e->create) == 0 &&
           (!strcmp(e->decision, "accept") || !strcmp(e->decision, "reject")) &&
           e->start >= 0 && e->end >= e->start &&
           (!e->create || (e->end == 0 && !e->before[0]));
}

/* The file an entry names: src_root itself when the review was of a file.
 * The page names it as reports do (nfy_name_escape): its raw bytes back. */
static const char *entry_path(nfy_arena *a, const char *src_root,
                              const char *file)
{
    struct stat st;
    if (stat(src_root, &st) == 0 && !S_ISDIR(st.st_mode))
        return src_root;
    nfy_buf raw = NFY_BUF_INIT;
    if (nfy_name_unescape(&raw, file, strlen(file)))
        file = nfy_arena_strndup(a, raw.data ? raw.data : "", raw.len);
    nfy_buf_release(&raw);
    return nfy_path_join(a, src_root, file);
}

/* Does the source still hold e->before at [start, end)? */
static bool entry_matches(nfy_arena *a, const char *src_root, const entry *e,
                          nfy_diags *diags)
{
    nfy_buf text = NFY_BUF_INIT;
    const char *path = entry_path(a, src_root, e->file);
    size_t blen = strlen(e->before);
    bool ok = false;
    if (nfy_file_read(path, NFY_SOURCE_MAX_BYTES, &text) != NFY_OK) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "decisions-stale", e->file,
                        (uint32_t)e->line, 0,
                        "edit %s: the file cannot be read any more; run "
                        "npuify review again",
                        e->id);
    } else if ((size_t)e->end > text.len ||
               (size_t)(e->end - e->start) != blen ||
               memcmp(text.data + e->start, e->before, blen)) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "decisions-stale", e->file,
                        (uint32_t)e->line, 0,
                        "edit %s (%s) no longer matches the source: the "
                        "review saw \"%s\" there; run npuify review again",
                        e->id, e->rule, e->before);
    } else {
        ok = true;
    }
    nfy_buf_release(&text);
    return ok;
}

static nfy_status load_entries(json_t *edits, const char *path,
                               const char *src_root, nfy_decisions *d,
                               nfy_diags *diags)
{
    nfy_status st = NFY_OK;
    size_t n = json_array_size(edits);
    d->accepted = nfy_arena_alloc(&d->arena, (n ? n : 1) * sizeof(char *));
    d->known = nfy_arena_alloc(&d->arena, (n ? n : 1) * sizeof(char *));
    for (size_t i = 0; i < n; i++) {
        entry e;
        if (!read_entry(json_array_get(edits, i), &e)) {
            nfy_diag_add_at(diags, NFY_SEV_ERROR, "decisions", path, 0, 0,
                            "edits[%zu]: needs id, file, line, rule, start, "
                            "end, before and decision (accept or reject); "
                            "create: start and end 0, before empty",
                            i);
            st = NFY_ESYNTAX;
            continue;
        }
        /* A created file's id hashes its whole text: a text that changed
         * since the review is a new id, not applied, and not stale. */
        if (!e.create && !entry_matches(&d->arena, src_root, &e, diags)) {
            st = st ? st : NFY_ERULE;
            continue;
        }
        const char *id = nfy_arena_strdup(&d->arena, e.id);
        d->known[d->count++] = id;
        if (!strcmp(e.decision, "accept"))
            d->accepted[d->naccepted++] = id;
    }
    qsort(d->accepted, d->naccepted, sizeof(char *), cmp_str);
    qsort(d->known, d->count, sizeof(char *), cmp_str);
    return st;
}

nfy_status nfy_decisions_load(const char *path, const char *src_root,
                              nfy_decisions **out, nfy_diags *diags)
{
    *out = NULL;
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    json_t *edits = root ? json_object_get(root, "edits") : NULL;
    const char *schema =
        root ? json_string_value(json_object_get(root, "schema")) : NULL;
    if (!root || !json_is_array(edits) || !schema ||
        strcmp(schema, "npuify-decisions/1")) {
        nfy_diag_add_at(diags, NFY_SEV_ERROR, "decisions", path,
                        root ? 0 : (uint32_t)err.line,
                        root ? 0 : (uint32_t)err.column, "%s",
                        root ? "not a decisions file (schema "
                               "npuify-decisions/1 with an edits array)"
                             : err.text);
        json_decref(root);
        return NFY_ESYNTAX;
    }
    nfy_decisions *d = calloc(1, sizeof *d);
    if (!d) {
        json_decref(root);
        return NFY_ENOMEM;
    }
    nfy_arena_init(&d->arena);
    nfy_status st = load_entries(edits, path, src_root, d, diags);
    json_decref(root);
    if (st) {
        nfy_decisions_free(d);
        return st;
    }
    *out = d;
    return NFY_OK;
}

void nfy_decisions_free(nfy_decisions *d)
{
    if (!d)
        return;
    nfy_arena_release(&d->arena);
    free(d);
}

bool nfy_decisions_accepts(const nfy_decisions *d, const char *id)
{
    return d && id &&
           bsearch(&id, d->accepted, d->naccepted, sizeof(char *), cmp_str);
}

bool nfy_decisions_knows(const nfy_decisions *d, const char *id)
{
    return d && id && bsearch(&id, d->known, d->count, sizeof(char *), cmp_str);
}

size_t nfy_decisions_count(const nfy_decisions *d, size_t *accepted)
{
    if (accepted)
        *accepted = d ? d->naccepted : 0;
    return d ? d->count : 0;
}
