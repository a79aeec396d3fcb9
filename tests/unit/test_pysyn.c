/* Unit tests for src/pysyn: statements and blocks, bracket matching, calls
 * and arguments, imports, scopes and bindings, with-items, strings, the
 * __main__ guard, error recovery, deep nesting, and real-world snippets.
 * Each test builds the structure from Python text through pylex. */
/* cmocka.h needs these before it */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
/* clang-format on */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "pylex/pylex.h"
#include "pysyn/pysyn.h"

typedef struct {
    nfy_source src;
    nfy_tokens toks;
    nfy_arena arena;
    nfy_diags diags;
    const nfy_pysyn *m;
} fixture;

static fixture *parse_n(const char *text, size_t len)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    assert_int_equal(nfy_source_from_mem(&f->src, "t.py", text, len), NFY_OK);
    nfy_lex_tokens_init(&f->toks);
    nfy_arena_init(&f->arena);
    nfy_diags_init(&f->diags);
    assert_int_equal(nfy_lex_lex(&f->src, &f->toks, &f->diags), NFY_OK);
    nfy_pysyn *m = NULL;
    assert_int_equal(
        nfy_pysyn_parse(&f->src, &f->toks, &f->arena, &f->diags, &m), NFY_OK);
    assert_non_null(m);
    f->m = m;
    return f;
}

static fixture *parse(const char *text)
{
    return parse_n(text, strlen(text));
}

static void done(fixture *f)
{
    nfy_diags_release(&f->diags);
    nfy_arena_release(&f->arena);
    nfy_lex_tokens_release(&f->toks);
    nfy_source_release(&f->src);
    free(f);
}

static bool text_is(const fixture *f, uint32_t tok, const char *s)
{
    return nfy_pysyn_tok_is(f->m, tok, s);
}

static bool span_is(const fixture *f, nfy_span sp, const char *s)
{
    return nfy_str_eq_cstr(nfy_pysyn_span_text(f->m, sp), s);
}

/* The first call whose callee is the dotted name; NFY_NONE if none. */
static uint32_t call_named(const fixture *f, const char *dotted)
{
    for (uint32_t i = 0; i < f->m->ncalls; i++)
        if (nfy_str_eq_cstr(f->m->calls[i].dotted, dotted))
            return i;
    return NFY_NONE;
}

/* The n-th binding (0-based) of name, or NULL. */
static const nfy_binding *binding(const fixture *f, const char *name, int n)
{
    for (uint32_t i = 0; i < f->m->nbindings; i++)
        if (text_is(f, f->m->bindings[i].tok, name) && n-- == 0)
            return &f->m->bindings[i];
    return NULL;
}

/* The n-th name use (0-based) whose NAME is name, or NULL. */
static const nfy_name_use *use_of(const fixture *f, const char *name, int n)
{
    for (uint32_t i = 0; i < f->m->nuses; i++)
        if (text_is(f, f->m->uses[i].tok, name) && n-- == 0)
            return &f->m->uses[i];
    return NULL;
}

static const nfy_strlit *string_with(const fixture *f, const char *text)
{
    for (uint32_t i = 0; i < f->m->nstrings; i++)
        if (span_is(f, f->m->strings[i].span, text))
            return &f->m->strings[i];
    return NULL;
}

static bool has_diag(const fixture *f, const char *code, uint32_t line)
{
    for (size_t i = 0; i < f->diags.items.len; i++)
        if (!strcmp(f->diags.items.items[i].code, code) &&
            f->diags.items.items[i].line == line)
            return true;
    return false;
}

/* ---- statements and blocks ---------------------------------------------- */

static void test_statements(void **state)
{
    (void)state;
    fixture *f = parse("import os\nx = 1; y += 2; z: int\n"
                       "if a:\n    b()\n    for i in r:\n        pass\n"
                       "elif c: d = 1\nelse:\n    return\n"
                       "async def g():\n    await h()\n");
    const nfy_pysyn *m = f->m;
    static const nfy_stmt_kind kinds[] = {
        NFY_STMT_IMPORT,    NFY_STMT_ASSIGN, NFY_STMT_AUGASSIGN,
        NFY_STMT_ANNASSIGN, NFY_STMT_IF,     NFY_STMT_EXPR,
        NFY_STMT_FOR,       NFY_STMT_PASS,   NFY_STMT_ELIF,
        NFY_STMT_ASSIGN,    NFY_STMT_ELSE,   NFY_STMT_RETURN,
        NFY_STMT_DEF,       NFY_STMT_EXPR};
    assert_int_equal(m->nstmts, sizeof kinds / sizeof kinds[0]);
    for (uint32_t i = 0; i < m->nstmts; i++)
        assert_int_equal(m->stmts[i].kind, kinds[i]);
    /* if a: body is [5, 8): b(), for, pass */
    assert_int_equal(m->stmts[4].body_end, 8);
    assert_int_equal(m->stmts[6].parent, 4);
    assert_int_equal(m->stmts[7].parent, 6);
    assert_int_equal(m->stmts[7].depth, 2);
    assert_int_equal(m->stmts[8].clause_of, 4);
    assert_int_equal(m->stmts[10].clause_of, 4);
    assert_true(m->stmts[8].flags & NFY_STMTF_INLINE_BODY);
    assert_int_equal(m->stmts[9].parent, 8);
    assert_true(m->stmts[12].flags & NFY_STMTF_ASYNC);
    assert_true(text_is(f, m->stmts[12].name_tok, "g"));
    assert_int_equal(m->stmts[13].scope, m->stmts[12].body_scope);
    assert_true(span_is(f, m->stmts[1].span, "x = 1"));
    assert_true(span_is(f, m->stmts[2].span, "y += 2"));
    assert_int_equal(m->stmts[2].line, 2);
    assert_int_equal(m->stmts[2].col, 7);
    /* every token of a statement maps back to it */
    for (uint32_t t = m->stmts[5].first; t < m->stmts[5].end; t++)
        assert_int_equal(m->tok_stmt[t], 5);
    assert_int_equal(m->nerrors, 0);
    done(f);
}

