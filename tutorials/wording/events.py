"""Turn engine events into one sentence each, in the active language.

The engine's events carry codes, parameters and clause ids, never text; this module
is the only place that words them. Every sentence is a whole gettext message with
named placeholders, so translators can reorder freely.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from captain.rules import Board, Event
from tutorials.wording.clauses import reading_label
from tutorials.wording.facts import FACTS
from tutorials.wording.glossary import position_label
from tutorials.wording.phrases import card_at, card_phrase, colour_name, list_join, positions, sentences


@dataclass(frozen=True)
class Explanation:
    """A worded event: ``text`` plus the clause ids it cites (main first)."""

    code: str
    text: str
    clause: str
    interpretation: str | None
    #: further clauses the sentence relies on: BAT-2 when it says why a card of equal
    #: speed went first
    also: tuple[str, ...] = ()
    #: the position is judged by the other reading of :attr:`interpretation` (the
    #: analyzer's "judge all sandwiches at once", INT-1), not by this site's own
    other_reading: bool = False

    @property
    def cited(self) -> tuple[str, ...]:
        """Every clause the sentence cites, main first, the reading (INT) last."""
        ids = (self.clause, *self.also, *((self.interpretation,) if self.interpretation else ()))
        return tuple(dict.fromkeys(ids))

    @property
    def interpretation_title(self) -> str:
        """The reading's label: this site's reading, or the other one where the position
        uses that (:func:`~tutorials.wording.clauses.reading_label`)."""
        return reading_label(self.interpretation, other=self.other_reading) if self.interpretation else ""


def short_line(board: Board, line: Iterable[Iterable[int]]) -> bool:
    """True when ``line`` (positions of one row, column or diagonal of ``board``) does not
    span the whole grid — a 3-card diagonal on 4×4, the short last row of a rearranged
    grid: it counts as a line for the bell (DICE-4) and for the end of Dice Time (STRAT-3)
    only by this site's reading (INT-3)."""
    g = board.geometry
    cells = {tuple(p) for p in line}
    return any(cells <= set(whole) and not full for whole, full in zip(g.lines, g.full_lines, strict=True))


def _reading_of(event: Event, board: Board | None) -> str | None:
    """The reading the sentence depends on. The engine names a reading where it changed
    the answer; a sentence that names a short line as *the* line depends on INT-3 even
    when another full line would have decided alike."""
    line = event.params.get("line") if event.code.startswith("bell.") else None
    if event.interpretation is None and line and board is not None and short_line(board, line):
        return "INT-3"
    return event.interpretation


def explain(event: Event, board: Board | None = None) -> Explanation:
    """Word one engine event. Unknown codes raise ``KeyError`` (a test covers all codes).
    ``board``, the position the event judged, lets a bell sentence name the reading its
    line depends on (:func:`short_line`)."""
    p = event.params
    worder = _STRATEGY_WORDERS.get(event.code) if event.clause == "STRAT-3" else None
    text = capfirst((worder or _WORDERS[event.code])(p))
    also = ("BAT-2",) if p.get("went_before") and p.get("order_clause") == "BAT-2" else ()
    reading = _reading_of(event, board)
    other = reading == "INT-1" and p.get("reading", "sequential") != "sequential"
    return Explanation(event.code, text, event.clause, reading, also, other)


def _battle_reveal(p) -> str:
    order = " → ".join(str(v) for v in p["order"])
    return _("All attack cards are turned face up. They act by speed: %(order)s.") % {"order": order}


def _tie(p) -> str:
    """BAT-2, only where the order of equal-speed cards decided something."""
    ahead = p.get("went_before")
    if ahead:
        args = {"cards": list_join(card_at(o["card"], o["position"], "after preposition") for o in ahead),
                "colour": colour_name(p["colour"])}
        if ahead[0]["reason"] == "start-player":
            return ngettext("It acts before %(cards)s, which has the same speed, because "
                            "%(colour)s is the start player.",
                            "It acts before %(cards)s, which have the same speed, because "
                            "%(colour)s is the start player.", len(ahead)) % args
        return ngettext("It acts before %(cards)s, which has the same speed, because "
                        "%(colour)s sits earlier clockwise from the start player.",
                        "It acts before %(cards)s, which have the same speed, because "
                        "%(colour)s sits earlier clockwise from the start player.", len(ahead)) % args
    return ""


