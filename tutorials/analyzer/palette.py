"""The controls of the analyzer's edit view, for :class:`~tutorials.analyzer.page.AnalyzerPage`:
the palette's chips (colours, attack cards, tools, treasure faces, board shapes) and the
setup panels (seats, rules), each leading to an edit link of the page's
(:class:`~tutorials.analyzer.edit_links.EditLinks`).
"""

from __future__ import annotations

from functools import cached_property

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from captain.rules import AttackKind, Colour, Situation, notation
from captain.rules.situation import BellRule, Collection, Mode, SpeedOrder
from tutorials.wording.facts import facts
from tutorials.wording.glossary import CARD_NAMES, COLOUR_LETTERS, COLOUR_NAMES
from tutorials.wording.phrases import list_join

#: the board shapes offered as one click each
SHAPES = ((3, 3), (4, 4), (3, 4), (4, 5), (5, 5), (6, 6))


def _pieces_of(situation: Situation, colour: Colour) -> str:
    """What removing ``colour`` from the table takes away with it: its attack cards and dice
    on the board and the cards it won earlier, counted ("2 attack cards and their dice on 1
    card"), or ""."""
    board = situation.board
    cards = sum(1 for card in board.cards().values() if card.colour == colour)
    dice = sum(1 for die in board.dice().values() if die.colour == colour)
    won = len(situation.won.get(colour, ()))
    items = []
    if cards:
        items.append(ngettext("%(n)s attack card", "%(n)s attack cards", cards) % {"n": cards})
    if dice:
        items.append(ngettext("their dice on %(n)s card", "their dice on %(n)s cards", dice) % {"n": dice})
    if won:
        items.append(ngettext("%(n)s card won earlier", "%(n)s cards won earlier", won) % {"n": won})
    return list_join(items)


def _chip(url: str, label: object, *, focus_id: str, active: bool = False, css: str = "", key: str = "",
          title: object = "", letter: object = "", colour: str = "", number: int | None = None) -> dict:
    """One palette chip for ``tutorials/_chip.html`` (through ``tutorials/_chips.html``):
    where it leads, its words, and the focus keeper's id for it (static/js/site.js)."""
    return {"url": url, "label": label, "focus_id": focus_id, "active": active, "css": css, "key": key,
            "title": title, "letter": letter, "colour": colour, "number": number}


