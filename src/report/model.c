/*
 * The report model: recording files, findings and log lines (copying every
 * string into the report's arena), merging reports from parallel workers,
 * totals, the one sort order all writers share, and the enum names.
 */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_internal.h"

static const char *const op_names[] = {"", "INSERT", "MODIFY", "DELETE",
                                       "UNSUPPORTED"};
static const char *const safety_names[] = {"safe", "unsafe", "manual"};
static const char *const cat_names[] = {
    "change",           "unsupported_api",    "unknown_api",  "cuda_op",
    "precision_advice", "performance_advice", "affinity_api", "left_unchanged"};
static const char *const file_status_names[] = {"converted", "unchanged",
                                                "copied", "skipped", "error"};

const char *nfy_report_op_type_name(nfy_op_type op)
{
    return (unsigned)op <= NFY_OPTYPE_UNSUPPORTED ? op_names[op] : "";
}

const char *nfy_report_safety_name(nfy_safety s)
{
    return (unsigned)s <= NFY_SAFETY_MANUAL ? safety_names[s] : "manual";
}

const char *nfy_finding_cat_name(nfy_finding_cat c)
{
    return (unsigned)c < NFY_CAT_COUNT ? cat_names[c] : "unknown";
}

const char *nfy_report_file_status_name(nfy_file_status s)
{
    return (unsigned)s <= NFY_FILE_ERROR ? file_status_names[s] : "error";
}

void nfy_report_init(nfy_report *rep)
{
    memset(rep, 0, sizeof *rep);
    nfy_arena_init(&rep->arena);
}

void nfy_report_release(nfy_report *rep)
{
    nfy_vec_free(&rep->files);
    nfy__report_rows_release(rep);
    nfy_vec_free(&rep->open_findings);
    nfy_vec_free(&rep->log);
    nfy_vec_free(&rep->training);
    nfy__report_strings_release(rep);
    nfy_arena_release(&rep->arena);
}

void nfy_report_set_meta(nfy_report *rep, const nfy_report_meta *meta)
{
    rep->meta.tool_version = nfy__report_intern_cstr(rep, meta->tool_version);
    rep->meta.command = nfy__report_intern_cstr(rep, meta->command);
    rep->meta.source = nfy__report_intern_cstr(rep, meta->source);
    rep->meta.torch_version = nfy__report_intern_cstr(rep, meta->torch_version);
    rep->meta.mode = nfy__report_intern_cstr(rep, meta->mode);
    rep->meta.file_root = nfy__report_intern_cstr(rep, meta->file_root);
}

static const char *rule_message(void *ctx, const char *id)
{
    const nfy_rule *r = nfy_rules_set_find(ctx, id);
    return r ? r->message : NULL;
}

void nfy_report_use_rules(nfy_report *rep, const nfy_rule_set *rules)
{
    rep->rules = rules;
    rep->rule_desc = rules ? rule_message : NULL;
    rep->rule_desc_ctx = (void *)rules;
}

void nfy_report_add_file(nfy_report *rep, const char *file,
                         nfy_file_status status, const char *note)
{
    nfy_report_file f = {nfy__report_intern_cstr(rep, file ? file : ""), status,
                         nfy__report_intern_cstr(rep, note)};
    nfy_vec_push(&rep->files, f);
}

void nfy_report_add_finding(nfy_report *rep, const nfy_finding *f)
{
    nfy_finding c = *f;
    c.file = nfy__report_intern_cstr(rep, f->file);
    c.rule = nfy__report_intern_cstr(rep, f->rule ? f->rule : "");
    c.api = nfy__report_intern_cstr(rep, f->api);
    c.message = nfy__report_intern_cstr(rep, f->message);
    c.before = nfy__report_intern_cstr(rep, f->before);
    c.after = nfy__report_intern_cstr(rep, f->after);
    c.api_type = nfy__report_intern_cstr(rep, f->api_type);
    c.npu_api = nfy__report_intern_cstr(rep, f->npu_api);
    c.value_set_id = nfy__report_intern_cstr(rep, f->value_set_id);
    c.value_set = nfy__report_intern_cstr(rep, f->value_set);
    c.edit_id = nfy__report_intern_cstr(rep, f->edit_id);
    c.code_before = nfy__report_intern_cstr(rep, f->code_before);
    c.code_after = nfy__report_intern_cstr(rep, f->code_after);
    const nfy_rule *r =
        rep->rules ? nfy_rules_set_find(rep->rules, c.rule) : NULL;
    if (r && r->severity > c.rule_severity)
        c.rule_severity = r->severity;
    nfy_vec_push(&rep->open_findings, c);
}

