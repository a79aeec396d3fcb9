/*
 * The training-program model (train.h): one walk over the file's calls
 * and statements, the loader and helper parameters followed through the
 * resolver's bindings.
 */
#include "train/train.h"

#include <ctype.h>
#include <string.h>

static bool kept(uint32_t *n)
{
    return (*n)++ < NFY_TRAIN_MAX;
}

static nfy_str callee_name(const mig_ctx *c, uint32_t k)
{
    const nfy_call *call = &c->m->calls[k];
    return mig_tok(c, call->attr_tok != NFY_NONE ? call->attr_tok
                                                 : call->callee_first);
}

uint32_t nfy_train_stmt_of(const mig_ctx *c, uint32_t t)
{
    return t < c->m->ntoks ? c->m->tok_stmt[t] : NFY_NONE;
}

bool nfy_train_is_loader(const mig_ctx *c, uint32_t k)
{
    nfy_str q = mig_callee_qual(c, k);
    return mig_str_is(q, "torch.utils.data.DataLoader") ||
           mig_str_is(q, "torch.utils.data.dataloader.DataLoader");
}

static bool is_scheduler(const mig_ctx *c, uint32_t k)
{
    return nfy_str_contains_ci(mig_callee_qual(c, k), "lr_scheduler.");
}

/* torch.optim.X (X a class), or an optimizer class of another library
 * named as torch's are (apex FusedAdam, transformers AdamW). */
static bool is_optimizer(const mig_ctx *c, uint32_t k)
{
    static const char *const names[] = {
        "SGD",      "Adam",      "AdamW",     "RMSprop", "Adagrad",
        "Adadelta", "Adamax",    "NAdam",     "RAdam",   "LBFGS",
        "Lamb",     "FusedAdam", "FusedLAMB", "FusedSGD"};
    nfy_str q = mig_callee_qual(c, k);
    if (q.len == 0 || is_scheduler(c, k))
        return false;
    if (nfy_str_starts_with(q, NFY_STR_LIT("torch.optim.")))
        return isupper((unsigned char)q.ptr[strlen("torch.optim.")]) != 0;
    nfy_str last = callee_name(c, k);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (mig_str_is(last, names[i]))
            return true;
    return false;
}

static bool same_toks(const mig_ctx *c, nfy_train_toks a, nfy_train_toks b)
{
    if (a.end - a.first != b.end - b.first)
        return false;
    for (uint32_t i = 0; i < a.end - a.first; i++)
        if (!nfy_str_eq(mig_tok(c, a.first + i), mig_tok(c, b.first + i)))
            return false;
    return true;
}

/* The call spelled exactly by tokens [f, e), or NFY_NONE. */
static uint32_t call_spelled(const mig_ctx *c, uint32_t f, uint32_t e)
{
    uint32_t s = nfy_train_stmt_of(c, f);
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        const nfy_call *call = &c->m->calls[k];
        if (call->stmt == s && call->callee_first == f && call->rpar + 1 == e)
            return k;
    }
    return NFY_NONE;
}

static const nfy_arg *positional(const mig_ctx *c, uint32_t k, uint32_t pos)
{
    const nfy_call *call = &c->m->calls[k];
    for (uint32_t i = 0; i < call->nargs; i++) {
        const nfy_arg *a = &c->m->args[call->args_first + i];
        if (a->kind == NFY_ARG_POS && a->pos == pos)
            return a;
    }
    return NULL;
}

/* ---- functions and their call sites -------------------------------------- */

/* The def statement binding the function called by k, or NFY_NONE. */
static uint32_t def_called(const mig_ctx *c, uint32_t k)
{
    nfy_str name = callee_name(c, k);
    for (uint32_t s = 0; s < c->m->nstmts; s++)
        if (c->m->stmts[s].kind == NFY_STMT_DEF &&
            nfy_str_eq(mig_tok(c, c->m->stmts[s].name_tok), name))
            return s;
    return NFY_NONE;
}

static bool is_method(const mig_ctx *c, uint32_t def)
{
    return c->m->scopes[c->m->stmts[def].scope].kind != NFY_SCOPE_MODULE &&
           c->m->stmts[c->m->scopes[c->m->stmts[def].scope].stmt].kind ==
               NFY_STMT_CLASS;
}

/* Position of parameter binding b among def's parameters (self counted). */
static uint32_t param_pos(const mig_ctx *c, uint32_t def, uint32_t b)
{
    uint32_t body = c->m->stmts[def].body_scope, pos = 0;
    for (uint32_t i = 0; i < c->m->nbindings; i++) {
        const nfy_binding *x = &c->m->bindings[i];
        if (x->scope != body || x->kind != NFY_BIND_PARAM)
            continue;
        if (i == b)
            return pos;
        pos++;
    }
    return NFY_NONE;
}

/* The argument of call k that parameter b of def receives, or NULL. */
static const nfy_arg *arg_for(const mig_ctx *c, uint32_t k, uint32_t def,
                              uint32_t b)
{
    const nfy_call *call = &c->m->calls[k];
    nfy_str name = mig_tok(c, c->m->bindings[b].tok);
    uint32_t pos = param_pos(c, def, b);
    if (pos == NFY_NONE)
        return NULL;
    if (is_method(c, def) && call->attr_tok != NFY_NONE) {
        if (pos == 0)
            return NULL; /* self */
        pos--;
    }
    for (uint32_t i = 0; i < call->nargs; i++) {
        const nfy_arg *a = &c->m->args[call->args_first + i];
        if (a->kind == NFY_ARG_STAR)
            return NULL; /* positions unknown past *args */
        if (a->kind == NFY_ARG_KEYWORD &&
            nfy_str_eq(mig_tok(c, a->name_tok), name))
            return a;
        if (a->kind == NFY_ARG_POS && a->pos == pos)
            return a;
    }
    return NULL;
}

