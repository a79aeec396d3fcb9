/*
 * npuify core: status codes, string views, spans, arenas, growable buffers,
 * typed vectors, source files with line tables, diagnostics, file walking and
 * atomic writes. Everything above this layer builds on these types.
 *
 * Ownership in one sentence per type:
 *  - nfy_str / nfy_span are views: they own nothing and are never
 * NUL-terminated.
 *  - nfy_arena owns every block it hands out; nfy_arena_release frees them all.
 *  - nfy_buf owns its bytes until nfy_buf_take hands them to the caller.
 *  - NFY_VEC owns its heap array; nfy_vec_free releases it.
 *  - nfy_source owns its bytes and line table; spans into it live as long as
 * it.
 *  - nfy_diags owns its diagnostics (copied message and source line).
 *
 * Allocation failure aborts with a message (as tree-sitter and jq do); real
 * errors (I/O, limits, bad input) come back as nfy_status values.
 * Nothing here keeps mutable global state; everything is reentrant.
 */
#ifndef NPUIFY_CORE_H
#define NPUIFY_CORE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "npuify/npuify.h"

/**
 * Map an errno value to the closest nfy_status; the file-system errors a
 * user can act on (permission, full disk, read-only, not a directory, name
 * too long, ...) keep their own status, so the reason reaches the message.
 */
nfy_status nfy_status_from_errno(int err);

/* ---- String views and spans ------------------------------------------- */

typedef struct {
    const char *ptr;
    size_t len;
} nfy_str;

#define NFY_STR_LIT(lit) ((nfy_str){(lit), sizeof(lit) - 1})
#define NFY_STR_FMT(s)   (int)(s).len, (s).ptr

nfy_str nfy_str_from_cstr(const char *s);
/* The word for a count: one when n is 1, else many ("1 file", "2 files");
 * every count a person reads goes through it. */
const char *nfy_plural(size_t n, const char *one, const char *many);
bool nfy_str_eq(nfy_str a, nfy_str b);
bool nfy_str_eq_cstr(nfy_str a, const char *b);
bool nfy_str_starts_with(nfy_str s, nfy_str prefix);
bool nfy_str_ends_with(nfy_str s, nfy_str suffix);
/** Sub-view [start, end) clamped to the string. */
nfy_str nfy_str_slice(nfy_str s, size_t start, size_t end);
/** If s starts with prefix, drop it from s and return true. */
bool nfy_str_consume(nfy_str *s, const char *prefix);
/** Index of the first c in s, or -1. */
ptrdiff_t nfy_str_find_char(nfy_str s, char c);
/** Offset of the first w (a non-empty byte string) in s, or -1. */
ptrdiff_t nfy_str_find(nfy_str s, nfy_str w);
/** Does s contain w (a non-empty byte string) anywhere? */
bool nfy_str_contains(nfy_str s, nfy_str w);
/** Does s contain the lower-case ASCII word anywhere, ignoring ASCII case? */
bool nfy_str_contains_ci(nfy_str s, const char *lower_word);
/** Byte-wise comparison usable with qsort-style ordering. */
int nfy_str_cmp(nfy_str a, nfy_str b);
/** FNV-1a hash of the bytes. */
uint64_t nfy_str_hash(nfy_str s);
/** nfy_str_hash one byte at a time: from NFY_STR_HASH_SEED, each step adds
 *  byte c (for hashing every prefix of a name on the way). */
#define NFY_STR_HASH_SEED 14695981039346656037ull
static inline uint64_t nfy_str_hash_step(uint64_t h, unsigned char c)
{
    return (h ^ c) * 1099511628211ull;
}
/** Another hash of s, eight bytes a step: for tables whose order nothing
 *  reads (its values differ from nfy_str_hash's). */
uint64_t nfy_str_hash_words(nfy_str s);

/** Byte range [start, end) into an nfy_source; valid while the source lives. */
typedef struct {
    uint32_t start;
    uint32_t end;
} nfy_span;

/* ---- UTF-8 ------------------------------------------------------------- */

/**
 * Decode one UTF-8 sequence at s (n bytes available). Returns its length
 * (1-4) and stores the code point, or returns 0 for an invalid or truncated
 * sequence (overlongs, surrogates and values above U+10FFFF are invalid).
 */