const char *nfy_report_finding_edit_id(const nfy_finding *f, nfy_buf *buf)
{
    if (!f->edit_id || !f->edit_id_in_file)
        return f->edit_id;
    nfy_buf_reset(buf);
    /* the file as every report shows it, so an id survives any name */
    if (f->file)
        nfy_name_escape(buf, f->file, strlen(f->file));
    (void)nfy_buf_addch(buf, ':');
    (void)nfy_buf_addstr(buf, f->edit_id);
    return nfy_buf_cstr(buf);
}

void nfy_report_finding_locate(nfy_finding *f, const nfy_source *src,
                               nfy_span sp)
{
    nfy_source_linecol(src, sp.start, &f->start_line, &f->start_col);
    nfy_source_linecol(src, sp.end, &f->end_line, &f->end_col);
}

static nfy_op_type edit_op(const nfy_edit *e)
{
    if (e->span.start == e->span.end)
        return NFY_OPTYPE_INSERT;
    return e->text.len ? NFY_OPTYPE_MODIFY : NFY_OPTYPE_DELETE;
}

void nfy_report_add_edits(nfy_report *rep, const char *file, nfy_edit_set *set,
                          nfy_safety safety)
{
    (void)nfy_edit_set_normalize(set, NULL);
    for (size_t i = 0; i < set->edits.len; i++) {
        const nfy_edit *e = &set->edits.items[i];
        nfy_finding f = {0};
        f.file = file;
        nfy_report_finding_locate(&f, set->src, e->span);
        f.rule = e->rule;
        f.op = edit_op(e);
        f.safety = safety;
        f.cat = NFY_CAT_CHANGE;
        f.message = e->note;
        f.before = nfy__report_intern(rep, set->src->data + e->span.start,
                                      e->span.end - e->span.start);
        f.after = e->text.ptr;
        nfy_report_add_finding(rep, &f);
    }
}

void nfy_report_logf(nfy_report *rep, const char *file, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    nfy_report_log_line l = {nfy__report_intern_cstr(rep, file),
                             nfy_arena_vfmt(&rep->arena, fmt, ap),
                             rep->next_seq++};
    va_end(ap);
    nfy_vec_push(&rep->log, l);
}

void nfy_report_add_training(nfy_report *rep, const char *file,
                             const char *kind, uint32_t line, const char *text,
                             const char *note)
{
    nfy_report_training_row r = {
        nfy__report_intern_cstr(rep, file), nfy_arena_strdup(&rep->arena, kind),
        line, nfy_arena_strdup(&rep->arena, text),
        note ? nfy_arena_strdup(&rep->arena, note) : NULL};
    nfy_vec_push(&rep->training, r);
}

void nfy_report_merge(nfy_report *dst, const nfy_report *src)
{
    if (!dst->meta.command && src->meta.command)
        nfy_report_set_meta(dst, &src->meta);
    for (size_t i = 0; i < src->files.len; i++) {
        const nfy_report_file *f = &src->files.items[i];
        nfy_report_add_file(dst, f->file, f->status, f->note);
    }
    for (size_t i = 0; i < nfy_report_finding_count(src); i++) {
        nfy_finding f;
        nfy_report_finding_read(src, i, &f);
        nfy_report_add_finding(dst, &f);
    }
    for (size_t i = 0; i < src->log.len; i++) {
        const nfy_report_log_line *l = &src->log.items[i];
        nfy_report_logf(dst, l->file, "%s", l->text);
    }
    for (size_t i = 0; i < src->training.len; i++) {
        const nfy_report_training_row *t = &src->training.items[i];
        nfy_report_add_training(dst, t->file, t->kind, t->line, t->text,
                                t->note);
    }
}

