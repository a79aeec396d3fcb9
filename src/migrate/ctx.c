/*
 * The per-file pass driver and the helpers every pass shares: tokenize,
 * structure and resolve the file, then run the passes (registry.c).
 * Rule gating (asked of nfy_rules_activity_in, the one decision) and the
 * token claims that keep edits disjoint live here, so each pass only
 * decides what to match.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "migrate/pass.h"
#include "migrate/run.h"
#include "train/train.h"

/* ---- rules ----------------------------------------------------------------
 */

bool nfy__mig_rule_on(const mig_ctx *c, const nfy_rule *r)
{
    return nfy_rules_activity_in(r, &c->p->env) != NFY_RULE_INACTIVE;
}

bool nfy__mig_rule_edits(const mig_ctx *c, const nfy_rule *r)
{
    return nfy_rules_activity_in(r, &c->p->env) == NFY_RULE_EDITS;
}

void nfy__mig_flag_class(const nfy_rule *r, nfy_finding_cat *cat,
                         nfy_op_type *op)
{
    *op = NFY_OPTYPE_NONE;
    /* affinity first: those rows belong in affinity_api_call.csv even when
       tagged performance too */
    if (nfy_rules_has_tag(r, "affinity"))
        *cat = NFY_CAT_AFFINITY_API;
    else if (nfy_rules_has_tag(r, "precision"))
        *cat = NFY_CAT_PRECISION_ADVICE;
    else if (nfy_rules_has_tag(r, "performance") ||
             r->category == NFY_RULE_CAT_ADVICE)
        *cat = NFY_CAT_PERFORMANCE_ADVICE;
    else if (nfy_rules_has_tag(r, "unknown"))
        *cat = NFY_CAT_UNKNOWN_API;
    else if (nfy_rules_has_tag(r, "cuda-op") ||
             r->category == NFY_RULE_CAT_CUDA_API) {
        *cat = NFY_CAT_CUDA_OP;
        if (r->severity >= NFY_SEV_WARNING)
            *op = NFY_OPTYPE_UNSUPPORTED;
    } else if (r->severity == NFY_SEV_NOTE) {
        *cat = NFY_CAT_PERFORMANCE_ADVICE;
    } else {
        *cat = NFY_CAT_UNSUPPORTED_API;
        *op = NFY_OPTYPE_UNSUPPORTED;
    }
}

const nfy_rule *nfy__mig_pass_rule_of(const mig_ctx *c, nfy_pass_id pass)
{
    return (int)pass >= 0 && pass < NFY_PASS_COUNT ? c->p->run->pass_rule[pass]
                                                   : NULL;
}

/* ---- emitting -------------------------------------------------------------
 */

bool nfy__mig_claimed(const mig_ctx *c, uint32_t tfirst, uint32_t tend)
{
    for (uint32_t t = tfirst; t < tend && t < c->m->ntoks; t++) {
        if (c->claimed[t] == CLAIM_WHOLE)
            return true;
    }
    return false;
}

const char *nfy__mig_set_id(mig_ctx *c, uint32_t lit)
{
    const nfy_token *t = &c->m->toks[c->m->strings[lit].first];
    return nfy_mig_fmt(c, "vs%u.%u", t->line, t->col);
}

void nfy__mig_tag_last_note(mig_ctx *c, const char *id, nfy_str name)
{
    if (c->notes->len == 0)
        return;
    nfy_vec_last(c->notes)->vset_id = id;
    nfy_vec_last(c->notes)->vset_name = nfy_mig_strdup(c, name);
}

void nfy__mig_tag_edit(mig_ctx *c, nfy_span span, const char *id, nfy_str name)
{
    if (c->vtags != NULL)
        nfy_vec_push(c->vtags,
                     ((mig_vtag){span.start, id, nfy_mig_strdup(c, name)}));
}

static nfy_span span_of(uint32_t start, uint32_t end)
{
    return (nfy_span){start, end};
}

static nfy_op_type op_of_shape(uint32_t start, uint32_t end, const char *text)
{
    if (start == end)
        return NFY_OPTYPE_INSERT;
    return text[0] == '\0' ? NFY_OPTYPE_DELETE : NFY_OPTYPE_MODIFY;
}

