/*
 * The entry point and the final steps: run the passes, then the fix-ups
 * that need the whole file (arguments grouped per call, callee text,
 * try/except ImportError guards on imports), then hand every result vector
 * to the caller's arena, trimmed, so the nfy_pysyn is one flat, self-contained
 * value. Scratch memory (positions, vectors) is freed before returning.
 */
#include <stdlib.h>
#include <string.h>

#include "pysyn/syn_internal.h"

void nfy__pysyn_error(syn *s, uint32_t p, const char *code, const char *msg)
{
    s->pflags[p] |= PF_ERROR;
    s->any_bad = true;
    if (s->cur_stmt != NFY_NONE && p >= s->st_first && p < s->st_end)
        s->stmts.items[s->cur_stmt].flags |= NFY_STMTF_ERROR;
    nfy__pysyn_error_tok(s, s->pos[p].tok, code, msg);
}

void nfy__pysyn_error_tok(syn *s, uint32_t t, const char *code, const char *msg)
{
    s->nerrors++;
    if (!s->diags || s->nerrors > SYN_MAX_DIAGS + 1)
        return;
    if (s->nerrors == SYN_MAX_DIAGS + 1) {
        code = "syn-too-many";
        msg = "too many syntax errors; the rest are not reported";
    }
    const nfy_token *tk = &s->toks[t];
    uint32_t len = tk->end > tk->start ? tk->end - tk->start : 1;
    nfy_diag_add(s->diags, NFY_SEV_ERROR, code, s->src, tk->start, len, "%s",
                 msg);
}

nfy_str nfy__pysyn_join_dotted(syn *s, uint32_t p, uint32_t e)
{
    nfy_pysyn m;
    memset(&m, 0, sizeof m);
    m.src = s->src;
    m.toks = s->toks;
    m.ntoks = s->ntoks;
    nfy_name_use u = {s->pos[p].tok, s->pos[e - 1].tok, 0, 0, 0, 0, 0};
    return nfy_pysyn_dotted(&m, s->arena, &u, 0);
}

/* Group the arguments of each call together, in call order. */
static void group_args(syn *s)
{
    size_t nc = s->calls.len, na = s->args.len;
    if (!na)
        return;
    bool grouped = true; /* already in order: no nested call in between */
    for (size_t i = 0; i < na; i++) {
        uint32_t c = s->args.items[i].call;
        s->calls.items[c].nargs++;
        if (i && c < s->args.items[i - 1].call)
            grouped = false;
    }
    uint32_t base = 0;
    for (size_t c = 0; c < nc; c++) {
        s->calls.items[c].args_first = base;
        base += s->calls.items[c].nargs;
    }
    if (grouped)
        return;
    uint32_t *next = malloc(nc * sizeof *next);
    uint32_t *remap = malloc(na * sizeof *remap);
    /* the grouped copy replaces the vector, whose block is freed */
    nfy_arg *out = nfy_arena_grow(NULL, na * sizeof *out);
    if (!next || !remap)
        abort();
    for (size_t c = 0; c < nc; c++)
        next[c] = s->calls.items[c].args_first;
    for (size_t i = 0; i < na; i++) {
        uint32_t j = next[s->args.items[i].call]++;
        out[j] = s->args.items[i];
        remap[i] = j;
    }
    nfy_arena_drop(s->args.items);
    s->args.items = out;
    s->args.cap = na;
    for (size_t i = 0; i < s->strings.len; i++)
        if (s->strings.items[i].arg != NFY_NONE)
            s->strings.items[i].arg = remap[s->strings.items[i].arg];
    for (size_t c = 0; c < nc; c++)
        if (s->calls.items[c].parent_arg != NFY_NONE)
            s->calls.items[c].parent_arg = remap[s->calls.items[c].parent_arg];
    free(remap);
    free(next);
}

static void callee_text(syn *s, nfy_pysyn *m)
{
    for (size_t c = 0; c < s->calls.len; c++) {
        nfy_call *call = &s->calls.items[c];
        if (call->use != NFY_NONE)
            call->dotted =
                nfy_pysyn_dotted(m, s->arena, &s->uses.items[call->use], 0);
    }
}

