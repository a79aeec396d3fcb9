/*
 * `convert --distributed` (pass "ddp-rewrite", NPU307): make a single-card
 * training script multi-card, one process per NPU as torchrun starts them,
 * over HCCL. In every file, DataParallel becomes DistributedDataParallel
 * (and an `if ngpus > 1:` guard around it asks whether a process group
 * runs). In the main script (--main FILE, else a file with a __main__
 * guard) that has no process group yet:
 *   - after the imports: the rank variables from torchrun's environment
 *     and npu_init_distributed() (MASTER_ADDR/PORT defaults, set_device,
 *     init_process_group("hccl")), called first thing under the guard;
 *   - the model (--model NAME, else the one whose parameters() an
 *     optimizer takes) wrapped in DDP right before that optimizer;
 *     `model.state_dict()`, `load_state_dict` and own attributes go
 *     through `model.module` afterwards;
 *   - the training loader (the DataLoader with shuffle=True, or the only
 *     one) gets a DistributedSampler and drop_last=True, and the epoch
 *     loop calls its sampler's set_epoch;
 *   - print() and torch.save() run on rank 0 only.
 * Whatever cannot be found safely is reported at its line with the reason.
 */
#include <ctype.h>
#include <string.h>

#include "migrate/pass.h"
#include "train/train.h"

#define DDP ".nn.parallel.DistributedDataParallel"
/* No device_ids: the module already sits on this rank's NPU (set_device),
 * and npuify's own int-device rule would rewrite an int list again. */
#define DDP_ARGS "broadcast_buffers=False"
#define SAMPLER  ".utils.data.distributed.DistributedSampler"

typedef struct {
    uint32_t first, end; /* tokens of the model expression */
    uint32_t stmt;       /* the wrap goes before it (after: after it) */
    bool after;
} ddp_wrap;

typedef struct {
    const nfy_rule *r;
    nfy_str torch;
    nfy_train t;                   /* the training program */
    ddp_wrap wraps[NFY_TRAIN_MAX]; /* one per trained module */
    uint32_t nwraps;
    uint32_t model_first, model_end; /* the wrap being applied */
    uint32_t wrap_stmt;
    bool wrapped;   /* a DataParallel became DDP */
    bool after_opt; /* apex: wrap after the optimizer */
} ddp_state;

static void report(mig_ctx *c, const ddp_state *d, uint32_t s, const char *why)
{
    nfy_span sp = s == NFY_NONE ? (nfy_span){0, 0} : c->m->stmts[s].span;
    nfy__mig_note_add(c, d->r, sp, NFY_CAT_UNSUPPORTED_API,
                      NFY_OPTYPE_UNSUPPORTED, NULL,
                      nfy_mig_fmt(c, "--distributed: %s", why));
}

static nfy_str text_of(const mig_ctx *c, uint32_t a, uint32_t b)
{
    return nfy_pysyn_span_text(c->m, nfy_pysyn_range_span(c->m, a, b));
}

static bool qual_is(const mig_ctx *c, uint32_t k, const char *q)
{
    return mig_str_is(mig_callee_qual(c, k), q);
}

static const nfy_arg *arg_of(const mig_ctx *c, uint32_t k, const char *kw,
                             uint32_t pos)
{
    const nfy_call *call = &c->m->calls[k];
    for (uint32_t i = 0; i < call->nargs; i++) {
        const nfy_arg *a = &c->m->args[call->args_first + i];
        if (kw != NULL && a->kind == NFY_ARG_KEYWORD &&
            mig_tok_is(c, a->name_tok, kw))
            return a;
        if (a->kind == NFY_ARG_POS && a->pos == pos)
            return a;
    }
    return NULL;
}

/* ---- DataParallel -------------------------------------------------------- */

/* `if ngpus > 1:` / `if torch.npu.device_count() > 1:` holding only the
 * wrap: the question becomes whether a process group runs. */
static bool rewrite_guard(mig_ctx *c, const ddp_state *d, uint32_t s)
{
    uint32_t p = c->m->stmts[s].parent;
    if (p == NFY_NONE || c->m->stmts[p].kind != NFY_STMT_IF ||
        c->m->stmts[p].body_end != s + 1 || s != p + 1)
        return false;
    const nfy_stmt *h = &c->m->stmts[p];
    nfy_str cond = text_of(c, h->first + 1, h->end - 1);
    if (!nfy_str_contains_ci(cond, "gpu") &&
        !nfy_str_contains_ci(cond, "device_count") &&
        !nfy_str_contains_ci(cond, "npu"))
        return false;
    return nfy__mig_edit(c, d->r, h->first + 1, h->end - 1,
                         c->m->toks[h->first + 1].start,
                         c->m->toks[h->end - 2].end,
                         nfy_mig_fmt(c, "%.*s.distributed.is_initialized()",
                                     NFY_STR_FMT(d->torch)),
                         "DDP: wrap whenever a process group runs");
}

