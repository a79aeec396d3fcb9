/* Internal to src/resolve: the binding tables and the passes of
 * nfy_resolve_resolve beyond the scope walk. */
#ifndef NPUIFY_RESOLVE_INTERNAL_H
#define NPUIFY_RESOLVE_INTERNAL_H

#include "resolve/resolve.h"

/* The bindings of one name in one scope: order[lo, hi) in token order. */
typedef struct {
    uint32_t lo, hi;
    uint32_t scope;
    uint32_t hash; /* nfy__resolve_name_hash of the name */
    nfy_str name;
    bool global, nonlocal, any_import;
} nfy__res_group;

typedef struct {
    uint32_t *order;        /* binding indices, grouped by (scope, name) */
    nfy__res_group *groups; /* the runs of order[] */
    uint32_t ngroups;
    uint32_t *group_of; /* per binding: its group */
    uint32_t *slots;    /* open addressing: group index + 1, 0 when empty */
    uint32_t mask;      /* slots has mask + 1 entries (a power of two) */
    uint8_t *state;     /* per binding: enum bind_state (resolve.c) */
    uint32_t *tok_attr; /* per token: attr index whose name it is, or NONE;
                           NULL when attrs are in name_tok order (then a
                           binary search finds them) */
    uint32_t *globals;  /* value bindings made under a `global` declaration */
    uint32_t nglobals;
    uint32_t *use_binding; /* per use: nfy__resolve_bind_uses's answer */
    nfy_arena *arena;
} nfy__res_index;

/** Hash of a name (equal names hash equal; collisions cost a compare). */
uint32_t nfy__resolve_name_hash(nfy_str s);

/** Build ix (in arena) for the bindings of m. */
void nfy__resolve_index_build(const nfy_pysyn *m, nfy__res_index *ix);

/**
 * The binding name (hash: nfy__resolve_name_hash(name)) refers to from
 * scope at token tok (resolve.h's rules), or NFY_NONE.
 */
uint32_t nfy__resolve_lookup(const nfy_pysyn *m, const nfy__res_index *ix,
                             uint32_t scope, uint32_t tok, nfy_str name,
                             uint32_t hash);

/** For every use of m, the binding it refers to (a store's: its own), or
 * NFY_NONE, into out (m->nuses entries). */
void nfy__resolve_bind_uses(const nfy_pysyn *m, const nfy__res_index *ix,
                            uint32_t *out);

/** The attr whose name token is t, or NFY_NONE. */
uint32_t nfy__resolve_attr_at(const nfy_pysyn *m, const nfy__res_index *ix,
                              uint32_t t);

/*
 * Instance attributes that hold a module: after `self.torch = torch` in a
 * method, `self.torch.cuda.X` anywhere in the class's methods resolves to
 * torch.cuda.X (kind ALIAS, binding the `self` parameter, head_parts the
 * qualified name's component count minus one, so that component
 * head_parts + i is still the (i + 1)-th name of the chain). Only
 * attributes that every assignment in the class sets to the same resolved
 * name (or None) count. Runs after every use has been resolved.
 */
void nfy__resolve_self_attrs(nfy_resolution *r, nfy_arena *arena);

#endif