def _battle_act(p) -> str:
    args = {"card": card_phrase(p["card"], "subject"), "at": position_label(p["position"])}
    if p["removed"]:
        removed = zip(p["removed_cards"], p["removed"], strict=True)
        args["removed"] = list_join(card_at(t, pos, "object") for t, pos in removed)
        text = _("%(card)s at %(at)s acts and removes %(removed)s to their owners' discard.") % args
    elif p["immune"]:  # only Hostage Gambits in range: say so, not "no card in range"
        text = _("%(card)s at %(at)s acts, but the only other players' cards in its range are "
                 "Hostage Gambits (%(pos)s), which can never be removed.") % {
            **args, "pos": positions(p["immune"])}
        return sentences(text, _tie(p))
    else:
        text = _("%(card)s at %(at)s acts, but no other player's card is in its range.") % args
    immune = _("The Hostage Gambit at %(pos)s is in range but can never be removed.") % {
        "pos": positions(p["immune"])} if p["immune"] else ""
    return sentences(text, immune, _tie(p))


def _battle_no_effect(p) -> str:
    args = {"card": card_phrase(p["card"], "subject"), "at": position_label(p["position"])}
    if p["value"] == 0:
        return _("%(card)s at %(at)s has its turn: it attacks nothing, and nothing can remove it.") % args
    return _("%(card)s at %(at)s has its turn: it has no attack.") % args


def _battle_skipped(p) -> str:
    return _("%(card)s at %(at)s was removed by the card at %(by)s before its turn, so it does "
             "nothing.") % {"card": card_phrase(p["card"], "subject"), "at": position_label(p["position"]),
                            "by": position_label(p["removed_by"])}


def _battle_done(p) -> str:
    if not p["survivors"]:
        return _("Battle Time is over. No attack card survived.")
    return _("Battle Time is over. Still on the board: %(cards)s.") % {
        "cards": list_join(card_at(t, pos, "subject") for pos, t in p["survivors"])}


def _treasure_card(p) -> str:
    args = {"colour": colour_name(p["colour"]).capitalize(), "at": position_label(p["position"])}
    if not p.get("card"):
        return _("%(colour)s wins the treasure card at %(at)s.") % args
    return _("%(colour)s wins the treasure card at %(at)s, where %(card)s survived.") % {
        **args, "card": card_phrase(p["card"], "subject")}


def _treasure_none(p) -> str:
    return _("%(colour)s has no attack card left on the board, so wins nothing this round.") % {
        "colour": colour_name(p["colour"]).capitalize()}


def _treasure_sandwich(p) -> str:
    # the colour opens the sentence (capitalised) and is named again after the colon (as it is)
    text = ngettext("%(colour)s's cards at %(a)s and %(b)s sandwich %(won)s: %(who)s wins it too.",
                    "%(colour)s's cards at %(a)s and %(b)s sandwich %(won)s: %(who)s wins them too.",
                    len(p["won"])) % {
        "colour": colour_name(p["colour"]).capitalize(), "who": colour_name(p["colour"]),
        "a": position_label(p["ends"][0]),
        "b": position_label(p["ends"][1]), "won": positions(p["won"])}
    if p.get("unblocked"):
        return sentences(text, _("The card at %(pos)s that stood between them was already collected "
                                 "by an earlier player, so it no longer blocks.") % {
            "pos": positions(p["unblocked"])})
    if p.get("gap"):
        return sentences(text, _("By this site's reading, an empty position between them does not "
                                 "break the sandwich."))
    return text


def _treasure_blocked(p) -> str:
    return _("%(colour)s's cards at %(a)s and %(b)s do not sandwich anything: another player's "
             "card lies between them at %(at)s.") % {
        "colour": colour_name(p["colour"]).capitalize(), "a": position_label(p["ends"][0]),
        "b": position_label(p["ends"][1]), "at": positions(p["blocked_by"])}


def _treasure_priority(p) -> str:
    return _("%(colour)s also sandwiches %(at)s, but %(winner)s collects before them and has "
             "already taken it.") % {
        "colour": colour_name(p["colour"]).capitalize(), "at": positions(p["positions"]),
        "winner": colour_name(p["winner"])}


def _winnings_phrase(w) -> str:
    return list_join(_("%(colour)s %(count)s") % {"colour": colour_name(colour), "count": len(ps)}
                     for colour, ps in w.items())


def _treasure_reading(p) -> str:
    if p["reading"] == "sequential":
        return _("This answer depends on the reading of the rules: players collect one after "
                 "another. If all sandwiches were judged at once instead, the cards won would "
                 "be: %(other)s.") % {"other": _winnings_phrase(p["other_winnings"])}
    return _("This answer depends on the reading of the rules: all sandwiches are judged at "
             "once. If players collected one after another instead, the cards won would be: "
             "%(other)s.") % {"other": _winnings_phrase(p["other_winnings"])}


def _treasure_gap(p) -> str:
    return _("This answer relies on this site's reading that an empty position does not break "
             "a sandwich. If it did, the cards won would be: %(other)s.") % {
        "other": _winnings_phrase(p["other_winnings"])}


def _treasure_discard(p) -> str:
    return _("All attack cards left on the board go face down to their owners' discard piles.")


