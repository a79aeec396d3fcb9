/*
 * pysyn: the structure of a Python file that a migrator needs, built from
 * pylex tokens in one forward pass without recursion. Not a full AST.
 *
 * What it gives, all as flat arrays in one nfy_pysyn (allocated in the
 * caller's arena, one per file), cross-referenced by uint32_t indices,
 * NFY_NONE meaning "none":
 *  - statements (simple statements split on ';', compound headers with
 *    their bodies), numbered in source (pre-)order, so the body of
 *    statement s is the contiguous range [s + 1, s.body_end);
 *  - the matching bracket of every ( [ {;
 *  - name uses with the dotted chain a.b.c they start, and their scope;
 *  - calls (callee tokens, dotted callee text, receiver call for
 *    x.cuda().float()), with their arguments (positional, keyword, *, **);
 *  - subscripts and attribute accesses;
 *  - imports in every form, with what each bound name refers to;
 *  - scopes (module, def, lambda, class, comprehension) and bindings
 *    (parameters, assignment/for/with/except/walrus targets, imports,
 *    def/class names, global/nonlocal declarations);
 *  - string literal groups (implicit concatenation) with their context;
 *  - with-items, decorators, the `if __name__ == "__main__":` block.
 *
 * Token indices (fields named *tok, *_first, *_end) index the nfy_tokens
 * the module was built from; token ranges are half-open [first, end) and
 * never include COMMENT or NL tokens at their ends.
 *
 * Order (all deterministic): stmts, uses, attrs, strings, subscripts,
 * imports, import_names and with_items are in source order of their first
 * token, so they can be binary-searched (helpers below); calls are in order
 * of their '('; args are grouped per call ([args_first, +nargs)), in source
 * order. Scopes and bindings are in creation order, not token order: a
 * comprehension scope is created at its first `for` (after the lambdas in
 * its element), and an assignment's targets are bound after the names
 * bound inside its value; scope 0 is always the module.
 *
 * Syntax errors: pysyn checks only what it needs (brackets, block
 * structure, compound headers, import syntax, error tokens). A broken
 * statement gets NFY_STMTF_ERROR and a "syn-*" diagnostic at its location;
 * the rest of the file is still structured (recovery at the next NEWLINE
 * or dedent; an unclosed bracket is closed at the first line that starts
 * with a statement keyword such as def, class, import or return).
 *
 * Limits: a line that the tokenizer merged because of an unclosed bracket
 * has no INDENT/DEDENT tokens, so its recovered statements become siblings
 * of the statement that opened the bracket. Names inside f-string
 * expressions are not name uses (split them with nfy_lex_fstring_split).
 */
#ifndef NPUIFY_PYSYN_H
#define NPUIFY_PYSYN_H

#include "core/core.h"
#include "pylex/pylex.h"

#define NFY_NONE UINT32_MAX

/* ---- Statements ---------------------------------------------------------- */

/* clang-format off */
#define NFY_STMT_KIND_MAP(X)                                                   \
    X(EXPR, "expr")           /* expression statement (calls, docstrings) */   \
    X(ASSIGN, "assign")       /* a = b = value */                              \
    X(AUGASSIGN, "augassign") /* a += value */                                 \
    X(ANNASSIGN, "annassign") /* a: T [= value] */                             \
    X(IMPORT, "import")                                                        \
    X(FROM_IMPORT, "from_import")                                              \
    X(RETURN, "return") X(PASS, "pass") X(BREAK, "break")                      \
    X(CONTINUE, "continue") X(RAISE, "raise") X(DEL, "del")                    \
    X(GLOBAL, "global") X(NONLOCAL, "nonlocal") X(ASSERT, "assert")            \
    X(TYPE_ALIAS, "type_alias")                                                \
    X(DECORATOR, "decorator") /* @expr line, the @ included */                \
    X(DEF, "def") X(CLASS, "class") X(IF, "if") X(ELIF, "elif")                \
    X(ELSE, "else") X(FOR, "for") X(WHILE, "while") X(WITH, "with")            \
    X(TRY, "try") X(EXCEPT, "except") X(FINALLY, "finally")                    \
    X(MATCH, "match") X(CASE, "case")                                          \
    X(ERROR, "error") /* nothing recognisable (e.g. a stray INDENT) */
