/* Internal to src/analyse: the per-file context of the assessment. */
#ifndef NPUIFY_ANALYSE_INTERNAL_H
#define NPUIFY_ANALYSE_INTERNAL_H

#include <string.h>

#include "analyse/analyse.h"
#include "apidb/apidb.h"
#include "migrate/migrate.h"

typedef struct {
    const nfy_analyse_opts *o;
    const nfy_apidb_version *v;
    const nfy_source *src;
    const char *rel;
    const nfy_pysyn *m;      /* NULL for text files */
    const nfy_resolution *r; /* NULL for text files */
    nfy_report *rep;
    nfy_arena *arena;
    const char **btype; /* per binding: type qual, "" none, NULL not yet */
    const char **bown;  /* per binding: the type it gives, as btype */
    nfy_rule_env env;   /* which rules are active (nfy_rules_activity_in) */
    /* the version verdicts are judged for: the first of v's name, as
       nfy_analyse_judge(v->name) finds it, parsed once per file */
    const nfy_apidb_version *judge_v;
    struct an_memo *memo;   /* judgements (judge_memo.c), or NULL */
    bool memo_owned;        /* the file's own memo, freed with it */
    nfy_migrate_keep *keep; /* the run's, across files; may be NULL */
    size_t first_open;      /* rep's open findings before a text file's */
} an_ctx;

/* Whether token t of m is exactly the n bytes at s (nfy_pysyn_tok_is with
 * the length known: the passes ask it of many tokens). */
static inline bool an_tok_eq(const nfy_pysyn *m, uint32_t t, const char *s,
                             size_t n)
{
    if (t >= m->ntoks)
        return false;
    const nfy_token *k = &m->toks[t];
    return k->end - k->start == n && memcmp(m->src->data + k->start, s, n) == 0;
}
/* an_tok_eq with a string literal. */
#define AN_TOK_IS(m, t, lit) an_tok_eq((m), (t), (lit), sizeof(lit) - 1)

/* nfy_str_eq_cstr and nfy_str_starts_with for a string literal, inline
 * (asked of every resolved name). */
static inline bool an_str_eq(nfy_str s, const char *lit, size_t n)
{
    return s.len == n && memcmp(s.ptr, lit, n) == 0;
}
static inline bool an_str_starts(nfy_str s, const char *lit, size_t n)
{
    return s.len >= n && memcmp(s.ptr, lit, n) == 0;
}
#define AN_STR_IS(s, lit) an_str_eq((s), (lit), sizeof(lit) - 1)
#define AN_STARTS(s, lit) an_str_starts((s), (lit), sizeof(lit) - 1)

/* The list a verdict comes from. */
typedef enum { AN_LIST_MSFT, AN_LIST_NATIVE } an_list;

/* A verdict before its texts are formatted (judge.c): the pointers are
 * into qual and the static tables. */
typedef struct {
    int status; /* nfy_api_status */
    bool judged;
    nfy_str api;
    const char *note, *note2; /* note2: joined to note with "; " */
    uint32_t nsources;        /* 1, or 2 for an unknown name */
    an_list list[2];
    const char *label[2];
} an_judgement;

/** nfy_analyse_judge for the lists of a parsed version, unformatted. */
void nfy__analyse_judge_in(const nfy_apidb_api_lists *l, nfy_str qual,
                           an_judgement *out);
/** The public verdict of j, its strings in arena. */
void nfy__analyse_verdict_of(const an_judgement *j, nfy_arena *arena,
                             nfy_analyse_verdict *out);
/*
 * One distinct name as the torch-API judge sees it, kept a run (c->keep)
 * or a file (judge_memo.c): what judge_at asks about the name and the
 * finding it makes, each worked out once. The texts live in arena, as long
 * as the entry.
 */
typedef struct {
    nfy_str key;      /* the name (the entry's own copy) */
    nfy_arena *arena; /* where the entry's texts go */
    bool tested;      /* dtype and only_listed are set */
    bool dtype;       /* a dtype/layout constant: no verdict */
    bool only_listed; /* owned elsewhere or private: unknown stays silent */
    bool flagged;     /* a convert name rule reports it at the same site */
    bool judged;      /* j is set */
    an_judgement j;
    uint8_t emit; /* 0: finding not made yet; 1: none; 2: rule... */
    const nfy_rule *rule;
    const char *api, *message;
} an_named;

/** The entry of qual for c (c's run or file memo; past the memo's limit, a
 * fresh one in c->arena). */
an_named *nfy__analyse_name(an_ctx *c, nfy_str qual);
/** The judgement of n's name for c, made once. */
const an_judgement *nfy__analyse_named_judgement(an_ctx *c, an_named *n);
/** The versions of the run memo kept for c's options (made from the same
 * options: the same versions), when there is one. */
bool nfy__analyse_memo_versions(const an_ctx *c, const nfy_apidb_version **v,
                                const nfy_apidb_version **judge_v);
/** Free the file's memo (not the run's). */
void nfy__analyse_memo_release(an_ctx *c);

/** Record a finding of rule id at span with api and detail (the Tips). */
void nfy__analyse_emit(an_ctx *c, const char *rule, nfy_span span,
                       const char *api, const char *detail,
                       const char *npu_api);
/* The optional columns of a finding. */
typedef struct {
    const char *api, *detail, *npu_api, *api_type, *after;
    const char *message; /* the whole message (NULL: "rule message: detail") */
} an_extra;
/** nfy__analyse_emit with every column. */
void nfy__analyse_emit_as(an_ctx *c, const char *rule, nfy_span span,
                          an_extra x);
/** nfy__analyse_emit_as for the active rule r (nfy__analyse_rule's answer, not
 * NULL). */
void nfy__analyse_emit_rule(an_ctx *c, const nfy_rule *r, nfy_span span,
                            an_extra x);
/** Rule id of the set when it is active for the run (the one activation
 * decision, as convert's), or NULL (then nothing is emitted). */
const nfy_rule *nfy__analyse_rule(const an_ctx *c, const char *id);

/* Passes over a resolved Python file. */
void nfy__analyse_torch_apis(an_ctx *c);
void nfy__analyse_custom_ops(an_ctx *c);
void nfy__analyse_triton(an_ctx *c);
void nfy__analyse_dynamic_shapes(an_ctx *c);

/** The torch type of local binding b: "torch.nn.MaxPool2d", "torch.Tensor",
 * or "" when not surely known (every binding of the name in its scope must
 * agree). */
const char *nfy__analyse_binding_type(an_ctx *c, uint32_t b);
/** Qualified name of the callee when tokens [first, end) are exactly one call
 * of a resolved dotted name; else empty. */
nfy_str nfy__analyse_value_call(const an_ctx *c, uint32_t first, uint32_t end);

/** Per token: 1 inside a type annotation (annotations.c). */
uint8_t *nfy__analyse_annotation_tokens(an_ctx *c);

/* Text files. */
void nfy__analyse_cpp_cuda(an_ctx *c);
void nfy__analyse_dependencies(an_ctx *c);

#endif
