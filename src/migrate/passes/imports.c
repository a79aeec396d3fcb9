/*
 * Import statements: rename rules applied to what an import binds
 * (`import torch.cuda as tc` -> `import torch.npu as tc`, `from torch.cuda.amp
 * import autocast` -> `from torch.npu.amp import autocast`, a renamed
 * imported name keeps its binding with `as`), removal of imports such as
 * amp_C, and flags on imported modules (triton, cupy, numba.cuda ...; the
 * rows of a rule's map, or a glob such as `*_cuda` matched against each
 * dotted component: compiled CUDA extensions); a flag never fires on the
 * project's own modules (nfy_migrate_opts.modules).
 * `import torch.cuda` without an alias binds only `torch` and stays; its
 * uses are renamed where they are spelled.
 */
#include <string.h>

#include "migrate/name_match.h"
#include "migrate/pass.h"
#include "migrate/run.h"

#define COMPS_MAX 64

/* NAME tokens of [first, end) (dotted path), at most COMPS_MAX. */
static uint32_t path_names(const mig_ctx *c, uint32_t first, uint32_t end,
                           uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t t = first; t < end && t < c->m->ntoks && n < COMPS_MAX; t++) {
        if (c->m->toks[t].kind == NFY_TOK_NAME)
            out[n++] = t;
    }
    return n;
}

/*
 * Rewrite the path tokens toks[0..nold) (old components of q) so they spell
 * newq's first nnew components; only the differing middle is replaced.
 */
static void rewrite_path(mig_ctx *c, const nfy_rule *r, const uint32_t *toks,
                         uint32_t nold, nfy_str oldq, nfy_str newq,
                         uint32_t nnew, const char *note)
{
    uint32_t p = 0, s = 0;
    while (p < nold && p < nnew &&
           nfy_str_eq(nfy__mig_comp(oldq, p), nfy__mig_comp(newq, p)))
        p++;
    while (s < nold - p && s < nnew - p &&
           nfy_str_eq(nfy__mig_comp(oldq, nold - 1 - s),
                      nfy__mig_comp(newq, nnew - 1 - s)))
        s++;
    if (p == nold - s) {
        if (p == nnew - s)
            return;            /* nothing differs */
        p = p > 0 ? p - 1 : 0; /* pure insertion: widen by one component */
        if (p >= nold - s)
            s = 0;
    }
    char *text = nfy__mig_join_comps(c->arena, newq, p, nnew - s);
    uint32_t t1 = toks[p], t2 = toks[nold - s - 1];
    nfy__mig_edit_api(c, r, t1, t2 + 1, c->m->toks[t1].start,
                      c->m->toks[t2].end, text, note, nfy_mig_strdup(c, oldq));
}

/* The module a from-imported name would come from after renaming. */
static nfy_str new_module_of(mig_ctx *c, const nfy_import_name *in)
{
    nfy_str target = in->target;
    uint32_t n = nfy_resolve_dotted_count(target);
    mig_qmatch m;
    if (nfy__mig_best_rename(c, target, false, &m) && m.to != NULL && m.to[0] &&
        nfy_resolve_dotted_count(m.from) <= n) {
        nfy_str q = nfy__mig_concat_tail(c->arena, m.to, target,
                                         nfy_resolve_dotted_count(m.from));
        bool ok = !(m.rule->flags & NFY_RULE_F_APIDB) ||
                  n == nfy_resolve_dotted_count(m.from) ||
                  nfy__mig_npu_has(c->p->version, q);
        if (ok && nfy__mig_rule_edits(c, m.rule))
            return nfy_resolve_dotted_head(q, nfy_resolve_dotted_count(q) - 1);
    }
    return nfy_resolve_dotted_head(target, n - 1);
}

/* Do all names of a from-import move to the same new module? */
static bool names_agree(mig_ctx *c, const nfy_import *imp, nfy_str newmod)
{
    for (uint32_t i = 0; i < imp->nnames; i++) {
        const nfy_import_name *o = &c->m->import_names[imp->names_first + i];
        if (!nfy_str_eq(new_module_of(c, o), newmod))
            return false;
    }
    return true;
}