static void test_decorators_and_match(void **state)
{
    (void)state;
    fixture *f = parse("@torch.no_grad()\n"
                       "@staticmethod\n"
                       "def f(): pass\n"
                       "match cmd:\n"
                       "    case [x, *rest] if x: pass\n"
                       "    case Point(x=0, y=yy): pass\n"
                       "match = 3\n");
    const nfy_pysyn *m = f->m;
    assert_int_equal(m->stmts[0].kind, NFY_STMT_DECORATOR);
    assert_int_equal(m->stmts[2].kind, NFY_STMT_DEF);
    assert_int_equal(m->stmts[2].deco_first, 0);
    assert_int_equal(m->stmts[2].ndecos, 2);
    uint32_t c = call_named(f, "torch.no_grad");
    assert_int_not_equal(c, NFY_NONE);
    assert_true(m->calls[c].flags & NFY_CALLF_DECORATOR);
    assert_int_equal(m->stmts[4].kind, NFY_STMT_MATCH);
    assert_int_equal(m->stmts[5].kind, NFY_STMT_CASE);
    assert_int_equal(m->stmts[5].parent, 4);
    assert_int_equal(binding(f, "x", 0)->kind, NFY_BIND_MATCH);
    assert_int_equal(binding(f, "rest", 0)->kind, NFY_BIND_MATCH);
    assert_int_equal(binding(f, "yy", 0)->kind, NFY_BIND_MATCH);
    assert_null(binding(f, "Point", 0));
    /* `match = 3` is an assignment, not a match statement */
    assert_int_equal(m->stmts[m->nstmts - 1].kind, NFY_STMT_ASSIGN);
    assert_int_equal(m->nerrors, 0);
    done(f);
}

/* ---- brackets ------------------------------------------------------------ */

static void test_bracket_matching(void **state)
{
    (void)state;
    fixture *f = parse("a = f([1, {2: (3)}], g[4])\n");
    const nfy_pysyn *m = f->m;
    uint32_t opens = 0;
    for (uint32_t t = 0; t < m->ntoks; t++) {
        if (m->toks[t].kind != NFY_TOK_OP)
            continue;
        uint32_t op = m->toks[t].op;
        if (op == NFY_OP_LPAR || op == NFY_OP_LSQB || op == NFY_OP_LBRACE) {
            opens++;
            uint32_t c = m->match[t];
            assert_int_not_equal(c, NFY_NONE);
            assert_int_equal(m->match[c], t);
            assert_true(c > t);
        }
    }
    assert_int_equal(opens, 5);
    done(f);
}

/* "x = " + depth times open + depth times close + "\n" */
static char *nested(size_t depth, const char *open, const char *close)
{
    size_t lo = strlen(open), lc = strlen(close), at = 4;
    char *s = malloc(depth * (lo + lc) + 8);
    assert_non_null(s);
    memcpy(s, "x = ", 4);
    for (size_t i = 0; i < depth; i++, at += lo)
        memcpy(s + at, open, lo);
    for (size_t i = 0; i < depth; i++, at += lc)
        memcpy(s + at, close, lc);
    memcpy(s + at, "\n", 2);
    return s;
}

static void test_deep_nesting(void **state)
{
    (void)state;
    /* 10000 nested brackets and calls: no recursion, so no stack overflow */
    char *text = nested(10000, "(", ")");
    fixture *f = parse(text);
    assert_int_equal(f->m->nstmts, 1);
    assert_int_equal(f->m->match[2], f->m->ntoks - 3);
    done(f);
    free(text);
    text = nested(10000, "f(", ")");
    f = parse(text);
    assert_int_equal(f->m->ncalls, 10000);
    assert_int_equal(f->m->calls[9999].parent_call, 9998);
    done(f);
    free(text);
    /* 2000 nested blocks */
    size_t n = 2000 * 2010 + 64, at = 0;
    text = malloc(n);
    for (int i = 0; i < 2000; i++) {
        at += (size_t)snprintf(text + at, n - at, "%*sif x:\n", i, "");
    }
    snprintf(text + at, n - at, "%*spass\n", 2000, "");
    f = parse(text);
    assert_int_equal(f->m->nstmts, 2001);
    assert_int_equal(f->m->stmts[2000].depth, 2000);
    assert_int_equal(f->m->stmts[0].body_end, 2001);
    done(f);
    free(text);
}

