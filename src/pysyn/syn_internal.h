/*
 * pysyn internals: the parser state shared by the pass files.
 *
 * The work runs over "significant positions": pos[p].tok is the token
 * index of the p-th token that is not a COMMENT or NL, so neighbours are
 * p - 1 and p + 1. The positions (kind, keyword and operator ids) are the
 * summary nfy_lex_lex made with the tokens (pylex/tokpos.h), or built here when
 * the tokens come without one. Pass 1 (brackets.c) finds bracket matches
 * with recovery and logical line ends; pass 2 (stmts.c) cuts
 * logical lines into statements and drives the expression scanner (exprs.c)
 * with an explicit frame stack, so there is no recursion anywhere. Results
 * collect in growing blocks that the caller's arena adopts at the end
 * (finish.c).
 */
#ifndef NPUIFY_PYSYN_INTERNAL_H
#define NPUIFY_PYSYN_INTERNAL_H

#include "pylex/tokpos.h"
#include "pysyn/pysyn.h"

#if defined(__SSE2__) && defined(__GNUC__)
#    include <emmintrin.h>
#endif

/* Keyword ids: pylex's (token.op of a NAME), under short local names. */
enum syn_kw {
    KW_NOTKW = NFY_KW_NONE,
    KW_FALSE = NFY_KW_FALSE,
    KW_NONE = NFY_KW_NONE_VALUE,
    KW_TRUE = NFY_KW_TRUE,
    KW_AS = NFY_KW_AS,
    KW_ASYNC = NFY_KW_ASYNC,
    KW_ASSERT = NFY_KW_ASSERT,
    KW_BREAK = NFY_KW_BREAK,
    KW_CLASS = NFY_KW_CLASS,
    KW_CONTINUE = NFY_KW_CONTINUE,
    KW_DEF = NFY_KW_DEF,
    KW_DEL = NFY_KW_DEL,
    KW_ELIF = NFY_KW_ELIF,
    KW_ELSE = NFY_KW_ELSE,
    KW_EXCEPT = NFY_KW_EXCEPT,
    KW_FINALLY = NFY_KW_FINALLY,
    KW_FOR = NFY_KW_FOR,
    KW_FROM = NFY_KW_FROM,
    KW_GLOBAL = NFY_KW_GLOBAL,
    KW_IF = NFY_KW_IF,
    KW_IMPORT = NFY_KW_IMPORT,
    KW_IN = NFY_KW_IN,
    KW_IS = NFY_KW_IS,
    KW_LAMBDA = NFY_KW_LAMBDA,
    KW_NONLOCAL = NFY_KW_NONLOCAL,
    KW_NOT = NFY_KW_NOT,
    KW_PASS = NFY_KW_PASS,
    KW_RAISE = NFY_KW_RAISE,
    KW_RETURN = NFY_KW_RETURN,
    KW_TRY = NFY_KW_TRY,
    KW_WHILE = NFY_KW_WHILE,
    KW_WITH = NFY_KW_WITH,
    KW_SOFT_FIRST = NFY_KW_FIRST_SOFT,
    KW_MATCH = NFY_KW_MATCH,
    KW_CASE = NFY_KW_CASE,
    KW_TYPE = NFY_KW_TYPE
};

/* Per-position flags from pass 1. */
enum {
    PF_BREAK = 1u << 0, /* a logical line ends before this position */
    PF_ERROR = 1u << 1, /* a syn-* error was reported at this position */
    PF_SEMI = 1u << 2   /* on a line end (see breaks): a ';' is before it */
};

typedef NFY_VEC(uint32_t) u32_vec;
typedef NFY_VEC(nfy_stmt) stmt_vec;
typedef NFY_VEC(nfy_scope) scope_vec;
typedef NFY_VEC(nfy_binding) binding_vec;
typedef NFY_VEC(nfy_name_use) use_vec;
typedef NFY_VEC(nfy_attr) attr_vec;
typedef NFY_VEC(nfy_call) call_vec;
typedef NFY_VEC(nfy_arg) arg_vec;
typedef NFY_VEC(nfy_subscript) sub_vec;
typedef NFY_VEC(nfy_import) import_vec;
typedef NFY_VEC(nfy_import_name) iname_vec;
typedef NFY_VEC(nfy_with_item) with_vec;
typedef NFY_VEC(nfy_strlit) str_vec;

