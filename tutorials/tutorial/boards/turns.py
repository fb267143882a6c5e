"""Strategy mode's Dice Time on the rules engine: you play red on your turns, and computer
captains play the other colours on theirs, until a placement fills a line (STRAT-1..3)."""

from __future__ import annotations

import random
import re

from django.utils.translation import gettext_lazy

from captain.rules import Board, Colour, IllegalAction, InvalidInput, Position, RuleSet, Situation
from captain.rules.captains.strengths import GreedyCaptain
from captain.rules.game import Claim, GameState, Phase, RingStartBell, Roll, apply, new_game, pair_left
from captain.rules.situation import Mode
from tutorials.drawing.cells import CellView, board_cells, pips
from tutorials.tutorial.boards.example import ExampleBoard
from tutorials.tutorial.examples import DICE_BOARD_2, DICE_BOARD_4
from tutorials.web.positions import position_arg, read_position
from tutorials.wording.events import Explanation, explain
from tutorials.wording.glossary import COLOUR_NAMES

#: a move of red: ``s`` begin Dice Time, ``r`` + the face values re-rolled, ``c`` + a position
_MOVE = r"(?:s|r[1-6]{1,6}|c[0-3]-[0-3])"
_STATE = re.compile(rf"([24])_([0-9]{{1,9}})_([0-5]{{0,6}})_({_MOVE}(?:\.{_MOVE}){{0,40}})?")
#: the line the "line" board starts one card short of: row 1 (A1 B1 C1 D1), C1 still free
LINE_PRESET_4 = (("c", "0-1"), ("b", "0-0"), ("g", "0-3"))


class TurnsBoard(ExampleBoard):
    """Strategy-mode Dice Time, one turn each, clockwise from the start player (red).

    The state is ``<players>_<seed>_<picked>_<moves>`` (``4_17_03_s.r25.c1-2``): red's moves
    since the deal, replayed through :func:`captain.rules.game.apply`, with the computer
    captains' turns in between decided by the greedy captain from a generator seeded by the
    seed and the move count, so a state always shows the same table. ``picked`` are the
    places, in red's sorted hand, of the dice chosen for the next re-roll.
    """

    board_id = "turns"
    template = "tutorials/boards/turns.html"
    you = Colour.RED
    LINKS = (("begin", "begin", ""), ("roll", "roll", ""), ("reset", "reset", ""))

    def __init__(self, lesson: str, board_id: str = "turns", players: int = 4, seed: int = 1,
                 picked: tuple[int, ...] = (), moves: tuple[str, ...] = ()) -> None:
        super().__init__(lesson)
        self.board_id = board_id
        self.players = players
        self.seed = seed
        self.moves = tuple(moves)
        self.game, self.others = self._replay()
        hand = self.hand or ()
        self.picked = tuple(sorted({i for i in picked if i < len(hand)}))

    # state ---------------------------------------------------------------
    def state(self) -> str:
        picked = "".join(str(i) for i in self.picked)
        return f"{self.players}_{self.seed}_{picked}_{'.'.join(self.moves)}"

    @classmethod
    def preset(cls, lesson: str, board_id: str, players: int = 4) -> TurnsBoard:
        """The first state: the lesson on the end of Dice Time picks up with everyone rolled."""
        return cls(lesson, board_id, players=players, moves=("s",) if board_id == "line" else ())

    @classmethod
    def from_state(cls, lesson: str, board_id: str, state: str, *, players: int = 4) -> TurnsBoard:
        if not state:
            return cls.preset(lesson, board_id, players)
        match = _STATE.fullmatch(state)
        if match:
            try:
                return cls(lesson, board_id, int(match[1]), int(match[2]), tuple(int(c) for c in match[3]),
                           tuple(match[4].split(".")) if match[4] else ())
            except (IllegalAction, InvalidInput):
                pass
        board = cls.preset(lesson, board_id, players)
        board.note = "reset"
        return board

    # engine ----------------------------------------------------------------
    def _deal(self) -> GameState:
        colours = tuple(Colour)[:2] if self.players == 2 else tuple(Colour)
        rows = DICE_BOARD_2 if self.players == 2 else DICE_BOARD_4
        return new_game(colours, rules=RuleSet(mode=Mode.STRATEGY), seed=self.seed,
                        start_player=self.you, layout=Board.parse(rows))

    def _replay(self) -> tuple[GameState, list[Explanation]]:
        """The game after red's moves and the captains' turns after each; with it, what
        the captains did since red's last move, worded. Raises the engine's error for a
        move of red it refuses."""
        game, others = self._deal(), []
        for n, move in enumerate(self.moves):
            game = apply(game, _action(move))
            game, others = _captains_play(game, random.Random(f"{self.seed}/{n}"))
        return game, others

    def situation(self) -> Situation:
        return Situation(self.game.board, self.game.seating, self.game.rules)

    @property
    def started(self) -> bool:
        return self.game.phase is not Phase.AWAIT_START_BELL

    @property
    def ended(self) -> bool:
        return self.game.phase not in (Phase.AWAIT_START_BELL, Phase.DICE)

    @property
    def your_turn(self) -> bool:
        return self.game.phase is Phase.DICE and self.game.turn is self.you

    @property
    def hand(self) -> tuple[int, ...] | None:
        me = self.game.player(self.you)
        return me.dice if me.rolled else None

    @property
    def start_player_name(self) -> str:
        return COLOUR_NAMES[self.game.start_player]

    @property
    def ended_by_line(self) -> bool:
        """Dice Time ended because a placement filled a line (not because nobody could act)."""
        return self.ended and any(e.code == "dice.end" for e in self._last_log())

    def _last_log(self):
        return list(self.game.log)

    # actions -------------------------------------------------------------
    def _with(self, *moves: str, picked: tuple[int, ...] = ()) -> TurnsBoard:
        return TurnsBoard(self.lesson, self.board_id, self.players, self.seed, picked, self.moves + moves)

    def apply(self, action: str, arg: str, rng: random.Random) -> TurnsBoard:
        if action == "reset":
            fresh = TurnsBoard.preset(self.lesson, self.board_id, self.players)
            return TurnsBoard(self.lesson, self.board_id, self.players, rng.randrange(10**9), (), fresh.moves)
        if action == "pick" and arg.isdigit() and self.your_turn:
            return self._with(picked=tuple(sorted(set(self.picked) ^ {int(arg)})))
        move = None
        if action == "begin" and not self.started:
            move = "s"
        elif action == "roll" and self.picked and self.hand:
            move = "r" + "".join(str(self.hand[i]) for i in self.picked)
        elif action == "claim":
            pos = read_position(arg)
            move = f"c{position_arg(pos)}" if pos is not None and pos.row < 4 and pos.col < 4 else None
        if move is None:
            refused = self._with(picked=self.picked)
            refused.note = "pick-first" if action == "roll" and self.your_turn else "refused"
            return refused
        try:
            new = self._with(move)
        except (IllegalAction, InvalidInput) as exc:
            refused = self._with(picked=self.picked)
            refused.note = _REFUSALS.get(getattr(exc, "code", ""), "refused")
            return refused
        new.note = {"s": "turns-begun", "r": "rerolled", "c": "claimed"}[move[0]]
        return new

    # view ----------------------------------------------------------------
    def rows(self) -> list[list[CellView]]:
        grid = board_cells(self.game.board)
        hand = self.hand
        fresh = {e.position for e in self.others if e.position is not None}
        for row in grid:
            for cell in row:
                if cell.pos in fresh:
                    cell.classes.append("last-move")
                    cell.notes.append(_LAST_MOVE)
                if (self.your_turn and hand and cell.dice is None and not self.readonly
                        and pair_left(hand, cell.treasure.faces) is not None):
                    cell.classes.append("claimable")
                    cell.notes.append(_CLAIMABLE)
                if self.your_turn and not self.readonly:
                    cell.href = self.action_url("claim", position_arg(cell.pos))
        return grid

    def hand_dice(self) -> list[dict]:
        """Red's dice in hand, each with its pips, whether it is picked, and its toggle."""
        return [{"value": v, "pips": pips(v), "picked": i in self.picked,
                 "href": self.action_url("pick", str(i))} for i, v in enumerate(self.hand or ())]

    @property
    def picked_values(self) -> list[int]:
        hand = self.hand or ()
        return [hand[i] for i in self.picked]

    def captain_moves(self) -> list[Explanation]:
        """What the captains did since your last move, in order."""
        return [e.explanation for e in self.others]

    def end_explanations(self) -> list[Explanation]:
        """Why Dice Time ended, when it has: who ended it and who is start player now
        first, then the line that did it."""
        if not self.ended:
            return []
        told = [e for e in self._last_log() if e.code in ("dice.end", "dice.stuck", "bell.line")]
        told.sort(key=lambda e: e.code == "bell.line")
        return [explain(e, self.game.board) for e in told]