static void test_unbalanced(void **state)
{
    (void)state;
    fixture *f = parse("a = (1, [2)\nb = 3]\nc = f(\n");
    assert_true(f->m->nerrors >= 2);
    assert_true(has_diag(f, "syn-unclosed", 1));
    /* b = 3] still becomes its own statement */
    bool seen_b = false;
    for (uint32_t i = 0; i < f->m->nstmts; i++)
        if (span_is(f, f->m->stmts[i].span, "b = 3]"))
            seen_b = (f->m->stmts[i].flags & NFY_STMTF_ERROR) != 0;
    assert_true(seen_b);
    uint32_t c = call_named(f, "f");
    assert_int_not_equal(c, NFY_NONE);
    assert_true(f->m->calls[c].flags & NFY_CALLF_UNCLOSED);
    assert_int_equal(f->m->calls[c].rpar, NFY_NONE);
    done(f);
    /* 1000 stray closers: all counted, but only a bounded number of
       diagnostics (each copies its source line) */
    char text[2100];
    memset(text, ')', 2000);
    memcpy(text, "x = ", 4);
    memcpy(text + 2000, "\n", 2);
    f = parse(text);
    assert_int_equal(f->m->nerrors, 1996);
    size_t syn = 0;
    for (size_t i = 0; i < f->diags.items.len; i++)
        syn += !strncmp(f->diags.items.items[i].code, "syn-", 4);
    assert_true(syn > 10 && syn <= 51);
    assert_true(has_diag(f, "syn-too-many", 1));
    done(f);
}

/* ---- calls, arguments, attributes, subscripts ---------------------------- */

static void test_calls(void **state)
{
    (void)state;
    fixture *f =
        parse("y = torch . cuda.set_device(local_rank, *a, k=v, **kw)\n"
              "x.cuda().float()\n"
              "m = model.to(device, non_blocking=True)[0].half()\n"
              "\"cuda:{}\".format(i)\n");
    const nfy_pysyn *m = f->m;
    uint32_t c = call_named(f, "torch.cuda.set_device");
    assert_int_not_equal(c, NFY_NONE);
    const nfy_call *sd = &m->calls[c];
    assert_int_equal(sd->nargs, 4);
    const nfy_arg *a = &m->args[sd->args_first];
    assert_int_equal(a[0].kind, NFY_ARG_POS);
    assert_int_equal(a[0].pos, 0);
    assert_true(span_is(f, a[0].value_span, "local_rank"));
    assert_int_equal(a[1].kind, NFY_ARG_STAR);
    assert_true(span_is(f, a[1].value_span, "a"));
    assert_true(span_is(f, a[1].span, "*a"));
    assert_int_equal(a[2].kind, NFY_ARG_KEYWORD);
    assert_true(text_is(f, a[2].name_tok, "k"));
    assert_true(span_is(f, a[2].value_span, "v"));
    assert_int_equal(a[3].kind, NFY_ARG_DSTAR);
    assert_int_equal(nfy_pysyn_kwarg(m, c, "k"), sd->args_first + 2);
    assert_int_equal(nfy_pysyn_posarg(m, c, 0), sd->args_first);
    assert_int_equal(nfy_pysyn_kwarg(m, c, "zz"), NFY_NONE);
    /* the chain's use and the call-at lookup */
    assert_int_equal(m->uses[sd->use].nparts, 3);
    assert_int_equal(nfy_pysyn_call_at(m, sd->lpar), c);
    assert_int_equal(nfy_pysyn_use_at(m, sd->callee_first), sd->use);
    /* x.cuda().float(): float is taken on the result of cuda */
    uint32_t cu = call_named(f, "x.cuda");
    assert_int_not_equal(cu, NFY_NONE);
    assert_int_equal(m->calls[cu + 1].recv_call, cu);
    assert_true(text_is(f, m->calls[cu + 1].attr_tok, "float"));
    assert_int_equal(m->calls[cu + 1].dotted.len, 0);
    /* model.to(...)[0].half(): half's receiver is a subscript, not a call */
    uint32_t to = call_named(f, "model.to");
    assert_int_not_equal(to, NFY_NONE);
    assert_int_equal(m->calls[to + 1].recv_call, NFY_NONE);
    assert_true(text_is(f, m->calls[to + 1].attr_tok, "half"));
    assert_int_equal(m->nsubscripts, 1);
    assert_int_equal(m->subscripts[0].use, NFY_NONE);
    /* "cuda:{}".format(i): callee starts at the string */
    const nfy_call *fm = &m->calls[m->ncalls - 1];
    assert_true(text_is(f, fm->attr_tok, "format"));
    assert_int_equal(m->toks[fm->callee_first].kind, NFY_TOK_STRING);
    const nfy_strlit *s = string_with(f, "\"cuda:{}\"");
    assert_int_equal(s->ctx, NFY_STR_OPERAND);
    done(f);
}

static void test_dotted_with_comments(void **state)
{
    (void)state;
    fixture *f = parse("(torch  # c\n .cuda\n .amp).autocast()\n"
                       "v = torch.\\\n    cuda.is_available()\n");
    uint32_t c = call_named(f, "torch.cuda.is_available");
    assert_int_not_equal(c, NFY_NONE);
    const nfy_name_use *u = use_of(f, "torch", 0);
    assert_non_null(u);
    nfy_str d = nfy_pysyn_dotted(f->m, &f->arena, u, 0);
    assert_true(nfy_str_eq_cstr(d, "torch.cuda.amp"));
    assert_true(
        nfy_str_eq_cstr(nfy_pysyn_dotted(f->m, &f->arena, u, 2), "torch.cuda"));
    done(f);
}

/* ---- imports ------------------------------------------------------------- */