/* Expression frames: brackets and lambdas, innermost last. */
/* The kinds from FR_CALL on need a look at the tokens directly inside
   them (arguments, parameters, a lambda's end); the scanner tells them
   from the others with one comparison. */
enum frame_kind {
    FR_STMT,   /* the statement level (always frames[0]) */
    FR_PAREN,  /* ( ) that is not a call */
    FR_LIST,   /* [ ] that is not a subscript */
    FR_DICT,   /* { } */
    FR_SUB,    /* subscript brackets */
    FR_CALL,   /* call parentheses (also class bases) */
    FR_PARAMS, /* def parameters */
    FR_LAMBDA  /* lambda params and body (no bracket) */
};

enum param_state { PS_START, PS_NAME, PS_ANNOT, PS_DEFAULT, PS_BODY };
enum comp_state { CS_NONE, CS_TARGETS, CS_FIRST_ITER, CS_LATER };

typedef struct {
    uint8_t kind;    /* enum frame_kind */
    uint8_t pstate;  /* enum param_state (PARAMS, LAMBDA) */
    uint8_t cstate;  /* enum comp_state */
    uint8_t nfor;    /* comprehension `for` clauses seen */
    uint32_t open;   /* position of the opening bracket; NONE for lambda */
    uint32_t scope;  /* scope of names directly inside, now */
    uint32_t inner;  /* PARAMS/LAMBDA/comprehension: the own scope */
    uint32_t outer;  /* the scope outside the frame */
    uint32_t call;   /* CALL: call index */
    uint32_t arg;    /* CALL: current argument, NONE between arguments */
    uint32_t npos;   /* CALL: positional arguments so far */
    uint32_t param;  /* PARAMS/LAMBDA: current parameter's NAME position */
    uint32_t callf;  /* nearest frame (self or outer) that is a CALL */
    uint32_t ubase;  /* nearest frame (self or outer) not PAREN/LIST */
    uint32_t in_pos; /* comprehension: position of the last target `in` */
    /* marks into the result vectors, for turning into a comprehension */
    uint32_t m_uses, m_scopes, m_calls, m_strings, m_bindings;
    /* primary state saved when the bracket opened */
    uint32_t s_pstart, s_puse, s_pcall;
} frame;

typedef NFY_VEC(frame) frame_vec;

/* A use that may be an assignment/for/with/del target. */
typedef struct {
    uint32_t use;
    uint32_t pos;
    uint32_t base; /* frame index it is unpack-eligible for */
} target_cand;

typedef NFY_VEC(target_cand) cand_vec;

/* Block stack entry (INDENT ... DEDENT, plus the module). */
typedef struct {
    uint32_t stmt;       /* compound statement owning the block; NONE */
    uint32_t scope;      /* scope pushed for the block (def/class), NONE */
    uint32_t last_child; /* last direct child statement, NONE */
    bool dummy;          /* an unexpected INDENT: owns nothing */
} block;

typedef NFY_VEC(block) block_vec;

/*
 * One significant position: pylex's summary record (8 bytes: token index,
 * kind, keyword and operator ids), so that everything the passes ask
 * about a position is one cache line away (the tokens are 36 bytes each).
 * Bracket partners and PF_* flags live in arrays of their own (pmatch,
 * pflags), since the records may belong to the tokens.
 */
typedef nfy__tokpos syn_pos;