static void rewrite_data_parallel(mig_ctx *c, ddp_state *d)
{
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        const nfy_call *call = &c->m->calls[k];
        if (!qual_is(c, k, "torch.nn.DataParallel") &&
            !qual_is(c, k, "torch.nn.parallel.DataParallel"))
            continue;
        const nfy_arg *m = arg_of(c, k, "module", 0);
        if (m == NULL || call->rpar == NFY_NONE) {
            report(c, d, call->stmt, "DataParallel without a module argument");
            continue;
        }
        /* DataParallel(m).cuda(...): DDP must wrap a model already on its
         * NPU, so the move goes inside too: DDP(m.npu(...)). */
        uint32_t after = call->rpar + 1, mv = NFY_NONE;
        const char *move = "";
        if (after + 2 < c->m->ntoks && nfy_mig_tok_op(c, after, NFY_OP_DOT) &&
            c->m->toks[after + 1].kind == NFY_TOK_NAME)
            mv = after + 1;
        if (mv != NFY_NONE &&
            (mig_tok_is(c, mv, "cuda") || mig_tok_is(c, mv, "npu") ||
             mig_tok_is(c, mv, "to"))) {
            uint32_t k2 = NFY_NONE;
            for (uint32_t j = 0; j < c->m->ncalls; j++)
                if (c->m->calls[j].attr_tok == mv)
                    k2 = j;
            bool plain = k2 != NFY_NONE && c->m->calls[k2].rpar != NFY_NONE &&
                         !mig_tok_is(c, mv, "to");
            for (uint32_t j = plain ? c->m->calls[k2].lpar : 0;
                 plain && j < c->m->calls[k2].rpar; j++)
                plain = c->m->toks[j].kind != NFY_TOK_STRING;
            if (!plain) {
                report(c, d, call->stmt,
                       "DataParallel(model) moved to the device afterwards "
                       "with .to(...): DDP must wrap a model already on its "
                       "NPU; move it first, then wrap it in "
                       "DistributedDataParallel by hand");
                continue;
            }
            move = nfy_mig_fmt(c, ".npu%.*s",
                               NFY_STR_FMT(text_of(c, c->m->calls[k2].lpar,
                                                   c->m->calls[k2].rpar + 1)));
        }
        nfy_str mod = text_of(c, m->value_first, m->value_end);
        nfy_str t = d->torch;
        bool guarded = rewrite_guard(c, d, call->stmt);
        const char *ddp =
            guarded
                ? nfy_mig_fmt(c, "%.*s" DDP "(%.*s%s, " DDP_ARGS ")",
                              NFY_STR_FMT(t), NFY_STR_FMT(mod), move)
                : nfy_mig_fmt(c,
                              "(%.*s" DDP "(%.*s%s, " DDP_ARGS ") if "
                              "%.*s.distributed.is_initialized() else %.*s)",
                              NFY_STR_FMT(t), NFY_STR_FMT(mod), move,
                              NFY_STR_FMT(t), NFY_STR_FMT(mod));
        if (nfy__mig_edit(
                c, d->r, call->callee_first, call->rpar + 1, call->span.start,
                call->span.end, ddp,
                "DataParallel -> DistributedDataParallel when a "
                "process group runs (broadcast_buffers=False: Ascend's "
                "ports do not broadcast BatchNorm buffers each step)"))
            d->wrapped = true;
    }
}

/* ---- process group ------------------------------------------------------- */

static const char *init_code(mig_ctx *c, nfy_str t, nfy_str br, bool os)
{
    const char *nl = nfy_mig_strdup(c, br);
    return nfy_mig_fmt(
        c,
        "%snpu_local_rank = int(os.environ.get(\"LOCAL_RANK\", \"0\"))%s"
        "npu_is_rank0 = int(os.environ.get(\"RANK\", \"0\")) == 0%s%s"
        "def npu_init_distributed():%s"
        "    # torchrun sets RANK/WORLD_SIZE/LOCAL_RANK; the defaults run one "
        "process%s"
        "    os.environ.setdefault(\"MASTER_ADDR\", \"127.0.0.1\")%s"
        "    os.environ.setdefault(\"MASTER_PORT\", \"29500\")%s"
        "    %.*s.npu.set_device(npu_local_rank)%s"
        "    %.*s.distributed.init_process_group(%s"
        "        \"hccl\", rank=int(os.environ.get(\"RANK\", \"0\")),%s"
        "        world_size=int(os.environ.get(\"WORLD_SIZE\", \"1\")))%s%s",
        os ? "" : nfy_mig_fmt(c, "import os%s", nl), nl, nl, nl, nl, nl, nl, nl,
        NFY_STR_FMT(t), nl, NFY_STR_FMT(t), nl, nl, nl, nl);
}

static bool binds(const mig_ctx *c, const char *name)
{
    for (uint32_t b = 0; b < c->m->nbindings; b++)
        if (mig_tok_is(c, c->m->bindings[b].tok, name) &&
            c->m->scopes[c->m->bindings[b].scope].parent == NFY_NONE)
            return true;
    return false;
}

/* The definitions after the imports, the call first under the guard;
 * early: right after the imports, as something that needs the process
 * group runs at module level before the guard. */
static bool insert_init(mig_ctx *c, const ddp_state *d, uint32_t torch_stmt,
                        bool early)
{
    uint32_t g = early ? NFY_NONE : c->m->main_guard;
    if (g != NFY_NONE && (c->m->stmts[g].flags & NFY_STMTF_INLINE_BODY)) {
        report(c, d, g,
               "the __main__ guard has its body on its line: call "
               "npu_init_distributed() there by hand");
        return false;
    }
    uint32_t anchor = nfy__mig_import_block_end(c, torch_stmt);
    uint32_t nl = nfy__mig_next_sig(c, c->m->stmts[anchor].end - 1);
    nfy_str br = mig_tok(c, nl);
    if (br.len == 0)
        br = NFY_STR_LIT("\n");
    nfy__mig_edit(c, d->r, 0, 0, c->m->toks[nl].end, c->m->toks[nl].end,
                  init_code(c, d->torch, br, binds(c, "os")),
                  "DDP: rank variables and process-group init (hccl, torchrun "
                  "environment)");
    uint32_t at = g == NFY_NONE ? anchor : g + 1;
    if (g == NFY_NONE)
        nfy__mig_insert_line(c, d->r, c->m->toks[nl].end, anchor,
                             "npu_init_distributed()");
    else
        nfy__mig_insert_line(c, d->r, nfy__mig_line_start_of(c, at), at,
                             "npu_init_distributed()");
    return true;
}

