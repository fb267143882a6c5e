// Keyboard for the position editor: R B G W colour, 0-5 value, D dice, E remove,
// X no treasure card, Z undo (browser history: every change of the position is a new
// address; choosing a tool only replaces the address), arrow keys move between board
// positions, Enter or Space places. Every key only clicks a link that also works by mouse.
(function () {
  "use strict";
  function inField(el) {
    return el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.isContentEditable);
  }
  function cells() {
    return Array.from(document.querySelectorAll("#analyzer .grid .cell"));
  }
  function columns() {
    var grid = document.querySelector("#analyzer .grid");
    var m = grid && grid.className.match(/cols-(\d+)/);
    return m ? parseInt(m[1], 10) : 4;
  }
  var lastFocus = null;
  // How many positions this tab has stepped through here, so Z never leaves the page.
  var KEY = "analyzerSteps";
  var nav = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
  if (!nav || nav.type === "navigate") sessionStorage.setItem(KEY, "0");
  function steps() { return parseInt(sessionStorage.getItem(KEY) || "0", 10); }
  document.addEventListener("htmx:pushedIntoHistory", function () {
    sessionStorage.setItem(KEY, String(steps() + 1));
  });
  function undo() {
    if (steps() > 0) {
      sessionStorage.setItem(KEY, String(steps() - 1));
      history.back();
    }
  }
  // Keys typed while an edit is on its way wait for it: every link on the page is
  // built from the position it shows, so the next key must use the new links.
  // Panels that load themselves after the answer (data-background: the what-ifs) change
  // no link the keys use, so they neither hold keys back nor release them.
  var busy = false;
  var queue = [];
  function background(e) {
    var d = e.detail || {};
    var elt = (d.requestConfig && d.requestConfig.elt) || d.elt;
    return !!(elt && elt.hasAttribute && elt.hasAttribute("data-background"));
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    if (background(e)) return;
    busy = true;
    document.body.dataset.busy = "1";
  });
  document.addEventListener("htmx:afterSettle", function (e) {
    if (background(e)) return;
    busy = false;
    document.body.dataset.busy = "0";
    if (queue.length) handleKey(queue.shift());
  });
  document.addEventListener("htmx:responseError", function (e) {
    if (background(e)) return;
    busy = false;
    queue = [];
  });
  document.addEventListener("focusin", function (e) {
    if (e.target.closest && e.target.closest("#analyzer .grid .cell")) {
      lastFocus = e.target.closest(".cell").dataset.pos;
    }
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    if (background(e)) return;
    var error = document.querySelector("#analyzer [data-testid=analyzer-error]");
    if (error && error.getBoundingClientRect().top < 0) error.scrollIntoView({ block: "center" });
    if (!lastFocus) return;
    var cell = document.querySelector('#analyzer .grid .cell[data-pos="' + lastFocus + '"]');
    if (cell) cell.focus();
  });
  document.addEventListener("click", function (e) {
    var undo = e.target.closest && e.target.closest('[data-action="undo"]');
    if (undo) {
      e.preventDefault();
      undo();
    }
  });
  function handleKey(key) {
    if (key.indexOf("__cell:") === 0) {
      var cell = document.querySelector('#analyzer .grid .cell[data-pos="' + key.slice(7) + '"]');
      if (cell) cell.click();
      return;
    }
    var target = document.querySelector('#analyzer [data-key="' + key + '"]');
    if (target) target.click();
  }
  document.documentElement.dataset.analyzerKeys = "1"; // keys work from here on (tests wait)
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || inField(document.activeElement)) return;
    if (!document.getElementById("analyzer")) return;
    var key = e.key.toLowerCase();
    if (key === "z") {
      e.preventDefault();
      undo(); // only positions stepped through here; the page before the analyzer stays
      return;
    }
    if (key === " ") {
      var focused = document.activeElement && document.activeElement.closest(".cell");
      if (focused && focused.closest("#analyzer")) {
        e.preventDefault();
        if (busy) queue.push("__cell:" + focused.dataset.pos); else focused.click();
      }
      return;
    }
    if (key.indexOf("arrow") === 0) {
      var all = cells();
      var i = all.indexOf(document.activeElement && document.activeElement.closest(".cell"));
      if (i < 0) { if (all.length) { all[0].focus(); e.preventDefault(); } return; }
      var n = columns();
      var j = { arrowleft: i - 1, arrowright: i + 1, arrowup: i - n, arrowdown: i + n }[key];
      if (j >= 0 && j < all.length) { all[j].focus(); e.preventDefault(); }
      return;
    }
    if (!document.querySelector('#analyzer [data-key="' + key + '"]')) return;
    e.preventDefault();
    if (busy) queue.push(key); else handleKey(key);
  });
})();
