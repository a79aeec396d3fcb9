/*
 * One chrome-trace event object into an nfy_trace_event: name, ph, cat,
 * ts, dur, pid, tid and args "Input Dims" (or "Input dims") rendered as the
 * text tables print shapes, and of args "Call stack" (with_stack frames
 * joined by ";") the first frame in the user's code. Every other member is
 * skipped without being stored, so an event with a megabyte of args costs a
 * scan, not memory.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/htab.h"
#include "proflog/trace_internal.h"

/* Small fields: ph, cat, and pid/tid text. */
#define SMALL_CAP 256

void nfy__prof_trace_event_init(nfy_trace_event *ev, size_t cap)
{
    memset(ev, 0, sizeof *ev);
    nfy_buf_init(&ev->name, cap);
    nfy_buf_init(&ev->shapes, cap);
    nfy_buf_init(&ev->site, cap);
    nfy_buf_init(&ev->cat, SMALL_CAP);
    nfy_buf_init(&ev->ph, SMALL_CAP);
    nfy_buf_init(&ev->pid, SMALL_CAP);
    nfy_buf_init(&ev->tid, SMALL_CAP);
}

void nfy__prof_trace_event_release(nfy_trace_event *ev)
{
    nfy_buf_release(&ev->name);
    nfy_buf_release(&ev->shapes);
    nfy_buf_release(&ev->site);
    nfy_buf_release(&ev->cat);
    nfy_buf_release(&ev->ph);
    nfy_buf_release(&ev->pid);
    nfy_buf_release(&ev->tid);
}

void nfy__prof_trace_event_reset(nfy_trace_event *ev)
{
    nfy_buf_reset(&ev->name);
    nfy_buf_reset(&ev->shapes);
    nfy_buf_reset(&ev->site);
    nfy_buf_reset(&ev->cat);
    nfy_buf_reset(&ev->ph);
    nfy_buf_reset(&ev->pid);
    nfy_buf_reset(&ev->tid);
    ev->ts = ev->dur = 0;
    ev->has_ts = ev->has_dur = ev->has_dims = ev->has_ext = false;
    ev->ext_id = 0;
    ev->cut = ev->repaired = ev->done = false;
}

/* Copy the string just lexed into b, noting cuts and repairs. */
static void keep_text(nfy_json_lex *lx, nfy_trace_event *ev, nfy_buf *b)
{
    nfy_buf_add(b, lx->text, lx->text_len);
    if (lx->text_truncated || b->status)
        ev->cut = true;
    if (lx->repaired)
        ev->repaired = true;
}

static bool string_member(nfy_json_lex *lx, nfy_trace_event *ev, nfy_buf *b)
{
    size_t cap = b->max ? b->max : SMALL_CAP;
    nfy_json_tok t = nfy_json_lex_next(lx, cap);
    if (t == NFY_JT_STRING) {
        keep_text(lx, ev, b);
        return true;
    }
    return nfy_json_skip_value(lx, t, 1);
}

static bool number_member(nfy_json_lex *lx, double *out, bool *has)
{
    nfy_json_tok t = nfy_json_lex_next(lx, 64);
    if (t == NFY_JT_NUMBER || t == NFY_JT_STRING) {
        /* Some writers quote numbers; take them if they parse. */
        char *end;
        double v = strtod(lx->text, &end);
        if (end != lx->text && *end == '\0') {
            *out = v;
            *has = true;
        }
        return true;
    }
    return nfy_json_skip_value(lx, t, 1);
}

/* pid / tid: numbers or strings ("CPU functions"); kept as text. */
static bool id_member(nfy_json_lex *lx, nfy_trace_event *ev, nfy_buf *b)
{
    nfy_json_tok t = nfy_json_lex_next(lx, SMALL_CAP);
    if (t == NFY_JT_NUMBER || t == NFY_JT_STRING) {
        keep_text(lx, ev, b);
        return true;
    }
    return nfy_json_skip_value(lx, t, 1);
}

/* A value we do not keep: scalars are lexed, containers skipped raw (no
 * grammar check inside, which is where the bulk of kineto args lies). */
