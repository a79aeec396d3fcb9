/*
 * npuify syntax: pysyn's debug view. Prints the structure of each file as
 * JSON lines (statements, scopes, bindings, imports, calls with arguments,
 * strings, with-items, optionally name uses), one object per line with a
 * "type" key, in a stable order, for tests and for eyeballing what the
 * migration passes will see. --stats times tokenize+structure instead.
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
#include "pysyn/pysyn.h"

typedef struct {
    bool uses, stats, quiet, many;
    size_t files, bytes, errors;
    double seconds;
    nfy_front_scratch scratch; /* buffers kept from file to file */
} syntax_run;

enum syntax_opt { OPT_USES, OPT_STATS, OPT_QUIET };

/* The options of syntax: its parsing and --help come from this list. */
static const nfy_cli_option syntax_opts[] = {
    {OPT_USES, NULL, "--uses", NULL,
     "also print every name use with its dotted chain"},
    {OPT_STATS, NULL, "--stats", NULL,
     "only time tokenize+structure; print files,\nbytes, MB/s"},
    {OPT_QUIET, "-q", "--quiet", NULL, "do not print diagnostics"},
};

static const nfy_cli_command syntax_cmd = {
    "syntax",
    "usage: npuify syntax [--uses] [--stats] [--quiet] FILE...\n",
    "Print the structure pysyn finds as JSON lines, each with a \"type\":\n"
    "  stmt     i kind line col parent body_end depth scope flags text\n"
    "           (+ name, decorators, clause_of, value when present)\n"
    "  scope    i kind parent stmt name line\n"
    "  binding  kind name line col scope (+ value, import)\n"
    "  import   stmt line level module flags names[{name as bound target}]\n"
    "  call     i stmt line col callee dotted attr recv_call parent_call "
    "flags\n"
    "           args[{kind name value}]\n"
    "  string   line col ctx text call arg prev next binding param\n"
    "  with     stmt ctx target\n"
    "  use      name line col ctx scope [bind]  (only with --uses)\n"
    "  summary  counts of everything, errors\n"
    "Lines are 1-based, columns 0-based code points, indices 0-based, -1\n"
    "for none. With several files a {\"file\": PATH} line comes first.\n",
    syntax_opts,
    sizeof syntax_opts / sizeof syntax_opts[0],
    "Exit: 0 ok, 2 usage, 3 unreadable file or syntax errors.\n"};

static long idx(uint32_t v)
{
    return v == NFY_NONE ? -1 : (long)v;
}

static void add_text(nfy_buf *out, const char *key, nfy_str s)
{
    nfy_buf_addf(out, ", \"%s\": ", key);
    nfy_json_escape(out, s.ptr, s.len);
}

static void add_range(nfy_buf *out, const nfy_pysyn *m, const char *key,
                      uint32_t first, uint32_t end)
{
    if (first == NFY_NONE || end == NFY_NONE || end <= first)
        return;
    add_text(out, key,
             nfy_pysyn_span_text(m, nfy_pysyn_range_span(m, first, end)));
}

static void add_pos(nfy_buf *out, const nfy_pysyn *m, uint32_t t)
{
    nfy_buf_addf(out, ", \"line\": %u, \"col\": %u", m->toks[t].line,
                 m->toks[t].col);
}

static void dump_stmts(const nfy_pysyn *m, nfy_buf *out)
{
    static const char *const flag_names[] = {
        "compound", "async", "inline", "main_guard", "error", "docstring"};
    for (uint32_t i = 0; i < m->nstmts; i++) {
        const nfy_stmt *s = &m->stmts[i];
        nfy_buf_addf(out, "{\"type\": \"stmt\", \"i\": %u, \"kind\": \"%s\"", i,
                     nfy_pysyn_stmt_kind_name((nfy_stmt_kind)s->kind));
        nfy_buf_addf(out,
                     ", \"line\": %u, \"col\": %u, \"parent\": %ld, "
                     "\"body_end\": %u, \"depth\": %u, \"scope\": %u",
                     s->line, s->col, idx(s->parent), s->body_end, s->depth,
                     s->scope);
        nfy_buf_addstr(out, ", \"flags\": [");
        for (unsigned f = 0, n = 0; f < 6; f++)
            if (s->flags & (1u << f))
                nfy_buf_addf(out, "%s\"%s\"", n++ ? ", " : "", flag_names[f]);
        nfy_buf_addstr(out, "]");
        if (s->name_tok != NFY_NONE)
            add_text(out, "name", nfy_pysyn_tok_text(m, s->name_tok));
        if (s->ndecos)
            nfy_buf_addf(out, ", \"decorators\": [%u, %u]", s->deco_first,
                         s->deco_first + s->ndecos);
        if (s->clause_of != NFY_NONE)
            nfy_buf_addf(out, ", \"clause_of\": %u", s->clause_of);
        add_range(out, m, "value", s->value_first, s->value_end);
        add_text(out, "text", nfy_pysyn_span_text(m, s->span));
        nfy_buf_addstr(out, "}\n");
    }
}