/* The calls of def in the file: *n of them, the first in *k. */
static uint32_t calls_of(const mig_ctx *c, uint32_t def, uint32_t *first)
{
    nfy_str name = mig_tok(c, c->m->stmts[def].name_tok);
    uint32_t n = 0;
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        const nfy_call *call = &c->m->calls[k];
        bool plain =
            call->attr_tok == NFY_NONE && call->lpar == call->callee_first + 1;
        if (!nfy_str_eq(callee_name(c, k), name) ||
            (!plain && call->attr_tok == NFY_NONE))
            continue;
        if (plain == is_method(c, def))
            continue;
        if (n++ == 0)
            *first = k;
    }
    return n;
}

/* The def whose body scope is scope (or encloses it), or NFY_NONE. */
static uint32_t def_of_scope(const mig_ctx *c, uint32_t scope)
{
    for (uint32_t s = scope; s != NFY_NONE; s = c->m->scopes[s].parent)
        if (c->m->scopes[s].kind == NFY_SCOPE_FUNCTION)
            return c->m->scopes[s].stmt;
    return NFY_NONE;
}

static uint32_t lookup(const mig_ctx *c, uint32_t scope, uint32_t tok)
{
    return nfy_resolve_lookup(c->r, scope, tok, mig_tok(c, tok));
}

/* ---- trained modules ----------------------------------------------------- */

/* The module a parameters() receiver names: `model.fc` trains part of
 * `model`, which is what DDP wraps; `self.net.fc` -> `self.net`. */
static nfy_train_toks module_root(const mig_ctx *c, uint32_t f, uint32_t e)
{
    uint32_t keep = mig_tok_is(c, f, "self") ? 3 : 1;
    if (e - f > keep)
        e = f + keep;
    return (nfy_train_toks){f, e};
}

static void add_module(const mig_ctx *c, nfy_train *t, nfy_train_toks x,
                       uint32_t use, uint32_t optim, nfy_train_how how)
{
    uint32_t scope = c->m->stmts[use].scope;
    for (uint32_t i = 0; i < t->nmodules && i < NFY_TRAIN_MAX; i++)
        if (c->m->stmts[t->modules[i].use_stmt].scope == scope &&
            same_toks(c, t->modules[i].expr, x))
            return;
    if (kept(&t->nmodules))
        t->modules[t->nmodules - 1] = (nfy_train_module){x, use, optim, how};
}

/* A receiver inside the optimizer call (statement use): the module, or
 * through a helper's parameter the argument at its one call site. */
static void receiver_module(const mig_ctx *c, nfy_train *t, uint32_t f,
                            uint32_t e, uint32_t use, uint32_t optim)
{
    nfy_train_toks x = module_root(c, f, e);
    if (x.end == x.first + 1 && c->m->toks[f].kind == NFY_TOK_NAME) {
        uint32_t b = lookup(c, c->m->stmts[use].scope, f);
        uint32_t def =
            b == NFY_NONE ? NFY_NONE : def_of_scope(c, c->m->bindings[b].scope);
        uint32_t k = NFY_NONE;
        if (b != NFY_NONE && c->m->bindings[b].kind == NFY_BIND_PARAM &&
            def != NFY_NONE && calls_of(c, def, &k) == 1) {
            const nfy_arg *a = arg_for(c, k, def, b);
            if (a != NULL) {
                x = module_root(c, a->value_first, a->value_end);
                use = c->m->calls[k].stmt;
            }
        }
    }
    if (c->m->toks[x.first].kind == NFY_TOK_NAME)
        add_module(c, t, x, use, optim, NFY_TRAIN_BY_OPTIMIZER);
}

/* Every X.parameters() in tokens [a, b): a receiver. */
static void modules_in(const mig_ctx *c, nfy_train *t, uint32_t a, uint32_t b,
                       uint32_t use, uint32_t optim)
{
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        const nfy_call *pc = &c->m->calls[k];
        if (pc->callee_first < a || pc->callee_first >= b ||
            !mig_str_is(mig_callee_attr(c, k), "parameters") ||
            pc->attr_tok < pc->callee_first + 2 || pc->recv_call != NFY_NONE)
            continue;
        receiver_module(c, t, pc->callee_first, pc->attr_tok - 1, use, optim);
    }
}

/* `params = [...]; params.append(...); opt = SGD(params)`: the value and
 * the statements growing the list, in the optimizer's scope before it. */
static void modules_via_name(const mig_ctx *c, nfy_train *t, uint32_t tok,
                             uint32_t use, uint32_t optim)
{
    uint32_t scope = c->m->stmts[use].scope;
    uint32_t b = lookup(c, scope, tok);
    if (b == NFY_NONE || c->m->bindings[b].value_first == NFY_NONE)
        return;
    const nfy_binding *x = &c->m->bindings[b];
    modules_in(c, t, x->value_first, x->value_end, use, optim);
    for (uint32_t s = x->stmt + 1; s < use; s++) {
        const nfy_stmt *st = &c->m->stmts[s];
        if (st->scope == scope &&
            nfy_str_eq(mig_tok(c, st->first), mig_tok(c, tok)))
            modules_in(c, t, st->first, st->end, use, optim);
    }
}

static void optimizer_modules(const mig_ctx *c, nfy_train *t, uint32_t k,
                              uint32_t optim)
{
    const nfy_call *call = &c->m->calls[k];
    if (call->rpar == NFY_NONE)
        return;
    modules_in(c, t, call->lpar + 1, call->rpar, call->stmt, optim);
    const nfy_arg *p = positional(c, k, 0);
    if (p != NULL && p->value_end == p->value_first + 1 &&
        c->m->toks[p->value_first].kind == NFY_TOK_NAME)
        modules_via_name(c, t, p->value_first, call->stmt, optim);
}

