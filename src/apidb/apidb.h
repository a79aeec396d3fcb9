/*
 * apidb: what torch_npu supports, per torch_npu release line.
 *
 * The data are the text files under data/ (each with a '#' source header:
 * repository, path, commit), turned into sorted C tables at build time by
 * tools/gendata.c. Every function here is a pure lookup over static const
 * tables: no allocation (but nfy_apidb_api_lists_index's caller-owned
 * index), no global state, safe from any thread. Returned strings point
 * into those tables and live for the whole program.
 *
 * Versions. A "version" is a torch_npu release line named by the PyTorch
 * minor it targets ("1.11", "2.0", "2.1", ..., "2.13"), oldest first. Each
 * has its own aten/custom operator lists. Other data sets exist only for
 * some versions (torch.npu surface: 1.11 2.1 2.6 2.8 2.12 master;
 * msFmkTransplt API lists: 2.1 2.6 2.7 2.8; Huawei native-API lists: 2.7.1
 * 2.11.0 2.12.0 2.13.0; transfer_to_npu white lists: 1.11 2.1 2.6 master;
 * PyTorch native_functions.yaml: 1.13 2.2 2.4 2.6 2.7 2.9, data/README).
 * A version without its own file uses the nearest OLDER file of that data
 * set; a "master" file serves the versions newer than every numbered file
 * of its set; a version older than every file uses the oldest one. The lookups
 * report which file they used (data_version) so reports can say so.
 *
 * Names. Operator names are accepted as "add", "aten::add",
 * "aten::add.Tensor", "add.Tensor", "torch.ops.aten.add.Tensor",
 * "npu::npu_fusion_attention", "torch.ops.npu.npu_fusion_attention",
 * "torch_npu.npu_fusion_attention"; ".default" means the overload with no
 * name; surrounding blanks are ignored. A name without an overload matches
 * any overload; a name with one matches that overload only. A "known" aten
 * op is one in PyTorch's native_functions.yaml (data/torch/). Python API
 * names are fully qualified ("torch.cuda.synchronize").
 */
#ifndef NPUIFY_APIDB_H
#define NPUIFY_APIDB_H

#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"

/* ---- Versions ---------------------------------------------------------- */

typedef struct {
    const char *name;    /* "2.1": the PyTorch minor this line targets */
    const char *npu_tag; /* torch_npu tag the data come from, e.g.
                            "V7.2.0.1-pytorch2.1.0" */
    bool beta;           /* the tag is a beta (never the default) */
    unsigned index;      /* position in the list, oldest = 0 */
} nfy_apidb_version;

/** Number of shipped versions (>= 1). */
size_t nfy_apidb_version_count(void);
/** Version i, oldest first; NULL when i is out of range. */
const nfy_apidb_version *nfy_apidb_version_at(size_t i);
/** The default target: the newest version whose tag is not a beta. */
const nfy_apidb_version *nfy_apidb_version_default(void);
/**
 * Parse a --torch-version value. Accepts "2.1", "2.1.0", "v2.1.0",
 * "2.1.0rc1", "2.1.0+cpu", "2.1.0a0+git1234" (anything after the patch
 * number that starts with a letter or '+' is ignored), surrounding blanks.
 * Returns NFY_OK and sets *out; NFY_EUSAGE for a malformed string;
 * NFY_ENOENT for a well-formed version that is not shipped (*out = NULL).
 */
NFY_NODISCARD nfy_status nfy_apidb_version_parse(nfy_str text,
                                                 const nfy_apidb_version **out);
/** "1.11, 2.0, 2.1, ..." (shipped versions, for error messages). */
const char *nfy_apidb_version_list(void);

/* ---- aten / npu operators ---------------------------------------------- */

typedef enum {
    NFY_OP_UNKNOWN = 0,  /* not an operator the data know */
    NFY_OP_SUPPORTED,    /* NPU kernel registered (or an npu:: custom op) */
    NFY_OP_CPU_FALLBACK, /* runs on CPU: listed 'tocpu' (1.11/2.0), or, from
                            2.1 on, a known aten op without an NPU kernel
                            (torch_npu's boxed CPU fallback, slow) */
    NFY_OP_UNSUPPORTED,  /* listed 'unsupported' (1.11/2.0), or on 1.11/2.0
                            a known aten op with no kernel and no fallback */
    NFY_OP_COMPOSITE     /* no NPU kernel, but CompositeImplicitAutograd:
                            decomposes into other ops, check those instead */
} nfy_op_status;

/** "unknown", "supported", "cpu-fallback", "unsupported", "composite". */
const char *nfy_apidb_op_status_name(nfy_op_status st);