static bool catches_import_error(const syn *s, const nfy_stmt *ex)
{
    if (ex->end - ex->first <= 2)
        return true; /* bare `except:` */
    static const char *const names[] = {"ImportError", "ModuleNotFoundError",
                                        "Exception", "BaseException"};
    for (uint32_t t = ex->first; t < ex->end; t++) {
        if (s->toks[t].kind != NFY_TOK_NAME)
            continue;
        nfy_str txt = {s->src->data + s->toks[t].start,
                       s->toks[t].end - s->toks[t].start};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (nfy_str_eq_cstr(txt, names[i]))
                return true;
    }
    return false;
}

static void import_guards(syn *s)
{
    uint32_t n = (uint32_t)s->stmts.len;
    for (size_t i = 0; i < s->imports.len; i++) {
        nfy_import *imp = &s->imports.items[i];
        uint32_t a = s->stmts.items[imp->stmt].parent;
        while (a != NFY_NONE && s->stmts.items[a].kind != NFY_STMT_TRY)
            a = s->stmts.items[a].parent;
        if (a == NFY_NONE)
            continue;
        imp->try_stmt = a;
        imp->flags |= NFY_IMPF_IN_TRY;
        for (uint32_t j = s->stmts.items[a].body_end;
             j < n && s->stmts.items[j].clause_of == a;
             j = s->stmts.items[j].body_end)
            if (s->stmts.items[j].kind == NFY_STMT_EXCEPT &&
                catches_import_error(s, &s->stmts.items[j]))
                imp->flags |= NFY_IMPF_GUARDED;
    }
}

/* Slack at the end of tok_stmt for fill_run. */
#define RUN_SLACK 8

/* out[a, b) = v (a < b), RUN_SLACK at a time, so writing up to
   RUN_SLACK - 1 past b: fill_tok_stmt's runs come in increasing order, and
   each next run overwrites that. (Runs are a dozen tokens: the tail loops
   of a general fill would cost a mispredicted exit or two each.) */
static void fill_run(uint32_t *out, uint32_t a, uint32_t b, uint32_t v)
{
#if defined(__SSE2__) && defined(__GNUC__)
    __m128i x = _mm_set1_epi32((int)v);
    do {
        _mm_storeu_si128((__m128i *)(void *)(out + a), x);
        _mm_storeu_si128((__m128i *)(void *)(out + a + 4), x);
        a += RUN_SLACK;
    } while (a < b);
#else
    do {
        for (uint32_t i = 0; i < RUN_SLACK; i++)
            out[a + i] = v;
        a += RUN_SLACK;
    } while (a < b);
#endif
}

/* tok_stmt in one sweep: each statement's tokens, NONE between them
   (statements are in token order; should two overlap, the earlier one
   keeps the shared tokens). */
static void fill_tok_stmt(syn *s)
{
    uint32_t t = 0, *out = s->tok_stmt;
    for (uint32_t i = 0; i < s->stmts.len; i++) {
        uint32_t first = s->stmts.items[i].first, end = s->stmts.items[i].end;
        if (first < t)
            first = t;
        if (first < end) {
            if (t < first)
                fill_run(out, t, first, NFY_NONE);
            fill_run(out, first, end, i);
            t = end;
        }
    }
    if (t < s->ntoks)
        fill_run(out, t, s->ntoks, NFY_NONE);
}

/* Each result vector goes to the arena trimmed to its length. */
static void copy_out(syn *s, nfy_pysyn *m)
{
#define COPY(vec, field)                                                       \
    m->field = nfy_arena_adopt(s->arena, s->vec.items,                         \
                               s->vec.len * sizeof *s->vec.items);             \
    m->n##field = (uint32_t)s->vec.len;
    COPY(stmts, stmts)
    COPY(scopes, scopes)
    COPY(bindings, bindings)
    COPY(uses, uses)
    COPY(attrs, attrs)
    COPY(calls, calls)
    COPY(args, args)
    COPY(subs, subscripts)
    COPY(imports, imports)
    COPY(inames, import_names)
    COPY(withs, with_items)
    COPY(strings, strings)
#undef COPY
    m->match = s->match;
    m->tok_stmt = s->tok_stmt;
    m->main_guard = s->main_guard;
    m->nerrors = s->nerrors;
}

