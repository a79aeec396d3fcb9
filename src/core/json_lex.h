/*
 * Streaming JSON, one lexer for every reader of JSON text: profiler traces
 * (proflog) and the positions of rule-file errors (rules/json_pos.c).
 *
 * Chrome traces run to gigabytes, so nothing here holds a whole document:
 * a byte source (json_input.c) hands out 64 KiB windows of a file, a file
 * descriptor or memory, inflating gzip when the first two bytes are the
 * gzip magic; a pull lexer (json_lex.c) turns the window into tokens. A
 * string token is decoded into a buffer with a caller-chosen cap, so a
 * 1 GB string costs a scan, not memory. Positions are absolute byte
 * offsets into the (decompressed) stream plus a line number, for
 * diagnostics.
 *
 * Leniency, only where the input is already invalid JSON: a quote inside a
 * string that cannot close it (the next non-blank byte could not follow a
 * string) is kept as content, and an unknown escape keeps its backslash.
 * The legacy trace writer emits both (names are not escaped). Valid JSON
 * always lexes exactly as the grammar says.
 */
#ifndef NPUIFY_CORE_JSON_LEX_H
#define NPUIFY_CORE_JSON_LEX_H

#include <zlib.h>

#include "core/core.h"

#define NFY_JSON_CHUNK ((size_t)64 * 1024)

/* ---- Byte source -------------------------------------------------------- */

typedef struct {
    int fd;      /* -1 for memory input */
    bool own_fd; /* close fd at the end */
    const unsigned char *mem;
    size_t mem_len, mem_pos;
    size_t max_read; /* cap on one read (0: none); tests use tiny reads so
                        that every token crosses refills */
    bool gzip;       /* inflate what is read */
    bool eof;        /* raw input exhausted */
    bool zdone;      /* inflate saw the end of the last member */
    z_stream z;
    unsigned char *zin; /* raw bytes waiting for inflate */
    nfy_status status;  /* first I/O or inflate error */
} nfy_json_input;

/** Open a file ("-" is stdin); detects gzip by its magic bytes. */
NFY_NODISCARD nfy_status nfy_json_input_open(nfy_json_input *in,
                                             const char *path);
/** Read from memory (not copied; must outlive the input). */
void nfy_json_input_mem(nfy_json_input *in, const void *data, size_t len);
/** Fill up to cap bytes; returns the count, 0 at the end or on error. */
size_t nfy_json_input_read(nfy_json_input *in, unsigned char *dst, size_t cap);
/** Back to byte 0 (regular files and memory only); false if impossible. */
bool nfy_json_input_rewind(nfy_json_input *in);
void nfy_json_input_close(nfy_json_input *in);

/* ---- Lexer -------------------------------------------------------------- */

typedef enum {
    NFY_JT_EOF,
    NFY_JT_ERROR,
    NFY_JT_LBRACE,
    NFY_JT_RBRACE,
    NFY_JT_LBRACKET,
    NFY_JT_RBRACKET,
    NFY_JT_COLON,
    NFY_JT_COMMA,
    NFY_JT_STRING,
    NFY_JT_NUMBER,
    NFY_JT_TRUE,
    NFY_JT_FALSE,
    NFY_JT_NULL
} nfy_json_tok;

/** Cap on a decoded number's text; longer numbers are an error. */
#define NFY_JSON_NUMBER_MAX 64

typedef struct {
    nfy_json_input *in;
    unsigned char *buf; /* window of the stream: [0, len), pos is next */
    size_t len, pos, cap;
    uint64_t base;       /* stream offset of buf[0] */
    uint64_t line;       /* 1-based line of buf[line_pos] */
    size_t line_pos;     /* newlines before it are counted into line */
    uint64_t line_start; /* stream offset where line begins */
    bool started;        /* the BOM check was done */

    /* The last token. */
    nfy_json_tok tok;
    uint64_t tok_offset;
    char *text; /* decoded string / number text, NUL-terminated */
    size_t text_len;
    size_t text_cap;     /* allocated size of text */
    bool text_truncated; /* string longer than the cap asked for */
    bool repaired;       /* a stray quote or bad escape was kept as content */
    const char *error;   /* static message for NFY_JT_ERROR */
} nfy_json_lex;

void nfy_json_lex_init(nfy_json_lex *lx, nfy_json_input *in, size_t max_string);
void nfy_json_lex_release(nfy_json_lex *lx);
/** Forget the window after the input was rewound. */
void nfy_json_lex_restart(nfy_json_lex *lx);
/**
 * The next token. Strings are decoded into text, keeping at most str_cap
 * bytes (0 skips the content; text_truncated tells). Errors leave the
 * position just past the offending byte.
 */
nfy_json_tok nfy_json_lex_next(nfy_json_lex *lx, size_t str_cap);
/** 1-based line and 0-based byte column of a stream offset already read. */
void nfy_json_lex_where(nfy_json_lex *lx, uint64_t offset, uint64_t *line,
                        uint64_t *col);
/**
 * Error recovery: skip raw bytes (strings are not trusted) up to the next
 * boundary between two objects of an array: "}" blank* "," blank* "{",
 * or "}" blank* [","] blank* "]". Leaves the position at that "{" or "]"
 * and returns true; false at the end of the input.
 */
bool nfy_json_lex_resync(nfy_json_lex *lx);

/* ---- Walking helpers (json_walk.c) -------------------------------------- */

/** Deepest nesting of arrays/objects accepted anywhere in a trace. */
#define NFY_JSON_MAX_DEPTH 256

/** Record a grammar error at the current token; returns false. */
bool nfy_json_fail(nfy_json_lex *lx, const char *msg);
/**
 * Skip the value that starts with the token just read (tok), checking its
 * grammar, without keeping any of it. depth is the nesting of the value's
 * container. False on error (lx->error set).
 */
bool nfy_json_skip_value(nfy_json_lex *lx, nfy_json_tok tok, int depth);
/**
 * Render the value starting at tok as Python's str() of nested lists of
 * numbers ("[[1, 3], []]"; strings are quoted, null is None) into out.
 * Stops storing (out's sticky error) past out's cap but reads the value to
 * its end. False on a grammar error.
 */
bool nfy_json_render_list(nfy_json_lex *lx, nfy_json_tok tok, int depth,
                          nfy_buf *out);
/**
 * Fast skip without grammar checks: from inside an object or array, skip
 * raw bytes (strings with their escapes, nested brackets) past the bracket
 * that closes it. For quiet passes only. False at the end of the input.
 */
bool nfy_json_lex_skip_rest(nfy_json_lex *lx);
/** Current stream offset of the next unread byte. */
uint64_t nfy_json_lex_offset(const nfy_json_lex *lx);

#endif
