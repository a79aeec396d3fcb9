/*
 * edit: edit sets over one nfy_source, the byte-level basis of every rewrite.
 *
 * An edit replaces the original bytes [span.start, span.end) with new text;
 * an empty span is an insertion, empty text a deletion. Each edit carries the
 * id of the rule that made it and a short note, so reports can name both.
 *
 * Life of a set: nfy_edit_set_init over a source, any number of adds (bounds
 * are checked at once), then nfy_edit_set_normalize (implicitly done by apply,
 * diff and inverse): edits are sorted by position (stable: several insertions
 * at one offset keep the order they were added, and an insertion goes before
 * a replacement that starts at the same offset), identical duplicates (same
 * span, same text) are merged into the first one, and an edit that overlaps
 * an earlier kept edit is dropped with a diagnostic naming both positions.
 * Two edits overlap when they share at least one original byte, or when an
 * insertion falls strictly inside a replaced range. (Sets made by
 * nfy_edit_set_inverse keep identical insertions: there both are meant.)
 *
 * Apply builds the edited text in one pass, copying untouched ranges. The
 * inverse set (over the edited text) turns the edited text back into the
 * original. The unified diff is `diff -u` compatible (3 lines of context,
 * a/ and b/ labels, "\ No newline at end of file", CR bytes kept as part of
 * the line, as diff and patch do) and is computed from the edits alone.
 *
 * Ownership: the set copies replacement text, rule ids and notes into its own
 * arena; it borrows the source, which must outlive it. Not thread-safe; use
 * one set per file.
 */
#ifndef NPUIFY_EDIT_H
#define NPUIFY_EDIT_H

#include "core/core.h"

/** One edit. Strings are owned by the set's arena (text is NUL-terminated). */
typedef struct {
    nfy_span span;    /* original bytes replaced */
    nfy_str text;     /* replacement */
    const char *rule; /* rule id, e.g. "NPU101"; never NULL ("" if none) */
    const char *note; /* short human note; never NULL ("" if none) */
    uint32_t seq;     /* order of addition, for the stable sort */
} nfy_edit;

typedef NFY_VEC(nfy_edit) nfy_edit_vec;

typedef struct {
    const nfy_source *src; /* the original text; borrowed */
    nfy_edit_vec edits;    /* after normalize: sorted, disjoint */
    nfy_arena arena;
    uint32_t next_seq;
    bool normalized; /* no add since the last normalize */
    size_t dropped;  /* edits dropped as overlapping, over all normalizes */
    bool keep_duplicates; /* set by nfy_edit_set_inverse: two equal
                             insertions there are both meant */
} nfy_edit_set;

void nfy_edit_set_init(nfy_edit_set *set, const nfy_source *src);
void nfy_edit_set_release(nfy_edit_set *set);

/**
 * Add an edit replacing [start, end) of the source by text. rule and note may
 * be NULL. Returns NFY_EUSAGE (with an error diagnostic when diags is not
 * NULL) when start > end or end is past the source's end; the set is then
 * unchanged.
 */
NFY_NODISCARD nfy_status nfy_edit_set_add(nfy_edit_set *set, uint32_t start,
                                          uint32_t end, nfy_str text,
                                          const char *rule, const char *note,
                                          nfy_diags *diags);
/** Shorthand for an insertion of text before offset at. */
NFY_NODISCARD nfy_status nfy_edit_set_insert(nfy_edit_set *set, uint32_t at,
                                             nfy_str text, const char *rule,
                                             const char *note,
                                             nfy_diags *diags);

/**
 * Sort, merge identical duplicates, drop overlapping edits (see top of the
 * file). Each dropped edit gets an error diagnostic (code "edit-overlap")
 * naming its position and rule and the position and rule of the edit it
 * collides with. Returns NFY_ERULE when something was dropped in this call
 * (the set is still usable: the kept edits are consistent), else NFY_OK.
 * Cheap when nothing was added since the last call.
 */
nfy_status nfy_edit_set_normalize(nfy_edit_set *set, nfy_diags *diags);

/** Size of the edited text (normalizes first). */
size_t nfy_edit_set_result_len(nfy_edit_set *set, nfy_diags *diags);

/**
 * Append the edited text to out (normalizes first; overlapping edits are
 * left out as described). Returns out's status (NFY_ELIMIT past its cap).
 */
NFY_NODISCARD nfy_status nfy_edit_set_apply(nfy_edit_set *set, nfy_diags *diags,
                                            nfy_buf *out);

/**
 * Offset in the edited text of original offset off: where the byte at off
 * lands, or for an offset inside a replaced range, the start of that
 * replacement. Insertions at off itself come before it.
 */
uint32_t nfy_edit_set_map_offset(nfy_edit_set *set, uint32_t off);

/**
 * Build the inverse set: inv is initialised over edited, which must hold the
 * result of applying set (same bytes). Applying inv to edited gives back the
 * original bytes exactly. Rules and notes are carried over. Returns
 * NFY_EUSAGE when edited's length does not match the applied length.
 */
NFY_NODISCARD nfy_status nfy_edit_set_inverse(nfy_edit_set *set,
                                              const nfy_source *edited,
                                              nfy_edit_set *inv);

/**
 * Append a unified diff (3 lines of context) from the original to the edited
 * text, labelled "a/<path>" and "b/<path>". Nothing is appended when the
 * edits change nothing. edited/edited_len must be the applied result; pass
 * NULL to have it computed. `patch -p1` applies the output.
 */
NFY_NODISCARD nfy_status nfy_edit_set_diff(nfy_edit_set *set, const char *path,
                                           const char *edited,
                                           size_t edited_len, nfy_buf *out);

/**
 * The same diff for any two texts known to differ only inside the given
 * byte ranges: a and b are parallel arrays of n disjoint, sorted ranges, a[i]
 * into old_text and b[i] into new_text, with identical bytes between them.
 * Used by nfy_edit_set_diff; exposed for callers with their own edits.
 */
NFY_NODISCARD nfy_status
nfy_edit_diff_ranges(const char *path, const char *old_text, size_t old_len,
                     const char *new_text, size_t new_len, const nfy_span *a,
                     const nfy_span *b, size_t n, nfy_buf *out);

#endif
