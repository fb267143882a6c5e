"""The analyzer's one form that posts: saving a position under a short link. Everything
else on the page is a link or a GET form that carries the position (:class:`~tutorials.forms.Query`)."""

from __future__ import annotations

from django import forms

from captain.rules import RulesError
from tutorials.forms import StrictForm, TextField
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
