"""The analyzer's two page models: a readable situation (built without the request or the
database) and position text that is not one; and the palette the templates write."""

from __future__ import annotations

import re

import pytest

from captain.rules import notation
from tutorials.analyzer.page import AnalyzerPage, UnreadablePage
from tutorials.services import save_position

EX_BATTLE = "Rbg_11.13r3.22.14-15.16b1.23.24r2-26.33.34g1.35-36g0.44.45.46"


@pytest.mark.django_db
def test_a_readable_page_is_built_without_the_database(django_assert_num_queries):
    with django_assert_num_queries(0):
        page = AnalyzerPage.build(notation.parse(EX_BATTLE), view="explain", step="2")
        assert page.cells and page.nav is not None and page.seat_buttons() and page.what_ifs
        assert page.saved_url == ""  # the view, not the page, looks a saved position up


@pytest.mark.django_db
def test_a_short_link_still_shows_its_saved_title(client):
    saved, _situation = save_position(EX_BATTLE, "Our table")
    html = client.get("/en/analyze/", {"pos": EX_BATTLE, "saved": saved.code}).content.decode()
    assert 'data-testid="short-link"' in html and "<bdi>Our table</bdi>" in html
    assert f"/p/{saved.code}/" in html
    other = client.get("/en/analyze/", {"pos": "Rb_11.12-13.14", "saved": saved.code}).content.decode()
    assert 'data-testid="short-link"' not in other  # the code names another position


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/en/analyze/", "/en/analyze/edit/"])
def test_unreadable_text_gets_its_own_page(client, path):
    response = client.get(path, {"pos": "Rb_11.1z", "tool": "b2", "op": "clear"})
    assert isinstance(response.context["page"], UnreadablePage)
    html = response.content.decode()
    assert 'class="grid-wrap"' not in html and 'value="Rb_11.1z"' in html
    error = re.search(r'id="pos-error"[^>]*data-code="([^"]+)"', html)
    assert error and error[1] != "invalid"  # the engine's own code, not a generic one
    assert response.context["page"].url() == "/en/analyze/?pos=Rb_11.1z&tool=b2"


@pytest.mark.django_db
def test_the_palette_is_written_by_the_chip_partial(client):
    html = client.get("/en/analyze/", {"pos": EX_BATTLE, "tool": "b2"}).content.decode()
    blue = re.search(r'<a [^>]*data-focus-id="colour-b"[^>]*>', html)[0]
    assert 'data-key="b"' in blue and 'aria-current="true"' in blue and "token-chip colour-blue" in blue
    assert re.search(r'href="([^"]+)" hx-get="\1"', blue)
    value = re.search(r'<a [^>]*data-focus-id="value-2"[^>]*>(.*?)</a>', html)
    assert 'class="chip value-chip active"' in value[0] and 'title="' in value[0]
    assert re.fullmatch(r'<strong>2</strong> <span class="chip-name">[^<]+</span>', value[1])
    white = re.search(r'<a [^>]*data-focus-id="colour-w"[^>]*>', html)[0]
    assert "unseated" in white and "aria-current" not in white
    assert len(re.findall(r'data-focus-id="faces-\d\d"', html)) == 21


@pytest.mark.django_db
def test_the_answer_shows_under_the_board_as_in_the_answers(client):
    html = client.get("/en/analyze/", {"pos": EX_BATTLE}).content.decode()
    summary = re.search(r'data-testid="answer-summary">(.*?)</p>', html, re.S)[1]
    table = re.search(r'data-testid="winnings">(.*?)</table>', html, re.S)[1]
    rows = [re.sub(r"<[^>]+>", " ", r).split() for r in re.findall(r"<tr.*?</tr>", table, re.S)]
    said = re.sub(r"<[^>]+>", "", summary)
    for words in rows:  # e.g. "red 1 (D2)": every row of the answers, in the same words
        assert " ".join(words) in said, (words, said)
    assert html.index('data-testid="answer-summary"') < html.index('id="answers-title"')
