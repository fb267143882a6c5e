"""Graded hints on the game page: first where to look, then the move the strong
captain would make and why, in one sentence built from facts the learner can see.

How a hint avoids hidden information
------------------------------------
The move comes from the strong captain's policy
(:class:`~captain.rules.captains.strengths.StrongCaptain`), run **from the learner's seat**
on a state re-drawn by :func:`~captain.rules.game.view.determinize`: the deck, the box,
the captains' hands, their face-down cards and the seed of future rolls are replaced by
values drawn from what the learner may know. The random generator is seeded from the
game's id and version only (public), so a hint is stable between grade 1 and grade 2 and
two states the learner cannot tell apart get the same hint.

The reason is not read from the re-drawn state either: it is built from public facts of
the real board only — positions, treasure faces, whose dice lie where, whose face-down
cards lie where (never their values), the learner's own dice and hand — with the clause
that makes the fact matter. When no such fact explains the choice, the sentence says what
the captain did: played the round out on boards re-drawn from what the learner sees.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from captain.rules import Colour, Position
from captain.rules.captains.strengths import StrongCaptain
from captain.rules.game import Claim, Pass, PlaceAttackCard, RingStartBell, Roll, legal_actions
from captain.rules.game.view import determinize
from captain.rules.model import AttackKind, cell_of
from captain.rules.resolve.bell import bell_lines, may_ring
from captain.rules.situation import Mode
from tutorials.wording.events import short_line
from tutorials.wording.phrases import list_join
from tutorials.wording.glossary import card_label, position_label


@dataclass(frozen=True)
class Hint:
    """One grade of a hint: its sentence and the clauses it cites."""

    level: int
    text: str
    clauses: tuple[str, ...]


def hint_level(raw: str | None) -> int:
    """The grade asked for (``?hint=1`` / ``?hint=2``); 0 for none."""
    return int(raw) if raw in ("1", "2") else 0


def strong_move(practice, code: str, version: int):
    """The strong captain's choice for the learner, decided on a re-drawn state (see the
    module docstring), or ``None`` when the learner has nothing to decide."""
    state, learner = practice.state, practice.learner
    if state.is_over or not legal_actions(state, learner):
        return None
    rng = random.Random(f"hint:{code}:{version}")
    view = determinize(state, learner, rng)
    own = legal_actions(view, learner)
    if not own:
        return None
    return StrongCaptain().decide(view, learner, own, rng)


def _labels(positions) -> str:
    return list_join(position_label(p) for p in positions)


def _on(pos: Position, what) -> dict:
    return {"cell": position_label(pos), "low": what.low, "high": what.high}


class SeatFacts:
    """Public facts of the real board from the learner's seat."""

    def __init__(self, state, learner: Colour) -> None:
        self.state, self.learner, self.board = state, learner, state.board
        self.g = self.board.geometry

    def owner(self, pos: Position) -> Colour | None:
        cell = self.board.at(pos)
        if cell.card is not None:
            return cell.card.colour
        if cell.dice is not None:
            return cell.dice.colour
        return None

    def sandwich(self, pos: Position) -> tuple[Position, list[Position]] | None:
        """Another position of the learner's (dice or card) on one line with ``pos``, with
        treasure cards strictly between and no other player's dice or card between
        (TRE-2): the partner and the positions the sandwich would add (free treasure cards:
        a card under the learner's own dice or card is theirs anyway, TRE-1)."""
        for line in self.g.lines:
            if pos not in line:
                continue
            i = line.index(pos)
            for j, other in enumerate(line):
                if j == i or self.owner(other) is not self.learner:
                    continue
                between = line[min(i, j) + 1:max(i, j)]
                if any(self.owner(b) not in (None, self.learner) for b in between):
                    continue
                cards = [b for b in between
                         if self.owner(b) is None and self.board.at(b).treasure is not None]
                if cards:
                    return other, cards
        return None

    def fills_line(self, pos: Position) -> tuple[Position, ...] | None:
        """The bell line (INT-3) that a pair on ``pos`` would fill (STRAT-3)."""
        if self.state.rules.mode is not Mode.STRATEGY:
            return None
        board = self.board.with_cell(pos, _with_dice(self.board.at(pos), self.learner))
        if not may_ring(board, self.state.seating, self.state.rules):
            return None
        for line in bell_lines(board):
            if pos in line and all(board.at(p).dice is not None or board.at(p).card is not None
                                   for p in line):
                return line
        return None

    def in_reach(self, pos: Position, kind: AttackKind) -> list[Position]:
        """Other players' dice or cards that a card of ``kind`` on ``pos`` reaches (BAT-4)."""
        mask = self.g.reach[int(kind)][self.g.index[pos]]
        return [p for p in self.g.to_positions(mask) if self.owner(p) not in (None, self.learner)]


