/*
 * Edit sets: adding with bounds checks, normalizing (stable sort, merging
 * identical duplicates, dropping overlaps with a diagnostic), applying in one
 * pass, mapping offsets and building the inverse set. The unified diff lives
 * in diff.c. See src/edit/edit.h for the rules.
 */
#include <stdlib.h>
#include <string.h>

#include "edit/edit.h"

void nfy_edit_set_init(nfy_edit_set *set, const nfy_source *src)
{
    memset(set, 0, sizeof *set);
    set->src = src;
    nfy_arena_init(&set->arena);
    set->normalized = true;
}

void nfy_edit_set_release(nfy_edit_set *set)
{
    nfy_vec_free(&set->edits);
    nfy_arena_release(&set->arena);
    set->normalized = true;
}

static const char *copy_cstr(nfy_arena *a, const char *s)
{
    return s ? nfy_arena_strdup(a, s) : "";
}

nfy_status nfy_edit_set_add(nfy_edit_set *set, uint32_t start, uint32_t end,
                            nfy_str text, const char *rule, const char *note,
                            nfy_diags *diags)
{
    size_t len = set->src->len;
    if (start > end || end > len) {
        if (diags)
            nfy_diag_add(diags, NFY_SEV_ERROR, "edit-range", set->src,
                         start <= len ? start : (uint32_t)len, 0,
                         "edit [%u, %u) by rule %s is outside the file "
                         "(%zu bytes) or reversed",
                         start, end, rule ? rule : "?", len);
        return NFY_EUSAGE;
    }
    nfy_edit e;
    e.span.start = start;
    e.span.end = end;
    e.text = nfy_arena_str(&set->arena, text);
    e.rule = copy_cstr(&set->arena, rule);
    e.note = copy_cstr(&set->arena, note);
    e.seq = set->next_seq++;
    nfy_vec_push(&set->edits, e);
    set->normalized = false;
    return NFY_OK;
}

nfy_status nfy_edit_set_insert(nfy_edit_set *set, uint32_t at, nfy_str text,
                               const char *rule, const char *note,
                               nfy_diags *diags)
{
    return nfy_edit_set_add(set, at, at, text, rule, note, diags);
}

/* Position order; an insertion sorts before a replacement starting at the
 * same offset because its end is smaller; ties keep the order of addition. */
static int cmp_edit(const void *pa, const void *pb)
{
    const nfy_edit *a = pa;
    const nfy_edit *b = pb;
    if (a->span.start != b->span.start)
        return a->span.start < b->span.start ? -1 : 1;
    if (a->span.end != b->span.end)
        return a->span.end < b->span.end ? -1 : 1;
    if (a->seq != b->seq)
        return a->seq < b->seq ? -1 : 1;
    return 0;
}

static bool same_edit(const nfy_edit *a, const nfy_edit *b)
{
    return a->span.start == b->span.start && a->span.end == b->span.end &&
           nfy_str_eq(a->text, b->text);
}

/* Is e an identical duplicate of an already kept edit? Kept edits with the
 * same span are contiguous at the end of the kept prefix. */
static bool is_duplicate(const nfy_edit *kept, size_t nkept, const nfy_edit *e)
{
    for (size_t i = nkept; i-- > 0;) {
        if (kept[i].span.start != e->span.start)
            break;
        if (same_edit(&kept[i], e))
            return true;
    }
    return false;
}

static void report_overlap(nfy_edit_set *set, nfy_diags *diags,
                           const nfy_edit *dropped, const nfy_edit *kept)
{
    if (!diags)
        return;
    uint32_t kline, kcol;
    nfy_source_linecol(set->src, kept->span.start, &kline, &kcol);
    nfy_diag_add(diags, NFY_SEV_ERROR, "edit-overlap", set->src,
                 dropped->span.start, dropped->span.end - dropped->span.start,
                 "edit by rule %s (%s) overlaps the edit at %u:%u by rule %s "
                 "(%s); dropped",
                 dropped->rule, dropped->note, kline, kcol, kept->rule,
                 kept->note);
}

