/*
 * --format lists for every command that writes a report: the names come
 * from NFY_REPORT_FORMAT_MAP (npuify.h), the one table of report formats,
 * so a format added there is parsed, written and listed in --help at once.
 */
#include "report/report.h"

/* One row of the table: its name, its bit, and whether the ops report
 * has it (ops writes no npuify.log). */
typedef struct {
    const char *name;
    unsigned bit;
    bool ops;
} format_row;

#define NFY__FORMAT_ROW_Y 1
#define NFY__FORMAT_ROW_N 0
#define NFY__FORMAT_ROW(id, name, ops)                                         \
    {name, NFY_REPORT_##id, NFY__FORMAT_ROW_##ops},
static const format_row rows[] = {NFY_REPORT_FORMAT_MAP(NFY__FORMAT_ROW)};
#undef NFY__FORMAT_ROW

unsigned nfy_report_formats_of(nfy_report_kind kind)
{
    unsigned mask = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (kind == NFY_REPORT_KIND_TREE || rows[i].ops)
            mask |= rows[i].bit;
    return mask;
}

unsigned nfy_report_formats_default(nfy_report_kind kind)
{
    /* the ops report's SARIF is for editors and CI: asked for by name */
    return kind == NFY_REPORT_KIND_OPS
               ? nfy_report_formats_of(kind) & ~(unsigned)NFY_REPORT_SARIF
               : nfy_report_formats_of(kind);
}

/* The bits of one name of a list, or ~0u for a name kind does not take. */
static unsigned format_bits(nfy_report_kind kind, nfy_str name)
{
    if (nfy_str_eq_cstr(name, "all"))
        return nfy_report_formats_default(kind);
    if (nfy_str_eq_cstr(name, "markdown"))
        name = nfy_str_from_cstr("md");
    unsigned allowed = nfy_report_formats_of(kind);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if ((rows[i].bit & allowed) && nfy_str_eq_cstr(name, rows[i].name))
            return rows[i].bit;
    return ~0u;
}

nfy_status nfy_report_formats_parse(nfy_report_kind kind, const char *list,
                                    unsigned *mask)
{
    *mask = 0;
    nfy_str rest = nfy_str_from_cstr(list ? list : "");
    while (rest.len) {
        ptrdiff_t comma = nfy_str_find_char(rest, ',');
        size_t n = comma < 0 ? rest.len : (size_t)comma;
        nfy_str name = nfy_str_slice(rest, 0, n);
        while (name.len && name.ptr[0] == ' ')
            name = nfy_str_slice(name, 1, name.len);
        while (name.len && name.ptr[name.len - 1] == ' ')
            name.len--;
        unsigned bits = format_bits(kind, name);
        if (bits == ~0u)
            return NFY_EUSAGE;
        *mask |= bits;
        rest = nfy_str_slice(rest, comma < 0 ? n : n + 1, rest.len);
    }
    return NFY_OK;
}