/* Scratch blocks go back to the caller's scratch when small enough. */
static void give_back(syn *s)
{
    nfy_pysyn_scratch *sc = s->scratch;
    if (sc && sc->pmatch_bytes <= NFY_LEX_SCRATCH_KEEP) {
        sc->pmatch = (uint8_t *)s->pmatch;
        s->pmatch = NULL;
    } else if (sc) {
        sc->pmatch_bytes = 0; /* freed below */
    }
    size_t bbytes = s->breaks.cap * sizeof *s->breaks.items;
    if (sc && !sc->breaks && bbytes <= NFY_LEX_SCRATCH_KEEP) {
        sc->breaks = s->breaks.items;
        sc->breaks_cap = s->breaks.cap;
        s->breaks.items = NULL;
    }
}

static void release(syn *s)
{
    nfy_lex_tokpos_free(&s->own_pos);
    give_back(s);
    free(s->pmatch);
    nfy_vec_free(&s->breaks);
    /* the result vectors belong to the arena */
    nfy_vec_free(&s->blocks);
    nfy_vec_free(&s->scope_stack);
    nfy_vec_free(&s->vcols);
    nfy_vec_free(&s->inline_heads);
    nfy_vec_free(&s->frames);
    nfy_vec_free(&s->cands);
    nfy_vec_free(&s->eqs);
}

void nfy__pysyn_res_grow(void **items, size_t *cap, size_t elem)
{
    size_t ncap = *cap ? *cap * 2 : 16;
    if (ncap > SIZE_MAX / 2 / elem)
        abort(); /* cannot happen below 2^32 tokens */
    /* not zeroed: untouched capacity costs no page faults */
    *items = nfy_arena_grow(*items, ncap * elem);
    *cap = ncap;
}

/* Start capacities from typical counts per significant token in real
   code (torch, stdlib), so most files never grow a vector. */
static void reserve_results(syn *s)
{
    size_t n = s->nsig / 16 + 16;
    struct {
        void **items;
        size_t *cap;
        size_t want, elem;
    } r[] = {
        {(void **)&s->uses.items, &s->uses.cap, 5 * n, sizeof(nfy_name_use)},
        {(void **)&s->attrs.items, &s->attrs.cap, 3 * n, sizeof(nfy_attr)},
        {(void **)&s->stmts.items, &s->stmts.cap, 2 * n, sizeof(nfy_stmt)},
        {(void **)&s->bindings.items, &s->bindings.cap, 2 * n,
         sizeof(nfy_binding)},
        {(void **)&s->calls.items, &s->calls.cap, 2 * n, sizeof(nfy_call)},
        {(void **)&s->args.items, &s->args.cap, 2 * n, sizeof(nfy_arg)},
        {(void **)&s->strings.items, &s->strings.cap, n, sizeof(nfy_strlit)},
        {(void **)&s->scopes.items, &s->scopes.cap, n / 2, sizeof(nfy_scope)},
        {(void **)&s->subs.items, &s->subs.cap, n / 2, sizeof(nfy_subscript)},
        {(void **)&s->imports.items, &s->imports.cap, 16, sizeof(nfy_import)},
        {(void **)&s->inames.items, &s->inames.cap, 16,
         sizeof(nfy_import_name)},
        {(void **)&s->withs.items, &s->withs.cap, 16, sizeof(nfy_with_item)},
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        *r[i].cap = r[i].want / 2; /* nfy__pysyn_res_grow doubles it */
        nfy__pysyn_res_grow(r[i].items, r[i].cap, r[i].elem);
    }
}

/* The bracket partners and flags: 5 bytes a position (one more position,
   unused, so that neither array is empty); the scratch's block when it is
   big enough. */
