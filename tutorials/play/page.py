"""What the game page shows: a practice game (:mod:`tutorials.practice.games`) as the
learner may see it, drawn like the analyzer.

:class:`GamePage` reads the engine's state and never shows hidden information: other
players' hands are counts, the captains' attack cards lie face down until Battle Time,
and the deck order and seed are never read. Battle and Treasure Time of the round just
played are the analyzer's walkthrough (:class:`~tutorials.walkthrough.Walkthrough`)
of the position as Setting Time left it, step by step, with the same wording and clause
links; that position also opens in the analyzer (its ``pos=`` notation).

Learner moves come from the page's forms (:class:`tutorials.play.forms.MoveForm`).
"""

from __future__ import annotations

from functools import cached_property
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from captain.rules import Colour, InvalidInput, Position
from captain.rules.captains.practice import take_back
from captain.rules.game import GameState, Phase
from captain.rules.model import AttackKind
from captain.rules.resolve.round_end import rank_players
from captain.rules.situation import Mode
from tutorials.drawing.cells import BoardAction, CellView, board_cells, pips
from tutorials.play.action import Live
from tutorials.play.guide import guide_of, pointer
from tutorials.play.rounds import MOVES, history, notes_once
from tutorials.practice import games
from tutorials.walkthrough import StepNav, Walkthrough
from tutorials.web.positions import position_arg
from tutorials.wording.events import Explanation, explain
from tutorials.wording.glossary import (
    CARD_EFFECTS,
    CARD_NAMES,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    PHASE_NAMES,
    card_label,
    position_label,
)

#: the captains' strengths as the start form names them
STRENGTH_LABELS = {
    "random": gettext_lazy("Beginner: picks any legal move"),
    "greedy": gettext_lazy("Fair: takes what looks best now"),
    "strong": gettext_lazy("Strong: looks a few moves ahead"),
}
def _die_faces(dice) -> list[dict]:
    return [{"face": d, "pips": pips(d)} for d in dice]


