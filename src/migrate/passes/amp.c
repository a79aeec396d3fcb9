/*
 * `convert --amp` (pass "amp-insert"): add mixed precision to the training
 * steps of a file that has none, and say for every training step what
 * happened to it (pass "amp-step", NPU410): inserted, already under AMP,
 * or not transformed and why.
 *
 * A training step is a `LOSS.backward(...)` statement. Its group is the
 * innermost loop around it (else its function, else the module): every
 * backward and every optimizer step (`OPT.step()`, OPT named like an
 * optimizer) of that body, in the same scope, belong together, so
 * gradient accumulation (`if (i + 1) % accum == 0: opt.step()`), GANs
 * (two losses, two optimizers) and `self.optimizer` are one shape:
 *
 *     out = model(x)               with torch.autocast(device_type="npu"):
 *     loss = crit(out, y)      ->      out = model(x)
 *     loss.backward()                  loss = crit(out, y)
 *     clip_grad_norm_(...)         amp_scaler.scale(loss).backward()
 *     opt.step()                   amp_scaler.unscale_(opt)
 *                                  clip_grad_norm_(...)
 *                                  amp_scaler.step(opt)
 *                                  amp_scaler.update()
 *
 * One scaler per file, shared by all optimizers, updated once after the
 * group's last step, as PyTorch's AMP examples do for several losses and
 * optimizers. The forward statements wrapped are the simple assignments
 * right before each backward, which must include the loss's. A group that
 * does not fit (closures, steps in different blocks, no optimizer) is not
 * touched and each of its backward calls gets the reason.
 */
#include <ctype.h>
#include <string.h>

#include "migrate/pass.h"

#define SCALER     "amp_scaler"
#define MAX_EVENTS 64

typedef struct {
    uint32_t stmt;
    uint32_t recv_first, recv_end; /* receiver tokens */
    bool step, has_args;
} amp_event;

typedef struct {
    uint32_t head;       /* loop/def statement, NFY_NONE: module */
    uint32_t first, end; /* statements of the body */
    amp_event ev[MAX_EVENTS];
    uint32_t nev;
    bool full;
} amp_group;

/* ---- statement shapes ---------------------------------------------------- */

/* Tokens [a, b) are NAME ( . NAME )*. */
static bool dotted(const mig_ctx *c, uint32_t a, uint32_t b)
{
    if (a >= b || (b - a) % 2 == 0)
        return false;
    for (uint32_t t = a; t < b; t++)
        if ((t - a) % 2 == 0 ? c->m->toks[t].kind != NFY_TOK_NAME
                             : !nfy_mig_tok_op(c, t, NFY_OP_DOT))
            return false;
    return true;
}

/* An optimizer step is `RECV.step(...)` with RECV named like an optimizer
 * (optimizer, opt, optD, self.optimizer), never like a scheduler. */
static bool as_step(const mig_ctx *c, uint32_t s, amp_event *e)
{
    uint32_t lp = nfy_mig_method_stmt(c, s, "step");
    const nfy_stmt *st = &c->m->stmts[s];
    if (lp == NFY_NONE || !dotted(c, st->first, lp - 2))
        return false;
    nfy_str last = mig_tok(c, lp - 3);
    if (!nfy_str_contains_ci(last, "opt") || nfy_str_contains_ci(last, "sched"))
        return false;
    *e = (amp_event){s, st->first, lp - 2, true, lp + 1 != st->end - 1};
    return true;
}

static bool as_backward(const mig_ctx *c, uint32_t s, amp_event *e)
{
    uint32_t lp = nfy_mig_method_stmt(c, s, "backward");
    if (lp == NFY_NONE || nfy_mig_attr_on_module(c, lp - 1))
        return false; /* torch.autograd.backward(...) is no loss */
    *e = (amp_event){s, c->m->stmts[s].first, lp - 2, false, false};
    return true;
}

static nfy_str toks_text(const mig_ctx *c, uint32_t a, uint32_t b)
{
    return nfy_pysyn_span_text(c->m, nfy_pysyn_range_span(c->m, a, b));
}

static bool stmt_mentions(mig_ctx *c, uint32_t s, const char *word)
{
    nfy_str t = nfy_pysyn_span_text(c->m, c->m->stmts[s].span);
    return strstr(nfy_mig_strdup(c, t), word) != NULL;
}

/* ---- groups -------------------------------------------------------------- */

static bool is_loop(const nfy_stmt *st)
{
    return st->kind == NFY_STMT_FOR || st->kind == NFY_STMT_WHILE;
}

/* The innermost loop around s inside its function, else the function,
 * else NFY_NONE (the module). */
