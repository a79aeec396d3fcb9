/*
 * `convert --amp` (pass "amp-insert"): add mixed precision to a training
 * step that has none. The recognised shape is the textbook one, inside one
 * block:
 *
 *     out = model(x)                      with
 * torch.autocast(device_type="npu"): loss = crit(out, y)          -> out =
 * model(x) loss.backward()                         loss = crit(out, y)
 *     opt.step()                          amp_scaler.scale(loss).backward()
 *                                         amp_scaler.step(opt)
 *                                         amp_scaler.update()
 *
 * plus `amp_scaler = torch.npu.amp.GradScaler()` after the module's imports
 * and `amp_scaler.unscale_(opt)` before a gradient-clipping statement. The
 * forward statements wrapped are the simple assignments right before the
 * backward call, ending with the one that assigns the loss. Anything less
 * regular (several backward/step calls, statements sharing lines,
 * multi-line strings) is left alone: the project-level "no AMP" finding
 * still tells the user. A file that already uses AMP is never touched.
 */
#include <string.h>

#include "migrate/pass.h"

#define SCALER "amp_scaler"

typedef struct {
    uint32_t backward, step; /* statements */
    uint32_t wrap_first, wrap_last;
    nfy_str loss, opt;
} amp_site;

/* `NAME . word ( )` as a whole expression statement: NAME, else "". */
static nfy_str call_stmt(const mig_ctx *c, uint32_t s, const char *word)
{
    const nfy_stmt *st = &c->m->stmts[s];
    nfy_str none = nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    if (st->kind != NFY_STMT_EXPR || st->end != st->first + 5)
        return none;
    uint32_t t = st->first;
    if (c->m->toks[t].kind != NFY_TOK_NAME ||
        !mig_tok_op(c, t + 1, NFY_OP_DOT) || !mig_tok_is(c, t + 2, word) ||
        !mig_tok_op(c, t + 3, NFY_OP_LPAR) ||
        !mig_tok_op(c, t + 4, NFY_OP_RPAR))
        return none;
    return mig_tok(c, t);
}

/* A simple statement alone on its own physical lines, no multi-line string. */
static bool own_lines(const mig_ctx *c, uint32_t s)
{
    const nfy_stmt *st = &c->m->stmts[s];
    if (st->flags &
        (NFY_STMTF_COMPOUND | NFY_STMTF_INLINE_BODY | NFY_STMTF_ERROR))
        return false;
    uint32_t nl = mig_next_sig(c, st->end - 1);
    if (nl == NFY_NONE || c->m->toks[nl].kind != NFY_TOK_NEWLINE)
        return false;
    for (uint32_t t = st->first; t < st->end; t++) {
        const nfy_token *tk = &c->m->toks[t];
        if (tk->kind == NFY_TOK_STRING && tk->end_line != tk->line)
            return false;
    }
    const nfy_token *first = &c->m->toks[st->first];
    uint32_t ls = c->src->line_starts[first->line - 1];
    for (uint32_t o = ls; o < first->start; o++) {
        if (c->src->data[o] != ' ' && c->src->data[o] != '\t')
            return false;
    }
    return true;
}

/* `NAME = value` with NAME == name. */
static bool assigns(const mig_ctx *c, uint32_t s, nfy_str name)
{
    const nfy_stmt *st = &c->m->stmts[s];
    return st->kind == NFY_STMT_ASSIGN && st->value_first == st->first + 2 &&
           nfy_str_eq(mig_tok(c, st->first), name);
}

/* Previous / next statement with the same parent, or NFY_NONE. */
static uint32_t sibling(const mig_ctx *c, uint32_t s, int dir)
{
    uint32_t parent = c->m->stmts[s].parent;
    if (dir > 0) {
        uint32_t n = c->m->stmts[s].body_end;
        if (n == NFY_NONE || n < s + 1)
            n = s + 1;
        return n < c->m->nstmts && c->m->stmts[n].parent == parent ? n
                                                                   : NFY_NONE;
    }
    for (uint32_t p = s; p > 0;) {
        p--;
        if (c->m->stmts[p].parent == parent)
            return p;
        if (parent != NFY_NONE && p <= parent)
            break;
    }
    return NFY_NONE;
}

