#!/usr/bin/python3
"""Independent reference reader for PyTorch profiler text tables.

Used to make and re-check tests/data/profiler/expected/*.rows. It is written
separately from the C reader (src/proflog/text_*.c) and on purpose uses a
different method: cells are cut at the FIXED positions given by the dashes
line (each column is `width` code points followed by two spaces, see
shared/reference/profiler_formats.md section 2), validated by regular
expressions per column title; only when a cut cell does not validate (a
value wider than its column pushed the rest right) does it fall back to
splitting the line on runs of 2+ blanks. The C reader instead always
matches cells from the right by grammar. Where both agree on every sample,
the expected files are trustworthy; disagreements were resolved by reading
the raw table by hand (see expected/README.md).

Output, one line per table row (TSV): table, step, rank, calls, flags, name,
overload, shapes. Flags: T name cut (52 chars + "..."), S shape cell cut,
C table cut off, R raw-event table, M ProfilerStep row, H table has Input
Shapes; "-" when none. Steps follow the rules in
src/proflog/proflog.h: every table is one step per rank, except raw-event
tables with ProfilerStep* rows, where each marker opens a step and rows
before the first marker are outside any step (-1).

usage: ref_rows.py FILE
"""
import re
import sys

SEP = re.compile(r'^\s*-+(?:  +-+)*\s*$')
PCT = re.compile(r'^(?:-?\d+(?:\.\d+)?%|-?\d+|NaN|nan|-nan|inf|-inf)$')
TIME = re.compile(r'^-?\d+(?:\.\d+)?(?:us|ms|s|ns)$')
MEM = re.compile(r'^-?\d+(?:\.\d+)? (?:[KMGTP]?[bB])$')
INT = re.compile(r'^-?\d+$')
FLOPS = re.compile(r'^(?:--|-?\d+(?:\.\d+)?)$')
SHAPES = re.compile(r'^\[[\d\[\], -]*$')
RANK_NAMED = re.compile(r'^\[(?:rank|default)(\d+)\]: ?')
RANK_BARE = re.compile(r'^\[(\d+)\](?:: ?| |$)')
ANSI = re.compile(r'\x1b\[[0-?]*[ -/]*[@-~]|\x1b.')
MAX_JUNK = 64


def kind_of(title):
    if title == 'Name':
        return 'name'
    if title == 'Overload Name':
        return 'overload'
    if title in ('# of Calls', 'Number of Calls'):
        return 'calls'
    if title == 'Node ID':
        return 'int'
    if title == 'Input Shapes':
        return 'shapes'
    if title == 'Source Location':
        return 'src'
    if re.match(r'^Total [KMGTP]?FLOPs$', title):
        return 'flops'
    if title.endswith(' %'):
        return 'pct'
    if title.endswith(' Mem'):
        return 'mem'
    if title.endswith(' time avg') or re.match(r'^(Self )?\S+( total)?$', title):
        return 'time'
    return 'any'


def valid(kind, cell):
    if kind == 'pct':
        return bool(PCT.match(cell))
    if kind == 'time':
        return bool(TIME.match(cell))
    if kind == 'mem':
        return bool(MEM.match(cell))
    if kind in ('calls', 'int'):
        return bool(INT.match(cell))
    if kind == 'flops':
        return bool(FLOPS.match(cell))
    if kind == 'shapes':
        return cell == '' or bool(SHAPES.match(cell))
    if kind == 'name':
        return cell != ''
    return True


