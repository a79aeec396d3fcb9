/*
 * nfy_prof_read_trace: chrome trace JSON (legacy array or kineto
 * {"traceEvents": [...]}, plain or gzip) to proflog rows, streaming.
 *
 * Passes: a trace needs its ProfilerStep#N windows before its ops can be
 * given a step, and its kernels (written after the CPU ops) before an op's
 * device time is known. When the input can be re-read (regular file,
 * memory) and a raw byte scan finds "ProfilerStep#", "distributedInfo" or
 * a device category, a first parse collects only the windows, the rank and
 * the device time per External id, quietly; the second parse emits rows.
 * Otherwise one parse does both, with what is known so far (pipes, traces
 * without steps or devices).
 *
 * Errors: a grammar error inside the event array is reported with line,
 * column and byte offset, then the reader resynchronises at the next
 * "}, {" boundary and goes on, so one bad event (the legacy writer's
 * unescaped names) costs that event only. Missing or trailing commas
 * between events are accepted with a warning.
 */
#include <stdlib.h>
#include <string.h>

#include "proflog/trace_internal.h"

#define DEFAULT_CAP ((size_t)1 << 20)

typedef enum { PASS_ONLINE, PASS_WINDOWS, PASS_ROWS } pass_kind;

typedef struct {
    nfy_json_lex lx;
    nfy_trace_event ev;
    nfy_trace_rows rows;
    const nfy_proflog_opts *opts;
    const char *path;
    pass_kind pass;
    bool had_array; /* found an event array */
} trace_reader;

static void report(trace_reader *rd, nfy_severity sev, const char *code,
                   uint64_t offset, const char *what)
{
    if (!rd->opts->diags || rd->pass == PASS_WINDOWS)
        return;
    uint64_t line, col;
    nfy_json_lex_where(&rd->lx, offset, &line, &col);
    nfy_diag_add_at(rd->opts->diags, sev, code, rd->path,
                    line > UINT32_MAX ? UINT32_MAX : (uint32_t)line,
                    col > UINT32_MAX ? UINT32_MAX : (uint32_t)col,
                    "%s (byte %llu)", what, (unsigned long long)offset);
}

static void report_lex_error(trace_reader *rd)
{
    const char *msg = rd->lx.error ? rd->lx.error : "invalid JSON";
    report(rd, NFY_SEV_ERROR, "trace-json", rd->lx.tok_offset, msg);
}

static void handle_event(trace_reader *rd)
{
    nfy_trace_event *ev = &rd->ev;
    if (ev->repaired)
        report(rd, NFY_SEV_WARNING, "trace-json-recovered", ev->offset,
               "invalid JSON string kept as written (unescaped quote or "
               "backslash, as the legacy trace writer emits)");
    if (ev->cut)
        report(rd, NFY_SEV_WARNING, "trace-cut", ev->offset,
               "event field longer than the size limit; cut");
    bool marker = nfy__prof_trace_step_number(nfy_buf_view(&ev->name)) >= 0;
    if (marker && rd->pass != PASS_ROWS)
        nfy__prof_trace_rows_window(&rd->rows, ev);
    if (rd->pass != PASS_ROWS && nfy__prof_trace_event_is_device(ev))
        nfy__prof_trace_rows_device(&rd->rows, ev);
    if (rd->pass != PASS_WINDOWS && nfy__prof_trace_event_wanted(ev))
        nfy__prof_trace_rows_event(&rd->rows, ev);
}

/* After an error: find the next event; returns its first token or EOF. */
static nfy_json_tok recover(trace_reader *rd)
{
    report_lex_error(rd);
    if (!nfy_json_lex_resync(&rd->lx)) {
        report(rd, NFY_SEV_WARNING, "trace-json-recovered",
               nfy_json_lex_offset(&rd->lx),
               "no further event after the error; rest of the input ignored");
        return NFY_JT_EOF;
    }
    return nfy_json_lex_next(&rd->lx, 64);
}