typedef struct {
    nfy_op_status status;
    bool listed;             /* an explicit entry decided (false: inferred) */
    bool custom;             /* an npu:: custom operator */
    bool is_public;          /* custom op exposed in torch_npu.__all__ */
    bool explicit_composite; /* PyTorch's entry is CompositeExplicitAutograd
                                (not COMPOSITE: its kernel may be
                                backend-specific, e.g. mkldnn_convolution) */
    const char *npu_counterpart;  /* a CUDA/ROCm-only kernel
                                     (cudnn_convolution): the operator that
                                     replaces it on NPU, which decided the
                                     status (data/npu/backend_ops.tsv);
                                     else NULL */
    const char *counterpart_note; /* why / how, or NULL */
    const char *matched;          /* data entry that decided ("add.Tensor"),
                                     NULL when none */
    const char *torch_version;    /* native_functions.yaml table that decided
                                     ("2.6"): the one serving v, or an older
                                     one for an operator it lacks */
} nfy_op_info;

/**
 * Status of operator name for version v (v NULL: the default version).
 * Order of evidence: NPU kernel, 'tocpu' list, 'unsupported' list,
 * CompositeImplicitAutograd in native_functions.yaml, then inference from
 * "known aten op without kernel". Names in other namespaces ("c10d::",
 * "profiler::") are UNKNOWN. info may be NULL.
 */
nfy_op_status nfy_apidb_op_status(const nfy_apidb_version *v, nfy_str name,
                                  nfy_op_info *info);
/** Oldest version where the op has status SUPPORTED, or NULL. */
const nfy_apidb_version *nfy_apidb_op_first_supported(nfy_str name);
/**
 * Oldest version newer than target (NULL: any) where the op has status
 * SUPPORTED, or NULL: the upgrade that would make it run.
 */
const nfy_apidb_version *
nfy_apidb_op_first_supported_after(const nfy_apidb_version *target,
                                   nfy_str name);

/**
 * Known operators whose name starts with prefix, e.g. a profiler name cut
 * to 52 characters, given without its "...". "aten::" and bare names are
 * looked up among PyTorch's operators (the native_functions table serving
 * v) and v's NPU kernels, "npu::" names among v's custom operators; other
 * namespaces and an empty name find nothing. The overloads of an operator
 * count once. Returns the number of distinct operators; when exactly one,
 * *match (may be NULL) receives its name without namespace or overload
 * (a view into static data), else an empty view. v NULL: the default.
 */
size_t nfy_apidb_op_prefix(const nfy_apidb_version *v, nfy_str prefix,
                           nfy_str *match);

/* ---- torch.npu module surface ------------------------------------------ */

/**
 * Whether torch.npu (torch_npu.npu.__all__, which transfer_to_npu copies
 * onto torch.cuda) has attribute attr for v. attr is "synchronize" or a
 * dotted tail "amp.autocast" (only the first component is checked) or a
 * full "torch.npu.X" / "torch.cuda.X" / "torch_npu.npu.X". Submodules such
 * as amp and random are not in __all__ and answer false. *data_version (may
 * be NULL) receives the file used ("2.8").
 */
bool nfy_apidb_npu_module_has(const nfy_apidb_version *v, nfy_str attr,
                              const char **data_version);

/* ---- Python torch APIs ------------------------------------------------- */

typedef enum {
    NFY_API_UNKNOWN = 0, /* in neither list (msFmkTransplt reports torch.*
                            names as "unknown" and ignores the rest) */
    NFY_API_SUPPORTED,
    NFY_API_UNSUPPORTED
} nfy_api_status;

typedef struct {
    nfy_api_status status;
    const char *note;         /* Huawei's restriction/dtype note (Chinese),
                                 NULL when none */
    const char *data_version; /* msFmkTransplt list used ("2.6") */
} nfy_api_info;

/** msFmkTransplt's (PyTorch Analyse) classification of a torch API. */
nfy_api_status nfy_apidb_torch_api(const nfy_apidb_version *v, nfy_str qualname,
                                   nfy_api_info *info);

typedef struct {
    const char *api; /* as listed ("torch.Tensor"), without "(class)" */
    bool is_class;
    const char *npu_name;     /* NPU form ("torch_npu.npu.amp.autocast"), NULL
                                 when the same name */
    const char *products;     /* "A2=Y,A3=Y,950DT=N", NULL when none given */
    char supported;           /* 'Y' somewhere, 'N' nowhere, '?' no table */
    const char *note;         /* restriction note (Chinese), NULL when none */
    const char *data_version; /* list used ("2.12.0") */
} nfy_native_api;

/**
 * Huawei's published native-API support list (newest, most detailed).
 * Returns false when qualname is not listed ("not yet verified").
 */
bool nfy_apidb_native_api(const nfy_apidb_version *v, nfy_str qualname,
                          nfy_native_api *out);