/* A constructor call that builds a module: a class of this file, a
 * Capitalised class from elsewhere, X.from_pretrained(...); never a loss,
 * tokenizer, dataset or other helper object. */
static bool builds_module(const mig_ctx *c, uint32_t k)
{
    static const char *const not_modules[] = {
        "Loss",    "Criterion", "Tokenizer", "Scaler",    "Writer",
        "Dataset", "Loader",    "Sampler",   "Optimizer", "Config"};
    nfy_str name = callee_name(c, k);
    nfy_str q = mig_callee_qual(c, k);
    if (name.len == 0)
        return false;
    for (size_t i = 0; i < sizeof not_modules / sizeof not_modules[0]; i++)
        if (nfy_str_contains_ci(name, not_modules[i]))
            return false;
    if (nfy_str_starts_with(q, NFY_STR_LIT("torch.")) &&
        !nfy_str_starts_with(q, NFY_STR_LIT("torch.nn.")))
        return false;
    if (nfy_str_starts_with(q, NFY_STR_LIT("torchvision.transforms.")) ||
        nfy_str_starts_with(q, NFY_STR_LIT("torchvision.datasets.")))
        return false; /* callables without parameters to train */
    if (nfy_str_starts_with(q, NFY_STR_LIT("torch.nn.")) &&
        !mig_str_is(q, "torch.nn.Sequential") &&
        !mig_str_is(q, "torch.nn.Linear") && !mig_str_is(q, "torch.nn.LSTM") &&
        !mig_str_is(q, "torch.nn.GRU") && !mig_str_is(q, "torch.nn.RNN") &&
        !mig_str_is(q, "torch.nn.Transformer"))
        return false;
    return isupper((unsigned char)name.ptr[0]) ||
           mig_str_is(name, "from_pretrained");
}

/* The ancestor of s in scope (s itself, or a compound around it), or NONE. */
static uint32_t ancestor_in(const mig_ctx *c, uint32_t s, uint32_t scope)
{
    for (uint32_t p = s; p != NFY_NONE; p = c->m->stmts[p].parent)
        if (c->m->stmts[p].scope == scope)
            return p;
    return NFY_NONE;
}

/* With no optimizer: the modules called in a step's loop (hand-written
 * updates, models found by their forward). */
static void forward_modules(const mig_ctx *c, nfy_train *t)
{
    /* the bindings looked at last: a loop calling one model many times
     * costs one search for its constructor, not one a call */
    uint32_t seen[32], nseen = 0;
    for (uint32_t i = 0; i < t->nsteps && i < NFY_TRAIN_MAX; i++) {
        uint32_t head = t->steps[i].loop;
        if (head == NFY_NONE)
            continue;
        for (uint32_t k = 0; k < c->m->ncalls; k++) {
            const nfy_call *call = &c->m->calls[k];
            if (call->stmt <= head ||
                call->stmt >= c->m->stmts[head].body_end ||
                call->attr_tok != NFY_NONE ||
                call->lpar != call->callee_first + 1)
                continue;
            uint32_t b = lookup(c, call->scope, call->callee_first);
            bool again = false;
            for (uint32_t j = 0; j < nseen && j < 32 && !again; j++)
                again = seen[j] == b;
            if (again || b == NFY_NONE ||
                c->m->bindings[b].kind != NFY_BIND_ASSIGN ||
                c->m->bindings[b].value_first == NFY_NONE)
                continue;
            seen[nseen++ % 32] = b;
            const nfy_binding *x = &c->m->bindings[b];
            uint32_t ctor = NFY_NONE;
            for (uint32_t j = 0; j < c->m->ncalls; j++)
                if (c->m->calls[j].callee_first == x->value_first &&
                    (ctor == NFY_NONE ||
                     c->m->calls[j].rpar < c->m->calls[ctor].rpar))
                    ctor = j;
            if (ctor == NFY_NONE || !builds_module(c, ctor))
                continue;
            uint32_t use = ancestor_in(c, head, x->scope);
            add_module(c, t, (nfy_train_toks){x->tok, x->tok + 1},
                       use == NFY_NONE ? x->stmt : use, NFY_NONE,
                       NFY_TRAIN_BY_FORWARD);
            if (use == NFY_NONE)
                t->modules[t->nmodules - 1].use_stmt = NFY_NONE;
        }
    }
}

/* ---- steps --------------------------------------------------------------- */

static uint32_t step_loop(const mig_ctx *c, uint32_t s)
{
    for (uint32_t p = c->m->stmts[s].parent; p != NFY_NONE;
         p = c->m->stmts[p].parent) {
        uint16_t k = c->m->stmts[p].kind;
        if (k == NFY_STMT_FOR || k == NFY_STMT_WHILE)
            return p;
        if (k == NFY_STMT_DEF)
            break;
    }
    return NFY_NONE;
}

/* The loop of a step: around the backward in its function, else, for a
 * closure defined in a loop (LBFGS), the loop around the closure. */
static uint32_t loop_of_step(const mig_ctx *c, uint32_t s)
{
    uint32_t lp = step_loop(c, s);
    uint32_t def = def_of_scope(c, c->m->stmts[s].scope);
    if (lp == NFY_NONE && def != NFY_NONE)
        lp = step_loop(c, def);
    return lp;
}

static void find_steps(const mig_ctx *c, nfy_train *t)
{
    for (uint32_t s = 0; s < c->m->nstmts; s++) {
        uint32_t lp = nfy_mig_method_stmt(c, s, "backward");
        if (lp == NFY_NONE || nfy_mig_attr_on_module(c, lp - 1))
            continue;
        if (kept(&t->nsteps))
            t->steps[t->nsteps - 1] = (nfy_train_step){s, loop_of_step(c, s)};
    }
}

/* ---- the training loader ------------------------------------------------- */

