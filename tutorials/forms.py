"""What every form of the site refuses before its own fields are read, and the one reader
of the state links' query strings.

A :class:`StrictForm` is a Django ``Form`` that also refuses, beside the field concerned,
a field sent more than once (``duplicate-field``: ``players=2&players=4`` is no choice, and
Django would silently take the last) and a value that is not UTF-8 (``not-utf8``: Django
would read it as U+FFFD and go on). These are the codes the JSON API answers for a key sent
twice and a body that is not UTF-8, with the sentences of
:mod:`tutorials.wording.problems`. Field and cross-field rules live in each form's fields
and ``clean``; an engine refusal (:class:`~captain.rules.errors.RulesError`) found there is
added with :meth:`StrictForm.refuse`, so its code travels with its sentence.

GET links that carry a board's or the analyzer's state (``?do=&at=``, ``edit/?op=``) stay
links: :class:`Query` reads them, one value per name, with the same two refusals.

The rule choices the start forms offer (teaching a table, a practice game) are read into
the engine's :class:`~captain.rules.situation.RuleSet` and judged by the engine's one rule
for which rule sets a table may play (:func:`~captain.rules.situation.check_table_rules`):
:class:`RuleChoicesForm`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from urllib.parse import unquote_to_bytes

from django import forms
from django.core import validators
from django.core.exceptions import ValidationError
from django.http import HttpRequest, QueryDict
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from captain.rules import COLOURS
from captain.rules.errors import InvalidInput, RulesError
from captain.rules.situation import PLAYER_COUNTS, VARIANTS, Mode, RuleSet, check_table_rules
from captain.rules.typed import normalize_typed
from tutorials.web.refused import FORM_TYPES
from tutorials.wording.problems import describe

_FORM_TYPE = FORM_TYPES[0]  # urlencoded: the one form body whose bytes the checks read


def badly_encoded(raw: bytes | str) -> set[str]:
    """The names in an urlencoded ``raw`` (a body or a query string) whose name or value is
    not UTF-8 once unquoted (names as Django reads them, U+FFFD for what is lost)."""
    data = raw.encode("latin-1", "replace") if isinstance(raw, str) else raw
    found = set()
    for part in data.split(b"&"):
        name, _eq, value = part.partition(b"=")
        name_bytes = unquote_to_bytes(name.replace(b"+", b" "))
        try:
            name_bytes.decode("utf-8")
            unquote_to_bytes(value.replace(b"+", b" ")).decode("utf-8")
        except UnicodeDecodeError:
            found.add(name_bytes.decode("utf-8", "replace"))
    return found


def _raw_of(request: HttpRequest) -> bytes | str | None:
    """What the request's fields were decoded from, where it can be checked byte by byte."""
    if request.method == "POST":
        return request.body if request.content_type == _FORM_TYPE else None
    return request.META.get("QUERY_STRING", "")


def _values(data: Mapping[str, object], name: str) -> list[str]:
    if hasattr(data, "getlist"):
        return [str(v) for v in data.getlist(name)]
    value = data.get(name)
    if value is None:
        return []
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]


def refusals(data: Mapping[str, object], names: Iterable[str], *, raw: bytes | str | None,
             repeated: Iterable[str] = ()) -> dict[str, RulesError]:
    """The fields among ``names`` sent twice (unless in ``repeated``: check boxes and lists)
    or not in UTF-8, each with the engine-style error that says so."""
    bad = badly_encoded(raw) if raw is not None else set()
    out: dict[str, RulesError] = {}
    for name in names:
        values = _values(data, name)
        # without the raw bytes (a multipart body), U+FFFD is what the decoder left of them
        if name in bad or (raw is None and any("\ufffd" in v for v in values)):
            out[name] = InvalidInput(f"{name} is not UTF-8", where=name, field=name, code="not-utf8",
                                     form=True)
        elif len(values) > 1 and name not in repeated:
            out[name] = InvalidInput(f"{name} was sent {len(values)} times", where=name, field=name,
                                     code="duplicate-field")
    return out


def _sentence(code: str) -> str:
    return describe(InvalidInput(code, code=code))


#: the sentence of a refusal code of the site's forms (:mod:`tutorials.wording.problems`),
#: in the language of the request that shows it
sentence_of = lazy(_sentence, str)


