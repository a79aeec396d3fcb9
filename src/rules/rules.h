/*
 * npuify rules: the migration rule catalogue as data (DESIGN.md section 3).
 *
 * A rule says WHAT to look for and WHAT to do; the migrate passes say HOW.
 * Each rule has a stable ID ("NPU101"), a kind (what the pass does), a match
 * kind (what the pass looks for, with a pattern), a safety level, texts for
 * the report (message, fix-it hint, before/after example) and kind-specific
 * data (replacement, argument position/keyword, string contexts, a from->to
 * table, version bounds, an option gate).
 *
 * The built-in catalogue (data/rules/rules.json) is embedded into the binary
 * at build time and parsed by the same loader that reads custom rule files,
 * so built-in and custom rules are the same type and go through the same
 * validation. Custom files come in our schema (data/rules/README.md, and the
 * summary at nfy_rules_load_file below) or in msFmkTransplt's
 * {"rules": {"ArgsModifyRule": [...], "FuncNameModifyRule": [...],
 * "ModuleNameModifyRule": [...]}} schema.
 *
 * Ownership: an nfy_rule_set owns every rule and every string in it (one
 * arena); the pointers returned by lookups live as long as the set. Rules are
 * read-only to callers except through nfy_rules_set_enable.
 *
 * How a pass reads a rule, by kind (the authoritative contract):
 *
 *  NFY_RULE_RENAME ("rename-qualified-api")
 *      match NAME:   a reference (call, attribute, decorator, base class,
 *                    `from X import Y` item) whose resolved qualified name
 *                    equals pattern -> replacement (a qualified name).
 *      match MODULE: the qualified name equals pattern or starts with
 *                    pattern + "."; the prefix is replaced by replacement and
 *                    the rest kept (torch.cuda.amp.X -> torch.npu.amp.X).
 *                    Applies to import statements of the module too.
 *      match METHOD: a call `<expr>.P(...)` whose receiver is not a known
 *                    module (so `x.cuda()` matches, `torch.cuda` does not);
 *                    the method name P becomes replacement.
 *      match ATTR:   an attribute `<expr>.P` (called or not) with a receiver
 *                    that is not a known module; P becomes replacement.
 *      With a map (nmap > 0) the pair table is the rename list and pattern
 *      is only a common prefix for quick rejection (may be "").
 *      The pass keeps the user's spelling of the unchanged part (an alias
 *      `th.cuda.X` becomes `th.npu.X`); when the root module differs
 *      (torch.profiler -> torch_npu.profiler) it writes the replacement in
 *      full and the file gets `import torch_npu` through NPU001.
 *      NFY_RULE_F_APIDB: rename only if apidb says the replacement exists for
 *      the target torch version; otherwise report rule `fallback` instead.
 *
 *  NFY_RULE_REWRITE_ARG ("rewrite-argument")
 *      match CALL (pattern = callee qualified name) or METHOD (pattern =
 *      method name on any non-module receiver). The argument is positional
 *      arg_pos (-1: none) or keyword arg_kw (NULL: none), whichever the call
 *      uses. With nctx > 0 (match PASS, pattern a description) the argument
 *      positions come from the ARG and KEYWORD contexts instead, so one rule
 *      covers many callees. replacement is a template: "$ARG" stands for the
 *      argument's source text; NULL with NFY_RULE_F_DELETE removes the
 *      argument (and its comma). The rule applies only when the argument's
 *      source text matches the POSIX ERE `arg_match` (NULL: any) and matches
 *      none of the EREs in `skip` (msFmkTransplt's white_list; both
 *      case-insensitive, compile with REG_EXTENDED|REG_ICASE|REG_NOSUB).
 *      `arg_value`, when set, further restricts the rule to arguments that
 *      are one string literal whose value is exactly arg_value.
 *
 *  NFY_RULE_REWRITE_STRING ("rewrite-string-in-context")
 *      match STRING: a string literal (or the literal text of an f-string, a
 *      %-format or .format() template, or the left operand of `+`) whose
 *      value equals pattern, or, with NFY_RULE_F_DEVICE_FORM, starts with
 *      pattern + ":" ("cuda:0", f"cuda:{i}", "cuda:%d" % i,
 *      "cuda:{}".format(i), "cuda:" + str(i)). Only that leading part is
 *      replaced by replacement; quotes, prefixes and the rest are kept.
 *      The literal must stand in one of the contexts ctx[0..nctx) (below);
 *      other occurrences are left unchanged and listed with the reason.
 *      match ENV: an environment variable name in an env context (Python:
 *      os.environ[...], os.environ.get/setdefault/pop, os.getenv/putenv,
 *      keys of an `env=` dict; shell: `export N=`, `N=... cmd`, `$N`,
 *      `${N}`). pattern is a glob ("NCCL_*"); the map gives from -> to; a
 *      pair with an empty `to` has no counterpart: report, do not rewrite.
 *
 *  NFY_RULE_INSERT_IMPORT ("insert-import")
 *      replacement is the statement to insert ("import torch_npu"). pattern
 *      is the trigger: insert only in files that import this module (or a
 *      submodule), once, right after the first import of it (after
 *      `from __future__`, the module docstring and the encoding line), and
 *      only if the file does not already have the statement.
 *
 *  NFY_RULE_REMOVE_IMPORT ("remove-import")
 *      match IMPORT, pattern = module: delete `import P` / `from P import ..`
 *      (or only P from a multi-name import statement).
 *
 *  NFY_RULE_FLAG ("flag")
 *      Report only, never edit. Any match kind: NAME, MODULE, CALL, METHOD,
 *      ATTR, IMPORT (module or submodule imported; `from numba import cuda`
 *      imports numba.cuda), STRING (+ ctx), KEYWORD (a keyword argument
 *      named pattern in a call to any of the ARG ctx callees, or in any call
 *      when nctx == 0; arg_match restricts its value's source text), FILE
 *      (a file in the tree whose base name matches glob pattern, e.g.
 *      "*.cu|*.cuh") and PASS (a dedicated pass decides, e.g. "project has
 *      no AMP"; pattern names the pass). A map, when present, gives the
 *      suggested replacement per matched name (apex optimizers -> torch_npu
 *      ones); `to` "" means no replacement, note says why.
 *      LINE (flag only): a line of a shell script or Dockerfile, comments
 *      blanked and `\`-continued lines joined, matching the POSIX ERE
 *      pattern (REG_EXTENDED|REG_ICASE); ctx `shell`/`dockerfile` pick the
 *      file kinds (none: both). STRING flags with ctx `shell`/`dockerfile`
 *      are found in those lines too, as literal text.
 *
 * Maps on NAME/CALL/MODULE/IMPORT/METHOD/ATTR rules: the rows' `from`
 * values are the names matched (qualified names, or member names for
 * METHOD/ATTR) and pattern is only a common prefix, for documentation. A row
 * of a MODULE/IMPORT rule matches its name and every dotted name below it
 * (a row equal to pattern is a catch-all); rows of the other kinds match
 * exactly. Names with no row do not match. For ENV rules, a name that fits
 * the glob but has no row is a hit with pair NULL (report: no counterpart
 * known).
 *
 * Several rules may match one place. FLAG rules are additive: each one
 * reports. Among edit rules the most specific wins: for names, the longest
 * matched name (exact beats prefix); for strings, an ARG context naming the
 * callee beats KEYWORD/ASSIGN, which beat COMPARE/ARGPARSE/SHELL/ANY; ties go
 * to the lower ID. nfy_rules_set_lookup returns hits in that order.
 *
 * Dedicated passes (match PASS; pattern = pass name): the pass table
 * (pass_table.h, NFY_PASS_TABLE) is the registry of their names, the rule
 * kind each takes, and whether the pass is built. A rule naming a pass that is
 * not in it, or with another kind, is a load error; a rule of a pass that is
 * not built yet is a "preview" rule: listed as such, never active
 * (nfy_rule_activity).
 *
 * Safety: SAFE edits are applied by default; UNSAFE edits only when the user
 * asks (convert --unsafe, or the rule's option); MANUAL rules never edit.
 * option: when non-NULL, the rule applies only when one of the options in
 * this comma list is on ("distributed", "amp", "auto", "msfmktransplt",
 * "specify_device"); see nfy_rules_option_on. Whether a rule is active in a
 * run (enabled, built, option gate, torch version, safety) is decided by
 * nfy_rule_activity alone, for every file kind.
 *
 * match CALL with a pattern that has no '.' (msFmkTransplt's bare
 * func_name, e.g. "set_device") matches any call whose callee's last name
 * is pattern, whatever the receiver.
 */
