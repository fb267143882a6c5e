"""Tutorial views: thin — parse the request, call the script or a board, render."""

from __future__ import annotations

import random

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_safe
from django_htmx.http import push_url

from tutorials.forms import Query
from tutorials.tutorial import boards
from tutorials.tutorial.audience import Audience, read_audience
from tutorials.tutorial.reading import RATES, lesson_reading
from tutorials.tutorial.script import LESSONS, LESSONS_BY_SLUG, neighbours
from tutorials.tutorial.teaching import audience_context, lesson_boards


@require_safe
def tutorial_index(request: HttpRequest) -> HttpResponse:
    """Table of contents of the read-aloud script for the audience chosen, each lesson
    with its reading time, and the choice of audience (players, mode) at its top."""
    audience, problem = read_audience(request)
    lang = get_language() if get_language() in RATES else "en"
    lessons = [(lesson, lesson_reading(lesson.slug, lang, audience).minutes) for lesson in LESSONS]
    return render(request, "tutorials/index.html", {
        "lessons": lessons, "first": LESSONS[0], "total_minutes": sum(m for _l, m in lessons),
        **audience_context(audience, problem)})


def _lesson_or_404(slug: str):
    try:
        return LESSONS_BY_SLUG[slug]
    except KeyError:
        raise Http404("no such tutorial page") from None


@require_safe
def tutorial_lesson(request: HttpRequest, slug: str) -> HttpResponse:
    """One lesson of the script with its example boards (state from the query string)."""
    lesson = _lesson_or_404(slug)
    audience, problem = read_audience(request)
    previous, following = neighbours(slug)
    query = Query(request)
    board_views = [_board(board_id, query.get(board_id), slug, audience, note=query.get(f"{board_id}-note"))
                   for board_id in lesson_boards(lesson, audience)]
    return render(request, "tutorials/lesson.html", {
        "lesson": lesson,
        "lesson_title": lesson.title_for(audience.strategy),
        "lesson_template": lesson.template_for(audience.strategy),
        "lessons": [(item, item.title_for(audience.strategy)) for item in LESSONS],
        "number": LESSONS.index(lesson) + 1,
        "total": len(LESSONS),
        "previous": previous and (previous, previous.title_for(audience.strategy)),
        "next": following and (following, following.title_for(audience.strategy)),
        "boards": board_views,
        **audience_context(audience, problem),
    })


def _board(board_id: str, state: str, slug: str, audience: Audience, note: str = "") -> boards.ExampleBoard:
    """The board in ``state``, or in the table's first state; its links keep the audience."""
    first = boards.table_state(board_id, players=audience.players)
    board = boards.load(board_id, state or first, lesson=slug)
    board.audience = audience
    board.note = board.note or note
    return board


@require_safe
def board_action(request: HttpRequest, slug: str, board_id: str) -> HttpResponse:
    """Apply one action (``?state=…&do=…&at=…``, read by :class:`~tutorials.forms.Query`)
    to an example board; a parameter sent twice or not in UTF-8 changes nothing (422 for htmx).

    htmx requests get the board partial and the page URL pushed into history; plain
    requests are redirected to the lesson page holding the new state, so every board
    also works without JavaScript.
    """
    lesson = _lesson_or_404(slug)
    audience, _problem = read_audience(request)  # an audience that cannot be read: the default one
    if board_id not in lesson_boards(lesson, audience):
        raise Http404("no such board on this page")
    query = Query(request)
    board = _board(board_id, query.get("state"), slug, audience)
    action, arg = query.get("do"), query.get("at")
    if query.refusal:  # a link the page never makes: the board stays as it was
        board.note = "refused"
        if not request.htmx:
            return redirect(board.page_url())
        return render(request, "tutorials/_board.html", {"board": board}, status=422)
    board = board.apply(action, arg, rng=random.SystemRandom())
    board.audience = audience
    page_url = board.page_url()
    if not request.htmx:
        return redirect(page_url)
    # a check answered on a teaching session's guest page keeps that page's address
    current = request.htmx.current_url_abs_path
    if current and current.split("?")[0] != reverse("tutorials:lesson", args=[slug]):
        return render(request, board.template, {"board": board})
    response = render(request, "tutorials/_board.html", {"board": board})
    return push_url(response, page_url)
