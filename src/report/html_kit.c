/*
 * Shared HTML of the report pages (html_kit.h). Tables use a fixed layout
 * with wrapping cells so no table is wider than the window; code keeps its
 * spaces and breaks anywhere.
 */
#include "report/html_kit.h"

#include <string.h>

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.2em 1.6em;color:#222;"
    "max-width:1600px}"
    "h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.15em;margin-top:1.4em}"
    ".meta{color:#555;overflow-wrap:anywhere}"
    ".cards{display:flex;gap:.8em;flex-wrap:wrap;margin:.6em 0}"
    ".card{border:1px solid #ccc;border-radius:6px;padding:.5em .9em;"
    "min-width:6.5em}.card b{display:block;font-size:1.6em}"
    ".warn b{color:#b45309}"
    "table{border-collapse:collapse;width:100%;table-layout:fixed}"
    "th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;"
    "vertical-align:top;overflow-wrap:anywhere}th{background:#f3f4f6}"
    "table.sort th{cursor:pointer}td.n{text-align:right}"
    "code{background:#f6f6f6;white-space:pre-wrap;word-break:break-all;"
    "font-size:12px}"
    "code.del{background:#fee2e2;display:block}"
    "code.add{background:#dcfce7;display:block}"
    ".bar{background:#eee;width:12em;height:1em}"
    ".bar div{background:#2563eb;height:1em}"
    "svg.chart{max-width:100%;height:auto}"
    "svg.chart text{font:12px system-ui,sans-serif;fill:#222}"
    "svg.chart rect{fill:#2563eb}"
    ".manual{color:#b45309}"
    ".st-unsupported{color:#b91c1c}.st-cpu-fallback{color:#b45309}"
    ".st-unknown{color:#6b21a8}.sev-error{color:#b91c1c}"
    ".sev-warning{color:#b45309}";

/* Sorts the table of a clicked header (numeric cells carry data-v); with
 * #test the page's facts go to <pre id=out> for headless checks. */
static const char script[] =
    "document.querySelectorAll('table.sort th').forEach(function(th){"
    "th.onclick=function(){var i=th.cellIndex,b=th.closest('table')"
    ".tBodies[0],d=th.dataset.d=th.dataset.d==='1'?'-1':'1';"
    "[].slice.call(b.rows).sort(function(x,y){var p=x.cells[i],"
    "q=y.cells[i],k=p.dataset.v!==undefined?p.dataset.v-q.dataset.v:"
    "p.textContent.localeCompare(q.textContent);return k*d;})"
    ".forEach(function(r){b.appendChild(r);});};});"
    "if(location.hash==='#test'){var o={scrollWidth:document."
    "documentElement.scrollWidth,tables:{}};document.querySelectorAll("
    "'table[id]').forEach(function(t){o.tables[t.id]=t.tBodies[0].rows."
    "length;});o.elements={};document.querySelectorAll('body *').forEach("
    "function(e){o.elements[e.tagName]=(o.elements[e.tagName]||0)+1;});"
    "var p=document.createElement('pre');p.id='out';p.textContent="
    "JSON.stringify(o);document.body.appendChild(p);}";

void nfy__report_html_esc_n(nfy_buf *out, const char *s, size_t n)
{
    nfy_html_escape(out, s ? s : "", s ? n : 0);
}

void nfy__report_html_esc(nfy_buf *out, const char *s)
{
    nfy__report_html_esc_n(out, s, s ? strlen(s) : 0);
}

void nfy__report_html_open(nfy_buf *out, const char *title, const char *heading)
{
    nfy_buf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
                        "charset=\"utf-8\">\n<meta name=\"viewport\" "
                        "content=\"width=device-width\">\n<title>");
    nfy__report_html_esc(out, title);
    nfy_buf_addf(out, "</title>\n<style>%s</style></head><body>\n<h1>", style);
    nfy__report_html_esc(out, heading);
    nfy_buf_addstr(out, "</h1>\n");
}

void nfy__report_html_close(nfy_buf *out)
{
    nfy_buf_addf(out, "<script>%s</script>\n</body></html>\n", script);
}

void nfy__report_html_cards_open(nfy_buf *out)
{
    nfy_buf_addstr(out, "<div class=\"cards\">\n");
}

void nfy__report_html_card(nfy_buf *out, const char *label, size_t n, bool warn)
{
    nfy_buf_addf(out, "<div class=\"card%s\"><b>%zu</b>",
                 warn && n ? " warn" : "", n);
    nfy__report_html_esc(out, label);
    nfy_buf_addstr(out, "</div>\n");
}

