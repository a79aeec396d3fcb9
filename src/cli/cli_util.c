/* Shared CLI helpers: option values, usage errors, diagnostics, paths. */
#include "cli/cli_util.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Edit distance of a and b, both short (option names). */
static size_t distance(const char *a, size_t na, const char *b, size_t nb)
{
    enum { MAXN = 64 };
    if (na >= MAXN || nb >= MAXN)
        return MAXN;
    size_t row[MAXN], prev[MAXN];
    for (size_t j = 0; j <= nb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= na; i++) {
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = prev[j] + 1, ins = row[j - 1] + 1;
            row[j] =
                sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, row, (nb + 1) * sizeof *row);
    }
    return prev[nb];
}

size_t nfy_cli_edit_distance(const char *a, const char *b)
{
    return distance(a, strlen(a), b, strlen(b));
}

/* The long option of help closest to name ("--outptu" -> "--output"),
 * copied into best; false when none is close. */
static bool closest_option(const char *help, const char *name, char *best,
                           size_t cap)
{
    size_t nlen = strcspn(name, "=");
    size_t best_d = nlen / 3 + 1; /* at most a third of the name wrong */
    bool found = false;
    for (const char *p = strstr(help, "--"); p; p = strstr(p + 2, "--")) {
        size_t n = 2;
        while ((p[n] >= 'a' && p[n] <= 'z') || p[n] == '-' ||
               (p[n] >= '0' && p[n] <= '9'))
            n++;
        if (n <= 2 || n >= cap ||
            (p > help && p[-1] != ' ' && p[-1] != '[' && p[-1] != '(' &&
             p[-1] != '|'))
            continue;
        size_t d = distance(name, nlen, p, n);
        bool prefix = nlen > 3 && !strncmp(p, name, nlen);
        if (prefix)
            d = 1;
        if (d < best_d || (d == best_d && !found && prefix)) {
            best_d = d;
            memcpy(best, p, n);
            best[n] = '\0';
            found = true;
        }
    }
    return found;
}

int nfy_cli_unknown_option(const char *cmd, const char *arg, const char *help)
{
    char best[64];
    if (!strncmp(arg, "--", 2) && closest_option(help, arg, best, sizeof best))
        fprintf(stderr,
                "npuify %s: error[usage]: unknown option '%s'; did you mean "
                "'%s'?\nTry 'npuify %s --help'.\n",
                cmd, arg, best, cmd);
    else
        fprintf(stderr,
                "npuify %s: error[usage]: unknown option '%s'\nTry 'npuify "
                "%s --help'.\n",
                cmd, arg, cmd);
    return NFY_EXIT_USAGE;
}

bool nfy_cli_color(const char *when, bool *color)
{
    if (!when || !strcmp(when, "auto")) {
        const char *no = getenv("NO_COLOR");
        *color = isatty(STDERR_FILENO) && !(no && *no);
    } else if (!strcmp(when, "always")) {
        *color = true;
    } else if (!strcmp(when, "never")) {
        *color = false;
    } else {
        return false;
    }
    return true;
}

bool nfy_cli_parse_uint(const char *s, unsigned long min, unsigned long max,
                        unsigned long *out)
{
    char *end;
    if (!s || s[0] < '0' || s[0] > '9')
        return false;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || errno || v < min || v > max)
        return false;
    *out = v;
    return true;
}

int nfy_cli_usage_error(const char *cmd, const char *msg)
{
    fprintf(stderr, "npuify %s: error[usage]: %s\nTry 'npuify %s --help'.\n",
            cmd, msg, cmd);
    return NFY_EXIT_USAGE;
}

void nfy_cli_print_diags(const nfy_diags *d, bool color, bool json)
{
    nfy_buf out = NFY_BUF_INIT;
    for (size_t i = 0; i < d->items.len; i++) {
        if (json) {
            nfy_diag_render_json(&d->items.items[i], &out);
            nfy_buf_addch(&out, '\n');
        } else {
            nfy_diag_render_text(&d->items.items[i], color, &out);
        }
    }
    if (d->dropped) {
        /* said as one more diagnostic, so JSON lines stay JSON lines */
        nfy_diag more = {.sev = NFY_SEV_NOTE, .code = "diagnostics-dropped"};
        nfy_arena a = NFY_ARENA_INIT;
        more.msg =
            nfy_arena_fmt(&a, "%zu more %s not shown", d->dropped,
                          nfy_plural(d->dropped, "diagnostic", "diagnostics"));
        if (json) {
            nfy_diag_render_json(&more, &out);
            nfy_buf_addch(&out, '\n');
        } else {
            nfy_buf_addstr(&out, "npuify: ");
            nfy_diag_render_text(&more, color, &out);
        }
        nfy_arena_release(&a);
    }
    fputs(nfy_buf_cstr(&out), stderr);
    nfy_buf_release(&out);
}

void nfy_cli_say(const char *cmd, const nfy_cli_voice *v, nfy_severity sev,
                 const char *code, const char *file, const char *fmt, ...)
{
    nfy_diags d;
    nfy_diags_init(&d);
    va_list ap;
    va_start(ap, fmt);
    const char *msg = nfy_arena_vfmt(&d.arena, fmt, ap);
    va_end(ap);
    nfy_diag_add_at(&d, sev, code, file, 0, 0, "%s", msg);
    if (!file && !v->json) /* the command is the place */
        fprintf(stderr, "npuify %s: ", cmd);
    nfy_cli_print_diags(&d, v->color, v->json);
    nfy_diags_release(&d);
}

bool nfy_cli_is_dir(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool nfy_cli_is_file_input(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

const char *nfy_cli_rel_inside(nfy_arena *a, const char *path, const char *root)
{
    char rp[PATH_MAX], rr[PATH_MAX];
    if (!realpath(root, rr))
        return NULL;
    /* The report dir may not exist yet: resolve its parent. */
    if (!realpath(path, rp)) {
        const char *slash = strrchr(path, '/');
        const char *parent =
            slash ? nfy_arena_strndup(a, path, (size_t)(slash - path)) : ".";
        if (!realpath(*parent ? parent : "/", rp))
            return NULL;
        const char *joined = nfy_path_join(a, rp, slash ? slash + 1 : path);
        if (strlen(joined) >= sizeof rp)
            return NULL;
        memcpy(rp, joined, strlen(joined) + 1);
    }
    size_t n = strlen(rr);
    if (strncmp(rp, rr, n) || rp[n] != '/')
        return NULL;
    return nfy_arena_strndup(a, rp + n + 1, strlen(rp + n + 1));
}
