/*
 * review: a lead accepts or rejects each edit of a conversion before it is
 * applied.
 *
 * Every edit convert makes has an id anchored to what it changes, the same
 * on every run over the same text: "FILE:RULE:HASH" (the file relative to
 * the source root, the rule, and the first 8 hex digits of SHA-256 over the
 * rule, the replaced text, the replacement, the text of the lines the edit
 * sits on, its anchor, and its occurrence among the edits of the file equal
 * in all of these). No offset goes in: a line added above an edit leaves
 * its id as it was. The review page (`npuify review`) lists every edit and
 * finding with its code before and after; its "save decisions" writes a
 * decisions file:
 *   {"schema": "npuify-decisions/2", "source": "/abs/SRC",
 *    "edits": [{"id", "file", "line", "rule", "before", "anchor",
 *               "decision": "accept" | "reject"}, ...]}
 * A file convert creates (the launcher of --distributed) is an entry with
 * "create": true, before "" and no anchor: its id hashes the whole text,
 * so only the text the review showed is written.
 * `convert --decisions FILE` applies only the edits it accepts. Loading
 * (streamed, at most NFY_DECISIONS_MAX_BYTES) refuses a file made for
 * another source, an entry whose file is not its id's, one id decided
 * twice both ways, and an edit whose anchor lines are no longer in its
 * file (stale: its own text changed), each with file:line.
 * An edit of an insert-import rule is needed by the edits of its file that
 * use what it imports (nfy_review_edit_needs_import): the page says so, and
 * convert keeps a rejected import that an accepted edit needs (a warning
 * at its line), so no file uses torch_npu without importing it.
 */
#ifndef NPUIFY_REVIEW_H
#define NPUIFY_REVIEW_H

#include "core/core.h"
#include "edit/edit.h"
#include "report/report.h"

/**
 * The id of every edit of the normalized set (over file rel), in order:
 * ids[k] is a string in a. NFY_ENOMEM when no table could be had.
 */
NFY_NODISCARD nfy_status nfy_review_edit_ids(const char *rel,
                                             const nfy_edit_set *set,
                                             nfy_arena *a, const char **ids);
/** The lines [*first, *last] the edit of [start, end) is anchored to: the
 * lines it touches, or for an insertion at a line's start the line above. */
void nfy_review_edit_anchor_lines(const nfy_source *src, uint32_t start,
                                  uint32_t end, uint32_t *first,
                                  uint32_t *last);
/** Append the anchor text: lines [first, last] without their line ends,
 * joined by '\n'. */
void nfy_review_edit_anchor_text(const nfy_source *src, uint32_t first,
                                 uint32_t last, nfy_buf *out);
/** Is rule an insert-import rule of rules? */
bool nfy_review_edit_is_import(const nfy_rule_set *rules, const char *rule);
/** Does an edit whose new text is text[0, n) need the import statement
 * import_text ("import torch_npu") made by an insert-import rule? */
bool nfy_review_edit_needs_import(const char *import_text, const char *text,
                                  size_t n);

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
#define NFY_DECISIONS_MAX_BYTES ((size_t)64 << 20)
/* Problems printed at most for one decisions file (then one summary). */
#define NFY_DECISIONS_MAX_ERRORS 20
typedef struct nfy_decisions nfy_decisions;

/**
 * Read a decisions file and check every entry against the files under
 * src_root (a directory, or the single file the review was made of). Every
 * problem is an error diagnostic (at the edit's file:line for an edit whose
 * text changed, else at the decisions file's line), at most
 * NFY_DECISIONS_MAX_ERRORS and a count of the rest; then NULL is returned
 * in *out and the status is NFY_ESYNTAX (malformed file, another source,
 * conflicting decisions), NFY_ELIMIT (too large), NFY_EIO (unreadable) or
 * NFY_ERULE (stale entries).
 */
NFY_NODISCARD nfy_status nfy_convert_decisions_load(const char *path,
                                                    const char *src_root,
                                                    nfy_decisions **out,
                                                    nfy_diags *diags);
void nfy_convert_decisions_free(nfy_decisions *d);
/** True when the decisions accept edit id. */
bool nfy_convert_decisions_accepts(const nfy_decisions *d, const char *id);
/** True when the decisions name edit id at all (accepted or rejected). */
bool nfy_convert_decisions_knows(const nfy_decisions *d, const char *id);
/** Number of entries, and of accepted ones. */
size_t nfy_convert_decisions_count(const nfy_decisions *d, size_t *accepted);

#endif
