"""The teaching sheets of every audience (2 or 3-4 players, action or strategy mode): each
version served in every language and paper under its own name, the variants as marked
boxes, nothing on paper that points at a screen or at a board "below"; the sheets page and
the presenter offer the versions, and bad values are refused saying why. (Each version's
render, its page count and its subtitle: tests/deploy/test_production.py.)"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from tutorials.sheets import render as sheets
from tutorials.sheets.content import AUDIENCE_SHEETS, VARIANT_BOXES
from tutorials.sheets.render import SHEETS, audiences_of, printed_html, sheet_html
from tutorials.tutorial.audience import AUDIENCES, DEFAULT_AUDIENCE

LANGS = ("ja", "en", "de")

#: Words that point at something only a screen shows: a board "below", a phone. Chosen per
#: language so that the physical directions of the rules do not count: Japanese "under the
#: card" (カードの下の), "or fewer" (以下) and "the top row" (上の行); German "from top to
#: bottom" (von oben nach unten) for laying out cards.
POINTING = {
    "en": re.compile(r"\b(?:below|above|phones?|screens?)\b", re.IGNORECASE),
    "de": re.compile(r"(?<!von )\boben\b|(?<!nach )\bunten\b|\b(?:Handys?|Smartphones?|Bildschirm\w*)",
                     re.IGNORECASE),
    "ja": re.compile(r"(?<![の以])[上下](?:の|に|記|で)(?!行)|スマホ|スマートフォン|画面|携帯"),
}


def _text(html: str) -> str:
    """The printed text of a sheet's HTML, with what pictures say to a screen reader."""
    said = " ".join(re.findall(r"<title>(.*?)</title>", html, re.DOTALL))
    html = re.sub(r"<(style|script|title)\b.*?</\1>", " ", html, flags=re.DOTALL)
    return " ".join((re.sub(r"<[^>]+>", " ", html) + " " + said).split())


def _url(name: str, lang: str, audience, paper: str) -> str:
    return f"/{lang}/sheets/{name}.pdf?players={audience.players_param}&mode={audience.mode}&paper={paper}"


# --- every version, served -------------------------------------------------------------------
# (each version's render, its pages and its subtitle: tests/deploy/test_production.py, on the
# PDFs the release step renders in production)
@pytest.mark.parametrize("audience", AUDIENCES, ids=lambda t: t.slug)
@pytest.mark.parametrize("name", AUDIENCE_SHEETS)
def test_every_table_version_is_served_from_its_own_file_under_its_own_name(client, tmp_path, monkeypatch,
                                                                            name, audience):
    monkeypatch.setattr(sheets, "CACHE_DIR", tmp_path / "cache")
    for lang in LANGS:
        for paper in ("a4", "letter"):
            path = sheets.cache_path(name, lang, paper, audience=audience)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(f"%PDF-{name}-{audience.slug}-{lang}-{paper}".encode())
            response = client.get(_url(name, lang, audience, paper))
            assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
            assert response.content == f"%PDF-{name}-{audience.slug}-{lang}-{paper}".encode()
            # the default version keeps the name it always had
            shown = name if audience == DEFAULT_AUDIENCE else f"{name}-{audience.slug}"
            assert f'"captain-dice-{shown}-{lang}-{paper}.pdf"' in response["Content-Disposition"]


def test_the_cache_keeps_each_table_apart_and_the_default_url_is_three_four_action():
    paths = {sheets.cache_path("quick-start", "en", "a4", audience=t) for t in AUDIENCES}
    assert len(paths) == len(AUDIENCES)
    # the default version keeps the file name it had before there were versions
    assert sheets.cache_path("teach", "de", "letter").name == "teach-de-letter.pdf"
    path = sheets.cache_path("teach", "de", "letter", audience=AUDIENCES[0])
    assert path.name == "teach-2-action-de-letter.pdf"
    assert sheets.cache_path("quick-start", "en", "a4") == sheets.cache_path("quick-start", "en", "a4",
                                                                              audience=DEFAULT_AUDIENCE)
    assert DEFAULT_AUDIENCE.players == 4 and DEFAULT_AUDIENCE.mode == "action"
    # a sheet that is the same for every audience has one file
    assert len({sheets.cache_path("rules", "en", "a4", audience=t) for t in AUDIENCES}) == 1
    assert audiences_of("rules") == (DEFAULT_AUDIENCE,) and set(audiences_of("teach")) == set(AUDIENCES)