static void test_imports(void **state)
{
    (void)state;
    fixture *f = parse("import a.b.c, d as e\n"
                       "from . import x\n"
                       "from ..pkg.mod import (p as q,\n    r,)\n"
                       "from ...top import *\n"
                       "try:\n"
                       "    import apex\n"
                       "except ImportError:\n"
                       "    apex = None\n"
                       "def f():\n"
                       "    from torch.cuda import amp\n");
    const nfy_pysyn *m = f->m;
    assert_int_equal(m->nimports, 6);
    const nfy_import *im = &m->imports[0];
    assert_int_equal(im->nnames, 2);
    const nfy_import_name *n = &m->import_names[im->names_first];
    assert_true(nfy_str_eq_cstr(n[0].name, "a.b.c"));
    assert_true(nfy_str_eq_cstr(n[0].bound, "a"));
    assert_true(nfy_str_eq_cstr(n[0].target, "a"));
    assert_true(nfy_str_eq_cstr(n[1].bound, "e"));
    assert_true(nfy_str_eq_cstr(n[1].target, "d"));
    im = &m->imports[1];
    assert_int_equal(im->level, 1);
    assert_int_equal(im->module.len, 0);
    assert_true(nfy_str_eq_cstr(m->import_names[im->names_first].target, ".x"));
    im = &m->imports[2];
    assert_int_equal(im->level, 2);
    assert_true(nfy_str_eq_cstr(im->module, "pkg.mod"));
    assert_int_equal(im->nnames, 2);
    n = &m->import_names[im->names_first];
    assert_true(nfy_str_eq_cstr(n[0].bound, "q"));
    assert_true(nfy_str_eq_cstr(n[0].target, "..pkg.mod.p"));
    assert_true(nfy_str_eq_cstr(n[1].target, "..pkg.mod.r"));
    im = &m->imports[3];
    assert_int_equal(im->level, 3);
    assert_true(im->flags & NFY_IMPF_STAR);
    im = &m->imports[4];
    assert_true(im->flags & NFY_IMPF_IN_TRY);
    assert_true(im->flags & NFY_IMPF_GUARDED);
    im = &m->imports[5];
    assert_true(im->flags & NFY_IMPF_IN_FUNCTION);
    assert_false(im->flags & NFY_IMPF_IN_TRY);
    const nfy_binding *b = binding(f, "amp", 0);
    assert_int_equal(b->kind, NFY_BIND_IMPORT);
    assert_int_equal(m->scopes[b->scope].kind, NFY_SCOPE_FUNCTION);
    assert_true(nfy_str_eq_cstr(m->import_names[b->import_name].target,
                                "torch.cuda.amp"));
    assert_int_equal(m->nerrors, 0);
    done(f);
}

static void test_bad_imports(void **state)
{
    (void)state;
    fixture *f = parse("from import x\nimport\nfrom m import a,\nok = 1\n");
    assert_true(has_diag(f, "syn-import", 1));
    assert_true(has_diag(f, "syn-import", 2));
    assert_true(has_diag(f, "syn-import", 3));
    assert_true(f->m->imports[0].flags & NFY_IMPF_ERROR);
    assert_int_equal(f->m->stmts[3].kind, NFY_STMT_ASSIGN);
    assert_false(f->m->stmts[3].flags & NFY_STMTF_ERROR);
    done(f);
}

/* ---- scopes and bindings ------------------------------------------------- */

static void test_scopes_and_bindings(void **state)
{
    (void)state;
    fixture *f = parse("import torch\n"
                       "a, (b, *c) = t\n"
                       "d.e = f[g] = 1\n"
                       "def fn(p, q: int = torch, *ar, k=lambda z: z, **kw):\n"
                       "    global gl\n"
                       "    torch = 1\n"
                       "    with open(x) as (h1, h2), cm():\n"
                       "        pass\n"
                       "    try: pass\n"
                       "    except E as err: pass\n"
                       "    if (w := 3): del a\n"
                       "    return [i for i in torch if i]\n"
                       "class C:\n"
                       "    attr = 1\n");
    const nfy_pysyn *m = f->m;
    assert_int_equal(binding(f, "a", 0)->kind, NFY_BIND_ASSIGN);
    assert_int_equal(binding(f, "b", 0)->kind, NFY_BIND_ASSIGN);
    assert_int_equal(binding(f, "c", 0)->kind, NFY_BIND_ASSIGN);
    assert_null(binding(f, "d", 0)); /* attribute and subscript targets */
    assert_null(binding(f, "f", 0));
    const nfy_binding *p = binding(f, "p", 0);
    assert_int_equal(p->kind, NFY_BIND_PARAM);
    uint32_t fs = p->scope;
    assert_int_equal(m->scopes[fs].kind, NFY_SCOPE_FUNCTION);
    assert_int_equal(binding(f, "ar", 0)->scope, fs);
    assert_int_equal(binding(f, "kw", 0)->scope, fs);
    assert_int_equal(binding(f, "fn", 0)->scope, 0);
    /* the default `torch` is looked up outside; the body one is local */
    const nfy_name_use *dflt = use_of(f, "torch", 0);
    assert_int_equal(dflt->scope, 0);
    const nfy_binding *tl = binding(f, "torch", 1);
    assert_int_equal(tl->kind, NFY_BIND_ASSIGN);
    assert_int_equal(tl->scope, fs);
    assert_true(text_is(f, tl->value_first, "1"));
    /* lambda parameter in its own scope, child of the module */
    const nfy_binding *z = binding(f, "z", 0);
    assert_int_equal(m->scopes[z->scope].kind, NFY_SCOPE_LAMBDA);
    assert_int_equal(m->scopes[z->scope].parent, 0);
    assert_int_equal(use_of(f, "z", 0)->scope, z->scope);
    assert_int_equal(binding(f, "gl", 0)->kind, NFY_BIND_GLOBAL);
    assert_int_equal(binding(f, "h1", 0)->kind, NFY_BIND_WITH);
    assert_int_equal(binding(f, "h2", 0)->kind, NFY_BIND_WITH);
    assert_int_equal(binding(f, "err", 0)->kind, NFY_BIND_EXCEPT);
    assert_int_equal(binding(f, "w", 0)->kind, NFY_BIND_WALRUS);
    assert_int_equal(binding(f, "a", 1)->kind, NFY_BIND_DEL);
    assert_int_equal(use_of(f, "a", 1)->ctx, NFY_CTX_DEL);
    /* comprehension: i is bound inside, the first iterable is outside */
    const nfy_binding *i = binding(f, "i", 0);
    assert_int_equal(i->kind, NFY_BIND_FOR);
    assert_int_equal(m->scopes[i->scope].kind, NFY_SCOPE_COMPREHENSION);
    assert_int_equal(m->scopes[i->scope].parent, fs);
    assert_int_equal(use_of(f, "i", 0)->scope, i->scope);
    assert_int_equal(use_of(f, "torch", 2)->scope, fs);
    const nfy_binding *attr = binding(f, "attr", 0);
    assert_int_equal(m->scopes[attr->scope].kind, NFY_SCOPE_CLASS);
    assert_int_equal(m->nwith_items, 2);
    assert_true(span_is(f, m->with_items[0].ctx_span, "open(x)"));
    assert_true(span_is(f, m->with_items[0].target_span, "(h1, h2)"));
    assert_int_equal(m->with_items[1].target_first, NFY_NONE);
    assert_int_equal(m->nerrors, 0);
    done(f);
}

