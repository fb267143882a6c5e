"""View model of the analyzer page: every link on it, the board, the answers."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from urllib.parse import quote_plus, urlencode

from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from captain.rules import AttackKind, Colour, InvalidInput, Position, RulesError, Situation, notation
from captain.rules.situation import BellRule, Collection, Mode, SpeedOrder
from tutorials.analyzer import edits as analyzer
from tutorials.analyzer.edits import Tool
from tutorials.drawing.cells import CellView, board_cells
from tutorials.drawing.chips import Chip, text
from tutorials.http.numbers import query_number
from tutorials.walkthrough import StepNav, Walkthrough
from tutorials.services import find_saved, short_link
from tutorials.wording.events import explain, list_join
from tutorials.wording.facts import facts
from tutorials.wording.glossary import CARD_NAMES, COLOUR_LETTERS, COLOUR_NAMES, COLUMN_LETTERS
from tutorials.wording.problems import describe, expected_text


@dataclass(frozen=True, slots=True)
class FocusChip(Chip):
    """A :class:`~tutorials.drawing.chips.Chip` with a stable ``data-focus-id``: the key by
    which the site's focus keeper (static/js/site.js) finds its replacement after a swap."""

    focus_id: str = ""

    def __html__(self) -> SafeString:
        html = Chip.__html__(self)
        if not self.focus_id:
            return html
        return mark_safe(html.replace("<a ", f'<a data-focus-id="{escape(self.focus_id)}" ', 1))

    def __str__(self) -> str:
        return self.__html__()


def _position_arg(arg: str) -> Position:
    """``"r-c"`` (zero-based row and column, ASCII digits)."""
    m = re.fullmatch(r"([0-9]{1,2})-([0-9]{1,2})", arg)
    if not m:
        raise InvalidInput("bad position", code="bad-position")
    return Position(int(m[1]), int(m[2]))


def _colour_arg(arg: str) -> Colour:
    if not re.fullmatch(r"[rbgw]", arg):
        raise InvalidInput(f"unknown colour letter {arg[:5]!r}", code="unknown-colour")
    return Colour.from_letter(arg)


def _shape_arg(arg: str) -> tuple[int, int]:
    """``"3x4"`` (or ``3X4``, ``3×4``): rows and columns."""
    m = re.fullmatch(r"\s*([0-9]{1,2})\s*[xX×]\s*([0-9]{1,2})\s*", arg)
    if not m:
        raise InvalidInput("bad board size", code="bad-size")
    return int(m[1]), int(m[2])


def _value_arg(arg: str) -> int:
    if not re.fullmatch(r"[0-5]", arg):
        raise InvalidInput("attack values run 0-5", code="bad-value")
    return int(arg)


#: Edits that change the situation: ``op`` -> f(situation, arg, tool, params).
_SITUATION_EDITS = {
    "put": lambda s, arg, tool, params: analyzer.put(s, _position_arg(arg), tool),
    "seat": lambda s, arg, tool, params: analyzer.toggle_seat(s, _colour_arg(arg)),
    "start": lambda s, arg, tool, params: analyzer.set_start(s, _colour_arg(arg)),
    "shape": lambda s, arg, tool, params: analyzer.resize(s, *_shape_arg(arg)),
    "faces": lambda s, arg, tool, params: analyzer.shuffle_faces(s, random.SystemRandom()),
    "rule": lambda s, arg, tool, params: analyzer.with_rules(s, analyzer.toggle_rule(s.rules, arg)),
    "deck": lambda s, arg, tool, params: analyzer.set_deck(s, params.get("deck", arg)),
    "won": lambda s, arg, tool, params: analyzer.set_won(s, params.get("won", arg)),
    "clear": lambda s, arg, tool, params: analyzer.clear(s),
    "whatif": lambda s, arg, tool, params: notation.parse(arg),
}

#: Edits that only choose the tool: ``op`` -> f(tool, arg).
_TOOL_EDITS = {
    "tool": lambda tool, arg: Tool.parse(arg),
    "colour": lambda tool, arg: tool.with_colour(_colour_arg(arg)),
    "value": lambda tool, arg: tool.with_value(_value_arg(arg)),
    "dice": lambda tool, arg: tool.as_dice(),
}


