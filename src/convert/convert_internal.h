/* Internal to src/convert: shared helpers of the convert driver. */
#ifndef NPUIFY_CONVERT_INTERNAL_H
#define NPUIFY_CONVERT_INTERNAL_H

#include "npuify/convert.h"
#include "npuify/migrate.h"

/* Absolute symlink-free path, also for a path whose tail does not exist. */
char *nfy__convert_abspath(nfy_arena *a, const char *path);
/* True when inner equals outer or lies below it (both absolute). */
bool nfy__path_is_inside(const char *inner, const char *outer);
/* Validate src/dst for the action; diagnostics say what is wrong. */
nfy_status nfy__convert_check_paths(const nfy_convert_opts *o, nfy_arena *a,
                                    nfy_diags *diags);

/* What a file is, for conversion purposes. */
typedef enum {
    NFY_FILE_KIND_OTHER, /* copied byte for byte */
    NFY_FILE_KIND_PYTHON,
    NFY_FILE_KIND_SHELL
} nfy_file_kind;

/* Classify by name, then by a "#!" line in the first bytes. */
nfy_file_kind nfy__convert_classify(const char *name, const char *head,
                                    size_t head_len);

/*
 * Produce the edits for one text file (Python or shell) into set and the
 * findings into rep. The set is over src.
 */
typedef struct {
    const nfy_convert_opts *o;
    nfy_migrate_opts mo;
    nfy_migrate_project proj;
} nfy_convert_passes;

nfy_status nfy__convert_edits(nfy_convert_passes *p, nfy_file_kind kind,
                              const nfy_source *src, const char *rel,
                              nfy_edit_set *set, nfy_report *rep,
                              nfy_diags *diags);

/* Rename CUDA/NCCL environment names in a shell script (ENV rules). */
nfy_status nfy__shell_env_edits(const nfy_convert_opts *o,
                                const nfy_source *src, const char *rel,
                                nfy_edit_set *set, nfy_report *rep,
                                nfy_diags *diags);

#endif