static uint32_t group_head(const mig_ctx *c, uint32_t s)
{
    for (uint32_t p = c->m->stmts[s].parent; p != NFY_NONE;
         p = c->m->stmts[p].parent) {
        const nfy_stmt *st = &c->m->stmts[p];
        if (is_loop(st) || st->kind == NFY_STMT_DEF)
            return p;
    }
    return NFY_NONE;
}

static void collect(const mig_ctx *c, uint32_t b, amp_group *g)
{
    memset(g, 0, sizeof *g);
    g->head = group_head(c, b);
    g->first = g->head == NFY_NONE ? 0 : g->head + 1;
    g->end = g->head == NFY_NONE ? c->m->nstmts : c->m->stmts[g->head].body_end;
    uint32_t scope = c->m->stmts[b].scope;
    for (uint32_t s = g->first; s < g->end; s++) {
        amp_event e;
        if (c->m->stmts[s].scope != scope ||
            !(as_backward(c, s, &e) || as_step(c, s, &e)))
            continue;
        if (g->nev == MAX_EVENTS) {
            g->full = true;
            return;
        }
        g->ev[g->nev++] = e;
    }
}

/* Whether a loop lies between s and the group's head. */
static bool loop_between(const mig_ctx *c, uint32_t s, uint32_t head)
{
    for (uint32_t p = c->m->stmts[s].parent; p != head && p != NFY_NONE;
         p = c->m->stmts[p].parent)
        if (is_loop(&c->m->stmts[p]))
            return true;
    return false;
}

/* ---- the forward to wrap ------------------------------------------------- */

static bool zero_grad_stmt(const mig_ctx *c, uint32_t s)
{
    return nfy_mig_method_stmt(c, s, "zero_grad") != NFY_NONE;
}

static bool is_assign(const mig_ctx *c, uint32_t s)
{
    uint16_t k = c->m->stmts[s].kind;
    return (k == NFY_STMT_ASSIGN || k == NFY_STMT_AUGASSIGN) &&
           nfy__mig_own_lines(c, s);
}

static bool is_clause(const mig_ctx *c, uint32_t s)
{
    return c->m->stmts[s].clause_of != NFY_NONE;
}

/* An if/with/try block of the forward (an if/else choosing the model
 * call): no backward or step inside, no def, no multi-line string. */
static bool wrappable_block(const mig_ctx *c, uint32_t s)
{
    const nfy_stmt *st = &c->m->stmts[s];
    static const uint16_t kinds[] = {
        NFY_STMT_IF,  NFY_STMT_ELIF,   NFY_STMT_ELSE,   NFY_STMT_WITH,
        NFY_STMT_TRY, NFY_STMT_EXCEPT, NFY_STMT_FINALLY};
    bool kind_ok = false;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        kind_ok = kind_ok || st->kind == kinds[i];
    if (!kind_ok || (st->flags & NFY_STMTF_ERROR) || st->body_end <= s + 1)
        return false;
    amp_event e;
    for (uint32_t b = s + 1; b < st->body_end; b++) {
        uint16_t k = c->m->stmts[b].kind;
        if (k == NFY_STMT_DEF || k == NFY_STMT_CLASS ||
            (c->m->stmts[b].flags & NFY_STMTF_ERROR) || as_backward(c, b, &e) ||
            as_step(c, b, &e))
            return false;
    }
    uint32_t end = c->m->stmts[st->body_end - 1].end;
    for (uint32_t t = st->first; t < end; t++) {
        const nfy_token *tk = &c->m->toks[t];
        if (tk->kind == NFY_TOK_STRING && tk->end_line != tk->line)
            return false;
    }
    return true;
}

static uint32_t next_sibling(const mig_ctx *c, uint32_t s)
{
    const nfy_stmt *st = &c->m->stmts[s];
    return st->body_end > s + 1 ? st->body_end : s + 1;
}

/* The forward of backward b: from the statement assigning the loss's first
 * name (simple statements such as metrics may stand between it and b;
 * zero_grad and other backward calls are skipped), up over the contiguous
 * assignments and if/with blocks before it. When only assignments stand
 * between the loss and b, they are part of the forward too. */