static bool find_site(const mig_ctx *c, uint32_t b, amp_site *site)
{
    site->loss = call_stmt(c, b, "backward");
    if (site->loss.len == 0 || !own_lines(c, b))
        return false;
    site->backward = b;
    site->step = NFY_NONE;
    site->opt = nfy_str_slice(site->loss, 0, 0);
    for (uint32_t s = sibling(c, b, 1); s != NFY_NONE; s = sibling(c, s, 1)) {
        if (call_stmt(c, s, "backward").len > 0)
            return false; /* several backward calls: not the simple shape */
        nfy_str o = call_stmt(c, s, "step");
        if (o.len > 0 && site->step == NFY_NONE && own_lines(c, s)) {
            site->step = s;
            site->opt = o;
        }
    }
    uint32_t a = sibling(c, b, -1);
    while (a != NFY_NONE && call_stmt(c, a, "zero_grad").len > 0)
        a = sibling(c, a, -1); /* opt.zero_grad() between loss and backward */
    if (site->step == NFY_NONE || a == NFY_NONE || !assigns(c, a, site->loss) ||
        !own_lines(c, a))
        return false;
    site->wrap_last = site->wrap_first = a;
    for (uint32_t p = sibling(c, a, -1);
         p != NFY_NONE && c->m->stmts[p].kind == NFY_STMT_ASSIGN &&
         own_lines(c, p);
         p = sibling(c, p, -1))
        site->wrap_first = p;
    return true;
}

/* ---- edits -------------------------------------------------------------- */

static nfy_str line_break(const mig_ctx *c, uint32_t s)
{
    nfy_str nl = mig_tok(c, mig_next_sig(c, c->m->stmts[s].end - 1));
    return nl.len > 0 ? nl : NFY_STR_LIT("\n");
}

static uint32_t line_start_of(const mig_ctx *c, uint32_t s)
{
    return c->src->line_starts[c->m->toks[c->m->stmts[s].first].line - 1];
}

static void insert_line(mig_ctx *c, const nfy_rule *r, uint32_t at, uint32_t s,
                        const char *code)
{
    nfy_str ind = mig_stmt_indent(c, s), br = line_break(c, s);
    mig_edit(c, r, 0, 0, at, at,
             mig_fmt(c, "%.*s%s%.*s", NFY_STR_FMT(ind), code, NFY_STR_FMT(br)),
             mig_fmt(c, "AMP: insert %s", code));
}

static void wrap_forward(mig_ctx *c, const nfy_rule *r, const amp_site *site,
                         nfy_str torch)
{
    nfy_str ind = mig_stmt_indent(c, site->wrap_first);
    const char *unit = ind.len > 0 && ind.ptr[0] == '\t' ? "\t" : "    ";
    insert_line(c, r, line_start_of(c, site->wrap_first), site->wrap_first,
                mig_fmt(c, "with %.*s.autocast(device_type=\"npu\"):",
                        NFY_STR_FMT(torch)));
    uint32_t l1 = c->m->toks[c->m->stmts[site->wrap_first].first].line;
    uint32_t l2 = c->m->toks[c->m->stmts[site->wrap_last].end - 1].end_line;
    for (uint32_t l = l1; l <= l2; l++) {
        uint32_t at = c->src->line_starts[l - 1];
        mig_edit(c, r, 0, 0, at, at, unit, "AMP: indent the forward pass");
    }
}