def describe_refusal(error: RulesError, situation: Situation, op: str) -> str:
    """What the page says when edit ``op`` of ``situation`` is refused: the shared wording
    (:func:`~tutorials.wording.problems.describe`), except for unreadable "cards won earlier",
    whose example then uses this table's colours."""
    if op == "won" and error.code == "bad-won-text":
        return _("The cards won earlier could not be read at character %(offset)s: expected "
                 "%(expected)s. Write a colour letter, then the faces of each card, like %(example)s.") % {
            "offset": error.params.get("offset", 0) + 1,
            "expected": expected_text(str(error.params.get("expected_code", ""))),
            "example": analyzer.won_example(situation)}
    return describe(error)


def apply_edit(situation: Situation, params: Mapping[str, str]) -> tuple[Situation, str]:
    """Apply the edit named by ``params['op']``; returns ``(situation, tool code)``.

    Raises :class:`~captain.rules.RulesError` when an argument cannot be read or the
    rules forbid the result; nothing is guessed.
    """
    op = params.get("op", "")
    arg = params.get("arg", "")
    tool = Tool.parse(params.get("tool", ""))
    if op in _TOOL_EDITS:
        return situation, _TOOL_EDITS[op](tool, arg).code
    if op in _SITUATION_EDITS:
        return _SITUATION_EDITS[op](situation, arg, tool, params), tool.code
    raise InvalidInput(f"unknown edit {op[:20]!r}", code="bad-edit")


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


def _readable(prev: str, code: str) -> str:
    """The Undo target ``prev`` in canonical notation, or "" when it cannot be read or is
    the position itself: Undo is offered only to a position the analyzer can show (the
    an unreadable ``prev`` would offer an Undo that leads to an error page)."""
    try:
        before = notation.parse(prev).to_notation()
    except RulesError:
        return ""
    return "" if before == code else before