static bool forward_of(const mig_ctx *c, const amp_event *b, uint32_t *first,
                       uint32_t *last)
{
    uint32_t root = b->recv_first;
    while (root < b->recv_end && nfy_mig_tok_op(c, root, NFY_OP_LPAR))
        root++;
    if (root == b->recv_end || c->m->toks[root].kind != NFY_TOK_NAME)
        return false;
    amp_event e;
    uint32_t a0 = nfy__mig_prev_sibling(c, b->stmt);
    while (a0 != NFY_NONE && (zero_grad_stmt(c, a0) || as_backward(c, a0, &e)))
        a0 =
            nfy__mig_prev_sibling(c, a0); /* several losses share one forward */
    uint32_t loss = NFY_NONE;
    bool all_assign = true;
    for (uint32_t a = a0; a != NFY_NONE; a = nfy__mig_prev_sibling(c, a)) {
        /* an if/with block adding a term (`if l1: loss += ...`) is part
         * of a loss built over several statements */
        bool block = wrappable_block(c, a) && !is_clause(c, a);
        if (!block && !nfy__mig_own_lines(c, a))
            return false;
        if (!block && is_assign(c, a) &&
            nfy_str_eq(mig_tok(c, c->m->stmts[a].first), mig_tok(c, root))) {
            loss = a;
            break;
        }
        all_assign = all_assign && (is_assign(c, a) || block);
    }
    if (loss == NFY_NONE)
        return false;
    *last = all_assign ? a0 : loss;
    if (c->m->stmts[*last].flags & NFY_STMTF_COMPOUND)
        *last = c->m->stmts[*last].body_end - 1; /* the block's last line */
    *first = loss;
    for (uint32_t p = nfy__mig_prev_sibling(c, loss); p != NFY_NONE;
         p = nfy__mig_prev_sibling(c, p)) {
        if (!is_assign(c, p) && !wrappable_block(c, p))
            break;
        *first = p;
    }
    while (*first != loss && is_clause(c, *first))
        *first = next_sibling(c, *first); /* never half an if/else */
    return true;
}

/* ---- classification ------------------------------------------------------ */

static const char *helper_name(mig_ctx *c, uint32_t head)
{
    const nfy_stmt *st = &c->m->stmts[head];
    return nfy_mig_strdup(c, mig_tok(c, st->name_tok));
}

/* Whether function `head` is passed to an optimizer step: a closure. */
static bool step_closure(const mig_ctx *c, uint32_t head)
{
    nfy_str name = mig_tok(c, c->m->stmts[head].name_tok);
    amp_event e;
    for (uint32_t s = 0; s < c->m->nstmts; s++) {
        if (!as_step(c, s, &e) || !e.has_args)
            continue;
        for (uint32_t t = e.recv_end + 2; t < c->m->stmts[s].end; t++)
            if (nfy_str_eq(mig_tok(c, t), name))
                return true;
    }
    return false;
}

/* The clipping statements unscale_before_clip handles for step s: those
 * among its previous siblings since the last backward or step. */
static bool clip_covered(const mig_ctx *c, uint32_t clip, uint32_t step)
{
    amp_event e;
    for (uint32_t p = nfy__mig_prev_sibling(c, step); p != NFY_NONE;
         p = nfy__mig_prev_sibling(c, p)) {
        if (as_backward(c, p, &e) || as_step(c, p, &e))
            return false;
        if (p == clip)
            return true;
    }
    return false;
}

/* A gradient clipping of the group that no unscale_ would precede: its
 * statement, or NFY_NONE. */
static uint32_t clip_uncovered(mig_ctx *c, const amp_group *g, uint32_t from)
{
    uint32_t scope = c->m->stmts[g->ev[0].stmt].scope;
    for (uint32_t s = from; s < g->end; s++) {
        if (c->m->stmts[s].scope != scope ||
            (c->m->stmts[s].flags & NFY_STMTF_COMPOUND) ||
            !stmt_mentions(c, s, "clip_grad"))
            continue;
        bool covered = false;
        for (uint32_t i = 0; i < g->nev && !covered; i++)
            covered = g->ev[i].step && clip_covered(c, s, g->ev[i].stmt);
        if (!covered)
            return s;
    }
    return NFY_NONE;
}

/* Every optimizer step of g runs whenever statement s does: each step's
 * block encloses s. */
static bool steps_enclose(const mig_ctx *c, const amp_group *g, uint32_t s)
{
    for (uint32_t i = 0; i < g->nev; i++) {
        if (!g->ev[i].step)
            continue;
        uint32_t block = c->m->stmts[g->ev[i].stmt].parent, p = s;
        while (p != NFY_NONE && p != block)
            p = c->m->stmts[p].parent;
        if (p != block)
            return false;
    }
    return true;
}

/* The group steps one optimizer (possibly at several places): true, with
 * its text in *opt (empty when nothing steps). */
static bool stepped_optimizer(const mig_ctx *c, const amp_group *g,
                              nfy_str *opt)
{
    *opt = (nfy_str){0};
    for (uint32_t i = 0; i < g->nev; i++) {
        if (!g->ev[i].step)
            continue;
        nfy_str t = toks_text(c, g->ev[i].recv_first, g->ev[i].recv_end);
        if (opt->len > 0 && !nfy_str_eq(*opt, t))
            return false;
        *opt = t;
    }
    return true;
}

static bool one_optimizer(const mig_ctx *c, const amp_group *g)
{
    nfy_str opt;
    return stepped_optimizer(c, g, &opt);
}

