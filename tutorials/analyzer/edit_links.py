"""The analyzer's edit links, both ways: writing ``/analyze/edit/?pos=…&tool=…&op=…&arg=…``
for every control of the page, and reading one back into an edit of the editor
(:mod:`tutorials.analyzer.edits`). An argument that cannot be read is refused, never guessed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from functools import cached_property
from urllib.parse import quote_plus, urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from captain.rules import Colour, InvalidInput, Position, RulesError, Situation, notation
from tutorials.analyzer import edits as analyzer
from tutorials.analyzer.edits import Tool
from tutorials.web.positions import read_position
from tutorials.wording.problems import describe, expected_text


class EditLinks:
    """The edit links of one page: the situation's notation ``code``, the tool in hand
    and the edit history (``prev`` for Undo, ``next`` for Redo, parameters as
    :func:`write_history` writes them). An edit puts this position on top of ``prev`` and
    drops ``next``; choosing a tool keeps both."""

    def __init__(self, code: str, tool: Tool, prev: str | None = None, next_: str | None = None) -> None:
        self.code, self.tool, self.prev, self.next = code, tool, prev, next_

    @cached_property
    def _prefix(self) -> str:
        """``/…/analyze/edit/?pos=…&tool=…[&prev=…]&op=`` — the part every edit link shares."""
        query = {"pos": self.code, "tool": self.tool.code}
        if self.prev:
            query["prev"] = self.prev
        return f"{reverse('tutorials:analyze-edit')}?{urlencode(query)}&op="

    def edit_url(self, op: str, arg: str = "") -> str:
        """The link that applies edit ``op`` (with ``arg``) to the situation."""
        url = self._prefix + quote_plus(op)
        return f"{url}&arg={quote_plus(arg)}" if arg else url

    def tool_url(self, op: str, arg: str = "") -> str:
        """The link that chooses another tool: it keeps the Redo steps too, since choosing
        a tool changes no position."""
        url = self.edit_url(op, arg)
        return f"{url}&next={quote_plus(self.next)}" if self.next else url


# --- reading a link back -----------------------------------------------------------------------
def _position_arg(arg: str) -> Position:
    """A grid position, as every link writes it (:mod:`tutorials.web.positions`)."""
    pos = read_position(arg)
    if pos is None:
        raise InvalidInput("bad position", code="bad-position")
    return pos


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

#: the edits that only choose a tool: not a step to undo with Back
TOOL_OPS = frozenset(_TOOL_EDITS)


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


#: How the positions of the edit history are joined in ``prev`` (Undo) and ``next`` (Redo):
#: a character no notation uses and links need not escape.
HISTORY_SEP = "~"
#: The history a link carries, each way: at most this many steps and characters, so that
#: every link of the page stays well inside what browsers and proxies accept.
MAX_HISTORY_STEPS = 20
MAX_HISTORY_CHARS = 1500


def bounded(entries) -> tuple[str, ...]:
    """The first ``entries`` (newest first) that fit :data:`MAX_HISTORY_STEPS` and
    :data:`MAX_HISTORY_CHARS`."""
    out: list[str] = []
    size = 0
    for entry in entries:
        size += len(entry) + 1
        if len(out) == MAX_HISTORY_STEPS or size > MAX_HISTORY_CHARS:
            break
        out.append(entry)
    return tuple(out)


def read_history(text: str, code: str) -> tuple[str, ...]:
    """The positions of a ``prev`` or ``next`` parameter, nearest first, in canonical
    notation, up to the first that cannot be read: Undo and Redo lead only to positions
    the analyzer can show (an unreadable one would lead to an error page). A first entry
    that is the position ``code`` itself is no step."""
    if not 0 < len(text) <= MAX_HISTORY_CHARS + notation.MAX_LENGTH:
        return ()
    out: list[str] = []
    for part in text.split(HISTORY_SEP, MAX_HISTORY_STEPS + 1)[:MAX_HISTORY_STEPS + 1]:
        try:
            out.append(notation.parse(part).to_notation())
        except RulesError:
            break
    if out and out[0] == code:
        out.pop(0)
    return bounded(out)


def write_history(entries) -> str | None:
    """``entries`` as a ``prev`` / ``next`` parameter; ``None`` (no parameter) when empty."""
    return HISTORY_SEP.join(bounded(entries)) or None
