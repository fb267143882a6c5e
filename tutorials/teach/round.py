""""Resolve our table": the first round of a real table, entered by the presenter after
Setting Time and resolved step by step by the engine, on every guest's phone in the
guest's language.

The presenter enters which attack card lies where (a brush of colour and value, then a tap
on each position), and who rang the bell: that player is the start player for Battle Time
(DICE-4, BAT-2). The treasure cards' faces do not change who wins what in one round, so
they are not asked for: the board uses a fixed, legal layout and never draws its faces.

:class:`RoundBoard` follows the tutorial boards' protocol (state string, ``apply``,
``rows``) so that the presenter's board endpoint, the guests' polling and the board
templates treat it like any other example board.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from functools import cached_property

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from captain.rules import (
    COLOURS,
    AttackCard,
    AttackKind,
    Board,
    Colour,
    Position,
    RuleSet,
    Seating,
    Situation,
)
from captain.rules.situation import SpeedOrder
from tutorials.drawing.cells import CellView, board_cells
from tutorials.tutorial.boards import ExampleBoard
from tutorials.tutorial.examples import DICE_BOARD_2, DICE_BOARD_4
from tutorials.walkthrough import StepNav, Walkthrough
from tutorials.web.positions import READ_PATTERN, position_arg, read_position
from tutorials.wording.facts import table_facts
from tutorials.wording.glossary import COLOUR_NAMES, position_label
from tutorials.wording.phrases import card_phrase

#: The two uses of the board: entering the table's cards, stepping through the answer.
ENTER, RESOLVE = "round-table", "round-resolve"

ROUND_NOTES = {
    "reset": gettext_lazy("The board could not be read and starts empty."),
    "no-brush": gettext_lazy("First choose a colour and a card below the board, then tap a position."),
    "too-many": gettext_lazy("%(colour)s has no more %(card)s cards: each colour has %(n)s of them "
                             "(SETUP-1)."),
    "not-seated": gettext_lazy("Only the colours at this table can be chosen."),
    "occupied": gettext_lazy("%(card)s already lies at %(position)s. To take it off, choose that card and "
                             "tap the position."),
}

_STATE = re.compile(r"(?P<start>[rbgw])(?P<brush>[rbgw][0-5]|-)(?P<k>[0-9]{1,3})"
                    rf"\|(?P<cards>(?:{READ_PATTERN}[rbgw][0-5]\.?)*)")
_CARD = re.compile(rf"({READ_PATTERN})([rbgw])([0-5])")


class RoundBoard(ExampleBoard):
    """The table's own board.

    ``lesson`` is the section (:data:`ENTER` or :data:`RESOLVE`); ``options`` the table's
    (its ``players``, ``seats`` clockwise, ``variants``). State:
    ``<start><brush><k>|<cards>`` — the start player's letter, the brush (``r3`` or ``-``),
    the resolve step, and the cards as ``<position><colour><value>`` joined by dots
    (``0-1r3.1-2b1``: red [3] at B1, blue [1] at C2; tables stored before wrote a position
    as two digits, ``01r3.12b1``, and are read too).
    """

    board_id = "round"
    template = "teach/_round_board.html"
    LINKS = (("clear", "clear", ""),)

    def __init__(self, lesson: str, options: Mapping[str, object], *, start: Colour | None = None,
                 brush: AttackCard | None = None, cards: Mapping[Position, AttackCard] | None = None,
                 k: int = 0) -> None:
        super().__init__(lesson)
        self.options = options
        self.players = int(options.get("players", 4))  # type: ignore[call-overload]
        seats = options.get("seats")
        self.seats: tuple[Colour, ...] = (tuple(Colour(c) for c in seats) if seats
                                          else COLOURS)[: self.players]
        self.start = start if start in self.seats else self.seats[0]
        self.brush = brush if brush is not None and brush.colour in self.seats else None
        self.side = table_facts(self.players)["side"]
        self.cards = {p: c for p, c in (cards or {}).items()
                      if p.row < self.side and p.col < self.side and c.colour in self.seats}
        variants = options.get("variants", ())
        order = SpeedOrder.REVERSED if "v1" in variants else SpeedOrder.ASCENDING  # type: ignore[operator]
        self.rules = RuleSet(speed_order=order, no_scouts="v2" in variants)  # type: ignore[operator]
        self.scouts = table_facts(self.players, "v2" in variants)["scouts"]  # type: ignore[operator]
        self.walk = Walkthrough(self.situation()) if self.resolving else None
        self.k = self.walk.clamp(k) if self.walk else 0
        self.fixed_players = True
        #: on a guest's phone (:meth:`follow`): whether it is, the address of each step there
        #: (a function, which templates would call: only :attr:`nav` uses it), the address
        #: that follows the table again, the table's own step, and whether the phone shows
        #: a step of its own
        self.guest_view = False
        self._step_url: Callable[[int], str] | None = None
        self.live_url = ""
        self.live_k = self.k
        self.own_pace = False

    # --- the protocol of example boards -------------------------------------------------------
    @property
    def title(self) -> str:
        return _("Our table") if not self.resolving else _("Our table, step by step")

    @property
    def strategy(self) -> bool:
        """Strategy mode: no bell; whoever placed the last pair is start player (STRAT-3)."""
        return self.options.get("mode") == "strategy"

    @property
    def resolving(self) -> bool:
        return self.lesson == RESOLVE

    def state(self) -> str:
        brush = f"{self.brush.colour.letter}{self.brush.speed}" if self.brush else "-"
        cards = ".".join(f"{position_arg(p)}{c.token}" for p, c in sorted(self.cards.items()))
        return f"{self.start.letter}{brush}{self.k}|{cards}"

    @classmethod
    def from_state(cls, lesson: str, options: Mapping[str, object], state: str) -> RoundBoard:
        """The board in ``state`` ("" = empty); an unreadable state starts empty, noted."""
        match = _STATE.fullmatch(state or "")
        if not match:
            board = cls(lesson, options)
            board.note = "reset" if state else ""
            return board
        cards = {read_position(at): AttackCard(Colour.from_letter(colour), AttackKind(int(v)))
                 for at, colour, v in _CARD.findall(match["cards"])}
        brush = match["brush"]
        chosen = None if brush == "-" else AttackCard.parse(brush)
        return cls(lesson, options, start=Colour.from_letter(match["start"]), brush=chosen, cards=cards,
                   k=int(match["k"]))

    def _with(self, **changes) -> RoundBoard:
        settings = {"start": self.start, "brush": self.brush, "cards": self.cards, "k": self.k} | changes
        board = RoundBoard(self.lesson, self.options, **settings)
        return board

    def apply(self, action: str, arg: str, rng: random.Random) -> RoundBoard:
        """``start`` (a seat's letter: who rang the bell), ``brush`` (``r3``), ``put`` (a
        position, :func:`~tutorials.web.positions.read_position`: the brush's card there,
        or off again), ``clear``, and ``step`` (``next``, ``back``, ``reset``, ``end``)
        while resolving."""
        if action == "start":
            chosen = next((c for c in self.seats if c.letter == arg), None)
            return self._with(start=chosen) if chosen else self._noted("not-seated")
        if action == "brush" and re.fullmatch(r"[rbgw][0-5]", arg):
            colour = Colour.from_letter(arg[0])
            if colour not in self.seats or (arg[1] == "5" and not self.scouts):
                return self._noted("not-seated")
            return self._with(brush=AttackCard(colour, AttackKind(int(arg[1]))))
        pos = read_position(arg) if action == "put" else None
        if pos is not None:
            return self._put(pos)
        if action == "clear":
            return self._with(cards={}, k=0)
        if action == "step" and self.walk is not None and re.fullmatch(r"[0-9]{1,3}", arg):
            return self._with(k=int(arg))
        return self._with()

    def _noted(self, note: str, **args) -> RoundBoard:
        board = self._with()
        board.note = note
        board.note_args = args
        return board

    def _put(self, pos: Position) -> RoundBoard:
        if pos.row >= self.side or pos.col >= self.side:
            return self._with()
        if self.brush is None:
            return self._noted("no-brush")
        cards = dict(self.cards)
        if cards.get(pos) == self.brush:  # the same card again: take it off
            del cards[pos]
            return self._with(cards=cards)
        there = cards.get(pos)
        if there is not None and there.colour != self.brush.colour:  # one card per position
            return self._noted("occupied", position=position_label(pos),
                               card=capfirst(card_phrase(there.token, "subject")))
        allowed = self.allowed(self.brush)
        held = sum(1 for p, c in cards.items() if c == self.brush and p != pos)
        if held >= allowed:
            return self._noted("too-many", colour=capfirst(COLOUR_NAMES[self.brush.colour]),
                               card=f"[{self.brush.speed}]", n=allowed)
        cards[pos] = self.brush
        return self._with(cards=cards)

    def allowed(self, card: AttackCard) -> int:
        """How many copies of ``card`` a player holds at this table (SETUP-1, SETUP-4, VAR-2)."""
        return self.scouts if card.speed == int(AttackKind.SCOUT_SHIP) else 1

    # --- what the templates show --------------------------------------------------------------
    def situation(self) -> Situation:
        """The table after Setting Time: the cards entered, on a fixed legal layout of
        treasure cards (their faces are not drawn), the seats and the start player."""
        layout = DICE_BOARD_2 if self.side == 3 else DICE_BOARD_4
        rows = []
        for r, row in enumerate(layout):
            tokens = []
            for c, faces in enumerate(row.split()):
                card = self.cards.get(Position(r, c))
                tokens.append(f"{faces}:{card.token}" if card else faces)
            rows.append(" ".join(tokens))
        return Situation(Board.parse(tuple(rows)), Seating(self.seats, self.start), self.rules)

    def rows(self) -> list[list[CellView]]:
        """The grid: the cards entered (entering) or the board at the current step."""
        grid = self.walk.cells(self.k) if self.walk is not None else board_cells(self.situation().board)
        for row in grid:
            for cell in row:
                cell.classes.append("faces-hidden")
                if not self.resolving and not self.readonly:
                    cell.href = self.action_url("put", position_arg(cell.pos))
        return grid

    def follow(self, step_url: Callable[[int], str], live_url: str, own: int | None) -> None:
        """Show the board on a guest's phone, which steps at its own pace: ``step_url(j)``
        shows step ``j`` there (a plain GET: the table and the other phones stay as they
        are), ``live_url`` follows the table's step again; ``own`` is the phone's own step
        (clamped to the steps), ``None`` while it follows the table. Only the steps of
        Battle Time and Treasure Time are the guest's to move: entering the cards stays
        the presenter's."""
        if self.walk is None or not self.walk.steps:
            return
        self.guest_view, self._step_url, self.live_url = True, step_url, live_url
        if own is not None:
            self.k, self.own_pace = self.walk.clamp(own), True

    @property
    def live_number(self) -> int:
        """The table's own step, counted from 1 as the steps are shown."""
        return self.live_k + 1

    @cached_property
    def nav(self) -> StepNav | None:
        """The table's round step by step: moved by the presenter for everyone, or on a
        guest's phone (:meth:`follow`) by the guest for that phone alone."""
        if self.walk is None or not self.walk.steps:
            return None
        if self._step_url is not None:
            return StepNav(self.walk, self.k, self._step_url, anchor=self.anchor, push=False)
        return StepNav(self.walk, self.k, lambda j: self.action_url("step", str(j)), anchor=self.anchor,
                       post_url=self.post_url, readonly=self.readonly, push=False)

    def palette(self) -> list[dict]:
        """The brush chips: for each seat, the card values that colour holds."""
        values = [v for v in range(6) if v != int(AttackKind.SCOUT_SHIP) or self.scouts]
        return [{"colour": colour, "name": COLOUR_NAMES[colour],
                 "chips": [{"card": AttackCard(colour, AttackKind(v)),
                            "href": self.action_url("brush", f"{colour.letter}{v}"),
                            "active": self.brush == AttackCard(colour, AttackKind(v))} for v in values]}
                for colour in self.seats]

    def start_choices(self) -> list[dict]:
        return [{"colour": c, "name": COLOUR_NAMES[c], "href": self.action_url("start", c.letter),
                 "active": c == self.start} for c in self.seats]

    def entered(self) -> list[dict]:
        """The cards entered, seat by seat (for guests and screen readers)."""
        by_colour: dict[Colour, list[str]] = {c: [] for c in self.seats}
        for pos, card in sorted(self.cards.items()):
            by_colour[card.colour].append(f"{card_phrase(card.token)} ({position_label(pos)})")
        return [{"colour": c, "name": COLOUR_NAMES[c], "cards": cards} for c, cards in by_colour.items()]

    def message(self) -> str:
        text = ROUND_NOTES.get(self.note)
        return str(text) % getattr(self, "note_args", {}) if text else ""
