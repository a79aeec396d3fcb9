#!/bin/sh
# The layer check that tests/check_layers.sh runs: DESIGN.md's "layers:"
# line (lowest first) against the tree. A module may include and link only
# itself and modules to its left; an external symbol of a module is
# nfy_TAG_... (its interface) or nfy__TAG_... (used by its own files only),
# TAG the module's name or the short one written NAME=TAG on the line. The
# lowest layer (core) is the shared vocabulary: nfy_WORD... with a WORD that
# is no other module's tag, and its nfy__ helpers may be reached through its
# inline functions. Exempt: the NFY_API functions of npuify.h and `main`.
# Generated objects (OBJDIR/gen) hold data: nfy__ names, no references.
#   tools/layers.sh [-d DESIGN] [-s SRC] [-a ALLOW] [-p HEADER] OBJDIR...
#   tools/layers.sh --renames [...] OBJDIR...  (a sed script to stdout)
#   tools/layers.sh --objects OBJDIR >FILE     (its symbols, for reuse)
# OBJDIR is a build tree (src/MODULE/.../*.o, gen/*.o) or a FILE written by
# --objects (nm read once for several checks). ALLOW holds the
# marked exceptions (tests/layers.allow). One line per violation; exit 1
# when there is one, 2 on a usage error.
set -u
design=docs/DESIGN.md src=src allow=tests/layers.allow api=include/npuify/npuify.h
mode=check
while [ $# -gt 0 ]; do
    case $1 in
    -d) design=$2; shift 2 ;;
    -s) src=$2; shift 2 ;;
    -a) allow=$2; shift 2 ;;
    -p) api=$2; shift 2 ;;
    --renames) mode=renames; shift ;;
    --objects) mode=objects; shift ;;
    -*) echo "layers: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: tools/layers.sh [-d F] [-s DIR] [-a F] [-p F] [--renames] OBJDIR..." >&2; exit 2; }
export LC_ALL=C
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# objects OBJDIR: one "S MODULE OBJECT SYMBOL TYPE" line per symbol.
objects() {
    if [ -f "$1" ]; then cat "$1"; return; fi
    o=${1%/}
    find "$o/src" "$o/gen" -name '*.o' 2>/dev/null | sort | xargs -r nm -A -P -g |
        sed -E "s,^$o/(src/([^/]+)|(gen))/([^:]*): ([^ ]+) ([A-Za-z]).*,S \\2\\3 \\1/\\4 \\5 \\6,"
}
if [ "$mode" = objects ]; then objects "$1"; exit; fi

# Every fact as one tagged line, so one awk program sees them all.
{
    sed -n 's/^layers: *//p' "$design" | tr ' ' '\n' | grep . | sed 's/^/L /'
    sed -n 's/^- `\([a-z0-9_]*\)\/` .*/B \1/p' "$design"
    find "$src" -mindepth 1 -maxdepth 1 -type d | sed 's,.*/,D ,'
    sed -n 's/.*NFY_API [^(]*[ *]\(nfy_[a-z0-9_]*\)(.*/A \1/p' "$api"
    [ ! -f "$allow" ] || sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/^/X /' "$allow"
    grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[A-Za-z0-9_]+/' \
        --include='*.c' --include='*.h' "$src" |
        sed -E "s,^$src/([^/]+)/([^:]*:[0-9]+):[^\"]*\"([^/\"]+)/.*,I \\1 $src/\\1/\\2 \\3,"
    for o in "$@"; do objects "$o"; done
} >"$tmp/facts"
grep -q '^L ' "$tmp/facts" || { echo "layers: no 'layers:' line in $design" >&2; exit 2; }
grep -q '^S ' "$tmp/facts" || { echo "layers: no objects under $*" >&2; exit 2; }

awk -v mode="$mode" -v design="$design" -v allowf="$allow" '
function fail(msg) { if (mode == "check") print "layers: " msg; bad++ }
function above(a, b) { return (b in pos) && (a in pos) && pos[b] > pos[a] }
function exc(a, b) { if ((a SUBSEP b) in edge_ok) { edge_used[a, b] = 1; return 1 } return 0 }
function word(s) { sub(/^nfy__?/, "", s); sub(/_.*/, "", s); return s }
function prefix_ok(m, s) {
    if (m == base) return s ~ /^nfy__?[a-z0-9]/ && !(word(s) in is_tag)
    return index(s, "nfy_" tag[m] "_") == 1 || index(s, "nfy__" tag[m] "_") == 1
}
# The name a symbol gets under the rule: its visibility kept (nfy__ when
# only its module uses it), the module tag first, a word of the old name
# that abbreviates the module dropped.
function renamed(m, s,   vis, rest, w) {
    vis = s ~ /^nfy__/ ? "nfy__" : s ~ /^nfy_/ ? "nfy_" : (s in outside) ? "nfy_" : "nfy__"
    if (vis == "nfy__" && (s in outside)) vis = "nfy_"
    rest = s; sub(/^nfy__?/, "", rest)
    w = rest; sub(/_.*/, "", w)
    if (w != rest && length(w) >= 2 && (index(m, w) || index(tag[m], w)) &&
        !((vis tag[m] "_" substr(rest, length(w) + 2)) in def))
        rest = substr(rest, length(w) + 2)
    return vis tag[m] "_" rest
}
$1 == "L" { n = split($2, nt, "="); name = nt[1]; pos[name] = ++nl; order[nl] = name
            tag[name] = n > 1 ? nt[2] : name; if (nl == 1) base = name; else is_tag[tag[name]] = 1; next }