bool nfy__mig_edit(mig_ctx *c, const nfy_rule *r, uint32_t tfirst,
                   uint32_t tend, uint32_t start, uint32_t end,
                   const char *text, const char *note)
{
    nfy_span sp = span_of(start, end);
    if (nfy__mig_claimed(c, tfirst, tend))
        return false;
    if ((c->p->flags & NFY_MIGRATE_AUTO) && r->kind != NFY_RULE_INSERT_IMPORT)
        return false;
    if (r->safety == NFY_SAFETY_MANUAL) {
        nfy__mig_note_add(c, r, sp, NFY_CAT_UNSUPPORTED_API,
                          NFY_OPTYPE_UNSUPPORTED, NULL, note);
        nfy_vec_last(c->notes)->after =
            nfy_mig_strdup(c, nfy_str_from_cstr(text));
        return false;
    }
    if (r->safety == NFY_SAFETY_UNSAFE && !nfy__mig_rule_edits(c, r)) {
        /* listed where the rule's kind of problem belongs, for a human */
        nfy_finding_cat cat;
        nfy_op_type op;
        nfy__mig_flag_class(r, &cat, &op);
        nfy__mig_note_add(
            c, r, sp, cat, op, NULL,
            nfy_mig_fmt(c, "not applied: unsafe rule (use --unsafe): %s",
                        note ? note : r->message));
        nfy_vec_last(c->notes)->after =
            nfy_mig_strdup(c, nfy_str_from_cstr(text));
        return false;
    }
    if (c->withhold) {
        nfy__mig_note_add(c, r, sp, NFY_CAT_LEFT_UNCHANGED,
                          op_of_shape(start, end, text), NULL,
                          "not applied: the file has syntax errors");
        return false;
    }
    if (nfy_edit_set_add(c->edits, start, end, nfy_str_from_cstr(text), r->id,
                         note ? note : r->message, c->diags) != NFY_OK)
        return false;
    for (uint32_t t = tfirst; t < tend && t < c->m->ntoks; t++)
        c->claimed[t] = CLAIM_WHOLE;
    return true;
}

bool nfy__mig_edit_api(mig_ctx *c, const nfy_rule *r, uint32_t tfirst,
                       uint32_t tend, uint32_t start, uint32_t end,
                       const char *text, const char *note, const char *api)
{
    size_t before = c->notes->len;
    bool done = nfy__mig_edit(c, r, tfirst, tend, start, end, text, note);
    if (c->notes->len > before && nfy_vec_last(c->notes)->api == NULL)
        nfy_vec_last(c->notes)->api = api;
    return done;
}

char *nfy__mig_snippet(mig_ctx *c, nfy_str s)
{
    size_t n = 0;
    while (n < s.len && n < 60 && s.ptr[n] != '\n' && s.ptr[n] != '\r') {
        uint32_t cp;
        size_t k = nfy_utf8_decode(s.ptr + n, s.len - n, &cp);
        if (k == 0 || n + k > 60)
            break;
        n += k;
    }
    return nfy_mig_strdup(c, nfy_str_slice(s, 0, n));
}

void nfy__mig_note_id(mig_ctx *c, const char *rule, nfy_safety safety,
                      nfy_span span, nfy_finding_cat cat, nfy_op_type op,
                      const char *api, const char *message)
{
    mig_note n = {span,         rule, (uint8_t)op, (uint8_t)safety,
                  (uint8_t)cat, api,  message,     NULL,
                  NULL,         NULL, NULL};
    nfy_vec_push(c->notes, n);
}

void nfy__mig_note_add(mig_ctx *c, const nfy_rule *r, nfy_span span,
                       nfy_finding_cat cat, nfy_op_type op, const char *api,
                       const char *message)
{
    nfy_safety s = r->safety == NFY_SAFETY_MANUAL   ? NFY_SAFETY_MANUAL
                   : r->safety == NFY_SAFETY_UNSAFE ? NFY_SAFETY_UNSAFE
                                                    : NFY_SAFETY_SAFE;
    nfy__mig_note_id(c, r->id, s, span, cat, op, api,
                     message ? message : r->message);
}

const char *nfy__mig_with_hint(mig_ctx *c, const char *msg, const char *hint)
{
    hint = nfy__mig_hint_in_env(c->arena, &c->p->env, hint);
    if (hint == NULL || hint[0] == '\0')
        return msg;
    size_t n = strlen(msg);
    bool stop = n > 0 && strchr(".!?:", msg[n - 1]) != NULL;
    return nfy_mig_fmt(c, "%s%s %s", msg, stop ? "" : ".", hint);
}

