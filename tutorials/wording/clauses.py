"""One-sentence statements of the RULES.md clauses, translated, for citations.

Every explanation shows its clause id; hovering or focusing it shows this text.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tutorials.wording.facts import facts

CLAUSES = {
    "SETUP-1": _("Each player takes the %(dice)s dice and %(hand)s attack cards of one colour: one each of "
                 "[0] to [4] and %(scouts)s [5]."),
    "SETUP-2": _("There are %(treasures)s treasure cards: every pair of die faces twice; %(doubles)s of them "
                 "are doubles."),
    "SETUP-3": _("With 3 or 4 players: shuffle the treasure cards face down into a deck, lay the top "
                 "%(grid)s face up in a %(side)s×%(side)s grid, put the bell in the middle, and choose a "
                 "start player in any way (rock-paper-scissors, say)."),
    "SETUP-4": _("With 2 players: each removes %(scouts_removed_2p)s [5] cards; after shuffling, "
                 "%(boxed_2p)s treasure cards go back to the box unseen, and the top %(grid_2p)s are laid "
                 "face up in a %(side_2p)s×%(side_2p)s grid around the bell."),
    "ROUND-1": _("General principle: whenever several players' actions or effects fall due at the same "
                 "time, they are carried out one player after another, from the start player clockwise. "
                 "BAT-2 and TRE-3 apply it, and so does this site's reading INT-1."),
    "DICE-1": _("The start player rings the bell to begin; everyone rolls all %(dice)s dice at once, in real "
                "time."),
    "DICE-2": _("Claim a treasure card by putting two of your dice on it at once, showing exactly its two "
                "faces; a card holding dice cannot be claimed again."),
    "DICE-3": _("Re-roll as often as you like, but always all the dice still in your hand."),
    "DICE-4": _("With 3–4 players anyone may ring the bell once some row, column or diagonal has dice "
                "on %(bell_cards)s or more of its cards. The bell ends Dice Time, and the ringer is start "
                "player until the next Dice Time ends."),
    "DICE-5": _("With 2 players the bell may ring once %(bell_cards)s or more cards anywhere hold dice."),
    "DICE-6": _("Ringing while the condition does not hold is a false bell: that player may not roll, place "
                "or ring for the rest of this Dice Time."),
    "DICE-7": _("You may hold dice on more cards than you have attack cards in hand."),
    "STRAT-1": _("Dice Time begins with everyone rolling all %(dice)s dice at once, then "
                 "turns go clockwise from the start player. There is no bell in strategy mode."),
    "STRAT-2": _("On your turn, re-roll any of your unplaced dice once, or place a pair."),
    "STRAT-3": _("Dice Time ends as soon as every card of some row, column or diagonal holds "
                 "dice; whoever placed last becomes start player."),
    "STRAT-4": _("As an option, after a re-roll you may place at once in the same turn."),
    "SET-1": _("From the start player clockwise, put one attack card face down on one of your cards holding "
               "your dice, and take those dice back."),
    "SET-2": _("A player with no dice on the board is skipped; a player with dice on the board must place."),
    "SET-3": _("Setting Time ends when no dice remain on the board."),
    "SET-4": _("If you must place and your hand is empty, first take your whole discard pile back into your "
               "hand."),
    "BAT-1": _("All attack cards are revealed and act by speed: %(speeds)s."),
    "BAT-2": _("Cards of equal speed act from the start player clockwise."),
    "BAT-3": _("A card acts only if it is still on the board when its turn comes."),
    "BAT-4": _("An acting card removes every other player's card in its range; each removed card goes to "
               "the discard pile of the player who owns it. Own cards and [0] are never removed."),
    "BAT-5": _("Ranges are positions on the grid, whether or not a treasure card lies there."),
    "TRE-1": _("Each player wins the treasure cards under their surviving attack cards."),
    "TRE-2": _("Two of your surviving cards on one row, column or diagonal also win every card between them, "
               "unless another player's card lies between."),
    "TRE-3": _("If several players' sandwiches claim the same card, the start player has priority, then "
               "clockwise."),
    "TRE-4": _("Then every attack card on the board goes face down to its owner's discard pile; "
               "discard piles are hidden."),
    "TRE-5": _("The start player refills the grid from the deck; when the deck runs short, the cards are "
               "rearranged as close to a square as possible."),
    "END-1": _("When the deck is empty and %(end_at)s or fewer treasure cards remain, the game ends."),
    "END-2": _("Most treasure cards wins; every card is worth one point."),
    "END-3": _("On a tie, more doubles wins; if still tied, the players settle it among themselves."),
    "VAR-1": _("Battle speed runs %(speeds_reversed)s."),
    "VAR-2": _("Play without the %(scouts)s [5] cards."),
    "VAR-3": _("The bell may ring once some player has placed all their dice."),
    "VAR-4": _("The bell may ring once %(bell_cards)s cards anywhere hold dice. Only the condition "
               "changes: the false bell (DICE-6) came in with the current rules and still applies."),
    "INT-1": _("Reading used here: players collect treasure one after another, clockwise from the start "
               "player, and each player's cards leave the board before the next player looks for "
               "sandwiches. By the other reading, every sandwich is judged on the board as Battle Time "
               "left it."),
    "INT-2": _("Reading used here: an empty position between two cards does not break a sandwich. The "
               "official rules do not say; under the other reading a gap would break it."),
    "INT-3": _("Reading used here: the lines that let the bell ring (action mode) or end Dice Time "
               "(strategy mode) are the rows, columns and diagonals with at least %(bell_cards)s treasure "
               "cards, so %(bell_cards)s-card diagonals count. The official read-aloud example rings the "
               "bell on such a diagonal; strategy mode is read the same way. The other reading counts "
               "only lines across the whole grid."),
    "INT-4": _("Reading used here: the game ends at %(end_at)s or fewer cards; one line of the official "
               "text says play goes on with %(end_at)s."),
    "INT-5": _("Reading used here: the cards are laid top to bottom in rows as long as the square root of "
               "their number, rounded up (10 cards: rows of 4, 4 and 2). The official rules only ask for a "
               "shape as close to a square as possible."),
    "INT-6": _("Reading used here, in either mode: if nobody can act any more, Dice Time ends and the start "
               "player stays. The official rules do not cover this."),
    "INT-7": _("Reading used here: if every player has rung a false bell, the penalties are lifted. The "
               "official rules do not cover this."),
    "INT-8": _("Reading used here: a player who cannot claim a card simply re-rolls; nothing forces a pass. "
               "The official rules imply this without saying it outright: in action mode you may re-roll "
               "as often as you like, and a strategy-mode turn is a re-roll or a placement."),
}


#: The other reading of a clause, for positions judged by it (the analyzer's "judge all
#: sandwiches at once" is INT-1's); it names itself as not this site's own.
OTHER_READINGS = {
    "INT-1": _("Other reading, chosen for this position: every sandwich is judged on the board as Battle "
               "Time left it, and the start player's priority only settles cards claimed twice. This "
               "site's own reading has players collect one after another from the start player."),
}


#: The word every reading's label and every sentence that rests on a reading uses for it
#: (「解釈」, „Auslegung"), so a reader can tell the site's readings from the official rules.
READING_WORD = pgettext_lazy("a reading of an unclear rule, as the INT clauses name it", "reading")


def reading_label(clause: str, *, other: bool = False) -> str:
    """The label of an INT clause where a sentence depends on it: this site's reading
    (:func:`clause_summary`), or with ``other`` the other reading the position uses."""
    if other and clause in OTHER_READINGS:
        return str(OTHER_READINGS[clause])
    return clause_summary(clause)


#: Away from its own section of the rules page, a clause of strategy mode, a variant or the
#: first edition says so, or it would read as a rule of every game.
_KIND_FRAMES = (
    ("STRAT-", _("Strategy mode: %(rule)s")),
    ("VAR-4", _("First edition: %(rule)s")),
    ("VAR-", _("Variant: %(rule)s")),
)


def clause_summary(clause: str | None, *, in_section: bool = False) -> str:
    """The translated one-sentence statement of ``clause`` ("" if unknown or None); under
    its section's heading (``in_section``) without the "Variant:" the heading already says."""
    if not clause:
        return ""
    text = CLAUSES.get(clause)
    if text is None:
        return ""
    rule = str(text) % facts()
    if not in_section:
        frame = next((f for prefix, f in _KIND_FRAMES if clause.startswith(prefix)), None)
        if frame is not None:
            return str(frame) % {"rule": rule}
    return rule


