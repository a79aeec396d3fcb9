#!/bin/sh
# Suite for `make install PREFIX=...`: into a temporary prefix, the binary
# runs from there and finds its data, man pages per command (valid roff),
# bash completion, the static and shared library with npuify.pc; a tiny C
# program built with `pkg-config --cflags --libs npuify` (shared, and
# --static) converts a file; the shared library exports exactly the NFY_API
# functions of npuify.h, the one installed header.
#   sh tests/check_install.sh          (builds what it installs)
set -u
. tests/lib.sh
suite install
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=$tmp/prefix

if make -s install PREFIX="$P" >"$tmp/make.log" 2>&1; then ok; else
    fail "make install failed"; tail -20 "$tmp/make.log"; finish
fi
for f in bin/npuify lib/libnpuify.a lib/libnpuify.so lib/libnpuify.so.0 \
    lib/pkgconfig/npuify.pc include/npuify/npuify.h \
    share/npuify/rules/rules.json share/npuify/npu_emu \
    share/bash-completion/completions/npuify share/man/man1/npuify.1; do
    [ -e "$P/$f" ] && ok || fail "not installed: $f"
done
for cmd in convert review ops run verify rules tokens syntax lsp; do
    m=$P/share/man/man1/npuify-$cmd.1
    if [ -s "$m" ] && man -l -P cat "$m" 2>"$tmp/man.err" | grep -q "usage: npuify $cmd"; then
        ok
    elif [ -s "$m" ] && ! command -v man >/dev/null; then
        grep -q '^\.TH NPUIFY-' "$m" && ok || fail "npuify-$cmd.1 is no man page"
    else
        fail "npuify-$cmd.1 missing or unreadable"; head -3 "$tmp/man.err"
    fi
done
# the installed binary works from there
mkdir "$tmp/src"
printf 'import torch\nx = torch.ones(2).cuda()\n' >"$tmp/src/train.py"
"$P/bin/npuify" convert "$tmp/src" --check >"$tmp/check.out" 2>&1
[ $? -eq 1 ] && ok || fail "installed npuify convert --check: not 1"
# bash completion lists the commands and a command's options
if command -v bash >/dev/null; then
    out=$(PATH="$P/bin:$PATH" bash -c ". $P/share/bash-completion/completions/npuify
        COMP_WORDS=(npuify re); COMP_CWORD=1; _npuify; echo \${COMPREPLY[*]}
        COMP_WORDS=(npuify convert --am); COMP_CWORD=2; _npuify; echo \${COMPREPLY[*]}")
    echo "$out" | grep -qx 'review' && ok || fail "completion of 're': $out"
    echo "$out" | grep -qx -- '--amp' && ok || fail "completion of '--am': $out"
fi
# a C program against the installed library, through pkg-config
export PKG_CONFIG_PATH=$P/lib/pkgconfig
flags=$(pkg-config --cflags --libs npuify) && ok || fail "pkg-config npuify"
cc -std=c11 -Wall -Wextra -Werror -o "$tmp/hello" tests/install/hello_npuify.c \
    $flags 2>"$tmp/cc.err" && ok || { fail "build against libnpuify.so"; cat "$tmp/cc.err"; }
LD_LIBRARY_PATH=$P/lib "$tmp/hello" "$tmp/src" >"$tmp/hello.out" 2>&1
[ $? -eq 0 ] && ok || fail "hello (shared) failed: $(cat "$tmp/hello.out")"
grep -q 'train.py:[0-9]*: NPU' "$tmp/hello.out" && grep -q ' 2 edits' "$tmp/hello.out" &&
    ok || fail "hello (shared): $(cat "$tmp/hello.out")"
LD_LIBRARY_PATH=$P/lib ldd "$tmp/hello" | grep -q "$P/lib/libnpuify.so.0" && ok ||
    fail "hello is not linked to the installed libnpuify.so"
cc -std=c11 -Wall -Wextra -Werror -o "$tmp/hello_static" \
    tests/install/hello_npuify.c $(pkg-config --cflags npuify) \
    "$P/lib/libnpuify.a" $(pkg-config --static --libs-only-l npuify | sed 's/-lnpuify//') \
    2>"$tmp/cc.err" && ok || { fail "build against libnpuify.a"; cat "$tmp/cc.err"; }
"$tmp/hello_static" "$tmp/src" | grep -q ' 2 edits' && ok || fail "hello (static)"
# the shared library exports exactly the functions npuify.h marks NFY_API,
# and the installed headers are that one file
nm -D --defined-only "$P/lib/libnpuify.so" | awk '$2 == "T" {print $3}' |
    sort >"$tmp/syms"
sed -n 's/.*NFY_API [^(]*[ *]\(nfy_[a-z0-9_]*\)(.*/\1/p' include/npuify/npuify.h |
    sort >"$tmp/api"
[ "$(wc -l <"$tmp/api")" -ge 20 ] && ok || fail "npuify.h: $(wc -l <"$tmp/api") NFY_API functions read"
diff "$tmp/api" "$tmp/syms" >"$tmp/syms.diff" && ok ||
    fail "exports differ from npuify.h's NFY_API functions: $(head -c 600 "$tmp/syms.diff")"
other=$(nm -D --defined-only "$P/lib/libnpuify.so" | awk '$2 != "T" && $2 != "A" {print $3}' |
    grep -v '^_' | head -5)
[ -z "$other" ] && ok || fail "exported data or other symbols: $other"
[ "$(ls "$P/include/npuify")" = npuify.h ] && ok ||
    fail "installed headers: $(ls "$P/include/npuify" | tr '\n' ' ')"
# the public header stands alone, in C and C++ compilers' strict modes
printf '#include <npuify/npuify.h>\nint main(void){return nfy_version()[0]==0;}\n' >"$tmp/alone.c"
cc -std=c99 -Wall -Wextra -Wpedantic -Werror -c -o "$tmp/alone.o" \
    $(pkg-config --cflags npuify) "$tmp/alone.c" && ok || fail "npuify.h alone (C99)"
if command -v g++ >/dev/null; then
    g++ -x c++ -std=c++17 -Wall -Wextra -Werror -c -o "$tmp/alone_cc.o" \
        $(pkg-config --cflags npuify) "$tmp/alone.c" && ok || fail "npuify.h from C++"
fi
finish
