/*
 * Internal to src/migrate: the per-file context every pass works on, and
 * the helpers they share (rule gating, emitting edits and notes, token
 * navigation, string literal values). One mig_ctx per file; passes run in
 * the order of the pass table (rules/pass_table.h, run by registry.c) and
 * claim the tokens they edit, so no two edits of one file ever overlap.
 */
#ifndef NPUIFY_MIGRATE_PASS_H
#define NPUIFY_MIGRATE_PASS_H

#include <string.h>

#include "migrate/mig.h"
#include "pysyn/pysyn.h"
#include "resolve/resolve.h"
#include "rules/rules.h"

/* Token claims: a whole-token edit excludes every other edit of the token;
 * edits inside an f-string's {expressions} leave its literal text free. */
enum { CLAIM_NONE, CLAIM_WHOLE, CLAIM_INSIDE };

typedef struct {
    const mig_params *p;
    const nfy_source *src;
    const nfy_pysyn *m;
    const nfy_resolution *r;
    const nfy_rule_set *rules;
    nfy_edit_set *edits;
    mig_note_vec *notes;
    mig_vtag_vec *vtags;
    nfy_migrate_info *info;
    nfy_arena *arena;
    nfy_diags *diags;
    uint8_t *claimed;  /* per token: CLAIM_* */
    uint32_t *tok_arg; /* per token: innermost call argument value, or NONE */
    bool withhold;     /* syntax errors: record, do not edit */
    bool lu_looked;    /* lu_rule was looked up */
    const nfy_rule *lu_rule; /* the "left-unchanged" rule, or NULL */
    nfy_str *callee_q;       /* per call: mig_callee_qual, found once a file */
    /* per string literal: nfy_mig_string_body of its first token and its
     * offset (0 when there is no body), found once a file */
    nfy_str *lit_body;
    uint32_t *lit_off;
    uint32_t *bind_at; /* per token: its first binding, or NONE (NULL: not
                                built yet; ctxvalset.c) */
} mig_ctx;

/* ---- rules ---- */
/** Whether r is enabled and applies (option gate, torch version). */
bool nfy__mig_rule_on(const mig_ctx *c, const nfy_rule *r);
/** Whether r would edit here (on, and safe or unsafe with the flag). */
bool nfy__mig_rule_edits(const mig_ctx *c, const nfy_rule *r);
/** Map a FLAG rule to the report category, op. */
void nfy__mig_flag_class(const nfy_rule *r, nfy_finding_cat *cat,
                         nfy_op_type *op);
/** The active rule of dedicated pass `pass`, or NULL. */
const nfy_rule *nfy__mig_pass_rule_of(const mig_ctx *c, nfy_pass_id pass);
/* ---- emitting ---- */
/**
 * Edit [start, end) of the source to text under rule r. Honours safety
 * (manual: note only; unsafe without the flag: a left-unchanged note) and
 * claimed tokens [tfirst, tend) (an overlap is silently skipped: the first
 * pass to claim wins). Returns true when the edit was added.
 */
bool nfy__mig_edit(mig_ctx *c, const nfy_rule *r, uint32_t tfirst,
                   uint32_t tend, uint32_t start, uint32_t end,
                   const char *text, const char *note);
/** nfy__mig_edit, naming api on the note it records when it does not edit. */
bool nfy__mig_edit_api(mig_ctx *c, const nfy_rule *r, uint32_t tfirst,
                       uint32_t tend, uint32_t start, uint32_t end,
                       const char *text, const char *note, const char *api);
/** At most 60 bytes of s up to its first line break, cut on a character. */
char *nfy__mig_snippet(mig_ctx *c, nfy_str s);
/** Record a finding for rule r at span (message NULL: the rule's). */
void nfy__mig_note_add(mig_ctx *c, const nfy_rule *r, nfy_span span,
                       nfy_finding_cat cat, nfy_op_type op, const char *api,
                       const char *message);
