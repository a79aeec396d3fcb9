/*
 * The review hook of convert: edit ids on the change findings, and the
 * decisions of a review applied to the edit set before it is applied.
 */
#include <stdlib.h>
#include <string.h>

#include "convert/convert_internal.h"
#include "npuify/review.h"

/* The change findings of rel recorded since first, in edit order. */
static size_t change_findings(nfy_report *rep, const char *rel, size_t first,
                              nfy_finding **out, size_t max)
{
    size_t n = 0;
    for (size_t i = first; i < rep->findings.len; i++) {
        nfy_finding *f = &rep->findings.items[i];
        if (f->cat != NFY_CAT_CHANGE || !f->file || strcmp(f->file, rel))
            continue;
        if (n < max)
            out[n] = f;
        n++;
    }
    return n;
}

static void mark_not_accepted(nfy_finding *f)
{
    f->cat = NFY_CAT_LEFT_UNCHANGED;
    f->op = NFY_OPTYPE_NONE;
    f->message = "not applied: not accepted in the review (--decisions)";
}

void nfy__convert_review(const nfy_convert_opts *o, const char *rel,
                         nfy_edit_set *set, nfy_report *rep, size_t first)
{
    (void)nfy_edit_set_normalize(set, NULL);
    size_t n = set->edits.len;
    if (n == 0)
        return;
    nfy_finding **fs = malloc(n * sizeof *fs);
    if (!fs)
        return;
    /* Edits and their findings correspond one to one, in order; anything
     * else (a pass recording changes of its own) gets no ids, and then
     * decisions cannot be applied safely: nothing is applied. */
    bool paired = change_findings(rep, rel, first, fs, n) == n;
    nfy_buf id = NFY_BUF_INIT;
    size_t kept = 0;
    for (size_t k = 0; k < n; k++) {
        nfy_buf_reset(&id);
        nfy_edit_id(rel, set, &set->edits.items[k], &id);
        if (paired)
            fs[k]->edit_id = nfy_arena_strdup(&rep->arena, nfy_buf_cstr(&id));
        bool keep =
            !o->decisions ||
            (paired && nfy_decisions_accepts(o->decisions, nfy_buf_cstr(&id)));
        if (keep)
            set->edits.items[kept++] = set->edits.items[k];
        else if (paired)
            mark_not_accepted(fs[k]);
    }
    set->edits.len = kept;
    nfy_buf_release(&id);
    free(fs);
}
