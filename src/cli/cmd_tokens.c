/*
 * npuify tokens: the tokenizer's debug view. Prints each token of each file
 * as one JSON line in the format of tools/pytokens.py (which dumps Python's
 * own tokenize module), so the two can be diffed; --roundtrip checks the
 * lossless invariant instead; --stats times the tokenizer alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/opt_table.h"
#include "core/core.h"
#include "pylex/pylex.h"

typedef enum { MODE_DUMP, MODE_ROUNDTRIP, MODE_STATS } tokens_mode;

typedef struct {
    tokens_mode mode;
    bool quiet;       /* no lexer diagnostics on stderr */
    bool many;        /* several files: print {"file": ...} lines */
    const char *list; /* --files-from: one path a line */
    size_t files, failures, bytes, tokens;
    double seconds, warm_seconds; /* first run; best of three */
} tokens_run;

enum tokens_opt { OPT_ROUNDTRIP, OPT_STATS, OPT_QUIET, OPT_FILES_FROM };

/* The options of tokens: its parsing and --help come from this list. */
static const nfy_cli_option tokens_opts[] = {
    {OPT_ROUNDTRIP, NULL, "--roundtrip", NULL,
     "check that the tokens give back every byte;\nexit 1 if not"},
    {OPT_STATS, NULL, "--stats", NULL,
     "only tokenize, then print files, bytes, tokens\n"
     "and MB/s (first run, and warm: best of three)"},
    {OPT_QUIET, "-q", "--quiet", NULL, "do not print lexical diagnostics"},
    {OPT_FILES_FROM, NULL, "--files-from", "LIST",
     "also tokenize the files LIST names, one a line\n"
     "(then the {\"file\": PATH} lines always come)"},
};

static const nfy_cli_command tokens_cmd = {
    "tokens",
    "usage: npuify tokens [--roundtrip | --stats] [--quiet] FILE...\n",
    "Print every token as a JSON line: {\"type\": ..., \"string\": ...,\n"
    "\"start\": [LINE, COL], \"end\": [LINE, COL]} (as tools/pytokens.py\n"
    "prints Python's tokenize; no ENCODING). With several files a\n"
    "{\"file\": PATH} line comes first.\n",
    tokens_opts,
    sizeof tokens_opts / sizeof tokens_opts[0],
    "Exit: 0 ok, 1 round-trip failure, 2 usage, 3 unreadable file.\n"};

static void dump_tokens(const nfy_source *src, const nfy_tokens *t,
                        nfy_buf *out)
{
    for (size_t i = 0; i < t->toks.len; i++) {
        const nfy_token *tok = &t->toks.items[i];
        nfy_buf_addstr(out, "{\"type\": \"");
        nfy_buf_addstr(out, nfy_lex_tok_kind_name((nfy_tok_kind)tok->kind));
        nfy_buf_addstr(out, "\", \"string\": ");
        nfy_str text = nfy_lex_token_text(src, tok);
        nfy_json_escape(out, text.ptr, text.len);
        nfy_buf_addf(out, ", \"start\": [%u, %u], \"end\": [%u, %u]}\n",
                     tok->line, tok->col, tok->end_line, tok->end_col);
    }
}

