#!/bin/sh
# Embed the built-in rule catalogue (data/rules/rules.json) into C as a byte
# array, so the installed binary needs no data directory. The JSON is parsed
# at start-up by the same loader as custom rule files (src/rules/).
#   tools/rules_embed.sh data/rules/rules.json build/release/gen/rules_builtin.c
set -eu
in=$1
out=$2
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
{
    echo "/* Generated from $in by tools/rules_embed.sh; do not edit. */"
    echo "#include <stddef.h>"
    echo "extern const unsigned char nfy__rules_builtin_json[];"
    echo "extern const size_t nfy__rules_builtin_json_len;"
    echo "const unsigned char nfy__rules_builtin_json[] = {"
    od -An -v -tx1 "$in" | sed -e 's/ \([0-9a-f][0-9a-f]\)/0x\1,/g' -e 's/^/   /'
    echo "};"
    echo "const size_t nfy__rules_builtin_json_len ="
    echo "    sizeof nfy__rules_builtin_json;"
} >"$tmp"
mv "$tmp" "$out"
trap - EXIT
