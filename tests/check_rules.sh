#!/bin/sh
# Suite for `npuify rules`: listing, JSON, --explain, and --rules validation
# of the files under tests/data/rules (good files in both schemas; each bad
# file must give exit 3 and a diagnostic at the expected file:line:col).
# Run from the repo root: NPUIFY=build/release/npuify sh tests/check_rules.sh
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
D=tests/data/rules
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh
suite rules

# run NAME EXPECTED_RC ARGS...: stdout in $tmp/out, stderr in $tmp/err
run() {
    name=$1; want=$2; shift 2
    "$NPUIFY" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq "$want" ]; then ok; else
        fail "$name: exit $rc, want $want"; sed 's/^/  | /' "$tmp/err" | head -5
    fi
}

# expect_in NAME FILE TEXT: TEXT (fixed string) occurs in FILE
expect_in() {
    if grep -qF -- "$3" "$2"; then ok; else fail "$1: '$3' not in output"; fi
}

expect_not_in() {
    if grep -qF -- "$3" "$2"; then fail "$1: '$3' unexpected"; else ok; fi
}

# --- listing
run list 0 rules
expect_in list "$tmp/out" "NPU001  insert-import"
expect_in list "$tmp/out" "NPU101  rename-qualified-api"
rows=$(grep -c '^NPU[0-9]' "$tmp/out")
if [ "$rows" -ge 70 ]; then ok; else fail "list: only $rows rules"; fi
# columns are aligned: every row has its kind starting at the same column
cols=$(awk 'NR > 1 { print index($0, $2) }' "$tmp/out" | sort -u | wc -l)
if [ "$cols" -eq 1 ]; then ok; else fail "list: kind column not aligned"; fi

run kind 0 rules --kind flag
expect_not_in kind "$tmp/out" "rename-qualified-api"
expect_in kind "$tmp/out" "NPU306  flag"

run json 0 rules --json
cp "$tmp/out" "$tmp/all.json"
n=$($PY -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["rules"]))' \
    "$tmp/all.json" 2>/dev/null)
if [ "${n:-0}" -eq "$rows" ]; then ok; else fail "json: $n rules, table $rows"; fi
# the JSON output is itself a valid rule file (round trip)
run roundtrip 0 rules --no-builtin --rules "$tmp/all.json"
rt=$(grep -c '^NPU[0-9]' "$tmp/out")
if [ "$rt" -eq "$rows" ]; then ok; else fail "roundtrip: $rt rules"; fi

# --- explain
run explain 0 rules --explain NPU103
expect_in explain "$tmp/out" "rewrite-string-in-context"
expect_in explain "$tmp/out" 'device = torch.device("cuda:0")'
expect_in explain "$tmp/out" 'device = torch.device("npu:0")'
expect_in explain "$tmp/out" "kw:map_location"
run explain-json 0 rules --explain NPU305 --json
expect_not_in explain-json "$tmp/out" "CUDA_VISIBLE"
expect_in explain-json "$tmp/out" '["NCCL_SOCKET_IFNAME", "HCCL_SOCKET_IFNAME"]'
run explain-unknown 2 rules --explain NPU999
expect_in explain-unknown "$tmp/err" "no rule 'NPU999'"
run bad-option 2 rules --frobnicate
run bad-kind-option 2 rules --kind renamer

# --- good custom files
run good-ours 0 rules --rules "$D/good_ours.json"
expect_in good-ours "$tmp/out" "USR001  rename-qualified-api"
expect_in good-ours "$tmp/out" "USR002  flag"
expect_in good-ours "$tmp/out" "NPU101"
run good-msft 0 rules --no-builtin --rules "$D/good_msft.json"
expect_in good-msft "$tmp/out" "MSFT-ARGS-001"
expect_in good-msft "$tmp/out" "MSFT-MODULE-006"
run good-both 0 rules --rules "$D/good_ours.json" --rules "$D/good_msft.json" \
    --explain MSFT-ARGS-002
expect_in good-both "$tmp/out" '$ARG'

# --- bad files: exit 3, file:line:col of the problem
bad_file() { # NAME LINE:COL TEXT
    run "$1" 3 rules --rules "$D/$1.json"
    expect_in "$1" "$tmp/err" "$D/$1.json:$2: error"
    expect_in "$1" "$tmp/err" "$3"
}
bad_file bad_syntax 3:37 "invalid JSON"
bad_file bad_unknown_field 8:7 "rules[0].colour: unknown field 'colour'"
bad_file bad_kind 3:30 "bad kind value 'renam'"
bad_file bad_duplicate 4:12 "duplicate rule id 'USR001'"
bad_file bad_builtin_dup 3:12 "duplicate rule id 'NPU101'"
bad_file bad_msft_class 4:5 "unsupported msFmkTransplt rule class 'InsertGlobalRule'"
bad_file bad_msft_field 4:46 "unknown field 'new_nmae'"
bad_file bad_not_object 1:1 "rules"
bad_file bad_regex 5:14 "invalid regular expression"
bad_file bad_ctx 5:27 "rules[0].ctx[1]: bad context"
bad_file bad_dup_key 4:22 "duplicate object key"
bad_file bad_pass 3:64 "rules[0].pattern: unknown pass 'no-such-pass'"
bad_file bad_pass_kind 3:28 "pass 'amp-insert' takes kind"
bad_file bad_option 4:14 "rules[0].option: unknown option 'turbo'"
# a back-reference (exponential in glibc) at its own column; an escaped
# backslash before a digit (\\1) and a bracketed one ([\1]) are none
bad_file bad_backref 4:33 'rules[0].pattern: back-reference \1'