class GamePage:
    """The game page of ``game`` (a :class:`~tutorials.models.PracticeGame`) for its learner.

    ``step`` is the walkthrough step shown of the round just played; ``refusal`` a
    refused move (its sentence and clause), ``stale`` whether the move came from an old
    version of the page; ``hint_level`` (0-2) and ``hints`` the graded hints asked for
    (:mod:`tutorials.play.hints`).
    """

    def __init__(self, game, practice, *, step: int = 0, refusal: dict | None = None,
                 stale: bool = False, hint_level: int = 0, hints: list | None = None,
                 marked: Position | None = None) -> None:
        self.game, self.practice = game, practice
        #: the card a line of "this round so far" asked to see on the board
        self.marked = marked
        self.hint_level, self.hints = hint_level, hints or []
        self.state = practice.state
        self.learner: Colour = practice.learner
        self.version = game.version
        self.refusal, self.stale = refusal, stale
        self.actions = games.learner_actions(practice)
        self.rounds, self._current_events = history(practice)
        self.walk = Walkthrough(self.rounds[-1].situation) if self.showing_round else None
        self.step = self.walk.clamp(step) if self.walk else 0
        self.live = Live(self)  # action mode (real time)

    # --- where the game stands --------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.state.is_over

    @property
    def showing_round(self) -> bool:
        """Between rounds (and at the end): the round just played, step by step."""
        return bool(self.rounds) and (self.over or (self.practice.waiting_for_learner
                                                    and self.state.phase is Phase.AWAIT_START_BELL))

    @property
    def round_number(self) -> int:
        return self.rounds[-1].number if self.showing_round else self.state.round

    @property
    def phase_name(self) -> str:
        if self.over:
            return _("The game is over")
        if self.showing_round:
            return _("Battle Time and Treasure Time")
        phase = self.state.phase
        if phase is Phase.SETTING:
            return str(PHASE_NAMES["setting"])
        if phase is Phase.DICE:
            return str(PHASE_NAMES["dice"])
        return _("Before Dice Time")

    @property
    def my_turn(self) -> bool:
        return any(a["type"] != "continue" for a in self.actions)

    @property
    def guide_kind(self) -> str | None:
        """``strategy`` or ``action`` for a guided game (:mod:`tutorials.play.guide`)."""
        return guide_of(self.game)

    @cached_property
    def guide(self):
        """A guided game's pointer now (:func:`tutorials.play.guide.pointer`), else ``None``."""
        if guide_of(self.game) is None:
            return None
        return pointer(self, self.game.code)

    @cached_property
    def pointed_cells(self) -> tuple[Position, ...]:
        """The positions the hint shown, or the guide's words, point at, besides the card the
        guide points at itself."""
        cells = list(self.hints[-1].cells) if self.hints else []
        guide = self.guide
        if guide is not None and guide.hint is not None:
            cells += [p for p in guide.hint.cells if p not in cells]
        return tuple(p for p in cells if guide is None or p != guide.cell)

    @cached_property
    def can_take_back(self) -> bool:
        """Strategy mode, the learner's move of this round still undone by Battle Time:
        it may be taken back (:func:`~captain.rules.captains.practice.take_back`)."""
        if self.over or self.walk is not None or self.state.rules.mode is not Mode.STRATEGY:
            return False
        try:
            take_back(self.practice)
        except InvalidInput:
            return False
        return True

    @property
    def turn_text(self) -> str:
        state = self.state
        if self.over or self.showing_round or self.practice.waiting_for_learner:
            return ""  # (waiting for the learner: the button to go on says it all)
        mover = state.start_player if state.phase is Phase.AWAIT_START_BELL else state.turn
        if mover is None:
            return ""
        if mover is self.learner:
            return _("Your turn.")
        return capfirst(_("%(colour)s's turn.") % {"colour": COLOUR_NAMES[mover]})

    # --- the board -----------------------------------------------------------------------------
    def cells(self) -> list[list[CellView]]:
        if self.walk is not None:
            return self.walk.cells(self.step)
        claimable = {tuple(a["position"]) for a in self.actions if a["type"] == "claim"}
        fresh = {tuple(e.params["position"]) for e in self.captains_moves}
        pointed = set(self.pointed_cells)
        guide = self.guide
        grid = board_cells(self.state.board)
        for row in grid:
            for cell in row:
                cell.face_down = cell.card is not None and cell.card.colour is not self.learner
                if cell.pos in fresh:
                    cell.classes.append("last-move")
                    cell.notes.append(_("a captain's move since your last one"))
                if cell.pos == self.marked:
                    cell.classes.append("acting")
                    cell.notes.append(_("the move chosen in the list below"))
                if cell.pos in pointed:
                    cell.classes.append("pointed")
                    cell.notes.append(_("the hint points here"))
                if guide is not None and cell.pos == guide.cell and guide.target in ("cell", "place"):
                    cell.classes.append("guide-target")
                    cell.notes.append(_("the guide points at this card"))
                    cell.guide = guide.target == "cell"
                if cell.pos in claimable:
                    cell.href = BoardAction("claim", position_arg(cell.pos))
                    cell.classes.append("claimable")
                    cell.notes.append(_("your dice show this card: choose it to place a pair here"))
        return grid

    @cached_property
    def captains_moves(self) -> list:
        """The captains' claims (DICE-2) or placements (SET-1) of the phase being played
        since the learner's own last move, oldest first: the board marks them and the page
        announces them, so a learner sees what changed while they waited."""
        code = {Phase.DICE: "dice.claim", Phase.SETTING: "setting.place"}.get(self.state.phase)
        if self.walk is not None or code is None:
            return []
        events = self._current_events
        mine = [i for i, e in enumerate(events) if e.params.get("colour") == self.learner.value]
        return [e for e in events[mine[-1] + 1 if mine else 0:] if e.code == code]

    @property
    def captains_moves_told(self) -> list[Explanation]:
        return [explain(e, self.state.board) for e in self.captains_moves]

    @property
    def board_shape(self) -> tuple[int, int]:
        rows = self.state.board.rows if self.walk is None else self.walk.situation.board.rows
        return len(rows), max((len(r) for r in rows), default=0)

    @property
    def post_url(self) -> str:
        """Board positions post here; the version rides in the address (the grid's forms
        carry only ``do`` and ``at``)."""
        return f"{self.act_url}?{urlencode({'version': self.version})}"

    @property
    def act_url(self) -> str:
        return reverse("tutorials:play-act", args=[self.game.code])

    @property
    def page_url(self) -> str:
        return reverse("tutorials:play-game", args=[self.game.code])

    # --- the learner's things and moves ---------------------------------------------------------
    @property
    def me(self):
        return self.state.player(self.learner)

    @property
    def my_dice(self) -> list[dict]:
        """The learner's dice in hand, in Dice Time only: in Setting Time they are dice
        taken back, which nothing uses until the next roll."""
        if self.state.phase is not Phase.DICE:
            return []
        return [{"index": i, **d} for i, d in enumerate(_die_faces(self.me.dice))]

    @property
    def my_hand(self) -> list[dict]:
        return [{"value": int(k), "name": CARD_NAMES[k]} for k in self.me.hand]

    @property
    def my_discard(self) -> list[str]:
        return [card_label(k) for k in self.me.discard]

    def _of(self, kind: str) -> list[dict]:
        return [a for a in self.actions if a["type"] == kind]

    @property
    def can_begin(self) -> bool:
        return bool(self._of("begin-dice-time"))

    @property
    def can_continue(self) -> bool:
        return bool(self._of("continue")) and not self.can_begin

    @property
    def can_roll(self) -> bool:
        return bool(self._of("roll"))

    @property
    def can_pass(self) -> bool:
        return bool(self._of("pass"))

    @property
    def claims(self) -> list[dict]:
        board = self.state.board
        out = []
        for a in self._of("claim"):
            r, c = a["position"]
            treasure = board.at(Position(r, c)).treasure
            out.append({"at": position_arg((r, c)), "label": position_label((r, c)),
                        "low": treasure.low, "high": treasure.high})
        return out

    @property
    def placements(self) -> dict | None:
        """Setting Time: the cards holding the learner's dice and the cards in hand."""
        places = self._of("place")
        if not places:
            return None
        positions = list(dict.fromkeys(tuple(a["position"]) for a in places))
        values = sorted({a["value"] for a in places})
        board = self.state.board
        return {
            "positions": [{"at": position_arg((r, c)), "label": position_label((r, c)), "pos": Position(r, c),
                           "treasure": board.at(Position(r, c)).treasure} for r, c in positions],
            "cards": [{"value": v, "name": CARD_NAMES[AttackKind(v)], "effect": CARD_EFFECTS[AttackKind(v)]}
                      for v in values],
            "recycled": not self.me.hand,
        }

    # --- the table -------------------------------------------------------------------------------
    def seats(self) -> list[dict]:
        """The players clockwise. While the round just played is shown step by step, a
        player's treasure counts as before the round until the step that shows their
        collection (TRE-*): the list never tells the outcome ahead of the steps."""
        state = self.state
        won = {p.colour: p.won for p in state.players}
        if self.walk is not None:
            shown = {w["colour"] for w in self.walk.winnings(self.step) if w["done"]}
            before = self.walk.situation.won
            won = {c: cards if c in shown else tuple(before.get(c, ())) for c, cards in won.items()}
        standings, _winner = rank_players(state.seating, won)
        by_colour = {s.player: s for s in standings}
        mover = state.turn
        out = []
        for p in state.players:
            captain = self.practice.strengths.get(p.colour)
            out.append({"colour": p.colour, "name": COLOUR_NAMES[p.colour],
                        "you": p.colour is self.learner,
                        "captain": STRENGTH_LABELS.get(captain or "", ""),
                        "start": p.colour is state.start_player,
                        "on_turn": p.colour is mover and not self.over,
                        # dice left in hand matter only while they can still be placed
                        "dice": " ".join(str(d) for d in p.dice) if state.phase is Phase.DICE else "",
                        "hand": len(p.hand),
                        "won": by_colour[p.colour].cards, "doubles": by_colour[p.colour].doubles})
        return out

    @property
    def dice_time_ended(self) -> Explanation | None:
        """In Setting Time: why Dice Time ended and who is start player now (the bell, a full
        line or nobody able to act: DICE-4/5, STRAT-3, INT-6), said at the top of the moves
        so a learner whose screen just changed phase reads why."""
        if self.walk is not None or self.state.phase is not Phase.SETTING:
            return None
        ended = [e for e in self._current_events if e.code in ("dice.end", "dice.stuck")]
        return explain(ended[-1], self.state.board) if ended else None

    def round_so_far(self, latest: int = 6) -> dict[str, object]:
        """Dice and Setting Time of the current round, worded, oldest first: the ``latest``
        few, and the earlier ones (folded on the page); each as ``(explanation, repeated,
        mark)``, ``repeated`` when a line above in the same list already said its reading
        (INT-8 after every fruitless re-roll said it once: the later lines keep only its
        link), ``mark`` the link that marks the line's card on the board ("" for none)."""
        told: list[Explanation] = [explain(e, self.state.board) for e in self._current_events]
        # a claim or placement links to its card on the board (?mark=…, :attr:`marked`)
        marks = [self.mark_url(e.params["position"]) if e.code in MOVES else ""
                 for e in self._current_events]
        cut = max(0, len(told) - latest)

        def lines(part: slice) -> list:
            # each list says a reading once itself: the earlier one is folded on the page
            return [(ex, repeated, mark) for (ex, repeated), mark
                    in zip(notes_once(told[part]), marks[part], strict=True)]

        return {"earlier": lines(slice(0, cut)), "latest": lines(slice(cut, None)), "first_number": cut + 1}

    def mark_url(self, position) -> str:
        return f"{self.page_url}?{urlencode({'mark': position_arg(tuple(position))})}"

    # --- the round just played, step by step --------------------------------------------------------
    def step_url(self, k: int) -> str:
        return f"{self.page_url}?{urlencode({'step': k})}"

    @cached_property
    def nav(self) -> StepNav | None:
        """The round just played, step by step (between rounds and at the end)."""
        return StepNav(self.walk, self.step, self.step_url, anchor="play-steps") if self.walk else None

    @property
    def analyzer_url(self) -> str:
        return self.rounds[-1].analyzer_url if self.rounds else ""

    @property
    def result_shown(self) -> bool:
        """Whether the final standings show: once the game is over and its last round has
        been stepped through to its end (the result link jumps there), so the page never
        tells the outcome ahead of the steps and shows one set of totals."""
        return self.over and (self.walk is None or self.at_last_step)

    @property
    def at_last_step(self) -> bool:
        """At the last step of the round just played: the button to go on sits under that
        step (``play/_next_round.html``), and the moves panel does not repeat it."""
        return self.walk is not None and self.step >= len(self.walk.steps) - 1

    @property
    def result_url(self) -> str:
        """The last step of the last round, where the final standings show."""
        return self.step_url(len(self.walk.steps) - 1) if self.walk else self.page_url

    def standings(self) -> dict | None:
        """END-2, END-3: the final standings and the winner (see :attr:`result_shown`)."""
        return final_standings(self.state, self.learner) if self.result_shown else None

    @property
    def deck_left(self) -> int:
        """Treasure cards in the deck as the step shown has it: before the refill (TRE-5)
        until the round's end step, like the treasure totals of :meth:`seats`."""
        walk = self.walk
        if walk is not None and walk.steps and walk.situation.deck is not None \
                and walk.steps[self.step].kind != "end":
            return walk.situation.deck
        return len(self.state.deck)


def final_standings(state: GameState, learner: Colour) -> dict:
    """The standings of ``state`` for the page (END-2, END-3): a row per player (``you``:
    the learner), the winner, and whether the learner won or the top is tied."""
    standings, winner = state.standings()
    rows = [{"colour": s.player, "name": COLOUR_NAMES[s.player], "letter": COLOUR_LETTERS[s.player],
             "cards": s.cards, "doubles": s.doubles, "you": s.player is learner} for s in standings]
    return {"rows": rows, "winner": winner, "winner_name": COLOUR_NAMES[winner] if winner else "",
            "you_won": winner is learner, "tied": winner is None}