#ifndef NPUIFY_RULES_H
#define NPUIFY_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"
#include "rules/pass_table.h"

/* ---- Enumerations (X-macros give enum, name and parser in one place) ----- */

#define NFY_RULE_KIND_MAP(X)                                                   \
    X(RENAME, "rename-qualified-api")                                          \
    X(REWRITE_ARG, "rewrite-argument")                                         \
    X(REWRITE_STRING, "rewrite-string-in-context")                             \
    X(INSERT_IMPORT, "insert-import")                                          \
    X(REMOVE_IMPORT, "remove-import")                                          \
    X(FLAG, "flag")

typedef enum {
#define NFY_RULE_KIND_ENUM(name, text) NFY_RULE_##name,
    NFY_RULE_KIND_MAP(NFY_RULE_KIND_ENUM)
#undef NFY_RULE_KIND_ENUM
        NFY_RULE_KIND_COUNT
} nfy_rule_kind;

#define NFY_MATCH_MAP(X)                                                       \
    X(NAME, "name")       /* resolved qualified name == pattern */             \
    X(MODULE, "module")   /* qualified name == pattern or below it */          \
    X(CALL, "call")       /* call whose callee resolves to pattern */          \
    X(METHOD, "method")   /* <non-module expr>.pattern(...) */                 \
    X(ATTR, "attribute")  /* <non-module expr>.pattern */                      \
    X(IMPORT, "import")   /* import of module pattern or a submodule */        \
    X(STRING, "string")   /* string literal value, in ctx */                   \
    X(ENV, "env")         /* environment variable name, glob */                \
    X(KEYWORD, "keyword") /* keyword argument name in a call */                \
    X(FILE, "file")       /* file base name glob in the tree */                \
    X(PASS, "pass")       /* a dedicated pass decides */                       \
    X(LINE, "line")       /* shell/Dockerfile line matching ERE pattern */