class Refusal(str):
    """A refusal's sentence, as templates print it, with its stable ``code``."""

    code: str = ""

    def __new__(cls, message: object, code: str | None) -> Refusal:
        made = super().__new__(cls, str(message))
        made.code = code or "invalid"
        return made


class StrictForm(forms.Form):
    """A ``Form`` that refuses duplicate fields and text that is not UTF-8 (module docstring).

    Bind it with :meth:`bind` (which knows where the request's bytes are) or with ``data``
    and optional ``raw``. Subclasses put cross-field rules in :meth:`clean_together`, which
    runs only when every field was read.
    """

    #: field -> the refusal code of its own checks (``required``, ``invalid``, …), where the
    #: site has one: the code a refused field answers with, whichever check refused it
    FIELD_CODES: dict[str, str] = {}

    def __init__(self, data=None, *args, raw: bytes | str | None = None, **kwargs) -> None:
        super().__init__(data, *args, **kwargs)
        repeated = [name for name, f in self.fields.items() if isinstance(f, forms.MultipleChoiceField)]
        self.refused = (refusals(self.data, self.fields, raw=raw, repeated=repeated)
                        if self.is_bound else {})

    @classmethod
    def bind(cls, request: HttpRequest, *, from_address: Iterable[str] = (), **kwargs) -> StrictForm:
        """The form bound to the request's POST body (GET: its query string).

        The fields named in ``from_address`` may ride in the address of a POST instead (a
        board's positions, whose forms send only the action, post to an address that
        carries the version shown); the body's own value wins.
        """
        data = request.POST if request.method == "POST" else request.GET
        missing = [name for name in from_address if name not in data and name in request.GET]
        if request.method == "POST" and missing:
            data = data.copy()
            for name in missing:
                data.setlist(name, request.GET.getlist(name))
        return cls(data, raw=_raw_of(request), **kwargs)

    def full_clean(self) -> None:
        super().full_clean()
        if not self.is_bound:
            return
        for name, code in self.FIELD_CODES.items():
            if name in self._errors and name not in self.refused:
                first = self._errors[name].as_data()[0]
                message = first.message % first.params if first.params else first.message
                self._errors[name] = self.error_class([ValidationError(message, code=code)],
                                                      renderer=self.renderer)
        for name, error in self.refused.items():
            # what the field's own check said of the last value is beside the point
            self._errors.pop(name, None)
            self.refuse(error, name)

    def clean(self) -> dict:
        cleaned = super().clean()
        if not self._errors and not self.refused:
            self.clean_together(cleaned)
        return cleaned

    def clean_together(self, cleaned: dict) -> None:
        """Cross-field rules; add errors with :meth:`refuse` or ``add_error``."""

    def refuse(self, error: RulesError, field: str | None) -> None:
        """Add an engine-style refusal beside ``field`` (``None``: the whole form)."""
        if field is not None and field not in self.fields:
            field = None
        self.add_error(field, ValidationError(describe(error), code=error.code))

    def refusal_of(self, field: str | None) -> Refusal | None:
        """The first refusal beside ``field`` (``None``: of the whole form), or ``None``."""
        name = field if field is not None else forms.forms.NON_FIELD_ERRORS
        found = self.errors.as_data().get(name)
        if not found:
            return None
        error = found[0]
        message = error.message % error.params if error.params else error.message
        return Refusal(message, error.code)

    def refusals(self) -> dict[str, Refusal]:
        """Every field's first refusal, by field (``__all__`` for the whole form)."""
        return {name: self.refusal_of(None if name == forms.forms.NON_FIELD_ERRORS else name)
                for name in self.errors}

    def typed(self, name: str, default: str = "") -> str:
        """What was sent for ``name`` as it came (the first of several), to show it again."""
        values = _values(self.data, name) if self.is_bound else []
        return values[0] if values else default

    def typed_list(self, name: str) -> list[str]:
        return _values(self.data, name) if self.is_bound else []


class Query:
    """The query string of a state link, one value per name (module docstring).

    :attr:`refusal` is the first name sent twice or not in UTF-8 among those read so far
    (or given as ``names``), as an engine-style error; such a name reads as its default.
    """

    def __init__(self, request: HttpRequest | None = None, *, data: QueryDict | None = None,
                 raw: str | None = None) -> None:
        self.data = data if data is not None else request.GET  # type: ignore[union-attr]
        self.raw = raw if raw is not None else (request.META.get("QUERY_STRING", "") if request else "")
        self.refusal: RulesError | None = None

    def get(self, name: str, default: str = "") -> str:
        found = refusals(self.data, (name,), raw=self.raw)
        if name in found:
            self.refusal = self.refusal or found[name]
            return default
        values = self.data.getlist(name)
        return values[0] if values else default

    def __contains__(self, name: object) -> bool:
        return name in self.data

    def check(self, names: Iterable[str]) -> RulesError | None:
        """Read ``names`` for their refusals; the first one, or ``None``."""
        for name in names:
            self.get(name)
        return self.refusal