static void test_comprehension_walrus_scope(void **state)
{
    (void)state;
    fixture *f = parse("def g():\n"
                       "    ys = [y := v for v in data]\n"
                       "    return {k: [j for j in k] for k in ks}\n");
    const nfy_pysyn *m = f->m;
    const nfy_binding *y = binding(f, "y", 0);
    assert_int_equal(y->kind, NFY_BIND_WALRUS);
    assert_int_equal(m->scopes[y->scope].kind, NFY_SCOPE_FUNCTION);
    const nfy_binding *j = binding(f, "j", 0);
    const nfy_binding *k = binding(f, "k", 0);
    assert_int_equal(m->scopes[j->scope].parent, k->scope);
    assert_int_equal(use_of(f, "k", 0)->scope, k->scope);
    assert_int_equal(use_of(f, "k", 1)->scope, k->scope);
    done(f);
}

/* ---- strings and the main guard -------------------------------------------
 */

static void test_strings(void **state)
{
    (void)state;
    fixture *f = parse("\"\"\"doc\"\"\"\n"
                       "dev = torch.device(\"cuda\" \":0\")\n"
                       "x.to(device=\"cuda\")\n"
                       "if d.type == 'cuda': pass\n"
                       "p.add_argument('--dev', default='cuda', "
                       "choices=['cuda', 'cpu'])\n"
                       "s = f\"cuda:{rank}\"\n"
                       "os.environ['CUDA_VISIBLE_DEVICES'] = '0'\n"
                       "def fn(device='cuda'): pass\n"
                       "if __name__ == '__main__':\n"
                       "    main()\n");
    const nfy_pysyn *m = f->m;
    assert_int_equal(string_with(f, "\"\"\"doc\"\"\"")->ctx, NFY_STR_DOCSTRING);
    const nfy_strlit *s = string_with(f, "\"cuda\" \":0\"");
    assert_non_null(s);
    assert_int_equal(s->ctx, NFY_STR_ARG);
    assert_int_equal(s->end - s->first, 2);
    assert_int_equal(s->call, call_named(f, "torch.device"));
    s = string_with(f, "\"cuda\"");
    assert_int_equal(s->ctx, NFY_STR_ARG);
    assert_true(text_is(f, m->args[s->arg].name_tok, "device"));
    assert_int_equal(string_with(f, "'cuda'")->ctx, NFY_STR_COMPARE);
    const nfy_strlit *dflt = NULL, *choice = NULL;
    for (uint32_t i = 0; i < m->nstrings; i++) {
        const nfy_strlit *t = &m->strings[i];
        if (t->call == call_named(f, "p.add_argument") &&
            span_is(f, t->span, "'cuda'"))
            *(t->ctx == NFY_STR_ARG ? &dflt : &choice) = t;
    }
    assert_non_null(dflt);
    assert_true(text_is(f, m->args[dflt->arg].name_tok, "default"));
    assert_non_null(choice);
    assert_int_equal(choice->ctx, NFY_STR_IN_ARG);
    assert_true(text_is(f, m->args[choice->arg].name_tok, "choices"));
    s = string_with(f, "f\"cuda:{rank}\"");
    assert_int_equal(s->ctx, NFY_STR_ASSIGN);
    assert_true(s->flags & NFY_TOKF_FSTRING);
    assert_true(text_is(f, m->bindings[s->binding].tok, "s"));
    nfy_fstring_parts parts = {0};
    assert_true(nfy_lex_fstring_split(&f->src, &m->toks[s->first], &parts));
    assert_int_equal(parts.len, 2);
    assert_true(parts.items[1].is_expr);
    assert_true(span_is(f, parts.items[1].span, "rank"));
    nfy_vec_free(&parts);
    assert_int_equal(string_with(f, "'CUDA_VISIBLE_DEVICES'")->ctx,
                     NFY_STR_SUBSCRIPT);
    s = string_with(f, "'0'");
    assert_int_equal(s->ctx, NFY_STR_ASSIGN);
    assert_int_equal(s->binding, NFY_NONE);
    bool found_default = false;
    for (uint32_t i = 0; i < m->nstrings; i++)
        if (m->strings[i].ctx == NFY_STR_DEFAULT) {
            found_default = true;
            assert_true(text_is(f, m->strings[i].param_tok, "device"));
        }
    assert_true(found_default);
    assert_int_not_equal(m->main_guard, NFY_NONE);
    assert_true(m->stmts[m->main_guard].flags & NFY_STMTF_MAIN_GUARD);
    assert_int_equal(m->stmts[m->main_guard].body_end, m->nstmts);
    done(f);
}

