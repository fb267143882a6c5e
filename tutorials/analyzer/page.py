"""View models of the analyzer page, one for each thing it can show: :class:`AnalyzerPage`,
a situation the engine read (the board, the panels that edit it, the answers), and
:class:`UnreadablePage`, position text that is not one (the text to correct and why).

Neither reads the request or the database: the views pass what the address asked for
and the saved position a short link named (:func:`tutorials.services.find_saved`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from captain.rules import RulesError, Situation
from captain.rules.situation import Collection, Mode
from tutorials.analyzer import edits as analyzer
from tutorials.analyzer.edit_links import EditLinks, read_history, write_history
from tutorials.analyzer.edits import Tool
from tutorials.analyzer.palette import EditControls
from tutorials.drawing.cells import CellView, board_cells
from tutorials.walkthrough import StepNav, Walkthrough
from tutorials.web import fragments
from tutorials.web.links import analyzer_url
from tutorials.web.numbers import query_number
from tutorials.web.positions import position_arg
from tutorials.wording.clauses import reading_label
from tutorials.wording.events import Explanation, explain
from tutorials.wording.facts import facts
from tutorials.wording.glossary import COLOUR_NAMES

#: fields and panels a refusal can be shown beside: name -> id of the message
FIELDS = {"won": "won-error", "deck": "deck-error", "shape": "shape-error", "title": "title-error",
          "pos": "pos-error", "seats": "seats-error", "rules": "rules-error"}


def read_tool(code: str) -> Tool:
    """The tool an address names; one it cannot name is the default tool (an edit link
    with it is refused by :func:`~tutorials.analyzer.edit_links.apply_edit`, which says so)."""
    try:
        return Tool.parse(code)
    except RulesError:
        return Tool.parse("")


@dataclass(frozen=True)
class UnreadablePage:
    """The analyzer when ``raw`` is not a position: the text back in its field, ``error``
    beside it (the reader's language, with its code), and a way to an empty board."""

    raw: str
    error: str
    #: the tool the address named, kept in the page's own address
    tool: Tool = field(default_factory=lambda: Tool.parse(""))
    readable = False
    view = "edit"

    def url(self) -> str:
        """This page's address (its language links lead here)."""
        return analyzer_url(self.raw, tool=None if self.tool.code == "r5" else self.tool.code)


def _changed(order, other, winnings) -> list[dict]:
    """The players whose winnings differ under another reading: name, count under it and now."""
    return [{"name": COLOUR_NAMES[c], "colour": c, "count": len(other[c]), "now": len(winnings[c])}
            for c in order if set(other[c]) != set(winnings[c])]


@dataclass
class AnalyzerPage(EditControls):
    """Everything the analyzer template shows of a readable situation."""

    situation: Situation
    tool: Tool
    view: str
    step: int
    #: a refusal to show, beside :attr:`error_field` when that is one of :data:`FIELDS`,
    #: else above the board
    error: str = ""
    error_field: str = ""
    #: the clause that refused the edit ("" for a refusal no rule makes, such as a typo)
    error_clause: str = ""
    #: the edit history, nearest first: the positions Undo goes back to, and those Redo
    #: goes forward to again (notations, readable: see :func:`read_history`)
    history: tuple[str, ...] = ()
    future: tuple[str, ...] = ()
    #: the short link and title of the saved position the page was opened from
    saved_url: str = ""
    saved_title: str = ""
    #: its code, so the PDF of the page can carry the same short link and title
    saved_code: str = ""
    #: what the user typed into the deck / won fields when it was refused (kept, not erased)
    typed: dict[str, str] = field(default_factory=dict)
    #: the what-if panel computed into the page; otherwise it is fetched after the answer
    #: (htmx, on load) or through a link (without JavaScript), see :attr:`what_if_url`
    what_ifs_inline: bool = False
    readable = True

    @classmethod
    def build(cls, situation: Situation, *, tool: str = "", view: str = "edit", step: str = "0",
              prev: str = "", next: str = "", error: str = "", error_field: str = "", saved_url: str = "",
              saved_title: str = "") -> AnalyzerPage:
        """The page of ``situation`` as an address asks for it: the ``tool`` in hand, the
        ``view`` (``edit``, or ``explain`` at ``step``) and the edit history (``prev``
        for Undo, ``next`` for Redo)."""
        page = cls(situation, read_tool(tool), "edit", 0, error,
                   error_field if error and error_field in FIELDS else "", saved_url=saved_url,
                   saved_title=saved_title)
        if view == "explain" and page.walk.steps:  # editing needs no step: no walkthrough yet
            page.view, page.step = view, page.walk.clamp(query_number(step, 0))
        page.history, page.future = read_history(prev, page.code), read_history(next, page.code)
        return page

    @cached_property
    def walk(self) -> Walkthrough:
        """The answer step by step; made when the page shows an answer, not for its
        what-if panel or a page served from the fragment cache."""
        return Walkthrough(self.situation)

    @property
    def prev(self) -> str:
        """The position before the last change, the target of Undo; "" when there is none."""
        return self.history[0] if self.history else ""

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
        return self.situation.to_notation()

    @cached_property
    def edits(self) -> EditLinks:
        return EditLinks(self.code, self.tool, write_history(self.history), write_history(self.future))

    @property
    def fragment_key(self) -> str:
        """The hash of everything this page's cached fragments show (with the language and
        code version): its address (position, tool, view, step, history), the refusal, what
        was typed, the saved link and whether the what-ifs are inline."""
        return fragments.digest((self.url(), self.error, self.error_field, self.error_clause,
                               repr(sorted(self.typed.items())), self.saved_url, self.saved_title,
                               self.saved_code, str(self.what_ifs_inline)))

    def url(self, **extra) -> str:
        """This page's address: the position, the tool, the view and step, the edit history,
        and ``extra`` parameters."""
        explaining = self.view == "explain"
        return analyzer_url(self.code, tool=None if self.tool.code == "r5" else self.tool.code,
                            view="explain" if explaining else None, step=self.step if explaining else None,
                            prev=write_history(self.history), next=write_history(self.future), **extra)

    @cached_property
    def undo_url(self) -> str:
        """The position before the last change, with the same tool, this one first to
        redo; "" when there is none."""
        if not self.history:
            return ""
        return analyzer_url(self.history[0], tool=self.tool.code, prev=write_history(self.history[1:]),
                            next=write_history((self.code, *self.future)))

    @cached_property
    def redo_url(self) -> str:
        """The position the last Undo left, with the same tool; "" when there is none."""
        if not self.future:
            return ""
        return analyzer_url(self.future[0], tool=self.tool.code,
                            prev=write_history((self.code, *self.history)),
                            next=write_history(self.future[1:]))

    @cached_property
    def links(self) -> dict[str, str]:
        """Fixed actions: random faces, clear, back to editing."""
        return {"faces": self.edits.edit_url("faces"), "clear": self.edits.edit_url("clear"),
                "edit": self.view_url("edit")}

    def view_url(self, view: str, step: int = 0) -> str:
        """This situation shown as ``view`` (``edit``, or ``explain`` at step ``step``), with
        the edit history (looking at the answer changes no position), in the order of :meth:`url`."""
        explaining = view == "explain"
        return analyzer_url(self.code, tool=self.tool.code, view="explain" if explaining else None,
                            step=step if explaining else None, prev=write_history(self.history),
                            next=write_history(self.future))

    # --- board ------------------------------------------------------------------------------
    @cached_property
    def cells(self) -> list[list[CellView]]:
        """The board: at the step shown, or (editing) every cell a link that places the tool."""
        if self.view == "explain":
            return self.walk.cells(self.step)
        bell_first = self.walk.steps and self.walk.steps[0].kind == "bell"
        grid = self.walk.cells(0) if bell_first else board_cells(self.situation.board)
        for row in grid:
            for cell in row:
                cell.href = self.edits.edit_url("put", position_arg(cell.pos))
                cell.classes.append("editable")
        return grid

    @property
    def deck_value(self) -> str:
        if "deck" in self.typed:
            return self.typed["deck"]
        return "" if self.situation.deck is None else str(self.situation.deck)

    @property
    def won_value(self) -> str:
        return self.typed["won"] if "won" in self.typed else analyzer.won_text(self.situation)

    @property
    def shape_value(self) -> str:
        """The rows × columns field: what was typed when it was refused, else the board's."""
        if "shape" in self.typed:
            return self.typed["shape"]
        rows, cols = self.situation.board.shape
        return f"{rows}x{cols}"

    @property
    def title_value(self) -> str:
        """The title field: what was typed when saving was refused, else empty."""
        return self.typed.get("title", "")

    @cached_property
    def won_example(self) -> dict[str, str]:
        """An example for the "cards won earlier" field that this table can use: the first
        two seated colours (``example``, e.g. ``g1166.w2235``) and its reading (``help``)."""
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
        return bool(self.walk.steps)

    def questions(self) -> list[str]:
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
        if self.view != "explain":
            return None
        return StepNav(self.walk, self.step, lambda k: self.view_url("explain", k), anchor="analyzer-stage")

    @property
    def explain_url(self) -> str | None:
        """"Explain step by step": the answer's first step."""
        return self.view_url("explain", 0) if self.has_question else None

    @cached_property
    def winnings(self):
        """The treasure won once the round is over (edit view; the steps show their own)."""
        return self.walk.winnings(len(self.walk.steps) - 1) if self.walk.steps else []

    def bell(self):
        return self.walk.solution.bell

    @property
    def bell_explanation(self) -> Explanation | None:
        """The bell's answer (or, in strategy mode, whether Dice Time is over), worded as in
        the step view: with the reading its line depends on (INT-3)."""
        bell = self.bell()
        return explain(bell.event, self.situation.board) if bell else None

    def round_end(self):
        return self.walk.solution.round_end

    def round_end_text(self) -> list:
        """The end-of-round sentences (refill, game over or not, winner) for the answers."""
        end = self.round_end()
        return [explain(e) for e in end.events] if end else []

    def other_reading(self):
        """INT-1's other reading, when it changes the answer: the players it changes."""
        treasure = self.walk.solution.treasure
        if treasure is None or treasure.other_reading is None:
            return None
        return _changed(treasure.order, treasure.other_reading, treasure.winnings)

    @property
    def chose_other_collection(self) -> bool:
        """The user chose INT-1's other reading ("judge all sandwiches at once")."""
        return self.situation.rules.collection is Collection.SIMULTANEOUS

    @property
    def collection_label(self) -> str:
        """The INT-1 reading this answer used, labelled as this site's or as the other one."""
        return reading_label("INT-1", other=self.chose_other_collection)

    def gap_reading(self):
        """INT-2's other reading (a gap breaks a sandwich), when it changes the answer: the
        players it changes."""
        treasure = self.walk.solution.treasure
        if treasure is None or treasure.gap_reading is None:
            return None
        return _changed(treasure.order, treasure.gap_reading, treasure.winnings)

    @property
    def offers_what_ifs(self) -> bool:
        """Whether the page has a what-if panel: cards or dice lie on the board."""
        board = self.situation.board
        return bool(board.cards() or board.dice())

    @cached_property
    def what_if_url(self) -> str:
        """The what-if panel of this situation: a fragment for htmx, else the page with it
        (keeping the Undo target)."""
        query = {"pos": self.code, "tool": self.tool.code, "prev": write_history(self.history),
                 "next": write_history(self.future)}
        query = {name: value for name, value in query.items() if value}
        return f"{reverse('tutorials:analyze-what-if')}?{urlencode(query)}"

    @cached_property
    def what_ifs(self):
        edit = self.edits.edit_url
        return [{"label": capfirst(w.label), "changes": w.changes, "href": edit("whatif", w.notation)}
                for w in analyzer.what_ifs(self.situation)]