static void dump_scopes(const nfy_pysyn *m, nfy_buf *out)
{
    for (uint32_t i = 0; i < m->nscopes; i++) {
        const nfy_scope *s = &m->scopes[i];
        nfy_buf_addf(out,
                     "{\"type\": \"scope\", \"i\": %u, \"kind\": \"%s\", "
                     "\"parent\": %ld, \"stmt\": %ld",
                     i, nfy_pysyn_scope_kind_name((nfy_scope_kind)s->kind),
                     idx(s->parent), idx(s->stmt));
        if (s->name_tok != NFY_NONE)
            add_text(out, "name", nfy_pysyn_tok_text(m, s->name_tok));
        if (s->first < m->ntoks)
            nfy_buf_addf(out, ", \"line\": %u", m->toks[s->first].line);
        nfy_buf_addstr(out, "}\n");
    }
}

static void dump_bindings(const nfy_pysyn *m, nfy_buf *out)
{
    for (uint32_t i = 0; i < m->nbindings; i++) {
        const nfy_binding *b = &m->bindings[i];
        nfy_buf_addf(out, "{\"type\": \"binding\", \"kind\": \"%s\"",
                     nfy_pysyn_bind_kind_name((nfy_bind_kind)b->kind));
        add_text(out, "name", nfy_pysyn_tok_text(m, b->tok));
        add_pos(out, m, b->tok);
        nfy_buf_addf(out, ", \"scope\": %u", b->scope);
        add_range(out, m, "value", b->value_first, b->value_end);
        if (b->import_name != NFY_NONE)
            add_text(out, "import", m->import_names[b->import_name].target);
        nfy_buf_addstr(out, "}\n");
    }
}

static void dump_imports(const nfy_pysyn *m, nfy_buf *out)
{
    static const char *const flag_names[] = {"from",   "star",    "in_function",
                                             "in_try", "guarded", "error"};
    for (uint32_t i = 0; i < m->nimports; i++) {
        const nfy_import *im = &m->imports[i];
        nfy_buf_addf(out, "{\"type\": \"import\", \"stmt\": %u, \"line\": %u",
                     im->stmt, m->stmts[im->stmt].line);
        nfy_buf_addf(out, ", \"level\": %u", im->level);
        add_text(out, "module", im->module);
        nfy_buf_addstr(out, ", \"flags\": [");
        for (unsigned f = 0, n = 0; f < 6; f++)
            if (im->flags & (1u << f))
                nfy_buf_addf(out, "%s\"%s\"", n++ ? ", " : "", flag_names[f]);
        nfy_buf_addstr(out, "], \"names\": [");
        for (uint32_t k = 0; k < im->nnames; k++) {
            const nfy_import_name *n = &m->import_names[im->names_first + k];
            nfy_buf_addstr(out, k ? ", {\"name\": " : "{\"name\": ");
            nfy_json_escape(out, n->name.ptr, n->name.len);
            add_text(out, "as", n->asname);
            add_text(out, "bound", n->bound);
            add_text(out, "target", n->target);
            nfy_buf_addstr(out, "}");
        }
        nfy_buf_addstr(out, "]}\n");
    }
}

static void dump_args(const nfy_pysyn *m, const nfy_call *c, nfy_buf *out)
{
    nfy_buf_addstr(out, ", \"args\": [");
    for (uint32_t k = 0; k < c->nargs; k++) {
        const nfy_arg *a = &m->args[c->args_first + k];
        nfy_buf_addf(out, "%s{\"kind\": \"%s\"", k ? ", " : "",
                     nfy_pysyn_arg_kind_name((nfy_arg_kind)a->kind));
        if (a->name_tok != NFY_NONE)
            add_text(out, "name", nfy_pysyn_tok_text(m, a->name_tok));
        add_text(out, "value", nfy_pysyn_span_text(m, a->value_span));
        nfy_buf_addstr(out, "}");
    }
    nfy_buf_addstr(out, "]");
}