static void rename_from_import(mig_ctx *c, const nfy_import *imp,
                               const nfy_import_name *in, const mig_qmatch *m,
                               nfy_str target, nfy_str newq)
{
    uint32_t mt[COMPS_MAX];
    uint32_t nm = path_names(c, imp->module_first, imp->module_end, mt);
    uint32_t nt = nfy_resolve_dotted_count(newq);
    const char *note =
        nfy_mig_fmt(c, "%s -> %s", nfy_mig_strdup(c, target), newq.ptr);
    bool star = (imp->flags & NFY_IMPF_STAR) != 0;
    uint32_t nnew_mod = star ? nt : nt - 1;
    if (!nfy__mig_rule_edits(c,
                             m->rule)) { /* unsafe or manual: report it once */
        nfy__mig_edit_api(c, m->rule, in->name_first, in->name_first + 1,
                          in->span.start, in->span.end, newq.ptr, note,
                          nfy_mig_strdup(c, target));
        return;
    }
    if (!star && imp->nnames > 1 &&
        !names_agree(c, imp, nfy_resolve_dotted_head(newq, nt - 1))) {
        if (!nfy__mig_claimed(c, in->name_first, in->name_first + 1))
            nfy__mig_note_add(
                c, m->rule, in->span, NFY_CAT_LEFT_UNCHANGED, NFY_OPTYPE_NONE,
                nfy_mig_strdup(c, target),
                nfy_mig_fmt(c,
                            "not applied: the other names of this "
                            "import stay in %.*s; import %.*s "
                            "separately as %s",
                            NFY_STR_FMT(imp->module), NFY_STR_FMT(in->name),
                            newq.ptr));
        return;
    }
    rewrite_path(c, m->rule, mt, nm, target, newq, nnew_mod, note);
    if (star)
        return;
    nfy_str oldname = in->name, newname = nfy__mig_comp(newq, nt - 1);
    if (nfy_str_eq(oldname, newname))
        return;
    uint32_t t = in->name_first;
    char *text = in->asname.len > 0
                     ? nfy_mig_strdup(c, newname)
                     : nfy_mig_fmt(c, "%.*s as %.*s", NFY_STR_FMT(newname),
                                   NFY_STR_FMT(oldname));
    nfy__mig_edit_api(c, m->rule, t, t + 1, c->m->toks[t].start,
                      c->m->toks[t].end, text, note, nfy_mig_strdup(c, target));
}

static void rename_import_name(mig_ctx *c, const nfy_import_name *in)
{
    const nfy_import *imp = &c->m->imports[in->import];
    bool from = (imp->flags & NFY_IMPF_FROM) != 0;
    if (imp->level != 0 || (!from && in->asname.len == 0))
        return;
    nfy_str target = from ? in->target : in->name;
    if (imp->flags & NFY_IMPF_STAR)
        target = imp->module;
    mig_qmatch m;
    if (!nfy__mig_best_rename(c, target, false, &m))
        return;
    uint32_t k = nfy_resolve_dotted_count(m.from),
             n = nfy_resolve_dotted_count(target);
    if (k > n)
        return; /* renamed below what is imported: the uses carry it */
    nfy_span sp =
        imp->flags & NFY_IMPF_STAR
            ? nfy_pysyn_range_span(c->m, imp->module_first, imp->module_end)
            : in->span;
    if (m.to == NULL || m.to[0] == '\0') {
        nfy__mig_report_norename(c, &m, sp, target, false);
        return;
    }
    nfy_str newq = nfy__mig_concat_tail(c->arena, m.to, target, k);
    if ((m.rule->flags & NFY_RULE_F_APIDB) && n > k &&
        !nfy__mig_npu_has(c->p->version, newq)) {
        nfy__mig_report_norename(c, &m, sp, target, true);
        return;
    }
    if (from) {
        rename_from_import(c, imp, in, &m, target, newq);
        return;
    }
    uint32_t toks[COMPS_MAX];
    uint32_t nold = path_names(c, in->name_first, in->name_end, toks);
    rewrite_path(
        c, m.rule, toks, nold, target, newq, nfy_resolve_dotted_count(newq),
        nfy_mig_fmt(c, "%s -> %s", nfy_mig_strdup(c, target), newq.ptr));
}

/* ---- remove-import ----------------------------------------------------------
 */

static bool only_statement_of_body(const mig_ctx *c, uint32_t s)
{
    uint32_t parent = c->m->stmts[s].parent;
    if (parent == NFY_NONE)
        return false;
    const nfy_stmt *p = &c->m->stmts[parent];
    /* direct children of parent other than s */
    for (uint32_t i = parent + 1; i < p->body_end; i++) {
        if (i != s && c->m->stmts[i].parent == parent)
            return false;
    }
    return true;
}

