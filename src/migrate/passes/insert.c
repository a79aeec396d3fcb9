/*
 * insert-import rules: `import torch_npu` once, right after the first
 * import of torch (which comes after any `from __future__` import, the
 * module docstring and the encoding line), at that statement's indentation,
 * only in files that import torch and do not have the statement yet. When
 * the first torch import was itself rewritten to name torch.npu (`from torch
 * import npu as cuda`), the new line goes before it, since that import needs
 * torch_npu loaded. In --mode auto only entry scripts (a `__main__` guard,
 * a file named by --main or run by a launcher in the tree, or a training
 * step at module level) get the imports, also when they do not import
 * torch themselves (then after the docstring and `from __future__`
 * imports).
 */
#include <string.h>

#include "migrate/name_match.h"
#include "migrate/pass.h"

/* "import X" or "from M import N" -> module/name views into the text. */
static bool parse_stmt(const char *text, nfy_str *mod, nfy_str *name)
{
    nfy_str s = nfy_str_from_cstr(text);
    if (nfy_str_starts_with(s, NFY_STR_LIT("import "))) {
        *mod = nfy_str_slice(s, 7, s.len);
        *name = nfy_str_slice(s, 0, 0);
        return true;
    }
    if (!nfy_str_starts_with(s, NFY_STR_LIT("from ")))
        return false;
    const char *imp = strstr(text, " import ");
    if (imp == NULL)
        return false;
    *mod = nfy_str_slice(s, 5, (size_t)(imp - text));
    *name = nfy_str_slice(s, (size_t)(imp - text) + 8, s.len);
    return true;
}

/* The import name that already does what text does, or NFY_NONE. */
static uint32_t already_there(const mig_ctx *c, const char *text)
{
    nfy_str mod, name;
    if (!parse_stmt(text, &mod, &name))
        return NFY_NONE;
    for (uint32_t i = 0; i < c->m->nimport_names; i++) {
        const nfy_import_name *in = &c->m->import_names[i];
        const nfy_import *imp = &c->m->imports[in->import];
        bool from = (imp->flags & NFY_IMPF_FROM) != 0;
        if (name.len == 0 && !from && nfy__mig_q_under(in->name, mod))
            return i;
        if (name.len > 0 && from && imp->level == 0 &&
            nfy_str_eq(imp->module, mod) && nfy_str_eq(in->name, name))
            return i;
    }
    return NFY_NONE;
}

/* First import statement of module (or a submodule), or NFY_NONE. */
static uint32_t first_import_of(const mig_ctx *c, nfy_str module)
{
    for (uint32_t i = 0; i < c->m->nimports; i++) {
        const nfy_import *imp = &c->m->imports[i];
        if (imp->level != 0 || imp->nnames == 0)
            continue;
        if (imp->flags & NFY_IMPF_FROM) {
            if (nfy__mig_q_under(imp->module, module))
                return i;
            continue;
        }
        for (uint32_t k = 0; k < imp->nnames; k++) {
            if (nfy__mig_q_under(c->m->import_names[imp->names_first + k].name,
                                 module))
                return i;
        }
    }
    return NFY_NONE;
}

static void insert_at(mig_ctx *c, const nfy_rule *r, uint32_t s, bool before)
{
    const nfy_stmt *st = &c->m->stmts[s];
    nfy_str ind = nfy__mig_stmt_indent(c, s);
    uint32_t nl = nfy__mig_next_sig(c, st->end - 1);
    bool own_line = nl != NFY_NONE && c->m->toks[nl].kind == NFY_TOK_NEWLINE &&
                    !(st->flags & NFY_STMTF_INLINE_BODY) &&
                    nfy__mig_is_indent(ind);
    const char *note = nfy_mig_fmt(c, "insert '%s'", r->replacement);
    if (!own_line) { /* `import torch; x = 1` or `if a: import torch` */
        nfy__mig_edit(c, r, 0, 0, st->span.end, st->span.end,
                      nfy_mig_fmt(c, "; %s", r->replacement), note);
        return;
    }
    nfy_str brk = mig_tok(c, nl);
    if (brk.len == 0)
        brk = NFY_STR_LIT("\n");
    if (before) {
        uint32_t at = c->src->line_starts[c->m->toks[st->first].line - 1];
        nfy__mig_edit(c, r, 0, 0, at, at,
                      nfy_mig_fmt(c, "%.*s%s%.*s", NFY_STR_FMT(ind),
                                  r->replacement, NFY_STR_FMT(brk)),
                      note);
        return;
    }
    uint32_t at = c->m->toks[nl].end;
    const char *text =
        mig_tok(c, nl).len == 0
            ? nfy_mig_fmt(c, "\n%.*s%s", NFY_STR_FMT(ind), r->replacement)
            : nfy_mig_fmt(c, "%.*s%s%.*s", NFY_STR_FMT(ind), r->replacement,
                          NFY_STR_FMT(brk));
    nfy__mig_edit(c, r, 0, 0, at, at, text, note);
}

static bool stmt_edited(const mig_ctx *c, uint32_t s)
{
    return nfy__mig_claimed(c, c->m->stmts[s].first, c->m->stmts[s].end);
}

/*
 * Where a file-level import goes in a file that has no torch import: after
 * the `from __future__` imports, else after the module docstring, else
 * before the first statement. NFY_NONE when the file has no statement.
 */