/* ---- the model ----------------------------------------------------------- */

/* Tokens at t spell the model expression. */
static bool model_at(const mig_ctx *c, const ddp_state *d, uint32_t t,
                     uint32_t end)
{
    uint32_t n = d->model_end - d->model_first;
    if (t + n > end)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (!nfy_str_eq(mig_tok(c, t + i), mig_tok(c, d->model_first + i)))
            return false;
    return true;
}

/* Statement s (or one in its body) sets up the model: `MODEL = ...` or
 * `MODEL.x(...)` (to, npu, load_state_dict ...). */
static bool sets_up_model(const mig_ctx *c, const ddp_state *d, uint32_t s)
{
    uint32_t end =
        c->m->stmts[s].body_end > s + 1 ? c->m->stmts[s].body_end : s + 1;
    uint32_t n = d->model_end - d->model_first;
    for (uint32_t b = s; b < end; b++) {
        const nfy_stmt *st = &c->m->stmts[b];
        if (!model_at(c, d, st->first, st->end))
            continue;
        if ((st->kind == NFY_STMT_ASSIGN &&
             st->first + n + 1 == st->value_first) ||
            (st->kind == NFY_STMT_EXPR &&
             nfy_mig_tok_op(c, st->first + n, NFY_OP_DOT)))
            return true;
    }
    return false;
}

/* The statement after set-up statement p at its block level (past its
 * elif/else clauses), or NONE where nothing follows at an indent. */
static uint32_t after_setup(const mig_ctx *c, uint32_t p)
{
    uint32_t n =
        c->m->stmts[p].body_end > p + 1 ? c->m->stmts[p].body_end : p + 1;
    while (n < c->m->nstmts && c->m->stmts[n].clause_of != NFY_NONE &&
           c->m->stmts[n].parent == c->m->stmts[p].parent)
        n = c->m->stmts[n].body_end;
    return n < c->m->nstmts && nfy__mig_is_indent(nfy__mig_stmt_indent(c, n)) &&
                   c->m->stmts[n].parent == c->m->stmts[p].parent
               ? n
               : NFY_NONE;
}

/* Where the wrap goes: right after the last statement before the
 * optimizer that sets the model up, at that statement's block level, so
 * it runs whichever branch builds the optimizer; the statement to insert
 * before, or NONE. */
static uint32_t wrap_point(const mig_ctx *c, const ddp_state *d, uint32_t opt)
{
    uint32_t scope = c->m->stmts[opt].scope;
    for (uint32_t x = opt; x != NFY_NONE && c->m->stmts[x].scope == scope;
         x = c->m->stmts[x].parent) {
        for (uint32_t p = nfy__mig_prev_sibling(c, x); p != NFY_NONE;
             p = nfy__mig_prev_sibling(c, p))
            if (sets_up_model(c, d, p))
                return after_setup(c, p);
        if (c->m->stmts[x].kind == NFY_STMT_DEF)
            break;
    }
    return nfy__mig_is_indent(nfy__mig_stmt_indent(c, opt)) ? opt : NFY_NONE;
}

/* A module used only inside functions (a global the step's function
 * reads): after its last set-up among the statements of its own scope. */
static uint32_t wrap_after_setups(const mig_ctx *c, const ddp_state *d)
{
    uint32_t s0 = nfy_train_stmt_of(c, d->model_first);
    uint32_t b =
        s0 == NFY_NONE
            ? NFY_NONE
            : nfy_resolve_lookup(c->r, c->m->stmts[s0].scope, d->model_first,
                                 mig_tok(c, d->model_first));
    if (b == NFY_NONE)
        return NFY_NONE;
    uint32_t scope = c->m->bindings[b].scope, last = NFY_NONE;
    uint32_t parent = c->m->stmts[c->m->bindings[b].stmt].parent;
    for (uint32_t s = 0; s < c->m->nstmts; s++)
        if (c->m->stmts[s].scope == scope && c->m->stmts[s].parent == parent &&
            s != c->m->main_guard && sets_up_model(c, d, s))
            last = s;
    return last == NFY_NONE ? NFY_NONE : after_setup(c, last);
}

/* The modules to wrap: every trained module of the model (--model NAME:
 * that one), each before the statement that first uses it. */
