/*
 * The pass table as an aligned text table, one row a pass in run order,
 * with the rules of a set that name each dedicated pass.
 */
#include "rules/pass_list.h"

#include <string.h>

enum { NCOLS = 5 };

static void cells_of(const nfy_pass_info *p, const char *cell[NCOLS])
{
    cell[0] = p->name;
    cell[1] =
        p->kind < 0 ? "(generic)" : nfy_rules_kind_name((nfy_rule_kind)p->kind);
    cell[2] = p->state == NFY_PASS_BUILT ? "built" : "preview";
    cell[3] = p->modes;
    cell[4] = p->host[0] != '\0' ? p->host : "-";
}

static void add_cell(nfy_buf *out, const char *s, size_t width)
{
    nfy_buf_addstr(out, s);
    for (size_t n = strlen(s); n < width; n++)
        nfy_buf_addch(out, ' ');
}

/* The ids of the rules naming pass id, comma separated; "-" for none. */
static void add_rules(nfy_buf *out, const nfy_rule_set *set, nfy_pass_id id)
{
    size_t named = 0;
    for (size_t i = 0; i < nfy_rule_set_count(set); i++) {
        const nfy_rule *r = nfy_rules_set_at(set, i);
        if (r->pass == id)
            nfy_buf_addf(out, "%s%s", named++ ? ", " : "", r->id);
    }
    if (named == 0)
        nfy_buf_addch(out, '-');
}

void nfy_rules_render_passes(const nfy_rule_set *set, nfy_buf *out)
{
    static const char *const head[NCOLS] = {"PASS", "KIND", "STATE", "MODES",
                                            "RUN BY"};
    size_t width[NCOLS];
    for (int c = 0; c < NCOLS; c++)
        width[c] = strlen(head[c]);
    for (int i = 0; i < NFY_PASS_COUNT; i++) {
        const char *cell[NCOLS];
        cells_of(nfy_rules_pass_info_of((nfy_pass_id)i), cell);
        for (int c = 0; c < NCOLS; c++)
            if (strlen(cell[c]) > width[c])
                width[c] = strlen(cell[c]);
    }
    for (int c = 0; c < NCOLS; c++)
        add_cell(out, head[c], width[c] + 2);
    nfy_buf_addstr(out, "RULES\n");
    for (int i = 0; i < NFY_PASS_COUNT; i++) {
        const char *cell[NCOLS];
        cells_of(nfy_rules_pass_info_of((nfy_pass_id)i), cell);
        for (int c = 0; c < NCOLS; c++)
            add_cell(out, cell[c], width[c] + 2);
        add_rules(out, set, (nfy_pass_id)i);
        nfy_buf_addch(out, '\n');
    }
}