def test_the_default_url_serves_the_three_four_action_version(client, tmp_path, monkeypatch):
    monkeypatch.setattr(sheets, "CACHE_DIR", tmp_path / "cache")
    for audience in AUDIENCES:  # stand-ins in the cache: which file answers is what is tested
        path = sheets.cache_path("quick-start", "de", "letter", audience=audience)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(f"%PDF-{audience.slug}".encode())
    assert client.get("/de/sheets/quick-start.pdf?paper=letter").content == b"%PDF-34-action"
    assert client.get("/de/sheets/quick-start.pdf?paper=letter&players=2&mode=strategy").content \
        == b"%PDF-2-strategy"
    assert client.get("/de/sheets/quick-start.pdf?paper=letter&players=3-4&mode=Strategy").content \
        == b"%PDF-34-strategy"


# --- bad values ---------------------------------------------------------------------------------
@pytest.mark.parametrize("query, says", [
    ("players=5", {"en": "2 or 3-4", "de": "2 oder 3-4", "ja": "2 か 3-4"}),
    ("players=", {"en": "?players=2", "de": "?players=2", "ja": "?players=2"}),
    ("mode=turns", {"en": "action or strategy", "de": "action oder strategy", "ja": "action か strategy"}),
])
@pytest.mark.parametrize("lang", LANGS)
def test_bad_players_or_mode_is_a_400_that_says_what_and_where(client, query, says, lang):
    for name in ("quick-start", "teach", "rules"):
        response = client.get(f"/{lang}/sheets/{name}.pdf?{query}")
        assert response.status_code == 400, (name, query)
        body = response.content.decode()
        assert says[lang] in body, body
        assert response["Content-Type"].startswith("text/plain")
    other = "Spieler" if lang == "de" else "プレイヤー" if lang == "ja" else "Players"
    assert other in client.get(f"/{lang}/sheets/teach.png?players=9").content.decode()


# --- what paper says -----------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(SHEETS))
def test_no_sheet_points_at_a_screen_or_a_board_below(name, lang):
    for audience in audiences_of(name):
        text = _text(printed_html(sheet_html(name, lang, audience=audience), lang))
        found = [text[max(0, m.start() - 30):m.end() + 30] for m in POINTING[lang].finditer(text)]
        assert not found, (name, audience.slug, lang, found)
        assert 'class="web-only"' not in sheet_html(name, lang, audience=audience)


def test_the_patterns_catch_what_they_are_for():
    assert POINTING["en"].search("Follow the example on the board below")
    assert POINTING["de"].search("Auf dem Brett unten") and POINTING["de"].search("wie oben")
    assert not POINTING["de"].search("Karten von oben nach unten in Reihen")
    assert POINTING["ja"].search("下の盤面で試してください") and POINTING["ja"].search("スマホをタップ")
    assert not POINTING["ja"].search("カードの下の財宝、8枚以下の場、上の行から")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("audience", AUDIENCES, ids=lambda t: t.slug)
@pytest.mark.parametrize("name", AUDIENCE_SHEETS)
def test_variants_are_marked_boxes_where_they_mean_something(name, audience, lang):
    html = sheet_html(name, lang, audience=audience)
    boxes = re.findall(r'<aside class="variant-box"[^>]*>.*?<span class="cid">(VAR-\d)</span>', html,
                       re.DOTALL)
    expected = {b.clause for b in VARIANT_BOXES if audience.mode in b.modes}
    assert set(boxes) == expected and len(boxes) == len(expected), (name, audience.slug, boxes)
    assert ("VAR-3" in boxes) is (audience.mode == "action")  # strategy mode has no bell (STRAT-1)
    with translation.override(lang):
        for box in VARIANT_BOXES:
            assert (str(box.title) in html) is (box.clause in expected)


@pytest.mark.parametrize("audience", AUDIENCES, ids=lambda t: t.slug)
def test_the_examples_are_those_of_the_table(audience):
    html = sheet_html("quick-start", "en", audience=audience)
    widths = {int(w) for w in re.findall(r'viewBox="0 0 (\d+) \d+" class="board-svg"', html)}
    side = 3 if audience.players == 2 else 4
    assert widths == {26 + side * 100 + (side - 1) * 8}, widths
    assert ("seats red, blue)" in html) is (audience.players == 2)


