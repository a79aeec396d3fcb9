/* Internal to src/lsp: transport, documents, findings, the handlers. */
#ifndef NPUIFY_LSP_INTERNAL_H
#define NPUIFY_LSP_INTERNAL_H

#include <jansson.h>

#include "convert/project_config.h"
#include "lsp/lsp.h"
#include "report/report.h"

/* ---- transport (rpc.c) ---- */

enum { NFY__LSP_MAX_MESSAGE = 64 << 20 };

typedef struct {
    int in_fd, out_fd;
    char *buf; /* unread input */
    size_t len, cap;
    bool eof;
    bool broken; /* a write failed: the client is gone */
} nfy__lsp_io;

typedef enum {
    NFY__LSP_MSG,     /* *msg set */
    NFY__LSP_BAD,     /* a message that is not JSON (answer -32700) */
    NFY__LSP_TIMEOUT, /* nothing arrived in time */
    NFY__LSP_EOF      /* the client closed its end */
} nfy__lsp_read_result;

void nfy__lsp_io_init(nfy__lsp_io *io, int in_fd, int out_fd);
void nfy__lsp_io_release(nfy__lsp_io *io);
/* The next message; timeout_ms < 0 waits as long as it takes. */
nfy__lsp_read_result nfy__lsp_read(nfy__lsp_io *io, int timeout_ms,
                                   json_t **msg);
/* True when a whole message is buffered or more input is waiting. */
bool nfy__lsp_input_pending(nfy__lsp_io *io);
/* Send msg (consumed). */
void nfy__lsp_send(nfy__lsp_io *io, json_t *msg);
/* Send a message already serialised (its "jsonrpc" member included). */
void nfy__lsp_send_text(nfy__lsp_io *io, const char *body, size_t len);

/* ---- positions (text.c) ---- */

/* Byte offset of LSP position (0-based line, UTF-16 character) in text;
 * positions past a line's end or the text's end clamp to them. */
size_t nfy__lsp_offset(const char *text, size_t len, uint32_t line,
                       uint32_t character);
/* UTF-16 units of the first ncp code points of the line at text[0..). */
uint32_t nfy__lsp_utf16_col(const char *line, size_t len, uint32_t ncp);
typedef struct {
    uint32_t line, character;
} nfy__lsp_pos;

/* Where each line of a text starts (the text is borrowed). */
typedef struct {
    const char *text;
    size_t len;
    NFY_VEC(size_t) starts;
} nfy__lsp_lines;

void nfy__lsp_lines_build(nfy__lsp_lines *l, const char *text, size_t len);
void nfy__lsp_lines_release(nfy__lsp_lines *l);
/* A report position (1-based line, 0-based code-point column) as an LSP
 * one (0-based line, UTF-16 character). */
nfy__lsp_pos nfy__lsp_position(const nfy__lsp_lines *l, uint32_t line1,
                               uint32_t col_cp);
/* A JSON string of s, invalid UTF-8 bytes as U+FFFD (s NULL: json null). */
json_t *nfy__lsp_string(const char *s);

/* ---- documents (docs.c) ---- */

/* One finding of a document's last conversion, in LSP terms. */
typedef struct {
    nfy__lsp_pos start, end; /* the finding's span (an edit's: what it
                                replaces) */
    const char *rule;
    const char *message;
    const char *hint;  /* the rule's, may be NULL */
    const char *after; /* changes: the replacement text */
    const char *value_set_id;
    nfy_rule_safety safety;
    bool change;
    bool import;  /* an edit that adds an import others rely on */
    int severity; /* LSP DiagnosticSeverity */
} nfy__lsp_finding;

typedef struct {
    char *uri;
    char *rel;      /* relative to the root, or the URI's base name */
    char *notebook; /* a notebook cell: the notebook's URI, else NULL */
    nfy_buf text;
    int64_t version;
    bool dirty;
    NFY_VEC(nfy__lsp_finding) findings;
    nfy_arena arena; /* the findings' strings */
} nfy__lsp_doc;

typedef struct {
    NFY_VEC(nfy__lsp_doc *) docs;
} nfy__lsp_docs;