size_t nfy_utf8_decode(const char *s, size_t n, uint32_t *cp);
/**
 * Encode code point cp (at most U+10FFFF) as UTF-8 into out, which has room
 * for 4 bytes. Returns the length (1-4).
 */
size_t nfy_utf8_encode(uint32_t cp, char *out);
/** Number of code points in s, counting each invalid byte as one. */
size_t nfy_utf8_count(const char *s, size_t n);

/* ---- Arena ------------------------------------------------------------- */

typedef struct nfy_arena_block nfy_arena_block;

/** Bump allocator over a chain of blocks; one per file or session. */
typedef struct {
    nfy_arena_block *head;
    size_t used_total; /* bytes handed out, for statistics */
} nfy_arena;

#define NFY_ARENA_INIT                                                         \
    {                                                                          \
        NULL, 0                                                                \
    }

void nfy_arena_init(nfy_arena *a);
/** Free every block; the arena can be used again afterwards. */
void nfy_arena_release(nfy_arena *a);
/** Aligned (max_align_t) uninitialised memory; aborts on out-of-memory. */
void *nfy_arena_alloc(nfy_arena *a, size_t size);
/** Zeroed memory for n elements of size bytes; aborts on overflow or OOM. */
void *nfy_arena_calloc(nfy_arena *a, size_t n, size_t size);
/** NUL-terminated copy of n bytes. */
char *nfy_arena_strndup(nfy_arena *a, const char *s, size_t n);
/** Copy of a C string; NULL stays NULL. */
char *nfy_arena_strdup(nfy_arena *a, const char *s);
/** NUL-terminated copy of a view, returned as a view onto the copy. */
nfy_str nfy_arena_str(nfy_arena *a, nfy_str s);
/** printf into arena memory. */
char *nfy_arena_fmt(nfy_arena *a, const char *fmt, ...) NFY_PRINTF(2, 3);
char *nfy_arena_vfmt(nfy_arena *a, const char *fmt, va_list ap);

/*
 * A block to fill while its final size is unknown (a result vector):
 * nfy_arena_grow resizes it by realloc (items NULL starts one), and
 * nfy_arena_adopt trims it to its used bytes and hands it to the arena,
 * so growing leaves no abandoned copies and no spare capacity behind.
 * Both return the block's (possibly moved) data, aligned as
 * nfy_arena_alloc's; nfy_arena_drop frees a block not adopted.
 */
void *nfy_arena_grow(void *items, size_t bytes);
void *nfy_arena_adopt(nfy_arena *a, void *items, size_t used);
void nfy_arena_drop(void *items);

/* ---- Growable buffer --------------------------------------------------- */

/**
 * Growable byte buffer, always NUL-terminated once anything was added, with a
 * hard size cap. Errors are sticky: after an add fails (cap exceeded) every
 * later add is a no-op, and status holds the first error, so writers can add
 * freely and check once at the end.
 */
struct nfy_buf {
    char *data;
    size_t len;
    size_t cap;
    size_t max;        /* cap on len; 0 means NFY_BUF_DEFAULT_MAX */
    nfy_status status; /* first error, sticky */
    /* Optional: where the bytes go once NFY_BUF_SINK_AT are held, so a
     * large rendering is streamed instead of held whole (append-only). */
    nfy_status (*sink)(void *ctx, const char *data, size_t len);
    void *sink_ctx;
};

#define NFY_BUF_SINK_AT ((size_t)1 << 18)

#define NFY_BUF_DEFAULT_MAX ((size_t)1 << 31)
#define NFY_BUF_INIT                                                           \
    {                                                                          \
        NULL, 0, 0, 0, NFY_OK, NULL, NULL                                      \
    }

void nfy_buf_init(nfy_buf *b, size_t max);
/** Hand the held bytes to the sink (if any); the sink's error sticks. */
nfy_status nfy_buf_flush(nfy_buf *b);
void nfy_buf_release(nfy_buf *b);
/** Forget the content, keep the memory; also clears a sticky error. */
void nfy_buf_reset(nfy_buf *b);