/* clang-format on */

typedef enum {
#define NFY_STMT_ENUM(name, text) NFY_STMT_##name,
    NFY_STMT_KIND_MAP(NFY_STMT_ENUM)
#undef NFY_STMT_ENUM
} nfy_stmt_kind;

/** "expr", "def", ... (the names used by `npuify syntax`). */
const char *nfy_pysyn_stmt_kind_name(nfy_stmt_kind kind);

enum nfy_stmt_flags {
    NFY_STMTF_COMPOUND = 1u << 0,    /* has a header ':' and a body */
    NFY_STMTF_ASYNC = 1u << 1,       /* async def / for / with */
    NFY_STMTF_INLINE_BODY = 1u << 2, /* body on the header line: if x: y */
    NFY_STMTF_MAIN_GUARD = 1u << 3,  /* if __name__ == "__main__": */
    NFY_STMTF_ERROR = 1u << 4,       /* a syn-* diagnostic was reported */
    NFY_STMTF_DOCSTRING = 1u << 5    /* a string expression opening a body */
};

/**
 * One statement. [first, end) are its tokens without the NEWLINE or ';'
 * that ends it; for a compound statement they are the header up to and
 * including its ':' (for `else`/`try`/`finally` just the keyword and ':').
 * Statements inside the body come right after it: [index + 1, body_end).
 * elif/else/except/finally clauses are siblings that follow the statement
 * they continue (`clause_of` points at the if/for/while/try/match... head).
 */
typedef struct {
    uint16_t kind;        /* nfy_stmt_kind */
    uint16_t flags;       /* enum nfy_stmt_flags */
    uint32_t first, end;  /* token range */
    nfy_span span;        /* bytes of [first, end) */
    uint32_t line, col;   /* of the first token (for an async/decorated
                             def: of the def line itself) */
    uint32_t parent;      /* enclosing compound statement, NFY_NONE at top */
    uint32_t body_end;    /* one past the last statement of the body */
    uint32_t depth;       /* number of enclosing compound statements */
    uint32_t scope;       /* scope the statement executes in */
    uint32_t body_scope;  /* def/class: the scope of its body; else NONE */
    uint32_t name_tok;    /* def/class: the NAME token; else NFY_NONE */
    uint32_t deco_first;  /* def/class: first DECORATOR stmt; else NONE */
    uint32_t ndecos;      /* number of decorator statements */
    uint32_t clause_of;   /* elif/else/except/finally/case: head stmt */
    uint32_t value_first; /* ASSIGN/AUGASSIGN/ANNASSIGN/RETURN: value */
    uint32_t value_end;   /*   tokens (after the last '='); else NONE */
} nfy_stmt;

/* ---- Scopes and bindings ------------------------------------------------- */

typedef enum {
    NFY_SCOPE_MODULE,
    NFY_SCOPE_FUNCTION, /* def and async def */
    NFY_SCOPE_LAMBDA,
    NFY_SCOPE_CLASS,
    NFY_SCOPE_COMPREHENSION /* list/set/dict comprehension, generator */
} nfy_scope_kind;

const char *nfy_pysyn_scope_kind_name(nfy_scope_kind kind);

/**
 * A scope. Scope 0 is the module. [first, end) are the tokens it covers
 * (for def: from the '(' of the parameters to the end of the body; default
 * values and annotations inside still belong to the parent, as in Python;
 * for a comprehension: the brackets, whose first iterable belongs to the
 * parent).
 */
typedef struct {
    uint16_t kind; /* nfy_scope_kind */
    uint16_t pad;
    uint32_t parent;     /* NFY_NONE for the module */
    uint32_t stmt;       /* def/class statement, or the enclosing one */
    uint32_t name_tok;   /* def/class name; NONE otherwise */
    uint32_t first, end; /* token range */
} nfy_scope;