bool nfy_report_finding_is_manual(const nfy_finding *f)
{
    switch (f->cat) {
    case NFY_CAT_LEFT_UNCHANGED:
    case NFY_CAT_AFFINITY_API:
        /* Informational: the port works without acting on these. */
        return false;
    case NFY_CAT_PRECISION_ADVICE:
    case NFY_CAT_PERFORMANCE_ADVICE:
        /* Advice is informational unless its rule is loud (no AMP at all:
         * the warning convert prints). */
        return f->rule_severity >= NFY_SEV_WARNING;
    case NFY_CAT_UNKNOWN_API:
        /* To verify on the device, not work to do (unless it says so). */
        return f->op == NFY_OPTYPE_UNSUPPORTED;
    case NFY_CAT_UNSUPPORTED_API:
        return true;
    default:
        return f->op == NFY_OPTYPE_UNSUPPORTED ||
               f->safety == NFY_SAFETY_MANUAL;
    }
}

void nfy_report_totals_get(const nfy_report *rep, nfy_report_totals *t)
{
    memset(t, 0, sizeof *t);
    t->files_total = rep->files.len;
    for (size_t i = 0; i < rep->files.len; i++) {
        switch (rep->files.items[i].status) {
        case NFY_FILE_CONVERTED:
            t->files_changed++;
            t->files_scanned++;
            break;
        case NFY_FILE_UNCHANGED:
            t->files_scanned++;
            break;
        case NFY_FILE_COPIED:
            t->files_copied++;
            break;
        case NFY_FILE_SKIPPED:
            t->files_skipped++;
            break;
        case NFY_FILE_ERROR:
            t->files_error++;
            t->files_scanned++;
            break;
        }
    }
    for (size_t i = 0; i < nfy_report_finding_count(rep); i++) {
        nfy_finding buf;
        const nfy_finding *f = nfy__report_finding_head(rep, i, &buf);
        if ((unsigned)f->cat < NFY_CAT_COUNT)
            t->by_cat[f->cat]++;
        if (f->cat == NFY_CAT_CHANGE)
            t->edits++;
        else if (nfy_report_finding_is_manual(f))
            t->manual++;
    }
}

/* ---- the shared order -------------------------------------------------- */

/* NULL sorts first (project-wide findings before any file). */
int nfy__report_strcmp(const char *a, const char *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

int nfy__report_cmp_finding(const nfy_finding *a, const nfy_finding *b)
{
    int c = nfy__report_strcmp(a->file, b->file);
    if (!c)
        c = nfy__report_cmp_span(NFY__REPORT_SPAN(a), NFY__REPORT_SPAN(b));
    if (!c)
        c = nfy__report_strcmp(a->rule, b->rule);
    if (!c)
        c = nfy__report_cmp_u32(a->cat, b->cat);
    if (!c)
        c = nfy__report_strcmp(a->message, b->message);
    if (!c)
        c = nfy__report_strcmp(a->api, b->api);
    if (!c)
        c = nfy__report_strcmp(a->before, b->before);
    if (!c)
        c = nfy__report_strcmp(a->after, b->after);
    if (!c)
        c = nfy__report_cmp_u32(a->op, b->op);
    if (!c)
        c = nfy__report_cmp_u32(a->safety, b->safety);
    if (!c)
        c = nfy__report_strcmp(a->npu_api, b->npu_api);
    if (!c)
        c = nfy__report_strcmp(a->api_type, b->api_type);
    return c;
}

static int cmp_file(const void *pa, const void *pb)
{
    const nfy_report_file *const *a = pa;
    const nfy_report_file *const *b = pb;
    int c = nfy__report_strcmp((*a)->file, (*b)->file);
    if (!c)
        c = nfy__report_cmp_u32((*a)->status, (*b)->status);
    if (!c)
        c = nfy__report_strcmp((*a)->note, (*b)->note);
    return c;
}

size_t nfy__report_sorted_files(const nfy_report *rep,
                                const nfy_report_file ***out)
{
    size_t n = rep->files.len;
    const nfy_report_file **v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        abort();
    for (size_t i = 0; i < n; i++)
        v[i] = &rep->files.items[i];
    if (n > 1)
        qsort(v, n, sizeof *v, cmp_file);
    *out = v;
    return n;
}
