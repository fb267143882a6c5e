"""Analyzer views: parse the position and the edit, call the editor, render the page or its fragment."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import push_url, replace_url

from captain.rules import RulesError, notation
from tutorials.analyzer import edits as analyzer
from tutorials.analyzer.edits import Tool
from tutorials.analyzer.page import AnalyzerPage, apply_edit
from tutorials.http.limits import hit
from tutorials.services import save_position
from tutorials.wording.problems import describe


# --- analyzer ---------------------------------------------------------------------------------
@require_safe
def analyze(request: HttpRequest) -> HttpResponse:
    """The position editor and its answers: ``?pos=<notation>&tool=…&view=edit|explain&step=k``."""

    raw = request.GET.get("pos", "") or analyzer.DEFAULT_NOTATION
    error = ""
    try:
        situation = notation.parse(raw)
    except RulesError as exc:
        error = describe(exc)
        situation = None
    page = AnalyzerPage.build(request, situation, raw=raw, error=error)
    template = "tutorials/analyzer.html#analyzer" if request.htmx else "tutorials/analyzer.html"
    return render(request, template, {"page": page}, status=200)


@require_safe
def analyze_what_if(request: HttpRequest) -> HttpResponse:
    """The what-if panel of ``pos``: for htmx the panel alone (the page asks for it once the
    answer is shown), without JavaScript the whole page with the panel in it."""

    raw = request.GET.get("pos", "")
    try:
        situation = notation.parse(raw)
    except RulesError as exc:
        if request.htmx:  # nothing to put in the panel; the page itself says what is wrong
            return HttpResponse(status=204)
        page = AnalyzerPage.build(request, None, raw=raw, error=describe(exc))
        return render(request, "tutorials/analyzer.html", {"page": page}, status=422)
    page = AnalyzerPage.build(request, situation, raw=raw, view="edit")
    page.what_ifs_inline = True
    if request.htmx:
        return render(request, "tutorials/analyzer.html#what-ifs", {"page": page})
    return render(request, "tutorials/analyzer.html", {"page": page})


@require_safe
def analyze_edit(request: HttpRequest) -> HttpResponse:
    """Apply one edit (``op``) to ``pos``; refused edits keep the position and say why."""

    raw = request.GET.get("pos", "")
    try:
        situation = notation.parse(raw)
    except RulesError as exc:
        page = AnalyzerPage.build(request, None, raw=raw, error=describe(exc))
        return render(request, "tutorials/analyzer.html#analyzer" if request.htmx
                      else "tutorials/analyzer.html", {"page": page})
    error = ""
    try:
        new, tool = apply_edit(situation, request.GET)
    except RulesError as exc:
        new, tool, error = situation, request.GET.get("tool", ""), describe(exc)
        try:

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
        response = render(request, "tutorials/analyzer.html#analyzer", {"page": page})
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
    hit(request, "save")
    raw = request.POST.get("pos", "")
    try:
        saved, situation = save_position(raw, request.POST.get("title", ""))
    except RulesError as exc:
        page = AnalyzerPage.build(request, None, raw=raw, error=describe(exc))
        return render(request, "tutorials/analyzer.html", {"page": page}, status=422)
    page = AnalyzerPage.build(request, situation)
    return redirect(page.url(saved=saved.code) + "#saved")

