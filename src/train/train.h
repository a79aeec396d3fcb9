/*
 * train: the training program of one script, as one model that
 * `--distributed`, `--amp` and the report read (DESIGN.md section 3.9).
 *
 * Built from the resolver's data flow over the file: which modules are
 * trained (their parameters() reach an optimizer, directly, in param
 * groups, through filter(...) or a variable, or through a helper's
 * parameter; else, with no optimizer at all, the modules called in a
 * step's loop), the optimizers and schedulers, the training steps
 * (backward statements and the loop holding each), the training loader
 * (the iterable of a step's loop, followed through wrappers such as
 * enumerate/tqdm, assignments, function parameters to their call sites and
 * self attributes to a DataLoader call), the other loaders (evaluation),
 * the epoch loop (the loop around the step loop, or around the call of the
 * function holding it) and the logging, checkpoint, progress-bar and
 * seeding sites. Token and statement indices of the file's pysyn; nothing
 * is edited here.
 */
#ifndef NPUIFY_TRAIN_H
#define NPUIFY_TRAIN_H

#include "migrate/pass.h"
#include "report/report.h"

#define NFY_TRAIN_MAX  16 /* of each kind; more are counted, not kept */
#define NFY_TRAIN_HOPS 8  /* loader expressions followed */

typedef struct {
    uint32_t first, end; /* tokens */
} nfy_train_toks;

typedef enum {
    NFY_TRAIN_BY_OPTIMIZER, /* its parameters() reach an optimizer */
    NFY_TRAIN_BY_FORWARD    /* called in a step's loop (no optimizer) */
} nfy_train_how;

typedef struct {
    nfy_train_toks expr; /* the module in the scope where it is wrapped */
    uint32_t use_stmt;   /* the statement the wrap must precede */
    uint32_t optim;      /* index into optims, or NFY_NONE */
    uint16_t how;        /* nfy_train_how */
} nfy_train_module;

typedef struct {
    uint32_t call, stmt;
} nfy_train_site;

typedef struct {
    uint32_t stmt; /* LOSS.backward(...) */
    uint32_t loop; /* the innermost loop around it in its function, or NONE */
} nfy_train_step;

/* One expression the training loader travels through: the loop's
 * iterable first, the DataLoader's own statement last. */
typedef struct {
    nfy_train_toks expr;
    uint32_t stmt, scope;
} nfy_train_hop;

typedef struct {
    uint32_t call; /* the DataLoader call, or NFY_NONE */
    uint32_t loop; /* the for loop iterating it */
    nfy_train_hop hops[NFY_TRAIN_HOPS];
    uint32_t nhops;
    const char *why; /* call NONE: why it was not found */
} nfy_train_loader;

typedef struct {
    nfy_train_module modules[NFY_TRAIN_MAX];
    uint32_t nmodules;
    nfy_train_site optims[NFY_TRAIN_MAX], scheds[NFY_TRAIN_MAX];
    uint32_t noptims, nscheds;
    nfy_train_step steps[NFY_TRAIN_MAX];
    uint32_t nsteps;
    nfy_train_loader loader;             /* of the first step with a loop */
    nfy_train_site evals[NFY_TRAIN_MAX]; /* other DataLoader calls */
    uint32_t nevals;
    uint32_t epoch_loop; /* statement, or NFY_NONE */
    nfy_train_site clips[NFY_TRAIN_MAX], logs[NFY_TRAIN_MAX],
        saves[NFY_TRAIN_MAX], bars[NFY_TRAIN_MAX], seeds[NFY_TRAIN_MAX];
    uint32_t nclips, nlogs, nsaves, nbars, nseeds;
    const char *why_modules; /* nmodules == 0: why */
} nfy_train;

typedef enum {
    NFY_TRAIN_LOG_NONE,
    NFY_TRAIN_LOG_INFO, /* print, logging/logger debug..warning: rank 0 */
    NFY_TRAIN_LOG_ERROR /* error, exception, critical: every rank */
} nfy_train_log;

/** What call k logs: print, `logging.X(...)`, or `L.X(...)` with L bound
 *  to `logging.getLogger(...)` in the file. */
nfy_train_log nfy_train_log_kind(const mig_ctx *c, uint32_t k);

/** Build the model of the file in c (arena-free: t is filled in place). */
void nfy_train_build(const mig_ctx *c, nfy_train *t);

/** Whether call k is a torch DataLoader. */
bool nfy_train_is_loader(const mig_ctx *c, uint32_t k);

/** The innermost statement holding token t. */
uint32_t nfy_train_stmt_of(const mig_ctx *c, uint32_t t);

/** The loader expression of t->loader in scope, or NULL. */
const nfy_train_hop *nfy_train_hop_in(const nfy_train *t, uint32_t scope);

/** Build the model of the file and add its elements to rep's "training"
 *  (nothing for a file with no optimizer and no step). */
void nfy_train_report(mig_ctx *c, nfy_report *rep);

#endif
