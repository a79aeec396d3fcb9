#!/bin/sh
# Chrome-trace reading speed and memory: npuify's streaming reader against
# Python's json.load on the same generated kineto-style trace (~200 MB,
# TRACE_MB to change), plain and gzipped, plus raw read speed as the
# ceiling and `npuify ops` end to end. Peak RSS comes from /usr/bin/time -v
# and shows the reader's memory is bounded (a few MB whatever the size)
# while json.load holds the whole document.
#   sh bench/trace.sh [BUILD]        (BUILD defaults to build/release)
# Everything is made in a temporary directory and removed at the end.
set -eu
BUILD=${1:-build/release}
MB=${TRACE_MB:-200}
PY=/usr/bin/python3
BENCH=$BUILD/bench/trace_bench
NPUIFY=$BUILD/npuify
MODE=$(basename "$BUILD")
[ -x "$BENCH" ] || make -s MODE="$MODE" "$BENCH"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
trace=$tmp/trace.json

# ---- generate: kineto layout (one event over 6 lines, args with shapes) --
$PY "$(dirname "$0")/gen_trace.py" "$trace" "$MB"
gzip -1 -k "$trace"
size=$(wc -c <"$trace")
gzsize=$(wc -c <"$trace.gz")
echo "trace: $size bytes ($gzsize gzipped), $(uname -m), $(nproc) cores"

rss() { # $1 = /usr/bin/time -v log: peak RSS in MB
    sed -n 's/.*Maximum resident set size (kbytes): //p' "$1" |
        awk '{printf "%.1f MB", $1 / 1024}'
}
secs() { # $1 = log: elapsed wall clock as seconds
    sed -n 's/.*Elapsed (wall clock) time.*: //p' "$1" |
        awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }'
}

/usr/bin/time -v cat "$trace" >/dev/null 2>"$tmp/cat.log"
t=$(secs "$tmp/cat.log")
echo "raw read (cat):            $(awk -v s="$size" -v t="$t" 'BEGIN{printf "%7.1f MB/s", s/1e6/(t>0?t:0.01)}')  peak RSS $(rss "$tmp/cat.log")"

cpu() { # $1 = /usr/bin/time -v log: user + system seconds
    awk -F': ' '/User time|System time/ { t += $2 } END { print t }' "$1"
}
# trace_bench prints "... X s wall Y MB/s, Z s cpu W MB/s (OK)".
field() { # $1 = output file, $2 = wall or cpu: the seconds before it
    sed -n "s/.* \([0-9.]*\) s $2 .*/\1/p" "$1"
}
/usr/bin/time -v "$BENCH" "$trace" >"$tmp/b.out" 2>"$tmp/b.log"
echo "npuify reader, plain:      $(sed 's/.*s wall //' "$tmp/b.out")  peak RSS $(rss "$tmp/b.log")"
sed 's/^/    /' "$tmp/b.out"

/usr/bin/time -v "$BENCH" "$trace.gz" >"$tmp/g.out" 2>"$tmp/g.log"
echo "npuify reader, gzip:       $(sed 's/.*s wall //' "$tmp/g.out")  peak RSS $(rss "$tmp/g.log")  (MB/s of compressed bytes)"
w=$(field "$tmp/g.out" wall | head -n 1)
c=$(field "$tmp/g.out" cpu | head -n 1)
echo "                           $(awk -v s="$size" -v w="$w" -v c="$c" 'BEGIN{printf "%.1f MB/s wall, %.1f MB/s cpu of JSON", s/1e6/w, s/1e6/c}')"

if [ -x "$NPUIFY" ]; then
    /usr/bin/time -v "$NPUIFY" ops "$trace" -q -o "$tmp/ops" >/dev/null 2>"$tmp/o.log" || true
    t=$(secs "$tmp/o.log")
    c=$(cpu "$tmp/o.log")
    echo "npuify ops (end to end):   $(awk -v s="$size" -v t="$t" -v c="$c" 'BEGIN{printf "%.1f MB/s wall, %.1f MB/s cpu", s/1e6/(t>0?t:0.01), s/1e6/(c>0?c:0.01)}')  peak RSS $(rss "$tmp/o.log")"
fi

/usr/bin/time -v $PY -c "
import json, sys, time
t, c = time.perf_counter(), time.process_time()
with open(sys.argv[1]) as f:
    d = json.load(f)
dt, dc = time.perf_counter() - t, time.process_time() - c
n = sum(1 for e in d['traceEvents'] if e.get('ph') == 'X')
print('%.1f MB/s wall, %.1f MB/s cpu, %d events' % ($size / 1e6 / dt, $size / 1e6 / dc, n))
" "$trace" >"$tmp/p.out" 2>"$tmp/p.log"
echo "python json.load:          $(cat "$tmp/p.out")  peak RSS $(rss "$tmp/p.log")"