def _bell_line(p) -> str:
    return _("The bell may ring: the line %(line)s has dice on %(held)s.") % {
        "line": positions(p["line"]), "held": positions(p["held"])}


def _bell_count(p) -> str:
    return _("The bell may ring: %(count)s cards hold dice (%(held)s).") % {
        "count": len(p["held"]), "held": positions(p["held"])}


def _bell_all_dice(p) -> str:
    return _("The bell may ring: %(colour)s has placed all %(dice)s dice.") % {
        "colour": colour_name(p["colour"]), "dice": FACTS["dice"]}


def _bell_not_yet(p) -> str:
    needed = p["needed"]
    if p.get("colour"):
        return ngettext("Not yet: nobody has placed all %(dice)s dice; %(colour)s needs dice on "
                        "%(needed)s more card.",
                        "Not yet: nobody has placed all %(dice)s dice; %(colour)s needs dice on "
                        "%(needed)s more cards.", needed) % {
            "colour": colour_name(p["colour"]), "needed": needed, "dice": FACTS["dice"]}
    if "line" in p and p["line"] is None:  # dice may lie on the board, but no line counts (INT-3)
        return _("Not yet: no row, column or diagonal holds %(n)s treasure cards, so no line "
                 "can let the bell ring.") % {"n": FACTS["bell_cards"]}
    if p.get("line") and not p.get("held") and p.get("lines_held") is False:  # dice may lie off every line
        return _("Not yet: no row, column or diagonal has dice on any of its cards so far.")
    if p.get("line"):
        return ngettext("Not yet: the closest line is %(line)s, which needs dice on %(needed)s "
                        "more card.",
                        "Not yet: the closest line is %(line)s, which needs dice on %(needed)s "
                        "more cards.", needed) % {"line": positions(p["line"]), "needed": needed}
    if not p.get("held"):
        return _("Not yet: no card holds dice so far.")
    return ngettext("Not yet: dice must lie on %(needed)s more card.",
                    "Not yet: dice must lie on %(needed)s more cards.", needed) % {"needed": needed}


def _dice_time_over(p) -> str:
    """STRAT-3: strategy mode has no bell; a full line ends Dice Time by itself."""
    # "becomes" would tell a start player who placed last that something changed
    return _("Dice Time is over: every card of the line %(line)s holds dice. Whoever placed "
             "the last of those dice is now the start player.") % {"line": positions(p["line"])}


def _dice_time_goes_on(p) -> str:
    needed = p["needed"]
    if p.get("line") is None:  # dice may lie on the board, but no line counts (INT-3)
        return _("Dice Time goes on: no row, column or diagonal holds %(n)s treasure cards, so "
                 "no line can end it.") % {"n": FACTS["bell_cards"]}
    if not p.get("held") and p.get("lines_held") is False:  # dice may lie off every line
        return _("Dice Time goes on: no row, column or diagonal has dice on any of its cards so far.")
    return ngettext("Dice Time goes on until a row, column or diagonal is full; the closest, "
                    "%(line)s, needs dice on %(needed)s more card.",
                    "Dice Time goes on until a row, column or diagonal is full; the closest, "
                    "%(line)s, needs dice on %(needed)s more cards.", needed) % {
        "line": positions(p["line"]), "needed": needed}


def _round_refill(p) -> str:
    return ngettext("The start player refills the empty positions: %(drawn)s card from the deck.",
                    "The start player refills the empty positions: %(drawn)s cards from the deck.",
                    p["drawn"]) % p


def _round_rearrange(p) -> str:
    return _("The deck cannot fill the grid, so the %(cards)s cards are laid out as close to a "
             "square as possible: %(rows)s rows of up to %(columns)s.") % p


def _round_continue(p) -> str:
    return _("%(board_after)s treasure cards are on the board: the next round begins.") % p


def _round_game_over(p) -> str:
    return _("The deck is empty and only %(board_after)s treasure cards remain, too few for a "
             "%(side)s×%(side)s grid: the game ends.") % {**p, "side": FACTS["side_2p"]}


def _round_standings(p) -> str:
    if p["winner"]:
        if p["doubles_decided"]:
            return _("%(winner)s wins: level on cards, but with more doubles.") % {
                "winner": colour_name(p["winner"]).capitalize()}
        return _("%(winner)s wins with the most treasure cards.") % {
            "winner": colour_name(p["winner"]).capitalize()}
    names = list_join(colour_name(c) for c in p["tied"])
    return _("Still level on cards and doubles (%(players)s): the players settle it among "
             "themselves.") % {"players": names}


def _faces(dice) -> str:
    return pgettext("dice faces", " ").join(str(d) for d in dice)


