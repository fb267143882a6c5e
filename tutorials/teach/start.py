"""Starting a table (the presenter's choices) and finding one by its code (a guest)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from captain.rules import Colour
from captain.rules.situation import VARIANTS
from tutorials.forms import COLOUR_VALUES
from tutorials.models import Table, normalize_code
from tutorials.teach.access import PRESENTER, TableGone, live_session
from tutorials.teach.forms import JoinForm, TeachStartForm
from tutorials.teach.plan import reading_minutes
from tutorials.web.limits import RateLimited, hit
from tutorials.web.middleware import refusal
from tutorials.web.refused import require_form_body
from tutorials.wording.clauses import clause_summary
from tutorials.wording.glossary import COLOUR_NAMES


@require_http_methods(["GET", "HEAD", "POST"])
@require_form_body
def teach_start(request: HttpRequest) -> HttpResponse:
    """GET: the choices before starting. POST: create the session and open the presenter.

    Choices that cannot be taught together come back with status 422, the reason beside
    each field and every choice kept; only a table actually started counts towards the
    ``table`` limit.
    """
    if request.method == "POST":
        form = TeachStartForm.bind(request)
        if not form.is_valid():
            # the form again, showing what was chosen and, beside each choice, why it was refused
            return render(request, "teach/start.html",
                          _start_context(chosen=form.chosen(), errors=form.refusals(), form=form),
                          status=422)
        options = form.options()
        hit(request, "table")
        session, key = Table.start(options)
        response = redirect("tutorials:teach-present", code=session.code)
        PRESENTER.give(request, response, session.code, key)
        return response
    return render(request, "teach/start.html", _start_context())


_DEFAULT_CHOICES = {"players": "4", "mode": "action", "script": "quick", "variants": [],
                    "first_edition": False, "seats": list(COLOUR_VALUES)}


def _start_context(**extra) -> dict:
    chosen = {**_DEFAULT_CHOICES, **extra.pop("chosen", {})}
    picked = list(chosen["seats"] or COLOUR_VALUES) + list(COLOUR_VALUES)
    seat_rows = [{"number": i + 1,
                  "choices": [(c, COLOUR_NAMES[Colour(c)], c == picked[i]) for c in COLOUR_VALUES]}
                 for i in range(len(COLOUR_VALUES))]
    return {"seat_rows": seat_rows,
            "variant_choices": [(v, clause, clause_summary(clause)) for v, clause in VARIANTS.items()],
            "first_edition_summary": clause_summary("VAR-4"),
            # each script read aloud for four players in action mode, in this language
            "script_minutes": {name: sum(reading_minutes({"script": name})) for name in ("quick", "full")},
            "chosen": chosen, "errors": extra.pop("errors", {}), **extra}


@require_safe
def teach_find(request: HttpRequest) -> HttpResponse:
    """``?code=…``: follow the table with that code (typed any way: :func:`normalize_code`),
    or say it is unknown or expired; past the client's failed lookups, say so (429) and
    point to the QR code, which still opens the table."""
    form = JoinForm.bind(request)
    if not form.is_valid():
        ctx = _start_context(join_error=form.refusals()["code"], join_code=form.code_typed())
        return render(request, "teach/start.html", ctx, status=422)
    typed = form.cleaned_data["code"]
    code = normalize_code(typed)
    if code:
        try:
            return redirect("tutorials:teach-guest", code=live_session(request, code).code)
        except TableGone:
            pass
        except RateLimited as limited:  # on the start page, beside the field, as any refusal
            ctx = _start_context(join_error=limited.message, join_code=form.code_typed())
            return refusal(render(request, "teach/start.html", ctx, status=429),
                           limited.retry_after, "rate-limited")
    if code:  # what the visitor typed, isolated in <bdi> and escaped
        message = mark_safe(conditional_escape(_(
            "No table uses the code “%(code)s”. Check the code on the presenter's screen; "
            "codes end after four hours.")) % {"code": format_html("<bdi>{}</bdi>", form.code_typed())})
    else:
        message = _("Type the table code shown on the presenter's screen.")
    ctx = _start_context(join_error=message, join_code=form.code_typed())
    return render(request, "teach/start.html", ctx, status=404 if code else 200)
