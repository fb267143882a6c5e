"""Readable transcripts of seeded games (golden playthroughs reviewed as diffs).

The transcript is plain English for developers: it is a test artefact, not product
text (the site words events through its translated templates).
"""

from __future__ import annotations

from pathlib import Path

from ..game import Claim, GameState, PlaceAttackCard, RingBell, RingStartBell, Roll
from ..model import AttackKind, Board, Colour
from ..situation import Mode, RuleSet
from .players import POLICIES, play_game

_COLS = "ABCDEFGHIJKL"


def _label(pos) -> str:
    return f"{_COLS[pos[1]]}{pos[0] + 1}"


_KIND_NAMES = {AttackKind.HOSTAGE_GAMBIT: "Hostage Gambit", AttackKind.BOARDING_MELEE: "Boarding Melee",
               AttackKind.BROADSIDE: "Broadside", AttackKind.CANNON: "Cannon",
               AttackKind.KRAKENS_WRATH: "Kraken's Wrath", AttackKind.SCOUT_SHIP: "Scout Ship"}


def _faces(dice) -> str:
    return " ".join(str(d) for d in dice) or "-"


def draw(board: Board) -> list[str]:
    """The board as text: one line per row, ``35:b1`` style cells, ``--`` for gaps."""
    width = max(len(r) for r in board.rows)
    lines = ["     " + " ".join(f"{_COLS[c]:<5}" for c in range(width)).rstrip()]
    for r, row in enumerate(board.rows):
        lines.append(f"  {r + 1:>2} " + " ".join(f"{cell.token:<5}" for cell in row).rstrip())
    return lines


def transcript(players: int, seed: int, mode: Mode = Mode.ACTION, policy: str = "greedy") -> str:
    """Play one seeded game with computer players and describe it round by round."""
    colours = tuple(Colour)[:players]
    out: list[str] = [f"Captain Dice transcript: {players} players "
                      f"({', '.join(c.value for c in colours)}), {mode.value} mode, "
                      f"{policy} players, seed {seed}", ""]
    rolls: dict[Colour, int] = {}

    def on_step(before: GameState, action, after: GameState) -> None:
        out.extend(_action_lines(before, action, after, rolls))
        if before.phase.value == "dice" and after.phase.value != "dice":
            if any(e.code == "dice.stuck" for e in after.log):
                out.append("  nobody can place any more: Dice Time ends (INT-6)")
            out.append("  re-rolls: " + (", ".join(f"{c.value} {n}" for c, n in rolls.items())
                                         or "none"))
        if isinstance(action, PlaceAttackCard):
            out.append(f"  {action.player.value} places a card on {_label(action.position)} "
                       f"([{int(action.kind)}] {_KIND_NAMES[action.kind]})")
        record = after.last_round
        if record is not None and record is not before.last_round:
            out.extend(_round_lines(record, after))

    final = play_game(colours, {c: POLICIES[policy] for c in colours}, seed=seed,
                      rules=RuleSet(mode=mode), on_step=on_step)
    standings, winner = final.standings()
    out.append(f"Game over after {final.round} rounds; {final.board.treasure_count()} cards "
               "left on the board.")
    for s in standings:
        out.append(f"  {s.player.value}: {s.cards} cards, {s.doubles} doubles")
    out.append(f"Winner: {winner.value if winner else 'tied (the players settle it, END-3)'}")
    return "\n".join(out) + "\n"


def _action_lines(before: GameState, action, after: GameState, rolls: dict[Colour, int]) -> list[str]:
    """Dice Time, one action: the start bell (with the board), a re-roll, a claim, a bell.
    ``rolls`` counts re-rolls per player this round (reset by the start bell)."""
    who = action.player.value
    if isinstance(action, RingStartBell):
        lines = [f"Round {before.round}: start player {before.start_player.value}; "
                 f"deck {len(before.deck)}", *draw(before.board)]
        if before.rules.mode is Mode.STRATEGY:  # no bell in strategy mode (STRAT-1)
            lines.append(f"  {who} begins Dice Time; everyone rolls.")
        else:
            lines.append(f"  {who} rings the start bell; everyone rolls.")
        lines.append("    rolled: " + ", ".join(
            f"{p.colour.value} {_faces(p.dice)}" for p in after.players))
        rolls.clear()
        return lines
    if isinstance(action, Roll):
        rolls[action.player] = rolls.get(action.player, 0) + 1
        hand = _faces(after.player(action.player).dice)
        if action.dice is None:
            return [f"    {who} re-rolls all: {hand}"]
        return [f"    {who} re-rolls {_faces(action.dice)}: {hand}"]
    if isinstance(action, Claim):
        cell = before.board.at(action.position)
        return [f"  {who} claims {_label(action.position)} ({cell.treasure})"]
    if isinstance(action, RingBell):
        if after.phase is before.phase:
            return [f"  {who} rings a false bell (DICE-6)"]
        return [f"  {who} rings the bell and becomes start player"]
    return []


def _round_lines(record, after: GameState) -> list[str]:
    """Battle Time and Treasure Time of a round just played, and the totals."""
    lines = ["  Battle Time:"]
    for step in record.battle.turns:
        card = f"{step.card.colour.value} [{int(step.card.kind)}] at {_label(step.position)}"
        if step.outcome.value == "removed-before":
            lines.append(f"    {card}: removed before its turn")
        elif step.removed:
            lines.append(f"    {card}: removes {', '.join(_label(p) for p in step.removed)}")
        elif step.card.kind not in (AttackKind.HOSTAGE_GAMBIT, AttackKind.SCOUT_SHIP):
            lines.append(f"    {card}: hits nothing")
    lines.append("  Treasure Time:")
    treasure = record.treasure
    for colour in treasure.order:
        won = treasure.winnings[colour]
        lines.append(f"    {colour.value} wins {len(won)}"
                     + (f": {', '.join(_label(p) for p in won)}" if won else ""))
    if treasure.other_reading is not None:
        other = treasure.other_reading
        lines.append("    (the other INT-1 reading would give: "
                     + ", ".join(f"{c.value} {len(other[c])}" for c in treasure.order) + ")")
    for e in after.log:
        if e.code == "round.rearrange":
            lines.append(f"  deck short: {e.params['cards']} cards rearranged into "
                         f"{e.params['rows']} rows of up to {e.params['columns']}")
    totals = ", ".join(f"{p.colour.value} {len(p.won)}" for p in after.players)
    lines.extend([f"  totals: {totals}", ""])
    return lines


#: The golden playthroughs kept in tests/golden/: (players, seed, mode, policy).
GOLDEN_GAMES = (
    (4, 1, Mode.ACTION, "greedy"),
    (3, 2, Mode.ACTION, "random"),
    (2, 3, Mode.ACTION, "greedy"),
    (4, 4, Mode.STRATEGY, "greedy"),
)


def golden_name(players: int, seed: int, mode: Mode, policy: str) -> str:
    """File name of a golden transcript, e.g. ``4p-action-greedy-seed1.txt``."""
    return f"{players}p-{mode.value}-{policy}-seed{seed}.txt"


def write_golden(directory) -> list[str]:
    """(Re)write every golden transcript into ``directory``; returns the file names."""

    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for players, seed, mode, policy in GOLDEN_GAMES:
        name = golden_name(players, seed, mode, policy)
        (folder / name).write_text(transcript(players, seed, mode, policy), encoding="utf-8")
        names.append(name)
    return names