static bool skip_unneeded(nfy_json_lex *lx, nfy_json_tok t, int depth)
{
    if (t == NFY_JT_LBRACE || t == NFY_JT_LBRACKET)
        return nfy_json_lex_skip_rest(lx);
    return nfy_json_skip_value(lx, t, depth);
}

/* Keys we look at; the lexer's text is overwritten by the colon, so a key
 * is classified before that. */
typedef enum {
    K_OTHER,
    K_NAME,
    K_PH,
    K_CAT,
    K_TS,
    K_DUR,
    K_PID,
    K_TID,
    K_ARGS,
    K_DIMS,
    K_STACK,
    K_EXT
} key_id;

static key_id classify_key(const nfy_json_lex *lx)
{
    static const struct {
        const char *text;
        size_t len;
        key_id id;
    } keys[] = {{"name", 4, K_NAME},        {"ph", 2, K_PH},
                {"cat", 3, K_CAT},          {"ts", 2, K_TS},
                {"dur", 3, K_DUR},          {"pid", 3, K_PID},
                {"tid", 3, K_TID},          {"args", 4, K_ARGS},
                {"Input Dims", 10, K_DIMS}, {"Input dims", 10, K_DIMS},
                {"External id", 11, K_EXT}, {"external id", 11, K_EXT},
                {"Call stack", 10, K_STACK}};
    /* Cheap filter first: this runs for every key of every event. */
    if (lx->text_truncated || lx->text_len > 11 || lx->text_len < 2)
        return K_OTHER;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (keys[i].len == lx->text_len && keys[i].text[0] == lx->text[0] &&
            memcmp(keys[i].text, lx->text, lx->text_len) == 0)
            return keys[i].id;
    return K_OTHER;
}

/* Members of an object, calling member() after each key and colon. */
typedef bool (*member_fn)(nfy_json_lex *lx, nfy_trace_event *ev, int depth,
                          key_id key);

static bool walk_object(nfy_json_lex *lx, nfy_trace_event *ev, int depth,
                        member_fn member)
{
    nfy_json_tok t = nfy_json_lex_next(lx, 64);
    if (t == NFY_JT_RBRACE)
        return true;
    for (;;) {
        if (t != NFY_JT_STRING)
            return nfy_json_fail(lx, "expected a key string");
        if (lx->repaired)
            ev->repaired = true;
        key_id key = classify_key(lx);
        if (nfy_json_lex_next(lx, 0) != NFY_JT_COLON)
            return nfy_json_fail(lx, "expected ':' after key");
        if (!member(lx, ev, depth, key))
            return false;
        if (ev->done)
            return true;
        t = nfy_json_lex_next(lx, 0);
        if (t == NFY_JT_RBRACE)
            return true;
        if (t != NFY_JT_COMMA)
            return nfy_json_fail(lx, "expected ',' or '}' in object");
        t = nfy_json_lex_next(lx, 64);
    }
}

static bool args_member(nfy_json_lex *lx, nfy_trace_event *ev, int depth,
                        key_id k)
{
    /* frames past the first few kilobytes are the script's outer ones */
    nfy_json_tok t = nfy_json_lex_next(lx, k == K_STACK ? 4096 : 256);
    if (k == K_EXT && t == NFY_JT_NUMBER) {
        char *end;
        long long v = strtoll(lx->text, &end, 10);
        ev->has_ext = *end == '\0';
        ev->ext_id = v;
        return true;
    }
    if (k == K_STACK && t == NFY_JT_STRING) {
        nfy_str frames = {lx->text, lx->text_len};
        while (lx->text_truncated && frames.len &&
               frames.ptr[frames.len - 1] != ';')
            frames.len--; /* a frame cut by the cap is no frame */
        nfy_str user = nfy_prof_first_user_frame(frames, ';');
        nfy_buf_reset(&ev->site);
        nfy_buf_addview(&ev->site, user);
        return true;
    }
    if (k == K_DIMS && t == NFY_JT_LBRACKET) {
        nfy_buf_reset(&ev->shapes);
        bool ok = nfy_json_render_list(lx, t, depth + 1, &ev->shapes);
        if (ev->shapes.status)
            ev->cut = true;
        ev->has_dims = ok;
        return ok;
    }
    return skip_unneeded(lx, t, depth + 1);
}