typedef enum {
#define NFY_MATCH_ENUM(name, text) NFY_MATCH_##name,
    NFY_MATCH_MAP(NFY_MATCH_ENUM)
#undef NFY_MATCH_ENUM
        NFY_MATCH_COUNT
} nfy_match_kind;

#define NFY_SAFETY_MAP(X)                                                      \
    X(SAFE, "safe")     /* applied by default */                               \
    X(UNSAFE, "unsafe") /* applied only when asked (a flag) */                 \
    X(MANUAL, "manual") /* report only */

typedef enum {
#define NFY_SAFETY_ENUM(name, text) NFY_SAFETY_##name,
    NFY_SAFETY_MAP(NFY_SAFETY_ENUM)
#undef NFY_SAFETY_ENUM
        NFY_SAFETY_COUNT
} nfy_rule_safety;

/* Category: the hundreds digit of an "NPUnxx" ID; CUSTOM for other IDs. */
#define NFY_RULE_CAT_MAP(X)                                                    \
    X(IMPORT, "import")           /* NPU0xx */                                 \
    X(DEVICE, "device")           /* NPU1xx */                                 \
    X(CUDA_API, "cuda-api")       /* NPU2xx */                                 \
    X(DISTRIBUTED, "distributed") /* NPU3xx */                                 \
    X(AMP, "amp")                 /* NPU4xx */                                 \
    X(MANUAL, "manual")           /* NPU5xx unsupported, manual work */        \
    X(ADVICE, "advice")           /* NPU6xx precision/performance */           \
    X(ANALYSIS, "analysis")       /* NPU7xx assessment (npuify analyse) */     \
    X(CUSTOM, "custom")           /* any other ID */

typedef enum {
#define NFY_RULE_CAT_ENUM(name, text) NFY_RULE_CAT_##name,
    NFY_RULE_CAT_MAP(NFY_RULE_CAT_ENUM)
#undef NFY_RULE_CAT_ENUM
        NFY_RULE_CAT_COUNT
} nfy_rule_category;

