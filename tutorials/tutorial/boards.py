"""Interactive example boards of the tutorial, driven by the rules engine.

A board's whole state fits in a short string kept in the page URL
(``?dice=4r_135566_01r_``), so every state can be linked, reloaded and reached
without JavaScript: each action is a plain link to
``/<lang>/tutorial/<lesson>/board/<id>/?state=…&do=…``, which htmx swaps in place.
A state string that cannot be read starts the board afresh with a note saying so.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from functools import cached_property
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from captain.rules import (
    Board,
    Colour,
    Dice,
    IllegalAction,
    InvalidInput,
    InvalidSituation,
    Position,
    RuleSet,
    Seating,
    Situation,
    SpeedOrder,
    bell_status,
)
from captain.rules.game import (
    Claim,
    GameState,
    Phase,
    RingBell,
    RingStartBell,
    Roll,
    apply,
    new_game,
    pair_left,
)
from captain.rules.resolve.battle import BattleResult
from tutorials.drawing.cells import BoardAction, CellView, board_cells, pips
from tutorials.http.links import analyzer_url
from tutorials.http.positions import position_arg, read_position
from tutorials.walkthrough import StepNav, Walkthrough
from tutorials.tutorial.examples import (
    DICE_BOARD_2,
    DICE_BOARD_4,
    EX_BATTLE,
    EX_BATTLE_2P,
    EX_BATTLE_2P_SEATS,
    EX_BATTLE_SEATS,
    TREASURE_EXAMPLES,
    TREASURE_SETS,
)
from tutorials.tutorial.quiz import for_examples
from tutorials.wording.events import Explanation, card_phrase, explain
from tutorials.wording.facts import facts
from tutorials.wording.glossary import COLOUR_LETTERS, COLOUR_NAMES, COLUMN_LETTERS, position_label

TITLES = {
    "dice": gettext_lazy("Try it: roll and claim"),
    "bell": gettext_lazy("Try it: may the bell ring?"),
    "battle": gettext_lazy("Worked example: a battle"),
    "sandwich": gettext_lazy("Worked example: a sandwich"),
    "block": gettext_lazy("Worked example: a blocked sandwich"),
    "priority": gettext_lazy("Worked example: two sandwiches claim one card"),
}


class ExampleBoard:
    """Base of the tutorial boards: state string, actions, URLs, cells."""

    board_id: str = ""
    template: str = ""

    def __init__(self, lesson: str) -> None:
        self.lesson = lesson
        self.note: str = ""
        #: guests of a teaching session see the board but cannot change it
        self.readonly = False
        #: a teaching table's boards keep the table's player count (no 2/4 switch)
        self.fixed_players = False
        #: presenter mode posts actions (``do``, ``at``) to its own endpoint, this URL
        self.post_url: str | None = None
        #: where the board lives when it is not a tutorial lesson (the teaching pages)
        self.page_base: str | None = None

    # to implement
    def state(self) -> str:
        raise NotImplementedError

    def apply(self, action: str, arg: str, rng: random.Random) -> ExampleBoard:
        raise NotImplementedError

    def rows(self) -> list[list[CellView]]:
        raise NotImplementedError

    # shared
    @property
    def title(self) -> str:
        return str(TITLES[self.board_id])

    @property
    def anchor(self) -> str:
        return f"board-{self.board_id}"

    def page_url(self) -> str:
        if self.page_base is not None:
            return f"{self.page_base}#{self.anchor}"
        url = reverse("tutorials:lesson", args=[self.lesson])
        query = {self.board_id: self.state()}
        if self.note:
            query[f"{self.board_id}-note"] = self.note
        return f"{url}?{urlencode(query)}#{self.anchor}"

    @property
    def posts(self) -> bool:
        """Whether actions are POSTed forms (presenter mode) rather than links."""
        return self.post_url is not None

    def action_url(self, action: str, arg: str = "") -> BoardAction:
        """What applies ``action`` (with ``arg``) to this state: a link, or in presenter
        mode the form posted to :attr:`post_url`."""
        if self.posts:
            return BoardAction(action, arg)
        query = {"state": self.state(), "do": action}
        if arg:
            query["at"] = arg
        url = reverse("tutorials:board", args=[self.lesson, self.board_id])
        return BoardAction(action, arg, f"{url}?{urlencode(query)}")

    #: (name, action, argument) of the links every state offers; see :attr:`links`.
    LINKS: tuple[tuple[str, str, str], ...] = ()

    @property
    def links(self) -> dict[str, BoardAction]:
        """Action URLs by name, for templates (``board.links.roll``)."""
        return {name: self.action_url(action, arg) for name, action, arg in self.LINKS}

    def message(self) -> str:
        """The translated note about the last action (or an unreadable state), if any."""
        return str(NOTES.get(self.note, "")) % facts()

    def columns(self) -> list[str]:
        width = max(len(r) for r in self.rows())
        return list(COLUMN_LETTERS[:width])

    def situation(self) -> Situation:
        """This board's position for the analyzer."""
        raise NotImplementedError

    @property
    def analyzer_url(self) -> str:
        """"Open in analyzer": the same position in the position editor."""
        return analyzer_url(self.situation())