/* The token after an element: the next element's first token, RBRACKET
 * or EOF; ERROR (not yet reported) for anything else. */
static nfy_json_tok after_element(trace_reader *rd)
{
    nfy_json_lex *lx = &rd->lx;
    nfy_json_tok t = nfy_json_lex_next(lx, 64);
    if (t == NFY_JT_COMMA) {
        t = nfy_json_lex_next(lx, 64);
        if (t == NFY_JT_RBRACKET)
            report(rd, NFY_SEV_WARNING, "trace-json-recovered", lx->tok_offset,
                   "trailing comma before ']'");
        return t;
    }
    if (t == NFY_JT_LBRACE) {
        report(rd, NFY_SEV_WARNING, "trace-json-recovered", lx->tok_offset,
               "missing ',' between events");
        return t;
    }
    if (t != NFY_JT_RBRACKET && t != NFY_JT_EOF)
        nfy_json_fail(lx, "expected ',' or ']' after an event");
    return t == NFY_JT_ERROR || lx->tok == NFY_JT_ERROR ? NFY_JT_ERROR : t;
}

/* An array element that is valid JSON but no object: reported, skipped. */
static nfy_json_tok skip_element(trace_reader *rd, nfy_json_tok t, int depth)
{
    report(rd, NFY_SEV_ERROR, "trace-json", rd->lx.tok_offset,
           "expected an event object; element skipped");
    if (!nfy_json_skip_value(&rd->lx, t, depth + 1))
        return recover(rd);
    return after_element(rd);
}

/* The event array; its "[" was just read. True when it ends with "]". */
static bool walk_events(trace_reader *rd, int depth)
{
    nfy_json_lex *lx = &rd->lx;
    rd->had_array = true;
    nfy_json_tok t = nfy_json_lex_next(lx, 64);
    while (!rd->rows.stopped) {
        if (t == NFY_JT_RBRACKET)
            return true;
        if (t == NFY_JT_EOF) {
            report(rd, NFY_SEV_ERROR, "trace-truncated",
                   nfy_json_lex_offset(lx),
                   "trace ends inside the event array (cut short?)");
            return false;
        }
        if (t == NFY_JT_LBRACE) {
            nfy__prof_trace_event_reset(&rd->ev);
            if (nfy__prof_trace_event_parse(lx, &rd->ev, depth + 1)) {
                handle_event(rd);
                t = after_element(rd);
            } else {
                t = NFY_JT_ERROR;
            }
        } else if (t != NFY_JT_ERROR && t != NFY_JT_COMMA &&
                   t != NFY_JT_COLON && t != NFY_JT_RBRACE) {
            t = skip_element(rd, t, depth);
        } else {
            nfy_json_fail(lx, "expected an event object");
            t = NFY_JT_ERROR;
        }
        if (t == NFY_JT_ERROR)
            t = recover(rd);
    }
    return false;
}

/* "distributedInfo": {"rank": N, ...}; its "{" was just read. */
static bool read_rank(trace_reader *rd)
{
    nfy_json_lex *lx = &rd->lx;
    nfy_json_tok t = nfy_json_lex_next(lx, 64);
    if (t == NFY_JT_RBRACE)
        return true;
    for (;;) {
        if (t != NFY_JT_STRING)
            return nfy_json_fail(lx, "expected a key string");
        bool is_rank = strcmp(lx->text, "rank") == 0;
        if (nfy_json_lex_next(lx, 0) != NFY_JT_COLON)
            return nfy_json_fail(lx, "expected ':' after key");
        t = nfy_json_lex_next(lx, 64);
        if (is_rank && t == NFY_JT_NUMBER && lx->text[0] != '-' &&
            lx->text_len < 9)
            rd->rows.rank = (int32_t)strtol(lx->text, NULL, 10);
        else if (!nfy_json_skip_value(lx, t, 2))
            return false;
        t = nfy_json_lex_next(lx, 64);
        if (t == NFY_JT_RBRACE)
            return true;
        if (t != NFY_JT_COMMA)
            return nfy_json_fail(lx, "expected ',' or '}' in object");
        t = nfy_json_lex_next(lx, 64);
    }
}

