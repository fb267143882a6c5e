"""The read-aloud teaching script: its lessons (one page each), in the official order.

Each :class:`Lesson` has a stable ``slug`` (its URL), a translated ``title``, the
template holding its text (``templates/tutorials/lessons/<slug>.html``) and the
example boards shown with it, if any. The two lessons about Dice Time read differently
in strategy mode (turns, and a full line instead of the bell): they have a second title,
template (``templates/tutorials/lessons/strategy/<slug>.html``) and boards for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


@dataclass(frozen=True)
class Lesson:
    """One page of the tutorial.

    Attributes:
        slug: URL segment, stable across languages.
        title: translated title (lazy).
        boards: example boards shown on this page, by board id (see tutorials.tutorial.boards).

    Its reading time is measured from its text (:func:`tutorials.tutorial.reading.lesson_reading`).
    """

    slug: str
    title: Promise
    boards: tuple[str, ...] = ()
    strategy_title: Promise | None = None
    strategy_boards: tuple[str, ...] = ()

    @property
    def template(self) -> str:
        """Template with the lesson's text."""
        return f"tutorials/lessons/{self.slug}.html"

    def own_strategy_form(self) -> bool:
        """Whether strategy mode reads this lesson from a template of its own (the others
        carry their strategy sentences in ``{% if strategy %}`` branches)."""
        return self.strategy_title is not None

    def title_for(self, strategy: bool) -> Promise:
        return self.strategy_title if strategy and self.strategy_title else self.title

    def template_for(self, strategy: bool) -> str:
        if strategy and self.own_strategy_form():
            return f"tutorials/lessons/strategy/{self.slug}.html"
        return self.template

    def boards_for(self, strategy: bool) -> tuple[str, ...]:
        return self.strategy_boards if strategy and self.own_strategy_form() else self.boards


LESSONS: tuple[Lesson, ...] = (
    Lesson("welcome", _("What the game is about")),
    Lesson("setup", _("Setting up")),
    Lesson("round", _("One round in four phases")),
    Lesson("dice-time", pgettext_lazy("phase", "Dice Time"), boards=("dice",),
           strategy_title=_("Dice Time in strategy mode"), strategy_boards=("turns",)),
    Lesson("ending-dice-time", _("Ringing the bell to end Dice Time"), boards=("bell", "quiz-dice"),
           strategy_title=_("A full line ends Dice Time"), strategy_boards=("line", "quiz-line")),
    Lesson("setting-time", pgettext_lazy("phase", "Setting Time"), boards=("quiz-setting",)),
    Lesson("battle-time", pgettext_lazy("phase", "Battle Time"), boards=("battle", "quiz-battle")),
    Lesson("treasure-time", pgettext_lazy("phase", "Treasure Time"),
         boards=("sandwich", "block", "priority", "quiz-treasure")),
    Lesson("next-round", _("Discards, refilling and the next round"), boards=("quiz-round",)),
    Lesson("game-end", _("End of the game and the winner"), boards=("quiz-end",)),
)

LESSONS_BY_SLUG = {s.slug: s for s in LESSONS}


def neighbours(slug: str) -> tuple[Lesson | None, Lesson | None]:
    """The lessons before and after ``slug`` (``None`` at either end). KeyError if unknown."""
    i = LESSONS.index(LESSONS_BY_SLUG[slug])
    return (LESSONS[i - 1] if i > 0 else None, LESSONS[i + 1] if i + 1 < len(LESSONS) else None)
