#!/bin/sh
# Write a man page per npuify command into DIR, generated from the
# command's own --help (so the pages cannot drift from the option tables):
#   sh tools/gen-man.sh BUILD/npuify DIR
set -eu
bin=$1; dir=$2
mkdir -p "$dir"
ver=$("$bin" --version | sed 's/^npuify //')
# roff-escape: backslashes, and lines starting with . or '
esc() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
page() { # NAME SECTION-TITLE SUMMARY HELP-COMMAND...
    name=$1; summary=$2; shift 2
    {
        printf '.TH %s 1 "" "npuify %s" "npuify manual"\n' \
            "$(echo "$name" | tr a-z A-Z)" "$ver"
        printf '.SH NAME\n%s \\- %s\n' "$name" "$summary"
        printf '.SH DESCRIPTION\n.nf\n'
        "$@" | esc
        printf '.fi\n.SH SEE ALSO\n'
        printf '.BR npuify (1)\n'
    } >"$dir/$name.1"
}
page npuify "migrate PyTorch projects from CUDA GPUs to Ascend NPUs" \
    "$bin" --help
"$bin" --help | sed -n 's/^  \([a-z][a-z]*\)  *\(.*\)$/\1\t\2/p' |
while IFS="$(printf '\t')" read -r cmd summary; do
    page "npuify-$cmd" "$summary" "$bin" "$cmd" --help
done
