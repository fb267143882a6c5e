"""Rule sets and situations: everything the engine needs to answer a question.

A :class:`Situation` is one moment of a game as a user builds it: the board, the
seated colours in clockwise order, the start player, the rule set and, optionally,
the deck size and the cards won in earlier rounds. :meth:`Situation.validate`
rejects what the rules do not allow, naming what and where.
:meth:`Situation.to_notation` writes the one-line notation that
:func:`captain.rules.notation.parse` reads.

:func:`table_setup` says what a table of 2, 3 or 4 players holds (SETUP-1, SETUP-4,
VAR-2): the grid side, the treasure cards in play and each colour's attack cards.
"""

from __future__ import annotations

import enum
import functools
import operator
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from .clauses import implements
from .errors import InvalidInput, InvalidSituation
from .model import COLOUR_SLOT, DICE_SLOT, AttackCard, AttackKind, Board, Colour, Dice, Treasure


class _ReprEnum(enum.Enum):
    """An enum whose repr reads like the code that names it: ``Mode.STRATEGY``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


class SpeedOrder(_ReprEnum):
    """Battle order: ``ascending`` 0,1,2,3,4,5 (BAT-1) or ``reversed`` 0,5,4,3,2,1 (VAR-1)."""

    ASCENDING = "ascending"
    REVERSED = "reversed"


class Collection(_ReprEnum):
    """Treasure Time reading (INT-1): ``sequential`` (default) or ``simultaneous``."""

    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"


class Mode(_ReprEnum):
    """Dice Time mode: ``action`` (DICE) or ``strategy`` (STRAT)."""

    ACTION = "action"
    STRATEGY = "strategy"


class BellRule(_ReprEnum):
    """What lets the bell end Dice Time with 3-4 players.

    ``line``: DICE-4 (or STRAT-3 in strategy mode); ``all-dice``: VAR-3;
    ``first-edition``: VAR-4 (three cards anywhere hold dice).
    """

    LINE = "line"
    ALL_DICE = "all-dice"
    FIRST_EDITION = "first-edition"


def _enum_value(enum_cls: type[enum.Enum], value: object, key: str) -> enum.Enum:
    for member in enum_cls:
        if member.value == value:
            return member
    allowed = ", ".join(repr(m.value) for m in enum_cls)
    raise InvalidInput(f"unknown value {value!r}; expected one of {allowed}", where=f"rules.{key}",
                       field=f"rules.{key}", code="bad-rule", key=key, value=str(value))


@dataclass(frozen=True)
class RuleSet:
    """The rules in force. The default is the official action-mode game.

    Attributes:
        speed_order: VAR-1 when reversed.
        collection: INT-1 reading.
        mode: action (DICE-1..7) or strategy (STRAT-1..4).
        no_scouts: VAR-2, every colour plays without its four [5] cards.
        bell: DICE-4 line rule, VAR-3 or VAR-4.
        place_after_reroll: STRAT-4 option (strategy mode only).
    """

    speed_order: SpeedOrder = SpeedOrder.ASCENDING
    collection: Collection = Collection.SEQUENTIAL
    mode: Mode = Mode.ACTION
    no_scouts: bool = False
    bell: BellRule = BellRule.LINE
    place_after_reroll: bool = False

    KEYS = ("speed_order", "collection", "mode", "no_scouts", "bell", "place_after_reroll")

    def __repr__(self) -> str:
        changed = ", ".join(f"{key}={getattr(self, key)!r}" for key in self.KEYS
                            if getattr(self, key) != getattr(_DEFAULT_RULES, key))
        return f"RuleSet({changed})"

    def __post_init__(self) -> None:
        if self.place_after_reroll and self.mode is not Mode.STRATEGY:
            raise InvalidInput("place_after_reroll (STRAT-4) is an option of strategy mode",
                               where="rules.place_after_reroll", field="rules.place_after_reroll",
                               code="bad-rule",
                               key="place_after_reroll", value="true")

    @classmethod
    def from_json(cls, data: object) -> RuleSet:
        """Read the ``rules`` object of the case format. Unknown keys are errors."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise InvalidInput("rules must be an object", where="rules", field="rules",
                               code="bad-rules")
        unknown = sorted(set(data) - set(cls.KEYS))
        if unknown:
            raise InvalidInput(f"unknown rule key(s) {', '.join(unknown)}; known: "
                               f"{', '.join(cls.KEYS)}", where="rules", field=f"rules.{unknown[0]}",
                               code="unknown-key", keys=unknown)
        kwargs: dict[str, object] = {}
        for key, enum_cls in (("speed_order", SpeedOrder), ("collection", Collection),
                              ("mode", Mode), ("bell", BellRule)):
            if key in data:
                kwargs[key] = _enum_value(enum_cls, data[key], key)
        for key in ("no_scouts", "place_after_reroll"):
            if key in data:
                if not isinstance(data[key], bool):
                    raise InvalidInput(f"{key} must be true or false", where=f"rules.{key}",
                                       field=f"rules.{key}", code="bad-rule", key=key,
                                       value=str(data[key]))
                kwargs[key] = data[key]
        return cls(**kwargs)  # type: ignore[arg-type]

    @classmethod
    def from_flags(cls, flags: Iterable[str]) -> RuleSet:
        """The rule set of these notation flags (:meth:`flags`; any order, each once), as the
        start forms choose them: ``v1``-``v3`` the variants, ``v4`` the first-edition bell,
        ``s`` strategy mode, ``p`` STRAT-4, ``i`` the other INT-1 reading.

        Raises :class:`InvalidInput`: ``bad-rule`` (param ``flag``) for a flag that does
        not exist, ``two-bell-rules`` for VAR-3 with VAR-4 (both replace the bell
        condition), and ``bad-rule`` (key ``place_after_reroll``) for ``p`` without ``s``.
        """
        chosen = set(flags)
        unknown = sorted(chosen - set(RULE_FLAGS))
        if unknown:
            raise InvalidInput(f"unknown rule flag {unknown[0]!r}", where="rules", field="rules",
                               code="bad-rule", flag=unknown[0])
        if {"v3", "v4"} <= chosen:
            raise InvalidInput("VAR-3 and VAR-4 both replace the bell condition", where="rules.bell",
                               field="rules.bell", clause="VAR-4", code="two-bell-rules")
        return cls(
            speed_order=SpeedOrder.REVERSED if "v1" in chosen else SpeedOrder.ASCENDING,
            collection=Collection.SIMULTANEOUS if "i" in chosen else Collection.SEQUENTIAL,
            mode=Mode.STRATEGY if "s" in chosen else Mode.ACTION,
            no_scouts="v2" in chosen,
            bell=(BellRule.ALL_DICE if "v3" in chosen else BellRule.FIRST_EDITION if "v4" in chosen
                  else BellRule.LINE),
            place_after_reroll="p" in chosen)

    def flags(self) -> str:
        """The rule flags of the notation, in their fixed order: ``v1`` reversed speed,
        ``v2`` no scouts, ``v3`` all-dice bell, ``v4`` first edition, ``s`` strategy mode,
        ``p`` place after re-roll, ``i`` simultaneous collection ("" for the defaults)."""
        return "".join(flag for flag, on in (
            ("v1", self.speed_order is SpeedOrder.REVERSED), ("v2", self.no_scouts),
            ("v3", self.bell is BellRule.ALL_DICE), ("v4", self.bell is BellRule.FIRST_EDITION),
            ("s", self.mode is Mode.STRATEGY), ("p", self.place_after_reroll),
            ("i", self.collection is Collection.SIMULTANEOUS)) if on)

    def to_json(self) -> dict[str, object]:
        """Only the keys that differ from the default."""
        out: dict[str, object] = {}
        default = RuleSet()
        for key in self.KEYS:
            value = getattr(self, key)
            if value != getattr(default, key):
                out[key] = value.value if isinstance(value, enum.Enum) else value
        return out

    @property
    def speed_ranks(self) -> tuple[int, ...]:
        """``speed_ranks[value]`` = :meth:`speed_rank` of that card value (a lookup table,
        :func:`speed_ranks`)."""
        return speed_ranks(self.speed_order)

    def speed_rank(self, kind: AttackKind) -> int:
        """Position of ``kind`` in the battle order (0 acts first) (BAT-1, VAR-1)."""
        return speed_ranks(self.speed_order)[int(kind)]

    def copies(self, kind: AttackKind, player_count: int) -> int:
        """How many cards of ``kind`` one colour owns (:func:`table_setup`)."""
        return table_setup(player_count, self.no_scouts).copies[int(kind)]


