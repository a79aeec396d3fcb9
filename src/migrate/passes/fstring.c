/*
 * Renames inside f-string expressions: f"npu:{torch.cuda.current_device()}"
 * names torch.cuda in code that pysyn sees only as string text. Each
 * {expression} part is scanned for dotted chains whose head resolves (from
 * the string's scope) to an import; the same rename rules as for ordinary
 * uses apply, with edits confined to the bytes of the chain, so the
 * literal text of the f-string stays free for the string rules.
 */
#include <string.h>

#include "migrate/name_match.h"
#include "migrate/run.h"

#define FCHAIN_MAX 32

static bool ident_start(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
           (unsigned char)ch >= 0x80;
}

static bool ident_char(char ch)
{
    return ident_start(ch) || (ch >= '0' && ch <= '9');
}

typedef struct {
    nfy_span names[FCHAIN_MAX];
    uint32_t n;
    bool called;
} fchain;

/* Parse NAME('.'NAME)* at offset i of the source, up to end. */
static uint32_t parse_chain(const char *d, uint32_t i, uint32_t end, fchain *ch)
{
    ch->n = 0;
    for (;;) {
        uint32_t s = i;
        while (i < end && ident_char(d[i]))
            i++;
        if (ch->n < FCHAIN_MAX)
            ch->names[ch->n++] = (nfy_span){s, i};
        if (i + 1 < end && d[i] == '.' && ident_start(d[i + 1]))
            i++;
        else
            break;
    }
    uint32_t j = i;
    while (j < end && d[j] == ' ')
        j++;
    ch->called = j < end && d[j] == '(';
    return i;
}

static void chain_rename(mig_ctx *c, uint32_t scope, uint32_t tok,
                         const fchain *ch)
{
    const char *d = c->src->data;
    nfy_str head = {d + ch->names[0].start,
                    ch->names[0].end - ch->names[0].start};
    uint32_t b = nfy_resolve_lookup(c->r, scope, tok, head);
    if (b == NFY_NONE || c->r->bind_qual[b].len == 0 ||
        c->r->bind_qual[b].ptr[0] == '.')
        return;
    nfy_buf q = NFY_BUF_INIT;
    (void)nfy_buf_addview(&q, c->r->bind_qual[b]);
    for (uint32_t i = 1; i < ch->n; i++) {
        (void)nfy_buf_addch(&q, '.');
        (void)nfy_buf_add(&q, d + ch->names[i].start,
                          ch->names[i].end - ch->names[i].start);
    }
    nfy_str qual = nfy_arena_str(c->arena, nfy_buf_view(&q));
    nfy_buf_release(&q);
    mig_qmatch m;
    if (nfy__mig_best_rename(c, qual, ch->called, &m))
        nfy__mig_rename_chain(c, &m, qual, c->r->bind_head[b], ch->names, ch->n,
                              NULL, false);
}

/* Scan one {expression} part, skipping nested string literals. */
static void scan_expr(mig_ctx *c, uint32_t scope, uint32_t tok, nfy_span sp)
{
    const char *d = c->src->data;
    for (uint32_t i = sp.start; i < sp.end;) {
        char ch = d[i];
        if (ch == '"' || ch == '\'') {
            const char *close = memchr(d + i + 1, ch, sp.end - i - 1);
            i = close ? (uint32_t)(close - d) + 1 : sp.end;
            continue;
        }
        bool start =
            ident_start(ch) &&
            (i == sp.start || (!ident_char(d[i - 1]) && d[i - 1] != '.'));
        if (!start) {
            i++;
            continue;
        }
        fchain fc;
        i = parse_chain(d, i, sp.end, &fc);
        if (fc.n >= 2)
            chain_rename(c, scope, tok, &fc);
    }
}

void nfy__mig_pass_fstrings(mig_ctx *c)
{
    nfy_fstring_parts parts = {0};
    for (uint32_t g = 0; g < c->m->nstrings && c->p->run->names.len > 0; g++) {
        const nfy_strlit *s = &c->m->strings[g];
        if (!(s->flags & NFY_TOKF_FSTRING))
            continue;
        for (uint32_t t = s->first; t < s->end; t++) {
            parts.len = 0;
            if (c->m->toks[t].kind != NFY_TOK_STRING ||
                !nfy_lex_fstring_split(c->src, &c->m->toks[t], &parts))
                continue;
            size_t before = c->edits->edits.len;
            for (size_t i = 0; i < parts.len; i++) {
                if (parts.items[i].is_expr)
                    scan_expr(c, s->scope, t, parts.items[i].span);
            }
            if (c->edits->edits.len > before && c->claimed[t] == CLAIM_NONE)
                c->claimed[t] = CLAIM_INSIDE;
        }
    }
    nfy_vec_free(&parts);
}
