/*
 * The exact call behind a profiler frame: a with_stack profile names the
 * user's function (torch 1.x by its def line, torch 2.x by the calling
 * line), not the call that dispatched the operator. Within that function's
 * body, the calls whose name can dispatch the aten operator are the
 * candidates: `torch.heaviside(...)` (a torch API, best), `x.heaviside(...)`
 * (a Tensor method), then same-named calls of anything else; names derived
 * from the operator (aten::relu_ from `F.relu(x, inplace=True)`,
 * aten::_softmax from `softmax`, aten::special_erfcx from
 * `torch.special.erfcx`) rank after the exact name.
 */
#include <stdlib.h>
#include <string.h>

#include "analyse/analyse.h"
#include "pylex/pylex.h"

/* A name a call can have to dispatch the operator, and its namespace
 * ("special" for torch.special.X; empty for any). */
typedef struct {
    nfy_str name;
    nfy_str ns;
    bool derived; /* not the operator's own name */
} op_name;

/* Namespaced operators: aten::special_X is torch.special.X. */
static const char *const op_namespaces[] = {"special", "linalg", "fft", "nn"};

static nfy_str op_base(nfy_str op)
{
    if (!nfy_str_consume(&op, "aten::"))
        return (nfy_str){"", 0};
    ptrdiff_t dot = nfy_str_find_char(op, '.');
    if (dot >= 0)
        op.len = (size_t)dot; /* the overload: aten::add.Tensor */
    return op;
}

static size_t add_name(op_name *out, size_t n, nfy_str name, nfy_str ns,
                       bool derived)
{
    if (!name.len || n >= NFY_AN_OP_NAMES_MAX)
        return n;
    for (size_t i = 0; i < n; i++)
        if (nfy_str_eq(out[i].name, name) && nfy_str_eq(out[i].ns, ns))
            return n;
    out[n] = (op_name){name, ns, derived};
    return n + 1;
}

/* The names that dispatch op: its own, without a leading '_' (private
 * variants called by the public function) or a trailing '_' (in-place
 * forms of functions taking inplace=True), and X for a namespaced op. */
static size_t op_names(nfy_str op, op_name *out)
{
    nfy_str base = op_base(op);
    nfy_str none = {"", 0};
    size_t n = add_name(out, 0, base, none, false);
    nfy_str s = base;
    while (s.len > 1 && s.ptr[0] == '_' && s.ptr[1] != '_')
        s.ptr++, s.len--;
    n = add_name(out, n, s, none, true);
    if (s.len > 1 && s.ptr[s.len - 1] == '_' && s.ptr[s.len - 2] != '_')
        n = add_name(out, n, (nfy_str){s.ptr, s.len - 1}, none, true);
    for (size_t i = 0; i < sizeof op_namespaces / sizeof *op_namespaces; i++) {
        size_t k = strlen(op_namespaces[i]);
        if (s.len > k + 1 && !memcmp(s.ptr, op_namespaces[i], k) &&
            s.ptr[k] == '_')
            n = add_name(out, n, (nfy_str){s.ptr + k + 1, s.len - k - 1},
                         nfy_str_from_cstr(op_namespaces[i]), true);
    }
    return n;
}

/* The name a call is known by: its last attribute, or its last dotted
 * component. */
static nfy_str call_name(const nfy_pysyn *m, const nfy_call *c)
{
    if (c->attr_tok != NFY_NONE)
        return nfy_pysyn_tok_text(m, c->attr_tok);
    ptrdiff_t last = -1;
    for (size_t i = 0; i < c->dotted.len; i++)
        if (c->dotted.ptr[i] == '.')
            last = (ptrdiff_t)i;
    return nfy_str_slice(c->dotted, (size_t)(last + 1), c->dotted.len);
}

/* Whether scope s runs as part of function scope f (f itself, or a lambda
 * or comprehension inside it; not a nested def or class). */
static bool runs_in(const nfy_pysyn *m, uint32_t s, uint32_t f)
{
    while (s != NFY_NONE && s != f) {
        uint16_t k = m->scopes[s].kind;
        if (k != NFY_SCOPE_LAMBDA && k != NFY_SCOPE_COMPREHENSION)
            return false;
        s = m->scopes[s].parent;
    }
    return s == f;
}

