#!/bin/sh
# Golden tests for `npuify convert` (see tests/golden/README.md).
#
# Each case is a directory tests/golden/<case>/ with
#   in/               the project tree to convert
#   args              optional: extra convert arguments (shell words)
#   rc                optional: expected exit status of convert (default 0)
#   full_report       optional marker: the case tests the report itself
#   expected.diff     the expected changes: unified diff of in/ -> output
#                     (a/ b/ relative paths, no timestamps, files sorted)
#   expected_report/  expected report files (only the files present are
#                     compared): change_list.csv; with full_report also
#                     report.json and the other CSVs
# The case passes when convert exits as expected, the diff of in/ and the
# output equals expected.diff, every file of expected_report/ equals the one
# written, and a second convert of the output changes nothing (idempotence).
# Report files are compared after replacing the temporary directory by @TMP@.
#
#   NPUIFY=build/release/npuify sh tests/check_golden.sh [CASE...]
#   UPDATE=1 sh tests/check_golden.sh [CASE...]   rewrite the expectations
#     (also converts a case in the old format, expected/ + every report
#     file, to this one)
# Ends with "N passed, N failed"; exit status 1 when anything failed.
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
UPDATE=${UPDATE:-0}
GOLDEN=${GOLDEN_DIR:-tests/golden}
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh

# Print at most 40 lines of a file, indented.
show() {
    sed -n '1,40{s/^/    /;p;}' "$1"
    n=$(wc -l <"$1")
    [ "$n" -le 40 ] || echo "    ... ($n lines)"
}

# Run convert on $1 into $2 with reports in $3; extra args from the case.
# Leaves stdout+stderr in $4 and returns convert's exit status.
convert() {
    if [ -f "$case/args" ]; then
        eval "set -- \"\$1\" \"\$2\" \"\$3\" \"\$4\" $(cat "$case/args")"
    fi
    src=$1; out=$2; rep=$3; log=$4; shift 4
    "$NPUIFY" convert "$src" -o "$out" --report-dir "$rep" "$@" >"$log" 2>&1
}

# Normalise a report file for comparison: no temporary paths.
normalise() { # file
    sed "s#$tmp#@TMP@#g" "$1"
}

# tree_diff IN OUT: a unified diff of every file that differs between the
# two trees, sorted by path, labelled a/PATH and b/PATH (/dev/null for a
# file on one side only), without timestamps.
tree_diff() {
    { (cd "$1" && find . -type f -o -type l); (cd "$2" && find . -type f -o -type l); } |
        sed 's#^\./##' | sort -u | while IFS= read -r rel; do
        a=$1/$rel; la=a/$rel; b=$2/$rel; lb=b/$rel
        [ -e "$a" ] || { a=/dev/null; la=/dev/null; }
        [ -e "$b" ] || { b=/dev/null; lb=/dev/null; }
        diff -u --label "$la" --label "$lb" "$a" "$b"
    done
}

# The report files a case keeps: change_list.csv, or with full_report
# every CSV and report.json.
report_files() { # work
    if [ -f "$case/full_report" ]; then
        for f in "$1/report"/*.csv "$1/report/report.json"; do
            [ -f "$f" ] && basename "$f"
        done
    else
        echo change_list.csv
    fi
}

# Store what this run produced as the case's expectations. A case in the
# old format (expected/) or without expected_report/ gets the files
# report_files names; otherwise the files already there are refreshed.
update_case() { # work
    work=$1
    cp "$work/got.diff" "$case/expected.diff"
    if [ -d "$case/expected" ] || [ ! -d "$case/expected_report" ]; then
        rm -rf "$case/expected" "$case/expected_report"
        mkdir -p "$case/expected_report"
        for name in $(report_files "$work"); do
            : >"$case/expected_report/$name"
        done
    fi
    for f in "$case/expected_report"/*; do
        [ -f "$f" ] || continue
        name=$(basename "$f")
        if [ -f "$work/report/$name" ]; then
            normalise "$work/report/$name" >"$f"
        else
            rm -f "$f"
        fi
    done
    echo "updated $name_case"
}

# Compare the report files named in expected_report/. Returns 1 on a diff.
check_reports() { # work
    work=$1; bad=0
    for f in "$case/expected_report"/*; do
        [ -f "$f" ] || continue
        name=$(basename "$f")
        if [ ! -f "$work/report/$name" ]; then
            echo "  report file $name was not written"; bad=1; continue
        fi
        normalise "$work/report/$name" >"$work/norm_$name"
        if ! diff -u "$f" "$work/norm_$name" >"$work/diff" 2>&1; then
            echo "  report $name differs:"; show "$work/diff"; bad=1
        fi
    done
    return $bad
}

# Run one case; returns 0 when it passed.
run_case() {
    work=$tmp/$name_case
    mkdir -p "$work"
    if [ ! -x "$NPUIFY" ]; then
        echo "  $NPUIFY is not built"; return 1
    fi
    convert "$case/in" "$work/out" "$work/report" "$work/log"
    rc=$?
    want=0
    [ -f "$case/rc" ] && want=$(cat "$case/rc")
    if [ "$rc" -ne "$want" ]; then
        echo "  convert exited $rc, expected $want:"; show "$work/log"
        return 1
    fi
    tree_diff "$case/in" "$work/out" >"$work/got.diff"
    if [ "$UPDATE" = 1 ]; then
        update_case "$work"
    elif [ -d "$case/expected" ]; then
        echo "  old format (expected/): run with UPDATE=1"; return 1
    elif [ ! -f "$case/expected.diff" ] || [ ! -d "$case/expected_report" ]; then
        echo "  missing expected, run with UPDATE=1"; return 1
    fi
    ok=0
    if ! diff -u "$case/expected.diff" "$work/got.diff" >"$work/diff" 2>&1; then
        echo "  changes differ from expected.diff:"; show "$work/diff"
        ok=1
    fi
    check_reports "$work" || ok=1
    # Idempotence: converting the output again must change nothing.
    convert "$work/out" "$work/out2" "$work/report2" "$work/log2"
    rc=$?
    if [ "$rc" -gt 1 ] && [ "$rc" -ne "$want" ]; then
        echo "  second convert exited $rc:"; show "$work/log2"; ok=1
    elif ! diff -r "$work/out" "$work/out2" >"$work/diff" 2>&1; then
        echo "  second convert changed the output (not idempotent):"
        show "$work/diff"; ok=1
    fi
    return $ok
}

if [ $# -gt 0 ]; then
    cases=""
    for c in "$@"; do cases="$cases $GOLDEN/${c#"$GOLDEN"/}"; done
else
    cases=$(ls -d "$GOLDEN"/*/ 2>/dev/null | sed 's#/$##')
fi

for case in $cases; do
    [ -d "$case/in" ] || continue
    name_case=$(basename "$case")
    if run_case; then
        ok "$name_case"
    else
        fail "$name_case"
    fi
done

finish
