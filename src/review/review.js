/* npuify review page: built from the JSON in #data with textContent only. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var decisions = {}; /* edit id -> "accept" | "reject" */
  var KW = new Set(("False None True and as assert async await break class " +
    "continue def del elif else except finally for from global if import in " +
    "is lambda nonlocal not or pass raise return try while with yield")
    .split(" "));
  var TOKEN = /(#.*$)|([rbfuRBFU]{0,2}(?:"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?))|(\b\d[\d_.]*\b)|([A-Za-z_]\w*)|([^#"'\w]+|.)/g;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  /* A tiny Python highlighter: one line at a time, [text, class] pieces. */
  function tokens(line) {
    var m, out = [];
    TOKEN.lastIndex = 0;
    while ((m = TOKEN.exec(line)) !== null) {
      if (m[0] === "") { TOKEN.lastIndex++; continue; }
      var cls = m[1] ? "c" : m[2] ? "s" : m[3] ? "n" :
        m[4] ? (KW.has(m[4]) ? "k" : (line.charAt(TOKEN.lastIndex) === "(" ? "f" : "")) : "";
      out.push([m[0], cls]);
    }
    return out;
  }

  /* The line's pieces into `into`; the part [from, to) (UTF-16 units) is
   * the changed span, marked so it shows wherever the line wraps. */
  function render(line, range, into) {
    var at = 0;
    tokens(line).forEach(function (t) {
      var text = t[0], end = at + text.length;
      var cuts = [0, text.length];
      if (range) {
        [range[0] - at, range[1] - at].forEach(function (c) {
          if (c > 0 && c < text.length) cuts.push(c);
        });
        cuts.sort(function (a, b) { return a - b; });
      }
      for (var i = 0; i + 1 < cuts.length; i++) {
        if (cuts[i] === cuts[i + 1]) continue;
        var piece = text.slice(cuts[i], cuts[i + 1]);
        var inside = range && at + cuts[i] >= range[0] && at + cuts[i + 1] <= range[1];
        var cls = (inside ? "chg " : "") + t[1];
        if (cls) into.appendChild(el("span", cls.trim(), piece));
        else into.appendChild(document.createTextNode(piece));
      }
      at = end;
    });
  }

  /* Where text, put at line `line`, code point column col of lines (first
   * numbered `first`), lies: line index -> [from, to) in UTF-16 units. */
  function spanOf(lines, first, line, col, text) {
    var ranges = {}, li = line - first;
    if (!text || li < 0 || li >= lines.length) return ranges;
    var from = Array.from(lines[li]).slice(0, col).join("").length;
    text.split("\n").forEach(function (part, k) {
      part = part.replace(/\r$/, "");
      var start = k === 0 ? from : 0;
      if (part.length) ranges[li + k] = [start, start + part.length];
    });
    return ranges;
  }

  function codeLines(lines, first, mark, ranges) {
    var pre = el("pre");
    lines.forEach(function (text, i) {
      var row = el("div", mark(i) || "");
      row.appendChild(el("span", "ln", first + i));
      var code = el("span", "src");
      render(text, ranges && ranges[i], code);
      row.appendChild(code);
      pre.appendChild(row);
    });
    return pre;
  }

  /* Lines that differ between before and after: common head and tail kept. */
  function changed(a, b) {
    var h = 0, t = 0;
    while (h < a.length && h < b.length && a[h] === b[h]) h++;
    while (t < a.length - h && t < b.length - h &&
           a[a.length - 1 - t] === b[b.length - 1 - t]) t++;
    return { head: h, tailA: a.length - t, tailB: b.length - t };
  }

  function codeView(it) {
    var box = el("div", it.after ? "code" : "code single");
    if (!it.before) return null;
    if (it.after) {
      var d = changed(it.before, it.after);
      var left = el("div"), right = el("div");
      left.appendChild(el("div", "cap", "before"));
      right.appendChild(el("div", "cap", "after"));
      var col = (it.col || 1) - 1;
      left.appendChild(codeLines(it.before, it.first, function (i) {
        return i >= d.head && i < d.tailA ? "del" : ""; },
        it.create ? null : spanOf(it.before, it.first, it.line, col, it.old)));
      right.appendChild(codeLines(it.after, it.first, function (i) {
        return i >= d.head && i < d.tailB ? "add" : ""; },
        it.create ? null : spanOf(it.after, it.first, it.line, col, it.new)));
      box.appendChild(left);
      box.appendChild(right);
    } else {
      box.appendChild(codeLines(it.before, it.first, function (i) {
        return it.first + i === it.line ? "hit" : ""; }));
    }
    return box;
  }

  /* Edits that need an inserted import (it.needs: the imports' ids). */
  var byId = {}, users = {};
  data.items.forEach(function (it) { if (it.id) byId[it.id] = it; });
  data.items.forEach(function (it) {
    (it.needs || []).forEach(function (n) {
      (users[n] = users[n] || []).push(it);
    });
  });
  var depViews = []; /* [import item, its div, its note] */

  function lines(list) {
    return list.map(function (u) { return u.line; }).join(", ");
  }

  /* A rejected import an accepted edit needs is kept by convert. */
  function keptImports() {
    return Object.keys(users).filter(function (id) {
      return decisions[id] === "reject" && users[id].some(function (u) {
        return decisions[u.id] !== "reject"; });
    });
  }

  function updateDeps() {
    var kept = new Set(keptImports());
    depViews.forEach(function (v) {
      var need = users[v[0].id].filter(function (u) {
        return decisions[u.id] !== "reject"; });
      v[1].classList.toggle("kept", kept.has(v[0].id));
      v[2].textContent = kept.has(v[0].id)
        ? "rejected, but kept: " + need.length + " accepted edit" +
          (need.length === 1 ? " needs" : "s need") + " this import (line" +
          (need.length === 1 ? " " : "s ") + lines(need) +
          "); reject them too to leave it out"
        : users[v[0].id].length + " edit" +
          (users[v[0].id].length === 1 ? " needs" : "s need") +
          " this import (line" + (users[v[0].id].length === 1 ? " " : "s ") +
          lines(users[v[0].id]) + ")";
    });
  }

  function setDecision(it, div, value) {
    decisions[it.id] = value;
    div.classList.toggle("accepted", value === "accept");
    div.classList.toggle("rejected", value === "reject");
    div.querySelectorAll(".decide button").forEach(function (b) {
      b.classList.toggle("on", b.dataset.value === value);
    });
    updateDeps();
    updateTotals();
  }

  function head(it, loc, message) {
    var h = el("div", "head");
    h.appendChild(el("span", "loc", loc));
    h.appendChild(el("span", "rule", it.rule));
    h.appendChild(el("span", "msg", message));
    return h;
  }

  function locOf(it) {
    return (it.file || "project") + (it.line ? ":" + it.line + ":" + it.col : "");
  }

  function editView(it) {
    var div = el("div", "item" + (it.manual ? " manual" : ""));
    div.dataset.kind = "edit";
    div.dataset.id = it.id;
    var h = head(it, locOf(it), it.message || it.name || "");
    var decide = el("span", "decide");
    [["accept", "accept"], ["reject", "reject"]].forEach(function (p) {
      var b = el("button", "", p[1]);
      b.type = "button";
      b.dataset.value = p[0];
      b.addEventListener("click", function () { setDecision(it, div, p[0]); });
      decide.appendChild(b);
    });
    h.appendChild(decide);
    div.appendChild(h);
    if (users[it.id]) {
      var note = el("div", "deps");
      div.appendChild(note);
      depViews.push([it, div, note]);
    }
    (it.needs || []).forEach(function (n) {
      var imp = byId[n];
      if (imp) div.appendChild(el("div", "deps needs", "needs '" +
        (imp.new || "").trim() + "' (" + imp.rule + ", line " + imp.line + ")"));
    });
    var code = codeView(it);
    if (code) div.appendChild(code);
    setDecision(it, div, "accept");
    return div;
  }

  /* One card per rule and hint in a file: its sites listed in it. */
  function groupView(first) {
    var div = el("div", "item" + (first.manual ? " manual" : ""));
    div.dataset.kind = "group";
    div.dataset.rule = first.rule;
    var count = el("span", "count");
    div.appendChild(head(first, first.file ? first.file : "project",
      first.name || first.message || ""));
    div.firstChild.appendChild(count);
    if (first.hint) div.appendChild(el("div", "hint", first.hint));
    var sites = el("div", "sites");
    div.appendChild(sites);
    var n = 0;
    return { div: div, add: function (it) {
      var site = el("div", "site");
      site.dataset.kind = "finding";
      var msg = it.message || "";
      /* "NAME: detail" says its detail; a message holding the hint, once */
      if (it.name && msg.indexOf(it.name) === 0)
        msg = msg.slice(it.name.length).replace(/^[.:]\s*/, "");
      if (it.hint && msg.indexOf(it.hint) >= 0)
        msg = msg.replace(it.hint, "").trim();
      var line = el("div", "where");
      line.appendChild(el("span", "loc", it.line ? it.line + ":" + it.col : "project"));
      if (msg) line.appendChild(el("span", "msg", msg));
      site.appendChild(line);
      var code = codeView(it);
      if (code) site.appendChild(code);
      sites.appendChild(site);
      n++;
      count.textContent = n + (n === 1 ? " site" : " sites");
    } };
  }

  var totals = el("div", "totals");
  function updateTotals() {
    var edits = data.items.filter(function (i) { return i.kind === "edit"; });
    var rej = edits.filter(function (i) { return decisions[i.id] === "reject"; });
    var manual = data.items.filter(function (i) { return i.manual; });
    var kept = keptImports().length;
    totals.textContent = edits.length + " edits (" + (edits.length - rej.length) +
      " accepted, " + rej.length + " rejected" +
      (kept ? ", " + kept + " of them kept: accepted edits need them" : "") +
      "), " + manual.length + " findings need manual work, " +
      (data.items.length - edits.length) + " findings in all";
  }

  function decisionsJson() {
    var edits = data.items.filter(function (i) { return i.kind === "edit"; })
      .map(function (i) {
        return { id: i.id, file: i.file, line: i.line, rule: i.rule,
                 before: i.old, anchor: i.create ? undefined : i.anchor,
                 create: i.create || undefined, /* omitted for edits */
                 decision: decisions[i.id] };
      });
    return JSON.stringify({ schema: "npuify-decisions/2", source: data.source,
                            edits: edits }, null, 1) + "\n";
  }

  /* A Blob and an <a download>: works from file:// without a server. */
  function save() {
    var text = decisionsJson();
    var url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    var a = el("a");
    a.href = url;
    a.download = "npuify-decisions.json";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
    return text;
  }

  function clickAll(value) {
    document.querySelectorAll('.item .decide button[data-value="' + value + '"]')
      .forEach(function (b) { b.click(); });
  }

  /* What the tool understood of each script: trained modules, optimizers,
   * steps, loaders, loops, each at file:line (report.json "training"). */
  function trainingView() {
    var rows = data.training || [];
    var div = el("div", "training"), file = null;
    if (!rows.length) return null;
    div.appendChild(el("h2", "", "Training program"));
    rows.forEach(function (r) {
      if (r.file !== file) {
        file = r.file;
        div.appendChild(el("p", "tfile", file));
      }
      var row = el("div", "trow");
      row.dataset.kind = r.kind;
      row.appendChild(el("span", "tkind", r.kind));
      row.appendChild(el("span", "loc", r.file + ":" + r.line));
      var code = el("span", "tcode");
      render(r.text, null, code);
      row.appendChild(code);
      if (r.how) row.appendChild(el("span", "thow", r.how));
      div.appendChild(row);
    });
    return div;
  }

  function build() {
    var app = document.getElementById("app");
    var header = el("header");
    header.appendChild(el("h1", "", "npuify review: " + (data.source || "")));
    header.appendChild(totals);
    var bar = el("div");
    [["accept all", function () { clickAll("accept"); }],
     ["reject all", function () { clickAll("reject"); }],
     ["save decisions", save]].forEach(function (p) {
      var b = el("button", "", p[0]);
      b.type = "button";
      b.id = p[0].replace(" ", "-");
      b.addEventListener("click", p[1]);
      bar.appendChild(b);
    });
    header.appendChild(bar);
    app.appendChild(header);
    var main = el("main");
    var section = null, current, groups;
    var tv = trainingView();
    if (tv) main.appendChild(tv);
    data.items.forEach(function (it) {
      var key = it.file || "(project)";
      if (!section || key !== current) {
        current = key;
        groups = {};
        section = el("section");
        section.dataset.file = key;
        section.appendChild(el("h2", "", key));
        main.appendChild(section);
      }
      if (it.kind === "edit") {
        section.appendChild(editView(it));
        return;
      }
      var g = it.rule + "\u0000" + (it.hint || "");
      if (!groups[g]) {
        groups[g] = groupView(it);
        section.appendChild(groups[g].div);
      }
      groups[g].add(it);
    });
    updateDeps();
    if (!data.items.length) main.appendChild(el("p", "", "Nothing to review."));
    app.appendChild(main);
    updateTotals();
  }

  /* Elements the page itself never makes: markup from user content. */
  function foreignElements() {
    var own = new Set(["DIV", "SPAN", "PRE", "BUTTON", "HEADER", "MAIN",
                       "SECTION", "H1", "H2", "P"]);
    return Array.prototype.filter.call(
      document.getElementById("app").querySelectorAll("*"),
      function (e) { return !own.has(e.tagName); }).length;
  }

  /* #test=accept-all,reject:ID,reject-nth:N,save: the same clicks a user
   * makes, for headless tests; the saved file and a few DOM facts go to
   * <pre id=out>. */
  function clickOn(id, value) {
    var b = document.querySelector('.item[data-id="' + CSS.escape(id) +
      '"] button[data-value="' + value + '"]');
    if (b) b.click();
  }

  /* Changed spans not in view: outside the window, or clipped by a box
   * that hides or scrolls what overflows it. */
  function hiddenSpans() {
    var hidden = [], all = document.querySelectorAll(".chg");
    Array.prototype.forEach.call(all, function (e) {
      if (!e.textContent.trim()) return; /* a space may hang at a wrap */
      var r = e.getBoundingClientRect();
      var out = r.width <= 0 || r.left < 0 || r.right > window.innerWidth + 0.5;
      for (var p = e.parentElement; !out && p && p !== document.body;
           p = p.parentElement) {
        if (getComputedStyle(p).overflowX === "visible") continue;
        var b = p.getBoundingClientRect();
        out = r.left < b.left - 0.5 || r.right > b.right + 0.5;
      }
      if (out) hidden.push(e.textContent);
    });
    return { count: all.length, hidden: hidden };
  }

  /* rule -> [cards, sites] of the findings' cards */
  function cardsByRule() {
    var n = {};
    document.querySelectorAll('.item[data-kind="group"]').forEach(function (c) {
      var v = n[c.dataset.rule] = n[c.dataset.rule] || [0, 0];
      v[0]++;
      v[1] += c.querySelectorAll(".site").length;
    });
    return n;
  }

  function runTest(spec) {
    var saved = "";
    spec.split(",").forEach(function (step) {
      var i = step.indexOf(":");
      var verb = i < 0 ? step : step.slice(0, i);
      var arg = i < 0 ? "" : decodeURIComponent(step.slice(i + 1));
      if (verb === "accept-all") document.getElementById("accept-all").click();
      else if (verb === "reject-all") document.getElementById("reject-all").click();
      else if (verb === "reject" || verb === "accept") clickOn(arg, verb); else if (verb === "reject-nth" || verb === "accept-nth") {
        var items = document.querySelectorAll('.item[data-kind="edit"]');
        var b = items[Number(arg)] && items[Number(arg)]
          .querySelector('button[data-value="' + verb.split("-")[0] + '"]');
        if (b) b.click();
      } else if (verb === "reject-rule") {
        data.items.forEach(function (it) {
          if (it.kind === "edit" && it.rule === arg) clickOn(it.id, "reject");
        });
      } else if (verb === "reject-needing") {
        data.items.forEach(function (it) {
          if ((it.needs || []).some(function (n) {
            return byId[n] && byId[n].rule === arg; })) clickOn(it.id, "reject");
        });
      } else if (verb === "save") {
        document.getElementById("save-decisions").click();
        saved = decisionsJson();
      }
    });
    var out = document.getElementById("out");
    out.textContent = JSON.stringify({
      edits: document.querySelectorAll('.item[data-kind="edit"]').length,
      findings: document.querySelectorAll('[data-kind="finding"]').length,
      cards: cardsByRule(),
      spans: hiddenSpans(),
      width: window.innerWidth,
      kept: keptImports(),
      deps: Array.prototype.map.call(document.querySelectorAll(".deps"),
        function (d) { return d.textContent; }),
      files: document.querySelectorAll("section").length,
      training: document.querySelectorAll(".trow").length,
      scrollWidth: document.documentElement.scrollWidth,
      foreign: foreignElements(),
      saved: saved ? JSON.parse(saved) : null });
    out.hidden = false;
    /* in a frame of a given width (tests of narrow screens): to the parent */
    if (window.parent !== window) window.parent.postMessage(out.textContent, "*");
  }

  build();
  var m = /^#test=(.*)$/.exec(location.hash);
  if (m) runTest(m[1]);
})();