def _with_dice(square, colour: Colour):
    return cell_of(square.treasure, colour)


def _claim(facts: SeatFacts, move: Claim) -> tuple[Hint, Hint]:
    pos = move.position
    treasure = facts.board.at(pos).treasure
    args = _on(pos, treasure)
    line = facts.fills_line(pos)
    stays = facts.state.start_player is facts.learner
    if line is not None and short_line(facts.board, line):
        # a line only by this site's reading (INT-3): the hint says so in its one sentence
        cited = ("STRAT-3", "INT-3")
        if stays:
            ends = _("Claim %(cell)s (%(low)s and %(high)s): it fills %(cells)s, which counts as a "
                     "line by this site's reading, so Dice Time ends at once and you stay the start "
                     "player.")
        else:
            ends = _("Claim %(cell)s (%(low)s and %(high)s): it fills %(cells)s, which counts as a "
                     "line by this site's reading, so Dice Time ends at once and you become the "
                     "start player.")
        return (Hint(1, _("Look at %(cells)s: one more pair of dice there fills it, and by this site's "
                          "reading it counts as a line.") % {"cells": _labels(line)}, cited),
                Hint(2, ends % {**args, "cells": _labels(line)}, cited))
    if line is not None:
        # whoever fills the line is start player (STRAT-3): news only to someone who was not
        if stays:
            ends = _("Claim %(cell)s (%(low)s and %(high)s): it fills the line %(cells)s, so "
                     "Dice Time ends at once and you stay the start player.")
        else:
            ends = _("Claim %(cell)s (%(low)s and %(high)s): it fills the line %(cells)s, so "
                     "Dice Time ends at once and you become the start player.")
        return (Hint(1, _("Look at %(cells)s: one more pair of dice there fills the whole line.")
                     % {"cells": _labels(line)}, ("STRAT-3",)),
                Hint(2, ends % {**args, "cells": _labels(line)}, ("STRAT-3",)))
    pair = facts.sandwich(pos)
    if pair is not None:
        other, between = pair
        return (Hint(1, _("Look at %(cell)s and %(other)s: what lies between them on their line?")
                     % {"cell": args["cell"], "other": position_label(other)}, ("TRE-2",)),
                Hint(2, ngettext("Claim %(cell)s (%(low)s and %(high)s): it shares a line with your "
                                 "dice or card on %(other)s, so if your attack cards on both survive, "
                                 "they sandwich %(between)s and win that card too.",
                                 "Claim %(cell)s (%(low)s and %(high)s): it shares a line with your "
                                 "dice or card on %(other)s, so if your attack cards on both survive, "
                                 "they sandwich %(between)s and win those cards too.", len(between))
                     % {**args, "other": position_label(other), "between": _labels(between)},
                     ("TRE-2",)))
    if treasure.is_double:
        return (Hint(1, _("Look at %(cell)s: it is a double.") % {"cell": args["cell"]}, ("END-3",)),
                Hint(2, _("Claim %(cell)s (%(low)s and %(high)s): it is a double, and doubles "
                          "decide between players who end with equal cards.") % args, ("END-3",)))
    claimable = [a.position for a in legal_actions(facts.state, facts.learner) if isinstance(a, Claim)]
    return (Hint(1, _("Look at the cards your dice can claim now: %(cells)s.")
                 % {"cells": _labels(claimable)}, ("DICE-2",)),
            Hint(2, _("Claim %(cell)s (%(low)s and %(high)s): no single rule decides it here; "
                      "the strong captain tried each choice many times, guessing the hidden "
                      "cards from what you can see, and this one won you the most on "
                      "average.") % args, ("DICE-2",)))


