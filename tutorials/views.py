"""Tutorial views: thin — parse the request, call the script or a board, render."""

from __future__ import annotations

import random

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import push_url, replace_url

from . import boards
from .script import STEPS, STEPS_BY_SLUG, neighbours


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
    from .clauses import sections

    return render(request, "tutorials/rules.html", {"sections": sections()})


# --- analyzer ---------------------------------------------------------------------------------
@require_safe
def analyze(request: HttpRequest) -> HttpResponse:
    """The position editor and its answers: ``?pos=<notation>&tool=…&view=edit|explain&step=k``."""
    from captain.rules import RulesError, notation

    from . import analyzer
    from .analyzer_view import AnalyzerPage
    from .problems import describe

    raw = request.GET.get("pos", "") or analyzer.DEFAULT_NOTATION
    error = ""
    try:
        situation = notation.parse(raw)
    except RulesError as exc:
        error = describe(exc)
        situation = None
    page = AnalyzerPage.build(request, situation, raw=raw, error=error)
    template = "tutorials/_analyzer.html" if request.htmx else "tutorials/analyzer.html"
    return render(request, template, {"page": page}, status=200)


@require_safe
def analyze_edit(request: HttpRequest) -> HttpResponse:
    """Apply one edit (``op``) to ``pos``; refused edits keep the position and say why."""
    from captain.rules import RulesError, notation

    from .analyzer_view import AnalyzerPage, apply_edit
    from .problems import describe

    raw = request.GET.get("pos", "")
    try:
        situation = notation.parse(raw)
    except RulesError as exc:
        page = AnalyzerPage.build(request, None, raw=raw, error=describe(exc))
        return render(request, "tutorials/_analyzer.html" if request.htmx
                      else "tutorials/analyzer.html", {"page": page})
    error = ""
    try:
        new, tool = apply_edit(situation, request.GET)
    except RulesError as exc:
        new, tool, error = situation, request.GET.get("tool", ""), describe(exc)
        try:
            from .analyzer import Tool

            Tool.parse(tool)
        except RulesError:
            tool = ""
    page = AnalyzerPage.build(request, new, tool=tool, error=error,
                              view=request.GET.get("view", "edit"),
                              step=request.GET.get("step", "0"))
    op = request.GET.get("op", "")
    if error and op in ("deck", "won"):
        page.typed[op] = request.GET.get(op, request.GET.get("arg", ""))[:200]
    if request.htmx:
        response = render(request, "tutorials/_analyzer.html", {"page": page})
        if request.GET.get("op") in ("tool", "colour", "value", "dice") or error:
            # choosing a tool (or a refused edit) is not a step to undo with Back / Z
            return replace_url(response, page.url())
        return push_url(response, page.url())
    if error:
        return render(request, "tutorials/analyzer.html", {"page": page})
    return redirect(page.url())


@require_POST
def analyze_save(request: HttpRequest) -> HttpResponse:
    """POST ``pos`` (+ optional ``title``): store it for good and show its short link."""
    from captain.rules import RulesError, notation

    from .analyzer_view import AnalyzerPage
    from .models import SavedPosition
    from .problems import describe
    from .titles import clean_title

    from .limits import hit

    hit(request, "save")

    raw = request.POST.get("pos", "")
    try:
        title = clean_title(request.POST.get("title", ""))
        situation = notation.parse(raw)
    except RulesError as exc:
        page = AnalyzerPage.build(request, None, raw=raw, error=describe(exc))
        return render(request, "tutorials/analyzer.html", {"page": page}, status=422)
    saved = SavedPosition(notation=situation.to_notation(), title=title)
    saved.save()
    page = AnalyzerPage.build(request, situation)
    return redirect(page.url(saved=saved.code) + "#saved")


# --- printable sheets -------------------------------------------------------------------------
@require_safe
def sheets_index(request: HttpRequest) -> HttpResponse:
    """The printable sheets with previews, in A4 and US Letter."""
    from .sheets import SHEETS

    return render(request, "tutorials/sheets.html", {"sheets": SHEETS.values()})


class _BadPaper(Exception):
    pass


def _paper(request: HttpRequest) -> str:
    paper = request.GET.get("paper", "a4").lower()
    if paper not in ("a4", "letter"):
        raise _BadPaper(paper)
    return paper


def _bad_paper() -> HttpResponse:
    from django.utils.translation import gettext as _

    return HttpResponse(_("Paper must be a4 or letter, for example ?paper=letter."), status=400,
                        content_type="text/plain; charset=utf-8")


def _sheet_file(request: HttpRequest, name: str, render_file, content_type: str,
                filename: str | None = None) -> HttpResponse:
    """Answer with a cached sheet file: 404 for an unknown sheet, 400 for a bad paper."""
    from django.utils.translation import get_language

    from .limits import hit
    from .sheets import SHEETS, is_cached

    if name not in SHEETS:
        raise Http404("no such sheet")
    try:
        paper = _paper(request)
    except _BadPaper:
        return _bad_paper()
    lang = get_language()
    cached = is_cached(name, lang, paper)
    if request.method == "HEAD" and not cached:
        response = HttpResponse(content_type=content_type)  # what GET would answer, unrendered
    else:
        if not cached:
            hit(request, "pdf")  # only a render counts
        response = HttpResponse(render_file(name, lang, paper), content_type=content_type)
    if filename:
        response["Content-Disposition"] = f'inline; filename="{filename.format(name=name, lang=lang, paper=paper)}"'
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_safe
def sheet_pdf_view(request: HttpRequest, name: str) -> HttpResponse:
    """``/<lang>/sheets/<name>.pdf?paper=a4|letter`` from the sheet cache."""
    from .sheets import sheet_pdf

    return _sheet_file(request, name, sheet_pdf, "application/pdf",
                       "captain-dice-{name}-{lang}-{paper}.pdf")


@require_safe
def sheet_preview(request: HttpRequest, name: str) -> HttpResponse:
    """Page 1 of a sheet as PNG, for the sheets list."""
    from .sheets import preview_png

    return _sheet_file(request, name, preview_png, "image/png")


@require_safe
def analyze_pdf(request: HttpRequest) -> HttpResponse:
    """The analyzer's position and its step-by-step answer as a PDF (rendered on demand).

    ``HEAD`` answers with the same headers and renders nothing.
    """
    from urllib.parse import urlencode

    from django.utils.translation import get_language

    from captain.rules import RulesError, notation

    from .limits import hit
    from .problems import describe
    from .sheets import position_pdf

    raw = request.GET.get("pos", "")
    try:
        situation = notation.parse(raw)
    except RulesError as exc:
        return HttpResponse(describe(exc), status=422, content_type="text/plain; charset=utf-8")
    code = situation.to_notation()
    share = request.build_absolute_uri(f"{reverse('tutorials:analyze')}?{urlencode({'pos': code})}")
    try:
        paper = _paper(request)
    except _BadPaper:
        return _bad_paper()
    if request.method == "HEAD":  # the headers GET would send; no render, no count
        response = HttpResponse(content_type="application/pdf")
    else:
        hit(request, "pdf")
        data = position_pdf(situation, lang=get_language(), paper=paper, share_url=share)
        response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = 'inline; filename="captain-dice-position.pdf"'
    return response