static bool find_models(mig_ctx *c, ddp_state *d)
{
    const nfy_train *t = &d->t;
    nfy_str want = c->p->model != NULL ? nfy_str_from_cstr(c->p->model)
                                       : nfy_str_slice(NFY_STR_LIT(""), 0, 0);
    d->after_opt = (c->p->flags & NFY_MIGRATE_AMP_APEX) != 0;
    for (uint32_t i = 0; i < t->nmodules && i < NFY_TRAIN_MAX; i++) {
        const nfy_train_module *m = &t->modules[i];
        if (want.len > 0 &&
            !nfy_str_eq(text_of(c, m->expr.first, m->expr.end), want))
            continue;
        if (d->nwraps == NFY_TRAIN_MAX)
            break;
        ddp_wrap *w = &d->wraps[d->nwraps];
        d->model_first = m->expr.first;
        d->model_end = m->expr.end;
        uint32_t use = m->use_stmt;
        bool block = use != NFY_NONE &&
                     (c->m->stmts[use].flags & NFY_STMTF_COMPOUND) &&
                     !(c->m->stmts[use].flags & NFY_STMTF_INLINE_BODY);
        if (use != NFY_NONE && !block && !nfy__mig_own_lines(c, use)) {
            report(c, d, use,
                   "the statement using the model shares its line: wrap "
                   "the model in DistributedDataParallel by hand");
            continue;
        }
        /* apex: amp.initialize (inserted right after the optimizer) comes
         * before the DDP wrap, as Ascend's ports do */
        bool after = d->after_opt && m->optim != NFY_NONE;
        w->stmt = after             ? use
                  : use == NFY_NONE ? wrap_after_setups(c, d)
                                    : wrap_point(c, d, use);
        if (w->stmt == NFY_NONE) {
            report(c, d, use,
                   "no statement to put the DDP wrap before (the model "
                   "is set up on the line that uses it): wrap it by hand");
            continue;
        }
        w->first = m->expr.first;
        w->end = m->expr.end;
        w->after = after;
        d->nwraps++;
    }
    if (want.len > 0 && d->nwraps > 0 && t->nmodules > 1)
        report(c, d, d->wraps[0].stmt,
               "other models are trained too: only --model is wrapped "
               "in DDP, the others train unsynchronised on each rank");
    if (d->nwraps == 0 && t->nmodules == 0)
        report(
            c, d, t->noptims > 0 ? t->optims[0].stmt : NFY_NONE,
            nfy_mig_fmt(c,
                        "%s: the model to wrap in DistributedDataParallel is "
                        "not clear; wrap it by hand or pass --model NAME",
                        t->why_modules));
    else if (d->nwraps == 0 && want.len > 0)
        report(c, d, NFY_NONE,
               "no trained model is the --model given: wrap it by hand");
    return d->nwraps > 0;
}

static void wrap_model(mig_ctx *c, const ddp_state *d, const ddp_wrap *w)
{
    nfy_str m = text_of(c, w->first, w->end);
    uint32_t nl = nfy__mig_next_sig(c, c->m->stmts[w->stmt].end - 1);
    nfy__mig_insert_line(
        c, d->r,
        w->after ? c->m->toks[nl].end : nfy__mig_line_start_of(c, w->stmt),
        w->stmt,
        nfy_mig_fmt(c, "%.*s = %.*s" DDP "(%.*s, " DDP_ARGS ")", NFY_STR_FMT(m),
                    NFY_STR_FMT(d->torch), NFY_STR_FMT(m)));
}

/* nn.Module's own methods and attributes, which DDP answers itself. */
static bool module_member(nfy_str a)
{
    static const char *const names[] = {"parameters",
                                        "named_parameters",
                                        "buffers",
                                        "named_buffers",
                                        "children",
                                        "named_children",
                                        "modules",
                                        "named_modules",
                                        "train",
                                        "eval",
                                        "to",
                                        "npu",
                                        "cuda",
                                        "cpu",
                                        "zero_grad",
                                        "apply",
                                        "requires_grad_",
                                        "register_forward_hook",
                                        "training",
                                        "forward",
                                        "module",
                                        "float",
                                        "half",
                                        "double",
                                        "type",
                                        NULL};
    for (const char *const *n = names; *n; n++)
        if (mig_str_is(a, *n))
            return true;
    return false;
}

/* The innermost statement holding token t (statements nest forward). */
static uint32_t stmt_of_tok(const mig_ctx *c, uint32_t from, uint32_t t)
{
    uint32_t st = NFY_NONE;
    for (uint32_t s = from; s < c->m->nstmts && c->m->stmts[s].first <= t; s++)
        if (t < c->m->stmts[s].end)
            st = s;
    return st;
}

/* `torch.save(MODEL, ...)`: the model token saved whole. */
static bool saved_whole(const mig_ctx *c, uint32_t t)
{
    return t >= 4 && nfy_mig_tok_op(c, t - 1, NFY_OP_LPAR) &&
           mig_tok_is(c, t - 2, "save") &&
           nfy_mig_tok_op(c, t - 3, NFY_OP_DOT) &&
           mig_tok_is(c, t - 4, "torch");
}

static bool bound_in(const mig_ctx *c, nfy_str name, uint32_t scope)
{
    for (uint32_t b = 0; b < c->m->nbindings; b++)
        if (c->m->bindings[b].scope == scope &&
            nfy_str_eq(mig_tok(c, c->m->bindings[b].tok), name))
            return true;
    return false;
}

/* The first statement after the wrap, in its scope, that rebinds the
 * model, or NFY_NONE. */
static uint32_t rebinding(const mig_ctx *c, const ddp_state *d)
{
    uint32_t n = d->model_end - d->model_first;
    uint32_t scope = c->m->stmts[d->wrap_stmt].scope;
    for (uint32_t s = d->wrap_stmt; s < c->m->nstmts; s++) {
        const nfy_stmt *st = &c->m->stmts[s];
        if (st->scope == scope && st->kind == NFY_STMT_ASSIGN &&
            model_at(c, d, st->first, st->end) &&
            st->first + n + 1 == st->value_first)
            return s;
    }
    return NFY_NONE;
}

/* Token t (the model's first) is used where it means the DDP model: in the
 * wrap's scope from the wrap to a rebinding; for a module-level name never
 * rebound, also in functions that do not bind it themselves. */
static bool means_ddp(const mig_ctx *c, const ddp_state *d, uint32_t st,
                      uint32_t stop, bool global)
{
    uint32_t scope = c->m->stmts[d->wrap_stmt].scope;
    uint32_t s_scope = c->m->stmts[st].scope;
    if (s_scope == scope)
        return st >= d->wrap_stmt && (stop == NFY_NONE || st < stop);
    return global && stop == NFY_NONE &&
           !bound_in(c, mig_tok(c, d->model_first), s_scope);
}

/* MODEL.x -> MODEL.module.x where the name means the DDP model, for what
 * DDP does not answer (state_dict, load_state_dict, own attributes), and
 * torch.save(MODEL) saves the module. */
