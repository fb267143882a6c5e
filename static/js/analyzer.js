// Keyboard for the position editor: R B G W colour, 0-5 value, D dice, E remove,
// X no treasure card, Z undo, Y or Shift+Z redo (links that carry the edit history, as
// without JavaScript), arrow keys move between board positions, Enter or Space places. Every key only clicks a link that also works by mouse.
// Keyboard focus across swaps is kept by the site's script (site.js, data-focus-id).
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
  });
  document.addEventListener("htmx:afterSettle", function (e) {
    if (background(e)) return;
    afterSwap();
    busy = false;
    if (queue.length) handleKey(queue.shift());
  });
  document.addEventListener("htmx:responseError", function (e) {
    if (background(e)) return;
    busy = false;
    queue = [];
  });
  // After a swap, what the user must see: a refusal (beside its field or above the board);
  // in step-by-step view the board with the current step (steps.js shows them); else the
  // control just used, where it was on the screen (the what-if panel, loaded after the answer, would
  // otherwise push it away). Runs once site.js has given the focus back.
  var keep = null;
  document.addEventListener("htmx:beforeSwap", function (e) {
    if (background(e)) return;
    var active = document.activeElement;
    var target = e.detail.target;
    keep = active && active !== document.body && target && target.contains(active)
      ? active.getBoundingClientRect().top : null;
  });
  // The what-if panel arriving must not push what the user is looking at below it either.
  var below = null;
  function anchor() {
    var active = document.activeElement;
    if (active && active !== document.body && active.closest("#analyzer")) return active;
    return document.querySelector("#analyzer .analyzer-side");
  }
  document.addEventListener("htmx:beforeSwap", function (e) {
    below = null;
    var panel = e.detail.target;
    if (!background(e) || !panel || panel.id !== "what-ifs") return;
    var el = anchor();
    if (!el) return;
    var top = el.getBoundingClientRect().top;
    if (top >= 0 && top <= innerHeight && panel.getBoundingClientRect().top < top) {
      below = { el: el, top: top };
    }
  });
  document.addEventListener("htmx:afterSettle", function (e) {
    if (!background(e) || !below) return;
    var el = below.el.isConnected ? below.el : anchor();
    if (el) window.scrollBy(0, el.getBoundingClientRect().top - below.top);
    below = null;
  });
  function hidden(el) {
    var r = el.getBoundingClientRect();
    return r.top < 0 || r.bottom > innerHeight;
  }
  function afterSwap() {
    var was = keep;
    keep = null;
    var error = document.querySelector("#analyzer [data-testid=analyzer-error]");
    if (error) {
      // a refused field keeps the focus; its reason is right beside it
      var field = document.activeElement;
      if (field && field.matches && field.matches("[aria-invalid=true]")) {
        if (hidden(field)) field.scrollIntoView({ block: "center" });
        return;
      }
      if (hidden(error)) {
        error.scrollIntoView({ block: error.getBoundingClientRect().top < 0 ? "center" : "end" });
      }
      return;
    }
    if (document.querySelector("#analyzer [data-walk]") || was === null) return;
    var active = document.activeElement;
    if (active && active !== document.body && active.closest("#analyzer")) {
      window.scrollBy(0, active.getBoundingClientRect().top - was);
      // a player just removed: what went with them, and Undo, show under the control used
      var status = document.querySelector("#analyzer [data-testid=seat-removed]");
      if (status && status.closest("li") === active.closest("li") && hidden(status)) {
        status.scrollIntoView({ block: "nearest" });
      }
    }
  }
  function handleKey(key) {
    if (key.indexOf("__cell:") === 0) {
      var cell = document.querySelector('#analyzer .grid .cell[data-pos="' + key.slice(7) + '"]');
      if (cell) cell.click();
      return;
    }
    var target = document.querySelector('#analyzer [data-key="' + key + '"]');
    if (target) target.click();
  }
  // keys work from here on
  document.documentElement.dispatchEvent(new CustomEvent("captain:ready", { bubbles: true }));
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || inField(document.activeElement)) return;
    if (!document.getElementById("analyzer")) return;
    // Shift+Z redoes as Y does; a focused cell keeps the focus (the links are not focused)
    var key = e.key === "Z" && e.shiftKey ? "y" : e.key.toLowerCase();
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
