#!/usr/bin/python3
"""Writes tests/unit/test_pylex_cases.h: each input below with the tokens
Debian's /usr/bin/python3 (3.11) tokenize gives for it (ENCODING dropped).
Usage: /usr/bin/python3 tests/unit/test_pylex_cases.py > tests/unit/test_pylex_cases.h
       && clang-format -i tests/unit/test_pylex_cases.h
"""
import tokenize, io
def dump(data):
    out=[]
    for t in tokenize.tokenize(io.BytesIO(data).readline):
        if t.type == tokenize.ENCODING: continue
        s = t.string.encode('utf-8').decode('latin-1')
        s = s.replace('\\','\\\\').replace('\n','\\n').replace('\r','\\r').replace('\t','\\t').replace('\x0c','\\f').replace('\x00','\\0').replace('"','\\"')
        out.append('%s %s %d,%d-%d,%d' % (tokenize.tok_name[t.type], s, t.start[0], t.start[1], t.end[0], t.end[1]))
    return out
def cstr(b):
    r=''
    for c in b:
        if c == 0x5c: r+='\\\\'
        elif c == 0x22: r+='\\"'
        elif c == 10: r+='\\n'
        elif c == 13: r+='\\r'
        elif c == 9: r+='\\t'
        elif c == 12: r+='\\f'
        elif 32 <= c < 127: r+=chr(c)
        else: r+='\\x%02x""' % c
    return '"'+r+'"'
cases = [
 ("numbers", b"0 00 0_0 1_000 0x_1F 0b1_0 0o17 1.5 1. .5 1e5 1E-5 1.5e+3 1j 1.5J 1e5j 0777 1if 0x 1__0 1_j 09.5 1e5. 0e5 1.__x\n"),
 ("prefixes", b"b'' B'' r'' R'' u'' U'' f'' F'' br'' rB'' Rb'' BR'' fr'' rF'' bu'' ub'' '' \"\" '''x''' \"\"\"y\"\"\" rb'''z'''\n"),
 ("fstring_specs", b"f'{x:{w}.{p}}' f'{a!=b}' f'{x!r:>10}' f\"{d['k']}\" f'{{}}' f\"{f'{y}'}\"\n"),
 ("dedents", b"if a:\n    if b:\n        c\n  # comment\n\n    d\ne\n"),
 ("dedent_eof", b"if a:\n  if b:\n    c"),
 ("crlf", b"x = 1\r\ny = (2,\r\n3)\r\n# c\r\n\r\n"),
 ("lone_cr", b"x = 1\ry\n# a\rb\n"),
 ("bom", b"\xef\xbb\xbfx = '\xc3\xa9'\n"),
 ("tabs_formfeed", b"if x:\n\ty\n\f\tz\n  \f  # c\n"),
 ("continuation", b"x = 1 + \\\n  2\nif y:\\\n pass\n"),
 ("continuation_eof", b"x = \\"),
 ("no_final_newline", b"x = 1  "),
 ("comment_eof", b"x = 1\n# c"),
 ("ws_eof", b"if x:\n  y\n   "),
 ("unterminated_single", b"x = 'abc\ny = b'd\n"),
 ("cont_string", b"x = 'a\\\nb' + \"c\\\r\nd\"\n"),
 ("cont_string_error", b"x = 'a\\\nb\nc = 1\n"),
 ("stray_chars", b"x  $ ?! ` \\ y\n"),
 ("nul", b"x = '\x00' \x00 y\n"),
 ("unicode_names", "ñame = 1\nπ² = 2\n²x … y\u00a0z\n".encode()),
 ("brackets", b"x = [\n  1,\n\n  # c\n  2]\ny = 1\n"),
 ("triple_multiline", b"s = '''a\nb\\\nc''' + r\"\"\"\nd\"\"\" ; t\n"),
 ("operators", b"a->b**=c//=d>>=e<<=f@=g:=h...i!=j<>k~l^=m|=n&=o%=p\n"),
]
print("""/*
 * Expected tokens for test_pylex.c, one "KIND text line,col-line,col" string
 * per token (text escaped: \\\\ \\n \\r \\t \\f \\0 \\"), produced by running
 * Debian's /usr/bin/python3 (3.11.2) tokenize.tokenize on each input and
 * dropping the ENCODING token. Regenerate with test_pylex_cases.py.
 */
#ifndef NPUIFY_TEST_PYLEX_CASES_H
#define NPUIFY_TEST_PYLEX_CASES_H

typedef struct {
    const char *name;
    const char *input;
    size_t len;
    const char *const *expected;
} lex_case;
""")
for name, data in cases:
    toks = dump(data)
    print("static const char *const exp_%s[] = {" % name)
    for t in toks:
        print('    %s,' % cstr(t.encode('latin-1')))
    print("    NULL};")
print("static const lex_case cases[] = {")
for name, data in cases:
    print('    {"%s", %s, %d, exp_%s},' % (name, cstr(data), len(data), name))
print("};\n\n#endif")
