/*
 * String literal groups and their context. A group is a run of adjacent
 * STRING tokens (implicit concatenation); its context comes from the frame
 * it sits in and the significant tokens on either side, which is what a
 * migrator needs to tell `torch.device("cuda")` from `print("cuda")`.
 */
#include "pysyn/syn_internal.h"

static bool is_compare_op(const syn *s, uint32_t p)
{
    if (syn_kind(s, p) == NFY_TOK_NAME)
        return s->pos[p].kw == KW_IS || s->pos[p].kw == KW_NOT ||
               s->pos[p].kw == KW_IN;
    if (syn_kind(s, p) != NFY_TOK_OP)
        return false;
    switch (syn_op(s, p)) {
    case NFY_OP_EQEQUAL:
    case NFY_OP_NOTEQUAL:
    case NFY_OP_LESS:
    case NFY_OP_GREATER:
    case NFY_OP_LESSEQUAL:
    case NFY_OP_GREATEREQUAL:
        return true;
    default:
        return false;
    }
}

static bool is_operand_op(const syn *s, uint32_t p, bool after)
{
    if (syn_is_op(s, p, NFY_OP_PLUS) || syn_is_op(s, p, NFY_OP_PERCENT))
        return true;
    return after && syn_is_op(s, p, NFY_OP_DOT);
}

/* Is the `in` at position p the one of a for statement or comprehension? */
static bool is_for_in(const syn *s, const frame *f, uint32_t p)
{
    if (f->in_pos == p)
        return true;
    return f->kind == FR_STMT && s->first_in == p &&
           s->stmts.items[s->cur_stmt].kind == NFY_STMT_FOR;
}

static bool is_op_at(const syn *s, uint32_t p, nfy_op op)
{
    return p != NFY_NONE && syn_is_op(s, p, op);
}

static bool closes(const syn *s, const frame *f, uint32_t p)
{
    return p != NFY_NONE && f->open != NFY_NONE && s->pmatch[f->open] == p;
}

static nfy_str_ctx bracket_ctx(const syn *s, const frame *f, uint32_t prev,
                               uint32_t next)
{
    if (f->kind == FR_SUB && prev == f->open && closes(s, f, next))
        return NFY_STR_SUBSCRIPT;
    if (f->kind == FR_DICT && f->cstate == CS_NONE) {
        bool key_start = prev == f->open || is_op_at(s, prev, NFY_OP_COMMA);
        if (key_start && is_op_at(s, next, NFY_OP_COLON))
            return NFY_STR_DICT_KEY;
        if (is_op_at(s, prev, NFY_OP_COLON) &&
            (is_op_at(s, next, NFY_OP_COMMA) || closes(s, f, next)))
            return NFY_STR_DICT_VALUE;
    }
    return NFY_STR_OTHER;
}

static bool whole_value_end(const syn *s, const frame *f, uint32_t next)
{
    return next == NFY_NONE || is_op_at(s, next, NFY_OP_COMMA) ||
           closes(s, f, next);
}

static nfy_str_ctx string_ctx(syn *s, nfy_strlit *str, uint32_t p,
                              uint32_t prev, uint32_t next)
{
    frame *f = nfy_vec_last(&s->frames);
    bool params = f->kind == FR_PARAMS || f->kind == FR_LAMBDA;
    if (params && f->pstate == PS_DEFAULT && is_op_at(s, prev, NFY_OP_EQUAL) &&
        (whole_value_end(s, f, next) || is_op_at(s, next, NFY_OP_COLON))) {
        str->param_tok = f->param != NFY_NONE ? s->pos[f->param].tok : NFY_NONE;
        return NFY_STR_DEFAULT;
    }
    /* arg_step keeps the value's position in value_end until finished */
    if (f->kind == FR_CALL && f->arg != NFY_NONE &&
        s->args.items[f->arg].value_end == p && whole_value_end(s, f, next))
        return NFY_STR_ARG;
    if ((prev != NFY_NONE && is_compare_op(s, prev) &&
         !is_for_in(s, f, prev)) ||
        (next != NFY_NONE && is_compare_op(s, next) &&
         s->pos[next].kw != KW_NOT && !is_for_in(s, f, next)))
        return NFY_STR_COMPARE;
    if ((next != NFY_NONE && is_operand_op(s, next, true)) ||
        (prev != NFY_NONE && is_operand_op(s, prev, false)))
        return NFY_STR_OPERAND;
    nfy_str_ctx b = bracket_ctx(s, f, prev, next);
    if (b != NFY_STR_OTHER)
        return b;
    if (f->kind == FR_STMT && next == NFY_NONE && prev != NFY_NONE &&
        (syn_is_op(s, prev, NFY_OP_EQUAL) || s->augop == prev ||
         s->pos[prev].kw == KW_RETURN)) {
        s->assign_str = (uint32_t)s->strings.len - 1; /* str, in place */
        return NFY_STR_ASSIGN;
    }
    return str->call != NFY_NONE ? NFY_STR_IN_ARG : NFY_STR_OTHER;
}

uint32_t nfy__pysyn_string(syn *s, uint32_t p, uint32_t e)
{
    uint32_t q = p;
    uint16_t flags = 0;
    while (q < e && syn_kind(s, q) == NFY_TOK_STRING)
        flags |= syn_tok(s, q++)->flags;
    const frame *f = nfy_vec_last(&s->frames);
    nfy_strlit *str = RES_SLOT(&s->strings); /* built in place */
    str->first = s->pos[p].tok;
    str->end = s->pos[q - 1].tok + 1;
    str->ctx = NFY_STR_OTHER;
    str->flags = flags;
    str->call = str->arg = NFY_NONE;
    if (f->callf != NFY_NONE) {
        str->call = s->frames.items[f->callf].call;
        str->arg = s->frames.items[f->callf].arg;
    }
    uint32_t prev = p > s->st_first ? p - 1 : NFY_NONE;
    uint32_t next = q < s->st_end ? q : NFY_NONE;
    /* the ':' closing a compound header is no neighbour */
    if (next != NFY_NONE && next >= e)
        next = NFY_NONE;
    str->prev_tok = prev != NFY_NONE ? s->pos[prev].tok : NFY_NONE;
    str->next_tok = next != NFY_NONE ? s->pos[next].tok : NFY_NONE;
    str->binding = str->param_tok = NFY_NONE;
    str->stmt = s->cur_stmt;
    str->scope = f->scope;
    str->span = syn_span(s, p, q);
    str->ctx = (uint16_t)string_ctx(s, str, p, prev, next);
    s->pstart = p;
    s->puse = s->pcall = NFY_NONE;
    return q;
}
