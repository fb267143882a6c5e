"""The read-aloud teaching script: its steps, in the official order.

Each :class:`Step` has a stable ``slug`` (its URL), a translated ``title``, the
template holding its text (``templates/tutorials/steps/<slug>.html``) and the
example board shown with it, if any.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


@dataclass(frozen=True)
class Step:
    """One page of the tutorial.

    Attributes:
        slug: URL segment, stable across languages.
        title: translated title (lazy).
        boards: example boards shown on this page, by board id (see tutorials.tutorial.boards).
        minutes: rough reading time in minutes, for the table of contents.
    """

    slug: str
    title: Promise
    boards: tuple[str, ...] = ()
    minutes: float = 0.5

    @property
    def template(self) -> str:
        """Template with the step's text."""
        return f"tutorials/steps/{self.slug}.html"


STEPS: tuple[Step, ...] = (
    Step("welcome", _("What the game is about"), minutes=0.3),
    Step("setup", _("Setting up"), minutes=0.6),
    Step("round", _("One round in four phases"), minutes=0.4),
    Step("dice-time", pgettext_lazy("phase", "Dice Time"), boards=("dice",), minutes=0.8),
    Step("ending-dice-time", _("Ringing the bell to end Dice Time"), boards=("bell",), minutes=0.7),
    Step("setting-time", pgettext_lazy("phase", "Setting Time"), minutes=0.7),
    Step("battle-time", pgettext_lazy("phase", "Battle Time"), boards=("battle", "quiz-battle"),
         minutes=0.8),
    Step("treasure-time", pgettext_lazy("phase", "Treasure Time"),
         boards=("sandwich", "block", "priority", "quiz-treasure"), minutes=0.8),
    Step("next-round", _("Discards, refilling and the next round"), minutes=0.4),
    Step("game-end", _("End of the game and the winner"), minutes=0.3),
)

STEPS_BY_SLUG = {s.slug: s for s in STEPS}


def neighbours(slug: str) -> tuple[Step | None, Step | None]:
    """The steps before and after ``slug`` (``None`` at either end). KeyError if unknown."""
    i = STEPS.index(STEPS_BY_SLUG[slug])
    return (STEPS[i - 1] if i > 0 else None, STEPS[i + 1] if i + 1 < len(STEPS) else None)
