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

  /* A tiny Python highlighter: one line at a time. */
  function highlight(line, into) {
    var m;
    TOKEN.lastIndex = 0;
    while ((m = TOKEN.exec(line)) !== null) {
      if (m[0] === "") { TOKEN.lastIndex++; continue; }
      var cls = m[1] ? "c" : m[2] ? "s" : m[3] ? "n" :
        m[4] ? (KW.has(m[4]) ? "k" : (line.charAt(TOKEN.lastIndex) === "(" ? "f" : "")) : "";
      if (cls) into.appendChild(el("span", cls, m[0]));
      else into.appendChild(document.createTextNode(m[0]));
    }
  }

  function codeLines(lines, first, mark) {
    var pre = el("pre");
    lines.forEach(function (text, i) {
      var row = el("div", mark(i) || "");
      row.appendChild(el("span", "ln", first + i));
      highlight(text, row);
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
      left.appendChild(codeLines(it.before, it.first, function (i) {
        return i >= d.head && i < d.tailA ? "del" : ""; }));
      right.appendChild(codeLines(it.after, it.first, function (i) {
        return i >= d.head && i < d.tailB ? "add" : ""; }));
      box.appendChild(left);
      box.appendChild(right);
    } else {
      box.appendChild(codeLines(it.before, it.first, function (i) {
        return it.first + i === it.line ? "hit" : ""; }));
    }
    return box;
  }

  function setDecision(it, div, value) {
    decisions[it.id] = value;
    div.classList.toggle("accepted", value === "accept");
    div.classList.toggle("rejected", value === "reject");
    div.querySelectorAll(".decide button").forEach(function (b) {
      b.classList.toggle("on", b.dataset.value === value);
    });
    updateTotals();
  }

  function itemView(it) {
    var div = el("div", "item" + (it.manual ? " manual" : ""));
    div.dataset.kind = it.kind;
    if (it.id) div.dataset.id = it.id;
    var head = el("div", "head");
    head.appendChild(el("span", "loc",
      (it.file || "project") + (it.line ? ":" + it.line + ":" + it.col : "")));
    head.appendChild(el("span", "rule", it.rule));
    head.appendChild(el("span", "msg", it.message || it.name || ""));
    if (it.kind === "edit") {
      var decide = el("span", "decide");
      [["accept", "accept"], ["reject", "reject"]].forEach(function (p) {
        var b = el("button", "", p[1]);
        b.type = "button";
        b.dataset.value = p[0];
        b.addEventListener("click", function () { setDecision(it, div, p[0]); });
        decide.appendChild(b);
      });
      head.appendChild(decide);
    }
    div.appendChild(head);
    // a message that already ends with its hint (NPU402) shows it once
    if (it.kind !== "edit" && it.hint &&
        (it.message || "").indexOf(it.hint) < 0)
      div.appendChild(el("div", "hint", it.hint));
    var code = codeView(it);
    if (code) div.appendChild(code);
    if (it.kind === "edit") setDecision(it, div, "accept");
    return div;
  }

  var totals = el("div", "totals");
  function updateTotals() {
    var edits = data.items.filter(function (i) { return i.kind === "edit"; });
    var rej = edits.filter(function (i) { return decisions[i.id] === "reject"; });
    var manual = data.items.filter(function (i) { return i.manual; });
    totals.textContent = edits.length + " edits (" + (edits.length - rej.length) +
      " accepted, " + rej.length + " rejected), " + manual.length +
      " findings need manual work, " + (data.items.length - edits.length) +
      " findings in all";
  }

  function decisionsJson() {
    var edits = data.items.filter(function (i) { return i.kind === "edit"; })
      .map(function (i) {
        return { id: i.id, file: i.file, line: i.line, rule: i.rule,
                 start: i.start, end: i.end, before: i.old,
                 create: i.create || undefined, /* omitted for edits */
                 decision: decisions[i.id] };
      });
    return JSON.stringify({ schema: "npuify-decisions/1", source: data.source,
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
    var section = null, current;
    data.items.forEach(function (it) {
      var key = it.file || "(project)";
      if (!section || key !== current) {
        current = key;
        section = el("section");
        section.dataset.file = key;
        section.appendChild(el("h2", "", key));
        main.appendChild(section);
      }
      section.appendChild(itemView(it));
    });
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
  function runTest(spec) {
    var saved = "";
    spec.split(",").forEach(function (step) {
      var i = step.indexOf(":");
      var verb = i < 0 ? step : step.slice(0, i);
      var arg = i < 0 ? "" : decodeURIComponent(step.slice(i + 1));
      if (verb === "accept-all") document.getElementById("accept-all").click();
      else if (verb === "reject-all") document.getElementById("reject-all").click();
      else if (verb === "reject" || verb === "accept") {
        var byId = document.querySelector('.item[data-id="' + CSS.escape(arg) +
          '"] button[data-value="' + verb + '"]');
        if (byId) byId.click();
      } else if (verb === "reject-nth" || verb === "accept-nth") {
        var items = document.querySelectorAll('.item[data-kind="edit"]');
        var b = items[Number(arg)] && items[Number(arg)]
          .querySelector('button[data-value="' + verb.split("-")[0] + '"]');
        if (b) b.click();
      } else if (verb === "save") {
        document.getElementById("save-decisions").click();
        saved = decisionsJson();
      }
    });
    var out = document.getElementById("out");
    out.textContent = JSON.stringify({
      edits: document.querySelectorAll('.item[data-kind="edit"]').length,
      findings: document.querySelectorAll('.item[data-kind="finding"]').length,
      files: document.querySelectorAll("section").length,
      scrollWidth: document.documentElement.scrollWidth,
      foreign: foreignElements(),
      saved: saved ? JSON.parse(saved) : null });
    out.hidden = false;
  }

  build();
  var m = /^#test=(.*)$/.exec(location.hash);
  if (m) runTest(m[1]);
})();
