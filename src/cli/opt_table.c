/* Parsing and --help from one option table (opt_table.h). */
#include "cli/opt_table.h"

#include <stdlib.h>
#include <string.h>

#include "apidb/apidb.h"
#include "cli/cli_util.h"

enum { HELP_COL = 24 };

/* One line of an option's help; NFY_CLI_DEFAULT_VERSION in it is the
 * version the commands target when none is given, from the shipped data,
 * so the help cannot name a stale default. */
static void help_line(nfy_buf *out, const char *p, size_t n)
{
    const char *mark = NFY_CLI_DEFAULT_VERSION;
    size_t mlen = strlen(mark);
    for (size_t i = 0; i < n;) {
        if (i + mlen <= n && !strncmp(p + i, mark, mlen)) {
            const nfy_apidb_version *v = nfy_apidb_version_default();
            nfy_buf_addstr(out, v ? v->name : "?");
            i += mlen;
        } else {
            nfy_buf_addch(out, p[i++]);
        }
    }
    nfy_buf_addch(out, '\n');
}

static void help_option(const nfy_cli_option *o, nfy_buf *out)
{
    size_t start = out->len;
    nfy_buf_addf(out, "  %s%s%s%s%s", o->short_opt ? o->short_opt : "",
                 o->short_opt ? ", " : "", o->long_opt,
                 o->arg && o->arg[0] != '[' ? " " : "", o->arg ? o->arg : "");
    size_t used = out->len - start;
    if (used + 2 > HELP_COL) {
        nfy_buf_addch(out, '\n');
        used = 0;
    }
    for (const char *p = o->help; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        nfy_buf_addf(out, "%*s", (int)(HELP_COL - used), "");
        help_line(out, p, n);
        used = 0;
        p += n + (nl != NULL);
    }
}

static void render_help(const nfy_cli_command *c, nfy_buf *out)
{
    nfy_buf_addf(out, "%s\n%s\n", c->synopsis, c->about);
    for (size_t i = 0; i < c->nopts; i++)
        help_option(&c->opts[i], out);
    nfy_buf_addstr(out, "  -h, --help            this text\n");
    if (c->footer)
        nfy_buf_addf(out, "\n%s", c->footer);
}

void nfy_cli_help(const nfy_cli_command *c, FILE *out)
{
    nfy_buf b = NFY_BUF_INIT;
    render_help(c, &b);
    fputs(nfy_buf_cstr(&b), out);
    nfy_buf_release(&b);
}

static int unknown(const nfy_cli_command *c, const char *arg)
{
    nfy_buf b = NFY_BUF_INIT;
    render_help(c, &b);
    (void)nfy_cli_unknown_option(c->name, arg, nfy_buf_cstr(&b));
    nfy_buf_release(&b);
    return NFY_CLI_ERROR;
}

static int missing_value(const nfy_cli_command *c, const char *opt)
{
    nfy_buf m = NFY_BUF_INIT;
    nfy_buf_addf(&m, "option %s needs a value", opt);
    (void)nfy_cli_usage_error(c->name, nfy_buf_cstr(&m));
    nfy_buf_release(&m);
    return NFY_CLI_ERROR;
}

/* Match arg against o; *inline_val: the "=X" / "-oX" part, if any. */
static bool matches(const nfy_cli_option *o, const char *arg,
                    const char **inline_val)
{
    size_t ln = strlen(o->long_opt);
    *inline_val = NULL;
    if (!strncmp(arg, o->long_opt, ln) && (!arg[ln] || arg[ln] == '=')) {
        *inline_val = arg[ln] == '=' ? arg + ln + 1 : NULL;
        return !*inline_val || o->arg;
    }
    if (o->short_opt && !strncmp(arg, o->short_opt, 2)) {
        *inline_val = arg[2] ? arg + 2 : NULL;
        return !*inline_val || (o->arg && o->arg[0] != '[');
    }
    return false;
}

int nfy_cli_next(const nfy_cli_command *c, int argc, char **argv, int *i,
                 bool *dashdash, const char **val)
{
    const char *arg = argv[*i];
    *val = NULL;
    if (*dashdash || arg[0] != '-' || !arg[1]) {
        *val = arg;
        return NFY_CLI_ARG;
    }
    if (!strcmp(arg, "--")) {
        *dashdash = true;
        return NFY_CLI_NONE;
    }
    if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
        nfy_cli_help(c, stdout);
        return NFY_CLI_HELP;
    }
    for (size_t k = 0; k < c->nopts; k++) {
        const nfy_cli_option *o = &c->opts[k];
        const char *inl;
        if (!matches(o, arg, &inl))
            continue;
        if (!o->arg)
            return o->id;
        if (o->arg[0] == '[') { /* optional, inline only */
            *val = inl;
            return o->id;
        }
        if (inl) {
            *val = inl;
        } else if (*i + 1 < argc) {
            *val = argv[++*i];
        } else {
            return missing_value(c, arg);
        }
        return o->id;
    }
    return unknown(c, arg);
}

int nfy_cli_parse_end(int id)
{
    return id == NFY_CLI_HELP    ? NFY_EXIT_OK
           : id == NFY_CLI_ERROR ? NFY_EXIT_USAGE
                                 : -1;
}

int nfy_cli_parse_files(const nfy_cli_command *c, int argc, char **argv,
                        nfy_cli_on_option *on_option, void *ctx,
                        const char ***files, int *nfiles)
{
    *nfiles = 0;
    *files = calloc((size_t)argc + 1, sizeof **files);
    if (!*files)
        return NFY_EXIT_INTERNAL;
    bool dashdash = false;
    for (int i = 1; i < argc; i++) {
        const char *val;
        int id = nfy_cli_next(c, argc, argv, &i, &dashdash, &val);
        int rc = nfy_cli_parse_end(id);
        if (rc >= 0) {
            free(*files);
            *files = NULL;
            return rc;
        }
        if (id == NFY_CLI_ARG)
            (*files)[(*nfiles)++] = val;
        else if (id >= 0)
            on_option(ctx, id, val);
    }
    return -1;
}

int nfy_cli_color_option(const char *cmd, int id, const char *val, bool *color)
{
    if (id == NFY_CLI_OPT_NO_COLOR) {
        *color = false;
        return -1;
    }
    if (!nfy_cli_color(val ? val : "always", color))
        return nfy_cli_usage_error(cmd, "--color takes auto, always or never");
    return -1;
}