typedef enum { TOP_OTHER, TOP_EVENTS, TOP_DIST } top_key;

/* One member of the top-level object, its key already classified. */
static bool top_member(trace_reader *rd, top_key key)
{
    nfy_json_tok t = nfy_json_lex_next(&rd->lx, 0);
    if (key == TOP_EVENTS && t == NFY_JT_LBRACKET) {
        (void)walk_events(rd, 1);
        return true;
    }
    if (key == TOP_DIST && t == NFY_JT_LBRACE)
        return read_rank(rd);
    return nfy_json_skip_value(&rd->lx, t, 1);
}

/* The kineto object; its "{" was just read. True when it ends with "}". */
static bool walk_object(trace_reader *rd)
{
    nfy_json_lex *lx = &rd->lx;
    nfy_json_tok t = nfy_json_lex_next(lx, 64);
    while (t != NFY_JT_RBRACE && !rd->rows.stopped) {
        if (t != NFY_JT_STRING) {
            nfy_json_fail(lx, "expected a key string");
            report_lex_error(rd);
            return false;
        }
        top_key key = strcmp(lx->text, "traceEvents") == 0       ? TOP_EVENTS
                      : strcmp(lx->text, "distributedInfo") == 0 ? TOP_DIST
                                                                 : TOP_OTHER;
        if (nfy_json_lex_next(lx, 0) != NFY_JT_COLON) {
            nfy_json_fail(lx, "expected ':' after key");
            report_lex_error(rd);
            return false;
        }
        if (!top_member(rd, key)) {
            report_lex_error(rd);
            return false;
        }
        if (rd->rows.stopped)
            return false;
        t = nfy_json_lex_next(lx, 64);
        if (t == NFY_JT_COMMA)
            t = nfy_json_lex_next(lx, 64);
        else if (t != NFY_JT_RBRACE) {
            nfy_json_fail(lx, "expected ',' or '}' in the trace object");
            report_lex_error(rd);
            return false;
        }
    }
    return t == NFY_JT_RBRACE;
}

/*
 * After the first document: every further one is read too (cat a.json
 * b.json; gzip members are joined by the input); anything else after the
 * end is reported, never silently dropped.
 */
static void walk_rest(trace_reader *rd)
{
    nfy_json_lex *lx = &rd->lx;
    for (;;) {
        nfy_json_tok t = nfy_json_lex_next(lx, 64);
        if (t == NFY_JT_EOF || rd->rows.stopped)
            return;
        if (t == NFY_JT_LBRACKET ? walk_events(rd, 0)
            : t == NFY_JT_LBRACE ? walk_object(rd)
                                 : false)
            continue;
        if (t == NFY_JT_ERROR && lx->in->status)
            return; /* a read or gzip error: reported by the caller */
        if (t != NFY_JT_LBRACKET && t != NFY_JT_LBRACE)
            report(rd, NFY_SEV_ERROR, "trace-trailing", lx->tok_offset,
                   "data after the end of the trace that is no JSON "
                   "document; ignored");
        return;
    }
}

/* One parse of the whole document. */
static nfy_status walk(trace_reader *rd)
{
    nfy_json_lex *lx = &rd->lx;
    nfy_json_tok t = nfy_json_lex_next(lx, 64);
    bool whole = t == NFY_JT_LBRACKET ? walk_events(rd, 0)
                 : t == NFY_JT_LBRACE ? walk_object(rd)
                                      : false;
    if (whole)
        walk_rest(rd);
    if (!rd->had_array) {
        if (t == NFY_JT_ERROR && lx->in->status)
            return lx->in->status;
        report(rd, NFY_SEV_ERROR, "trace-format", lx->tok_offset,
               "not a chrome trace: expected a JSON array of events or an "
               "object with \"traceEvents\"");
        return NFY_ESYNTAX;
    }
    if (lx->in->status) {
        report(rd, NFY_SEV_ERROR, "trace-io", nfy_json_lex_offset(lx),
               lx->in->gzip ? "read error or corrupt gzip data" : "read error");
        return lx->in->status;
    }
    return NFY_OK;
}

