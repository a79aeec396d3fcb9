#!/bin/sh
# The layers of DESIGN.md section 2 (tools/layers.sh): the tree keeps them,
# and each kind of break, planted in a temporary object, source copy or
# DESIGN copy, fails the check with its message.
set -u
. tests/lib.sh
suite layers
build=$(dirname "${NPUIFY:-build/release/npuify}")
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect_fail WHAT PATTERN ARG...: tools/layers.sh ARG... fails saying PATTERN.
expect_fail() {
    what=$1; pat=$2; shift 2
    if sh tools/layers.sh "$@" >"$tmp/out" 2>&1; then
        fail "$what: the check passed"
    elif grep -qF -- "$pat" "$tmp/out"; then
        ok "$what: caught"
    else
        fail "$what: failed without saying '$pat':"; head -n 20 "$tmp/out"
    fi
}

# plant MODULE NAME C-SOURCE: an object of MODULE under $tmp/obj.
plant() {
    mkdir -p "$tmp/obj/src/$1"
    printf '%s\n' "$3" >"$tmp/$2.c"
    $cc -c -o "$tmp/obj/src/$1/$2.o" "$tmp/$2.c" || fail "cannot compile $2.c"
}

if sh tools/layers.sh "$build" >"$tmp/out" 2>&1; then
    ok "the tree keeps its layers: $(tail -n 1 "$tmp/out" | sed 's/^layers: //')"
else
    fail "the tree breaks its layers:"; cat "$tmp/out"
fi
# The tree's symbols, read once for the planted cases below.
sh tools/layers.sh --objects "$build" >"$tmp/tree.objs"
tree=$tmp/tree.objs

# A lower module calling a higher one: core calls convert's entry point.
plant core planted_up 'void nfy_convert_run(void); void nfy_planted(void);
void nfy_planted(void) { nfy_convert_run(); }'
expect_fail "core linking convert" "core uses nfy_convert_run of convert" "$tree" "$tmp/obj"
rm -rf "$tmp/obj"

# Each allowed edge is one the tree has: without its line the check fails.
grep '^edge ' tests/layers.allow | while read -r _ from to; do
    grep -v "^edge $from $to\$" tests/layers.allow >"$tmp/allow"
    if sh tools/layers.sh -a "$tmp/allow" "$tree" >"$tmp/out" 2>&1; then
        echo "FAIL allowed edge $from -> $to: the check passes without it"
    elif grep -qE "$from (uses|includes) " "$tmp/out"; then
        echo "ok   allowed edge $from -> $to: needed"
    else
        echo "FAIL allowed edge $from -> $to: failed without naming it"
    fi
done >"$tmp/edges"
cat "$tmp/edges"
passed=$((passed + $(grep -c '^ok' "$tmp/edges")))
failed=$((failed + $(grep -c '^FAIL' "$tmp/edges")))
{ cat tests/layers.allow; echo "edge cli core"; } >"$tmp/allow"
expect_fail "an allowed edge nothing uses" '"edge cli core" is no longer needed' -a "$tmp/allow" "$tree"

# A name without its module's tag, a core name taking a module's tag, and
# a module's nfy__ internal used by another module.
internal=$(awk '$2 == "lsp" && $4 ~ /^nfy__lsp_/ && $5 == "T" { print $4; exit }' "$tree")
plant report planted_name 'int mig_planted(void); int mig_planted(void) { return 0; }'
plant core planted_core 'int nfy_report_planted(void); int nfy_report_planted(void) { return 0; }'
plant cli planted_private "void $internal(void); void nfy_cli_planted(void);
void nfy_cli_planted(void) { $internal(); }"
expect_fail "a report symbol without report's tag" "report defines mig_planted" "$tree" "$tmp/obj"
expect_fail "a core symbol with a module's tag" "core defines nfy_report_planted" "$tree" "$tmp/obj"
expect_fail "lsp's internal used by cli" "cli uses $internal, internal (nfy__) to lsp" "$tree" "$tmp/obj"
rm -rf "$tmp/obj"

# An include of a higher module, and a module DESIGN.md does not list.
cp -R src "$tmp/src"
printf '#include "report/report.h"\n' >"$tmp/src/pylex/planted.h"
mkdir "$tmp/src/planted"
expect_fail "pylex including report" "src/pylex/planted.h:1: pylex includes report/" -s "$tmp/src" "$tree"
expect_fail "a module DESIGN.md does not list" "src/planted/ is not on" -s "$tmp/src" "$tree"

# DESIGN.md drifting: a module left off the layers line, two bullets swapped.
sed 's/^\(layers:.*\) convert /\1 /' docs/DESIGN.md >"$tmp/design.md"
expect_fail "convert left off the layers line" "src/convert/ is not on" -d "$tmp/design.md" "$tree"
sed 's/^\(layers:.*\) edit proflog=prof /\1 proflog=prof edit /' docs/DESIGN.md >"$tmp/design.md"
expect_fail "edit and proflog swapped on the line" "module list has edit/ at place" -d "$tmp/design.md" "$tree"
finish