static void rewrite_step(mig_ctx *c, const nfy_rule *r, const amp_site *site)
{
    const nfy_stmt *b = &c->m->stmts[site->backward];
    mig_edit(c, r, b->first, b->first + 1, c->m->toks[b->first].start,
             c->m->toks[b->first].end,
             mig_fmt(c, SCALER ".scale(%.*s)", NFY_STR_FMT(site->loss)),
             "AMP: scale the loss");
    for (uint32_t s = sibling(c, site->backward, 1); s != site->step;
         s = sibling(c, s, 1)) {
        if (strstr(
                mig_strdup(c, nfy_pysyn_span_text(c->m, c->m->stmts[s].span)),
                "clip_grad") != NULL &&
            own_lines(c, s))
            insert_line(
                c, r, line_start_of(c, s), s,
                mig_fmt(c, SCALER ".unscale_(%.*s)", NFY_STR_FMT(site->opt)));
    }
    const nfy_stmt *st = &c->m->stmts[site->step];
    mig_edit(c, r, st->first, st->end, st->span.start, st->span.end,
             mig_fmt(c, SCALER ".step(%.*s)", NFY_STR_FMT(site->opt)),
             "AMP: step through the scaler");
    uint32_t nl = mig_next_sig(c, st->end - 1);
    insert_line(c, r, c->m->toks[nl].end, site->step, SCALER ".update()");
}

/* ---- the pass -------------------------------------------------------------
 */

/* The name `import torch` (or `import torch as th`) binds, or "". */
static nfy_str torch_name(const mig_ctx *c, uint32_t *stmt)
{
    for (uint32_t i = 0; i < c->m->nimport_names; i++) {
        const nfy_import_name *in = &c->m->import_names[i];
        const nfy_import *imp = &c->m->imports[in->import];
        if (!(imp->flags & NFY_IMPF_FROM) && mig_str_is(in->name, "torch") &&
            c->m->stmts[imp->stmt].parent == NFY_NONE) {
            *stmt = imp->stmt;
            return in->bound;
        }
    }
    return nfy_str_slice(NFY_STR_LIT(""), 0, 0);
}

static bool name_taken(const mig_ctx *c, const char *name)
{
    for (uint32_t b = 0; b < c->m->nbindings; b++) {
        if (mig_tok_is(c, c->m->bindings[b].tok, name))
            return true;
    }
    return false;
}

/* After the last top-level import of the leading import block. */
static uint32_t import_block_end(const mig_ctx *c, uint32_t at_least)
{
    uint32_t last = at_least;
    for (uint32_t s = 0; s < c->m->nstmts; s++) {
        const nfy_stmt *st = &c->m->stmts[s];
        if (st->parent != NFY_NONE)
            continue;
        bool imp =
            st->kind == NFY_STMT_IMPORT || st->kind == NFY_STMT_FROM_IMPORT;
        if (imp && own_lines(c, s) && s > last)
            last = s;
        else if (!imp && !(st->flags & NFY_STMTF_DOCSTRING) && s > at_least)
            break;
    }
    return last;
}

/* A training-step shape no other pass has claimed. */
static bool free_site(const mig_ctx *c, uint32_t s, amp_site *site)
{
    return find_site(c, s, site) &&
           !mig_claimed(c, c->m->stmts[s].first, c->m->stmts[s].first + 1) &&
           !mig_claimed(c, c->m->stmts[site->step].first,
                        c->m->stmts[site->step].end);
}

void mig_pass_amp_insert(mig_ctx *c)
{
    const nfy_rule *r = mig_pass_rule_of(c, NFY_PASS_AMP_INSERT);
    uint32_t torch_stmt = NFY_NONE;
    if (r == NULL || c->info->uses_amp || c->withhold)
        return;
    nfy_str torch = torch_name(c, &torch_stmt);
    if (torch.len == 0 || name_taken(c, SCALER))
        return;
    amp_site site = {0};
    uint32_t s = 0;
    while (s < c->m->nstmts && !free_site(c, s, &site))
        s++;
    if (s == c->m->nstmts)
        return;
    /* The scaler goes in first: when the forward starts right after the
     * imports, both insertions fall on one offset, and edits at one offset
     * keep the order they were added in, so the scaler stays outside the
     * `with` block. */
    uint32_t anchor = import_block_end(c, torch_stmt);
    uint32_t nl = mig_next_sig(c, c->m->stmts[anchor].end - 1);
    insert_line(
        c, r, c->m->toks[nl].end, anchor,
        mig_fmt(c, SCALER " = %.*s.npu.amp.GradScaler()", NFY_STR_FMT(torch)));
    for (; s < c->m->nstmts; s++) {
        if (!free_site(c, s, &site))
            continue;
        wrap_forward(c, r, &site, torch);
        rewrite_step(c, r, &site);
    }
}