_DEFAULT_RULES = RuleSet()

#: The rule flags of the notation and the start forms, in their fixed order
#: (:meth:`RuleSet.flags`).
RULE_FLAGS = ("v1", "v2", "v3", "v4", "s", "p", "i")

#: The official variants a table may choose, by flag (RULES.md "Variants"). VAR-4 is not
#: among them: it is the superseded first-edition bell, offered apart from the variants.
VARIANTS = {"v1": "VAR-1", "v2": "VAR-2", "v3": "VAR-3"}

#: How many players a table seats (SETUP-3, SETUP-4).
PLAYER_COUNTS = (2, 3, 4)


def check_table_rules(rules: RuleSet, players: int) -> RuleSet:
    """``rules`` if a table of ``players`` players may play them; the one place that decides.

    Raises :class:`InvalidInput` (``field`` ``"rules.bell"``) for a bell rule where it means
    nothing: VAR-3 or VAR-4 in strategy mode, which has no bell (``bell-in-strategy``,
    STRAT-1), and the first-edition bell with two players, whose bell rings on cards
    anywhere already (``first-edition-two``, VAR-4 is for 3-4 players; DICE-5). STRAT-4
    outside strategy mode never makes a :class:`RuleSet` at all.
    """
    if rules.bell is not BellRule.LINE and rules.mode is Mode.STRATEGY:
        raise InvalidInput("strategy mode has no bell", where="rules.bell", field="rules.bell",
                           clause="STRAT-1", code="bell-in-strategy", bell=rules.bell.value)
    if rules.bell is BellRule.FIRST_EDITION and players == 2:
        raise InvalidInput("the first-edition bell is for 3 or 4 players; with two it changes "
                           "nothing", where="rules.bell", field="rules.bell", clause="VAR-4",
                           code="first-edition-two")
    return rules

