/*
 * Internal to src/migrate: does a call, an argument or an expression stand
 * in one of a rule's contexts (`arg:CALLEE@POS=KW`, `kw:NAME`, `compare`,
 * `argparse`, `assign:GLOB`, `subscript:NAME`, `any`)?
 */
#ifndef NPUIFY_MIGRATE_CTXMATCH_H
#define NPUIFY_MIGRATE_CTXMATCH_H

#include "migrate/pass.h"

/**
 * Whether call k's callee is callee: a qualified name (also when already
 * renamed to torch.npu / torch_npu), or ".name" for a method on a receiver
 * that is not a torch module. NULL or "" fits every call.
 */
bool nfy__mig_call_fits(const mig_ctx *c, uint32_t k, const char *callee);
/** Whether argument a is the one context x (kind ARG) names. */
bool nfy__mig_arg_fits(const mig_ctx *c, uint32_t a, const nfy_rule_ctx *x);
/** Whether argument a stands at the position or keyword x names (its
 * callee aside): the cheap half of nfy__mig_arg_fits. */
bool nfy__mig_arg_slot_fits(const mig_ctx *c, uint32_t a,
                            const nfy_rule_ctx *x);
/** Case-insensitive POSIX ERE match of a "|"-joined skip list. */
bool nfy__mig_skip_match(const char *skip, nfy_str text);

/**
 * Whether the expression starting at token head (a string literal group
 * [head, end) or a single name) stands in context x. lit is the string
 * group index for literals, NFY_NONE for names.
 */
bool nfy__mig_expr_in_ctx(const mig_ctx *c, uint32_t head, uint32_t end,
                          uint32_t lit, const nfy_rule_ctx *x);
/** ... in any of r's contexts (true when r has none). */
bool nfy__mig_expr_in_rule(const mig_ctx *c, uint32_t head, uint32_t end,
                           uint32_t lit, const nfy_rule *r);
/**
 * How specifically one of r's contexts holds the expression: 3 a named
 * callee's argument, 2 argparse, 1 keyword/compare/assign/subscript, 0 any
 * (or no contexts); -1 when none holds.
 */
int nfy__mig_expr_rule_spec(const mig_ctx *c, uint32_t head, uint32_t end,
                            uint32_t lit, const nfy_rule *r);
/**
 * Whether [head, end) is the whole of [vfirst, vend), up to a trailing
 * % x, .format(...), + x, or as one branch of a conditional expression.
 */
bool nfy__mig_expr_whole(const mig_ctx *c, uint32_t head, uint32_t end,
                         uint32_t vfirst, uint32_t vend);
/**
 * The last target token of the assignment statement whose whole value is
 * [head, end) (the name of `x: T = v`), or NFY_NONE.
 */
uint32_t nfy__mig_assign_target(const mig_ctx *c, uint32_t head, uint32_t end);
/** The opening bracket of the compared display (`x in ["a", "b"]`) that
 * [head, end) is an element of, or NFY_NONE. */
uint32_t nfy__mig_compared_display(const mig_ctx *c, uint32_t head,
                                   uint32_t end);
/** Whether token t is ==, != or in. */
bool nfy__mig_tok_is_cmp(const mig_ctx *c, uint32_t t);
/** Qualified name of the dotted chain that ends at token t, or "". */
nfy_str nfy__mig_chain_qual_ending(const mig_ctx *c, uint32_t t);

#endif