class TextField(forms.CharField):
    """Text kept as sent (no trimming): the site's own rules judge it and say where it is
    wrong (a title's control character by its position, a notation's by its offset), where
    Django's null-character check would say less."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("strip", False)
        super().__init__(**kwargs)
        self.validators = [v for v in self.validators
                           if not isinstance(v, validators.ProhibitNullCharactersValidator)]


#: What a check box sends ticked, and what a page may send for it unticked.
TICKED = ("1", "on", "true")
UNTICKED = ("", "0", "off", "false")


class TickField(forms.Field):
    """A check box: ticked or not, read the one way every form reads it. Anything else is
    refused (``bad-tick``), never read as "not ticked" (the option would be lost unseen)."""

    def __init__(self, *, invalid: object, **kwargs) -> None:
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.error_messages["bad-tick"] = invalid

    def to_python(self, value: object) -> bool:
        text = "" if value is None else normalize_typed(str(value), where="tick").lower()
        if text in TICKED:
            return True
        if text in UNTICKED:
            return False
        raise ValidationError(self.error_messages["bad-tick"], code="bad-tick")

    def validate(self, value: object) -> None:
        """Unticked is an answer too (``required`` means nothing for a check box)."""


class DefaultChoiceField(forms.ChoiceField):
    """A choice that takes ``default`` when the form did not send it (a page without the
    field, an older form); a value not offered is refused with ``invalid``."""

    def __init__(self, *, choices, default: str, invalid: object, **kwargs) -> None:
        super().__init__(choices=choices, required=False,
                         error_messages={"invalid_choice": invalid}, **kwargs)
        self.default = default

    def clean(self, value: object) -> str:
        value = super().clean(value)
        return value if value not in (None, "") else self.default


#: The colours as the forms send them, in the engine's seating order.
COLOUR_VALUES = tuple(c.value for c in COLOURS)


def players_field(default: str) -> DefaultChoiceField:
    return DefaultChoiceField(choices=[(str(n), str(n)) for n in PLAYER_COUNTS], default=default,
                              invalid=_("Choose 2, 3 or 4 players."))


def mode_field(default: str) -> DefaultChoiceField:
    return DefaultChoiceField(choices=[(m.value, m.value) for m in Mode], default=default,
                              invalid=_("Choose action mode or strategy mode."))


class RuleChoicesForm(StrictForm):
    """The fields every start form has for the rules: the variants and the first-edition
    bell; subclasses add ``players`` and ``mode`` (and more flags through :meth:`flags`)."""

    variants = forms.MultipleChoiceField(
        choices=[(v, v) for v in VARIANTS], required=False,
        error_messages={"invalid_choice": _("Only the variants listed here can be played.")})
    first_edition = TickField(invalid=_("Tick the box for the first-edition rule, or leave it empty."))

    #: the field beside which an engine refusal of a rule key is shown
    RULE_FIELDS = {"rules.place_after_reroll": "place_after_reroll"}

    def flags(self, cleaned: dict) -> list[str]:
        """The notation's rule flags (``RuleSet.from_flags``) of the choices."""
        out = list(cleaned.get("variants") or [])
        if cleaned.get("first_edition"):
            out.append("v4")
        if cleaned.get("mode") == Mode.STRATEGY.value:
            out.append("s")
        return out

    def clean_together(self, cleaned: dict) -> None:
        try:
            rules = RuleSet.from_flags(self.flags(cleaned))
            cleaned["rules"] = check_table_rules(rules, int(cleaned["players"]))
        except RulesError as error:
            self.refuse(error, self._field_of(error, cleaned))

    def _field_of(self, error: RulesError, cleaned: dict) -> str:
        if error.field in self.RULE_FIELDS:
            return self.RULE_FIELDS[error.field]
        if error.field == "rules.bell" and cleaned.get("first_edition"):
            return "first_edition"
        return "variants"
