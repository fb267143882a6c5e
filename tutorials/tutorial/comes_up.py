""""When it comes up" cards: the rules a teacher explains at the table when they happen.

The quick start teaches the core and leaves these out; the full script says most of them.
Each card is tied to the clause it teaches and to the phase where it comes up.
:func:`cards_for` gives the cards a table still needs: those of its mode whose clause the
table's script does not read aloud (so the presenter's "Say later" never repeats what the
script said).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tutorials.wording.facts import facts

PHASE_ORDER = ("setup", "dice", "setting", "battle", "treasure", "end")


@dataclass(frozen=True)
class ComeUpCard:
    """One card: ``clause`` (the id it teaches), ``phase`` (see :data:`PHASE_ORDER`),
    a short ``title`` and the ``text`` to say (both lazy; ``text`` may use the game's facts
    as ``%(name)s``); ``modes`` it applies to; ``reading`` when the clause is one of the
    site's interpretations (the card then says so)."""

    clause: str
    phase: str
    title: Promise
    text: Promise
    modes: tuple[str, ...] = ("action", "strategy")
    reading: bool = False
    #: only for tables whose Dice Time ends on a line (3-4 players, no VAR-3, not the
    #: first-edition bell)
    lines_only: bool = False

    def say(self) -> str:
        """The card's text in the active language, with the facts filled in."""
        return str(self.text) % facts()


CARDS: tuple[ComeUpCard, ...] = (
    ComeUpCard("DICE-6", "dice", _("Someone rang too early"),
               _("Ringing before the bell may ring is a false bell: that player may not roll, place or ring "
                 "for the rest of this Dice Time."), modes=("action",)),
    ComeUpCard("DICE-7", "dice", _("More cards than attack cards"),
               _("You may hold dice on more cards than you have attack cards in hand. When you must lay a "
                 "card in Setting Time and your hand is empty, take your whole discard pile back first.")),
    ComeUpCard("INT-3", "dice", _("The short diagonals"),
               _("A diagonal of only %(bell_cards)s cards counts as a line too, once dice lie on all of "
                 "them. Shorter diagonals never count. (Our reading: the official example rings on such a "
                 "diagonal.)"), modes=("action",), reading=True, lines_only=True),
    # strategy mode has no bell: the official example says nothing of its full lines
    ComeUpCard("INT-3", "dice", _("The short diagonals"),
               _("A diagonal of only %(bell_cards)s cards is a full line too once every card of it holds "
                 "dice; shorter diagonals never count. (Our reading: the official rules show such a "
                 "diagonal only in action mode.)"), modes=("strategy",), reading=True,
               lines_only=True),
    # in action mode the bell may almost always ring once the dice are down, and then
    # Dice Time waits for it (DICE-4): the card must not promise an end the bell decides
    ComeUpCard("INT-6", "dice", _("Nobody can go on"),
               _("If nobody may place dice or ring the bell any more (the others are out after a false "
                 "bell, say), Dice Time ends and the start player stays. While anyone may still ring, it "
                 "goes on until someone does. (Our reading: the official rules do not cover it.)"),
               modes=("action",), reading=True),
    ComeUpCard("INT-6", "dice", _("Nobody can go on"),
               _("If every die is placed and no line is full, Dice Time ends and the start player stays. "
                 "(Our reading: the official rules do not cover it.)"), modes=("strategy",), reading=True),
    ComeUpCard("SET-2", "setting", _("No dice left on the grid"),
               _("A player with no dice on the grid is skipped. Anyone who still has dice there must lay a "
                 "card.")),
    ComeUpCard("SET-4", "setting", _("An empty hand"),
               _("You must lay a card but your hand is empty? Take your whole discard pile back into your "
                 "hand first.")),
    ComeUpCard("BAT-5", "battle", _("Empty positions"),
               _("Ranges are positions on the grid: an attack reaches past empty positions to the cards "
                 "beyond.")),
    ComeUpCard("TRE-3", "treasure", _("Two sandwiches want the same card"),
               _("The start player takes it, then the others clockwise.")),
    ComeUpCard("INT-2", "treasure", _("A gap in a sandwich"),
               _("An empty position between your two cards does not break the sandwich; only another "
                 "player’s attack card does. (Our reading.)"), reading=True),
    ComeUpCard("INT-1", "treasure", _("Who collects first"),
               _("Treasure is collected player by player from the start player clockwise. Each player’s "
                 "cards leave the grid before the next looks for sandwiches, so a card that blocked you "
                 "may be gone by your turn. (Our reading; the analyzer can show the other one.)"),
               reading=True),
    ComeUpCard("TRE-4", "end", _("Attack cards left on the grid"),
               _("After the treasure is taken, every attack card still on the grid goes face down onto "
                 "its owner’s discard pile.")),
    ComeUpCard("TRE-5", "end", _("The deck cannot fill the grid"),
               _("The start player rearranges the remaining cards into a shape as close to a square as "
                 "possible.")),
    ComeUpCard("END-3", "end", _("A tie for the most cards"),
               _("More doubles wins (cards with the same face twice). Still tied: settle it among "
                 "yourselves.")),
)


def cards_for(options: Mapping[str, object], said: Collection[str]) -> list[ComeUpCard]:
    """The cards for a table with ``options`` (as :func:`~tutorials.tutorial.teaching.stored_options`
    gives them) whose clause is not in
    ``said`` (the clauses its script reads aloud), in :data:`PHASE_ORDER`."""
    mode = options.get("mode", "action")
    lines = (options.get("players") != 2 and "v3" not in options.get("variants", ())
             and not options.get("first_edition"))
    chosen = [c for c in CARDS
              if mode in c.modes and c.clause not in said and (lines or not c.lines_only)]
    return sorted(chosen, key=lambda c: PHASE_ORDER.index(c.phase))
