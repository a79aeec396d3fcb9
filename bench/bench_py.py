"""CPython baselines for bench/run.sh: ast.parse and tokenize over the same
files, all read into memory first, timed (process CPU time and wall time)
best of N rounds. Prints lines "NAME FILES BYTES CPU_S CPU_MB/S WALL_S
WALL_MB/S" like bench_front.  usage: bench_py.py ROUNDS LISTFILE"""
import ast
import io
import sys
import time
import tokenize


def load(listfile):
    srcs = []
    with open(listfile) as f:
        for line in f:
            path = line.rstrip('\n')
            if path:
                with open(path, 'rb') as g:
                    srcs.append(g.read())
    return srcs


def do_ast(srcs):
    for s in srcs:
        try:
            ast.parse(s)
        except (SyntaxError, ValueError):
            pass


def do_tokenize(srcs):
    for s in srcs:
        try:
            for _ in tokenize.tokenize(io.BytesIO(s).readline):
                pass
        except (tokenize.TokenError, SyntaxError):
            pass


def measure(name, fn, srcs, rounds):
    nbytes = sum(len(s) for s in srcs)
    best = best_wall = None
    for _ in range(rounds):
        c0, w0 = time.process_time(), time.perf_counter()
        fn(srcs)
        dc, dw = time.process_time() - c0, time.perf_counter() - w0
        best = dc if best is None else min(best, dc)
        best_wall = dw if best_wall is None else min(best_wall, dw)
    mb = nbytes / 1e6
    print('%s %d %d %.6f %.1f %.6f %.1f' % (
        name, len(srcs), nbytes, best, mb / best if best else 0.0,
        best_wall, mb / best_wall if best_wall else 0.0), flush=True)


def main():
    rounds, listfile = int(sys.argv[1]), sys.argv[2]
    srcs = load(listfile)
    measure('py_ast', do_ast, srcs, rounds)
    measure('py_tokenize', do_tokenize, srcs, rounds)


if __name__ == '__main__':
    main()