/*
 * Can n more bytes go in as they are: no sticky error, no flush due, within
 * the cap and the memory held? Report writers append millions of short
 * pieces, so that case is inline; everything else (growing, flushing,
 * failing) is nfy__buf_add_slow's.
 */
/* The cap in force: b's own, or the default. */
static inline size_t nfy__buf_max(const nfy_buf *b)
{
    return b->max ? b->max : NFY_BUF_DEFAULT_MAX;
}

static inline bool nfy__buf_fits(const nfy_buf *b, size_t n)
{
    if (n >= b->cap - b->len) /* cap is 0 or above len */
        return false;
    size_t end = b->len + n;
    return end <= nfy__buf_max(b) && !b->status &&
           (!b->sink || end < NFY_BUF_SINK_AT);
}

nfy_status nfy__buf_add_slow(nfy_buf *b, const void *data, size_t len);

static inline nfy_status nfy_buf_add(nfy_buf *b, const void *data, size_t len)
{
    if (!nfy__buf_fits(b, len))
        return nfy__buf_add_slow(b, data, len);
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return NFY_OK;
}

static inline nfy_status nfy_buf_addch(nfy_buf *b, char c)
{
    if (!nfy__buf_fits(b, 1))
        return nfy__buf_add_slow(b, &c, 1);
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
    return NFY_OK;
}

static inline nfy_status nfy_buf_addstr(nfy_buf *b, const char *s)
{
    return nfy_buf_add(b, s, strlen(s));
}

static inline nfy_status nfy_buf_addview(nfy_buf *b, nfy_str s)
{
    return nfy_buf_add(b, s.ptr, s.len);
}

/** v in decimal, as "%llu" prints it (without a format to parse). */
nfy_status nfy_buf_addu(nfy_buf *b, unsigned long long v);
nfy_status nfy_buf_addf(nfy_buf *b, const char *fmt, ...) NFY_PRINTF(2, 3);
nfy_status nfy_buf_vaddf(nfy_buf *b, const char *fmt, va_list ap);
/** Make room for at least extra more bytes (plus the NUL). */
nfy_status nfy_buf_reserve(nfy_buf *b, size_t extra);
/** The content as a C string; "" for an empty buffer, never NULL. */
const char *nfy_buf_cstr(const nfy_buf *b);
nfy_str nfy_buf_view(const nfy_buf *b);
/** Hand the bytes to the caller (free() them); the buffer becomes empty. */
char *nfy_buf_take(nfy_buf *b, size_t *len_out);

/* ---- Typed vector ------------------------------------------------------ */

#define NFY_VEC(T)                                                             \
    struct {                                                                   \
        T *items;                                                              \
        size_t len;                                                            \
        size_t cap;                                                            \
    }

/** Grow *items to hold need elements of elem bytes; aborts on OOM/overflow. */
void nfy__vec_grow(void **items, size_t *cap, size_t need, size_t elem);

#define nfy_vec_reserve(v, n)                                                  \
    nfy__vec_grow((void **)&(v)->items, &(v)->cap, (v)->len + (n),             \
                  sizeof *(v)->items)
#define nfy_vec_push(v, x)                                                     \
    (nfy_vec_reserve((v), 1), (v)->items[(v)->len++] = (x))
#define nfy_vec_last(v) (&(v)->items[(v)->len - 1])
#define nfy_vec_free(v)                                                        \
    (free((v)->items), (v)->items = NULL, (v)->len = 0, (v)->cap = 0)

/* ---- Source files ------------------------------------------------------ */

/**
 * A file's bytes plus a table of line starts. Lines end at "\n", "\r\n" or
 * a lone "\r", as in Python. Owns its bytes (always followed by a NUL that is
 * not part of len) and its table.
 */
typedef struct {
    const char *path; /* display name; owned copy */
    char *data;
    size_t len;
    uint32_t *line_starts; /* line_starts[i] = offset of line i+1 */
    size_t nlines;
    /* Code points before each NFY_SOURCE_CP_BLOCK-byte block, so a column
     * costs one block's scan whatever the line's length; NULL when the file
     * is ASCII (a column is then a byte count). */
    uint32_t *cp_counts; /* code points before cp_starts[b] */
    uint8_t *cp_skip;    /* cp_starts[b] = b * BLOCK + cp_skip[b] */
    size_t ncp;
} nfy_source;

