/*
 * Jupyter notebooks (.ipynb, nbformat 4) as convert sees them: the string
 * tokens of each cell's "source" with their byte spans in the file, so a
 * rewrite replaces only the strings it changes and every other byte of
 * the JSON stays as it was (notebook_json.c). Private to src/convert.
 */
#ifndef NPUIFY_CONVERT_NOTEBOOK_H
#define NPUIFY_CONVERT_NOTEBOOK_H

#include "core/core.h"

/* One JSON string token of a cell's source: [start, end) with its quotes. */
typedef struct {
    uint32_t start, end;
    bool ascii;   /* it wrote a non-ASCII character as a \u escape */
    bool lossy;   /* a lone surrogate: decoding changes it, never rewritten */
    uint32_t pos; /* where its decoded text starts in the cells' view */
    uint32_t len; /* decoded bytes */
} nfy_nb_str;

typedef struct {
    uint32_t index; /* 1-based place among all the notebook's cells */
    bool code;      /* cell_type "code" */
    bool array;     /* source is a list of strings (else one string) */
    uint32_t open;  /* the list's '[' (array) */
    size_t first;   /* its strings: strs[first .. first + n) */
    size_t n;
    uint32_t pos, len; /* its text in the view (code cells) */
} nfy_nb_cell;

typedef struct {
    NFY_VEC(nfy_nb_str) strs;
    NFY_VEC(nfy_nb_cell) cells;
    long nbformat;     /* 0 when absent */
    char language[32]; /* the kernel's language ("python"), or "" */
    uint32_t error_at; /* the byte the JSON went wrong at */
    const char *error; /* NULL when the notebook parsed */
} nfy_notebook;

/* Parse data[0..len): the cells and their source strings; on invalid JSON
 * nb->error says why at nb->error_at (cells may be partial). */
void nfy__convert_nb_parse(nfy_notebook *nb, const char *data, size_t len);
void nfy__convert_nb_release(nfy_notebook *nb);

/* Append the decoded text of the JSON string token [start, end) to out. */
nfy_status nfy__convert_nb_decode(const char *data, nfy_nb_str s, nfy_buf *out);
/* The byte of the token that decoded offset off of its text comes from. */
uint32_t nfy__convert_nb_raw_offset(const char *data, nfy_nb_str s,
                                    uint32_t off);
/* Append text as a JSON string, as Python's json.dumps writes it (non-ASCII
 * as \u escapes when ascii). */
nfy_status nfy__convert_nb_encode(nfy_buf *out, const char *text, size_t len,
                                  bool ascii);

#endif