void nfy__report_html_cards_close(nfy_buf *out)
{
    nfy_buf_addstr(out, "</div>\n");
}

enum { LABEL_W = 520, BAR_W = 560, ROW_H = 20, LABEL_CHARS = 80 };

static void bar_label(nfy_buf *out, const nfy__html_bar *b)
{
    nfy_buf text = NFY_BUF_INIT;
    nfy_buf_addstr(&text, b->label ? b->label : "");
    if (b->detail && *b->detail)
        nfy_buf_addf(&text, "  %s", b->detail);
    size_t n = text.len, cut = 0;
    /* cut at a code point boundary */
    if (n > LABEL_CHARS) {
        cut = LABEL_CHARS;
        while (cut > 0 && ((unsigned char)text.data[cut] & 0xC0) == 0x80)
            cut--;
    }
    nfy__report_html_esc_n(out, text.data, cut ? cut : n);
    if (cut)
        nfy_buf_addstr(out, "...");
    nfy_buf_release(&text);
}

void nfy__report_html_bars(nfy_buf *out, const char *title,
                           const nfy__html_bar *bars, size_t n)
{
    nfy_buf_addstr(out, "<h2>");
    nfy__report_html_esc(out, title);
    nfy_buf_addstr(out, "</h2>\n");
    if (!n) {
        nfy_buf_addstr(out, "<p>None.</p>\n");
        return;
    }
    double max = 0;
    for (size_t i = 0; i < n; i++)
        max = bars[i].value > max ? bars[i].value : max;
    unsigned w = LABEL_W + BAR_W + 80, h = (unsigned)n * ROW_H + 4;
    nfy_buf_addf(out,
                 "<svg class=\"chart\" role=\"img\" width=\"%u\" "
                 "height=\"%u\" viewBox=\"0 0 %u %u\"><title>",
                 w, h, w, h);
    nfy__report_html_esc(out, title);
    nfy_buf_addstr(out, "</title>\n");
    for (size_t i = 0; i < n; i++) {
        unsigned y = (unsigned)i * ROW_H + 2;
        unsigned len =
            max > 0 ? (unsigned)(bars[i].value / max * BAR_W + 0.5) : 0;
        nfy_buf_addf(out, "<g><text x=\"0\" y=\"%u\">", y + 14);
        bar_label(out, &bars[i]);
        nfy_buf_addf(out,
                     "</text><rect x=\"%u\" y=\"%u\" width=\"%u\" "
                     "height=\"%u\"></rect><text x=\"%u\" y=\"%u\">",
                     LABEL_W, y + 2, len ? len : 1, ROW_H - 6,
                     LABEL_W + (len ? len : 1) + 6, y + 14);
        if (bars[i].value_text)
            nfy__report_html_esc(out, bars[i].value_text);
        else
            nfy_buf_addf(out, "%.0f", bars[i].value);
        nfy_buf_addstr(out, "</text></g>\n");
    }
    nfy_buf_addstr(out, "</svg>\n");
}

void nfy__report_html_table_open(nfy_buf *out, const char *id, bool sortable,
                                 const nfy__html_col *cols, size_t n)
{
    nfy_buf_addf(out, "<table id=\"%s\"%s><colgroup>", id,
                 sortable ? " class=\"sort\"" : "");
    for (size_t i = 0; i < n; i++) {
        if (cols[i].width_pct)
            nfy_buf_addf(out, "<col style=\"width:%u%%\">", cols[i].width_pct);
        else
            nfy_buf_addstr(out, "<col>");
    }
    nfy_buf_addstr(out, "</colgroup><thead><tr>");
    for (size_t i = 0; i < n; i++) {
        nfy_buf_addstr(out, "<th>");
        nfy__report_html_esc(out, cols[i].head);
        nfy_buf_addstr(out, "</th>");
    }
    nfy_buf_addstr(out, "</tr></thead><tbody>\n");
}

void nfy__report_html_table_close(nfy_buf *out)
{
    nfy_buf_addstr(out, "</tbody></table>\n");
}

void nfy__report_html_td(nfy_buf *out, const char *s, bool code)
{
    nfy_buf_addstr(out, code && s && *s ? "<td><code>" : "<td>");
    nfy__report_html_esc(out, s);
    nfy_buf_addstr(out, code && s && *s ? "</code></td>" : "</td>");
}
