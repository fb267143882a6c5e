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
// Keys, most specific first: id, data-focus-id, data-nav, data-key, data-testid, data-pos
// (within its board), a button's name=value; else the same words on the same kind of
// control. Never the control's mere place in the list (that may be another action).
(function () {
  "use strict";
  var CONTROLS = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]";
  var KEY_ATTRS = ["data-focus-id", "data-nav", "data-key", "data-testid"];

  function label(el) {
    return (el.getAttribute("aria-label") || el.textContent || el.value || "").replace(/\s+/g, " ").trim();
  }

  function keyOf(el, root) {
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
    if (el.name) {
      return { sel: el.tagName.toLowerCase() + '[name="' + CSS.escape(el.name) + '"]' +
               (el.value ? '[value="' + CSS.escape(el.value) + '"]' : "") };
    }
    // else the same words on the same kind of control (the n-th of those with these words)
    var words = label(el);
    if (!words) return null;
    var same = Array.prototype.filter.call(root.querySelectorAll(el.tagName), function (c) {
      return label(c) === words;
    });
    return { tag: el.tagName, words: words, nth: same.indexOf(el) };
  }

  function find(key, root) {
    if (key.sel) return root.querySelector(key.sel) || document.querySelector(key.sel);
    var same = Array.prototype.filter.call(root.querySelectorAll(key.tag), function (c) {
      return label(c) === key.words;
    });
    return same[Math.max(0, Math.min(key.nth, same.length - 1))] || null;
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

  // A page loaded anew in place of a swap (the analyzer's Undo goes back in the browser's
  // history, which reloads the earlier page): the control named before leaving takes the focus.
  var after = sessionStorage.getItem("focusAfterLoad");
  if (after) {
    sessionStorage.removeItem("focusAfterLoad");
    document.addEventListener("DOMContentLoaded", function () {
      var el = document.querySelector('[data-focus-id="' + CSS.escape(after) + '"]');
      if (focusable(el)) el.focus();
    });
  }

  // Space works links that act like buttons (switches, board positions), as it does buttons
  document.addEventListener("keydown", function (e) {
    if (e.key !== " " || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    var el = document.activeElement;
    if (!el || !el.matches || !el.matches('a[role="switch"], a[role="button"], a.cell')) return;
    if (el.matches(".cell") && el.closest("#analyzer")) return; // analyzer.js queues its own
    {
      e.preventDefault();
      el.click();
    }
  });

  var pending = null; // what had the focus inside the part being swapped
  document.addEventListener("htmx:beforeSwap", function (e) {
    var target = e.detail.target;
    var active = document.activeElement;
    if (!target || !active || active === document.body || !target.contains(active)) return;
    pending = { key: keyOf(active, target), targetId: target.id };
  });

  // When the control used is gone, the new content may name the heading where the user
  // goes on (data-focus-fallback: the practice game's round steps, or its moves panel
  // after a move ended the learner's turn); else its first heading. Never another control.
  function heading(root) {
    var h = root.querySelector("[data-focus-fallback]") || root.querySelector("h1, h2, h3, legend");
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
      // Never "the control in the same place": after "Make start player" that would be the
      // next row's "Remove", and a second Enter would do what nobody asked for.
      var next = was.key && root.querySelector ? find(was.key, root) : null;
      if (next) next = controlIn(next);
      var same = focusable(next);
      if (!same) next = root.querySelector ? heading(root) : null;
      // the same control stays where it was on the screen; a new heading (the content
      // moved on, e.g. a new phase of the game) is brought into view
      if (next) next.focus({ preventScroll: !!same });
    }
  });
})();