/* A `X.step()` in g's loop that is no optimizer step of it: in a loop
 * over optimizers, or through a subscript (`opts[i].step()`). */
static bool unnamed_step(const mig_ctx *c, const amp_group *g)
{
    for (uint32_t s = g->first; s < g->end; s++) {
        uint32_t lp = nfy_mig_method_stmt(c, s, "step");
        if (lp != NFY_NONE && lp + 1 == c->m->stmts[s].end - 1 &&
            !nfy_str_contains_ci(mig_tok(c, lp - 3), "sched") &&
            !nfy_str_contains_ci(mig_tok(c, lp - 3), "scaler"))
            return true;
    }
    return false;
}

/* Why group g cannot take the scaler, or NULL when it can. */
static const char *group_problem(mig_ctx *c, const amp_group *g)
{
    if (g->full)
        return "too many backward/step calls in one loop to pair them";
    uint32_t nsteps = 0, last_parent = NFY_NONE;
    bool seen_backward = false;
    for (uint32_t i = 0; i < g->nev; i++) {
        const amp_event *e = &g->ev[i];
        if (!nfy__mig_own_lines(c, e->stmt) ||
            nfy__mig_claimed(c, c->m->stmts[e->stmt].first,
                             c->m->stmts[e->stmt].end))
            return "the statement shares its line or is already edited";
        if (!e->step &&
            nfy_str_contains_ci(toks_text(c, e->recv_first, e->recv_end),
                                "accelerator"))
            return "Accelerate's backward(): its mixed precision is "
                   "Accelerator(mixed_precision=\"fp16\" or \"bf16\")";
        if (!e->step) {
            seen_backward = true;
            continue;
        }
        if (e->has_args)
            return nfy_mig_fmt(
                c,
                "%.*s.step(closure): GradScaler cannot step with a closure "
                "(LBFGS-style optimizers); add AMP by hand or keep fp32",
                NFY_STR_FMT(toks_text(c, e->recv_first, e->recv_end)));
        if (!seen_backward)
            return "an optimizer step comes before the first backward() of "
                   "the loop";
        if (nsteps > 0 && c->m->stmts[e->stmt].parent != last_parent)
            return "the optimizer steps are in different blocks: one "
                   "GradScaler.update() after them cannot be placed";
        if (loop_between(c, e->stmt, g->head))
            return "the optimizer step is in a nested loop";
        last_parent = c->m->stmts[e->stmt].parent;
        nsteps++;
    }
    bool by_hand = false;
    for (uint32_t s = g->first; s < g->end && !by_hand; s++)
        by_hand = !(c->m->stmts[s].flags & NFY_STMTF_COMPOUND) &&
                  stmt_mentions(c, s, ".grad") && !zero_grad_stmt(c, s) &&
                  (stmt_mentions(c, s, "add_") || stmt_mentions(c, s, "-="));
    if (by_hand && nsteps > 0)
        return "the loop also updates parameters by hand from .grad on "
               "some path: scaled gradients would reach that update; add "
               "AMP by hand";
    uint32_t clip = nsteps > 0 ? clip_uncovered(c, g, g->first) : NFY_NONE;
    if (clip != NFY_NONE && clip < g->ev[0].stmt)
        return "gradient clipping before the loop's first backward(): "
               "place amp_scaler.unscale_(optimizer) before it by hand";
    for (uint32_t s = clip; s != NFY_NONE; s = clip_uncovered(c, g, s + 1)) {
        if (!nfy__mig_own_lines(c, s))
            return "gradient clipping outside the step's block shares its "
                   "line: place amp_scaler.unscale_(optimizer) by hand";
        if (!steps_enclose(c, g, s))
            return "gradient clipping runs where the optimizer step may not "
                   "(the step is in a block of its own): an unscale_ "
                   "without a step and update() fails the next time; place "
                   "amp_scaler.unscale_(optimizer) by hand";
    }
    if (clip != NFY_NONE && !one_optimizer(c, g))
        return "gradient clipping outside the block of the optimizer steps "
               "of several optimizers: which one to unscale_ before it is "
               "not clear; place amp_scaler.unscale_(optimizer) by hand";
    if (nsteps == 0) {
        if (by_hand)
            return "parameters are updated by hand from .grad (no "
                   "optimizer): GradScaler needs an optimizer; use "
                   "torch.autocast(\"npu\", dtype=torch.bfloat16) (no scaler; "
                   "chips with bf16) or a torch.optim optimizer";
        bool in_def =
            g->head != NFY_NONE && c->m->stmts[g->head].kind == NFY_STMT_DEF;
        if (in_def && step_closure(c, g->head))
            return nfy_mig_fmt(c,
                               "backward() in closure %s of an optimizer step: "
                               "GradScaler cannot step with a closure "
                               "(LBFGS-style optimizers); keep fp32 or add AMP "
                               "by hand",
                               helper_name(c, g->head));
        if (in_def)
            return nfy_mig_fmt(
                c,
                "backward() in helper function %s, which has no "
                "optimizer step: the step is in its caller; scale "
                "the loss and step through one GradScaler by hand",
                helper_name(c, g->head));
        if (unnamed_step(c, g))
            return "the optimizer steps are not OPT.step() statements of "
                   "this loop (a loop over optimizers, opts[i].step()): "
                   "GradScaler.step(opt) for each cannot be placed; add AMP "
                   "by hand";
        return "no optimizer step (OPT.step()) after backward() in this loop";
    }
    if (!g->ev[g->nev - 1].step)
        return "a backward() comes after the last optimizer step of the "
               "loop";
    for (uint32_t i = 0; i < g->nev; i++) {
        uint32_t f, l;
        if (!g->ev[i].step && !forward_of(c, &g->ev[i], &f, &l))
            return "the loss is not computed by simple assignments right "
                   "before backward(): wrap its forward in torch.autocast by "
                   "hand";
    }
    return NULL;
}

