#!/bin/sh
# Suite for `npuify lsp`: protocol tests over stdio (tests/lsp/
# protocol_test.py: sync, diagnostics, code actions, hover, malformed
# input, unknown methods, disconnects, shutdown/exit order, project
# settings) on the release and ASan builds and under valgrind, then a real
# client: headless Neovim 0.7 (tests/lsp/nvim_test.lua).
# Run from the repo root: NPUIFY=build/release/npuify sh tests/check_lsp.sh
set -u
NPUIFY=${NPUIFY:-build/release/npuify}
ASAN=${ASAN:-build/asan/npuify}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib.sh
suite lsp

# protocol NAME WRAPPER...: the protocol tests through the wrapper
protocol() {
    name=$1; shift
    rm -rf "$tmp/p"; mkdir -p "$tmp/p"
    printf '#!/bin/sh\nexec %s "$@"\n' "$*" >"$tmp/wrap"
    chmod +x "$tmp/wrap"
    timeout 600 "$PY" tests/lsp/protocol_test.py "$tmp/wrap" "$tmp/p" \
        >"$tmp/$name.log" 2>&1
    grep '^FAIL' "$tmp/$name.log" | sed "s/^/$name: /"
    add_counts "$(tail -n 1 "$tmp/$name.log")"
}

protocol release "$(pwd)/$NPUIFY"
if [ -x "$ASAN" ]; then
    protocol asan env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
        UBSAN_OPTIONS=halt_on_error=1 "$(pwd)/$ASAN"
else
    fail "no ASan build at $ASAN (make MODE=asan)"
fi
if command -v valgrind >/dev/null; then
    protocol valgrind valgrind -q --error-exitcode=99 --leak-check=full \
        --errors-for-leak-kinds=definite "$(pwd)/$NPUIFY"
    if grep -q '^FAIL.*exit code\|==[0-9]*==' "$tmp/valgrind.log"; then
        fail "valgrind reported errors (see the log)"
        grep '==[0-9]*==' "$tmp/valgrind.log" | head -20
    fi
else
    fail "valgrind is not installed (tools/deps.sh test)"
fi

# a real client: Neovim's built-in LSP client
if command -v nvim >/dev/null; then
    mkdir -p "$tmp/nv"
    printf 'import torch\n\nmodel = torch.nn.Linear(2, 2).cuda()\ntorch.cuda.synchronize()\n' \
        >"$tmp/nv/train.py"
    OUT_FILE="$tmp/nv/out" NPUIFY="$(pwd)/$NPUIFY" GPU_FILE="$tmp/nv/train.py" \
        EXPLAIN_DIR="$tmp/nv/explain" HOME="$tmp/nv" XDG_CONFIG_HOME="$tmp/nv" \
        XDG_DATA_HOME="$tmp/nv" XDG_STATE_HOME="$tmp/nv" \
        timeout 120 nvim --headless --clean \
        -c "luafile tests/lsp/nvim_test.lua" >"$tmp/nv/log" 2>&1 </dev/null
    rc=$?
    [ "$rc" -eq 0 ] || fail "nvim exited $rc: $(tail -n 3 "$tmp/nv/log")"
    n_ok=$(grep -c '^ok' "$tmp/nv/out" 2>/dev/null || true)
    [ "${n_ok:-0}" -eq 8 ] || fail "neovim: ${n_ok:-0} of 8 checks passed"
    while IFS= read -r l; do
        case $l in
        ok*) ok "neovim: ${l#ok   }" ;;
        *) fail "neovim: ${l#FAIL }" ;;
        esac
    done <"$tmp/nv/out"
else
    fail "neovim is not installed (tools/deps.sh test)"
fi

# the settings file: convert reads the same npuify.toml as the server
mkdir -p "$tmp/cfg"
cp tests/data/rules/good_ours.json "$tmp/cfg/my_rules.json"
printf 'import mylib\nmylib.cuda_sync()\n' >"$tmp/cfg/t.py"
printf '# project settings\ntorch-version = "2.1"\nrules = [\n  "my_rules.json",\n]\n' \
    >"$tmp/cfg/npuify.toml"
"$NPUIFY" convert --diff "$tmp/cfg" >"$tmp/cfg.out" 2>&1
grep -q '+mylib.npu_sync()' "$tmp/cfg.out" &&
    ok "convert applies the rules npuify.toml names" ||
    fail "convert ignored npuify.toml's rules: $(head -5 "$tmp/cfg.out")"
"$NPUIFY" convert --diff "$tmp/cfg/t.py" >"$tmp/cfg.out" 2>&1
grep -q '+mylib.npu_sync()' "$tmp/cfg.out" &&
    ok "a single file gets its directory's npuify.toml" ||
    fail "single file: $(head -5 "$tmp/cfg.out")"
mkdir -p "$tmp/cfg2"
printf '[tool.black]\nline-length = 80\n\n[tool.npuify]\nrules = ["r.json"]\n' \
    >"$tmp/cfg2/pyproject.toml"
cp tests/data/rules/good_ours.json "$tmp/cfg2/r.json"
cp "$tmp/cfg/t.py" "$tmp/cfg2/"
"$NPUIFY" convert --diff "$tmp/cfg2" >"$tmp/cfg.out" 2>&1
grep -q '+mylib.npu_sync()' "$tmp/cfg.out" &&
    ok "pyproject.toml [tool.npuify] is read, other tables skipped" ||
    fail "pyproject.toml: $(head -5 "$tmp/cfg.out")"
printf 'amp = maybe\n' >"$tmp/cfg/npuify.toml"
"$NPUIFY" convert --diff "$tmp/cfg" >"$tmp/cfg.out" 2>&1
rc=$?
[ "$rc" -eq 3 ] && grep -q 'npuify.toml:1:7: error\[config-syntax\]' "$tmp/cfg.out" &&
    ok "a malformed npuify.toml stops convert at file:line:col (exit 3)" ||
    fail "malformed npuify.toml: rc $rc: $(head -3 "$tmp/cfg.out")"

# --help and usage errors
"$NPUIFY" lsp --help >"$tmp/h" 2>&1 && grep -q 'usage: npuify lsp' "$tmp/h" &&
    ok "lsp --help" || fail "lsp --help"
"$NPUIFY" lsp --debounce x >"$tmp/h" 2>&1
[ $? -eq 2 ] && grep -q 'debounce' "$tmp/h" && ok "lsp --debounce x: usage error" ||
    fail "lsp --debounce x"
finish