nfy_status nfy_edit_set_normalize(nfy_edit_set *set, nfy_diags *diags)
{
    if (set->normalized)
        return NFY_OK;
    nfy_edit *v = set->edits.items;
    size_t n = set->edits.len;
    if (n > 1)
        qsort(v, n, sizeof *v, cmp_edit);
    size_t kept = 0;
    size_t last_wide = SIZE_MAX; /* last kept non-empty edit */
    size_t dropped = 0;
    for (size_t i = 0; i < n; i++) {
        nfy_edit e = v[i];
        if (!set->keep_duplicates && is_duplicate(v, kept, &e))
            continue;
        if (last_wide != SIZE_MAX) {
            const nfy_edit *k = &v[last_wide];
            bool wide = e.span.end > e.span.start;
            if (e.span.start < k->span.end &&
                (wide || e.span.start > k->span.start)) {
                report_overlap(set, diags, &e, k);
                dropped++;
                continue;
            }
        }
        if (e.span.end > e.span.start)
            last_wide = kept;
        v[kept++] = e;
    }
    set->edits.len = kept;
    set->dropped += dropped;
    set->normalized = true;
    return dropped ? NFY_ERULE : NFY_OK;
}

static long long edit_delta(const nfy_edit *e)
{
    return (long long)e->text.len - (long long)(e->span.end - e->span.start);
}

size_t nfy_edit_set_result_len(nfy_edit_set *set, nfy_diags *diags)
{
    (void)nfy_edit_set_normalize(set, diags);
    long long len = (long long)set->src->len;
    for (size_t i = 0; i < set->edits.len; i++)
        len += edit_delta(&set->edits.items[i]);
    return (size_t)len;
}

nfy_status nfy_edit_set_apply(nfy_edit_set *set, nfy_diags *diags, nfy_buf *out)
{
    (void)nfy_edit_set_normalize(set, diags);
    const char *data = set->src->data;
    size_t pos = 0;
    nfy_buf_reserve(out, nfy_edit_set_result_len(set, diags));
    for (size_t i = 0; i < set->edits.len; i++) {
        const nfy_edit *e = &set->edits.items[i];
        nfy_buf_add(out, data + pos, e->span.start - pos);
        nfy_buf_addview(out, e->text);
        pos = e->span.end;
    }
    nfy_buf_add(out, data + pos, set->src->len - pos);
    /* An empty result still gets its NUL so cstr/view are well defined. */
    if (!out->data)
        nfy_buf_add(out, "", 0);
    return out->status;
}

uint32_t nfy_edit_set_map_offset(nfy_edit_set *set, uint32_t off)
{
    (void)nfy_edit_set_normalize(set, NULL);
    long long delta = 0;
    for (size_t i = 0; i < set->edits.len; i++) {
        const nfy_edit *e = &set->edits.items[i];
        if (e->span.start > off)
            break;
        bool wide = e->span.end > e->span.start;
        if (wide && off < e->span.end)
            return (uint32_t)((long long)e->span.start + delta);
        delta += edit_delta(e);
    }
    return (uint32_t)((long long)off + delta);
}

nfy_status nfy_edit_set_inverse(nfy_edit_set *set, const nfy_source *edited,
                                nfy_edit_set *inv)
{
    nfy_edit_set_init(inv, edited);
    inv->keep_duplicates = true;
    if (nfy_edit_set_result_len(set, NULL) != edited->len)
        return NFY_EUSAGE;
    long long delta = 0;
    for (size_t i = 0; i < set->edits.len; i++) {
        const nfy_edit *e = &set->edits.items[i];
        uint32_t start = (uint32_t)((long long)e->span.start + delta);
        nfy_str orig = {set->src->data + e->span.start,
                        e->span.end - e->span.start};
        nfy_status st =
            nfy_edit_set_add(inv, start, start + (uint32_t)e->text.len, orig,
                             e->rule, e->note, NULL);
        if (st)
            return st;
        delta += edit_delta(e);
    }
    return nfy_edit_set_normalize(inv, NULL);
}