/* Raw scan: does the stream mention step markers or a rank at all? */
static bool needs_first_pass(nfy_json_input *in, unsigned char *buf, size_t cap)
{
    /* No needle starts with a quote: memchr on '"' would stop every few
     * bytes. */
    static const char *const needles[] = {"ProfilerStep#", "distributedInfo",
                                          "kernel\"",      "Kernel\"",
                                          "gpu_memcpy\"",  "gpu_memset\""};
    const size_t keep = 16; /* longest needle, kept across chunks */
    size_t have = 0;
    for (;;) {
        size_t n = nfy_json_input_read(in, buf + have, cap - have);
        if (!n)
            return false;
        have += n;
        nfy_str hay = {(const char *)buf, have};
        for (size_t i = 0; i < sizeof needles / sizeof *needles; i++)
            if (nfy_str_contains(hay, nfy_str_from_cstr(needles[i])))
                return true;
        if (have > keep) {
            memmove(buf, buf + have - keep, keep);
            have = keep;
        }
    }
}

static nfy_status read_input(nfy_json_input *in, const char *path,
                             const nfy_proflog_opts *opts)
{
    trace_reader rd;
    memset(&rd, 0, sizeof rd);
    rd.opts = opts;
    rd.path = path;
    size_t cap = opts->max_line ? opts->max_line : DEFAULT_CAP;
    nfy_json_lex_init(&rd.lx, in, cap);
    nfy__prof_trace_event_init(&rd.ev, cap);
    nfy__prof_trace_rows_init(&rd.rows, opts, cap);
    rd.rows.path = path;

    rd.pass = PASS_ONLINE;
    if (nfy_json_input_rewind(in)) {
        bool first = needs_first_pass(in, rd.lx.buf, rd.lx.cap);
        if (!nfy_json_input_rewind(in))
            first = false;
        if (first) {
            rd.pass = PASS_WINDOWS;
            rd.ev.light = true;
            (void)walk(&rd);
            rd.ev.light = false;
            rd.had_array = false;
            rd.rows.stopped = 0;
            (void)nfy_json_input_rewind(in);
            nfy_json_lex_restart(&rd.lx);
            rd.pass = PASS_ROWS;
        }
    }
    nfy_status st = walk(&rd);
    nfy__prof_trace_rows_flush(&rd.rows);

    nfy__prof_trace_rows_release(&rd.rows);
    nfy__prof_trace_event_release(&rd.ev);
    nfy_json_lex_release(&rd.lx);
    return st;
}

nfy_status nfy_prof_read_trace(const char *path, const nfy_proflog_opts *opts)
{
    const char *shown = opts->path ? opts->path : path;
    nfy_json_input in;
    nfy_status st = nfy_json_input_open(&in, path);
    if (st) {
        if (opts->diags)
            nfy_diag_add_at(opts->diags, NFY_SEV_ERROR, "trace-io", shown, 0, 0,
                            "cannot read trace: %s", nfy_status_str(st));
        return st;
    }
    st = read_input(&in, shown, opts);
    nfy_json_input_close(&in);
    return st;
}

nfy_status nfy__prof_read_trace_mem(const void *data, size_t len,
                                    const nfy_proflog_opts *opts,
                                    size_t max_read)
{
    nfy_json_input in;
    nfy_json_input_mem(&in, data, len);
    in.max_read = max_read;
    nfy_status st = read_input(&in, opts->path ? opts->path : "<memory>", opts);
    nfy_json_input_close(&in);
    return st;
}
