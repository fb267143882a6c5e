"""The replay of a practice game: every round that reached Battle Time, each
stepped through like the analyzer (the same :class:`~tutorials.walkthrough.Walkthrough`
the game page uses) and opening in the analyzer.

The learner sees the replay of the rounds finished so far (``/play/<id>/replay/``); once
the game is over, anyone with the share link (``/play/<id>/shared/<token>/``, the
service's share token) sees the same pages read-only. Nothing is shown that was not public
when the round ended: a round is listed only once Battle Time turned all its cards up, and
a replay shows no hand, no discard, no deck order and no round in progress.
"""

from __future__ import annotations

from functools import cached_property
from urllib.parse import urlencode

from django.urls import reverse

from tutorials.http.numbers import query_number
from tutorials.play.table import PlayedRound, final_standings, history
from tutorials.walkthrough import StepNav, Walkthrough


def _number(raw: str | None, default: int) -> int:
    return query_number(raw, default)


class ReplayPage:
    """The replay of ``game`` at round ``round_no`` (1-based index into the rounds played),
    step ``step``. ``share`` is the share token when the page is opened by the share link
    (read-only, the game over)."""

    def __init__(self, game, practice, *, round_no: str | None = None, step: str | None = None,
                 share: str | None = None) -> None:
        self.game, self.practice, self.share = game, practice, share
        self.state = practice.state
        self.rounds: list[PlayedRound] = history(practice)[0]
        self.index = max(1, min(_number(round_no, 1), len(self.rounds))) if self.rounds else 0
        self.round = self.rounds[self.index - 1] if self.rounds else None
        self.walk = Walkthrough(self.round.situation) if self.round else None
        self.step = self.walk.clamp(_number(step, 0)) if self.walk else 0

    @property
    def over(self) -> bool:
        return self.state.is_over

    @property
    def base_url(self) -> str:
        if self.share:
            return reverse("tutorials:play-shared", args=[self.game.code, self.share])
        return reverse("tutorials:play-replay", args=[self.game.code])

    @property
    def game_url(self) -> str:
        return reverse("tutorials:play-game", args=[self.game.code])

    def url(self, round_no: int, step: int = 0) -> str:
        query = {"round": round_no}
        if step:
            query["step"] = step
        return f"{self.base_url}?{urlencode(query)}"

    def round_links(self) -> list[dict]:
        return [{"n": i, "number": r.number, "href": self.url(i), "current": i == self.index,
                 "analyzer": r.analyzer_url} for i, r in enumerate(self.rounds, start=1)]

    def cells(self):
        return self.walk.cells(self.step) if self.walk else []

    @property
    def board_shape(self) -> tuple[int, int]:
        rows = self.walk.situation.board.rows if self.walk else ()
        return len(rows), max((len(r) for r in rows), default=0)

    @cached_property
    def nav(self) -> StepNav | None:
        return (StepNav(self.walk, self.step, lambda k: self.url(self.index, k), anchor="replay-steps")
                if self.walk else None)

    def standings(self) -> dict | None:
        """END-2, END-3, once the game is over."""
        return final_standings(self.state, self.practice.learner) if self.over else None