def _place(facts: SeatFacts, move: PlaceAttackCard) -> tuple[Hint, Hint]:
    pos, kind = move.position, move.kind
    args = {"cell": position_label(pos), "card": card_label(kind)}
    hit = facts.in_reach(pos, kind)
    if hit:
        return (Hint(1, _("Look at %(cell)s and the other players' dice and cards near it: "
                          "%(cells)s.") % {"cell": args["cell"], "cells": _labels(hit)}, ("BAT-4",)),
                # what lies there face down, or will, may be a [0] Hostage Gambit (BAT-4): the
                # learner cannot know, so the sentence promises only the others
                Hint(2, _("Put %(card)s on %(cell)s: its range covers the other players' dice or "
                          "cards on %(cells)s, and when it acts while still on the board it "
                          "removes every card there except a [0] Hostage Gambit.")
                     % {**args, "cells": _labels(hit)}, ("BAT-4", "BAT-3")))
    if kind is AttackKind(0):
        return (Hint(1, _("Look at %(cell)s: which of your cards can nothing remove?") % args, ("BAT-4",)),
                Hint(2, _("Put %(card)s on %(cell)s: no card can remove it, so the treasure card "
                          "under it is yours in Treasure Time.") % args, ("BAT-4", "TRE-1")))
    pair = facts.sandwich(pos)
    if pair is not None:
        other, between = pair
        return (Hint(1, _("Look at %(cell)s and %(other)s: what lies between them on their line?")
                     % {"cell": args["cell"], "other": position_label(other)}, ("TRE-2",)),
                Hint(2, ngettext("Put %(card)s on %(cell)s: with your card on %(other)s surviving as "
                                 "well, the two sandwich %(between)s and win that card too.",
                                 "Put %(card)s on %(cell)s: with your card on %(other)s surviving as "
                                 "well, the two sandwich %(between)s and win those cards too.", len(between))
                     % {**args, "other": position_label(other), "between": _labels(between)},
                     ("TRE-2",)))
    return (Hint(1, _("Look at %(cell)s and at which attack card it needs.") % args, ("SET-1",)),
            Hint(2, _("Put %(card)s on %(cell)s: no single rule decides it here; the strong "
                      "captain tried each choice many times, guessing the hidden cards from "
                      "what you can see, and this one won you the most on average.") % args,
                 ("SET-1",)))


def _roll(facts: SeatFacts, move: Roll) -> tuple[Hint, Hint]:
    hand = list(facts.state.player(facts.learner).dice)
    rolled = list(move.dice or hand)
    kept = list(hand)
    for d in rolled:
        kept.remove(d)
    # grade 1 points where grade 2 looks (a question that grade 2 would contradict misleads)
    first = Hint(1, _("Look at your dice and the free cards: which dice are worth keeping for "
                      "the next roll?"), ("STRAT-2",))
    target = next(((p, f) for p, f in facts.board.free_faces().items()
                   if (f[0] in kept) != (f[1] in kept) or (f[0] == f[1] and f[0] in kept)), None)
    if kept and target is not None:
        pos, (low, high) = target
        shown = low if low in kept else high
        return first, Hint(2, _("Re-roll %(rolled)s and keep %(kept)s: your %(shown)s already "
                                "shows one face of %(cell)s (%(low)s and %(high)s).")
                           % {"rolled": list_join(str(d) for d in sorted(rolled)),
                              "kept": list_join(str(d) for d in sorted(kept)), "shown": shown,
                              "cell": position_label(pos), "low": low, "high": high}, ("STRAT-2",))
    return first, Hint(2, _("Re-roll %(rolled)s: no two of your dice show the faces of a free card "
                            "worth claiming now.")
                       % {"rolled": list_join(str(d) for d in sorted(rolled))}, ("STRAT-2",))


def hints_for(practice, code: str, version: int) -> tuple[Hint, Hint] | None:
    """Grade 1 and grade 2 of the hint for the learner's next move, or ``None`` when the
    learner has nothing to decide."""
    move = strong_move(practice, code, version)
    if move is None:
        return None
    facts = SeatFacts(practice.state, practice.learner)
    if isinstance(move, Claim):
        return _claim(facts, move)
    if isinstance(move, PlaceAttackCard):
        return _place(facts, move)
    if isinstance(move, Roll):
        return _roll(facts, move)
    if isinstance(move, Pass):
        return (Hint(1, _("Look at your dice: do any two of them show the faces of a free card?"),
                     ("DICE-2",)),
                Hint(2, _("End your turn without placing: no two of your dice show the faces of "
                          "a free card."), ("STRAT-4",)))
    if isinstance(move, RingStartBell):
        return (Hint(1, _("Look at the start player badge: it is yours, so the round waits for you."),
                     ("STRAT-1",)),
                Hint(2, _("Begin Dice Time: everyone rolls all their dice, then you take the "
                          "first turn as start player."), ("STRAT-1",)))
    return None


def hints_upto(practice, code: str, version: int, level: int) -> list[Hint]:
    """The hints shown at ``level`` (1: where to look; 2: that and the move)."""
    if not level:
        return []
    both = hints_for(practice, code, version)
    return list(both[:level]) if both else []