/* Byte range of the whole line(s) of statement s, with its line break. */
static bool stmt_line_range(const mig_ctx *c, uint32_t s, nfy_span *out)
{
    const nfy_stmt *st = &c->m->stmts[s];
    const nfy_token *first = &c->m->toks[st->first];
    uint32_t ls = c->src->line_starts[first->line - 1];
    for (uint32_t o = ls; o < first->start; o++) {
        if (c->src->data[o] != ' ' && c->src->data[o] != '\t')
            return false; /* something before it on the line */
    }
    uint32_t nl = nfy__mig_next_sig(c, st->end - 1);
    if (nl == NFY_NONE || c->m->toks[nl].kind != NFY_TOK_NEWLINE)
        return false; /* `import x; y` or an inline body */
    *out = (nfy_span){ls, c->m->toks[nl].end};
    return true;
}

static void remove_import(mig_ctx *c, const nfy_rule *r, const nfy_import *imp,
                          const nfy_import_name *in)
{
    const nfy_stmt *st = &c->m->stmts[imp->stmt];
    const char *note = nfy_mig_fmt(c, "remove import of %s", r->pattern);
    if (imp->nnames > 1 && !(imp->flags & NFY_IMPF_FROM)) {
        /* drop `amp_C, ` (or `, amp_C` when last) from a list */
        uint32_t t1 = in->name_first, t2 = in->asname_tok != NFY_NONE
                                               ? in->asname_tok + 1
                                               : in->name_end;
        uint32_t next = nfy__mig_next_sig(c, t2 - 1);
        uint32_t prev = nfy__mig_prev_sig(c, t1);
        if (nfy_mig_tok_op(c, next, NFY_OP_COMMA)) {
            uint32_t after = nfy__mig_next_sig(c, next);
            nfy__mig_edit(c, r, t1, after, c->m->toks[t1].start,
                          c->m->toks[after].start, "", note);
        } else if (nfy_mig_tok_op(c, prev, NFY_OP_COMMA)) {
            nfy__mig_edit(c, r, prev, t2, c->m->toks[prev].start,
                          c->m->toks[t2 - 1].end, "", note);
        }
        return;
    }
    nfy_span line;
    if (!only_statement_of_body(c, imp->stmt) &&
        stmt_line_range(c, imp->stmt, &line))
        nfy__mig_edit(c, r, st->first, st->end, line.start, line.end, "", note);
    else
        nfy__mig_edit(c, r, st->first, st->end, st->span.start, st->span.end,
                      "pass", note);
}

typedef mig_imp_pat imp_pat;
typedef mig_imp_rule imp_rule;

/* Is q (or a module above it) pat, or has it a component matching the glob
 * pat (`*_cuda`: compiled extension modules)? */
static bool module_fits(nfy_str q, const imp_pat *pat)
{
    if (!pat->glob) /* nfy__mig_q_under */
        return pat->len > 0 && q.len >= pat->len &&
               memcmp(q.ptr, pat->text, pat->len) == 0 &&
               (q.len == pat->len || q.ptr[pat->len] == '.');
    /* a component fitting it holds its plain run, and so would q */
    if (pat->lit_len > 0 &&
        nfy_str_find(q, (nfy_str){pat->lit, pat->lit_len}) < 0)
        return false;
    for (uint32_t k = 0, n = nfy_resolve_dotted_count(q); k < n; k++) {
        if (nfy_rules_glob(pat->text, nfy__mig_comp(q, k)))
            return true;
    }
    return false;
}

static bool import_fits_one(const nfy_import *imp, const nfy_import_name *in,
                            const imp_pat *pat)
{
    if (!(imp->flags & NFY_IMPF_FROM))
        return module_fits(in->name, pat);
    return module_fits(imp->module, pat) || module_fits(in->target, pat);
}

/* The pattern of r the import matches (r's own, or with a map one of its
 * `from` names: then *pair is that row), or NULL. */
static const imp_pat *import_fits(const nfy_import *imp,
                                  const nfy_import_name *in, const imp_rule *ir,
                                  const nfy_rule_pair **pair)
{
    const nfy_rule *r = ir->r;
    *pair = NULL;
    if (imp->level != 0)
        return NULL;
    if (r->nmap == 0)
        return import_fits_one(imp, in, &ir->pats[0]) ? &ir->pats[0] : NULL;
    for (size_t i = 0; i < r->nmap; i++) {
        if (import_fits_one(imp, in, &ir->pats[i])) {
            *pair = &r->map[i];
            return &ir->pats[i];
        }
    }
    return NULL;
}