/* clang-format off */
#define NFY_BIND_KIND_MAP(X)                                                   \
    X(PARAM, "param")     /* def/lambda parameter (also *args, **kw) */      \
    X(ASSIGN, "assign")   /* target of '=' (names and tuple/list/starred) */ \
    X(AUGASSIGN, "augassign")                                                \
    X(ANNASSIGN, "annassign")                                                \
    X(WALRUS, "walrus")   /* name := value; in the enclosing non-          */ \
                          /* comprehension scope, as in Python            */ \
    X(FOR, "for")         /* for statement and comprehension targets */      \
    X(WITH, "with")       /* with ... as target */                           \
    X(EXCEPT, "except")   /* except ... as name */                           \
    X(IMPORT, "import")   /* see import_name */                              \
    X(DEF, "def") X(CLASS, "class")                                          \
    X(GLOBAL, "global") X(NONLOCAL, "nonlocal")                              \
    X(DEL, "del")                                                            \
    X(MATCH, "match")     /* capture in a case pattern */
/* clang-format on */

typedef enum {
#define NFY_BIND_ENUM(name, text) NFY_BIND_##name,
    NFY_BIND_KIND_MAP(NFY_BIND_ENUM)
#undef NFY_BIND_ENUM
} nfy_bind_kind;

const char *nfy_pysyn_bind_kind_name(nfy_bind_kind kind);

/**
 * A name bound (or declared global/nonlocal) in a scope. tok is the NAME
 * token. For assignments whose target is the single name (x = value),
 * [value_first, value_end) are the value's tokens; else NFY_NONE.
 */
typedef struct {
    uint16_t kind; /* nfy_bind_kind */
    uint16_t pad;
    uint32_t tok;
    uint32_t scope;
    uint32_t stmt;
    uint32_t import_name; /* IMPORT: index into import_names; else NONE */
    uint32_t value_first, value_end;
} nfy_binding;

/* ---- Name uses and attribute access -------------------------------------- */

typedef enum {
    NFY_CTX_LOAD,
    NFY_CTX_STORE, /* a binding occurrence (see binding) */
    NFY_CTX_DEL
} nfy_name_ctx;

/**
 * A NAME token used as a variable in an expression (not an attribute name
 * after '.', a keyword-argument name, a parameter, an import path, or a
 * def/class name). The dotted chain it starts is NAME ('.' NAME)*, ending at
 * chain_end (a NAME token) with nparts names; text via nfy_pysyn_dotted.
 * In x.cuda().float(), the use x has the chain x.cuda (2 parts).
 */
typedef struct {
    uint32_t tok;
    uint32_t chain_end;
    uint16_t nparts;
    uint16_t ctx;   /* nfy_name_ctx */
    uint32_t scope; /* scope the name is looked up from */
    uint32_t stmt;
    uint32_t binding; /* STORE/DEL: the binding it creates; else NONE */
} nfy_name_use;

/**
 * One attribute access `.NAME` on any primary: base_first is the first
 * token of the primary before the '.'; base_call is the call whose ')'
 * directly precedes the '.' (x.cuda().float: float's base_call is the
 * cuda call), else NONE; use is the name use whose chain contains this
 * attribute, else NONE.
 */
typedef struct {
    uint32_t name_tok;
    uint32_t base_first;
    uint32_t base_call;
    uint32_t use;
    uint32_t stmt;
} nfy_attr;

/* ---- Calls, arguments, subscripts ---------------------------------------- */

enum nfy_call_flags {
    NFY_CALLF_UNCLOSED = 1u << 0,    /* no ')' (rpar == NFY_NONE) */
    NFY_CALLF_DECORATOR = 1u << 1,   /* @deco(...) */
    NFY_CALLF_CLASS_BASES = 1u << 2, /* class C(bases, kw=...): not a call */
    NFY_CALLF_GENEXP_ARG = 1u << 3   /* f(x for x in y) */
};

