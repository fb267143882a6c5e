"""The position editor behind "What happens here?": edits, tools and what-ifs.

Every edit takes a :class:`~captain.rules.Situation` and returns a new one, or raises
:class:`~captain.rules.RulesError` saying why the rules do not allow it (the view
shows :func:`tutorials.wording.problems.describe` of it and keeps the old position). The
position always travels as notation (``?pos=…``), so every state is a link.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, replace

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from captain.rules import (
    FULL_DECK,
    AttackCard,
    AttackKind,
    Board,
    Cell,
    Colour,
    Dice,
    InvalidInput,
    InvalidSituation,
    Position,
    RuleSet,
    Seating,
    Situation,
    Treasure,
    notation,
    solve,
)
from captain.rules.situation import BellRule, Collection, Mode, SpeedOrder
from captain.rules.typed import normalize_mapped, normalize_typed
from tutorials.wording.glossary import CARD_NAMES, COLOUR_NAMES, position_label
from tutorials.wording.phrases import card_phrase

#: The position a fresh analyzer opens with: the tutorial's practice grid, four players.
DEFAULT_NOTATION = ("Rbgw_12.35.44.26-15.33.24.56-11.46.23.13-34.66.25.14")
MAX_SIDE = 6


# --- tools -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tool:
    """What a click on a board position does.

    ``kind``: ``card`` (colour + value), ``dice`` (colour), ``erase``, ``gap``
    (toggle a position without treasure card) or ``faces`` (set the treasure faces).
    """

    kind: str
    colour: Colour = Colour.RED
    value: int = 5
    faces: Treasure = Treasure(1, 1)

    @classmethod
    def parse(cls, text: str) -> Tool:
        """``r1`` card, ``R`` dice, ``e`` erase, ``x`` gap, ``t35`` faces; ``""`` = red [5].

        Raises :class:`InvalidInput` (code ``bad-tool``) for anything else.
        """
        if text == "":
            return cls("card")
        if text == "e":
            return cls("erase")
        if text == "x":
            return cls("gap")
        if re.fullmatch(r"t[1-6][1-6]", text) and text[1] <= text[2]:
            return cls("faces", faces=Treasure.parse(text[1:]))
        if re.fullmatch(r"[RBGW]", text):
            return cls("dice", Colour.from_letter(text))
        if re.fullmatch(r"[rbgw][0-5]", text):
            return cls("card", Colour.from_letter(text[0]), int(text[1]))
        raise InvalidInput(f"unknown tool {text[:20]!r}", code="bad-tool")

    @property
    def code(self) -> str:
        if self.kind == "erase":
            return "e"
        if self.kind == "gap":
            return "x"
        if self.kind == "faces":
            return f"t{self.faces}"
        if self.kind == "dice":
            return self.colour.letter.upper()
        return f"{self.colour.letter}{self.value}"

    def with_colour(self, colour: Colour) -> Tool:
        kind = self.kind if self.kind in ("card", "dice") else "card"
        return replace(self, kind=kind, colour=colour)

    def with_value(self, value: int) -> Tool:
        return replace(self, kind="card", value=value)

    def as_dice(self) -> Tool:
        return replace(self, kind="dice")

    def describe(self) -> str:
        if self.kind == "erase":
            return _("Remove a card or dice")
        if self.kind == "gap":
            return _("Position without a treasure card (or back)")
        if self.kind == "faces":
            return _("Set treasure card %(faces)s") % {"faces": f"{self.faces.low}–{self.faces.high}"}
        if self.kind == "dice":
            return _("%(colour)s dice") % {"colour": COLOUR_NAMES[self.colour]}
        return _("%(colour)s [%(value)s] %(name)s") % {
            "colour": COLOUR_NAMES[self.colour], "value": self.value,
            "name": CARD_NAMES[AttackKind(self.value)]}


# --- edits -----------------------------------------------------------------------------------
def _fresh_faces(board: Board, won: dict, count: int, rng: random.Random) -> list[Treasure]:
    """``count`` treasure faces that keep every kind at most twice (SETUP-2)."""

    used = Counter(cell.treasure for _, cell in board if cell.treasure)
    for cards in won.values():
        used.update(cards)
    pool = []
    for t in FULL_DECK:
        if used[t] > 0:
            used[t] -= 1
        else:
            pool.append(t)
    rng.shuffle(pool)
    if len(pool) < count:
        raise InvalidSituation("no treasure cards left to lay out", code="too-many-treasures",
                              clause="SETUP-2", total=42 + count - len(pool), limit=42)
    return pool[:count]


def put(situation: Situation, pos: Position, tool: Tool) -> Situation:
    """Apply ``tool`` at ``pos``. Placing what is already there takes it off again."""
    board = situation.board
    cell = board.at(pos)
    if tool.kind == "erase":
        new = board.with_occupant(pos, None)
    elif tool.kind == "gap":
        if cell.treasure is None:
            faces = _fresh_faces(board, dict(situation.won), 1, random.Random(pos.row * 31 + pos.col))
            new = board.with_cell(pos, Cell(faces[0]))
        else:
            new = board.with_cell(pos, Cell(None))
    elif tool.kind == "faces":
        new = board.with_cell(pos, Cell(tool.faces, cell.occupant))
    else:
        if tool.colour not in situation.players:
            raise InvalidSituation(f"{tool.colour.value} is not seated", code="colour-not-seated",
                                  colour=tool.colour.value, position=list(pos))
        occupant = (Dice(tool.colour) if tool.kind == "dice"
                    else AttackCard(tool.colour, AttackKind(tool.value)))
        if cell.treasure is None:
            raise InvalidSituation("no treasure card here", code="occupant-without-treasure",
                                  position=list(pos))
        new = board.with_occupant(pos, None if cell.occupant == occupant else occupant)
    return replace(situation, board=new).validate()


def resize(situation: Situation, rows: int, cols: int) -> Situation:
    """Change the board to ``rows`` × ``cols`` (1-6 each), keeping what fits."""
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InvalidInput("board sides run from 1 to 6", code="bad-size")
    old = situation.board
    keep = {p: cell for p, cell in old if p.row < rows and p.col < cols}
    missing = [Position(r, c) for r in range(rows) for c in range(cols) if Position(r, c) not in keep]
    kept_board = Board.from_cells(keep, (rows, cols)) if keep else Board(((Cell(),),))
    faces = _fresh_faces(kept_board, dict(situation.won), len(missing), random.Random(rows * 7 + cols))
    for p, t in zip(missing, faces, strict=True):
        keep[p] = Cell(t)
    return replace(situation, board=Board.from_cells(keep, (rows, cols))).validate()


def shuffle_faces(situation: Situation, rng: random.Random) -> Situation:
    """New random faces for every treasure card; gaps and occupants stay."""
    empty = Board(tuple(tuple(Cell() for _ in row) for row in situation.board.rows))
    positions = [p for p, cell in situation.board if cell.treasure is not None]
    faces = _fresh_faces(empty, dict(situation.won), len(positions), rng)
    board = situation.board
    for p, t in zip(positions, faces, strict=True):
        board = board.with_cell(p, Cell(t, board.at(p).occupant))
    return replace(situation, board=board).validate()


def toggle_seat(situation: Situation, colour: Colour) -> Situation:
    """Seat ``colour`` (clockwise after the others) or unseat it and take its pieces off."""
    players = list(situation.players)
    if colour in players:
        players.remove(colour)
        board = situation.board.without(p for p, cell in situation.board
                                        if cell.occupant is not None and cell.occupant.colour == colour)
        start = situation.seating.start_player
        if start == colour and players:
            start = players[0]
        won = {c: w for c, w in situation.won.items() if c != colour}
        return Situation(board, Seating(tuple(players), start), situation.rules, situation.deck,
                         won).validate()
    players.append(colour)
    return replace(situation, seating=Seating(tuple(players), situation.seating.start_player)).validate()


def set_start(situation: Situation, colour: Colour) -> Situation:
    """Make ``colour`` the start player."""
    return replace(situation, seating=Seating(situation.players, colour)).validate()


def toggle_rule(rules: RuleSet, flag: str) -> RuleSet:
    """Switch one rule flag (the notation's letters) on or off."""
    if flag == "v1":
        return replace(rules, speed_order=SpeedOrder.ASCENDING
                       if rules.speed_order is SpeedOrder.REVERSED else SpeedOrder.REVERSED)
    if flag == "v2":
        return replace(rules, no_scouts=not rules.no_scouts)
    if flag == "v3":
        return replace(rules, bell=BellRule.LINE if rules.bell is BellRule.ALL_DICE else BellRule.ALL_DICE)
    if flag == "v4":
        return replace(rules, bell=BellRule.LINE if rules.bell is BellRule.FIRST_EDITION
                       else BellRule.FIRST_EDITION)
    if flag == "s":
        strategy = rules.mode is Mode.STRATEGY
        return replace(rules, mode=Mode.ACTION if strategy else Mode.STRATEGY,
                       place_after_reroll=False)
    if flag == "p":
        return replace(rules, mode=Mode.STRATEGY, place_after_reroll=not rules.place_after_reroll)
    if flag == "i":
        return replace(rules, collection=Collection.SEQUENTIAL
                       if rules.collection is Collection.SIMULTANEOUS else Collection.SIMULTANEOUS)
    raise InvalidInput(f"unknown rule flag {flag!r}", code="bad-rule", flag=flag)


def with_rules(situation: Situation, rules: RuleSet) -> Situation:
    return replace(situation, rules=rules).validate()


def set_deck(situation: Situation, text: str) -> Situation:
    """``""`` or ``"none"``: deck unknown; else a whole number 0-42 (read as every typed
    text, :func:`~captain.rules.typed.normalize_typed`: ``４２`` is 42)."""
    text = normalize_typed(text, where="deck")
    if text in ("", "none"):
        return replace(situation, deck=None)
    if not re.fullmatch(r"[0-9]{1,2}", text) or int(text) > 42:
        raise InvalidInput("deck must be a whole number from 0 to 42", code="bad-deck")
    return replace(situation, deck=int(text)).validate()


#: The faces in the example of the "cards won earlier" field: the first seated player won
#: 11 and 66, the second 22 and 35 (four different cards, each in the deck twice, SETUP-2).
WON_EXAMPLE_FACES = ("11", "66", "22", "35")


def won_example(situation: Situation) -> str:
    """An example for the "cards won earlier" field that this table can use: the first two
    seated colours with :data:`WON_EXAMPLE_FACES` (``g1166.w2235``)."""
    first, second = situation.players[:2]
    a, b, c, d = WON_EXAMPLE_FACES
    return f"{first.letter}{a}{b}.{second.letter}{c}{d}"


def _smaller_face_first(digits: str) -> str:
    """``"2165"`` -> ``"1256"``: each pair of faces 1-6 with the smaller first; anything else
    (a 7, an odd digit at the end) stays where it is, for the reader to point at."""
    pairs = [digits[i:i + 2] for i in range(0, len(digits), 2)]
    return "".join(p[::-1] if len(p) == 2 and "1" <= p[1] < p[0] <= "6" else p for p in pairs)


def normalise_won(text: str) -> str:
    """The cards-won text as the notation writes it, forgiving what a person types:
    colour letters in any case (``R1166``), either face first (``r21``). Every character
    keeps its place, so the reader's offsets still point into what was typed."""
    lowered = re.sub(r"[A-Z]", lambda m: m.group().lower(), text)
    return re.sub(r"[0-9]+", lambda m: _smaller_face_first(m.group()), lowered)


def set_won(situation: Situation, text: str) -> Situation:
    """Cards won earlier, in the notation's won syntax (``r1166.b22``; see
    :func:`normalise_won` for what else is read, after
    :func:`~captain.rules.typed.normalize_typed`); empty clears."""
    clean, origin = normalize_mapped(text, where="won")
    if not clean:
        return replace(situation, won={})
    try:
        won = notation.parse_won(normalise_won(clean), situation.players)
    except notation.NotationError as exc:  # said as a problem of this field, not of a notation
        exc.code = "bad-won-text"
        # count in what was typed
        exc.offset = origin[exc.offset] if exc.offset < len(origin) else origin[-1] + 1
        exc.params["offset"] = exc.offset
        raise
    return replace(situation, won=won).validate()


def won_text(situation: Situation) -> str:
    """The won cards in the notation's won syntax (``r1166.b22``)."""
    return ".".join(c.letter + "".join(str(t) for t in situation.won[c])
                    for c in situation.players if c in situation.won)


def clear(situation: Situation) -> Situation:
    """Take every attack card and die off the board."""
    return replace(situation, board=situation.board.without(situation.board.positions()))


# --- what if ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class WhatIf:
    """One alternative: its label, its notation, and how the outcome changes."""

    label: str
    notation: str
    changes: tuple[str, ...]


def _outcome_counts(situation: Situation) -> tuple[dict[Colour, int], frozenset, bool | None]:
    sol = solve(situation)
    won = {c: len(ps) for c, ps in sol.treasure.winnings.items()} if sol.treasure else {}
    survivors = (frozenset((p, c.token) for p, c in sol.battle.survivors.items()) if sol.battle
                 else frozenset())
    return won, survivors, sol.bell.may_ring if sol.bell else None


def _count_change(colour: Colour, before: int, after: int) -> str:
    """``red: 3 → 1 card`` (the noun agrees with the number shown last)."""
    return ngettext("%(colour)s: %(before)s → %(after)s card", "%(colour)s: %(before)s → %(after)s cards",
                    after) % {"colour": COLOUR_NAMES[colour], "before": before, "after": after}


#: How many "another card here" alternatives the what-if panel offers at most.
MAX_CARD_WHAT_IFS = 6


def _card_what_ifs(situation: Situation, base_won: dict, base_survivors: frozenset) -> list[WhatIf]:
    """One card's value changed: the alternatives that change who wins most, best first.
    Only those shown are worded (label, notation, changes)."""
    found = []
    for pos, card in sorted(situation.board.cards().items()):
        for kind in AttackKind:
            if kind is card.kind:
                continue
            new = AttackCard(card.colour, kind)
            alt = replace(situation, board=situation.board.with_occupant(pos, new))
            if not alt.allowed():  # most are: the colour already holds all its cards of that value
                continue
            try:
                won, survivors, _bell = _outcome_counts(alt)
            except (InvalidInput, InvalidSituation):
                continue
            swing = sum(abs(won.get(c, 0) - base_won.get(c, 0)) for c in situation.players)
            if swing:
                found.append((-swing, pos, int(kind), card, new, alt, won))
    found.sort(key=lambda item: item[:3])
    return [_card_what_if(situation, base_won, *item[1:]) for item in found[:MAX_CARD_WHAT_IFS]]


def _card_what_if(situation: Situation, base_won: dict, pos, _kind: int, card: AttackCard,
                  new: AttackCard, alt: Situation, won: dict) -> WhatIf:
    """The what-if of ``card`` at ``pos`` replaced by ``new`` (``alt``, whose treasure is ``won``)."""
    changes = tuple(_count_change(c, base_won.get(c, 0), won.get(c, 0))
                    for c in situation.players if won.get(c, 0) != base_won.get(c, 0))
    label = _("%(card)s at %(pos)s instead of [%(old)s]") % {
        "card": card_phrase(new.token), "pos": position_label(pos), "old": int(card.kind)}
    return WhatIf(label, alt.to_notation(), changes)


def what_ifs(situation: Situation) -> list[WhatIf]:
    """Alternatives one click away: another start player, reversed speed (VAR-1), the
    other INT-1 reading, for the bell the other bell rules, and the card changes that
    swing the treasure most (up to :data:`MAX_CARD_WHAT_IFS`); each with what changes."""
    board = situation.board
    if not board.cards() and not board.dice():
        return []
    base_won, base_survivors, base_bell = _outcome_counts(situation)
    out = []
    for label, alt in _other_seatings_and_rules(situation):
        try:
            won, survivors, bell = _outcome_counts(alt.validate())
        except (InvalidInput, InvalidSituation):
            continue
        changes = []
        for colour in situation.players:
            if won.get(colour, 0) != base_won.get(colour, 0):
                changes.append(_count_change(colour, base_won.get(colour, 0), won.get(colour, 0)))
        if survivors != base_survivors and not changes:
            changes.append(_("Other cards survive Battle Time, same treasure."))
        if bell is not None and bell != base_bell:
            if alt.rules.mode is Mode.STRATEGY:  # no bell in strategy mode (STRAT-1, STRAT-3)
                changes.append(_("Dice Time is over.") if bell else _("Dice Time goes on."))
            else:
                changes.append(_("The bell may ring.") if bell else _("The bell may not ring yet."))
        if not changes:
            changes.append(_("No change."))
        out.append(WhatIf(label, alt.to_notation(), tuple(changes)))
    out.extend(_card_what_ifs(situation, base_won, base_survivors))
    return out


def _other_seatings_and_rules(situation: Situation) -> list[tuple[str, Situation]]:
    """(label, situation): each other start player, and the rules that could change the
    answer (VAR-1 and INT-1 for cards; the mode and VAR-4 for dice)."""
    board = situation.board
    options: list[tuple[str, Situation]] = []
    for colour in situation.players if board.cards() else ():  # the bell ignores seats
        if colour != situation.seating.start_player:
            options.append((_("%(colour)s as start player") % {"colour": COLOUR_NAMES[colour]},
                            replace(situation, seating=Seating(situation.players, colour))))
    rules = situation.rules
    if board.cards():
        options.append((_("Reversed speed order (variant)") if rules.speed_order is SpeedOrder.ASCENDING
                        else _("Normal speed order"), replace(situation, rules=toggle_rule(rules, "v1"))))
        options.append((_("Judge all sandwiches at once (other reading)")
                        if rules.collection is Collection.SEQUENTIAL
                        else _("Collect one player after another"),
                        replace(situation, rules=toggle_rule(rules, "i"))))
    if board.dice():
        options.append((_("Strategy mode") if rules.mode is Mode.ACTION else _("Action mode"),
                        replace(situation, rules=toggle_rule(rules, "s"))))
        if rules.mode is Mode.ACTION and len(situation.players) > 2:
            options.append((_("First-edition bell rule") if rules.bell is not BellRule.FIRST_EDITION
                            else _("Current bell rule"),
                            replace(situation, rules=toggle_rule(rules, "v4"))))
    return options
