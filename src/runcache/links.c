/* Links in the converted tree, pointed where Python running the project
 * itself would land: into the converted copy when that is inside the
 * project, else at the same real file outside it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runcache/runcache_internal.h"

typedef struct {
    const char *project;
    nfy_diags *diags;
    nfy_status st;
} fixer;

/* The text the link at rel should hold, into out; false to leave it. */
static bool wanted_target(const fixer *f, const char *rel, char *out,
                          size_t cap)
{
    char live[PATH_MAX], real[PATH_MAX];
    int n = snprintf(live, sizeof live, "%s/%s", f->project, rel);
    if (n < 0 || (size_t)n >= sizeof live || !realpath(live, real))
        return false; /* dangling or a loop: as the project has it */
    size_t plen = strlen(f->project);
    if (strncmp(real, f->project, plen) ||
        (real[plen] != '/' && real[plen] != '\0')) {
        n = snprintf(out, cap, "%s", real);
        return n > 0 && (size_t)n < cap;
    }
    const char *inside = real[plen] ? real + plen + 1 : ".";
    size_t used = 0;
    for (const char *p = rel; *p; p++)
        if (*p == '/') {
            if (used + 3 >= cap)
                return false;
            memcpy(out + used, "../", 3);
            used += 3;
        }
    n = snprintf(out + used, cap - used, "%s", inside);
    return n > 0 && (size_t)n < cap - used;
}

static int fix_one(void *ctx, int dirfd, const char *name, const char *rel,
                   const struct stat *st)
{
    fixer *f = ctx;
    if (!S_ISLNK(st->st_mode))
        return 0;
    char now[PATH_MAX], want[PATH_MAX];
    ssize_t n = readlinkat(dirfd, name, now, sizeof now - 1);
    if (n < 0 || !wanted_target(f, rel, want, sizeof want))
        return 0;
    now[n] = '\0';
    if (!strcmp(now, want))
        return 0;
    if (unlinkat(dirfd, name, 0) != 0 || symlinkat(want, dirfd, name) != 0) {
        f->st = nfy_status_from_errno(errno);
        nfy_diag_add_at(f->diags, NFY_SEV_ERROR, "cache-write", rel, 0, 0,
                        "cannot point the copied link at %s: %s", want,
                        nfy_status_str(f->st));
        return 1;
    }
    return 0;
}

nfy_status nfy__runcache_fix_links(int treefd, const char *project,
                                   nfy_diags *diags)
{
    fixer f = {project, diags, NFY_OK};
    nfy_status st = nfy__runcache_fdwalk(treefd, fix_one, &f);
    return f.st ? f.st : st;
}
