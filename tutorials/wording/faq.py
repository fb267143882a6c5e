"""The site's frequent questions, shared by the printed sheets and the rules search."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

#: The site's frequent questions: question, answer, and the clauses the answer rests on
#: (the rules search finds an entry by its clauses).
FAQ = (
    (_("Can a card that was removed still act?"),
     _("No. A card acts only if it is still on the board when its turn comes; a card that acts before it, "
       "even one of the same speed, can remove it."), ("BAT-3",)),
    (_("Can my own cards hit each other?"),
     _("Never. Attacks only remove other players' cards."), ("BAT-4",)),
    (_("Can a [1] Boarding Melee be removed by a slower card?"),
     _("Yes. Cards simply act in speed order: a [2] Broadside, [3] Cannon or [4] Kraken's Wrath that is "
       "still on the board when its turn comes removes a [1] Boarding Melee in its range."),
     ("BAT-1", "BAT-3")),
    (_("May I claim more treasure cards than I have attack cards in hand?"),
     _("Yes. If your hand is empty when you must place an attack card in Setting Time, first take your "
       "whole discard pile back into your hand."), ("DICE-7", "SET-4")),
    (_("Do all treasure cards count the same?"),
     _("Yes, one point each. Doubles only matter to break a tie."), ("END-2", "END-3")),
    (_("Does a gap break a sandwich?"),
     _("By this site's reading, no: an empty position between your two cards does not break a sandwich; "
       "only another player's attack card does. The official rules do not mention gaps; under the other "
       "reading a gap would break it. (INT-2)"), ("INT-2",)),
    (_("What is the advantage of being start player?"),
     _("Their cards act first among cards of equal speed in Battle Time; they have priority when several "
       "players' sandwiches claim the same card; and they ring the bell that begins the next Dice Time (in "
       "strategy mode, which has no bell, they take its first turn)."), ("BAT-2", "TRE-3", "DICE-1")),
)