static void through_module(mig_ctx *c, const ddp_state *d)
{
    uint32_t n = d->model_end - d->model_first;
    uint32_t stop = rebinding(c, d);
    bool global =
        n == 1 && c->m->stmts[d->wrap_stmt].parent == NFY_NONE &&
        c->m->scopes[c->m->stmts[d->wrap_stmt].scope].parent == NFY_NONE;
    if (stop != NFY_NONE && global)
        report(c, d, stop,
               "the model is bound again here, after the DDP wrap: "
               "model.module was added up to this line only, not in "
               "functions using the global model; check their attribute "
               "uses by hand");
    for (uint32_t t = 0; t + n + 1 < c->m->ntoks; t++) {
        if (!model_at(c, d, t, c->m->ntoks) ||
            (t > 0 && nfy_mig_tok_op(c, t - 1, NFY_OP_DOT)))
            continue;
        uint32_t st = stmt_of_tok(c, 0, t);
        if (st == NFY_NONE || !means_ddp(c, d, st, stop, global))
            continue;
        const nfy_stmt *sp = &c->m->stmts[st];
        bool whole =
            saved_whole(c, t) && (nfy_mig_tok_op(c, t + n, NFY_OP_COMMA) ||
                                  nfy_mig_tok_op(c, t + n, NFY_OP_RPAR));
        bool attr = nfy_mig_tok_op(c, t + n, NFY_OP_DOT) &&
                    !module_member(mig_tok(c, t + n + 1)) &&
                    !(sp->kind == NFY_STMT_ASSIGN && t < sp->value_first);
        if (!whole && !attr)
            continue;
        uint32_t at = c->m->toks[t + n - 1].end;
        nfy__mig_edit(c, d->r, t + n, t + n + 1, at, at, ".module",
                      "DDP: the unwrapped model is model.module");
    }
}

/* ---- the loader ---------------------------------------------------------- */

static bool kw_true(const mig_ctx *c, uint32_t k, const char *kw)
{
    const nfy_arg *a = arg_of(c, k, kw, NFY_NONE);
    return a != NULL && a->value_end == a->value_first + 1 &&
           mig_tok_is(c, a->value_first, "True");
}

#define HOISTED "npu_train_set"

/* The loader's statement takes a line inserted before it: a statement
 * of its own lines, or the header of the for loop iterating it. */
static bool insertable_before(const mig_ctx *c, uint32_t s)
{
    const nfy_stmt *st = &c->m->stmts[s];
    if (st->kind == NFY_STMT_FOR)
        return !(st->flags & NFY_STMTF_INLINE_BODY) &&
               nfy__mig_is_indent(nfy__mig_stmt_indent(c, s));
    return nfy__mig_own_lines(c, s);
}

/* The dataset of loader call k as one name: as it is, or a dataset built
 * inline hoisted into a variable before the loader's statement. */
static bool dataset_name(mig_ctx *c, const ddp_state *d, uint32_t k,
                         nfy_str *out)
{
    const nfy_arg *ds = arg_of(c, k, "dataset", 0);
    uint32_t s = c->m->calls[k].stmt;
    if (ds == NULL)
        return false;
    if (ds->value_end == ds->value_first + 1 &&
        c->m->toks[ds->value_first].kind == NFY_TOK_NAME) {
        *out = mig_tok(c, ds->value_first);
        return true;
    }
    if (!insertable_before(c, s) || binds(c, HOISTED) ||
        nfy__mig_claimed(c, ds->value_first, ds->value_end))
        return false;
    nfy__mig_insert_line(
        c, d->r, nfy__mig_line_start_of(c, s), s,
        nfy_mig_fmt(c, HOISTED " = %.*s",
                    NFY_STR_FMT(text_of(c, ds->value_first, ds->value_end))));
    nfy__mig_edit(
        c, d->r, ds->value_first, ds->value_end,
        c->m->toks[ds->value_first].start, c->m->toks[ds->value_end - 1].end,
        HOISTED,
        "DDP: the dataset built inline is hoisted into a variable for "
        "its DistributedSampler");
    *out = NFY_STR_LIT(HOISTED);
    return true;
}

/* The `**NAME` options dict of call k, or NULL. */
static const nfy_arg *options_dict(const mig_ctx *c, uint32_t k)
{
    const nfy_call *call = &c->m->calls[k];
    for (uint32_t i = 0; i < call->nargs; i++) {
        const nfy_arg *a = &c->m->args[call->args_first + i];
        if (a->kind == NFY_ARG_DSTAR)
            return a;
    }
    return NULL;
}

/* Whether dict name `**D` is unpacked by another call too (shared
 * options: giving it the sampler would shard that loader as well). */
static bool dict_shared(const mig_ctx *c, uint32_t k, nfy_str name)
{
    for (uint32_t j = 0; j < c->m->ncalls; j++) {
        const nfy_arg *a = j == k ? NULL : options_dict(c, j);
        if (a != NULL && a->value_end == a->value_first + 1 &&
            nfy_str_eq(mig_tok(c, a->value_first), name))
            return true;
    }
    return false;
}

/* `D["sampler"] = DistributedSampler(ds, shuffle=D.pop("shuffle", False))`
 * before the loader: the options dict, whatever update() put in it. */