/** Bytes per block of the code point table (a column scans at most two). */
#define NFY_SOURCE_CP_BLOCK 64

/** Largest file npuify reads (spans are 32-bit offsets). */
#define NFY_SOURCE_MAX_BYTES ((size_t)1 << 30)

/** Read a whole file; NFY_ELIMIT if larger than max (0: NFY_SOURCE_MAX_BYTES).
 */
NFY_NODISCARD nfy_status nfy_source_load(nfy_source *src, const char *path,
                                         size_t max);
/** Build a source from a copy of memory. */
NFY_NODISCARD nfy_status nfy_source_from_mem(nfy_source *src, const char *path,
                                             const char *data, size_t len);
void nfy_source_release(nfy_source *src);
/** Index (0-based) of the line holding a byte offset (binary search). */
size_t nfy_source_line_index(const nfy_source *src, uint32_t offset);
/**
 * 1-based line and 0-based column (in code points, as Python counts) of a
 * byte offset. Offsets past the end map to the end.
 */
void nfy_source_linecol(const nfy_source *src, uint32_t offset, uint32_t *line,
                        uint32_t *col);
/**
 * Code points in [0, offset), as nfy_utf8_count over those bytes counts
 * them. When scanned is not NULL, adds the bytes decoded to answer (at most
 * 2 * NFY_SOURCE_CP_BLOCK + 3, so columns are linear in edits per line).
 */
size_t nfy_source_codepoints(const nfy_source *src, uint32_t offset,
                             size_t *scanned);
/** The text of a 1-based line without its line ending. */
nfy_str nfy_source_line(const nfy_source *src, uint32_t line);
/**
 * The byte offset of a 1-based line and 0-based code-point column (the
 * inverse of nfy_source_linecol): 0 for line 0, the file's end for a line
 * past it; a column is counted on past its line's end, up to the file's.
 */
uint32_t nfy_source_offset(const nfy_source *src, uint32_t line, uint32_t col);

/* ---- Diagnostics ------------------------------------------------------- */

/** One located message. Strings are owned by the nfy_diags arena. */
typedef struct {
    nfy_severity sev;
    const char *code; /* e.g. "lex-unterminated" or a rule id */
    const char *file; /* may be NULL for messages about no file */
    uint32_t line;    /* 1-based; 0 when unknown */
    uint32_t col;     /* 0-based code points */
    uint32_t offset;  /* byte offset into the file */
    uint32_t width;   /* columns to underline, >= 1 */
    const char *msg;
    /* The source line for the caret rendering: on a long line only a
     * window around the column, "..." marking what is cut away. */
    nfy_str line_text;
    uint32_t text_col; /* the column within line_text (code points) */
} nfy_diag;

struct nfy_diags {
    NFY_VEC(nfy_diag) items;
    nfy_arena arena;
    size_t max;     /* stop recording after this many (0: unlimited) */
    size_t dropped; /* diagnostics not recorded because of max */
};

void nfy_diags_init(nfy_diags *d);
void nfy_diags_release(nfy_diags *d);
/**
 * Record a diagnostic at byte range [offset, offset+len) of src (src may be
 * NULL: then only file is kept, from path).
 */
void nfy_diag_add(nfy_diags *d, nfy_severity sev, const char *code,
                  const nfy_source *src, uint32_t offset, uint32_t len,
                  const char *fmt, ...) NFY_PRINTF(7, 8);
/** Record a diagnostic with a known file and line/column, no source text. */
void nfy_diag_add_at(nfy_diags *d, nfy_severity sev, const char *code,
                     const char *file, uint32_t line, uint32_t col,
                     const char *fmt, ...) NFY_PRINTF(7, 8);
/**
 * Copy src's diagnostics [from, to) to the end of dst (texts into dst's
 * arena), respecting dst's cap (those past it count as dropped).
 */
void nfy_diags_append(nfy_diags *dst, const nfy_diags *src, size_t from,
                      size_t to);