# --- Dice Time ------------------------------------------------------------------------
NOTES = {
    "not-started": gettext_lazy("Dice Time has not begun yet: start it with “Roll all dice”. This bell "
                                "button ends Dice Time."),
    "started": gettext_lazy("Ding! The start player rang: Dice Time begins, and everyone rolls all "
                            "%(dice)s dice at once."),
    "refused": gettext_lazy("That is not allowed at this moment."),
    "occupied": gettext_lazy("That card already holds dice: it cannot be claimed again."),
    "no-pair": gettext_lazy("None of your dice in hand show this card's two faces. Re-roll all of them and "
                            "try again."),
    "claimed": gettext_lazy("Claimed: your two dice now sit on this card."),
    "all-placed": gettext_lazy("All your dice are on cards: nothing left to roll."),
    "no-dice-left": gettext_lazy("That colour has no dice left: %(dice)s dice cover %(dice_cards)s cards."),
    "false-bell": gettext_lazy("False bell! The condition did not hold, so you may not roll, place or ring "
                               "again this Dice Time."),
    "false-bell-blocked": gettext_lazy("You rang a false bell: you sit out the rest of this Dice Time. Start "
                                       "again to practise more."),
    "rang": gettext_lazy("Ding! Dice Time is over, and you are the start player until the next Dice Time "
                         "ends."),
    "ended": gettext_lazy("Dice Time is over. Start again to practise more."),
    "reset": gettext_lazy("The example position could not be read, so the board starts afresh."),
    "removed": gettext_lazy("Practice dice taken back."),
    "stale": gettext_lazy("The table changed at the same moment (another window?), so that was "
                          "not done. This is the table as it is now."),
}


