"""The teach start form's choices as tests give them (a dict of field values)."""

from __future__ import annotations

from tutorials.teach.forms import TeachStartForm


def teach_options(data: dict) -> dict:
    """The table's options of valid choices (:meth:`TeachStartForm.options`)."""
    form = TeachStartForm(data)
    assert form.is_valid(), form.errors
    return form.options()


def teach_refusals(data: dict) -> dict:
    """The refusals of choices the form refuses, by field."""
    form = TeachStartForm(data)
    assert not form.is_valid(), form.cleaned_data
    return form.refusals()
