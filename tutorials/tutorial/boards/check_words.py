"""What the phase checks say: each kind's question and its choices, in the active language.

The answers come from the engine (:mod:`tutorials.tutorial.checks`); this module only
words them. Every sentence is one message with named placeholders.
"""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from captain.rules import Colour
from tutorials.tutorial.checks import Check
from tutorials.wording.events import Explanation
from tutorials.wording.glossary import COLOUR_NAMES
from tutorials.wording.phrases import list_join

#: the symbol and words of each mark an answered check puts on a cell or a choice; the
#: legend shows the same, so the marks never rest on colour alone
MARKS = {
    "right": ("✓", gettext_lazy("your pick, right")),
    "wrong": ("✗", gettext_lazy("your pick, wrong")),
    "missed": ("○", gettext_lazy("missed: part of the answer")),
}

_YES_NO = {"yes": pgettext_lazy("check answer", "Yes"), "no": pgettext_lazy("check answer", "No")}


def _faces(dice) -> str:
    return pgettext("dice faces", " ").join(str(d) for d in dice)


def _colour(value) -> str:
    return str(COLOUR_NAMES[Colour(value) if isinstance(value, str) else value])


def prompt(check: Check) -> str:
    """The question, with what it needs to know (dice in hand, cards left, scores)."""
    f = check.facts
    kind = check.kind
    if kind == "claim":
        return _("Red holds %(dice)s in hand. Which cards can red claim now? Choose them, then "
                 "check.") % {"dice": _faces(f["dice"])}
    if kind == "bell":
        return _("Three players are in Dice Time, and these dice lie on the cards. May the bell "
                 "ring now?")
    if kind == "ring":
        return _("%(colour)s rings the bell now. What happens?") % {"colour": capfirst(_colour(f["colour"]))}
    if kind == "line":
        return _("Red holds %(dice)s and puts two of them on the marked card. Does Dice Time end "
                 "now?") % {"dice": _faces(f["dice"])}
    if kind == "place":
        return _("It is red's turn in Setting Time. On which cards may red put an attack card? Choose "
                 "them, then check.")
    if kind == "next":
        return _("Red puts an attack card on the marked card and takes those dice back. Who places "
                 "next?")
    if kind == "recycle":
        return ngettext(
            "Red puts an attack card on the marked card. Blue has no card in hand; %(discard)s card "
            "lies in blue's discard pile. What happens next?",
            "Red puts an attack card on the marked card. Blue has no card in hand; %(discard)s cards "
            "lie in blue's discard pile. What happens next?", f["discard"]) % dict(f)
    if kind == "start":
        return _("Red was the start player, and %(colour)s ended this Dice Time. Who is the start "
                 "player of the next round?") % {"colour": _colour(f["colour"])}
    if kind == "refill":
        return ngettext(
            "After Treasure Time %(cards)s treasure cards are left on the board and %(deck)s card in "
            "the deck. How many treasure cards lie on the board when the next round begins?",
            "After Treasure Time %(cards)s treasure cards are left on the board and %(deck)s cards in "
            "the deck. How many treasure cards lie on the board when the next round begins?",
            f["deck"]) % dict(f)
    if kind == "discards":
        return ngettext(
            "These cards were placed in Setting Time. Before this round, red's discard pile held "
            "%(discard)s card. How many does it hold once Treasure Time is over?",
            "These cards were placed in Setting Time. Before this round, red's discard pile held "
            "%(discard)s cards. How many does it hold once Treasure Time is over?",
            f["discard"]) % dict(f)
    if kind == "over":
        return ngettext(
            "After Treasure Time %(cards)s treasure cards are left on the board and %(deck)s card in "
            "the deck. Does the game end now?",
            "After Treasure Time %(cards)s treasure cards are left on the board and %(deck)s cards in "
            "the deck. Does the game end now?", f["deck"]) % dict(f)
    assert kind == "winner"
    scores = list_join(ngettext("%(colour)s %(cards)s cards, %(doubles)s double",
                                "%(colour)s %(cards)s cards, %(doubles)s doubles", doubles) % {
        "colour": _colour(colour), "cards": cards, "doubles": doubles}
        for colour, (cards, doubles) in f.items())
    return _("The game is over. Treasure cards won: %(scores)s. Who wins?") % {"scores": scores}


def choice_label(check: Check, key: str) -> str:
    """What the choice ``key`` of ``check`` reads."""
    if key in _YES_NO:
        return str(_YES_NO[key])
    if key.isdigit():
        return key
    colour = check.facts.get("colour")
    if key == "ends":
        return _("Dice Time ends, and %(colour)s is the start player.") % {"colour": _colour(colour)}
    if key == "false":
        return _("A false bell: %(colour)s sits out the rest of this Dice Time.") % {
            "colour": _colour(colour)}
    if key == "over":
        return _("Nobody: Setting Time is over.")
    if key == "recycle":
        return _("Blue takes the whole discard pile back into hand and places a card.")
    if key == "skip":
        return _("Blue has no dice on the board and is skipped.")
    if key == "back":
        return _("Blue takes its dice back without placing a card.")
    if key == "tie":
        return _("Nobody by the rules: the tied players settle it among themselves.")
    return capfirst(_colour(key))


def rule_notes(check: Check) -> list[Explanation]:
    """The rule a kind practises, where the engine's events do not say it in words."""
    if check.kind == "start":
        return [Explanation("check.start", _(
            "Whoever ends Dice Time becomes the start player and stays so until the next Dice "
            "Time ends: they begin the next round."), "DICE-4", None, ("STRAT-3",))]
    if check.kind == "next":
        return [Explanation("check.next", _(
            "Setting Time goes clockwise; a player with no dice left on the board is skipped, and "
            "it ends when no dice are left."), "SET-2", None, ("SET-3",))]
    if check.kind == "recycle" and check.answer == {"skip"}:
        return [Explanation("check.skip", _(
            "A player with no dice left on the board is skipped, whatever their hand holds."),
            "SET-2", None)]
    if check.kind == "discards":
        return [Explanation("check.discards", _(
            "Every attack card goes to its owner's discard pile: removed in Battle Time or left "
            "on the board after Treasure Time."), "BAT-4", None, ("TRE-4",))]
    return []
