#!/bin/sh
# The READMEs' command outputs (README.md, data/rules/README.md) come from
# real runs, never typed: each block
#     <!-- output: NAME -->
#     ...
#     <!-- end output -->
# is the output (stdout and stderr) of NAME's command below, run on a copy
# of the repository's examples/, indented as a Markdown code block.
#   sh tools/readme-outputs.sh BIN           rewrite the blocks of the READMEs
#   sh tools/readme-outputs.sh BIN --check   exit 1 (with the diff) when a
#                                            block differs from a real run
set -u
bin=${1:?usage: readme-outputs.sh BIN [--check]}
bin_arg=$1
mode=${2:-write}
root=$(cd "$(dirname "$0")/.." && pwd)
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C NO_COLOR=1

# The command of each block, run in a directory holding a copy of examples/
# (as `make example` runs it from the repository root).
run_block() {
    case $1 in
    make-example) "$bin" convert examples -o build/example-npu ;;
    check-example) "$bin" convert examples --check ;;
    rules-passes) "$bin" rules --passes ;;
    *) echo "readme-outputs: no command for block '$1'" >&2; return 2 ;;
    esac
}

mkdir "$tmp/run"
cp -R "$root/examples" "$tmp/run/examples"

# One README: its blocks regenerated into $tmp/README.md, then checked or
# copied back.
one_readme() { # $1 = README path
    readme=$1
    : >"$tmp/README.md"
    block=
    while IFS= read -r line || [ -n "$line" ]; do
        case $line in
        "<!-- output: "*" -->")
            printf '%s\n' "$line" >>"$tmp/README.md"
            block=${line#<!-- output: }; block=${block% -->}
            rm -rf "$tmp/run/build"
            (cd "$tmp/run" && run_block "$block") >"$tmp/out" 2>&1
            rc=$?
            [ $rc -le 3 ] || { echo "readme-outputs: '$block' exited $rc" >&2; exit 1; }
            { echo; sed 's/^/    /; s/ *$//' "$tmp/out"; echo; } >>"$tmp/README.md"
            ;;
        "<!-- end output -->")
            block=
            printf '%s\n' "$line" >>"$tmp/README.md" ;;
        *) [ -n "$block" ] || printf '%s\n' "$line" >>"$tmp/README.md" ;;
        esac
    done <"$readme"
    if [ "$mode" = --check ]; then
        diff -u "$readme" "$tmp/README.md" && return 0
        echo "readme-outputs: ${readme#$root/} differs from a real run; regenerate with: sh tools/readme-outputs.sh $bin_arg" >&2
        exit 1
    fi
    cp "$tmp/README.md" "$readme"
}

for f in "$root/README.md" "$root/data/rules/README.md"; do
    one_readme "$f" || exit 1
done