/* The verdict on training step b, in the report: inserted (precision
 * advice: review it), already under AMP (left unchanged), or not
 * transformed (manual work, with the reason). */
typedef enum { AMP_INSERTED, AMP_PRESENT, AMP_SKIPPED } amp_verdict;

static void classify(mig_ctx *c, const amp_event *b, amp_verdict v,
                     const char *how)
{
    static const struct {
        nfy_finding_cat cat;
        nfy_op_type op;
        const char *prefix;
    } kinds[] = {
        {NFY_CAT_PRECISION_ADVICE, NFY_OPTYPE_NONE, "AMP inserted"},
        {NFY_CAT_LEFT_UNCHANGED, NFY_OPTYPE_NONE, "left unchanged"},
        {NFY_CAT_UNSUPPORTED_API, NFY_OPTYPE_UNSUPPORTED, "AMP not inserted"},
    };
    const nfy_rule *r = nfy__mig_pass_rule_of(c, NFY_PASS_AMP_STEP);
    if (r == NULL)
        return;
    const nfy_stmt *st = &c->m->stmts[b->stmt];
    nfy__mig_note_add(
        c, r, st->span, kinds[v].cat, kinds[v].op,
        nfy_mig_strdup(c, toks_text(c, st->first, st->end)),
        nfy_mig_fmt(c, "training step: %s: %s", kinds[v].prefix, how));
}

/* ---- edits --------------------------------------------------------------- */

/* *wrapped: the first statement of the last forward wrapped, so losses
 * of one forward wrap it once. */
static void scale_backward(mig_ctx *c, const nfy_rule *r, const amp_event *b,
                           nfy_str torch, uint32_t *wrapped)
{
    uint32_t f, l;
    if (forward_of(c, b, &f, &l) && f != *wrapped)
        nfy__mig_wrap_lines(
            c, r, f, l,
            nfy_mig_fmt(c, "with %.*s.autocast(device_type=\"npu\"):",
                        NFY_STR_FMT(torch)),
            "AMP: indent the forward pass");
    *wrapped = f;
    uint32_t a = b->recv_first, z = b->recv_end;
    if (z - a >= 3 && nfy_mig_tok_op(c, a, NFY_OP_LPAR) &&
        nfy_mig_tok_op(c, z - 1, NFY_OP_RPAR)) {
        a++; /* (loss / accum).backward(): no double parentheses */
        z--;
    }
    nfy__mig_edit(
        c, r, b->recv_first, b->recv_end, c->m->toks[b->recv_first].start,
        c->m->toks[b->recv_end - 1].end,
        nfy_mig_fmt(c, SCALER ".scale(%.*s)", NFY_STR_FMT(toks_text(c, a, z))),
        "AMP: scale the loss");
}

/* unscale_ before the first gradient clipping among the statements of the
 * step's block since the last backward or step. */
static void unscale_before_clip(mig_ctx *c, const nfy_rule *r,
                                const amp_event *s, nfy_str opt)
{
    uint32_t clip = NFY_NONE;
    amp_event e;
    for (uint32_t p = nfy__mig_prev_sibling(c, s->stmt); p != NFY_NONE;
         p = nfy__mig_prev_sibling(c, p)) {
        if (as_backward(c, p, &e) || as_step(c, p, &e))
            break;
        if (stmt_mentions(c, p, "clip_grad") && nfy__mig_own_lines(c, p))
            clip = p;
    }
    if (clip != NFY_NONE)
        nfy__mig_insert_line(
            c, r, nfy__mig_line_start_of(c, clip), clip,
            nfy_mig_fmt(c, SCALER ".unscale_(%.*s)", NFY_STR_FMT(opt)));
}