# --- preview rules: their pass is not built, they are never listed as firing
run preview-list 0 rules
expect_in preview-list "$tmp/out" "[preview] [off] msFmkTransplt built-in rename"
run preview-explain 0 rules --explain NPU290
expect_in preview-explain "$tmp/out" "preview:     no command turns on option 'msfmktransplt'"
run built-explain 0 rules --explain NPU104
expect_not_in built-explain "$tmp/out" "preview"

# --- activation: one decision for every file kind (here a shell script):
# USR900 is unsafe and needs torch >= 9.0
mkdir -p "$tmp/act"
printf 'export MY_GPU_FLAG=1\npython train.py\n' >"$tmp/act/run.sh"
for a in "" "--unsafe" "--unsafe --torch-version 2.1"; do
    # shellcheck disable=SC2086
    run "gated-env $a" 0 convert "$tmp/act" --diff --rules "$D/gated_env.json" $a
    expect_not_in "gated-env $a" "$tmp/out" "MY_NPU_FLAG"
done
# control: the same rule without its torch bound edits with --unsafe only
sed 's/"min_torch": "9.0",//' "$D/gated_env.json" >"$tmp/ungated.json"
run ungated 0 convert "$tmp/act" --diff --rules "$tmp/ungated.json"
expect_not_in ungated "$tmp/out" "MY_NPU_FLAG"
run ungated-unsafe 0 convert "$tmp/act" --diff --rules "$tmp/ungated.json" --unsafe
expect_in ungated-unsafe "$tmp/out" "+export MY_NPU_FLAG=1"
# --mode auto edits only imports, in shell scripts too (names are reported)
mkdir -p "$tmp/auto"
printf 'export NCCL_SOCKET_IFNAME=eth0\npython t.py --dist-backend nccl\n' \
    >"$tmp/auto/run.sh"
run auto-shell 0 convert "$tmp/auto" --diff --mode auto
expect_not_in auto-shell "$tmp/out" "HCCL_SOCKET_IFNAME"
expect_not_in auto-shell "$tmp/out" "hccl"
run manual-shell 0 convert "$tmp/auto" --diff
expect_in manual-shell "$tmp/out" "+export HCCL_SOCKET_IFNAME=eth0"

run missing 3 rules --rules "$D/no_such_file.json"
expect_in missing "$tmp/err" "no_such_file.json"
# every bad file is reported, not only the first
run two-bad 3 rules --rules "$D/bad_kind.json" --rules "$D/bad_regex.json"
expect_in two-fail "$tmp/err" "bad_kind.json:3:30"
expect_in two-fail "$tmp/err" "bad_regex.json:5:14"
run json-diags 3 rules --json-diagnostics --rules "$D/bad_kind.json"
expect_in json-diags "$tmp/err" '"line": 3'

# --- loading is near-linear: 4x the rules cost about 4x, not 16x (the id
# check compared every pair: 50k rules 4.9 s, 100k 31 s). CPU seconds.
$PY - "$tmp" <<'EOF'
import json, sys
for n in (25000, 100000):
    rules = [{"id": "USR%06d" % i, "kind": "rename-qualified-api",
              "match": "name", "pattern": "m.f%d" % i,
              "replacement": "n.f%d" % i, "message": "m"} for i in range(n)]
    for i in range(0, n, 10):  # fallbacks are looked up among them
        rules[i]["fallback"] = "USR%06d" % (n - 1 - i)
    json.dump({"rules": rules}, open(f"{sys.argv[1]}/r{n}.json", "w"))
EOF
cpu() { $PY tests/robustness/cpu_seconds.py "$@"; }
set -- $(cpu "$NPUIFY" rules --rules "$tmp/r25000.json") \
    $(cpu "$NPUIFY" rules --rules "$tmp/r100000.json")
echo "time: rules load: 25000 rules $1 s, 100000 rules $3 s (CPU)"
[ "$2" = 0 ] && [ "$4" = 0 ] && ok || fail "many-rules: exit $2 / $4, want 0"
awk -v a="$1" -v b="$3" 'BEGIN { exit !(b < 2 || b < 8 * a) }' && ok ||
    fail "many-rules: 100000 rules $3 s vs 25000 rules $1 s: not linear"

finish
