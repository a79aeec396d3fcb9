/*
 * One finding per site: the findings a file's rules made at the same place
 * for the same API (convert's flag rules and analyse's verdicts, several
 * analyse reasons, two convert rules naming one call) become one, so that
 * a problem is counted once. A convert rule's finding stays over an
 * assessment verdict (NPU7xx), then the one that weighs most for the
 * effort (a kernel, a blocking item, manual work; the first among equals), and
 * the others' rules are named in its message as related
 * ("; also NPU602: ..."). Advice of two kinds (affinity, precision) at one
 * site stays two rows; edits and left-unchanged notes are never merged.
 */
#include <string.h>

#include "report/report_internal.h"

static bool mergeable(const nfy_finding *f)
{
    return f->cat != NFY_CAT_CHANGE && f->cat != NFY_CAT_LEFT_UNCHANGED &&
           f->api != NULL && f->api[0] && f->file != NULL && f->rule != NULL;
}

/* What a finding weighs for the effort (effort.c's classes). */
static int weight(const nfy_finding *f)
{
    if (nfy_report_finding_is_kernel(f))
        return 3;
    if (nfy_report_finding_is_blocking(f))
        return 2;
    return nfy_report_finding_is_manual(f) ? 1 : 0;
}

static bool advice_list(nfy_finding_cat c)
{
    return c == NFY_CAT_PRECISION_ADVICE || c == NFY_CAT_PERFORMANCE_ADVICE ||
           c == NFY_CAT_AFFINITY_API;
}

/* One problem: the same start and API, unless both are informational
 * advice of two kinds (an affinity hint and a precision note at one call
 * stay rows of their two lists). */
static bool same_site(const nfy_finding *a, const nfy_finding *b)
{
    return a->start_line == b->start_line && a->start_col == b->start_col &&
           strcmp(a->api, b->api) == 0 && strcmp(a->file, b->file) == 0 &&
           (a->cat == b->cat || weight(a) > 0 || weight(b) > 0 ||
            !advice_list(a->cat) || !advice_list(b->cat));
}

/* keep names other's rule as related (a repeat of its own rule adds no
 * reason); the text is the report's. */
static void relate(nfy_report *rep, nfy_finding *keep, const nfy_finding *other)
{
    if (strcmp(keep->rule, other->rule) == 0)
        return;
    const char *msg = keep->message ? keep->message : "";
    nfy_buf b = NFY_BUF_INIT;
    nfy_buf_addf(&b, "; also %s: ", other->rule);
    if (strstr(msg, nfy_buf_cstr(&b)) == NULL) {
        size_t n = strlen(msg);
        n -= n > 0 && msg[n - 1] == '.'; /* "text.; also" reads badly */
        nfy_buf_reset(&b);
        nfy_buf_addf(&b, "%.*s; also %s: %s", (int)n, msg, other->rule,
                     other->message ? other->message : "");
        keep->message = nfy__report_intern_cstr(rep, nfy_buf_cstr(&b));
    }
    nfy_buf_release(&b);
}

/* Which finding of a site stays: a convert rule's over an assessment
 * verdict (NPU7xx: the rule that names the API knows it best, as
 * analyse's flagged_by_convert has it), then the one that weighs more. */
static int rank(const nfy_finding *f)
{
    bool verdict = nfy_rules_category_of_id(f->rule) == NFY_RULE_CAT_ANALYSIS;
    return (verdict ? 0 : 4) + weight(f);
}

void nfy_report_merge_sites(nfy_report *rep, size_t first)
{
    nfy_finding_vec *v = &rep->open_findings;
    size_t k = first;
    for (size_t i = first; i < v->len; i++) {
        nfy_finding f = v->items[i];
        size_t j = first;
        if (mergeable(&f))
            while (j < k &&
                   !(mergeable(&v->items[j]) && same_site(&v->items[j], &f)))
                j++;
        if (!mergeable(&f) || j == k) {
            v->items[k++] = f;
            continue;
        }
        nfy_finding *g = &v->items[j];
        if (rank(&f) > rank(g)) {
            nfy_finding old = *g;
            *g = f;
            relate(rep, g, &old);
        } else {
            relate(rep, g, &f);
        }
    }
    v->len = k;
}