/* Last line of the statements of a def's body. */
static uint32_t def_last_line(const nfy_pysyn *m, uint32_t stmt)
{
    const nfy_stmt *st = &m->stmts[stmt];
    uint32_t last = st->body_end ? st->body_end - 1 : stmt;
    uint32_t end = m->stmts[last].end;
    return end && end <= m->ntoks ? m->toks[end - 1].end_line : st->line;
}

/* The function scope the frame names: a def named func whose def line is
 * the frame's line (torch 1.x), else the innermost one named func whose
 * body holds that line (torch 2.x names the calling line). "<module>" is
 * the module. NFY_NONE when the file has none. */
static uint32_t frame_scope(const nfy_pysyn *m, uint32_t line, nfy_str func)
{
    if (nfy_str_eq_cstr(func, "<module>"))
        return 0;
    uint32_t inner = NFY_NONE, inner_line = 0;
    for (uint32_t s = 0; s < m->nscopes; s++) {
        const nfy_scope *sc = &m->scopes[s];
        if (sc->kind != NFY_SCOPE_FUNCTION || sc->name_tok == NFY_NONE ||
            !nfy_str_eq(nfy_pysyn_tok_text(m, sc->name_tok), func))
            continue;
        const nfy_stmt *st = &m->stmts[sc->stmt];
        if (st->line == line)
            return s;
        if (st->line < line && line <= def_last_line(m, sc->stmt) &&
            st->line >= inner_line)
            inner = s, inner_line = st->line;
    }
    return inner;
}

/* "Net.forward": the def/class names from the module down to scope s. */
static nfy_str scope_qualname(const nfy_pysyn *m, uint32_t s, nfy_arena *a)
{
    nfy_str parts[32];
    size_t n = 0;
    for (; s != NFY_NONE && s != 0 && n < 32; s = m->scopes[s].parent)
        if (m->scopes[s].name_tok != NFY_NONE)
            parts[n++] = nfy_pysyn_tok_text(m, m->scopes[s].name_tok);
    if (!n)
        return NFY_STR_LIT("<module>");
    const char *acc = "";
    while (n--)
        acc = nfy_arena_fmt(a, "%s%s%.*s", acc, *acc ? "." : "",
                            (int)parts[n].len, parts[n].ptr);
    return nfy_str_from_cstr(acc);
}

/* Rank of call c for name nm (lower is better), or -1 when it does not
 * match; *api is the API it names. */
static int call_rank(const nfy_pysyn *m, const nfy_resolution *r,
                     const nfy_call *c, const op_name *nm, nfy_arena *a,
                     nfy_str *api)
{
    if (!nfy_str_eq(call_name(m, c), nm->name))
        return -1;
    nfy_str qual = {"", 0};
    if (c->use != NFY_NONE && c->dotted.len)
        qual = nfy_resolve_use(r, c->use)->qual;
    int rank;
    if (qual.len && nfy_str_starts_with(qual, NFY_STR_LIT("torch."))) {
        if (nm->ns.len) {
            nfy_str want = nfy_str_from_cstr(
                nfy_arena_fmt(a, ".%.*s.", (int)nm->ns.len, nm->ns.ptr));
            if (!nfy_str_contains(qual, want))
                return -1;
        }
        rank = 0, *api = qual;
    } else if (nm->ns.len) {
        return -1; /* torch.special.X only: a method X is another API */
    } else if (c->attr_tok != NFY_NONE && !qual.len &&
               !(c->use != NFY_NONE &&
                 nfy_resolve_use(r, c->use)->kind == NFY_RES_UNBOUND)) {
        /* a method on a value (not on an unbound global, a module's
           name): a Tensor's, as far as we know */
        rank = 1;
        *api = nfy_str_from_cstr(
            nfy_arena_fmt(a, "Tensor.%.*s", (int)nm->name.len, nm->name.ptr));
    } else {
        rank = 2;
        *api = qual.len ? qual : c->dotted;
    }
    return rank + (nm->derived ? 3 : 0);
}

static void insert_sorted(nfy_an_op_call *out, size_t *n, size_t cap,
                          nfy_an_op_call c)
{
    size_t i = *n;
    while (i > 0 && (out[i - 1].rank > c.rank ||
                     (out[i - 1].rank == c.rank &&
                      (out[i - 1].line > c.line ||
                       (out[i - 1].line == c.line && out[i - 1].col > c.col)))))
        i--;
    if (i >= cap)
        return;
    size_t keep = *n < cap ? *n : cap - 1;
    memmove(out + i + 1, out + i, (keep - i) * sizeof *out);
    out[i] = c;
    if (*n < cap)
        (*n)++;
}

