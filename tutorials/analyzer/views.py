"""Analyzer views: parse the position and the edit, call the editor, render the page or its fragment."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import condition, require_POST, require_safe
from django_htmx.http import push_url, replace_url

from captain.rules import RulesError, Situation, notation
from tutorials.analyzer import edits as analyzer
from tutorials.analyzer.edit_links import HISTORY_SEP, TOOL_OPS, apply_edit, describe_refusal
from tutorials.analyzer.forms import SavePositionForm, read_position
from tutorials.analyzer.page import AnalyzerPage, UnreadablePage, read_tool
from tutorials.forms import Query, Refusal
from tutorials.services import find_saved, save_position, short_link
from tutorials.web.fragments import cached_html, request_etag
from tutorials.web.limits import hit
from tutorials.web.refused import require_form_body
from tutorials.wording.problems import describe

Page = AnalyzerPage | UnreadablePage

#: The field (or panel) beside which a refused edit is explained, by edit.
_FIELD_OF_EDIT = {"won": "won", "deck": "deck", "shape": "shape", "seat": "seats", "start": "seats",
                  "rule": "rules"}


def _render_page(request: HttpRequest, page: Page, status: int = 200) -> HttpResponse:
    """The whole analyzer page. Its language links lead to the page's own address (the
    position's query), also when it answers a POST or an edit link."""
    return render(request, "tutorials/analyzer.html", {"page": page, "page_url": page.url()},
                  status=status)


def _render(request: HttpRequest, page: Page, status: int = 200) -> HttpResponse:
    """The analyzer for htmx (its fragment) or as a whole page."""
    if request.htmx:
        return render(request, "tutorials/analyzer.html#analyzer", {"page": page}, status=status)
    return _render_page(request, page, status)


def _unreadable(request: HttpRequest, raw: str, error: RulesError) -> UnreadablePage:
    """The page of position text ``raw`` that the engine cannot read, and why."""
    return UnreadablePage(raw, Refusal(describe(error), error.code), read_tool(Query(request).get("tool")))


def _page(request: HttpRequest, situation: Situation, **given) -> AnalyzerPage:
    """The page of ``situation`` as the address asks for it (tool, view, step, edit
    history; ``given`` overrides them), with the saved position a short link opened."""
    query = Query(request)
    asked = {name: query.get(name, default) for name, default in
             (("tool", ""), ("view", "edit"), ("step", "0"), ("prev", ""), ("next", ""))}
    page = AnalyzerPage.build(situation, **(asked | given))
    saved = find_saved(query.get("saved")) if query.get("saved") else None
    if saved is not None and saved.notation == page.code:
        page.saved_url = request.build_absolute_uri(short_link(saved.code))
        page.saved_title = saved.title
        page.saved_code = saved.code
    return page


# --- analyzer ---------------------------------------------------------------------------------
@require_safe
@condition(etag_func=request_etag)
def analyze(request: HttpRequest) -> HttpResponse:
    """The position editor and its answers: ``?pos=<notation>&tool=…&view=edit|explain&step=k``.

    A ``pos`` that cannot be read answers 422, the editor with the reason beside it (as the
    position PDF and the API refuse it); white space around it is no reason
    (:func:`read_position`), and white space alone is no position.
    """
    raw, situation = read_position(Query(request), empty=analyzer.DEFAULT_NOTATION)
    if isinstance(situation, RulesError):
        return _render(request, _unreadable(request, raw, situation), status=422)
    return _render(request, _page(request, situation))


@require_safe
@condition(etag_func=request_etag)
def analyze_what_if(request: HttpRequest) -> HttpResponse:
    """The what-if panel of ``pos``: for htmx the panel alone (the page asks for it once the
    answer is shown), without JavaScript the whole page with the panel in it."""

    raw, situation = read_position(Query(request))
    if isinstance(situation, RulesError):
        if request.htmx:  # nothing to put in the panel; the page itself says what is wrong
            return HttpResponse(status=204)
        return _render_page(request, _unreadable(request, raw, situation), status=422)
    page = _page(request, situation, view="edit")
    page.what_ifs_inline = True
    if request.htmx:  # about thirty positions resolved: once per page state and language
        return HttpResponse(cached_html("what-ifs", page.fragment_key, lambda: render_to_string(
            "tutorials/analyzer.html#what-ifs", {"page": page}, request)))
    return _render_page(request, page)


@require_safe
def analyze_edit(request: HttpRequest) -> HttpResponse:
    """Apply one edit (``op``) to ``pos``; refused edits (422) keep the position and say why."""

    query = Query(request)
    raw, situation = read_position(query)
    if isinstance(situation, RulesError):
        return _render(request, _unreadable(request, raw, situation), status=422)
    refused = query.check(request.GET)  # every parameter of the link once, in UTF-8
    op = query.get("op")
    error, clause = "", ""
    prev, redo = query.get("prev"), query.get("next")  # choosing a tool keeps the history
    try:
        if refused:
            raise refused
        new, tool = apply_edit(situation, query)
    except RulesError as exc:
        new, error, clause = situation, describe_refusal(exc, situation, op), exc.clause or ""
        tool = read_tool(Query(request).get("tool")).code
    else:
        if new.to_notation() != situation.to_notation():
            # Undo goes back to the position before this edit; what was undone is no longer ahead
            prev, redo = HISTORY_SEP.join(filter(None, (situation.to_notation(), prev))), ""
    page = _page(request, new, tool=tool, error=error, error_field=_FIELD_OF_EDIT.get(op, ""), prev=prev,
                 next=redo)
    page.error_clause = clause  # the rule that refused the edit, linked beside the refusal
    if error and op in ("deck", "won", "shape"):  # the field shows what was typed, not erased
        page.typed[op] = (query.get(op) if op in query else query.get("arg"))[:200]
    status = 422 if error else 200  # htmx swaps 422 too (base.html's responseHandling)
    if request.htmx:
        response = render(request, "tutorials/analyzer.html#analyzer", {"page": page}, status=status)
        if op in TOOL_OPS or error:
            # choosing a tool (or a refused edit) is not a step to undo with Back / Z
            return replace_url(response, page.url())
        return push_url(response, page.url())
    if error:
        return _render_page(request, page, status=422)
    return redirect(page.url())


@require_POST
@require_form_body
def analyze_save(request: HttpRequest) -> HttpResponse:
    """POST ``pos`` (+ optional ``title``): store it for good and show its short link."""
    hit(request, "save")
    form = SavePositionForm.bind(request)
    raw, title = form.typed("pos"), form.typed("title")
    if not form.is_valid():
        field, refusal = next(iter(form.refusals().items()))
        return _refused_save(request, raw, title, refusal, field)
    try:
        saved, situation = save_position(form.cleaned_data["pos"], form.cleaned_data["title"])
    except RulesError as exc:
        return _refused_save(request, raw, title, Refusal(describe(exc), exc.code), "pos")
    page = AnalyzerPage.build(situation)
    return redirect(page.url(saved=saved.code) + "#saved")


def _refused_save(request: HttpRequest, raw: str, title: str, refusal: Refusal, field: str) -> HttpResponse:
    """422: the whole analyzer again, with the position, the typed title and, beside the
    refused field, why."""
    try:
        situation = notation.parse(raw)
    except RulesError as bad_position:
        # the title cannot help: say what is wrong with the position
        return _render_page(request, _unreadable(request, raw, bad_position), status=422)
    page = _page(request, situation, error=refusal, prev="", next="",
                 error_field="title" if field == "title" else "pos")
    page.typed["title"] = title[:1000]
    return _render_page(request, page, status=422)