$1 == "B" { bullet[$2] = ++nb; next }
$1 == "D" { dir[$2] = 1; next }
$1 == "A" { api[$2] = 1; next }
$1 == "X" && $2 == "edge" { edge_ok[$3, $4] = 1; next }
$1 == "X" && $2 == "name" { name_ok[$3] = 1; next }
$1 == "X" { fail(allowf ": not an \"edge FROM TO\" or \"name SYMBOL\" line: " substr($0, 3)); next }
$1 == "I" { ni++; im[ni] = $2; iwhere[ni] = $3; it[ni] = $4; next }
$1 == "S" && $4 ~ /^__|\./ { next } # compiler-made names (sanitizers, ODR indicators)
$1 == "S" && ($5 == "U" || $5 == "w" || $5 == "v") { nr++; rm_[nr] = $2; ro[nr] = $3; rs[nr] = $4; next }
$1 == "S" { if (!($4 in def)) { def[$4] = $2; nd++; ds[nd] = $4 } next }
END {
    for (d in dir) if (!(d in pos)) fail("src/" d "/ is not on " design "\x27s layers line")
    for (d in pos) if (!(d in dir)) fail(design "\x27s layers line names " d ", which has no src/" d "/")
    for (d in pos) if (!(d in bullet)) fail(design "\x27s module list has no \"- `" d "/`\" entry")
    for (d in bullet) if (!(d in pos)) fail(design "\x27s module list has " d "/, its layers line does not")
    for (d in bullet) if ((d in pos) && bullet[d] != pos[d])
        fail(design "\x27s module list has " d "/ at place " bullet[d] ", its layers line at " pos[d])
    for (i = 1; i <= ni; i++) {
        m = im[i]; t = it[i]
        if (t == "npuify" || t == m) continue
        if (!(t in pos)) { fail(iwhere[i] ": includes " t "/, which is no module"); continue }
        if (above(m, t) && !exc(m, t)) fail(iwhere[i] ": " m " includes " t "/, a layer above it")
    }
    for (i = 1; i <= nr; i++) {
        m = rm_[i]; s = rs[i]
        if (!(s in def)) continue
        n = def[s]
        if (m == "gen") { fail(ro[i] ": generated data references " s); continue }
        if (n == "gen" || n == m) continue
        outside[s] = 1
        if (above(m, n) && !exc(m, n)) fail(ro[i] ": " m " uses " s " of " n ", a layer above it")
        if (s ~ /^nfy__/ && n != base && !(s in priv_seen)) {
            priv_seen[s] = 1
            if (mode == "renames") { viol[s] = 1; continue }
            if (s in name_ok) name_used[s] = 1
            else fail(ro[i] ": " m " uses " s ", internal (nfy__) to " n " (" renamed(n, s) "?)")
        }
    }
    for (i = 1; i <= nd; i++) {
        s = ds[i]; m = def[s]
        if (m == "gen") { if (s !~ /^nfy__/) fail("generated data " s " is not nfy__...") ; continue }
        if ((s in api) || s == "main" || !(m in pos) || prefix_ok(m, s)) continue
        if (mode == "renames") { viol[s] = 1; continue }
        if (s in name_ok) { name_used[s] = 1; continue }
        fail(m " defines " s ": not nfy_" tag[m] "_... or nfy__" tag[m] "_... (" renamed(m, s) "?)")
    }
    for (k in edge_ok) if (!(k in edge_used)) {
        split(k, e, SUBSEP); fail(allowf ": \"edge " e[1] " " e[2] "\" is no longer needed: delete it")
    }
    if (mode == "renames") {
        for (s in viol) { r = renamed(def[s], s); if (r in def || r in newname) { print "layers: " s " -> " r " collides" > "/dev/stderr"; clash++ } newname[r] = 1; print "s/\\<" s "\\>/" r "/g" }
        exit clash ? 1 : 0
    }
    for (s in name_ok) if (!(s in name_used)) stale++
    if (stale) print "layers: note: " stale " \"name\" lines of " allowf " are no longer needed"
    printf "layers: %d modules, %d includes, %d symbols, %d references; %d violations\n", nl, ni, nd, nr, bad
    exit bad ? 1 : 0
}' "$tmp/facts"
