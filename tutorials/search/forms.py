"""The rules question a reader asks: the search box of every page."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tutorials.forms import StrictForm
from tutorials.search.answers import MAX_QUESTION


class QuestionForm(StrictForm):
    """``q``: the question, in any of the three languages; an empty one asks nothing; one
    longer than :data:`~tutorials.search.answers.MAX_QUESTION` characters (the boxes stop
    there; a link may not) is refused with its length, so nothing is silently cut."""

    q = forms.CharField(required=False, strip=True, max_length=MAX_QUESTION, error_messages={
        "max_length": _("Your question is too long (%(show_value)s characters): shorten it to at most "
                       "%(limit_value)s characters.")})

    def question(self) -> str:
        return self.cleaned_data["q"] if self.is_valid() else ""