/**
 * A call callee(args). [callee_first, lpar) is the callee expression.
 * dotted: the callee's text as a dotted name ("torch.cuda.set_device"),
 * whitespace and comments removed, when the callee is a pure NAME chain
 * (then use is its name use); empty (len 0) otherwise. attr_tok: the last
 * attribute NAME when the callee ends in '.NAME' (x.cuda().float -> float,
 * "cuda:{}".format -> format), else NONE; recv_call: the call whose result
 * that attribute is taken on, else NONE. parent_call/parent_arg: the
 * innermost call argument containing this call, else NONE.
 */
typedef struct {
    uint32_t callee_first;
    uint32_t lpar, rpar; /* rpar NFY_NONE if unclosed */
    uint32_t args_first; /* index into args */
    uint32_t nargs;
    uint32_t use;
    nfy_str dotted;
    uint32_t attr_tok;
    uint32_t recv_call;
    uint32_t parent_call, parent_arg;
    uint32_t stmt, scope;
    uint32_t flags; /* enum nfy_call_flags */
    nfy_span span;  /* callee start to ')' end */
} nfy_call;

typedef enum {
    NFY_ARG_POS,     /* value */
    NFY_ARG_KEYWORD, /* name=value */
    NFY_ARG_STAR,    /* *value */
    NFY_ARG_DSTAR    /* **value */
} nfy_arg_kind;

const char *nfy_pysyn_arg_kind_name(nfy_arg_kind kind);

/**
 * One argument of a call. [first, end) are all its tokens; [value_first,
 * value_end) the value (after `name=`, `*` or `**`). pos: 0-based index
 * among the call's POS arguments (NFY_NONE for the others).
 */
typedef struct {
    uint16_t kind; /* nfy_arg_kind */
    uint16_t pad;
    uint32_t call;
    uint32_t pos;
    uint32_t first, end;
    uint32_t name_tok; /* KEYWORD: the name; else NFY_NONE */
    uint32_t value_first, value_end;
    nfy_span span, value_span;
} nfy_arg;

/** base[...]: base_first is the primary's first token. */
typedef struct {
    uint32_t base_first;
    uint32_t lsqb, rsqb; /* rsqb NFY_NONE if unclosed */
    uint32_t use;        /* name use when the base is a pure NAME chain */
    uint32_t stmt;
} nfy_subscript;

/* ---- Imports ------------------------------------------------------------- */

enum nfy_import_flags {
    NFY_IMPF_FROM = 1u << 0,        /* from M import ... */
    NFY_IMPF_STAR = 1u << 1,        /* from M import * */
    NFY_IMPF_IN_FUNCTION = 1u << 2, /* inside a def (or lambda) scope */
    NFY_IMPF_IN_TRY = 1u << 3,      /* inside a try: body */
    NFY_IMPF_GUARDED = 1u << 4,     /* ... whose handlers catch ImportError,
                                       ModuleNotFoundError, Exception or all */
    NFY_IMPF_ERROR = 1u << 5        /* malformed; names may be partial */
};

/**
 * One import statement. For `from`: level is the number of leading dots and
 * module the dotted path after them ("" for `from . import x`). For plain
 * `import a, b.c`: module is empty and every name carries its own path.
 */
typedef struct {
    uint32_t stmt;
    uint32_t flags; /* enum nfy_import_flags */
    uint32_t level;
    nfy_str module;
    uint32_t module_first, module_end; /* tokens of the dots and path */
    uint32_t names_first, nnames;      /* into import_names */
    uint32_t scope;
    uint32_t try_stmt; /* innermost enclosing try, or NFY_NONE */
} nfy_import;

/**
 * One imported name. name: the dotted path as written (import a.b.c ->
 * "a.b.c"; from m import x -> "x"); asname: the alias or empty. bound: the
 * name it binds ("a" for import a.b.c, "c" for import a.b as c). target:
 * the qualified thing bound, with the leading dots of a relative import
 * ("a", "a.b", "m.x", "..pkg.mod.x", ".x"). Strings are views into the
 * source or arena copies, never NUL-terminated by contract.
 */
typedef struct {
    uint32_t import;
    uint32_t name_first, name_end; /* tokens of the dotted name */
    uint32_t asname_tok;           /* NFY_NONE without `as` */
    uint32_t bound_tok;
    nfy_str name, asname, bound, target;
    uint32_t binding;
    nfy_span span; /* `a.b as c` */
} nfy_import_name;