typedef struct {
    const nfy_source *src;
    const nfy_token *toks;
    uint32_t ntoks;
    nfy_arena *arena;
    nfy_pysyn_scratch *scratch; /* NULL: scratch is freed after the file */
    nfy_diags *diags;
    uint32_t nerrors;

    /* pass 1 */
    const syn_pos *pos;        /* by position: the tokens' summary or own_pos */
    nfy__tokpos_cache own_pos; /* when the tokens come without one */
    uint32_t *pmatch;          /* by position: the bracket partner, NONE */
    uint8_t *pflags;           /* by position: PF_* */
    uint32_t nsig;
    uint32_t *match; /* by token (the public array, in the arena) */
    /* line ends in order: positions of NEWLINE, INDENT, DEDENT, ENDMARKER
       and PF_BREAK, so pass 2 finds a line's end without scanning it */
    u32_vec breaks;
    bool any_bad; /* pass 1 saw an error or an ERRORTOKEN */

    /* results */
    stmt_vec stmts;
    scope_vec scopes;
    binding_vec bindings;
    use_vec uses;
    attr_vec attrs;
    call_vec calls;
    arg_vec args;
    sub_vec subs;
    import_vec imports;
    iname_vec inames;
    with_vec withs;
    str_vec strings;
    uint32_t *tok_stmt; /* arena, by token */

    /* pass 2 */
    uint32_t next_break; /* index into breaks: the current line's end */
    block_vec blocks;
    u32_vec scope_stack; /* def/class/module scopes of the blocks */
    u32_vec vcols;       /* columns of virtual blocks after a recovery */
    uint32_t line_col;   /* column of the last ordinary logical line */
    uint32_t main_guard;
    uint32_t pending;    /* compound stmt waiting for an INDENT */
    uint32_t deco_first; /* run of decorator statements, NONE */
    uint32_t deco_n;
    u32_vec inline_heads;
    frame_vec frames;
    frame *ftop; /* the last of frames (kept: asked for at every token) */
    cand_vec cands;
    /* statement-level facts collected by the scanner */
    uint32_t cur_stmt;
    uint32_t st_first, st_end; /* positions of the statement */
    u32_vec eqs;               /* positions of depth-0 '=' */
    uint32_t augop, anncolon, first_in, walrus_base;
    uint32_t assign_str; /* string that is the whole value, NONE */
    uint32_t m_uses, m_calls, m_strings; /* vector sizes at statement start */
    uint32_t pstart, puse, pcall;        /* the primary being scanned */
} syn;

/* nfy_vec_push with the common case inline (the library's grow function
   is called only when the vector is full). */
#define SYN_PUSH(v, x)                                                         \
    ((v)->len < (v)->cap ? (void)((v)->items[(v)->len++] = (x))                \
                         : (void)nfy_vec_push((v), (x)))

/*
 * The result vectors are arena blocks in the making (nfy_arena_grow):
 * growing one reallocs it in place where it can, and the finished
 * nfy_pysyn adopts each into the caller's arena trimmed to its length,
 * so neither old copies nor spare capacity outlive the parse.
 */
void nfy__pysyn_res_grow(void **items, size_t *cap, size_t elem);
#define RES_PUSH(s, v, x)                                                      \
    ((v)->len < (v)->cap                                                       \
         ? (void)((v)->items[(v)->len++] = (x))                                \
         : (nfy__pysyn_res_grow((void **)&(v)->items, &(v)->cap,               \
                                sizeof *(v)->items),                           \
            (void)((v)->items[(v)->len++] = (x))))

/* The next element of a result vector, for building in place: a record
   built on the stack field by field and then copied as a whole makes the
   copy's wide loads wait for the narrow stores. */
#define RES_SLOT(v)                                                            \
    ((v)->len < (v)->cap                                                       \
         ? &(v)->items[(v)->len++]                                             \
         : (nfy__pysyn_res_grow((void **)&(v)->items, &(v)->cap,               \
                                sizeof *(v)->items),                           \
            &(v)->items[(v)->len++]))

/* Token at position p. */
static inline const nfy_token *syn_tok(const syn *s, uint32_t p)
{
    return &s->toks[s->pos[p].tok];
}

/* Kind and operator of position p from the packed positions (the tokens
   are 36 bytes each; re-reading them costs memory bandwidth). */
static inline unsigned syn_kind(const syn *s, uint32_t p)
{
    return s->pos[p].kind;
}

static inline unsigned syn_op(const syn *s, uint32_t p)
{
    return s->pos[p].op;
}

static inline bool syn_is_op(const syn *s, uint32_t p, nfy_op op)
{
    return s->pos[p].op == (unsigned)op; /* op is 0 off OP tokens */
}

static inline bool syn_is_kw(const syn *s, uint32_t p, enum syn_kw kw)
{
    return s->pos[p].kw == kw;
}

