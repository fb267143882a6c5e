"""The teaching scripts and the choices that shape them.

Two scripts: the **quick start** (the goal in its first lines, the core rules, then play;
details wait on "when it comes up" cards, :mod:`tutorials.tutorial.comes_up`) and the
**full** read-aloud script (the tutorial's lessons). :func:`stored_options` reads the choices
made before starting (:class:`tutorials.teach.forms.TeachStartForm` checks them);
:func:`sections` gives the script for them;
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

from captain.rules import COLOURS as SEATING
from captain.rules.situation import PLAYER_COUNTS, VARIANTS
from tutorials.tutorial import boards
from tutorials.tutorial.script import LESSONS
from tutorials.wording.facts import table_facts

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


def stored_options(options: Mapping[str, object]) -> dict[str, object]:
    """The options of a table as stored, read the way the start form writes them
    (:meth:`tutorials.teach.forms.TeachStartForm.options`).

    Tables started before the quick start existed have no ``script`` (the full one) and
    may hold the first-edition bell as a variant ``"v4"``; anything a stored row holds that
    the form never offered falls back to the default, so a damaged row still opens: a
    player count other than the whole numbers 2 to 4 (:data:`~captain.rules.situation.PLAYER_COUNTS`)
    is four, and seats that are not a different colour for each player the colours in
    seating order.
    """
    options = options if isinstance(options, Mapping) else {}
    raw = options.get("variants", [])
    raw = [raw] if isinstance(raw, str) else raw if isinstance(raw, (list, tuple)) else []
    colours = [c.value for c in SEATING]
    players = options.get("players", 4)
    players = players if type(players) is int and players in PLAYER_COUNTS else 4  # not True, not 2.0
    seats = options.get("seats")
    if not (isinstance(seats, list) and len(seats) >= players and all(isinstance(c, str) for c in seats)
            and set(seats[:players]) <= set(colours) and len(set(seats[:players])) == players):
        seats = colours
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
    Section("round-table", _("First round: the cards face up"), "teach/round/table.html", ("round",),
            phase="battle"),
    Section("round-resolve", _("First round: battle and treasure, step by step"),
            "teach/round/resolve.html", ("round",),
            phase="treasure"),
    Section("round-next", _("First round: refill and go on"), "teach/round/next.html", phase="end"),
)


def sections(options: Mapping[str, object]) -> list[Section]:
    """The script for these options (as :func:`stored_options` reads them), in teaching
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
        if strategy and lesson.own_strategy_form():
            # strategy mode reads these lessons in their own form; their boards play
            # against the computer, so they stay in the tutorial (a table has real dice)
            out.append(Section(_STRATEGY_SLUGS[lesson.slug], lesson.title_for(True),
                               lesson.template_for(True), phase="dice"))
        else:
            out.append(Section(lesson.slug, lesson.title, lesson.template,
                               shown_boards(lesson.boards, options["players"], options["variants"]),
                               _LESSON_PHASES[lesson.slug]))
    return out


#: the full script's slugs of the lessons strategy mode reads in their own form
_STRATEGY_SLUGS = {"dice-time": "strategy-dice-time", "ending-dice-time": "strategy-line"}


def shown_boards(board_ids: tuple[str, ...], players: int, variants=()) -> tuple[str, ...]:
    """The boards of a lesson a table of ``players`` playing ``variants`` is shown."""
    if players == 2 or "v2" in variants:
        # the predict-the-outcome checks are built on the 3-4 player examples with [5]s
        return tuple(b for b in board_ids if not b.startswith("quiz-"))
    return board_ids


def lesson_boards(lesson, audience) -> tuple[str, ...]:
    """The boards of tutorial ``lesson`` read for ``audience``
    (a :class:`~tutorials.tutorial.audience.Audience`)."""
    return shown_boards(lesson.boards_for(audience.strategy), audience.players)


def lesson_context(audience) -> dict[str, object]:
    """Template variables of a tutorial lesson read for ``audience``: the script's for
    that audience; a 3-4 player table also reads the two-player rules, in boxes aside."""
    context = script_context(audience.options())
    # ``teach`` states the rules in force in place: the two-player ones when two play
    context.update(teach=audience.two, tutorial=True)
    return context


def audience_context(audience, problem: str = "") -> dict[str, object]:
    """What a tutorial page needs to show and change the audience it is read for:
    the audience, the lesson variables for it, and the sentence saying a choice was not read."""
    return {**lesson_context(audience), "audience": audience, "audience_problem": problem}


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
