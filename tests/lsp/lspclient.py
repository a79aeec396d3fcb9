"""A minimal LSP client over a child's stdio, for tests/check_lsp.sh."""
import json
import os
import select
import subprocess
import time


class Client:
    def __init__(self, argv, cwd=None, env=None):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, cwd=cwd, env=env)
        self.buf = b""
        self.next_id = 1
        self.inbox = []

    def send_raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params, timeout=10):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method,
                   "params": params})
        return self.wait(lambda m: m.get("id") == rid and "method" not in m,
                         timeout)

    def _read_one(self, deadline):
        while True:
            hdr_end = self.buf.find(b"\r\n\r\n")
            if hdr_end >= 0:
                hdr = self.buf[:hdr_end].decode()
                n = int(hdr.split("Content-Length:")[1].split("\r\n")[0])
                if len(self.buf) >= hdr_end + 4 + n:
                    body = self.buf[hdr_end + 4:hdr_end + 4 + n]
                    self.buf = self.buf[hdr_end + 4 + n:]
                    return json.loads(body)
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.p.stdout], [], [], left)
            if not r:
                return None
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buf += chunk

    def wait(self, pred, timeout=10):
        for i, m in enumerate(self.inbox):
            if pred(m):
                return self.inbox.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            m = self._read_one(deadline)
            if m is None:
                return None
            if pred(m):
                return m
            self.inbox.append(m)

    def diagnostics(self, uri, version=None, timeout=10):
        def ok(m):
            return (m.get("method") == "textDocument/publishDiagnostics"
                    and m["params"]["uri"] == uri
                    and (version is None
                         or m["params"].get("version") == version))
        m = self.wait(ok, timeout)
        return None if m is None else m["params"]["diagnostics"]

    def close(self, timeout=10):
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        try:
            return self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            return "hung"


def apply_edits(text, edits):
    """Apply LSP TextEdits (UTF-16 positions) to text."""
    lines = text.splitlines(keepends=True) or [""]
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln))

    def off(pos):
        line = min(pos["line"], len(lines))
        base = starts[line] if line < len(starts) else len(text)
        s = lines[line] if line < len(lines) else ""
        units, i = 0, 0
        while units < pos["character"] and i < len(s) and s[i] not in "\r\n":
            units += 2 if ord(s[i]) > 0xFFFF else 1
            i += 1
        return base + i

    spans = sorted(((off(e["range"]["start"]), off(e["range"]["end"]),
                     e["newText"]) for e in edits), reverse=True)
    for a, b, t in spans:
        text = text[:a] + t + text[b:]
    return text
