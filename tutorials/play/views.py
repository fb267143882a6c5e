"""The practice game on the site: a start form and the game page, playable
without JavaScript (every move is a POST form with CSRF; htmx posts the same forms and
swaps the game area).

The learner's key never appears in an address: it is kept in a signed, HttpOnly cookie
per game (``play_<id>``). Without it the game is not found (404, counted like the API's
wrong keys, ``game-miss``).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import reswap, retarget

from captain.rules import RulesError
from captain.rules.situation import Mode
from tutorials.forms import Query
from tutorials.models import PracticeGame, Stale
from tutorials.play.action import play_live, unchanged
from tutorials.play.forms import GuidedStartForm, MoveForm, PlayStartForm
from tutorials.play.hints import hint_level, hints_upto
from tutorials.play.page import GamePage
from tutorials.play.replay import ReplayPage
from tutorials.play.start import DEFAULT_CHOICES, guided_offers, start_context
from tutorials.practice import games
from tutorials.web.cookies import SignedCookie
from tutorials.web.limits import check_limit, hit, miss
from tutorials.web.numbers import query_number
from tutorials.web.positions import read_position
from tutorials.web.refused import require_form_body
from tutorials.wording.problems import describe

#: the learner's key of each game this browser plays, of the newest twelve: starting one
#: more forgets the oldest
LEARNER = SignedCookie("play_", "play-learner", PracticeGame.LIFETIME_HOURS, keep=12)


@require_http_methods(["GET", "HEAD", "POST"])
@require_form_body
def play_start(request: HttpRequest) -> HttpResponse:
    """GET: the choices. POST: deal a game and open it; refused choices come back with
    422, the reason beside each field and every choice kept."""
    guided = guided_offers(request, LEARNER)
    if request.method != "POST":
        return render(request, "play/start.html", {**start_context(DEFAULT_CHOICES), "guided": guided})
    form = PlayStartForm.bind(request)
    if not form.is_valid():
        return render(request, "play/start.html", {**start_context(form.chosen(), form.refusals()),
                                                   "form": form, "guided": guided}, status=422)
    hit(request, "game")
    game, key, _practice = games.start_game(form.setup())
    response = redirect("tutorials:play-game", code=game.code)
    LEARNER.give(request, response, game.code, key)
    return response


@require_POST
@require_form_body
def play_guided(request: HttpRequest) -> HttpResponse:
    """Deal a guided game (:mod:`tutorials.play.guide`) and open it."""
    form = GuidedStartForm.bind(request)
    if not form.is_valid():
        context = {**start_context(DEFAULT_CHOICES), "guided": guided_offers(request, LEARNER),
                   "guided_error": next(iter(form.refusals().values()))}
        return render(request, "play/start.html", context, status=422)
    hit(request, "game")
    game, key, _practice = games.start_game(form.setup())
    response = redirect("tutorials:play-game", code=game.code)
    LEARNER.give(request, response, game.code, key)
    return response


class _NotYours(Exception):
    pass


def _learners_game(request: HttpRequest, code: str) -> PracticeGame:
    """The game ``code`` if this browser holds its learner's cookie; :class:`_NotYours`
    otherwise (a failed lookup, counted against the client's limit)."""
    key = LEARNER.read(request, code)
    if key is None:
        check_limit(request, "game-miss")
    try:
        game, learner = games.open_game(code[:16], key)
    except games.GameNotFound:
        miss(request, "game-miss")
        raise _NotYours from None
    if not learner:
        raise _NotYours
    return game


def _open(request: HttpRequest, code: str):
    game = _learners_game(request, code)
    return game, games.practice_of(game)


def _not_found(request: HttpRequest, *, shared: bool = False) -> HttpResponse:
    return render(request, "play/missing.html", {"hours": PracticeGame.LIFETIME_HOURS, "shared": shared},
                  status=404)


def _render(request: HttpRequest, page: GamePage, status: int = 200, *, move: bool = False) -> HttpResponse:
    """The game page, or for htmx its game area; the answer to a ``move`` also carries the
    notice above the area (a refusal, or none: the last one is cleared)."""
    template = "play/game.html#area" if request.htmx else "play/game.html"
    return render(request, template, {"page": page, "notice_oob": move and request.htmx}, status=status)


def _step(request: HttpRequest) -> int:
    return query_number(Query(request).get("step"), 0)


@require_safe
def play_game(request: HttpRequest, code: str) -> HttpResponse:
    """The game as the learner sees it, after the captains' moves due by now. The page's
    timed request (htmx, ``version`` in the address) for a game still at that version gets
    the next timed request alone, in place of the one that asked."""
    try:
        game, practice = _open(request, code)
    except _NotYours:
        return _not_found(request)
    practice = games.catch_up(game, practice)
    # graded hints (tutorials.play.hints): ?hint=1 where to look, ?hint=2 the move and why
    level = hint_level(Query(request).get("hint"))
    if unchanged(request, game):
        page = GamePage(game, practice, hint_level=level)
        response = render(request, "play/game.html#timer", {"page": page})
        return reswap(retarget(response, "#play-poll"), "outerHTML")
    page = GamePage(game, practice, step=_step(request), hint_level=level,
                    marked=read_position(Query(request).get("mark", "")))
    if page.my_turn:
        page.hints = hints_upto(practice, game.code, level)
    return _render(request, page)


@require_safe
def play_replay(request: HttpRequest, code: str) -> HttpResponse:
    """The learner's replay of the rounds finished so far (tutorials.play.replay)."""
    try:
        game, practice = _open(request, code)
    except _NotYours:
        return _not_found(request)
    query = Query(request)
    page = ReplayPage(game, practice, round_no=query.get("round"), step=query.get("step"),
                      move=query.get("move"))
    return render(request, "play/replay.html#replay" if request.htmx else "play/replay.html", {"page": page})


@require_safe
def play_shared(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """A finished game read-only for anyone with the share link: no learner key, no moves;
    unknown or wrong tokens, and games not over yet, are not found (counted like wrong keys)."""
    check_limit(request, "game-miss")
    try:
        game, _learner = games.open_game(code[:16], share=token[:64])
    except games.GameNotFound:
        miss(request, "game-miss")
        return _not_found(request, shared=True)
    practice = games.practice_of(game)
    if not practice.state.is_over:
        return _not_found(request, shared=True)
    query = Query(request)
    page = ReplayPage(game, practice, round_no=query.get("round"), step=query.get("step"),
                      move=query.get("move"), share=game.share_token)
    return render(request, "play/replay.html#replay" if request.htmx else "play/replay.html", {"page": page})


def _move_form(request: HttpRequest, practice) -> MoveForm:
    """The move form of the request; the version may ride in the address (the board's
    positions post only ``do`` and ``at``: :attr:`GamePage.post_url`)."""
    return MoveForm.bind(request, from_address=("version",), learner=practice.learner,
                         action_mode=practice.state.rules.mode is Mode.ACTION)


@require_POST
@require_form_body
def play_act(request: HttpRequest, code: str) -> HttpResponse:
    """One move of the learner. Refused by the rules: 422 with the sentence and the clause
    (htmx swaps 422 too: base.html's ``responseHandling``); from an older page: 409 with the game as it
    stands now; done: back to the game page (303)."""
    try:
        game, practice = _open(request, code)
    except _NotYours:
        return _not_found(request)
    form = _move_form(request, practice)
    refusal = None
    if not form.is_valid():
        first = next(iter(form.refusals().values()))
        refusal = {"text": first, "clause": "", "code": first.code}
    else:
        try:
            practice = play_live(game, practice, form.move(), form.version_seen)
        except Stale:
            game.refresh_from_db()
            practice = games.catch_up(game, games.practice_of(game))
            return _render(request, GamePage(game, practice, stale=True), status=409, move=True)
        except RulesError as error:
            refusal = {"text": describe(error), "clause": error.clause or "", "code": error.code}
    if refusal is not None:
        game.refresh_from_db()  # in real time, the board as it stands now (a captain was faster)
        page = GamePage(game, games.catch_up(game, games.practice_of(game)), refusal=refusal)
        return _render(request, page, status=422, move=True)
    if request.htmx:
        return _render(request, GamePage(game, practice), move=True)
    # see the game page (POST, then GET), scrolled to the game: without JavaScript, each
    # move lands on the board, not on the site's header
    done = redirect(reverse("tutorials:play-game", kwargs={"code": game.code}) + "#play-area")
    done.status_code = 303
    return done