static bool event_member(nfy_json_lex *lx, nfy_trace_event *ev, int depth,
                         key_id key)
{
    switch (key) {
    case K_NAME:
        if (!string_member(lx, ev, &ev->name))
            return false;
        /* The first pass needs step markers and device work only (their
         * "cat" comes before "name" in kineto): skip the rest raw. */
        if (ev->light && !nfy__prof_trace_event_is_device(ev) &&
            nfy__prof_trace_step_number(nfy_buf_view(&ev->name)) < 0) {
            ev->done = true;
            return nfy_json_lex_skip_rest(lx);
        }
        return true;
    case K_PH:
        return string_member(lx, ev, &ev->ph);
    case K_CAT:
        return string_member(lx, ev, &ev->cat);
    case K_TS:
        return number_member(lx, &ev->ts, &ev->has_ts);
    case K_DUR:
        return number_member(lx, &ev->dur, &ev->has_dur);
    case K_PID:
        return id_member(lx, ev, &ev->pid);
    case K_TID:
        return id_member(lx, ev, &ev->tid);
    case K_ARGS: {
        nfy_json_tok t = nfy_json_lex_next(lx, 0);
        if (t != NFY_JT_LBRACE)
            return nfy_json_skip_value(lx, t, depth + 1);
        return walk_object(lx, ev, depth + 1, args_member);
    }
    default:
        return skip_unneeded(lx, nfy_json_lex_next(lx, 0), depth + 1);
    }
}

bool nfy__prof_trace_event_parse(nfy_json_lex *lx, nfy_trace_event *ev,
                                 int depth)
{
    ev->offset = lx->tok_offset;
    return walk_object(lx, ev, depth, event_member);
}

static bool category_in(nfy_str cat, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cat.len == strlen(list[i]) &&
            strncasecmp(cat.ptr, list[i], cat.len) == 0)
            return true;
    return false;
}

bool nfy__prof_trace_event_is_device(const nfy_trace_event *ev)
{
    static const char *const cats[] = {"kernel", "gpu_memcpy", "gpu_memset",
                                       "memcpy", "memset"};
    return ev->cat.len && category_in(nfy_buf_view(&ev->cat), cats,
                                      sizeof cats / sizeof *cats);
}

bool nfy__prof_trace_event_wanted(const nfy_trace_event *ev)
{
    nfy_str ph = nfy_buf_view(&ev->ph);
    nfy_str cat = nfy_buf_view(&ev->cat);
    if (!ev->name.len || !ev->has_ts)
        return false;
    /* The legacy writer has ph "X" and no cat; complete events only. */
    if (ph.len ? !nfy_str_eq_cstr(ph, "X") : !ev->has_dur)
        return false;
    /* Framework-side events (TensorBoard's list, any case). */
    static const char *const cats[] = {"cpu_op", "operator", "user_annotation"};
    return cat.len == 0 || category_in(cat, cats, sizeof cats / sizeof *cats);
}

int32_t nfy__prof_trace_step_number(nfy_str name)
{
    const nfy_str prefix = NFY_STR_LIT("ProfilerStep#");
    if (!nfy_str_starts_with(name, prefix) || name.len == prefix.len ||
        name.len > prefix.len + 9)
        return -1;
    int32_t n = 0;
    for (size_t i = prefix.len; i < name.len; i++) {
        if (name.ptr[i] < '0' || name.ptr[i] > '9')
            return -1;
        n = n * 10 + (name.ptr[i] - '0');
    }
    return n;
}

uint64_t nfy__prof_trace_pid_key(const nfy_trace_event *ev)
{
    return nfy_str_hash(nfy_buf_view(&ev->pid));
}

uint64_t nfy__prof_trace_thread_key(const nfy_trace_event *ev)
{
    uint64_t h = nfy__prof_trace_pid_key(ev);
    return h ^ (nfy_str_hash(nfy_buf_view(&ev->tid)) * NFY_HASH_GOLDEN +
                (h << 6) + (h >> 2));
}
