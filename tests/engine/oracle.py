"""A slow, plain reference for the rules, written from RULES.md without the engine's
bit masks, memo tables or shared helpers (imported as ``oracle``; tests/ has no packages).

Only the values (board, seating, rule set) come from the engine; every rule is written
again here as directly as the text states it, so that the property tests compare two
independent readings.
"""

from __future__ import annotations

from captain.rules import (
    AttackCard,
    BellRule,
    Board,
    Collection,
    Colour,
    Dice,
    Mode,
    RuleSet,
    Seating,
    SpeedOrder,
)

Pos = tuple[int, int]


def _positions(board: Board) -> set[Pos]:
    return {(r, c) for r, row in enumerate(board.rows) for c in range(len(row))}


def _line_through(board: Board, pos: Pos, dr: int, dc: int) -> list[Pos]:
    """The whole lattice line through ``pos`` in direction (dr, dc), inside the bounding
    rectangle, keeping only positions that exist, in walking order."""
    n_rows = len(board.rows)
    n_cols = max(len(r) for r in board.rows)
    r, c = pos
    while 0 <= r - dr < n_rows and 0 <= c - dc < n_cols:
        r, c = r - dr, c - dc
    out = []
    positions = _positions(board)
    while 0 <= r < n_rows and 0 <= c < n_cols:
        if (r, c) in positions:
            out.append((r, c))
        r, c = r + dr, c + dc
    return out


def reach(board: Board, pos: Pos, value: int) -> set[Pos]:
    """BAT-4 ranges, BAT-5: positions of the grid."""
    positions = _positions(board)
    r, c = pos
    if value == 1:
        found = {(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)} & positions
    elif value == 2:
        found = {x for x in positions if x[0] == r}
    elif value == 3:
        found = {x for x in positions if x[1] == c}
    elif value == 4:
        found = {x for x in positions if abs(x[0] - r) == abs(x[1] - c)}
    else:
        found = set()
    return found - {pos}


def turn_order(board: Board, seating: Seating, rules: RuleSet) -> list[Pos]:
    """BAT-1, BAT-2, VAR-1: the positions of the cards in the order they take their turns."""
    cards = {(r, c): cell.card for r, row in enumerate(board.rows) for c, cell in enumerate(row)
             if cell.card is not None}
    speeds = [0, 5, 4, 3, 2, 1] if rules.speed_order is SpeedOrder.REVERSED else [0, 1, 2, 3, 4, 5]
    seats = list(seating.players)
    start = seats.index(seating.start_player)
    clockwise = seats[start:] + seats[:start]
    return [pos for speed in speeds for colour in clockwise for pos in sorted(cards)
            if cards[pos].colour == colour and int(cards[pos].kind) == speed]


def battle_in_order(board: Board, order: list[Pos]
                    ) -> tuple[list[tuple[Pos, list[Pos]]], dict[Pos, AttackCard]]:
    """BAT-3, BAT-4 for the cards in ``order``: ``(removals, survivors)``."""
    cards = {pos: board.rows[pos[0]][pos[1]].card for pos in order}
    alive = dict(cards)
    removals = []
    for pos in order:
        card = cards[pos]
        if pos not in alive:
            continue  # BAT-3
        hit = sorted(x for x in reach(board, pos, int(card.kind))
                     if x in alive and alive[x].colour != card.colour and int(alive[x].kind) != 0)
        for x in hit:
            del alive[x]
        if hit:
            removals.append((pos, hit))
    return removals, alive


def battle(board: Board, seating: Seating, rules: RuleSet
           ) -> tuple[list[tuple[Pos, list[Pos]]], dict[Pos, AttackCard]]:
    """BAT-1..4 and VAR-1: ``(removals as (acting pos, removed positions)), survivors``."""
    return battle_in_order(board, turn_order(board, seating, rules))


def ties_that_matter(board: Board, seating: Seating, rules: RuleSet) -> set[tuple[Pos, Pos]]:
    """(earlier, later) positions of tied cards (same speed 1-4, different colours) for which
    exchanging their turns changes what one does to the other."""
    order = turn_order(board, seating, rules)
    cards = {pos: board.rows[pos[0]][pos[1]].card for pos in order}

    def hits(order_, a, b) -> tuple[bool, bool]:
        removals, _ = battle_in_order(board, order_)
        done = {by: set(gone) for by, gone in removals}
        return (b in done.get(a, ()), a in done.get(b, ()))

    found = set()
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            ca, cb = cards[a], cards[b]
            if ca.kind != cb.kind or ca.colour == cb.colour or int(ca.kind) in (0, 5):
                continue
            swapped = list(order)
            ia, ib = swapped.index(a), swapped.index(b)
            swapped[ia], swapped[ib] = b, a
            if hits(order, a, b) != hits(swapped, b, a)[::-1]:
                found.add((a, b))
    return found


