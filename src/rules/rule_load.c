/*
 * Loading rule files: read, parse with jansson (duplicate keys rejected),
 * pick the schema, convert, check IDs across the file and the set, and only
 * then add the rules, so a bad file adds nothing. Errors carry file:line:col:
 * jansson's byte position for syntax errors, a walk of the text along the
 * key path (json_pos.c) for schema errors.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules_internal.h"

/* Rule files are small; anything bigger is not a rule file. */
#define RULES_FILE_MAX ((size_t)16 << 20)

void nfy__rules_push_key(rules_loader *ld, const char *key)
{
    if (ld->depth < RULES_PATH_MAX)
        ld->path[ld->depth] = (rules_path_step){key, 0};
    ld->depth++;
}

void nfy__rules_push_index(rules_loader *ld, size_t index)
{
    if (ld->depth < RULES_PATH_MAX)
        ld->path[ld->depth] = (rules_path_step){NULL, index};
    ld->depth++;
}

void nfy__rules_pop(rules_loader *ld)
{
    if (ld->depth > 0)
        ld->depth--;
}

static void path_text(const rules_loader *ld, nfy_buf *out)
{
    size_t n = ld->depth < RULES_PATH_MAX ? ld->depth : RULES_PATH_MAX;
    for (size_t i = 0; i < n; i++) {
        if (ld->path[i].key)
            nfy_buf_addf(out, "%s%s", i ? "." : "", ld->path[i].key);
        else
            nfy_buf_addf(out, "[%zu]", ld->path[i].index);
    }
    if (n == 0)
        nfy_buf_addstr(out, "(root)");
}

/* The error at the current path, at byte `inner` of its string value
 * (SIZE_MAX: at the value or key itself). */
static void rules_verror(rules_loader *ld, bool at_key, size_t inner,
                         const char *fmt, va_list ap)
{
    nfy_buf msg = NFY_BUF_INIT;
    path_text(ld, &msg);
    nfy_buf_addstr(&msg, ": ");
    nfy_buf_vaddf(&msg, fmt, ap);
    size_t depth = ld->depth < RULES_PATH_MAX ? ld->depth : RULES_PATH_MAX;
    size_t off = nfy__rules_json_locate(ld->src->data, ld->src->len, ld->path,
                                        depth, at_key);
    if (inner != SIZE_MAX)
        off = nfy__rules_json_string_byte(ld->src->data, ld->src->len, off,
                                          inner);
    nfy_diag_add(ld->diags, NFY_SEV_ERROR, "rule-invalid", ld->src,
                 (uint32_t)off, 1, "%s", nfy_buf_cstr(&msg));
    nfy_buf_release(&msg);
    ld->errors++;
}

void nfy__rules_error(rules_loader *ld, bool at_key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rules_verror(ld, at_key, SIZE_MAX, fmt, ap);
    va_end(ap);
}

void nfy__rules_error_in(rules_loader *ld, size_t inner, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rules_verror(ld, false, inner, fmt, ap);
    va_end(ap);
}

nfy_rule *nfy__rules_new_rule(rules_loader *ld)
{
    nfy_rule *r = nfy_arena_calloc(&ld->set->arena, 1, sizeof *r);
    r->arg_pos = -1;
    r->severity = NFY_SEV_WARNING;
    r->enabled = true;
    r->pass = NFY_PASS_NONE;
    r->origin = ld->origin;
    r->pattern = "";
    return r;
}

const char *nfy__rules_dup(rules_loader *ld, const json_t *str)
{
    return nfy_arena_strndup(&ld->set->arena, json_string_value(str),
                             json_string_length(str));
}

/* A rule of the file by id, with its place in the file. */
typedef struct {
    const char *id;
    size_t at;
} id_entry;

