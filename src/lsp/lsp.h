/*
 * lsp: the language server behind `npuify lsp` (LSP 3.17 over a pair of
 * file descriptors, JSON-RPC with Content-Length framing). Each open
 * document is converted in memory by the same per-file pipeline as convert
 * (nfy_convert_buffer); its findings become diagnostics, its edits quick
 * fixes, and a torch API under the cursor gets the support data's answer
 * as hover text. Single-threaded: one request at a time, in order.
 */
#ifndef NPUIFY_LSP_H
#define NPUIFY_LSP_H

#include "core/core.h"
#include "rules/rules.h"

/* Markdown for API qualname at torch_version (NULL: the default one), or
 * NULL when there is nothing to say; malloc'd, freed by the server. */
typedef char *(*nfy_lsp_hover_fn)(void *user, const char *qualname,
                                  const char *torch_version);

typedef struct {
    const char *torch_version; /* before the project's config; NULL: newest */
    unsigned debounce_ms;      /* quiet time after a change before its
                                  diagnostics (0: as soon as input pauses) */
    nfy_lsp_hover_fn hover;    /* may be NULL: no hover */
    void *hover_user;
    const char *explain_dir; /* where rule explanations are written for
                                codeDescription links; NULL: none */
} nfy_lsp_opts;

/* Exit codes of a session, as the protocol defines them. */
enum { NFY_LSP_EXIT_OK = 0, NFY_LSP_EXIT_NO_SHUTDOWN = 1 };

/*
 * Serve one client on in_fd/out_fd until it sends `exit` or closes its
 * end. Returns NFY_LSP_EXIT_OK after shutdown then exit, else
 * NFY_LSP_EXIT_NO_SHUTDOWN. Malformed input is answered with JSON-RPC
 * errors, never by stopping.
 */
int nfy_lsp_serve(int in_fd, int out_fd, const nfy_lsp_opts *opts);

#endif
