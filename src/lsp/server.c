/*
 * The server loop: read messages, answer requests in order, keep the
 * documents, and publish a changed document's diagnostics once the client
 * has been quiet for the debounce time (so a burst of keystrokes costs one
 * conversion).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lsp/lsp_internal.h"

enum {
    ERR_PARSE = -32700,
    ERR_INVALID_REQUEST = -32600,
    ERR_METHOD_NOT_FOUND = -32601,
    ERR_INVALID_PARAMS = -32602,
    ERR_NOT_INITIALIZED = -32002
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void reply(nfy__lsp_server *s, json_t *id, json_t *result)
{
    nfy__lsp_send(&s->io, json_pack("{s:O,s:o}", "id", id, "result", result));
}

static void reply_error(nfy__lsp_server *s, json_t *id, int code,
                        const char *message)
{
    nfy__lsp_send(&s->io,
                  json_pack("{s:O,s:{s:i,s:s}}", "id", id ? id : json_null(),
                            "error", "code", code, "message", message));
}

static void show_message(nfy__lsp_server *s, int type, const char *text)
{
    nfy__lsp_send(&s->io, json_pack("{s:s,s:{s:i,s:o}}", "method",
                                    "window/showMessage", "params", "type",
                                    type, "message", nfy__lsp_string(text)));
}

/* Diagnostics of a config or rule file, told to the user in one message. */
static void tell_diags(nfy__lsp_server *s, const nfy_diags *d)
{
    for (size_t i = 0; i < d->items.len; i++) {
        const nfy_diag *dg = &d->items.items[i];
        nfy_buf b = NFY_BUF_INIT;
        nfy_buf_addf(&b, "npuify: %s:%u:%u: %s[%s]: %s",
                     dg->file ? dg->file : "", dg->line, dg->col + 1,
                     nfy_severity_name(dg->sev), dg->code ? dg->code : "",
                     dg->msg);
        show_message(s, dg->sev == NFY_SEV_ERROR ? 1 : 2, b.data);
        nfy_buf_release(&b);
    }
}

static char *root_of(json_t *params)
{
    json_t *folders = json_object_get(params, "workspaceFolders");
    const char *uri = json_string_value(json_object_get(params, "rootUri"));
    if (!uri && json_array_size(folders))
        uri = json_string_value(
            json_object_get(json_array_get(folders, 0), "uri"));
    if (uri)
        return nfy__lsp_uri_path(uri);
    const char *path = json_string_value(json_object_get(params, "rootPath"));
    return path ? strdup(path) : NULL;
}

/* The project's settings and its custom rules, told if they are broken. */
static void load_project(nfy__lsp_server *s)
{
    nfy_diags d;
    nfy_diags_init(&d);
    if (s->root &&
        nfy_convert_project_config_load(s->root, &s->config, &d) == NFY_OK)
        for (size_t i = 0; i < s->config.nrules; i++)
            if (nfy_rules_load_file(s->rules, s->config.rules[i], &d))
                continue; /* diagnosed: the other files still load */
    tell_diags(s, &d);
    nfy_diags_release(&d);
}

static json_t *capabilities(void)
{
    json_t *c = json_pack("{s:s,s:{s:b,s:i,s:{s:b}},s:{s:[s,s]},s:b}",
                          "positionEncoding", "utf-16", "textDocumentSync",
                          "openClose", 1, "change", 2, "save", "includeText", 0,
                          "codeActionProvider", "codeActionKinds", "quickfix",
                          "source.fixAll.npuify", "hoverProvider", 1);
    json_object_set_new(c, "notebookDocumentSync",
                        json_pack("{s:[{s:s,s:[{s:s}]}]}", "notebookSelector",
                                  "notebook", "jupyter-notebook", "cells",
                                  "language", "python"));
    return c;
}

static void on_initialize(nfy__lsp_server *s, json_t *id, json_t *params)
{
    if (s->initialized) {
        reply_error(s, id, ERR_INVALID_REQUEST, "initialize was sent twice");
        return;
    }
    s->initialized = true;
    s->root = root_of(params);
    load_project(s);
    reply(s, id,
          json_pack("{s:o,s:{s:s,s:s}}", "capabilities", capabilities(),
                    "serverInfo", "name", "npuify", "version", nfy_version()));
}

