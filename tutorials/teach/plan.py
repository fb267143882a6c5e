"""Presenter mode: the read-aloud script cut into sections for one table's choices.

:func:`parse_options` reads the choices made before starting (player count, action or
strategy mode, variants); :func:`sections` gives the script for them: two-player
differences shown only for two players, the strategy-mode Dice Time instead of the
real-time one, a section on the variants in play.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from tutorials.tutorial import boards
from tutorials.tutorial.script import LESSONS

VARIANTS = ("v1", "v2", "v3", "v4")
VARIANT_CLAUSES = {"v1": "VAR-1", "v2": "VAR-2", "v3": "VAR-3", "v4": "VAR-4"}

#: Rules to mention only when they come up at the table.
SAY_LATER = ("DICE-6", "DICE-7", "SET-2", "SET-4", "BAT-5", "TRE-5", "END-3", "INT-2")


@dataclass(frozen=True)
class Section:
    """One screen of the presenter: title, text template, example boards."""

    slug: str
    title: object
    template: str
    boards: tuple[str, ...] = ()
    minutes: float = 0.5


def parse_options(data: Mapping[str, object]) -> dict[str, object]:
    """``{"players": 2|3|4, "mode": "action"|"strategy", "variants": [...]}``.

    Unknown or missing values fall back to 4 players, action mode, no variants; the
    form only offers valid values, so this only guards against hand-made requests.
    """
    try:
        players = int(str(data.get("players", 4)))
    except ValueError:
        players = 4
    if players not in (2, 3, 4):
        players = 4
    mode = data.get("mode", "action")
    if mode not in ("action", "strategy"):
        mode = "action"
    raw = data.get("variants", [])
    if isinstance(raw, str):
        raw = [raw]
    variants = sorted({v for v in raw if v in VARIANTS}) if isinstance(raw, (list, tuple)) else []
    if "v3" in variants and "v4" in variants:
        variants.remove("v4")
    if players == 2 and "v4" in variants:
        variants.remove("v4")  # the first-edition bell is a 3-4 player rule
    if mode == "strategy":  # both change the bell, and strategy mode has none (STRAT-1)
        variants = [v for v in variants if v not in ("v3", "v4")]
    return {"players": players, "mode": mode, "variants": variants}


def sections(options: Mapping[str, object]) -> list[Section]:
    """The script for these choices, in teaching order."""
    out: list[Section] = []
    strategy = options.get("mode") == "strategy"
    for lesson in LESSONS:
        if strategy and lesson.slug == "dice-time":
            out.append(Section("strategy-dice-time", _("Dice Time in strategy mode"),
                               "teach/strategy-dice-time.html", (), 0.8))
            continue
        if strategy and lesson.slug == "ending-dice-time":
            continue
        if lesson.slug == "game-end" and options.get("variants"):
            out.append(Section("variants", _("Variants in this game"), "teach/variants.html", (), 0.3))
        out.append(Section(lesson.slug, lesson.title, lesson.template, lesson.boards, lesson.minutes))
    return out


def target_minutes(options: Mapping[str, object]) -> float:
    """Rough teaching time for these choices."""
    return round(sum(s.minutes for s in sections(options)), 1)


# --- changing a table (services of the presenter's views) ----------------------------------
def current_section(session) -> Section:
    """The section the table is at (the last one if the script got shorter)."""
    script = sections(session.options)
    return script[min(session.section, len(script) - 1)]


def load_board(session, section: Section, board_id: str):
    """The example board ``board_id`` of ``section`` in the table's current state.

    Two-player tables start their Dice Time boards on the 3 × 3 grid.
    """

    state = session.board_states.get(board_id, "")
    if not state and board_id in ("dice", "bell") and session.options.get("players") == 2:
        state = boards.DiceBoard(section.slug, board_id, players=2).state()
    return boards.load(board_id, state, lesson=section.slug)


def move(session, to: int) -> None:
    """Move the table to section ``to`` (clamped to the script) from its current version.

    Raises :class:`~tutorials.models.StaleTable` when the table changed since ``session``
    was read (nothing is written then); moving to the current section changes nothing.
    """
    count = len(sections(session.options))
    to = max(0, min(to, count - 1))
    if to != session.section:
        session.change(session.version, section=to)


def act_on_board(session, board_id: str, action: str, arg: str, rng):
    """Apply one action to a board of the current section; returns the new board.

    Raises ``LookupError`` when the section has no board ``board_id``, and
    :class:`~tutorials.models.StaleTable` when the table changed since ``session`` was
    read: the action is then not applied, so a concurrent change is never overwritten.
    """
    section = current_section(session)
    if board_id not in section.boards:
        raise LookupError(f"no board {board_id!r} in section {section.slug!r}")
    board = load_board(session, section, board_id).apply(action, arg, rng=rng)
    session.change(session.version, board_states={**session.board_states, board_id: board.state()})
    return board
