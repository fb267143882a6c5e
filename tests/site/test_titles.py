"""One title rule for the analyzer's form and the API; user text shown inside <bdi>."""

from __future__ import annotations

import json

import pytest

from captain.rules import RulesError
from tutorials.models import SavedPosition
from tutorials.services import clean_title

POSITION = "Rb_11r1.12b2"
REFUSED = ["\x00", "\t", "\x1b", "\x7f", "\x85", "\x9b"]
#: direction embeddings, overrides and isolates: removed, as every invisible format character
DIRECTION_CONTROLS = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068",
                      "\u2069"]
KEPT = ["Family 👨\u200d👩\u200d👧", "می\u200cخواهم", "مرحبا بالعالم", "שלום", "Zug 7 – Löwe", "キャプテン"]


@pytest.mark.parametrize("char", REFUSED)
def test_controls_are_refused_with_where(char):
    with pytest.raises(RulesError) as caught:
        clean_title(f"ab{char}cd")
    assert caught.value.code == "bad-title"
    assert caught.value.params == {"char": f"U+{ord(char):04X}", "offset": 2}


@pytest.mark.parametrize("title", KEPT)
def test_joiners_and_other_scripts_are_kept(title):
    assert clean_title(f"  {title}\n") == title


@pytest.mark.parametrize("char", DIRECTION_CONTROLS)
def test_direction_controls_are_removed(char):
    assert clean_title(f"ab{char}cd") == "abcd"


@pytest.mark.django_db
@pytest.mark.parametrize("lang,says", [("en", "character 5 is U+001B"), ("de", "U+001B"), ("ja", "U+001B")])
def test_form_refuses_a_control_character_saying_what_and_where(client, lang, says):
    response = client.post(f"/{lang}/analyze/save/", {"pos": POSITION, "title": "evil\x1btxt.exe"})
    assert response.status_code == 422
    html = response.content.decode()
    assert says in html and "120" in html
    assert not SavedPosition.objects.exists()


@pytest.mark.django_db
def test_api_refuses_a_control_character_with_field_and_offset(client):
    body = json.dumps({"notation": POSITION, "title": "ab\x7fcd"})
    response = client.post("/api/v1/positions", data=body,
                           content_type="application/json", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 422
    [problem] = response.json()["detail"]
    assert (problem["code"], problem["field"], problem["offset"]) == ("bad-title", "title", 2)
    assert "U+007F" in problem["message"] and "Zeichen" in problem["message"]
    assert not SavedPosition.objects.exists()


@pytest.mark.django_db
def test_form_and_api_store_an_override_removed(client):
    saved = client.post("/en/analyze/save/", {"pos": POSITION, "title": "evil\u202etxt.exe"})
    assert saved.status_code == 302
    body = json.dumps({"notation": POSITION, "title": "ab\u2067cd"})
    response = client.post("/api/v1/positions", data=body, content_type="application/json")
    assert response.status_code == 201 and response.json()["title"] == "abcd"
    assert sorted(row.title for row in SavedPosition.objects.all()) == ["abcd", "eviltxt.exe"]


@pytest.mark.django_db
@pytest.mark.parametrize("title", KEPT)
def test_form_and_api_keep_the_same_titles(client, title):
    assert client.post("/en/analyze/save/", {"pos": POSITION, "title": f" {title} "}).status_code == 302
    body = json.dumps({"notation": POSITION, "title": f" {title} "})
    response = client.post("/api/v1/positions", data=body,
                           content_type="application/json")
    assert response.status_code == 201 and response.json()["title"] == title
    assert [row.title for row in SavedPosition.objects.all()] == [title, title]


@pytest.mark.django_db
def test_saved_title_is_shown_isolated(client):
    response = client.post("/en/analyze/save/", {"pos": POSITION, "title": "שלום <b>"}, follow=True)
    assert "Saved position “<bdi>שלום &lt;b&gt;</bdi>”." in response.content.decode()


@pytest.mark.django_db
def test_a_typed_table_code_is_shown_isolated(client):
    response = client.get("/en/teach/join/", {"code": "ab<i>"})
    assert response.status_code == 404
    assert "No table uses the code “<bdi>ab&lt;i&gt;</bdi>”." in response.content.decode()