static bool add_hop(nfy_train_loader *l, uint32_t f, uint32_t e, uint32_t stmt,
                    uint32_t scope)
{
    if (l->nhops == NFY_TRAIN_HOPS)
        return false;
    l->hops[l->nhops++] = (nfy_train_hop){{f, e}, stmt, scope};
    return true;
}

static bool trace(const mig_ctx *c, nfy_train_loader *l, uint32_t f, uint32_t e,
                  uint32_t stmt, uint32_t scope);

/* `self.X`: its one assignment in the file. */
static bool trace_attr(const mig_ctx *c, nfy_train_loader *l, uint32_t f)
{
    for (uint32_t s = 0; s < c->m->nstmts; s++) {
        const nfy_stmt *st = &c->m->stmts[s];
        if (st->kind == NFY_STMT_ASSIGN && st->value_first == st->first + 4 &&
            mig_tok_is(c, st->first, "self") &&
            nfy_str_eq(mig_tok(c, st->first + 2), mig_tok(c, f + 2)))
            return trace(c, l, st->value_first, st->value_end, s, st->scope);
    }
    l->why = "the loop's loader attribute is never assigned in this file";
    return false;
}

/* A function parameter: the argument at the function's call site. */
static bool trace_param(const mig_ctx *c, nfy_train_loader *l, uint32_t b)
{
    uint32_t def = def_of_scope(c, c->m->bindings[b].scope), k = NFY_NONE;
    uint32_t n = def == NFY_NONE ? 0 : calls_of(c, def, &k);
    if (n == 0) {
        l->why = "the loader is a parameter of a function never called in "
                 "this file";
        return false;
    }
    const nfy_arg *a = arg_for(c, k, def, b);
    if (a == NULL) {
        l->why = "the loader parameter's argument is not found at the call";
        return false;
    }
    return trace(c, l, a->value_first, a->value_end, c->m->calls[k].stmt,
                 c->m->calls[k].scope);
}

/* A call of a function of this file: what it returns. */
static bool trace_return(const mig_ctx *c, nfy_train_loader *l, uint32_t def)
{
    const nfy_stmt *d = &c->m->stmts[def];
    for (uint32_t s = def + 1; s < d->body_end; s++) {
        const nfy_stmt *st = &c->m->stmts[s];
        if (st->kind == NFY_STMT_RETURN && st->scope == d->body_scope &&
            st->value_first != NFY_NONE)
            return trace(c, l, st->value_first, st->value_end, s, st->scope);
    }
    l->why = "the loader comes from a function returning no value";
    return false;
}

/* A plain call of a name imported from a module other than a wrapper's
 * (tqdm): a project helper such as `get_loader(...)`. */
static bool imported_helper(const mig_ctx *c, uint32_t k)
{
    const nfy_call *call = &c->m->calls[k];
    if (call->attr_tok != NFY_NONE || call->lpar != call->callee_first + 1)
        return false;
    uint32_t b = lookup(c, call->scope, call->callee_first);
    nfy_str q = mig_callee_qual(c, k);
    return b != NFY_NONE && c->m->bindings[b].kind == NFY_BIND_IMPORT &&
           !nfy_str_starts_with(q, NFY_STR_LIT("tqdm")) &&
           !nfy_str_starts_with(q, NFY_STR_LIT("torch."));
}

/* ---- loaders held in dicts and lists ------------------------------------- */

/* Whether tokens a and b are the same key: equal string bodies, or the
 * same number or name. */
static bool same_key(const mig_ctx *c, uint32_t a, uint32_t b)
{
    uint32_t off;
    if (c->m->toks[a].kind != c->m->toks[b].kind)
        return false;
    if (c->m->toks[a].kind == NFY_TOK_STRING)
        return nfy_str_eq(nfy_mig_string_body(c, a, &off),
                          nfy_mig_string_body(c, b, &off));
    return nfy_str_eq(mig_tok(c, a), mig_tok(c, b));
}

/* `NAME[KEY]` with KEY one string or number token: KEY's token, or NONE. */
static uint32_t item_key(const mig_ctx *c, uint32_t f, uint32_t e)
{
    if (e != f + 4 || c->m->toks[f].kind != NFY_TOK_NAME ||
        !nfy_mig_tok_op(c, f + 1, NFY_OP_LSQB) ||
        !nfy_mig_tok_op(c, f + 3, NFY_OP_RSQB))
        return NFY_NONE;
    uint16_t k = c->m->toks[f + 2].kind;
    return k == NFY_TOK_STRING || k == NFY_TOK_NUMBER ? f + 2 : NFY_NONE;
}

/* The first token from t on that is not a line break or comment inside
 * the brackets (before limit). */
static uint32_t code_tok(const mig_ctx *c, uint32_t t, uint32_t limit)
{
    while (t < limit && (c->m->toks[t].kind == NFY_TOK_NL ||
                         c->m->toks[t].kind == NFY_TOK_COMMENT))
        t++;
    return t;
}

/* The end of the element of a display starting at t (its ',' or the
 * closing bracket at close). */
static uint32_t element_end(const mig_ctx *c, uint32_t t, uint32_t close)
{
    while (t < close && !nfy_mig_tok_op(c, t, NFY_OP_COMMA)) {
        if (c->m->match[t] != NFY_NONE && c->m->match[t] > t)
            t = c->m->match[t];
        t++;
    }
    return t;
}

/* The value for key in the display [vf, ve): `{KEY: V, ...}` (a string
 * key), `[V0, V1]` / `(V0, V1)` (a number), or `dict(KEY=V)`; *first and
 * *end are V's tokens. */
