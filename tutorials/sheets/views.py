"""Sheet views: the sheets page, cached sheet PDFs and previews, and the position PDF."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from captain.rules import RulesError
from tutorials.analyzer.forms import read_position
from tutorials.forms import Query
from tutorials.rendering.pdf import pdf_quota
from tutorials.services import find_saved, short_link
from tutorials.sheets.content import AUDIENCE_SHEETS
from tutorials.sheets.render import (
    SHEETS,
    is_cached,
    position_cache_path,
    position_pdf,
    preview_png,
    sheet_pdf,
    sheet_stem,
)
from tutorials.tutorial.audience import DEFAULT_AUDIENCE, Audience, read_audience
from tutorials.web.links import analyzer_url
from tutorials.wording.problems import describe


# --- printable sheets -------------------------------------------------------------------------
@require_safe
def sheets_index(request: HttpRequest) -> HttpResponse:
    """The printable sheets with previews, in A4 and US Letter."""

    return render(request, "tutorials/sheets.html", {
        "sheets": SHEETS.values(), "audience_sheets": AUDIENCE_SHEETS, "default_audience": DEFAULT_AUDIENCE})


class _BadPaper(Exception):
    pass


class _BadTable(Exception):
    """A ``players`` or ``mode`` value no sheet is printed for; the message says which."""


def _table(request: HttpRequest) -> Audience:
    audience, problem = read_audience(request)
    if problem:
        raise _BadTable(problem)
    return audience


def _paper(request: HttpRequest) -> str:
    query = Query(request)
    paper = query.get("paper", "a4").lower()
    if query.refusal or paper not in ("a4", "letter"):
        raise _BadPaper(paper)
    return paper


def _bad_paper() -> HttpResponse:
    return HttpResponse(_("Paper must be a4 or letter, for example ?paper=letter."), status=400,
                        content_type="text/plain; charset=utf-8")


def _sheet_file(request: HttpRequest, name: str, render_file, content_type: str,
                filename: str | None = None) -> HttpResponse:
    """Answer with a cached sheet file: 404 for an unknown sheet, 400 for a bad paper or
    audience (the teaching sheets are printed per audience; the others take the same values)."""

    if name not in SHEETS:
        raise Http404("no such sheet")
    try:
        paper = _paper(request)
        audience = _table(request)
    except _BadPaper:
        return _bad_paper()
    except _BadTable as exc:
        return HttpResponse(str(exc), status=400, content_type="text/plain; charset=utf-8")
    if name not in AUDIENCE_SHEETS:
        audience = DEFAULT_AUDIENCE
    lang = get_language()
    cached = is_cached(name, lang, paper, audience=audience)
    if request.method == "HEAD" and not cached:
        response = HttpResponse(content_type=content_type)  # what GET would answer, unrendered
    elif cached:
        response = HttpResponse(render_file(name, lang, paper, audience=audience), content_type=content_type)
    else:  # only a render counts
        data = render_file(name, lang, paper, pdf_quota(request), audience=audience)
        response = HttpResponse(data, content_type=content_type)
    if filename:
        shown = filename.format(name=sheet_stem(name, audience), lang=lang, paper=paper)
        response["Content-Disposition"] = f'inline; filename="{shown}"'
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_safe
def sheet_pdf_view(request: HttpRequest, name: str) -> HttpResponse:
    """``/<lang>/sheets/<name>.pdf?paper=a4|letter`` from the sheet cache."""

    return _sheet_file(request, name, sheet_pdf, "application/pdf",
                       "captain-dice-{name}-{lang}-{paper}.pdf")


@require_safe
def sheet_preview(request: HttpRequest, name: str) -> HttpResponse:
    """Page 1 of a sheet as PNG, for the sheets list."""

    return _sheet_file(request, name, preview_png, "image/png")


@require_safe
def analyze_pdf(request: HttpRequest) -> HttpResponse:
    """The analyzer's position and its step-by-step answer as a PDF (rendered on the first
    request, then kept: :func:`~tutorials.sheets.render.position_pdf`).

    ``HEAD`` answers with the same headers and renders nothing.
    """
    query = Query(request)
    _raw, situation = read_position(query)
    if isinstance(situation, RulesError):
        return HttpResponse(describe(situation), status=422, content_type="text/plain; charset=utf-8")
    code = situation.to_notation()
    # a saved position's sheet carries its title and its short link; any other, the long address
    saved = find_saved(query.get("saved")) if query.get("saved") else None
    if saved is not None and saved.notation != code:
        saved = None
    share = request.build_absolute_uri(short_link(saved.code) if saved else analyzer_url(code))
    try:
        paper = _paper(request)
    except _BadPaper:
        return _bad_paper()
    which = {"lang": get_language(), "paper": paper, "share_url": share,
             "title": saved.title if saved else ""}
    cached = position_cache_path(situation, **which).exists()
    if request.method == "HEAD":  # the headers GET would send; no render, no count
        response = HttpResponse(content_type="application/pdf")
    elif cached:
        response = HttpResponse(position_pdf(situation, **which), content_type="application/pdf")
    else:  # only a render counts
        response = HttpResponse(position_pdf(situation, **which, admitted=pdf_quota(request)),
                                content_type="application/pdf")
    response["Content-Disposition"] = 'inline; filename="captain-dice-position.pdf"'
    return response

