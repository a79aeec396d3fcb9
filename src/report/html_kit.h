/*
 * The one HTML style of npuify's report pages (convert's and ops'
 * report.html) and the pieces both build with: page head, total cards,
 * named SVG bar charts, tables that fit a 1280 px window, and the
 * table-sorting and test-mode script. Everything passed as text is
 * HTML-escaped here; callers never write user text themselves.
 */
#ifndef NPUIFY_REPORT_HTML_KIT_H
#define NPUIFY_REPORT_HTML_KIT_H

#include "core/core.h"

/* <!DOCTYPE> up to and including <body> and the <h1> heading. */
void nfy__report_html_open(nfy_buf *out, const char *title,
                           const char *heading);
/* The sorting / test-mode script and </body></html>. */
void nfy__report_html_close(nfy_buf *out);
void nfy__report_html_esc(nfy_buf *out, const char *s);
void nfy__report_html_esc_n(nfy_buf *out, const char *s, size_t n);
void nfy__report_html_cards_open(nfy_buf *out);
void nfy__report_html_card(nfy_buf *out, const char *label, size_t n,
                           bool warn);
void nfy__report_html_cards_close(nfy_buf *out);

/* One bar of a chart: a label (escaped) and its value. */
typedef struct {
    const char *label;
    const char *detail; /* shown after the label, may be NULL */
    double value;
    const char *value_text; /* printed at the bar's end; NULL: the value */
} nfy__html_bar;

/* An inline SVG bar chart: labels in one column, bars from one x, so
 * every bar lines up; title is the <h2> and the chart's accessible name. */
void nfy__report_html_bars(nfy_buf *out, const char *title,
                           const nfy__html_bar *bars, size_t n);

/*
 * A table: id (for tests and links), whether a header click sorts it, and
 * the column heads with their widths in percent (0: share the rest). Rows
 * use nfy__report_html_td*; nfy__report_html_table_close ends it.
 */
typedef struct {
    const char *head;
    unsigned width_pct;
} nfy__html_col;
void nfy__report_html_table_open(nfy_buf *out, const char *id, bool sortable,
                                 const nfy__html_col *cols, size_t n);
void nfy__report_html_table_close(nfy_buf *out);
void nfy__report_html_td(nfy_buf *out, const char *s, bool code);

#endif