/* Where a string literal (or env name) must stand for a rule to apply. */
#define NFY_CTX_MAP(X)                                                         \
    X(ARG, "arg")           /* arg:CALLEE@POS, arg:CALLEE=KW, arg:C@POS=KW */  \
    X(KEYWORD, "kw")        /* kw:NAME - keyword NAME of any call */           \
    X(COMPARE, "compare")   /* operand of == != in / not in (tuple items) */   \
    X(ARGPARSE, "argparse") /* default= / choices= of add_argument */          \
    X(ASSIGN, "assign")     /* assign:GLOB - value bound to a name like */     \
                            /* GLOB (case-insensitive, last component): */     \
                            /* assignment, parameter default, keyword arg, */  \
                            /* dict display key */                             \
    X(SUBSCRIPT, "subscript") /* subscript:NAME - NAME[...] e.g. os.environ */ \
    X(SHELL, "shell")         /* shell scripts (export, assignments, $N) */    \
    X(ANY, "any")             /* any string literal */                         \
    X(DOCKERFILE, "dockerfile") /* Dockerfile/Containerfile instructions */

typedef enum {
#define NFY_CTX_ENUM(name, text) NFY_CTX_##name,
    NFY_CTX_MAP(NFY_CTX_ENUM)
#undef NFY_CTX_ENUM
        NFY_CTX_COUNT
} nfy_rule_ctx_kind;

/* Rule flags (bit set). */
enum nfy_rule_flags {
    NFY_RULE_F_APIDB = 1u << 0,       /* rename only if apidb has the target */
    NFY_RULE_F_DEVICE_FORM = 1u << 1, /* string: also "P:<index>" forms */
    NFY_RULE_F_DELETE = 1u << 2,      /* rewrite-arg: delete the argument */
    NFY_RULE_F_OFF = 1u << 3,         /* disabled unless enabled by name */
    NFY_RULE_F_SUBSTRING = 1u << 4    /* string: replace pattern anywhere */
};

/* ---- Dedicated passes ---------------------------------------------------- */

/* The pass table (pass_table.h): NFY_PASS_<ID> for every pass, generic
 * or dedicated, in run order. */
typedef enum {
    NFY_PASS_NONE = -1, /* the rule does not name a pass */
#define NFY_PASS_ENUM(id, name, kind, state, run, modes, host) NFY_PASS_##id,
    NFY_PASS_TABLE(NFY_PASS_ENUM)
#undef NFY_PASS_ENUM
        NFY_PASS_COUNT
} nfy_pass_id;

typedef enum {
    NFY_PASS_BUILT,  /* the pass runs */
    NFY_PASS_PREVIEW /* named, not built yet: its rules never fire */
} nfy_pass_state;

/** One row of the pass table. */
typedef struct {
    const char *name;
    int kind; /* nfy_rule_kind its rules must have; -1: a generic pass */
    nfy_pass_state state;
    const char *modes; /* "all", "tool" (not --mode auto), "auto" (only) */
    const char *host;  /* who runs it: "migrate", "migrate, in a pass",
                          "migrate, project", "convert", "analyse", "" */
} nfy_pass_info;

/* X(ID, name, state): the convert options a rule's `option` may name.
 * PREVIEW: no command turns the option on yet, so its rules never fire. */
#define NFY_OPTION_MAP(X)                                                      \
    X(AMP, "amp", BUILT)                       /* convert --amp */             \
    X(AUTO, "auto", BUILT)                     /* convert --mode auto */       \
    X(DISTRIBUTED, "distributed", BUILT)       /* convert --distributed */     \
    X(MSFMKTRANSPLT, "msfmktransplt", PREVIEW) /* msFmkTransplt's spellings */ \
    X(SPECIFY_DEVICE, "specify_device", PREVIEW)

/** Whether option `name` is registered; *state receives its state. */
bool nfy_rules_option_known(nfy_str name, nfy_pass_state *state);

/** The row of a pass, or NULL for NFY_PASS_NONE / out of range. */
const nfy_pass_info *nfy_rules_pass_info_of(nfy_pass_id id);
/** The dedicated pass named name (generic passes are not named by rules);
 * NFY_PASS_NONE when there is none. */
nfy_pass_id nfy_rules_pass_parse(nfy_str name);

/* ---- Rule data ----------------------------------------------------------- */

/** One string context: see NFY_CTX_MAP for the spelling in rule files. */
typedef struct {
    nfy_rule_ctx_kind kind;
    const char *name; /* callee / keyword / glob / subscripted name; or NULL */
    int pos;          /* positional index for ARG, -1 when none */
    const char *kw;   /* keyword for ARG, NULL when none */
} nfy_rule_ctx;