#: Dice each colour owns (SETUP-1). A pair claims one card, so they cover
#: ``DICE_PER_PLAYER // 2`` cards (VAR-3: all of them placed).
DICE_PER_PLAYER = 6

#: Cards holding dice that let the bell ring: on one line (DICE-4) or anywhere (DICE-5,
#: VAR-4); bell lines hold at least this many treasure cards (INT-3).
BELL_CARDS = 3

#: The game ends when, after refilling, the deck is empty and at most this many treasure
#: cards lie on the board: too few for the smallest grid, 3×3 (END-1, INT-4).
END_AT = 8


@implements("VAR-1")
def speed_ranks(order: SpeedOrder) -> tuple[int, ...]:
    """``ranks[value]`` = when a card of that value acts in Battle Time (0 first).

    BAT-1: 0, 1, 2, 3, 4, 5. VAR-1 (reversed): 0, 5, 4, 3, 2, 1 — [0] has no effect and
    still comes first.
    """
    return (0, 5, 4, 3, 2, 1) if order is SpeedOrder.REVERSED else (0, 1, 2, 3, 4, 5)


@dataclass(frozen=True)
class TableSetup:
    """What a table of ``players`` players holds (:func:`table_setup`).

    Attributes:
        players: 2, 3 or 4.
        side: the grid is ``side`` × ``side`` treasure cards: 4, or 3 with two players.
        in_play: treasure cards in the game: 42, or 32 with two players (10 boxed unseen).
        boxed: treasure cards put back in the box unseen: 0, or 10 with two players.
        copies: ``copies[value]`` = attack cards of that value in each colour's set.
    """

    players: int
    side: int
    in_play: int
    boxed: int
    copies: tuple[int, ...]

    @property
    def hand(self) -> int:
        """Attack cards each player starts with: 9, 7 with two players, 5 or 3 under VAR-2."""
        return sum(self.copies)