class DiceBoard(ExampleBoard):
    """Dice Time practice, played on the rules engine: start Dice Time, roll, claim, ring.

    The state is a seed and the moves since the deal, ``<players><paint>_<seed>_<moves>``
    (e.g. ``4r_123_s.c01.r.x``), replayed through :func:`captain.rules.game.apply` on a
    game dealt on the tutorial's fixed grid: every roll, claim and bell is the engine's.
    Your moves are red's: ``s`` start Dice Time (the start bell; everyone rolls), ``r``
    re-roll, ``c<row><col>`` claim, ``x`` ring the bell. Practice dice of the other
    colours, ``b``/``g``/``w`` + ``<row><col>`` (placed, or taken back when already
    there), edit the board: the engine's bell function judges them like any dice.
    """

    template = "tutorials/boards/dice.html"
    you = Colour.RED
    LINKS = (("roll", "roll", ""), ("ring", "ring", ""), ("reset", "reset", ""),
             ("players2", "players", "2"), ("players4", "players", "4"))
    MAX_MOVES = 80
    #: the practice dice of the "bell" board: row 1 (A1, D1) and the diagonal D1-A4 (D1,
    #: B3) each need one more card for the bell
    BELL_PRESET = ("s", "b03", "g21", "w00")

    def __init__(self, lesson: str, board_id: str = "dice", players: int = 4,
                 paint: Colour = Colour.RED, seed: int = 1, moves: tuple[str, ...] = ()) -> None:
        super().__init__(lesson)
        self.board_id = board_id
        self.players = players
        self.paint = paint
        self.seed = seed
        self.moves = tuple(moves)
        self.game = self._replay()

    @classmethod
    def preset(cls, lesson: str, board_id: str) -> DiceBoard:
        if board_id == "bell":
            return cls(lesson, board_id, paint=Colour.BLUE, moves=cls.BELL_PRESET)
        return cls(lesson, board_id)

    # state ---------------------------------------------------------------
    def state(self) -> str:
        return f"{self.players}{self.paint.letter}_{self.seed}_{'.'.join(self.moves)}"

    @classmethod
    def from_state(cls, lesson: str, board_id: str, state: str) -> DiceBoard:
        if not state:
            return cls.preset(lesson, board_id)
        match = re.fullmatch(r"([24])([rbgw])_([0-9]{1,9})_((?:[srx]|[cbgw][0-5][0-5])"
                             r"(?:\.(?:[srx]|[cbgw][0-5][0-5]))*)?", state)
        board = None
        if match:
            moves = tuple(match[4].split(".")) if match[4] else ()
            if len(moves) <= cls.MAX_MOVES:
                try:
                    board = cls(lesson, board_id, int(match[1]), Colour.from_letter(match[2]),
                                int(match[3]), moves)
                except (IllegalAction, InvalidInput, InvalidSituation):
                    board = None
        if board is None or board.paint not in board.seating.players:
            board = cls.preset(lesson, board_id)
            board.note = "reset"
        return board

    # engine ----------------------------------------------------------------
    @property
    def seating(self) -> Seating:
        return self.game.seating

    def _deal(self) -> GameState:
        colours = tuple(Colour)[:2] if self.players == 2 else tuple(Colour)
        rows = DICE_BOARD_2 if self.players == 2 else DICE_BOARD_4
        return new_game(colours, seed=self.seed, start_player=self.you, layout=Board.parse(rows))

    def _replay(self) -> GameState:
        """The game after every move; raises the engine's error for a move it refuses."""
        game = self._deal()
        for move in self.moves:
            game = _move(game, move)
        return game

    def bell(self):
        return bell_status(self.game.board, self.game.seating, self.game.rules)

    def situation(self) -> Situation:
        return Situation(self.game.board, self.game.seating)

    @property
    def started(self) -> bool:
        return self.game.phase is not Phase.AWAIT_START_BELL

    @property
    def ended(self) -> bool:
        return self.game.phase not in (Phase.AWAIT_START_BELL, Phase.DICE)

    @property
    def false_bell(self) -> bool:
        return self.game.player(self.you).false_bell

    @property
    def placed(self) -> dict[Position, Colour]:
        """Whose dice lie where."""
        return {pos: dice.colour for pos, dice in self.game.board.dice().items()}

    @property
    def hand(self) -> tuple[int, ...] | None:
        """Your dice in hand (``None`` before Dice Time begins)."""
        me = self.game.player(self.you)
        return me.dice if me.rolled else None

    def dice_left(self) -> int:
        return self.game.dice_unplaced(self.you)

    # actions -------------------------------------------------------------
    def _with(self, *moves: str, **changes) -> DiceBoard:
        settings = {"players": self.players, "paint": self.paint, "seed": self.seed,
                    "moves": self.moves + moves} | changes
        return DiceBoard(self.lesson, self.board_id, **settings)

    def apply(self, action: str, arg: str, rng: random.Random) -> DiceBoard:
        if action == "reset" and self.players == 2:  # a two-player board starts again as one
            action, arg = "players", "2"
        if action == "reset":
            fresh = DiceBoard.preset(self.lesson, self.board_id)
            return fresh._with(seed=rng.randrange(10**9), moves=fresh.moves)
        if action == "players" and self.fixed_players:
            return self._with()
        if action == "players" and arg in ("2", "4"):
            # the bell exercise is about the bell condition: its Dice Time is under way
            moves = ("s",) if self.board_id == "bell" else ()
            return DiceBoard(self.lesson, self.board_id, players=int(arg), seed=rng.randrange(10**9),
                             moves=moves)
        if action == "paint":
            chosen = next((c for c in self.seating.players if c.letter == arg), None)
            return self._with(paint=chosen) if chosen else self._with()
        move = {"roll": "r", "ring": "x"}.get(action)
        if action == "roll" and not self.started:
            move = "s"  # the first roll is the start bell: everyone rolls (DICE-1)
        pos = read_position(arg) if action == "claim" else None
        if pos is not None and pos.row <= 5 and pos.col <= 5:
            move = ("c" if self.paint is self.you else self.paint.letter) + f"{pos.row}{pos.col}"
        if move is None:
            return self._with()
        try:
            new = self._with(move)
        except (IllegalAction, InvalidInput, InvalidSituation) as exc:
            refused = self._with()
            refused.note = _refusal_note(exc, self)
            return refused
        new.note = _move_note(move, self.game, new.game)
        return new

    # view ----------------------------------------------------------------
    def rows(self) -> list[list[CellView]]:
        status = self.bell()
        grid = board_cells(self.game.board)
        line = set(status.line or ()) if status.may_ring and not self.ended else set()
        hand = self.hand
        for row in grid:
            for cell in row:
                if cell.pos in line:
                    cell.classes.append("bell-line")
                    cell.notes.append(_("part of the line that lets the bell ring"))
                if (self.paint is self.you and hand and cell.dice is None and not self.false_bell
                        and not self.ended and not self.readonly
                        and pair_left(hand, cell.treasure.faces) is not None):
                    cell.classes.append("claimable")
                    cell.notes.append(_("your dice in hand can claim it"))
                if not self.ended and not self.readonly:
                    cell.href = self.action_url("claim", position_arg(cell.pos))
        return grid

    def hand_faces(self) -> list[list[tuple[int, int]]]:
        return [pips(d) for d in self.hand or ()]

    @property
    def sorted_hand(self) -> list[int]:
        """The dice in hand, smallest first (as drawn)."""
        return list(self.hand or ())

    def colours(self) -> list[dict]:
        return [{"colour": c, "name": COLOUR_NAMES[c], "letter": COLOUR_LETTERS[c],
                 "active": c is self.paint, "href": self.action_url("paint", c.letter),
                 "dice_left": self.game.dice_unplaced(c)}
                for c in self.seating.players]

    def bell_explanation(self) -> Explanation:
        return explain(self.bell().event)


