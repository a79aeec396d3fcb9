/*
 * The effort estimate of a report (DESIGN.md section 4), per file and for
 * the project, from the findings alone:
 *   high    a custom kernel (a CUDA source, an extension build, a JIT build
 *           with CUDA sources, a call of a project CUDA operator, a Triton
 *           kernel), or 10 or more blocking findings;
 *   medium  a blocking finding (an unsupported API, any finding whose
 *           operation is UNSUPPORTED, unless its rule is only a warning),
 *           or 10 or more manual findings;
 *   low     any other edit or manual finding;
 *   none    nothing to change.
 * The project takes the highest file level, and the same thresholds over
 * its totals (project-wide findings, file NA, count too).
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

/* Rules whose findings are custom kernels to port (rules.json): the build
 * of an extension, a CUDA source, a call of a project operator, a Triton
 * kernel, a kernel in another GPU kernel language (NPU509). The CUDA constructs
 * inside a source (NPU708) are its detail. */
static const char *const kernel_rules[] = {"NPU501", "NPU502", "NPU503",
                                           "NPU504", "NPU509", "NPU705"};

bool nfy_report_finding_is_kernel(const nfy_finding *f)
{
    for (size_t i = 0; i < sizeof kernel_rules / sizeof kernel_rules[0]; i++)
        if (f->rule && strcmp(f->rule, kernel_rules[i]) == 0)
            return true;
    return false;
}

/* nfy_report_finding_is_blocking, given whether f is a kernel. A rule of
 * severity warning is work to do but runs (torch.backends.cuda flags, a
 * CUDA-only environment variable, fp16 by hand): manual, not blocking. */
static bool blocking_as(const nfy_finding *f, bool kernel)
{
    return kernel || ((f->cat == NFY_CAT_UNSUPPORTED_API ||
                       f->op == NFY_OPTYPE_UNSUPPORTED) &&
                      f->rule_severity != NFY_SEV_WARNING);
}

bool nfy_report_finding_is_blocking(const nfy_finding *f)
{
    return blocking_as(f, nfy_report_finding_is_kernel(f));
}

const char *nfy_report_effort_name(nfy_effort e)
{
    static const char *const names[] = {"none", "low", "medium", "high"};
    return (unsigned)e <= NFY_EFFORT_HIGH ? names[e] : "none";
}

void nfy_report_effort_add(nfy_effort_counts *c, const nfy_finding *f)
{
    if (f->cat == NFY_CAT_LEFT_UNCHANGED)
        return;
    bool kernel = nfy_report_finding_is_kernel(f);
    bool blocking = blocking_as(f, kernel);
    c->kernels += kernel;
    c->blocking += blocking;
    c->manual += nfy_report_finding_is_manual(f) && !blocking;
    c->edits += f->cat == NFY_CAT_CHANGE;
}

nfy_effort nfy_report_effort_of(const nfy_effort_counts *c)
{
    if (c->kernels > 0 || c->blocking >= 10)
        return NFY_EFFORT_HIGH;
    if (c->blocking > 0 || c->manual >= 10)
        return NFY_EFFORT_MEDIUM;
    if (c->manual > 0 || c->edits > 0)
        return NFY_EFFORT_LOW;
    return NFY_EFFORT_NONE;
}

nfy_effort nfy__report_effort_range(const nfy__sorted *v, size_t first,
                                    size_t end, nfy_effort_counts *counts)
{
    nfy_effort_counts c = {0};
    nfy_finding buf;
    for (size_t i = first; i < end; i++)
        nfy_report_effort_add(&c, nfy__report_sorted_head(v, i, &buf));
    if (counts)
        *counts = c;
    return nfy_report_effort_of(&c);
}

nfy_effort nfy__report_effort(const nfy__sorted *v, const char *file,
                              nfy_effort_counts *counts)
{
    size_t n = v->n, first = 0, end = n;
    if (file != NULL)
        nfy__report_file_range(v, file, &first, &end);
    nfy_effort e = nfy__report_effort_range(v, first, end, counts);
    /* the project: never below its worst file (findings sort by file) */
    for (size_t i = 0; file == NULL && i < n; i = end) {
        const char *fi = nfy__report_sorted_file(v, i);
        for (end = i + 1;
             end < n &&
             nfy__report_strcmp(nfy__report_sorted_file(v, end), fi) == 0;)
            end++;
        nfy_effort fe = nfy__report_effort_range(v, i, end, NULL);
        e = fe > e ? fe : e;
    }
    return e;
}