/** Same with an explicit rule id. */
void nfy__mig_note_id(mig_ctx *c, const char *rule, nfy_safety safety,
                      nfy_span span, nfy_finding_cat cat, nfy_op_type op,
                      const char *api, const char *message);
/** A FLAG rule finding, classified with nfy__mig_flag_class. */
void nfy__mig_flag(mig_ctx *c, const nfy_rule *r, nfy_span span,
                   const char *api, const char *suggest);
bool nfy__mig_claimed(const mig_ctx *c, uint32_t tfirst, uint32_t tend);
/** Stable id of the value set whose first member is string lit. */
const char *nfy__mig_set_id(mig_ctx *c, uint32_t lit);
/** Name the value set of the last note / of the edit at span. */
void nfy__mig_tag_last_note(mig_ctx *c, const char *id, nfy_str name);
void nfy__mig_tag_edit(mig_ctx *c, nfy_span span, const char *id, nfy_str name);
/** "message. hint" (the hint appended as a sentence when there is one). */
const char *nfy__mig_with_hint(mig_ctx *c, const char *msg, const char *hint);

/* ---- text ---- */

static inline bool mig_str_eq_n(nfy_str a, const char *b, size_t n)
{
    return a.len == n && (n == 0 || memcmp(a.ptr, b, n) == 0);
}

/** nfy_str_eq_cstr without the strlen: most comparisons in the passes fail
 * on the first byte. b NULL counts as "". */
static inline bool mig_str_is(nfy_str a, const char *b)
{
    if (b == NULL)
        return a.len == 0;
#if defined(__GNUC__)
    /* a literal's length is known here once inlined: most quals differ in
     * length, so they fail on one compare, not after the shared "torch." */
    if (__builtin_constant_p(__builtin_strlen(b)))
        return mig_str_eq_n(a, b, __builtin_strlen(b));
#endif
    for (size_t i = 0; i < a.len; i++) {
        if (b[i] == '\0' || b[i] != a.ptr[i])
            return false;
    }
    return b[a.len] == '\0';
}

/** mig_str_is(a, lit) for a string literal lit: its length is known, so
 * most names fail on their length. */
#define MIG_IS_LIT(a, lit) mig_str_eq_n((a), "" lit, sizeof(lit) - 1)

/* A word of a table, measured where it is written (MIG_WORD("cpu")). */
typedef struct {
    const char *s;
    size_t n;
} mig_word;

#define MIG_WORD(lit)                                                          \
    {                                                                          \
        "" lit, sizeof(lit) - 1                                                \
    }

/** Is a one of the n words? */
static inline bool mig_str_in(nfy_str a, const mig_word *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (mig_str_eq_n(a, w[i].s, w[i].n))
            return true;
    }
    return false;
}

/* ---- tokens ---- */
/** Token t's text (nfy_pysyn_tok_text, inline: the passes' most asked). */
static inline nfy_str mig_tok(const mig_ctx *c, uint32_t t)
{
    if (t >= c->m->ntoks)
        return (nfy_str){"", 0};
    const nfy_token *k = &c->m->toks[t];
    return (nfy_str){c->m->src->data + k->start, k->end - k->start};
}
nfy_span nfy__mig_tok_span(const mig_ctx *c, uint32_t t);
static inline bool mig_tok_is(const mig_ctx *c, uint32_t t, const char *text)
{
    return t < c->m->ntoks && mig_str_is(mig_tok(c, t), text);
}
bool nfy_mig_tok_op(const mig_ctx *c, uint32_t t, int op);
/** Previous/next token that is not NL, COMMENT, INDENT or DEDENT. */
uint32_t nfy__mig_prev_sig(const mig_ctx *c, uint32_t t);
uint32_t nfy__mig_next_sig(const mig_ctx *c, uint32_t t);
char *nfy_mig_strdup(mig_ctx *c, nfy_str s);
char *nfy_mig_fmt(mig_ctx *c, const char *fmt, ...) NFY_PRINTF(2, 3);