void nfy__mig_flag(mig_ctx *c, const nfy_rule *r, nfy_span span,
                   const char *api, const char *suggest)
{
    nfy_finding_cat cat;
    nfy_op_type op;
    nfy__mig_flag_class(r, &cat, &op);
    const char *msg = nfy__mig_with_hint(c, r->message, r->hint);
    nfy__mig_note_add(c, r, span, cat, op, api, msg);
    nfy_vec_last(c->notes)->npu_api = suggest;
}

/* ---- tokens ----------------------------------------------------------------
 */

nfy_str nfy__mig_stmt_indent(const mig_ctx *c, uint32_t s)
{
    const nfy_token *first = &c->m->toks[c->m->stmts[s].first];
    uint32_t ls = c->src->line_starts[first->line - 1];
    return (nfy_str){c->src->data + ls, first->start - ls};
}

bool nfy__mig_is_indent(nfy_str s)
{
    for (size_t i = 0; i < s.len; i++) {
        if (s.ptr[i] != ' ' && s.ptr[i] != '\t')
            return false;
    }
    return true;
}

nfy_span nfy__mig_tok_span(const mig_ctx *c, uint32_t t)
{
    return span_of(c->m->toks[t].start, c->m->toks[t].end);
}

bool nfy_mig_tok_op(const mig_ctx *c, uint32_t t, int op)
{
    return t < c->m->ntoks && c->m->toks[t].kind == NFY_TOK_OP &&
           c->m->toks[t].op == (uint32_t)op;
}

static bool is_trivial(const nfy_token *t)
{
    return t->kind == NFY_TOK_NL || t->kind == NFY_TOK_COMMENT ||
           t->kind == NFY_TOK_INDENT || t->kind == NFY_TOK_DEDENT;
}

uint32_t nfy__mig_prev_sig(const mig_ctx *c, uint32_t t)
{
    while (t > 0 && t <= c->m->ntoks) {
        t--;
        if (!is_trivial(&c->m->toks[t]))
            return t;
    }
    return NFY_NONE;
}

uint32_t nfy__mig_next_sig(const mig_ctx *c, uint32_t t)
{
    for (t++; t < c->m->ntoks; t++) {
        if (!is_trivial(&c->m->toks[t]))
            return t;
    }
    return NFY_NONE;
}

char *nfy_mig_strdup(mig_ctx *c, nfy_str s)
{
    return nfy_arena_strndup(c->arena, s.ptr ? s.ptr : "", s.len);
}

char *nfy_mig_fmt(mig_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = nfy_arena_vfmt(c->arena, fmt, ap);
    va_end(ap);
    return s;
}

/* ---- strings ----------------------------------------------------------------
 */

nfy_str nfy_mig_string_body(const mig_ctx *c, uint32_t t, uint32_t *body_off)
{
    const nfy_token *tk = &c->m->toks[t];
    nfy_str s = mig_tok(c, t);
    nfy_str none = {s.ptr, 0};
    if (tk->kind != NFY_TOK_STRING || (tk->flags & NFY_TOKF_UNTERMINATED))
        return none;
    size_t i = 0;
    while (i < s.len && s.ptr[i] != '"' && s.ptr[i] != '\'')
        i++;
    size_t q = (tk->flags & NFY_TOKF_TRIPLE) ? 3 : 1;
    if (s.len < i + 2 * q)
        return none;
    *body_off = tk->start + (uint32_t)(i + q);
    return (nfy_str){s.ptr + i + q, s.len - i - 2 * q};
}

nfy_str nfy_mig_callee_qual_of(const mig_ctx *c, uint32_t k)
{
    const nfy_call *call = &c->m->calls[k];
    if (call->dotted.len == 0 || call->use == NFY_NONE)
        return nfy_str_slice(call->dotted, 0, 0);
    return nfy_resolve_use(c->r, call->use)->qual;
}

bool nfy_mig_attr_on_module(const mig_ctx *c, uint32_t attr_tok)
{
    nfy_str q = nfy_resolve_attr_receiver(c->r, attr_tok);
    nfy_str root = nfy_resolve_dotted_head(q, 1);
    return MIG_IS_LIT(root, "torch") || MIG_IS_LIT(root, "torch_npu");
}

/* ---- driver ----------------------------------------------------------------
 */

static void build_tok_arg(mig_ctx *c)
{
    const nfy_pysyn *m = c->m;
    c->tok_arg = nfy_arena_alloc(c->arena, (m->ntoks + 1) * sizeof(uint32_t));
    _Static_assert(NFY_NONE == UINT32_MAX, "NFY_NONE is all one bits");
    memset(c->tok_arg, 0xff, (m->ntoks + 1) * sizeof(uint32_t));
    for (uint32_t a = 0; a < m->nargs; a++) {
        for (uint32_t t = m->args[a].value_first;
             t < m->args[a].value_end && t < m->ntoks; t++)
            c->tok_arg[t] = a;
    }
}

