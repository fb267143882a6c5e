// Teaching a table: the presenter's keys, timers and table version; the guest's screen
// that follows the presenter. Everything works without this file too (forms, reloads).
(function () {
  "use strict";

  function section() {
    return document.getElementById("present-section") || document.getElementById("guest-section");
  }

  // A new section arrived: show its top, give its heading the focus (screen
  // readers announce it) and name the tab after it.
  var shownIndex = section() ? section().dataset.index : null;
  function arrived() {
    var s = section();
    if (!s) return;
    if (s.dataset.title) document.title = s.dataset.title + " · " + document.title.split(" · ").pop();
    if (s.dataset.index === shownIndex) return;
    shownIndex = s.dataset.index;
    var heading = s.querySelector("h1");
    if (!heading) return;
    // the section's top: its progress line (and a guest's pinned bar) above the title
    s.scrollIntoView({ block: "start" });
    // A presenter who pressed Next keeps the focus on it (site.js gives it back), so a
    // second Enter moves on again; otherwise (keys, a guest following) the title takes it.
    var active = document.activeElement;
    if (!active || active === document.body || !active.closest("[data-nav]")) {
      heading.focus({ preventScroll: true });
    }
  }

  var presenter = document.querySelector(".presenter");
  var guest = document.querySelector(".guest");

  function fmt(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }
  // The table's last half hour: the warning shows (drawn hidden while the table had longer)
  // and counts down to the end, on the presenter's screen and every guest's.
  var ENDS_SOON = 30 * 60 * 1000;
  function countDown() {
    document.querySelectorAll("[data-ends]").forEach(function (warning) {
      var left = parseFloat(warning.dataset.ends) * 1000 - Date.now();
      warning.hidden = left > ENDS_SOON;
      var clock = warning.querySelector('[data-timer="ends"]');
      if (clock && !warning.hidden) clock.textContent = fmt(left);
    });
  }
  setInterval(countDown, 1000);
  countDown();

  // A poll sent just before an action (or a move seen through another poll) can be
  // answered with the table as it was, and arrive after the newer answer: it must not
  // put the older table back on the screen.
  function versionOf(html) {
    var m = /data-version="(\d+)"/.exec(html || "");
    return m ? parseInt(m[1], 10) : null;
  }
  document.addEventListener("htmx:beforeSwap", function (e) {
    var s = section();
    var elt = e.detail.elt;
    if (!s || !elt || elt !== s || e.detail.xhr.status !== 200) return; // only the section's own poll
    var shown = parseInt(s.dataset.version, 10), answered = versionOf(e.detail.xhr.responseText);
    if (answered !== null && answered < shown) e.detail.shouldSwap = false;
  });

  // --- guests -------------------------------------------------------------------------------
  if (guest) {
    // the badge comes with every section drawn (in sync: the section just arrived); a poll
    // that fails or goes unanswered turns it, where the pinned bar keeps it in view
    var setSync = function (ok) {
      var sync = document.getElementById("sync-state");
      if (!sync) return;
      sync.dataset.state = ok ? "ok" : "lost";
      sync.textContent = ok ? sync.dataset.ok : sync.dataset.lost;
    };
    document.addEventListener("htmx:afterRequest", function (e) {
      var xhr = e.detail.xhr;
      setSync(xhr && xhr.status > 0 && xhr.status < 500);
    });
    document.addEventListener("htmx:sendError", function () { setSync(false); });
    document.addEventListener("htmx:timeout", function () { setSync(false); });
    // A guest reading further down, past the section's heading, stays where they read when
    // the table moves on: the poll asks for the section shown as the guest's own, and the
    // pinned bar offers the way back to the table. Not in the guided round: there the phone
    // is the player's tool, and goes along with the table.
    document.addEventListener("htmx:configRequest", function (e) {
      var s = section();
      if (!s || e.detail.elt !== s || s.hasAttribute("data-own-section") || s.hasAttribute("data-in-round")) return;
      var heading = s.querySelector("h1");
      if (heading && heading.getBoundingClientRect().bottom < 0) e.detail.parameters.at = s.dataset.index;
    });
    // A player's own cards: hidden with a tap (someone looks over their shoulder) they stay
    // hidden when the section is drawn again, and a card chosen but not yet placed stays
    // chosen when a poll redraws the section meanwhile.
    var HIDDEN = "captain-hand-hidden";
    var chosen = null;
    function remember(key, value) { try { sessionStorage.setItem(key, value); } catch (err) { /* private mode */ } }
    function recall(key) { try { return sessionStorage.getItem(key); } catch (err) { return null; } }
    function keepHand() {
      var hand = document.querySelector("details.my-hand");
      if (!hand) return;
      if (recall(HIDDEN) === "1") hand.open = false;
      if (chosen) {
        var radio = hand.querySelector('input[name="card"][value="' + chosen + '"]');
        if (radio) radio.checked = true;
      }
    }
    document.addEventListener("toggle", function (e) {
      if (e.target.matches && e.target.matches("details.my-hand")) remember(HIDDEN, e.target.open ? "0" : "1");
    }, true);
    document.addEventListener("change", function (e) {
      if (e.target.matches && e.target.matches('.my-hand input[name="card"]')) chosen = e.target.value;
    });
    document.addEventListener("htmx:beforeRequest", function (e) {
      // a card laid or taken back: the choice is used up
      if (e.detail.elt && e.detail.elt.closest && e.detail.elt.closest(".my-hand")) chosen = null;
    });
    keepHand();
    document.addEventListener("htmx:afterSettle", function (e) {
      if (e.target && e.target.id === "guest-section") { keepHand(); arrived(); }
    });
    guest.dispatchEvent(new CustomEvent("captain:ready", { bubbles: true }));
    return;
  }
  if (!presenter) return;

  // --- presenter: timers ----------------------------------------------------------------------
  // Both timers count from the server's clock marks, so a reload never restarts them; the
  // table starts them both at its first section (a row without marks shows 0:00).
  function mark(name) {
    var s = section();
    var value = (s && s.dataset[name]) || presenter.dataset[name];
    return value ? parseFloat(value) * 1000 : null;
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

  // --- presenter: the table's version ---------------------------------------------------------
  // Every move and board action says which version of the table it was made from (the
  // server refuses stale ones); a board action moves the version on and says so in its
  // answer, so the section's other boards act from the new version too (their forms'
  // addresses still carry the version the page was drawn at: without this file each
  // action reloads the page).
  function version() { return section() ? section().dataset.version : ""; }
  document.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail.elt;
    if (elt && elt.closest && elt.closest("#present-section")) {
      e.detail.parameters.v = version();
      // the poll also asks whether a seat changed (taken, freed, a card entered)
      if (elt.id === "present-section") e.detail.parameters.s = elt.dataset.seating || "";
    }
  });
  document.body.addEventListener("tableVersion", function (e) {
    var s = section();
    if (!s || !e.detail) return;
    s.dataset.version = String(e.detail.value);
    s.querySelectorAll("[data-version-input]").forEach(function (input) { input.value = s.dataset.version; });
  });

  // --- presenter: one action at a time ------------------------------------------------------
  // A move (Next, Back, a step) or a board action is made from the version on the screen;
  // while one is on its way, the next would be made from the version it moves on from and
  // be refused as stale. So: a key pressed meanwhile waits for it (quick presses are never
  // lost and never skip a section), and a tap or click meanwhile is dropped.
  var action = null; // the xhr of the action on its way
  var queue = [];
  // An answer swapped in is live only once it has settled: htmx wires its links and forms
  // then, and a press on one before would follow it as a plain link (a whole new page).
  // (a swap whose elements a later one removed never tells it settled: this runs out)
  var settleUntil = 0;
  function busy() { return action !== null || Date.now() < settleUntil; }
  document.addEventListener("htmx:afterSwap", function () { settleUntil = Date.now() + 300; });
  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail.elt;
    if (elt && elt.id === "present-section" && action) { e.preventDefault(); return; } // the poll waits
    if (!elt || !elt.closest || elt.id === "present-section" ||
        !elt.closest("#present-section, .present-nav")) return; // the poll, or not the table's
    if (action) { e.preventDefault(); return; }
    var xhr = action = e.detail.xhr;
    // the xhr's own end: htmx's afterRequest never reaches the document when a poll
    // replaced the section (and the form in it) while the action was on its way
    xhr.addEventListener("loadend", function () {
      if (action !== xhr) return;
      action = null;
      if (!(xhr.status >= 200 && xhr.status < 300) && xhr.status !== 409) queue = [];
    });
  });
  // Next and Back move through the steps of the table's own round first (or of the board
  // the focus is in; steps.js), then on to the next or previous section, as a clicker moves
  // through a slide's builds.
  function go(dir) {
    var section = document.getElementById("present-section");
    var active = document.activeElement;
    var surface = active && active.closest ? active.closest("#present-section [data-walk]") : null;
    surface = surface || (section && section.querySelector("[data-walk][data-walk-keys]"));
    var step = surface && window.captainSteps ? window.captainSteps.control(dir === "prev" ? "back" : "next", surface) : null;
    var button = step || document.querySelector('#present-section [data-nav="' + dir + '"]');
    if (step) showWhole(surface);
    if (button && !button.disabled) button.click();
  }
  // a board stepped by the keys comes to the top of the screen when part of it is hidden
  // below, so a clicker steps through what the room can see
  function showWhole(surface) {
    var nav = document.querySelector("#present-section .present-nav");
    var bottom = nav ? nav.getBoundingClientRect().top : window.innerHeight;
    var r = surface.getBoundingClientRect();
    if (r.top > 12 && r.bottom > bottom) window.scrollBy({ top: r.top - 12, behavior: "instant" });
  }
  // An open projector's screen (tutorials/teach/screen.py): when it changes, the part of
  // the section it shows comes into view here too, its first paragraph or its board (its
  // first screen is the section's top, where a new section starts anyway).
  var projected = null;
  function followProjector() {
    var state = document.querySelector("#present-section .projector-state");
    var key = state ? section().dataset.index + ":" + state.dataset.screen : null;
    if (!state || key === projected) { projected = key; return; }
    projected = key;
    if (state.dataset.screen === "1") return;
    var target = state.dataset.board ? document.getElementById("board-" + state.dataset.board) :
      section().querySelectorAll(".present-text .say, .present-text .round-lead")[parseInt(state.dataset.item, 10)];
    if (target) target.scrollIntoView({ block: "start" });
  }
  followProjector();
  document.addEventListener("htmx:afterSettle", function (e) {
    settleUntil = 0;
    if (e.target && e.target.id === "present-section") {
      arrived();
      followProjector();
      // a refused action answers with the table as it is and a note at the section's top,
      // far above the board that was tapped: the note comes into view
      var note = e.target.querySelector('.note[role="alert"]');
      if (note) note.scrollIntoView({ block: "nearest" });
    }
    if (!busy() && queue.length) go(queue.shift());
  });
  function belowScreen() {
    var s = section();
    return s && s.getBoundingClientRect().bottom > window.innerHeight + 4;
  }
  function aboveScreen() {
    var s = section();
    return s && s.getBoundingClientRect().top < -4;
  }
  // Page Down's scroll: the first part of the section that does not fit above the pinned
  // Next / Back bar comes to the top of the screen, whole where it fits, so no board is
  // ever cut in two between one screen and the next; a part taller than the screen
  // scrolls by a screen, less a line to keep the place.
  function scrollOn() {
    var s = section();
    var nav = s.querySelector(".present-nav");
    var bottom = Math.min(window.innerHeight, nav ? nav.getBoundingClientRect().top : window.innerHeight);
    var parts = s.querySelectorAll(":scope > :not(.present-nav):not(.script), :scope > .script > *");
    var margin = 12;
    for (var i = 0; i < parts.length; i++) {
      var r = parts[i].getBoundingClientRect();
      if (r.height === 0 || r.bottom <= bottom + 2) continue;
      var by = r.top > margin ? r.top - margin : bottom - 48;
      window.scrollBy({ top: Math.max(by, 48), behavior: "instant" });
      return;
    }
    window.scrollBy({ top: bottom - 48, behavior: "instant" });
  }
  // the table's round shown step by step takes Next and Back for its steps
  function walking() {
    var s = section();
    return !!(s && s.querySelector("[data-walk][data-walk-keys]"));
  }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    var el = document.activeElement;
    var tag = el ? el.tagName : "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || tag === "SUMMARY" ||
        (el && el.isContentEditable)) return; // a focused control keeps its keys
    var dir = { ArrowRight: "next", PageDown: "next", ArrowLeft: "prev", PageUp: "prev" }[e.key];
    if (e.key === " " || e.key === "ArrowDown") {
      if (e.key === " " && (tag === "BUTTON" || tag === "A")) return; // Space presses it
      if (belowScreen()) return; // the browser scrolls: the section goes on below
      dir = "next";
    }
    // A clicker's "next" and "back" are Page Down and Page Up: a long section scrolls to
    // its boards before the table moves on (and back up before it moves back)
    if (e.key === "PageDown" && !walking() && belowScreen()) { e.preventDefault(); scrollOn(); return; }
    if (e.key === "PageUp" && !walking() && aboveScreen()) return; // the browser scrolls up
    if (!dir) return;
    e.preventDefault();
    if (busy()) queue.push(dir); else go(dir);
  });
  // keys work from here on
  presenter.dispatchEvent(new CustomEvent("captain:ready", { bubbles: true }));
})();