@implements("SETUP-1", "SETUP-4", "VAR-2")
def table_setup(players: int, no_scouts: bool = False) -> TableSetup:
    """What the table holds for ``players`` players.

    SETUP-1: each colour has six dice and nine attack cards, [0] to [4] once and [5]
    four times. SETUP-4, two players: each removes two [5] (seven cards), ten treasure
    cards go back to the box unseen, and the grid is 3×3 instead of 4×4. VAR-2 (no
    scouts): no [5] at all.
    """
    two = players == 2
    scouts = 0 if no_scouts else 2 if two else 4
    return TableSetup(players, 3 if two else 4, 32 if two else 42, 10 if two else 0,
                      (1, 1, 1, 1, 1, scouts))


@dataclass(frozen=True)
class Seating:
    """Seated colours in clockwise order and the start player (SETUP-3, DICE-4).

    >>> Seating((Colour.RED, Colour.BLUE, Colour.GREEN), Colour.BLUE).order()
    (Colour.BLUE, Colour.GREEN, Colour.RED)
    """

    players: tuple[Colour, ...]
    start_player: Colour

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 4:
            raise InvalidSituation(f"2 to 4 players take part, got {len(self.players)}",
                                  where="players", field="players", clause="SETUP-3",
                                  code="player-count",
                                  count=len(self.players))
        if len(set(self.players)) != len(self.players):
            raise InvalidSituation("a colour is seated twice", where="players", field="players",
                                  clause="SETUP-1", code="duplicate-colour")
        if self.start_player not in self.players:
            raise InvalidSituation(f"start player {self.start_player.value} is not seated",
                                  where="start_player", field="start_player", clause="SETUP-3",
                                  code="start-player-not-seated", colour=self.start_player.value)

    @implements("ROUND-1")
    def order(self) -> tuple[Colour, ...]:
        """Players from the start player clockwise: who goes first whenever things fall due
        together (BAT-2, TRE-3)."""
        return self._order

    @functools.cached_property
    def _order(self) -> tuple[Colour, ...]:
        i = self.players.index(self.start_player)
        return self.players[i:] + self.players[:i]

    @functools.cached_property
    def ranks(self) -> dict[Colour, int]:
        """Colour → 0 for the start player, 1 for the next clockwise, … (a lookup table)."""
        return {c: i for i, c in enumerate(self._order)}

    def rank(self, colour: Colour) -> int:
        """0 for the start player, 1 for the next clockwise, …"""
        return self.ranks[colour]


def full_treasure_count(player_count: int) -> int:
    """Treasure cards in play: 42, or 32 with two players (:func:`table_setup`)."""
    return table_setup(player_count).in_play


def _held_limits(players: int, no_scouts: bool) -> tuple[int, ...]:
    """The most a colour may hold, laid out as :attr:`~captain.rules.model.Census.held`:
    its copies of each attack card (:func:`table_setup`) and cards under its dice."""
    one = [0] * 8
    one[:len(AttackKind)] = table_setup(players, no_scouts).copies
    one[DICE_SLOT] = DICE_PER_PLAYER // 2
    return tuple(one) * len(COLOUR_SLOT)


#: ``(players, no_scouts)`` → (:func:`_held_limits`, treasure cards in play): the limits
#: :meth:`Situation.validate` counts against.
_LIMITS = {(players, no_scouts): (_held_limits(players, no_scouts),
                                  full_treasure_count(players))
           for players in PLAYER_COUNTS for no_scouts in (False, True)}


_NO_WON: Mapping[Colour, tuple[Treasure, ...]] = MappingProxyType({})