static bool display_value(const mig_ctx *c, uint32_t vf, uint32_t ve,
                          uint32_t key, uint32_t *first, uint32_t *end)
{
    bool brace = nfy_mig_tok_op(c, vf, NFY_OP_LBRACE);
    bool list = nfy_mig_tok_op(c, vf, NFY_OP_LSQB) ||
                nfy_mig_tok_op(c, vf, NFY_OP_LPAR);
    if ((brace || list) && c->m->match[vf] == ve - 1) {
        uint32_t index = 0, want = NFY_NONE;
        if (list && c->m->toks[key].kind == NFY_TOK_NUMBER) {
            nfy_str n = mig_tok(c, key);
            want = 0;
            for (size_t i = 0; i < n.len && want < 1000; i++)
                want = isdigit((unsigned char)n.ptr[i])
                           ? want * 10 + (uint32_t)(n.ptr[i] - '0')
                           : NFY_NONE - 1;
        }
        for (uint32_t t = code_tok(c, vf + 1, ve - 1); t < ve - 1; index++) {
            uint32_t x = element_end(c, t, ve - 1);
            if (brace && x > t + 2 && nfy_mig_tok_op(c, t + 1, NFY_OP_COLON) &&
                same_key(c, t, key)) {
                *first = code_tok(c, t + 2, x);
                *end = x;
                return true;
            }
            if (list && index == want && x > t) {
                *first = t;
                *end = x;
                return true;
            }
            t = code_tok(c, x + 1, ve - 1);
        }
        return false;
    }
    uint32_t k = call_spelled(c, vf, ve);
    if (k == NFY_NONE || !mig_str_is(callee_name(c, k), "dict") ||
        c->m->toks[key].kind != NFY_TOK_STRING)
        return false;
    const nfy_call *call = &c->m->calls[k];
    uint32_t off;
    for (uint32_t i = 0; i < call->nargs; i++) {
        const nfy_arg *a = &c->m->args[call->args_first + i];
        if (a->kind == NFY_ARG_KEYWORD &&
            nfy_str_eq(mig_tok(c, a->name_tok),
                       nfy_mig_string_body(c, key, &off))) {
            *first = a->value_first;
            *end = a->value_end;
            return true;
        }
    }
    return false;
}

/* `NAME[KEY] = V` in NAME's scope, else the display NAME was built
 * with: trace V. */
static bool trace_item(const mig_ctx *c, nfy_train_loader *l, uint32_t f,
                       uint32_t key, uint32_t scope)
{
    uint32_t b = lookup(c, scope, f);
    if (b == NFY_NONE) {
        l->why = "the loop's dict or list of loaders is not bound in this file";
        return false;
    }
    const nfy_binding *x = &c->m->bindings[b];
    for (uint32_t s = 0; s < c->m->nstmts; s++) {
        const nfy_stmt *st = &c->m->stmts[s];
        if (st->kind == NFY_STMT_ASSIGN && st->scope == x->scope &&
            st->value_first == st->first + 5 &&
            nfy_str_eq(mig_tok(c, st->first), mig_tok(c, f)) &&
            nfy_mig_tok_op(c, st->first + 1, NFY_OP_LSQB) &&
            same_key(c, st->first + 2, key) &&
            nfy_mig_tok_op(c, st->first + 3, NFY_OP_RSQB))
            return trace(c, l, st->value_first, st->value_end, s, st->scope);
    }
    uint32_t vf, ve;
    if (x->kind == NFY_BIND_ASSIGN && x->value_first != NFY_NONE &&
        display_value(c, x->value_first, x->value_end, key, &vf, &ve))
        return trace(c, l, vf, ve, x->stmt, x->scope);
    l->why = "the loop's loader is an item of a dict or list whose value "
             "for that key is not written in this file";
    return false;
}

static bool trace(const mig_ctx *c, nfy_train_loader *l, uint32_t f, uint32_t e,
                  uint32_t stmt, uint32_t scope)
{
    if (f >= e || !add_hop(l, f, e, stmt, scope)) {
        l->why = "the loader is built too far from its loop";
        return false;
    }
    uint32_t k = call_spelled(c, f, e);
    if (k != NFY_NONE) {
        if (nfy_train_is_loader(c, k)) {
            l->call = k;
            return true;
        }
        uint32_t def = def_called(c, k);
        if (def != NFY_NONE && c->m->calls[k].attr_tok == NFY_NONE)
            return trace_return(c, l, def);
        if (c->m->calls[k].attr_tok == NFY_NONE &&
            mig_str_is(callee_name(c, k), "range")) {
            l->why = "the loop iterates range(...): its batches come from no "
                     "DataLoader";
            return false;
        }
        if (imported_helper(c, k)) {
            l->why = "the loader comes from a function imported from another "
                     "file (loaders built in another file are not followed)";
            return false;
        }
        const nfy_arg *a = positional(c, k, 0); /* enumerate, tqdm, iter */
        if (a != NULL)
            return trace(c, l, a->value_first, a->value_end, stmt, scope);
    }
    if (e == f + 1 && c->m->toks[f].kind == NFY_TOK_NAME) {
        uint32_t b = lookup(c, scope, f);
        if (b == NFY_NONE) {
            l->why = "the loop's iterable is not bound in this file";
            return false;
        }
        const nfy_binding *x = &c->m->bindings[b];
        if (x->kind == NFY_BIND_PARAM)
            return trace_param(c, l, b);
        if (x->kind == NFY_BIND_ASSIGN && x->value_first != NFY_NONE)
            return trace(c, l, x->value_first, x->value_end, x->stmt, x->scope);
        l->why = "the loop's iterable is bound by a tuple assignment, a "
                 "loop or an import";
        return false;
    }
    if (e == f + 3 && mig_tok_is(c, f, "self") &&
        nfy_mig_tok_op(c, f + 1, NFY_OP_DOT))
        return trace_attr(c, l, f);
    uint32_t key = item_key(c, f, e);
    if (key != NFY_NONE)
        return trace_item(c, l, f, key, scope);
    if (e > f + 3 && c->m->toks[f].kind == NFY_TOK_NAME &&
        nfy_mig_tok_op(c, f + 1, NFY_OP_LSQB) && c->m->match[f + 1] == e - 1) {
        l->why = "the loop iterates a dict or list of loaders by a key that "
                 "is not a constant (a loop over phases)";
        return false;
    }
    l->why = "the loop's iterable is not a name, attribute or call leading to "
             "a DataLoader (a dict or list of loaders?)";
    return false;
}

