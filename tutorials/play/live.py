"""A practice game's live stream (:mod:`tutorials.http.streams`): the learner's page hears of
every stored move the moment it is made (a captain's claim, the bell, the end of Dice Time,
the learner's own moves from another tab), and then asks for its game area as its poll did.

Every change of a game (:data:`~tutorials.models.game_changed`) is announced on the live bus
once committed; the stream's mark is the game's version. While the stream is open the
process serving it keeps the game's clock running (:mod:`tutorials.play.clock`): the
captains act at their time though nobody asks.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse

from tutorials.http import bus, streams
from tutorials.models import PracticeGame, game_changed
from tutorials.play import clock


def _current(code: str) -> tuple[int] | None:
    version = PracticeGame.objects.filter(code=code).values_list("version", flat=True).first()
    return None if version is None else (version,)


@receiver(game_changed)
def announce(sender, code: str, **_kwargs) -> None:
    """Tell the game's streams (and its clock) that it changed, once committed."""
    def send() -> None:
        mark = _current(code)
        if mark is not None:
            bus.publish(clock.topic(code), streams.message(mark))
    transaction.on_commit(send)


def game_stream(request: HttpRequest, game: PracticeGame) -> HttpResponse:
    """The stream of the learner's ``game``, its clock running while it is open."""
    return streams.event_stream(request, clock.topic(game.code), partial(_current, game.code), size=1,
                                around=partial(clock.watch, game.code))