def treasure(board_after_battle: Board, seating: Seating, reading: Collection,
             gaps_break: bool = False) -> dict[Colour, set[Pos]]:
    """TRE-1..3 with INT-1 (both readings) and INT-2 (or, ``gaps_break``, its other
    reading: a position without a treasure card, or off the grid, breaks a sandwich)."""
    seats = list(seating.players)
    start = seats.index(seating.start_player)
    clockwise = seats[start:] + seats[:start]
    has_treasure = {(r, c) for r, row in enumerate(board_after_battle.rows)
                    for c, cell in enumerate(row) if cell.treasure is not None}
    cards = {(r, c): cell.card.colour for r, row in enumerate(board_after_battle.rows)
             for c, cell in enumerate(row) if cell.card is not None}
    on_board = dict(cards)
    taken: dict[Pos, Colour] = {}
    won: dict[Colour, set[Pos]] = {c: set() for c in seats}
    for colour in clockwise:
        look = on_board if reading is Collection.SEQUENTIAL else cards
        mine = sorted(x for x, c in look.items() if c == colour)
        for x in mine:
            won[colour].add(x)
            taken[x] = colour
        for i, a in enumerate(mine):
            for b in mine[i + 1:]:
                dr, dc = b[0] - a[0], b[1] - a[1]
                if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
                    continue
                steps = max(abs(dr), abs(dc))
                sr, sc = dr // steps, dc // steps
                between = [(a[0] + sr * k, a[1] + sc * k) for k in range(1, steps)]
                if any(x in look for x in between):  # own card (shorter pair) or a blocker
                    continue
                if gaps_break and any(x not in has_treasure for x in between):
                    continue
                for x in between:
                    if x in has_treasure and x not in taken:
                        taken[x] = colour
                        won[colour].add(x)
        if reading is Collection.SEQUENTIAL:
            on_board = {x: c for x, c in on_board.items() if c != colour}
    return won


def bell(board: Board, seating: Seating, rules: RuleSet, full_only: bool = False) -> bool:
    """DICE-4, DICE-5, STRAT-3, VAR-3, VAR-4 with INT-3 (or, ``full_only``, its other
    reading: only rows, columns and diagonals spanning the whole grid count)."""
    dice = {(r, c): cell.occupant.colour for r, row in enumerate(board.rows)
            for c, cell in enumerate(row) if isinstance(cell.occupant, Dice)}
    has_treasure = {(r, c) for r, row in enumerate(board.rows) for c, cell in enumerate(row)
                    if cell.treasure is not None}
    n_rows = len(board.rows)
    n_cols = max(len(r) for r in board.rows)
    lines = set()
    for pos in _positions(board):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            if full_only and _lattice_length(n_rows, n_cols, pos, dr, dc) != (
                    n_cols if (dr, dc) == (0, 1) else n_rows if (dr, dc) == (1, 0)
                    else min(n_rows, n_cols)):
                continue
            line = tuple(x for x in _line_through(board, pos, dr, dc) if x in has_treasure)
            if len(line) >= 3:
                lines.add(line)
    if rules.mode is Mode.STRATEGY:
        return any(all(x in dice for x in line) for line in lines)
    if rules.bell is BellRule.ALL_DICE:
        return any(sum(1 for c in dice.values() if c == colour) >= 3 for colour in seating.players)
    if len(seating.players) == 2 or rules.bell is BellRule.FIRST_EDITION:
        return len(dice) >= 3
    return any(sum(1 for x in line if x in dice) >= 3 for line in lines)


def _lattice_length(n_rows: int, n_cols: int, pos: Pos, dr: int, dc: int) -> int:
    """How many places of the bounding rectangle the line through ``pos`` crosses."""
    r, c = pos
    while 0 <= r - dr < n_rows and 0 <= c - dc < n_cols:
        r, c = r - dr, c - dc
    n = 0
    while 0 <= r < n_rows and 0 <= c < n_cols:
        n += 1
        r, c = r + dr, c + dc
    return n