/* ---- error recovery ------------------------------------------------------ */

static void test_error_recovery(void **state)
{
    (void)state;
    fixture *f = parse("x = foo(1,\n"
                       "def good(a):\n"
                       "    return a\n"
                       "if y\n"
                       "    z = 1\n"
                       "class K:\n"
                       "    pass\n");
    const nfy_pysyn *m = f->m;
    assert_true(has_diag(f, "syn-unclosed", 1));
    assert_true(m->stmts[0].flags & NFY_STMTF_ERROR);
    /* the def after the unclosed call is found, with its body */
    uint32_t def = NFY_NONE, cls = NFY_NONE;
    for (uint32_t i = 0; i < m->nstmts; i++) {
        if (m->stmts[i].kind == NFY_STMT_DEF)
            def = i;
        if (m->stmts[i].kind == NFY_STMT_CLASS)
            cls = i;
    }
    assert_int_not_equal(def, NFY_NONE);
    assert_true(text_is(f, m->stmts[def].name_tok, "good"));
    assert_int_equal(m->stmts[def + 1].kind, NFY_STMT_RETURN);
    assert_int_equal(m->stmts[def + 1].parent, def);
    assert_true(has_diag(f, "syn-expected-colon", 4));
    assert_int_not_equal(cls, NFY_NONE);
    assert_int_equal(m->stmts[cls].parent, NFY_NONE);
    assert_int_equal(m->stmts[cls + 1].parent, cls);
    done(f);

    f = parse("a = 1\n    b = 2\nc = 3)\nelse:\n    pass\n");
    assert_true(has_diag(f, "syn-unexpected-indent", 2));
    assert_true(has_diag(f, "syn-unmatched", 3));
    assert_true(has_diag(f, "syn-orphan-clause", 4));
    assert_int_equal(f->m->nstmts, 5);
    done(f);

    f = parse("def f():\nx = 1\n");
    assert_true(has_diag(f, "syn-expected-indent", 1));
    assert_int_equal(f->m->stmts[1].parent, NFY_NONE);
    done(f);
}

static void test_garbage_never_crashes(void **state)
{
    (void)state;
    /* '|'-separated inputs; each must give well-nested statements */
    static const char inputs[] =
        "|\n|)|(((|]]]|lambda|lambda x|def|class|from|from .|import|@|if|"
        "else:|x = = =|with as:|for in :|f(**)|f(x=)|a[|a.b.|\x01\xff|"
        "'unterminated|\"\"\"also|x = [i for]|async|match x:|case|del|"
        "global|def f(:\n pass|f(\n\tdef x|;;;|if x:\n  else:\n";
    char text[64];
    int count = 0;
    for (const char *p = inputs; *p || p == inputs; p++) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        assert_true(n < sizeof text);
        memcpy(text, p, n);
        text[n] = '\0';
        fixture *f = parse(text);
        for (uint32_t i = 0; i < f->m->nstmts; i++) {
            const nfy_stmt *st = &f->m->stmts[i];
            assert_true(st->body_end > i && st->body_end <= f->m->nstmts);
            assert_true(st->parent == NFY_NONE || st->parent < i);
            if (st->parent != NFY_NONE)
                assert_true(f->m->stmts[st->parent].body_end >= st->body_end);
        }
        done(f);
        count++;
        if (!bar)
            break;
        p = bar;
    }
    assert_int_equal(count, 35);
    fixture *f = parse_n("x = (\0)\n\0def f(:\n", 16); /* NUL bytes */
    assert_true(f->m->nstmts >= 1);
    done(f);
}

/* ---- real-world-like snippets -------------------------------------------- */

static const char train_py[] =
    "import argparse\n"
    "import torch\n"
    "import torch.distributed as dist\n"
    "from torch.cuda.amp import autocast, GradScaler\n"
    "\n"
    "def main():\n"
    "    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('--device', default='cuda', type=str)\n"
    "    args = parser.parse_args()\n"
    "    dist.init_process_group(backend='nccl', init_method='env://')\n"
    "    local_rank = int(os.environ['LOCAL_RANK'])\n"
    "    torch.cuda.set_device(local_rank)\n"
    "    device = torch.device(f'cuda:{local_rank}')\n"
    "    model = Net().cuda()\n"
    "    model = torch.nn.parallel.DistributedDataParallel(\n"
    "        model, device_ids=[local_rank])\n"
    "    scaler = GradScaler()\n"
    "    for epoch in range(args.epochs):\n"
    "        for x, y in loader:\n"
    "            x, y = x.cuda(non_blocking=True), y.to(device)\n"
    "            with autocast():\n"
    "                loss = model(x).sum()\n"
    "            scaler.scale(loss).backward()\n"
    "    ckpt = torch.load(path, map_location='cuda:0')\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n";