/** "file:line:col: severity[code]: msg", the source line and a caret line. */
void nfy_diag_render_text(const nfy_diag *dg, bool color, nfy_buf *out);
/** One JSON object (no trailing newline). */
void nfy_diag_render_json(const nfy_diag *dg, nfy_buf *out);

/* ---- JSON/CSV/HTML escaping (shared by every report writer) ------------ */

/** Append s as a JSON string literal, quotes included. */
void nfy_json_escape(nfy_buf *out, const char *s, size_t n);
/** The JSON escape of one ASCII byte that needs one (`"`, `\\`, a control
 *  byte): `\n` and the like where JSON has one, else `\u00xx`. */
void nfy_json_escape_byte(nfy_buf *out, unsigned char c);
/** Append s as an RFC 4180 CSV field (quoted only when needed). */
void nfy_csv_escape(nfy_buf *out, const char *s, size_t n);
/**
 * Append s as HTML text or attribute value: & < > " ' as entities, control
 * characters other than tab and line ends (invalid in HTML) and DEL as
 * U+FFFD. Invalid UTF-8 passes through (a page's charset makes browsers
 * show U+FFFD).
 */
void nfy_html_escape(nfy_buf *out, const char *s, size_t n);

/**
 * A file name as every report and edit id shows it, reversibly: printable
 * UTF-8 as it is, '\' as "\\", and each byte of anything else (bytes that
 * are no UTF-8, control characters, the bidirectional controls such as
 * U+202E) as "\xHH". So bad\xff.py and bad\xfe.py stay two names, and a
 * name never reorders or breaks the text around it.
 */
void nfy_name_escape(nfy_buf *out, const char *s, size_t n);
/** s itself when it needs no escape, else its escape in tmp (NULL: NULL). */
const char *nfy_name_shown(nfy_buf *tmp, const char *s);
/** The name nfy_name_escape wrote as s, appended to out; false when s is
 * no such escape (a lone '\'). */
bool nfy_name_unescape(nfy_buf *out, const char *s, size_t n);
/** s with each bidirectional control shown as a visible mark
 * ("\u27E6U+202E\u27E7"): for code shown to a reviewer, never for text that
 * is compared or written back. */
void nfy_bidi_visible(nfy_buf *out, const char *s, size_t n);

/* ---- SHA-256 (FIPS 180-4) -------------------------------------------- */

#define NFY_SHA256_BYTES 32
#define NFY_SHA256_HEX   65 /* 64 hex digits and a NUL */

typedef struct {
    uint32_t h[8];
    uint64_t len; /* bytes added so far */
    uint8_t block[64];
    size_t fill; /* bytes of block in use */
} nfy_sha256;

void nfy_sha256_init(nfy_sha256 *s);
void nfy_sha256_add(nfy_sha256 *s, const void *data, size_t n);
/** The digest of everything added; s must be initialised again to reuse. */
void nfy_sha256_finish(nfy_sha256 *s, uint8_t digest[NFY_SHA256_BYTES]);
/** Lower-case hex of a digest, NUL-terminated. */
void nfy_sha256_hex(const uint8_t digest[NFY_SHA256_BYTES],
                    char hex[NFY_SHA256_HEX]);

/* ---- Files ------------------------------------------------------------- */

struct stat;

/**
 * Read a whole file into out (appended). NFY_ELIMIT past max bytes. Only a
 * regular file is read: a FIFO or device is NFY_ENOTREG (never blocks).
 */
NFY_NODISCARD nfy_status nfy_file_read(const char *path, size_t max,
                                       nfy_buf *out);
/** Open a regular file for reading (*fd, its stat in *st); anything else
 * is refused unread, as by nfy_file_read. */
NFY_NODISCARD nfy_status nfy_file_open_read(const char *path, int *fd,
                                            struct stat *st);
/** nfy_file_read from an open descriptor (from its offset on) of a file
 * fstat said is size bytes: read in one call where it still is. */
NFY_NODISCARD nfy_status nfy_file_read_sized(int fd, off_t size, size_t max,
                                             nfy_buf *out);
