// Appended to a copy of an ops report.html by tests/check_ops.sh, which
// shows that copy in an iframe of phone width (headless Chromium's window
// is at least 500 px wide): sends the parent whether the page scrolls
// sideways and which table headers have a word wider than their cell (a
// word the browser would break into letters).
(function () {
  var doc = document.documentElement, out = {
    width: window.innerWidth, scrollWidth: doc.scrollWidth, headers: 0,
    broken: []
  };
  document.querySelectorAll('th').forEach(function (th) {
    out.headers++;
    var cs = getComputedStyle(th);
    var room = th.clientWidth - parseFloat(cs.paddingLeft) -
      parseFloat(cs.paddingRight);
    th.textContent.split(/\s+/).forEach(function (w) {
      if (!w) return;
      var s = document.createElement('span');
      s.style.whiteSpace = 'nowrap';
      s.textContent = w;
      th.appendChild(s);
      var need = s.getBoundingClientRect().width;
      th.removeChild(s);
      if (need > room + 0.5) out.broken.push(w + ' (' + Math.round(need) +
        ' > ' + Math.round(room) + ' px)');
    });
  });
  parent.postMessage(JSON.stringify(out), '*');
})();
