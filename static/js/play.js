// The practice game and its replay on a phone: the board stays at the top of the screen
// (play.css). After a move the player made there, the page scrolls so the board sits at the
// top and the moves panel is right under it (a step of the round just played: steps.js).
// The game plays without this file too.
(function () {
  "use strict";

  function pinnedBoard() {
    var board = document.querySelector(".play-layout > .play-board");
    return board && getComputedStyle(board).position === "sticky" ? board : null;
  }

  // Setting Time: tapping a card that holds your dice chooses it in the form (the radio
  // buttons stay the way for keyboards and screen readers); the board marks the choice.
  function markPlace() {
    var chosen = document.querySelector('.place-form input[name="at"]:checked');
    document.querySelectorAll(".play-board .cell.place-chosen").forEach(function (c) {
      c.classList.remove("place-chosen");
    });
    var cell = chosen && document.querySelector('.play-board [data-pos="' + chosen.dataset.pos + '"]');
    if (cell) cell.classList.add("place-chosen");
    // the legend names the mark only while the board shows it (never without this file)
    document.querySelectorAll("[data-legend-chosen]").forEach(function (li) { li.hidden = !cell; });
  }
  document.addEventListener("click", function (e) {
    var cell = e.target.closest && e.target.closest(".play-board [data-pos]");
    if (!cell) return;
    var radio = document.querySelector('.place-form input[name="at"][data-pos="' + cell.dataset.pos + '"]');
    if (!radio) return;
    radio.checked = true;
    markPlace();
  });
  document.addEventListener("change", function (e) {
    if (e.target.matches && e.target.matches('.place-form input[name="at"]')) markPlace();
  });
  document.addEventListener("DOMContentLoaded", markPlace);
  document.addEventListener("htmx:afterSettle", markPlace);

  // A guided game's pointer, or a hint asked for, lies right under the pinned board once it
  // shows: after the player's own move the captains may play first (the page asks when they
  // are due), so the pointer may come with that answer a moment later.
  var alignSince = 0;
  function underBoard(el) {
    var board = pinnedBoard();
    if (!board || !el) return false;
    var gap = el.getBoundingClientRect().top - board.getBoundingClientRect().bottom - 8;
    if (Math.abs(gap) > 2) window.scrollBy({ top: gap, behavior: "instant" });
    return true;
  }

  document.addEventListener("htmx:afterSettle", function (e) {
    var area = e.detail.target;
    if (!area || (area.id !== "play-area" && area.id !== "replay-area")) return;
    var source = (e.detail.requestConfig && e.detail.requestConfig.elt) || e.detail.elt;
    var poll = source && source.id === "play-poll";
    var guide = document.querySelector(".play-side .guide-panel");
    if (!poll) alignSince = Date.now();
    if (alignSince && Date.now() - alignSince < 15000) {
      var asked = !poll && source && source.closest && source.closest("#play-hint") ? document.getElementById("play-hint") : null;
      if (underBoard(asked || guide)) {
        alignSince = 0;
        return;
      }
    }
    // never after the timed request (the captains moved): a player reading further down stays there
    if (poll) return;
    var board = pinnedBoard();
    var active = document.activeElement;
    // only after the player's own action in the part under the board, not when the focus
    // went to a new phase's title; a step of the round just played is steps.js's to show
    if (!board || !active || !active.closest(".play-side") || active.closest("[data-step-nav]")) return;
    var top = board.parentElement.getBoundingClientRect().top + window.scrollY;
    if (window.scrollY < top - 1) {
      window.scrollTo({ top: top, behavior: "instant" });
    }
    // a move in the moves panel: its top (your dice, the reason a phase ended) right under
    // the board, as long as the control used stays on the screen
    var moves = document.getElementById("play-moves");
    if (!moves || !moves.contains(active)) return;
    var shift = moves.getBoundingClientRect().top - board.getBoundingClientRect().bottom - 8;
    if (shift < 0 && active.getBoundingClientRect().bottom - shift <= window.innerHeight) {
      window.scrollBy({ top: shift, behavior: "instant" });
    }
  });
})();