/**
 * Whether qualname ("torch.nn", "torch.Tensor") has members in the torch
 * API lists serving v (msFmkTransplt's two, Huawei's native list): a module
 * or class whose members are judged one by one.
 */
bool nfy_apidb_torch_api_namespace(const nfy_apidb_version *v,
                                   nfy_str qualname);

/**
 * The three torch API lists serving v (msFmkTransplt's two, Huawei's
 * native one), their files chosen once, for a caller that asks about many
 * names (nfy_apidb_api_ask).
 */
typedef struct {
    const nfy_apidb_version *v;         /* never NULL */
    int unsupported, supported, native; /* the files' labels (-1: none) */
    struct nfy__apidb_api_index *index; /* NULL until indexed */
} nfy_apidb_api_lists;

/** The lists serving v (v NULL: the default); nothing allocated. */
void nfy_apidb_api_lists_init(nfy_apidb_api_lists *l,
                              const nfy_apidb_version *v);
/**
 * Hash the lists' names (malloc'd; for a caller about to ask thousands of
 * names): nfy_apidb_api_ask then answers the same without searching.
 */
void nfy_apidb_api_lists_index(nfy_apidb_api_lists *l);
/** Free what nfy_apidb_api_lists_index made (l stays usable, unindexed). */
void nfy_apidb_api_lists_release(nfy_apidb_api_lists *l);

/** What the three lists say about one name, each list searched once. */
typedef struct {
    nfy_api_info msft;     /* nfy_apidb_torch_api's answer */
    bool native_found;     /* nfy_apidb_native_api's answer ... */
    nfy_native_api native; /* ... and its out */
    bool has_members;      /* nfy_apidb_torch_api_namespace's answer
                              (asked only with members set, else false) */
} nfy_apidb_api_answer;

/** The answers of the three functions above for qualname, in one pass
 * over each list; members: also ask whether it has members. */
void nfy_apidb_api_ask(const nfy_apidb_api_lists *l, nfy_str qualname,
                       bool members, nfy_apidb_api_answer *out);

/* ---- torch's own API inventory ----------------------------------------- */

typedef enum {
    NFY_TORCH_NONE = 0, /* not a public torch name of the inventory */
    NFY_TORCH_MODULE,
    NFY_TORCH_CONST, /* a value: torch.pi, torch.channels_last */
    NFY_TORCH_CLASS, /* torch.nn.Parameter, torch.utils.data.DataLoader */
    NFY_TORCH_OP,    /* a C binding of an aten operator (torch.lgamma) */
    NFY_TORCH_CFUNC, /* a C function that is no operator */
    NFY_TORCH_FUNC   /* a Python function */
} nfy_torch_kind;

typedef struct {
    nfy_torch_kind kind;
    const char *ops;           /* backend aten operators its code can reach,
                                  comma-separated ("lgamma,mode"), NULL: none */
    const char *torch_version; /* the inventory used ("1.13") */
} nfy_torch_entry;

/** "class", "Python function", ... ("not in torch's API" for NONE). */
const char *nfy_apidb_torch_kind_name(nfy_torch_kind k);
/**
 * torch's public API inventory (data/torch/api_inventory_v*.tsv) on
 * qualname: false when it does not name it (out->torch_version still
 * says which inventory was asked).
 */
bool nfy_apidb_torch_inventory(nfy_str qualname, nfy_torch_entry *out);

/**
 * English for one of Huawei's restriction notes (the Chinese text as the
 * lists hold it: data/npu/restriction_notes_en.tsv), or NULL when the table
 * has none; *partial (may be NULL): some part is still in Chinese.
 */
const char *nfy_apidb_note_english(nfy_str note, bool *partial);
/* What a list's restriction on an API means for its rename to torch.npu
 * (data/npu/restriction_effects.tsv). */
typedef enum {
    NFY_RESTRICT_ADVICE, /* the rename stays safe; the note is told */
    NFY_RESTRICT_ATTRS,  /* safe when the attribute read is in condition */
    NFY_RESTRICT_MANUAL  /* never renamed by the tool: for a person */
} nfy_restrict_effect;

typedef struct {
    nfy_restrict_effect effect;
    const char *note;      /* the list's note (Chinese) */
    const char *english;   /* its translation, NULL when none */
    const char *list;      /* the list it is from ("2.12.0", "2.8") */
    const char *condition; /* ATTRS: "name,total_memory,..." */
    const char *why;       /* what it means, in English */
} nfy_api_restriction;

/** The restriction Huawei's lists put on qualname for v, read through the
 *  effects table; false when the lists give it none or the table has no
 *  row for it (then its rule's safety stands). */
bool nfy_apidb_api_restriction(const nfy_apidb_version *v, nfy_str qualname,
                               nfy_api_restriction *out);
/** Whether the rename is safe under rs when the call's result is read as
 *  attribute attr (empty: not read as an attribute at the call). */