def clause_texts() -> dict[str, str]:
    """Every clause's statement in the active language, by id."""
    return {cid: clause_summary(cid) for cid in CLAUSES}


#: The rules page's sections: (anchor, title, clause-id prefix).
SECTIONS = (
    ("setup", _("Components and setup"), "SETUP-"),
    ("round", _("A round"), "ROUND-"),
    ("dice", _("Dice Time (action mode)"), "DICE-"),
    ("strategy", _("Dice Time (strategy mode)"), "STRAT-"),
    ("setting", _("Setting Time"), "SET-"),
    ("battle", _("Battle Time"), "BAT-"),
    ("treasure", _("Treasure Time"), "TRE-"),
    ("end", _("End of the game"), "END-"),
    ("variants", _("Variants"), ("VAR-1", "VAR-2", "VAR-3")),
    # not a variant: the rule the official page marks as superseded (RULES.md, Variants)
    ("first-edition", _("First edition (superseded)"), ("VAR-4",)),
    ("interpretations", _("How this site reads unclear points"), "INT-"),
)


def sections() -> list[dict[str, object]]:
    """The rules page: every section with its clauses ``[(id, text), ...]`` in order.
    A section takes the clauses whose id starts with its prefix, or the ids it lists."""
    def belongs(cid: str, which: str | tuple[str, ...]) -> bool:
        return cid.startswith(which) if isinstance(which, str) else cid in which

    return [{"anchor": anchor, "title": title,
             "clauses": [(cid, clause_summary(cid, in_section=True))
                         for cid in CLAUSES if belongs(cid, which)]}
            for anchor, title, which in SECTIONS]


def sections_by_anchor() -> dict[str, dict[str, object]]:
    """:func:`sections` by anchor (``"setup"``, ``"variants"``…), for the printed sheets."""
    return {section["anchor"]: section for section in sections()}