static void dump_calls(const nfy_pysyn *m, nfy_buf *out)
{
    static const char *const flag_names[] = {"unclosed", "decorator",
                                             "class_bases", "genexp"};
    for (uint32_t i = 0; i < m->ncalls; i++) {
        const nfy_call *c = &m->calls[i];
        nfy_buf_addf(out, "{\"type\": \"call\", \"i\": %u, \"stmt\": %u", i,
                     c->stmt);
        add_pos(out, m, c->callee_first);
        add_range(out, m, "callee", c->callee_first, c->lpar);
        add_text(out, "dotted", c->dotted);
        if (c->attr_tok != NFY_NONE)
            add_text(out, "attr", nfy_pysyn_tok_text(m, c->attr_tok));
        nfy_buf_addf(out, ", \"recv_call\": %ld, \"parent_call\": %ld",
                     idx(c->recv_call), idx(c->parent_call));
        nfy_buf_addstr(out, ", \"flags\": [");
        for (unsigned f = 0, n = 0; f < 4; f++)
            if (c->flags & (1u << f))
                nfy_buf_addf(out, "%s\"%s\"", n++ ? ", " : "", flag_names[f]);
        nfy_buf_addstr(out, "]");
        dump_args(m, c, out);
        nfy_buf_addstr(out, "}\n");
    }
}

static void dump_strings(const nfy_pysyn *m, nfy_buf *out)
{
    for (uint32_t i = 0; i < m->nstrings; i++) {
        const nfy_strlit *s = &m->strings[i];
        nfy_buf_addstr(out, "{\"type\": \"string\"");
        add_pos(out, m, s->first);
        nfy_buf_addf(out, ", \"ctx\": \"%s\"",
                     nfy_pysyn_str_ctx_name((nfy_str_ctx)s->ctx));
        add_text(out, "text", nfy_pysyn_span_text(m, s->span));
        nfy_buf_addf(out, ", \"call\": %ld, \"arg\": %ld", idx(s->call),
                     idx(s->arg));
        if (s->prev_tok != NFY_NONE)
            add_text(out, "prev", nfy_pysyn_tok_text(m, s->prev_tok));
        if (s->next_tok != NFY_NONE)
            add_text(out, "next", nfy_pysyn_tok_text(m, s->next_tok));
        if (s->binding != NFY_NONE)
            add_text(out, "binding",
                     nfy_pysyn_tok_text(m, m->bindings[s->binding].tok));
        if (s->param_tok != NFY_NONE)
            add_text(out, "param", nfy_pysyn_tok_text(m, s->param_tok));
        nfy_buf_addstr(out, "}\n");
    }
}

static void dump_withs_uses(const nfy_pysyn *m, bool uses, nfy_arena *a,
                            nfy_buf *out)
{
    static const char *const ctx_names[] = {"load", "store", "del"};
    for (uint32_t i = 0; i < m->nwith_items; i++) {
        const nfy_with_item *w = &m->with_items[i];
        nfy_buf_addf(out, "{\"type\": \"with\", \"stmt\": %u", w->stmt);
        add_text(out, "ctx", nfy_pysyn_span_text(m, w->ctx_span));
        if (w->target_first != NFY_NONE)
            add_text(out, "target", nfy_pysyn_span_text(m, w->target_span));
        nfy_buf_addstr(out, "}\n");
    }
    for (uint32_t i = 0; uses && i < m->nuses; i++) {
        const nfy_name_use *u = &m->uses[i];
        nfy_buf_addstr(out, "{\"type\": \"use\"");
        add_text(out, "name", nfy_pysyn_dotted(m, a, u, 0));
        add_pos(out, m, u->tok);
        nfy_buf_addf(out, ", \"ctx\": \"%s\", \"scope\": %u",
                     ctx_names[u->ctx % 3], u->scope);
        if (u->binding != NFY_NONE)
            nfy_buf_addf(out, ", \"bind\": \"%s\"",
                         nfy_pysyn_bind_kind_name(
                             (nfy_bind_kind)m->bindings[u->binding].kind));
        nfy_buf_addstr(out, "}\n");
    }
}