bool nfy_apidb_restriction_allows(const nfy_api_restriction *rs, nfy_str attr);

/**
 * "A2=Y,A3=N,950DT=N" in words ("Atlas A2 training series: yes, Atlas A3
 * training series: no, Ascend 950DT: no"), written into out (size n);
 * codes it does not know are kept as they are. Returns out.
 */
const char *nfy_apidb_products_english(const char *products, char *out,
                                       size_t n);

/* ---- Whole data sets (db stats / db diff) ------------------------------ */

typedef enum {
    NFY_APIDB_SET_ATEN_OPS,        /* aten ops with an NPU kernel */
    NFY_APIDB_SET_NPU_CUSTOM_OPS,  /* npu:: custom operators */
    NFY_APIDB_SET_API_SUPPORTED,   /* msFmkTransplt supported APIs */
    NFY_APIDB_SET_API_UNSUPPORTED, /* msFmkTransplt unsupported APIs */
    NFY_APIDB_SET_NATIVE_API,      /* Huawei's native-API list */
    NFY_APIDB_SET_COUNT
} nfy_apidb_set;

/** "aten_ops", "npu_custom_ops", "torch_api_supported", ... */
const char *nfy_apidb_set_name(nfy_apidb_set s);

/** Called once per name of a set; note NULL when the row has none. */
typedef void (*nfy_apidb_row_fn)(void *ctx, const char *name, const char *note);

/**
 * Every distinct name of data set s in the file serving v (v NULL: the
 * default), in sorted order, through fn (may be NULL). Returns the count;
 * *data_version (may be NULL) receives the file's version ("2.1").
 */
size_t nfy_apidb_set_each(const nfy_apidb_version *v, nfy_apidb_set s,
                          nfy_apidb_row_fn fn, void *ctx,
                          const char **data_version);

/* ---- torch_npu's own APIs ---------------------------------------------- */

/**
 * Whether name ("npu_fusion_attention", "torch_npu.npu_rotary_mul",
 * "torch.ops.npu.x", "npu::x", overload optional) is a torch_npu custom
 * operator in v; *is_public (may be NULL) says whether it is exposed in
 * torch_npu.__all__.
 */
bool nfy_apidb_npu_custom_op(const nfy_apidb_version *v, nfy_str name,
                             bool *is_public);
/** Whether qualname is a documented torch_npu API; *beta marks (beta). */
bool nfy_apidb_npu_api_documented(nfy_str qualname, bool *beta);

/* ---- Migration tables -------------------------------------------------- */

typedef struct {
    const char *from;
    const char *to; /* NULL when the source names no counterpart */
} nfy_apidb_pair;

/** msFmkTransplt FuncNameModifyRule renames (torch.cuda.X -> torch_npu.npu.X).
 */
bool nfy_apidb_msft_rename_at(size_t i, nfy_apidb_pair *out);
/** New name for old_name, or NULL. */
const char *nfy_apidb_msft_rename(nfy_str old_name);

typedef struct {
    const char *kind;        /* "function", "class" or "torch" */
    const char *name;        /* user-code name or torch API */
    const char *replacement; /* suggested torch_npu API */
} nfy_apidb_affinity;

/** msFmkTransplt affinity table (1_11_0), in file order. */
bool nfy_apidb_affinity_at(size_t i, nfy_apidb_affinity *out);
/** First affinity entry named name (any kind). */
bool nfy_apidb_affinity_find(nfy_str name, nfy_apidb_affinity *out);

#define NFY_APIDB_RULE_MAX_FIELDS 6
typedef struct {
    const char *kind; /* "ArgsModifyRule", "ReplaceStringRule", ... */
    const char *fields[NFY_APIDB_RULE_MAX_FIELDS];
    size_t nfields; /* columns after kind, as in the tsv */
} nfy_apidb_msft_rule;

/** msFmkTransplt built-in common rules (flattened tsv rows), file order. */
bool nfy_apidb_msft_rule_at(size_t i, nfy_apidb_msft_rule *out);

/**
 * Whether transfer_to_npu rewrites the device arguments of qualname
 * ("torch.zeros", "torch.Tensor.to", "torch.cuda.set_device") in v.
 */
bool nfy_apidb_transfer_wrapped(const nfy_apidb_version *v, nfy_str qualname,
                                const char **data_version);

/** C++ API pairs: from = torch_npu C++ API, to = CUDA API (NULL if none). */
bool nfy_apidb_cpp_api_at(size_t i, nfy_apidb_pair *out);
/** torch_npu C++ API mirroring cuda_api ("c10::cuda::getCurrentCUDAStream"). */
const char *nfy_apidb_cpp_npu_equivalent(nfy_str cuda_api);

#endif /* NPUIFY_APIDB_H */