class _Move:
    """One captain move as the board shows it: its sentence and the position it changed."""

    def __init__(self, explanation: Explanation, position: Position | None) -> None:
        self.explanation, self.position = explanation, position


def _captains_play(game: GameState, rng: random.Random) -> tuple[GameState, list[_Move]]:
    """The captains' turns until it is red's turn again or Dice Time is over."""
    moves: list[_Move] = []
    greedy = GreedyCaptain()
    for _turn in range(200):  # every turn places dice or re-rolls; 200 is far beyond a Dice Time
        if game.phase is not Phase.DICE or game.turn in (None, TurnsBoard.you):
            break
        action = greedy.choose(game, game.turn, rng)
        if action is None:
            break
        game = apply(game, action)
        where = action.position if isinstance(action, Claim) else None
        moves.extend(_Move(explain(event, game.board), where)
                     for event in game.log if event.code in ("dice.roll", "dice.claim"))
    return game, moves


def _action(move: str):
    you = TurnsBoard.you
    if move == "s":
        return RingStartBell(you)
    if move[0] == "r":
        return Roll(you, tuple(int(c) for c in move[1:]))
    pos = read_position(move[1:])
    if pos is None:
        raise InvalidInput(f"no position in move {move!r}", code="bad-position")
    return Claim(you, pos)


#: engine refusals → the board's notes
_REFUSALS = {"no-pair": "no-pair-turns", "occupied": "occupied", "not-your-turn": "not-your-turn",
             "dice-time-over": "ended", "wrong-phase": "not-begun", "not-in-hand": "refused"}

_LAST_MOVE = gettext_lazy("claimed on the captains' last turns")
_CLAIMABLE = gettext_lazy("your dice in hand can claim it")
