// The projector view: it follows the presenter by htmx's poll (every second, 204 while
// nothing changed). A poll answered with the table as it was can arrive after a newer
// answer: it must not put the older screen back.
(function () {
  "use strict";

  function shown() { return document.getElementById("projector-screen"); }
  function versionOf(html) {
    var m = /data-version="(\d+)"/.exec(html || "");
    return m ? parseInt(m[1], 10) : null;
  }
  document.addEventListener("htmx:beforeSwap", function (e) {
    var s = shown();
    if (!s || e.detail.elt !== s || e.detail.xhr.status !== 200) return;
    var answered = versionOf(e.detail.xhr.responseText);
    if (answered !== null && answered < parseInt(s.dataset.version, 10)) e.detail.shouldSwap = false;
  });
  // the window's title follows the section, so the presenter finds the projector's tab
  document.addEventListener("htmx:afterSettle", function () {
    var s = shown();
    if (s && s.dataset.title) document.title = s.dataset.title + " · " + document.title.split(" · ").pop();
  });
  var page = document.querySelector(".projector");
  if (page) page.dispatchEvent(new CustomEvent("captain:ready", { bubbles: true }));
})();