static void dump_summary(const nfy_pysyn *m, nfy_buf *out)
{
    nfy_buf_addf(out,
                 "{\"type\": \"summary\", \"tokens\": %u, \"stmts\": %u, "
                 "\"scopes\": %u, \"bindings\": %u, \"uses\": %u, "
                 "\"calls\": %u, \"args\": %u, \"subscripts\": %u, "
                 "\"imports\": %u, \"strings\": %u, \"main_guard\": %ld, "
                 "\"errors\": %u}\n",
                 m->ntoks, m->nstmts, m->nscopes, m->nbindings, m->nuses,
                 m->ncalls, m->nargs, m->nsubscripts, m->nimports, m->nstrings,
                 idx(m->main_guard), m->nerrors);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Returns false when the file could not be read or has syntax errors. */
static bool one_file(syntax_run *run, const char *path, nfy_buf *out)
{
    nfy_source src;
    if (run->many && !run->stats) {
        nfy_buf_addstr(out, "{\"file\": ");
        nfy_json_escape(out, path, strlen(path));
        nfy_buf_addstr(out, "}\n");
    }
    nfy_status st = nfy_source_load(&src, path, 0);
    if (st) {
        fprintf(stderr, "%s: error[syntax-read]: %s\n", path,
                nfy_status_str(st));
        return false;
    }
    nfy_diags diags;
    nfy_diags_init(&diags);
    nfy_tokens toks;
    nfy_lex_tokens_init(&toks);
    nfy_arena arena = NFY_ARENA_INIT;
    nfy_pysyn *m = NULL;
    double t0 = now_seconds();
    st = nfy_lex_reuse(&src, &toks, &diags, &run->scratch.lex);
    if (!st)
        st = nfy_pysyn_parse_reuse(&src, &toks, &arena, &diags, &run->scratch,
                                   &m);
    run->seconds += now_seconds() - t0;
    run->files++;
    run->bytes += src.len;
    if (st)
        fprintf(stderr, "%s: error[syntax-read]: %s\n", path,
                nfy_status_str(st));
    else if (!run->stats) {
        dump_stmts(m, out);
        dump_scopes(m, out);
        dump_bindings(m, out);
        dump_imports(m, out);
        dump_calls(m, out);
        dump_strings(m, out);
        dump_withs_uses(m, run->uses, &arena, out);
        dump_summary(m, out);
    }
    size_t nerr = nfy_diags_count(&diags, NFY_SEV_ERROR);
    run->errors += nerr;
    if (!run->quiet && !run->stats)
        nfy_cli_print_diags(&diags, false, false);
    nfy_arena_release(&arena);
    nfy_lex_tokens_recycle(&toks, &run->scratch.lex);
    nfy_diags_release(&diags);
    nfy_source_release(&src);
    return !st && !nerr;
}

/* One option of syntax into run. */
static void set_option(void *ctx, int id, const char *val)
{
    syntax_run *run = ctx;
    (void)val;
    switch (id) {
    case OPT_USES:
        run->uses = true;
        break;
    case OPT_STATS:
        run->stats = true;
        break;
    case OPT_QUIET:
        run->quiet = true;
        break;
    }
}

int nfy_cli_cmd_syntax(int argc, char **argv)
{
    syntax_run run;
    memset(&run, 0, sizeof run);
    const char **files;
    int nfiles;
    int rc = nfy_cli_parse_files(&syntax_cmd, argc, argv, set_option, &run,
                                 &files, &nfiles);
    if (rc >= 0)
        return rc;
    if (nfiles == 0) {
        free(files);
        return nfy_cli_usage_error("syntax", "no input file");
    }
    run.many = nfiles > 1;
    nfy_pysyn_front_scratch_init(&run.scratch);
    nfy_buf out = NFY_BUF_INIT;
    bool bad = false;
    for (int i = 0; i < nfiles; i++) {
        if (!one_file(&run, files[i], &out))
            bad = true;
        if (out.len) {
            fwrite(out.data, 1, out.len, stdout);
            nfy_buf_reset(&out);
        }
    }
    free(files);
    nfy_buf_release(&out);
    nfy_pysyn_front_scratch_release(&run.scratch);
    if (run.stats)
        printf("%zu %s, %zu bytes, %zu %s, %.3f s, %.1f MB/s\n", run.files,
               nfy_plural(run.files, "file", "files"), run.bytes, run.errors,
               nfy_plural(run.errors, "error", "errors"), run.seconds,
               run.seconds > 0 ? (double)run.bytes / 1e6 / run.seconds : 0.0);
    if (fflush(stdout) != 0)
        return NFY_EXIT_INTERNAL;
    return bad ? NFY_EXIT_INPUT : NFY_EXIT_OK;
}