static void alloc_pmatch(syn *s)
{
    nfy_pysyn_scratch *sc = s->scratch;
    size_t bytes = ((size_t)s->nsig + 1) * 5;
    if (sc && sc->pmatch && sc->pmatch_bytes >= bytes) {
        s->pmatch = (uint32_t *)(void *)sc->pmatch;
        sc->pmatch = NULL;
        return;
    }
    if (sc) { /* too small or none: a new block replaces it */
        free(sc->pmatch);
        sc->pmatch = NULL;
        sc->pmatch_bytes = bytes; /* the block out with this parse */
    }
    s->pmatch = malloc(bytes);
    if (!s->pmatch)
        abort();
}

static void take_breaks(syn *s)
{
    nfy_pysyn_scratch *sc = s->scratch;
    if (!sc || !sc->breaks)
        return;
    s->breaks.items = sc->breaks;
    s->breaks.cap = sc->breaks_cap;
    sc->breaks = NULL;
    sc->breaks_cap = 0;
}

static nfy_status parse(const nfy_source *src, const nfy_tokens *toks,
                        nfy_arena *arena, nfy_diags *diags,
                        nfy_pysyn_scratch *scratch, nfy_pysyn **out)
{
    if (toks->toks.len >= (size_t)UINT32_MAX - 2)
        return NFY_ELIMIT;
    syn s;
    memset(&s, 0, sizeof s);
    s.scratch = scratch;
    s.src = src;
    s.toks = toks->toks.items;
    s.ntoks = (uint32_t)toks->toks.len;
    s.arena = arena;
    s.diags = diags;
    s.cur_stmt = s.pending = s.deco_first = s.main_guard = NFY_NONE;
    size_t n = s.ntoks + 1;
    const nfy__tokpos_cache *sum = nfy_lex_tokpos_get(toks);
    if (!sum) { /* tokens not (or no longer) as nfy_lex_lex left them */
        nfy_lex_tokpos_reset(&s.own_pos, s.toks);
        nfy__tokpos_build(&s.own_pos, s.toks, s.ntoks);
        sum = &s.own_pos;
    }
    s.pos = sum->items;
    s.nsig = (uint32_t)sum->len;
    alloc_pmatch(&s); /* partners then flags in one block */
    take_breaks(&s);
    s.pflags = (uint8_t *)(s.pmatch + s.nsig + 1);
    syn_fill_u32(s.pmatch, 0, s.nsig + 1, NFY_NONE);
    memset(s.pflags, 0, (size_t)s.nsig + 1);
    s.tok_stmt = nfy_arena_alloc(arena, (n + RUN_SLACK) * sizeof *s.tok_stmt);
    s.match = nfy_arena_alloc(arena, n * sizeof *s.match);
    syn_fill_u32(s.match, 0, s.ntoks, NFY_NONE);
    nfy_pysyn *m = nfy_arena_calloc(arena, 1, sizeof *m);
    m->src = src;
    m->toks = s.toks;
    m->ntoks = s.ntoks;
    nfy__pysyn_pass1(&s);
    reserve_results(&s);
    nfy__pysyn_pass2(&s);
    group_args(&s);
    callee_text(&s, m);
    import_guards(&s);
    fill_tok_stmt(&s);
    copy_out(&s, m);
    release(&s);
    *out = m;
    return NFY_OK;
}

nfy_status nfy_pysyn_parse(const nfy_source *src, const nfy_tokens *toks,
                           nfy_arena *arena, nfy_diags *diags, nfy_pysyn **out)
{
    return parse(src, toks, arena, diags, NULL, out);
}

nfy_status nfy_pysyn_parse_reuse(const nfy_source *src, const nfy_tokens *toks,
                                 nfy_arena *arena, nfy_diags *diags,
                                 nfy_front_scratch *sc, nfy_pysyn **out)
{
    return parse(src, toks, arena, diags, &sc->syn, out);
}

void nfy_pysyn_front_scratch_init(nfy_front_scratch *sc)
{
    nfy_lex_scratch_init(&sc->lex);
    memset(&sc->syn, 0, sizeof sc->syn);
}

void nfy_pysyn_front_scratch_release(nfy_front_scratch *sc)
{
    nfy_lex_scratch_release(&sc->lex);
    free(sc->syn.pmatch);
    free(sc->syn.breaks);
    memset(&sc->syn, 0, sizeof sc->syn);
}
