/*
 * Internal to src/rules: the rule set's layout, the hashed name index used by
 * nfy_rules_set_lookup, the JSON position finder used for schema-error
 * locations, and the two schema converters (ours, msFmkTransplt's).
 */
#ifndef NPUIFY_RULES_INTERNAL_H
#define NPUIFY_RULES_INTERNAL_H

#include <jansson.h>

#include "rules/rules.h"

/* One key of the sorted index: a pattern or map row in one lookup space. */
typedef struct {
    nfy_lookup_space space;
    nfy_str key;
    const nfy_rule *rule;
    const nfy_rule_pair *pair; /* NULL when the key is the rule's pattern */
    bool prefix;               /* also matches dotted names below key */
} rules_entry;

typedef NFY_VEC(nfy_rule *) rules_ptr_vec;
typedef NFY_VEC(rules_entry) rules_entry_vec;

/* Hash slot: a run of index entries sharing one (space, key); count 0 = free */
typedef struct {
    uint64_t hash;
    uint32_t first;
    uint32_t count;
} rules_slot;

struct nfy_rule_set {
    nfy_arena arena;       /* every rule and string of the set */
    rules_ptr_vec rules;   /* load order */
    rules_entry_vec index; /* sorted by (space, key) */
    rules_slot *slots;     /* open addressing over the runs of index */
    size_t nslots;         /* a power of two, or 0 */
    rules_ptr_vec scanned; /* STRING, ENV, FILE rules: matched by scanning */
    const nfy_rule **id_slots; /* rules by ID (rule_ids.c), NULL: none */
    size_t nid_slots;          /* a power of two, or 0 */
    size_t id_count;           /* rules.len when id_slots was built */
    /* each kind's rules in load order, as a chain: kind_first[k] is the
     * first's position, kind_next[i] the next after position i of the
     * same kind (rules.len: none); current while kind_count == rules.len */
    uint32_t *kind_next;
    uint32_t kind_first[NFY_RULE_KIND_COUNT];
    size_t kind_count;
};

/* The ID table of set's rules as they are now (rule_ids.c). */
void nfy__rules_ids_build(nfy_rule_set *set);
/* Whether the ID table covers every rule of the set. */
bool nfy__rules_ids_current(const nfy_rule_set *set);
/* The first rule of ID id, or NULL; the table must be current. */
const nfy_rule *nfy__rules_id_find(const nfy_rule_set *set, const char *id);
void nfy__rules_ids_free(nfy_rule_set *set);

/* Free what nfy__rules_reindex allocated (rule_index.c). */
void nfy__rules_index_free(nfy_rule_set *set);

/* Rebuild index and scanned after rules changed (rule_index.c). */
void nfy__rules_reindex(nfy_rule_set *set);

/* ---- Loading (rule_load.c, rule_schema.c, rule_msft.c) ------------------- */

/* A step of a JSON key path: an object key, or an array index (key NULL). */
typedef struct {
    const char *key;
    size_t index;
} rules_path_step;

#define RULES_PATH_MAX 8

/* Where a loader is: the text (for positions), diags, the path so far. */
typedef struct {
    nfy_rule_set *set;
    const nfy_source *src;
    nfy_diags *diags;
    rules_path_step path[RULES_PATH_MAX];
    size_t depth;
    size_t errors;
    bool ours;               /* our schema (rule i is at rules[i]) */
    const char *origin;      /* "builtin" or the file name, arena-owned */
    NFY_VEC(nfy_rule *) out; /* rules of this file, added on success */
} rules_loader;

void nfy__rules_push_key(rules_loader *ld, const char *key);
void nfy__rules_push_index(rules_loader *ld, size_t index);
void nfy__rules_pop(rules_loader *ld);
/**
 * Report a schema error at the current path (the value; at_key: the key
 * itself, for unknown fields), as "file:line:col: error[rule-invalid]: PATH:
 * msg".
 */
void nfy__rules_error(rules_loader *ld, bool at_key, const char *fmt, ...)
    NFY_PRINTF(3, 4);
/** The same at byte `inner` of the current path's string value (the
 * column of what is wrong inside a pattern). */
void nfy__rules_error_in(rules_loader *ld, size_t inner, const char *fmt, ...)
    NFY_PRINTF(3, 4);
/** A fresh rule with defaults (no ctx, no map, arg_pos -1), arena-owned. */
nfy_rule *nfy__rules_new_rule(rules_loader *ld);
/** Arena copy of a jansson string value. */
const char *nfy__rules_dup(rules_loader *ld, const json_t *str);
/** Parse one "kw:device"-style context into *out; false with a reason. */
bool nfy__rules_parse_ctx(rules_loader *ld, const char *text, nfy_rule_ctx *out,
                          const char **why);
/** Semantic checks of a finished rule (kind/match fit, regexes, ...). */
void nfy__rules_check_rule(rules_loader *ld, const nfy_rule *r);

/** Our schema: root object with "rules": [...]. */
void nfy__rules_load_ours(rules_loader *ld, json_t *root);
/** msFmkTransplt's schema: root object with "rules": {...}. */
void nfy__rules_load_msft(rules_loader *ld, json_t *root);

/* ---- JSON positions (json_pos.c) ----------------------------------------- */

/**
 * Byte offset, in valid JSON text, of the value at path (or of its key when
 * at_key and the last step is a key). Returns the closest found ancestor's
 * offset when the path does not fully exist.
 */
size_t nfy__rules_json_locate(const char *text, size_t len,
                              const rules_path_step *path, size_t depth,
                              bool at_key);
/**
 * Offset in text of byte `inner` of the decoded JSON string whose opening
 * quote is at `quote` (escapes counted as the bytes they stand for).
 */
size_t nfy__rules_json_string_byte(const char *text, size_t len, size_t quote,
                                   size_t inner);

/* The embedded built-in catalogue (generated by mk/rules.mk). */
extern const unsigned char nfy__rules_builtin_json[];
extern const size_t nfy__rules_builtin_json_len;

#endif
