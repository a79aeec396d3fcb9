/*
 * review: a lead accepts or rejects each edit of a conversion before it is
 * applied.
 *
 * Every edit convert makes has an id that is the same on every run over the
 * same source: "FILE:BYTE:RULE:HASH" (the file relative to the source root,
 * the byte offset of the edit's start, its rule, and the first 8 hex digits
 * of SHA-256 over the original bytes of its span, a NUL, and the
 * replacement). The review page (`npuify review`) lists every edit and
 * finding with its code before and after; its "save decisions" writes a
 * decisions file:
 *   {"schema": "npuify-decisions/1", "source": "...",
 *    "edits": [{"id", "file", "line", "rule", "start", "end", "before",
 *               "decision": "accept" | "reject"}, ...]}
 * A file convert creates (the launcher of --distributed) is an entry with
 * "create": true, start and end 0 and before "": its id hashes the whole
 * text, so only the text the review showed is written.
 * `convert --decisions FILE` applies only the edits it accepts. Loading
 * checks each entry against the source as it is now (the bytes [start, end)
 * of file must still be "before"), so a file saved before the source changed
 * is refused with file:line for every edit that no longer matches.
 */
#ifndef NPUIFY_REVIEW_H
#define NPUIFY_REVIEW_H

#include "core/core.h"
#include "edit/edit.h"
#include "report/report.h"

/** Append the stable id of edit e of set (over file rel) to out. */
void nfy_edit_id(const char *rel, const nfy_edit_set *set, const nfy_edit *e,
                 nfy_buf *out);

/**
 * The self-contained review page (inline CSS and script, no network): every
 * file with findings, each edit with accept/reject and its context before
 * and after, each other finding with its hint. src_root is the tree (or
 * file) the report was made from; its files give the context lines. Rule
 * names and hints come from rules (may be NULL).
 */
void nfy_review_render_html(const nfy_report *rep, const char *src_root,
                            const nfy_rule_set *rules, nfy_buf *out);

/* Accepted and rejected edit ids of a decisions file (opaque). */
typedef struct nfy_decisions nfy_decisions;

/**
 * Read a decisions file and check every entry against the files under
 * src_root (a directory, or the single file the review was made of). Every
 * problem is an error diagnostic (at the decisions entry's file:line for an
 * edit whose text changed); then NULL is returned in *out and the status is
 * NFY_ESYNTAX (malformed file) or NFY_ERULE (stale entries).
 */
NFY_NODISCARD nfy_status nfy_decisions_load(const char *path,
                                            const char *src_root,
                                            nfy_decisions **out,
                                            nfy_diags *diags);
void nfy_decisions_free(nfy_decisions *d);
/** True when the decisions accept edit id. */
bool nfy_decisions_accepts(const nfy_decisions *d, const char *id);
/** True when the decisions name edit id at all (accepted or rejected). */
bool nfy_decisions_knows(const nfy_decisions *d, const char *id);
/** Number of entries, and of accepted ones. */
size_t nfy_decisions_count(const nfy_decisions *d, size_t *accepted);

#endif
