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
from django.utils.translation import gettext as _

from captain.rules.captains.practice import replay
from captain.rules.game import action_from_json
from tutorials.drawing.cells import board_cells
from tutorials.play.hints import move_sentence
from tutorials.play.page import final_standings
from tutorials.play.rounds import PlayedRound, history
from tutorials.walkthrough import StepNav, Walkthrough
from tutorials.web.numbers import query_number
from tutorials.wording.events import explain


def _number(raw: str | None, default: int) -> int:
    return query_number(raw, default)


class ReplayPage:
    """The replay of ``game`` at round ``round_no`` (1-based index into the rounds played),
    step ``step``. ``share`` is the share token when the page is opened by the share link
    (read-only, the game over)."""

    def __init__(self, game, practice, *, round_no: str | None = None, step: str | None = None,
                 move: str | None = None, share: str | None = None) -> None:
        self.game, self.practice, self.share = game, practice, share
        self.state = practice.state
        self.rounds: list[PlayedRound] = history(practice)[0]
        self.index = max(1, min(_number(round_no, 1), len(self.rounds))) if self.rounds else 0
        self.round = self.rounds[self.index - 1] if self.rounds else None
        self.walk = Walkthrough(self.round.situation) if self.round else None
        self.step = self.walk.clamp(_number(step, 0)) if self.walk else 0
        #: the move of Dice or Setting Time shown on the board (from 1), or 0: the steps
        self.move = max(0, min(_number(move, 0), len(self.round.moves))) if self.round else 0

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

    def url(self, round_no: int, step: int = 0, move: int = 0) -> str:
        query = {"round": round_no}
        if step:
            query["step"] = step
        if move:
            query["move"] = move
        return f"{self.base_url}?{urlencode(query)}"

    @property
    def steps_url(self) -> str:
        """This round's Battle and Treasure Time, from the first step."""
        return self.url(self.index)

    @property
    def move_url_prefix(self) -> str:
        """The address of a move of this round without its number (the story's links)."""
        return f"{self.steps_url}&move="

    def moves_nav(self) -> dict | None:
        """The move shown: its number, how many, its sentence, and the links around it."""
        if not self.move:
            return None
        event, _board = self.round.moves[self.move - 1]
        count = len(self.round.moves)
        return {"n": self.move, "count": count, "text": explain(event, self.round.situation.board),
                "prev": self.url(self.index, move=self.move - 1) if self.move > 1 else "",
                "next": self.url(self.index, move=self.move + 1) if self.move < count else "",
                "steps": self.steps_url}

    def round_links(self) -> list[dict]:
        return [{"n": i, "number": r.number, "href": self.url(i), "current": i == self.index,
                 "analyzer": r.analyzer_url} for i, r in enumerate(self.rounds, start=1)]

    def cells(self):
        if self.move:
            event, board = self.round.moves[self.move - 1]
            grid = board_cells(board)
            at = tuple(event.params["position"])
            for row in grid:
                for cell in row:
                    if cell.pos == at:
                        cell.classes.append("acting")
                        cell.notes.append(_("this move"))
            return grid
        return self.walk.cells(self.step) if self.walk else []

    @property
    def board_shape(self) -> tuple[int, int]:
        rows = self.walk.situation.board.rows if self.walk else ()
        return len(rows), max((len(r) for r in rows), default=0)

    @cached_property
    def nav(self) -> StepNav | None:
        return (StepNav(self.walk, self.step, lambda k: self.url(self.index, k), anchor="replay-steps")
                if self.walk else None)

    @property
    def result_shown(self) -> bool:
        """Whether the final standings show: once the game is over, at the last step of its
        last round (as on the game page, the replay never tells the outcome ahead of the
        steps)."""
        return (self.over and self.index == len(self.rounds) and not self.move
                and self.step >= len(self.walk.steps) - 1)

    @property
    def result_url(self) -> str:
        """The last step of the last round, where the final standings show."""
        last = Walkthrough(self.rounds[-1].situation)
        return self.url(len(self.rounds), step=len(last.steps) - 1)

    @cached_property
    def taken_back(self) -> list[str]:
        """The moves the learner took back in this round (strategy mode), each the sentence
        that names it, in the order taken back."""
        if self.round is None:
            return []
        out = []
        for entry in self.game.takebacks:
            if entry["round"] != self.round.number:
                continue
            # the log kept its first ``after`` entries: the state the move was made in
            state = replay(self.practice.dealt, self.practice.log[:entry["after"]])
            out.append(move_sentence(action_from_json(entry["action"]), state))
        return out

    def standings(self) -> dict | None:
        """END-2, END-3 (see :attr:`result_shown`)."""
        return final_standings(self.state, self.practice.learner) if self.result_shown else None