static void scale_step(mig_ctx *c, const nfy_rule *r, const amp_event *s,
                       bool last)
{
    nfy_str opt = toks_text(c, s->recv_first, s->recv_end);
    const nfy_stmt *st = &c->m->stmts[s->stmt];
    unscale_before_clip(c, r, s, opt);
    nfy__mig_edit(c, r, st->first, st->end, st->span.start, st->span.end,
                  nfy_mig_fmt(c, SCALER ".step(%.*s)", NFY_STR_FMT(opt)),
                  "AMP: step through the scaler");
    if (last) {
        uint32_t nl = nfy__mig_next_sig(c, st->end - 1);
        nfy__mig_insert_line(c, r, c->m->toks[nl].end, s->stmt,
                             SCALER ".update()");
    }
}

/* unscale_ before each clipping outside the step's block (in an if of
 * its own, say): the group steps one optimizer, checked before. */
static void unscale_other_clips(mig_ctx *c, const nfy_rule *r,
                                const amp_group *g)
{
    nfy_str opt = {0};
    for (uint32_t i = 0; i < g->nev && opt.len == 0; i++)
        if (g->ev[i].step)
            opt = toks_text(c, g->ev[i].recv_first, g->ev[i].recv_end);
    for (uint32_t s = clip_uncovered(c, g, g->first); s != NFY_NONE;
         s = clip_uncovered(c, g, s + 1))
        if (nfy__mig_own_lines(c, s))
            nfy__mig_insert_line(
                c, r, nfy__mig_line_start_of(c, s), s,
                nfy_mig_fmt(c, SCALER ".unscale_(%.*s)", NFY_STR_FMT(opt)));
}

static void transform(mig_ctx *c, const nfy_rule *r, const amp_group *g,
                      nfy_str torch)
{
    uint32_t wrapped = NFY_NONE;
    unscale_other_clips(c, r, g);
    for (uint32_t i = 0; i < g->nev; i++) {
        if (g->ev[i].step)
            scale_step(c, r, &g->ev[i], i + 1 == g->nev);
        else
            scale_backward(c, r, &g->ev[i], torch, &wrapped);
    }
}

/* ---- --amp=apex ---------------------------------------------------------
 * Ascend's ModelZoo form: `model, optimizer = amp.initialize(model,
 * optimizer, opt_level="O2", loss_scale=128.0, combine_grad=True)` right
 * after the optimizer is built, and each backward under
 * `with amp.scale_loss(loss, optimizer) as scaled_loss:`. */

#define APEX_INIT "opt_level=\"O2\", loss_scale=128.0, combine_grad=True"

typedef struct {
    uint32_t stmt; /* OPT = torch.optim.X(MODEL.parameters()) */
    uint32_t model_first, model_end;
    nfy_str opt;
} apex_opt;

/* Where the group's one optimizer is built in this file. */
static bool optimizer_built(const mig_ctx *c, nfy_str opt, uint32_t scope,
                            uint32_t before, apex_opt *o)
{
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        const nfy_call *call = &c->m->calls[k];
        const nfy_stmt *st = &c->m->stmts[call->stmt];
        if (st->scope != scope || call->stmt >= before ||
            !nfy_str_starts_with(mig_callee_qual(c, k),
                                 NFY_STR_LIT("torch.optim.")) ||
            st->kind != NFY_STMT_ASSIGN ||
            st->value_first != call->callee_first ||
            !nfy_str_eq(toks_text(c, st->first, st->value_first - 1), opt) ||
            call->nargs == 0)
            continue;
        const nfy_arg *a = &c->m->args[call->args_first];
        uint32_t e = a->value_end;
        if (a->kind != NFY_ARG_POS || e < a->value_first + 5 ||
            !nfy_mig_tok_op(c, e - 4, NFY_OP_DOT) ||
            !mig_tok_is(c, e - 3, "parameters") ||
            !nfy_mig_tok_op(c, e - 2, NFY_OP_LPAR) ||
            !nfy_mig_tok_op(c, e - 1, NFY_OP_RPAR) ||
            !nfy__mig_own_lines(c, call->stmt))
            continue;
        *o = (apex_opt){call->stmt, a->value_first, e - 4, opt};
        return true;
    }
    return false;
}

static const char *apex_problem(mig_ctx *c, const amp_group *g, apex_opt *o)
{
    nfy_str opt;
    if (!stepped_optimizer(c, g, &opt))
        return "several optimizers: apex needs amp.initialize(model, "
               "[opt1, opt2]) and a scale_loss per optimizer; add it by "
               "hand or use --amp";
    for (uint32_t s = g->first; s < g->end; s++)
        if (!(c->m->stmts[s].flags & NFY_STMTF_COMPOUND) &&
            stmt_mentions(c, s, "clip_grad"))
            return "gradient clipping under apex O2 must clip "
                   "amp.master_params(optimizer): add AMP by hand or use "
                   "--amp";
    uint32_t first = g->ev[0].stmt;
    if (!optimizer_built(c, opt, c->m->stmts[first].scope, first, o))
        return nfy_mig_fmt(c,
                           "%.*s is not built here as OPT = "
                           "torch.optim.X(MODEL.parameters(), ...): "
                           "amp.initialize must follow its construction",
                           NFY_STR_FMT(opt));
    return NULL;
}