/* The document's name as convert would give it: relative to the root. */
static char *rel_of(const nfy__lsp_server *s, const char *uri)
{
    char *path = nfy__lsp_uri_path(uri);
    const char *name = path ? path : uri;
    size_t rn = s->root ? strlen(s->root) : 0;
    while (rn > 1 && s->root[rn - 1] == '/')
        rn--;
    const char *rel = NULL;
    if (path && rn && !strncmp(path, s->root, rn) && path[rn] == '/')
        rel = path + rn + 1;
    else {
        const char *slash = strrchr(name, '/');
        rel = slash ? slash + 1 : name;
    }
    char *out = strdup(rel[0] ? rel : "untitled.py");
    free(path);
    if (!out)
        abort();
    return out;
}

static const char *doc_uri(json_t *params)
{
    return json_string_value(
        json_object_get(json_object_get(params, "textDocument"), "uri"));
}

static void on_did_open(nfy__lsp_server *s, json_t *params)
{
    json_t *td = json_object_get(params, "textDocument");
    const char *uri = doc_uri(params);
    json_t *text = json_object_get(td, "text");
    if (!uri || !json_is_string(text))
        return;
    char *rel = rel_of(s, uri);
    nfy__lsp_doc_open(&s->docs, uri, rel, json_string_value(text),
                      json_string_length(text),
                      json_integer_value(json_object_get(td, "version")));
    free(rel);
    s->last_change_ms = now_ms();
}

static void on_did_change(nfy__lsp_server *s, json_t *params)
{
    const char *uri = doc_uri(params);
    nfy__lsp_doc *doc = uri ? nfy__lsp_doc_find(&s->docs, uri) : NULL;
    json_t *changes = json_object_get(params, "contentChanges");
    if (!doc || !json_is_array(changes))
        return;
    size_t i;
    json_t *c;
    json_array_foreach(changes, i, c)
    {
        if (!nfy__lsp_doc_change(doc, c)) {
            show_message(s, 1, "npuify: a malformed text change was ignored");
            break;
        }
    }
    json_t *v =
        json_object_get(json_object_get(params, "textDocument"), "version");
    if (json_is_integer(v))
        doc->version = json_integer_value(v);
    s->last_change_ms = now_ms();
}

void nfy__lsp_forget(nfy__lsp_server *s, const char *uri)
{
    if (!uri || !nfy__lsp_doc_find(&s->docs, uri))
        return;
    nfy__lsp_send(&s->io, json_pack("{s:s,s:{s:s,s:[]}}", "method",
                                    "textDocument/publishDiagnostics", "params",
                                    "uri", uri, "diagnostics"));
    nfy__lsp_doc_close(&s->docs, uri);
}

static void on_did_close(nfy__lsp_server *s, json_t *params)
{
    nfy__lsp_forget(s, doc_uri(params));
}

static void on_document_request(nfy__lsp_server *s, const char *method,
                                json_t *id, json_t *params)
{
    const char *uri = doc_uri(params);
    nfy__lsp_doc *doc = uri ? nfy__lsp_doc_find(&s->docs, uri) : NULL;
    if (!doc) {
        reply_error(s, id, ERR_INVALID_PARAMS, "unknown or missing document");
        return;
    }
    if (!strcmp(method, "textDocument/codeAction"))
        reply(s, id, nfy__lsp_code_actions(s, doc, params));
    else
        reply(s, id, nfy__lsp_hover(s, doc, params));
}

static void on_notification(nfy__lsp_server *s, const char *method,
                            json_t *params)
{
    if (!s->initialized || s->shutdown)
        return; /* notifications before initialize are dropped (3.17) */
    if (!strcmp(method, "textDocument/didOpen"))
        on_did_open(s, params);
    else if (!strcmp(method, "textDocument/didChange"))
        on_did_change(s, params);
    else if (!strcmp(method, "textDocument/didClose"))
        on_did_close(s, params);
    else if (!strcmp(method, "notebookDocument/didOpen"))
        nfy__lsp_notebook_open(s, params);
    else if (!strcmp(method, "notebookDocument/didChange"))
        nfy__lsp_notebook_change(s, params);
    else if (!strcmp(method, "notebookDocument/didClose"))
        nfy__lsp_notebook_close(s, params);
    /* initialized, didSave, $/cancelRequest, others: nothing to do */
}