def _move(game: GameState, move: str) -> GameState:
    """One move of a :class:`DiceBoard`: an engine action of red, or a practice edit."""
    you = DiceBoard.you
    if move == "s":
        return apply(game, RingStartBell(you))
    if move == "r":
        return apply(game, Roll(you))
    if move == "x":
        return apply(game, RingBell(you))
    pos = Position(int(move[1]), int(move[2]))
    if move[0] == "c":
        return apply(game, Claim(you, pos))
    return _practice(game, Colour.from_letter(move[0]), pos)


def _practice(game: GameState, colour: Colour, pos: Position) -> GameState:
    """Put ``colour``'s practice dice on ``pos`` (or take them back): an edit of the board,
    refused with the clause the engine would give a claim."""
    if game.phase not in (Phase.AWAIT_START_BELL, Phase.DICE):
        raise IllegalAction("Dice Time is over", clause="DICE-1", code="wrong-phase")
    if colour not in game.seating.players:
        raise IllegalAction(f"{colour.value} is not seated", clause="SETUP-1", code="not-seated")
    cell = game.board.at(pos)
    if cell.dice is not None and cell.dice.colour is colour:
        return replace(game, board=game.board.with_occupant(pos, None))
    if cell.occupant is not None:
        raise IllegalAction(f"the card at {pos} already holds dice", clause="DICE-2",
                            code="occupied", position=list(pos))
    if game.dice_unplaced(colour) < 2:
        raise IllegalAction("six dice cover three cards", clause="SETUP-1", code="no-dice-left")
    return replace(game, board=game.board.with_occupant(pos, Dice(colour)))


#: engine refusals → the board's notes
_REFUSALS = {"no-pair": "no-pair", "occupied": "occupied", "false-bell": "false-bell-blocked",
             "no-dice": "all-placed", "no-dice-left": "no-dice-left"}


def _refusal_note(exc: Exception, board: DiceBoard) -> str:
    code = getattr(exc, "code", "")
    if code == "wrong-phase":
        return "ended" if board.ended else "not-started"
    return _REFUSALS.get(code, "refused")


def _move_note(move: str, before: GameState, after: GameState) -> str:
    if move == "s":
        return "started"
    if move == "x":
        return "rang" if after.phase is not Phase.DICE else "false-bell"
    if move[0] == "c":
        return "claimed"
    if move[0] in "bgw":
        return "removed" if len(after.dice_cards(Colour.from_letter(move[0]))) < len(
            before.dice_cards(Colour.from_letter(move[0]))) else ""
    return ""