static void test_real_world_train(void **state)
{
    (void)state;
    fixture *f = parse(train_py);
    const nfy_pysyn *m = f->m;
    assert_int_equal(m->nerrors, 0);
    assert_int_equal(m->nimports, 4);
    uint32_t c = call_named(f, "dist.init_process_group");
    assert_int_not_equal(c, NFY_NONE);
    uint32_t be = nfy_pysyn_kwarg(m, c, "backend");
    assert_int_not_equal(be, NFY_NONE);
    assert_true(span_is(f, m->args[be].value_span, "'nccl'"));
    const nfy_strlit *s = string_with(f, "'nccl'");
    assert_int_equal(s->ctx, NFY_STR_ARG);
    assert_int_equal(s->arg, be);
    c = call_named(f, "torch.load");
    uint32_t ml = nfy_pysyn_kwarg(m, c, "map_location");
    assert_true(span_is(f, m->args[ml].value_span, "'cuda:0'"));
    /* Net().cuda(): cuda on a call result */
    uint32_t net = call_named(f, "Net");
    assert_int_equal(m->calls[net + 1].recv_call, net);
    c = call_named(f, "x.cuda");
    assert_int_not_equal(c, NFY_NONE);
    assert_int_equal(m->args[m->calls[c].args_first].kind, NFY_ARG_KEYWORD);
    c = call_named(f, "torch.nn.parallel.DistributedDataParallel");
    assert_int_equal(m->calls[c].nargs, 2);
    const nfy_binding *lr = binding(f, "local_rank", 0);
    assert_true(span_is(f,
                        nfy_pysyn_range_span(m, lr->value_first, lr->value_end),
                        "int(os.environ['LOCAL_RANK'])"));
    assert_int_not_equal(m->main_guard, NFY_NONE);
    assert_int_equal(binding(f, "epoch", 0)->kind, NFY_BIND_FOR);
    assert_int_equal(binding(f, "x", 1)->kind, NFY_BIND_ASSIGN);
    assert_int_equal(m->nwith_items, 1);
    done(f);
}

static void test_real_world_model(void **state)
{
    (void)state;
    fixture *f = parse(
        "# -*- coding: utf-8 -*-\n"
        "from __future__ import annotations\n"
        "import torch.nn as nn\n"
        "class Net(nn.Module):\n"
        "    '''A net.'''\n"
        "    def __init__(self, n: int = 10) -> None:\n"
        "        super().__init__()\n"
        "        self.fc = nn.Linear(n, n)\n"
        "        if torch.cuda.is_available() and self.fc.weight.is_cuda:\n"
        "            self.fc = self.fc.cuda()\n"
        "    @property\n"
        "    def device(self):\n"
        "        return next(self.parameters()).device\n"
        "    def forward(self, x):\n"
        "        return self.fc(x) if x.is_cuda else x\n");
    const nfy_pysyn *m = f->m;
    assert_int_equal(m->nerrors, 0);
    uint32_t cls = 2;
    assert_int_equal(m->stmts[cls].kind, NFY_STMT_CLASS);
    assert_true(m->stmts[cls + 1].flags & NFY_STMTF_DOCSTRING);
    assert_int_equal(m->stmts[cls].body_end, m->nstmts);
    uint32_t bases = 0;
    for (uint32_t i = 0; i < m->ncalls; i++)
        bases += (m->calls[i].flags & NFY_CALLF_CLASS_BASES) != 0;
    assert_int_equal(bases, 1);
    const nfy_name_use *u = use_of(f, "self", 1);
    assert_non_null(u);
    assert_true(nfy_str_eq_cstr(nfy_pysyn_dotted(m, &f->arena, u, 0),
                                "self.fc.weight.is_cuda"));
    uint32_t deco = NFY_NONE;
    for (uint32_t i = 0; i < m->nstmts; i++)
        if (m->stmts[i].kind == NFY_STMT_DEF && m->stmts[i].ndecos)
            deco = i;
    assert_true(text_is(f, m->stmts[deco].name_tok, "device"));
    assert_int_equal(m->stmts[m->stmts[deco].deco_first].kind,
                     NFY_STMT_DECORATOR);
    done(f);
}

/* Strings in the structure may be arena copies: compare their text, then
 * blank them so that the rest of the record can be compared bytewise. */
static void take_str(nfy_str *a, nfy_str *b)
{
    assert_true(nfy_str_eq(*a, *b));
    *a = *b = (nfy_str){NULL, 0};
}

static void same_record(const void *pa, const void *pb, size_t size,
                        const char *type)
{
    unsigned char a[256], b[256];
    assert_true(size <= sizeof a);
    memcpy(a, pa, size);
    memcpy(b, pb, size);
    if (!strcmp(type, "nfy_call")) {
        take_str(&((nfy_call *)(void *)a)->dotted,
                 &((nfy_call *)(void *)b)->dotted);
    } else if (!strcmp(type, "nfy_import")) {
        take_str(&((nfy_import *)(void *)a)->module,
                 &((nfy_import *)(void *)b)->module);
    } else if (!strcmp(type, "nfy_import_name")) {
        nfy_import_name *x = (nfy_import_name *)(void *)a;
        nfy_import_name *y = (nfy_import_name *)(void *)b;
        take_str(&x->name, &y->name);
        take_str(&x->asname, &y->asname);
        take_str(&x->bound, &y->bound);
        take_str(&x->target, &y->target);
    }
    assert_memory_equal(a, b, size);
}