/** The first bytes of an open file, by offset (fd's offset unchanged). */
NFY_NODISCARD nfy_status nfy_file_head_fd(int fd, char *buf, size_t cap,
                                          size_t *got);
/** The process's umask without changing it; false where it cannot be read
 * (no /proc). */
bool nfy_umask_get(mode_t *out);

enum nfy_write_flags {
    NFY_WRITE_SYNC = 1u << 0, /* fsync before the rename (power-loss safe) */
    NFY_WRITE_KEEP_OWNER = 1u << 1, /* owner and group of what is replaced */
    /* The name most likely does not exist yet (a fresh output tree): the
     * file is written unnamed (O_TMPFILE) and linked once complete, so no
     * temporary is made and a killed run leaves it complete or absent. */
    NFY_WRITE_NEW = 1u << 2,
    /* The umask lets mode through unchanged: it is given at creation, with
     * no fchmod after (with NFY_WRITE_NEW). */
    NFY_WRITE_MODE_AT_OPEN = 1u << 3
};

/* How a file is written, and what could not be kept. */
typedef struct {
    mode_t mode;     /* for a new file; a replaced one keeps its own mode */
    unsigned flags;  /* nfy_write_flags */
    bool owner_lost; /* out: owner/group could not be kept (owner_errno) */
    int owner_errno; /* out */
    bool mode_lost;  /* out: the mode could not be set */
} nfy_write_opts;

/**
 * Write dirfd/name atomically: the data goes to a temporary with a short
 * fixed-length name (".npuify-XXXXXX", see nfy_is_temp_name) in the same
 * directory, which is renamed over name, so a reader never sees a
 * half-written file and nothing is left behind on failure. A symbolic link
 * at name is replaced, never written through. The mode (and with
 * NFY_WRITE_KEEP_OWNER the owner) of the file replaced is kept.
 */
NFY_NODISCARD nfy_status nfy_file_write_at(int dirfd, const char *name,
                                           const void *data, size_t len,
                                           nfy_write_opts *w);
/** Copy the regular file src to dirfd/name the same way (streamed), with
 * src's mode (and owner with NFY_WRITE_KEEP_OWNER). */
NFY_NODISCARD nfy_status nfy_file_copy_at(const char *src, int dirfd,
                                          const char *name, nfy_write_opts *w);
/** nfy_file_copy_at from an open file (st its stat), copied from offset 0
 * in the kernel where it can be (copy_file_range), else through a buffer. */
NFY_NODISCARD nfy_status nfy_file_copy_fd_at(int in, const struct stat *st,
                                             int dirfd, const char *name,
                                             nfy_write_opts *w);
/** Recreate the symbolic link src as dirfd/name (replacing it atomically). */
NFY_NODISCARD nfy_status nfy_symlink_copy_at(const char *src, int dirfd,
                                             const char *name);
/** mkdir dirfd/name; an existing directory is fine, an existing link is
 * NFY_ESYMLINK and anything else NFY_ENOTDIR. */
NFY_NODISCARD nfy_status nfy_mkdir_at(int dirfd, const char *name, mode_t mode);
/**
 * Open root/rel as a directory (*out), following links in root (the name
 * the user gave) but none in rel: a link there is NFY_ESYMLINK.
 */
NFY_NODISCARD nfy_status nfy_dir_open_beneath(const char *root, const char *rel,
                                              int *out);
/** nfy_dir_open_beneath from an open root directory (rootfd stays open). */
NFY_NODISCARD nfy_status nfy_dir_open_beneath_fd(int rootfd, const char *rel,
                                                 int *out);
/** True for a temporary name npuify makes: "." ... ".npuify-" + 6 of
 * [A-Za-z0-9] (also the ".BASE.npuify-XXXXXX" of earlier versions). */
bool nfy_is_temp_name(const char *name);

/** Open the directory part of path ("." when none); *base: the rest. */
NFY_NODISCARD nfy_status nfy_dir_open_parent(const char *path, int *fd,
                                             const char **base);
/** The first bytes of a regular file (NFY_ENOTREG for anything else, which
 * is never read, so a FIFO cannot block). */
NFY_NODISCARD nfy_status nfy_file_head(const char *path, char *buf, size_t cap,
                                       size_t *got);