// A request that fails is said, never silent: a 4xx or 5xx answer, no answer at all (the
// network) or none in time (htmx's timeout, base.html). The notice at the bottom of the
// screen (templates/_request_notice.html) takes the sentence the page holds for the
// answer's Problem-Code header, else for what happened; it is a status for a poll and an
// alert for what the visitor did. A poll that keeps failing waits longer each time (4 s,
// 8 s, … up to a minute) instead of asking every second or two; its first success makes it
// poll at its own pace again and takes its notice away.
(function () {
  "use strict";
  var notice = document.getElementById("request-notice");
  var sentences = document.getElementById("request-notices");
  if (!notice || !sentences) return;
  var text = notice.querySelector("[data-notice-text]");

  // what a status means when the answer names no problem of its own
  var BY_STATUS = { 410: "table-ended", 429: "rate-limited", 502: "busy", 503: "busy", 504: "busy" };
  var LONGEST_WAIT = 60000;

  function sentence(code) {
    return sentences.content.querySelector('[data-problem="' + CSS.escape(code) + '"]');
  }
  function codeOf(xhr) {
    var named = xhr && xhr.getResponseHeader("Problem-Code");
    if (named && sentence(named)) return named;
    var status = xhr ? xhr.status : 0;
    return BY_STATUS[status] || (status >= 500 ? "server-error" : "reload");
  }
  // the element that made the request: htmx tells the end of a request whose element a
  // swap removed meanwhile to the nearest element still on the page (detail.elt)
  function origin(e) {
    return (e.detail.requestConfig && e.detail.requestConfig.elt) || e.detail.elt;
  }
  function isPoll(elt) {
    return !!elt && /(^|,)\s*every\s/.test(elt.getAttribute("hx-trigger") || "");
  }
  // a poll's own pace in milliseconds ("every 2s", "every 500ms")
  function pace(elt) {
    var found = /every\s+([\d.]+)\s*(ms|s)?/.exec(elt.getAttribute("hx-trigger") || "");
    return found ? parseFloat(found[1]) * (found[2] === "ms" ? 1 : 1000) : 2000;
  }

  // above a bar pinned to the bottom of the screen (the presenter's Back and Next), never on it
  function lift() {
    var bar = document.querySelector(".present-nav");
    var pinned = bar && getComputedStyle(bar).position === "sticky";
    notice.style.bottom = pinned ? "calc(" + bar.offsetHeight + "px + .5rem)" : "";
  }
  window.addEventListener("resize", function () { if (!notice.hidden) lift(); });

  function show(code, fromPoll) {
    // said already (a poll's status becomes an alert once something the visitor did fails too)
    if (!notice.hidden && notice.dataset.code === code && (fromPoll || notice.dataset.source === "action")) return;
    var line = sentence(code).cloneNode(true);
    // a new element with its role is announced on insertion by screen readers
    line.setAttribute("role", fromPoll ? "status" : "alert");
    text.replaceChildren(line);
    notice.dataset.code = code;
    notice.dataset.source = fromPoll ? "poll" : "action";
    notice.hidden = false;
    lift();
  }
  function hide() {
    notice.hidden = true;
    text.replaceChildren();
    delete notice.dataset.code;
  }
  notice.querySelector("[data-notice-reload]").addEventListener("click", function () {
    window.location.reload();
  });
  notice.querySelector("[data-notice-close]").addEventListener("click", hide);

  // polls that failed: element -> consecutive failures and the time before which it waits
  var waiting = new WeakMap();
  document.addEventListener("htmx:confirm", function (e) {
    // a table's live stream said it moved (static/js/live.js), or a phone came back: asked at once
    var why = e.detail.triggeringEvent;
    if (why && why.type === "live") return;
    var state = waiting.get(e.detail.elt);
    if (state && Date.now() < state.until) e.preventDefault(); // skipped: not yet
  });

  function failed(e, code) {
    var elt = origin(e);
    var poll = isPoll(elt);
    if (poll) {
      var state = waiting.get(elt) || { failures: 0 };
      state.failures += 1;
      state.until = Date.now() + Math.min(LONGEST_WAIT, pace(elt) * Math.pow(2, state.failures));
      waiting.set(elt, state);
      notice.dispatchEvent(new CustomEvent("captain:poll-failed", { bubbles: true, detail: state }));
    }
    show(code, poll);
  }
  document.addEventListener("htmx:responseError", function (e) { failed(e, codeOf(e.detail.xhr)); });
  document.addEventListener("htmx:sendError", function (e) { failed(e, "network"); });
  document.addEventListener("htmx:timeout", function (e) { failed(e, "timeout"); });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (!e.detail.successful) return;
    var elt = origin(e);
    var poll = isPoll(elt);
    if (poll) waiting.delete(elt);
    // a poll that works again takes back what polls said, not what an action's failure said
    if (!notice.hidden && (!poll || notice.dataset.source === "poll")) hide();
  });
})();