/* The iterable of for statement s: tokens after `in` up to the ':'. */
static bool for_iterable(const mig_ctx *c, uint32_t s, uint32_t *f, uint32_t *e)
{
    const nfy_stmt *st = &c->m->stmts[s];
    uint32_t in = NFY_NONE;
    for (uint32_t t = st->first + 1; t < st->end; t++) {
        if (c->m->match[t] != NFY_NONE && c->m->match[t] > t) {
            t = c->m->match[t];
            continue;
        }
        if (in == NFY_NONE && mig_tok_is(c, t, "in"))
            in = t;
        else if (in != NFY_NONE && nfy_mig_tok_op(c, t, NFY_OP_COLON)) {
            *f = in + 1;
            *e = t;
            return *e > *f;
        }
    }
    return false;
}

static void find_loader(const mig_ctx *c, nfy_train *t)
{
    nfy_train_loader *l = &t->loader;
    l->call = l->loop = NFY_NONE;
    l->why = t->nsteps == 0 ? "no training step (LOSS.backward())"
                            : "no step inside a for loop over batches";
    for (uint32_t i = 0; i < t->nsteps && i < NFY_TRAIN_MAX; i++) {
        uint32_t s = t->steps[i].loop, f, e;
        if (s == NFY_NONE || c->m->stmts[s].kind != NFY_STMT_FOR ||
            !for_iterable(c, s, &f, &e))
            continue;
        const char *why = l->why;
        uint32_t loop = l->loop;
        l->nhops = 0;
        l->loop = s;
        if (trace(c, l, f, e, s, c->m->stmts[s].scope))
            return;
        if (loop != NFY_NONE) { /* the first loop's reason stands */
            l->why = why;
            l->loop = loop;
        }
    }
    l->call = NFY_NONE;
}

static bool kw_is_true(const mig_ctx *c, uint32_t k, const char *kw)
{
    const nfy_call *call = &c->m->calls[k];
    for (uint32_t i = 0; i < call->nargs; i++) {
        const nfy_arg *a = &c->m->args[call->args_first + i];
        if (a->kind == NFY_ARG_KEYWORD && mig_tok_is(c, a->name_tok, kw))
            return a->value_end == a->value_first + 1 &&
                   mig_tok_is(c, a->value_first, "True");
    }
    return false;
}

/* No step in this file (the loop is in another module's train()): the
 * only DataLoader bound to a name, or the only shuffled one, and a loop
 * named like an epoch loop after it in its scope. */
static void loader_without_step(const mig_ctx *c, nfy_train *t)
{
    nfy_train_loader *l = &t->loader;
    uint32_t n = 0, nsh = 0, any = NFY_NONE, sh = NFY_NONE;
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        if (!nfy_train_is_loader(c, k))
            continue;
        n++;
        any = k;
        if (kw_is_true(c, k, "shuffle")) {
            nsh++;
            sh = k;
        }
    }
    uint32_t k = n == 1 ? any : nsh == 1 ? sh : NFY_NONE;
    if (k == NFY_NONE) {
        l->why = n == 0 ? "no DataLoader in this file"
                        : "no training step in this file and not one "
                          "shuffled DataLoader among several";
        return;
    }
    uint32_t s = c->m->calls[k].stmt;
    const nfy_stmt *st = &c->m->stmts[s];
    if (st->kind != NFY_STMT_ASSIGN || st->value_first != st->first + 2 ||
        st->value_first != c->m->calls[k].callee_first) {
        l->why = "the only DataLoader is not bound to a name";
        return;
    }
    l->call = k;
    l->nhops = 0;
    add_hop(l, st->first, st->first + 1, s, st->scope);
    add_hop(l, st->value_first, st->value_end, s, st->scope);
    for (uint32_t e = s + 1; e < c->m->nstmts; e++) {
        const nfy_stmt *x = &c->m->stmts[e];
        if (x->kind == NFY_STMT_FOR && x->scope == st->scope &&
            nfy_str_contains_ci(mig_tok(c, x->first + 1), "epoch")) {
            t->epoch_loop = e;
            return;
        }
    }
}

/* The loop around the step loop in its function, else around a call of
 * that function. */
static void find_epoch_loop(const mig_ctx *c, nfy_train *t)
{
    t->epoch_loop = NFY_NONE;
    uint32_t lp = t->loader.loop;
    if (lp == NFY_NONE)
        return;
    uint32_t up = step_loop(c, lp);
    if (up != NFY_NONE) {
        t->epoch_loop = up;
        return;
    }
    uint32_t def = def_of_scope(c, c->m->stmts[lp].scope), k = NFY_NONE;
    if (def == NFY_NONE || calls_of(c, def, &k) == 0)
        return;
    uint32_t s = c->m->calls[k].stmt;
    for (uint32_t p = s; p != NFY_NONE; p = c->m->stmts[p].parent) {
        uint16_t kind = c->m->stmts[p].kind;
        if (p != s && (kind == NFY_STMT_FOR || kind == NFY_STMT_WHILE)) {
            t->epoch_loop = p;
            return;
        }
        if (kind == NFY_STMT_DEF)
            return;
    }
}

const nfy_train_hop *nfy_train_hop_in(const nfy_train *t, uint32_t scope)
{
    for (uint32_t i = 0; i < t->loader.nhops; i++) {
        const nfy_train_hop *h = &t->loader.hops[i];
        if (h->scope == scope)
            return h;
    }
    return NULL;
}

