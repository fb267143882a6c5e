"""Moving through a :class:`~tutorials.walkthrough.steps.Walkthrough`: the one object every
surface hands to ``walkthrough/_steps.html``.

A surface says which steps it shows (``first``..``last``: a tutorial's battle board stops
after Battle Time, its treasure boards start there) and how a step is reached
(``url_for``): a link that keeps the step in the address, or, where moving changes a table
that others follow, a form posted to ``post_url``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from tutorials.drawing.cells import BoardAction
from tutorials.walkthrough.steps import Walkthrough
from tutorials.wording.events import Explanation


@dataclass(frozen=True)
class StepLink(BoardAction):
    """The move to step ``step``: a link (``href``), or on a board whose moves are posted,
    the board's action (``do`` and ``at``)."""

    step: int = 0
    #: the number shown to readers (counted from 1 within the surface's steps)
    number: int = 0


@dataclass(frozen=True)
class StepNav:
    """Step ``k`` of ``walk``, shown among the steps ``first``..``last`` (``last`` < 0: the
    walkthrough's last step).

    ``url_for(k)`` gives the address that shows step ``k``; ``anchor`` is the id of the
    section around the steps (a link without JavaScript lands there); ``post_url``, when
    set, makes every move a form posted there; ``readonly`` shows the step without moves
    (a guest following the person teaching).
    """

    walk: Walkthrough
    k: int
    url_for: Callable[[int], str | BoardAction]
    anchor: str = ""
    first: int = 0
    last: int = -1
    post_url: str | None = None
    readonly: bool = False
    #: whether a link puts its address into the history (False where the server answering
    #: it pushes the page's own address: the tutorial's boards)
    push: bool = True

    def __post_init__(self) -> None:
        last = len(self.walk.steps) - 1 if self.last < 0 else min(self.last, len(self.walk.steps) - 1)
        object.__setattr__(self, "last", last)
        object.__setattr__(self, "first", max(0, min(self.first, last)))
        object.__setattr__(self, "k", max(self.first, min(self.k, last)))

    # --- where we are ------------------------------------------------------------------------
    @property
    def number(self) -> int:
        """The current step, counted from 1."""
        return self.k - self.first + 1

    @property
    def count(self) -> int:
        return self.last - self.first + 1

    @property
    def title(self) -> str:
        return self.walk.step_title(self.k)

    @property
    def kind(self) -> str:
        return self.walk.steps[self.k].kind

    @property
    def at_start(self) -> bool:
        return self.k == self.first

    @property
    def at_end(self) -> bool:
        return self.k == self.last

    # --- moves -----------------------------------------------------------------------------
    def link(self, k: int) -> StepLink:
        """The move to step ``k``: ``url_for(k)`` is an address, or a board's action
        (:class:`~tutorials.drawing.cells.BoardAction`), which a posted form sends."""
        target = self.url_for(k)
        action = target if isinstance(target, BoardAction) else BoardAction("step", str(k), target)
        return StepLink(action.do, action.at, action.href, step=k, number=k - self.first + 1)

    @property
    def posts(self) -> bool:
        return self.post_url is not None

    @cached_property
    def back(self) -> StepLink | None:
        return None if self.at_start else self.link(self.k - 1)

    @cached_property
    def next(self) -> StepLink | None:
        return None if self.at_end else self.link(self.k + 1)

    @cached_property
    def end(self) -> StepLink | None:
        """The last step (the result), offered until it is reached."""
        return None if self.k + 1 >= self.last else self.link(self.last)

    @cached_property
    def restart(self) -> StepLink | None:
        """The first step again, offered at the last step (where the result link was)."""
        return self.link(self.first) if self.at_end and not self.at_start else None

    def steps(self) -> list[dict]:
        """Every step the surface shows, with its title and link (the analyzer's list)."""
        return [{"n": k - self.first + 1, "title": self.walk.step_title(k), "href": self.url_for(k),
                 "current": k == self.k} for k in range(self.first, self.last + 1)]

    # --- what it says ----------------------------------------------------------------------
    @cached_property
    def current(self) -> list[Explanation]:
        """What happens in this step: right under the moves."""
        return self.walk.current(self.k)

    @cached_property
    def earlier(self) -> list[Explanation]:
        """What happened in the surface's steps before this one, in order (folded away)."""
        return self.walk.explanations(self.k - 1, self.first)

    @cached_property
    def order(self) -> list[dict]:
        return self.walk.order(self.k)

    @cached_property
    def winnings(self) -> list[dict]:
        """Treasure won so far, on surfaces whose steps reach Treasure Time."""
        shown = self.walk.steps[self.first: self.last + 1]
        return self.walk.winnings(self.k) if any(s.kind == "treasure" for s in shown) else []
