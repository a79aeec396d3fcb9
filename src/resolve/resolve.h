/*
 * resolve: binds every name use of a file to a qualified name through its
 * imports and scopes (DESIGN.md section 2).
 *
 * Input is the pysyn structure of one file. For each name use (a dotted
 * chain `a.b.c` starting at a NAME in expression context) resolve finds the
 * binding the first name refers to, following Python's scope rules:
 * function, lambda and comprehension scopes see enclosing function scopes
 * and the module but not class bodies; `global` sends a name to the module,
 * `nonlocal` to the enclosing function, and a name bound inside a function
 * that declared it `global` counts as a module binding. Within one scope
 * the binding in effect is the last one textually before the use, or, when
 * none comes before (a use in a loop, or a module name used inside a
 * function defined earlier), the first one after it. Two refinements keep the
 * common idioms resolved:
 *  - `x = None` (and `except ImportError:` fallbacks of that shape) does not
 *    hide an import of x in the same scope;
 *  - `alias = torch.cuda` (the whole value a dotted chain that resolves)
 *    makes alias an alias of that qualified name;
 *  - `self.attr = torch` in a class, when every assignment to that
 *    attribute in the class stores the same module (or None), makes
 *    `self.attr.cuda.X` resolve to "torch.cuda.X" (src/resolve/selfattr.c).
 * The qualified name of the chain is then the binding's import target plus
 * the rest of the chain: with `import torch as th`, `th.cuda.synchronize`
 * is "torch.cuda.synchronize"; with `from torch.cuda import amp as A`,
 * `A.autocast` is "torch.cuda.amp.autocast".
 *
 * Unknown stays unknown: a parameter, a local variable, a for/with target,
 * a builtin or an unbound name gives kind LOCAL/UNBOUND and an empty
 * qualified name (`model.cuda()`: receiver unknown; the method name is
 * still in the chain for passes that match methods).
 *
 * Ownership: everything is allocated in the caller's arena and lives as long
 * as it and the pysyn structure. Pure computation; no diagnostics.
 */
#ifndef NPUIFY_RESOLVE_H
#define NPUIFY_RESOLVE_H

#include "core/core.h"
#include "pysyn/pysyn.h"

typedef enum {
    NFY_RES_UNBOUND, /* no binding anywhere in reach (builtin, typo...) */
    NFY_RES_LOCAL,   /* bound by something other than an import */
    NFY_RES_IMPORT,  /* bound by an import: qual is known */
    NFY_RES_ALIAS    /* assigned a resolved dotted chain: qual is known */
} nfy_res_kind;

/** "unbound", "local", "import", "alias". */
const char *nfy_resolve_kind_name(nfy_res_kind k);

/**
 * Resolution of one name use. qual is the qualified name of the whole chain
 * (all nparts names of the use) when kind is IMPORT or ALIAS, else empty.
 * head_parts is the number of dotted components of qual that stand for the
 * first NAME of the chain (its import target: 1 for `import torch`, 3 for
 * `from torch.cuda import amp`); component head_parts + i of qual is the
 * (i + 1)-th name of the chain. binding is the binding used (NFY_NONE when
 * unbound); import_name the import name behind it (also through aliases),
 * else NFY_NONE. relative is true for a relative import target (".x"):
 * then qual keeps the leading dots.
 */
typedef struct {
    uint16_t kind; /* nfy_res_kind */
    uint16_t head_parts;
    uint32_t binding;
    uint32_t import_name;
    bool relative;
    nfy_str qual;
} nfy_res;

/** Results for every name use of a file, parallel to syn->uses. */
typedef struct {
    const nfy_pysyn *syn;
    nfy_res *uses; /* syn->nuses entries */
    /* Per binding (all computed): the qualified name it binds (imports,
       aliases) or empty; its component count; the import name behind it. */
    nfy_str *bind_qual;
    uint16_t *bind_head;   /* components of bind_qual */
    uint32_t *bind_import; /* import name behind the binding, or NFY_NONE */
    void *index;           /* private: per-scope name tables */
} nfy_resolution;

/**
 * Resolve every name use of syn. The result lives in arena (scratch is freed
 * before returning). Returns NFY_OK
 * (the only failure mode, out of memory, aborts).
 */
NFY_NODISCARD nfy_status nfy_resolve_resolve(const nfy_pysyn *syn,
                                             nfy_arena *arena,
                                             nfy_resolution **out);

/** The resolution of name use u (u < syn->nuses). Inline: callers ask it
 * for every use. */
static inline const nfy_res *nfy_resolve_use(const nfy_resolution *r,
                                             uint32_t u)
{
    return &r->uses[u];
}

/**
 * The binding that `name` refers to when looked up from scope at token tok,
 * with the rules above, or NFY_NONE.
 */
uint32_t nfy_resolve_lookup(const nfy_resolution *r, uint32_t scope,
                            uint32_t tok, nfy_str name);

/**
 * The bindings of binding b's name in b's scope, b among them, in token
 * order: *n of them (a view into r; b < syn->nbindings).
 */
const uint32_t *nfy_resolve_same_name(const nfy_resolution *r, uint32_t b,
                                      uint32_t *n);

/**
 * Qualified name of the first nparts names of use u's chain (nparts >=1,
 * <= the chain's parts); empty when unknown. A view into qual.
 */
nfy_str nfy_resolve_prefix(const nfy_resolution *r, uint32_t u,
                           uint32_t nparts);

/**
 * Whether the receiver of attribute token attr_tok (the chain up to, not
 * including, that name) is a known import or alias, i.e. a module, class or
 * function from an import rather than a value. False for `model.cuda` and
 * for attributes on calls or subscripts.
 */
bool nfy_resolve_attr_on_import(const nfy_resolution *r, uint32_t attr_tok);

/**
 * Qualified name of the receiver of attribute token attr_tok (the chain up
 * to, not including, that name) when it is a known import or alias; empty
 * otherwise (unknown receiver, call or subscript receiver).
 */
nfy_str nfy_resolve_attr_receiver(const nfy_resolution *r, uint32_t attr_tok);

/**
 * Whether the file imports module (or a submodule of it) anywhere, in any
 * form: `import torch.cuda`, `from torch import nn`, `from torch.cuda.amp
 * import x` all count for "torch"; "torch.cuda" is matched by the last two.
 */
bool nfy_resolve_imports_module(const nfy_resolution *r, const char *module);

/** Component count of a dotted name ("a.b.c" -> 3; "" -> 0). */
uint32_t nfy_resolve_dotted_count(nfy_str s);
/** The first n components of a dotted name (a view). */
nfy_str nfy_resolve_dotted_head(nfy_str s, uint32_t n);

#endif
