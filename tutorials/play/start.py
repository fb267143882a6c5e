"""The start form of a practice game: the learner's choices, checked, as the options of
:func:`tutorials.practice.games.start_game`.

Strategy mode (turns, STRAT-1..4) or action mode (real time, DICE-1..7, with the captains'
pace and the bell's variants: :mod:`tutorials.play.action`); every choice refused comes back
with the reason beside its field.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from captain.rules import Colour, RulesError
from tutorials.play import action
from tutorials.play.table import COLOURS, STRENGTH_LABELS
from tutorials.practice import games
from tutorials.wording.clauses import clause_summary
from tutorials.wording.glossary import COLOUR_NAMES
from tutorials.wording.problems import describe

VARIANTS = {"v1": "VAR-1", "v2": "VAR-2", "v3": "VAR-3"}
STARTS = ("random", "me", "left")
READINGS = ("sequential", "simultaneous")
DEFAULT_CHOICES = {"players": "2", "colour": "red", "start": "random", "strength": "greedy",
                   "variants": [], "place_after_reroll": False, "collection": "sequential",
                   "mode": "strategy", "pace": "first-game", "first_edition": False}


class StartRefused(Exception):
    """The choices cannot start a game: ``errors`` by field, ``chosen`` kept as sent."""

    def __init__(self, chosen: dict, errors: dict[str, str]) -> None:
        super().__init__(errors)
        self.chosen, self.errors = chosen, errors


def _chosen(post) -> dict:
    def one(name: str, default: str = "") -> str:
        # a field sent twice (players=2&players=4) is no choice: refused beside the field
        values = post.getlist(name)
        return default if not values else values[0] if len(values) == 1 else "(several)"

    return {"players": one("players"), "colour": one("colour"),
            "start": one("start", "random"), "strength": one("strength"),
            "variants": post.getlist("variants"),
            "place_after_reroll": one("place_after_reroll").strip().lower() in _TICKED,
            "collection": one("collection", "sequential"),
            "mode": one("mode", "strategy"), "pace": one("pace", "first-game"),
            "first_edition": one("first_edition").strip().lower() in _TICKED}


def _field_errors(chosen: dict) -> dict[str, str]:
    errors = {}
    if chosen["players"] not in ("2", "3", "4"):
        errors["players"] = _("Choose 2, 3 or 4 players.")
    if chosen["colour"] not in COLOURS:
        errors["colour"] = _("Choose your colour: red, blue, green or white.")
    if chosen["start"] not in STARTS:
        errors["start"] = _("Choose who is the first start player.")
    if chosen["strength"] not in STRENGTH_LABELS:
        errors["strength"] = _("Choose how strong the computer captains play.")
    if any(v not in VARIANTS for v in chosen["variants"]):
        errors["variants"] = _("Only the variants listed here can be played.")
    if chosen["collection"] not in READINGS:
        errors["collection"] = _("Choose one of the two readings of the collection order.")
    return {**action.check_choices(chosen), **errors}


def _options(chosen: dict) -> dict:
    learner = chosen["colour"]
    seats = [learner, *(c for c in COLOURS if c != learner)][: int(chosen["players"])]
    start = {"me": seats[0], "left": seats[1]}.get(chosen["start"])
    rules: dict[str, object] = {"mode": "strategy", "collection": chosen["collection"]}
    if "v1" in chosen["variants"]:
        rules["speed_order"] = "reversed"
    if "v2" in chosen["variants"]:
        rules["no_scouts"] = True
    if chosen["place_after_reroll"]:
        rules["place_after_reroll"] = True
    options = {"seats": seats, "learner": learner, "rules": rules, "strength": chosen["strength"],
               **action.rules_and_pace(chosen, rules)}
    if start:
        options["start_player"] = start
    return options


#: the engine's fields (games.parse_options) -> the form's
_FIELDS = {"seats": "players", "learner": "colour", "start_player": "start", "strength": "strength",
           "pace": "pace"}


_TICKED = ("1", "on", "true")
_UNTICKED = ("", "0", "off", "false")


def _tick_errors(post) -> dict[str, str]:
    """A checkbox sends one of a few values, once: anything else is refused beside it, never
    read as "not ticked" (the game would start without the option, unseen)."""
    errors = {}
    for name, field, message in (
            ("place_after_reroll", "mode", _("Tick the box for the STRAT-4 option, or leave it empty.")),
            ("first_edition", "first_edition",
             _("Tick the box for the first-edition rule, or leave it empty."))):
        values = [v.strip().lower() for v in post.getlist(name)]
        if len(values) > 1 or any(v not in _TICKED + _UNTICKED for v in values):
            errors[field] = message
    return errors


def options_from_form(post) -> tuple[dict, dict]:
    """The choices as sent and the game's options. Raises :class:`StartRefused`."""
    chosen = _chosen(post)
    errors = {**_field_errors(chosen), **_tick_errors(post)}
    if errors:
        raise StartRefused(chosen, errors)
    options = _options(chosen)
    try:
        games.parse_options(options)
    except RulesError as error:
        field = _FIELDS.get((error.field or "").split("[")[0].split(".")[0], "variants")
        raise StartRefused(chosen, {field: describe(error)}) from None
    return chosen, options


#: the start form's fields folded under "Rule options" (open when one differs from the
#: standard rules or is refused)
RULE_OPTION_FIELDS = ("variants", "first_edition", "collection")


def _rule_options_in_use(chosen: Mapping[str, object]) -> list[str]:
    """Clause ids of the rule options ``chosen`` differs from the standard rules in."""
    used = [VARIANTS[v] for v in VARIANTS if v in (chosen.get("variants") or ())]
    if chosen.get("first_edition"):
        used.append("VAR-4")
    if chosen.get("collection", "sequential") != "sequential":
        used.append("INT-1")
    return used


def start_context(chosen: Mapping[str, object], errors: Mapping[str, str] | None = None) -> dict:
    """The start form's template context: ``chosen`` (field -> value as the form holds it),
    ``errors`` (field -> sentence); the rule options are folded away unless one is in use
    or refused."""
    errors = errors or {}
    in_use = _rule_options_in_use(chosen)
    return {
        "chosen": chosen, "errors": errors,
        "rule_options_in_use": in_use,
        "rule_options_open": bool(in_use) or any(f in errors for f in RULE_OPTION_FIELDS),
        "colours": [(c, COLOUR_NAMES[Colour(c)]) for c in COLOURS],
        "strengths": list(STRENGTH_LABELS.items()),
        "variants": [(v, cid, clause_summary(cid)) for v, cid in VARIANTS.items()],
        "strat4": clause_summary("STRAT-4"),
        **action.form_context(),
        "readings": [("sequential", _("One after another: each player collects and clears their "
                                      "cards before the next looks for sandwiches (this site's "
                                      "reading).")),
                     ("simultaneous", _("All at once: every sandwich is judged on the board as "
                                        "Battle Time left it; where sandwiches overlap, the start "
                                        "player collects first."))],
    }