class EditControls:
    """The edit view's controls of a page that has a ``situation``, the ``tool`` in hand,
    its ``edits`` (links), and ``prev`` and ``view`` from its address."""

    # --- palette ----------------------------------------------------------------------------
    def colour_buttons(self) -> list[dict]:
        """R, B, G, W: the colour of the card or dice the tool places (unseated dimmed)."""
        seated = self.situation.players
        return [_chip(self.edits.tool_url("colour", c.letter), COLOUR_NAMES[c], letter=COLOUR_LETTERS[c],
                      colour=c.value, css="" if c in seated else "unseated", key=c.letter,
                      active=self.tool.kind in ("card", "dice") and self.tool.colour == c,
                      focus_id=f"colour-{c.letter}")
                for c in Colour]

    def value_buttons(self) -> list[dict]:
        """0-5: the attack card the tool places."""
        return [_chip(self.edits.tool_url("value", str(int(k))), CARD_NAMES[k], number=int(k),
                      css="value-chip",
                      active=self.tool.kind == "card" and self.tool.value == int(k), key=str(int(k)),
                      title=CARD_NAMES[k], focus_id=f"value-{int(k)}")
                for k in AttackKind]

    def other_tools(self) -> list[dict]:
        """Dice, remove, no treasure card."""
        kind = self.tool.kind
        return [_chip(self.edits.tool_url("dice"), _("Dice"), active=kind == "dice", key="d",
                      focus_id="tool-d"),
                _chip(self.edits.tool_url("tool", "e"), _("Remove"), active=kind == "erase", key="e",
                      focus_id="tool-e"),
                _chip(self.edits.tool_url("tool", "x"), _("No treasure card"), active=kind == "gap", key="x",
                      focus_id="tool-x")]

    def face_choices(self) -> list[dict]:
        """The 21 treasure cards (11 to 66): the tool that changes a position's faces."""
        current = str(self.tool.faces) if self.tool.kind == "faces" else ""
        return [_chip(self.edits.tool_url("tool", f"t{a}{b}"), f"{a}{b}", css="face-chip",
                      active=current == f"{a}{b}", focus_id=f"faces-{a}{b}")
                for a in range(1, 7) for b in range(a, 7)]

    def shapes(self) -> list[dict]:
        """The usual board shapes, one click each."""
        current = self.situation.board.shape
        return [_chip(self.edits.edit_url("shape", f"{r}x{c}"), f"{r}×{c}", active=current == (r, c),
                      focus_id=f"shape-{r}x{c}")
                for r, c in SHAPES]

    # --- setup panels -----------------------------------------------------------------------
    def seat_buttons(self) -> list[dict]:
        """One row per colour: seated or not, its seat, the links that seat or remove it and
        make it start player, what removing it would take away (``note``) and, right after
        it was removed, what went with it (``removed``)."""
        seated = self.situation.players
        start = self.situation.seating.start_player
        out = []
        for c in Colour:
            things = _pieces_of(self.situation, c) if c in seated else ""
            note = (capfirst(_("Removing %(colour)s also removes %(things)s.")
                             % {"colour": COLOUR_NAMES[c], "things": things}) if things else "")
            removed = self.seat_removed if self.seat_removed and self.seat_removed["colour"] == c else None
            out.append({"colour": c, "name": COLOUR_NAMES[c], "letter": COLOUR_LETTERS[c],
                        "seated": c in seated, "seat": seated.index(c) + 1 if c in seated else None,
                        "start": c == start, "toggle": self.edits.edit_url("seat", c.letter),
                        "make_start": self.edits.edit_url("start", c.letter), "note": note,
                        "removed": removed["text"] if removed else ""})
        return out

    @cached_property
    def seat_removed(self) -> dict | None:
        """After a seated player was removed (the Undo target still seats them): the colour
        that left (``colour``) and a sentence saying what went with it (``text``)."""
        if not self.prev or self.view != "edit":
            return None
        before = notation.parse(self.prev)  # readable: see undo_target
        gone = [c for c in before.players if c not in self.situation.players]
        if len(gone) != 1:
            return None
        things = _pieces_of(before, gone[0])
        colour = COLOUR_NAMES[gone[0]]
        if not things:
            text = _("%(colour)s left the table.") % {"colour": colour}
        else:
            text = _("%(colour)s left the table. Removed with them: %(things)s.") % {
                "colour": colour, "things": things}
        return {"colour": gone[0], "text": capfirst(text)}

    def rule_toggles(self) -> list[dict]:
        r = self.situation.rules
        numbers = facts()
        rows = [
            ("s", _("Strategy mode"), r.mode is Mode.STRATEGY, "STRAT-1"),
            ("p", _("Place right after a re-roll"), r.place_after_reroll, "STRAT-4"),
            ("v1", _("Reversed speed %(speeds_reversed)s") % numbers, r.speed_order is SpeedOrder.REVERSED,
             "VAR-1"),
            ("v2", _("No Scout Ships"), r.no_scouts, "VAR-2"),
            ("v3", _("Bell when someone has placed all dice"), r.bell is BellRule.ALL_DICE, "VAR-3"),
            ("v4", _("First-edition bell (%(bell_cards)s cards anywhere)") % numbers,
             r.bell is BellRule.FIRST_EDITION, "VAR-4"),
            ("i", _("Judge all sandwiches at once"), r.collection is Collection.SIMULTANEOUS, "INT-1"),
        ]
        return [{"flag": f, "label": label, "on": on, "clause": clause,
                 "href": self.edits.edit_url("rule", f), "focus_id": f"rule-{f}"}
                for f, label, on, clause in rows]