/* ---- With items, string literals ----------------------------------------- */

/** `with ctx as target`: target tokens NFY_NONE without `as`. */
typedef struct {
    uint32_t stmt;
    uint32_t ctx_first, ctx_end;
    uint32_t target_first, target_end;
    nfy_span ctx_span, target_span;
} nfy_with_item;

typedef enum {
    NFY_STR_OTHER,
    NFY_STR_DOCSTRING,  /* first statement of module/def/class body */
    NFY_STR_ARG,        /* the whole value of a call argument */
    NFY_STR_IN_ARG,     /* part of a call argument (list, operand, ...) */
    NFY_STR_COMPARE,    /* operand of == != < > <= >= in, not in, is */
    NFY_STR_ASSIGN,     /* the whole value of an assignment or return */
    NFY_STR_DEFAULT,    /* a parameter default: def f(d="cuda") */
    NFY_STR_SUBSCRIPT,  /* the whole index: os.environ["CUDA_..."] */
    NFY_STR_DICT_KEY,   /* {"k": v} */
    NFY_STR_DICT_VALUE, /* {k: "v"} */
    NFY_STR_OPERAND     /* of %, +, or receiver of a method ("".format) */
} nfy_str_ctx;

const char *nfy_pysyn_str_ctx_name(nfy_str_ctx ctx);

/**
 * A string literal expression: one STRING token or an implicit
 * concatenation group ("a" "b", also across lines inside brackets), tokens
 * [first, end) (COMMENT/NL tokens may sit in between). ctx: the most
 * specific context (the first matching of DOCSTRING, DEFAULT, ARG,
 * COMPARE, OPERAND, SUBSCRIPT, DICT_*, ASSIGN, IN_ARG, OTHER). call/arg:
 * the innermost call argument containing the literal (also when ctx is not
 * ARG), else NONE. prev_tok/next_tok: the significant tokens around the
 * group within the statement (e.g. '==', '%', '.', '='), else NONE.
 * binding: for ASSIGN to a single name, the binding; else NONE. param_tok:
 * for DEFAULT, the parameter name.
 */
typedef struct {
    uint32_t first, end;
    uint16_t ctx;   /* nfy_str_ctx */
    uint16_t flags; /* OR of the tokens' NFY_TOKF_* flags */
    uint32_t call, arg;
    uint32_t prev_tok, next_tok;
    uint32_t binding;
    uint32_t param_tok;
    uint32_t stmt, scope;
    nfy_span span;
} nfy_strlit;

/* ---- The module ---------------------------------------------------------- */

/* clang-format off */
#define NFY_PYSYN_ARRAYS(X)                                                    \
    X(nfy_stmt, stmts) X(nfy_scope, scopes) X(nfy_binding, bindings)           \
    X(nfy_name_use, uses) X(nfy_attr, attrs) X(nfy_call, calls)                \
    X(nfy_arg, args) X(nfy_subscript, subscripts) X(nfy_import, imports)       \
    X(nfy_import_name, import_names) X(nfy_with_item, with_items)              \
    X(nfy_strlit, strings)
/* clang-format on */

/** The structure of one file; everything lives in the arena. */
typedef struct {
    const nfy_source *src;
    const nfy_token *toks; /* the tokens it was built from */
    uint32_t ntoks;
#define NFY_PYSYN_FIELD(T, name)                                               \
    const T *name;                                                             \
    uint32_t n##name;
    NFY_PYSYN_ARRAYS(NFY_PYSYN_FIELD)
#undef NFY_PYSYN_FIELD
    /* match[t]: for a bracket token, its partner's index; else NFY_NONE
       (also for unmatched brackets). */
    const uint32_t *match;
    /* tok_stmt[t]: the statement containing token t (NFY_NONE for NL,
       COMMENT, INDENT, DEDENT, ENDMARKER between statements). */
    const uint32_t *tok_stmt;
    uint32_t main_guard; /* first top-level if __name__ == "__main__" */
    uint32_t nerrors;    /* syn-* diagnostics reported */
} nfy_pysyn;

