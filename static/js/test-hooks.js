// Markers the browser tests wait on, loaded only when settings.TEST_HOOKS is on (never in
// production). It only listens: to htmx's events, and to the site's own "captain:" events
// (captain:ready when a page's keys work, captain:step-shown after a step is revealed).
(function () {
  "use strict";

  var html = document.documentElement;
  function bump(name) {
    html.dataset[name] = String(parseInt(html.dataset[name] || "0", 10) + 1);
  }

  // htmx requests on their way (beforeSend: a request a script cancelled is never sent, and
  // never ends): an xhr's loadend comes after a load, an error, an abort or
  // a timeout alike, and runs after htmx's own load handler has swapped the answer in
  var inFlight = 0;
  html.dataset.requests = "0";
  document.addEventListener("htmx:beforeSend", function (e) {
    var xhr = e.detail && e.detail.xhr;
    if (!xhr) return;
    inFlight += 1;
    html.dataset.requests = String(inFlight);
    xhr.addEventListener("loadend", function () {
      setTimeout(function () {
        inFlight = Math.max(0, inFlight - 1);
        html.dataset.requests = String(inFlight);
      }, 0);
    });
  });

  // busy from a request the reader made (not a data-background poll) until its answer has
  // settled, when the site's focus handling is done, or until it failed
  function background(e) {
    var d = e.detail || {};
    var elt = (d.requestConfig && d.requestConfig.elt) || d.elt;
    return !!(elt && elt.hasAttribute && elt.hasAttribute("data-background"));
  }
  function busy(on) {
    return function (e) { if (!background(e)) html.dataset.busy = on; };
  }
  document.addEventListener("htmx:beforeSend", busy("1"));
  ["htmx:afterSettle", "htmx:responseError", "htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, busy("0"));
  });

  document.addEventListener("htmx:afterSettle", function () { bump("settled"); });
  document.addEventListener("captain:step-shown", function () { bump("stepsShown"); });
  document.addEventListener("captain:ready", function (e) {
    if (e.target && e.target.dataset) e.target.dataset.ready = "1";
  });
})();
