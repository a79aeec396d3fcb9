/*
 * Internal to src/migrate: matching rules against qualified names and the
 * component plan of a rename (see name_match.c).
 */
#ifndef NPUIFY_MIGRATE_NAME_MATCH_H
#define NPUIFY_MIGRATE_NAME_MATCH_H

#include "migrate/pass.h"

typedef struct {
    const nfy_rule *rule;
    const nfy_rule_pair *pair; /* the map row, or NULL */
    nfy_str from;              /* the matched pattern or row */
    const char *to;            /* replacement; NULL or "" when none */
    int score;                 /* higher is more specific */
} mig_qmatch;

/**
 * Whether rule r (match NAME, MODULE or CALL; CALL only when is_call) fits
 * qualified name q, directly or through its map (longest row wins).
 */
bool nfy__mig_qmatch_rule(const nfy_rule *r, nfy_str q, bool is_call,
                          mig_qmatch *out);
/** q equals f or lies below it. */
bool nfy__mig_q_under(nfy_str q, nfy_str f);
/** nfy__mig_q_under with f a C string (NULL: ""), without its strlen. */
bool nfy__mig_q_under_cstr(nfy_str q, const char *f);
/** The i-th dotted component of q (empty past the end). */
nfy_str nfy__mig_comp(nfy_str q, uint32_t i);

/**
 * A rename from -> to as components: k and n are their counts; the first d
 * and the last e components are the same in both, so only from's [d, k-e)
 * become to's [d, n-e).
 */
typedef struct {
    uint32_t k, n, d, e;
} mig_rplan;

void nfy__mig_rename_plan(nfy_str from, nfy_str to, mig_rplan *p);
/** Components [first, end) of q joined with '.', NUL-terminated. */
char *nfy__mig_join_comps(nfy_arena *a, nfy_str q, uint32_t first,
                          uint32_t end);
/** to + q's components from k on ("torch.npu" + ".synchronize"). */
nfy_str nfy__mig_concat_tail(nfy_arena *a, const char *to, nfy_str q,
                             uint32_t k);

/* ---- shared by the name and import passes (passes/names.c) ---- */
typedef NFY_VEC(const nfy_rule *) mig_rule_list;

/** Rules of set active in env: RENAME/FLAG matching NAME/MODULE/CALL (no
 * fallbacks). The passes read the run's list (run.h). */
void nfy__mig_rules_collect(const nfy_rule_set *set, const nfy_rule_env *env,
                            mig_rule_list *out);
/** The most specific of the run's name rules (run.h) renaming q. */
bool nfy__mig_best_rename(const mig_ctx *c, nfy_str q, bool is_call,
                          mig_qmatch *best);
/*
 * An index of a rule list by its `from` strings (patterns and map rows), so
 * that a name is tried only against the rules that can fit it. The list
 * must outlive the index and stay unchanged.
 */
typedef struct {
    const char *from;
    size_t len;
    uint32_t hash;
    uint32_t rule; /* index in the list */
} mig_rindex_entry;

typedef struct {
    const mig_rule_list *rl;
    mig_rindex_entry *slots; /* open addressing; from == NULL: empty */
    uint32_t mask;           /* slots has mask + 1 entries */
    size_t max_len;          /* of the longest indexed string */
    uint8_t *mark;           /* per rule, scratch for nfy__mig_rindex_find */
    /* the hashes of every indexed string and of each of its dotted
     * prefixes, as bits (hash & prefix_mask): a name none of whose
     * prefixes has its bit can have no longer prefix indexed either */
    uint64_t *prefix_bits;
    uint32_t prefix_mask;
    uint64_t first_byte[4]; /* the first bytes of the indexed strings */
} mig_rule_index;

/** Build the index in arena (nothing to free). */
void nfy__mig_rindex_build(mig_rule_index *ix, const mig_rule_list *rl,
                           nfy_arena *arena);
/**
 * Indices into the list (ascending, into out, room for rl->len) of the
 * rules that may fit q: a superset of those nfy__mig_qmatch_rule accepts.
 */
/**
 * The same for rules of any match kind: then a rule is found for q when its
 * pattern (no map) or a map row equals q or a dotted prefix of it, that is
 * exactly when nfy__mig_q_under(q, that string) holds (q not empty).
 */
void nfy__mig_rindex_build_rows(mig_rule_index *ix, const mig_rule_list *rl,
                                nfy_arena *arena);
uint32_t nfy__mig_rindex_find(const mig_rule_index *ix, nfy_str q,
                              uint32_t *out);

/** Report a rename that cannot be done (no `to`, or apidb said no). */
void nfy__mig_report_norename(mig_ctx *c, const mig_qmatch *m, nfy_span sp,
                              nfy_str q, bool apidb_failed);

/**
 * Rename a chain (qualified name q, head_parts h) whose NAME parts are at
 * byte spans names[0..nn) per match m; toks (may be NULL: then nothing is
 * claimed, for edits inside f-strings) are the parts' token indices.
 */
void nfy__mig_rename_chain(mig_ctx *c, const mig_qmatch *m, nfy_str q,
                           uint32_t h, const nfy_span *names, uint32_t nn,
                           const uint32_t *toks, bool flagged);

#endif
