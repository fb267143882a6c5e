// Presenter: next/previous by arrow keys, space, Page Up/Down (presentation clickers send
// those), and timers for the section and the whole teach.
(function () {
  "use strict";
  var root = document.querySelector(".presenter");
  if (!root) return;
  // Both timers count from the server's clock marks, so a reload never restarts them; the
  // whole teach starts at the first move (until then both show 0:00).
  function mark(name) {
    var section = document.getElementById("present-section");
    var value = (section && section.dataset[name]) || root.dataset[name];
    return value ? parseFloat(value) * 1000 : null;
  }
  function fmt(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }
  function tick() {
    var started = mark("started");
    var sectionStart = mark("sectionStarted");
    var t = document.querySelector('[data-timer="section"]');
    var total = document.querySelector('[data-timer="total"]');
    if (t) t.textContent = sectionStart ? fmt(Date.now() - sectionStart) : "0:00";
    if (total) total.textContent = started ? fmt(Date.now() - started) : "0:00";
  }
  setInterval(tick, 500);
  tick();
  root.dataset.ready = "1"; // keys work from here on (tests wait for this)
  // A key pressed while the previous move is still on its way waits for it, so quick
  // presses are never lost and never skip a section.
  var busy = false;
  var queue = [];
  function go(dir) {
    var button = document.querySelector('#present-section [data-nav="' + dir + '"]');
    if (button && !button.disabled) button.click();
  }
  document.addEventListener("htmx:beforeRequest", function () { busy = true; });
  document.addEventListener("htmx:afterSettle", function (e) {
    busy = false;
    var section = document.getElementById("present-section");
    if (section && e.target === section && section.getBoundingClientRect().top < 0) {
      section.scrollIntoView({ block: "start" });
    }
    if (queue.length) go(queue.shift());
  });
  document.addEventListener("htmx:responseError", function () { busy = false; queue = []; });
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var tag = document.activeElement && document.activeElement.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    var dir = { ArrowRight: "next", " ": "next", PageDown: "next", ArrowLeft: "prev", PageUp: "prev" }[e.key];
    if (!dir) return;
    if (e.key === " " && tag === "BUTTON") return; // space on a focused button clicks it already
    e.preventDefault();
    if (busy) queue.push(dir); else go(dir);
  });
})();
