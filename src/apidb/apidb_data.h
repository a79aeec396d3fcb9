/*
 * The layout of the tables that tools/gendata.c generates from data/ into
 * $(BUILD)/gen/apidb_data.c, and the small internal API over them that the
 * apidb_*.c files share. Private to src/apidb.
 *
 * Every string lives once in one pool (nfy__apidb_pool, NUL-separated) and
 * is referred to by its byte offset. A data set ("family") is one file per
 * data version (aten_ops_v2.1.txt, aten_ops_v2.5.txt, ...) or a single
 * file. Its rows are sorted by key (byte order; file order among equal
 * keys), except for "table" families, which keep file order. Rows whose key
 * and fields are equal in several versions are merged: mask bit i says
 * "present in the family's label i" (labels sorted oldest first, "master"
 * last).
 */
#ifndef NPUIFY_APIDB_DATA_H
#define NPUIFY_APIDB_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apidb/apidb.h"
#include "core/core.h"

/* Must match the order of the family table in tools/gendata.c (a unit test
 * checks the names). */
typedef enum {
    NFY__FAM_ATEN_OPS,        /* aten_ops_v*.txt                       */
    NFY__FAM_ATEN_CPU,        /* aten_cpu_fallback_v*.txt              */
    NFY__FAM_ATEN_UNSUP,      /* aten_unsupported_v*.txt               */
    NFY__FAM_NPU_CUSTOM,      /* npu_custom_ops_v*.txt                 */
    NFY__FAM_NPU_PUBLIC,      /* npu_public_ops_v*.txt                 */
    NFY__FAM_NPU_MODULE,      /* torch_npu_npu_module_v*.txt           */
    NFY__FAM_TRANSFER,        /* transfer_to_npu_device_wrapped_*.txt  */
    NFY__FAM_API_SUPPORTED,   /* torch_api_supported_v*.tsv: note      */
    NFY__FAM_API_UNSUPPORTED, /* torch_api_unsupported_v*.txt          */
    NFY__FAM_NATIVE_API,      /* torch_native_api_support_v*.tsv       */
    NFY__FAM_TORCH_OPS,       /* data/torch/native_functions_v*.tsv    */
    NFY__FAM_NPU_APIS,        /* torch_npu_apis.txt                    */
    NFY__FAM_NPU_APIS_BETA,   /* torch_npu_apis_beta.txt               */
    NFY__FAM_MSFT_RENAME,     /* msfmktransplt_func_rename.tsv         */
    NFY__FAM_AFFINITY,        /* msfmktransplt_affinity_apis.tsv       */
    NFY__FAM_MSFT_RULES,      /* msfmktransplt_common_rules.tsv        */
    NFY__FAM_CPP_APIS,        /* cpp_npu_api_cuda_equivalents.tsv     */
    NFY__FAM_BACKEND_OPS,     /* backend_ops.tsv: counterpart     */
    NFY__FAM_NOTES_EN,        /* restriction_notes_en.tsv: english, how */
    NFY__FAM_EFFECTS,         /* restriction_effects.tsv: effect, cond, why */
    NFY__FAM_TORCH_INVENTORY, /* data/torch/api_inventory_v*.tsv: kind, ops */
    NFY__FAM_COUNT
} nfy__apidb_fam_id;

/* Field positions of the native-API rows (key = api without "(class)"). */
enum {
    NFY__NATIVE_NPU_NAME,
    NFY__NATIVE_PRODUCTS,
    NFY__NATIVE_FLAG,
    NFY__NATIVE_NOTE,
    NFY__NATIVE_IS_CLASS
};

#define NFY__APIDB_MAX_LABELS 32

typedef struct {
    uint32_t key;    /* pool offset */
    uint32_t mask;   /* labels holding this row */
    uint32_t fields; /* index of the first field in nfy__apidb_fields */
    uint32_t nfields;
} nfy__apidb_row;

typedef struct {
    const char *name; /* family id, as in tools/gendata.c */
    bool sorted;
    uint32_t first_row;
    uint32_t nrows;
    uint32_t nlabels;
    uint32_t labels[NFY__APIDB_MAX_LABELS]; /* pool offsets: "2.1", "master" */
} nfy__apidb_family;

extern const char nfy__apidb_pool[];
extern const nfy__apidb_row nfy__apidb_rows[];
extern const uint32_t nfy__apidb_fields[];
extern const nfy__apidb_family nfy__apidb_families[];
extern const size_t nfy__apidb_family_count;
extern const nfy_apidb_version nfy__apidb_versions[];
extern const size_t nfy__apidb_version_count;
extern const char nfy__apidb_version_text[];

/* ---- Shared helpers (apidb_lookup.c) ----------------------------------- */

/** The family's descriptor. */
const nfy__apidb_family *nfy__apidb_fam(nfy__apidb_fam_id f);
/** A pool string by offset. */
const char *nfy__apidb_str(uint32_t off);
/** Field i of row r, or NULL when the row has fewer fields. */
const char *nfy__apidb_field(const nfy__apidb_row *r, uint32_t i);
/** Field i, or NULL when missing, empty or "-". */
const char *nfy__apidb_field_opt(const nfy__apidb_row *r, uint32_t i);

/** Label index of exactly version v in f, or -1. */
int nfy__apidb_label_exact(const nfy__apidb_family *f,
                           const nfy_apidb_version *v);
/**
 * Label of f that serves v: the same major.minor, else the nearest older,
 * else "master" when v is newer than every numbered label, else the oldest.
 * -1 only for an empty family.
 */
int nfy__apidb_label_nearest(const nfy__apidb_family *f,
                             const nfy_apidb_version *v);

/** Sorted family: index of the first row whose key is >= s. */
uint32_t nfy__apidb_lower_bound(const nfy__apidb_family *f, nfy_str s);
/** Whether row r belongs to label (false for label < 0). */
bool nfy__apidb_has_label(const nfy__apidb_row *r, int label);

/**
 * Sorted family: [*first, *end) = rows whose key equals key. Returns the
 * count.
 */
size_t nfy__apidb_find(const nfy__apidb_family *f, nfy_str key, uint32_t *first,
                       uint32_t *end);
/** First row equal to key that has label bit; NULL if none. */
const nfy__apidb_row *nfy__apidb_find_in(const nfy__apidb_family *f,
                                         nfy_str key, int label);
/**
 * Sorted family: first row whose key is base or starts with base + "." and
 * has label bit (any overload of an operator); NULL if none.
 */
const nfy__apidb_row *nfy__apidb_find_base(const nfy__apidb_family *f,
                                           nfy_str base, int label);

/** nfy_apidb_native_api's out for native-API row r (NULL: not listed) of
 * the file named label; returns whether listed. */
bool nfy__apidb_native_of(const nfy__apidb_row *r, const char *label,
                          nfy_native_api *out);

/** The version to use when the caller passed NULL. */
const nfy_apidb_version *nfy__apidb_or_default(const nfy_apidb_version *v);

#endif /* NPUIFY_APIDB_DATA_H */
