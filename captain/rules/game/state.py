"""The state of a whole game: one immutable :class:`GameState` per moment.

:class:`PlayerState` holds one player's hand, discard, won cards and dice;
:class:`RoundRecord` what the last Battle and Treasure Time did.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from ..errors import InvalidInput
from ..events import Event, EventLog
from ..model import AttackKind, Board, Colour, Position, Treasure
from ..resolve.battle import BattleResult
from ..resolve.round_end import Standing, rank_players
from ..resolve.treasure import TreasureResult
from ..situation import DICE_PER_PLAYER, RuleSet, Seating, Situation


class Phase(enum.Enum):
    """Where a game stands. Battle and Treasure Time resolve inside :func:`apply`."""

    AWAIT_START_BELL = "await-start-bell"  # the start player begins Dice Time (DICE-1, STRAT-1)
    DICE = "dice"
    SETTING = "setting"
    OVER = "over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


@dataclass(frozen=True)
class PlayerState:
    """One player's private and public belongings.

    Attributes:
        colour: the player.
        hand: attack cards in hand, sorted by value.
        discard: attack cards in the discard pile, sorted (hidden from others in play).
        won: treasure cards won so far, in the order won.
        dice: face values of the dice in hand (not on the board), ascending; empty
            before rolling.
            Dice taken back in Setting Time (SET-1) keep the faces they showed on the card.
        rolled: True once this Dice Time's first roll happened.
        false_bell: DICE-6 applies for the rest of this Dice Time.
    """

    colour: Colour
    hand: tuple[AttackKind, ...]
    discard: tuple[AttackKind, ...] = ()
    won: tuple[Treasure, ...] = ()
    dice: tuple[int, ...] = ()
    rolled: bool = False
    false_bell: bool = False

    @property
    def hand_size(self) -> int:
        return len(self.hand)

    @property
    def doubles(self) -> int:
        return sum(1 for t in self.won if t.is_double)


@dataclass(frozen=True)
class RoundRecord:
    """What Battle and Treasure Time did at the end of a round (for transcripts and UIs)."""

    round: int
    board: Board
    battle: BattleResult
    treasure: TreasureResult


@dataclass(frozen=True)
class GameState:
    """An immutable snapshot of a whole game.

    Attributes:
        rules: the rule set.
        seating: colours clockwise and the current start player.
        board: treasure cards with dice or attack cards on them.
        deck: the treasure deck, top card first.
        box: treasure cards out of play (two players: 10 unseen cards, SETUP-4).
        players: one :class:`PlayerState` per seat, in seating order.
        round: 1 for the first round.
        phase: see :class:`Phase`.
        turn: whose turn it is (strategy-mode Dice Time, Setting Time), else ``None``.
        rerolled: strategy mode with STRAT-4: the player on turn has re-rolled and may
            still place (or pass).
        seed, draws: the random source: ``draws`` counts the random calls made so far.
        log: events of the last transition, in order (a sequence; explanations of Battle
            and Treasure Time are built when first read).
        last_round: the most recent Battle/Treasure resolution, if any.
    """

    rules: RuleSet
    seating: Seating
    board: Board
    deck: tuple[Treasure, ...]
    box: tuple[Treasure, ...]
    players: tuple[PlayerState, ...]
    round: int = 1
    phase: Phase = Phase.AWAIT_START_BELL
    turn: Colour | None = None
    rerolled: bool = False
    seed: int = 0
    draws: int = 0
    log: tuple[Event, ...] | EventLog = ()
    last_round: RoundRecord | None = field(default=None, compare=False)

    def __repr__(self) -> str:
        turn = f", turn {self.turn.value}" if self.turn else ""
        return (f"<GameState round {self.round}, {self.phase.value}, start player "
                f"{self.start_player.value}{turn}, deck {len(self.deck)}, seed {self.seed}, "
                f"draws {self.draws}>")

    # --- look-ups --------------------------------------------------------------------------
    def player(self, colour: Colour) -> PlayerState:
        """The state of ``colour``. Raises :class:`InvalidInput` if not seated."""
        for p in self.players:
            if p.colour == colour:
                return p
        raise InvalidInput(f"{colour.value} is not seated", where="player", code="colour-not-seated")

    @property
    def start_player(self) -> Colour:
        return self.seating.start_player

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def dice_cards(self, colour: Colour) -> list[Position]:
        """Positions holding ``colour``'s dice, in board order."""
        board = self.board
        return list(board.geometry.to_positions(board.occupancy().dice_of.get(colour, 0)))

    def dice_unplaced(self, colour: Colour) -> int:
        """How many of ``colour``'s dice lie on no card yet (SETUP-1: six, two per card)."""
        return DICE_PER_PLAYER - 2 * len(self.dice_cards(colour))

    def standings(self) -> tuple[tuple[Standing, ...], Colour | None]:
        """Current standings (END-2, END-3) and the winner if the game were scored now."""
        return rank_players(self.seating, {p.colour: p.won for p in self.players})

    def situation(self) -> Situation:
        """The analyzer's view of this moment: board, seats, rules, deck size, won cards."""
        return Situation(self.board, self.seating, self.rules, len(self.deck),
                         {p.colour: p.won for p in self.players if p.won})

    def treasure_total(self) -> int:
        """Treasure cards in board + deck + won + box (always 42: conservation)."""
        return (self.board.treasure_count() + len(self.deck) + len(self.box)
                + sum(len(p.won) for p in self.players))