/** One row of a rule's from -> to table. */
typedef struct {
    const char *from;
    const char *to;   /* "" when there is no counterpart (report only) */
    const char *note; /* short remark for the report, or NULL */
} nfy_rule_pair;

typedef struct {
    const char *id; /* "NPU101"; unique in a set */
    nfy_rule_kind kind;
    nfy_match_kind match;
    nfy_rule_safety safety;
    nfy_rule_category category;
    nfy_severity severity; /* NOTE advice, WARNING change/risk, ERROR breaks */
    unsigned flags;        /* enum nfy_rule_flags */
    bool enabled;          /* !(flags & OFF) unless changed by the set */
    nfy_pass_id pass;      /* match PASS: the pass named; else NONE */

    const char *pattern;     /* see the kind contract above; never NULL */
    const char *replacement; /* qualified name / template / text; or NULL */
    int arg_pos;             /* rewrite-arg positional index, -1 none */
    const char *arg_kw;      /* rewrite-arg keyword, NULL none */
    const char *arg_match;   /* ERE the argument text must match, or NULL */
    const char *arg_value;   /* only string-literal args with this value */
    const char *skip;        /* "|"-joined POSIX EREs to leave alone, or NULL */
    const char *fallback;    /* rule ID to report when F_APIDB fails, or NULL */
    const char *option;      /* comma list of convert options, or NULL */
    const char *min_torch;   /* "2.1": applies from this torch version, NULL */
    const char *max_torch;   /* applies up to and including, NULL */
    const char *tags;        /* comma list: "precision", "performance", ... */

    const nfy_rule_ctx *ctx; /* string/keyword contexts */
    size_t nctx;
    const nfy_rule_pair *map; /* from -> to table */
    size_t nmap;

    const char *message; /* one line, shown with every finding */
    const char *hint;    /* fix-it hint, one or two sentences */
    const char *before;  /* example code before (may hold newlines) */
    const char *after;   /* example code after, or NULL for report-only */
    const char *fix;     /* a report-only rule: the fix made by hand */
    const char *origin;  /* "builtin" or the file it came from */
} nfy_rule;

/* ---- Names of enumerations ----------------------------------------------- */

const char *nfy_rules_kind_name(nfy_rule_kind k);
const char *nfy_rules_match_kind_name(nfy_match_kind m);
const char *nfy_rules_safety_name(nfy_rule_safety s);
const char *nfy_rules_category_name(nfy_rule_category c);
const char *nfy_rules_ctx_kind_name(nfy_rule_ctx_kind k);
/** Parse the names above; false when unknown. */
bool nfy_rules_kind_parse(nfy_str s, nfy_rule_kind *out);
bool nfy_rules_match_kind_parse(nfy_str s, nfy_match_kind *out);
bool nfy_rules_safety_parse(nfy_str s, nfy_rule_safety *out);
/** Category of an ID: NPU1xx -> DEVICE ...; anything else CUSTOM. */
nfy_rule_category nfy_rules_category_of_id(const char *id);
/** Operation Type column of change_list.csv: INSERT, MODIFY, DELETE,
 * UNSUPPORTED. */
const char *nfy_rules_operation(const nfy_rule *r);

/* ---- Rule sets ----------------------------------------------------------- */

/** An empty set (no built-in rules), for tests and custom-only runs. */
NFY_NODISCARD nfy_rule_set *nfy_rules_set_new_empty(void);