/* ---- sites --------------------------------------------------------------- */

static void add_site(nfy_train_site *a, uint32_t *n, uint32_t k, uint32_t s)
{
    if (kept(n))
        a[*n - 1] = (nfy_train_site){k, s};
}

/* `logging.X(...)` or `L.X(...)` with L bound to logging.getLogger(...):
 * X's level; print is info. */
nfy_train_log nfy_train_log_kind(const mig_ctx *c, uint32_t k)
{
    /* not logging.log(LEVEL, ...): its level may be an error's */
    static const char *const info[] = {"debug", "info", "warning", "warn"};
    static const char *const errors[] = {"error", "exception", "critical",
                                         "fatal"};
    const nfy_call *call = &c->m->calls[k];
    nfy_str q = mig_callee_qual(c, k);
    if (mig_str_is(call->dotted, "print") && q.len == 0)
        return NFY_TRAIN_LOG_INFO;
    if (call->attr_tok == NFY_NONE)
        return NFY_TRAIN_LOG_NONE;
    bool logger = nfy_str_starts_with(q, NFY_STR_LIT("logging.")) &&
                  call->attr_tok == call->callee_first + 2;
    if (!logger && call->attr_tok == call->callee_first + 2 &&
        c->m->toks[call->callee_first].kind == NFY_TOK_NAME) {
        uint32_t b = lookup(c, call->scope, call->callee_first);
        const nfy_binding *x = b == NFY_NONE ? NULL : &c->m->bindings[b];
        uint32_t g = x != NULL && x->kind == NFY_BIND_ASSIGN &&
                             x->value_first != NFY_NONE
                         ? call_spelled(c, x->value_first, x->value_end)
                         : NFY_NONE;
        logger = g != NFY_NONE &&
                 mig_str_is(mig_callee_qual(c, g), "logging.getLogger");
    }
    nfy_str m = mig_tok(c, call->attr_tok);
    for (size_t i = 0; logger && i < sizeof info / sizeof info[0]; i++)
        if (mig_str_is(m, info[i]))
            return NFY_TRAIN_LOG_INFO;
    for (size_t i = 0; logger && i < sizeof errors / sizeof errors[0]; i++)
        if (mig_str_is(m, errors[i]))
            return NFY_TRAIN_LOG_ERROR;
    return NFY_TRAIN_LOG_NONE;
}

static void find_sites(const mig_ctx *c, nfy_train *t)
{
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        nfy_str q = mig_callee_qual(c, k), name = callee_name(c, k);
        uint32_t s = c->m->calls[k].stmt;
        if (is_optimizer(c, k))
            add_site(t->optims, &t->noptims, k, s);
        else if (is_scheduler(c, k))
            add_site(t->scheds, &t->nscheds, k, s);
        else if (nfy_train_is_loader(c, k) && k != t->loader.call)
            add_site(t->evals, &t->nevals, k, s);
        else if (nfy_str_contains_ci(name, "clip_grad"))
            add_site(t->clips, &t->nclips, k, s);
        else if (mig_str_is(q, "torch.save"))
            add_site(t->saves, &t->nsaves, k, s);
        else if (nfy_str_starts_with(q, NFY_STR_LIT("tqdm")))
            add_site(t->bars, &t->nbars, k, s);
        else if (mig_str_is(name, "manual_seed") || mig_str_is(name, "seed") ||
                 mig_str_is(name, "manual_seed_all"))
            add_site(t->seeds, &t->nseeds, k, s);
        else if (nfy_train_log_kind(c, k) != NFY_TRAIN_LOG_NONE)
            add_site(t->logs, &t->nlogs, k, s);
    }
}

void nfy_train_build(const mig_ctx *c, nfy_train *t)
{
    memset(t, 0, sizeof *t);
    t->epoch_loop = NFY_NONE;
    find_steps(c, t);
    find_loader(c, t);
    if (t->nsteps == 0)
        loader_without_step(c, t);
    find_sites(c, t);
    for (uint32_t i = 0; i < t->noptims && i < NFY_TRAIN_MAX; i++)
        optimizer_modules(c, t, t->optims[i].call, i);
    if (t->nmodules == 0)
        forward_modules(c, t);
    if (t->nmodules == 0)
        t->why_modules =
            t->noptims > 0
                ? "no optimizer is built from MODEL.parameters()"
                : "no optimizer, and no module of this file is called in "
                  "the loop of a training step";
    if (t->loader.loop != NFY_NONE)
        find_epoch_loop(c, t);
}

/* ---- the report's view --------------------------------------------------- */

static void row(mig_ctx *c, nfy_report *rep, const char *kind, uint32_t stmt,
                const char *how)
{
    if (stmt == NFY_NONE)
        return;
    const nfy_stmt *st = &c->m->stmts[stmt];
    nfy_str text = nfy_pysyn_span_text(c->m, st->span);
    size_t nl = 0;
    while (nl < text.len && text.ptr[nl] != '\n' && text.ptr[nl] != '\r')
        nl++;
    nfy_report_add_training(rep, c->p->relpath, kind,
                            c->m->toks[st->first].line,
                            nfy_mig_strdup(c, nfy_str_slice(text, 0, nl)), how);
}

static uint32_t line_of(const mig_ctx *c, uint32_t stmt)
{
    return c->m->toks[c->m->stmts[stmt].first].line;
}

/* Where a trained module is built: the assignment binding its name (or
 * `self.X = ...`) seen from where it is wrapped, else where it is used. */