@dataclass
class AnalyzerPage:
    """Everything the analyzer template shows."""

    situation: Situation | None
    raw: str
    error: str
    tool: Tool
    view: str
    step: int
    walk: Walkthrough | None = None
    cells: list[list[CellView]] = field(default_factory=list)
    saved_url: str = ""
    saved_title: str = ""
    #: what the user typed into the deck / won fields when it was refused (kept, not erased)
    typed: dict[str, str] = field(default_factory=dict)
    #: the what-if panel computed into the page; otherwise it is fetched after the answer
    #: (htmx, on load) or through a link (without JavaScript), see :attr:`what_if_url`
    what_ifs_inline: bool = False
    #: the field (or panel) the refusal in :attr:`error` is about: one of :data:`FIELDS`, or
    #: "" for the board (the message then stands above it)
    error_field: str = ""
    #: the position before the last change (notation), the target of Undo; "" when unknown
    prev: str = ""

    #: fields and panels a refusal can be shown beside: name -> id of the message
    FIELDS = {"won": "won-error", "deck": "deck-error", "shape": "shape-error", "title": "title-error",
              "pos": "pos-error", "seats": "seats-error", "rules": "rules-error"}

    @classmethod
    def build(cls, request: HttpRequest, situation: Situation | None, *, raw: str = "",
              error: str = "", tool: str | None = None, view: str | None = None,
              step: str | int | None = None, error_field: str = "",
              prev: str | None = None) -> AnalyzerPage:
        """The page of ``situation`` (``None``: ``raw`` could not be read, see ``error``).

        ``tool``, ``view``, ``step`` and ``prev`` default to the request's query; ``error``
        is a refusal to show, beside ``error_field`` when it names one of :data:`FIELDS`.
        """
        tool_code = tool if tool is not None else request.GET.get("tool", "")
        view = view or request.GET.get("view", "edit")
        k = query_number(str(step if step is not None else request.GET.get("step", "0")), 0)
        walk = Walkthrough(situation) if situation is not None else None
        if walk is None or not walk.steps:
            view = "edit"
        if view not in ("edit", "explain"):
            view = "edit"
        try:
            tool_value = Tool.parse(tool_code)
        except InvalidInput as exc:
            tool_value, error = Tool.parse(""), error or describe(exc)
        page = cls(situation, raw or (situation.to_notation() if situation else ""), error,
                   tool_value, view, walk.clamp(k) if walk else 0, walk)
        page.error_field = error_field if error and error_field in cls.FIELDS else ""
        prev = request.GET.get("prev", "") if prev is None else prev
        if situation is not None and 0 < len(prev) <= notation.MAX_LENGTH:
            page.prev = _readable(prev, page.code)
        page.cells = page._cells()
        saved = request.GET.get("saved", "")
        record = find_saved(saved) if saved else None
        if record is not None and situation is not None and record.notation == page.code:
            page.saved_url = request.build_absolute_uri(short_link(record.code))
            page.saved_title = record.title
        return page

    @cached_property
    def facts(self) -> dict[str, int | str]:
        """The game's countable facts (:func:`tutorials.wording.facts.facts`) for the page's
        messages."""
        return facts()

    @property
    def saved_title_bdi(self) -> str:
        """The saved title, escaped, in ``<bdi>``: its own text direction cannot spill over
        into the sentence around it."""

        return format_html("<bdi>{}</bdi>", self.saved_title)

    # --- urls -----------------------------------------------------------------------------
    @cached_property
    def code(self) -> str:
        """The situation's notation (computed once: every link on the page carries it)."""
        return self.situation.to_notation() if self.situation else self.raw

    @cached_property
    def _edit_prefix(self) -> str:
        """``/…/analyze/edit/?pos=…&tool=…&op=`` — the part every edit link shares."""
        query = urlencode({"pos": self.code, "tool": self.tool.code})
        return f"{reverse('tutorials:analyze-edit')}?{query}&op="

    def url(self, **extra) -> str:
        """This page's address: the position, the tool, the view and step, the Undo target
        (``prev``), and ``extra`` parameters."""
        query = {"pos": self.code}
        if self.tool.code != "r5":
            query["tool"] = self.tool.code
        if self.view == "explain":
            query["view"] = "explain"
            query["step"] = str(self.step)
        if self.prev:
            query["prev"] = self.prev
        query.update({k: str(v) for k, v in extra.items()})
        return f"{reverse('tutorials:analyze')}?{urlencode(query)}"

    def edit_url(self, op: str, arg: str = "") -> str:
        """The link that applies edit ``op`` (with ``arg``) to this page's situation."""
        url = self._edit_prefix + quote_plus(op)
        return f"{url}&arg={quote_plus(arg)}" if arg else url

    def tool_url(self, op: str, arg: str = "") -> str:
        """The link that chooses another tool: it keeps the Undo target, since choosing a
        tool changes no position."""
        url = self.edit_url(op, arg)
        return f"{url}&prev={quote_plus(self.prev)}" if self.prev else url

    @cached_property
    def undo_url(self) -> str:
        """The position before the last change, with the same tool; "" when there is none."""
        if not self.prev:
            return ""
        return f"{reverse('tutorials:analyze')}?{urlencode({'pos': self.prev, 'tool': self.tool.code})}"

    @cached_property
    def links(self) -> dict[str, str]:
        """Fixed actions: random faces, clear, back to editing."""
        return {"faces": self.edit_url("faces"), "clear": self.edit_url("clear"),
                "edit": self.view_url("edit")}

    @cached_property
    def _view_prefix(self) -> str:
        """``/…/analyze/?pos=…&tool=…`` — the part every view link shares (with the Undo
        target: looking at the answer changes no position)."""
        query = {"pos": self.code, "tool": self.tool.code}
        if self.prev:
            query["prev"] = self.prev
        return f"{reverse('tutorials:analyze')}?{urlencode(query)}"

    def view_url(self, view: str, step: int = 0) -> str:
        """This situation shown as ``view`` (``edit``, or ``explain`` at step ``step``)."""
        return f"{self._view_prefix}&view=explain&step={step}" if view == "explain" else self._view_prefix

    # --- board ------------------------------------------------------------------------------
    def _cells(self) -> list[list[CellView]]:
        if self.situation is None or self.walk is None:
            return []
        if self.view == "explain":
            return self.walk.cells(self.step)
        grid = (self.walk.cells(0) if self.walk.steps and self.walk.steps[0].kind == "bell"
                else board_cells(self.situation.board))
        for row in grid:
            for cell in row:
                cell.href = self.edit_url("put", f"{cell.pos.row}-{cell.pos.col}")
                cell.classes.append("editable")
        return grid

    @property
    def columns(self) -> list[str]:
        if self.situation is None:
            return []
        return list(COLUMN_LETTERS[: self.situation.board.shape[1]])

    @property
    def anchor(self) -> str:
        return "analyzer"

    # --- palette ----------------------------------------------------------------------------
    def colour_buttons(self) -> list[Chip]:
        """R, B, G, W: the colour of the card or dice the tool places (unseated dimmed)."""
        seated = self.situation.players if self.situation else ()
        return [FocusChip(self.tool_url("colour", c.letter),
                          format_html('<span class="token-letter" aria-hidden="true">{}</span> {}',
                                      COLOUR_LETTERS[c], COLOUR_NAMES[c]),
                          css=f"token-chip colour-{c.value}" + ("" if c in seated else " unseated"),
                          active=self.tool.kind in ("card", "dice") and self.tool.colour == c,
                          key=c.letter, focus_id=f"colour-{c.letter}")
                for c in Colour]

    def value_buttons(self) -> list[Chip]:
        """0-5: the attack card the tool places."""
        return [FocusChip(self.tool_url("value", str(int(k))),
                          format_html('<strong>{}</strong> <span class="chip-name">{}</span>',
                                      int(k), CARD_NAMES[k]),
                          css="value-chip", active=self.tool.kind == "card" and self.tool.value == int(k),
                          key=str(int(k)), title=str(CARD_NAMES[k]), focus_id=f"value-{int(k)}")
                for k in AttackKind]

    def other_tools(self) -> list[Chip]:
        """Dice, remove, no treasure card."""
        return [
            FocusChip(self.tool_url("dice"), text(_("Dice")), active=self.tool.kind == "dice", key="d",
                      focus_id="tool-d"),
            FocusChip(self.tool_url("tool", "e"), text(_("Remove")), active=self.tool.kind == "erase",
                      key="e", focus_id="tool-e"),
            FocusChip(self.tool_url("tool", "x"), text(_("No treasure card")),
                      active=self.tool.kind == "gap", key="x", focus_id="tool-x"),
        ]

    def face_choices(self) -> list[Chip]:
        """The 21 treasure cards (11 to 66): the tool that changes a position's faces."""
        current = str(self.tool.faces) if self.tool.kind == "faces" else ""
        return [FocusChip(self.tool_url("tool", f"t{a}{b}"), text(f"{a}{b}"), css="face-chip",
                          active=current == f"{a}{b}", focus_id=f"faces-{a}{b}")
                for a in range(1, 7) for b in range(a, 7)]

    # --- setup panels -----------------------------------------------------------------------
    def seat_buttons(self) -> list[dict]:
        """One row per colour: seated or not, its seat, the links that seat or remove it and
        make it start player, what removing it would take away (``note``) and, right after
        it was removed, what went with it (``removed``)."""
        if self.situation is None:
            return []
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
                        "start": c == start, "toggle": self.edit_url("seat", c.letter),
                        "make_start": self.edit_url("start", c.letter), "note": note,
                        "removed": removed["text"] if removed else ""})
        return out

    @cached_property
    def seat_removed(self) -> dict | None:
        """After a seated player was removed (the Undo target still seats them): the colour
        that left (``colour``) and a sentence saying what went with it (``text``)."""
        if self.situation is None or not self.prev or self.view != "edit":
            return None
        try:
            before = notation.parse(self.prev)
        except RulesError:
            return None
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

    def shapes(self) -> list[Chip]:
        """The usual board shapes, one click each."""
        current = self.situation.board.shape if self.situation else (0, 0)
        return [FocusChip(self.edit_url("shape", f"{r}x{c}"), text(f"{r}×{c}"), active=current == (r, c),
                          focus_id=f"shape-{r}x{c}")
                for r, c in ((3, 3), (4, 4), (3, 4), (4, 5), (5, 5), (6, 6))]

    def rule_toggles(self) -> list[dict]:
        if self.situation is None:
            return []
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
        return [{"flag": f, "label": label, "on": on, "clause": clause, "href": self.edit_url("rule", f),
                 "focus_id": f"rule-{f}"}
                for f, label, on, clause in rows]

    @property
    def deck_value(self) -> str:
        if "deck" in self.typed:
            return self.typed["deck"]
        return "" if self.situation is None or self.situation.deck is None else str(self.situation.deck)

    @property
    def won_value(self) -> str:
        if "won" in self.typed:
            return self.typed["won"]
        return analyzer.won_text(self.situation) if self.situation else ""

    @property
    def shape_value(self) -> str:
        """The rows × columns field: what was typed when it was refused, else the board's."""
        if "shape" in self.typed:
            return self.typed["shape"]
        rows, cols = self.situation.board.shape if self.situation else (0, 0)
        return f"{rows}x{cols}"

    @property
    def title_value(self) -> str:
        """The title field: what was typed when saving was refused, else empty."""
        return self.typed.get("title", "")

    @cached_property
    def won_example(self) -> dict[str, str]:
        """An example for the "cards won earlier" field that this table can use: the first
        two seated colours (``example``, e.g. ``g1166.w2235``) and its reading (``help``)."""
        if self.situation is None:
            return {"example": "", "help": ""}
        first, second = self.situation.players[:2]
        a, b, c, d = analyzer.WON_EXAMPLE_FACES
        example = analyzer.won_example(self.situation)
        return {"example": example, "help": _(
            "Colour letter, then the faces of each card: %(example)s = %(first)s won %(a)s and "
            "%(b)s, %(second)s %(c)s and %(d)s. Capitals and either face first are fine.") % {
            "example": example, "first": COLOUR_NAMES[first], "second": COLOUR_NAMES[second],
            "a": a, "b": b, "c": c, "d": d}}

    @property
    def board_error(self) -> str:
        """The refusal to show above the board: one that names no field."""
        return "" if self.error_field else self.error

    @property
    def field_errors(self) -> dict[str, str]:
        """``{field: message}`` for the template: at most one field is refused at a time."""
        return {self.error_field: self.error} if self.error_field else {}

    # --- answers ----------------------------------------------------------------------------
    @property
    def has_question(self) -> bool:
        return bool(self.walk and self.walk.steps)

    def questions(self) -> list[str]:
        if not self.walk:
            return []
        sol = self.walk.solution
        out = []
        if sol.bell is not None:
            out.append(_("Is Dice Time over?") if self.situation.rules.mode is Mode.STRATEGY
                       else _("May the bell ring now?"))
        if sol.battle is not None:
            out.append(_("What happens in Battle and Treasure Time?"))
        if sol.round_end is not None:
            out.append(_("Is the game over, and who wins?"))
        return out

    @cached_property
    def nav(self) -> StepNav | None:
        """The answer step by step (explain view only)."""
        if not self.walk or not self.walk.steps or self.view != "explain":
            return None
        return StepNav(self.walk, self.step, lambda k: self.view_url("explain", k), anchor="analyzer-stage")

    @property
    def explain_url(self) -> str | None:
        """"Explain step by step": the answer's first step."""
        return self.view_url("explain", 0) if self.has_question else None

    @cached_property
    def winnings(self):
        """The treasure won once the round is over (edit view; the steps show their own)."""
        if not self.walk or not self.walk.steps:
            return []
        return self.walk.winnings(len(self.walk.steps) - 1)

    def bell(self):
        return self.walk.solution.bell if self.walk else None

    @property
    def bell_text(self) -> str:
        bell = self.bell()
        return explain(bell.event).text if bell else ""

    def round_end(self):
        return self.walk.solution.round_end if self.walk else None

    def round_end_text(self) -> list:
        """The end-of-round sentences (refill, game over or not, winner) for the answers."""

        end = self.round_end()
        return [explain(e) for e in end.events] if end else []

    def other_reading(self):
        """INT-1's other reading, when it changes the answer: the players it changes."""
        if not self.walk or not self.walk.solution.treasure:
            return None
        other = self.walk.solution.treasure.other_reading
        if other is None:
            return None
        winnings = self.walk.solution.treasure.winnings
        # only the players whose result the other reading changes
        return [{"name": COLOUR_NAMES[c], "colour": c, "count": len(other[c]),
                 "now": len(winnings[c])}
                for c in self.walk.solution.treasure.order if set(other[c]) != set(winnings[c])]

    @property
    def offers_what_ifs(self) -> bool:
        """Whether the page has a what-if panel: cards or dice lie on the board."""
        if self.situation is None:
            return False
        board = self.situation.board
        return bool(board.cards() or board.dice())

    @cached_property
    def what_if_url(self) -> str:
        """The what-if panel of this situation: a fragment for htmx, else the page with it
        (keeping the Undo target)."""
        query = {"pos": self.code, "tool": self.tool.code}
        if self.prev:
            query["prev"] = self.prev
        return f"{reverse('tutorials:analyze-what-if')}?{urlencode(query)}"

    @cached_property
    def what_ifs(self):
        if self.situation is None:
            return []

        return [{"label": capfirst(w.label), "changes": w.changes,
                 "href": self.edit_url("whatif", w.notation)}
                for w in analyzer.what_ifs(self.situation)]