/* Whether any candidate is on the frame's own line. */
static bool any_on_line(const nfy_an_op_call *out, size_t n, uint32_t line)
{
    for (size_t i = 0; i < n; i++)
        if (out[i].line == line)
            return true;
    return false;
}

size_t nfy_analyse_op_calls(const nfy_pysyn *m, const nfy_resolution *r,
                            uint32_t frame_line, nfy_str func, nfy_str op,
                            nfy_arena *a, nfy_an_op_call *out, size_t cap)
{
    op_name names[NFY_AN_OP_NAMES_MAX];
    size_t nnames = op_names(op, names);
    uint32_t s = frame_scope(m, frame_line, func);
    if (!nnames || s == NFY_NONE || !cap)
        return 0;
    nfy_str where = scope_qualname(m, s, a);
    size_t n = 0;
    for (uint32_t i = 0; i < m->ncalls; i++) {
        const nfy_call *c = &m->calls[i];
        if ((c->flags & (NFY_CALLF_DECORATOR | NFY_CALLF_CLASS_BASES)) ||
            !runs_in(m, c->scope, s))
            continue;
        const nfy_token *t = &m->toks[c->callee_first];
        if (s == 0 && t->line != frame_line)
            continue; /* module level: only the named line is the frame */
        int best = -1;
        nfy_str api = {"", 0};
        for (size_t k = 0; k < nnames; k++) {
            nfy_str got = {"", 0};
            int rk = call_rank(m, r, c, &names[k], a, &got);
            if (rk >= 0 && (best < 0 || rk < best))
                best = rk, api = got;
        }
        if (best >= 0)
            insert_sorted(out, &n, cap,
                          (nfy_an_op_call){t->line, t->col + 1, (uint8_t)best,
                                           api, where});
    }
    /* torch 2.x frames name the calling line: the calls there are it */
    if (s != 0 && m->stmts[m->scopes[s].stmt].line != frame_line &&
        any_on_line(out, n, frame_line)) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (out[i].line == frame_line)
                out[k++] = out[i];
        n = k;
    }
    return n;
}

struct nfy_an_pyfile {
    nfy_source src;
    nfy_tokens toks;
    nfy_arena arena;
    nfy_pysyn *m;
    nfy_resolution *r;
};

nfy_an_pyfile *nfy_analyse_pyfile_open(const char *path)
{
    nfy_an_pyfile *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    if (nfy_source_load(&f->src, path, 0) != NFY_OK) {
        free(f);
        return NULL;
    }
    nfy_lex_tokens_init(&f->toks);
    nfy_arena_init(&f->arena);
    nfy_diags d;
    nfy_diags_init(&d);
    bool ok =
        nfy_lex_lex(&f->src, &f->toks, &d) == NFY_OK &&
        nfy_pysyn_parse(&f->src, &f->toks, &f->arena, &d, &f->m) == NFY_OK &&
        nfy_resolve_resolve(f->m, &f->arena, &f->r) == NFY_OK;
    nfy_diags_release(&d);
    if (!ok) {
        nfy_analyse_pyfile_close(f);
        return NULL;
    }
    return f;
}

size_t nfy_analyse_pyfile_op_calls(nfy_an_pyfile *f, uint32_t frame_line,
                                   nfy_str func, nfy_str op, nfy_arena *a,
                                   nfy_an_op_call *out, size_t cap)
{
    size_t n = nfy_analyse_op_calls(f->m, f->r, frame_line, func, op, &f->arena,
                                    out, cap);
    for (size_t i = 0; i < n; i++) { /* out outlives the file */
        out[i].api = nfy_arena_str(a, out[i].api);
        out[i].where = nfy_arena_str(a, out[i].where);
    }
    return n;
}

void nfy_analyse_pyfile_close(nfy_an_pyfile *f)
{
    if (!f)
        return;
    nfy_arena_release(&f->arena);
    nfy_lex_tokens_release(&f->toks);
    nfy_source_release(&f->src);
    free(f);
}