def _game_setup(p) -> str:
    side = p["grid"][0]
    text = _("A new game: %(players)s play, and %(start)s is the start player. %(cards)s treasure cards "
             "lie in a %(side)s×%(side)s grid and %(deck)s wait in the deck; each player holds %(hand)s "
             "attack cards.") % {
        "players": list_join(colour_name(c) for c in p["players"]),
        "start": colour_name(p["start_player"]), "cards": side * side, "side": side,
        "deck": p["deck"], "hand": len(p["hand"])}
    if p["box"]:
        text = sentences(text, _("%(box)s treasure cards went back to the box unseen.") % p)
    return text


def _dice_start(p) -> str:
    rolls = list_join(_("%(colour)s %(faces)s") % {"colour": colour_name(c), "faces": _faces(d)}
                      for c, d in p["rolls"].items())
    return _("Dice Time begins, and everyone rolls: %(rolls)s.") % {"rolls": rolls}


def _dice_roll(p) -> str:
    args = {"colour": colour_name(p["colour"]), "faces": _faces(p["dice"])}
    if p.get("rerolled"):
        return _("%(colour)s re-rolls %(rerolled)s and now holds %(faces)s.") % {
            **args, "rerolled": _faces(p["rerolled"])}
    return _("%(colour)s re-rolls all dice in hand and now holds %(faces)s.") % args


def _dice_claim(p) -> str:
    return _("%(colour)s puts %(low)s and %(high)s on the treasure card at %(at)s.") % {
        "colour": colour_name(p["colour"]), "low": p["faces"][0], "high": p["faces"][1],
        "at": position_label(p["position"])}


def _dice_pass(p) -> str:
    return _("%(colour)s passes after the re-roll.") % {"colour": colour_name(p["colour"])}


def _dice_false_bell(p) -> str:
    return _("%(colour)s rings a false bell and sits out the rest of this Dice Time.") % {
        "colour": colour_name(p["colour"])}


def _dice_penalties_lifted(p) -> str:
    return _("Every player has rung a false bell, so the penalties are lifted.")


def _dice_stuck(p) -> str:
    args = {"start": colour_name(p["start_player"])}
    if p.get("all_placed"):
        return _("Every player has placed all their dice, so Dice Time ends; %(start)s stays the "
                 "start player.") % args
    return _("Nobody can act any more, so Dice Time ends; %(start)s stays the start player.") % args


def _dice_end(p) -> str:
    args = {"start": colour_name(p["start_player"])}
    if p.get("rang"):
        return _("%(start)s rings the bell: Dice Time is over, and %(start)s is the start player.") % args
    return _("%(start)s fills a line: Dice Time is over, and %(start)s is the start player.") % args


def _setting_recycle(p) -> str:
    return ngettext("%(colour)s has no card in hand and takes back %(cards)s card from the discard pile.",
                    "%(colour)s has no card in hand and takes back %(cards)s cards from the discard pile.",
                    p["cards"]) % {"colour": colour_name(p["colour"]), "cards": p["cards"]}


def _setting_place(p) -> str:
    return _("%(colour)s puts an attack card face down on %(at)s and takes those dice back.") % {
        "colour": colour_name(p["colour"]), "at": position_label(p["position"])}


_WORDERS = {
    "game.setup": _game_setup,
    "dice.start": _dice_start,
    "dice.roll": _dice_roll,
    "dice.claim": _dice_claim,
    "dice.pass": _dice_pass,
    "dice.false_bell": _dice_false_bell,
    "dice.penalties_lifted": _dice_penalties_lifted,
    "dice.stuck": _dice_stuck,
    "dice.end": _dice_end,
    "setting.recycle": _setting_recycle,
    "setting.place": _setting_place,
    "battle.reveal": _battle_reveal,
    "battle.act": _battle_act,
    "battle.no_effect": _battle_no_effect,
    "battle.skipped": _battle_skipped,
    "battle.done": _battle_done,
    "treasure.card": _treasure_card,
    "treasure.none": _treasure_none,
    "treasure.sandwich": _treasure_sandwich,
    "treasure.blocked": _treasure_blocked,
    "treasure.priority": _treasure_priority,
    "treasure.reading_matters": _treasure_reading,
    "treasure.gap_matters": _treasure_gap,
    "treasure.discard": _treasure_discard,
    "bell.line": _bell_line,
    "bell.count": _bell_count,
    "bell.all_dice": _bell_all_dice,
    "bell.not_yet": _bell_not_yet,
    "round.refill": _round_refill,
    "round.rearrange": _round_rearrange,
    "round.continue": _round_continue,
    "round.game_over": _round_game_over,
    "round.standings": _round_standings,
}

#: Strategy mode has no bell (STRAT-1): its Dice Time ends by itself (STRAT-3).
_STRATEGY_WORDERS = {
    "bell.line": _dice_time_over,
    "bell.not_yet": _dice_time_goes_on,
}

#: Every event code the engine can produce has a wording here.
KNOWN_CODES = frozenset(_WORDERS)
