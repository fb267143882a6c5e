"""The rules search on the site: the answers on the rules page (``/<lang>/rules/?q=…``) and,
for the search box of every page, the answers as the reader types (htmx)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_safe

from tutorials.forms import Query
from tutorials.search.answers import answer
from tutorials.search.forms import QuestionForm
from tutorials.wording.clauses import sections


@require_safe
def rules_page(request: HttpRequest) -> HttpResponse:
    """Every rule clause, translated, with its id as anchor (``/<lang>/rules/#BAT-3``); with
    ``?q=`` the answers to that question first. A clause id asked as such goes straight to
    it."""
    form = QuestionForm.bind(request)
    found = answer(form.question()) if form.question() else None
    if found is not None and found.clause_asked:
        return redirect(f"{reverse('tutorials:rules')}#{found.clause_asked}")
    refusal = next(iter(form.refusals().values()), None) if form.is_bound and not form.is_valid() else None
    status = 422 if refusal is not None else 200
    return render(request, "tutorials/rules.html", {"sections": sections(), "found": found,
                                                    "question": form.typed("q"), "refusal": refusal},
                  status=status)


@require_safe
def rules_answers(request: HttpRequest) -> HttpResponse:
    """The answers under the search box as the reader types (htmx); without htmx, the rules
    page with the answers."""
    form = QuestionForm.bind(request)
    if not request.htmx:
        return redirect(f"{reverse('tutorials:rules')}?{urlencode({'q': form.typed('q')})}")
    found = answer(form.question(), limit=3) if form.question() else None
    # a guest's page keeps the table open: its answers open beside it
    return render(request, "tutorials/_search_dropdown.html",
                  {"found": found, "guest": Query(request).get("guest") == "1"})