class Table:
    def __init__(self, titles, widths):
        self.kinds = [kind_of(t) for t in titles]
        self.widths = widths
        self.rows = []
        self.has_shapes = 'shapes' in self.kinds
        self.has_src = 'src' in self.kinds

    def by_position(self, line):
        cells, pos = [], 0
        for i, w in enumerate(self.widths[:len(self.kinds)]):
            if i == len(self.kinds) - 1:
                cells.append(line[pos:].strip())
            else:
                cells.append(line[pos:pos + w].strip())
            pos += w + 2
        return cells

    def by_split(self, line):
        parts = [p for p in re.split(r'[ \t]{2,}', line.strip()) if p != '']
        n = len(self.kinds)
        # optional empty tail cells (Source Location, Input Shapes)
        for drop in range(0, 3):
            m = n - drop
            if m < 1 or len(parts) < m:
                continue
            vals = parts[len(parts) - (m - 1):] if m > 1 else []
            name = '  '.join(parts[:len(parts) - (m - 1)])
            cells = [name] + vals + [''] * drop
            if self.check(cells):
                return cells
        return None

    def check(self, cells):
        return len(cells) == len(self.kinds) and all(
            valid(k, c) for k, c in zip(self.kinds, cells))

    def parse(self, line):
        cells = self.by_position(line)
        if self.check(cells):
            return cells
        return self.by_split(line)

    def valid_prefix(self, line):
        """Cells of a row head cut short by foreign text."""
        cells = self.by_position(line)
        k = 0
        while k < len(cells) and valid(self.kinds[k], cells[k]) and cells[k]:
            k += 1
        if k == 0:
            return None
        # the last valid cell may be followed by foreign text in the same
        # fixed slot: take its first word
        out = cells[:k]
        if k < len(cells):
            first = cells[k].split(' ')[0] if cells[k] else ''
            if first and valid(self.kinds[k], first):
                out.append(first)
        return out


def normalise(line):
    line = line.rstrip('\r')
    if '\x1b' in line:
        line = ANSI.sub('', line)
    if '\r' in line:
        line = line[line.rfind('\r') + 1:]
    rank = -1
    m = RANK_NAMED.match(line) or RANK_BARE.match(line)
    if m and line.startswith('['):
        rank = int(m.group(1))
        line = line[m.end():]
    return rank, line