/* Is what the import brings in, where pat fits it, the project's own
 * module (opts.modules)? The whole path must be the tree's: `import
 * mmcv.ops` with mmcv/ops/__init__.py, not `import transformer_engine.pytorch`
 * beside a utils/transformer_engine.py. For `from M import x` where pat fits
 * M: M; where it fits x alone (`*_cuda`): M.x in the tree, or x a name of
 * M's .py file (an attribute, never a compiled extension); `from pkg
 * import x_cuda` with no x_cuda.py stays an extension. */
static bool first_party(const mig_ctx *c, const nfy_import *imp,
                        const nfy_import_name *in, const imp_pat *pat)
{
    const nfy_migrate_modules *mods = c->p->run->opts.modules;
    if (mods == NULL)
        return false;
    if (!(imp->flags & NFY_IMPF_FROM))
        return nfy_mig_module_find(mods, in->name) != NULL;
    const nfy_migrate_module *m = nfy_mig_module_find(mods, imp->module);
    if (module_fits(imp->module, pat))
        return m != NULL;
    return nfy_mig_module_find(mods, in->target) != NULL ||
           (m != NULL && m->file);
}

static imp_pat measure_pat(const char *text)
{
    imp_pat p = {text, strlen(text), strpbrk(text, "*?") != NULL, NULL, 0};
    if (!p.glob || strchr(text, '|') != NULL)
        return p;
    for (const char *t = text; *t;) {
        size_t n = strcspn(t, "*?");
        if (n > p.lit_len)
            p.lit = t, p.lit_len = n;
        t += n + (t[n] != '\0');
    }
    return p;
}

static bool has_glob(const imp_rule *ir)
{
    for (size_t i = 0; i < ir->npats; i++)
        if (ir->pats[i].glob)
            return true;
    return false;
}

void nfy__mig_imp_rules_build(const nfy_rule_set *set, const nfy_rule_env *env,
                              nfy_arena *arena, mig_imp_rules *out)
{
    memset(out, 0, sizeof *out);
    nfy_rule_iter it;
    nfy_rules_iter_init(&it, set, -1, NFY_MATCH_IMPORT);
    for (const nfy_rule *r; (r = nfy_rules_iter_next(&it));) {
        if (nfy_rules_activity_in(r, env) == NFY_RULE_INACTIVE)
            continue;
        size_t n = r->nmap ? r->nmap : 1;
        imp_rule ir = {r, nfy_arena_alloc(arena, n * sizeof(imp_pat)), n};
        if (r->nmap == 0)
            ir.pats[0] = measure_pat(r->pattern);
        for (size_t i = 0; i < r->nmap; i++)
            ir.pats[i] = measure_pat(r->map[i].from);
        nfy_vec_push(&out->all, ir);
        nfy_vec_push(&out->rules, r);
    }
    size_t n = out->all.len;
    out->globbed = nfy_arena_alloc(arena, (n + 1) * sizeof *out->globbed);
    out->cand = nfy_arena_alloc(arena, (3 * n + 1) * sizeof *out->cand);
    for (size_t i = 0; i < n; i++)
        if (has_glob(&out->all.items[i]))
            out->globbed[out->nglobbed++] = (uint32_t)i;
    nfy__mig_rindex_build_rows(&out->rows, &out->rules, arena);
}

/* Sort v[0..n) ascending and drop repeats (a handful of rules). */
static uint32_t sort_unique(uint32_t *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = v[i], j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (k == 0 || v[k - 1] != v[i])
            v[k++] = v[i];
    return k;
}

/* The rules that may fit the import of in, ascending, into ir->cand: a
 * superset of those import_fits accepts. */
static uint32_t import_candidates(const mig_imp_rules *ir,
                                  const nfy_import *imp,
                                  const nfy_import_name *in)
{
    uint32_t n = 0;
    if (!(imp->flags & NFY_IMPF_FROM)) {
        n += nfy__mig_rindex_find(&ir->rows, in->name, ir->cand + n);
    } else {
        n += nfy__mig_rindex_find(&ir->rows, imp->module, ir->cand + n);
        n += nfy__mig_rindex_find(&ir->rows, in->target, ir->cand + n);
    }
    for (uint32_t i = 0; i < ir->nglobbed; i++)
        ir->cand[n++] = ir->globbed[i];
    return sort_unique(ir->cand, n);
}

