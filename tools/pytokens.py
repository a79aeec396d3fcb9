#!/usr/bin/python3
"""Reference token dump for `npuify tokens`: Python's own tokenize module.

For each FILE, one JSON line per token (the ENCODING token skipped):
  {"type": "NAME", "string": "torch", "start": [1, 0], "end": [1, 5]}
With several files, a {"file": PATH} line precedes each file's tokens.
If tokenize raises, the tokens produced so far are followed by
{"error": "..."}; such a file can only be checked for the round trip.
Reads the files as bytes (tokenize.tokenize + the file's readline), exactly
as `python -m tokenize` does. Run it with Debian's /usr/bin/python3 (3.11).
Usage: pytokens.py FILE...   (or: pytokens.py --from LISTFILE)
"""
import json
import sys
import tokenize


def dump(path, out):
    try:
        with open(path, "rb") as f:
            for tok in tokenize.tokenize(f.readline):
                if tok.type == tokenize.ENCODING:
                    continue
                out.write(json.dumps({"type": tokenize.tok_name[tok.type],
                                      "string": tok.string,
                                      "start": list(tok.start),
                                      "end": list(tok.end)},
                                     ensure_ascii=False))
                out.write("\n")
    except Exception as e:  # TokenError, SyntaxError, UnicodeDecodeError...
        out.write(json.dumps({"error": "%s: %s" % (type(e).__name__, e)},
                             ensure_ascii=False))
        out.write("\n")


def main(argv):
    if len(argv) >= 2 and argv[0] == "--from":
        with open(argv[1], encoding="utf-8", errors="surrogateescape") as f:
            files = [line.rstrip("\n") for line in f if line.strip()]
    else:
        files = argv
    if not files:
        sys.stderr.write(__doc__)
        return 2
    out = open(sys.stdout.fileno(), "w", encoding="utf-8",
               errors="surrogateescape", closefd=False, buffering=1 << 20)
    for path in files:
        if len(files) > 1:
            out.write(json.dumps({"file": path}, ensure_ascii=False) + "\n")
        dump(path, out)
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