/**
 * The same atomic write, streamed: open creates the temporary beside path,
 * write appends to it, commit gives it the mode (w->mode), fsyncs it with
 * NFY_WRITE_SYNC and renames it over path; any failure, or abort, removes
 * it and leaves path as it was.
 */
typedef struct {
    int dirfd;
    int fd;
    const char *name; /* into the path given to open */
    char tmp[32];
    nfy_write_opts w;
} nfy_file_stream;
NFY_NODISCARD nfy_status nfy_file_stream_open(nfy_file_stream *fs,
                                              const char *path,
                                              nfy_write_opts w);
NFY_NODISCARD nfy_status nfy_file_stream_write(nfy_file_stream *fs,
                                               const void *data, size_t len);
NFY_NODISCARD nfy_status nfy_file_stream_commit(nfy_file_stream *fs);
void nfy_file_stream_abort(nfy_file_stream *fs);

/** nfy_file_write_at into the directory of path, with NFY_WRITE_SYNC. */
NFY_NODISCARD nfy_status nfy_file_write_atomic(const char *path,
                                               const void *data, size_t len,
                                               mode_t mode);
/**
 * nfy_file_write_atomic with a choice of flags. Without NFY_WRITE_SYNC the
 * rename still guarantees that readers never see a partial file; only
 * durability across a crash of the machine is given up (fine for a fresh
 * output tree, where it saves one disk flush per file).
 */
NFY_NODISCARD nfy_status nfy_file_write_atomic_flags(const char *path,
                                                     const void *data,
                                                     size_t len, mode_t mode,
                                                     unsigned flags);
/**
 * Copy a file's bytes to dst atomically (streamed, so memory stays small
 * for any file size), keeping src's permission bits.
 */
NFY_NODISCARD nfy_status nfy_file_copy_atomic(const char *src, const char *dst);
/** Recreate the symbolic link src at dst (replacing dst atomically). */
NFY_NODISCARD nfy_status nfy_symlink_copy(const char *src, const char *dst);
/** True when path exists and is a directory with at least one entry. */
bool nfy_dir_nonempty(const char *path);
/** mkdir -p. */
NFY_NODISCARD nfy_status nfy_mkdirs(const char *path, mode_t mode);
/** Join two path parts with one '/'; result in arena. */
char *nfy_path_join(nfy_arena *a, const char *dir, const char *name);

typedef enum {
    NFY_WALK_FILE,
    NFY_WALK_SYMLINK, /* reported, never followed */
    NFY_WALK_DIR,     /* reported before its children */
    NFY_WALK_SPECIAL, /* FIFO, socket, device: reported, never opened */
    NFY_WALK_ERROR    /* could not be examined or listed: err says why */
} nfy_walk_kind;

typedef struct {
    const char *path; /* root-joined path */
    const char *rel; /* path relative to the root, '/' separated; "" for root */
    nfy_walk_kind kind;
    mode_t mode;
    off_t size;
    int err; /* NFY_WALK_ERROR: the errno of the failed stat or listing */
} nfy_walk_entry;

/** Return non-zero to stop the walk (it then returns NFY_OK early). */
typedef int (*nfy_walk_fn)(void *ctx, const nfy_walk_entry *e);

typedef struct {
    const char *const *skip_names; /* NULL-terminated; matched on base names */
    const char *skip_path;         /* a real path to skip (e.g. the output) */
} nfy_walk_opts;

/**
 * Walk root depth-first in sorted (byte) order, calling fn for every entry.
 * Symbolic links are reported, never followed, so there are no loops; a
 * directory seen twice (same device and inode, e.g. bind mounts) is skipped.
 * An entry that cannot be examined, or a directory that cannot be listed,
 * is reported as NFY_WALK_ERROR (after the directory's own entry) and the
 * walk goes on. If root is a file, fn is called once for it with rel set to
 * its base name. diags is unused (kept for callers).
 */
NFY_NODISCARD nfy_status nfy_walk(const char *root, const nfy_walk_opts *opts,
                                  nfy_walk_fn fn, void *ctx, nfy_diags *diags);

#endif
