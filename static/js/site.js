// Keyboard focus across htmx swaps, on every page.
//
// htmx replaces the part of the page an action changed; the element that had the focus
// goes with it and the focus would fall to <body> (Tab starts again at "Skip to content",
// a second Enter does nothing). So: just before a swap, remember which control inside the
// swapped part had the focus, by a key that survives the swap; once the new content has
// settled, give the focus to the control with the same key in the new content. When there
// is none (the content moved on: a new section, a new step), the new content's heading
// takes the focus, so screen readers announce where the user is now.
//
// Keys, most specific first: id, data-focus-id, data-nav, data-key, data-pos (within its
// board), data-testid, a button's name=value; else the control's place among the swapped
// part's controls, if the new content has the same number of them.
(function () {
  "use strict";
  var CONTROLS = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]";
  var KEY_ATTRS = ["data-focus-id", "data-nav", "data-key", "data-testid"];

  function keyOf(el) {
    if (el.id) return { sel: "#" + CSS.escape(el.id) };
    for (var i = 0; i < KEY_ATTRS.length; i++) {
      var v = el.getAttribute(KEY_ATTRS[i]);
      if (v) return { sel: "[" + KEY_ATTRS[i] + '="' + CSS.escape(v) + '"]' };
    }
    var cell = el.closest("[data-pos]");
    if (cell) {
      var board = cell.closest("[id]");
      return { sel: (board ? "#" + CSS.escape(board.id) + " " : "") + '[data-pos="' + CSS.escape(cell.dataset.pos) + '"]' };
    }
    if (el.name) return { sel: el.tagName.toLowerCase() + '[name="' + CSS.escape(el.name) + '"]' };
    return null;
  }

  function focusable(el) {
    return el && el.isConnected && !el.disabled && !el.closest("[inert]") &&
      (el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : el.getClientRects().length > 0);
  }

  function controlIn(el) {
    // a focused cell, chip or form field, or the control inside a focused wrapper
    if (el.matches(CONTROLS)) return el;
    return el.querySelector(CONTROLS);
  }

  // how many htmx requests are on their way (tests wait for none after a swap); an xhr's
  // loadend comes after a load, an error, an abort or a timeout alike
  var html = document.documentElement;
  var inFlight = 0;
  html.dataset.requests = "0";
  document.addEventListener("htmx:beforeRequest", function (e) {
    var xhr = e.detail && e.detail.xhr;
    if (!xhr) return;
    inFlight += 1;
    html.dataset.requests = String(inFlight);
    xhr.addEventListener("loadend", function () {
      // after htmx's own load handler (it swaps and settles first)
      setTimeout(function () {
        inFlight = Math.max(0, inFlight - 1);
        html.dataset.requests = String(inFlight);
      }, 0);
    });
  });

  var pending = null; // what had the focus inside the part being swapped
  document.addEventListener("htmx:beforeSwap", function (e) {
    var target = e.detail.target;
    var active = document.activeElement;
    if (!target || !active || active === document.body || !target.contains(active)) return;
    var controls = Array.prototype.slice.call(target.querySelectorAll(CONTROLS));
    pending = {
      key: keyOf(active),
      index: controls.indexOf(active),
      count: controls.length,
      targetId: target.id,
    };
  });

  function heading(root) {
    var h = root.querySelector("h1, h2, h3, legend");
    if (!h) return null;
    if (!h.hasAttribute("tabindex")) h.setAttribute("tabindex", "-1");
    return h;
  }

  document.addEventListener("htmx:afterSettle", function (e) {
    var was = pending;
    pending = null;
    var active = document.activeElement;
    var lost = !active || active === document.body || !active.isConnected;
    if (was && lost) {
      var root = (was.targetId && document.getElementById(was.targetId)) || e.detail.target || document;
      var next = null;
      if (was.key) {
        next = root.querySelector(was.key.sel) || document.querySelector(was.key.sel);
        if (next) next = controlIn(next);
      }
      if (!focusable(next) && was.index >= 0) {
        var controls = root.querySelectorAll ? root.querySelectorAll(CONTROLS) : [];
        if (controls.length === was.count) next = controls[was.index];
      }
      if (!focusable(next)) next = root.querySelector ? heading(root) : null;
      if (next) next.focus({ preventScroll: !!was.key });
    }
    html.dataset.settled = String(parseInt(html.dataset.settled || "0", 10) + 1); // tests wait for this
  });
})();
