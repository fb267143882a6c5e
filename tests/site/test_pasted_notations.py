"""A notation pasted with white space around it reads the same at every entry point: the
analyzer page and its edits, the position PDF, the save form and the JSON API. What is
unreadable is refused alike: 422 with the reason, the analyzer page with its editor.

What is typed is read by one function (captain.rules.typed.normalize_typed, tested in
tests/engine/test_notation.py); these tests check that every entry point reads through it.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest

from analyzer_helpers import analyzer_error
from captain.rules.notation import MAX_LENGTH, parse
from tutorials.models import SavedPosition
from tutorials.sheets import views as sheet_views

pytestmark = pytest.mark.django_db

POSITION = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"

#: what a copy and paste leaves around a notation: a Japanese paste (U+3000), a line from a
#: chat (a newline), a spreadsheet cell (a tab, a no-break space), a file with a byte order
#: mark, a zero-width space from a web page
PASTES = {
    "space": f" {POSITION} ",
    "tab and newline": f"\t{POSITION}\r\n",
    "no-break space": f"\u00a0{POSITION}\u00a0",
    "ideographic space": f"\u3000{POSITION}\u3000",
    "byte order mark": f"\ufeff{POSITION}",
    "zero-width space": f"{POSITION}\u200b",
}


@pytest.fixture
def pdf_calls(monkeypatch):
    """The situations the position PDF was asked for (no render: the view is what is tested)."""
    calls = []

    def fake_pdf(situation, **kwargs):
        calls.append(situation)
        return b"%PDF-1.7 stand-in"

    monkeypatch.setattr(sheet_views, "position_pdf", fake_pdf)
    return calls


@pytest.mark.parametrize("name", PASTES)
def test_the_analyzer_page_reads_a_pasted_notation(client, name):
    response = client.get("/en/analyze/", {"pos": PASTES[name]})
    assert response.status_code == 200
    assert analyzer_error(response) == ""
    assert f'name="pos" value="{POSITION}"' in response.content.decode()


@pytest.mark.parametrize("name", PASTES)
def test_the_analyzer_edits_read_a_pasted_notation(client, name):
    response = client.get("/en/analyze/edit/", {"pos": PASTES[name], "op": "tool", "arg": "b2"})
    assert response.status_code == 302
    assert f"pos={POSITION}" in response["Location"]
    response = client.get("/en/analyze/what-if/", {"pos": PASTES[name]})
    assert response.status_code == 200 and analyzer_error(response) == ""


@pytest.mark.parametrize("name", PASTES)
def test_the_position_pdf_reads_a_pasted_notation(client, pdf_calls, name):
    response = client.get("/en/analyze/position.pdf", {"pos": PASTES[name]})
    assert response.status_code == 200, response.content[:300]
    assert pdf_calls == [parse(POSITION)]


@pytest.mark.parametrize("name", PASTES)
def test_the_save_form_saves_a_pasted_notation(client, name):
    response = client.post("/en/analyze/save/", {"pos": PASTES[name], "title": ""})
    assert response.status_code == 302, response.content[:500]
    assert SavedPosition.objects.get().notation == POSITION


@pytest.mark.parametrize("name", PASTES)
def test_the_api_reads_and_saves_a_pasted_notation(client, name):
    response = client.get(f"/api/v1/positions/{quote(PASTES[name], safe='')}")
    assert response.status_code == 200, response.content
    assert response.json()["notation"] == POSITION
    response = client.post("/api/v1/positions", json.dumps({"notation": PASTES[name]}),
                           content_type="application/json")
    assert response.status_code == 201, response.content
    assert response.json()["notation"] == POSITION


def test_a_pasted_short_code_is_found_by_the_api(client):
    saved = client.post("/api/v1/positions", json.dumps({"notation": POSITION}),
                        content_type="application/json").json()["code"]
    response = client.get(f"/api/v1/positions/{quote(chr(0x3000) + saved + chr(0xfeff))}")
    assert response.status_code == 200, response.content
    assert response.json()["saved"]["code"] == saved


# --- what stays unreadable is refused everywhere alike ----------------------------------------
UNREADABLE = "\u3000Rbg_11.1\n"  # a second die face missing: trimming does not make it readable


@pytest.mark.parametrize("lang", ["ja", "en", "de"])
def test_an_unreadable_position_answers_422_with_the_editor_and_the_reason(client, lang):
    response = client.get(f"/{lang}/analyze/", {"pos": UNREADABLE})
    assert response.status_code == 422
    html = response.content.decode()
    assert 'id="notation-fix"' in html and 'value="Rbg_11.1"' in html  # the editor, to put it right
    reason = analyzer_error(response)
    assert reason and "9" in reason  # the character where reading stopped, in the trimmed text
    htmx = client.get(f"/{lang}/analyze/", {"pos": UNREADABLE}, headers={"HX-Request": "true"})
    assert htmx.status_code == 422 and analyzer_error(htmx) == reason


def test_an_unreadable_position_is_refused_by_the_pdf_and_the_api_too(client, pdf_calls):
    assert client.get("/en/analyze/position.pdf", {"pos": UNREADABLE}).status_code == 422
    assert pdf_calls == []
    response = client.get(f"/api/v1/positions/{quote(UNREADABLE, safe='')}")
    assert response.status_code == 422
    problem = response.json()["detail"][0]
    assert problem["code"] == "bad-notation" and problem["offset"] == 9
    response = client.post("/en/analyze/save/", {"pos": UNREADABLE})
    assert response.status_code == 422 and analyzer_error(response)
    assert SavedPosition.objects.count() == 0


def _editor_value(response) -> str:
    found = re.search(r'id="notation-input" class="notation" name="pos" value="([^"]*)"',
                      response.content.decode())
    assert found, "no position editor on the page"
    return found[1]


def test_a_blank_position_is_no_position(client):
    """Only white space in ``pos`` is as if none was given: the example position."""
    blank = client.get("/en/analyze/", {"pos": "\u3000 \n"})
    assert blank.status_code == 200 and analyzer_error(blank) == ""
    assert _editor_value(blank) == _editor_value(client.get("/en/analyze/")) != ""


def test_the_length_limit_counts_what_was_sent_at_every_entry_point(client, pdf_calls):
    """A short notation with so much white space around it that it is over the limit is
    refused alike by the page, the PDF, the save form and the API."""
    long = "Rb_11.12" + " " * (MAX_LENGTH - 7)
    page = client.get("/en/analyze/", {"pos": long})
    assert page.status_code == 422 and "2000" in analyzer_error(page)
    assert client.get("/en/analyze/position.pdf", {"pos": long}).status_code == 422
    assert client.post("/en/analyze/save/", {"pos": long}).status_code == 422
    api = client.post("/api/v1/positions", json.dumps({"notation": long}), content_type="application/json")
    assert api.status_code == 422
    assert pdf_calls == [] and SavedPosition.objects.count() == 0
    # one character less is read, at every one of them
    fits = long[:-1]
    assert client.get("/en/analyze/", {"pos": fits}).status_code == 200
    assert client.get("/en/analyze/position.pdf", {"pos": fits}).status_code == 200
