/* Shared CLI helpers: option values, usage errors, diagnostics, paths. */
#include "cli/cli_util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool nfy_cli_opt(int argc, char **argv, int *i, const char *short_name,
                 const char *long_name, const char **val)
{
    const char *arg = argv[*i];
    size_t ln = long_name ? strlen(long_name) : 0;
    if (long_name && !strncmp(arg, long_name, ln) && arg[ln] == '=') {
        *val = arg + ln + 1;
        return true;
    }
    bool hit = (short_name && !strcmp(arg, short_name)) ||
               (long_name && !strcmp(arg, long_name));
    if (!hit)
        return false;
    *val = *i + 1 < argc ? argv[++*i] : NULL;
    if (!*val) {
        fprintf(stderr, "npuify: option %s needs a value\n", arg);
        *val = "";
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
    fprintf(stderr, "npuify %s: %s\nTry 'npuify %s --help'.\n", cmd, msg, cmd);
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
    if (d->dropped)
        nfy_buf_addf(&out, "npuify: %zu more diagnostics not shown\n",
                     d->dropped);
    fputs(nfy_buf_cstr(&out), stderr);
    nfy_buf_release(&out);
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
