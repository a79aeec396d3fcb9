#!/usr/bin/python3
"""Expected operator counts of a legacy chrome trace (export_chrome_trace
without kineto): "name<TAB>count" of every "ph": "X" event, sorted by name.

Independent of npuify's trace reader: valid files go through json.load; the
legacy writer does not escape names, so an invalid file is read with a
regular expression over its regular one-line layout
({"name": "...", "ph": "X", "ts": ...}), where a name runs up to the
'", "ph": ' that always follows it.

usage: trace_ops.py FILE
"""
import collections
import json
import re
import sys

EVENT = re.compile(r'\{"name": "(.*?)", "ph": "(\w)"')


def main():
    text = open(sys.argv[1], encoding='utf-8').read()
    counts = collections.Counter()
    try:
        for e in json.loads(text):
            if e.get('ph') == 'X':
                counts[e['name']] += 1
    except json.JSONDecodeError:
        for name, ph in EVENT.findall(text):
            if ph == 'X':
                counts[name] += 1
    for name in sorted(counts):
        print('%s\t%d' % (name, counts[name]))


if __name__ == '__main__':
    main()
