"""The API's practice games: ``POST /api/v1/games`` deals one, ``GET /api/v1/games/{id}``
reads it as the learner may see it, ``POST /api/v1/games/{id}/actions`` plays the learner's
action; the learner's key travels in ``X-Game-Key``. The games themselves are
:mod:`tutorials.practice.games`, shared with the site's game page.
"""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Path, Query, Router, Status

from captain.rules.errors import InvalidInput
from tutorials.api.problems import Problems, refusal
from tutorials.api.schemas import ERRORS, ActionIn, GameIn, GameOut, GameStateOut, ProblemsOut
from tutorials.models import Stale
from tutorials.practice import games
from tutorials.web.limits import check_limit, hit, miss

router = Router()


def _game_not_found() -> Problems:
    return Problems(404, [refusal("not-found", field="id", what="game")])


def _open(request: HttpRequest, game_id: str, *, share: str | None = None):
    """The game opened by the learner's key (header ``X-Game-Key``) or, where the caller
    reads one, the share token ``share`` (``?share=``). Wrong keys count as failed lookups:
    over the limit they get 429, while the right key still opens its game."""
    key = request.headers.get("X-Game-Key") or None
    token = share or None
    try:
        game, learner = games.open_game(game_id, key, share=token)
    except games.GameNotFound:
        check_limit(request, "game-miss")
        miss(request, "game-miss")
        raise _game_not_found() from None
    practice = games.practice_of(game)
    if not learner and not practice.state.is_over:
        raise _game_not_found()
    return game, learner, practice


# exclude_unset: an answer holds the keys the game gave it, no more (a shared game has no
# hand, an event without a reading no interpretation, an action only its own keys)
@router.post("/games", response={201: GameOut, **ERRORS, 429: ProblemsOut}, operation_id="start_game",
          summary="Start a practice game against computer captains", exclude_unset=True)
def start_game(request: HttpRequest, payload: GameIn):
    """Deal a game for one learner against computer captains of a chosen strength.

    The answer holds the game `id`, the learner's `key` (send it as `X-Game-Key`; it is
    shown only here) and the `state` as the learner may see it. Games expire 24 hours
    after they start. Starting games is rate-limited with the other write requests
    (429 with `Retry-After`). Rule sets a table of that size may not play (a bell rule in
    strategy mode, the first-edition bell with two players) are refused, as by the site's
    start form.
    """
    hit(request, "game")
    game, key, practice = games.start_game(payload.setup)
    return Status(201, {"id": game.code, "key": key, "share_token": game.share_token,
                        "state": games.learner_view(game, practice)})


@router.get("/games/{game_id}", response={200: GameStateOut, 404: ProblemsOut, 422: ProblemsOut,
                                          429: ProblemsOut},
         operation_id="read_game", summary="The game as the learner may see it", exclude_unset=True)
def read_game(request: HttpRequest, game_id: str = Path(..., max_length=16),
              since: int | None = Query(None, ge=0),
              share: str | None = Query(None, max_length=64,
                                        description="a finished game's share token, instead of the key")):
    """The game with the learner's key (`X-Game-Key`), after the captains' actions due by
    now: board, dice, every player's won cards, the learner's own hand, the learner's
    `legal_actions`, and the explanation `events` since version `since` (all without it).
    Never another player's hand or face-down card, the deck order or the seed. With
    `?share=<token>` instead of the key, a finished game read-only. Unknown id or wrong
    key: 404.
    """
    game, learner, practice = _open(request, game_id, share=share)
    if learner:
        practice = games.catch_up(game, practice)
    return games.learner_view(game, practice, since=since, shared=not learner)


@router.post("/games/{game_id}/actions",
          response={200: GameStateOut, 404: ProblemsOut, 409: ProblemsOut, **ERRORS, 429: ProblemsOut},
          operation_id="play_action", summary="The learner's action", exclude_unset=True)
def play_action(request: HttpRequest, payload: ActionIn, game_id: str = Path(..., max_length=16)):
    """Play one of the state's `legal_actions` (or `{"type": "continue"}` between rounds),
    chosen at `version`. The captains' actions due by now come first: an action they made
    impossible meanwhile (a card claimed a moment earlier) is refused with 422, the rule's
    `clause` and a message in the request's language. 409 when the game moved on since
    `version` (another window); 404 for an unknown game or a wrong key.
    """
    game, learner, practice = _open(request, game_id)
    if not learner:
        raise _game_not_found()
    version = payload.version
    try:
        practice = games.play(game, practice, payload.action, version)
    except InvalidInput as exc:  # the action cannot be read: say where in it
        if not exc.field or not exc.field.startswith("action"):
            exc.field = "action"
        raise
    except Stale:
        raise Problems(409, [refusal("stale-version", field="version")]) from None
    return games.learner_view(game, practice, since=version)