static uint32_t top_anchor(const mig_ctx *c, bool *before)
{
    uint32_t last = NFY_NONE;
    for (uint32_t s = 0; s < c->m->nstmts; s++) {
        const nfy_stmt *st = &c->m->stmts[s];
        if (st->parent != NFY_NONE)
            continue;
        bool future = st->kind == NFY_STMT_FROM_IMPORT &&
                      mig_tok_is(c, st->first + 1, "__future__");
        if (future || (last == NFY_NONE && (st->flags & NFY_STMTF_DOCSTRING))) {
            last = s;
            continue;
        }
        if (last != NFY_NONE) {
            *before = false;
            return last;
        }
        *before = true;
        return s;
    }
    *before = false;
    return last;
}

/* --mode auto: an entry script that does not import torch itself still
 * needs torch_npu and transfer_to_npu loaded before anything else. */
static void insert_top(mig_ctx *c)
{
    bool before;
    uint32_t s = top_anchor(c, &before);
    if (s == NFY_NONE)
        return;
    nfy_rule_iter it;
    nfy_rules_iter_init(&it, c->rules, NFY_RULE_INSERT_IMPORT, -1);
    for (const nfy_rule *r; (r = nfy_rules_iter_next(&it));) {
        if (nfy__mig_rule_on(c, r) && r->replacement != NULL &&
            already_there(c, r->replacement) == NFY_NONE)
            insert_at(c, r, s, before);
    }
}

/* Is statement s outside every def and class body? */
static bool top_level(const mig_ctx *c, uint32_t s)
{
    for (uint32_t p = c->m->stmts[s].parent; p != NFY_NONE;
         p = c->m->stmts[p].parent)
        if (c->m->stmts[p].kind == NFY_STMT_DEF ||
            c->m->stmts[p].kind == NFY_STMT_CLASS)
            return false;
    return true;
}

/* `loss.backward()` or `optimizer.step()`. */
static bool is_training_call(const mig_ctx *c, uint32_t k)
{
    const nfy_call *call = &c->m->calls[k];
    if (call->attr_tok == NFY_NONE)
        return false;
    if (mig_tok_is(c, call->attr_tok, "backward"))
        return true;
    return mig_tok_is(c, call->attr_tok, "step") &&
           call->attr_tok == call->callee_first + 2 &&
           nfy_str_contains(mig_tok(c, call->callee_first), NFY_STR_LIT("opt"));
}

/* The module-level def named by call k's callee, when it trains. */
static bool calls_training_def(const mig_ctx *c, uint32_t k)
{
    const nfy_call *call = &c->m->calls[k];
    if (call->dotted.len == 0 || nfy_str_find_char(call->dotted, '.') >= 0)
        return false;
    for (uint32_t s = 0; s < c->m->nstmts; s++) {
        const nfy_stmt *d = &c->m->stmts[s];
        if (d->kind != NFY_STMT_DEF || d->parent != NFY_NONE ||
            !nfy_str_eq(mig_tok(c, d->name_tok), call->dotted))
            continue;
        for (uint32_t j = 0; j < c->m->ncalls; j++)
            if (c->m->calls[j].stmt > s && c->m->calls[j].stmt < d->body_end &&
                is_training_call(c, j))
                return true;
    }
    return false;
}

/* A training step run at import time: a training call at module level,
 * or a module-level call of a function of this file that trains (the
 * `for epoch in ...: train(epoch)` of scripts without a __main__ guard). */
static bool top_level_training(const mig_ctx *c)
{
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        if (top_level(c, c->m->calls[k].stmt) &&
            (is_training_call(c, k) || calls_training_def(c, k)))
            return true;
    }
    return false;
}

/* --mode auto: the scripts that are run, not imported. */
static bool entry_script(const mig_ctx *c)
{
    return c->m->main_guard != NFY_NONE || c->p->listed_entry ||
           top_level_training(c);
}

void nfy__mig_pass_insert_import(mig_ctx *c)
{
    if ((c->p->flags & NFY_MIGRATE_AUTO) && !entry_script(c))
        return;
    if ((c->p->flags & NFY_MIGRATE_AUTO) &&
        first_import_of(c, NFY_STR_LIT("torch")) == NFY_NONE) {
        insert_top(c);
        return;
    }
    nfy_rule_iter it;
    nfy_rules_iter_init(&it, c->rules, NFY_RULE_INSERT_IMPORT, -1);
    uint32_t anchor_import = NFY_NONE; /* the statement we inserted after */
    for (const nfy_rule *r; (r = nfy_rules_iter_next(&it));) {
        if (!nfy__mig_rule_on(c, r) || r->replacement == NULL)
            continue;
        uint32_t imp = first_import_of(c, nfy_str_from_cstr(r->pattern));
        if (imp == NFY_NONE || already_there(c, r->replacement) != NFY_NONE)
            continue;
        uint32_t s = c->m->imports[imp].stmt;
        /* a second insertion (transfer_to_npu) follows torch_npu if present */
        uint32_t npu = already_there(c, "import torch_npu");
        if (npu != NFY_NONE && anchor_import == NFY_NONE)
            s = c->m->imports[c->m->import_names[npu].import].stmt;
        insert_at(c, r, s, stmt_edited(c, s));
        anchor_import = imp;
    }
}