# --- Battle Time --------------------------------------------------------------------------
def _step_arg(arg: str, current: int) -> int:
    """A step number posted or linked by a board's moves; anything else stays put."""
    return int(arg) if re.fullmatch(r"[0-9]{1,2}", arg) else current


class BattleBoard(ExampleBoard):
    """EX-BATTLE step by step: the cards face down, then the walkthrough's steps from the
    reveal to the end of Battle Time. State: ``0`` face down, ``k`` the walkthrough's step
    ``k - 1``; an ``r`` in front when the table plays VAR-1 (reversed speed order), a ``t``
    when it has two players (the two-player example on the 3 × 3 grid, :data:`EX_BATTLE_2P`)."""

    board_id = "battle"
    template = "tutorials/boards/battle.html"
    LINKS = (("reveal", "step", "1"),)

    def __init__(self, lesson: str, k: int = 0, *, reversed_speed: bool = False,
                 two_players: bool = False) -> None:
        super().__init__(lesson)
        seats, rows = (EX_BATTLE_2P_SEATS, EX_BATTLE_2P) if two_players else (EX_BATTLE_SEATS, EX_BATTLE)
        self.seating = Seating(seats, seats[0])
        self.board = Board.parse(rows)
        self.reversed_speed = reversed_speed
        self.two_players = two_players
        self.rules = RuleSet(speed_order=SpeedOrder.REVERSED) if reversed_speed else RuleSet()
        self.walk = Walkthrough(self.situation())
        self.result: BattleResult = self.walk.solution.battle  # type: ignore[assignment]
        #: the last state: the walkthrough's "after Battle Time"
        self.last = self.walk.index("battle-done") + 1
        self.k = max(0, min(k, self.last))

    def situation(self) -> Situation:
        return Situation(self.board, self.seating, self.rules)

    def state(self) -> str:
        return f"{'r' if self.reversed_speed else ''}{'t' if self.two_players else ''}{self.k}"

    @classmethod
    def from_state(cls, lesson: str, state: str) -> BattleBoard:
        if not state:
            return cls(lesson)
        match = re.fullmatch(r"(r?)(t?)([0-9]{1,2})", state)
        if not match:
            board = cls(lesson)
            board.note = "reset"
            return board
        return cls(lesson, int(match[3]), reversed_speed=bool(match[1]), two_players=bool(match[2]))

    def apply(self, action: str, arg: str, rng: random.Random) -> BattleBoard:
        k = _step_arg(arg, self.k) if action == "step" else self.k
        return BattleBoard(self.lesson, k, reversed_speed=self.reversed_speed, two_players=self.two_players)

    @property
    def revealed(self) -> bool:
        return self.k >= 1

    @property
    def finished(self) -> bool:
        return self.k == self.last

    @cached_property
    def nav(self) -> StepNav | None:
        """Once the cards are revealed: the steps from the reveal to the end of Battle Time."""
        if not self.revealed:
            return None
        return StepNav(self.walk, self.k - 1, lambda j: self.action_url("step", str(j + 1)),
                       anchor=self.anchor, last=self.last - 1, post_url=self.post_url,
                       readonly=self.readonly, push=False)

    def rows(self) -> list[list[CellView]]:
        """The board at this step, drawn by the walkthrough; face down before the reveal."""
        grid = self.walk.cells(max(0, self.k - 1))
        if not self.revealed:
            for row in grid:
                for cell in row:
                    cell.face_down = cell.card is not None
        return grid

    def turns(self) -> list[Explanation]:
        """What each card's turn does, in order (the teaching script tells them)."""
        return self.walk.explanations(self.last - 2, first=1)


