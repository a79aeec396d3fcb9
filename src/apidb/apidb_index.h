/* Private to src/apidb: the hash index of the torch API lists
 * (apidb_api_index.c) that nfy_apidb_api_ask reads. */
#ifndef NPUIFY_APIDB_INDEX_H
#define NPUIFY_APIDB_INDEX_H

#include "apidb/apidb_data.h"
#include "core/htab.h"

enum {
    NFY__IDX_UNSUPPORTED,
    NFY__IDX_SUPPORTED,
    NFY__IDX_NATIVE,
    NFY__IDX_COUNT
};

/* A name of a list, or a dotted head of one. */
typedef struct {
    uint32_t key; /* pool offset of a key starting with the name */
    uint32_t len; /* the name's length */
    uint32_t row; /* first row equal to the name with the label, or
                     UINT32_MAX */
    bool members; /* a row with the label starts with the name + "." */
} nfy__apidb_idx_entry;

/* One list's names: entries found by core's table on the name's hash. */
typedef struct {
    NFY_VEC(nfy__apidb_idx_entry) entries;
    nfy_htab names; /* rows of entries */
    bool indexed;   /* false: the list is searched instead */
} nfy__apidb_api_table;

struct nfy__apidb_api_index {
    nfy__apidb_api_table t[NFY__IDX_COUNT];
};

/**
 * From t (list f): *row, the first row equal to key with the indexed
 * label (NULL: none), and *members (when not NULL), whether key has
 * members there. False (nothing set) when t is not indexed.
 */
bool nfy__apidb_index_find(const nfy__apidb_api_table *t,
                           const nfy__apidb_family *f, nfy_str key,
                           const nfy__apidb_row **row, bool *members);

#endif
