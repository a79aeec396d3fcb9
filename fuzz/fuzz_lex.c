/*
 * libFuzzer target for pylex: any bytes must tokenize without a crash, end
 * with ENDMARKER, give back the input byte for byte from the tokens'
 * [trivia_start, end) ranges, keep positions ordered, and let
 * nfy_lex_fstring_split stay inside every f-string token. Aborts on violation.
 * Build: clang -fsanitize=fuzzer,address -Iinclude -Isrc fuzz/fuzz_lex.c
 * followed by every .c file of src/core and src/pylex (no other libraries).
 * Seeds: fuzz/corpus_lex/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pylex/pylex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_lex: %s\n", what);
        abort();
    }
}

static void check_fstring(const nfy_source *src, const nfy_token *t,
                          nfy_fstring_parts *parts)
{
    parts->len = 0;
    if (!nfy_lex_fstring_split(src, t, parts))
        return;
    for (size_t i = 0; i < parts->len; i++) {
        const nfy_fstring_part *p = &parts->items[i];
        check(p->span.start >= t->start && p->span.end <= t->end &&
                  p->span.start <= p->span.end,
              "f-string part outside its token");
        check(p->spec.end <= t->end && p->conv.end <= t->end,
              "f-string conv/spec outside its token");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nfy_source src;
    if (nfy_source_from_mem(&src, "fuzz.py", (const char *)data, size))
        return 0;
    nfy_tokens toks;
    nfy_lex_tokens_init(&toks);
    nfy_diags diags;
    nfy_diags_init(&diags);
    check(nfy_lex_lex(&src, &toks, &diags) == NFY_OK, "nfy_lex_lex failed");
    check(nfy_lex_tokens_lossless(&src, &toks, NULL), "lossless check failed");
    size_t at = 0;
    uint32_t line = 1;
    nfy_fstring_parts parts = {NULL, 0, 0};
    for (size_t i = 0; i < toks.toks.len; i++) {
        const nfy_token *t = &toks.toks.items[i];
        check(t->trivia_start == at && t->start >= t->trivia_start &&
                  t->end >= t->start,
              "token ranges not contiguous");
        check(!size ||
                  memcmp(src.data + t->trivia_start, data + t->trivia_start,
                         t->end - t->trivia_start) == 0,
              "bytes differ");
        check(t->end_line >= t->line && t->line + 1 >= line,
              "positions out of order");
        line = t->line;
        check_fstring(&src, t, &parts);
        at = t->end;
    }
    check(at == size, "tokens do not cover the input");
    check(toks.toks.len &&
              toks.toks.items[toks.toks.len - 1].kind == NFY_TOK_ENDMARKER,
          "no ENDMARKER");
    nfy_vec_free(&parts);
    nfy_diags_release(&diags);
    nfy_lex_tokens_release(&toks);
    nfy_source_release(&src);
    return 0;
}