nfy_effort nfy_report_effort(const nfy_report *rep, const char *file,
                             nfy_effort_counts *counts)
{
    nfy__sorted v;
    nfy__report_sorted_init(&v, rep);
    nfy_effort e = nfy__report_effort(&v, file, counts);
    nfy__report_sorted_release(&v);
    return e;
}

/* Non-kernel blocking findings and non-blocking manual ones: the classes
 * the thresholds count. */
static bool is_plain_blocking(const nfy_finding *f)
{
    return f->cat != NFY_CAT_LEFT_UNCHANGED &&
           nfy_report_finding_is_blocking(f) &&
           !nfy_report_finding_is_kernel(f);
}

static bool is_other_manual(const nfy_finding *f)
{
    return f->cat != NFY_CAT_LEFT_UNCHANGED && f->cat != NFY_CAT_CHANGE &&
           nfy_report_finding_is_manual(f) &&
           !nfy_report_finding_is_blocking(f);
}

static bool is_kernel_finding(const nfy_finding *f)
{
    return f->cat != NFY_CAT_LEFT_UNCHANGED && nfy_report_finding_is_kernel(f);
}

/* " (NPU504 x2, NPU705 x1)": the rules of the findings pred selects. */
static void add_rules_of(nfy_buf *out, const nfy_report *rep,
                         nfy__finding_pred pred)
{
    enum { SHOWN_RULES = 6 };
    nfy__rule_count_vec rc = {0};
    nfy__report_rule_counts(rep, pred, &rc);
    nfy__report_rule_counts_by_count(&rc);
    for (size_t i = 0; i < rc.len && i < SHOWN_RULES; i++)
        nfy_buf_addf(out, "%s%s x%zu", i ? ", " : " (", rc.items[i].rule,
                     rc.items[i].count);
    if (rc.len > SHOWN_RULES)
        nfy_buf_addf(out, ", %zu more rules", rc.len - SHOWN_RULES);
    nfy_buf_addstr(out, rc.len ? ")" : "");
    nfy_vec_free(&rc);
}

void nfy__report_effort_drivers(const nfy_report *rep, nfy_effort e,
                                const nfy_effort_counts *c, nfy_buf *out)
{
    size_t plain = c->blocking - c->kernels;
    nfy_buf_addf(out, "The level is %s because of ", nfy_report_effort_name(e));
    if (e == NFY_EFFORT_HIGH && c->kernels > 0) {
        nfy_buf_addf(out, "%zu custom kernel finding%s", c->kernels,
                     c->kernels == 1 ? "" : "s");
        add_rules_of(out, rep, is_kernel_finding);
    } else if (e == NFY_EFFORT_HIGH || e == NFY_EFFORT_MEDIUM) {
        if (plain > 0) {
            nfy_buf_addf(out, "%zu blocking finding%s", plain,
                         plain == 1 ? "" : "s");
            add_rules_of(out, rep, is_plain_blocking);
        } else {
            nfy_buf_addf(out, "%zu manual findings", c->manual);
            add_rules_of(out, rep, is_other_manual);
        }
    } else if (e == NFY_EFFORT_LOW) {
        nfy_buf_addf(out, "%zu manual finding%s and %zu automatic edit%s",
                     c->manual, c->manual == 1 ? "" : "s", c->edits,
                     c->edits == 1 ? "" : "s");
        if (c->manual)
            add_rules_of(out, rep, is_other_manual);
    } else {
        nfy_buf_addstr(out, "nothing to change");
    }
    nfy_buf_addstr(out, ".");
}

bool nfy__report_is_analyse(const nfy_report *rep)
{
    return rep->meta.command != NULL &&
           strcmp(rep->meta.command, "analyse") == 0;
}
