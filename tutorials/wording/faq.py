"""The site's frequent questions, shared by the printed sheets and the rules search."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

#: The site's frequent questions: question, answer, and the clauses the answer rests on
#: (the rules search finds an entry by its clauses).
FAQ = (
    (_("Can a card that was removed still act?"),
     _("No. A card acts only if it is still on the board when its speed comes up."), ("BAT-3",)),
    (_("Can my own cards hit each other?"),
     _("Never. Attacks only remove other players' cards."), ("BAT-4",)),
    (_("Can a Boarding Melee be removed by a slower card?"),
     _("Yes. Cards simply act in speed order; a Broadside or Kraken's Wrath still on the board when its turn "
       "comes removes a Boarding Melee in its range."), ("BAT-1", "BAT-3")),
    (_("May I claim more cards than I have attack cards in hand?"),
     _("Yes. If your hand is empty when you must place a card in Setting Time, your whole discard pile "
       "comes back first."), ("DICE-7", "SET-4")),
    (_("Do all treasure cards count the same?"),
     _("Yes, one point each. Doubles only matter to break a tie."), ("END-2", "END-3")),
    (_("Does a gap break a sandwich?"),
     _("Not by this site's reading (INT-2): only another player's attack card between your two cards "
       "breaks it. The official rules do not say; under the other reading a gap would break it."),
     ("INT-2",)),
    (_("What does the start player win?"),
     _("Its cards act first among cards of equal speed in Battle Time, it collects first when "
       "sandwiches overlap, and it starts the next Dice Time."), ("BAT-2", "TRE-3", "DICE-1")),
)