static bool sampler_in_dict(mig_ctx *c, const ddp_state *d, uint32_t k,
                            const nfy_arg *dict, nfy_str dsn)
{
    uint32_t s = c->m->calls[k].stmt;
    nfy_str dn = mig_tok(c, dict->value_first);
    if (dict->value_end != dict->value_first + 1 ||
        c->m->toks[dict->value_first].kind != NFY_TOK_NAME)
        return false;
    if (dict_shared(c, k, dn)) {
        report(c, d, s,
               nfy_mig_fmt(c,
                           "the loader options **%.*s are shared with another "
                           "loader: give the training loader a "
                           "DistributedSampler by hand",
                           NFY_STR_FMT(dn)));
        return false;
    }
    uint32_t at = nfy__mig_line_start_of(c, s);
    nfy__mig_insert_line(
        c, d->r, at, s,
        nfy_mig_fmt(c,
                    "%.*s[\"sampler\"] = %.*s" SAMPLER
                    "(%.*s, shuffle=%.*s.pop(\"shuffle\", False))",
                    NFY_STR_FMT(dn), NFY_STR_FMT(d->torch), NFY_STR_FMT(dsn),
                    NFY_STR_FMT(dn)));
    if (arg_of(c, k, "drop_last", NFY_NONE) == NULL)
        nfy__mig_insert_line(c, d->r, at, s,
                             nfy_mig_fmt(c,
                                         "%.*s.setdefault(\"drop_last\", True)",
                                         NFY_STR_FMT(dn)));
    return true;
}

static bool add_sampler(mig_ctx *c, const ddp_state *d, uint32_t k)
{
    const nfy_call *call = &c->m->calls[k];
    const nfy_arg *sh = arg_of(c, k, "shuffle", 2);
    const nfy_arg *dict = options_dict(c, k);
    nfy_str dsn;
    if (arg_of(c, k, "sampler", NFY_NONE) != NULL ||
        arg_of(c, k, "batch_sampler", NFY_NONE) != NULL ||
        call->rpar == NFY_NONE || (sh != NULL && sh->kind != NFY_ARG_KEYWORD)) {
        report(c, d, call->stmt,
               "the training DataLoader has its own sampler or a positional "
               "shuffle: give it a DistributedSampler by hand");
        return false;
    }
    if (!dataset_name(c, d, k, &dsn)) {
        report(c, d, call->stmt,
               "the training DataLoader's dataset cannot be named here (no "
               "dataset argument, or an inline dataset on a shared line): "
               "give it a DistributedSampler by hand");
        return false;
    }
    /* after the last argument, before a trailing comma */
    uint32_t end = c->m->args[call->args_first + call->nargs - 1].span.end;
    if (sh != NULL) {
        nfy_str v = text_of(c, sh->value_first, sh->value_end);
        bool on = kw_true(c, k, "shuffle");
        nfy__mig_edit(
            c, d->r, sh->first, sh->end, sh->span.start, sh->span.end,
            nfy_mig_fmt(c, "sampler=%.*s" SAMPLER "(%.*s%s%.*s)",
                        NFY_STR_FMT(d->torch), NFY_STR_FMT(dsn),
                        on ? "" : ", shuffle=", on ? 0 : (int)v.len, v.ptr),
            on ? "DDP: DistributedSampler (it shuffles)"
               : "DDP: DistributedSampler (the loader's shuffle moves "
                 "into it)");
    } else if (dict != NULL) {
        if (!sampler_in_dict(c, d, k, dict, dsn))
            return false;
    } else
        nfy__mig_edit(
            c, d->r, 0, 0, end, end,
            nfy_mig_fmt(c, ", sampler=%.*s" SAMPLER "(%.*s, shuffle=False)",
                        NFY_STR_FMT(d->torch), NFY_STR_FMT(dsn)),
            "DDP: DistributedSampler");
    if (arg_of(c, k, "drop_last", NFY_NONE) == NULL && dict == NULL)
        nfy__mig_edit(c, d->r, 0, 0, end, end, ", drop_last=True",
                      "DDP: drop_last=True (static batch shapes on NPU; every "
                      "rank runs the same number of steps)");
    return true;
}

/* The loader as the epoch loop's scope names it: a name, self.X or
 * NAME[KEY] (a dict or list of loaders) the loader travelled through,
 * bound before the epoch loop. */
static bool loader_in_scope(const mig_ctx *c, const nfy_train *t,
                            uint32_t epoch, nfy_str *out)
{
    uint32_t scope = c->m->stmts[epoch].scope;
    for (uint32_t pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < t->loader.nhops; i++) {
            const nfy_train_hop *h = &t->loader.hops[i];
            uint32_t n = h->expr.end - h->expr.first;
            bool named = ((n == 1 || n == 4) &&
                          c->m->toks[h->expr.first].kind == NFY_TOK_NAME &&
                          (n == 1 || nfy_mig_tok_op(c, h->expr.first + 1,
                                                    NFY_OP_LSQB))) ||
                         (n == 3 && mig_tok_is(c, h->expr.first, "self"));
            uint32_t b = named
                             ? nfy_resolve_lookup(c->r, h->scope, h->expr.first,
                                                  mig_tok(c, h->expr.first))
                             : NFY_NONE;
            bool global =
                b != NFY_NONE && n == 1 &&
                c->m->scopes[c->m->bindings[b].scope].parent == NFY_NONE &&
                (c->m->scopes[scope].parent == NFY_NONE ||
                 !bound_in(c, mig_tok(c, h->expr.first), scope));
            bool in = pass == 0 ? h->scope == scope : global;
            if (!named || !in)
                continue;
            /* the name must be bound before the epoch loop, not in it */
            uint32_t bs = b == NFY_NONE ? NFY_NONE : c->m->bindings[b].stmt;
            if (bs != NFY_NONE && bs > epoch &&
                bs < c->m->stmts[epoch].body_end)
                return false;
            *out = text_of(c, h->expr.first, h->expr.end);
            return true;
        }
    return false;
}