# --- Treasure Time ------------------------------------------------------------------------
class TreasureBoard(ExampleBoard):
    """EX-SANDWICH / EX-BLOCK / EX-PRIORITY: collect player by player (INT-1), the
    walkthrough's steps from the end of Battle Time to the end of the round.

    State: ``[set]<k><start letter>``: the example set (none: the official examples; ``n``
    without [5] cards for VAR-2 tables; ``t`` two players on the 3 × 3 grid, see
    :data:`TREASURE_SETS`), ``k`` steps shown after Battle Time (``k`` players have
    collected; one more is the end of the round), the start player (EX-BLOCK lets the
    visitor switch it to see INT-1 at work).
    """

    template = "tutorials/boards/treasure.html"

    def __init__(self, lesson: str, board_id: str, k: int = 0, start: Colour | None = None,
                 example_set: str = "") -> None:
        super().__init__(lesson)
        self.board_id = board_id
        self.example_set = example_set if example_set in TREASURE_SETS else ""
        rows, players, default_start = TREASURE_SETS[self.example_set][board_id]
        self.start = start if start in players else default_start
        self.seating = Seating(players, self.start)
        self.board = Board.parse(rows)
        self.walk = Walkthrough(self.situation())
        self.first = self.walk.index("battle-done")
        self.k = max(0, min(k, len(self.walk.steps) - 1 - self.first))

    def state(self) -> str:
        return f"{self.example_set}{self.k}{self.start.letter}"

    def situation(self) -> Situation:
        return Situation(self.board, self.seating)

    @classmethod
    def from_state(cls, lesson: str, board_id: str, state: str) -> TreasureBoard:
        if not state:
            return cls(lesson, board_id)
        match = re.fullmatch(r"([nt]?)([0-5])([rbgw])", state)
        if not match:
            board = cls(lesson, board_id)
            board.note = "reset"
            return board
        return cls(lesson, board_id, int(match[2]), Colour.from_letter(match[3]), match[1])

    def apply(self, action: str, arg: str, rng: random.Random) -> TreasureBoard:
        if action == "start":
            chosen = next((c for c in self.seating.players if c.letter == arg), None)
            return TreasureBoard(self.lesson, self.board_id, 0, chosen or self.start, self.example_set)
        k = _step_arg(arg, self.first + self.k) - self.first if action == "step" else self.k
        return TreasureBoard(self.lesson, self.board_id, k, self.start, self.example_set)

    @property
    def finished(self) -> bool:
        return self.nav.at_end

    @cached_property
    def nav(self) -> StepNav:
        return StepNav(self.walk, self.first + self.k, lambda j: self.action_url("step", str(j)),
                       anchor=self.anchor, first=self.first, post_url=self.post_url,
                       readonly=self.readonly, push=False)

    def rows(self) -> list[list[CellView]]:
        """The board at this step, drawn by the walkthrough."""
        return self.walk.cells(self.nav.k)

    def start_choices(self) -> list[dict]:
        if self.board_id != "block":
            return []
        return [{"colour": c, "name": COLOUR_NAMES[c], "active": c == self.start,
                 "href": self.action_url("start", c.letter)} for c in self.seating.players]


def load(board_id: str, state: str, *, lesson: str) -> ExampleBoard:
    """The board ``board_id`` of tutorial lesson ``lesson`` in ``state`` ("" = initial).

    Raises ``KeyError`` for an unknown board id. Unreadable states restart the board.
    """
    if board_id in ("dice", "bell"):
        return DiceBoard.from_state(lesson, board_id, state)
    if board_id == "battle":
        return BattleBoard.from_state(lesson, state)
    if board_id in TREASURE_EXAMPLES:
        return TreasureBoard.from_state(lesson, board_id, state)
    if board_id in QUIZ_EXAMPLES:
        return QuizBoard.from_state(lesson, board_id, state)
    raise KeyError(board_id)


# --- predict the outcome ------------------------------------------------------------------
QUIZ_EXAMPLES = {"quiz-battle": ("battle",), "quiz-treasure": ("sandwich", "block", "priority")}
TITLES.update({
    "quiz-battle": gettext_lazy("Check yourself: one card changed"),
    "quiz-treasure": gettext_lazy("Check yourself: one card changed"),
})


