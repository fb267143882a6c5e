"""One reading of typed text: a table code, a share-link code, a position notation and a
title typed with the same extra characters (upper case, full width, pasted white space,
invisible format characters, a lone surrogate) get one answer, whichever of them it is and
wherever it is typed (captain.rules.typed.normalize_typed is the one reader)."""

from __future__ import annotations

import json
import unicodedata
from urllib.parse import quote

import pytest
from django.test import Client

from captain.rules import RulesError, notation
from tutorials.forms import TickField
from tutorials.models import SavedPosition, normalize_code
from tutorials.services import clean_title, find_saved

NOTATION = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"
TITLE = "Title"


def _full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def _inner(mark: str):
    return lambda text: text[:2] + mark + text[2:]


#: what a person's keyboard or a copy and paste does to a text, and the title stored from
#: "Title" so typed (``None``: refused)
INPUTS = {
    "upper case": (str.upper, "TITLE"),
    "full width": (_full_width, "Ｔｉｔｌｅ"),  # a title keeps the characters it was written in
    "no-break space": (lambda t: f"\u00a0{t}\u00a0", TITLE),
    "ideographic space": (lambda t: f"\u3000{t}\u3000", TITLE),
    "leading byte order mark": (lambda t: "\ufeff" + t, TITLE),
    "inner zero-width space": (_inner("\u200b"), TITLE),
    "leading right-to-left override": (lambda t: "\u202e" + t, TITLE),
    "line separators around": (lambda t: f"\u2028{t}\u2029", TITLE),
    "inner left-to-right mark": (_inner("\u200e"), TITLE),
    "inner tag character": (_inner("\U000e0041"), TITLE),
    "lone surrogate": (_inner("\ud800"), None),
}

#: the inputs that change what a notation says: its letter case marks the start player
MEANING_IN_NOTATION = {"upper case"}


def _answer(read, text: str):
    """What a reader makes of ``text``: its result, or the code of its refusal."""
    try:
        return "accepted", read(text)
    except RulesError as error:
        return "refused", error.code


@pytest.mark.django_db
@pytest.mark.parametrize("name", INPUTS)
def test_the_three_readers_give_one_answer_per_input(name):
    decorate, stored_title = INPUTS[name]
    saved = SavedPosition.objects.create(notation=NOTATION)
    answers = {
        "code": _answer(lambda t: normalize_code(t) == saved.code and find_saved(t) == saved,
                        decorate(saved.code)),
        "title": _answer(lambda t: clean_title(t) == stored_title, decorate(TITLE)),
    }
    if name not in MEANING_IN_NOTATION:
        answers["notation"] = _answer(lambda t: notation.parse(t) == notation.parse(NOTATION),
                                      decorate(NOTATION))
    assert len(set(answers.values())) == 1, answers
    kind, result = next(iter(answers.values()))
    assert (kind, result) == (("refused", "bad-text") if stored_title is None else ("accepted", True))


def _url_text(text: str) -> str:
    """``text`` as a browser puts it in an address (a lone surrogate as the bytes of one)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def _json(text_of: dict) -> bytes:
    return json.dumps(text_of).encode()  # \ud800 escaped, as JSON carries it


@pytest.mark.django_db
@pytest.mark.parametrize("name", INPUTS)
def test_every_address_that_reads_them_gives_one_answer_per_input(name):
    decorate, stored_title = INPUTS[name]
    presenter = Client()
    started = presenter.post("/en/teach/", {"players": "4", "mode": "action", "script": "quick"})
    table_code = started["Location"].rstrip("/").split("/")[-1]
    saved = SavedPosition.objects.create(notation=NOTATION)
    guest = Client()
    sent = {
        "table code typed": guest.get(f"/en/teach/join/?code={_url_text(decorate(table_code))}"),
        "share link": guest.get(f"/p/{_url_text(decorate(saved.code))}/"),
        "API code": guest.get(f"/api/v1/positions/{_url_text(decorate(saved.code))}"),
        "title saved by the form": guest.post(
            "/en/analyze/save/", f"pos={quote(NOTATION)}&title={_url_text(decorate(TITLE))}",
            content_type="application/x-www-form-urlencoded"),
        "title saved by the API": guest.post(
            "/api/v1/positions", _json({"notation": NOTATION, "title": decorate(TITLE)}),
            content_type="application/json"),
    }
    if name not in MEANING_IN_NOTATION:
        sent["notation in the analyzer"] = guest.get(f"/en/analyze/?pos={_url_text(decorate(NOTATION))}")
        sent["notation saved by the API"] = guest.post(
            "/api/v1/positions", _json({"notation": decorate(NOTATION)}), content_type="application/json")
    statuses = {where: response.status_code for where, response in sent.items()}
    accepted = {where: status in (200, 201, 302) for where, status in statuses.items()}
    assert set(accepted.values()) == {stored_title is not None}, statuses
    assert all(status < 500 for status in statuses.values()), statuses
    if stored_title is None:
        return
    assert sent["table code typed"]["Location"].endswith(f"/t/{table_code}/")
    assert f"saved={saved.code}" in sent["share link"]["Location"]
    assert sent["API code"].json()["notation"] == NOTATION
    titles = sorted(row.title for row in SavedPosition.objects.exclude(pk=saved.pk) if row.title)
    assert titles == [stored_title, stored_title]


@pytest.mark.parametrize("kept", ["Family 👨\u200d👩\u200d👧", "می\u200cخواهم"])
def test_joiners_stay_in_titles(kept):
    assert clean_title(kept) == kept


def test_a_title_never_keeps_an_invisible_format_character_or_a_line_separator():
    typed = "\ufeffa\u200eb\u2028c\U000e0041d\u2029e\u00adf\u2066g"
    stored = clean_title(typed)
    assert stored == "ab cd efg"
    assert not [ch for ch in stored if unicodedata.category(ch) in ("Cf", "Zl", "Zp")]


@pytest.mark.parametrize("typed", ["\u3000ON\u200b", "１", "\ufefftrue\u00a0"])
def test_a_ticked_box_typed_into_an_address_reads_as_every_typed_text(typed):
    assert TickField(invalid="no").to_python(typed) is True