static void apex_backward(mig_ctx *c, const nfy_rule *r, const amp_event *b,
                          nfy_str opt)
{
    uint32_t a = b->recv_first, z = b->recv_end;
    if (z - a >= 3 && nfy_mig_tok_op(c, a, NFY_OP_LPAR) &&
        nfy_mig_tok_op(c, z - 1, NFY_OP_RPAR)) {
        a++;
        z--;
    }
    nfy__mig_wrap_lines(
        c, r, b->stmt, b->stmt,
        nfy_mig_fmt(c, "with amp.scale_loss(%.*s, %.*s) as scaled_loss:",
                    NFY_STR_FMT(toks_text(c, a, z)), NFY_STR_FMT(opt)),
        "AMP: backward under amp.scale_loss");
    nfy__mig_edit(c, r, b->recv_first, b->recv_end,
                  c->m->toks[b->recv_first].start,
                  c->m->toks[b->recv_end - 1].end, "scaled_loss",
                  "AMP: backward of the scaled loss");
}

/* amp.initialize once per optimizer statement (*done: the last one). */
static void apex_transform(mig_ctx *c, const nfy_rule *r, const amp_group *g,
                           const apex_opt *o, uint32_t *done)
{
    for (uint32_t i = 0; i < g->nev; i++)
        if (!g->ev[i].step)
            apex_backward(c, r, &g->ev[i], o->opt);
    if (*done == o->stmt)
        return;
    *done = o->stmt;
    nfy_str m = toks_text(c, o->model_first, o->model_end);
    uint32_t nl = nfy__mig_next_sig(c, c->m->stmts[o->stmt].end - 1);
    nfy__mig_insert_line(
        c, r, c->m->toks[nl].end, o->stmt,
        nfy_mig_fmt(c, "%.*s, %.*s = amp.initialize(%.*s, %.*s, " APEX_INIT ")",
                    NFY_STR_FMT(m), NFY_STR_FMT(o->opt), NFY_STR_FMT(m),
                    NFY_STR_FMT(o->opt)));
}

/* ---- the pass -------------------------------------------------------------
 */

static bool name_taken(const mig_ctx *c, const char *name)
{
    for (uint32_t b = 0; b < c->m->nbindings; b++) {
        if (mig_tok_is(c, c->m->bindings[b].tok, name))
            return true;
    }
    return false;
}

/* The scaler goes in first: when the forward starts right after the
 * imports, both insertions fall on one offset, and edits at one offset keep
 * the order they were added in, so the scaler stays outside the `with`. */
static void insert_scaler(mig_ctx *c, const nfy_rule *r, nfy_str torch,
                          uint32_t torch_stmt)
{
    uint32_t anchor = nfy__mig_import_block_end(c, torch_stmt);
    uint32_t nl = nfy__mig_next_sig(c, c->m->stmts[anchor].end - 1);
    nfy__mig_insert_line(
        c, r, c->m->toks[nl].end, anchor,
        c->p->flags & NFY_MIGRATE_AMP_APEX
            ? "from apex import amp"
            : nfy_mig_fmt(c, SCALER " = %.*s.npu.amp.GradScaler()",
                          NFY_STR_FMT(torch)));
}

/* Why no step of this file can be transformed, or NULL. */
static const char *file_problem(const mig_ctx *c, nfy_str torch)
{
    if (c->withhold)
        return "the file has syntax errors";
    if (torch.len == 0)
        return "the file has no top-level `import torch` to build the "
               "scaler from";
    if (name_taken(c, SCALER))
        return "the name " SCALER " is already taken";
    if ((c->p->flags & NFY_MIGRATE_AMP_APEX) &&
        (name_taken(c, "amp") || name_taken(c, "scaled_loss")))
        return "--amp=apex: the name amp or scaled_loss is already taken";
    return NULL;
}

/* --amp=bf16: only the forward changes (bf16 keeps fp32's exponent
 * range, so no loss scaling), which also fits closures and hand-written
 * updates: each backward needs its forward found. */