class QuizBoard(ExampleBoard):
    """A predict-the-outcome check: tap the positions you expect, then check.

    State: ``<question>_<selected positions as row+col digits>_<c if checked>``.
    """

    template = "tutorials/boards/quiz.html"
    LINKS = (("check", "check", ""), ("another", "another", ""), ("clear", "clear", ""))

    def __init__(self, lesson: str, board_id: str, index: int = 0,
                 selected: frozenset[Position] = frozenset(), checked: bool = False) -> None:
        super().__init__(lesson)

        self.board_id = board_id
        self.pool = for_examples(QUIZ_EXAMPLES[board_id])
        self.index = index % len(self.pool)
        self.question = self.pool[self.index]
        self.selected = frozenset(p for p in selected if p in self.question.situation.board)
        self.checked = checked

    def state(self) -> str:
        sel = "".join(f"{p.row}{p.col}" for p in sorted(self.selected))
        return f"{self.index}_{sel}_{'c' if self.checked else ''}"

    @classmethod
    def from_state(cls, lesson: str, board_id: str, state: str) -> QuizBoard:
        if not state:
            return cls(lesson, board_id)
        try:
            if not re.fullmatch(r"[0-9]{1,3}_([0-9][0-9]){0,20}_c?", state):
                raise ValueError(state)
            index_s, sel_s, flag = state.split("_")
            selected = frozenset(Position(int(sel_s[i]), int(sel_s[i + 1])) for i in range(0, len(sel_s), 2))
            return cls(lesson, board_id, int(index_s), selected, flag == "c")
        except (ValueError, IndexError):
            board = cls(lesson, board_id)
            board.note = "reset"
            return board

    def situation(self) -> Situation:
        return self.question.situation

    def apply(self, action: str, arg: str, rng: random.Random) -> QuizBoard:
        if action == "toggle" and not self.checked:
            pos = read_position(arg)
            if pos is None:
                return self
            return QuizBoard(self.lesson, self.board_id, self.index, self.selected ^ {pos})
        if action == "check":
            return QuizBoard(self.lesson, self.board_id, self.index, self.selected, True)
        if action == "clear":
            return QuizBoard(self.lesson, self.board_id, self.index)
        if action == "another":
            return QuizBoard(self.lesson, self.board_id, self.index + 1 + rng.randrange(len(self.pool) - 1))
        return self

    # view -------------------------------------------------------------------------------
    @property
    def correct(self) -> bool:
        return self.selected == self.question.answer

    def prompt(self) -> str:
        q = self.question
        if q.kind == "survivors":
            return _("Which cards survive Battle Time now? Tap them, then check.")
        # the board shows the cards as placed: the changed card may change the battle too
        return _("These are the cards as placed, before Battle Time. Play Battle Time first, then "
                 "Treasure Time: which treasure cards does %(colour)s win now? Tap them, then "
                 "check.") % {"colour": COLOUR_NAMES[q.colour]}

    def change_text(self) -> str:
        c = self.question.change
        if c.start_player is not None:
            return _("The change: %(colour)s is the start player now.") % {
                "colour": COLOUR_NAMES[c.start_player]}
        return _("The change: at %(pos)s, %(old)s became %(new)s.") % {
            "pos": position_label(c.position), "old": card_phrase(c.old.token),
            "new": card_phrase(c.new.token)}

    def rows(self) -> list[list[CellView]]:
        if self.checked:
            walk = Walkthrough(self.question.situation)
            kind = "battle-done" if self.question.kind == "survivors" else "end"
            index = max(i for i, s in enumerate(walk.steps) if s.kind == kind)
            grid = walk.cells(index, ghost_collected=False)
        else:
            grid = board_cells(self.question.situation.board)
        for row in grid:
            for cell in row:
                if cell.pos == self.question.change.position:
                    cell.classes.append("acting")
                    cell.notes.append(_("this card was changed"))
                if self.checked:
                    right = cell.pos in self.question.answer
                    picked = cell.pos in self.selected
                    if right and picked:
                        cell.classes.append("right")
                        cell.notes.append(_("your pick, and right"))
                    elif right:
                        cell.classes.append("missed")
                        cell.notes.append(_("you missed this one"))
                    elif picked:
                        cell.classes.append("wrong")
                        cell.notes.append(_("not part of the answer"))
                else:  # a picked card is taken back the same way it was picked
                    if cell.pos in self.selected:
                        cell.classes.append("picked")
                        cell.notes.append(_("your pick"))
                    cell.href = self.action_url("toggle", position_arg(cell.pos))
        return grid

    def explanations(self) -> list[Explanation]:
        if not self.checked:
            return []
        walk = Walkthrough(self.question.situation)
        items = walk.explanations(len(walk.steps) - 1)
        if self.question.kind == "survivors":
            return [e for e in items if e.code.startswith("battle.") and e.code != "battle.reveal"]
        # the battle steps that removed something explain why a treasure card was lost
        acted = [walk.solution.battle.turns[i].event for i in range(len(walk.solution.battle.turns))
                 if walk.solution.battle.turns[i].removed] if walk.solution.battle else []

        return [explain(e) for e in acted] + [
            e for e in items if e.code.startswith("treasure.") and e.code != "treasure.discard"]

    def answer_labels(self) -> list[str]:
        return [position_label(p) for p in sorted(self.question.answer)]
