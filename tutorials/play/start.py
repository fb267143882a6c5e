"""The start form's page of a practice game (the form itself:
:class:`tutorials.play.forms.PlayStartForm`).

Strategy mode (turns, STRAT-1..4) or action mode (real time, DICE-1..7, with the captains'
pace and the bell's variants: :mod:`tutorials.play.action`); every choice refused comes back
with the reason beside its field.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from captain.rules import Colour
from captain.rules.captains.pace import Pace
from captain.rules.situation import VARIANTS
from tutorials.forms import COLOUR_VALUES
from tutorials.models import PracticeGame, key_opens
from tutorials.play import action
from tutorials.play.guide import GUIDES, guide_of
from tutorials.play.page import STRENGTH_LABELS
from tutorials.practice import games
from tutorials.wording.clauses import clause_summary
from tutorials.wording.glossary import COLOUR_NAMES

DEFAULT_CHOICES = {"players": "2", "colour": "red", "start": "random", "strength": "greedy",
                   "variants": [], "place_after_reroll": False, "collection": "sequential",
                   "mode": "strategy", "pace": "first-game", "first_edition": False}


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
        "colours": [(c, COLOUR_NAMES[Colour(c)]) for c in COLOUR_VALUES],
        "strengths": list(STRENGTH_LABELS.items()),
        "variants": [(v, cid, clause_summary(cid)) for v, cid in VARIANTS.items()],
        "strat4": clause_summary("STRAT-4", in_section=True),  # the form says "Strategy mode" above it
        **action.form_context(),
        "readings": [("sequential", _("One after another: each player collects and clears their "
                                      "cards before the next looks for sandwiches (this site's "
                                      "reading).")),
                     ("simultaneous", _("All at once: every sandwich is judged on the board as "
                                        "Battle Time left it; where sandwiches overlap, the start "
                                        "player collects first."))],
    }


def guided_offers(request, learner_cookie) -> list[dict]:
    """The guided games (:mod:`tutorials.play.guide`) as the play page offers them, first the
    one to play first: its words and, when this browser has one under way, where it goes
    on (the newest of each kind)."""
    codes = [name[len(learner_cookie.prefix):] for name in request.COOKIES
             if name.startswith(learner_cookie.prefix)]
    under_way: dict[str, tuple] = {}
    now = timezone.now()
    for game in PracticeGame.objects.filter(code__in=codes[:learner_cookie.keep], expires_at__gt=now):
        guide = guide_of(game)
        if guide is None or not key_opens(game.key_hash, learner_cookie.read(request, game.code)):
            continue
        state = games.practice_of(game).state
        if not state.is_over and (guide not in under_way or game.started_at > under_way[guide][0]):
            under_way[guide] = (game.started_at, game.code, state.round)
    first = Pace.FIRST_GAME
    texts = {
        "strategy": (_("Guided game 1: strategy mode"),
                     _("Turn by turn, so there is time to look: Dice Time, Setting Time, Battle "
                       "Time and Treasure Time, each explained the first time it comes up.")),
        "action": (_("Guided game 2: action mode"),
                   _("Then Dice Time in real time, at the slow pace: no captain moves in the first "
                     "%(opening)s s, then one captain move every %(gap)s s at most.")
                   % {"opening": int(first.opening_seconds), "gap": int(first.gap_seconds)}),
    }
    out = []
    for guide in GUIDES:
        title, text = texts[guide]
        found = under_way.get(guide)
        out.append({"guide": guide, "title": title, "text": text,
                    "resume": reverse("tutorials:play-game", args=[found[1]]) if found else "",
                    "round": found[2] if found else 0})
    return out