static void fill_info(mig_ctx *c)
{
    nfy_migrate_info *in = c->info;
    in->scanned = true;
    in->uses_torch = nfy_resolve_imports_module(c->r, "torch");
    in->has_main = c->m->main_guard != NFY_NONE;
    for (uint32_t i = 0; i < c->m->nimports; i++) {
        const nfy_import *imp = &c->m->imports[i];
        nfy_str mod = imp->module;
        if (!(imp->flags & NFY_IMPF_FROM) && imp->nnames > 0)
            mod = c->m->import_names[imp->names_first].name;
        if (nfy_str_eq(nfy_resolve_dotted_head(mod, 1), NFY_STR_LIT("torch")) &&
            imp->level == 0) {
            in->first_torch_line = c->m->stmts[imp->stmt].line;
            break;
        }
    }
}

nfy_status nfy__mig_python(const mig_params *p, const nfy_source *src,
                           nfy_edit_set *edits, mig_note_vec *notes,
                           mig_vtag_vec *vtags, nfy_migrate_info *info,
                           nfy_arena *arena, nfy_diags *diags)
{
    nfy_diags local;
    nfy_diags_init(&local);
    nfy_diags *dg = diags ? diags : &local;
    size_t errs0 = nfy_diags_count(dg, NFY_SEV_ERROR);
    nfy_tokens toks;
    nfy_lex_tokens_init(&toks);
    nfy_front_scratch *fs = &p->run->front;
    nfy_status st = nfy_lex_reuse(src, &toks, dg, &fs->lex);
    nfy_pysyn *m = NULL;
    if (st == NFY_OK)
        st = nfy_pysyn_parse_reuse(src, &toks, arena, dg, fs, &m);
    nfy_resolution *r = NULL;
    if (st == NFY_OK)
        st = nfy_resolve_resolve(m, arena, &r);
    if (st == NFY_OK) {
        mig_ctx c = {.p = p,
                     .src = src,
                     .m = m,
                     .r = r,
                     .rules = p->rules,
                     .edits = edits,
                     .notes = notes,
                     .vtags = vtags,
                     .info = info,
                     .arena = arena,
                     .diags = dg};
        info->syntax_error =
            nfy_diags_count(dg, NFY_SEV_ERROR) > errs0 || m->nerrors > 0;
        c.withhold = info->syntax_error && !(p->flags & NFY_MIGRATE_FORCE);
        c.claimed = nfy_arena_calloc(arena, m->ntoks + 1, 1);
        build_tok_arg(&c);
        nfy_str *quals =
            nfy_arena_alloc(arena, (m->ncalls + 1) * sizeof *quals);
        for (uint32_t k = 0; k < m->ncalls; k++)
            quals[k] = nfy_mig_callee_qual_of(&c, k);
        c.callee_q = quals;
        c.lit_body =
            nfy_arena_alloc(arena, (m->nstrings + 1) * sizeof *c.lit_body);
        c.lit_off = nfy_arena_calloc(arena, m->nstrings + 1, sizeof *c.lit_off);
        for (uint32_t i = 0; i < m->nstrings; i++)
            c.lit_body[i] =
                nfy_mig_string_body(&c, m->strings[i].first, &c.lit_off[i]);
        fill_info(&c);
        size_t edits0 = edits->edits.len, notes0 = notes->len;
        nfy__mig_run_passes(&c);
        if ((p->flags & (NFY_MIGRATE_AMP | NFY_MIGRATE_DISTRIBUTED |
                         NFY_MIGRATE_TRAINING)) &&
            !c.withhold)
            nfy_train_report(&c, p->report);
        if (p->observer != NULL && p->observer->fn != NULL)
            p->observer->fn(p->observer->ctx, src, p->relpath, m, r, p->report,
                            &p->run->keep);
        info->uses_cuda = edits->edits.len > edits0;
        for (size_t i = notes0; i < notes->len && !info->uses_cuda; i++)
            info->uses_cuda = notes->items[i].cat != NFY_CAT_LEFT_UNCHANGED &&
                              notes->items[i].cat != NFY_CAT_PERFORMANCE_ADVICE;
    }
    nfy_lex_tokens_recycle(&toks, &fs->lex);
    nfy_diags_release(&local);
    return st;
}
