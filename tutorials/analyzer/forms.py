"""The analyzer's one form that posts: saving a position under a short link. Everything
else on the page is a link or a GET form that carries the position (:class:`~tutorials.forms.Query`),
whose ``pos`` every page that shows a position reads one way (:func:`read_position`)."""

from __future__ import annotations

from django import forms

from captain.rules import RulesError, Situation, notation
from captain.rules.typed import normalize_typed
from tutorials.forms import Query, StrictForm, TextField
from tutorials.services import clean_title
from tutorials.wording.problems import describe


class SavePositionForm(StrictForm):
    """``pos`` (the position's notation) and an optional ``title``
    (:func:`~tutorials.services.clean_title`: the same rule as the API's
    :class:`~tutorials.api.schemas.PositionIn`). The notation is judged when saving
    (:func:`~tutorials.services.save_position`)."""

    pos = TextField()
    title = TextField()

    def clean_title(self) -> str:
        try:
            return clean_title(self.cleaned_data["title"])
        except RulesError as error:
            raise forms.ValidationError(describe(error), code=error.code) from None


def read_position(query: Query, empty: str = "") -> tuple[str, Situation | RulesError]:
    """The address's ``pos`` as the editor shows it, and the position read from it (or why
    it cannot be read: a ``pos`` sent twice or not in UTF-8 too, as every field of a link).

    The text is read as every typed text (:func:`~captain.rules.typed.normalize_typed`), so
    that the editor shows it, and an error's offset counts in it, without what the paste
    brought along; ``empty`` stands for a ``pos`` that holds nothing else. The length limit
    counts what was sent, here as in every other reader.
    """
    sent = raw = query.get("pos")
    try:
        if query.refusal:
            raise query.refusal
        if len(sent) <= notation.MAX_LENGTH:
            raw = normalize_typed(sent, where="pos") or empty
        return raw, notation.parse(raw)
    except RulesError as exc:
        return raw, exc