static int id_entry_cmp(const void *a, const void *b)
{
    const id_entry *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

static bool in_file(const id_entry *by, size_t n, const char *id)
{
    id_entry key = {id, 0};
    size_t lo = 0, hi = n;
    while (lo < hi) { /* the first entry not below (id, 0) */
        size_t mid = lo + (hi - lo) / 2;
        if (id_entry_cmp(&by[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && !strcmp(by[lo].id, id);
}

/* by[] sorted by id and place; dup[at]: an earlier rule has its id. */
static bool sort_ids(const rules_loader *ld, id_entry **by, bool **dup)
{
    size_t n = ld->out.len;
    *by = malloc((n ? n : 1) * sizeof **by);
    *dup = calloc(n ? n : 1, sizeof **dup);
    if (!*by || !*dup)
        return false;
    for (size_t i = 0; i < n; i++)
        (*by)[i] = (id_entry){ld->out.items[i]->id, i};
    qsort(*by, n, sizeof **by, id_entry_cmp);
    for (size_t i = 1; i < n; i++)
        if (!strcmp((*by)[i - 1].id, (*by)[i].id))
            (*dup)[(*by)[i].at] = true;
    return true;
}

/*
 * The file's rules must have unique IDs, new to the set; fallbacks exist.
 * One sort by id answers both, so 100k rules are checked in O(n log n),
 * not pair by pair.
 */
static void check_ids(rules_loader *ld)
{
    id_entry *by;
    bool *dup;
    if (!sort_ids(ld, &by, &dup)) {
        free(by);
        free(dup);
        nfy__rules_error(ld, false, "out of memory checking the rule ids");
        return;
    }
    for (size_t i = 0; i < ld->out.len; i++) {
        const nfy_rule *r = ld->out.items[i];
        nfy__rules_push_key(ld, "rules");
        nfy__rules_push_index(ld, ld->ours ? i : 0);
        nfy__rules_push_key(ld, "id");
        if (dup[i] || nfy_rules_set_find(ld->set, r->id) != NULL)
            nfy__rules_error(ld, false, "duplicate rule id '%s'", r->id);
        nfy__rules_pop(ld);
        if (r->fallback && !nfy_rules_set_find(ld->set, r->fallback) &&
            !in_file(by, ld->out.len, r->fallback)) {
            nfy__rules_push_key(ld, "fallback");
            nfy__rules_error(ld, false, "fallback '%s' is no rule id",
                             r->fallback);
            nfy__rules_pop(ld);
        }
        nfy__rules_pop(ld);
        nfy__rules_pop(ld);
    }
    free(by);
    free(dup);
}

static nfy_status load_json(rules_loader *ld)
{
    json_error_t err;
    json_t *root =
        json_loadb(ld->src->data, ld->src->len, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        size_t pos = (size_t)err.position;
        uint32_t off = (uint32_t)(pos > 0 ? pos - 1 : 0);
        /* jansson stops after a duplicate key: point at its opening quote */
        if (!strncmp(err.text, "duplicate object key", 20) &&
            off < ld->src->len && ld->src->data[off] == '"')
            while (off > 0 && (ld->src->data[--off] != '"' ||
                               (off > 0 && ld->src->data[off - 1] == '\\')))
                ;
        nfy_diag_add(ld->diags, NFY_SEV_ERROR, "rule-json", ld->src, off, 1,
                     "invalid JSON: %s", err.text);
        return NFY_ESYNTAX;
    }
    json_t *rules =
        json_is_object(root) ? json_object_get(root, "rules") : NULL;
    if (!json_is_object(root)) {
        nfy__rules_error(ld, false, "a rule file is a JSON object");
    } else if (json_is_object(rules)) {
        nfy__rules_load_msft(ld, root);
    } else {
        ld->ours = true;
        nfy__rules_load_ours(ld, root);
    }
    json_decref(root);
    if (ld->errors == 0)
        check_ids(ld);
    return ld->errors ? NFY_ERULE : NFY_OK;
}

nfy_status nfy_rules_load_mem(nfy_rule_set *set, const char *name,
                              const char *text, size_t len, nfy_diags *diags)
{
    if (!set || !name || (!text && len))
        return NFY_EUSAGE;
    nfy_source src;
    nfy_status st = nfy_source_from_mem(&src, name, text ? text : "", len);
    if (st != NFY_OK)
        return st;
    nfy_diags local;
    nfy_diags_init(&local);
    rules_loader ld = {
        .set = set, .src = &src, .diags = diags ? diags : &local};
    ld.origin = nfy_arena_strndup(&set->arena, name, strlen(name));
    st = load_json(&ld);
    if (st == NFY_OK) {
        for (size_t i = 0; i < ld.out.len; i++)
            nfy_vec_push(&set->rules, ld.out.items[i]);
        nfy__rules_reindex(set);
    }
    nfy_vec_free(&ld.out);
    nfy_diags_release(&local);
    nfy_source_release(&src);
    return st;
}

nfy_status nfy_rules_load_file(nfy_rule_set *set, const char *path,
                               nfy_diags *diags)
{
    if (!set || !path)
        return NFY_EUSAGE;
    nfy_buf text = NFY_BUF_INIT;
    nfy_status st = nfy_file_read(path, RULES_FILE_MAX, &text);
    if (st != NFY_OK) {
        if (diags)
            nfy_diag_add_at(diags, NFY_SEV_ERROR, "rule-file", path, 0, 0,
                            "cannot read rule file: %s", nfy_status_str(st));
        nfy_buf_release(&text);
        return st;
    }
    st = nfy_rules_load_mem(set, path, text.data, text.len, diags);
    nfy_buf_release(&text);
    return st;
}