class Stream:
    def __init__(self, rank, out):
        self.rank, self.out = rank, out
        self.state = 'idle'
        self.widths = None
        self.header = None
        self.table = None
        self.table_no = 0
        self.next_step = 1
        self.comment = False
        self.pending = None
        self.junk = 0

    def close(self, cut):
        t = self.table
        raw = False
        if t.rows and all(r['calls'] <= 1 for r in t.rows):
            markers = sum(r['name'].startswith('ProfilerStep') for r in t.rows)
            keys = [(r['name'], r['shapes']) for r in t.rows]
            raw = markers >= 2 or len(set(keys)) < len(keys)
        has_marker = any(r['name'].startswith('ProfilerStep') for r in t.rows)
        if t.rows:
            if raw and has_marker:
                step = -1
            else:
                step = self.next_step
                self.next_step += 1
        for r in t.rows:
            marker = r['name'].startswith('ProfilerStep')
            if raw and has_marker and marker:
                step = self.next_step
                self.next_step += 1
            flags = r['flags'] + ('C' if cut else '') + ('R' if raw else '') + \
                ('M' if marker else '') + ('H' if t.has_shapes else '')
            self.out.append((self.table_no, step, self.rank, r['calls'],
                             order_flags(flags), r['name'], '', r['shapes']))
        self.table = None
        self.state = 'idle'
        self.comment = False
        self.pending = None

    def add(self, cells):
        t = self.table
        row = {'name': cells[0], 'calls': 1, 'shapes': '', 'flags': ''}
        for k, c in zip(t.kinds, cells):
            if k == 'calls':
                row['calls'] = int(c)
            elif k == 'shapes':
                row['shapes'] = c
        if row['name'].endswith('...') and len(row['name']) >= t.widths[0] >= 4:
            row['flags'] += 'T'
        s = row['shapes']
        if s and (s.count('[') != s.count(']') or not s.endswith(']')):
            row['flags'] += 'S'
        t.rows.append(row)

    def table_line(self, line):
        t = self.table
        if line.strip() == '':
            if not t.has_src:
                self.junk += 1
                if self.junk > MAX_JUNK:
                    self.close(True)
            return
        lead = len(line) - len(line.lstrip(' \t'))
        if t.has_src:
            start = sum(w + 2 for w in t.widths[:t.kinds.index('src')])
            if start > 0 and lead >= start:
                return
        cells = t.parse(line)
        if cells:
            self.junk = 0
            self.pending = None
            self.add(cells)
            return
        if self.pending is not None:
            head = t.valid_prefix(self.pending)
            tail = [p for p in re.split(r'[ \t]{2,}', line.strip()) if p]
            if head and len(head) + len(tail) == len(t.kinds):
                joined = head + tail
                if t.check(joined):
                    self.pending = None
                    self.junk = 0
                    self.add(joined)
                    return
        self.pending = line
        self.junk += 1
        if self.junk > MAX_JUNK:
            self.close(True)

    def line(self, line):
        if self.state == 'idle':
            if line.startswith('# ') or line == '#':
                stripped, had = line[2:], True
            else:
                stripped, had = line, False
        else:
            stripped, had = line, False
            if self.comment and (line.startswith('# ') or line == '#'):
                stripped = line[2:]
        line = stripped
        is_sep = bool(SEP.match(line)) and not (
            line.strip().count('-') < 8 and '  ' not in line.strip())
        widths = [len(g) for g in line.split()] if is_sep else None
        st = self.state
        if st == 'closing':
            titles = header_titles(line)
            if titles:
                self.close(True)
                self.header = (titles, self.widths)
                self.state = 'header'
                return
            comment = self.comment
            self.close(False)
            if comment and (line != stripped or True):
                had = had or comment
            st = 'idle'
        if st == 'table':
            if is_sep:
                self.widths = widths
                self.state = 'closing'
            else:
                self.table_line(line)
            return
        if st == 'header':
            if is_sep:
                self.open(*self.header)
                return
            self.state = 'idle'
        elif st == 'sep1':
            if is_sep:
                self.widths = widths
                return
            titles = header_titles(line)
            if titles:
                self.header = (titles, self.widths)
                self.state = 'header'
                return
            self.state = 'idle'
            self.comment = False
            return
        elif st == 'hdr_nosep':
            self.state = 'idle'
            if is_sep:
                self.open(self.header[0], widths)
                return
        if self.state != 'idle':
            return
        if is_sep:
            self.widths = widths
            self.state = 'sep1'
            self.comment = had
        elif line.lstrip(' ').startswith('Name  ') and header_titles(line):
            self.header = (header_titles(line), None)
            self.state = 'hdr_nosep'
            self.comment = had

    def open(self, titles, widths):
        self.table = Table(titles, widths)
        self.table_no += 1
        self.state = 'table'
        self.junk = 0
        self.pending = None

    def finish(self):
        if self.state == 'table':
            self.close(True)
        elif self.state == 'closing':
            self.close(False)


def header_titles(line):
    titles = [p for p in re.split(r'[ \t]{2,}', line.strip()) if p]
    if len(titles) >= 2 and titles[0] == 'Name':
        return titles
    return None


def order_flags(f):
    return ''.join(c for c in 'TSCRMHJ' if c in f) or '-'


def decode(data):
    if data.startswith(b'\xef\xbb\xbf'):
        return data[3:].decode('utf-8', 'replace')
    if data.startswith(b'\xff\xfe'):
        return data[2:].decode('utf-16-le', 'replace')
    if data.startswith(b'\xfe\xff'):
        return data[2:].decode('utf-16-be', 'replace')
    return data.decode('utf-8', 'replace')


def main():
    text = decode(open(sys.argv[1], 'rb').read())
    lines = text.split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    out, streams, order = [], {}, []
    for raw in lines:
        rank, line = normalise(raw)
        if rank not in streams:
            streams[rank] = Stream(rank, out)
            order.append(rank)
        streams[rank].line(line)
    for r in order:
        streams[r].finish()
    for row in out:
        print('\t'.join(str(x) for x in row))


if __name__ == '__main__':
    main()
