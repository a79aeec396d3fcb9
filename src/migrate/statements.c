/*
 * Statement shapes and line-level insertions shared by the passes that add
 * code (amp-insert, ddp-rewrite): a statement alone on its lines, a method
 * call statement, inserting a line, wrapping statements in a block.
 */
#include "migrate/pass.h"

/* A simple statement alone on its own physical lines, no multi-line string. */
bool nfy__mig_own_lines(const mig_ctx *c, uint32_t s)
{
    const nfy_stmt *st = &c->m->stmts[s];
    if (st->flags &
        (NFY_STMTF_COMPOUND | NFY_STMTF_INLINE_BODY | NFY_STMTF_ERROR))
        return false;
    uint32_t nl = nfy__mig_next_sig(c, st->end - 1);
    if (nl == NFY_NONE || c->m->toks[nl].kind != NFY_TOK_NEWLINE)
        return false;
    for (uint32_t t = st->first; t < st->end; t++) {
        const nfy_token *tk = &c->m->toks[t];
        if (tk->kind == NFY_TOK_STRING && tk->end_line != tk->line)
            return false;
    }
    return nfy__mig_is_indent(nfy__mig_stmt_indent(c, s));
}

/* Expression statement `RECV . word ( ARGS )`: the '(' token, or NONE. */
uint32_t nfy_mig_method_stmt(const mig_ctx *c, uint32_t s, const char *word)
{
    const nfy_stmt *st = &c->m->stmts[s];
    if (st->kind != NFY_STMT_EXPR || st->end < st->first + 5 ||
        !nfy_mig_tok_op(c, st->end - 1, NFY_OP_RPAR))
        return NFY_NONE;
    int depth = 0;
    for (uint32_t t = st->end; t > st->first;) {
        t--;
        if (nfy_mig_tok_op(c, t, NFY_OP_RPAR) ||
            nfy_mig_tok_op(c, t, NFY_OP_RSQB) ||
            nfy_mig_tok_op(c, t, NFY_OP_RBRACE))
            depth++;
        else if (nfy_mig_tok_op(c, t, NFY_OP_LPAR) ||
                 nfy_mig_tok_op(c, t, NFY_OP_LSQB) ||
                 nfy_mig_tok_op(c, t, NFY_OP_LBRACE))
            depth--;
        if (depth == 0)
            return t >= st->first + 3 && mig_tok_is(c, t - 1, word) &&
                           nfy_mig_tok_op(c, t - 2, NFY_OP_DOT)
                       ? t
                       : NFY_NONE;
    }
    return NFY_NONE;
}

static nfy_str line_break(const mig_ctx *c, uint32_t s)
{
    nfy_str nl = mig_tok(c, nfy__mig_next_sig(c, c->m->stmts[s].end - 1));
    return nl.len > 0 ? nl : NFY_STR_LIT("\n");
}

uint32_t nfy__mig_line_start_of(const mig_ctx *c, uint32_t s)
{
    return c->src->line_starts[c->m->toks[c->m->stmts[s].first].line - 1];
}

void nfy__mig_insert_line(mig_ctx *c, const nfy_rule *r, uint32_t at,
                          uint32_t s, const char *code)
{
    nfy_str ind = nfy__mig_stmt_indent(c, s), br = line_break(c, s);
    nfy__mig_edit(
        c, r, 0, 0, at, at,
        nfy_mig_fmt(c, "%.*s%s%.*s", NFY_STR_FMT(ind), code, NFY_STR_FMT(br)),
        nfy_mig_fmt(c, "%s: insert %s",
                    r->pass == NFY_PASS_DDP_REWRITE ? "DDP" : "AMP", code));
}

void nfy__mig_wrap_lines(mig_ctx *c, const nfy_rule *r, uint32_t first,
                         uint32_t last, const char *header, const char *note)
{
    nfy_str ind = nfy__mig_stmt_indent(c, first);
    const char *unit = ind.len > 0 && ind.ptr[0] == '\t' ? "\t" : "    ";
    nfy__mig_insert_line(c, r, nfy__mig_line_start_of(c, first), first, header);
    uint32_t l1 = c->m->toks[c->m->stmts[first].first].line;
    uint32_t l2 = c->m->toks[c->m->stmts[last].end - 1].end_line;
    for (uint32_t l = l1; l <= l2; l++) {
        uint32_t at = c->src->line_starts[l - 1];
        if (at < c->src->len && c->src->data[at] != '\n' &&
            c->src->data[at] != '\r')
            nfy__mig_edit(c, r, 0, 0, at, at, unit, note); /* not blank lines */
    }
}

/* The name `import torch` (or `import torch as th`) binds, or "". */
nfy_str nfy__mig_torch_name(const mig_ctx *c, uint32_t *stmt)
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

/* After the last top-level import of the leading import block. */
uint32_t nfy__mig_import_block_end(const mig_ctx *c, uint32_t at_least)
{
    uint32_t last = at_least;
    for (uint32_t s = 0; s < c->m->nstmts; s++) {
        const nfy_stmt *st = &c->m->stmts[s];
        if (st->parent != NFY_NONE)
            continue;
        bool imp =
            st->kind == NFY_STMT_IMPORT || st->kind == NFY_STMT_FROM_IMPORT;
        if (imp && nfy__mig_own_lines(c, s) && s > last)
            last = s;
        else if (!imp && !(st->flags & NFY_STMTF_DOCSTRING) && s > at_least)
            break;
    }
    return last;
}

uint32_t nfy__mig_prev_sibling(const mig_ctx *c, uint32_t s)
{
    uint32_t parent = c->m->stmts[s].parent;
    for (uint32_t p = s; p > 0;) {
        p--;
        if (c->m->stmts[p].parent == parent)
            return p;
        if (parent != NFY_NONE && p <= parent)
            break;
    }
    return NFY_NONE;
}
