"""The teaching scripts and the choices that shape them.

Two scripts: the **quick start** (the goal in its first lines, the core rules, then play;
details wait on "when it comes up" cards, :mod:`tutorials.tutorial.comes_up`) and the
**full** read-aloud script (the tutorial's lessons). :func:`parse_options` reads and checks
the choices made before starting; :func:`sections` gives the script for them;
:func:`script_context` the template variables with which player count, mode and variants
change the sentences where those rules are taught (no correction boxes after the fact).
The presenter (:mod:`tutorials.teach`) and the printed sheets (:mod:`tutorials.sheets`)
both read them from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from captain.rules.situation import BELL_CARDS
from tutorials.tutorial import boards
from tutorials.tutorial.script import LESSONS
from tutorials.wording.facts import table_facts

#: The official variants a table may choose (RULES.md "Variants"); VAR-4 is not among them:
#: it is the superseded first-edition bell, offered apart as ``first_edition``.
VARIANTS = ("v1", "v2", "v3")
VARIANT_CLAUSES = {"v1": "VAR-1", "v2": "VAR-2", "v3": "VAR-3"}
SCRIPTS = ("quick", "full")
MODES = ("action", "strategy")


@dataclass(frozen=True)
class Section:
    """One screen of the presenter.

    Attributes:
        slug: stable id within its script (board states are kept per board, not per slug).
        title: translated title (lazy).
        template: the text; read-aloud parts carry ``class="say"`` and the clauses they
            teach in ``data-clause`` (:mod:`tutorials.tutorial.reading` measures them).
        boards: example boards shown with it, by board id.
        phase: the phase it belongs to (``setup``, ``dice``, ``setting``, ``battle``,
            ``treasure``, ``end``); the "when it comes up" cards are grouped by it.
    """

    slug: str
    title: object
    template: str
    boards: tuple[str, ...] = ()
    phase: str = "setup"


class OptionsError(ValueError):
    """The start form's choices cannot be taught together.

    ``errors`` maps a form field (``players``, ``mode``, ``script``, ``variants``,
    ``first_edition``) to a translated sentence that says what is wrong and why.
    """

    def __init__(self, errors: Mapping[str, object]) -> None:
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = dict(errors)


def _checked_choices(data: Mapping[str, object], errors: dict) -> tuple[int, str, str, list[str], bool]:
    raw_players = str(data.get("players", "4"))
    players = int(raw_players) if raw_players in ("2", "3", "4") else 4
    if raw_players not in ("2", "3", "4"):
        errors["players"] = _("Choose 2, 3 or 4 players.")
    mode = str(data.get("mode", "action"))
    if mode not in MODES:
        errors["mode"], mode = _("Choose action mode or strategy mode."), "action"
    script = str(data.get("script", "quick"))
    if script not in SCRIPTS:
        errors["script"], script = _("Choose the quick start or the full script."), "quick"
    raw = data.get("variants", [])
    raw = [raw] if isinstance(raw, str) else list(raw) if isinstance(raw, (list, tuple)) else []
    ticked = str(data.get("first_edition", "")).strip().lower()
    first_edition = ticked in ("1", "on", "true")
    if ticked not in ("", "0", "off", "false", "1", "on", "true"):
        errors["first_edition"] = _("Tick the box for the first-edition rule, or leave it empty.")
    unknown = [str(v) for v in raw if v not in VARIANTS]
    if unknown:
        errors["variants"] = (_("There is no variant “%(name)s”. Choose from the list.")
                              % {"name": unknown[0][:20]} if unknown[0].strip()
                              else _("An empty variant was sent. Choose from the list."))
    return players, mode, script, sorted({v for v in raw if v in VARIANTS}), first_edition


COLOURS = ("red", "blue", "green", "white")


def _checked_seats(data: Mapping[str, object], players: int, errors: dict) -> list[str]:
    """The colours round the table, clockwise (``seats``: a list of colour names, the
    first ``players`` of them used); the default is red, blue, green, white."""
    raw = data.get("seats") or list(COLOURS)
    raw = [raw] if isinstance(raw, str) else list(raw) if isinstance(raw, (list, tuple)) else []
    seats = [str(c) for c in raw[:players]]
    if len(seats) < players or any(c not in COLOURS for c in seats):
        errors["seats"] = _("Choose a colour for every seat: red, blue, green or white.")
        return list(COLOURS[:players])
    if len(set(seats)) < players:
        errors["seats"] = _("Each seat needs its own colour.")
    return seats


def parse_options(data: Mapping[str, object]) -> dict[str, object]:
    """Check the start form's choices and return the table's options.

    ``data`` holds ``players`` ("2".."4"), ``mode`` ("action"/"strategy"), ``script``
    ("quick"/"full"), ``variants`` (a list of "v1".."v3") and ``first_edition`` ("1",
    "on" or "true" when ticked; "", "0", "off" or "false" when not). Missing values take
    the form's defaults (4 players, action mode, quick start, no variants).

    ``seats`` lists the colours round the table clockwise (the first ``players`` are used;
    default red, blue, green, white): the guided first round draws the table with them.

    Returns ``{"players", "mode", "script", "variants", "first_edition", "seats"}``. Raises
    :class:`OptionsError` for values the form does not offer and for combinations that
    mean nothing: VAR-3 or the first-edition bell in strategy mode, which has no bell
    (STRAT-1); the first-edition bell with two players, who always play the
    anywhere-on-the-grid bell (DICE-5); VAR-3 together with the first-edition bell (both
    replace the same condition).
    """
    errors: dict[str, object] = {}
    players, mode, script, variants, first_edition = _checked_choices(data, errors)
    seats = _checked_seats(data, players, errors)
    if mode == "strategy" and "v3" in variants and "variants" not in errors:
        errors["variants"] = _("VAR-3 changes when the bell may ring, and strategy mode has no bell: "
                               "untick VAR-3 or choose action mode.")
    if first_edition and mode == "strategy":
        errors["first_edition"] = _("The first-edition rule changes the bell, and strategy mode has no "
                                    "bell: untick it or choose action mode.")
    elif first_edition and players == 2:
        errors["first_edition"] = _("With two players the bell already rings once dice lie on %(n)s cards "
                                    "anywhere, so the first-edition rule changes nothing: untick it or "
                                    "choose 3 or 4 players.") % {"n": BELL_CARDS}
    elif first_edition and "v3" in variants:
        errors["first_edition"] = _("VAR-3 and the first-edition rule both replace the bell condition: "
                                    "choose one of them.")
    if errors:
        raise OptionsError(errors)
    return {"players": players, "mode": mode, "script": script, "variants": variants,
            "first_edition": first_edition, "seats": seats}


def stored_options(options: Mapping[str, object]) -> dict[str, object]:
    """The options of a table as stored, read the way :func:`parse_options` writes them.

    Tables started before the quick start existed have no ``script`` (the full one) and
    may hold the first-edition bell as a variant ``"v4"``; anything a stored row holds that
    the form never offered falls back to the default, so a damaged row still opens.
    """
    raw = options.get("variants", [])
    raw = [raw] if isinstance(raw, str) else raw if isinstance(raw, (list, tuple)) else []
    players = options.get("players", 4)
    players = players if players in (2, 3, 4) else 4
    seats = options.get("seats")
    if not (isinstance(seats, list) and len(seats) >= players and set(seats[:players]) <= set(COLOURS)
            and len(set(seats[:players])) == players):
        seats = list(COLOURS)
    return {"players": players, "seats": list(seats[:players]),
            "mode": options.get("mode") if options.get("mode") in MODES else "action",
            "script": options.get("script") if options.get("script") in SCRIPTS else "full",
            "variants": sorted({v for v in raw if v in VARIANTS}),
            "first_edition": bool(options.get("first_edition")) or "v4" in raw}


QUICK = {
    "goal": Section("goal", _("The goal and the table"), "teach/quick/goal.html", phase="setup"),
    "dice-time": Section("dice-time", pgettext_lazy("phase", "Dice Time"), "teach/quick/dice-time.html",
                         ("dice",), phase="dice"),
    "strategy-dice-time": Section("strategy-dice-time", _("Dice Time in strategy mode"),
                                  "teach/quick/strategy-dice-time.html", phase="dice"),
    "bell": Section("bell", _("The bell ends Dice Time"), "teach/quick/bell.html", ("bell",), phase="dice"),
    "setting-time": Section("setting-time", pgettext_lazy("phase", "Setting Time"),
                            "teach/quick/setting-time.html", phase="setting"),
    "battle-time": Section("battle-time", pgettext_lazy("phase", "Battle Time"),
                           "teach/quick/battle-time.html", ("battle",), phase="battle"),
    "treasure-time": Section("treasure-time", pgettext_lazy("phase", "Treasure Time"),
                             "teach/quick/treasure-time.html", ("sandwich",), phase="treasure"),
    "game-end": Section("game-end", _("Next round, end and winner"), "teach/quick/game-end.html",
                        phase="end"),
}
_LESSON_PHASES = {"welcome": "setup", "setup": "setup", "round": "setup", "dice-time": "dice",
                  "ending-dice-time": "dice", "setting-time": "setting", "battle-time": "battle",
                  "treasure-time": "treasure", "next-round": "end", "game-end": "end"}


#: The guided first round after either script: the table plays, the presenter steps
#: along; each phase shows its "when it comes up" cards, and after Setting Time the
#: presenter enters the table's cards and the engine resolves them for everyone.
FIRST_ROUND = (
    Section("round-dice", _("First round: Dice Time"), "teach/round/dice.html", phase="dice"),
    Section("round-setting", _("First round: Setting Time"), "teach/round/setting.html", phase="setting"),
    Section("round-table", _("Resolve our table: the cards"), "teach/round/table.html", ("round",),
            phase="battle"),
    Section("round-resolve", _("Resolve our table: step by step"), "teach/round/resolve.html", ("round",),
            phase="treasure"),
    Section("round-next", _("First round: refill and go on"), "teach/round/next.html", phase="end"),
)


def sections(options: Mapping[str, object]) -> list[Section]:
    """The script for these options (as :func:`parse_options` returns them), in teaching
    order: the quick start or the full script, with the strategy-mode Dice Time instead of
    the real-time one and its bell; then the guided first round (:data:`FIRST_ROUND`)."""
    return _script_sections(stored_options(options)) + list(FIRST_ROUND)


def _script_sections(options: dict) -> list[Section]:
    strategy = options["mode"] == "strategy"
    if options["script"] == "quick":
        slugs = (["goal", "strategy-dice-time"] if strategy else ["goal", "dice-time", "bell"])
        return [QUICK[s] for s in slugs + ["setting-time", "battle-time", "treasure-time", "game-end"]]
    out: list[Section] = []
    for lesson in LESSONS:
        if strategy and lesson.slug == "dice-time":
            out.append(Section("strategy-dice-time", _("Dice Time in strategy mode"),
                               "teach/strategy-dice-time.html", phase="dice"))
        elif not (strategy and lesson.slug == "ending-dice-time"):
            shown = lesson.boards
            if options["players"] == 2 or "v2" in options["variants"]:
                # the predict-the-outcome checks are built on the 3-4 player examples with [5]s
                shown = tuple(b for b in shown if not b.startswith("quiz-"))
            out.append(Section(lesson.slug, lesson.title, lesson.template, shown,
                               _LESSON_PHASES[lesson.slug]))
    return out


def script_context(options: Mapping[str, object]) -> dict[str, object]:
    """Template variables with which a script teaches the rules in force, in place.

    ``players`` (2-4), ``strategy`` (STRAT-1..4), ``v1`` (VAR-1 reversed speed), ``v2``
    (VAR-2 no scouts), ``v3`` (VAR-3 bell), ``first_edition`` (VAR-4 bell), ``two``
    (SETUP-4, DICE-5), and ``table``: the numbers for this table — ``hand`` attack cards
    each, ``scouts`` [5] cards each, the grid's ``side`` and ``grid`` card count.
    """
    options = stored_options(options)
    variants = set(options["variants"])
    return {"players": options["players"], "two": options["players"] == 2,
            "strategy": options["mode"] == "strategy", "script": options["script"],
            "v1": "v1" in variants, "v2": "v2" in variants, "v3": "v3" in variants,
            "first_edition": bool(options["first_edition"]), "teach": True,
            "table": table_facts(options["players"], "v2" in variants),
            # the battle example told by the engine where the hand-written walkthrough of
            # EX-BATTLE does not apply (reversed speed; the two-player example)
            "engine_battle": "v1" in variants or options["players"] == 2,
            "battle_steps": lambda: _battle_steps("v1" in variants, options["players"] == 2)}


def _battle_steps(reversed_speed: bool, two_players: bool) -> list:
    """The battle example's steps for this table, worded by the engine's explanations in
    the active language (templates call it only when ``engine_battle`` is set)."""
    board = boards.BattleBoard("battle-time", 99, reversed_speed=reversed_speed, two_players=two_players)
    return board.turns()
