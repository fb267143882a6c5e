"""The Dice Time board: roll, claim and ring on the rules engine, with practice dice of
the other colours."""

from __future__ import annotations

import random
import re
from dataclasses import replace

from django.utils.translation import gettext as _

from captain.rules import (
    Board,
    Colour,
    Dice,
    IllegalAction,
    InvalidInput,
    InvalidSituation,
    Position,
    Seating,
    Situation,
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
from tutorials.drawing.cells import CellView, board_cells, pips
from tutorials.tutorial.boards.example import ExampleBoard
from tutorials.tutorial.examples import DICE_BOARD_2, DICE_BOARD_4
from tutorials.web.positions import position_arg, read_position
from tutorials.wording.events import Explanation, explain
from tutorials.wording.glossary import COLOUR_LETTERS, COLOUR_NAMES

#: a move of the state: start, re-roll, ring, or a claim or practice dice at a position of
#: the 4 × 4 grid (either way positions were written)
_MOVE = r"(?:[srx]|[cbgw](?:[0-5]-[0-5]|[0-5][0-5]))"
_STATE = re.compile(rf"([24])([rbgw])_([0-9]{{1,9}})_({_MOVE}(?:\.{_MOVE})*)?")


class DiceBoard(ExampleBoard):
    """Dice Time practice, played on the rules engine: start Dice Time, roll, claim, ring.

    The state is a seed and the moves since the deal, ``<players><paint>_<seed>_<moves>``
    (e.g. ``4r_123_s.c0-1.r.x``), replayed through :func:`captain.rules.game.apply` on a
    game dealt on the tutorial's fixed grid: every roll, claim and bell is the engine's.
    Your moves are red's: ``s`` start Dice Time (the start bell; everyone rolls), ``r``
    re-roll, ``c`` + a position claim, ``x`` ring the bell. Practice dice of the other
    colours, ``b``/``g``/``w`` + a position (placed, or taken back when already there),
    edit the board: the engine's bell function judges them like any dice. Positions are
    written as every link writes them (``c0-1``, :mod:`tutorials.web.positions`); states
    written before, with two digits (``c01``), are read too.
    """

    template = "tutorials/boards/dice.html"
    you = Colour.RED
    LINKS = (("roll", "roll", ""), ("ring", "ring", ""), ("reset", "reset", ""),
             ("players2", "players", "2"), ("players4", "players", "4"))
    MAX_MOVES = 80
    #: the practice dice of the "bell" board: row 1 (A1, D1) and the diagonal D1-A4 (D1,
    #: B3) each need one more card for the bell
    BELL_PRESET = ("s", "b0-3", "g2-1", "w0-0")

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
        match = _STATE.fullmatch(state)
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
        if action == "ring" and self.board_id != "bell":  # the bell is the next lesson's board
            move = None
        if action == "roll" and not self.started:
            move = "s"  # the first roll is the start bell: everyone rolls (DICE-1)
        pos = read_position(arg) if action == "claim" else None
        if pos is not None and pos.row <= 5 and pos.col <= 5:
            move = ("c" if self.paint is self.you else self.paint.letter) + position_arg(pos)
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
        line = (set(status.line or ()) if self.board_id == "bell" and status.may_ring and not self.ended
                else set())
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
        return explain(self.bell().event, self.game.board)


def _move(game: GameState, move: str) -> GameState:
    """One move of a :class:`DiceBoard`: an engine action of red, or a practice edit."""
    you = DiceBoard.you
    if move == "s":
        return apply(game, RingStartBell(you))
    if move == "r":
        return apply(game, Roll(you))
    if move == "x":
        return apply(game, RingBell(you))
    pos = read_position(move[1:])
    if pos is None:
        raise InvalidInput(f"no position in move {move!r}", code="bad-position")
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
