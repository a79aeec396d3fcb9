/*
 * The tree's own modules for the passes (nfy_migrate_opts.modules): one
 * walk over SRC before the conversion, naming every .py file, so that a
 * file's imports of the project's own package are told from third-party
 * libraries whatever order the files are converted in.
 */
#include "convert/convert_internal.h"

static int on_module(void *ctx, const nfy_walk_entry *e)
{
    if (e->kind == NFY_WALK_FILE)
        nfy_mig_modules_add(ctx, e->rel);
    return 0;
}

void nfy__convert_project_modules(const nfy_convert_opts *o,
                                  nfy_migrate_modules *out)
{
    static const char *const skip_names[] = {".git", "__pycache__", NULL};
    nfy_walk_opts wo = {skip_names, o->dst};
    nfy_status st = nfy_walk(o->src, &wo, on_module, out, NULL);
    (void)st; /* the conversion's own walk reports what is unreadable */
    nfy_mig_modules_finish(out);
}
