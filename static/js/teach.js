// Presenter: next/previous by arrow keys, space, Page Up/Down (presentation clickers send
// those), and timers for the section and the whole teach.
(function () {
  "use strict";
  var root = document.querySelector(".presenter");
  if (!root) return;
  var started = parseFloat(root.dataset.started) * 1000;
  var sectionStart = Date.now();
  var sectionIndex = null;
  function fmt(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }
  function tick() {
    var section = document.getElementById("present-section");
    if (section && section.dataset.index !== sectionIndex) {
      sectionIndex = section.dataset.index;
      sectionStart = Date.now();
    }
    var t = document.querySelector('[data-timer="section"]');
    var total = document.querySelector('[data-timer="total"]');
    if (t) t.textContent = fmt(Date.now() - sectionStart);
    if (total) total.textContent = fmt(Date.now() - started);
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