static uint32_t module_built(const mig_ctx *c, const nfy_train_module *m)
{
    uint32_t use = nfy_train_stmt_of(c, m->expr.first), f = m->expr.first;
    uint32_t n = m->expr.end - f;
    if (n == 1 && m->use_stmt != NFY_NONE) {
        uint32_t b = lookup(c, c->m->stmts[m->use_stmt].scope, f);
        if (b != NFY_NONE && c->m->bindings[b].kind == NFY_BIND_ASSIGN &&
            c->m->bindings[b].stmt != NFY_NONE)
            return c->m->bindings[b].stmt;
    }
    if (n == 3 && mig_tok_is(c, f, "self"))
        for (uint32_t s = 0; s < c->m->nstmts; s++) {
            const nfy_stmt *st = &c->m->stmts[s];
            if (st->kind == NFY_STMT_ASSIGN &&
                st->value_first == st->first + 4 &&
                mig_tok_is(c, st->first, "self") &&
                nfy_str_eq(mig_tok(c, st->first + 2), mig_tok(c, f + 2)))
                return s;
        }
    return use;
}

static const char *module_how(mig_ctx *c, const nfy_train *t,
                              const nfy_train_module *m)
{
    nfy_str name = nfy_pysyn_span_text(
        c->m, nfy_pysyn_range_span(c->m, m->expr.first, m->expr.end));
    if (m->how != NFY_TRAIN_BY_OPTIMIZER || m->optim >= t->noptims ||
        m->optim >= NFY_TRAIN_MAX)
        return nfy_mig_fmt(c, "%.*s: called in a training step's loop",
                           NFY_STR_FMT(name));
    return nfy_mig_fmt(c, "%.*s: its parameters reach the optimizer of line %u",
                       NFY_STR_FMT(name),
                       (unsigned)line_of(c, t->optims[m->optim].stmt));
}

/* Whether tokens [f, e) name the name at token t. */
static bool mentions(const mig_ctx *c, uint32_t f, uint32_t e, uint32_t t)
{
    for (uint32_t i = f; i < e; i++)
        if (c->m->toks[i].kind == NFY_TOK_NAME &&
            nfy_str_eq(mig_tok(c, i), mig_tok(c, t)) &&
            (i == 0 || !nfy_mig_tok_op(c, i - 1, NFY_OP_DOT)))
            return true;
    return false;
}

/* The loss of step s: `NAME.backward()` and the statements of its
 * function binding or growing NAME before it (`loss = a + b; loss += c`). */
static const char *step_how(mig_ctx *c, uint32_t s)
{
    const nfy_stmt *st = &c->m->stmts[s];
    uint32_t lp = nfy_mig_method_stmt(c, s, "backward"), first = NFY_NONE,
             n = 0;
    if (lp == NFY_NONE || lp != st->first + 3 ||
        c->m->toks[st->first].kind != NFY_TOK_NAME)
        return NULL;
    uint32_t from = c->m->scopes[st->scope].stmt;
    for (uint32_t x = from == NFY_NONE ? 0 : from + 1; x < s; x++) {
        const nfy_stmt *a = &c->m->stmts[x];
        if (a->scope != st->scope ||
            (a->kind != NFY_STMT_ASSIGN && a->kind != NFY_STMT_AUGASSIGN) ||
            !nfy_str_eq(mig_tok(c, a->first), mig_tok(c, st->first)) ||
            a->value_first != a->first + 2)
            continue;
        if (a->kind == NFY_STMT_ASSIGN &&
            !mentions(c, a->value_first, a->value_end, st->first)) {
            /* a new value, not `loss = loss + x`: start again */
            first = x;
            n = 0;
        } else if (first != NFY_NONE) {
            n++;
        }
    }
    if (first == NFY_NONE)
        return NULL;
    nfy_str text = nfy_pysyn_span_text(c->m, c->m->stmts[first].span);
    size_t nl = 0;
    while (nl < text.len && text.ptr[nl] != '\n' && text.ptr[nl] != '\r')
        nl++;
    return nfy_mig_fmt(c, "the loss: %.*s (line %u%s)", (int)nl, text.ptr,
                       (unsigned)line_of(c, first),
                       n > 0 ? nfy_mig_fmt(c, ", grown by %u more", (unsigned)n)
                             : "");
}

static void rows(mig_ctx *c, nfy_report *rep, const char *kind,
                 const nfy_train_site *a, uint32_t n)
{
    for (uint32_t i = 0; i < n && i < NFY_TRAIN_MAX; i++)
        row(c, rep, kind, a[i].stmt, NULL);
}

void nfy_train_report(mig_ctx *c, nfy_report *rep)
{
    nfy_train t;
    nfy_train_build(c, &t);
    if (rep == NULL || c->p->relpath == NULL ||
        (t.nsteps == 0 && t.noptims == 0))
        return;
    for (uint32_t i = 0; i < t.nmodules && i < NFY_TRAIN_MAX; i++)
        row(c, rep, "module", module_built(c, &t.modules[i]),
            module_how(c, &t, &t.modules[i]));
    rows(c, rep, "optimizer", t.optims, t.noptims);
    rows(c, rep, "scheduler", t.scheds, t.nscheds);
    for (uint32_t i = 0; i < t.nsteps && i < NFY_TRAIN_MAX; i++)
        row(c, rep, "step", t.steps[i].stmt, step_how(c, t.steps[i].stmt));
    if (t.loader.call != NFY_NONE)
        row(c, rep, "train_loader", c->m->calls[t.loader.call].stmt,
            "iterated by the loop holding the step");
    else
        row(c, rep, "train_loader", t.loader.loop,
            nfy_mig_fmt(c, "not found: %s", t.loader.why));
    rows(c, rep, "eval_loader", t.evals, t.nevals);
    row(c, rep, "epoch_loop", t.epoch_loop, NULL);
    rows(c, rep, "clip", t.clips, t.nclips);
    rows(c, rep, "log", t.logs, t.nlogs);
    rows(c, rep, "checkpoint", t.saves, t.nsaves);
    rows(c, rep, "progress_bar", t.bars, t.nbars);
    rows(c, rep, "seed", t.seeds, t.nseeds);
}