/* set_epoch first thing in the epoch loop, so the sampler reshuffles. */
static void set_epoch(mig_ctx *c, const ddp_state *d)
{
    const nfy_train *t = &d->t;
    uint32_t e = t->epoch_loop, s = c->m->calls[t->loader.call].stmt;
    nfy_str ld;
    if (e == NFY_NONE) {
        report(c, d, s,
               "no epoch loop around the training loop: call "
               "LOADER.sampler.set_epoch(epoch) each epoch by hand");
        return;
    }
    const nfy_stmt *st = &c->m->stmts[e];
    if (st->kind != NFY_STMT_FOR ||
        c->m->toks[st->first + 1].kind != NFY_TOK_NAME ||
        !mig_tok_is(c, st->first + 2, "in") ||
        (st->flags & NFY_STMTF_INLINE_BODY) || e + 1 >= st->body_end ||
        !loader_in_scope(c, t, e, &ld)) {
        report(c, d, e,
               "the epoch loop has no plain loop variable, or the training "
               "loader is not a name bound before it: call "
               "LOADER.sampler.set_epoch(epoch) at its top by hand");
        return;
    }
    nfy__mig_insert_line(c, d->r, nfy__mig_line_start_of(c, e + 1), e + 1,
                         nfy_mig_fmt(c, "%.*s.sampler.set_epoch(%.*s)",
                                     NFY_STR_FMT(ld),
                                     NFY_STR_FMT(mig_tok(c, st->first + 1))));
}

static void shard_loader(mig_ctx *c, const ddp_state *d)
{
    const nfy_train *t = &d->t;
    if (t->loader.call == NFY_NONE) {
        report(
            c, d, t->loader.loop,
            nfy_mig_fmt(c,
                        "no training DataLoader found (%s): every rank trains "
                        "on all of the data; shard it by rank by hand",
                        t->loader.why));
        return;
    }
    if (add_sampler(c, d, t->loader.call))
        set_epoch(c, d);
}

/* ---- rank 0 -------------------------------------------------------------- */

/* Statement of call k is a whole `print(...)`, `torch.save(...)` or an
 * info-level log call (`logging.info`, `logger.warning`; errors are left
 * to every rank, so one rank's failure still shows). */
static bool log_or_save(const mig_ctx *c, uint32_t k)
{
    const nfy_call *call = &c->m->calls[k];
    const nfy_stmt *st = &c->m->stmts[call->stmt];
    bool print = mig_str_is(call->dotted, "print") &&
                 (mig_callee_qual(c, k).len == 0 || qual_is(c, k, "print") ||
                  qual_is(c, k, "builtins.print"));
    print = print || nfy_train_log_kind(c, k) == NFY_TRAIN_LOG_INFO;
    return (print || qual_is(c, k, "torch.save")) &&
           st->kind == NFY_STMT_EXPR && st->first == call->callee_first &&
           call->rpar + 1 == st->end && nfy__mig_own_lines(c, call->stmt);
}

/* Runs of print/torch.save statements after the inserted definitions go
 * under one `if npu_is_rank0:` each. */
static void rank0_only(mig_ctx *c, const ddp_state *d, uint32_t after)
{
    bool *mark = nfy_arena_alloc(c->arena, c->m->nstmts + 1);
    memset(mark, 0, c->m->nstmts + 1);
    for (uint32_t k = 0; k < c->m->ncalls; k++)
        if (c->m->calls[k].stmt > after && log_or_save(c, k))
            mark[c->m->calls[k].stmt] = true;
    for (uint32_t s = 0; s < c->m->nstmts; s++) {
        if (!mark[s])
            continue;
        uint32_t last = s;
        while (last + 1 < c->m->nstmts && mark[last + 1] &&
               c->m->stmts[last + 1].parent == c->m->stmts[s].parent)
            last++;
        nfy__mig_wrap_lines(c, d->r, s, last, "if npu_is_rank0:",
                            "DDP: log and save on rank 0 only");
        s = last;
    }
}

/* "cuda:0" / "npu:0" in a multi-card script puts every rank on NPU 0. */
static void fixed_devices(mig_ctx *c, const ddp_state *d)
{
    for (uint32_t t = 0; t < c->m->ntoks; t++) {
        uint32_t off;
        if (c->m->toks[t].kind != NFY_TOK_STRING)
            continue;
        nfy_str b = nfy_mig_string_body(c, t, &off);
        if (!mig_str_is(b, "cuda:0") && !mig_str_is(b, "npu:0"))
            continue;
        uint32_t s = stmt_of_tok(c, 0, t);
        report(c, d, s,
               "a fixed device \"npu:0\" in the multi-card script puts every "
               "rank on NPU 0: use \"npu\" (the device set_device chose) or "
               "torch.device(\"npu\", npu_local_rank)");
    }
}

/* ---- the pass ------------------------------------------------------------ */

/* Statement s runs at module level outside the __main__ guard. */
static bool module_level(const mig_ctx *c, uint32_t s)
{
    if (s == NFY_NONE || c->m->scopes[c->m->stmts[s].scope].parent != NFY_NONE)
        return false;
    uint32_t top = s;
    while (c->m->stmts[top].parent != NFY_NONE)
        top = c->m->stmts[top].parent;
    return top != c->m->main_guard;
}

/* Something that needs the process group (a DDP wrap, the sampler) runs
 * at module level: the group starts right after the imports. */
static bool needs_early_init(const mig_ctx *c, const ddp_state *d)
{
    for (uint32_t i = 0; i < d->nwraps; i++)
        if (module_level(c, d->wraps[i].stmt))
            return true;
    return d->t.loader.call != NFY_NONE &&
           module_level(c, c->m->calls[d->t.loader.call].stmt);
}

