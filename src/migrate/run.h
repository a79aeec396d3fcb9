/*
 * Internal to src/migrate: what nfy_mig_file decides from its options
 * alone, once per run instead of once per file (run.c). One nfy_migrate_run
 * serves one thread: the name index keeps scratch marks, and the observer's
 * kept state is its own.
 */
#ifndef NPUIFY_MIGRATE_RUN_H
#define NPUIFY_MIGRATE_RUN_H

#include <regex.h>

#include "migrate/bigram.h"
#include "migrate/name_match.h"

/* A string rule (match STRING, rewrite or flag) with its pattern measured. */
typedef struct {
    const nfy_rule *r;
    nfy_str pat;
    int sub; /* its bit in the substring scan (mig_str_rules), or -1 */
} mig_str_rule;

typedef NFY_VEC(mig_str_rule) mig_str_rule_list;

/*
 * The active string rules in set order, and for each first byte of a
 * literal the rules that can fit one starting with it (ascending indices
 * into all, at by_byte[first[b] .. first[b + 1])): a whole-value pattern
 * must start the literal, only substring and empty patterns fit any.
 */
typedef struct {
    mig_str_rule_list all;
    uint32_t first[257];
    uint32_t *by_byte;
    /* the distinct device contexts (an argument, or a keyword other than
     * `default=`) of the rewrite rules: what makes an argument a device */
    const nfy_rule_ctx **strong;
    uint32_t nstrong;
    /* substring rules (pattern of 2 bytes or more, up to 32) found in a
     * literal by one scan: a pattern may start only where one of the
     * pairs does, and that of bit k only at a byte i with bit k set in
     * sub_first[body[i]] and sub_second[body[i+1]] */
    mig_bigrams sub_pairs;
    mig_bigrams cuda_starts; /* where cuda_text's words may start */
    uint32_t sub_first[256], sub_second[256];
    uint32_t sub_rule[32]; /* bit -> index into all */
    uint32_t nsub;
    size_t sub_min; /* the shortest of their patterns (SIZE_MAX: none) */
} mig_str_rules;

/** Build the string rules of set active in env (passes/strings.c). */
void nfy__mig_str_rules_build(const nfy_rule_set *set, const nfy_rule_env *env,
                              nfy_arena *arena, mig_str_rules *out);

/* An IMPORT rule's pattern or map row, measured once. */
typedef struct {
    const char *text;
    size_t len;
    bool glob; /* has '*' or '?' */
    /* a glob without '|': its longest run of plain bytes, which every
     * name it fits holds (lit_len 0: none known) */
    const char *lit;
    size_t lit_len;
} mig_imp_pat;

/* An active IMPORT rule with its patterns: the pattern when it has no
 * map, else one per map row. */
typedef struct {
    const nfy_rule *r;
    mig_imp_pat *pats;
    size_t npats;
} mig_imp_rule;

typedef NFY_VEC(mig_imp_rule) mig_imp_rule_list;

/*
 * The active IMPORT rules in set order, indexed: a module fits a plain
 * pattern only when the pattern is it or a dotted prefix of it (rows), so
 * only the rules found there and those with a glob (globbed, ascending)
 * are tried.
 */
typedef struct {
    mig_imp_rule_list all;
    mig_rule_list rules; /* all's rules, for rows */
    mig_rule_index rows;
    uint32_t *globbed;
    uint32_t nglobbed;
    uint32_t *cand; /* scratch: room for 3 * all.len */
} mig_imp_rules;

/** Build the import rules of set active in env (passes/imports.c). */
void nfy__mig_imp_rules_build(const nfy_rule_set *set, const nfy_rule_env *env,
                              nfy_arena *arena, mig_imp_rules *out);

/* A shell line rule (context "shell") with its pattern compiled once. */
typedef struct {
    const nfy_rule *r;
    regex_t rx;
} mig_shell_rule;

typedef NFY_VEC(mig_shell_rule) mig_shell_rule_list;

/** The active shell line rules of set in set order, those whose pattern
 *  compiles (passes/shell_cmd.c); free with nfy__mig_shell_rules_free. */
void nfy__mig_shell_rules_build(const nfy_rule_set *set,
                                const nfy_rule_env *env,
                                mig_shell_rule_list *out);
void nfy__mig_shell_rules_free(mig_shell_rule_list *l);

/* The int-device rule's ARG contexts by the last component of their
 * callee (passes/intdev.c), built on first use: chained by a hash of it, each
 * chain in context order. */
enum { MIG_TAIL_BUCKETS = 64 }; /* a power of two */

typedef struct {
    const nfy_rule *rule; /* the rule they are of, NULL: not built */
    nfy_str *tails;       /* per context: the last component of its callee */
    uint32_t bucket[MIG_TAIL_BUCKETS]; /* first context, or NFY_NONE */
    uint32_t *next;                    /* per context: next in its chain */
} mig_ctx_tails;

/* The AMP pass's rule with its map rows indexed, built on first use. */
typedef struct {
    const nfy_rule *rule; /* NULL: not built */
    const nfy_rule *one[1];
    mig_rule_list rl; /* over one */
    mig_rule_index rows;
} mig_amp_rows;

/* Pattern lengths the member pass buckets its rules by. */
enum { MIG_MEMBER_LENS = 48 };

/* The member pass's rules (METHOD or ATTR, active) in set order with
 * their patterns' lengths, found on first use (passes/calls.c). When there are
 * at most 64, by_len[n] has bit k for each rule k of pattern length n
 * (long_rules: those of MIG_MEMBER_LENS or more), so a name is compared
 * with the rules of its own length only. */
typedef struct {
    bool built;
    const nfy_rule **rules;
    size_t *plen;
    size_t len;
    bool bucketed;
    uint64_t by_len[MIG_MEMBER_LENS];
    uint64_t long_rules;
} mig_member_rules;

/* The argument pass's rules (REWRITE_ARG on a call or a method, FLAG on a
 * keyword; active) in set order, found on first use (passes/calls.c). */
typedef struct {
    bool built;
    const nfy_rule **rules;
    size_t len;
} mig_arg_rules;

struct nfy_migrate_run {
    nfy_migrate_opts opts;
    const char *version; /* canonical apidb version name */
    nfy_rule_env env;
    nfy_arena arena;
    mig_rule_list names;     /* nfy__mig_rules_collect */
    mig_rule_index names_ix; /* over names */
    uint32_t *cand;          /* scratch of nfy__mig_rindex_find over names */
    const nfy_rule *pass_rule[NFY_PASS_COUNT]; /* nfy__mig_pass_rule_in each */
    mig_str_rules strings;                     /* the string pass's rules */
    mig_imp_rules imports;                     /* the import pass's rules */
    mig_shell_rule_list shell;                 /* the shell pass's rules */
    mig_ctx_tails intdev;                      /* the int-device pass's */
    mig_amp_rows amp;                          /* the AMP pass's */
    mig_member_rules members;                  /* the member pass's */
    mig_arg_rules args;                        /* the argument pass's */
    nfy_migrate_keep keep;   /* the observer's, across files */
    nfy_front_scratch front; /* lexer and parser buffers, across files */
};

#endif