static const char *bf16_problem(mig_ctx *c, const amp_group *g)
{
    if (g->full)
        return "too many backward/step calls in one loop to pair them";
    for (uint32_t i = 0; i < g->nev; i++) {
        const amp_event *e = &g->ev[i];
        uint32_t f, l;
        if (e->step)
            continue;
        if (!nfy__mig_own_lines(c, e->stmt) ||
            nfy__mig_claimed(c, c->m->stmts[e->stmt].first,
                             c->m->stmts[e->stmt].end))
            return "the statement shares its line or is already edited";
        if (nfy_str_contains_ci(toks_text(c, e->recv_first, e->recv_end),
                                "accelerator"))
            return "Accelerate's backward(): its mixed precision is "
                   "Accelerator(mixed_precision=\"bf16\")";
        if (!forward_of(c, e, &f, &l))
            return "the loss is not computed by simple assignments right "
                   "before backward(): wrap its forward in torch.autocast by "
                   "hand";
    }
    return NULL;
}

static void transform_bf16(mig_ctx *c, const nfy_rule *r, const amp_group *g,
                           nfy_str torch)
{
    uint32_t wrapped = NFY_NONE;
    for (uint32_t i = 0; i < g->nev; i++) {
        uint32_t f, l;
        if (g->ev[i].step || !forward_of(c, &g->ev[i], &f, &l) || f == wrapped)
            continue;
        nfy__mig_wrap_lines(
            c, r, f, l,
            nfy_mig_fmt(c,
                        "with %.*s.autocast(device_type=\"npu\", "
                        "dtype=%.*s.bfloat16):",
                        NFY_STR_FMT(torch), NFY_STR_FMT(torch)),
            "AMP: indent the forward pass");
        wrapped = f;
    }
}

typedef struct {
    uint32_t head;
    const char *why; /* NULL: transformed */
} amp_seen;

/* The group's verdict, computed and applied the first time it is met. */
static const char *group_verdict(mig_ctx *c, const nfy_rule *r, uint32_t b,
                                 amp_seen *seen, uint32_t *nseen, bool *scaler,
                                 nfy_str torch, uint32_t torch_stmt,
                                 uint32_t *apex_done)
{
    uint32_t head = group_head(c, b);
    for (uint32_t i = 0; i < *nseen; i++)
        if (seen[i].head == head)
            return seen[i].why;
    amp_group g;
    apex_opt o = {0};
    bool apex = (c->p->flags & NFY_MIGRATE_AMP_APEX) != 0;
    bool bf16 = (c->p->flags & NFY_MIGRATE_AMP_BF16) != 0;
    collect(c, b, &g);
    const char *why = bf16 ? bf16_problem(c, &g) : group_problem(c, &g);
    if (why == NULL && apex)
        why = apex_problem(c, &g, &o);
    seen[(*nseen)++] = (amp_seen){head, why};
    if (why == NULL && bf16)
        transform_bf16(c, r, &g, torch);
    else if (why == NULL) {
        if (!*scaler)
            insert_scaler(c, r, torch, torch_stmt);
        *scaler = true;
        if (apex)
            apex_transform(c, r, &g, &o, apex_done);
        else
            transform(c, r, &g, torch);
    }
    return why;
}

void nfy__mig_pass_amp_insert(mig_ctx *c)
{
    const nfy_rule *r = nfy__mig_pass_rule_of(c, NFY_PASS_AMP_INSERT);
    if (r == NULL)
        return;
    uint32_t torch_stmt = NFY_NONE;
    nfy_str torch = nfy__mig_torch_name(c, &torch_stmt);
    const char *fp = c->info->uses_amp ? NULL : file_problem(c, torch);
    amp_seen *seen = nfy_arena_alloc(c->arena, sizeof *seen * c->m->nstmts);
    uint32_t nseen = 0, apex_done = NFY_NONE;
    bool scaler = false;
    amp_event b;
    for (uint32_t s = 0; s < c->m->nstmts; s++) {
        if (!as_backward(c, s, &b))
            continue;
        if (c->info->uses_amp) {
            classify(c, &b, AMP_PRESENT, "the file already uses AMP");
            continue;
        }
        const char *why = fp != NULL
                              ? fp
                              : group_verdict(c, r, s, seen, &nseen, &scaler,
                                              torch, torch_stmt, &apex_done);
        c->info->amp_inserted |= why == NULL;
        if (why != NULL)
            classify(c, &b, AMP_SKIPPED, why);
        else
            classify(
                c, &b, AMP_INSERTED,
                c->p->flags & NFY_MIGRATE_AMP_APEX
                    ? "apex amp.initialize (O2, loss_scale=128) and "
                      "amp.scale_loss; needs Ascend's apex build"
                : c->p->flags & NFY_MIGRATE_AMP_BF16
                    ? "forward under torch.autocast with torch.bfloat16 (no "
                      "GradScaler: bf16 has fp32's range; Ascend A2/A3)"
                    : "forward under torch.autocast, loss scaled by " SCALER
                      "; review the loss scaling around the optimizer "
                      "step");
    }
}