static void same_structure(const nfy_pysyn *m, const nfy_pysyn *ref)
{
    assert_int_equal(m->ntoks, ref->ntoks);
#define SAME_ARRAY(T, name)                                                    \
    assert_int_equal(m->n##name, ref->n##name);                                \
    for (uint32_t i = 0; i < m->n##name; i++)                                  \
        same_record(&m->name[i], &ref->name[i], sizeof(T), #T);
    NFY_PYSYN_ARRAYS(SAME_ARRAY)
#undef SAME_ARRAY
    assert_memory_equal(m->match, ref->match, m->ntoks * sizeof *m->match);
    assert_memory_equal(m->tok_stmt, ref->tok_stmt,
                        m->ntoks * sizeof *m->tok_stmt);
    assert_int_equal(m->main_guard, ref->main_guard);
    assert_int_equal(m->nerrors, ref->nerrors);
}

/* nfy_lex_lex leaves a token summary for pysyn's first pass; tokens that did
 * not come from nfy_lex_lex (here: copied into a fresh array) have none, and
 * pysyn builds its own. Both ways must give the same structure. */
static void check_same_without_summary(const char *text)
{
    fixture *f = parse(text);
    nfy_tokens copy;
    nfy_lex_tokens_init(&copy);
    for (size_t i = 0; i < f->toks.toks.len; i++)
        nfy_vec_push(&copy.toks, f->toks.toks.items[i]);
    nfy_arena arena;
    nfy_arena_init(&arena);
    nfy_pysyn *m = NULL;
    assert_int_equal(nfy_pysyn_parse(&f->src, &copy, &arena, NULL, &m), NFY_OK);
    same_structure(m, f->m);
    nfy_arena_release(&arena);
    nfy_lex_tokens_release(&copy);
    done(f);
}

static void test_same_without_lexer_summary(void **state)
{
    (void)state;
    check_same_without_summary(train_py);
    check_same_without_summary("def f(a, (b\n  x = [1,\n\n2]; y = f(*a)\n");
    check_same_without_summary("if x:\n\tpass\n  else: )]}\nclass C: ...\n");
    char *deep = nested(300, "([{", ")]}");
    check_same_without_summary(deep);
    free(deep);
}

/* One file through the scratch: the same tokens, diagnostics and structure
 * as fresh calls. */
static void check_reuse_one(const char *text, nfy_front_scratch *sc,
                            nfy_tokens *toks)
{
    fixture *f = parse(text);
    nfy_source src;
    assert_int_equal(nfy_source_from_mem(&src, "t.py", text, strlen(text)),
                     NFY_OK);
    nfy_arena arena;
    nfy_arena_init(&arena);
    nfy_diags diags;
    nfy_diags_init(&diags);
    assert_int_equal(nfy_lex_reuse(&src, toks, &diags, &sc->lex), NFY_OK);
    assert_int_equal(toks->toks.len, f->toks.toks.len);
    assert_memory_equal(toks->toks.items, f->toks.toks.items,
                        toks->toks.len * sizeof *toks->toks.items);
    nfy_pysyn *m = NULL;
    assert_int_equal(nfy_pysyn_parse_reuse(&src, toks, &arena, &diags, sc, &m),
                     NFY_OK);
    assert_int_equal(nfy_diags_count(&diags, NFY_SEV_NOTE),
                     nfy_diags_count(&f->diags, NFY_SEV_NOTE));
    same_structure(m, f->m);
    nfy_lex_tokens_recycle(toks, &sc->lex); /* m is not used after this */
    if (strlen(text) > 100000)              /* too big to keep */
        assert_null(sc->lex.spare.toks.items);
    else
        assert_non_null(sc->lex.spare.toks.items);
    nfy_diags_release(&diags);
    nfy_arena_release(&arena);
    nfy_source_release(&src);
    done(f);
}

/* Files of mixed sizes through one scratch, growing and shrinking its
 * buffers; the big one (over NFY_LEX_SCRATCH_KEEP of tokens) is not kept. */
static void test_scratch_reuse(void **state)
{
    (void)state;
    size_t nbig = 150000;
    char *big = malloc(2 * nbig + 2);
    assert_non_null(big);
    for (size_t i = 0; i < nbig; i++)
        memcpy(big + 2 * i, i % 64 == 63 ? "\n" : "x,", 2);
    memcpy(big + 2 * nbig, "\n", 2);
    char *deep = nested(300, "([{", ")]}");
    const char *texts[] = {
        "import torch\nx = torch.cuda.is_available()\n",
        deep,
        "def f(a, (b\n  x = [1,\n\n2]; y = f(*a)\n",
        big,
        "if x:\n\tpass\n  else: )]}\nclass C: ...\n",
        "s = f'{a!r:>{w}}' + \"\"\"doc\"\"\"\nprint(s)\n",
        "",
    };
    nfy_front_scratch sc;
    nfy_pysyn_front_scratch_init(&sc);
    nfy_tokens toks;
    nfy_lex_tokens_init(&toks);
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
            check_reuse_one(texts[i], &sc, &toks);
    nfy_lex_tokens_release(&toks);
    nfy_pysyn_front_scratch_release(&sc);
    free(deep);
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_statements),
        cmocka_unit_test(test_decorators_and_match),
        cmocka_unit_test(test_bracket_matching),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_unbalanced),
        cmocka_unit_test(test_calls),
        cmocka_unit_test(test_dotted_with_comments),
        cmocka_unit_test(test_imports),
        cmocka_unit_test(test_bad_imports),
        cmocka_unit_test(test_scopes_and_bindings),
        cmocka_unit_test(test_comprehension_walrus_scope),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_error_recovery),
        cmocka_unit_test(test_garbage_never_crashes),
        cmocka_unit_test(test_real_world_train),
        cmocka_unit_test(test_real_world_model),
        cmocka_unit_test(test_same_without_lexer_summary),
        cmocka_unit_test(test_scratch_reuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