/* Whether a header's tokens ask if a package is installed:
 * is_apex_available(), _is_package_available("x"), importlib's find_spec
 * (not torch.cuda.is_available(): the device, not a package). */
static bool asks_available(const mig_ctx *c, const nfy_stmt *st)
{
    for (uint32_t t = st->first; t < st->end && t < c->m->ntoks; t++) {
        nfy_str w = nfy_pysyn_tok_text(c->m, t);
        if (c->m->toks[t].kind == NFY_TOK_NAME &&
            ((nfy_str_contains(w, NFY_STR_LIT("available")) &&
              !nfy_str_eq_cstr(w, "is_available")) ||
             nfy_str_eq_cstr(w, "find_spec")))
            return true;
    }
    return false;
}

/* An optional dependency: imported inside a try whose handlers catch
 * ImportError (the project falls back without it), or in the body of an
 * `if` that asks whether the package is installed. */
static bool optional_import(const mig_ctx *c, const nfy_import *imp)
{
    if (imp->flags & NFY_IMPF_GUARDED)
        return true;
    for (uint32_t s = c->m->stmts[imp->stmt].parent; s != NFY_NONE;
         s = c->m->stmts[s].parent) {
        const nfy_stmt *st = &c->m->stmts[s];
        if ((st->kind == NFY_STMT_IF || st->kind == NFY_STMT_ELIF) &&
            asks_available(c, st))
            return true;
    }
    return false;
}

/* The flag just recorded, on an optional import: what would block is work
 * to check (manual, not an unsupported API), and says why. */
static void mark_optional(mig_ctx *c, const nfy_import *imp)
{
    mig_note *n = nfy_vec_last(c->notes);
    if (n->op != NFY_OPTYPE_UNSUPPORTED || !optional_import(c, imp))
        return;
    n->cat = NFY_CAT_CUDA_OP;
    n->op = NFY_OPTYPE_NONE;
    n->message =
        nfy_mig_fmt(c,
                    "optional dependency (%s: the project runs without "
                    "it; check that its fallback serves on NPU): %s",
                    (imp->flags & NFY_IMPF_GUARDED)
                        ? "imported inside try/except ImportError"
                        : "imported only when it is installed",
                    n->message);
}

static void import_rules(mig_ctx *c, const mig_imp_rules *irl,
                         const nfy_import_name *in, uint32_t *flagged_stmt,
                         const nfy_rule **flagged)
{
    const nfy_import *imp = &c->m->imports[in->import];
    if (imp->level != 0)
        return; /* import_fits: no rule fits a relative import */
    uint32_t ncand = import_candidates(irl, imp, in);
    for (uint32_t k = 0; k < ncand; k++) {
        const imp_rule *ir = &irl->all.items[irl->cand[k]];
        const nfy_rule *r = ir->r;
        const nfy_rule_pair *pair;
        const imp_pat *pat = import_fits(imp, in, ir, &pair);
        if (pat == NULL)
            continue;
        if (r->kind == NFY_RULE_FLAG && first_party(c, imp, in, pat))
            continue; /* the project's own package, not the library */
        if (r->kind == NFY_RULE_REMOVE_IMPORT) {
            remove_import(c, r, imp, in);
        } else if (r->kind == NFY_RULE_FLAG &&
                   !(*flagged_stmt == imp->stmt && *flagged == r)) {
            nfy__mig_flag(c, r, c->m->stmts[imp->stmt].span,
                          nfy_mig_strdup(c, (imp->flags & NFY_IMPF_FROM)
                                                ? in->target
                                                : in->name),
                          NULL);
            if (pair != NULL && pair->note != NULL && pair->note[0])
                nfy_vec_last(c->notes)->message =
                    nfy_mig_fmt(c, "%s (%s)", r->message, pair->note);
            mark_optional(c, imp);
            *flagged_stmt = imp->stmt;
            *flagged = r;
        }
    }
}

void nfy__mig_pass_imports(mig_ctx *c)
{
    const mig_imp_rules *irl = &c->p->run->imports;
    uint32_t flagged_stmt = NFY_NONE;
    const nfy_rule *flagged = NULL;
    for (uint32_t i = 0; i < c->m->nimport_names; i++) {
        const nfy_import_name *in = &c->m->import_names[i];
        import_rules(c, irl, in, &flagged_stmt, &flagged);
        rename_import_name(c, in);
    }
}