static void on_request(nfy__lsp_server *s, const char *method, json_t *id,
                       json_t *params)
{
    if (!strcmp(method, "initialize"))
        on_initialize(s, id, params);
    else if (!s->initialized)
        reply_error(s, id, ERR_NOT_INITIALIZED, "initialize first");
    else if (s->shutdown)
        reply_error(s, id, ERR_INVALID_REQUEST, "the server is shut down");
    else if (!strcmp(method, "shutdown")) {
        s->shutdown = true;
        reply(s, id, json_null());
    } else if (!strcmp(method, "textDocument/codeAction") ||
               !strcmp(method, "textDocument/hover"))
        on_document_request(s, method, id, params);
    else
        reply_error(s, id, ERR_METHOD_NOT_FOUND, "method not supported");
}

/* One message; false after `exit`. */
static bool handle(nfy__lsp_server *s, json_t *msg)
{
    json_t *id = json_object_get(msg, "id");
    const char *method = json_string_value(json_object_get(msg, "method"));
    json_t *params = json_object_get(msg, "params");
    if (!json_is_object(msg) || (id && !json_is_integer(id) &&
                                 !json_is_string(id) && !json_is_null(id))) {
        reply_error(s, NULL, ERR_INVALID_REQUEST, "not a JSON-RPC message");
        return true;
    }
    if (!method) { /* a response to a request we never send: ignore */
        if (!id)
            reply_error(s, NULL, ERR_INVALID_REQUEST, "no method");
        return true;
    }
    if (!strcmp(method, "exit"))
        return false;
    if (id)
        on_request(s, method, id, params);
    else
        on_notification(s, method, params);
    return true;
}

static void publish_dirty(nfy__lsp_server *s)
{
    for (size_t i = 0; i < s->docs.docs.len; i++)
        if (s->docs.docs.items[i]->dirty && !s->docs.docs.items[i]->notebook)
            nfy__lsp_diagnose(s, s->docs.docs.items[i]);
    nfy__lsp_notebooks_diagnose(s);
}

static bool any_dirty(const nfy__lsp_server *s)
{
    for (size_t i = 0; i < s->docs.docs.len; i++)
        if (s->docs.docs.items[i]->dirty)
            return true;
    return false;
}

/* How long to wait for input: until the debounce time is over. */
static int wait_ms(const nfy__lsp_server *s)
{
    if (!any_dirty(s))
        return -1;
    int64_t left = s->last_change_ms + s->opts->debounce_ms - now_ms();
    return left > 0 ? (int)left : 0;
}

int nfy_lsp_serve(int in_fd, int out_fd, const nfy_lsp_opts *opts)
{
    nfy__lsp_server s;
    memset(&s, 0, sizeof s);
    s.opts = opts;
    nfy__lsp_io_init(&s.io, in_fd, out_fd);
    nfy_convert_project_config_init(&s.config);
    s.explained = json_object();
    nfy_diags d;
    nfy_diags_init(&d);
    s.rules = nfy_rule_set_new(&d);
    nfy_diags_release(&d);
    bool exited = false;
    while (s.rules && !s.io.broken) {
        json_t *msg = NULL;
        int wait = wait_ms(&s);
        nfy__lsp_read_result r = nfy__lsp_read(&s.io, wait, &msg);
        if (r == NFY__LSP_EOF)
            break;
        if (r == NFY__LSP_BAD)
            reply_error(&s, NULL, ERR_PARSE, "not a JSON message");
        if (r == NFY__LSP_MSG) {
            bool go_on = handle(&s, msg);
            json_decref(msg);
            if (!go_on) {
                exited = true;
                break;
            }
        }
        if (wait_ms(&s) == 0 && !nfy__lsp_input_pending(&s.io))
            publish_dirty(&s);
    }
    int rc = exited && s.shutdown ? NFY_LSP_EXIT_OK : NFY_LSP_EXIT_NO_SHUTDOWN;
    nfy__lsp_notebooks_release(&s);
    nfy__lsp_docs_release(&s.docs);
    nfy_rule_set_free(s.rules);
    nfy_convert_project_config_release(&s.config);
    json_decref(s.explained);
    nfy__lsp_io_release(&s.io);
    free(s.root);
    return rc;
}
