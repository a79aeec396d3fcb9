/*
 * Internal to src/migrate: value sets of string literals and the device
 * tests that guard CUDA-only code.
 *
 * A value set is every string literal of a file that meets one name: a
 * parameter and its default, keyword arguments of that name, comparisons
 * and `in` displays against it, argparse choices=/default= of that dest,
 * assignments to it, dictionary values under that key. The string pass
 * rewrites a set as a whole or not at all (ctxvalset.c keys the literals,
 * passes/strings.c decides per set).
 */
#ifndef NPUIFY_MIGRATE_VALSET_H
#define NPUIFY_MIGRATE_VALSET_H

#include "migrate/pass.h"

/* Where a literal's name lives: a plain variable of one scope (a
 * parameter, a local), or file-wide (attributes, keywords, dict keys,
 * argparse dests), and the token that names it there. */
typedef struct {
    uint32_t name_tok;
    uint32_t scope; /* NFY_NONE: file-wide */
    bool param;     /* a parameter of scope: keywords of its name join it */
} mig_lit_key;

/**
 * The name literal lit meets (empty when none): `def f(impl="cuda")` and
 * `f(impl="cuda")` meet `impl`, `x.device.type == "cuda"` meets
 * `device.type`, `add_argument("--dist-backend", default="nccl")` meets
 * `dist_backend`.
 */
nfy_str nfy__mig_lit_name(mig_ctx *c, uint32_t lit, mig_lit_key *key);

/** A named literal's key; name empty: in no set. */
typedef struct {
    nfy_str name;
    mig_lit_key key;
} mig_set_key;

/**
 * Group n literals into value sets: the same name in the same scope, and a
 * file-wide name with every parameter of that name. set[i] is the first
 * member (smallest index) of i's set, NFY_NONE for unnamed literals;
 * next[i] chains the members in source order.
 */
void nfy__mig_group_sets(mig_ctx *c, const mig_set_key *lits, uint32_t n,
                         uint32_t *set, uint32_t *next);

/** Whether a value-set name names a device or a backend (device,
 * map_location, dist_backend, device.type) rather than, e.g., a kernel
 * implementation selector (impl, backend_impl) or a label. */
bool nfy__mig_name_is_device(nfy_str name);

/** Whether literal lit is compared (==, !=, in, a compared display). */
bool nfy__mig_lit_compared(const mig_ctx *c, uint32_t lit);

/* ---- guards of CUDA-only code (ctxguard.c) ---- */

/** Lazily built per file: which defs reach CUDA-only code. */
typedef struct {
    uint8_t *def_state;   /* per statement: 0 unknown, 1 busy, 2 yes, 3 no */
    const char **def_why; /* per statement (yes): what it reaches */
    uint8_t *loader_at;   /* per token: a JIT CUDA loader call starts here */
    uint32_t *defs;       /* open-addressing table of def/class stmts */
    uint32_t ndefs;       /* its size, a power of two */
    NFY_VEC(nfy_str) plugins; /* names bound to a CUDA extension */
    bool built;
} mig_guard;

/**
 * Whether the device test around tokens [head, end) (a compared literal,
 * or an `is_cuda` attribute) guards code that reaches CUDA-only code: the
 * rest of its condition and the body of its if/while (for a negated test,
 * what follows the if), or the rest of the statement. *why says what was
 * reached ("custom CUDA extension call _plugin.scale(...)").
 */
bool nfy__mig_guards_cuda_only(mig_ctx *c, mig_guard *g, uint32_t head,
                               uint32_t end, const char **why);
/** The same for the branch the test does not guard: `if x.device.type ==
 * "cpu": portable(x) else: plugin(x)` sends NPU tensors to the plugin. */
bool nfy__mig_other_branch_cuda_only(mig_ctx *c, mig_guard *g, uint32_t head,
                                     uint32_t end, const char **why);
void nfy__mig_guard_free(mig_guard *g);
/** Tokens [*a, *b) a test at [head, end) guards (see above). */
bool nfy__mig_guarded_tokens(const mig_ctx *c, uint32_t head, uint32_t end,
                             uint32_t *a, uint32_t *b);
/** The receiver of attribute token name_tok (`self.x` of `self.x.is_cuda`),
 * "" when it is not a dotted name. */
nfy_str nfy__mig_receiver_text(const mig_ctx *c, uint32_t name_tok);
/** The def statement token tok runs in, or NFY_NONE. */
uint32_t nfy__mig_def_of(const mig_ctx *c, uint32_t tok);
/** Report the kept test at span (NPU113) with why; false without the rule. */
bool nfy__mig_note_guard(mig_ctx *c, nfy_span span, const char *api,
                         const char *why);

#endif