/* ---- lines ---- */
/** The bytes before statement s's first token on its line. */
nfy_str nfy__mig_stmt_indent(const mig_ctx *c, uint32_t s);
/** Only blanks and tabs: an indentation, not code before the statement. */
bool nfy__mig_is_indent(nfy_str s);

/* ---- strings ---- */
/**
 * The text between the quotes of a plain or f-string token (prefix and
 * quotes excluded, escapes not decoded) and its offset in the source.
 */
nfy_str nfy_mig_string_body(const mig_ctx *c, uint32_t t, uint32_t *body_off);
/** Qualified callee name of call k ("" unknown), and its method name. */
nfy_str nfy_mig_callee_qual_of(const mig_ctx *c, uint32_t k);
static inline nfy_str mig_callee_qual(const mig_ctx *c, uint32_t k)
{
    return c->callee_q ? c->callee_q[k] : nfy_mig_callee_qual_of(c, k);
}
static inline nfy_str mig_callee_attr(const mig_ctx *c, uint32_t k)
{
    uint32_t t = c->m->calls[k].attr_tok;
    return t == NFY_NONE ? (nfy_str){"", 0} : mig_tok(c, t);
}
/** Whether the receiver of an attribute token is a torch module. */
bool nfy_mig_attr_on_module(const mig_ctx *c, uint32_t attr_tok);

/* ---- statements and inserted lines (statements.c) ---- */
/** The previous statement with the same parent, or NFY_NONE. */
uint32_t nfy__mig_prev_sibling(const mig_ctx *c, uint32_t s);
/** A simple statement alone on its own lines, no multi-line string. */
bool nfy__mig_own_lines(const mig_ctx *c, uint32_t s);
/** Expression statement `RECV . word ( ARGS )`: its '(' token, or NONE. */
uint32_t nfy_mig_method_stmt(const mig_ctx *c, uint32_t s, const char *word);
/** Offset of the start of statement s's first line. */
uint32_t nfy__mig_line_start_of(const mig_ctx *c, uint32_t s);
/** Insert the line `code` at offset at, indented like statement s. */
void nfy__mig_insert_line(mig_ctx *c, const nfy_rule *r, uint32_t at,
                          uint32_t s, const char *code);
/** Put statements first..last (siblings) under the block header. */
void nfy__mig_wrap_lines(mig_ctx *c, const nfy_rule *r, uint32_t first,
                         uint32_t last, const char *header, const char *note);
/** The name a top-level `import torch [as t]` binds ("" none), its stmt. */
nfy_str nfy__mig_torch_name(const mig_ctx *c, uint32_t *stmt);
/** The last top-level import of the leading import block (>= at_least). */
uint32_t nfy__mig_import_block_end(const mig_ctx *c, uint32_t at_least);

/* ---- passes ---- */
/* MIG_IF_REGISTRY_##host(...): its arguments for a row of the pass table
 * (rules/pass_table.h) that the registry runs (host REGISTRY), else
 * nothing: only those rows have a function, mig_pass_<run> in passes/. */
#define MIG_IF_REGISTRY_REGISTRY(...) __VA_ARGS__
#define MIG_IF_REGISTRY_PASS(...)
#define MIG_IF_REGISTRY_PROJECT(...)
#define MIG_IF_REGISTRY_CONVERT(...)
#define MIG_IF_REGISTRY_ANALYSE(...)
#define MIG_IF_REGISTRY_NONE(...)

#define MIG_PASS_PROTO(id, name, kind, state, run, modes, host)                \
    MIG_IF_REGISTRY_##host(void nfy__mig_pass_##run(mig_ctx *c);)
NFY_PASS_TABLE(MIG_PASS_PROTO)
#undef MIG_PASS_PROTO

/** Run every pass of the registry over c, in order. */
void nfy__mig_run_passes(mig_ctx *c);

#endif
