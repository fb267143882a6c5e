"""Tutorial views: thin — parse the request, call the script or a board, render."""

from __future__ import annotations

import random

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_safe
from django_htmx.http import push_url

from tutorials.tutorial import boards
from tutorials.tutorial.script import STEPS, STEPS_BY_SLUG, neighbours
from tutorials.wording.clauses import sections

@require_safe
def tutorial_index(request: HttpRequest) -> HttpResponse:
    """Table of contents of the read-aloud script."""
    total = sum(s.minutes for s in STEPS)
    return render(request, "tutorials/index.html", {"steps": STEPS, "total_minutes": total})


def _step_or_404(slug: str):
    try:
        return STEPS_BY_SLUG[slug]
    except KeyError:
        raise Http404("no such tutorial step") from None


@require_safe
def tutorial_step(request: HttpRequest, slug: str) -> HttpResponse:
    """One step of the script with its example boards (state from the query string)."""
    step = _step_or_404(slug)
    previous, following = neighbours(slug)
    board_views = []
    for board_id in step.boards:
        board = boards.load(board_id, request.GET.get(board_id, ""), step=step.slug)
        board.note = board.note or request.GET.get(f"{board_id}-note", "")
        board_views.append(board)
    return render(request, "tutorials/step.html", {
        "step": step,
        "steps": STEPS,
        "number": STEPS.index(step) + 1,
        "previous": previous,
        "next": following,
        "boards": board_views,
    })


@require_safe
def board_action(request: HttpRequest, slug: str, board_id: str) -> HttpResponse:
    """Apply one action (``?state=…&do=…``) to an example board.

    htmx requests get the board partial and the page URL pushed into history; plain
    requests are redirected to the step page holding the new state, so every board
    also works without JavaScript.
    """
    step = _step_or_404(slug)
    if board_id not in step.boards:
        raise Http404("no such board on this step")
    board = boards.load(board_id, request.GET.get("state", ""), step=slug)
    action = request.GET.get("do", "")
    arg = request.GET.get("at", "")
    board = board.apply(action, arg, rng=random.SystemRandom())
    page_url = board.page_url()
    if not request.htmx:
        return redirect(page_url)
    # a check answered on a teaching session's guest page keeps that page's address
    current = request.htmx.current_url_abs_path
    if current and current.split("?")[0] != reverse("tutorials:step", args=[slug]):
        return render(request, board.template, {"board": board})
    response = render(request, "tutorials/_board.html", {"board": board})
    return push_url(response, page_url)


@require_safe
def rules_page(request: HttpRequest) -> HttpResponse:
    """Every rule clause, translated, with its id as anchor (``/<lang>/rules/#BAT-3``)."""

    return render(request, "tutorials/rules.html", {"sections": sections()})

