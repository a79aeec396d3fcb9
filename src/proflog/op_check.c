/*
 * Analysis over the op model: names cut by the profiler (52 chars + "...")
 * resolved by unique prefix among the names the same input printed in
 * full, else among the operators apidb knows for the target version, and
 * each operator's status on torch_npu from apidb (supported, CPU fallback,
 * unsupported, composite, unknown), optionally with the first torch_npu
 * version newer than the target that supports it. A CUDA-only kernel
 * (cudnn_convolution) gets the status of its NPU counterpart.
 */
#include <stdint.h>
#include <string.h>

#include "proflog/proflog.h"

static bool is_cut(const nfy_prof_op *op)
{
    return (op->flags & NFY_PROW_NAME_TRUNCATED) &&
           nfy_str_ends_with(op->name, NFY_STR_LIT("..."));
}

void nfy_prof_table_resolve_truncated(nfy_prof_table *t)
{
    for (size_t i = 0; i < t->ops.len; i++) {
        nfy_prof_op *op = &t->ops.items[i];
        if (!is_cut(op))
            continue;
        nfy_str prefix = nfy_str_slice(op->name, 0, op->name.len - 3);
        nfy_buf cands = NFY_BUF_INIT;
        size_t n = 0;
        nfy_str match = {NULL, 0};
        for (size_t j = 0; j < t->ops.len; j++) {
            const nfy_prof_op *o = &t->ops.items[j];
            if (j == i || is_cut(o) || !nfy_str_starts_with(o->name, prefix))
                continue;
            if (n++)
                (void)nfy_buf_addch(&cands, '|');
            (void)nfy_buf_addview(&cands, o->name);
            match = o->name;
        }
        if (n == 1)
            op->full_name = match;
        else if (n > 1)
            op->ambiguity = nfy_arena_str(&t->arena, nfy_buf_view(&cands));
        nfy_buf_release(&cands);
    }
}

static nfy_prof_status from_apidb(nfy_op_status s)
{
    switch (s) {
    case NFY_OP_SUPPORTED:
        return NFY_PSTAT_SUPPORTED;
    case NFY_OP_CPU_FALLBACK:
        return NFY_PSTAT_FALLBACK;
    case NFY_OP_UNSUPPORTED:
        return NFY_PSTAT_UNSUPPORTED;
    case NFY_OP_COMPOSITE:
        return NFY_PSTAT_COMPOSITE;
    case NFY_OP_UNKNOWN:
        break;
    }
    return NFY_PSTAT_UNKNOWN;
}

const char *nfy_prof_status_name(nfy_prof_status s)
{
    static const char *const names[] = {
        "", "supported", "cpu-fallback", "unsupported", "composite", "unknown"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

/* Length of "aten::" in "aten::name" (through the first "::"), else 0. */
static size_t namespace_len(nfy_str s)
{
    ptrdiff_t at = nfy_str_find(s, NFY_STR_LIT("::"));
    return at < 0 ? 0 : (size_t)at + 2;
}

/*
 * A cut name that the input never printed in full (and that is not
 * ambiguous there): resolved when exactly one operator apidb knows for v
 * starts with it, else the number of candidates is kept for the notes.
 * Redone on every check, as the known operators depend on v.
 */
static void resolve_known(nfy_prof_table *t, nfy_prof_op *op,
                          const nfy_apidb_version *v)
{
    if (op->cut_from_known)
        op->full_name = op->name;
    op->cut_from_known = false;
    op->cut_candidates = 0;
    if (!is_cut(op) || op->full_name.ptr != op->name.ptr || op->ambiguity.len)
        return;
    nfy_str prefix = nfy_str_slice(op->name, 0, op->name.len - 3);
    nfy_str match;
    size_t n = nfy_apidb_op_prefix(v, prefix, &match);
    if (n == 1) {
        int ns = (int)namespace_len(prefix);
        op->full_name = nfy_str_from_cstr(nfy_arena_fmt(
            &t->arena, "%.*s%.*s", ns, prefix.ptr, NFY_STR_FMT(match)));
        op->cut_from_known = true;
    } else if (n > 1) {
        op->cut_candidates = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    }
}

void nfy_prof_table_check(nfy_prof_table *t, const nfy_apidb_version *v,
                          bool compare_versions)
{
    if (v == NULL)
        v = nfy_apidb_version_default(); /* "newer than" needs a target */
    for (size_t i = 0; i < t->ops.len; i++) {
        nfy_prof_op *op = &t->ops.items[i];
        op->status = NFY_PSTAT_UNCHECKED;
        op->first_version = (nfy_str){"", 0};
        op->npu_counterpart = op->counterpart_note = (nfy_str){"", 0};
        if (op->kind != NFY_PKIND_OP && op->kind != NFY_PKIND_COMM)
            continue;
        resolve_known(t, op, v);
        nfy_str name = nfy_prof_qualified(&t->arena, op->full_name);
        if (op->overload.len)
            name = nfy_str_from_cstr(nfy_arena_fmt(&t->arena, "%.*s.%.*s",
                                                   NFY_STR_FMT(name),
                                                   NFY_STR_FMT(op->overload)));
        if (is_cut(op) && op->full_name.ptr == op->name.ptr) {
            op->status = NFY_PSTAT_UNKNOWN; /* cut, not resolved */
            continue;
        }
        nfy_op_info info;
        op->status = from_apidb(nfy_apidb_op_status(v, name, &info));
        op->npu_counterpart =
            nfy_str_from_cstr(info.npu_counterpart ? info.npu_counterpart : "");
        op->counterpart_note = nfy_str_from_cstr(
            info.counterpart_note ? info.counterpart_note : "");
        if (compare_versions && op->status != NFY_PSTAT_SUPPORTED &&
            op->status != NFY_PSTAT_COMPOSITE) {
            const nfy_apidb_version *f =
                nfy_apidb_op_first_supported_after(v, name);
            if (f)
                op->first_version = nfy_str_from_cstr(f->name);
        }
    }
}

void nfy_prof_table_counts(const nfy_prof_table *t, nfy_prof_counts *c)
{
    memset(c, 0, sizeof *c);
    c->names = t->ops.len;
    for (size_t i = 0; i < t->ops.len; i++) {
        const nfy_prof_op *op = &t->ops.items[i];
        if (op->flags & NFY_PROW_NAME_TRUNCATED)
            c->truncated++;
        if (op->kind != NFY_PKIND_OP && op->kind != NFY_PKIND_COMM)
            continue;
        c->ops++;
        c->dynamic +=
            op->dyn == NFY_PDYN_NEW_LATER || op->dyn == NFY_PDYN_SHAPE_CHANGED;
        c->possible += op->dyn == NFY_PDYN_POSSIBLE;
        switch (op->status) {
        case NFY_PSTAT_SUPPORTED:
            c->supported++;
            break;
        case NFY_PSTAT_FALLBACK:
            c->fallback++;
            break;
        case NFY_PSTAT_UNSUPPORTED:
            c->unsupported++;
            break;
        case NFY_PSTAT_COMPOSITE:
            c->composite++;
            break;
        case NFY_PSTAT_UNKNOWN:
            c->unknown++;
            break;
        case NFY_PSTAT_UNCHECKED:
            break;
        }
    }
}
