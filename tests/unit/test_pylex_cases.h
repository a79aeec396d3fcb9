/*
 * Expected tokens for test_pylex.c, one "KIND text line,col-line,col" string
 * per token (text escaped: \\ \n \r \t \f \0 \"), produced by running
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

static const char *const exp_numbers[] = {"NUMBER 0 1,0-1,1",
                                          "NUMBER 00 1,2-1,4",
                                          "NUMBER 0_0 1,5-1,8",
                                          "NUMBER 1_000 1,9-1,14",
                                          "NUMBER 0x_1F 1,15-1,20",
                                          "NUMBER 0b1_0 1,21-1,26",
                                          "NUMBER 0o17 1,27-1,31",
                                          "NUMBER 1.5 1,32-1,35",
                                          "NUMBER 1. 1,36-1,38",
                                          "NUMBER .5 1,39-1,41",
                                          "NUMBER 1e5 1,42-1,45",
                                          "NUMBER 1E-5 1,46-1,50",
                                          "NUMBER 1.5e+3 1,51-1,57",
                                          "NUMBER 1j 1,58-1,60",
                                          "NUMBER 1.5J 1,61-1,65",
                                          "NUMBER 1e5j 1,66-1,70",
                                          "NUMBER 0 1,71-1,72",
                                          "NUMBER 777 1,72-1,75",
                                          "NUMBER 1 1,76-1,77",
                                          "NAME if 1,77-1,79",
                                          "NUMBER 0 1,80-1,81",
                                          "NAME x 1,81-1,82",
                                          "NUMBER 1 1,83-1,84",
                                          "NAME __0 1,84-1,87",
                                          "NUMBER 1 1,88-1,89",
                                          "NAME _j 1,89-1,91",
                                          "NUMBER 09.5 1,92-1,96",
                                          "NUMBER 1e5 1,97-1,100",
                                          "OP . 1,100-1,101",
                                          "NUMBER 0e5 1,102-1,105",
                                          "NUMBER 1. 1,106-1,108",
                                          "NAME __x 1,108-1,111",
                                          "NEWLINE \\n 1,111-1,112",
                                          "ENDMARKER  2,0-2,0",
                                          NULL};
static const char *const exp_prefixes[] = {
    "STRING b'' 1,0-1,3",          "STRING B'' 1,4-1,7",
    "STRING r'' 1,8-1,11",         "STRING R'' 1,12-1,15",
    "STRING u'' 1,16-1,19",        "STRING U'' 1,20-1,23",
    "STRING f'' 1,24-1,27",        "STRING F'' 1,28-1,31",
    "STRING br'' 1,32-1,36",       "STRING rB'' 1,37-1,41",
    "STRING Rb'' 1,42-1,46",       "STRING BR'' 1,47-1,51",
    "STRING fr'' 1,52-1,56",       "STRING rF'' 1,57-1,61",
    "NAME bu 1,62-1,64",           "STRING '' 1,64-1,66",
    "NAME ub 1,67-1,69",           "STRING '' 1,69-1,71",
    "STRING '' 1,72-1,74",         "STRING \\\"\\\" 1,75-1,77",
    "STRING '''x''' 1,78-1,85",    "STRING \\\"\\\"\\\"y\\\"\\\"\\\" 1,86-1,93",
    "STRING rb'''z''' 1,94-1,103", "NEWLINE \\n 1,103-1,104",
    "ENDMARKER  2,0-2,0",          NULL};
static const char *const exp_fstring_specs[] = {
    "STRING f'{x:{w}.{p}}' 1,0-1,14",
    "STRING f'{a!=b}' 1,15-1,24",
    "STRING f'{x!r:>10}' 1,25-1,37",
    "STRING f\\\"{d['k']}\\\" 1,38-1,49",
    "STRING f'{{}}' 1,50-1,57",
    "STRING f\\\"{f'{y}'}\\\" 1,58-1,69",
    "NEWLINE \\n 1,69-1,70",
    "ENDMARKER  2,0-2,0",
    NULL};
static const char *const exp_dedents[] = {"NAME if 1,0-1,2",
                                          "NAME a 1,3-1,4",
                                          "OP : 1,4-1,5",
                                          "NEWLINE \\n 1,5-1,6",
                                          "INDENT      2,0-2,4",
                                          "NAME if 2,4-2,6",
                                          "NAME b 2,7-2,8",
                                          "OP : 2,8-2,9",
                                          "NEWLINE \\n 2,9-2,10",
                                          "INDENT          3,0-3,8",
                                          "NAME c 3,8-3,9",
                                          "NEWLINE \\n 3,9-3,10",
                                          "COMMENT # comment 4,2-4,11",
                                          "NL \\n 4,11-4,12",
                                          "NL \\n 5,0-5,1",
                                          "DEDENT  6,4-6,4",
                                          "NAME d 6,4-6,5",
                                          "NEWLINE \\n 6,5-6,6",
                                          "DEDENT  7,0-7,0",
                                          "NAME e 7,0-7,1",
                                          "NEWLINE \\n 7,1-7,2",
                                          "ENDMARKER  8,0-8,0",
                                          NULL};
static const char *const exp_dedent_eof[] = {
    "NAME if 1,0-1,2",     "NAME a 1,3-1,4",
    "OP : 1,4-1,5",        "NEWLINE \\n 1,5-1,6",
    "INDENT    2,0-2,2",   "NAME if 2,2-2,4",
    "NAME b 2,5-2,6",      "OP : 2,6-2,7",
    "NEWLINE \\n 2,7-2,8", "INDENT      3,0-3,4",
    "NAME c 3,4-3,5",      "NEWLINE  3,5-3,6",
    "DEDENT  4,0-4,0",     "DEDENT  4,0-4,0",
    "ENDMARKER  4,0-4,0",  NULL};
static const char *const exp_crlf[] = {
    "NAME x 1,0-1,1",         "OP = 1,2-1,3",        "NUMBER 1 1,4-1,5",
    "NEWLINE \\r\\n 1,5-1,7", "NAME y 2,0-2,1",      "OP = 2,2-2,3",
    "OP ( 2,4-2,5",           "NUMBER 2 2,5-2,6",    "OP , 2,6-2,7",
    "NL \\r\\n 2,7-2,9",      "NUMBER 3 3,0-3,1",    "OP ) 3,1-3,2",
    "NEWLINE \\r\\n 3,2-3,4", "COMMENT # c 4,0-4,3", "NL \\r\\n 4,3-4,5",
    "NL \\r\\n 5,0-5,2",      "ENDMARKER  6,0-6,0",  NULL};
static const char *const exp_lone_cr[] = {
    "NAME x 1,0-1,1",          "OP = 1,2-1,3",
    "NUMBER 1 1,4-1,5",        "ERRORTOKEN \\r 1,5-1,6",
    "NAME y 1,6-1,7",          "NEWLINE \\n 1,7-1,8",
    "COMMENT # a\\rb 2,0-2,5", "NL \\n 2,5-2,6",
    "ENDMARKER  3,0-3,0",      NULL};
static const char *const exp_bom[] = {"NAME x 1,0-1,1",
                                      "OP = 1,2-1,3",
                                      "STRING '\xc3"
                                      "\xa9"
                                      "' 1,4-1,7",
                                      "NEWLINE \\n 1,7-1,8",
                                      "ENDMARKER  2,0-2,0",
                                      NULL};
static const char *const exp_tabs_formfeed[] = {
    "NAME if 1,0-1,2",     "NAME x 1,3-1,4",
    "OP : 1,4-1,5",        "NEWLINE \\n 1,5-1,6",
    "INDENT \\t 2,0-2,1",  "NAME y 2,1-2,2",
    "NEWLINE \\n 2,2-2,3", "NAME z 3,2-3,3",
    "NEWLINE \\n 3,3-3,4", "COMMENT # c 4,5-4,8",
    "NL \\n 4,8-4,9",      "DEDENT  5,0-5,0",
    "ENDMARKER  5,0-5,0",  NULL};
static const char *const exp_continuation[] = {"NAME x 1,0-1,1",
                                               "OP = 1,2-1,3",
                                               "NUMBER 1 1,4-1,5",
                                               "OP + 1,6-1,7",
                                               "NUMBER 2 2,2-2,3",
                                               "NEWLINE \\n 2,3-2,4",
                                               "NAME if 3,0-3,2",
                                               "NAME y 3,3-3,4",
                                               "OP : 3,4-3,5",
                                               "NAME pass 4,1-4,5",
                                               "NEWLINE \\n 4,5-4,6",
                                               "ENDMARKER  5,0-5,0",
                                               NULL};
static const char *const exp_continuation_eof[] = {"NAME x 1,0-1,1",
                                                   "OP = 1,2-1,3",
                                                   "ERRORTOKEN   1,3-1,4",
                                                   "ERRORTOKEN \\\\ 1,4-1,5",
                                                   "NEWLINE  1,5-1,6",
                                                   "ENDMARKER  2,0-2,0",
                                                   NULL};
static const char *const exp_no_final_newline[] = {
    "NAME x 1,0-1,1",   "OP = 1,2-1,3",       "NUMBER 1 1,4-1,5",
    "NEWLINE  1,7-1,8", "ENDMARKER  2,0-2,0", NULL};
static const char *const exp_comment_eof[] = {
    "NAME x 1,0-1,1",      "OP = 1,2-1,3",
    "NUMBER 1 1,4-1,5",    "NEWLINE \\n 1,5-1,6",
    "COMMENT # c 2,0-2,3", "NL  2,3-2,3",
    "ENDMARKER  3,0-3,0",  NULL};
static const char *const exp_ws_eof[] = {
    "NAME if 1,0-1,2",     "NAME x 1,3-1,4",
    "OP : 1,4-1,5",        "NEWLINE \\n 1,5-1,6",
    "INDENT    2,0-2,2",   "NAME y 2,2-2,3",
    "NEWLINE \\n 2,3-2,4", "DEDENT  3,0-3,0",
    "ENDMARKER  3,0-3,0",  NULL};
static const char *const exp_unterminated_single[] = {
    "NAME x 1,0-1,1",       "OP = 1,2-1,3",
    "ERRORTOKEN   1,3-1,4", "ERRORTOKEN ' 1,4-1,5",
    "NAME abc 1,5-1,8",     "NEWLINE \\n 1,8-1,9",
    "NAME y 2,0-2,1",       "OP = 2,2-2,3",
    "NAME b 2,4-2,5",       "ERRORTOKEN ' 2,5-2,6",
    "NAME d 2,6-2,7",       "NEWLINE \\n 2,7-2,8",
    "ENDMARKER  3,0-3,0",   NULL};
static const char *const exp_cont_string[] = {
    "NAME x 1,0-1,1",
    "OP = 1,2-1,3",
    "STRING 'a\\\\\\nb' 1,4-2,2",
    "OP + 2,3-2,4",
    "STRING \\\"c\\\\\\r\\nd\\\" 2,5-3,2",
    "NEWLINE \\n 3,2-3,3",
    "ENDMARKER  4,0-4,0",
    NULL};
static const char *const exp_cont_string_error[] = {
    "NAME x 1,0-1,1",
    "OP = 1,2-1,3",
    "ERRORTOKEN 'a\\\\\\nb\\n 1,4-2,2",
    "NAME c 3,0-3,1",
    "OP = 3,2-3,3",
    "NUMBER 1 3,4-3,5",
    "NEWLINE \\n 3,5-3,6",
    "ENDMARKER  4,0-4,0",
    NULL};
static const char *const exp_stray_chars[] = {"NAME x 1,0-1,1",
                                              "ERRORTOKEN   1,1-1,2",
                                              "ERRORTOKEN   1,2-1,3",
                                              "ERRORTOKEN $ 1,3-1,4",
                                              "ERRORTOKEN   1,4-1,5",
                                              "ERRORTOKEN ? 1,5-1,6",
                                              "ERRORTOKEN ! 1,6-1,7",
                                              "ERRORTOKEN   1,7-1,8",
                                              "ERRORTOKEN ` 1,8-1,9",
                                              "ERRORTOKEN   1,9-1,10",
                                              "ERRORTOKEN \\\\ 1,10-1,11",
                                              "NAME y 1,12-1,13",
                                              "NEWLINE \\n 1,13-1,14",
                                              "ENDMARKER  2,0-2,0",
                                              NULL};
static const char *const exp_nul[] = {
    "NAME x 1,0-1,1",        "OP = 1,2-1,3",           "STRING '\\0' 1,4-1,7",
    "ERRORTOKEN   1,7-1,8",  "ERRORTOKEN \\0 1,8-1,9", "NAME y 1,10-1,11",
    "NEWLINE \\n 1,11-1,12", "ENDMARKER  2,0-2,0",     NULL};
static const char *const exp_unicode_names[] = {"NAME \xc3"
                                                "\xb1"
                                                "ame 1,0-1,4",
                                                "OP = 1,5-1,6",
                                                "NUMBER 1 1,7-1,8",
                                                "NEWLINE \\n 1,8-1,9",
                                                "NAME \xcf"
                                                "\x80"
                                                "\xc2"
                                                "\xb2"
                                                " 2,0-2,2",
                                                "OP = 2,3-2,4",
                                                "NUMBER 2 2,5-2,6",
                                                "NEWLINE \\n 2,6-2,7",
                                                "OP \xc2"
                                                "\xb2"
                                                "x 3,0-3,2",
                                                "ERRORTOKEN   3,2-3,3",
                                                "ERRORTOKEN \xe2"
                                                "\x80"
                                                "\xa6"
                                                " 3,3-3,4",
                                                "NAME y 3,5-3,6",
                                                "ERRORTOKEN \xc2"
                                                "\xa0"
                                                " 3,6-3,7",
                                                "NAME z 3,7-3,8",
                                                "NEWLINE \\n 3,8-3,9",
                                                "ENDMARKER  4,0-4,0",
                                                NULL};
static const char *const exp_brackets[] = {"NAME x 1,0-1,1",
                                           "OP = 1,2-1,3",
                                           "OP [ 1,4-1,5",
                                           "NL \\n 1,5-1,6",
                                           "NUMBER 1 2,2-2,3",
                                           "OP , 2,3-2,4",
                                           "NL \\n 2,4-2,5",
                                           "NL \\n 3,0-3,1",
                                           "COMMENT # c 4,2-4,5",
                                           "NL \\n 4,5-4,6",
                                           "NUMBER 2 5,2-5,3",
                                           "OP ] 5,3-5,4",
                                           "NEWLINE \\n 5,4-5,5",
                                           "NAME y 6,0-6,1",
                                           "OP = 6,2-6,3",
                                           "NUMBER 1 6,4-6,5",
                                           "NEWLINE \\n 6,5-6,6",
                                           "ENDMARKER  7,0-7,0",
                                           NULL};
static const char *const exp_triple_multiline[] = {
    "NAME s 1,0-1,1",
    "OP = 1,2-1,3",
    "STRING '''a\\nb\\\\\\nc''' 1,4-3,4",
    "OP + 3,5-3,6",
    "STRING r\\\"\\\"\\\"\\nd\\\"\\\"\\\" 3,7-4,4",
    "OP ; 4,5-4,6",
    "NAME t 4,7-4,8",
    "NEWLINE \\n 4,8-4,9",
    "ENDMARKER  5,0-5,0",
    NULL};
static const char *const exp_operators[] = {"NAME a 1,0-1,1",
                                            "OP -> 1,1-1,3",
                                            "NAME b 1,3-1,4",
                                            "OP **= 1,4-1,7",
                                            "NAME c 1,7-1,8",
                                            "OP //= 1,8-1,11",
                                            "NAME d 1,11-1,12",
                                            "OP >>= 1,12-1,15",
                                            "NAME e 1,15-1,16",
                                            "OP <<= 1,16-1,19",
                                            "NAME f 1,19-1,20",
                                            "OP @= 1,20-1,22",
                                            "NAME g 1,22-1,23",
                                            "OP := 1,23-1,25",
                                            "NAME h 1,25-1,26",
                                            "OP ... 1,26-1,29",
                                            "NAME i 1,29-1,30",
                                            "OP != 1,30-1,32",
                                            "NAME j 1,32-1,33",
                                            "OP < 1,33-1,34",
                                            "OP > 1,34-1,35",
                                            "NAME k 1,35-1,36",
                                            "OP ~ 1,36-1,37",
                                            "NAME l 1,37-1,38",
                                            "OP ^= 1,38-1,40",
                                            "NAME m 1,40-1,41",
                                            "OP |= 1,41-1,43",
                                            "NAME n 1,43-1,44",
                                            "OP &= 1,44-1,46",
                                            "NAME o 1,46-1,47",
                                            "OP %= 1,47-1,49",
                                            "NAME p 1,49-1,50",
                                            "NEWLINE \\n 1,50-1,51",
                                            "ENDMARKER  2,0-2,0",
                                            NULL};
static const lex_case cases[] = {
    {"numbers",
     "0 00 0_0 1_000 0x_1F 0b1_0 0o17 1.5 1. .5 1e5 1E-5 1.5e+3 1j 1.5J 1e5j "
     "0777 1if 0x 1__0 1_j 09.5 1e5. 0e5 1.__x\n",
     112, exp_numbers},
    {"prefixes",
     "b'' B'' r'' R'' u'' U'' f'' F'' br'' rB'' Rb'' BR'' fr'' rF'' bu'' ub'' "
     "'' \"\" '''x''' \"\"\"y\"\"\" rb'''z'''\n",
     104, exp_prefixes},
    {"fstring_specs",
     "f'{x:{w}.{p}}' f'{a!=b}' f'{x!r:>10}' f\"{d['k']}\" f'{{}}' "
     "f\"{f'{y}'}\"\n",
     70, exp_fstring_specs},
    {"dedents", "if a:\n    if b:\n        c\n  # comment\n\n    d\ne\n", 47,
     exp_dedents},
    {"dedent_eof", "if a:\n  if b:\n    c", 19, exp_dedent_eof},
    {"crlf", "x = 1\r\ny = (2,\r\n3)\r\n# c\r\n\r\n", 27, exp_crlf},
    {"lone_cr", "x = 1\ry\n# a\rb\n", 14, exp_lone_cr},
    {"bom",
     "\xef"
     "\xbb"
     "\xbf"
     "x = '\xc3"
     "\xa9"
     "'\n",
     12, exp_bom},
    {"tabs_formfeed", "if x:\n\ty\n\f\tz\n  \f  # c\n", 22, exp_tabs_formfeed},
    {"continuation", "x = 1 + \\\n  2\nif y:\\\n pass\n", 27, exp_continuation},
    {"continuation_eof", "x = \\", 5, exp_continuation_eof},
    {"no_final_newline", "x = 1  ", 7, exp_no_final_newline},
    {"comment_eof", "x = 1\n# c", 9, exp_comment_eof},
    {"ws_eof", "if x:\n  y\n   ", 13, exp_ws_eof},
    {"unterminated_single", "x = 'abc\ny = b'd\n", 17, exp_unterminated_single},
    {"cont_string", "x = 'a\\\nb' + \"c\\\r\nd\"\n", 21, exp_cont_string},
    {"cont_string_error", "x = 'a\\\nb\nc = 1\n", 16, exp_cont_string_error},
    {"stray_chars", "x  $ ?! ` \\ y\n", 14, exp_stray_chars},
    {"nul",
     "x = '\x00"
     "' \x00"
     " y\n",
     12, exp_nul},
    {"unicode_names",
     "\xc3"
     "\xb1"
     "ame = 1\n\xcf"
     "\x80"
     "\xc2"
     "\xb2"
     " = 2\n\xc2"
     "\xb2"
     "x \xe2"
     "\x80"
     "\xa6"
     " y\xc2"
     "\xa0"
     "z\n",
     32, exp_unicode_names},
    {"brackets", "x = [\n  1,\n\n  # c\n  2]\ny = 1\n", 29, exp_brackets},
    {"triple_multiline", "s = '''a\nb\\\nc''' + r\"\"\"\nd\"\"\" ; t\n", 33,
     exp_triple_multiline},
    {"operators", "a->b**=c//=d>>=e<<=f@=g:=h...i!=j<>k~l^=m|=n&=o%=p\n", 51,
     exp_operators},
};

#endif