/* An open notebook: its cells in order (URIs; markup cells too). */
typedef struct {
    char *uri;
    char *rel;
    NFY_VEC(char *) cells;
    NFY_VEC(bool) code; /* cells[i] is a code cell */
} nfy__lsp_notebook;

nfy__lsp_doc *nfy__lsp_doc_find(nfy__lsp_docs *d, const char *uri);
nfy__lsp_doc *nfy__lsp_doc_open(nfy__lsp_docs *d, const char *uri,
                                const char *rel, const char *text, size_t len,
                                int64_t version);
void nfy__lsp_doc_close(nfy__lsp_docs *d, const char *uri);
void nfy__lsp_docs_release(nfy__lsp_docs *d);
/* Apply one contentChanges element; false when it is malformed. */
bool nfy__lsp_doc_change(nfy__lsp_doc *doc, json_t *change);
void nfy__lsp_doc_clear_findings(nfy__lsp_doc *doc);

/* ---- the server's state (server.c) ---- */

typedef struct {
    const nfy_lsp_opts *opts;
    nfy__lsp_io io;
    nfy__lsp_docs docs;
    char *root; /* project root (absolute), or NULL */
    nfy_project_config config;
    nfy_rule_set *rules;
    json_t *explained; /* rule id -> explanation URI (false: none) */
    NFY_VEC(nfy__lsp_notebook *) notebooks;
    bool initialized, shutdown;
    int64_t last_change_ms;
} nfy__lsp_server;

/* Close the document uri (if open), clearing its diagnostics first. */
void nfy__lsp_forget(nfy__lsp_server *s, const char *uri);
/* Convert doc, refresh its findings and publish its diagnostics. */
void nfy__lsp_diagnose(nfy__lsp_server *s, nfy__lsp_doc *doc);
/* The building blocks, shared with notebooks (notebook.c): convert text
 * named rel (rep and d initialised here); keep finding f for doc, whose
 * first line is line first_line (0-based) of the converted text; publish
 * doc's findings and the input diagnostics of its lines
 * [first_line, first_line + nlines). */
void nfy__lsp_convert(nfy__lsp_server *s, const char *rel, const char *text,
                      size_t len, nfy_report *rep, nfy_diags *d);
void nfy__lsp_keep_finding(nfy__lsp_server *s, nfy__lsp_doc *doc,
                           const nfy__lsp_lines *lines, uint32_t first_line,
                           const nfy_finding *f);
void nfy__lsp_publish(nfy__lsp_server *s, nfy__lsp_doc *doc,
                      const nfy__lsp_lines *lines, const nfy_diags *d,
                      uint32_t first_line, uint32_t nlines);
/* Notebooks (notebookDocument/...): their cells are documents of the store
 * (doc->notebook names the notebook); all code cells are converted as one
 * module, so an import in one cell serves the others. */
void nfy__lsp_notebook_open(nfy__lsp_server *s, json_t *params);
void nfy__lsp_notebook_change(nfy__lsp_server *s, json_t *params);
void nfy__lsp_notebook_close(nfy__lsp_server *s, json_t *params);
/* Diagnose every notebook with a changed cell. */
void nfy__lsp_notebooks_diagnose(nfy__lsp_server *s);
void nfy__lsp_notebooks_release(nfy__lsp_server *s);
/* The finding's range, and its diagnostic as published (jansson). */
json_t *nfy__lsp_range_json(nfy__lsp_pos start, nfy__lsp_pos end);
json_t *nfy__lsp_finding_diagnostic(nfy__lsp_server *s, const nfy__lsp_doc *doc,
                                    size_t i);
/* textDocument/codeAction's result. */
json_t *nfy__lsp_code_actions(nfy__lsp_server *s, nfy__lsp_doc *doc,
                              json_t *params);
/* textDocument/hover's result (json null when nothing to show). */
json_t *nfy__lsp_hover(nfy__lsp_server *s, nfy__lsp_doc *doc, json_t *params);
/* A file URI's path (percent-decoded, malloc), or NULL for other schemes. */
char *nfy__lsp_uri_path(const char *uri);
/* file:// URI of an absolute path (malloc). */
char *nfy__lsp_path_uri(const char *path);
/* file:// URI of rule id's explanation (written on first use), or NULL. */
char *nfy__lsp_explain_uri(nfy__lsp_server *s, const char *rule);

#endif