/**
 * nfy_rules_load_file (npuify/npuify.h) adds the rules of a JSON rule file. The
 * format is detected: an object with "rules" holding an ARRAY is our schema;
 * with "rules" holding an OBJECT of rule-class arrays it is msFmkTransplt's.
 * Errors go to diags with file:line:col (JSON syntax errors from the parser;
 * schema errors at the offending key or value, with its key path like
 * rules[3].kind in the message). Duplicate IDs (within the file or against the
 * set), unknown fields, duplicate keys, bad enum values, missing required
 * fields are all errors. On any error no rule of the file is added and
 * NFY_ERULE (or NFY_ESYNTAX for malformed JSON, NFY_ENOENT/NFY_EIO for a
 * missing or unreadable file) is returned.
 *
 * Our schema (all keys besides "id", "kind", "match", "pattern", "message"
 * are optional; see data/rules/README.md for the full text):
 *   {"schema": "npuify-rules/1", "comment": "...",
 *    "rules": [{"id": "USR001", "kind": "rename-qualified-api",
 *      "match": "name", "pattern": "mylib.cuda_op", "replacement": "...",
 *      "safety": "safe", "severity": "warning", "message": "...",
 *      "hint": "...", "before": "...", "after": "...",
 *      "arg_pos": 0, "arg_kw": "device", "arg_match": "^[0-9]+$",
 *      "arg_value": "nccl",
 *      "skip": "cpu|int", "delete": false, "device_form": false,
 *      "substring": false, "apidb": false, "fallback": "NPU202",
 *      "default": true, "option": "distributed",
 *      "min_torch": "2.1", "max_torch": null, "tags": "performance",
 *      "ctx": ["arg:torch.device@0", "kw:device", "compare"],
 *      "map": [["from", "to"], ["from2", "", "note"]]}]}
 */
/** As nfy_rules_load_file, from memory; name is used in diagnostics. */
NFY_NODISCARD nfy_status nfy_rules_load_mem(nfy_rule_set *set, const char *name,
                                            const char *text, size_t len,
                                            nfy_diags *diags);

/** The i-th rule in load order (built-ins first, sorted by ID). */
const nfy_rule *nfy_rules_set_at(const nfy_rule_set *set, size_t i);
/** Rule by ID (exact, case-sensitive), or NULL. */
const nfy_rule *nfy_rules_set_find(const nfy_rule_set *set, const char *id);
/** Turn a rule on or off; NFY_ENOENT if there is no such ID. */
nfy_status nfy_rules_set_enable(nfy_rule_set *set, const char *id, bool on);

/**
 * Iterate rules, optionally filtered. kind/match < 0 mean any; disabled
 * rules are skipped unless include_disabled.
 *   nfy_rule_iter it; nfy_rules_iter_init(&it, set, NFY_RULE_RENAME, -1);
 *   for (const nfy_rule *r; (r = nfy_rules_iter_next(&it));) ...
 */
typedef struct {
    const nfy_rule_set *set;
    size_t next;
    int kind;
    int match;
    bool include_disabled;
    bool chained; /* next walks the kind's chain (set at init) */
} nfy_rule_iter;

void nfy_rules_iter_init(nfy_rule_iter *it, const nfy_rule_set *set, int kind,
                         int match);
const nfy_rule *nfy_rules_iter_next(nfy_rule_iter *it);

/* ---- Lookup for passes --------------------------------------------------- */

/**
 * Lookup spaces: what kind of key is being looked up.
 *  QUALNAME: a resolved qualified name ("torch.cuda.amp.autocast"); finds
 *            NAME, CALL, IMPORT rules (exact pattern or map row) and MODULE
 *            rules (pattern or map row equal to the name or a dotted prefix
 *            of it). The caller keeps the hits that fit the syntactic place
 *            (a call site: NAME/MODULE/CALL; an import: MODULE/IMPORT/NAME).
 *            INSERT_IMPORT rules are never returned (iterate them by kind).
 *  MEMBER:   an attribute or method name ("cuda", "is_cuda", "double");
 *            finds METHOD and ATTR rules.
 *  KEYWORD:  a keyword-argument name; finds KEYWORD rules.
 *  STRING:   a string literal's value; finds STRING rules whose pattern
 *            equals it, or (F_DEVICE_FORM) is followed by ':' in it, or
 *            (F_SUBSTRING) occurs in it. The caller checks the contexts.
 *  ENV:      an environment variable name; finds ENV rules by glob/map.
 *  FILE:     a file base name; finds FILE rules by glob.
 * Only enabled rules are returned. Thread-safe for concurrent lookups as
 * long as nobody loads files or enables rules meanwhile.
 */
typedef enum {
    NFY_LOOKUP_QUALNAME,
    NFY_LOOKUP_MEMBER,
    NFY_LOOKUP_KEYWORD,
    NFY_LOOKUP_STRING,
    NFY_LOOKUP_ENV,
    NFY_LOOKUP_FILE
} nfy_lookup_space;

