// Stepping through a round (templates/walkthrough/_steps.html), the same on every surface:
// the analyzer, the practice game and its replay, the tutorial's boards, a teaching table.
// The arrow keys move the steps, and after every step the whole board and the current
// step's heading and first lines are on the screen: on a phone the board is pinned at the
// top (CSS) and the steps are brought right under it; elsewhere the board is brought into
// view and the step beside or under it; a board that is not stepped through shows what its
// last move did. Everything also works without this file: each
// move is a link or a form, and the step is in the address.
(function () {
  "use strict";

  var KEYS = { ArrowRight: "next", ArrowLeft: "back" };

  function visible(el) {
    var r = el.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight;
  }

  // The steps a key moves inside `root`: those holding the focus, else the first on screen
  // (or, when `root` is one surface, its own).
  function navIn(root) {
    var active = document.activeElement;
    var surface = active && active.closest ? active.closest("[data-walk]") : null;
    var own = surface && root.contains(surface) ? surface.querySelector("[data-step-nav]") : null;
    if (own) return own;
    var all = Array.prototype.slice.call(root.querySelectorAll("[data-step-nav]"));
    return all.filter(visible)[0] || (root.matches && root.matches("[data-walk]") ? all[0] || null : null);
  }

  // The control of move `dir` (next, back, end, restart) there, or null.
  function control(dir, root) {
    var nav = navIn(root || document);
    return nav ? nav.querySelector('[data-step-move="' + dir + '"]') : null;
  }

  // Sticky bars at the bottom of the screen (the presenter's Back and Next) cover the page.
  function coveredBelow() {
    var bar = document.querySelector(".present-nav");
    if (!bar || getComputedStyle(bar).position !== "sticky") return 0;
    var r = bar.getBoundingClientRect();
    return r.top < window.innerHeight ? window.innerHeight - r.top : 0;
  }

  function reveal(surface) {
    var board = surface.querySelector("[data-walk-board]");
    var nav = surface.querySelector("[data-step-nav]");
    var title = nav && nav.querySelector(".current-step-title");
    if (!board || !title) return;
    var bottom = window.innerHeight - coveredBelow();
    if (getComputedStyle(board).position === "sticky") {
      // the board is pinned once the page is scrolled to it; then its steps come right under it
      var home = board.parentElement.getBoundingClientRect().top;
      if (home > 0) window.scrollBy({ top: home, behavior: "instant" });
      var gap = nav.getBoundingClientRect().top - board.getBoundingClientRect().bottom - 6;
      if (gap > 0 || title.getBoundingClientRect().top < board.getBoundingClientRect().bottom) {
        window.scrollBy({ top: gap, behavior: "instant" });
      }
      return;
    }
    var b = board.getBoundingClientRect();
    if (b.top < 0 || b.bottom > bottom) window.scrollBy({ top: b.top - 8, behavior: "instant" });
    var t = title.getBoundingClientRect();
    if (t.bottom + 48 > bottom) {
      // the step's heading and first lines, never scrolling the board's top away
      var room = board.getBoundingClientRect().top - 8;
      window.scrollBy({ top: Math.max(0, Math.min(t.bottom + 48 - bottom, room)), behavior: "instant" });
    }
  }

  // A request made on a surface being stepped through (a step move, a board's own control),
  // from the analyzer's list of steps or its "explain" button: once its answer has settled,
  // show the board and the step.
  var pending = null; // { xhr, target id } of that request
  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail.elt;
    if (!elt || !elt.closest || !elt.closest("[data-walk], .step-list, [data-testid=explain]")) return;
    if (elt.hasAttribute("data-background")) return; // a panel loading itself moves nothing
    var target = e.detail.target;
    pending = { xhr: e.detail.xhr, id: target && target.id ? target.id : null };
  });
  document.addEventListener("htmx:afterSettle", function (e) {
    if (!pending || e.detail.xhr !== pending.xhr) return; // another answer (a panel, a poll)
    var root = pending.id && document.getElementById(pending.id);
    pending = null;
    var surface = root && (root.matches("[data-walk]") ? root : root.querySelector("[data-walk]"));
    if (surface) reveal(surface);
    (root || document).dispatchEvent(new CustomEvent("captain:step-shown", { bubbles: true }));
  });

  // A tutorial board that is not stepped through (Dice Time, the turns, a check): after one
  // of its own controls, what the move did (its status line, or a check's result, right
  // under the board on a phone) comes into view with as much of the board as fits.
  var boardMove = null; // { xhr, panel id } of that request
  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail.elt;
    var panel = elt && elt.closest && !elt.closest("[data-walk]") ? elt.closest(".board-panel[id]") : null;
    boardMove = panel ? { xhr: e.detail.xhr, id: panel.id } : null;
  });
  document.addEventListener("htmx:afterSettle", function (e) {
    if (!boardMove || e.detail.xhr !== boardMove.xhr) return;
    var panel = document.getElementById(boardMove.id);
    boardMove = null;
    var status = panel && panel.querySelector('[role="status"]');
    var grid = panel && panel.querySelector(".grid-wrap");
    if (!status || !grid || !status.textContent.trim()) return;
    var bottom = window.innerHeight - coveredBelow();
    var s = status.getBoundingClientRect();
    var g = grid.getBoundingClientRect();
    if (s.top < 0 || g.top < 0 && s.top + Math.min(s.height, 220) > bottom) {
      window.scrollBy({ top: Math.min(s.top, g.top) - 8, behavior: "instant" });
      return;
    }
    var want = s.top + Math.min(s.height, 220); // the status's first lines
    if (want > bottom) {
      // never scrolling the board's top away
      window.scrollBy({ top: Math.max(0, Math.min(want - bottom + 8, g.top - 8)), behavior: "instant" });
    }
  });

  // The folded earlier steps stay open through a swap when the reader opened them (a
  // step, or a guest's screen following the person teaching).
  var open = [];
  document.addEventListener("htmx:beforeSwap", function () {
    open = Array.prototype.map.call(document.querySelectorAll("[data-walk] details.earlier-steps[open]"),
      function (d) { var s = d.closest("[data-walk]"); return s.id || "walk"; });
  });
  document.addEventListener("htmx:afterSwap", function () {
    open.forEach(function (id) {
      var surface = id === "walk" ? document.querySelector("[data-walk]") : document.getElementById(id);
      var d = surface && surface.querySelector("details.earlier-steps");
      if (d) d.open = true;
    });
    open = [];
  });

  // Where the steps are what the page is for (the practice game between rounds, the
  // replay), they are shown as they appear: on arrival, or when a swap brings them.
  var hadMain = false;
  function mainSurface(root) {
    return root && root.querySelector ? root.querySelector("[data-walk][data-walk-main]") : null;
  }
  document.addEventListener("DOMContentLoaded", function () {
    var surface = mainSurface(document);
    if (surface && !location.hash) reveal(surface);
  });
  document.addEventListener("htmx:beforeSwap", function () {
    hadMain = !!mainSurface(document);
  });
  document.addEventListener("htmx:afterSettle", function () {
    var surface = mainSurface(document);
    if (surface && !hadMain) reveal(surface);
    hadMain = !!surface;
  });

  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    var dir = KEYS[e.key];
    if (!dir || document.getElementById("present-section")) return; // teach.js has the presenter's keys
    var el = document.activeElement;
    var tag = el ? el.tagName : "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (el && el.isContentEditable)) return;
    if (el && el.closest && el.closest(".grid")) return; // the arrows move between board positions
    var move = control(dir);
    if (!move) return;
    e.preventDefault();
    move.click();
  });

  window.captainSteps = { control: control, reveal: reveal };
})();