/**
 * Build the structure of src from its tokens (as nfy_lex_lex made them; the
 * last token must be ENDMARKER). Everything is allocated in arena and lives
 * as long as it, src and toks. Syntax problems go to diags (may be NULL)
 * with codes "syn-*" and do not stop the work. Uses no recursion, so any
 * nesting depth is fine. Returns NFY_OK, or NFY_ELIMIT for more than
 * 2^32 - 2 tokens. *out is set on NFY_OK only.
 */
NFY_NODISCARD nfy_status nfy_pysyn_parse(const nfy_source *src,
                                         const nfy_tokens *toks,
                                         nfy_arena *arena, nfy_diags *diags,
                                         nfy_pysyn **out);

/**
 * Buffers the front end keeps between files (one per thread, owned by the
 * caller; see nfy_lex_scratch): the token arrays and pysyn's own scratch.
 * Blocks over NFY_LEX_SCRATCH_KEEP bytes are freed after their file.
 */
typedef struct {
    uint8_t *pmatch; /* bracket partners and flags: pmatch_bytes, the
                        block's size (also while a parse has it) */
    size_t pmatch_bytes;
    uint32_t *breaks; /* line ends, breaks_cap long */
    size_t breaks_cap;
} nfy_pysyn_scratch;

typedef struct {
    nfy_lex_scratch lex;
    nfy_pysyn_scratch syn;
} nfy_front_scratch;

void nfy_pysyn_front_scratch_init(nfy_front_scratch *sc);
void nfy_pysyn_front_scratch_release(nfy_front_scratch *sc);

/** nfy_pysyn_parse with sc's scratch arrays; the result is the same. */
NFY_NODISCARD nfy_status nfy_pysyn_parse_reuse(
    const nfy_source *src, const nfy_tokens *toks, nfy_arena *arena,
    nfy_diags *diags, nfy_front_scratch *sc, nfy_pysyn **out);

/* ---- Queries ------------------------------------------------------------- */

/** Text of token t (a view into the source; "" when t is out of range).
    Inline: the passes after pysyn ask for it about once a token. */
static inline nfy_str nfy_pysyn_tok_text(const nfy_pysyn *m, uint32_t t)
{
    if (t >= m->ntoks)
        return (nfy_str){"", 0};
    const nfy_token *k = &m->toks[t];
    return (nfy_str){m->src->data + k->start, k->end - k->start};
}
/** Bytes from the start of token first to the end of token end-1. */
nfy_span nfy_pysyn_range_span(const nfy_pysyn *m, uint32_t first, uint32_t end);
/** Source text of a span. */
nfy_str nfy_pysyn_span_text(const nfy_pysyn *m, nfy_span sp);
/**
 * Text of a name use's chain, first nparts names (0: all), joined by '.'
 * without whitespace or comments; a view into the source when possible,
 * else an arena copy.
 */
nfy_str nfy_pysyn_dotted(const nfy_pysyn *m, nfy_arena *arena,
                         const nfy_name_use *use, uint32_t nparts);
/** Index of the name use whose NAME token is t, or NFY_NONE. */
uint32_t nfy_pysyn_use_at(const nfy_pysyn *m, uint32_t t);
/** Index of the call whose '(' is token t, or NFY_NONE. */
uint32_t nfy_pysyn_call_at(const nfy_pysyn *m, uint32_t lpar);
/** Index of the string group whose first token is t, or NFY_NONE. */
uint32_t nfy_pysyn_string_at(const nfy_pysyn *m, uint32_t t);
/** Argument of call c with keyword name kw, or NFY_NONE. */
uint32_t nfy_pysyn_kwarg(const nfy_pysyn *m, uint32_t call, const char *kw);
/** The pos-th positional argument of call c, or NFY_NONE. */
uint32_t nfy_pysyn_posarg(const nfy_pysyn *m, uint32_t call, uint32_t pos);
/** Is token t the NAME or keyword text kw? */
bool nfy_pysyn_tok_is(const nfy_pysyn *m, uint32_t t, const char *kw);

#endif