/** One lookup result. */
typedef struct {
    const nfy_rule *rule;
    const nfy_rule_pair *pair; /* the map row that matched, or NULL */
    size_t matched_len;        /* bytes of the key the pattern/row covered */
} nfy_rule_hit;

/**
 * All enabled rules matching key in a space, best first (see the
 * precedence paragraph at the top; FLAG rules after edit rules of the same
 * length). Writes at most max hits and returns how many there are in all.
 */
size_t nfy_rules_set_lookup(const nfy_rule_set *set, nfy_lookup_space space,
                            nfy_str key, nfy_rule_hit *hits, size_t max);
/** The map row whose from equals key, or NULL. */
const nfy_rule_pair *nfy_rules_map_find(const nfy_rule *r, nfy_str key);
/**
 * Glob match: '*' any run, '?' one byte, '|' separates alternatives
 * ("*.cu|*.cuh"). Case-sensitive; the _nocase form folds ASCII case (used
 * for ASSIGN contexts).
 */
bool nfy_rules_glob(const char *glob, nfy_str s);
bool nfy_rules_glob_nocase(const char *glob, nfy_str s);
/** Whether r's comma-separated tags include tag ("precision"). */
bool nfy_rules_has_tag(const nfy_rule *r, const char *tag);
/** Whether a string context list entry applies is the pass's call; this
 * says whether the rule's option gate is open given the enabled options
 * (a NULL-terminated list such as {"distributed", NULL}). */
bool nfy_rules_option_on(const nfy_rule *r, const char *const *options);
/* ---- Activation: the one place that decides -------------------------------
 */

/** What a run allows: its torch version, option names and --unsafe. */
typedef struct nfy_rule_env {
    const char *torch_version; /* canonical, e.g. "2.8"; NULL: newest */
    const char *options[8];    /* option names that are on, NULL-terminated */
    bool unsafe;               /* convert --unsafe */
    bool imports_only;         /* --mode auto: only insert-import rules edit,
                                  the others at most report */
} nfy_rule_env;

typedef enum {
    NFY_RULE_INACTIVE, /* off, preview, option gate closed, torch outside */
    NFY_RULE_REPORTS,  /* active, reports only (manual; unsafe without
                          --unsafe and without its own option; not an
                          import rule under --mode auto) */
    NFY_RULE_EDITS     /* active, its edits are applied */
} nfy_rule_activity;

/**
 * Whether rule r is active in env, and whether it may edit. Every file kind
 * (Python passes, shell scripts, file-name rules) asks this, so a rule
 * behaves the same wherever it matches.
 */
nfy_rule_activity nfy_rules_activity_in(const nfy_rule *r,
                                        const nfy_rule_env *env);
/**
 * A rule that cannot fire yet (shown as "preview"): its pass is not built,
 * or no option of its `option` list can be turned on. Writes the reason
 * ("pass 'ddp-rewrite' is not built yet") into why when non-NULL.
 */
bool nfy_rules_preview_why(const nfy_rule *r, nfy_buf *why);
bool nfy_rules_is_preview(const nfy_rule *r);

/**
 * Whether a rule applies to torch version ver ("2.1", "2.6.0"); NULL or ""
 * means the newest: only max_torch-bounded rules are excluded then.
 */
bool nfy_rules_applies_to_torch(const nfy_rule *r, const char *ver);
/** Compare dotted versions numerically ("2.10" > "2.9"); <0, 0, >0. */
int nfy_rules_version_cmp(const char *a, const char *b);

/* ---- Rendering (for `npuify rules`) -------------------------------------- */

/**
 * Aligned table: ID, kind, safety, message; one line per rule. kind < 0:
 * every kind. Disabled rules are shown with "[off]" when include_disabled.
 */
void nfy_rules_render_table(const nfy_rule_set *set, int kind,
                            bool include_disabled, nfy_buf *out);
/** One rule in full, with its example, as text. */
void nfy_rules_render_explain(const nfy_rule *r, nfy_buf *out);
/** One rule as a JSON object in our schema (round-trips through the loader). */
void nfy_rules_rule_render_json(const nfy_rule *r, nfy_buf *out);
/** {"schema": "npuify-rules/1", "rules": [...]}; kind < 0: every kind. */
void nfy_rules_render_json(const nfy_rule_set *set, int kind,
                           bool include_disabled, nfy_buf *out);

#endif
