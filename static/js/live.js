// A table's live stream (tutorials/teach/live.py): the page hears of a move the moment it is
// made and asks for its section at once, as its poll would, naming the table's mark the
// stream announced (``m``: the site answers it from the section rendered for that mark).
// While the stream is open the page asks nothing more unless it says how often its poll
// keeps the table informed (data-live-poll milliseconds: who follows, whether a projector
// is open; a guest's stream tells the table itself); when the stream cannot be had (no
// EventSource, the bus down, a proxy that cuts it) the poll goes on as before and the page
// says so. Without JavaScript nothing changes: guests reload.
(function () {
  "use strict";

  var page = document.querySelector("[data-live-stream]");
  if (!page || !window.EventSource || !window.htmx) return;
  var url = page.dataset.liveStream;
  var keepPolling = parseInt(page.dataset.livePoll || "0", 10);
  // the stream's heartbeat (seconds): one that says nothing for two and a half is cut off
  // without knowing it (a phone's network gone), and is opened anew while the page polls
  var beatMs = parseInt(page.dataset.liveBeat || "0", 10) * 1000;
  var heard = 0;         // when the stream last said something
  function hear() { heard = Date.now(); }
  var status = document.querySelector("[data-live-state]");
  // a stream that could not be had is tried again this long after (milliseconds)
  var RETRY_MS = 5000;
  // the page says live updates are paused only when they stay so this long: a stream
  // reconnecting (it ends itself every few minutes) is back within a second or two
  var NOTE_AFTER_MS = 3000;
  var noteTimer = null;

  var source = null;
  var opened = false;    // the stream has been open once
  var live = false;
  var retry = null;
  var asked = 0;         // when the section's last request was sent
  var inFlight = false;  // the section's request on its way
  // an answer swapped in is not live until htmx has settled it (its settle is 20 ms; one
  // whose elements a later swap removed never tells it has settled, so this runs out)
  var settleUntil = 0;
  function settling() { return Date.now() < settleUntil; }
  var again = false;     // an event came meanwhile: ask once more when it is over
  var sends = 0;         // the section's requests sent so far
  var wanted = 0;        // the newest version the stream announced
  var mark = "";         // the newest mark it announced, as it wrote it
  var soon = null;

  function target() { return document.querySelector("[data-live-target]"); }
  // the version the page shows: that of the section around its poll
  function shown() {
    var t = target();
    var holder = t && t.closest("[data-version]");
    return holder ? parseInt(holder.dataset.version, 10) || 0 : 0;
  }
  // An answer may be lost on the way (a move's answer replaced the area it was meant
  // for) or never sent (another request held the area): the page asks again until it
  // shows what the stream announced, a little later each time rather than in a loop.
  function askSoon() { clearTimeout(soon); soon = setTimeout(ask, 150); }
  function behind() { return wanted > shown(); }
  function ownRequest(e) {
    var elt = (e.detail.requestConfig && e.detail.requestConfig.elt) || e.detail.elt;
    return !!(elt && elt.matches && elt.matches("[data-live-target]"));
  }
  function ask() {
    var t = target();
    if (!t) return;
    // (a request that never told its end, its element gone, holds nothing up for long)
    if (settling() || (inFlight && Date.now() - asked < 10000)) { again = true; askSoon(); return; }
    again = false;
    var before = sends;
    htmx.trigger(t, "live");
    if (sends === before) askSoon();
  }
  function setLive(on, quiet) {
    live = on;
    document.documentElement.dataset.live = on ? "on" : "off";
    clearTimeout(noteTimer);
    if (!status) return;
    if (on || quiet) status.hidden = true;
    else noteTimer = setTimeout(function () { if (!live) status.hidden = false; }, NOTE_AFTER_MS);
  }

  function open() {
    clearTimeout(retry);
    if (source) source.close();
    source = new EventSource(url);
    // reopened: ask once, for what a stream that was away may not tell (nothing moved
    // meanwhile, so no event comes). Not on the first open: the page was just drawn, and
    // its stream tells at once what is newer than the page (the mark it was drawn at,
    // ``since``) or, without one, where the table is.
    source.onopen = function () {
      var was = live, first = !opened;
      hear();
      opened = true;
      setLive(true);
      if (!was && !first) ask();
    };
    source.addEventListener("beat", hear);
    source.onmessage = function (e) {
      hear();
      var version = parseInt(String(e.data).split(".")[0], 10);
      if (version >= wanted) { wanted = version; mark = String(e.data); }
      ask();
    };
    // the bus behind the stream is down: poll, and try the stream again later
    source.addEventListener("down", fallBack);
    // the table has ended: its section's next poll says so
    source.addEventListener("gone", function () { source.close(); setLive(false, true); ask(); });
    source.onerror = function () {
      // EventSource reconnects by itself (sending the last event's id); meanwhile, and
      // when it has given up, the poll keeps the page up to date
      if (source.readyState === EventSource.CLOSED) fallBack();
      else setLive(false);
    };
  }
  function fallBack() {
    if (source) source.close();
    source = null;
    setLive(false);
    clearTimeout(retry);
    retry = setTimeout(open, RETRY_MS);
  }

  document.addEventListener("htmx:confirm", function (e) {
    if (!live || !ownRequest(e)) return;
    var why = e.detail.triggeringEvent;
    if (why && why.type === "live") return;
    // the poll's own timer: only now and then while the stream is open, if at all
    if (!keepPolling || Date.now() - asked < keepPolling) e.preventDefault();
  });
  // what the stream announced, with the request it made (not with the timer's polls while
  // the stream is away: those tell the table the page still follows it)
  document.addEventListener("htmx:configRequest", function (e) {
    if (live && mark && ownRequest(e)) e.detail.parameters.m = mark;
  });
  // sent, not merely asked for: a script may still cancel a request before it is sent
  document.addEventListener("htmx:beforeSend", function (e) {
    if (!ownRequest(e)) return;
    asked = Date.now();
    inFlight = true;
    sends += 1;
    // its end, from the request itself: htmx tells the end of a request whose element a
    // swap removed meanwhile (a move's answer replaced the area) to nobody on the page
    var xhr = e.detail.xhr;
    if (xhr) xhr.addEventListener("loadend", function () {
      // the network or the server failed this request: an open stream may be as cut off
      // without knowing it yet (a connection that went quiet), so it is opened anew
      if (live && (xhr.status === 0 || xhr.status >= 500)) { setLive(false); open(); }
      setTimeout(function () {  // after htmx's own handling of the answer (its swap)
        inFlight = false;
        if (!settling() && (again || behind())) ask(); // nothing swapped in (204): ask at once
      }, 0);
    });
  });
  // An answer whose section another answer replaced meanwhile (a tap's, say) is not swapped:
  // there is nowhere to put it, and htmx would take the seat part the page keeps
  // (hx-preserve) out of the page on the way. htmx tells it only to the section itself,
  // which is no longer in the page; the page asks again if it is still behind.
  function guard(section) {
    if (!section || section.liveGuard) return;
    section.liveGuard = true;
    section.addEventListener("htmx:beforeSwap", function (e) {
      if (!section.isConnected) e.detail.shouldSwap = false;
    });
  }
  document.addEventListener("htmx:load", function () { guard(target()); });
  // an element swapped in hears its triggers only once htmx has settled it
  document.addEventListener("htmx:afterSwap", function () { settleUntil = Date.now() + 300; });
  document.addEventListener("htmx:afterSettle", function () {
    settleUntil = 0;
    if (again) ask();
    else if (live && behind()) askSoon();
  });
  // a phone back from the background (or a tab shown again): the stream may have been
  // cut meanwhile; open it again and ask for the table at once
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") return;
    if (!source || source.readyState === EventSource.CLOSED) open();
    ask();
  });
  // kept whole by the browser on leaving (the back-forward cache): closed, then opened again
  window.addEventListener("pagehide", function () { if (source) source.close(); });
  window.addEventListener("pageshow", function (e) { if (e.persisted) { open(); ask(); } });

  guard(target());
  if (beatMs) setInterval(function () {
    if (live && Date.now() - heard > 2.5 * beatMs) { setLive(false); open(); }
  }, beatMs / 2);
  setLive(false);
  open();
})();
