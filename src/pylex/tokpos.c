/*
 * The token summary for pysyn (tokpos.h): its tables and lifetime (the
 * builder is inline in tokpos.h).
 */
#include "pylex/tokpos.h"

#include <stdlib.h>

const uint8_t nfy_lex_tokpos_op_event[64] = {
    [NFY_OP_LPAR] = TP_EVENT,   [NFY_OP_RPAR] = TP_EVENT,
    [NFY_OP_LSQB] = TP_EVENT,   [NFY_OP_RSQB] = TP_EVENT,
    [NFY_OP_LBRACE] = TP_EVENT, [NFY_OP_RBRACE] = TP_EVENT,
    [NFY_OP_SEMI] = TP_EVENT};

const uint8_t nfy_lex_tokpos_kind_class[16] = {[NFY_TOK_ENDMARKER] = TP_EVENT,
                                               [NFY_TOK_COMMENT] = 0xFF,
                                               [NFY_TOK_NL] = 0xFF,
                                               [NFY_TOK_NEWLINE] = TP_EVENT,
                                               [NFY_TOK_INDENT] = TP_EVENT,
                                               [NFY_TOK_DEDENT] = TP_EVENT,
                                               [NFY_TOK_ERRORTOKEN] = TP_EVENT,
                                               [11] = TP_EVENT,
                                               [12] = TP_EVENT,
                                               [13] = TP_EVENT,
                                               [14] = TP_EVENT,
                                               [15] = TP_EVENT};

void nfy_lex_tokpos_reset(nfy__tokpos_cache *c, const nfy_token *toks)
{
    c->len = 0;
    c->of = toks;
    c->done = 0;
    c->prev_end_line = UINT32_MAX; /* no line is after it: no TP_LINE on
                                      the first record */
}

const nfy__tokpos_cache *nfy_lex_tokpos_get(const nfy_tokens *t)
{
    const nfy__tokpos_cache *c = t->tokpos;
    if (!c || c->of != t->toks.items || c->done != t->toks.len)
        return NULL;
    return c;
}

void nfy_lex_tokpos_free(nfy__tokpos_cache *c)
{
    nfy_vec_free(c);
}