/* tqdm(...) shows its bar on rank 0 only. */
static void rank0_bars(mig_ctx *c, const ddp_state *d)
{
    for (uint32_t i = 0; i < d->t.nbars && i < NFY_TRAIN_MAX; i++) {
        uint32_t k = d->t.bars[i].call;
        const nfy_call *call = &c->m->calls[k];
        if (call->rpar == NFY_NONE || call->nargs == 0 ||
            arg_of(c, k, "disable", NFY_NONE) != NULL)
            continue;
        uint32_t at = c->m->args[call->args_first + call->nargs - 1].span.end;
        nfy__mig_edit(c, d->r, 0, 0, at, at, ", disable=not npu_is_rank0",
                      "DDP: the progress bar on rank 0 only");
    }
}

/* The named entry, else a file with a __main__ guard, else a script
 * that trains at module level: a step, its epoch loop or an optimizer
 * there. */
static bool is_main_script(const mig_ctx *c, const nfy_train *t)
{
    if (c->p->entries_named)
        return c->p->listed_entry;
    if (c->m->main_guard != NFY_NONE)
        return true;
    if (t->nsteps == 0)
        return false;
    bool top = module_level(c, t->epoch_loop);
    for (uint32_t i = 0; i < t->nsteps && i < NFY_TRAIN_MAX; i++)
        top = top || module_level(c, t->steps[i].stmt);
    for (uint32_t i = 0; i < t->noptims && i < NFY_TRAIN_MAX; i++)
        top = top || module_level(c, t->optims[i].stmt);
    return top;
}

/* The first call of a torch.optim constructor, or NFY_NONE. */
static uint32_t first_optim_call(const mig_ctx *c)
{
    for (uint32_t k = 0; k < c->m->ncalls; k++)
        if (nfy_str_starts_with(mig_callee_qual(c, k),
                                NFY_STR_LIT("torch.optim.")))
            return k;
    return NFY_NONE;
}

/* Already multi-process: a torch.distributed call, DDP, mp.spawn, or a
 * helper named like a distributed setup (timm's init_distributed_device):
 * the statement, or NFY_NONE. */
static uint32_t distributed_already(const mig_ctx *c)
{
    for (uint32_t k = 0; k < c->m->ncalls; k++) {
        nfy_str q = mig_callee_qual(c, k);
        nfy_str callee = c->m->calls[k].dotted;
        if (nfy_str_starts_with(q, NFY_STR_LIT("torch.distributed.")) ||
            mig_str_is(q, "torch.nn.parallel.DistributedDataParallel") ||
            mig_str_is(q, "torch.multiprocessing.spawn") ||
            nfy_str_contains_ci(callee, "init_distributed") ||
            nfy_str_contains_ci(callee, "init_process_group"))
            return c->m->calls[k].stmt;
    }
    return NFY_NONE;
}

void nfy__mig_pass_ddp(mig_ctx *c)
{
    ddp_state d;
    memset(&d, 0, sizeof d);
    d.r = nfy__mig_pass_rule_of(c, NFY_PASS_DDP_REWRITE);
    uint32_t torch_stmt = NFY_NONE, at;
    if (d.r == NULL || c->withhold)
        return;
    d.torch = nfy__mig_torch_name(c, &torch_stmt);
    if (d.torch.len == 0) {
        for (uint32_t k = 0; k < c->m->ncalls; k++)
            if (qual_is(c, k, "torch.nn.DataParallel") ||
                qual_is(c, k, "torch.nn.parallel.DataParallel"))
                report(c, &d, c->m->calls[k].stmt,
                       "DataParallel in a file without a top-level `import "
                       "torch`: replace it with DistributedDataParallel by "
                       "hand");
        nfy_train_build(c, &d.t);
        if (d.t.nsteps > 0 && is_main_script(c, &d.t))
            report(c, &d, d.t.steps[0].stmt,
                   "the training script has no top-level `import torch` (it "
                   "is inside a try or a function): make it multi-card by "
                   "hand");
        return;
    }
    rewrite_data_parallel(c, &d);
    nfy_train_build(c, &d.t);
    if (!is_main_script(c, &d.t)) {
        uint32_t k = first_optim_call(c);
        if (k != NFY_NONE && !c->p->entries_named)
            report(c, &d, c->m->calls[k].stmt,
                   "builds an optimizer but has no __main__ guard, so it is "
                   "not taken as the main script: name it with --main FILE "
                   "to make it multi-card");
        return;
    }
    if ((at = distributed_already(c)) != NFY_NONE) {
        report(c, &d, at,
               "the script already starts its own processes or process "
               "group: only DataParallel and the backend are rewritten; run "
               "it with one process per NPU as it expects");
        return;
    }
    if (binds(c, "npu_local_rank"))
        return; /* converted before */
    if (!d.wrapped && d.t.nsteps == 0 && d.t.noptims == 0)
        return; /* no training here (a model file's self-test) */
    /* Nothing is inserted unless the model is found: a process group
     * without the DDP wrap would train each rank on its own. */
    if (!d.wrapped && !find_models(c, &d))
        return;
    if (!insert_init(c, &d, torch_stmt, needs_early_init(c, &d)))
        return;
    for (uint32_t i = 0; !d.wrapped && i < d.nwraps; i++) {
        const ddp_wrap *w = &d.wraps[i];
        d.model_first = w->first;
        d.model_end = w->end;
        d.wrap_stmt = w->stmt;
        wrap_model(c, &d, w);
        through_module(c, &d);
    }
    shard_loader(c, &d);
    rank0_only(c, &d, nfy__mig_import_block_end(c, torch_stmt));
    rank0_bars(c, &d);
    fixed_devices(c, &d);
}