def test_the_quick_start_leaves_the_first_round_to_the_table_and_the_full_script_keeps_it():
    quick = sheet_html("quick-start", "en")
    full = sheet_html("teach", "en")
    assert "First round:" not in quick and "First round:" in full


# --- choosing a version --------------------------------------------------------------------------
def test_sheets_page_offers_every_table_without_javascript(client):
    html = client.get("/de/sheets/").content.decode()
    for name in AUDIENCE_SHEETS:
        form = re.search(rf'<form[^>]*method="get"[^>]*action="/de/sheets/{name}\.pdf"[^>]*>(.*?)</form>',
                         html, re.DOTALL)
        assert form, name
        body = form.group(1)
        assert set(re.findall(r'<select name="(\w+)"', body)) == {"players", "mode", "paper"}
        assert set(re.findall(r'<option value="([\w-]+)"', body)) >= {"2", "3-4", "action", "strategy",
                                                                      "a4", "letter"}
        assert 'type="submit"' in body


@pytest.mark.django_db
@pytest.mark.parametrize("players, mode, script, sheet, query", [
    ("4", "action", "quick", "quick-start", "players=3-4&amp;mode=action"),
    ("3", "strategy", "full", "teach", "players=3-4&amp;mode=strategy"),
    ("2", "strategy", "quick", "quick-start", "players=2&amp;mode=strategy"),
    ("2", "action", "full", "teach", "players=2&amp;mode=action"),
])
def test_presenter_links_to_the_sheet_of_its_table(client, players, mode, script, sheet, query):
    response = client.post("/en/teach/", {"players": players, "mode": mode, "script": script})
    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    link = re.search(r'<a href="([^"]+)"[^>]*data-testid="table-sheet-link"', html)
    assert link and link.group(1) == f"/en/sheets/{sheet}.pdf?{query}", link and link.group(1)
    url = link.group(1).replace("&amp;", "&")
    assert Client().head(url).status_code == 200


#: Where the quick start states the rule of a card it leaves out (QUICK_STATED), by clause:
#: the card or sentence that says it, as a message id.
STATED_BY = {
    "SET-4": "You may hold dice on more cards than you have attack cards in hand. Setting Time sorts it "
             "out: an empty hand takes back its discard pile.",
    "TRE-3": "The bell ends Dice Time at once, and whoever rang becomes the start player. That is worth a "
             "lot: the start player goes first whenever things happen at the same time.",
    "BAT-5": "A card that acts removes every card of the other players in its range; your own cards are "
             "safe. [1] hits the 8 positions around it, [2] its row, [3] its column, [4] both its "
             "diagonals.",
    "SET-2": "Go round until no dice are left on the grid. Choose well: the cards fight next.",
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("audience", AUDIENCES, ids=lambda t: t.slug)
def test_quick_start_leaves_out_only_the_cards_it_states_elsewhere(audience, lang):
    from tutorials.sheets.content import QUICK_STATED
    from tutorials.tutorial.comes_up import cards_for
    from tutorials.tutorial.reading import taught_clauses
    from tutorials.tutorial.teaching import stored_options

    html = sheet_html("quick-start", lang, audience=audience)
    options = stored_options({"script": "quick", "players": audience.players, "mode": audience.mode})
    on_sheet = set(re.findall(r'<dt>.*?<span class="cid">([A-Z]+-\d+)</span></dt>', html))
    presenter = {c.clause for c in cards_for(options, taught_clauses(options))}
    left_out = presenter - on_sheet
    assert on_sheet <= presenter
    assert left_out == {c for c, modes in QUICK_STATED.items() if audience.mode in modes} & presenter
    assert "TRE-3" in on_sheet or audience.mode == "action"
    with translation.override(lang):
        for clause in left_out:
            assert translation.gettext(STATED_BY[clause]) in html, clause
    full = set(re.findall(r'<dt>.*?<span class="cid">([A-Z]+-\d+)</span></dt>',
                          sheet_html("teach", lang, audience=audience)))
    full_options = {**options, "script": "full"}
    assert full == {c.clause for c in cards_for(full_options, taught_clauses(full_options))}