@dataclass(frozen=True)
class Situation:
    """A moment of the game as the analyzer and the case format describe it.

    Attributes:
        board: the grid.
        seating: colours clockwise and the start player.
        rules: the rule set.
        deck: treasure cards left in the deck, or ``None`` when unknown/not asked.
        won: treasure cards each colour won in earlier rounds (read-only mapping).
    """

    board: Board
    seating: Seating
    rules: RuleSet = RuleSet()
    deck: int | None = None
    won: Mapping[Colour, tuple[Treasure, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "won", MappingProxyType(dict(self.won)) if self.won else _NO_WON)

    def __repr__(self) -> str:
        return f"notation.parse({self.to_notation()!r})"

    def to_notation(self) -> str:
        """The one-line notation of this situation (grammar: :mod:`captain.rules.notation`);
        ``notation.parse(s.to_notation()) == s``."""
        seats = "".join(c.letter.upper() if c == self.seating.start_player else c.letter
                        for c in self.players)
        rows = []
        for row in self.board.rows:
            cells = []
            for cell in row:
                text = str(cell.treasure) if cell.treasure else "x"
                occupant = cell.occupant
                if occupant.__class__ is Dice:
                    text += occupant.colour.letter.upper()
                elif occupant is not None:
                    text += occupant.token
                cells.append(text)
            rows.append(".".join(cells))
        out = seats + "_" + "-".join(rows)
        flags = self.rules.flags()
        if flags:
            out += "_r" + flags
        if self.deck is not None:
            out += f"_d{self.deck}"
        if self.won:
            out += "_w" + ".".join(c.letter + "".join(str(t) for t in self.won[c])
                                   for c in self.players if c in self.won)
        return out

    @property
    def players(self) -> tuple[Colour, ...]:
        """Seated colours, clockwise."""
        return self.seating.players

    def validate(self) -> Situation:
        """Check the situation against the rules; return it unchanged.

        Raises :class:`InvalidSituation` for: a colour on the board or in ``won`` that is
        not seated; more attack cards of a kind than a colour owns (SETUP-1/4, VAR-2);
        more than three cards holding one colour's dice (six dice, SETUP-1); dice and
        attack cards on the board together (SET-3); more than two copies of a treasure
        card or more treasure cards than the game has (SETUP-2/4); a negative deck.

        A situation never changes, so it is checked once: a later call (:func:`solve`'s,
        after :func:`~captain.rules.notation.parse`'s) returns at once. The check compares
        counts (:meth:`_within_limits`); only when one is over does :meth:`_name_fault`
        walk the board to name the first fault.
        """
        if not self.allowed():
            self._name_fault()
        return self

    def allowed(self) -> bool:
        """Whether :meth:`validate` passes, without naming a fault: for a caller that only
        passes over the situations the rules forbid (the analyzer's what-ifs try every
        other value of every card, and most of them are forbidden)."""
        if "_valid" not in self.__dict__:
            if not self._within_limits():
                return False
            self.__dict__["_valid"] = True  # a note, not a field: not compared, not in repr
        return True

    def _within_limits(self) -> bool:
        """Whether every count :meth:`validate` checks is within the rules, from the board's
        :meth:`~captain.rules.model.Board.census` (which Battle Time reads as well): when
        True, :meth:`_name_fault` finds nothing; when False, it names the fault."""
        census = self.board.census()
        occupancy = census.occupancy
        seats = self.seating.ranks
        limits = _LIMITS.get((len(seats), self.rules.no_scouts))
        if (limits is None or (occupancy.dice and occupancy.cards)
                or not seats.keys() >= census.own.keys()
                or not seats.keys() >= occupancy.dice_of.keys()
                or any(map(operator.gt, census.held, limits[0]))):
            return False
        faces: Sequence[int] = census.faces
        total = occupancy.treasure.bit_count()
        if self.won:
            faces = counted = list(faces)
            for colour, cards in self.won.items():
                if colour not in seats:
                    return False
                for card in cards:
                    counted[card.low * 8 + card.high] += 1
                total += len(cards)
        if max(faces) > 2:
            return False
        if self.deck is not None:
            if self.deck < 0:
                return False
            total += self.deck
        return total <= limits[1]

    def _name_fault(self) -> None:
        """Walk the board, the won cards and the deck in :meth:`validate`'s order and raise
        for the first fault found."""
        players = set(self.players)
        self._check_occupants(players)
        for colour in self.won:
            if colour not in players:
                raise InvalidSituation(f"{colour.value} has won cards but is not seated",
                                      where=f"won.{colour.value}", field=f"won.{colour.value}",
                                      clause="SETUP-1",
                                      code="colour-not-seated", colour=colour.value)
        self._check_treasures()

    def _check_treasures(self) -> None:
        """:meth:`validate` for the treasure cards: copies and total (SETUP-2/4), the deck."""
        n = len(self.players)
        copies: Counter[Treasure] = Counter(cell.treasure for _, cell in self.board if cell.treasure)
        for cards in self.won.values():
            copies.update(cards)
        for treasure, count in sorted(copies.items()):
            if count > 2:
                on_board = [p for p, cell in self.board if cell.treasure == treasure]
                where = f"position {on_board[-1]}" if on_board else f"won cards ({treasure})"
                raise InvalidSituation(f"treasure card {treasure} appears {count} times on the "
                                      f"board and among won cards; the game has two of each",
                                      where=where, field="board" if on_board else "won",
                                      clause="SETUP-2", code="too-many-copies",
                                      treasure=str(treasure), count=count,
                                      position=list(on_board[-1]) if on_board else None)
        total = sum(copies.values())
        limit = full_treasure_count(n)
        if self.deck is not None:
            if self.deck < 0:
                raise InvalidInput("deck must be 0 or more", where="deck", field="deck",
                                   code="bad-deck")
            total += self.deck
        if total > limit:
            raise InvalidSituation(f"{total} treasure cards on the board, won and in the deck; the "
                                  f"game has {limit}", where="deck" if self.deck else "board",
                                  field="deck" if self.deck else "board",
                                  clause="SETUP-4" if n == 2 else "SETUP-2",
                                  code="too-many-treasures", total=total, limit=limit)

    def _check_occupants(self, players: set[Colour]) -> None:
        """:meth:`validate` for the attack cards and dice on the board."""
        n = len(self.players)
        counts: Counter[tuple[Colour, AttackKind]] = Counter()
        dice_cards: Counter[Colour] = Counter()
        has_cards = has_dice = False
        owned_copies = table_setup(n, self.rules.no_scouts).copies
        for pos, cell in self.board:
            occ = cell.occupant
            if occ is None:
                continue
            if occ.colour not in players:
                raise InvalidSituation(f"{occ.colour.value} is on the board but not seated",
                                      where=f"position {pos}", clause="SETUP-1",
                                      code="colour-not-seated", colour=occ.colour.value,
                                      position=list(pos))
            if isinstance(occ, AttackCard):
                has_cards = True
                counts[(occ.colour, occ.kind)] += 1
                owned = owned_copies[int(occ.kind)]
                if counts[(occ.colour, occ.kind)] > owned:
                    clause = ("VAR-2" if self.rules.no_scouts and occ.kind is AttackKind.SCOUT_SHIP
                              else "SETUP-4" if n == 2 and occ.kind is AttackKind.SCOUT_SHIP
                              else "SETUP-1")
                    raise InvalidSituation(
                        f"{occ.colour.value} owns {owned} card(s) [{int(occ.kind)}] but the board "
                        f"holds more", where=f"position {pos}", clause=clause,
                        code="too-many-cards", colour=occ.colour.value, value=int(occ.kind),
                        owned=owned, position=list(pos))
            else:
                has_dice = True
                dice_cards[occ.colour] += 1
                if dice_cards[occ.colour] > DICE_PER_PLAYER // 2:
                    raise InvalidSituation(
                        f"{occ.colour.value} has {DICE_PER_PLAYER} dice, enough for "
                        f"{DICE_PER_PLAYER // 2} cards, but dice lie on more",
                        where=f"position {pos}", clause="SETUP-1", code="too-many-dice",
                        colour=occ.colour.value, position=list(pos))
        if has_cards and has_dice:
            raise InvalidSituation("dice and attack cards lie on the board together; Battle Time "
                                  "begins only when no dice remain", where="board", field="board",
                                  clause="SET-3", code="dice-and-cards")