/** A NAME usable as a variable (not a hard keyword). */
static inline bool syn_is_ident(const syn *s, uint32_t p)
{
    return s->pos[p].kind == NFY_TOK_NAME &&
           (s->pos[p].kw == KW_NOTKW || s->pos[p].kw >= KW_SOFT_FIRST);
}

/* Diagnostics reported per file; later errors are only counted (a line of
   100000 stray brackets must not make 100000 copies of itself). */
#define SYN_MAX_DIAGS 50

/** Report a syn-* error at position p (len bytes; 0: the token). */
void nfy__pysyn_error(syn *s, uint32_t p, const char *code, const char *msg);
/** The same at token index t. */
void nfy__pysyn_error_tok(syn *s, uint32_t t, const char *code,
                          const char *msg);

/* brackets.c */
void nfy__pysyn_pass1(syn *s);

/* stmts.c */
void nfy__pysyn_pass2(syn *s);
uint32_t nfy__pysyn_scope_push(syn *s, nfy_scope_kind kind, uint32_t parent,
                               uint32_t first);
uint32_t nfy__pysyn_bind(syn *s, nfy_bind_kind kind, uint32_t pos,
                         uint32_t scope);

/* exprs.c: scan positions [p, e) of the current statement. */
void nfy__pysyn_scan_begin(syn *s, uint32_t scope);
void nfy__pysyn_scan(syn *s, uint32_t p, uint32_t e);
void nfy__pysyn_scan_end(syn *s, uint32_t e);
/** Start a def's parameter frame at the '(' at position p. */
void nfy__pysyn_scan_params(syn *s, uint32_t p, uint32_t fscope);
/** Open class bases at the '(' at position p (a CALL frame, flagged). */
void nfy__pysyn_scan_bases(syn *s, uint32_t p, uint32_t name_pos);

/* strings.c: the string group starting at p; returns the position after. */
uint32_t nfy__pysyn_string(syn *s, uint32_t p, uint32_t e);

/* targets.c: bindings from the statement-level facts. */
void nfy__pysyn_targets(syn *s, uint32_t stmt_idx);
void nfy__pysyn_with_items(syn *s, uint32_t stmt_idx, uint32_t p, uint32_t e);

/* imports.c */
void nfy__pysyn_import(syn *s, uint32_t stmt_idx, uint32_t p, uint32_t e);

/* finish.c */
nfy_str nfy__pysyn_join_dotted(syn *s, uint32_t p, uint32_t e);
void syn_finish(syn *s, nfy_pysyn *m);

/* out[a, b) = v, 16 then 4 at a time where SSE2 has them (statements
   average a dozen tokens; the whole-file arrays are long). */
static inline void syn_fill_u32(uint32_t *out, uint32_t a, uint32_t b,
                                uint32_t v)
{
    if (a >= b)
        return;
#if defined(__SSE2__) && defined(__GNUC__)
    __m128i x = _mm_set1_epi32((int)v);
    __m128i *o = (__m128i *)(void *)(out + a);
    for (; b - a >= 16; a += 16, o += 4) {
        _mm_storeu_si128(o, x);
        _mm_storeu_si128(o + 1, x);
        _mm_storeu_si128(o + 2, x);
        _mm_storeu_si128(o + 3, x);
    }
    for (; b - a >= 4; a += 4, o++)
        _mm_storeu_si128(o, x);
#endif
    for (; a < b; a++)
        out[a] = v;
}

/** Token index one past position p's token (for half-open ranges). */
static inline uint32_t syn_end_tok(const syn *s, uint32_t p)
{
    return s->pos[p].tok + 1;
}

/** Bytes from the start of position first_pos to the end of end_pos - 1
    (empty, at first_pos's start, when end_pos <= first_pos). */
static inline nfy_span syn_span(const syn *s, uint32_t first_pos,
                                uint32_t end_pos)
{
    uint32_t at = syn_tok(s, first_pos)->start;
    if (end_pos <= first_pos)
        return (nfy_span){at, at};
    return (nfy_span){at, syn_tok(s, end_pos - 1)->end};
}

#endif
