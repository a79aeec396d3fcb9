/*
 * The progress line of convert on a terminal: "\r[DONE/TOTAL] path" on
 * stderr, redrawn at most ten times a second and cleared at the end. Only
 * for trees of NFY_CLI_PROGRESS_MIN entries or more (a smaller one is done
 * before the line could be read), never off a terminal or with --quiet.
 */
#ifndef NPUIFY_CLI_PROGRESS_H
#define NPUIFY_CLI_PROGRESS_H

#include <stdio.h>

#include "convert/convert.h"

enum { NFY_CLI_PROGRESS_MIN = 200 };

typedef struct {
    FILE *out;
    size_t done, total;
    double last_draw; /* monotonic seconds; 0: never drawn */
} nfy_cli_progress;

/*
 * Count the entries of o->src (as convert walks them) when out is a
 * terminal and quiet is false, and at NFY_CLI_PROGRESS_MIN or more set
 * o->progress to draw on out. p must outlive the run.
 */
void nfy_cli_progress_start(nfy_cli_progress *p, nfy_convert_opts *o, FILE *out,
                            bool quiet);
/* Clear the line, if one was drawn. */
void nfy_cli_progress_end(nfy_cli_progress *p);

#endif
