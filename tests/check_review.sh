#!/bin/sh
# Suite for `npuify review` and `convert --decisions`, in a real browser:
# Debian's chromium (tools/deps.sh test) loads the page from file://, the
# page's test mode (#test=...) clicks through the same buttons a user
# clicks and puts the saved decisions file into <pre id=out>, which
# --dump-dom returns. Checks: self-contained page, DOM counts equal
# report.json, no markup from user content, no horizontal scroll and every
# changed span in view at 1280 and 390 px, one card per hint, edit
# dependencies, ids anchored to content, and the saved file round-trips
# through convert; hostile decisions files are refused with file:line.
#   NPUIFY=build/release/npuify sh tests/check_review.sh
set -u
. tests/lib.sh
suite review
NPUIFY=${NPUIFY:-build/release/npuify}
case $NPUIFY in /*) ;; *) NPUIFY=$PWD/$NPUIFY ;; esac
PY=/usr/bin/python3
OUT=$PWD/tests/review/page_out.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
    fail "chromium is not installed (sh tools/deps.sh test installs it)"
    finish
fi

# browse PAGE HASH DOM: dump the page's DOM after its script ran
browse() {
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
        --user-data-dir="$tmp/profile" --window-size=1280,900 \
        --dump-dom "file://$1#$2" >"$3" 2>"$tmp/chromium.err"
}

# browse_at WIDTH PAGE HASH DOM: the page in a frame WIDTH px wide
# (chromium's window is at least 500 px); the page's test output comes up
# by postMessage into the frame page's <pre id=out>
browse_at() {
    cat >"$tmp/frame.html" <<EOF
<!DOCTYPE html><html><body style="margin:0"><pre id="out"></pre><script>
addEventListener("message", function (e) {
  document.getElementById("out").textContent = e.data; });
var f = document.createElement("iframe");
f.style.cssText = "width:$1px;height:900px;border:0";
f.src = "file://$2" + location.hash;
document.body.appendChild(f);
</script></body></html>
EOF
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
        --user-data-dir="$tmp/profile" --window-size=1280,900 \
        --virtual-time-budget=10000 \
        --dump-dom "file://$tmp/frame.html#$3" >"$4" 2>"$tmp/chromium.err"
}

expect_rc() { # NAME WANT GOT
    if [ "$3" -eq "$2" ]; then ok; else fail "$1: exit $3, want $2"; fi
}

# --- a project: the examples plus a file whose code and comments hold markup
cp -r examples "$tmp/src"
cat >"$tmp/src/evil.py" <<'PY'
import torch
# </script><img src=x onerror=alert(1)> <b>bold</b>
x = torch.ones(2).cuda()  # "</pre><script>alert(2)</script>"
torch.cuda.synchronize()
label = "<i>&amp;</i>"
PY
# long lines whose change is near the end (wrapped, never clipped)
{
    echo 'import torch'
    echo 'result = some_function_with_a_long_name(argument_one, argument_two, argument_three, argument_four, x.cuda())'
    printf 'values = [%s torch.cuda.current_device()]\n' \
        "$(printf 'item_%03d, ' $(seq 1 40))"
} >"$tmp/src/long.py"
cd "$tmp" || exit 1

"$NPUIFY" review src -o page.html >review.out 2>&1
expect_rc "review" 0 $?
"$NPUIFY" review src -o page2.html >/dev/null 2>&1
if cmp -s page.html page2.html; then ok; else fail "two reviews differ"; fi
# self-contained: nothing loaded from anywhere, no markup from the project
# (the page's own markup is what is left without its JSON data)
"$PY" -c 'import re,sys; print(re.sub(r"<script type=\"application/json\" id=\"data\">.*?</script>", "", open(sys.argv[1]).read(), flags=re.S))' page.html >own.html
for pat in '<img' '<b>' '<i>' '<link' '<iframe'; do
    if grep -qF -- "$pat" page.html; then fail "page holds '$pat'"; else ok; fi
done
for pat in 'src=' 'href=' '@import' 'url(' 'http:' 'https:'; do
    if grep -qF -- "$pat" own.html; then fail "page loads '$pat'"; else ok; fi
done
if [ "$(grep -c '<script' page.html)" -eq 2 ]; then ok; else
    fail "page has other than its 2 script elements"; fi

# --- counts against report.json of the same conversion
"$NPUIFY" convert src --check --report-dir rep >/dev/null 2>&1
"$PY" - rep/report.json >counts <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
f = r["findings"]
ch = [x for x in f if x.get("category") == "change"]
print(len(ch), len(f) - len(ch) + len(r.get("left_unchanged", [])),
      len({x["file"] for x in ch}))
PY
read want_edits want_findings want_files <counts
browse "$tmp/page.html" "test=save" dom.html
if [ -s dom.html ]; then ok; else
    fail "chromium dumped nothing"; sed 's/^/  | /' chromium.err | tail -5; fi
edits=$("$PY" "$OUT" dom.html edits)
findings=$("$PY" "$OUT" dom.html findings)
[ "$edits" = "$want_edits" ] && ok || fail "DOM edits $edits, report.json $want_edits"
[ "$findings" = "$want_findings" ] && ok ||
    fail "DOM findings $findings, report.json $want_findings"
[ "$("$PY" "$OUT" dom.html foreign)" = 0 ] && ok ||
    fail "user content became markup: $("$PY" "$OUT" dom.html foreign) elements"
sw=$("$PY" "$OUT" dom.html scrollWidth)
[ "$sw" -le 1280 ] && ok || fail "page is $sw px wide at 1280"
# the hostile text is shown as text
grep -qF '&lt;img src=x onerror=alert(1)&gt;' dom.html && ok ||
    fail "the comment's markup is not shown as text"
[ "$want_edits" -gt 10 ] && ok || fail "only $want_edits edits to review"

# --- accept all: the same tree as a plain convert
"$PY" "$OUT" dom.html saved all.json
"$NPUIFY" convert src -o full >/dev/null 2>&1
"$NPUIFY" convert src -o acc --decisions all.json >/dev/null 2>&1
expect_rc "convert --decisions (all accepted)" 0 $?
diff -r -x npuify_report full acc >/dev/null && ok ||
    fail "all accepted differs from plain convert"

# --- reject all: the tree is the source, every edit listed as not applied
browse "$tmp/page.html" "test=reject-all,save" dom.html
"$PY" "$OUT" dom.html saved none.json
"$NPUIFY" convert src -o rej --decisions none.json >/dev/null 2>&1
expect_rc "convert --decisions (all rejected)" 0 $?
diff -r -x npuify_report src rej >/dev/null && ok ||
    fail "all rejected changed the tree"
n=$(grep -c 'rejected in --decisions' rej/npuify_report/report.json)
[ "$n" = "$want_edits" ] && ok || fail "$n of $want_edits rejections reported"

# --- reject two: exactly those stay, the rest is applied
browse "$tmp/page.html" "test=reject-nth:1,reject-nth:2,save" dom.html
"$PY" "$OUT" dom.html saved two.json
"$NPUIFY" convert src -o two --decisions two.json >/dev/null 2>&1
expect_rc "convert --decisions (two rejected)" 0 $?
"$PY" - two.json two/npuify_report/report.json <<'PY' >check.out
import json, sys
d = json.load(open(sys.argv[1]))["edits"]
r = json.load(open(sys.argv[2]))
rej = [e for e in d if e["decision"] == "reject"]
applied = [f for f in r["findings"] if f.get("category") == "change"]
print(len(rej), len(applied), len(d))
PY
read nrej napplied ntotal <check.out
[ "$nrej" = 2 ] && [ "$napplied" = $((ntotal - 2)) ] && ok ||
    fail "two rejected: $nrej rejected, $napplied of $ntotal applied"
"$NPUIFY" convert src -o two2 --decisions two.json 2>/dev/null | grep -q '^decisions: 2 edits not applied' &&
    ok || fail "convert does not say how many edits it left out"
# an edit the review never saw (new since) is not applied either, and says so
printf '{"schema": "npuify-decisions/2", "source": "%s", "edits": []}\n' "$tmp/src" >empty.json
"$NPUIFY" convert src -o new --decisions empty.json >/dev/null 2>&1
expect_rc "convert --decisions (nothing reviewed)" 0 $?
grep -q 'new since the review' new/npuify_report/report.json && ok ||
    fail "unreviewed edits not named as new"
diff -r -x npuify_report src new >/dev/null && ok || fail "unreviewed edits applied"

# --- the page at 1280 and 390 px: no sideways scroll, every changed span
# (before and after) in view, not clipped by its pane
for w in 1280 390; do
    if [ "$w" = 1280 ]; then cp dom.html dom_w.html; else
        browse_at "$w" "$tmp/page.html" "test=save" dom_w.html; fi
    got_w=$("$PY" "$OUT" dom_w.html width)
    [ "$got_w" = "$w" ] && ok || fail "page not laid out at $w px (got $got_w)"
    sw=$("$PY" "$OUT" dom_w.html scrollWidth)
    [ "$sw" -le "$w" ] && ok || fail "page is $sw px wide at $w"
    nspans=$("$PY" "$OUT" dom_w.html spans.count)
    [ "$nspans" -gt "$want_edits" ] && ok ||
        fail "$nspans changed spans marked for $want_edits edits at $w px"
    hidden=$("$PY" "$OUT" dom_w.html spans.hidden)
    [ "$hidden" = "[]" ] && ok || fail "changed spans out of view at $w px: $hidden"
done

# --- one card per hint: a 2-line file's NPU607 advice is one card with
# its sites, and the sites are every finding of report.json
mkdir two_line && printf 'import torch\nx = torch.ones(2).cuda()\n' >two_line/t.py
"$NPUIFY" review two_line -o tl.html >/dev/null 2>&1
browse "$tmp/tl.html" test=save tl_dom.html
c607=$("$PY" "$OUT" tl_dom.html cards.NPU607)
[ "$c607" = "[1, 3]" ] && ok || fail "NPU607 of a 2-line file: [cards, sites] $c607, want [1, 3]"
c607=$("$PY" "$OUT" dom.html cards.NPU607)
case $c607 in "[1, "*) ok ;; *) fail "NPU607 in the project: [cards, sites] $c607" ;; esac

# --- ids anchored to content: a line added above the edits after the
# review changes no id, and the decisions still apply
cp -r src anch
"$NPUIFY" review anch -o apage.html >/dev/null 2>&1
browse "$tmp/apage.html" "test=reject-nth:1,reject-nth:2,save" adom.html
"$PY" "$OUT" adom.html saved atwo.json
sed -i '1i # a note added after the review' anch/evil.py anch/small_cnn/train.py
"$NPUIFY" review anch -o apage2.html >/dev/null 2>&1
grep -o '"id":"[^"]*"' apage.html | sort >ids1
grep -o '"id":"[^"]*"' apage2.html | sort >ids2
[ -s ids1 ] && cmp -s ids1 ids2 && ok ||
    fail "ids changed by a line added above: $(diff ids1 ids2 | grep -c '^[<>]') differ"
"$NPUIFY" convert anch -o aout --decisions atwo.json >/dev/null 2>astale.err
expect_rc "decisions after an unrelated line was added" 0 $?
[ ! -s astale.err ] && ok || { fail "unrelated line made decisions stale"; head -3 astale.err; }
"$PY" - atwo.json aout/npuify_report/report.json <<'PY' >acheck.out
import json, sys
d = json.load(open(sys.argv[1]))["edits"]
r = json.load(open(sys.argv[2]))
key = lambda f, b: (f["file"], f["rule"], b)
rej = sorted(key(e, e["before"]) for e in d if e["decision"] == "reject")
left = sorted(key(f, f["before"]) for f in r.get("left_unchanged", [])
              if "rejected in" in f.get("message", ""))
print(len(rej), len(rej) if rej == left else "other")
PY
[ "$(cat acheck.out)" = "2 2" ] && ok || fail "the two rejected edits not the ones left: $(cat acheck.out)"

# --- dependencies: the page says which edits need the inserted import;
# rejecting only the import keeps it (a warning at its line), rejecting it
# and its users leaves both out: never a file that uses torch_npu unimported
grep -q '"needs":\["evil.py:NPU001:' page.html && ok || fail "no edit of evil.py needs its import"
"$PY" "$OUT" dom.html deps | grep -q 'edits need this import (lines ' && ok ||
    fail "the import's card does not say which edits need it"
nocheck() { # TREE: files using torch_npu without importing it
    "$PY" - "$1" <<'PY'
import os, re, sys
bad = []
for d, _, fs in os.walk(sys.argv[1]):
    for f in fs:
        if f.endswith(".py"):
            t = open(os.path.join(d, f), encoding="utf-8").read()
            if re.search(r"\.npu\(|torch\.npu\b|torch_npu\.|['\"]npu\b|hccl", t) and \
                    not re.search(r"^\s*import torch_npu\b", t, re.M):
                bad.append(f)
print(" ".join(bad))
PY
}
browse "$tmp/page.html" "test=reject-rule:NPU001,save" ddom1.html
"$PY" "$OUT" ddom1.html saved noimp.json
nkept=$("$PY" - ddom1.html <<'PY'
import html, json, re, sys
m = re.search(r'<pre id="out"[^>]*>(.*?)</pre>', open(sys.argv[1]).read(), re.S)
print(len(json.loads(html.unescape(m.group(1)))["kept"]))
PY
)
[ "$nkept" -ge 3 ] && ok || fail "page shows $nkept rejected imports kept, want every file's"
"$NPUIFY" convert src -o noimp --decisions noimp.json >noimp.out 2>noimp.err
expect_rc "convert --decisions (import rejected, users accepted)" 0 $?
grep -q "^evil.py:2:1: warning\[decisions-kept\]: 'import torch_npu' (NPU001) was rejected in the review but is kept: [0-9]* accepted edits need it" noimp.err &&
    ok || { fail "no warning at the kept import's line"; head -3 noimp.err; }
[ -z "$(nocheck noimp)" ] && ok || fail "files use torch_npu without importing it: $(nocheck noimp)"
diff -r -x npuify_report full noimp >/dev/null && ok || fail "kept imports differ from a plain convert"
browse "$tmp/page.html" "test=reject-rule:NPU001,reject-needing:NPU001,save" ddom2.html
"$PY" "$OUT" ddom2.html saved noboth.json
"$NPUIFY" convert src -o noboth --decisions noboth.json >/dev/null 2>noboth.err
expect_rc "convert --decisions (import and its users rejected)" 0 $?
grep -q 'decisions-kept' noboth.err && fail "import kept with no user accepted" || ok
[ -z "$(nocheck noboth)" ] && ok || fail "files use torch_npu without importing it: $(nocheck noboth)"
grep -q '^import torch_npu' noboth/evil.py && fail "rejected import written" || ok

# --- hostile decisions files: each refused (exit 3, nothing written) with
# the decisions file's line, or the edit's file:line
mutate() { # OUT PYTHON-STATEMENTS on d (the decisions of all.json)
    "$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"), indent=1)' all.json "$1" "$2"
}
refused() { # NAME FILE PATTERN
    rm -rf hostile_out
    "$NPUIFY" convert src -o hostile_out --decisions "$2" >/dev/null 2>hostile.err
    expect_rc "$1" 3 $?
    grep -q -- "$3" hostile.err && ok ||
        { fail "$1: no '$3'"; sed 's/^/  | /' hostile.err | head -3; }
    [ ! -e hostile_out ] && ok || fail "$1: output written"
}
# entry lines: the '{' of each entry, as json.dump(indent=1) writes them
entry_line() { grep -n '^  {$' "$1" | sed -n "$(($2 + 1))p" | cut -d: -f1; }
mutate dup.json 'e = dict(d["edits"][1]); e["decision"] = "reject"; d["edits"].append(e)'
first=$(entry_line dup.json 1)
last=$(entry_line dup.json "$want_edits")
id1=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["edits"][1]["id"])' dup.json)
refused "one id accepted and rejected" dup.json \
    "^dup.json:$last:1: error\[decisions\]: edit $id1 is rejected here but accepted at line $first: decide it once"
mutate same.json 'd["edits"].append(dict(d["edits"][1]))'
"$NPUIFY" convert src -o same --decisions same.json >/dev/null 2>&1
expect_rc "one id twice, decided the same" 0 $?
mutate moved.json 'd["edits"][1]["file"] = "long.py"'
refused "an entry moved under another file" moved.json \
    "^moved.json:$first:1: error\[decisions\]: edits\[1\]: edit $id1 is of evil.py, but the entry says file \"long.py\""
mutate etc.json 'd["source"] = "/etc"'
refused "decisions of another source" etc.json \
    '^etc.json:3:1: error\[decisions\]: the review was of "/etc", not of src'
mutate nosrc.json 'del d["source"]'
refused "decisions naming no source" nosrc.json 'the review was of "(no source)"'
mutate up.json 'd["edits"][1]["file"] = "../../etc/passwd"; d["edits"][1]["id"] = "../../etc/passwd:NPU101:00000000"'
refused "an entry outside the source" up.json 'file "../../etc/passwd" is not a path under the source'
mutate old.json 'd["schema"] = "npuify-decisions/1"'
refused "a decisions file of the offset ids" old.json 'made by an older npuify'
# too large: refused unread (a sparse file, at once)
truncate -s 65M big.json
start=$(date +%s)
refused "a 65 MiB decisions file" big.json 'over the 64 MiB a decisions file may have'
[ $(($(date +%s) - start)) -le 5 ] && ok || fail "a 65 MiB file took over 5 s to refuse"
# a thousand bad entries: 20 errors and a count, not a thousand lines
mutate many.json 'd["edits"] = [{"id": i} for i in range(1000)]'
refused "a thousand bad entries" many.json '^many.json: error\[decisions\]: 980 more problems not shown'
[ "$(grep -c 'error\[' hostile.err)" = 21 ] && ok ||
    fail "$(grep -c 'error\[' hostile.err) error lines for 1000 bad entries, want 21"
# streamed: 100k entries (about 18 MB; the whole JSON tree held was 190 MB)
mutate huge.json 'e = d["edits"][1]; d["edits"] += [dict(e, id=e["id"][:-8] + "%08x" % i) for i in range(100000)]'
/usr/bin/time -f '%M' -o huge.rss "$NPUIFY" convert src --check --decisions huge.json >/dev/null 2>huge.err
rss=$(tail -1 huge.rss)
# (a sanitizer build's shadow and quarantine memory say nothing here)
if ldd "$NPUIFY" 2>/dev/null | grep -q libasan; then :; else
    [ "$rss" -lt 80000 ] && ok || fail "100k decisions took $rss KiB (the whole JSON tree held?)"
fi
grep -q 'error' huge.err && { fail "100k decisions refused"; head -3 huge.err; } || ok

# --- a review of one file named by its absolute path round-trips too
"$NPUIFY" review "$tmp/src/long.py" -o one.html >/dev/null 2>&1
browse "$tmp/one.html" "test=reject-nth:1,save" one_dom.html
"$PY" "$OUT" one_dom.html saved one.json
"$NPUIFY" convert "$tmp/src/long.py" -o one_out.py --decisions one.json >one.out 2>&1
expect_rc "convert --decisions (one file by absolute path)" 0 $?
grep -q '^decisions: 1 edit not applied' one.out && ok ||
    { fail "one-file decisions not applied"; head -3 one.out; }

# --- stale decisions: the source changed under an edit
sed -i 's/torch.cuda.synchronize()/torch.cuda.synchronize() ;/' src/evil.py
sed -i '4s/torch.cuda/torch .cuda/' src/evil.py
"$NPUIFY" convert src -o stale --decisions two.json >/dev/null 2>stale.err
expect_rc "stale decisions" 3 $?
grep -q '^src/evil.py:4:.*no longer matches the source' stale.err && ok ||
    { fail "no file:line error for the stale edit"; sed 's/^/  | /' stale.err | head -5; }
[ ! -e stale ] && ok || fail "stale decisions wrote output"

# --- convert's report.html: counts equal report.json, no markup from the
# project, no horizontal scroll at 1280 px
git_src=$OLDPWD
"$NPUIFY" convert src -o html_out >/dev/null 2>&1
browse "$tmp/html_out/npuify_report/report.html" test dom_rep.html
"$PY" - html_out/npuify_report/report.json dom_rep.html <<'PY' >rep.out
import html, json, re, sys
r = json.load(open(sys.argv[1]))
dom = open(sys.argv[2], encoding="utf-8").read()
m = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S)
o = json.loads(html.unescape(m.group(1))) if m else {"tables": {}, "elements": {}}
f = r["findings"]
s = r["summary"]
manual_changes = sum(1 for x in f if x["category"] == "change" and x["safety"] == "manual")
want = {"changes": s["edits"], "manual": s["manual"] - manual_changes,
        "left": len(r.get("left_unchanged", [])),
        "files": s["files_total"]}
for k, v in want.items():
    got = o["tables"].get(k)
    print("ok" if got == v else "FAIL", "report.html table %s: %s rows, report.json %s" % (k, got, v))
own = {"H1", "H2", "P", "CODE", "DIV", "B", "TABLE", "COLGROUP", "COL", "THEAD",
       "TBODY", "TR", "TH", "TD", "svg", "title", "g", "text", "rect", "SCRIPT", "PRE"}
foreign = {k: v for k, v in o["elements"].items() if k not in own}
print("ok" if not foreign else "FAIL", "report.html elements from user content: %s" % foreign)
print("ok" if o.get("scrollWidth", 9999) <= 1280 else "FAIL",
      "report.html is %s px wide at 1280" % o.get("scrollWidth"))
print("ok" if o["elements"].get("SCRIPT") == 1 else "FAIL", "report.html has one script")
PY
while read -r verdict msg; do
    if [ "$verdict" = ok ]; then ok; else fail "$msg"; fi
done <rep.out
[ -s rep.out ] && ok || fail "no report.html checks ran"
grep -qF '&lt;img src=x' dom_rep.html && ok || fail "report.html does not show the markup as text"

# --- a file convert creates: --distributed's launcher is an item of the
# review with a stable id; rejected, it is not written and a left-unchanged
# row says so; accepted, it is the launcher a plain convert writes
cp -r "$git_src/tests/golden/170_ddp_single_card/in" dist
"$NPUIFY" review dist --distributed -o dpage.html >/dev/null 2>&1
expect_rc "review --distributed" 0 $?
"$NPUIFY" review dist --distributed -o dpage2.html >/dev/null 2>&1
lid=$(grep -o 'run_distributed_npu\.sh:0:NPU310:[0-9a-f]*' dpage.html | head -1)
lid2=$(grep -o 'run_distributed_npu\.sh:0:NPU310:[0-9a-f]*' dpage2.html | head -1)
[ -n "$lid" ] && ok || fail "the launcher is not an item of the review page"
[ "$lid" = "$lid2" ] && ok || fail "launcher id not stable: $lid vs $lid2"
"$NPUIFY" convert dist -o dfull --distributed >/dev/null 2>&1
# the training program is on the page: one row per element of report.json's
# "training", also without --distributed (review always models it)
want_tr=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1])).get("training", [])))' \
    dfull/npuify_report/report.json)
"$NPUIFY" review dist -o tpage.html >/dev/null 2>&1
for p in dpage tpage; do
    browse "$tmp/$p.html" "test=" "t$p.html"
    tr=$("$PY" "$OUT" "t$p.html" training)
    [ "$tr" = "$want_tr" ] && [ "$tr" -gt 0 ] && ok ||
        fail "$p: $tr training rows on the page, report.json $want_tr"
    [ "$("$PY" "$OUT" "t$p.html" foreign)" = 0 ] && ok ||
        fail "$p: the training rows made markup of user content"
done
grep -q '>train_loader<' tdpage.html && ok || fail "no train_loader row shown"
browse "$tmp/dpage.html" "test=reject:$lid,save" ddom.html
"$PY" "$OUT" ddom.html saved drej.json
grep -q '"create": true' drej.json && ok || fail "saved launcher entry has no create"
"$NPUIFY" convert dist -o drej --distributed --decisions drej.json >drej.out 2>&1
expect_rc "convert --decisions (launcher rejected)" 0 $?
[ ! -e drej/run_distributed_npu.sh ] && ok || fail "rejected launcher written"
grep -q 'rejected in --decisions): run_distributed_npu.sh not written' \
    drej/npuify_report/report.json && ok || fail "no left-unchanged row for the launcher"
grep -q '^decisions: 1 edit not applied' drej.out && ok ||
    fail "summary does not count the launcher as not applied"
diff -r -x npuify_report -x run_distributed_npu.sh dfull drej >/dev/null && ok ||
    fail "rejecting the launcher changed the other edits"
browse "$tmp/dpage.html" "test=save" ddom.html
"$PY" "$OUT" ddom.html saved dacc.json
"$NPUIFY" convert dist -o dacc --distributed --decisions dacc.json >/dev/null 2>&1
expect_rc "convert --decisions (launcher accepted)" 0 $?
cmp -s dfull/run_distributed_npu.sh dacc/run_distributed_npu.sh && ok ||
    fail "accepted launcher differs from plain convert's"
# a launcher other than the reviewed one (--main changes its text) is new
"$NPUIFY" convert dist -o dnew --distributed --main train.py --decisions dacc.json >/dev/null 2>&1
[ ! -e dnew/run_distributed_npu.sh ] && ok || fail "unreviewed launcher written"
grep -q 'new since the review.*run_distributed_npu.sh not written' \
    dnew/npuify_report/report.json && ok || fail "unreviewed launcher not named new"

# --- a project without AMP: its loud warning is manual work on the page
mkdir noamp && cp "$git_src/tests/golden/071_no_amp/in/"* noamp/
"$NPUIFY" convert noamp -o noamp_out >/dev/null 2>&1
browse "$tmp/noamp_out/npuify_report/report.html" test dom_noamp.html
grep -q '<b>[1-9][0-9]*</b>need manual work' dom_noamp.html && ok ||
    fail "no-AMP project shows no manual work"
grep -q 'NPU402' dom_noamp.html && ok || fail "no-AMP row missing"

# --- ops' report.html: the same kit, within 1280 px too
"$NPUIFY" ops "$git_src/tests/data/profiler/torch-1.13-cpu/autograd_cnn_by_input_shape.txt" \
    -o opsrep -q >/dev/null 2>&1
browse "$tmp/opsrep/report.html" test dom_ops.html
osw=$("$PY" "$OUT" dom_ops.html scrollWidth)
[ -n "$osw" ] && [ "$osw" -le 1280 ] && ok || fail "ops report.html is $osw px wide at 1280"

# --- malformed decisions files
printf '{"schema": "npuify-decisions/2", "source": "%s", "edits": [{"id": 1}]}\n' "$tmp/src" >bad1.json
printf '{"edits": [] \n' >bad2.json
for f in bad1.json bad2.json missing.json; do
    "$NPUIFY" convert src -o bad --decisions "$f" >/dev/null 2>bad.err
    expect_rc "decisions $f" 3 $?
    grep -q "$f" bad.err && ok || fail "$f: error does not name the file"
done
finish
