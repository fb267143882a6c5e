"""Graded hints on the game page: first where to look, then the move the strong captain
would make and why — the why always facts the engine worked out and the learner can check
on the table.

How a hint avoids hidden information
------------------------------------
The move comes from the strong captain's policy
(:class:`~captain.rules.captains.strengths.StrongCaptain`), run **from the learner's seat**
on a state re-drawn by :func:`~captain.rules.game.view.determinize`: the deck, the box,
the captains' hands, their face-down cards and the seed of future rolls are replaced by
values drawn from what the learner may know. The random generators are seeded from the
game's id and version only (public), so a hint is stable between grade 1 and grade 2 and
two states the learner cannot tell apart get the same hint.

Why the move: :func:`~captain.rules.captains.facts.move_facts` gives the facts of that
move from what the learner sees (the cards it would win, a sandwich, a line it fills or
lets another player fill next, which cards it reaches before they act, a [0] nothing
removes, the start player, dice and hand, the discard pile coming back) and what the
round played out on re-drawn deals showed. A hint words some of those facts and carries
exactly the ones it words (:attr:`Hint.facts`), so a test can check each against the
engine. Grade 1 points at the few positions those facts name.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from captain.rules import Colour, Position
from captain.rules.captains.facts import Fact, best_move, move_facts
from captain.rules.captains.strengths import StrongCaptain
from captain.rules.game import (
    Action,
    Claim,
    Pass,
    PlaceAttackCard,
    RingBell,
    RingStartBell,
    Roll,
    legal_actions,
)
from captain.rules.game.view import determinize
from captain.rules.model import AttackKind
from captain.rules.situation import Mode
from tutorials.wording.facts import FACTS
from tutorials.wording.glossary import COLOUR_NAMES, card_label, position_label
from tutorials.wording.phrases import either, list_join, sentences


@dataclass(frozen=True)
class Hint:
    """One grade of a hint: its sentences, the clauses they cite, the engine's facts they
    state (grade 2; grade 1 points at the positions of the same facts), the positions it
    points at on the board, and at grade 2 the move it names."""

    level: int
    text: str
    clauses: tuple[str, ...]
    facts: tuple[Fact, ...] = ()
    cells: tuple[Position, ...] = ()
    move: Action | None = None


def hint_level(raw: str | None) -> int:
    """The grade asked for (``?hint=1`` / ``?hint=2``); 0 for none."""
    return int(raw) if raw in ("1", "2") else 0


def strong_move(practice, code: str) -> Action | None:
    """The strong captain's choice for the learner, decided on a re-drawn state (see the
    module docstring), or ``None`` when the learner has nothing to decide. A claim or a
    placement is the best of its kind by the hint's own look-ahead
    (:func:`~captain.rules.captains.facts.best_move`, the captain's choice on a tie), so
    what the hint says of it holds."""
    state, learner = practice.state, practice.learner
    if state.is_over or not legal_actions(state, learner):
        return None
    seed = _seed(practice, code)
    rng = random.Random(f"hint:{seed}")
    view = determinize(state, learner, rng)
    own = legal_actions(view, learner)
    if not own:
        return None
    move = StrongCaptain().decide(view, learner, own, rng)
    if isinstance(move, (Claim, PlaceAttackCard)):
        kin = [a for a in legal_actions(state, learner) if type(a) is type(move)]
        move = best_move(state, learner, kin, f"lookahead:{seed}", prefer=move)
    return move


def _seed(practice, code: str) -> str:
    """The hint's random seed: the game and how many moves it has seen, both public. A
    move taken back comes back to the same count, and so to the same hint."""
    return f"{code}:{len(practice.log)}"


def hints_for(practice, code: str) -> tuple[Hint, Hint] | None:
    """Grade 1 and grade 2 of the hint for the learner's next move, or ``None`` when the
    learner has nothing to decide."""
    move = strong_move(practice, code)
    if move is None:
        return None
    facts = move_facts(practice.state, practice.learner, move,
                       lookahead=f"lookahead:{_seed(practice, code)}")
    return hint_pair(practice.state, move, facts)


def hints_upto(practice, code: str, level: int) -> list[Hint]:
    """The hints shown at ``level`` (1: where to look; 2: that and the move)."""
    if not level:
        return []
    both = hints_for(practice, code)
    return list(both[:level]) if both else []


# --- from facts to sentences -----------------------------------------------------------------------
#: which facts say why a move is good, most telling first; the others are said besides
REASONS = ("line.fills", "sandwich", "immune", "speed.first", "dice.keep", "dice.none-match",
           "start.player", "hand.recycle", "lookahead.best", "claim.wins", "place.wins")
#: facts always said when they hold: what the move costs or risks
WARNINGS = ("line.opens", "hand.count")


def hint_pair(state, move: Action, facts: tuple[Fact, ...]) -> tuple[Hint, Hint]:
    """Grade 1 and grade 2 for ``move`` from its ``facts`` (most telling first)."""
    by_code = {f.code: f for f in facts}
    told = _told(move, by_code)
    look = _where_to_look(move, told[0] if told else None, state)
    cells = _cells(move, told)
    text = sentences(move_sentence(move, state), *stated(told, state))
    # a line only by this site's reading says so, and cites the reading (INT-3)
    reading = ("INT-3",) if any(f.code == "line.fills" and f.params["short"] for f in told) else ()
    clauses = tuple(dict.fromkeys([_move_clause(move, state)] + [f.clause for f in told] + list(reading)))
    first = ((told[0].clause,) if told else ()) + (reading if told and told[0].code == "line.fills" else ())
    return (Hint(1, look, first, tuple(told[:1]), cells[:4], None),
            Hint(2, text, clauses, tuple(told), cells, move))


def stated(told, state) -> list[str]:
    """The sentence that states each fact of ``told``, in order (right after the
    look-ahead's result, its survivals say "of those deals")."""
    said = [fact_sentence(f, state) for f in told]
    for n, fact in enumerate(told):
        if fact.code == "lookahead.survives" and n and told[n - 1].code == "lookahead.best":
            said[n] = _survives_of_those(fact.params)
    return said


def _told(move: Action, by_code: dict[str, Fact]) -> list[Fact]:
    """The facts a grade-2 hint states: its reason (with what goes with it), then its
    warnings."""
    reasons = [by_code[c] for c in REASONS if c in by_code]
    told: list[Fact] = []
    if reasons:
        first = reasons[0]
        told.append(first)
        if first.code == "line.fills" and "start.player" in by_code:
            told.append(by_code["start.player"])
        if first.code == "hand.recycle" and "place.wins" in by_code:
            told.append(by_code["place.wins"])
        if first.code == "lookahead.best":
            # what the look-ahead weighed is the card the move wins: say that first
            wins = by_code.get("claim.wins") or by_code.get("place.wins")
            if wins is not None:
                told.insert(0, wins)
        if first.code == "sandwich" and "immune" in by_code:
            told.append(by_code["immune"])  # a [0] at a sandwich's end: why it suits
        survives = by_code.get("lookahead.survives")
        if first.code in ("lookahead.best", "sandwich") and survives is not None \
                and 2 * survives.params["survived"] >= survives.params["deals"]:
            told.append(survives)
    told += [by_code[c] for c in WARNINGS if c in by_code]
    return told


def _cells(move: Action, told: list[Fact]) -> tuple[Position, ...]:
    out: list[Position] = []
    own = getattr(move, "position", None)
    if own is not None:
        out.append(Position(*own))
    for fact in told:
        out += [p for p in fact.positions if p not in out]
    return tuple(out)


def _labels(positions) -> str:
    return list_join(position_label(p) for p in positions)


def _name(colour) -> str:
    return str(COLOUR_NAMES[Colour(colour)])


def _move_clause(move: Action, state) -> str:
    if isinstance(move, Claim):
        return "DICE-2"
    if isinstance(move, PlaceAttackCard):
        return "SET-1"
    if isinstance(move, Roll):
        return "STRAT-2" if state.rules.mode is Mode.STRATEGY else "DICE-3"
    if isinstance(move, Pass):
        return "STRAT-4"
    if isinstance(move, RingBell):
        return "DICE-4"
    return "STRAT-1" if state.rules.mode is Mode.STRATEGY else "DICE-1"


def move_sentence(move: Action, state) -> str:
    """The move itself, as one sentence."""
    if isinstance(move, Claim):
        low, high = state.board.at(move.position).treasure.faces
        return _("Claim %(cell)s (%(low)s and %(high)s).") % {
            "cell": position_label(move.position), "low": low, "high": high}
    if isinstance(move, PlaceAttackCard):
        return _("Put %(card)s on %(cell)s.") % {"card": card_label(move.kind),
                                                   "cell": position_label(move.position)}
    if isinstance(move, Roll):
        hand = list(state.player(move.player).dice)
        rolled = list(move.dice) if move.dice is not None else list(hand)
        kept = list(hand)
        for d in rolled:
            kept.remove(d)
        if state.rules.mode is not Mode.STRATEGY or not kept:
            return _("Re-roll all your dice in hand.")
        return _("Re-roll your %(rolled)s and keep your %(kept)s.") % {
            "rolled": list_join(str(d) for d in sorted(rolled)),
            "kept": list_join(str(d) for d in sorted(kept))}
    if isinstance(move, Pass):
        return _("End your turn without placing.")
    if isinstance(move, RingBell):
        return _("Ring the bell now.")
    if state.rules.mode is Mode.STRATEGY:
        return _("Begin Dice Time.")
    return _("Ring the bell to begin Dice Time.")


def fact_sentence(fact: Fact, state) -> str:
    """One fact as a sentence to the learner (who is "you")."""
    return _SENTENCES[fact.code](fact, fact.params)


def _claim_wins(fact, p) -> str:
    return _("If the attack card you put there survives Battle Time, %(cell)s is yours.") % {
        "cell": position_label(p["position"])}


def _place_wins(fact, p) -> str:
    return _("If the card survives Battle Time, the treasure card on %(cell)s is yours.") % {
        "cell": position_label(p["position"])}


def _sandwich(fact, p) -> str:
    return ngettext(
        "With your dice or card on %(partner)s it sandwiches %(between)s: if both your attack "
        "cards survive and no other player's card ends up between them, you win that card too.",
        "With your dice or card on %(partner)s it sandwiches %(between)s: if both your attack "
        "cards survive and no other player's card ends up between them, you win those cards too.",
        len(p["between"])) % {
        "partner": position_label(p["partner"]), "between": _labels(p["between"])}


def _line_opens(fact, p) -> str:
    return _("Careful: %(colour)s's dice show %(low)s and %(high)s, so on their next turn "
             "%(colour)s could claim %(cell)s, fill %(cells)s, end Dice Time and become the start "
             "player.") % {"colour": _name(p["colour"]), "low": p["low"], "high": p["high"],
                           "cell": position_label(p["position"]), "cells": _labels(p["line"])}


def _start_player(fact, p) -> str:
    if fact.clause in ("STRAT-1", "DICE-1"):
        return _("You are the start player, so the round begins when you say so.")
    return _("You stay the start player.") if p["stays"] else _("You become the start player.")


def _speed_first(fact, p) -> str:
    args = {"cell": position_label(p["position"]), "targets": _labels(p["targets"]),
            "speed": int(p["kind"]), "before": either(f"[{int(k)}]" for k in p["before"])}
    if p["before"]:
        return _("From %(cell)s it reaches the other players' dice or cards on %(targets)s, and "
                 "at speed %(speed)s it acts before any %(before)s there.") % args
    return _("From %(cell)s it reaches the other players' dice or cards on %(targets)s.") % args


def _immune(fact, p) -> str:
    return _("No card can remove a [0], so the treasure card under it is yours in Treasure Time.")


def _dice_none_match(fact, p) -> str:
    return _("No two of your dice in hand (%(dice)s) show the faces of a free card.") % {
        "dice": list_join(str(d) for d in p["dice"])}


def _dice_keep(fact, p) -> str:
    return _("Your %(kept)s already shows one face of %(cell)s (%(low)s and %(high)s).") % {
        "kept": p["kept"], "cell": position_label(p["position"]), "low": p["low"], "high": p["high"]}


def _hand_count(fact, p) -> str:
    return _("After this move your dice lie on more cards (%(cards)s) than you have attack cards in "
             "hand (%(hand)s): once your hand is empty in Setting Time, your discard pile comes back "
             "to it.") % {
        "cards": p["cards"], "hand": p["hand"]}


def _hand_recycle(fact, p) -> str:
    return ngettext("Your hand is empty, so your %(n)s discarded card comes back to it first.",
                    "Your hand is empty, so your %(n)s discarded cards come back to it first.",
                    p["cards"]) % {"n": p["cards"]}


def _best(fact, p) -> str:
    """``lookahead.best``: the move's result, then the best other move's (each ahead of or
    behind the others' average)."""
    args = {"deals": p["deals"], "value": number_format(abs(p["value"]), 1)}
    if p["value"] >= 0:
        said = _("Played out on %(deals)s deals that fit what you can see, this move left you "
                 "%(value)s treasure cards ahead of the others on average.") % args
    else:
        said = _("Played out on %(deals)s deals that fit what you can see, this move left you "
                 "%(value)s treasure cards behind the others on average.") % args
    if p["runner"] is None:
        return said
    runner = {"cell": position_label(p["runner"]), "value": number_format(abs(p["runner_value"]), 1),
              "card": card_label(AttackKind(p["runner_kind"])) if p["runner_kind"] is not None else ""}
    ahead = p["runner_value"] >= 0
    if round(p["runner_value"], 1) == round(p["value"], 1):
        if p["runner_kind"] is None:
            other = _("The best other claim, %(cell)s, did as well.") % runner
        else:
            other = _("The best other card, %(card)s on %(cell)s, did as well.") % runner
    elif p["runner_kind"] is None and ahead:
        other = _("With the best other claim, %(cell)s, you were %(value)s cards ahead.") % runner
    elif p["runner_kind"] is None:
        other = _("With the best other claim, %(cell)s, you were %(value)s cards behind.") % runner
    elif ahead:
        other = _("With the best other card, %(card)s on %(cell)s, you were %(value)s cards ahead.") % runner
    else:
        other = _("With the best other card, %(card)s on %(cell)s, you were %(value)s cards behind.") % runner
    return sentences(said, other)


def _survives_of_those(p) -> str:
    return ngettext("Your card on %(cell)s survived Battle Time in %(n)s of those deals.",
                    "Your card on %(cell)s survived Battle Time in %(n)s of those deals.", p["survived"]) % {
        "cell": position_label(p["position"]), "n": p["survived"]}


def _survives(fact, p) -> str:
    return ngettext(
        "The round was played out on %(deals)s deals that fit what you can see: your card on "
        "%(cell)s survived Battle Time in %(n)s of them.",
        "The round was played out on %(deals)s deals that fit what you can see: your card on "
        "%(cell)s survived Battle Time in %(n)s of them.", p["survived"]) % {
        "deals": p["deals"], "n": p["survived"], "cell": position_label(p["position"])}


def _line_fills(fact: Fact, p) -> str:
    args = {"cells": _labels(p["line"]), "n": FACTS["bell_cards"]}
    if p["mode"] == "strategy":
        if p["short"]:
            return _("It fills %(cells)s, a line by this site's reading, so Dice Time ends "
                     "at once.") % args
        return _("It fills the line %(cells)s, so Dice Time ends at once.") % args
    if p.get("position") is None:  # the bell may ring now (the hint says: ring it)
        if fact.clause == "DICE-4" and p["short"]:
            return _("%(cells)s, a line by this site's reading, holds dice on %(n)s cards, "
                     "so the bell may ring.") % args
        if fact.clause == "DICE-4":
            return _("The line %(cells)s holds dice on at least %(n)s of its cards, so the bell may "
                     "ring.") % args
        if fact.clause == "VAR-3":
            return _("A player has placed all their dice, so the bell may ring.")
        return _("At least %(n)s cards hold dice, so the bell may ring.") % args
    if fact.clause == "DICE-4":
        if p["short"]:
            return _("Then %(cells)s, a line by this site's reading, holds dice on %(n)s "
                     "cards, so the bell may ring: whoever rings it first becomes the start "
                     "player.") % args
        return _("Then the line %(cells)s holds dice on %(n)s of its cards, so the bell may ring: "
                 "whoever rings it first becomes the start player.") % args
    if fact.clause == "VAR-3":
        return _("Then a player has placed all their dice, so the bell may ring: whoever rings it "
                 "first becomes the start player.")
    return _("Then %(n)s cards hold dice, so the bell may ring: whoever rings it first becomes "
             "the start player.") % args


#: each kind of fact → its sentence
_SENTENCES = {
    "claim.wins": _claim_wins, "place.wins": _place_wins, "sandwich": _sandwich,
    "line.fills": _line_fills, "line.opens": _line_opens, "start.player": _start_player,
    "speed.first": _speed_first, "immune": _immune, "dice.none-match": _dice_none_match,
    "dice.keep": _dice_keep, "hand.count": _hand_count, "hand.recycle": _hand_recycle,
    "lookahead.survives": _survives, "lookahead.best": _best,
}


def _where_to_look(move: Action, first: Fact | None, state) -> str:
    """Grade 1: the few positions the reason names, as a question or a pointer."""
    if isinstance(move, RingStartBell):
        return _("Look at the start player badge: it is yours, so the round waits for you.")
    if isinstance(move, (Roll, Pass)):
        if first is not None and first.code == "dice.keep":
            return _("Look at your dice and at %(cell)s: which die is worth keeping?") % {
                "cell": position_label(first.params["position"])}
        return _("Look at your dice: do any two of them show the faces of a free card?")
    if first is None:
        return _("Look at the cards holding your dice.")
    p = first.params
    if first.code == "line.fills" and p["line"] and p["short"]:
        return _("Look at %(cells)s, a line by this site's reading: how many of its cards hold "
                 "dice?") % {"cells": _labels(p["line"])}
    if first.code == "line.fills" and p["line"]:
        return _("Look at the line %(cells)s: how many of its cards hold dice?") % {
            "cells": _labels(p["line"])}
    if first.code == "line.fills":
        return _("Look at how many cards hold dice.")
    if first.code == "sandwich":
        return _("Look at %(cell)s and %(other)s: what lies between them on their line?") % {
            "cell": position_label(p["position"]), "other": position_label(p["partner"])}
    if first.code == "immune":
        return _("Look at %(cell)s: which of your cards can nothing remove?") % {
            "cell": position_label(p["position"])}
    if first.code == "speed.first":
        return _("Look at %(cell)s and at the other players' dice and cards it could reach: "
                 "%(cells)s.") % {"cell": position_label(p["position"]), "cells": _labels(p["targets"])}
    cell = position_label(move.position)
    if isinstance(move, PlaceAttackCard):
        return _("Look at %(cell)s: which of your attack cards is safest there?") % {"cell": cell}
    return _("Look at %(cell)s: from which of the other players' dice could an attack card reach "
             "it?") % {"cell": cell}


def pointer_kind(move: Action, facts: tuple[Fact, ...]) -> str:
    """What a move teaches, for the guided game's first-time notes: the reason's code for
    a claim or a placement, else the move's kind."""
    if isinstance(move, (Claim, PlaceAttackCard)):
        codes = {f.code for f in facts}
        for code in ("line.fills", "sandwich", "immune", "speed.first", "hand.recycle"):
            if code in codes:
                return code
        return "claim" if isinstance(move, Claim) else "place"
    return {RingStartBell: "begin", Roll: "roll", Pass: "pass", RingBell: "ring"}[type(move)]