/* Rebuild the bytes from the tokens and compare: the invariant itself. */
static bool roundtrip_ok(const nfy_source *src, const nfy_tokens *t,
                         uint32_t *bad)
{
    if (!nfy_lex_tokens_lossless(src, t, bad))
        return false;
    nfy_buf b = NFY_BUF_INIT;
    for (size_t i = 0; i < t->toks.len; i++) {
        const nfy_token *tok = &t->toks.items[i];
        nfy_buf_add(&b, src->data + tok->trivia_start,
                    tok->end - tok->trivia_start);
    }
    bool same =
        b.len == src->len && (!b.len || !memcmp(b.data, src->data, b.len));
    nfy_buf_release(&b);
    *bad = 0;
    return same;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void file_line(const char *path, nfy_buf *out)
{
    nfy_buf_addstr(out, "{\"file\": ");
    nfy_json_escape(out, path, strlen(path));
    nfy_buf_addstr(out, "}\n");
}

/* Returns false when the file could not be read. */
static bool one_file(tokens_run *run, const char *path, nfy_tokens *toks,
                     nfy_buf *out)
{
    nfy_source src;
    nfy_status st = nfy_source_load(&src, path, 0);
    if (run->mode == MODE_DUMP && run->many)
        file_line(path, out);
    if (st) {
        fprintf(stderr, "%s: error[tokens-read]: %s\n", path,
                nfy_status_str(st));
        return false;
    }
    nfy_diags diags;
    nfy_diags_init(&diags);
    double t0 = now_seconds();
    st = nfy_lex_lex(&src, toks, &diags);
    double cold = now_seconds() - t0, warm = cold;
    for (int rep = 0; run->mode == MODE_STATS && rep < 2; rep++) {
        t0 = now_seconds(); /* again, with the token array already grown */
        (void)nfy_lex_lex(&src, toks, NULL);
        double dt = now_seconds() - t0;
        warm = dt < warm ? dt : warm;
    }
    run->seconds += cold;
    run->warm_seconds += warm;
    run->files++;
    run->bytes += src.len;
    run->tokens += toks->toks.len;
    uint32_t bad = 0;
    if (st) {
        fprintf(stderr, "%s: error[tokens-read]: %s\n", path,
                nfy_status_str(st));
    } else if (run->mode == MODE_DUMP) {
        dump_tokens(&src, toks, out);
    } else if (run->mode == MODE_ROUNDTRIP && !roundtrip_ok(&src, toks, &bad)) {
        run->failures++;
        nfy_buf_addf(out, "roundtrip FAILED: %s (at byte %u)\n", path, bad);
    }
    if (!run->quiet && run->mode != MODE_STATS)
        nfy_cli_print_diags(&diags, false, false);
    nfy_diags_release(&diags);
    nfy_source_release(&src);
    return st != NFY_ELIMIT;
}

static void flush_out(nfy_buf *out)
{
    if (out->len) {
        fwrite(out->data, 1, out->len, stdout);
        nfy_buf_reset(out);
    }
}

/* Each line of run->list names a file; false if any was unreadable. */
static bool files_from(tokens_run *run, nfy_tokens *toks, nfy_buf *out)
{
    nfy_buf list = NFY_BUF_INIT;
    nfy_status st = nfy_file_read(run->list, NFY_SOURCE_MAX_BYTES, &list);
    if (st) {
        fprintf(stderr, "%s: error[tokens-read]: %s\n", run->list,
                nfy_status_str(st));
        nfy_buf_release(&list);
        return false;
    }
    bool ok = true;
    char *line = list.data;
    char *end = list.data + list.len;
    while (line && line < end) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        if (nl)
            *nl = '\0';
        if (*line)
            ok &= one_file(run, line, toks, out);
        flush_out(out);
        line = nl ? nl + 1 : NULL;
    }
    nfy_buf_release(&list);
    return ok;
}

/* One option of tokens into run. */
static void set_option(void *ctx, int id, const char *val)
{
    tokens_run *run = ctx;
    switch (id) {
    case OPT_ROUNDTRIP:
        run->mode = MODE_ROUNDTRIP;
        break;
    case OPT_STATS:
        run->mode = MODE_STATS;
        break;
    case OPT_QUIET:
        run->quiet = true;
        break;
    case OPT_FILES_FROM:
        run->list = val;
        break;
    }
}

int nfy_cli_cmd_tokens(int argc, char **argv)
{
    tokens_run run;
    memset(&run, 0, sizeof run);
    const char **files;
    int nfiles;
    int rc = nfy_cli_parse_files(&tokens_cmd, argc, argv, set_option, &run,
                                 &files, &nfiles);
    if (rc >= 0)
        return rc;
    if (nfiles == 0 && !run.list) {
        free(files);
        return nfy_cli_usage_error("tokens", "no input file");
    }
    run.many = nfiles > 1 || run.list;
    nfy_tokens toks;
    nfy_lex_tokens_init(&toks);
    nfy_buf out = NFY_BUF_INIT;
    bool unreadable = false;
    for (int i = 0; i < nfiles; i++) {
        unreadable |= !one_file(&run, files[i], &toks, &out);
        flush_out(&out);
    }
    if (run.list)
        unreadable |= !files_from(&run, &toks, &out);
    free(files);
    nfy_buf_release(&out);
    nfy_lex_tokens_release(&toks);
    if (run.mode == MODE_ROUNDTRIP)
        printf("roundtrip: %zu %s, %zu failed\n", run.files,
               nfy_plural(run.files, "file", "files"), run.failures);
    if (run.mode == MODE_STATS)
        printf("%zu %s, %zu bytes, %zu tokens, %.3f s, %.1f MB/s "
               "(warm: %.3f s, %.1f MB/s)\n",
               run.files, nfy_plural(run.files, "file", "files"), run.bytes,
               run.tokens, run.seconds,
               run.seconds > 0 ? (double)run.bytes / 1e6 / run.seconds : 0.0,
               run.warm_seconds,
               run.warm_seconds > 0 ? (double)run.bytes / 1e6 / run.warm_seconds
                                    : 0.0);
    if (fflush(stdout) != 0)
        return NFY_EXIT_INTERNAL;
    if (unreadable)
        return NFY_EXIT_INPUT;
    return run.failures ? NFY_EXIT_FINDINGS : NFY_EXIT_OK;
}
