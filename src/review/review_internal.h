/* Internal to src/review: the page's static parts. */
#ifndef NPUIFY_REVIEW_INTERNAL_H
#define NPUIFY_REVIEW_INTERNAL_H

extern const char nfy__review_css[];
extern const char nfy__review_js[];

#endif
