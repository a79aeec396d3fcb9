#!/bin/sh
# Suite for `npuify review` and `convert --decisions`, in a real browser:
# Debian's chromium (tools/deps.sh test) loads the page from file://, the
# page's test mode (#test=...) clicks through the same buttons a user
# clicks and puts the saved decisions file into <pre id=out>, which
# --dump-dom returns. Checks: self-contained page, DOM counts equal
# report.json, no markup from user content, no horizontal scroll at
# 1280 px, stable ids, and the saved file round-trips through convert.
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
browse "$tmp/page.html" "test=reject-nth:0,reject-nth:5,save" dom.html
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
printf '{"schema": "npuify-decisions/1", "source": "src", "edits": []}\n' >empty.json
"$NPUIFY" convert src -o new --decisions empty.json >/dev/null 2>&1
expect_rc "convert --decisions (nothing reviewed)" 0 $?
grep -q 'new since the review' new/npuify_report/report.json && ok ||
    fail "unreviewed edits not named as new"
diff -r -x npuify_report src new >/dev/null && ok || fail "unreviewed edits applied"

# --- stale decisions: the source changed under an edit
sed -i 's/torch.cuda.synchronize()/torch.cuda.synchronize() ;/' src/evil.py
sed -i '4s/torch.cuda/torch .cuda/' src/evil.py
"$NPUIFY" convert src -o stale --decisions two.json >/dev/null 2>stale.err
expect_rc "stale decisions" 3 $?
grep -q '^evil.py:4:.*no longer matches the source' stale.err && ok ||
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
printf '{"schema": "npuify-decisions/1", "edits": [{"id": 1}]}\n' >bad1.json
printf '{"edits": [] \n' >bad2.json
for f in bad1.json bad2.json missing.json; do
    "$NPUIFY" convert src -o bad --decisions "$f" >/dev/null 2>bad.err
    expect_rc "decisions $f" 3 $?
    grep -q "$f" bad.err && ok || fail "$f: error does not name the file"
done
finish
